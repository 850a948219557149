"""The turn: deployment (turn 0), then the 11 phases of GF Le tour de jeu (``data/turn.toml``),
in the seed's order, every turn, until victory (:mod:`.victory`).

:func:`advance` runs the automatic phases (1, 4, 5, 7, 8, 9, 10, 11) and stops where a side must
decide: its command tests (2), its orders (3, each side in secret), its moves (6). The combat
phases call gf-combat's entry points (``fire_play.resolve``, ``melee_play.resolve``,
``rally.resolve``, ``morale_play.test``) when they are there; until then the phase says it is not
resolved (docs/rules-coverage.md § Les Guerres Fleuries, part 2).
"""

from __future__ import annotations


from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from .. import referee
from . import (battle_orders, brigades, buildings_play, command, coyolxauhqui, crash_play, curses, encounter, fighters, fire_play, fog, illusion,
               lasting, melee_play, morale_play, moves, orders as orders_mod, rally, reactions, spells, victory, weather)
from .actions import emit, record
from .charges import charge_move
from .deploy import deploy_all, zones
from .rules import rules
from .state import SIDES, Battle, Unit

REF_DEPLOY = "GF seed 003 l.489-495"
REF_COMMAND = "GF seed 003 l.329-331"
REF_SIMULTANEOUS = "GF seed 003 l.248"


# --- set-up -----------------------------------------------------------------------------------------
def start(state: Battle) -> None:
    deploy_all(state)
    for side in SIDES:
        units = state.side_units(side)
        state.start_figures[side] = sum(u.figures for u in units)
        state.start_points[side] = sum(u.points for u in units)
    state.turn, state.phase, state.acting = 0, 0, "A"
    emit(state, "deployment", "Deployment: each side may place its units in its zone, then declares itself ready",
         "Déploiement : chaque camp peut placer ses unités dans sa zone, puis se déclare prêt", ref=REF_DEPLOY)
    if encounter.is_encounter(state):
        encounter.start(state)  # reconnaissance, deployment order, movement bases (OR-GF100)


def phase_event(state: Battle) -> None:
    ph = rules().phase(state.phase)
    emit(state, "phase", f"Turn {state.turn}, phase {ph.number}: {ph.name_en}",
         f"Tour {state.turn}, phase {ph.number} : {ph.name_fr}", ref=ph.ref, phase_id=ph.id)


def next_phase(state: Battle) -> None:
    if state.phase == 11 or state.phase == 0:
        state.turn += 1
        state.phase = 1
        new_turn(state)
        encounter.turn_start(state)  # an encounter battle's detection phase and flank marches (l.250, l.509)
    else:
        state.phase += 1
    state.done = []
    phase_event(state)
    if state.phase == 2:
        brigades.announce(state)
    elif state.phase == 3:
        battle_orders.deliver(state)
    if state.phase == 6:
        before = command.poses(state)
        phase6_orders_in_place(state)
        command.follow(state, before)


def new_turn(state: Battle) -> None:
    state.orders_in = {"A": False, "B": False}
    state.revealed = False
    state.reacting = {}
    for u in state.units.values():
        u.tested = False
        u.moved = False
        u.moved_cm = 0.0
        u.figures_turn_start = u.figures
        if "uncontrolled_advance" not in u.markers and not (u.order == "reformer" and u.disorder):
            u.order, u.target = None, None
        u.fire_targets = []
        u.charge_half = False
        for m in ("red", "green", "counter_charge", "fire_fighting"):  # fire_fighting: l.816-818 (buildings_play)
            u.unmark(m)


# --- who decides --------------------------------------------------------------------------------------
def needs_command_test(state: Battle, u: Unit) -> bool:
    """GF-C5: no test for characters, units that moved in phase 1, units in combat, units under a
    character's direct control, units in a brigade (l.444), units in column on a road, routing units."""
    return (u.alive and u.kind != "character" and not u.tested and "green" not in u.markers
            and not fighters.in_combat(state, u) and u.led_by is None and u.status == "ok"
            and not brigades.exempt(state, u) and not on_road_in_column(state, u)
            and not lasting.has(state, u.id, "no_command_tests"))


