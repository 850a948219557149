"""PostgreSQL storage and scale-out (issue 15): versioned migrations, several server processes
on one database (each process's copy catches up with the database, the only source of truth),
live updates across processes through LISTEN/NOTIFY, and no action lost or applied twice.

The PostgreSQL server is a throw-away one made with the machine's binaries (tests/pgserver.py);
without them the tests skip and say why."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from oriflamme.store import MIGRATIONS as SQLITE_MIGRATIONS
from oriflamme.store import open_store
from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits
from pgserver import database, free_port, pg_server  # noqa: F401 - fixtures

psycopg = pytest.importorskip("psycopg")
NO_RATE = Limits(requests_per_second=0)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def url(pg_server):
    return pg_server.new_database()


def H(token):
    return {"X-Seat": token}


def next_action(v: dict) -> dict:
    """An action the side to act may take: a pending prompt first, else the end of the step."""
    o = v["options"]
    return o["prompts"][0]["action"] if o.get("prompts") else o["end_step"]


def turn(client, gid: str, seats: dict) -> tuple[str, dict]:
    """The seat token of the side to act, and its view."""
    to_act = client.get(f"/api/games/{gid}", headers=H(seats["A"])).json()["to_act"]
    return seats[to_act], client.get(f"/api/games/{gid}", headers=H(seats[to_act])).json()


# --- migrations -------------------------------------------------------------------------------
def test_migrations_are_versioned_alike_for_both_databases(url):
    from oriflamme.store.postgres import MIGRATIONS as PG_MIGRATIONS
    assert [v for v, _ in PG_MIGRATIONS] == [v for v, _ in SQLITE_MIGRATIONS]
    store = open_store(url)
    assert store.dialect == "postgresql" and store.schema_version() == SQLITE_MIGRATIONS[-1][0]
    with psycopg.connect(url) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
        columns = {r[0]: r[1] for r in conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'games'")}
    assert versions == [v for v, _ in PG_MIGRATIONS]
    assert columns["created_at"] == "double precision"  # not PostgreSQL's 4-byte REAL
    assert {"revision", "truncated_at", "secret", "ruleset", "undo_requested_by"} <= set(columns)
    assert store.migrate() == []  # idempotent
    store.close()


def test_processes_starting_together_migrate_once(url):
    """Four stores opened at once on an empty database: one applies the migrations, under an
    advisory lock; the others find nothing to do and nothing fails."""
    results, errors = [], []

    def open_one():
        try:
            s = open_store(url)
            results.append(s.schema_version())
            s.close()
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [SQLITE_MIGRATIONS[-1][0]] * 4
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == len(SQLITE_MIGRATIONS)


def test_a_lost_connection_is_reopened(url):
    store = open_store(url)
    with psycopg.connect(url, autocommit=True) as admin:
        pid = store.conn.raw.info.backend_pid
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    from oriflamme.store import StoreUnavailable
    for _ in range(3):  # the first use may meet the dead connection (503), the next reconnects
        try:
            assert store.schema_version() == SQLITE_MIGRATIONS[-1][0]
            break
        except StoreUnavailable:
            continue
    else:
        pytest.fail("the store did not reconnect")
    store.close()


def test_a_lost_database_answers_503_then_the_server_recovers(url):
    """The server's connection killed (a PostgreSQL restart, a network cut): a read or a new
    transaction reconnects and goes on; a write cut in the middle answers 503
    storage_unavailable, nothing changed; the next request reconnects."""
    with TestClient(create_app(url, limits=NO_RATE), raise_server_exceptions=False) as client:
        g = client.post("/api/games", json={"scenario": "the-hill", "mode": "hotseat", "seed": 2}).json()
        tok = g["seats"]["hotseat"]
        store = client.app.state.store
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (store.conn.raw.info.backend_pid,))
        v = client.get(f"/api/games/{g['id']}", headers=H(tok)).json()  # the seat check's SELECT reconnects
        assert v["version"] == 0
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (store.conn.raw.info.backend_pid,))
        assert store.create_game("g2", "the-hill", {}, "s" * 64, "hotseat", {"*": "t2"}) is None  # BEGIN reconnects
        assert store.exists("g2")
        # cut inside the action's transaction: 503, and the action was not stored
        real = store.conn.raw.execute

        def cut(sql, *args):
            if sql.startswith("INSERT INTO actions"):
                with psycopg.connect(url, autocommit=True) as admin:
                    admin.execute("SELECT pg_terminate_backend(%s)", (store.conn.raw.info.backend_pid,))
            return real(sql, *args)

        store.conn.raw.execute = cut
        r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok), json={"action": next_action(v), "version": 0})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable" and r.headers["Retry-After"]
        v = client.get(f"/api/games/{g['id']}", headers=H(tok)).json()
        assert v["version"] == 0
        r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok), json={"action": next_action(v), "version": 0})
        assert r.status_code == 200 and r.json()["version"] == 1


# --- two apps (two processes' hubs) on one database, in this process ----------------------------
def test_each_copy_catches_up_with_the_database(database):
    """Two servers on one database (PostgreSQL; or one SQLite file, where the same checks
    run): each sees the other's actions, undo and undo requests; a server whose copy is out
    of date cannot write over the other's action."""
    url = database
    with TestClient(create_app(url, limits=NO_RATE)) as one, TestClient(create_app(url, limits=NO_RATE)) as two:
        g = one.post("/api/games", json={"scenario": "the-hill", "mode": "online"}).json()
        gid, a, b = g["id"], g["seats"]["A"], g["seats"]["B"]
        v = one.get(f"/api/games/{gid}", headers=H(a)).json()
        assert two.get(f"/api/games/{gid}", headers=H(b)).json()["version"] == 0  # two has loaded it
        # actions taken on one are seen on two (the copy catches up: no reload, the actions applied)
        for _ in range(3):
            seat, v = turn(one, gid, g["seats"])
            r = one.post(f"/api/games/{gid}/actions", headers=H(seat), json={"action": next_action(v), "version": v["version"]})
            assert r.status_code == 200, r.text
        seen = two.get(f"/api/games/{gid}", headers=H(b)).json()
        mine = one.get(f"/api/games/{gid}", headers=H(b)).json()
        assert seen["version"] == 3 and seen == mine
        # two's copy is now current: acting there works, and one catches up in turn
        seat, v = turn(two, gid, g["seats"])
        r = two.post(f"/api/games/{gid}/actions", headers=H(seat), json={"action": next_action(v), "version": 3})
        assert r.status_code == 200, r.text
        # the same request sent to the other server: refused as stale, not applied twice
        r = one.post(f"/api/games/{gid}/actions", headers=H(seat), json={"action": next_action(v), "version": 3})
        assert r.status_code == 409 and r.json()["error"] == "stale"
        assert one.get(f"/api/games/{gid}", headers=H(a)).json()["version"] == 4
        # an undo request made on one is answered on two; then both agree on the position
        last = seat
        other = b if last == a else a
        assert one.post(f"/api/games/{gid}/undo", headers=H(last), json={"version": 4}).json() == {"requested": True}
        assert two.get(f"/api/games/{gid}", headers=H(other)).json()["undo"]["can_answer"]
        r = two.post(f"/api/games/{gid}/undo", headers=H(other), json={"version": 4, "answer": "accept"})
        assert r.status_code == 200 and r.json() == {"undone": True, "version": 3}
        after_one = one.get(f"/api/games/{gid}", headers=H(a)).json()
        after_two = two.get(f"/api/games/{gid}", headers=H(a)).json()
        assert after_one == after_two and after_one["version"] == 3
        # after the undo, another action on two at version 3; one's copy (which had applied the
        # undone action) replays from the database rather than keep the old action
        seat, v = turn(two, gid, g["seats"])
        assert two.post(f"/api/games/{gid}/actions", headers=H(seat),
                        json={"action": next_action(v), "version": 3}).status_code == 200
        rec_one = one.get(f"/api/games/{gid}/record", headers=H(a)).json()
        rec_two = two.get(f"/api/games/{gid}/record", headers=H(a)).json()
        assert rec_one == rec_two and len(rec_one["actions"]) == 4


