"""The ruling of an action before it is committed (``Ruleset.explain``) and its one-line
description in English or French (``describe_action``)."""

from __future__ import annotations

from fractions import Fraction

from . import turn
from .actions import Action
from .rules import rules
from .state import Battle


def describe(state: Battle, a: Action, lang: str = "en") -> str:
    fr = lang == "fr"
    name = (lambda uid: state.units[uid].name if uid in state.units else str(uid))
    if a.type == "place":
        return (f"Placer {name(a.unit)} en ({a.x:.1f}, {a.y:.1f})" if fr
                else f"Place {name(a.unit)} at ({a.x:.1f}, {a.y:.1f})")
    if a.type == "command_test":
        return f"Test de commandement : {name(a.unit)}" if fr else f"Command test: {name(a.unit)}"
    if a.type == "orders":
        ids = [oid for _, oid, _ in a.orders]
        named = rules().order_names
        label = (lambda o: (named[o].printed if fr else named[o].name_en) if o in named else o)
        counts = ", ".join(f"{ids.count(o)} × {label(o)}" for o in sorted(set(ids))) or ("aucun" if fr else "none")
        return f"Donner les ordres (face cachée) : {counts}" if fr else f"Give the orders (face down): {counts}"
    if a.type == "brigade":
        units = ", ".join(name(x) for x in (a.units or ())) or ("aucune" if fr else "none")
        return (f"Brigade de {name(a.unit)} : {units}" if fr else f"{name(a.unit)}'s brigade: {units}")
    if a.type == "battle_orders":
        from .command_data import data
        rows = data().orders
        label = (lambda o: (rows[o].printed if fr else rows[o].name_en) if o in rows else o)
        parts = "; ".join(f"{name(c)} : {label(o)}" + (f" → {name(t)}" if t else "") for c, o, t in a.orders or ())
        return (f"Ordres de bataille (secrets) — {parts}" if fr else f"Battle orders (secret) — {parts}")
    if a.type == "move":
        u = state.units.get(a.unit)
        dist = ((a.x - u.x) ** 2 + (a.y - u.y) ** 2) ** 0.5 if u else 0.0
        return (f"Déplacer {name(a.unit)} de {dist:.1f} cm vers ({a.x:.1f}, {a.y:.1f}), cap {a.heading:.0f}°" if fr
                else f"Move {name(a.unit)} {dist:.1f} cm to ({a.x:.1f}, {a.y:.1f}), heading {a.heading:.0f}°")
    if a.type == "react":
        r = {"stand": ("stands", "reste en place"), "counter_charge": ("counter-charges (reaction test)",
             "contre-charge (test de réaction)"), "evade": ("evades (reaction test)", "s'évade (test de réaction)"),
             "fire": ("fires at the charger (reaction test)", "tire sur le chargeur (test de réaction)"),
             "form_column": ("changes into column at once (reaction test)", "passe en colonne immédiatement (test de réaction)"),
             "form_line": ("changes into line at once (reaction test)", "passe en ligne immédiatement (test de réaction)"),
             "form_open": ("changes into open order at once (reaction test)",
                           "passe en ordre ouvert immédiatement (test de réaction)"),
             "cancel_change": ("cancels its formation change (reaction test)",
                               "annule son changement de formation (test de réaction)")}
        en, fr_ = r.get(a.reaction, (a.reaction, a.reaction))
        return f"{name(a.unit)} {fr_ if fr else en}"
    if a.type == "cast":
        from ..magic import data as magic_data
        sp = magic_data().spells.get(a.spell)
        label = (sp.printed if fr else sp.name_en) if sp else a.spell
        from . import spells as spells_mod
        bld = spells_mod.building(state, a.target)  # a spell cast at a building (OR-GF121)
        what = (bld.name_fr or bld.name or bld.id) if bld is not None and fr else \
            (bld.name or bld.id) if bld is not None else name(a.target)
        to = "" if a.x is None else (f" → ({a.x:.1f}, {a.y:.1f})")  # Vol d'Ehecatl's destination (OR-GF123)
        return (f"{name(a.unit)} lance « {label} » sur {what}{to}" if fr
                else f"{name(a.unit)} casts « {label} » at {what}{to}")
    if a.type == "ambush":
        return (f"Placer {name(a.unit)} en embuscade en ({a.x:.1f}, {a.y:.1f})" if fr
                else f"Place {name(a.unit)} in ambush at ({a.x:.1f}, {a.y:.1f})")
    if a.type == "place_base":
        return (f"Placer la base leurre {a.base} en ({a.x:.1f}, {a.y:.1f})" if fr
                else f"Place the decoy base {a.base} at ({a.x:.1f}, {a.y:.1f})")
    if a.type == "move_base":
        return (f"Déplacer la base leurre {a.base} vers ({a.x:.1f}, {a.y:.1f})" if fr
                else f"Move the decoy base {a.base} to ({a.x:.1f}, {a.y:.1f})")
    if a.type == "hide" and state.phase != 0:
        return (f"Cacher {name(a.unit)} derrière un bâtiment (hors de la table)" if fr
                else f"Hide {name(a.unit)} behind a building (off the table)")
    if a.type == "hide":
        if a.x is not None:   # a unit not yet placed: the place written on the plan
            return (f"Cacher {name(a.unit)} en ({a.x:.1f}, {a.y:.1f}), hors de la table (position écrite sur le plan)"
                    if fr else f"Hide {name(a.unit)} at ({a.x:.1f}, {a.y:.1f}), off the table (its place written on the plan)")
        return (f"Cacher {name(a.unit)} hors de la table (position écrite sur le plan)" if fr
                else f"Hide {name(a.unit)} off the table (its place written on the plan)")
    if a.type == "flank_march":
        edge = ({"left": "gauche", "right": "droit"}.get(a.edge, a.edge) if fr else a.edge)
        return (f"Marche de flanc : {name(a.unit)} entrera par le bord {edge} en y = {a.y:g} (dès le tour {a.turn})"
                if fr else f"Flank march: {name(a.unit)} to enter by the {edge} edge at y = {a.y:g} (from turn {a.turn})")
    if a.type == "omen":
        return (f"Dépenser un présage : relancer le test de commandement de {name(a.unit)}" if fr
                else f"Spend an omen: re-roll {name(a.unit)}'s command test")
    if a.type == "release":
        return (f"{name(a.unit)} annule la « Possession de Coyolxauhqui » sur {name(a.target)}" if fr
                else f"{name(a.unit)} cancels « Possession de Coyolxauhqui » on {name(a.target)}")
    if a.type == "cape":
        from . import illusion
        cape = illusion.sources()[illusion.CAPE]  # its turns and uses: data/spell_effects.toml (l.236)
        return (f"{name(a.unit)} utilise la « {cape.item} » : invisible {cape.turns} tours "
                f"({cape.uses_per_battle} fois par bataille)" if fr
                else f"{name(a.unit)} uses the « {cape.item} »: invisible for {cape.turns} turns "
                f"({cape.uses_per_battle} use a battle)")
    if a.type == "conch":
        from . import item_actions, items_play
        c, bonus = items_play.conch(), item_actions.conch_bonus()  # data/items_play.toml, its morale row (l.232)
        return (f"{name(a.unit)} sonne la « {c.item} » : {bonus:+d} au moral des unités amies à {c.radius_cm:g} cm "
                f"pendant {c.turns} tours (une fois par bataille)" if fr
                else f"{name(a.unit)} sounds the « {c.item} »: {bonus:+d} to the morale of the friendly units within "
                f"{c.radius_cm:g} cm for {c.turns} turns (once a battle)")
    if a.type == "feather":
        from . import items_play
        f = items_play.feather()
        return (f"{name(a.unit)} vole avec la « {f.item} » jusqu'en ({a.x:g}, {a.y:g}) (une fois par bataille)" if fr
                else f"{name(a.unit)} flies with the « {f.item} » to ({a.x:g}, {a.y:g}) (once a battle)")
    if a.type == "intervene":
        return (f"{name(a.unit)} demande une intervention divine pour {name(a.target)}" if fr
                else f"{name(a.unit)} calls for a divine intervention for {name(a.target)}")
    if state.phase == 0:
        return "Déploiement terminé" if fr else "Deployment done"
    return "Terminer les mouvements" if fr else "End the moves"


