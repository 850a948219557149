"""Benchmark: ``legal_actions(state)`` by step (offensive fire, movement, melee, pending prompts).

Two sets of states:

1. **Bundled scenarios** (``the-hill``, ``hamlet-raid``): the states met in random playouts
   (``RandomPlayer``), grouped by what the game waits for — the step, or the pending prompt
   (retreat, advance after combat, choice of casualty). Each state is timed once; the first
   playout of each scenario is a warm-up and is not counted.
2. **The 4-board map (40×28), 20 characters a side**: a built position with five groups in
   contact along the middle of the map (1v1, 2v1, 2v2, 3v2, 2v3) and the rest of each army —
   bowmen and crossbowmen among them — further back. Each step is set by hand on a copy of the
   state and timed repeatedly, for both sides; plus a single long front of 8 against 8 to show
   how the melee groups multiply when everybody touches everybody's neighbour.

Run: ``.venv/bin/python benchmarks/bench_legal_actions.py [--quick]``
"""

from __future__ import annotations

from collections import defaultdict

from _common import (Hex, Placer, banner, build_state, char, four_board_map, measure, ms, parse_args, perf,
                     scenario_dict, summary, table)

from oriflamme.ai.random_player import RandomPlayer
from oriflamme.rulesets.magna_carta.engine import apply, legal_actions
from oriflamme.rulesets.magna_carta.engine.movement import can_attack_hex
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE
from oriflamme.rulesets.magna_carta.scenario import load_scenario
from oriflamme.rulesets.magna_carta.engine import new_game

ARMY = (["knight_on_foot", "sergeant", "sergeant"] + ["man_at_arms"] * 5 + ["spearman"] * 4 + ["pikeman"] * 2
        + ["archer"] * 3 + ["crossbowman"] * 2 + ["longbowman"])  # 20
MELEE_TYPES = ("knight_on_foot", "sergeant", "man_at_arms", "spearman", "pikeman")
GROUPS = [(1, 1), (2, 1), (2, 2), (3, 2), (2, 3)]   # (side A, side B) per group in contact
ANCHOR_ROWS = [2, 8, 13, 18, 23]                     # 0-based rows of the groups, column 20


def waiting_for(st) -> str:
    if st.pending:
        return "pending " + st.pending[0].kind
    return st.step


# --- 1. bundled scenarios ------------------------------------------------------------------------
def sample_bundled(sid: str, seeds: list[int]) -> dict[str, tuple[list[float], list[int]]]:
    scenario, gmap = load_scenario(sid)
    buckets: dict[str, tuple[list[float], list[int]]] = defaultdict(lambda: ([], []))
    for i, seed in enumerate([seeds[0] + 10_000] + seeds):  # the first one is the warm-up
        st = new_game(scenario, gmap, seed)
        bots = {s: RandomPlayer(seed * 7 + k) for k, s in enumerate(st.sides)}
        n = 0
        while not st.over and n < 4000:
            key = waiting_for(st)
            t0 = perf()
            acts = legal_actions(st)
            dt = perf() - t0
            if i > 0:
                times, counts = buckets[key]
                times.append(dt)
                counts.append(len(acts))
            apply(st, bots[st.to_act()].choose(st))
            n += 1
    return buckets


# --- 2. the 4-board map ----------------------------------------------------------------------------
def contact_groups(st) -> list[tuple[int, int]]:
    """(attackers, defenders) sizes of the connected groups of side A against side B."""
    a_side = [c for c in st.characters.values() if c.side == "A" and c.alive and c.hex is not None]
    b_side = [c for c in st.characters.values() if c.side == "B" and c.alive and c.hex is not None]
    adj: dict[str, set[str]] = defaultdict(set)
    for a in a_side:
        for b in b_side:
            if a.hex.distance(b.hex) == 1 and (can_attack_hex(st, a, b.hex) or can_attack_hex(st, b, a.hex)):
                adj[a.id].add(b.id)
                adj[b.id].add(a.id)
    seen: set[str] = set()
    out = []
    for x in sorted(adj):
        if x in seen:
            continue
        comp, todo = {x}, [x]
        while todo:
            for y in adj[todo.pop()]:
                if y not in comp:
                    comp.add(y)
                    todo.append(y)
        seen |= comp
        out.append((sum(st.characters[y].side == "A" for y in comp), sum(st.characters[y].side == "B" for y in comp)))
    return out


