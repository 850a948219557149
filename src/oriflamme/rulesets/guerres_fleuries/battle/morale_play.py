"""Morale tests on the table (GF Le moral, seed 003 l.1005-1133; GF-I1…I5): the part-1 referee
(kind ``morale``) rules the test on a situation read off the table — class, losses, wound state,
and the modifiers the table shows (friends within 10 cm, enemies routing within 30 cm, a flank
attack, a lost combat…) — and the result is applied to the state:

* O (obéir): the unit keeps its order;
* AI (avance incontrôlée): a routing unit rallies; any other charges the nearest enemy (l.1114);
* RET (retraite): a full retreat move away from the cause, facing the enemy (l.1104); fanatics are
  destroyed (l.1108);
* DER (déroute): the unit flees its rout move away from the cause, disordered (l.1088); fanatics
  are destroyed (l.1100);
* more than 50 % lost: the unit routs and is removed (l.1130, GF-I2).

A result of phase 10 moves in phase 1 of the next turn (l.1106, l.309): it is kept in
``unit.pending`` and :func:`automatic_moves` plays it. Units leaving the table are lost (l.946).
"""

from __future__ import annotations

import copy

from oriflamme.geometry import tabletop

from .. import beings
from .. import crash as crash_data
from .. import modifiers as mods
from .. import movement as mv
from ..morale import data as morale_data
from ..names import RefereeError, match
from ..referee import adjudicate
from ..referee.morale import MODIFIER_FILE
from ..referee.wound import _state, _worst
from . import combat_data, illusion, items_play, lasting
from .fighters import (alive, arc, cover_of, enemies, finish, friends, mark, off_table, pose, set_pose, shape,
                       touching, unit, units, unmark)

ORDER_ATTACK = ("charger", "contre_charger")
MOVE_REF = {"retraite": "GF Le moral > Retraite; GF seed 003 l.1104", "deroute": "GF Le moral > Déroute; "
            "GF seed 003 l.1088"}
OFF_TABLE_REF = "GF seed 003 l.946, l.1094"


def tester_kind(u) -> str:
    return {"troop": "troops", "creature": "creature", "monster": "monster"}.get(u.kind, "character")


def tester_name(u) -> str:
    """The part-1 morale tester of the unit: its race, or its being's printed name."""
    if u.kind == "troop":
        return u.race
    choices = {t.id: t.names for t in morale_data().testers.values()}
    rows = beings.creatures() if u.kind == "creature" else beings.monsters()
    for name in ([u.race] + list(rows[u.race].names) if u.race in rows else [u.race]):
        try:
            match("tester", name, choices)
            return name
        except RefereeError:
            continue
    return u.race


def morale_class(u) -> str | None:
    if u.kind != "troop":
        return None
    if u.mercenary:
        return "M"
    return u.klass if u.klass in ("A", "B", "C") else "A"


def _near(state, u, pool, modifier: str, pred=lambda v: True) -> list:
    cm = combat_data.data().near[modifier].within_cm
    return [v for v in pool if pred(v) and tabletop.nearest_distance(shape(u), shape(v)) <= cm]


def unseen(state, v) -> bool:
    """``v`` is off the table for its enemy: hidden behind a building (OR-GF145) or invisible under an
    illusion or the cape (OR-GF125, OR-GF148). Occupants hidden in a building are not: the enemy saw them
    go in (OR-GF83)."""
    return bool(v.behind) or illusion.invisible(state, v) is not None


