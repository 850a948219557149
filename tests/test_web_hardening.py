"""The server under hostile or unlucky conditions (issue 15, hardening): bodies out of bounds,
any JSON body (hypothesis), a read-only or full disk, retried requests, limits and caps, idle
games leaving memory, rules work off the event loop, security headers, /explain agreeing with
the actions, the documented error codes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import re
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits
from oriflamme.web.security import redact


def run_async(main):
    """``asyncio.run(main())`` in a thread of its own: the browser tests' Playwright (sync API)
    keeps an event loop running in the main thread for the rest of the session, and
    ``asyncio.run`` refuses to start inside one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


ROOT = Path(__file__).resolve().parents[1]
NO_RATE = Limits(requests_per_second=0)


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "g.sqlite3", limits=NO_RATE)


@pytest.fixture
def client(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def H(token):
    return {"X-Seat": token}


def new_game(client, mode="hotseat", scenario="the-hill"):
    body = {"scenario": scenario, "mode": mode}
    if mode == "hotseat":
        body["seed"] = 3
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    g["token"] = g["seats"].get("hotseat") or g["seats"]["A"]
    return g


def view(client, g, **params):
    r = client.get(f"/api/games/{g['id']}", headers=H(g["token"]), params=params)
    assert r.status_code == 200, r.text
    return r.json()


def is_json_error(r, status: int | None = None, code: str | None = None) -> bool:
    body = r.json()
    ok = 400 <= r.status_code < 500 and set(body) >= {"error", "message"} and isinstance(body["message"], str)
    return ok and (status is None or r.status_code == status) and (code is None or body["error"] == code)


# --- bodies out of bounds -----------------------------------------------------------------------
DEEP = b"[" * 30_000 + b"]" * 30_000                  # ~60 KB: RecursionError in json.loads
HUGE = b'{"action": {"type": "end_step"}, "version": ' + b"9" * 5000 + b"}"


@pytest.mark.parametrize("path", ["/api/games", "/actions", "/explain", "/undo"])
def test_deep_nesting_and_huge_integers_answer_json_400(client, path):
    g = new_game(client)
    url = path if path.startswith("/api/") else f"/api/games/{g['id']}{path}"
    r = client.post(url, headers=H(g["token"]), content=DEEP)
    assert is_json_error(r, 400, "too_deep"), r.text
    r = client.post(url, headers=H(g["token"]), content=b'{"a":' * 40 + b"1" + b"}" * 40)
    assert is_json_error(r, 400, "too_deep"), r.text
    r = client.post(url, headers=H(g["token"]), content=HUGE)
    assert is_json_error(r, 400, "bad_json") and "too long" in r.json()["message"], r.text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16)
def _schema_fields() -> list[str]:
    """The fields of every request body the OpenAPI schema describes."""
    doc = create_app(":memory:").openapi()
    names = {"NewGame", "PostAction", "Explain", "UndoAnswer", "JoinGame", "GameStatuses", "MyGame"}
    return sorted({f for n in names for f in doc["components"]["schemas"][n]["properties"]})


FIELDS = st.sampled_from(_schema_fields() + ["type", "extra"])
ACTION = st.fixed_dictionaries({"type": st.sampled_from(["end_step", "move", "fire", "attack", "retreat", "declare",
                                                         "clear_bodies", "grab", "x"]) | st.text(max_size=8)},
                               optional={"char": JSON, "path": JSON, "shooter": JSON, "target": JSON,
                                         "attackers": JSON, "defenders": JSON, "hex": JSON, "to": JSON, "kind": JSON})
BODY = st.dictionaries(FIELDS, JSON | ACTION, max_size=4)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("fuzz") / "g.sqlite3", limits=Limits.off())
    with TestClient(app, raise_server_exceptions=False) as c:
        g = new_game(c)
        yield c, g


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/games", "/actions", "/explain", "/undo", "/join", "/api/games/status"]),
       body=BODY | JSON, raw=st.none() | st.binary(max_size=64))
def test_every_bad_body_gets_a_json_4xx(fuzz, path, body, raw):
    """Any body, to every POST endpoint, built from the fields of the schema's request bodies
    (and actions of every type with any arguments), or raw bytes: a JSON answer, never a 500."""
    client, g = fuzz
    url = path if path.startswith("/api/") else f"/api/games/{g['id']}{path}"
    content = raw if raw is not None else json.dumps(body).encode()
    r = client.post(url, headers=H(g["token"]), content=content)
    assert r.status_code < 500, r.text
    assert r.headers["content-type"].startswith("application/json")
    if r.status_code >= 400:
        assert is_json_error(r), r.text


