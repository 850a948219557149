"""How well a side stands in a Magna Carta position: the ``Ruleset.evaluate`` hook the computer
players search with (issue 14; :mod:`oriflamme.ai` knows only the hook).

A heuristic, not a rule: each term is tied to the rule that makes it matter, and its weight
lives in ``data/ai_evaluation.toml`` with that citation. Every term is computed for the side
evaluated minus the same term for its enemy; the weighted sum goes through ``tanh`` to a value
from -1 (lost) to +1 (won). Magna Carta hides nothing (``engine/view.py``), so reading the
state is reading what the side sees.

Terms: material (attack + defence by status), rout pressure (the scenario's ``rout_fraction``),
objectives held (counting only near the last turn, when victory reads them) and approached,
threats (adjacent enemies at good odds, and those who can march next to a character), the next
volley (each shooter's best shot by the fire tables), the wounded and stunned exposed to an
enemy, formation (friends side by side), cover against an enemy with missile weapons, and
closing in when stronger in fighting power (keeping away when weaker).
"""

from __future__ import annotations

import heapq
import math
import tomllib
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ...geometry.hexgrid import DIRECTIONS, Hex
from .engine.character import DEAD, HEALTHY, STUNNED, WOUNDED
from .engine.costs import SHIFT, per_ruleset, step_table
from .engine.fire import weapon_problem
from .engine.lines import line_of_fire
from .resolve.fire import FireSituation, fire as resolve_fire

DATA = Path(__file__).parent / "data" / "ai_evaluation.toml"
#: hexes beyond which a character counts as far from a place (the nearness terms fall to 0)
REACH = 20
#: the lines of fire kept per map for the volley term (:func:`_terrain_line`), at most
LINES_KEPT = 200_000


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scale: float = Field(gt=0)
    material: float = Field(ge=0)
    rout: float = Field(ge=0)
    objectives: float = Field(ge=0)
    objective_approach: float = Field(ge=0)
    objective_spare: float = Field(ge=0)
    objective_late: float = Field(ge=0)
    objective_late_window: float = Field(gt=0)
    objective_hold_exponent: float = Field(ge=1)
    march_cost: float = Field(gt=0)
    ref_march: str
    threats: float = Field(ge=0)
    striking: float = Field(ge=0, le=1)
    initiative: float = Field(ge=0, le=1)
    wounded_exposed: float = Field(ge=0)
    formation: float = Field(ge=0)
    cover: float = Field(ge=0)
    approach: float = Field(ge=0)
    fire: float = Field(ge=0)
    fire_lines: bool = True
    fire_stray: float = Field(default=0.0, ge=0, le=1)
    ref_fire: str
    approach_weaker: float = Field(ge=0, le=1)
    objective_paths: bool = True
    ref: str = Field(min_length=3)  # what the table is (heuristic weights, not rules)
    ref_material: str
    ref_rout: str
    ref_objectives: str
    ref_threats: str
    ref_wounded: str
    ref_formation: str
    ref_cover: str
    ref_approach: str


class StatusShares(BaseModel):
    model_config = ConfigDict(extra="forbid")
    healthy: float = Field(ge=0, le=1)
    wounded: float = Field(ge=0, le=1)
    stunned: float = Field(ge=0, le=1)
    prisoner: float = Field(ge=0, le=1)
    ref: str