def ruling(rs, state: Battle, a: Action) -> dict:
    ph = rules().phase(state.phase) if state.phase else None
    out = {"legal": True, "type": a.type, "phase": state.phase, "citations": [ph.ref if ph else turn.REF_DEPLOY],
           "steps": [describe(state, a)], "steps_fr": [describe(state, a, "fr")]}
    if a.type == "command_test":
        outs = rs.chance_outcomes(state, a)
        out["outcomes"] = [{"result": o.label, "p": float(o.probability), "p_exact": str(o.probability)} for o in outs]
        passed = next((o.probability for o in outs if o.label == "passed"), Fraction(0))
        out["percent"] = round(float(passed) * 100)
        out["steps"].append(f"passes on d100 ≤ threshold: {out['percent']} %")
        out["steps_fr"].append(f"réussi sur d100 ≤ seuil : {out['percent']} %")
        out["citations"] += [turn.REF_COMMAND, "GF-C1"]
    elif a.type == "cast":
        from . import magic_play
        pv = magic_play.preview(state, a.unit, a.spell, a.target,
                                destination=None if a.x is None else (a.x, a.y, a.heading))
        out["percent"] = pv["percent"]
        out["steps"] += pv["explanation"]
        out["citations"] += pv["citations"] + ["OR-GF40"]
    elif a.type == "omen":
        from . import omens
        out["percent"] = omens.odds(state, a.unit)
        out["steps"].append(f"the new roll passes on d100 ≤ threshold: {out['percent']} %")
        out["steps_fr"].append(f"le nouveau jet réussit sur d100 ≤ seuil : {out['percent']} %")
        out["citations"] += [omens.REF, omens.DECISION, turn.REF_COMMAND]
    elif a.type == "intervene":
        from . import spells
        rows = spells.intervention_rows()
        bounds = [r.start for r in rows] + [101]
        out["outcomes"] = [{"result": r.effect, "p": (bounds[i + 1] - r.start) / 100, "ref": r.ref}
                           for i, r in enumerate(rows)]
        out["steps"].append("d100 on the divine intervention table: "
                            + ", ".join(f"{r.start}–{bounds[i + 1] - 1} {r.effect}" for i, r in enumerate(rows)))
        out["steps_fr"].append("d100 sur la table des interventions divines : "
                               + ", ".join(f"{r.start}–{bounds[i + 1] - 1} {r.effect}" for i, r in enumerate(rows)))
        out["citations"] += [spells.intervention_rule().ref, "OR-GF116"]
    elif a.type == "orders":
        from . import fire_announce
        fire = {}
        for uid, oid, target in a.orders or ():
            if oid != fire_announce.FIRE_ORDER:
                continue
            if fire_announce.withheld(state, uid):
                en, fr = fire_announce.withheld_lines(state, uid)
                out["steps"].append(en)
                out["steps_fr"].append(fr)
                continue
            pv = fire_announce.preview(state, uid, target)
            fire[uid] = pv
            en, fr = fire_announce.ruling_lines(state, uid, pv)
            out["steps"] += en
            out["steps_fr"] += fr
            out["citations"] += pv["citations"]
        if fire:
            out["fire"] = fire
            out["citations"] = list(dict.fromkeys(out["citations"]))
    elif a.type in ("ambush", "place_base", "move_base"):   # an encounter's bases: why the spot is allowed
        from . import encounter, fog
        if a.type == "move_base":
            dist, limit = encounter.check_move_base(state, a), encounter.decoy_allowance(state, a.side)
            out["steps"].append(f"the decoy base moves {dist:.1f} cm of its {limit:g} cm (the normal move of the "
                                f"side's fastest unit on a base), straight")
            out["steps_fr"].append(f"la base leurre se déplace de {dist:.1f} cm sur {limit:g} cm (le mouvement normal "
                                   f"de l'unité la plus rapide du camp sur une base), en ligne droite")
            out["citations"] += [fog.data()["base"].ref, "OR-GF101"]
        elif a.type == "ambush":
            verdict = encounter.check_ambush(state, state.units[a.unit], a.x, a.y, a.heading)
            out["steps"] += list(verdict.get("explanation") or [])
            out["citations"] += list(verdict.get("citations") or []) + [encounter.REF_AMBUSH]
        else:
            out["steps"].append(f"the base stands inside side {a.side}'s deployment zone; the enemy sees an "
                                f"anonymous base")
            out["steps_fr"].append(f"la base est dans la zone de déploiement du camp {a.side} ; l'ennemi voit une "
                                   f"base anonyme")
            out["citations"].append(encounter.REF_DEPLOY)
    elif a.type == "hide":   # why the unit may stay off the table there (l.497, OR-GF105)
        from . import encounter, fog
        u = state.units[a.unit]
        out["steps"] += encounter.check_hide(state, u, encounter.hide_at(a, u))
        hide = fog.data()["hide"]
        out["citations"] += [hide.ref, hide.decision]
    elif a.type == "flank_march":   # the plan's verdict: the edge, the place, the turn, the points (GF-K4)
        from . import encounter
        verdict = encounter.check_flank(state, a)["verdict"]
        out["steps"] += list(verdict.get("explanation") or [])
        out["citations"] += list(verdict.get("citations") or []) + [encounter.REF_FLANK]
    elif a.type == "feather":   # how far he flies (l.237, OR-GF153)
        import math

        from . import items_play
        u, f = state.units[a.unit], items_play.feather()
        far = math.hypot(a.x - u.x, a.y - u.y)
        out["steps"].append(f"{far:.1f} cm of {f.amount:g}, over whatever lies between: his move of this turn")
        out["steps_fr"].append(f"{far:.1f} cm sur {f.amount:g}, par-dessus tout ce qui se trouve entre : son mouvement du tour")
        out["citations"] += [f.ref, f.decision]
    elif a.type == "conch":   # who hears it now (l.232, OR-GF152)
        from . import item_actions, items_play
        c = items_play.conch()
        heard = item_actions.conch_hearers(state, state.units[a.unit])
        names = ", ".join(v.name or v.id for v in heard) or "no friendly unit"
        out["units"] = [v.id for v in heard]
        bonus = item_actions.conch_bonus()
        out["steps"].append(f"within {c.radius_cm:g} cm: {names}; {bonus:+d} to their morale tests for {c.turns} turns")
        out["steps_fr"].append(f"à {c.radius_cm:g} cm : {names} ; {bonus:+d} à leurs tests de moral pendant {c.turns} tours")
        out["citations"] += [c.ref, c.decision]
    elif a.type == "move":
        u = state.units[a.unit]
        budget, direction, keep, steps = turn.move_budget(u, state)
        from . import moves
        res = moves.check_destination(state, u, a.x, a.y, a.heading, budget=budget, direction=direction,
                                      keep_heading=keep)
        out["move"] = res
        out["steps"] += [s["text"] for s in steps] + res["steps"]
        out["citations"] += [s["ref"] for s in steps]
    return out
