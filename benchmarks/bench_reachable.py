"""Benchmark: ``movement.reachable(state, character)`` — every hex one character can end a move
in, with its cost and path — on the 4-board map (40×28 = 1120 hexes).

The mover stands near the centre of the map among 10 friends and 10 enemies scattered within
a few hexes (so the infiltration threats of §4.3 shape the search). Measured:

* an unarmoured spearman (8 PM) and an armoured man-at-arms (6 PM) with their own allowance;
* the spearman with artificial budgets (12 … 40 PM) to see how the time scales with the area;
* the same 40 PM search on an emptied board (no friend, no enemy) to isolate the cost of the
  occupancy and threat bookkeeping;
* the fixed costs every call pays: ``MoveContext`` and ``threatened_hexes``.

Run: ``.venv/bin/python benchmarks/bench_reachable.py [--quick]``
"""

from __future__ import annotations

from _common import (Hex, Placer, banner, build_state, char, four_board_map, measure, ms, parse_args,
                     scenario_dict, summary, table)

from oriflamme.rulesets.magna_carta.engine.movement import MoveContext, points_left, reachable, threatened_hexes

ENEMY_TYPES = ["spearman", "man_at_arms", "pikeman", "sergeant", "peasant"]
FRIEND_TYPES = ["spearman", "man_at_arms", "archer", "peasant"]


def position(mover_type: str, seed: int = 7):
    gmap = four_board_map()
    pl = Placer(gmap, seed)
    centre = pl.closest(Hex.from_offset(20, 13), mover_type)
    chars = [char("mover", mover_type, "A", centre)]
    for i in range(10):
        t = ENEMY_TYPES[i % len(ENEMY_TYPES)]
        chars.append(char(f"enemy{i:02d}", t, "B", pl.near(centre, t, 2, 7)))
    for i in range(10):
        t = FRIEND_TYPES[i % len(FRIEND_TYPES)]
        chars.append(char(f"friend{i:02d}", t, "A", pl.near(centre, t, 1, 6)))
    st = build_state(scenario_dict(chars))
    return st, st.characters["mover"]


def emptied(st):
    other = st.clone()
    for c in other.characters.values():
        if c.id != "mover":
            c.hex = None
    return other, other.characters["mover"]


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    n = 25 if args.quick else 300
    cap = 1.5 if args.quick else 6.0  # seconds per row at most
    banner("reachable() on the 4-board map (40x28 hexes), mover near the centre, 10 friends + 10 enemies")

    spear, sc = position("spearman")
    maa, mc = position("man_at_arms")
    empty, ec = emptied(spear)
    print(f"map {spear.gmap!r}; spearman at {sc.hex.label} ({points_left(spear, sc)} PM), "
          f"man-at-arms at {mc.hex.label} ({points_left(maa, mc)} PM); "
          f"threatened hexes around the spearman: {len(threatened_hexes(spear, sc))}")
    print()

    cases = [
        ("spearman, own PM", spear, sc, None),
        ("man-at-arms, own PM", maa, mc, None),
        ("spearman, budget 12", spear, sc, 12),
        ("spearman, budget 16", spear, sc, 16),
        ("spearman, budget 24", spear, sc, 24),
        ("spearman, budget 40", spear, sc, 40),
        ("spearman, budget 40, empty board", empty, ec, 40),
    ]
    rows = []
    for name, st, c, budget in cases:
        res = reachable(st, c, budget)
        budget_shown = budget if budget is not None else points_left(st, c)
        s = summary(measure(lambda: reachable(st, c, budget), n, warmup=5, max_seconds=cap))
        per_hex_us = s["p50"] / max(1, len(res)) * 1e6
        rows.append([name, budget_shown, len(res), s["n"], ms(s["p50"]), ms(s["p95"]), ms(s["max"]), f"{per_hex_us:.1f}"])
    print(table(["case", "PM", "hexes", "runs", "p50 ms", "p95 ms", "max ms", "us/hex"], rows))
    print()

    rows = []
    for name, fn in [
        ("MoveContext(state, c)", lambda: MoveContext(spear, sc)),
        ("threatened_hexes(state, c)", lambda: threatened_hexes(spear, sc)),
        ("points_left(state, c)", lambda: points_left(spear, sc)),
    ]:
        s = summary(measure(fn, n * 4, warmup=20, max_seconds=cap))
        rows.append([name, s["n"], ms(s["p50"]), ms(s["p95"]), ms(s["max"])])
    print("fixed costs paid by every reachable() call")
    print(table(["call", "runs", "p50 ms", "p95 ms", "max ms"], rows))


if __name__ == "__main__":
    main()
