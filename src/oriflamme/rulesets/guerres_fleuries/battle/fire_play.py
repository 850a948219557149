"""Phase 8, fire (GF Le tir, seed 003 l.822-925; Tirs l.1452-1511): who may fire, at what, with
which percentage — the part-1 referee (kind ``fire``) rules every volley on a situation read off the
table — and the casualties, removed simultaneously after every unit has fired, followed by the
morale tests of every unit that suffered losses (l.828, l.301).

Who fires: a unit with the order *tirer* and a missile weapon, not routing nor retreating, not in
melee. At what: an enemy visible (tabletop line of sight, procedure step 1), at least partly in the
45° fire arc (step 2, OR-GF50), within the weapon's maximum range, measured between the farthest points of
the two units (step 3, GF-E7; OR-GF60 and data/combat.toml [fire_range] for its house option), not in melee (l.840), not a character directly controlling a unit (l.881).
The priorities (l.1454-1459) choose among the eligible targets; the order's targets (up to three, l.830,
l.840) are kept when they are of the best priority present, and the firing files are shared between
them (:mod:`.volleys`, OR-GF110; one target: OR-GF51). Figures firing: the firing ranks
of the weapon (GF-E8; the first rank only from woods, l.726) × the frontage.
"""

from __future__ import annotations

from oriflamme.geometry import tabletop

from .. import fire as fd
from .. import movement as mv
from ..referee import adjudicate
from . import combat_data, items_play, lasting, morale_play, spell_modifiers, spells, volleys, weather
from .casualties import Ledger
from .fighters import (alive, cover_of, depth, enemies, finish, friends, in_combat, in_woods, pose, shape,
                       sight_obstacles, target_armour, target_kind, touching, unit, units, width)

FIRE_ORDER = "tirer"
OPEN = ("open", "ordre_ouvert")
ALTITUDE = {"combat": "combat", "vol": "vol", "flight": "vol"}
EXCLUDED_REF = "GF seed 003 l.840"


def distance(u, t) -> tuple[float, str]:
    """The range of ``t`` from ``u`` (procedure step 3, data/combat.toml [fire_range]) and how it was
    measured: GF-E7, between the farthest points of the two units (the default); or, as the house
    option of OR-GF60 when the data says so, the farthest firing figure (each front-rank figure's
    place on the front edge) from the nearest point of the target."""
    if combat_data.data().fire_range.measure == "farthest_points":
        return tabletop.farthest_distance(shape(u), shape(t)), "between the farthest points of the two units (GF-E7)"
    edge = tabletop.front_edge(pose(u), width(u), depth(u))
    n = max(1, min(u.frontage, u.figures))
    target = shape(t)
    far = max(tabletop.nearest_distance(edge.interpolate((i + 0.5) / n, normalized=True), target) for i in range(n))
    return far, "from the farthest firing figure to the target (OR-GF60, house option)"


def max_range(u) -> int:
    row = fd.pbt()[(u.race, u.missile)]
    return row.longue + (fd.weapons()[u.missile].propulseur_cm if u.propulseur else 0)


def firing_figures(state, u, t=None) -> tuple[int, list[str]]:
    """The figures that fire: the front-rank files that see the target (procedure step 1, l.844: "seules
    les figurines ayant la visibilité peuvent tirer"; a line of sight from each file's place on the front
    edge) × the weapon's firing ranks (GF-E8; the first rank only from woods, l.726)."""
    if getattr(u, "inside", None):
        from . import buildings_play  # through a wall, one rank a floor (l.790, OR-GF84)
        return buildings_play.firing_figures(state, u, t)
    used, why = firing_ranks(state, u)
    front = min(u.frontage, u.figures)
    files, steps = front, []
    if t is not None:
        files = seeing_files(state, u, t)
        if files < front:
            steps.append(f"{front - files} of the {front} files cannot see {t.name or t.id}: they do not fire")
    split = getattr(u, "split", None)
    outside = u.figures - split["inside"] if split else u.figures
    n = min(outside, files * used)
    steps = steps + [f"{why}: {n} figure(s) fire ({files} file(s) × {used} rank(s))"]
    if split:  # a unit partly in a building: its figures inside fire through the wall too (l.790, OR-GF143)
        from . import buildings_play
        more, more_steps = buildings_play.firing_figures(state, u, t)
        n, steps = n + more, steps + more_steps + [f"{n + more} figure(s) fire in all (OR-GF143)"]
    return n, steps


