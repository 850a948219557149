"""The computer players' speed (issue 14), through the core contract only:

1. decisions per second of ``easy`` and ``normal`` (their interactive budgets: 0.3 s and 1 s)
   on positions sampled from random games of bundled scenarios (every 12th state with a choice);
2. playouts per second (``ai.search.playout``: random games to the end from the start, the
   searcher's own dice) on Magna Carta's ``the-hill`` and the hidden-duel fixture;
3. ``normal``'s decision time on the 4-board map with 20 characters a side
   (``bench_legal_actions.big_position``): offensive fire, movement and melee for each side
   (the target: within 1 s on this 2-core machine);
4. ``simulate`` with 2 processes against 1: the same 16 games (``easy`` against ``random`` on
   ``the-hill``, node budget 80), wall time and speed-up (the target: 1.8×; the machine is
   shared, so the load average is printed with it).

``--quick`` runs each part small (about a minute).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _common import banner, ms, parse_args, perf, summary, table  # noqa: E402
from bench_legal_actions import at_step, big_position  # noqa: E402

from oriflamme.ai import make_player  # noqa: E402
from oriflamme.ai.random_player import RandomPlayer  # noqa: E402
from oriflamme.ai.search import Budget, playout  # noqa: E402
from oriflamme.ai.simulate import run_local, specs  # noqa: E402
from oriflamme.core import registry  # noqa: E402
from oriflamme.core.record import Game  # noqa: E402

MC = registry.get("magna-carta")


def sampled_positions(scenario: str, seed: int, every: int = 12, limit: int = 200):
    game = Game(MC, MC.load_scenario(scenario), seed)
    rp = RandomPlayer(seed, ruleset=MC)
    out = []
    for i in range(limit):
        if game.outcome().over:
            break
        side = game.to_act()
        if i % every == every // 2 and len(MC.legal_actions(game.state, side)) > 1:
            out.append((MC.clone(game.state), side))
        game.apply(rp.choose(game.state, side))
    return out


def decisions(quick: bool) -> None:
    rows = []
    for scenario in ("the-hill", "the-caravan"):
        positions = sampled_positions(scenario, 5)[: 4 if quick else 12]
        for level in ("easy", "normal"):
            player = make_player(level, MC, 1)
            times, nodes = [], 0
            for st, side in positions:
                t0 = perf()
                d = player.decide(st, side)
                times.append(perf() - t0)
                nodes += d.nodes
            s = summary(times)
            rows.append((scenario, level, len(times), f"{len(times) / sum(times):.2f}", ms(s["p50"]), ms(s["max"]),
                         f"{nodes / sum(times):.0f}"))
    print(table(("scenario", "level", "decisions", "decisions/s", "p50", "max", "nodes/s"), rows))


def playouts(quick: bool) -> None:
    from fixtures.hidden_duel import HiddenDuel
    duel = HiddenDuel()
    rows = []
    for rs, scenario, n in ((MC, "the-hill", 3 if quick else 10), (duel, "long-feud", 200 if quick else 2000)):
        state = Game(rs, rs.load_scenario(scenario), 1).state
        side = rs.sides(rs.load_scenario(scenario))[0].id
        rng = random.Random(1)
        budget = Budget()
        t0 = perf()
        for _ in range(n):
            playout(rs, state, side, rng, budget, max_actions=2000)
        el = perf() - t0
        rows.append((rs.id, scenario, n, f"{n / el:.1f}", f"{budget.spent / el:.0f}"))
    print(table(("ruleset", "scenario", "playouts", "playouts/s", "actions/s"), rows))


def big_map(quick: bool) -> None:
    base = big_position()
    n_chars = {s: sum(1 for c in base.characters.values() if c.side == s) for s in ("A", "B")}
    print(f"4-board map, {n_chars['A']} characters a side")
    player = make_player("normal", MC, 1)  # its interactive budget: 1 s
    rows = []
    for step in ("offensive_fire", "movement", "melee"):
        for side in ("A", "B"):
            st = at_step(base, step, side)
            legal = len(MC.legal_actions(st, side))
            times = []
            for _ in range(1 if quick else 3):
                t0 = perf()
                d = player.decide(st, side)
                times.append(perf() - t0)
            rows.append((step, side, legal, d.candidates, d.depth, ms(max(times)), "yes" if max(times) <= 1.0 else "NO"))
    print(table(("step", "side", "legal", "valued", "depth", "max time", "≤ 1 s"), rows))


def speedup(quick: bool) -> None:
    """16 games (a balance run plays many): with 8 games of about a second, the last game
    running alone on one core took a fifth of the time with 2 processes (1.64-1.67× on a quiet
    machine, tenth session), as a pool's tail does; one game first, untimed, so that neither
    run pays for the caches the other found warm."""
    todo = specs(MC, "the-hill", "easy", "random", 4 if quick else 16, seed=3, nodes_a=80)
    run_local(specs(MC, "the-hill", "easy", "random", 1, seed=4, nodes_a=80), jobs=1)
    times = {}
    results = {}
    for jobs in (1, 2):
        t0 = time.perf_counter()
        results[jobs] = sorted(run_local(todo, jobs=jobs), key=lambda r: r["index"])
        times[jobs] = time.perf_counter() - t0
    same = results[1] == results[2]
    print(table(("games", "jobs 1", "jobs 2", "speed-up", "same results", "load (1 min)"),
                [(len(todo), f"{times[1]:.1f} s", f"{times[2]:.1f} s", f"{times[1] / times[2]:.2f}×", same,
                  f"{os.getloadavg()[0]:.2f}")]))


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    banner("computer players (issue 14)")
    for title, part in (("decisions", decisions), ("playouts", playouts), ("normal on the 4-board map", big_map),
                        ("simulate --jobs 2 vs --jobs 1", speedup)):
        print(f"\n-- {title} --")
        part(args.quick)


if __name__ == "__main__":
    main()