class EvaluationData(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weights: Weights
    status: StatusShares


@lru_cache(maxsize=None)
def load_weights(path: str = str(DATA)) -> EvaluationData:
    """The weights, validated (a bad file raises ``ValueError`` naming the file and field)."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        return EvaluationData.model_validate(raw)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    except Exception as exc:  # pydantic's ValidationError names the field
        raise ValueError(f"{path}: {exc}") from None


def _share(c, st: StatusShares) -> float:
    if c.status == DEAD or c.ransom == "captured" or c.hex is None:
        return 0.0
    if c.ransom == "prisoner":
        return st.prisoner
    return {HEALTHY: st.healthy, WOUNDED: st.wounded, STUNNED: st.stunned}.get(c.status, 0.0)


def _worth(c) -> float:
    return float(c.attack + c.defence)


@lru_cache(maxsize=4096)
def _objective_hexes(labels: tuple[str, ...]) -> tuple[Hex, ...]:
    return tuple(Hex.from_label(x) for x in labels)


def _missiles(state, chars) -> float:
    weapons = state.rules.weapons
    able = [c for c in chars if c.active and c.hex is not None]
    if not able:
        return 0.0
    return sum(1 for c in able if c.weapon and c.weapon in weapons) / len(able)


def _in_cover(state, c) -> bool:
    try:
        terrain = state.rules.terrain.get(state.gmap.terrain(c.hex))
    except KeyError:
        return False
    return terrain is not None and terrain.cover != "none"


#: (the rules' identity, weapon, band, mounted, armour, cover, weather, shooter wounded) ->
#: (P killed, P wounded, P missed with a stray shot), from the fire tables
_FIRE_ODDS: dict[tuple, tuple[float, float, float]] = {}


def _fire_odds(rules, w, band: str, target, cover: str, weather: str, wounded: bool) -> tuple[float, float, float]:
    """The chances that a shot of weapon ``w`` at ``band`` kills or wounds ``target`` under
    ``cover``, or misses with a second die for a stray shot (§5.4.5): the fire tables' preview
    (§5.4.2 / §5.4.3), before any die; (0, 0, 0) when the shot is impossible."""
    key = (id(rules), w.id, band, target.mounted, target.armour, cover, weather, wounded)
    odds = _FIRE_ODDS.get(key)
    if odds is None:
        sit = FireSituation(weapon=w.id, distance=getattr(w, band)[0], target_mounted=target.mounted,
                            target_armour=target.armour, cover=cover, weather=weather, shooter_wounded=wounded)
        r = resolve_fire(rules, sit, None)
        kill = wound = stray = 0.0
        if r.legal and r.probabilities:
            table = r.data.get("table")
            for letter, p in r.probabilities.items():
                res = rules.fire_results.get((table, letter))
                if res is not None and res.kill:
                    kill += float(p)
                elif res is not None and (res.wound or res.stun):
                    wound += float(p)
                elif res is not None and res.miss and res.stray_shot:
                    stray += float(p)
        odds = _FIRE_ODDS[key] = (kill, wound, stray)
    return odds


def _terrain_line(state, lines: dict, shooter, target, band: str) -> str | None:
    """The cover ``target`` gets from ``shooter``'s line of fire over the map alone (§5.5: trees,
    buildings, walls, the top of a slope, brush along the line, the target's own hex), or None
    when the terrain blocks every line. The characters standing between are not read (they move
    before the volley; an estimate), so the line depends only on the two hexes and who shoots
    and is struck: kept per map in ``lines``."""
    key = (shooter.hex, target.hex, shooter.weapon, band, shooter.mounted, target.mounted, target.status)
    try:
        return lines[key]
    except KeyError:
        pass
    if len(lines) >= LINES_KEPT:  # a server's long life on a large map: start the store again
        lines.clear()
    lof = line_of_fire(state, shooter, target, band, {})
    cover = lines[key] = lof.cover if lof.clear else None
    return cover


def fire_threat(state, shooters, targets, st: StatusShares, sight: bool = True, stray: float = 0.0) -> float:
    """The worth the ``shooters`` may take from the ``targets`` with their next volley, as a
    share of the targets' worth: each able shooter (his weapon usable where he stands, §5.2)
    at the target where his shot takes most — the fire tables' chances at the range band and
    under the cover his line of fire over the map gives the target (:func:`_terrain_line`; a
    target the terrain hides is safe from him). ``sight=False``: the cover of the target's own
    hex, no line read (the third session's estimate). A wounded or stunned target hit again
    dies (§1.2). ``stray``: the share counted of what a missed shot may do to the target's
    neighbours (§5.4.5: a second d10, 1–6 name a hex around the target, whoever stands there
    unarmoured is wounded; an armoured one only retreats and counts nothing here); 0 reads no
    stray shot."""
    rules = state.rules
    able = [s for s in shooters if s.weapon and s.active and s.hex is not None and s.weapon in rules.weapons]
    if not able:
        return 0.0
    marks = []  # (target, his hexes, cover of his hex, worth, share lost if killed, if wounded)
    norm = 0.0
    for t in targets:
        norm += _worth(t)
        if not t.alive or t.hex is None:
            continue
        try:
            cover = rules.terrain[state.gmap.terrain(t.hex)].cover
        except KeyError:
            cover = "none"
        share = _share(t, st)
        after_wound = st.wounded if t.status == HEALTHY else 0.0
        marks.append((t, [(h.q, h.r) for h in t.hexes], cover, _worth(t), share, max(0.0, share - after_wound)))
    # what a stray shot takes from whoever stands in each hex (§5.4.5: wounded unless armoured)
    struck = {}
    if stray and rules.stray_shot.hexes:
        for t, hexes, _, worth, _, if_wounded in marks:
            if not t.armour:
                for h in hexes:
                    struck[h] = worth * if_wounded
        stray *= 1.0 / rules.stray_shot.die  # one face of the die names each hex (§5.4.5)
    total = 0.0
    weather = state.weather
    lines = state.gmap.memo(("ai.evaluation.lines", id(rules)), dict) if sight else None
    for s in able:
        if weapon_problem(state, s) is not None:
            continue
        w = rules.weapons[s.weapon]
        wounded = s.status == WOUNDED
        q, r = s.hex.q, s.hex.r
        best = 0.0
        for t, hexes, cover, worth, if_killed, if_wounded in marks:
            band = w.band(min((abs(q - tq) + abs(r - tr) + abs(q - tq + r - tr)) // 2 for tq, tr in hexes))
            if band is None:
                continue
            if lines is not None:
                cover = _terrain_line(state, lines, s, t, band)
                if cover is None:
                    continue
            kill, wound, miss = _fire_odds(rules, w, band, t, cover, weather, wounded)
            v = worth * (kill * if_killed + wound * if_wounded)
            if struck and miss:
                tq, tr = hexes[0]
                around = sum(struck.get((tq + dq, tr + dr), 0.0) for dq, dr in DIRECTIONS[:rules.stray_shot.hexes]
                             if (tq + dq, tr + dr) not in hexes)
                v += stray * miss * around
            if v > best:
                best = v
        total += best
    return total / (norm or 1.0)


def _march_costs(state, goal: Hex, mounted: bool, armour: bool) -> dict[Hex, int]:
    """The movement points a walk from each hex of the map to ``goal`` costs over the terrain
    and the hexsides alone (§4.1, §3.1, §8.1: a garden 2, a fence +1, a house or a wall not at
    all; the characters, who move, are not read): a Dijkstra backwards from ``goal`` over the
    engine's own step costs (``engine/costs.step_table``), kept with the map. A hex missing
    from it cannot reach ``goal``."""
    def build():
        steps = step_table(state, mounted, armour)
        into: dict[Hex, list[tuple[Hex, int]]] = {}
        for h, row in steps.items():
            for n, cost in row:
                into.setdefault(n, []).append((h, cost >> SHIFT))
        best = {goal: 0}
        heap = [(0, goal)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > best[h]:
                continue
            for frm, cost in into.get(h, ()):
                if d + cost < best.get(frm, d + cost + 1):
                    best[frm] = d + cost
                    heapq.heappush(heap, (d + cost, frm))
        return state.rules, best

    return per_ruleset(state.gmap, ("ai.evaluation.march", goal, mounted, armour), state.rules, build)


def march(state, c, h: Hex, w: Weights) -> float:
    """How far ``c`` is from ``h``, in hexes of average ground: the movement points of his
    walk there over the map (:func:`_march_costs`) divided by ``march_cost``, and never less
    than the count of hexes (over open ground, the count as before); the count alone when
    ``objective_paths`` is off. A place he cannot walk to is ``REACH`` away at least. The
    hamlet board's farm garden lies behind houses and fences (its gate at 1804 S): 1604 is
    three hexes from 1406 and seven movement points."""
    hexes = c.distance_to(h)
    if not w.objective_paths:
        return hexes
    mp = _march_costs(state, h, bool(c.mounted), bool(c.armour)).get(c.hex)
    return max(REACH, hexes) if mp is None else max(hexes, mp / w.march_cost)


def _assign(holders, hexes, want: int, far) -> list[tuple[float, object]]:
    """Up to ``want`` (distance, character) pairs, each character sent to a different objective,
    the nearest pairs first (a greedy assignment); ``far(c, h)`` is the distance."""
    pairs = sorted((far(c, h), i, j) for i, c in enumerate(holders) for j, h in enumerate(hexes))
    used_c, used_h, out = set(), set(), []
    for d, i, j in pairs:
        if i in used_c or j in used_h:
            continue
        used_c.add(i), used_h.add(j)
        out.append((d, holders[i]))
        if len(out) == want:
            break
    return out


def _power(chars) -> float:
    """A group's fighting value: attack + defence as each stands (status, §1.2)."""
    return float(sum(c.current_attack + c.current_defence for c in chars))


def _side_power(chars, against) -> float:
    """How the fighting values (attack + defence, by status) of two groups compare, capped at 1."""
    a, b = _power(chars), _power(against)
    return min(1.0, a / b) if b else 1.0


def hold_weight(turn: int, last_turn: int, w: Weights) -> float:
    """How much the objectives held count on ``turn``: victory reads them only at the end of
    the last turn, so ``(turn / last_turn) ** objective_hold_exponent`` (1 on the last turn)."""
    return min(1.0, turn / max(1, last_turn)) ** w.objective_hold_exponent


def closing(able_mine, able_theirs, w: Weights) -> float:
    """Closing in when stronger, keeping away when weaker: the nearness of each able character
    to his nearest able enemy, averaged, signed by the fighting power (attack + defence as they
    stand, :func:`_power`) of the two groups — not by the shares each side has left (weak levies
    who killed one archer are not the stronger side)."""
    if not able_mine or not able_theirs or not w.approach:
        return 0.0
    gap = sum(min(x.distance_to(y.hex) for y in able_theirs) for x in able_mine) / len(able_mine)
    near = max(0.0, 1.0 - gap / REACH)
    stronger = _power(able_mine) >= _power(able_theirs)
    return w.approach * near * (1.0 if stronger else -w.approach_weaker)


def evaluate(state, side: str) -> float:
    """``side``'s prospects in ``state`` from -1 to +1 (see the module docstring)."""
    if state.over:
        return 0.0 if state.winner is None else (1.0 if state.winner == side else -1.0)
    data = load_weights()
    w, st = data.weights, data.status
    enemy = state.enemy_of(side)
    mine = [c for c in state.characters.values() if c.side == side]
    theirs = [c for c in state.characters.values() if c.side == enemy]
    if not mine or not theirs:
        return 0.0

    # material and rout pressure
    def strength(chars):
        total = sum(_worth(c) for c in chars) or 1.0
        return sum(_worth(c) * _share(c, st) for c in chars) / total

    def pressure(chars):
        frac = state.scenario.get("victory", {}).get("rout_fraction", 1.0) or 1.0
        lost = sum(1 for c in chars if not c.alive or c.ransom == "captured") / len(chars)
        return min(1.0, lost / frac) ** 2

    s_mine, s_theirs = strength(mine), strength(theirs)
    score = w.material * (s_mine - s_theirs) + w.rout * (pressure(theirs) - pressure(mine))

    able_mine = [c for c in mine if c.active and c.hex is not None]
    able_theirs = [c for c in theirs if c.active and c.hex is not None]
    alive_mine = [c for c in mine if c.alive and c.hex is not None and c.ransom != "captured"]
    alive_theirs = [c for c in theirs if c.alive and c.hex is not None and c.ransom != "captured"]

    # threats (odds of the adjacent melees) and the exposed wounded
    def threats(attackers, defenders):
        """The defenders' worth at risk: the odds of the enemies adjacent to each, and (at
        ``striking`` weight) of those who can march next to him in their next movement step."""
        # each counter's hexes as (q, r) once; a pair's distance as Hex.distance computes it
        strikers = [([(h.q, h.r) for h in a.hexes], a.current_attack, a.current_movement / w.march_cost)
                    for a in attackers]
        total = 0.0
        for d in defenders:
            odds = 0.0
            mine = [(h.q, h.r) for h in d.hexes]
            for hexes, attack, reach in strikers:
                near = min((abs(q - dq) + abs(r - dr) + abs(q - dq + r - dr)) // 2
                           for q, r in hexes for dq, dr in mine)
                touching = near == 1 or (near == 0 and any(
                    (abs(q - dq) + abs(r - dr) + abs(q - dq + r - dr)) // 2 == 1 for q, r in hexes for dq, dr in mine))
                if touching:
                    odds += attack
                elif w.striking and near - 1 <= reach:
                    odds += w.striking * attack
            if odds:
                total += _worth(d) * _share(d, st) * min(1.0, odds / max(1, d.current_defence) / 3.0)
        norm = sum(_worth(d) for d in defenders) or 1.0
        return total / norm

    def exposed(chars, friends, foes):
        total = 0.0
        for c in chars:
            if c.status not in (WOUNDED, STUNNED):
                continue
            n_foes = sum(1 for e in foes if e.touches(c))
            if not n_foes:
                continue
            n_friends = sum(1 for f in friends if f is not c and f.status == HEALTHY and f.touches(c))
            total += _worth(c) * n_foes / (1 + n_friends)
        norm = sum(_worth(c) for c in chars) or 1.0
        return total / norm

    # the side whose phase it is strikes first: its threats weigh more (§2.1 the turn sequence)
    mine_first = state.active == side
    score += w.threats * ((1.0 if mine_first else w.initiative) * threats(able_mine, alive_theirs)
                          - (w.initiative if mine_first else 1.0) * threats(able_theirs, alive_mine))
    # the next volleys, at the same initiative as the melee threats (fire opens each phase, §2.1)
    if w.fire:
        def volley(shooters, targets):
            return fire_threat(state, shooters, targets, st, w.fire_lines, w.fire_stray)

        score += w.fire * ((1.0 if mine_first else w.initiative) * volley(able_mine, alive_theirs)
                           - (w.initiative if mine_first else 1.0) * volley(able_theirs, alive_mine))
    score += w.wounded_exposed * (exposed(alive_theirs, able_theirs, able_mine) - exposed(alive_mine, able_mine, able_theirs))

    # formation: friends side by side
    def formation(chars):
        if len(chars) < 2:
            return 0.0
        pairs = sum(1 for i, a in enumerate(chars) for b in chars[i + 1:] if a.touches(b))
        return min(1.0, pairs / len(chars))

    score += w.formation * (formation(able_mine) - formation(able_theirs))

    # cover against missiles
    def covered(chars, foes_missiles):
        if not chars or not foes_missiles:
            return 0.0
        return foes_missiles * sum(1 for c in chars if _in_cover(state, c)) / len(chars)

    score += w.cover * (covered(alive_mine, _missiles(state, theirs)) - covered(alive_theirs, _missiles(state, mine)))

    # objectives
    v = state.scenario.get("victory", {})
    objective_side = v.get("objective_side")
    labels = tuple(v.get("objectives", ()))
    if objective_side and labels:
        hexes = _objective_hexes(labels)
        need = max(1, v.get("objective_count", 1))
        holders = able_mine if objective_side == side else able_theirs
        contesters = able_theirs if objective_side == side else able_mine
        held = sum(1 for h in hexes if any(h in c.hexes for c in holders))
        progress = min(1.0, state.turn / max(1, state.last_turn))
        # the turns left to reach the objectives (the current one half spent, on average)
        turns_left = max(0, state.last_turn - state.turn) + 0.5
        # the holders who will hold: one per objective, the nearest first, ``need`` and a spare
        # (the enemy moves and fights after the holder's last move, and may dislodge one)
        want = min(len(hexes), need + 1)

        def far(c, h):
            return march(state, c, h, w)

        assigned = _assign(holders, hexes, want, far)
        near = [max(0.0, 1.0 - d / REACH) for d, _ in assigned] + [0.0] * (want - len(assigned))
        late = [min(1.0, max(0.0, d - turns_left * c.current_movement / w.march_cost) / w.objective_late_window)
                for d, c in assigned]
        late += [1.0] * (want - len(assigned))

        def closeness(chars):
            """Each character's nearness to his nearest objective (1 on it, 0 from REACH hexes), averaged."""
            if not chars:
                return 0.0
            return sum(max(0.0, 1.0 - min(far(c, h) for h in hexes) / REACH) for c in chars) / len(chars)

        # the contesting side is drawn to the objectives only as far as it can fight for them
        s_holders, s_contesters = (s_mine, s_theirs) if objective_side == side else (s_theirs, s_mine)
        pull = 0.5 * min(1.0, s_contesters / max(1e-9, s_holders) * _side_power(contesters, holders))
        urgency = 0.3 + 0.7 * progress
        # an objective counts only at the end of the last turn: held early it is worth little (a
        # holder far ahead of his band dies alone), more and more in the last turns
        hold = hold_weight(state.turn, state.last_turn, w)
        obj = (hold * (w.objectives * min(1.0, held / need) + w.objective_spare * min(1.0, max(0, held - need)))
               # half the pull on the whole band (it advances together: a lone runner dies), half on
               # the assigned holders, more as the end nears
               + w.objective_approach * (0.5 * closeness(holders) + 0.5 * urgency * sum(near) / want
                                         - pull * closeness(contesters))
               - w.objective_late * sum(late) / want)
        score += obj if objective_side == side else -obj

    # closing in when stronger, keeping away when weaker: the fighting power of the able
    # characters compared (attack + defence as they stand), not the shares each side has left
    # (weak levies who killed one archer are not the stronger side)
    score += closing(able_mine, able_theirs, w)
    return math.tanh(score / w.scale)
