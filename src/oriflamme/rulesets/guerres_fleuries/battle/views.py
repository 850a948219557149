"""What a side may see (the only place hidden information is filtered): the view JSON the browser
and the terminal draw (shape agreed in GF2: turn, phase, phases, table, units, orders_submitted,
to_act), the options of the side to act, and the log as a side sees it.

Hidden: the other side's orders until they are revealed in phase 4 (l.275, l.283) — a unit then
shows ``"order": null, "order_hidden": true``; a spectator (side None) sees no order before the
reveal. The private event carrying a side's orders is shown to that side only. A unit hidden in a
building (l.784, OR-GF83) is left out of the other side's (and a spectator's) units, and the events
about it while it hides are its side's only (``actions.emit``)."""

from __future__ import annotations

from oriflamme.geometry import tabletop as tt

from . import battle_orders, brigades, coyolxauhqui, buildings_play, explain, fighters, fog, orders as orders_mod, spells, turn, victory
from .rules import rules
from .state import Battle, Unit, plain


def order_visible(state: Battle, u: Unit, side: str | None) -> bool:
    """The orders are face down until the reveal (l.275), but for the side's own and for a side laying
    them face up under *Paroles de vérité* (l.1264, OR-GF124)."""
    # a character an enemy priest possesses takes his orders from the priest's side (OR-GF127): they are
    # that side's, face down to his own until the reveal
    owner = coyolxauhqui.master(state, u) or u.side
    return ((side is not None and owner == side) or state.revealed
            or (state.orders_in.get(owner, False) and not spells.orders_face_down(state, owner)))


def order_json(u: Unit) -> dict | None:
    if u.order is None:
        return None
    r = rules()
    name = r.order_names.get(u.order)
    return {"id": u.order, "name": name.name_en if name else u.order,
            "name_fr": name.printed if name else u.order, "target": u.target,
            "ref": r.order_play[u.order].ref if u.order in r.order_play else "",
            **({"targets": list(u.fire_targets)} if u.fire_targets else {})}


def unit_json(state: Battle, u: Unit, side: str | None) -> dict:
    visible = order_visible(state, u, side)
    engaged = sorted(v.id for v in fighters.enemies(state, u) if fighters.touching(u, v)) if u.alive else []
    corners = u.inside_points if u.inside_points else tt.corners(u.pose, u.width, u.depth)
    return {"id": u.id, "side": u.side, "name": u.name, "kind": u.kind, "type": u.type, "class": u.cls,
            "race": u.race, "mover": u.mover, "weapons": list(u.weapons), "armour": list(u.armour_items),
            "missile": u.missile, "melee_weapon": u.melee_weapon, "armour_row": u.armour, "shields": u.shields,
            "figures": u.figures, "figures_max": u.figures_max, "points": u.points,
            "formation": u.formation, "frontage": u.front, "ranks": u.ranks,
            "x": round(u.x, 2), "y": round(u.y, 2), "heading": round(u.heading, 2),
            "width": round(u.width, 2), "depth": round(u.depth, 2),
            "corners": [[round(x, 2), round(y, 2)] for x, y in corners],
            "disorder": u.disorder, "markers": list(u.markers),
            "order": order_json(u) if visible else None,
            "order_hidden": (not visible) and u.order is not None,
            "status": u.status, "alive": u.alive,
            "engaged": engaged, "led_by": u.led_by, "leads": u.leads, "flyer": u.flyer,
            "altitude": u.altitude, "fc": u.FC, "fm": u.FM, "cm": u.CM, "wounds": list(u.wounds),
            "moved": u.moved, "base": u.base, "charging": u.charging if visible or state.revealed else False,
            "brigade": u.brigade, "battle_order": battle_orders.unit_view(state, u, side),
            "inside": u.inside, "hidden": u.hidden,
            "behind": u.behind["building"] if u.behind else None,
            "split": ({"building": u.split["building"], "inside": u.split["inside"],
                       "outside": u.figures - u.split["inside"]} if u.split else None)}


