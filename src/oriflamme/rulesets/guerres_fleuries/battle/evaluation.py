"""The computer players' view of a battle (issue 13 item 6): how well a side stands — the
``Ruleset.evaluate`` hook — and a copy with what the side may not see redrawn — ``determinize``.
:mod:`oriflamme.ai` knows only these hooks.

The evaluation is a heuristic, not a rule: each term is tied to the rule that makes it matter and
its weight lives in ``data/ai_evaluation.toml`` with that citation. A term is the side's minus the
enemy's; the weighted sum goes through ``tanh`` to -1 (lost) … +1 (won); the end of the battle is
-1, 0 or +1 exactly. Terms:

* **points** and **figures**: the shares destroyed (the victory conditions of OR-GF33, :mod:`.victory`),
  with more weight as an army nears its break (more than half of its figures lost);
* **morale**: routing, retreating and disordered units count as partly lost;
* **threats**: every pair of enemy units, the expected points each kills of the other in a round of
  melee (the part-1 referee on the units' own situation: class, weapons, ranks, armour, shields,
  disorder; the flank and rear when the striker stands outside its target's front arc) weighed by
  their closeness — the favoured side gains by closing in, the other by keeping away; each unit counts
  its best such melee (its others at ``threats_others``, :func:`threat_sum`: a unit charges one enemy); the round's
  outcome counts too (:meth:`.odds.Reading.outcome`): the side losing more figures tests its morale,
  and a retreat or rout that leaves the table loses the whole unit;
* **fire**: each missile unit's expected volley at the best enemy in its arc and range (the part-1
  fire referee), whole when it is known to be ordered to fire;
* **charges**: the charges either side could declare now, at their odds and morale risks, counted
  only when the charge can reach its target as ``charges.charge_move`` moves a charger
  (:func:`.odds.charge_reaches`: the standoff from other enemies stops many);
* **orders**: the orders still to be carried out this turn, one's own and (once revealed) the
  enemy's: a charge at its odds, an advance towards what the unit beats, a retreat from what beats it
  (nothing once the side has ended its moves);
* **edge**: units too near their own table edge to retreat or rout without leaving it (lost whole);
* **command**: the troops' chance to pass their next command test, the nearest character commanding;
* **spell**: a priest's Blessure at the best enemy within its range;
* **blocked**: units with a standing building across their path straight ahead (:mod:`.obstruction`:
  they may not go through it, l.788), which the straight-line readings above count as free to close in;
* **lasting**: the spells lasting on the units, a blessing for its holder's side, a curse for the
  other (the odds read no lasting modifier); its weight is 0 for now (measured, docs/guerres-fleuries/ai.md).

**What the side may see.** Everything on the table is public but the enemy's orders before phase 4
(:func:`.views.order_visible`) and, in an encounter battle, what the enemy's movement bases carry and
its flank marches: the evaluation reads an enemy's order only when it is visible, and a search starts
from :func:`determinize`, which redraws those orders, deals the enemy's hidden units to its bases at
random and redraws its flank marches' edge and place (:func:`redraw_fog`).

The distances are approximations (between the units' rectangles along the line of their centres,
pure Python) and the referee's percentages are cached by situation: the search evaluates thousands
of positions per decision.
"""

from __future__ import annotations

import math

from . import battle_orders, lasting, obstruction, odds, orders as orders_mod, spells, victory
from .odds import (DATA, EvaluationData, Reading, charge_morale, closeness, command_success, edge_exposure,  # noqa: F401
                   exchange, farthest, favoured_sets, fire_kills, in_contact_count, kill_value, load_weights,
                   melee_kills)
from .state import Battle
from .views import order_visible


