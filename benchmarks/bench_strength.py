"""Strength runs (issue 14): on each bundled scenario of a ruleset (default Magna Carta) and
each side, ``normal`` against ``random`` and ``hard`` against ``easy`` — the win rate of the stronger player with its
95 % Wilson interval. The targets: ``normal`` beats ``random`` in at least 95 % of games,
``hard`` beats ``easy`` in at least 70 %, in at least 200 games each.

The games are :func:`oriflamme.ai.simulate.play_game` (node budgets, so each game depends only
on its seed). ``--games N`` per scenario, side and pairing (default 200), ``--jobs J``,
``--nodes-scale F`` multiplies every level's node budget (a quicker, weaker run: say so when
quoting), ``--ruleset ID`` (default ``magna-carta``), ``--scenario ID`` (repeatable) and
``--pairing normal-random|hard-easy`` restrict the run; ``--json FILE`` writes the rows. The
games of a cell are numbered from 0 with ``--seed`` (default 1): ``--first K`` starts at game K,
so that runs over disjoint numbers add up to one larger sample.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from oriflamme.ai.players import LEVELS  # noqa: E402
from oriflamme.ai.simulate import run_local, specs, summarise  # noqa: E402
from oriflamme.core import registry  # noqa: E402

PAIRINGS = {"normal-random": ("normal", "random", 0.95), "hard-easy": ("hard", "easy", 0.70)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--nodes-scale", type=float, default=1.0)
    ap.add_argument("--ruleset", default="magna-carta")
    ap.add_argument("--scenario", action="append")
    ap.add_argument("--pairing", choices=sorted(PAIRINGS), action="append")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    rs = registry.get(args.ruleset)
    rows = []
    print(f"{'scenario':<14} {'pairing':<14} {'strong side':<11} {'games':>5} {'wins':>5} {'rate':>6}  95 % CI        target  time")
    for scenario in args.scenario or rs.scenario_ids():
        for name in args.pairing or list(PAIRINGS):
            strong, weak, target = PAIRINGS[name]
            for seat in ("A", "B"):
                a, b = (strong, weak) if seat == "A" else (weak, strong)

                def nodes(level):
                    return max(1, int(LEVELS[level].nodes * args.nodes_scale)) if level in LEVELS else None
                t0 = time.perf_counter()
                out = summarise(run_local(specs(rs, scenario, a, b, args.games + args.first, args.seed, nodes_a=nodes(a),
                                                nodes_b=nodes(b))[args.first:],
                                          args.jobs))
                el = time.perf_counter() - t0
                wins = out["wins"][seat]
                lo, hi = out["ci95"][seat]
                rate = wins / out["games"]
                rows.append({"ruleset": rs.id, "scenario": scenario, "pairing": name, "strong_seat": seat, "games": out["games"],
                             "wins": wins, "rate": rate, "ci95": [lo, hi], "target": target, "seconds": round(el, 1),
                             "nodes_scale": args.nodes_scale})
                print(f"{scenario:<14} {name:<14} {seat:<11} {out['games']:>5} {wins:>5} {rate:>6.1%}  {lo:.2f}–{hi:.2f}"
                      f"      {target:.0%}  {el:.0f} s", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
