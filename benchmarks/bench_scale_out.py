"""Scale-out figures (issue 15): action round-trip p50/p95 with 1, 10 and 50 concurrent games,
for 1 and 4 ``oriflamme serve`` processes on PostgreSQL and 1 on SQLite; and the server CPU per
action against a minimal FastAPI app doing one commit per request on the same database.

Setup: a throw-away PostgreSQL server (the machine's binaries, ``tests/pgserver.py``) with its
durable defaults (fsync, synchronous_commit on); SQLite as the store uses it (WAL,
``synchronous=FULL``). Each level gets a fresh database and fresh server processes on
127.0.0.1. One client task per hot-seat game plays legal actions (the first move offered, a
pending prompt, or "end step") as fast as the server answers, each a full ``POST /actions``
(rules check, apply, one commit with its version check, the new view); game *i* talks to
process *i* mod N, and a WebSocket of that game is open on process *i+1* mod N, which hears of
each action through LISTEN/NOTIFY ("live" columns: from sending the POST to the update on the
other process's socket; with one process, its own socket).

Columns: p50/p95/max of the round-trip in ms; actions/s; server CPU per action (user+system of
all server processes over the level, /proc, game creation included; a short game on each
process first, not counted, loads the ruleset's data) and, on PostgreSQL, the
database's own CPU per action (all its processes). The yardstick rows time
``benchmarks/minimal_commit_app.py`` (one INSERT committed per request) under the same client
load (10 clients).

Run: ``PYTHONPATH=src python benchmarks/bench_scale_out.py [--quick] [--nice N]`` (nice: the
servers run at that niceness; the machine is shared). The banner prints nproc and the load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from bench_web_latency import SERVE, cpu_seconds, free_port, pct  # noqa: E402
from pgserver import PgServer, why_not  # noqa: E402

ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))


def pg_cpu(server: PgServer) -> float:
    """CPU seconds of every process of the PostgreSQL server (postmaster and its children)."""
    total = 0.0
    root = server.proc.pid
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if int(d.name) in (root,) or ppid == root or _parent_is(ppid, root):
                total += cpu_seconds(int(d.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


def _parent_is(pid: int, root: int) -> bool:
    """``pid`` is ``root`` or its child (setpriv execs postgres in place, so children are direct)."""
    if pid == root:
        return True
    try:
        ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return False
    return ppid == root


def start(cmd: list[str], nice: int, probe: str) -> subprocess.Popen:
    proc = subprocess.Popen(["nice", "-n", str(nice), *cmd] if nice else cmd, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(600):
        try:
            httpx.get(probe, timeout=1)
            return proc
        except httpx.HTTPError:
            if proc.poll() is not None:
                raise SystemExit(f"server did not start: {proc.stderr.read().decode()[-1500:]}")
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start in 60 s")


def serve(db: str, nice: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([*SERVE, "serve", "--port", str(port), "--db", db, "--requests-per-second", "0",
                  "--games-per-hour", "0", "--sockets-per-game", "0"], nice, base + "/api/rulesets")
    return proc, base


def stop(procs) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def choose(v: dict) -> dict:
    opts = v.get("options") or {}
    for moves in (opts.get("moves") or {}).values():
        return moves[0]["action"]
    prompts = opts.get("prompts") or []
    return prompts[0]["action"] if prompts else (opts.get("end_step") or {"type": "end_step"})


async def play(client: httpx.AsyncClient, ws_base: str, gid: str, tok: str, n_actions: int, deadline: float,
               lat: list[float], live: list[float], i: int, think: float = 0.0) -> None:
    h = {"X-Seat": tok}
    heard: dict[int, float] = {}
    # each game's socket from an address of its own (127.0.x.y): the server caps sockets per client
    local = (f"127.0.{1 + i // 250}.{1 + i % 250}", 0)
    async with ws_connect(f"{ws_base}/api/games/{gid}/ws?seat={tok}", local_addr=local) as ws:
        async def listen():
            async for text in ws:
                m = json.loads(text)
                if m.get("type") == "update":
                    heard.setdefault(m["version"], time.perf_counter())

        listener = asyncio.create_task(listen())
        v = (await client.get(f"/api/games/{gid}", headers=h)).json()
        seen = len(v["log"])
        sent: dict[int, float] = {}
        for _ in range(n_actions):
            if time.perf_counter() > deadline or v.get("over"):
                break
            t0 = time.perf_counter()
            sent[v["version"] + 1] = t0
            r = await client.post(f"/api/games/{gid}/actions", headers=h, params={"log_from": seen},
                                  json={"action": choose(v), "version": v["version"]})
            lat.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"unexpected {r.status_code}: {r.text[:200]}")
            v = r.json()["view"]
            seen += len(v["log"])
            if think:  # a player's pause before the next action (0.5 to 1.5 times --think)
                await asyncio.sleep(think * (0.5 + random.random()))
        end = time.perf_counter() + 5
        while time.perf_counter() < end and any(ver not in heard for ver in sent):
            await asyncio.sleep(0.01)
        listener.cancel()
        live.extend((heard[ver] - t) * 1000 for ver, t in sent.items() if ver in heard)
        missing = [ver for ver in sent if ver not in heard]
        if missing:
            raise SystemExit(f"game {gid}: no live update for versions {missing[:5]} on the other process")


async def warm_up(bases: list[str], scenario: str) -> None:
    """A short game on each process, not timed: the first game of a process loads the
    ruleset's data, which is not the cost of an action."""
    async with httpx.AsyncClient(timeout=60) as client:
        for base in bases:
            r = await client.post(base + "/api/games", json={"scenario": scenario, "mode": "hotseat", "seed": 99})
            gid, tok = r.json()["id"], r.json()["seats"]["hotseat"]
            v = (await client.get(f"{base}/api/games/{gid}", headers={"X-Seat": tok})).json()
            for _ in range(4):
                r = await client.post(f"{base}/api/games/{gid}/actions", headers={"X-Seat": tok},
                                      json={"action": choose(v), "version": v["version"]})
                v = r.json()["view"]