ROAD = "route"
REF_ROAD = "GF seed 003 l.263, l.545"


def on_road_in_column(state: Battle, u: Unit) -> bool:
    """A unit in column whose centre stands on a road (within half its frontage of the road's line)."""
    if u.formation != "column":
        return False
    centre = tt.Point(u.x, u.y)
    return any(e.kind == ROAD and e.geometry.distance(centre) <= u.width / 2
               for e in state.battlefield.elements)


def movers(state: Battle, side: str) -> list[Unit]:
    """The units ``side`` moves in phase 6: its own with a move order — and an enemy character its priest
    possesses, who carries out the priest's orders (« Possession de Coyolxauhqui », OR-GF127)."""
    out = []
    for u in [v for v in state.units.values() if v.alive and (coyolxauhqui.master(state, v) or v.side) == side]:
        if u.moved or u.status != "ok" or u.order is None or u.inside or u.split or fighters.in_combat(state, u) \
                or lasting.has(state, u.id, "dazzled") or weather.rained_on(state, u):  # l.1270, OR-GF122
            continue  # a unit in a building leaves it only by breaking formation (l.788, OR-GF82)
        if u.kind == "character" and u.leads:
            continue  # he moves with the unit he controls (OR-GF41)
        if state.fog and (u.base is not None) != bool(state.fog.get("hidden_pass")):
            continue  # hidden units move after the others (l.293; OR-GF103)
        play = rules().order_play.get(u.order)
        if play and play.move != "none" and u.order != "charger":
            if play.change_first and moves.formation_change_left(u)[0] <= 0:
                continue  # the manoeuvre took the whole move (GF-D5, OR-GF111)
            out.append(u)
    return out


def first_mover(state: Battle) -> str:
    """OR-GF38: phase 6 is played by A then B in odd turns, B then A in even turns."""
    return "A" if state.turn % 2 == 1 else "B"


def advance(state: Battle) -> None:
    """Run the automatic phases until a side must decide or the battle is over."""
    while not state.over:
        crash_play.settle(state)       # flyers killed in the air crash; dead monsters' bodies (l.889, l.897)
        buildings_play.detect(state)   # occupants found by an enemy against their building (l.784)
        illusion.watch(state)
        coyolxauhqui.watch(state)      # a possessed character wounded or killed is free (l.1282, OR-GF127)          # invisible units that moved, fired, fought, were detected or whose time is up (l.1240)
        p = state.phase
        if p == 0:
            pending = [s for s in (state.fog.get("queue") or SIDES) if s not in state.done] or battle_orders.to_write(state)
            if pending:
                state.acting = pending[0]
                return
            next_phase(state)
            continue
        if p == 2:
            for side in SIDES:
                if any(needs_command_test(state, u) for u in state.side_units(side)):
                    state.acting = side
                    return
        elif p == 3:
            # a side under Paroles de vérité lays its orders first (l.1264, OR-GF124)
            for side in sorted(SIDES, key=lambda s: spells.orders_face_up(state, s) is None):
                if not state.orders_in[side]:
                    if orders_mod.eligible(state, side):
                        state.acting = side
                        return
                    state.orders_in[side] = True
            characters_orders(state)
        elif p == 5:
            found = False
            for side in (first_mover(state), state.other(first_mover(state))):
                if reactions.pending(state, side):
                    state.acting = side
                    found = True
                    break
            if found:
                return
        elif p == 6:
            first = first_mover(state)
            for side in (first, state.other(first)):
                if side not in state.done and (movers(state, side) or encounter.decoys_to_move(state, side)):
                    state.acting = side
                    return
            if state.fog and not state.fog.get("hidden_pass"):
                state.fog["hidden_pass"] = True  # then the hidden units and the decoys (l.293)
                state.done = []
                if any(movers(state, s) or encounter.decoys_to_move(state, s) for s in SIDES):
                    continue
        else:
            state.acting = None
            before = command.poses(state)
            AUTOMATIC[p](state)
            command.follow(state, before)
            fog.reveal_contacts(state)
            if state.over:
                break
        state.acting = None
        if p == 11:
            victory.check(state)
            if state.over:
                break
        next_phase(state)
    state.acting = None


