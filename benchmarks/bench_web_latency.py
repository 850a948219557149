"""Action round-trip latency of the web server on loopback, with 1, 10 and 50 concurrent games.

Starts ``oriflamme serve`` (a real uvicorn process, a fresh SQLite database with
``synchronous=FULL``) on 127.0.0.1, creates the games, then runs one client task per game that
plays legal actions (the first move offered, or "end step") as fast as the server answers —
each request is a full POST /actions: engine validation, apply, SQLite commit, the new view.
The load is bounded: a fixed number of actions per game and a time limit.

Run: ``.venv/bin/python benchmarks/bench_web_latency.py [--quick] [--scenario the-ford]`` (in a worktree
without its own .venv: ``PYTHONPATH=src python benchmarks/bench_web_latency.py``). The last column
is the server process's CPU time over the level (user + system, /proc) divided by the actions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
OR = ROOT / ".venv" / "bin" / "oriflamme"
# a worktree without its own .venv: the running interpreter, with the caller's PYTHONPATH
SERVE = [str(OR)] if OR.exists() else [sys.executable, "-c", "import sys; from oriflamme.cli.main import main; sys.exit(main())"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to divide by the actions served."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


async def play_game(client: httpx.AsyncClient, gid: str, tok: str, n_actions: int, deadline: float, lat: list[float]):
    h = {"X-Seat": tok}
    v = (await client.get(f"/api/games/{gid}", headers=h)).json()
    seen = len(v["log"])  # like a client that keeps its log: ask only for new events
    for _ in range(n_actions):
        if time.perf_counter() > deadline or v.get("over"):
            return
        opts = v.get("options") or {}
        action = None
        for moves in (opts.get("moves") or {}).values():
            action = moves[0]["action"]
            break
        if action is None:
            prompts = opts.get("prompts") or []
            action = prompts[0]["action"] if prompts else (opts.get("end_step") or {"type": "end_step"})
        t0 = time.perf_counter()
        r = await client.post(f"/api/games/{gid}/actions", headers=h, params={"log_from": seen},
                              json={"action": action, "version": v["version"]})
        lat.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            raise SystemExit(f"unexpected {r.status_code}: {r.text[:200]}")
        v = r.json()["view"]
        seen += len(v["log"])


async def run_level(base: str, games: int, n_actions: int, seconds: float, scenario: str = "the-hill") -> list[float]:
    limits = httpx.Limits(max_connections=games + 5, max_keepalive_connections=games + 5)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        made = []
        for i in range(games):
            r = await client.post("/api/games", json={"scenario": scenario, "mode": "hotseat", "seed": i})
            made.append((r.json()["id"], r.json()["seats"]["hotseat"]))
        lat: list[float] = []
        deadline = time.perf_counter() + seconds
        t0 = time.perf_counter()
        await asyncio.gather(*(play_game(client, gid, tok, n_actions, deadline, lat) for gid, tok in made))
        wall = time.perf_counter() - t0
        return lat, wall


async def run_probe(base: str, clients: int, seconds: float) -> tuple[list[float], int]:
    """``clients`` tasks fetch a rider's moves (CPU-heavy rules work) in their own games of
    the-ford while one task times a trivial request (``GET /api/rulesets``) every 50 ms: a
    server that does the rules work on its event loop makes the trivial request wait."""
    limits = httpx.Limits(max_connections=clients + 5, max_keepalive_connections=clients + 5)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        work = []
        for i in range(clients):
            r = await client.post("/api/games", json={"scenario": "the-ford", "mode": "hotseat", "seed": i})
            gid, tok = r.json()["id"], r.json()["seats"]["hotseat"]
            v = (await client.get(f"/api/games/{gid}", headers={"X-Seat": tok})).json()
            while v["step"] != "movement":
                r = await client.post(f"/api/games/{gid}/actions", headers={"X-Seat": tok},
                                      json={"action": {"type": "end_step"}, "version": v["version"]})
                v = r.json()["view"]
            opts = v.get("options") or {}
            riders = sorted(set(opts.get("reach") or {}) - set(opts.get("moves") or {}))
            work.append((gid, tok, riders or sorted(opts.get("reach") or {})))
        deadline = time.perf_counter() + seconds
        fetched = 0

        async def fetch(gid, tok, riders):
            nonlocal fetched
            i = 0
            while time.perf_counter() < deadline:
                r = await client.get(f"/api/games/{gid}/moves/{riders[i % len(riders)]}", headers={"X-Seat": tok})
                if r.status_code != 200:
                    raise SystemExit(f"unexpected {r.status_code}: {r.text[:200]}")
                fetched += 1
                i += 1

        lat: list[float] = []

        async def probe():
            await asyncio.sleep(0.2)
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                await client.get("/api/rulesets")
                lat.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.05)

        await asyncio.gather(probe(), *(fetch(*w) for w in work))
        return lat, fetched


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scenario", default="the-hill", help="a bundled scenario (the-ford: riders)")
    ap.add_argument("--probe", type=int, metavar="CLIENTS", default=0,
                    help="instead of the action levels: CLIENTS clients fetch riders' moves while a trivial "
                         "request is timed (is the rules work off the event loop?)")
    args = ap.parse_args()
    n_actions = 10 if args.quick else 30
    seconds = 20 if args.quick else 60
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.sqlite3"
        # the per-client limits off: every benchmark client comes from 127.0.0.1
        proc = subprocess.Popen([*SERVE, "serve", "--port", str(port), "--db", str(db),
                                 "--requests-per-second", "0", "--games-per-hour", "0"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(100):
                try:
                    httpx.get(base + "/api/scenarios", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            if args.probe:
                seconds = 10 if args.quick else 20
                lat, fetched = asyncio.run(run_probe(base, args.probe, seconds))
                print(f"trivial request (GET /api/rulesets) while {args.probe} clients fetch riders' moves "
                      f"(the-ford), nproc={os.cpu_count()}, {time.strftime('%Y-%m-%d')}")
                print(f"{'probes':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'moves fetched':>14}")
                print(f"{len(lat):>7} {statistics.median(lat):>8.1f} {pct(lat, 95):>8.1f} {max(lat):>8.1f} {fetched:>14}")
                return 0
            print(f"web action round-trip on loopback (uvicorn, SQLite synchronous=FULL), {args.scenario}, "
                  f"nproc={os.cpu_count()}, {time.strftime('%Y-%m-%d')}")
            print(f"{'games':>6} {'actions':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'actions/s':>10} "
                  f"{'server CPU ms/action':>21}")
            for games in (1, 10, 50):
                c0 = cpu_seconds(proc.pid)
                lat, wall = asyncio.run(run_level(base, games, n_actions, seconds, args.scenario))
                # the server's CPU over the level (game creation and first views included)
                cpu = (cpu_seconds(proc.pid) - c0) * 1000 / max(1, len(lat))
                print(f"{games:>6} {len(lat):>8} {statistics.median(lat):>8.1f} {pct(lat, 95):>8.1f} "
                      f"{max(lat):>8.1f} {len(lat) / wall:>10.1f} {cpu:>21.1f}")
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
