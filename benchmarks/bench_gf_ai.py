"""Strength of the computer players on Les Guerres Fleuries (issue 13 item 6): N games of a
search level against ``random`` on each bundled GF scenario, the level playing side A in the even
games and side B in the odd ones — its wins, draws and losses, its win rate with the 95 % Wilson
interval, and the decisions per second. The target: at least 80 % of 100 games won against random.

The games are :func:`oriflamme.ai.simulate.play_game` (node budgets, so each game depends only on
its seed and the run is the same on any machine, in one process or in a pool).

    PYTHONPATH=src python benchmarks/bench_gf_ai.py --games 100 --jobs 2 [--level easy] [--nodes N]
        [--scenario ID] [--seed S] [--json FILE] [--games-jsonl FILE]

``--nodes`` sets the search player's node budget per decision (default: the level's); quote it
with the figure when it is not the default.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from oriflamme.ai.simulate import GameSpec, play_game, wilson  # noqa: E402
from oriflamme.core import registry  # noqa: E402


def timed_game(spec: GameSpec) -> dict:
    """One game, with its wall time and the number of decisions the search player made."""
    from oriflamme.ai import players
    calls = {"n": 0, "s": 0.0}
    original = players.SearchPlayer.decide

    def counted(self, state, side=None):
        t = time.perf_counter()
        try:
            return original(self, state, side)
        finally:
            calls["n"] += 1
            calls["s"] += time.perf_counter() - t
    players.SearchPlayer.decide = counted
    try:
        started = time.perf_counter()
        out = play_game(spec)
        out["seconds"] = time.perf_counter() - started
    finally:
        players.SearchPlayer.decide = original
    out["decisions"], out["decide_seconds"] = calls["n"], calls["s"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", default="easy", choices=("easy", "normal", "hard"))
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", action="append")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--games-jsonl", metavar="FILE",
                    help="append each game's result as it ends (a run cut short keeps its games)")
    args = ap.parse_args()
    rs = registry.get("guerres-fleuries")
    rows = []
    for scenario in args.scenario or rs.scenario_ids():
        specs = []
        for i in range(args.games):
            a, b = (args.level, "random") if i % 2 == 0 else ("random", args.level)
            specs.append(GameSpec(rs, scenario, a, b, args.seed, i, nodes_a=args.nodes, nodes_b=args.nodes))
        t0 = time.perf_counter()
        done = []

        def progress(r):
            done.append(r)
            if args.games_jsonl:
                with open(args.games_jsonl, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"scenario": scenario, "level": args.level, "seed": args.seed,
                                         "seat": "A" if r["index"] % 2 == 0 else "B", **r}) + "\n")
            seat = "A" if r["index"] % 2 == 0 else "B"
            res = "draw" if r["winner"] is None else ("win" if r["winner"] == seat else "loss")
            print(f"  game {r['index']:>3} ({args.level} as {seat}): {res:<4} turn {r['turns']:>2}, "
                  f"{r['seconds']:.0f} s [{len(done)}/{len(specs)}]", file=sys.stderr, flush=True)
        results = _run(specs, args.jobs, progress)
        el = time.perf_counter() - t0
        by_seat = {}
        for seat in ("A", "B"):
            mine = [r for r in results if (r["index"] % 2 == 0) == (seat == "A")]
            by_seat[seat] = {"games": len(mine), "wins": sum(r["winner"] == seat for r in mine),
                             "draws": sum(r["winner"] is None for r in mine)}
        wins = sum(v["wins"] for v in by_seat.values())
        draws = sum(v["draws"] for v in by_seat.values())
        n = len(results)
        lo, hi = wilson(wins, n)
        decisions = sum(r["decisions"] for r in results)
        dsec = sum(r["decide_seconds"] for r in results)
        row = {"scenario": scenario, "level": args.level, "nodes": args.nodes or "level default", "games": n,
               "wins": wins, "draws": draws, "losses": n - wins - draws, "rate": wins / n if n else 0.0,
               "ci95": [round(lo, 4), round(hi, 4)], "by_seat": by_seat, "decisions": decisions,
               "decisions_per_second": round(decisions / dsec, 2) if dsec else None,
               "mean_game_seconds": round(sum(r["seconds"] for r in results) / max(1, n), 1),
               "wall_seconds": round(el, 1), "jobs": args.jobs or os.cpu_count()}
        rows.append(row)
        print(f"{scenario}: {args.level} (nodes {row['nodes']}) vs random, {n} games: {wins} won, {draws} drawn, "
              f"{row['losses']} lost — win rate {row['rate']:.1%}, 95 % CI {lo:.1%}–{hi:.1%} "
              f"(as A {by_seat['A']['wins']}/{by_seat['A']['games']}, as B {by_seat['B']['wins']}/{by_seat['B']['games']}); "
              f"{decisions} decisions, {row['decisions_per_second']} decisions/s; {el:.0f} s wall", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def _run(specs, jobs, progress):
    """The games in a pool of ``jobs`` processes (one process: in order), each timed."""
    jobs = jobs or os.cpu_count() or 1
    out = []
    if jobs <= 1:
        for s in specs:
            r = timed_game(s)
            out.append(r)
            progress(r)
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(max_workers=min(jobs, len(specs))) as pool:
        for f in as_completed([pool.submit(timed_game, s) for s in specs]):
            r = f.result()
            out.append(r)
            progress(r)
    return out


if __name__ == "__main__":
    main()