def situation(state, u, cause: str, source=None, extra=()) -> tuple[dict, list[str]]:
    """The referee's morale situation for ``u`` and the reasons of each modifier read off the table;
    ``extra``: (modifier id, reason) a spell or a magic failure adds to this test (OR-GF6), and the
    spells still lasting on the unit (:mod:`.lasting`, OR-GF112)."""
    file = MODIFIER_FILE[tester_kind(u)]
    table = mods.modifiers(file)
    given, why = [], []

    def add(mid: str, count: int, reason: str):
        if count and mid in table:
            given.append({"modifier": mid, "count": count})
            why.append(f"{table[mid].printed} × {count}: {reason}")

    sit = {"kind": "morale", "tester": tester_name(u)}
    klass = morale_class(u)
    if klass:
        sit["class"] = klass
    if u.kind == "troop":
        sit["losses"] = u.figures_max - u.figures
        sit["initial_strength"] = u.figures_max
        if u.fanatic:
            sit["fanatic"] = True
    elif morale_data().testers.get(match("tester", sit["tester"], {t.id: t.names for t in
                                                                    morale_data().testers.values()})).base \
            in morale_data().wound_bases:
        sit["wound_state"] = _worst(["none"] + [_state(w) for w in u.wounds])
    elif u.kind == "creature":
        sit["losses"] = u.figures_max - u.figures
        sit["initial_strength"] = u.figures_max
    character = None
    if u.led_by:
        try:
            ch = unit(state, u.led_by)
        except KeyError:
            ch = None
        if ch is not None and alive(ch):
            character = {"FM": ch.FM, "FC": ch.FC}
            add("character_controls", 1, f"{ch.name or ch.id} directly controls the unit (FM {ch.FM})")
    # the enemies the unit can know: one taken off the table unseen (behind a building, l.786; under an
    # illusion or the cape, l.1240, l.236) adds no modifier (OR-GF150; data/combat.toml [[near]])
    foes, pals = [v for v in enemies(state, u) if not unseen(state, v)], friends(state, u)
    near_friends = _near(state, u, pals, "friend_near", lambda v: v.status == "ok")
    add("friend_near", len(near_friends), ", ".join(v.name or v.id for v in near_friends))
    cov = cover_of(state, u)
    if cov and cov[0] == "dense":
        add("dense_cover", 1, f"the unit stands in dense cover ({cov[1]})")
    if source is not None and alive(source) and source.side != u.side:
        if u.figures * 2 >= source.figures * 3:
            add("outnumbers", 1, f"{u.figures} figures against {source.figures}")
        if source.figures >= 2 * u.figures:
            add("outnumbered_2", 1, f"{source.figures} enemy figures against {u.figures}")
    if u.order in ORDER_ATTACK and any(touching(u, v) for v in foes if v.kind == "troop"):
        add("attack_order_contact", 1, f"order {u.order}, in contact with enemy troops")
    for mid, status in (("enemy_retiring", "retreat"), ("enemy_routing", "rout")):
        hit = _near(state, u, foes, mid, lambda v, s=status: v.status == s)
        add(mid, len(hit), ", ".join(v.name or v.id for v in hit))
    hit = _near(state, u, pals, "friend_retiring", lambda v: v.status == "retreat")
    add("friend_retiring", min(len(hit), 1), ", ".join(v.name or v.id for v in hit))
    hit = _near(state, u, foes, "enemy_unbroken_near", lambda v: v.status == "ok")
    add("enemy_unbroken_near", len(hit), ", ".join(v.name or v.id for v in hit))
    hit = _near(state, u, pals, "friend_routing_10", lambda v: v.status == "rout")
    add("friend_routing_10", len(hit), ", ".join(v.name or v.id for v in hit))
    hit = _near(state, u, foes, "enemy_behind", lambda v: arc(u, v) != "front")
    add("enemy_behind", min(len(hit), 1), ", ".join(f"{v.name or v.id} ({arc(u, v)})" for v in hit))
    if cause == "flank_or_rear" and source is not None:
        side = arc(u, source)
        add("attacked_rear" if side == "rear" else "attacked_flank", 1 if side != "front" else 0,
            f"{source.name or source.id} attacks in the {side}")
    if cause == "lost_combat":
        add("lost_last_combat", 1, "the unit lost this round of combat")
        for mid, reason in items_play.modifiers(state, "morale", u, source):  # the magic items (OR-GF151)
            add(mid, 1, reason)
    if u.status == "retreat":
        add("tester_retiring", 1, "the unit is retreating")
    if u.status == "rout":
        add("tester_routing", 1, "the unit is routing")
    if u.fanatic or u.bestial:
        add("fanatic_or_bestial", 1, "fanatic" if u.fanatic else "bestial")
    if cause in ("charge", "charge_monster_or_character") and u.disorder and u.order not in ORDER_ATTACK:
        add("disordered_receiving_charge", 1, "disordered, receiving a charge")
    for mid, reason in extra:
        add(mid, 1, reason)
    for e in lasting.active(state, u.id, "morale_modifier"):
        what = "a magic item's effect" if str(e["modifier"]).startswith("item_") else "a spell"
        add(e["modifier"], 1, f"{what} lasting until turn {e['until_turn']} ({e.get('ref', '')})")
    if given:
        sit["modifiers"] = given
    if character:
        sit["character"] = character
    return sit, why