def firing_ranks(state, u) -> tuple[int, str]:
    """How many ranks fire (the weapon's firing ranks, GF-E8; the first rank only from woods, l.726;
    never more than the unit has) and why."""
    ranks = getattr(fd.ranks()[u.missile], u.race, 1)
    why = f"{fd.weapons()[u.missile].names[0]} fires on {ranks} rank(s)"
    if in_woods(state, u):
        ranks = 1
        why = "from woods only the first rank fires"
    return min(ranks, u.ranks), why


def seeing_files(state, u, t) -> int:
    """How many front-rank figures (their places on the front edge) have a line of sight to ``t``."""
    edge = tabletop.front_edge(pose(u), width(u), depth(u))
    n = max(1, min(u.frontage, u.figures))
    obstacles = sight_obstacles(state, u, t)
    target = shape(t)
    return sum(1 for i in range(n)
               if tabletop.line_of_sight(edge.interpolate((i + 0.5) / n, normalized=True), target, obstacles).visible)


def can_fire(state, u) -> tuple[bool, str]:
    if not alive(u) or u.status != "ok":
        return False, f"{u.name or u.id} is {u.status}"
    if not u.missile or (u.race, u.missile) not in fd.pbt():
        return False, f"{u.name or u.id} has no missile weapon"
    if in_combat(state, u):
        return False, f"{u.name or u.id} is in melee"
    if lasting.has(state, u.id, "dazzled"):
        return False, f"{u.name or u.id} is dazzled by a magic flash this turn"
    for c in lasting.active(state, u.id, "crossing"):
        other = state.units.get(c["other"]) if isinstance(state.units, dict) else None
        if c["kind"] == "disorder":
            return False, f"{u.name or u.id} passed through a friend in close order this turn: it cannot fire"
        # l.640: only one of the two may fire; both ordered to fire: the one crossed (OR-GF117)
        if c["mover"] == u.id and other is not None and other.order == FIRE_ORDER and alive(other) \
                and other.missile and not in_combat(state, other):
            return False, f"{u.name or u.id} passed through {other.name or other.id}, which fires: only one may fire"
    return True, ""


def _protected(state, t) -> bool:
    return t.kind == "character" and any(v.led_by == t.id and alive(v) for v in units(state))


