"""The lobby (issue 15 item 3; docs/api.md § Lobby): open games anyone may join, "my games"
with whose turn it is, the scenario briefing, and turn notifications by webhook."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits
from oriflamme.web.notify import BadWebhook, check_url

NO_RATE = Limits(requests_per_second=0)


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=NO_RATE)) as c:
        yield c


def H(token):
    return {"X-Seat": token}


def open_game(client, **extra):
    r = client.post("/api/games", json={"scenario": "the-hill", "mode": "online", "open": True, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def first_action(client, gid, token):
    v = client.get(f"/api/games/{gid}", headers=H(token)).json()
    return v, v["options"]


# --- open games and joining ----------------------------------------------------------------------
def test_an_open_game_gives_the_creator_one_seat_and_is_listed_until_joined(client):
    g = open_game(client)
    assert list(g["seats"]) == ["A"] and g["open_seats"] == ["B"]
    listed = client.get("/api/lobby").json()["games"]
    assert [x["id"] for x in listed] == [g["id"]]
    entry = listed[0]
    assert entry["side"]["id"] == "B" and entry["scenario"] == "the-hill" and entry["scenario_name"]
    assert "seat" not in json.dumps(entry)  # the lobby never shows a token
    # the creator's view says a seat is open
    assert client.get(f"/api/games/{g['id']}", headers=H(g["seats"]["A"])).json()["open_seats"] == ["B"]

    r = client.post(f"/api/games/{g['id']}/join", json={})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["side"] == "B" and joined["link"] == f"/play/{g['id']}#seat={joined['seat']}"
    view_b = client.get(f"/api/games/{g['id']}", headers=H(joined["seat"])).json()
    assert view_b["seat"] == "B" and view_b["open_seats"] == []
    assert client.get("/api/lobby").json()["games"] == []


def test_a_seat_is_taken_once_even_by_concurrent_joins(client):
    g = open_game(client)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.post(f"/api/games/{g['id']}/join", json={}), range(8)))
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 7
    assert {a.json()["error"] for a in answers if a.status_code == 409} == {"seat_taken"}


def test_the_creator_may_choose_a_side(client):
    g = open_game(client, side="B")
    assert list(g["seats"]) == ["B"] and g["open_seats"] == ["A"]
    r = client.post(f"/api/games/{g['id']}/join", json={"side": "B"})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"


@pytest.mark.parametrize("body, field", [
    ({"mode": "hotseat", "open": True}, "field open"),
    ({"mode": "online", "open": True, "side": "Z"}, "field side"),
    ({"mode": "online", "open": True, "ai": "easy"}, "field open"),
    ({"mode": "online", "webhook": "ftp://example.org/x"}, "field webhook"),
    ({"mode": "online", "webhook": "https://user:pw@example.org/x"}, "field webhook"),
    ({"mode": "online", "open": "yes"}, "open"),
])
def test_bad_lobby_fields_are_refused_with_the_field(client, body, field):
    r = client.post("/api/games", json={"scenario": "the-hill", **body})
    assert r.status_code in (400, 422), r.text
    assert field in r.json()["message"]
    assert client.get("/api/lobby").json()["games"] == []


def test_joining_an_unknown_game_or_a_closed_one(client):
    assert client.post("/api/games/nope/join", json={}).json()["error"] == "unknown_game"
    g = client.post("/api/games", json={"scenario": "the-hill", "mode": "online"}).json()
    r = client.post(f"/api/games/{g['id']}/join", json={})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"


def test_open_seats_survive_a_restart(tmp_path):
    db = tmp_path / "g.sqlite3"
    with TestClient(create_app(db, limits=NO_RATE)) as c:
        g = open_game(c)
    with TestClient(create_app(db, limits=NO_RATE)) as c:
        assert [x["id"] for x in c.get("/api/lobby").json()["games"]] == [g["id"]]
        assert c.post(f"/api/games/{g['id']}/join", json={}).status_code == 200
        assert c.get(f"/api/games/{g['id']}", headers=H(g["seats"]["A"])).json()["open_seats"] == []


# --- my games ---------------------------------------------------------------------------------------
def test_my_games_says_whose_turn_it_is(client):
    g = client.post("/api/games", json={"scenario": "the-hill", "mode": "online"}).json()
    a, b = g["seats"]["A"], g["seats"]["B"]
    hs = client.post("/api/games", json={"scenario": "the-hill", "mode": "hotseat", "seed": 1}).json()
    r = client.post("/api/games/status", json={"games": [
        {"id": g["id"], "seat": a}, {"id": g["id"], "seat": b}, {"id": hs["id"], "seat": hs["seats"]["hotseat"]},
        {"id": g["id"], "seat": "forged"}, {"id": "nope", "seat": a}]})
    assert r.status_code == 200, r.text
    st = r.json()["games"]
    to_act = st[0]["to_act"]
    assert to_act in ("A", "B") and st[1]["to_act"] == to_act
    assert st[0]["your_turn"] == (to_act == "A") and st[1]["your_turn"] == (to_act == "B")
    assert st[2]["your_turn"] is True and st[2]["seat"] == "hotseat"
    assert st[0]["to_act_side"]["id"] == to_act and st[0]["scenario_name"]
    assert st[3] == {"id": g["id"], "error": "bad_seat", "message": st[3]["message"]}
    assert st[4]["error"] == "unknown_game"


def test_my_games_is_bounded_and_checked(client):
    assert client.post("/api/games/status", json={"games": [{"id": "x", "seat": "y"}] * 51}).status_code == 422
    assert client.post("/api/games/status", json={"games": [{"id": "x"}]}).status_code == 422


# --- the briefing ------------------------------------------------------------------------------------
def test_the_briefing_shows_the_scenario_its_board_and_opening_position(client):
    r = client.get("/api/scenarios/magna-carta/the-hill/briefing")
    assert r.status_code == 200, r.text
    b = r.json()
    assert b["scenario"]["id"] == "the-hill" and b["board"] and b["sides"]
    assert "options" not in b["view"]  # a spectator's view: nothing to act on, no side's secrets
    fr = client.get("/api/scenarios/magna-carta/the-hill/briefing", params={"lang": "fr"}).json()
    assert fr["scenario"]["name_fr"]
    assert client.get("/api/scenarios/magna-carta/nope/briefing").json()["error"] == "unknown_scenario"
    assert client.get("/api/scenarios/nope/the-hill/briefing").json()["error"] == "unknown_ruleset"


def test_every_bundled_scenario_has_a_briefing(client):
    for sc in client.get("/api/scenarios").json()["scenarios"]:
        r = client.get(f"/api/scenarios/{sc['ruleset']}/{sc['id']}/briefing")
        assert r.status_code == 200, (sc["ruleset"], sc["id"], r.text)


# --- webhooks ------------------------------------------------------------------------------------
class _Receiver(BaseHTTPRequestHandler):
    got: list = []

    def do_POST(self):  # noqa: N802 - http.server's name
        n = int(self.headers.get("Content-Length", 0))
        _Receiver.got.append(json.loads(self.rfile.read(n)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    _Receiver.got = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", _Receiver.got
    server.shutdown()


def _wait(pred, seconds=5.0):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def _play(c, gid, seats, n):
    """``n`` legal actions, each by the seat of the side to act (the first legal action)."""
    live = c.app.state.hub.get(gid)
    for _ in range(n):
        token = next(t for t in seats.values()
                     if c.get(f"/api/games/{gid}", headers=H(t)).json()["can_act"])
        action = live.ruleset.action_to_json(live.ruleset.legal_actions(live.game.state)[0])
        r = c.post(f"/api/games/{gid}/actions", headers=H(token), json={"action": action, "version": live.version})
        assert r.status_code == 200, r.text


def test_a_webhook_is_told_when_a_human_side_is_to_act_and_never_gets_a_token(tmp_path, receiver):
    url, got = receiver
    with TestClient(create_app(tmp_path / "g.sqlite3",
                               limits=Limits(requests_per_second=0, webhook_private_ok=True))) as c:
        g = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "webhook": url}).json()
        _play(c, g["id"], g["seats"], 6)
        assert _wait(lambda: len(got) >= 6)
    assert all(p["event"] == "your_turn" and p["game"] == g["id"] and p["path"] == f"/play/{g['id']}" for p in got)
    assert all(p["side"] in ("A", "B") and p["side_name"] and p["text_fr"] for p in got)
    blob = json.dumps(got)
    assert not any(tok in blob for tok in g["seats"].values())
    versions = [p["version"] for p in got]
    assert sorted(versions) == sorted(set(versions)) == list(range(1, 7))  # once per version


def test_a_webhook_to_a_private_address_is_not_posted_by_default(tmp_path, receiver):
    url, got = receiver
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=NO_RATE)) as c:
        hub = c.app.state.hub
        g = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "webhook": url}).json()
        _play(c, g["id"], g["seats"], 1)
        assert _wait(lambda: len(hub.notifier.sent) == 1)
        assert hub.notifier.sent[0][2].startswith("refused")
    assert got == []


def test_a_server_may_turn_webhooks_off(tmp_path):
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0, webhooks=False))) as c:
        r = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "webhook": "https://example.org/h"})
        assert r.status_code == 422 and "sends no webhooks" in r.json()["message"]


@pytest.mark.parametrize("url", ["", "javascript:alert(1)", "http://", "https://x.org/" + "a" * 600])
def test_bad_webhook_urls(url):
    with pytest.raises(BadWebhook):
        check_url(url)


def test_serve_options_set_the_webhook_limits():
    import argparse

    from oriflamme.cli.serve import limits_from, register
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    assert limits_from(parser.parse_args(["serve"])).webhooks is True
    off = limits_from(parser.parse_args(["serve", "--no-webhooks", "--webhook-private-ok"]))
    assert off.webhooks is False and off.webhook_private_ok is True


def test_a_forged_token_in_my_games_costs_no_replay(client):
    """The token is checked in the store before the game is loaded: a stranger listing ids with
    forged tokens makes the server replay nothing."""
    g = client.post("/api/games", json={"scenario": "the-hill", "mode": "online"}).json()
    hub = client.app.state.hub
    hub.forget(hub.get(g["id"]))
    assert g["id"] not in hub.games
    r = client.post("/api/games/status", json={"games": [{"id": g["id"], "seat": "forged"}]})
    assert r.json()["games"][0]["error"] == "bad_seat"
    assert g["id"] not in hub.games
    r = client.post("/api/games/status", json={"games": [{"id": g["id"], "seat": g["seats"]["A"]}]})
    assert r.json()["games"][0]["seat"] == "A" and g["id"] in hub.games