def characters_orders(state: Battle) -> None:
    """Characters not given an order wait (they receive one automatically in phase 3, l.343); a
    character possessed by his weapon charges the nearest enemy in reach (l.211, OR-GF136)."""
    curses.possessed_orders(state, orders_mod.charge_targets)


# --- the decisions --------------------------------------------------------------------------------------
def command_test(state: Battle, u: Unit) -> dict:
    """Phase 2: one unit's command test with part 1's referee (GF-C1, C2)."""
    d100 = state.dice.roll(100)
    situation: dict = {"kind": "command_test", "d100": d100}
    if u.kind == "troop":
        situation.update({"race": u.race, "class": u.cls})
    else:
        situation[u.kind] = u.being
    chars = [c for c in state.side_units(u.side) if c.kind == "character"]
    if chars and u.kind == "troop":
        # GF-C2: the nearest friendly character commands; within 15 cm he adds his FC instead
        fp = u.footprint()
        near, c = min(((tt.nearest_distance(fp, c.footprint()), c) for c in chars), key=lambda t: (t[0], t[1].id))
        situation["character"] = {"FC": c.FC}
        if near <= 15:
            situation["modifiers"] = [{"modifier": "character_within_15cm", "count": 1}]
        else:
            situation["commander_distance_cm"] = round(near, 1)
    ruling = referee.adjudicate(situation)
    u.tested = True
    ok = bool(ruling.get("success"))
    if not ok:
        u.mark("red")
    emit(state, "command_test",
         f"{u.name}: command test d100 {d100} against {ruling.get('threshold')} — {'passed' if ok else 'failed: red marker'}",
         f"{u.name} : test de commandement d100 {d100} contre {ruling.get('threshold')} — "
         f"{'réussi' if ok else 'raté : marqueur rouge'}", side=u.side, ref=REF_COMMAND, unit=u.id,
         result="passed" if ok else "failed", ruling=ruling)
    return ruling


def give_orders(state: Battle, side: str, given: dict[str, tuple[str, str | None]]) -> None:
    for uid, (oid, target) in given.items():
        orders_mod.set_order(state.units[uid], oid, target)
    state.orders_in[side] = True
    coyolxauhqui.note_orders(state, side, given)  # an enemy character it possesses resists at the reveal (OR-GF128)
    listing = {uid: {"order": oid, "target": t} for uid, (oid, t) in sorted(given.items())}
    bound = spells.orders_face_up(state, side)
    if bound is not None:  # Paroles de vérité: face up, for both sides to see (l.1264, OR-GF124)
        emit(state, "orders", f"Side {side} gives its orders ({len(given)} units), face up (« Paroles de vérité »)",
             f"Le camp {side} donne ses ordres ({len(given)} unités), face visible (« Paroles de vérité »)", side=side,
             ref=bound["ref"], decision="OR-GF124", orders=listing, face_up=True)
    else:
        emit(state, "orders", f"Side {side} gives its orders ({len(given)} units), face down",
             f"Le camp {side} donne ses ordres ({len(given)} unités), face cachée", side=side,
             ref=rules().phase(3).ref, private=side, orders=listing)
    emit(state, "orders_given", f"Side {side} has given its orders" + (" (face up)" if bound else " (face down)"),
         f"Le camp {side} a donné ses ordres" + (" (face visible)" if bound else " (face cachée)"), side=side,
         ref=rules().phase(3).ref)