def eligibility(state, u, t) -> dict:
    """Why ``t`` may or may not be shot at by ``u``: ``eligible``, ``reasons``, ``citations``,
    ``distance_cm`` (:func:`distance`), ``sight`` (tabletop), ``in_arc``."""
    reasons, cites = [], []
    out = {"target": t.id, "eligible": False, "reasons": reasons, "citations": cites}
    if not alive(t) or t.side == u.side:
        reasons.append(f"{t.name or t.id} is not a living enemy")
        return out
    if in_combat(state, t):
        reasons.append(f"{t.name or t.id} is in melee: it cannot be a target")
        cites.append(EXCLUDED_REF)
        return out
    shield = lasting.has(state, t.id, "missile_shield")
    if shield:
        reasons.append(f"{t.name or t.id} is behind an invisible shield that stops every missile "
                       f"(until turn {shield['until_turn']})")
        cites.append(shield["ref"])
        return out
    if getattr(t, "hidden", False) and not getattr(t, "inside", None):
        reasons.append(f"{t.name or t.id} is invisible (« Illusion de Tezcatlipoca »): it is not seen")
        cites += ["GF seed 003 l.1240", "OR-GF126"]
        return out
    if getattr(t, "hidden", False):
        reasons.append(f"{t.name or t.id} is hidden in a building: it is not seen")
        cites += ["GF seed 003 l.784", "OR-GF83"]
        return out
    if _protected(state, t):
        reasons.append(f"{t.name or t.id} directly controls a unit: the enemy cannot target him")
        cites.append("GF seed 003 l.881")
        return out
    fa = combat_data.data().fire_arc
    reach = max_range(u) + 60.0
    arc = tabletop.sector(pose(u), width(u), depth(u), reach, fa.half_angle_deg)
    in_arc = arc.intersects(shape(t)) or bool(getattr(u, "inside", None))  # from a building: through any wall (OR-GF84)
    out["in_arc"] = in_arc
    if not in_arc:
        reasons.append(f"{t.name or t.id} is outside the {fa.half_angle_deg:g}° fire arc")
        cites += [fa.ref, "OR-GF50", "GF seed 003 l.1464"]
        return out
    sight = tabletop.line_of_sight(shape(u), shape(t), sight_obstacles(state, u, t))
    out["sight"] = sight.to_dict()
    if not sight.visible:
        reasons.append(f"{t.name or t.id} is not visible: " + "; ".join(sight.reasons))
        cites.append("GF seed 003 l.1463")
        return out
    dist, how = distance(u, t)
    out["distance_cm"] = round(dist, 2)
    alt = mv.altitudes().get(ALTITUDE.get(t.altitude or ""))
    extra = alt.extra_range_cm if alt else 0  # GF-E7: + 50 cm at flight altitude (data/movement.toml)
    left = weather.range_factor(state)  # the wind halves the ranges (l.1314, OR-GF122)
    if dist + extra > max_range(u) * left:
        reasons.append(f"{t.name or t.id} is {dist:.1f} cm away ({how}"
                       f"{', + flight altitude' if extra else ''}), beyond the maximum range {max_range(u)} cm"
                       + (", halved by the wind" if left != 1 else ""))
        cites += ["GF seed 003 l.854", "GF-E7"] + (["GF seed 003 l.1314", "OR-GF122"] if left != 1 else [])
        return out
    out["eligible"] = True
    reasons.append(f"{t.name or t.id}: visible, in the fire arc, {dist:.1f} cm away ({how})")
    cites += ["GF seed 003 l.1463-1465", "GF-E7", combat_data.data().fire_range.decision.split(", ")[-1]]
    return out


def priority(state, u, t) -> int:
    """The fire priority (data/fire.toml [[priority]], rank 1 = first) that ``t`` has for ``u``."""
    charging = t.order in ("charger", "contre_charger")
    if charging and t.target == u.id:
        return 1
    near = combat_data.data().fire_priority_near.within_cm
    able = bool(t.missile) or t.kind != "troop" or t.status == "ok"
    if able and tabletop.nearest_distance(shape(u), shape(t)) < near:
        return 2
    if charging and any(f.id == t.target and touching(f, u) for f in friends(state, u)):
        return 3
    return 4


def choose_target(state, u) -> tuple[object | None, dict, list[str], list[str]]:
    """The (first) target ``u`` fires at: the best priority among the eligible, the order's target if
    it is of that priority, else the nearest of that priority (:func:`.volleys.kept_targets`)."""
    kept, checks, steps, cites = volleys.kept_targets(state, u)
    return (kept[0] if kept else None), checks, steps, cites


def base_situation(u, t, distance_cm: float, armour: str, figures: int, kind_of_target: str) -> dict:
    """The part-1 fire situation's fields that come from the two units alone (the shooter's race,
    weapon, propulsor and class; the target's armour, kind and ranks): the battle's fire and the
    computer's odds (battle/odds.py) build their situations on it."""
    sit = {"kind": "fire", "shooter_race": u.race, "weapon": u.missile, "distance_cm": distance_cm,
           "target_armour": armour, "firing_figures": figures, "target": kind_of_target}
    if u.propulseur:
        sit["propulseur"] = True
    if u.kind == "troop" and u.klass:
        sit["shooter_class"] = u.klass if u.klass in ("A", "B", "C") else "A"
    if t.kind == "troop":
        sit["target_ranks"] = t.ranks
    return sit