def terms(state: Battle, side: str) -> dict[str, float]:
    """The evaluation's terms for ``side`` (each the side's minus the enemy's; unweighted)."""
    data = load_weights()
    st, w = data.status, data.weights
    enemy = state.other(side)
    norm = max(1.0, (state.start_points.get("A", 0) + state.start_points.get("B", 0)) / 2.0)
    points, figures, morale = {}, {}, {}
    for s in (side, enemy):
        points[s] = victory.points_destroyed(state, s) / max(1, state.start_points.get(s, 1))
        lost = victory.figures_lost(state, s) / max(1, state.start_figures.get(s, 1))
        figures[s] = lost + w.break_pressure / max(w.figures, 1e-9) * max(0.0, lost - w.break_from)
        m = 0.0
        for u in state.side_units(s):
            share = st.rout if u.status == "rout" else st.retreat if u.status == "retreat" else 0.0
            if u.disorder:
                share += st.disorder
            m += share * u.points * u.figures / max(1, u.figures_max)
        morale[s] = m / max(1, state.start_points.get(s, 1))
    rd = Reading(state)
    mine = [p for p in rd.pieces.values() if p.u.side == side]
    theirs = [p for p in rd.pieces.values() if p.u.side == enemy]
    contact = data.distance.contact_cm
    threats = charges = 0.0
    gains: dict[str, list[float]] = {}  # what each unit stands to gain in the melees around it
    best_fire: dict[str, float] = {}
    for u in mine:
        for e in theirs:
            near = rd.gap(u.u.id, e.u.id)
            x = rd.exchange(u.u.id, e.u.id) * closeness(near, max(u.reach, e.reach), contact)
            threats += x
            if x:
                gains.setdefault(u.u.id if x > 0 else e.u.id, []).append(x)
            if near > contact:
                # a charge either could declare now: in reach and in the charger's front arc
                if near <= u.reach and not u.outside_front(e) and u.u.status == "ok":
                    charges += max(0.0, rd.charge(u.u.id, e.u.id))
                if near <= e.reach and not e.outside_front(u) and e.u.status == "ok":
                    charges -= max(0.0, rd.charge(e.u.id, u.u.id))
            far = None
            for a, b in ((u, e), (e, u)):
                if a.range and contact < near < a.range and not a.outside_front(b):
                    far = farthest(a, b) if far is None else far
                    if far > a.range:
                        continue
                    v = fire_kills(a.u, b.u, far) * b.value
                    if v > best_fire.get(a.u.id, 0.0):
                        best_fire[a.u.id] = v
    if w.threats_others < 1.0:
        threats = threat_sum(gains, w.threats_others)
    fire = {side: 0.0, enemy: 0.0}
    for uid, v in best_fire.items():
        u = state.units[uid]
        known = order_visible(state, u, side) and u.order is not None
        share = (1.0 if u.order == FIRE_ORDER else 0.0) if known else w.fire_unknown
        fire[u.side] += v * share
    orders = order_terms(rd, side) - (order_terms(rd, enemy) if state.revealed else 0.0)
    edge = {s: edge_term(rd, s) for s in (side, enemy)}
    command = {s: command_term(rd, s) for s in (side, enemy)}
    spell = {s: spell_term(rd, s) for s in (side, enemy)}
    blessed = lasting_term(state)
    blocked = {s: blocked_term(state, s) for s in (side, enemy)}
    return {"blocked": (blocked[enemy] - blocked[side]) / norm, "points": points[enemy] - points[side], "figures": figures[enemy] - figures[side],
            "morale": morale[enemy] - morale[side], "threats": threats / norm, "charges": charges / norm,
            "fire": (fire[side] - fire[enemy]) / norm, "orders": orders / norm,
            "edge": (edge[enemy] - edge[side]) / norm, "command": (command[side] - command[enemy]) / norm,
            "spell": (spell[side] - spell[enemy]) / norm,
            "lasting": (blessed.get(side, 0.0) - blessed.get(enemy, 0.0)) / norm}


def threat_sum(gains: dict[str, list[float]], others: float) -> float:
    """The *threats* term from each unit's gains in the melees around it (signed: the side evaluated's
    gains positive, the enemy's negative): its best counts whole, the others at ``others`` (1: every
    pair, as a sum over pairs; 0: the best alone). A unit charges one enemy (l.391-393) and fights
    those its figures touch (l.933): a lone monster beating five units threatens one of them a turn,
    not five, and a unit beating five enemies closes in on one."""
    total = 0.0
    for xs in gains.values():
        xs = sorted(xs, key=abs, reverse=True)
        total += xs[0] + others * sum(xs[1:])
    return total