def test_a_stale_copy_cannot_write_over_another_processs_action(url):
    """The hub's write names the revision of its copy: the store refuses it when another
    process changed the game meanwhile, even at the same version (an undo, then an action)."""
    from oriflamme.store import VersionConflict
    store = open_store(url)
    store.create_game("g1", "the-hill", {}, "s" * 64, "hotseat", {"*": "tok"})
    r1 = store.append_action("g1", 1, "A", {"type": "end_step"}, "d1", "playing", None, revision=0)
    assert r1 == 1
    r2 = store.truncate("g1", 0, revision=1)  # another process's undo
    r3 = store.append_action("g1", 1, "A", {"type": "end_step"}, "d1b", "playing", None, revision=r2)
    with pytest.raises(VersionConflict):  # a copy at revision 1 (version 1) is out of date
        store.append_action("g1", 2, "A", {"type": "end_step"}, "d2", "playing", None, revision=1)
    head, actions = store.changes_since("g1", 0)
    assert (head.version, head.revision, head.truncated_at) == (1, r3, r2) and [a.digest for a in actions] == ["d1b"]
    store.close()


# --- two real server processes on one database --------------------------------------------------
def _serve(url: str, tmp: Path, name: str):
    port = free_port()
    log = open(tmp / f"{name}.log", "w+")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from oriflamme.cli.main import main; sys.exit(main())",
                             "serve", "--port", str(port), "--db", url, "--requests-per-second", "0"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/api/rulesets", timeout=1)
            return proc, base, port
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    log.seek(0)
    pytest.fail(f"server {name} did not start: {log.read()[-2000:]}")