def situation(state, u, t, figures: int) -> tuple[dict, list[str]]:
    """The part-1 fire situation of ``u`` shooting at ``t``, and what was read off the table."""
    dist, _ = distance(u, t)
    why, given = [], []
    left = weather.range_factor(state)
    if left != 1:  # the ranges halved: the distance read against the printed ranges counts double (OR-GF122)
        why.append(f"the wind of Ehecatl halves the ranges: {dist:.1f} cm counts as {dist / float(left):.1f} cm "
                   "(GF seed 003 l.1314, OR-GF122)")
        dist = dist / float(left)
    sit = base_situation(u, t, round(dist, 3), target_armour(t), figures, target_kind(t))
    if in_woods(state, u):
        sit["from_woods"] = True
    if t.altitude and ALTITUDE.get(t.altitude):
        sit["target_altitude"] = ALTITUDE[t.altitude]
    if t.kind == "troop" and t.formation in OPEN:
        given.append({"modifier": "target_character_or_open_order"})
        why.append("the target is in open order")
    over = combat_data.data().target_moved.over_cm
    if t.moved_cm > over:
        given.append({"modifier": "target_moved_over_10cm"})
        why.append(f"the target moved {t.moved_cm:g} cm this turn (more than {over:g})")
    cov = cover_of(state, t, u)
    if cov:
        given.append({"modifier": f"{cov[0]}_cover"})
        why.append(f"the target is in {cov[0]} cover ({cov[1]})")
    if t.shields:
        given.append({"modifier": "target_shields"})
        why.append("the target carries shields")
    if u.disorder:
        given.append({"modifier": "shooter_disordered"})
        why.append("the shooter is disordered")
    for mid, reason in items_play.modifiers(state, "fire", u, t):  # the magic items (OR-GF151)
        given.append({"modifier": mid})
        why.append(reason)
    if given:
        sit["modifiers"] = given
    spell_modifiers.fire(state, u, t, sit, why)  # the spells lasting on the shooter or the target (OR-GF120)
    return sit, why


def preview(state, unit_id: str, target_id: str) -> dict:
    """The fire percentage before the roll: eligibility, the figures firing and the referee's ruling
    without its d100 (``final_pct``, ``eliminated``, ``extra_if_d100_at_most``)."""
    u, t = unit(state, unit_id), unit(state, target_id)
    ok, why = can_fire(state, u)
    if not ok:
        return {"unit": unit_id, "target": target_id, "eligible": False, "reasons": [why],
                "citations": ["GF seed 003 l.301, l.840"]}
    check = eligibility(state, u, t)
    if not check["eligible"]:
        return {"unit": unit_id, **check}
    figures, fsteps = firing_figures(state, u, t)
    sit, read = situation(state, u, t, figures)
    ruling = adjudicate(sit)
    return {"unit": unit_id, **check, "firing_figures": figures, "situation": sit, "ruling": ruling,
            "percent": ruling["final_pct"], "eliminated": ruling["eliminated"],
            "extra_if_d100_at_most": ruling["extra_if_d100_at_most"],
            "explanation": check["reasons"] + fsteps + read + ruling["explanation"],
            "citations": list(dict.fromkeys(check["citations"] + ruling["citations"]))}


def plan_preview(state, unit_id: str) -> dict:
    """The unit's volleys as its order stands (:mod:`.volleys`, OR-GF110), each with its percentage before
    the roll (the referee's ruling without its d100)."""
    u = unit(state, unit_id)
    ok, why = can_fire(state, u)
    if not ok:
        return {"unit": unit_id, "volleys": [], "explanation": [why], "citations": ["GF seed 003 l.301, l.840"]}
    plan = volleys.plan(state, u)
    out = []
    for v in plan["volleys"]:
        t = unit(state, v["target"])
        sit, read = situation(state, u, t, v["figures"])
        ruling = adjudicate(sit)
        out.append({"target": t.id, "files": v["files"], "firing_figures": v["figures"], "situation": sit,
                    "percent": ruling["final_pct"], "eliminated": ruling["eliminated"],
                    "extra_if_d100_at_most": ruling["extra_if_d100_at_most"],
                    "explanation": plan["steps"] + v["steps"] + read + ruling["explanation"],
                    "citations": list(dict.fromkeys(plan["citations"] + ruling["citations"]))})
    return {"unit": unit_id, "volleys": out, "explanation": plan["steps"], "citations": plan["citations"]}