def spell_term(rd: Reading, side: str) -> float:
    """What ``side``'s priests may do with Blessure next (l.1164-1166, OR-GF40): for each priest in good
    order, the best enemy within the spell's range — the chance it works times a figure of a unit
    (or a wound's share of a lone being) and the target's morale test that follows, at its chances
    (a retreat or rout counted as the [status] shares, whole at the table's edge)."""
    st = load_weights().status
    reach = odds.spell_range()
    total = 0.0
    for c in rd.pieces.values():
        if c.u.side != side or c.u.status != "ok" or not odds.is_priest(c.u):
            continue
        chance = odds.spell_chance(rd.state, c.u)
        if chance is None:
            continue
        best = 0.0
        for e in rd.pieces.values():
            if e.u.side == side or rd.gap(c.u.id, e.u.id) > reach:
                continue
            v = e.value
            if e.u.kind != "character" and e.u.status == "ok":
                ret, rout = charge_morale(rd.state, e.u, c.u)
                alive = e.u.points * e.u.figures / max(1, e.u.figures_max)
                v += (ret * (e.exposed[0] + (1 - e.exposed[0]) * st.retreat)
                      + rout * (e.exposed[1] + (1 - e.exposed[1]) * st.rout)) * alive
            best = max(best, chance * v)
        total += best
    return total


def lasting_term(state: Battle) -> dict[str, float]:
    """The spells lasting on the units this turn (battle/lasting.py), per side they help: a blessing (a
    spell cast at a friend, data/spell_effects.toml ``targets``) helps its holder's side, a curse (cast
    at an enemy) the other side; each worth the holder's points alive (``evaluate`` weighs it by the
    weights' ``lasting_spell`` share), whole with ``lasting_turns`` turns or more to run (or the whole battle), less as it runs out.
    The weather (cast at "any") is not counted. Each cast counts once (a spell may write several
    entries: its fire and its melee modifiers)."""
    w = load_weights().weights
    rows = spells.spell_effects()
    out: dict[str, float] = {}
    seen = set()
    for e in lasting.entries(state.log):
        row = rows.get(e.get("spell") or "")
        u = state.units.get(e.get("unit") or "")
        if row is None or row.targets == "any" or u is None or not u.alive:
            continue
        until = e.get("until_turn")
        if e.get("from_turn", 0) > state.turn or (until is not None and until < state.turn):
            continue
        key = (e["spell"], u.id, e.get("from_turn"))
        if key in seen:
            continue
        seen.add(key)
        left = w.lasting_turns if until is None else min(w.lasting_turns, until - state.turn + 1)
        value = u.points * u.figures / max(1, u.figures_max) * left / w.lasting_turns
        helped = u.side if not row.targets.startswith("enemy") else state.other(u.side)
        out[helped] = out.get(helped, 0.0) + value
    return out


def blocked_term(state: Battle, side: str) -> float:
    """The points of ``side``'s units with a standing building across their path straight ahead
    (:func:`.obstruction.blocked_share`: they cannot go through it, l.788, OR-GF88), more as it stands
    nearer: the straight-line readings count them as if they could close in."""
    total = 0.0
    for u in state.side_units(side):
        if u.alive:
            share = obstruction.blocked_share(state, u)
            if share:
                total += share * u.points * u.figures / max(1, u.figures_max)
    return total


def edge_term(rd: Reading, side: str) -> float:
    """The points of ``side``'s units in good order standing too near their own table edge to retreat
    or rout without leaving it (:func:`.odds.edge_exposure`: a failed morale test there loses the
    whole unit, l.946, l.1094), the rout's exposure and the retreat's, each at half weight."""
    total = 0.0
    for p in rd.pieces.values():
        u = p.u
        if u.side != side or u.status != "ok" or u.kind == "character":
            continue
        total += (p.exposed[0] + p.exposed[1]) / 2.0 * u.points * u.figures / max(1, u.figures_max)
    return total


def command_term(rd: Reading, side: str) -> float:
    """The points of ``side``'s troops weighted by their chance to pass their next command test
    (:func:`.odds.command_success`: the nearest friendly character commands, better within 15 cm,
    GF-C2); a unit that fails moves at random (l.329-331)."""
    chars = [p for p in rd.pieces.values() if p.u.side == side and p.u.kind == "character" and p.u.status == "ok"]
    total = 0.0
    for p in rd.pieces.values():
        u = p.u
        if u.side != side or u.kind != "troop" or u.status != "ok":
            continue
        near = min(((rd.gap(u.id, c.u.id), c.u.id) for c in chars), default=None)
        chance = command_success(u, rd.pieces[near[1]].u if near else None, near[0] if near else 0.0)
        total += chance * u.points * u.figures / max(1, u.figures_max)
    return total