def _brigades_seen(state: Battle, side: str | None) -> list[dict]:
    """The brigades ``side`` may see: none led by a character it cannot see, and only the units it
    sees (an encounter's movement bases hide what they carry, OR-GF100, OR-GF101)."""
    out = []
    for b in brigades.view(state):
        c = state.units.get(b["character"])
        if c is not None and fog.unseen(state, c, side):
            continue
        def seen(ids):
            return [uid for uid in ids if uid in state.units and not fog.unseen(state, state.units[uid], side)]
        out.append({**b, "units": seen(b["units"]), "given": seen(b["given"])})
    return out


def table_json(state: Battle) -> dict:
    """gf-geom's view of the table (terrain with its kind, shape, points and citation; the zones)."""
    out = state.battlefield.view()
    out["ref"] = rules().table.ref
    out["buildings"] = buildings_play.view(state)
    out["carcasses"] = [dict(c) for c in state.carcasses]
    return out


def phase_json(state: Battle) -> dict:
    if state.phase == 0:
        return {"id": "deployment", "number": 0, "name": "Deployment", "name_fr": "Déploiement",
                "ref": turn.REF_DEPLOY}
    return rules().phase(state.phase).to_json()


def view(state: Battle, side: str | None, events: list[dict]) -> dict:
    return plain(_view(state, side, events))


def _view(state: Battle, side: str | None, events: list[dict]) -> dict:
    sc = state.scenario
    return {"ruleset": "guerres-fleuries", "scenario": sc.id, "turn": state.turn, "last_turn": sc.turns,
            "phase": phase_json(state), "phases": [p.to_json() for p in rules().phases],
            "table": table_json(state),
            "sides": [{"id": s.id, "name": s.name, "name_fr": s.name_fr} for s in sc.sides],
            # a unit on a movement base, marching on a flank or hidden in a building is not on the
            # enemy's table (GF-K4, GF-K5; l.784, l.786; OR-GF83)
            "units": [unit_json(state, u, side) for u in state.units.values() if not fog.unseen(state, u, side)],
            **encounter_json(state, side),
            "orders_submitted": dict(state.orders_in), "revealed": state.revealed,
            # brigades stand on the table for both sides to see; written battle orders are only a
            # side's own (OR-GF94)
            "brigades": _brigades_seen(state, side), "battle_orders": battle_orders.side_view(state, side),
            "writing_battle_orders": (not state.over and state.phase == 0 and all(s in state.done for s in ("A", "B"))),
            "to_act": None if state.over else state.acting, "active": None if state.over else state.acting,
            "over": state.over, "winner": state.winner, "result": state.result, "result_fr": state.result_fr,
            "losses": victory.summary(state), "victory": {"ref": rules().victory.ref, "decision": "OR-GF33",
                                                           "turn_limit": sc.turns,
                                                           "broken_share": rules().victory.broken_share},
            "log": events}


def encounter_json(state: Battle, side: str | None) -> dict:
    """An encounter battle's public pre-battle state and the bases as ``side`` sees them (the
    enemy's: anonymous counters); a side's own flank marches only to it (GF-K3, K4, K5)."""
    if not state.fog:
        return {}
    f = state.fog
    own = f["flank"].get(side, {}) if side in ("A", "B") else {}
    return {"encounter": {"discovered": dict(f["discovered"]), "deploy_order": list(f["queue"]),
                          "movement_bases": list(f["bases_sides"]), "ambush": f["ambush"],
                          "ambush_unit": f["ambush_unit"] if side == f["ambush"] else None,
                          "flank_marches": {edge: {k: v for k, v in force.items()} for edge, force in own.items()},
                          "ref": fog.data()["encounter"].ref},
            "bases": fog.bases_json(state, side)}


def visible(ev: dict, side: str | None) -> bool:
    return ev.get("private") is None or ev.get("private") == side


def options(state: Battle, side: str | None, legal) -> dict:
    """The choices of ``side`` grouped per unit (GF2's shape), plus the flat list of actions."""
    return plain(_options(state, side, legal))