def options(state, unit_id: str) -> list[dict]:
    """Every enemy the unit could fire at, with its percentage (for the UI's options)."""
    u = unit(state, unit_id)
    if not can_fire(state, u)[0]:
        return []
    out = []
    for t in enemies(state, u):
        p = preview(state, unit_id, t.id)
        if p.get("eligible"):
            out.append({"target": t.id, "percent": p["percent"], "steps": p["explanation"],
                        "ref": "GF Tirs > Procédure de tir", "citations": p["citations"]})
    return out


def resolve(state, dice) -> list[dict]:
    """Phase 8: every unit ordered to fire fires; the casualties are noted, then removed all at once;
    then every unit that lost figures or took wounds tests its morale (l.828)."""
    events, ledger = [], Ledger()
    shooters = sorted((u for u in units(state) if u.order == FIRE_ORDER), key=lambda u: u.id)
    for u in shooters:
        ok, why = can_fire(state, u)
        if not ok:
            events.append({"type": "fire", "unit": u.id, "side": u.side, "target": None,
                           "explanation": [f"{why}: it does not fire"], "citations": ["GF seed 003 l.301"]})
            continue
        plan = volleys.plan(state, u)
        csteps, ccites = plan["steps"], plan["citations"]
        if not plan["volleys"]:
            events.append({"type": "fire", "unit": u.id, "side": u.side, "target": None,
                           "explanation": csteps, "citations": ccites})
            continue
        if getattr(u, "hidden", False):  # firing gives it away (l.784; an illusion's, l.1240; the cape's, l.1363)
            from . import buildings_play, illusion
            if u.inside:
                buildings_play.reveal(state, u, "it fires", "elle tire")
            else:
                illusion.reveal(state, u, "it fires", "elle tire", illusion.firing_ref(state, u))
        count = len(plan["volleys"])
        for i, v in enumerate(plan["volleys"], 1):
            t = unit(state, v["target"])
            figures, fsteps = v["figures"], v["steps"]
            sit, read = situation(state, u, t, figures)
            ruling = adjudicate(sit)
            d100 = dice.roll(100) if ruling["extra_if_d100_at_most"] > 0 else None
            if d100 is not None:
                ruling = adjudicate({**sit, "d100": d100})
            hits = ruling["eliminated"] + (1 if ruling.get("extra") else 0)
            bonus, bsteps, bcites = spells.extra_casualties(state, u)
            hits += bonus
            ledger.note(t, hits, u)
            ev = {"type": "fire", "unit": u.id, "side": u.side, "target": t.id, "d100": d100,
                  "percent": ruling["final_pct"], "hits": hits, "casualties": ruling["casualties"],
                  "firing_figures": figures, "ruling": ruling,
                  "explanation": csteps + fsteps + read + ruling["explanation"] + bsteps
                  + [f"{hits} {'figure(s)' if ruling['casualties'] == 'figures' else 'wound(s)'} noted on "
                     f"{t.name or t.id}, removed with all the others at the end of the fire phase"],
                  "citations": list(dict.fromkeys(ccites + ruling["citations"] + bcites + ["GF seed 003 l.301"]))}
            if count > 1:   # the log names each volley (OR-GF110): which target, its share, its hits
                what = "figure(s)" if ruling["casualties"] == "figures" else "wound(s)"
                what_fr = "figurine(s)" if ruling["casualties"] == "figures" else "blessure(s)"
                ev.update(volley=i, volleys=count,
                          text=f"{u.name or u.id}, volley {i} of {count}: {figures} figure(s) at {t.name or t.id}, "
                               f"{ruling['final_pct']} %, {hits} {what}",
                          text_fr=f"{u.name or u.id}, salve {i} sur {count} : {figures} figurine(s) sur {t.name or t.id}, "
                                  f"{ruling['final_pct']} %, {hits} {what_fr}")
            events.append(ev)
    events += ledger.apply(state, dice)
    routed = []
    for uid in sorted(set(ledger.figures) | set(ledger.wounds)):
        t = unit(state, uid)
        if alive(t) and t.kind != "character":
            src = unit(state, ledger.by[uid][0])
            was = t.status
            events.append(morale_play.test(state, uid, "fire_losses", dice, src.id, deferred=False))
            if t.status == "rout" and was != "rout":
                routed.append(uid)
    events += morale_play.knock_on(state, routed, dice)
    return finish(state, events)