FIRE_ORDER = "tirer"
#: the orders that move a unit towards or away from the enemy in phase 6 (data/orders.toml)
ADVANCE, RETIRE = ("avancer", "doubler"), ("se_retirer",)


def order_terms(rd: Reading, side: str) -> float:
    """The value of ``side``'s orders still to be carried out this turn (phases 3 to 6): a charge at
    its odds (with the charge modifier), an advance towards enemies the unit beats, a retreat from
    those that beat it, a reform of a disordered unit (points per round, unnormalised)."""
    state = rd.state
    if state.phase < 3 or state.phase > 6:
        return 0.0
    w = load_weights()
    contact = w.distance.contact_cm
    total = 0.0
    enemies = [p for p in rd.pieces.values() if p.u.side != side]
    for p in rd.pieces.values():
        u = p.u
        if u.side != side or u.order is None or u.status != "ok" or u.moved:
            continue
        if u.order == "charger":
            if u.target in rd.pieces and not u.charging:
                total += rd.exchange(u.id, u.target, charging=True) if u.charge_half or state.revealed \
                    else rd.charge(u.id, u.target)
            continue
        if u.order == "reformer" and u.disorder:
            total += w.weights.reform * u.points
            continue
        if u.order not in ADVANCE and u.order not in RETIRE:
            continue
        if state.phase == 6 and side in state.done:
            continue  # the side has ended its moves: an order not carried out is lost
        step = p.reach * (2.0 / 3.0)
        # a character steps away only from what can reach him (odds.character_order)
        gain = odds.step_gain(rd, p, enemies, step, contact, lone=u.kind == "character")
        if u.order in RETIRE:
            # stepping back towards its own edge: no gain where it leaves no room to flee (l.946, l.1094)
            gain = -gain * (1.0 - max(edge_exposure(u, rd.height, step))) if u.kind != "character" else -gain
        total += max(0.0, gain)
    return total


def evaluate(state: Battle, side: str) -> float:
    """How well ``side`` stands, from -1 (lost) to +1 (won): ±1 or 0 once the battle is over."""
    if state.over:
        return 0.0 if state.winner is None else (1.0 if state.winner == side else -1.0)
    w = load_weights().weights
    t = terms(state, side)
    total = (w.points * t["points"] + w.figures * t["figures"] + w.morale * t["morale"] + w.threats * t["threats"]
             + w.charges * t["charges"] + w.fire * t["fire"] + w.orders * t["orders"] + w.edge * t["edge"]
             + w.command * t["command"] + w.spell * t["spell"] + w.lasting_spell * t["lasting"]
             + w.blocked * t["blocked"])
    return math.tanh(total / w.scale)


def advised(state: Battle, side: str, actions: list) -> list:
    """The ``Ruleset.advised_actions`` hook: the orders actions among ``actions`` whose set is one the
    referee's odds give (:func:`.odds.favoured_sets`), so the search always weighs them even where it
    samples a few of the typical sets."""
    if state.phase != 3 or not any(getattr(a, "type", None) == "orders" for a in actions):
        return []
    units = orders_mod.eligible(state, side)
    opts = {u.id: {o["id"]: o for o in orders_mod.options(state, u)} for u in units}
    wanted = {tuple(sorted((k, v[0], v[1]) for k, v in battle_orders.legalize(state, side, s).items()))
              for s in favoured_sets(state, side, units, opts)}
    return [a for a in actions if getattr(a, "type", None) == "orders" and a.orders in wanted]


# --- hidden information ----------------------------------------------------------------------------
def hidden_units(state: Battle, side: str) -> list[str]:
    """The enemy units whose orders ``side`` may not see now: those the enemy's face-down orders of
    this turn name (the private event of phase 3, :func:`.turn.give_orders`), before the reveal."""
    enemy = state.other(side)
    if not spells.orders_face_down(state, enemy):
        return []  # not given yet, revealed, or laid face up under Paroles de vérité (OR-GF124)
    for ev in reversed(state.log):
        if ev.get("turn") != state.turn:
            break
        if ev.get("type") == "orders" and ev.get("private") == enemy:
            return sorted(ev.get("orders") or {})
    return []