def preview(state, unit_id: str, cause: str, source_id: str | None = None) -> dict:
    """The test before the d4: the score needed for each result, d4 by d4 (the UI's percentages)."""
    u = unit(state, unit_id)
    source = unit(state, source_id) if source_id else None
    if u.kind == "character":
        return {"unit": unit_id, "tests": False, "explanation": ["characters take no morale test"],
                "citations": ["GF Tables récapitulatives > Moral"]}
    sit, why = situation(state, u, cause, source)
    outcomes = {}
    for d4 in range(1, 5):
        r = adjudicate({**sit, "d4": d4})
        outcomes[d4] = r["result"]
    chances = {code: 100 * sum(1 for c in outcomes.values() if c == code) // len(outcomes)
               for code in set(outcomes.values())}
    return {"unit": unit_id, "tests": True, "cause": cause, "situation": sit, "by_d4": outcomes,
            "percent": chances, "modifiers_read": why}


def test(state, unit_id: str, cause: str, dice, source_id: str | None = None, deferred: bool | None = None,
         extra=()) -> dict:
    """Roll the d4 of a morale test and apply the result. ``cause``: an id of data/combat.toml
    [[cause]]; ``source_id``: the unit causing it (the direction to flee from). ``deferred``: the
    move waits for phase 1 (default: when the state's phase is 10)."""
    causes = combat_data.data().causes
    if cause not in causes:
        raise RefereeError(f"morale cause {cause!r}: unknown (known: {', '.join(causes)})")
    u = unit(state, unit_id)
    source = unit(state, source_id) if source_id else None
    c = causes[cause]
    if u.kind == "character":
        return {"type": "morale", "unit": u.id, "side": u.side, "cause": cause, "result": None,
                "explanation": [f"{u.name or u.id} is a character: characters take no morale test"],
                "citations": [c.ref, "GF Tables récapitulatives > Moral"]}
    spared = lasting.has(state, u.id, "no_morale_tests") or lasting.has(state, u.id, "morale_auto_pass")
    if spared:
        auto = spared["effect"] == "morale_auto_pass"
        steps, cites = ([f"{u.name or u.id} passes its morale test automatically (until turn {spared['until_turn']})"]
                        if auto else [f"{u.name or u.id} is fanatic by a spell until turn {spared['until_turn']}: "
                                      "it takes no morale test"]), [c.ref, spared["ref"]]
        if auto:
            more, mc = apply_result(state, u, "O", False, source,
                                    deferred if deferred is not None else getattr(state, "phase", None) == melee_phase())
            steps, cites = steps + more, cites + mc
        return finish(state, [{"type": "morale", "unit": u.id, "side": u.side, "cause": cause, "source": source_id,
                               "result": "O" if auto else None, "status": u.status, "explanation": steps,
                               "citations": cites}])[0]
    sit, why = situation(state, u, cause, source, extra)
    d4 = dice.roll(4)
    ruling = adjudicate({**sit, "d4": d4})
    if deferred is None:
        deferred = getattr(state, "phase", None) == melee_phase()
    steps = [f"{u.name or u.id} tests its morale: {c.printed}"] + why + ruling["explanation"]
    cites = [c.ref] + ruling["citations"]
    applied_steps, applied_cites = apply_result(state, u, ruling["result"], ruling.get("removed", False), source,
                                                deferred)
    ev = {"type": "morale", "unit": u.id, "side": u.side, "cause": cause, "source": source_id, "d4": d4,
          "result": ruling["result"], "removed": ruling.get("removed", False), "ruling": ruling,
          "status": u.status, "explanation": steps + applied_steps,
          "citations": list(dict.fromkeys(cites + applied_cites))}
    return finish(state, [ev])[0]


def melee_phase() -> int:
    """The number of the melee phase (data/turn.toml): its results move in phase 1 (l.309, l.1106)."""
    from .rules import rules
    return next(p.number for p in rules().phases if p.id == "melee")


def knock_on(state, routed: list[str], dice, deferred: bool = False) -> list[dict]:
    """'Voir la déroute d'un ami dans les 10cm' (l.1589): each friendly unit in good order within the
    printed distance of a unit that has just routed tests once (no further knock-on from these tests)."""
    cause = combat_data.data().causes["friend_rout"]
    events, seen = [], set()
    for rid in routed:
        r = unit(state, rid)
        for f in friends(state, r):
            if f.id in seen or f.status != "ok" or f.kind == "character":
                continue
            if tabletop.nearest_distance(shape(r), shape(f)) <= cause.within_cm:
                seen.add(f.id)
                events.append(test(state, f.id, "friend_rout", dice, None, deferred=deferred))
    return events


