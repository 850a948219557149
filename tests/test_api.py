"""The JSON API (docs/api.md) through Starlette's TestClient: seats, actions, refusals,
persistence, undo, live updates, record and report."""

from __future__ import annotations

import json
import sqlite3

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from oriflamme.rulesets.magna_carta.engine.record import replay
from oriflamme.rulesets.magna_carta.scenario import validate_scenario
from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits
from pgserver import database, pg_server  # noqa: F401 - fixtures


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(database):
    """The app on each database: SQLite, and PostgreSQL (a throw-away server: skipped, with the
    reason, where none can be had; tests/pgserver.py)."""
    # no request-rate limit: these tests play whole games as fast as they can (tests/test_limits.py
    # tests the limits); the other caps keep their defaults
    with TestClient(create_app(database, limits=Limits(requests_per_second=0))) as c:
        yield c


def new_game(client, mode="hotseat", seed=3, scenario="the-hill"):
    body = {"scenario": scenario, "mode": mode}
    if mode == "hotseat" and seed is not None:  # an online game's dice are the server's secret
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def H(token):
    return {"X-Seat": token}


def view(client, gid, token, **params):
    r = client.get(f"/api/games/{gid}", headers=H(token), params=params)
    assert r.status_code == 200, r.text
    return r.json()


def act(client, gid, token, action, version=None, **params):
    """POST an action; ``version`` (required by the server) defaults to the game's current one."""
    if version is None:
        version = view(client, gid, token)["version"]
    return client.post(f"/api/games/{gid}/actions", headers=H(token), json={"action": action, "version": version},
                       params=params)


def undo(client, gid, token, **body):
    """POST an undo (request or answer) at the game's current version."""
    body.setdefault("version", view(client, gid, token)["version"])
    return client.post(f"/api/games/{gid}/undo", headers=H(token), json=body)


def first_move(v):
    for char, moves in sorted(v["options"]["moves"].items()):
        return moves[0]
    raise AssertionError("no move offered")


def to_movement(client, gid, token):
    v = view(client, gid, token)
    while v["step"] != "movement":
        r = act(client, gid, token, {"type": "end_step"}, v["version"])
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    return v


# --- scenarios, creation, seats ----------------------------------------------------------------
def test_scenarios_list(client):
    sc = client.get("/api/scenarios").json()["scenarios"]
    ids = {s["id"] for s in sc}
    assert {"the-hill", "hamlet-raid"} <= ids
    hill = next(s for s in sc if s["id"] == "the-hill")
    assert hill["turns"] == 10 and [s["id"] for s in hill["sides"]] == ["A", "B"] and hill["name_fr"] == "La colline"


def test_create_hotseat_and_seat_tokens_are_long_and_secret(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    assert len(tok) >= 32  # 24 random bytes, base64url: 192 bits
    assert g["links"]["hotseat"] == f"/play/{g['id']}#seat={tok}"
    v = view(client, g["id"], tok)
    assert v["can_act"] and v["seat"] == "hotseat" and v["version"] == 0 and "options" in v


def test_requests_without_the_right_seat_are_refused(client):
    g = new_game(client)
    other = new_game(client)
    assert client.get(f"/api/games/{g['id']}").status_code == 403
    r = client.get(f"/api/games/{g['id']}", headers=H(other["seats"]["hotseat"]))
    assert r.status_code == 403 and r.json()["error"] == "bad_seat"
    r = act(client, g["id"], "x" * 32, {"type": "end_step"}, 0)
    assert r.status_code == 403
    assert view(client, g["id"], g["seats"]["hotseat"])["version"] == 0
    assert client.get("/api/games/nope", headers=H("x")).status_code == 404


def test_bad_requests(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok), content=b"{not json")
    assert r.status_code == 400 and "line 1" in r.json()["message"]
    r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok), json={"action": {"type": "end_step"}, "versoin": 0})
    assert r.status_code == 422 and "versoin" in r.json()["message"]
    r = act(client, g["id"], tok, {"type": "teleport"})
    assert r.status_code == 422 and "unknown action type" in r.json()["message"]
    r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok), content=b"x" * 70000)
    assert r.status_code == 413
    r = client.post("/api/games", json={"scenario": "the-hill", "mode": "solo"})
    assert r.status_code == 422
    r = client.post("/api/games", json={"scenario": "atlantis"})
    assert r.status_code == 404
    assert view(client, g["id"], tok)["version"] == 0


