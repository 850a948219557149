"""Server CPU per web action, in process (no HTTP): what ``POST /api/games/{id}/actions`` costs
the server between reading the request and writing the response.

Each action does what the route does (``web/app.py``): ``Hub.act`` (the checked apply, the
digest, the SQLite commit with ``synchronous=FULL``), ``Hub.view`` (the seat view: legal
actions, options with every fire/attack ruling), the new events, the French rendering and the
JSON serialisation. The games are played like ``bench_web_latency.py`` plays them (hot seat,
the first move offered, else the first prompt, else "end step"), on ``the-hill`` by default.
``time.process_time`` measures CPU (not wall) time, so disk waits are left out and the figures
are stable on a shared machine; the SQLite commit's CPU is inside.

A second table: creating games of one scenario and their first seat view (the shared map
tables), with the memory ``tracemalloc`` sees.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_hub_cpu.py [--quick] [--profile]
[--scenario the-ford] [--lang fr]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from oriflamme.store import Store
from oriflamme.web.app import _rendered_view
from oriflamme.web.hub import Hub


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def choose(v: dict) -> dict:
    opts = v.get("options") or {}
    for moves in (opts.get("moves") or {}).values():
        if moves:
            return moves[0]["action"]
    prompts = opts.get("prompts") or []
    return prompts[0]["action"] if prompts else (opts.get("end_step") or {"type": "end_step"})


async def post_action(hub: Hub, gid: str, tok: str, action: dict, version: int, log_from: int, lang: str) -> str:
    """The body of the route ``post_action`` (web/app.py), returning the JSON text."""
    live = hub.get(gid)
    seat = hub.seat(live, tok)
    events = await hub.act(live, seat, action, version)
    rs = live.ruleset
    v = hub.view(live, seat, log_from)
    events = rs.visible_events(live.game.state, hub.acting_side(live, seat),
                               len(rs.events(live.game.state)) - len(events)) if events else []
    return json.dumps({"version": live.version, "events": rs.render_events(events, lang),
                       "view": _rendered_view(rs, v, lang)}, ensure_ascii=False, separators=(",", ":"))


async def play(hub: Hub, games: int, n_actions: int, scenario: str, lang: str, cpu: list[float]) -> None:
    made = []
    for i in range(games):
        gid, seats = hub.create(scenario, "hotseat", seed=i)
        made.append((gid, seats["*"]))
    for gid, tok in made:
        live = hub.get(gid)
        v = _rendered_view(live.ruleset, hub.view(live, "*"), lang)
        seen = len(v["log"])
        for _ in range(n_actions):
            if v.get("over"):
                break
            t0 = time.process_time()
            text = await post_action(hub, gid, tok, choose(v), v["version"], seen, lang)
            cpu.append((time.process_time() - t0) * 1000)
            v = json.loads(text)["view"]
            seen += len(v["log"])


def bench_actions(games: int, n_actions: int, scenario: str, lang: str, profile: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        hub = Hub(Store(Path(d) / "bench.sqlite3"))
        asyncio.run(play(hub, 1, 3, scenario, lang, []))  # warm-up: imports, tables, caches
        cpu: list[float] = []
        prof = cProfile.Profile() if profile else None
        if prof:
            prof.enable()
        asyncio.run(play(hub, games, n_actions, scenario, lang, cpu))
        if prof:
            prof.disable()
        hub.store.close()
    print(f"server CPU per action, in process ({scenario}, lang={lang}, {games} games x <= {n_actions} actions)")
    print(f"{'actions':>8} {'mean ms':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    print(f"{len(cpu):>8} {statistics.mean(cpu):>8.2f} {statistics.median(cpu):>8.2f} {pct(cpu, 95):>8.2f} "
          f"{max(cpu):>8.2f}")
    if prof:
        st = pstats.Stats(prof)
        st.sort_stats("cumulative").print_stats(45)
        st.sort_stats("tottime").print_stats(25)


def bench_create(n: int, scenario: str) -> None:
    """``n`` games of one scenario and the first seat view of each (their legal actions)."""
    with tempfile.TemporaryDirectory() as d:
        hub = Hub(Store(Path(d) / "bench.sqlite3"))
        gid, _ = hub.create(scenario, "hotseat", seed=0)  # warm-up: imports, rules data, boards
        hub.view(hub.get(gid), "*")
        hub.games.clear()
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(n):
            gid, _ = hub.create(scenario, "hotseat", seed=i + 1)
            hub.view(hub.get(gid), "*")
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        hub.store.close()
    print(f"\n{n} games of {scenario}: create + first seat view (tracemalloc on, which slows Python down)")
    print(f"{'wall s':>8} {'CPU s':>8} {'ms/game':>8} {'held MB':>8} {'kB/game':>8}")
    print(f"{wall:>8.2f} {cpu:>8.2f} {cpu / n * 1000:>8.1f} {held / 1e6:>8.1f} {held / n / 1e3:>8.0f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--scenario", default="the-hill")
    ap.add_argument("--lang", default="fr")
    ap.add_argument("--games", type=int)
    args = ap.parse_args()
    load = os.getloadavg()[0]
    print(f"Python {sys.version.split()[0]}, nproc={os.cpu_count()}, load {load:.2f}, {time.strftime('%Y-%m-%d')}")
    games = args.games or (3 if args.quick else 10)
    bench_actions(games, 10 if args.quick else 30, args.scenario, args.lang, args.profile)
    if not args.profile:
        bench_create(20 if args.quick else 100, "the-ford")
    return 0


if __name__ == "__main__":
    sys.exit(main())