async def level(bases: list[str], games: int, n_actions: int, seconds: float, scenario: str, think: float = 0.0):
    limits = httpx.Limits(max_connections=games + 5, max_keepalive_connections=games + 5)
    clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    try:
        made = []
        for i in range(games):
            r = await clients[i % len(bases)].post("/api/games", json={"scenario": scenario, "mode": "hotseat", "seed": i})
            made.append((i, r.json()["id"], r.json()["seats"]["hotseat"]))
        lat: list[float] = []
        live: list[float] = []
        deadline = time.perf_counter() + seconds
        t0 = time.perf_counter()
        await asyncio.gather(*(play(clients[i % len(bases)], bases[(i + 1) % len(bases)].replace("http", "ws", 1),
                                    gid, tok, n_actions, deadline, lat, live, i, think) for i, gid, tok in made))
        return lat, live, time.perf_counter() - t0
    finally:
        for c in clients:
            await c.aclose()


async def hammer(base: str, clients: int, seconds: float) -> list[float]:
    lat: list[float] = []
    deadline = time.perf_counter() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        async def one(i):
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                r = await client.post("/commit", content=json.dumps({"client": i, "t": t0}))
                r.raise_for_status()
                lat.append((time.perf_counter() - t0) * 1000)
        await asyncio.gather(*(one(i) for i in range(clients)))
    return lat