def move_budget(u: Unit, state: Battle | None = None) -> tuple[float, str, bool, list[dict]]:
    """The unit's allowance for its order's move, its direction, whether it keeps its heading, the steps;
    with ``state``, a spell doubling the move this turn (*Promptitude*, OR-GF112) is read."""
    play = rules().order_play[u.order]
    column = {"normal": "normal", "double": "double", "retraite": "retraite", "charge": "charge"}[play.move]
    budget, steps = moves.allowance(u, column, fires=play.fires)
    if play.change_first:
        budget, steps = moves.formation_change_left(u)
    if play.flight:
        from fractions import Fraction

        from .. import movement
        row = movement.flights()[play.flight]
        left = 1 - Fraction(row.air_cost)
        budget = float(budget * left)
        steps.append({"text": f"{row.names[0]}: {row.air_cost} of the air move; {budget:g} cm left", "ref": row.ref,
                      "decision": "OR-GF43"})
    if state is not None and budget > 0:  # the mud, a flyer in the wind (l.1270, l.1314; OR-GF122)
        factor, wsteps = weather.move_factor(state, u)
        if factor != 1:
            budget = float(budget * factor)
            steps += wsteps + [{"text": f"{budget:g} cm left", "ref": wsteps[-1]["ref"], "decision": "OR-GF122"}]
    quick = lasting.has(state, u.id, "double_move") if state is not None else None
    if quick and budget > 0:
        budget *= 2
        steps.append({"text": f"a spell doubles the move: {budget:g} cm", "ref": quick["ref"], "decision": "OR-GF112"})
    return budget, play.direction, play.direction == "back", steps


def move(state: Battle, u: Unit, x: float, y: float, heading: float) -> dict:
    budget, direction, keep, steps = move_budget(u, state)
    out = moves.check_destination(state, u, x, y, heading, budget=budget, direction=direction, keep_heading=keep)
    sweep = tt.swept(u.pose, tt.Pose(x, y, heading), u.width, u.depth)
    moves.apply_move(u, x, y, heading)
    u.moved = True
    u.moved_cm += out["path_cm"]
    interpenetration(state, u, sweep)
    if u.order == "s_evader":
        u.set_disorder(True)  # l.616: the evader ends in disorder
    emit(state, "move", f"{u.name} moves {out['cost_cm']:.1f} of {budget:.1f} cm",
         f"{u.name} se déplace de {out['cost_cm']:.1f} cm sur {budget:.1f}", side=u.side,
         ref=rules().order_play[u.order].ref, unit=u.id, to=[x, y, heading],
         ruling={"explanation": [s["text"] for s in steps] + out["steps"],
                 "citations": [s["ref"] for s in steps] + ["GF seed 003 l.588-590", "OR-GF37"]})
    return out


def interpenetration(state: Battle, u: Unit, sweep) -> None:
    """l.638-642: passing through friends in open order or characters is free, "dans tous les cas, une
    seule des deux unités concernées pourra tirer"; any other friend crossed disorders both units, which
    "ne peuvent plus tirer". Each crossing is logged with the turn's fire restriction it leaves
    (``lasting`` ``crossing``, read by fire_play.can_fire; OR-GF117)."""
    for f in state.side_units(u.side):
        if f.id == u.id or f.altitude == "flight" or u.altitude == "flight":
            continue
        if sweep.intersection(f.footprint()).area <= 0.01:
            continue
        if u.open_order or f.open_order:
            lasting = [{"unit": v.id, "effect": "crossing", "kind": "free", "mover": u.id, "other": w.id,
                        "from_turn": state.turn, "until_turn": state.turn, "ref": "GF seed 003 l.640"}
                       for v, w in ((u, f), (f, u))]
            emit(state, "crossing", f"{u.name} passes through {f.name}: only one of the two may fire this turn",
                 f"{u.name} traverse {f.name} : une seule des deux pourra tirer ce tour", side=u.side,
                 ref="GF seed 003 l.640", decision="OR-GF117", unit=u.id, other=f.id, lasting=lasting)
            continue
        u.set_disorder(True)
        f.set_disorder(True)
        lasting = [{"unit": v.id, "effect": "crossing", "kind": "disorder", "mover": u.id, "other": w.id,
                    "from_turn": state.turn, "until_turn": state.turn, "ref": "GF seed 003 l.642"}
                   for v, w in ((u, f), (f, u))]
        emit(state, "disorder", f"{u.name} passes through {f.name}: both are disordered and cannot fire",
             f"{u.name} traverse {f.name} : les deux sont en désordre et ne peuvent plus tirer", side=u.side,
             ref="GF seed 003 l.638-642", unit=u.id, other=f.id, lasting=lasting)