def redraw_occupants(copy: Battle, side: str, rng) -> None:
    """The enemy's units hidden in a building (l.784, OR-GF83) as ``side`` may know them: their entry
    was seen (the ``enter_building`` event is public), so which building holds them is known; what they
    did inside is not. Whether they reformed since (they go in disordered, l.361, l.788) is redrawn at
    even odds, and their order of this turn among those they could have been given
    (:func:`.orders.options`: inside, wait, reform, fire or come out, OR-GF82)."""
    enemy = copy.other(side)
    # and the units hidden behind a building (l.786, OR-GF145): what they did since they hid is not seen
    for u in sorted((u for u in copy.side_units(enemy) if u.alive and u.hidden and (u.inside or u.behind)),
                    key=lambda u: u.id):
        u.set_disorder(rng.random() < 0.5)
        if u.order is None:
            continue
        offered = sorted((o for o in orders_mod.options(copy, u) if o["targets"] or not o["needs_target"]),
                         key=lambda o: o["id"])
        if offered:
            o = rng.choice(offered)
            u.order, u.target = o["id"], (rng.choice(sorted(o["targets"])) if o["needs_target"] else None)


def redraw_behind(copy: Battle, side: str, rng) -> None:
    """The enemy's units hidden behind a building (l.786, OR-GF144, OR-GF145) as ``side`` may know them:
    it saw each one taken off the table (the ``hide_behind`` event is public, naming the building), not
    where it stands since. Each is put against one of that building's walls drawn with ``rng`` (its rear
    to the wall, on the table, on no other unit), its place when it hid rewritten to match."""
    from oriflamme.geometry import tabletop as tt
    from shapely.geometry import box
    from . import buildings_play
    from .rules import rules as battle_rules
    enemy = copy.other(side)
    table = box(0, 0, battle_rules().table.width_cm, battle_rules().table.height_cm)
    for u in sorted((u for u in copy.side_units(enemy) if u.alive and u.behind), key=lambda u: u.id):
        el = buildings_play.element(copy, u.behind["building"])
        c = el.geometry.centroid
        pts = list(el.geometry.exterior.coords)
        others = [o.footprint() for o in copy.units.values() if o.alive and o.id != u.id and o.altitude is None]
        spots = []
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            h = tt.toward(tt.Pose(c.x, c.y, 0.0), mx, my)
            p = tt.moved(tt.Pose(mx, my, h), u.depth / 2 + 0.5)
            fp = tt.footprint(p, u.width, u.depth)
            if table.covers(fp) and not fp.intersects(el.geometry) \
                    and not any(fp.intersection(o).area > 0.01 for o in others):
                spots.append((round(p.x, 2), round(p.y, 2), round(p.heading % 360.0, 2)))
        if spots:
            u.x, u.y, u.heading = rng.choice(sorted(spots))
            u.behind = dict(u.behind, at=[u.x, u.y, u.heading, u.formation])