def losses_in_turn(state, u) -> bool:
    """'Subir 20% de perte dans le tour' (l.1590): the figures lost since the turn began."""
    start = getattr(u, "figures_turn_start", None)
    pct = combat_data.data().causes["losses_in_turn"].pct
    return bool(start) and (start - u.figures) * 100 >= pct * start


def rate(u, column: str) -> int:
    medium = "air" if u.altitude else "ground"
    rows = mv.rates()
    row = rows.get((u.race, medium)) or next((r for (m, _), r in rows.items() if m == u.race), None)
    if row is None:
        row = rows[("homme", "ground")]
    return getattr(row, column)


def _away_heading(state, u, source) -> float:
    if source is not None:
        h = tabletop.toward(tabletop.Pose(source.x, source.y), u.x, u.y)
        if (source.x, source.y) != (u.x, u.y):
            return h
    return 180.0 if u.side == "A" else 0.0  # towards the unit's own table edge


def flee(state, u, column: str, source) -> tuple[list[str], list[str]]:
    """Move ``u`` its ``column`` rate (retraite, deroute; + 1/4 in open order, gf-engine's
    ``moves.allowance``) straight away from ``source``: a retreat turns to face the enemy and steps
    back, a rout turns its back and runs, each to the farthest legal point (``moves.farthest_straight``:
    the table, units and terrain). Stopped short with the rest of the move beyond the table's edge:
    driven off the table, lost (l.946, l.1094)."""
    from . import moves
    away = _away_heading(state, u, source)
    left = []
    if getattr(u, "inside", None):  # l.788: a retreat or a rout takes the unit out of its building
        from . import buildings_play
        left = [buildings_play.leave(state, u, away, "flee", quiet=True)]
    elif getattr(u, "split", None):  # l.786: "toute l'unité effectue le mouvement" (OR-GF143)
        from . import buildings_play
        left = [buildings_play.rejoin(state, u)]
    budget, _ = moves.allowance(u, column)
    start = (round(u.x, 2), round(u.y, 2))
    if column == "retraite":
        set_pose(u, tabletop.Pose(u.x, u.y, (away + 180.0) % 360.0))
        direction, sign = "back", -1
    else:
        set_pose(u, tabletop.Pose(u.x, u.y, away))
        direction, sign = "forward", 1
    full = tabletop.moved(pose(u), sign * budget)
    x, y, h, dist = moves.farthest_straight(state, u, budget, direction)
    beyond = _probe(u, full)
    set_pose(u, tabletop.Pose(x, y, h))
    steps = left + [f"{u.name or u.id} {'retreats' if column == 'retraite' else 'routs'} {dist:.1f} of {budget:g} cm "
                    f"({column}) from {start} to ({u.x:.1f}, {u.y:.1f})"]
    cites = [MOVE_REF[column], "GF-D4"]
    if dist < budget - 0.5 and off_table(state, beyond):
        u.status = "lost"
        steps.append(f"{u.name or u.id} is driven off the table: lost for the rest of the battle")
        cites.append(OFF_TABLE_REF)
    elif dist < budget - 0.5:
        steps.append(f"{u.name or u.id} is stopped after {dist:.1f} cm (units or terrain in the way)")
    return steps, cites


def _probe(u, p):
    v = copy.copy(u)
    v.x, v.y, v.heading = p.x, p.y, p.heading
    return v


def apply_result(state, u, code: str, removed: bool, source, deferred: bool) -> tuple[list[str], list[str]]:
    """Apply a morale result to the state (module docstring); returns the steps and citations."""
    codes = morale_data().codes
    if removed:
        u.status = "removed"
        return [f"{u.name or u.id} is removed from play"], [morale_data().losses.ref]
    c = codes[code]
    if code in ("RET", "DER") and u.fanatic:
        u.status = "destroyed"
        return [f"fanatics {'retreating' if code == 'RET' else 'routing'} are destroyed at once"], [c.ref]
    if code == "O":
        if u.status == "rout":
            return rally_now(u, c)
        return [f"{c.printed}: the unit keeps its order"], [c.ref]
    if code == "AI":
        if u.status == "rout":
            return rally_now(u, c)
        foes = [v for v in enemies(state, u) if v.status in ("ok", "retreat")]
        if foes:
            nearest = min(foes, key=lambda v: tabletop.nearest_distance(shape(u), shape(v)))
            u.order, u.target = "charger", nearest.id
            mark(u, "uncontrolled_advance")
            return [f"{c.printed}: the unit charges the nearest enemy, {nearest.name or nearest.id}, and takes no "
                    "orders until the charge is over"], [c.ref, "GF seed 003 l.1116-1118"]
        return [f"{c.printed}: no enemy to charge"], [c.ref]
    steps, cites = [f"{c.printed}"], [c.ref]
    if u.status == "rout":
        code = "DER"
        steps.append("the unit fails to rally: it goes on routing")
        cites.append("GF seed 003 l.1094")
    u.status = "retreat" if code == "RET" else "rout"
    column = "retraite" if code == "RET" else "deroute"
    if code == "DER":
        u.disorder = True
        mark(u, "disorder")
        if getattr(state, "phase", None) == melee_phase():
            mark(u, "routed_in_melee")
    if deferred:
        u.pending = {"move": column, "away_from": [source.x, source.y] if source is not None else None,
                     "source": source.id if source is not None else None}
        steps.append(f"the {column} move is made in phase 1 of the next turn")
        cites.append("GF seed 003 l.1106, l.309")
        return steps, cites
    s2, c2 = flee(state, u, column, source)
    return steps + s2, cites + c2