# --- the automatic phases ---------------------------------------------------------------------------------
def phase1_automatic(state: Battle) -> None:
    """Routs, retreats and pursuits owed move their distance (l.254-256): gf-combat's
    ``morale_play.automatic_moves``; a unit that moved gets the green marker (l.313, l.319)."""
    before = {u.id: (u.x, u.y) for u in state.units.values()}
    record(state, morale_play.automatic_moves(state, state.dice))
    for u in state.units.values():
        if u.alive and (u.x, u.y) != before[u.id]:
            u.mark("green")


def phase4_reveal(state: Battle) -> None:
    """Orders revealed; each charger and its target test their morale (l.281-283, gf-combat's
    ``morale_play.test``); a charger still charging makes the first half of its charge."""
    state.revealed = True
    fog.reveal_chargers(state)
    for u in sorted((v for v in state.units.values() if v.behind and v.alive), key=lambda v: v.id):
        if u.order == "charger":  # its charge names its target (l.283): it is placed (OR-GF145)
            buildings_play.reveal(state, u, "it charges", "elle charge")
    # units still hidden on movement bases or in a building keep their orders to their side (OR-GF103, OR-GF83)
    listing = {u.id: {"order": u.order, "target": u.target, **({"targets": list(u.fire_targets)} if u.fire_targets else {})}
               for u in state.units.values() if u.order is not None and u.base is None and not u.hidden}
    emit(state, "orders_revealed", "The orders are revealed", "Les ordres sont révélés",
         ref=rules().phase(4).ref, orders=listing)
    coyolxauhqui.resist(state)  # each order to a possessed character: obeyed or resisted (l.1282, OR-GF128)
    for u in [u for u in state.units.values() if u.order == "charger" and u.alive]:
        target = state.units.get(u.target or "")
        if target is None or not target.alive or u.status != "ok":
            continue
        cause = "charge_monster_or_character" if u.kind in ("monster", "character") else "charge"
        record(state, [morale_play.test(state, u.id, "charge", state.dice, target.id, deferred=False)])
        if u.status != "ok" or u.order != "charger":
            continue
        if not fighters.in_combat(state, target) and target.alive and target.status == "ok":
            record(state, [morale_play.test(state, target.id, cause, state.dice, u.id, deferred=False)])
        if not target.alive:
            continue
        u.charging = True
        u.charge_half = True
        charge_move(state, u, target, half=True)
    reactions.declare(state)


FORMATION_NAMES = {"line": ("line", "ligne"), "column": ("column", "colonne"), "open": ("open order", "ordre ouvert")}