def _options(state: Battle, side: str | None, legal) -> dict:
    out: dict = {"units": {}, "phase": phase_json(state), "actions": []}
    if side is None or state.over or state.acting != side:
        return out
    for a in legal:
        out["actions"].append({"action": a.to_json(), "label": explain.describe(state, a),
                               "label_fr": explain.describe(state, a, "fr")})
        if a.type == "cast":
            out["units"].setdefault(a.unit, {}).setdefault("casts", []).append(
                {"spell": a.spell, "target": a.target, **({"x": a.x, "y": a.y, "heading": a.heading}
                                                           if a.x is not None else {}),
                 "label": explain.describe(state, a),
                 "label_fr": explain.describe(state, a, "fr")})
            book = out["units"][a.unit].setdefault("spells", {})
            if a.spell not in book:
                book[a.spell] = spell_json(a.spell)
    if any(a.type == "battle_orders" for a in legal):
        out["battle_orders"] = {c.id: {"name": c.name, "choices": battle_orders.choices(state, c),
                                       "barred": battle_orders.barred(state, c)}
                                for c in battle_orders.commanders(state, side)}
    if state.phase == 3:
        for u in orders_mod.eligible(state, side):
            out["units"].setdefault(u.id, {})["orders"] = orders_mod.options(state, u)
        for a in legal:
            if a.type == "hide":  # behind a building (l.786, OR-GF144)
                rule = buildings_play.behind_rule()
                out["units"].setdefault(a.unit, {}).update(
                    hide=True, hide_behind={"ref": rule.ref, "decision": rule.decision, "within_cm": rule.behind_cm})
    elif state.phase == 6:
        for a in legal:
            if a.type == "move_base":
                from . import encounter
                entry = out.setdefault("bases", {}).setdefault(a.base, {"max_cm": round(encounter.decoy_allowance(
                    state, side), 2), "ref": fog.data()["base"].ref, "samples": []})
                entry["samples"].append([a.x, a.y, a.heading])
        by_unit: dict = {}
        for a in legal:
            if a.type == "move":
                by_unit.setdefault(a.unit, []).append([a.x, a.y, a.heading])
        for u in turn.movers(state, side):
            budget, direction, keep, steps = turn.move_budget(u, state)
            out["units"].setdefault(u.id, {})["moves"] = {"max_cm": round(budget, 2), "direction": direction,
                                            "keep_heading": keep, "steps": steps, "penalties": [],
                                            "samples": by_unit.get(u.id, [])}
    elif state.phase == 2:
        for a in legal:
            out["units"][a.unit] = {"command_test": True}
    elif state.phase == 0:
        for a in legal:
            if a.type == "place":
                out["units"].setdefault(a.unit, {})["place"] = True
            elif a.type == "brigade":
                out["units"].setdefault(a.unit, {})["brigade"] = list(a.units or ())
            elif a.type in ("ambush", "flank_march", "hide"):
                out["units"].setdefault(a.unit, {})[a.type] = True
                if a.type == "hide":  # where it stands, its place on the battle plan (l.497, OR-GF105)
                    out["units"][a.unit]["hide_here"] = {"ref": fog.data()["hide"].ref,
                                                         "decision": fog.data()["hide"].decision}
            elif a.type == "place_base":
                out.setdefault("bases", {})[a.base] = {"place": True}
        if state.fog and any(a.type == "end_phase" for a in legal):
            # a unit not yet placed may hide at a place written on the plan (l.497, OR-GF105): any spot, the
            # server rules on it (encounter.check_hide)
            for u in state.side_units(side):
                if not u.moved and u.base is None and u.kind in ("troop", "character"):
                    out["units"].setdefault(u.id, {})["hide_at"] = {"ref": fog.data()["hide"].ref,
                                                                    "decision": fog.data()["hide"].decision}
    return out


def spell_json(spell: str) -> dict:
    """What the page needs to let a spell's target or destination be picked on the table: its names, its
    range, whether a building may be its target (OR-GF121) and how far it sets a character down (OR-GF123).
    The rules' own numbers (data/magic.toml, data/spell_effects.toml); the server still checks every cast."""
    from ..magic import data as magic_data
    sp, row = magic_data().spells[spell], spells.spell_effects()[spell]
    out = {"name": sp.name_en, "name_fr": sp.printed, "range_cm": sp.distance_cm, "buildings": bool(row.on_building),
           "ref": row.ref}
    if row.effect == "jump":
        out["jump_cm"] = row.amount
        out["decision"] = row.decision
    return out