def rally_now(u, code_row) -> tuple[list[str], list[str]]:
    """A routing unit that passes (O or AI) rallies: disordered, ordered to reform (l.1096)."""
    u.status = "ok"
    u.disorder = True
    mark(u, "disorder")
    u.order, u.target = "reformer", None
    u.pending = None
    unmark(u, "routed_in_melee")
    return ([f"{code_row.printed}: the routing unit rallies; it is disordered and must reform before other orders"],
            [code_row.ref, "GF Le moral > Déroute; GF seed 003 l.1096"])


def automatic_moves(state, dice=None) -> list[dict]:
    """Phase 1: the retreat and rout moves owed since phase 10 or phase 11 of the last turn
    (l.256-258), then the winners' pursuits (l.634: the pursuer follows the loser, staying in base
    contact, at most its pursuit rate, and ends disordered), and the end of last turn's retreats."""
    events, shifted = [], {}
    everyone = sorted((v for v in _all(state) if alive(v)), key=lambda v: v.id)
    for u in everyone:
        p = u.pending
        if p and p.get("move") == "land":
            u.pending = None
            u.altitude = None
            events.append({"type": "automatic_move", "unit": u.id, "side": u.side, "move": "land",
                           "explanation": [f"{u.name or u.id}, wounded in flight, lands where it is"],
                           "citations": [crash_data.crash().wounded.ref]})
            continue
        if p and p.get("move") in ("retraite", "deroute"):
            source = _find(state, p.get("source"))
            before = (u.x, u.y)
            steps, cites = flee(state, u, p["move"], source)
            shifted[u.id] = (u.x - before[0], u.y - before[1])
            u.pending = None
            events.append({"type": "automatic_move", "unit": u.id, "side": u.side, "move": p["move"],
                           "explanation": steps, "citations": cites + ["GF seed 003 l.256"]})
        elif u.status == "retreat" and not p:
            u.status = "ok"
    for u in everyone:
        p = u.pending
        if not (p and p.get("move") == "poursuite" and alive(u)):
            continue
        u.pending = None
        dx, dy = shifted.get(p.get("target"), (0.0, 0.0))
        dist = (dx * dx + dy * dy) ** 0.5
        cap = rate(u, "poursuite")
        k = min(1.0, cap / dist) if dist else 0.0
        set_pose(u, tabletop.Pose(u.x + dx * k, u.y + dy * k, u.heading))
        u.disorder = True
        mark(u, "disorder")
        target = _find(state, p.get("target"))
        caught = target is not None and alive(target) and touching(u, target)
        u.charging = caught
        steps = [f"{u.name or u.id} pursues {target.name or target.id if target else p.get('target')}: "
                 f"{dist * k:.1f} cm (pursuit rate {cap} cm), ends disordered"
                 + ("; still in contact: the combat goes on, pursuing (+ charge bonus)" if caught else "")]
        if off_table(state, u):
            u.status = "lost"
            steps.append(f"{u.name or u.id} leaves the table: lost")
        events.append({"type": "pursuit", "unit": u.id, "side": u.side, "target": p.get("target"),
                       "explanation": steps,
                       "citations": ["GF seed 003 l.634, l.989", "GF seed 003 l.1562", "GF-D4"]})
    return finish(state, events)


def _find(state, uid):
    if not uid:
        return None
    try:
        return unit(state, uid)
    except KeyError:
        return None


def _all(state):
    return units(state)