def big_position(seed: int = 11):
    gmap = four_board_map()
    pl = Placer(gmap, seed)
    chars: list[dict] = []
    pools = {"A": list(ARMY), "B": list(ARMY)}

    def take_type(side: str) -> str:
        for t in MELEE_TYPES:
            if t in pools[side]:
                pools[side].remove(t)
                return t
        raise AssertionError("no melee type left")

    for g, ((na, nb), row) in enumerate(zip(GROUPS, ANCHOR_ROWS)):
        # defenders (side B) in a short north-south column at column 20, attackers on their west
        col = 20
        for r0 in range(row, row + 4):
            bh = [Hex.from_offset(col, r0 + k) for k in range(nb)]
            tb = [take_type("B") for _ in range(nb)]
            if not all(pl.ok(h, t) for h, t in zip(bh, tb)):
                pools["B"].extend(tb)
                continue
            west = []
            for h in bh:
                for d in (5, 4):  # NW, SW
                    n = h.neighbour(d)
                    if n not in west and n not in bh:
                        west.append(n)
            ta = [take_type("A") for _ in range(na)]
            free = [h for h in west if pl.ok(h, "man_at_arms")]
            # greedy cover: each attacker where he touches the most defenders not yet touched
            picked: list[Hex] = []
            while free and len(picked) < na:
                def gain(h: Hex) -> tuple[int, int]:
                    touched = {b for p in picked for b in bh if p.distance(b) == 1}
                    near = {b for b in bh if h.distance(b) == 1}
                    return (len(near - touched), len(near))
                best = max(free, key=gain)
                free.remove(best)
                picked.append(best)
            free = picked
            if len(free) < na or any(all(a.distance(b) != 1 for a in free) for b in bh):
                pools["A"].extend(ta)
                pools["B"].extend(tb)
                continue
            for k, (h, t) in enumerate(zip(bh, tb)):
                chars.append(char(f"b_g{g}_{k}", t, "B", pl.take(h)))
            for k, (h, t) in enumerate(zip(free, ta)):
                chars.append(char(f"a_g{g}_{k}", t, "A", pl.take(h)))
            break
        else:
            raise AssertionError(f"no room for group {g}")
    for side, cols in (("A", range(6, 16)), ("B", range(25, 35))):
        for k, t in enumerate(pools[side]):
            chars.append(char(f"{side.lower()}_rear{k:02d}", t, side, pl.in_box(cols, range(1, 27), t)))
    return build_state(scenario_dict(chars))


def front_position(n: int = 8):
    """A single front: n characters of side A in column 19 against n of side B in column 20."""
    gmap = four_board_map()
    pl = Placer(gmap, 3)
    chars = []
    row = 15
    while len(chars) < 2 * n:
        ha, hb = Hex.from_offset(19, row), Hex.from_offset(20, row)
        if pl.ok(ha, "man_at_arms") and pl.ok(hb, "man_at_arms"):
            k = len(chars) // 2
            chars.append(char(f"a{k}", "man_at_arms", "A", pl.take(ha)))
            chars.append(char(f"b{k}", "man_at_arms", "B", pl.take(hb)))
        row += 1
    chars.append(char("a_bow", "archer", "A", pl.in_box(range(8, 12), range(15, 27), "archer")))
    chars.append(char("b_bow", "archer", "B", pl.in_box(range(28, 32), range(15, 27), "archer")))
    return build_state(scenario_dict(chars))


def at_step(st, step: str, side: str):
    s = st.clone()
    s.step, s.active = step, side
    return s


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    n_seeds = 2 if args.quick else 8
    reps = 8 if args.quick else 60
    cap = 1.0 if args.quick else 4.0
    banner("legal_actions(state) by step")

    print(f"1. bundled scenarios, states met in {n_seeds} random playouts each (one warm-up playout not counted)")
    rows = []
    order = [OFFENSIVE_FIRE, MOVEMENT, MELEE, "pending retreat", "pending advance", "pending casualty"]
    for sid in ("the-hill", "hamlet-raid"):
        buckets = sample_bundled(sid, list(range(1, n_seeds + 1)))
        for key in sorted(buckets, key=lambda k: order.index(k) if k in order else 99):
            times, counts = buckets[key]
            s, c = summary(times), summary(counts)
            rows.append([sid, key, s["n"], f"{c['mean']:.1f}", int(c["max"]), ms(s["p50"]), ms(s["p95"]), ms(s["max"])])
    print(table(["scenario", "waiting for", "states", "acts mean", "acts max", "p50 ms", "p95 ms", "max ms"],
                rows, align="llrrrrrr"))
    print()

    big = big_position()
    groups = contact_groups(big)
    front = front_position(8)
    fgroups = contact_groups(front)
    nA = sum(1 for c in big.characters.values() if c.side == "A")
    nB = len(big.characters) - nA
    print(f"2. 4-board map (40x28), {nA} v {nB}; groups in contact (A v B): "
          + ", ".join(f"{a}v{b}" for a, b in groups)
          + f"; front line: {len(front.characters) - 2} men-at-arms in "
          + ", ".join(f"{a}v{b}" for a, b in fgroups) + f" contact group(s) + 1 archer a side")
    rows = []
    cases = [("20v20", big, step, side) for step in (OFFENSIVE_FIRE, MOVEMENT, MELEE) for side in ("A", "B")]
    cases += [("front 8v8", front, MELEE, "A"), ("front 8v8", front, MOVEMENT, "A")]
    for name, base, step, side in cases:
        st = at_step(base, step, side)
        acts = legal_actions(st)
        kinds = defaultdict(int)
        for a in acts:
            kinds[a.type] += 1
        s = summary(measure(lambda: legal_actions(st), reps, warmup=2, max_seconds=cap))
        rows.append([name, step, side, len(acts), " ".join(f"{k}:{v}" for k, v in sorted(kinds.items())),
                     s["n"], ms(s["p50"]), ms(s["p95"]), ms(s["max"])])
    print(table(["position", "step", "side", "actions", "by type", "runs", "p50 ms", "p95 ms", "max ms"],
                rows, align="lllrlrrrr"))


if __name__ == "__main__":
    main()