@pytest.fixture
def two_servers(url, tmp_path):
    procs = [_serve(url, tmp_path, "one"), _serve(url, tmp_path, "two")]
    yield [(base, port) for _p, base, port in procs]
    for p, _b, _port in procs:
        p.terminate()
        p.wait(timeout=10)


def call(base: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json", **({"X-Seat": token} if token else {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class Socket:
    """A seat's WebSocket, read in a thread of its own: the versions announced."""

    def __init__(self, port: int, gid: str, token: str):
        self.ws = connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws?seat={token}", open_timeout=10).__enter__()
        self.messages: list[dict] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for text in self.ws:
                with self.cond:
                    self.messages.append(json.loads(text))
                    self.cond.notify_all()
        except Exception:  # noqa: BLE001 - closed
            pass

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        """Seconds until an update announcing ``version`` (or later) arrived."""
        t0 = time.monotonic()
        with self.cond:
            ok = self.cond.wait_for(lambda: any(m["type"] == "update" and m["version"] >= version
                                                for m in self.messages), timeout)
        assert ok, f"no update to version {version} within {timeout}s (got {self.messages})"
        return time.monotonic() - t0

    def close(self):
        self.ws.close()


def test_two_server_processes_share_games_live(two_servers):
    """A player on each process sees the other's moves live (WebSocket), and each process's
    view agrees with the other's."""
    (one, port1), (two, port2) = two_servers
    status, g = call(one, "/api/games", {"scenario": "the-hill", "mode": "online"})
    assert status == 201
    gid, seats = g["id"], g["seats"]
    server_of = {"A": (one, port1), "B": (two, port2)}  # A plays on process one, B on process two
    sockets = {side: Socket(server_of[side][1], gid, seats[side]) for side in "AB"}
    try:
        moved = {"A": 0, "B": 0}
        for _ in range(40):
            base = server_of["A"][0]
            status, v = call(base, f"/api/games/{gid}", token=seats["A"])
            side = v["to_act"]
            if side not in "AB" or moved["A"] >= 3 and moved["B"] >= 3:
                break
            base = server_of[side][0]
            status, v = call(base, f"/api/games/{gid}", token=seats[side])
            status, r = call(base, f"/api/games/{gid}/actions", {"action": next_action(v), "version": v["version"]},
                             seats[side])
            assert status == 200, r
            moved[side] += 1
            watcher = "B" if side == "A" else "A"  # the other player, on the other process
            sockets[watcher].wait_for(r["version"])
            status, seen = call(server_of[watcher][0], f"/api/games/{gid}", token=seats[watcher])
            assert seen["version"] == r["version"]
            assert seen["characters"] == call(base, f"/api/games/{gid}", token=seats[watcher])[1]["characters"]
        assert moved["A"] >= 3 and moved["B"] >= 3, moved
    finally:
        for s in sockets.values():
            s.close()


def test_concurrent_posts_on_two_processes_apply_each_action_once(two_servers, url):
    """Rounds of six identical posts (three on each process) at one version: exactly one is
    applied, the others refused as stale; the database holds one action per version, and
    replays to the state both processes show."""
    (one, port1), (two, port2) = two_servers
    status, g = call(one, "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 4})
    gid, tok = g["id"], g["seats"]["hotseat"]
    sockets = [Socket(port1, gid, tok), Socket(port2, gid, tok)]
    accepted = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
            for rnd in range(12):
                status, v = call(one if rnd % 2 else two, f"/api/games/{gid}", token=tok)
                if v["over"]:
                    break
                body = {"action": next_action(v), "version": v["version"]}
                answers = list(pool.map(lambda base: call(base, f"/api/games/{gid}/actions", body, tok),
                                        [one, two] * 3))
                codes = sorted(s for s, _ in answers)
                assert codes == [200, 409, 409, 409, 409, 409], answers
                assert all(a["error"] == "stale" for s, a in answers if s == 409)
                accepted += 1
        for s in sockets:  # every process's WebSockets heard of the last version
            s.wait_for(accepted)
    finally:
        for s in sockets:
            s.close()
    with psycopg.connect(url) as conn:
        seqs = [r[0] for r in conn.execute("SELECT seq FROM actions WHERE game_id = %s ORDER BY seq", (gid,))]
        version = conn.execute("SELECT version FROM games WHERE id = %s", (gid,)).fetchone()[0]
    assert seqs == list(range(1, accepted + 1)) and version == accepted
    r1, r2 = call(one, f"/api/games/{gid}/record", token=tok)[1], call(two, f"/api/games/{gid}/record", token=tok)[1]
    assert r1 == r2 and len(r1["actions"]) == accepted
    # a third server, fresh, replays the stored actions (each digest checked) to the same view
    with TestClient(create_app(url, limits=NO_RATE)) as three:
        assert three.get(f"/api/games/{gid}", headers=H(tok)).json() == call(one, f"/api/games/{gid}", token=tok)[1]


def test_a_computer_seat_served_by_two_processes_plays_each_move_once(url, monkeypatch):
    """A game against the computer whose human alternates between two servers: each server
    may start the computer's task (a request for the game starts it); when both think about
    one move, one commits and the other thinks again: no error, one action per version."""
    from fixtures.hidden_duel import HiddenDuel
    from oriflamme.core import registry
    duel = HiddenDuel()
    monkeypatch.setattr("oriflamme.web.hub.BOT_PACE", 0.0)
    registry.register(duel)
    try:
        with TestClient(create_app(url, limits=NO_RATE)) as one, TestClient(create_app(url, limits=NO_RATE)) as two:
            g = one.post("/api/games", json={"scenario": "quick-draw", "ruleset": "hidden-duel", "mode": "online",
                                             "ai": {"blue": "random"}}).json()
            gid, tok = g["id"], g["seats"]["red"]
            servers = [one, two]
            v = None
            for i in range(200):
                client = servers[i % 2]
                v = client.get(f"/api/games/{gid}", headers=H(tok)).json()
                if v["over"]:
                    break
                if v["can_act"]:
                    r = client.post(f"/api/games/{gid}/actions", headers=H(tok),
                                    json={"action": v["options"]["actions"][0]["action"], "version": v["version"]})
                    assert r.status_code in (200, 409), r.text
                time.sleep(0.02)
            assert v is not None and v["over"], "the game did not end"
            for client in servers:
                seen = client.get(f"/api/games/{gid}", headers=H(tok)).json()
                assert not [n for n in seen["ai_notes"] if n.get("level") == "error"], seen["ai_notes"]
            r1 = one.get(f"/api/games/{gid}/record", headers=H(tok)).json()
            r2 = two.get(f"/api/games/{gid}/record", headers=H(tok)).json()
            assert r1 == r2 and r1["over"]
        with psycopg.connect(url) as conn:
            seqs = [r[0] for r in conn.execute("SELECT seq FROM actions WHERE game_id = %s ORDER BY seq", (gid,))]
        assert seqs == list(range(1, len(r1["actions"]) + 1))
    finally:
        registry.unregister(duel.id)


def test_live_updates_survive_a_lost_listening_connection(two_servers, url):
    """The processes' listening connections cut (a PostgreSQL restart, a network cut): an
    action made meanwhile still reaches the other process's socket, once its listener is back
    (every open socket is then told to refresh)."""
    (one, port1), (two, port2) = two_servers
    status, g = call(one, "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 6})
    gid, tok = g["id"], g["seats"]["hotseat"]
    watcher = Socket(port1, gid, tok)
    try:
        v = call(two, f"/api/games/{gid}", token=tok)[1]
        with psycopg.connect(url, autocommit=True) as admin:
            killed = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()").fetchall()
        assert len(killed) == 2  # one listener a process
        status, r = call(two, f"/api/games/{gid}/actions", {"action": next_action(v), "version": v["version"]}, tok)
        assert status == 200
        watcher.wait_for(r["version"], timeout=15)
        assert call(one, f"/api/games/{gid}", token=tok)[1]["version"] == r["version"]
    finally:
        watcher.close()
