"""``oriflamme simulate``: balance runs — N games of a scenario between two computer players,
on every core (or a Ray cluster), with a progress bar and a summary (wins per seat, draws,
95 % Wilson intervals, mean length); ``--json`` prints only the summary, ``--report DIR``
writes it with a chart. The games are :func:`oriflamme.ai.simulate.play_game`; no rule is
decided here."""

from __future__ import annotations

import json
import os
import sys

from ..ai.players import PLAYER_LEVELS
from ..ai.simulate import run_local, run_ray, specs, summarise, write_report
from ..core import registry
from ..core.errors import OriflammeError
from .catalog import get_ruleset


def _positive(text: str) -> int:
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def register(sub) -> None:
    p = sub.add_parser("simulate", help="balance runs: N games between computer players, on every core or a Ray cluster")
    p.add_argument("scenario", help="a bundled scenario id or a path to a scenario file")
    p.add_argument("--ruleset", metavar="ID", default=registry.DEFAULT,
                   help=f"the ruleset (default {registry.DEFAULT})")
    p.add_argument("--a", choices=PLAYER_LEVELS, default="normal", help="the first side's player (default normal)")
    p.add_argument("--b", choices=PLAYER_LEVELS, default="random", help="the second side's player (default random)")
    p.add_argument("--games", type=_positive, default=20, help="how many games (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same results (default 0)")
    p.add_argument("--jobs", type=_positive, default=None, help="processes (default: every core)")
    p.add_argument("--nodes", type=_positive, default=None,
                   help="the search players' node budget per decision (default: the level's)")
    p.add_argument("--json", action="store_true", help="print only the summary as JSON")
    p.add_argument("--report", metavar="DIR", help="write simulate.json and simulate.png (chart) to DIR")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the games on a Ray cluster (an address or 'auto'; needs oriflamme[cluster])")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args) -> int:
    rs = get_ruleset(args.ruleset, "simulate")
    if rs is None:
        return 2
    try:
        scenario = rs.load_scenario(args.scenario)
    except OriflammeError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    if len(rs.sides(scenario)) != 2:
        print(f"simulate: {args.scenario}: simulate plays two-sided scenarios only", file=sys.stderr)
        return 2
    todo = specs(rs, args.scenario, args.a, args.b, args.games, args.seed, nodes_a=args.nodes, nodes_b=args.nodes)
    jobs = args.jobs or os.cpu_count() or 1
    quiet = args.json or not sys.stderr.isatty()
    try:
        if quiet:
            results = run_ray(todo, args.ray) if args.ray else run_local(todo, jobs)
        else:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("A {task.fields[a]} · B {task.fields[b]} · draws {task.fields[d]}"),
                       TimeElapsedColumn(), TimeRemainingColumn())
            with Progress(*columns, console=Console(stderr=True), transient=False) as bar:  # stdout keeps the summary
                tally = {"A": 0, "B": 0, None: 0}
                where = f"ray {args.ray}" if args.ray else f"{jobs} job{'s' if jobs > 1 else ''}"
                task = bar.add_task(f"{args.scenario} ({where})", total=len(todo), a=0, b=0, d=0)

                def done(r):
                    tally[r["winner"]] += 1
                    bar.update(task, advance=1, a=tally["A"], b=tally["B"], d=tally[None])
                results = run_ray(todo, args.ray, done) if args.ray else run_local(todo, jobs, done)
    except RuntimeError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    except OriflammeError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 1
    summary = summarise(results)
    if args.report:
        written = write_report(summary, args.report, f"{args.scenario}: {args.a} (A) vs {args.b} (B), {summary['games']} games")
        if len(written) < 2 and not args.json:
            print("simulate: matplotlib is not installed (pip install 'oriflamme[report]'): the chart was not drawn",
                  file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
        return 0
    n = summary["games"]
    ci = summary["ci95"]
    print(f"{args.scenario} ({rs.id}): {args.a} (A) vs {args.b} (B), {n} games, seed {args.seed}")
    for seat in ("A", "B"):
        w = summary["wins"][seat]
        print(f"  {seat} wins {w:>5}  {w / n:6.1%}   95 % CI {ci[seat][0]:.1%} – {ci[seat][1]:.1%}")
    print(f"  draws  {summary['draws']:>5}  {summary['draws'] / n:6.1%}")
    print(f"  mean length {summary['mean_turns']} turns")
    if args.report:
        print(f"  report: {args.report}")
    return 0