# --- playing --------------------------------------------------------------------------------
def test_move_then_illegal_and_stale_actions_change_nothing(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    v = to_movement(client, g["id"], tok)
    m = first_move(v)
    assert m["cost"] >= 1 and m["action"]["type"] == "move"
    r = act(client, g["id"], tok, m["action"], v["version"])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == v["version"] + 1 and any(e["type"] == "move" for e in body["events"])
    ver = body["version"]
    # illegal: a move into a building / far away is refused with its rule, nothing changes
    r = act(client, g["id"], tok, {"type": "move", "char": "guy", "path": ["2014"]}, ver)
    assert r.status_code == 409 and r.json()["error"] == "illegal" and "MC §" in (r.json()["message"] + r.json().get("ref", ""))
    r = act(client, g["id"], tok, {"type": "end_step"}, ver - 1)
    assert r.status_code == 409 and r.json()["error"] == "stale" and r.json()["version"] == ver
    assert view(client, g["id"], tok)["version"] == ver


def test_options_carry_the_odds_before_committing(client):
    g = new_game(client, seed=11)
    tok = g["seats"]["hotseat"]
    v = view(client, g["id"], tok)
    assert v["step"] == "offensive_fire" and v["options"]["fires"]
    f = v["options"]["fires"][0]
    rul = f["ruling"]
    assert rul["legal"] and rul["band"] in ("short", "medium", "long")
    assert abs(sum(rul["probabilities"].values()) - 1) < 1e-9 and rul["citations"]
    # the preview equals the explain endpoint, and committing rolls with the same ruling steps
    ex = client.post(f"/api/games/{g['id']}/explain", headers=H(tok), json={"action": f["action"]}).json()
    assert ex["probabilities"] == rul["probabilities"]
    r = act(client, g["id"], tok, f["action"], v["version"]).json()
    fire = next(e for e in r["events"] if e["type"] == "fire")
    assert fire["ruling"]["result"] in rul["probabilities"] and fire["ruling"]["citations"]


def test_explain_says_why_not(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    r = client.post(f"/api/games/{g['id']}/explain", headers=H(tok),
                    json={"action": {"type": "attack", "attackers": ["guy"], "defenders": ["hugo"]}}).json()
    assert r["legal"] is False and "MC §" in r["reason"]


def test_french_texts(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    v = view(client, g["id"], tok, lang="fr")
    assert v["log"] and v["log"][0]["text"] != view(client, g["id"], tok)["log"][0]["text"]
    rep = client.get(f"/api/games/{g['id']}/report", headers=H(tok), params={"lang": "fr"})
    assert rep.status_code == 200 and rep.text.startswith("# Compte rendu de partie")


# --- online seats and live updates -------------------------------------------------------------
def test_online_seat_cannot_act_for_the_other_side_and_sees_updates(client):
    g = new_game(client, mode="online")
    a, b = g["seats"]["A"], g["seats"]["B"]
    vb = view(client, g["id"], b)
    assert not vb["can_act"] and "options" not in vb
    r = act(client, g["id"], b, {"type": "end_step"})
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn"
    # nor ask for a ruling on an action while the other side is to act: a ruling on the other
    # side's action could tell what this seat may not see (hidden units, face-down orders)
    r = client.post(f"/api/games/{g['id']}/explain", headers=H(b), json={"action": {"type": "end_step"}})
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn"
    r = client.post(f"/api/games/{g['id']}/explain", headers=H(a), json={"action": {"type": "end_step"}})
    assert r.status_code == 200
    assert view(client, g["id"], a)["version"] == 0
    with client.websocket_connect(f"/api/games/{g['id']}/ws?seat={b}") as ws:
        assert ws.receive_json() == {"type": "hello", "version": 0}
        r = act(client, g["id"], a, {"type": "end_step"}, 0)
        assert r.status_code == 200
        assert ws.receive_json() == {"type": "update", "version": 1}


def test_websocket_refuses_a_bad_seat(client):
    g = new_game(client, mode="online")
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect(f"/api/games/{g['id']}/ws?seat=forged") as ws:
            ws.receive_json()
    assert e.value.code == 4403


# --- undo ------------------------------------------------------------------------------------
def test_hotseat_undo_until_a_die(client):
    g = new_game(client)
    tok = g["seats"]["hotseat"]
    v = to_movement(client, g["id"], tok)
    before = {c["id"]: c["hex"] for c in v["characters"]}
    m = first_move(v)
    v2 = act(client, g["id"], tok, m["action"], v["version"]).json()["view"]
    assert v2["undo"]["can_request"]
    r = undo(client, g['id'], tok)
    assert r.status_code == 200 and r.json()["undone"]
    v3 = view(client, g["id"], tok)
    assert v3["version"] == v["version"] and {c["id"]: c["hex"] for c in v3["characters"]} == before


def test_online_undo_needs_the_opponent(client):
    g = new_game(client, mode="online")
    a, b = g["seats"]["A"], g["seats"]["B"]
    v = to_movement(client, g["id"], a)
    m = first_move(v)
    act(client, g["id"], a, m["action"], v["version"])
    assert undo(client, g['id'], b).status_code == 403  # not B's action
    assert undo(client, g['id'], a).json() == {"requested": True}
    assert undo(client, g['id'], a, answer="accept").status_code == 403
    assert view(client, g["id"], b)["undo"]["can_answer"]
    r = undo(client, g['id'], b, answer="accept")
    assert r.status_code == 200 and r.json()["undone"]
    assert view(client, g["id"], a)["version"] == v["version"]


# --- persistence, record ------------------------------------------------------------------
def test_acknowledged_actions_are_in_the_database_and_survive_a_restart(db):
    with TestClient(create_app(db)) as c:
        g = new_game(c)
        tok = g["seats"]["hotseat"]
        v = to_movement(c, g["id"], tok)
        act(c, g["id"], tok, first_move(v)["action"], v["version"])
        before = view(c, g["id"], tok)
    rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (g["id"],)).fetchone()[0]
    assert rows == before["version"]
    with TestClient(create_app(db)) as c:  # a new server on the same database
        after = view(c, g["id"], tok)
    assert after["characters"] == before["characters"] and after["log"] == before["log"]
    assert after["version"] == before["version"]


def test_record_replays_and_frames_follow_the_actions(client):
    g = new_game(client, seed=5)
    tok = g["seats"]["hotseat"]
    v = to_movement(client, g["id"], tok)
    act(client, g["id"], tok, first_move(v)["action"], v["version"])
    rec = client.get(f"/api/games/{g['id']}/record", headers=H(tok)).json()
    assert rec["seed"] is None and rec["version"] == 2  # the dice stay secret while the game runs
    rec["seed"] = 5  # a hot-seat game's chosen seed: its players may replay it
    game = replay(json.loads(json.dumps(rec)), lambda d: validate_scenario(d, "record"))
    assert len(game.actions) == view(client, g["id"], tok)["version"]
    fr = client.get(f"/api/games/{g['id']}/frames", headers=H(tok)).json()
    assert len(fr["frames"]) == fr["version"] + 1


def test_migrations_are_versioned(db):
    create_app(db)
    versions = [r[0] for r in sqlite3.connect(db).execute("SELECT version FROM schema_migrations ORDER BY version")]
    from oriflamme.store import MIGRATIONS
    assert versions == [v for v, _ in MIGRATIONS]
    create_app(db)  # idempotent
    assert len(list(sqlite3.connect(db).execute("SELECT version FROM schema_migrations"))) == len(MIGRATIONS)


# --- a rider's moves are fetched on demand (the view would carry ~600 per rider) ------------------
def test_rider_moves_are_fetched_on_demand_and_match_the_engine(client):
    from oriflamme.rulesets.magna_carta.engine import legal_actions
    g = new_game(client, scenario="the-ford", seed=5)
    gid, tok = g["id"], g["seats"]["hotseat"]
    v = to_movement(client, gid, tok)
    o = v["options"]
    riders = [c["id"] for c in v["characters"] if c["mounted"] and c["side"] == v["to_act"] and c["id"] in o["reach"]]
    assert riders, "the-ford's first movement step has riders able to move"
    assert not set(riders) & set(o["moves"]), "riders' lists are not inline"
    assert len(json.dumps(o)) < 100_000  # was 537 KB with every rider move inline
    live = client.app.state.hub.get(gid)
    engine_moves = {}
    for a in legal_actions(live.game.state):
        if a.type == "move":
            engine_moves.setdefault(a.char, set()).add(a.path)
    for rid in riders:
        r = client.get(f"/api/games/{gid}/moves/{rid}", headers=H(tok))
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["version"] == v["version"] and got["char"] == rid
        assert {tuple(m["path"]) for m in got["moves"]} == engine_moves[rid]
        # the view's reach is the cheapest cost of each hex of that list
        cheapest = {}
        for m in got["moves"]:
            cheapest[m["to"]] = min(m["cost"], cheapest.get(m["to"], m["cost"]))
            assert m["facing"] in range(6)
        assert cheapest == o["reach"][rid]
    # a foot character's list stays inline, and its reach agrees with it
    for cid, lst in o["moves"].items():
        assert {m["to"] for m in lst} == set(o["reach"][cid])
    # one of the fetched moves is accepted as is
    mv = client.get(f"/api/games/{gid}/moves/{riders[0]}", headers=H(tok)).json()["moves"][-1]
    r = act(client, gid, tok, mv["action"], v["version"])
    assert r.status_code == 200, r.text


def test_moves_endpoint_refuses_wrong_seats_and_unknown_characters(client):
    g = new_game(client, mode="online", scenario="the-ford", seed=5)
    gid = g["id"]
    v = view(client, gid, g["seats"]["A"])
    waiting = "B" if v["to_act"] == "A" else "A"
    assert client.get(f"/api/games/{gid}/moves/robert", headers=H(g["seats"][waiting])).status_code == 403
    assert client.get(f"/api/games/{gid}/moves/robert", headers=H("nope")).status_code in (403, 404)
    assert client.get(f"/api/games/{gid}/moves/nobody", headers=H(g["seats"][v["to_act"]])).status_code == 404
    # outside the movement step, or for a character who cannot move, the list is empty
    r = client.get(f"/api/games/{gid}/moves/robert", headers=H(g["seats"][v["to_act"]]))
    assert r.status_code == 200 and (v["step"] == "movement" or r.json()["moves"] == [])


# --- secret, verifiable dice (the seam) ---------------------------------------------------------
def _play_to_the_end(client, g, seen: list[str], limit: int = 400):
    """Play an online game to its end through both seats (prompts, then shots, then end of
    step), keeping the text of every response in ``seen``."""
    gid, seats = g["id"], g["seats"]
    for _ in range(limit):
        for side, tok in seats.items():
            for lang in ("en", "fr"):
                r = client.get(f"/api/games/{gid}", headers=H(tok), params={"lang": lang})
                seen.append(r.text)
        v = json.loads(seen[-1])
        if v["over"]:
            return v
        tok = seats[v["to_act"]]
        v = view(client, gid, tok)
        o = v["options"]
        if o["prompts"]:
            a = o["prompts"][0]["action"]
        elif o["fires"] or o["attacks"]:
            a = (o["fires"] or o["attacks"])[0]["action"]
            seen.append(client.post(f"/api/games/{gid}/explain", headers=H(tok), json={"action": a}).text)
        else:
            a = o["end_step"]
        r = act(client, gid, tok, a, v["version"], lang="fr")
        assert r.status_code == 200, r.text
        seen.append(r.text)
        for side, t in seats.items():
            for path in ("record", "report", "frames", "map"):
                seen.append(client.get(f"/api/games/{gid}/{path}", headers=H(t)).text)
    raise AssertionError("the game did not end")


def test_an_online_game_cannot_choose_its_seed(client):
    r = client.post("/api/games", json={"scenario": "the-hill", "mode": "online", "seed": 3})
    assert r.status_code == 422
    assert r.json()["message"].startswith('field seed: an online game\'s dice are drawn by the server')


def test_the_secret_never_leaves_the_server_while_the_game_runs_and_checks_at_the_end(client):
    import hashlib
    from oriflamme.core import record as core_record
    g = new_game(client, mode="online")
    gid = g["id"]
    secret = client.app.state.hub.get(gid).game.secret_seed
    assert isinstance(secret, str) and len(secret) == 64
    # published from creation: the commitment (SHA-256 of the secret), in the creation answer and every view
    commitment = hashlib.sha256(secret.encode()).hexdigest()
    assert g["dice_commitment"] == commitment
    # the store keeps it as text (an INTEGER column would turn an all-digit hex string into a number)
    store = client.app.state.store
    typeof = "typeof(secret)" if store.dialect == "sqlite" else "pg_typeof(secret)::text"
    with store.using("test") as conn:
        row = conn.execute(f"SELECT secret, {typeof} FROM games WHERE id = ?", (gid,)).fetchone()
    assert (row[0], row[1]) == (secret, "text")
    seen: list[str] = []
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={g['seats']['A']}") as ws:
        seen.append(json.dumps(ws.receive_json()))
        final = None
        for side, tok in g["seats"].items():
            v = view(client, gid, tok)
            assert v["dice_commitment"] == commitment and "dice_seed" not in v
        # play to the end; the last responses (game over) reveal the seed: check those before it
        final = _play_to_the_end(client, g, seen)
        seen.append(json.dumps(ws.receive_json()))
    over_at = next(i for i, text in enumerate(seen) if '"over":true' in text)
    for text in seen[:over_at]:
        assert secret not in text
    assert all(commitment in t for t in seen[:over_at] if t.startswith('{"') and '"dice_commitment"' in t)
    # the end: the seed is revealed, matches the commitment, and the record replays, checked
    assert final["dice_seed"] == secret and hashlib.sha256(final["dice_seed"].encode()).hexdigest() == final["dice_commitment"]
    for tok in g["seats"].values():
        rec = client.get(f"/api/games/{gid}/record", headers=H(tok)).json()
        assert rec["seed"] == secret and rec["over"]
        game, verification = core_record.replay(json.loads(json.dumps(rec)))
        assert verification.commitment == "checked" and game.outcome().over
    # a finished game cannot be undone
    r = undo(client, gid, g["seats"]["A"])
    assert r.status_code == 409 and "over" in r.json()["message"]


def test_rulesets_are_listed_and_an_unknown_one_is_refused(client):
    r = client.get("/api/rulesets")
    assert r.status_code == 200
    ids = [x["id"] for x in r.json()["rulesets"]]
    assert "magna-carta" in ids
    mc = next(x for x in r.json()["rulesets"] if x["id"] == "magna-carta")
    assert "the-hill" in mc["scenarios"]
    g = client.post("/api/games", json={"scenario": "the-hill", "ruleset": "magna-carta"})
    assert g.status_code == 201 and g.json()["ruleset"] == "magna-carta"
    r = client.post("/api/games", json={"scenario": "the-hill", "ruleset": "chess"})
    assert r.status_code == 404 and r.json()["error"] == "unknown_ruleset"
    assert "known: " in r.json()["message"] and "magna-carta" in r.json()["message"]
    assert "\n" not in r.json()["message"]
    s = client.get("/api/scenarios", params={"ruleset": "magna-carta"}).json()["scenarios"]
    assert s and all(x["ruleset"] == "magna-carta" for x in s)
    assert client.get("/api/scenarios", params={"ruleset": "chess"}).status_code == 404


def test_a_game_stored_before_the_seam_still_loads(db):
    """A database of schema 2 (integer seed, digests with the seed in them) is migrated and
    its games replay: their digests are checked with the ruleset's legacy digest."""
    from oriflamme.core import registry
    from oriflamme.core.record import Game
    from oriflamme.store import MIGRATIONS, token_hash
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    for version, sql in MIGRATIONS[:2]:
        conn.executescript(sql)
        conn.execute("INSERT INTO schema_migrations VALUES (?, 0)", (version,))
    rs = registry.get("magna-carta")
    sc = rs.load_scenario("the-hill")
    game = Game(rs, sc, 7)
    conn.execute("INSERT INTO games (id, created_at, updated_at, scenario_id, scenario_json, seed, mode, version) "
                 "VALUES ('old', 0, 0, 'the-hill', ?, 7, 'hotseat', 0)", (json.dumps(rs.scenario_to_json(sc)),))
    conn.execute("INSERT INTO seats VALUES ('old', '*', ?)", (token_hash("tok"),))
    for seq in range(1, 4):
        a = rs.legal_actions(game.state)[0]
        game.apply(a)
        conn.execute("INSERT INTO actions VALUES ('old', ?, ?, ?, ?, 0)",
                     (seq, "A", json.dumps(rs.action_to_json(a)), rs.legacy_digest(game.state, 7)))
        conn.execute("UPDATE games SET version = ? WHERE id = 'old'", (seq,))
    conn.commit()
    conn.close()
    with TestClient(create_app(db)) as client:
        v = view(client, "old", "tok")
        assert v["version"] == 3 and v["ruleset"] == "magna-carta" and "dice_seed" not in v
        assert v["dice_commitment"] == game.commitment


def test_web_and_store_reach_rulesets_only_through_the_core():
    import ast
    from pathlib import Path
    import oriflamme
    root = Path(oriflamme.__file__).parent
    for pkg in ("web", "store"):
        for f in (root / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(f.read_text())):
                if isinstance(node, ast.ImportFrom):
                    mod = "." * node.level + (node.module or "")
                    assert "rulesets" not in mod, f"{f.name} imports {mod}"
                elif isinstance(node, ast.Import):
                    assert not any("rulesets" in a.name for a in node.names), f.name


# --- a finished game is locked (issue 15, play polish) -----------------------------------------
def _finish(client, g):
    """Play a game to its end with the first prompt answer, else the end of the step."""
    gid = g["id"]
    seats = g["seats"]
    for _ in range(2000):
        v = view(client, gid, next(iter(seats.values())))
        if v["over"]:
            return v
        tok = seats.get(v["to_act"]) or seats.get("hotseat") or next(iter(seats.values()))
        o = view(client, gid, tok)["options"]
        a = o["prompts"][0]["action"] if o["prompts"] else o["end_step"]
        r = act(client, gid, tok, a, v["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", ["hotseat", "online"])
def test_a_finished_game_is_locked_against_actions_and_undo(client, mode):
    g = new_game(client, mode=mode)
    gid, seats = g["id"], g["seats"]
    final = _finish(client, g)
    assert final["over"] and final["result"]
    for tok in seats.values():
        v = view(client, gid, tok)
        # the page offers no undo on a finished game
        assert v["undo"]["possible"] is False and v["undo"]["can_request"] is False
        assert not v["undo"].get("can_answer")
        for r in (act(client, gid, tok, {"type": "end_step"}, v["version"]), undo(client, gid, tok)):
            body = r.json()
            assert r.status_code == 409 and body["error"] == "over", body
            assert "locked" in body["message"] and final["result"] in body["message"]
            assert body["result"] == final["result"] and body["winner"] == final["winner"]
        if mode == "online":  # answering an undo on a finished game is refused too, not "no_request"
            r = undo(client, gid, tok, answer="decline")
            assert r.status_code == 409 and r.json()["error"] == "over", r.json()
        assert view(client, gid, tok)["version"] == final["version"]  # nothing changed