def phase6_orders_in_place(state: Battle) -> None:
    """Orders carried out on the spot at the start of phase 6: reform (clears disorder, the whole
    move, l.363-365, l.573), change formation from the centre (l.379-389, l.674-676), about turn
    and quarter turn (l.367-377). A change into column or line and a turn cost the GF-D5 fraction
    of the normal move (l.1414-1419): what is left may be moved in phase 6 (OR-GF111); open order
    and reforming take the whole move (l.365, l.389). The unit stays centred where it stands (OR-GF39); a change that
    would leave the table or overlap another unit is not made (the order is lost, said in the log)."""
    for u in list(state.units.values()):
        if not u.alive or u.order is None or u.status != "ok" or fighters.in_combat(state, u):
            continue
        play = rules().order_play.get(u.order)
        if play is not None and play.flight:
            old = u.altitude or "ground"
            u.altitude = None if play.altitude_to == "ground" else play.altitude_to
            emit(state, "manoeuvre", f"{u.name}: {play.flight.replace('_', ' ')}, from {old} to {play.altitude_to} altitude",
                 f"{u.name} : {play.flight.replace('_', ' ')}, de l'altitude {old} à {play.altitude_to}", side=u.side,
                 ref=play.ref, decision=play.decision, unit=u.id, altitude=u.altitude)
            continue
        if u.order == buildings_play.play().order:
            buildings_play.carry_out(state, u)  # casser sa formation: in or out of a building (l.361, l.788)
            continue
        if play is None or (play.move != "none" and not play.change_first) or play.id_is_wait():
            continue
        before = (u.formation, u.heading, u.disorder)
        if u.order == "reformer":
            u.set_disorder(False)
            text, text_fr = f"{u.name} reforms (its whole move)", f"{u.name} se reforme (tout son mouvement)"
        elif play.formation:
            u.set_formation(play.formation)
            en, fr = FORMATION_NAMES[play.formation]
            text, text_fr = f"{u.name} changes into {en}", f"{u.name} passe en {fr}"
        elif play.turn:
            sign = -1 if u.target == "left" else 1
            u.heading = (u.heading + sign * play.turn) % 360
            text, text_fr = f"{u.name} turns {play.turn}°", f"{u.name} tourne de {play.turn}°"
        else:
            continue
        if not u.inside and (not moves.table_box().covers(u.footprint()) or _overlaps(state, u)):
            form, u.heading, dis = before
            u.set_formation(form)
            u.set_disorder(dis)
            emit(state, "manoeuvre_blocked", f"{u.name} has no room for its manoeuvre: it stays as it was",
                 f"{u.name} n'a pas la place de manœuvrer : elle reste telle quelle", side=u.side, ref=play.ref,
                 decision="OR-GF39", unit=u.id)
            u.moved = True  # the order is lost: nothing left to move either
            continue
        ruling = None
        if play.change_first:
            left, steps = moves.formation_change_left(u)
            ruling = {"explanation": [s["text"] for s in steps], "citations": [s["ref"] for s in steps] + ["OR-GF111"]}
            text += f"; {left:g} cm of its move left" if left > 0 else "; no move left"
            text_fr += f" ; il lui reste {left:g} cm de mouvement" if left > 0 else " ; plus de mouvement"
            u.moved = left <= 0
        else:
            u.moved = True
        emit(state, "manoeuvre", text, text_fr, side=u.side, ref=play.ref, decision=play.decision, unit=u.id,
             **({"ruling": ruling} if ruling else {}))


def _overlaps(state: Battle, u: Unit) -> bool:
    fp = u.footprint()
    return any(o.id != u.id and o.alive and fp.intersection(o.footprint()).area > 0.01
               and "character" not in (o.kind, u.kind) for o in state.units.values())


def phase7_automatic(state: Battle) -> None:
    """Red-marker units roll on the automatic movement table and obey (l.295-297, l.644-664)."""
    for u in list(state.units.values()):
        if not u.alive or "red" not in u.markers or u.status != "ok" or u.inside or u.split \
                or fighters.in_combat(state, u):
            continue  # in a building: it stays there (OR-GF82)
        table = {"troop": "troops", "creature": "creatures", "monster": "monsters"}[u.kind]
        d100 = state.dice.roll(100)
        ruling = referee.adjudicate({"kind": "automatic_movement", "table": table, "d100": d100})
        act = rules().automatic_action(table, ruling["row"][0])
        what = act.action
        if what.startswith("copy"):
            what = _copied(state, u, what)
        gap = rules().distances.friend_standoff_cm
        if what == "advance":
            budget, _ = moves.allowance(u, "normal")
            x, y, h, dist = moves.farthest_straight(state, u, budget, "forward", friend_gap=gap)
            moves.apply_move(u, x, y, h)
        elif what == "retire":
            budget, _ = moves.allowance(u, "retraite")
            x, y, h, dist = moves.farthest_straight(state, u, budget, "back", friend_gap=gap)
            moves.apply_move(u, x, y, h)
        else:
            dist = 0.0
        emit(state, "automatic_move", f"{u.name}: automatic movement d100 {d100}: {ruling['result_en']} ({dist:.1f} cm)",
             f"{u.name} : mouvement automatique d100 {d100} : {ruling['result']} ({dist:.1f} cm)", side=u.side,
             ref=act.ref, unit=u.id, result=what, ruling=ruling)