# --- storage failures ---------------------------------------------------------------------------
def test_a_read_only_store_answers_503_and_logs_the_cause(app, client, caplog):
    g = new_game(client)
    v = view(client, g)
    app.state.store.conn.execute("PRAGMA query_only = ON")  # every write now fails as on a read-only disk
    with caplog.at_level(logging.ERROR, logger="oriflamme.web"):
        r = client.post(f"/api/games/{g['id']}/actions", headers=H(g["token"]),
                        json={"action": {"type": "end_step"}, "version": v["version"]})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        assert r.headers["Retry-After"]
        r = client.post("/api/games", json={"scenario": "the-hill"})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable"
    assert "readonly" in caplog.text  # SQLite's own reason, in the server's log
    app.state.store.conn.execute("PRAGMA query_only = OFF")
    # nothing was acknowledged, nothing changed: the game is where it was
    assert view(client, g)["version"] == v["version"]


class FullDisk:
    """A connection whose INSERTs fail as on a full disk and whose ROLLBACK then fails too
    (SQLite has already rolled back): the first error must be the one reported."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, *args):
        if sql.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        if sql == "ROLLBACK":
            self.conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("cannot rollback - no transaction is active")
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_a_failing_rollback_does_not_mask_the_full_disk(app, client, caplog):
    g = new_game(client)
    v = view(client, g)
    store = app.state.store
    real = store.conn
    store.conn = FullDisk(real)
    try:
        with caplog.at_level(logging.WARNING):
            r = client.post(f"/api/games/{g['id']}/actions", headers=H(g["token"]),
                            json={"action": {"type": "end_step"}, "version": v["version"]})
    finally:
        store.conn = real
    assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
    errors = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert any("disk is full" in m for m in errors), errors
    assert not any("cannot rollback" in m for m in errors)  # only a warning beside the real error
    assert view(client, g)["version"] == v["version"]


# --- versions -------------------------------------------------------------------------------
def test_version_is_required_and_an_integer_and_a_retry_is_not_applied_twice(client):
    g = new_game(client)
    url = f"/api/games/{g['id']}/actions"
    r = client.post(url, headers=H(g["token"]), json={"action": {"type": "end_step"}})
    assert is_json_error(r, 422, "bad_request") and "version" in r.json()["message"]
    for bad in ("0", 0.0, True, None, -1):
        r = client.post(url, headers=H(g["token"]), json={"action": {"type": "end_step"}, "version": bad})
        assert is_json_error(r, 422, "bad_request"), (bad, r.text)
    body = {"action": {"type": "end_step"}, "version": 0}
    assert client.post(url, headers=H(g["token"]), json=body).status_code == 200
    r = client.post(url, headers=H(g["token"]), json=body)  # the same request, retried
    assert is_json_error(r, 409, "stale") and r.json()["version"] == 1
    assert view(client, g)["version"] == 1
    # undo needs it too
    r = client.post(f"/api/games/{g['id']}/undo", headers=H(g["token"]), json={})
    assert is_json_error(r, 422, "bad_request") and "version" in r.json()["message"]
    r = client.post(f"/api/games/{g['id']}/undo", headers=H(g["token"]), json={"version": 0})
    assert is_json_error(r, 409, "stale")


def test_two_concurrent_actions_at_one_version_apply_once(app):
    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            r = await c.post("/api/games", json={"scenario": "the-hill", "seed": 1})
            g = r.json()
            tok = g["seats"]["hotseat"]
            body = {"action": {"type": "end_step"}, "version": 0}
            rs = await asyncio.gather(*(c.post(f"/api/games/{g['id']}/actions", headers=H(tok), json=body)
                                        for _ in range(4)))
            return sorted(r.status_code for r in rs)
    assert run_async(main) == [200, 409, 409, 409]


# --- limits and caps ------------------------------------------------------------------------
def test_request_rate_per_client(tmp_path):
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0.5, burst=3))
    with TestClient(app) as c:
        codes = [c.get("/api/rulesets").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = c.get("/api/rulesets")
        assert is_json_error(r, 429, "rate_limited") and int(r.headers["Retry-After"]) >= 1


def test_games_created_per_hour_per_client(tmp_path):
    clock = [1000.0]
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0, games_per_hour=2))
    app.state.guard.clock = lambda: clock[0]
    with TestClient(app) as c:
        for _ in range(2):
            assert c.post("/api/games", json={"scenario": "nope"}).status_code == 404  # not made: not counted
            assert c.post("/api/games", json={"scenario": "the-hill"}).status_code == 201
        r = c.post("/api/games", json={"scenario": "the-hill"})
        assert is_json_error(r, 429, "too_many_games") and r.headers["Retry-After"] == "3600"
        clock[0] += 3600
        assert c.post("/api/games", json={"scenario": "the-hill"}).status_code == 201


def test_websockets_per_game_are_capped_with_close_code_4429(tmp_path):
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0, sockets_per_game=1))
    with TestClient(app) as c:
        g = new_game(c, "online")
        with c.websocket_connect(f"/api/games/{g['id']}/ws?seat={g['seats']['A']}") as first:
            assert first.receive_json()["type"] == "hello"
            with pytest.raises(WebSocketDisconnect) as e:
                with c.websocket_connect(f"/api/games/{g['id']}/ws?seat={g['seats']['B']}") as second:
                    second.receive_json()
            assert e.value.code == 4429
        # the first one closed: a place is free again
        with c.websocket_connect(f"/api/games/{g['id']}/ws?seat={g['seats']['B']}") as again:
            assert again.receive_json()["type"] == "hello"


def test_body_size_is_capped(client):
    r = client.post("/api/games", content=b"{" + b" " * (70 * 1024) + b"}")
    assert is_json_error(r, 413, "too_large")


# --- idle games leave memory --------------------------------------------------------------------
def test_idle_games_are_evicted_and_reloaded_on_demand(tmp_path):
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0, idle_seconds=60, max_live_games=2))
    hub = app.state.hub
    clock = [0.0]
    hub.clock = lambda: clock[0]
    with TestClient(app) as c:
        g = new_game(c)
        v = view(c, g)
        r = c.post(f"/api/games/{g['id']}/actions", headers=H(g["token"]),
                   json={"action": {"type": "end_step"}, "version": v["version"]})
        assert r.status_code == 200
        clock[0] += 30
        assert hub.evict() == [] and g["id"] in hub.games
        clock[0] += 31
        assert hub.evict() == [g["id"]] and g["id"] not in hub.games
        assert view(c, g)["version"] == 1  # reloaded from the store, replayed
        assert g["id"] in hub.games
        # a game with a WebSocket open stays, however idle
        o = new_game(c, "online")
        with c.websocket_connect(f"/api/games/{o['id']}/ws?seat={o['seats']['A']}") as ws:
            ws.receive_json()
            clock[0] += 1000
            assert o["id"] not in hub.evict() and o["id"] in hub.games
        # beyond max_live_games, the least recently used leave first
        clock[0] += 1
        ids = [new_game(c)["id"] for _ in range(3)]
        assert set(hub.games) <= set(ids + [o["id"]]) and len(hub.games) <= 2
        assert ids[-1] in hub.games


# --- off the event loop -------------------------------------------------------------------------
def test_rules_work_does_not_block_other_requests(app, monkeypatch):
    """A slow rules computation (a rider's moves) runs in a worker thread: a trivial request
    sent meanwhile is answered before it ends."""
    from oriflamme.core import registry
    rs = registry.get("magna-carta")
    started = threading.Event()

    def slow(state, key):
        started.set()
        time.sleep(1.0)  # holds no lock the event loop needs
        return {"char": key, "moves": []}

    monkeypatch.setattr(type(rs), "option_detail", lambda self, state, key: slow(state, key))

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            g = (await c.post("/api/games", json={"scenario": "the-hill", "seed": 1})).json()
            tok = g["seats"]["hotseat"]
            slow_req = asyncio.ensure_future(c.get(f"/api/games/{g['id']}/moves/x", headers=H(tok)))
            while not started.is_set():
                await asyncio.sleep(0.01)
            t0 = time.perf_counter()
            fast = await c.get("/api/rulesets")
            fast_s = time.perf_counter() - t0
            assert fast.status_code == 200
            return fast_s, slow_req.done(), (await slow_req).status_code
    fast_s, slow_done, slow_status = run_async(main)
    assert slow_status == 200
    assert not slow_done and fast_s < 0.5


# --- headers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/play/abc", "/static/app.css", "/static/play.js", "/api/rulesets",
                                  "/api/games/nosuch", "/static/rulesets/magna-carta/module.js"])
def test_security_headers_on_every_page(client, path):
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_have_no_inline_script_or_style():
    """The CSP forbids inline scripts, handlers and style attributes: the pages have none."""
    for page in (ROOT / "src/oriflamme/web/static").glob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page
        assert not re.search(r"\son[a-z]+=|\sstyle=|<style", html), page


def test_tokens_are_redacted_from_log_lines():
    line = '127.0.0.1:5 - "WebSocket /api/games/g1/ws?seat=AbC-12_x" [accepted]'
    assert "AbC-12_x" not in redact(line) and "[redacted]" in redact(line)
    assert "tok_1" not in redact("GET /api/games/g?lang=fr&seat=tok_1&log_from=0")
    assert "tok_2" not in redact("headers: [(b'x-seat', b'tok_2')]")


# --- /explain agrees with /actions ---------------------------------------------------------------
def test_explain_refuses_a_retreat_when_nothing_is_pending(client):
    g = new_game(client)
    v = view(client, g)
    assert not v["pending"]
    char = v["characters"][0]
    a = {"type": "retreat", "char": char["id"], "path": [char["hex"]]}
    r = client.post(f"/api/games/{g['id']}/actions", headers=H(g["token"]), json={"action": a, "version": v["version"]})
    assert r.status_code == 409
    r = client.post(f"/api/games/{g['id']}/explain", headers=H(g["token"]), json={"action": a})
    assert r.status_code == 200 and r.json()["legal"] is False, r.text
    assert "no pending retreat" in r.json()["reason"]


def test_explain_calls_legal_every_offered_prompt_and_extra(client):
    """Over a played game: every prompt answer and extra the options offer is legal for /explain."""
    g = new_game(client)
    checked = 0
    for _ in range(60):
        v = view(client, g)
        if v["over"]:
            break
        o = v.get("options") or {}
        for kind in ("prompts", "extras"):
            for item in o.get(kind, [])[:3]:
                r = client.post(f"/api/games/{g['id']}/explain", headers=H(g["token"]), json={"action": item["action"]})
                assert r.status_code == 200 and r.json()["legal"] is True, (item, r.text)
                checked += 1
        a = (o["prompts"][0]["action"] if o.get("prompts") else
             o["attacks"][0]["action"] if o.get("attacks") else
             o["fires"][0]["action"] if o.get("fires") else
             next(iter(o["moves"].values()))[0]["action"] if o.get("moves") and v["version"] % 3 else o["end_step"])
        r = client.post(f"/api/games/{g['id']}/actions", headers=H(g["token"]), json={"action": a, "version": v["version"]})
        assert r.status_code == 200, r.text
    assert checked > 0


# --- codes and echoes ---------------------------------------------------------------------------
def test_bad_mode_and_not_found_codes(client):
    r = client.post("/api/games", json={"scenario": "the-hill", "mode": "solo"})
    assert is_json_error(r, 422, "bad_mode")
    g = new_game(client)
    r = client.get(f"/api/games/{g['id']}/moves/nobody", headers=H(g["token"]))
    assert is_json_error(r, 404, "not_found")


def test_log_from_zero_is_echoed(client):
    g = new_game(client)
    assert view(client, g, log_from=0)["log_from"] == 0
    assert "log_from" not in view(client, g)
    r = client.get(f"/api/games/{g['id']}", headers=H(g["token"]), params={"log_from": "٣"})  # a non-ASCII digit
    assert is_json_error(r, 422, "bad_request")


def _documented_codes() -> dict[str, set[int]]:
    table = {}
    for line in (ROOT / "docs/api.md").read_text().splitlines():
        m = re.match(r"\| (\d{3}) \| (.+?) \|", line)
        if m:
            for code in re.findall(r"`([a-z_]+)`", m.group(2)):
                table.setdefault(code, set()).add(int(m.group(1)))
    return table


def test_every_error_code_the_server_sends_is_in_the_docs_table():
    """Scan the web package for the (status, code) pairs it raises; each must be in the table
    of docs/api.md with that status."""
    table = _documented_codes()
    sent = set()
    for f in (ROOT / "src/oriflamme/web").glob("*.py"):
        for status, code in re.findall(r"(?:HubError|Refused|_error)\((\d{3}), \"([a-z_]+)\"", f.read_text()):
            sent.add((int(status), code))
    assert len(sent) > 15
    missing = sorted((s, c) for s, c in sent if s not in table.get(c, set()))
    assert not missing, f"codes sent but not documented with that status: {missing}"