def row(label: str, games: int, lat: list[float], live: list[float] | None, wall: float, cpu: float, db_cpu: float | None):
    n = max(1, len(lat))
    live_txt = f"{statistics.median(live):>8.1f} {pct(live, 95):>8.1f}" if live else f"{'-':>8} {'-':>8}"
    db_txt = f"{db_cpu * 1000 / n:>9.1f}" if db_cpu is not None else f"{'-':>9}"
    print(f"{label:<18} {games:>5} {len(lat):>7} {statistics.median(lat):>7.1f} {pct(lat, 95):>7.1f} {max(lat):>7.1f} "
          f"{len(lat) / wall:>8.1f} {live_txt} {cpu * 1000 / n:>9.1f} {db_txt}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer actions, shorter levels")
    ap.add_argument("--nice", type=int, default=10, help="niceness of the servers (default 10: a shared machine)")
    ap.add_argument("--scenario", default="the-hill")
    ap.add_argument("--games", default="1,10,50")
    ap.add_argument("--configs", default="sqlite-1,pg-1,pg-4", help="which of sqlite-1, pg-1, pg-4 (comma-separated)")
    ap.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                    help="each client pauses 0.5-1.5 times this between its actions (default 0: as fast as the "
                         "server answers; a closed loop of G games then waits about G x CPU per action / cores)")
    ap.add_argument("--no-yardstick", action="store_true", help="skip the one-commit app")
    args = ap.parse_args()
    n_actions, seconds = (8, 20) if args.quick else (20, 60)
    levels = [int(x) for x in args.games.split(",")]
    reason = why_not()
    if reason and any(c.startswith("pg") for c in args.configs.split(",")):
        raise SystemExit(f"bench_scale_out: {reason}")
    load = os.getloadavg()
    print(f"scale-out: action round-trip on loopback, {args.scenario}, nproc={os.cpu_count()}, "
          f"load {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} (1/5/15 min), servers at nice {args.nice}, "
          f"think {args.think:g} s, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    print(f"{'setup':<18} {'games':>5} {'actions':>7} {'p50':>7} {'p95':>7} {'max':>7} {'act/s':>8} "
          f"{'live p50':>8} {'live p95':>8} {'CPU ms/a':>9} {'db ms/a':>9}")
    pg = None
    try:
        if any(c.startswith("pg") for c in args.configs.split(",")):
            pg = PgServer(durable=True, max_connections=200)
            pg.start()
        with tempfile.TemporaryDirectory() as tmp:
            for config in args.configs.split(","):
                kind, n = config.split("-")
                for games in levels:
                    db = str(Path(tmp) / f"{config}-{games}.sqlite3") if kind == "sqlite" else pg.new_database("bench")
                    started = [serve(db, args.nice) for _ in range(int(n))]
                    procs, bases = [p for p, _ in started], [b for _, b in started]
                    try:
                        asyncio.run(warm_up(bases, args.scenario))
                        c0 = sum(cpu_seconds(p.pid) for p in procs)
                        d0 = pg_cpu(pg) if kind == "pg" else None
                        lat, live, wall = asyncio.run(level(bases, games, n_actions, seconds, args.scenario, args.think))
                        cpu = sum(cpu_seconds(p.pid) for p in procs) - c0
                        dbc = pg_cpu(pg) - d0 if kind == "pg" else None
                    finally:
                        stop(procs)
                    label = f"{'PostgreSQL' if kind == 'pg' else 'SQLite'} x{n}"
                    row(label, games, lat, live, wall, cpu, dbc)
            # the yardstick: one commit per request, same databases, 10 clients
            for kind in [] if args.no_yardstick else sorted({c.split("-")[0] for c in args.configs.split(",")}, reverse=True):
                db = str(Path(tmp) / "minimal.sqlite3") if kind == "sqlite" else pg.new_database("minimal")
                port = free_port()
                proc = start([sys.executable, str(ROOT / "benchmarks" / "minimal_commit_app.py"), str(port), db],
                             args.nice, f"http://127.0.0.1:{port}/ping")
                try:
                    c0 = cpu_seconds(proc.pid)
                    d0 = pg_cpu(pg) if kind == "pg" else None
                    t0 = time.perf_counter()
                    lat = asyncio.run(hammer(f"http://127.0.0.1:{port}", 10, 5 if args.quick else 15))
                    wall = time.perf_counter() - t0
                    cpu = cpu_seconds(proc.pid) - c0
                    dbc = pg_cpu(pg) - d0 if kind == "pg" else None
                finally:
                    stop([proc])
                row(f"minimal {'PostgreSQL' if kind == 'pg' else 'SQLite'}", 10, lat, None, wall, cpu, dbc)
    finally:
        if pg is not None:
            pg.stop()
    load = os.getloadavg()
    print(f"load at the end: {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