def redraw_fog(copy: Battle, side: str, rng) -> None:
    """An encounter battle's hidden deployment as ``side`` cannot see it (GF-K4, K5): the enemy's units
    on movement bases are dealt at random to the enemy's bases (the others become the decoys), and the
    enemy's flank marches get a random edge, place on the enemy's half and (before their first try)
    turn; the units hidden in cover are put in a random house, building, jungle or wood. Which units
    march on a flank is not redrawn (they are off the table in the copy too)."""
    from .. import prebattle
    from . import fog
    enemy = copy.other(side)
    bids = sorted(bid for bid, b in fog.bases(copy).items() if b["side"] == enemy)
    hidden = sorted((u for u in copy.side_units(enemy) if u.base in bids), key=lambda u: u.id)
    if hidden and bids:
        poses = {bid: fog.base_pose(copy, bid) for bid in bids}
        for bid in bids:
            x, y, h = poses[bid]
            copy.fog["bases"][bid].update(x=x, y=y, heading=h)
        dealt = list(bids)
        rng.shuffle(dealt)
        for u, bid in zip(hidden, dealt):
            u.base = bid
            u.x, u.y, u.heading = poses[bid]
    # units hidden in cover (l.497): somewhere in a house, a building, jungle or a wood
    covers = [el for el in copy.battlefield.elements if el.kind in fog.data()["hide"].in_kinds and el.geometry.area > 0]
    for u in sorted((u for u in copy.side_units(enemy) if fog.in_cover(u)), key=lambda u: u.id):
        if covers:
            c = rng.choice(covers).geometry.representative_point()
            u.x, u.y = round(c.x, 2), round(c.y, 2)
    h = copy.battlefield.height
    for edge, force in list(copy.fog.get("flank", {}).get(enemy, {}).items()):
        if force.get("entered"):
            continue
        new_edge = rng.choice(("left", "right"))
        first = force["first_try_turn"]
        if not force.get("failures"):  # its first try is still to come: any turn from the earliest
            earliest = prebattle.data().flank_march.earliest_turn
            first = max(earliest, rng.choice((copy.turn + 1, copy.turn + 2, copy.turn + 3)))
        force = dict(force, edge=new_edge, first_try_turn=first,
                     y=round(rng.uniform(h / 2, h) if enemy == "A" else rng.uniform(0, h / 2), 2))
        del copy.fog["flank"][enemy][edge]
        if new_edge in copy.fog["flank"][enemy]:
            other = copy.fog["flank"][enemy][new_edge]
            other["units"] = list(other["units"]) + list(force["units"])
        else:
            copy.fog["flank"][enemy][new_edge] = force


def redraw_cloaked(copy: Battle, side: str) -> None:
    """The enemy's characters invisible under the « Cape de Coyolxauhqui » (l.236, OR-GF148) move unseen:
    ``side`` saw each vanish (the ``cape`` event is public, with the place) and knows nothing since; each is
    put back where it vanished, the last place ``side`` saw it."""
    from . import illusion
    for uid, e in sorted(illusion.table(copy).items()):
        u = copy.units.get(uid)
        if u is None or u.side == side or illusion.source_of(e).reveal_on_move:
            continue
        x, y, heading, formation = e["pose"]
        u.x, u.y, u.heading = x, y, heading
        if formation != u.formation:
            u.set_formation(formation)


def determinize(state: Battle, side: str, rng) -> Battle:
    """A copy in which what ``side`` cannot see — the enemy's orders given face down this turn — is
    redrawn: the orders are cleared, then one of the typical sets of orders the enemy could have
    given (:func:`.orders.typical_sets`, what ``legal_actions`` offers) is drawn with ``rng`` for
    those units, and the private event is rewritten to match. The enemy's written battle orders are
    redrawn too (:func:`.battle_orders.redraw`), and what the enemy's units hidden in a building did
    inside (:func:`redraw_occupants`), and where the enemy's units hidden behind a building stand
    (:func:`redraw_behind`), and where its characters under the cape stand (:func:`redraw_cloaked`).
    Nothing else is hidden."""
    copy = state.clone()
    battle_orders.redraw(copy, state.other(side), rng)  # the enemy's written orders are secret (OR-GF94)
    if copy.fog:
        redraw_fog(copy, side, rng)
    redraw_behind(copy, side, rng)
    redraw_occupants(copy, side, rng)
    redraw_cloaked(copy, side)
    hidden = hidden_units(state, side)
    if not hidden:
        return copy
    enemy = state.other(side)
    for uid in hidden:
        copy.units[uid].order, copy.units[uid].target = None, None
    sets = orders_mod.typical_sets(copy, enemy)
    drawn = rng.choice(sets) if sets else {}
    for uid, (oid, tgt) in drawn.items():
        if uid in copy.units and uid in hidden:
            copy.units[uid].order, copy.units[uid].target = oid, tgt
    # the log's private event named the true orders: the copy's says the drawn ones
    for i in range(len(copy.log) - 1, -1, -1):
        ev = copy.log[i]
        if ev.get("type") == "orders" and ev.get("private") == enemy and ev.get("turn") == state.turn:
            ev = dict(ev)
            ev["orders"] = {uid: {"order": copy.units[uid].order, "target": copy.units[uid].target}
                            for uid in hidden if copy.units[uid].order is not None}
            copy.log[i] = ev
            break
    return copy