def _copied(state: Battle, u: Unit, what: str) -> str:
    """'Copier sur l'unité amie la plus proche à gauche ou à droite' (l.662-664): the nearest friend
    on that side with an order; its move is copied as advance, retire or stay (never charge)."""
    side_sign = 1 if what == "copy_right" else -1
    best = None
    for f in state.side_units(u.side):
        if f.id == u.id or f.order is None:
            continue
        right, _ = tt.local_coordinates(u.pose, tt.Point(f.x, f.y))
        if right * side_sign > 0 and (best is None or abs(right) < best[0]):
            best = (abs(right), f)
    if best is None:
        return "stay"
    play = rules().order_play.get(best[1].order)
    if play and play.move in ("normal", "double", "charge") and play.direction == "forward":
        return "advance"
    if play and play.direction == "back":
        return "retire"
    return "stay"


def phase8_fire(state: Battle) -> None:
    """Units ordered to fire shoot; casualties together, then morale (gf-combat's fire_play). A unit
    on a movement base that fires is revealed first (l.1363)."""
    fog.reveal_firers(state)
    record(state, fire_play.resolve(state, state.dice))
    buildings_play.burn(state, state.dice)  # burning buildings: damage, the d100 of those inside (l.814, OR-GF85)


def phase9_charges(state: Battle) -> None:
    """Chargers make the second half of their charge; one that reaches nothing is disordered (l.608)."""
    for u in list(state.units.values()):
        if not u.alive or not u.charge_half or u.status != "ok" or fighters.in_combat(state, u):
            continue
        target = state.units.get(u.target or "")
        u.charge_half = False
        if target is None or not target.alive:
            continue
        charge_move(state, u, target, half=False)
        u.unmark("uncontrolled_advance")
        if not fighters.in_combat(state, u):
            u.set_disorder(True)
            u.charging = False
            emit(state, "disorder", f"{u.name} ends its charge without contact: disorder",
                 f"{u.name} termine sa charge sans contact : désordre", side=u.side, ref="GF seed 003 l.608", unit=u.id)


def phase10_melee(state: Battle) -> None:
    """Every unit in contact fights; losses together; the loser recoils and tests (gf-combat's melee_play);
    the winner follows beaten occupants into their building (l.792, OR-GF135)."""
    held, start = buildings_play.occupancy(state), len(state.log)
    record(state, melee_play.resolve(state, state.dice))
    buildings_play.follow_in(state, held, start)
    curses.roll_possession(state)  # a bearer of Possession who fought or fired this turn (l.211, OR-GF136)


def phase11_rally(state: Battle) -> None:
    """Routing units test their morale to rally (gf-combat's rally)."""
    record(state, rally.resolve(state, state.dice))


AUTOMATIC = {1: phase1_automatic, 4: phase4_reveal, 7: phase7_automatic, 8: phase8_fire,
             9: phase9_charges, 10: phase10_melee, 11: phase11_rally}


# --- placement during deployment -----------------------------------------------------------------------
def check_place(state: Battle, u: Unit, x: float, y: float, heading: float) -> None:
    zone = zones(state)[u.side]
    fp = moves.footprint_at(u, x, y, heading)
    if not zone.buffer(0.01).covers(fp):
        raise IllegalAction(f"{u.name} must stand inside side {u.side}'s deployment zone", REF_DEPLOY)
    for o in state.units.values():
        if o.id != u.id and o.alive and o.side == u.side and o.kind != "character" and u.kind != "character":
            if fp.intersection(o.footprint()).area > 0.01:
                raise IllegalAction(f"{u.name} would stand on {o.name}", REF_DEPLOY)
