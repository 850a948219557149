"""Bot seats in the JSON API (issue 14): a game created with ``ai`` has its computer sides
played by the server, their explanations in the view's ``ai_notes``; the store remembers them."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from fixtures.hidden_duel import HiddenDuel
from oriflamme.core import registry
from oriflamme.web.app import create_app

DUEL = HiddenDuel()


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setattr("oriflamme.web.hub.BOT_PACE", 0.0)
    registry.register(DUEL)
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        yield c
    registry.unregister(DUEL.id)


def H(token):
    return {"X-Seat": token}


def wait_for(client, gid, token, pred, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = client.get(f"/api/games/{gid}", headers=H(token)).json()
        if pred(v):
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out; last view: version {v.get('version')}, can_act {v.get('can_act')}")


def test_a_bot_seat_plays_the_other_side_to_the_end_with_explanations(client):
    r = client.post("/api/games", json={"scenario": "quick-draw", "ruleset": "hidden-duel", "mode": "online",
                                        "ai": {"blue": "normal"}})
    assert r.status_code == 201, r.text
    g = r.json()
    assert set(g["seats"]) == {"red"} and g["ai"] == {"blue": "normal"}   # no token for the computer's side
    tok = g["seats"]["red"]
    for _ in range(10):
        v = wait_for(client, g["id"], tok, lambda v: v["can_act"] or v["over"])
        if v["over"]:
            break
        action = v["options"]["actions"][-1]["action"]  # the strongest card, or reveal
        assert client.post(f"/api/games/{g['id']}/actions", headers=H(tok),
                           json={"action": action, "version": v["version"]}).status_code == 200
    v = wait_for(client, g["id"], tok, lambda v: v["over"])
    assert v["ai"] == {"blue": "normal"}
    notes = v["ai_notes"]
    assert notes and all(n["side"] == "blue" and n["level"] == "normal" and n["text"] and n["text_fr"] for n in notes)
    # the computer's side took its actions through the same checked path: the record replays
    rec = client.get(f"/api/games/{g['id']}/record", headers=H(tok)).json()
    assert rec["over"] and len(rec["actions"]) == v["version"]


def test_a_human_cannot_act_for_the_computer(client):
    g = client.post("/api/games", json={"scenario": "quick-draw", "ruleset": "hidden-duel", "mode": "online",
                                        "ai": "random"}).json()   # a level alone: the second side
    assert g["ai"] == {"blue": "random"} and list(g["seats"]) == ["red"]
    tok = g["seats"]["red"]
    v = wait_for(client, g["id"], tok, lambda v: v["can_act"])
    client.post(f"/api/games/{g['id']}/actions", headers=H(tok),
                json={"action": v["options"]["actions"][0]["action"], "version": v["version"]})
    v = client.get(f"/api/games/{g['id']}", headers=H(tok)).json()
    r = client.post(f"/api/games/{g['id']}/actions", headers=H(tok),
                    json={"action": {"type": "pick", "side": "blue", "card": "lance"}, "version": v["version"]})
    assert r.status_code in (403, 409)  # blue is the computer's (or it has already picked)


@pytest.mark.parametrize("body,field", [
    ({"ai": {"green": "normal"}}, "no side 'green'"),
    ({"ai": {"blue": "genius"}}, "unknown level 'genius'"),
    ({"ai": {"blue": "easy"}, "mode": "hotseat"}, "online game"),
    ({"ai": {"red": "easy", "blue": "easy"}}, "at least one side"),
    ({"ai": 3}, "field ai"),
])
def test_bad_bot_seats_are_refused_with_the_field(client, body, field):
    r = client.post("/api/games", json={"scenario": "quick-draw", "ruleset": "hidden-duel", "mode": "online", **body})
    assert r.status_code == 422
    assert field in r.json()["message"]


def test_bot_seats_survive_a_restart(tmp_path, monkeypatch):
    monkeypatch.setattr("oriflamme.web.hub.BOT_PACE", 0.0)
    db = tmp_path / "g.sqlite3"
    with TestClient(create_app(db)) as c:
        g = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "ai": {"A": "easy"}}).json()
        assert list(g["seats"]) == ["B"]
        gid, tok = g["id"], g["seats"]["B"]
        v = wait_for(c, gid, tok, lambda v: v["version"] >= 1 or v["can_act"], timeout=60)
    with TestClient(create_app(db)) as c:
        v = c.get(f"/api/games/{gid}", headers=H(tok)).json()
        assert v["ai"] == {"A": "easy"}


def test_the_computer_accepts_an_undo_of_the_humans_last_action(tmp_path, monkeypatch):
    monkeypatch.setattr("oriflamme.web.hub.BOT_PACE", 30.0)  # the computer waits: the human's action stays last
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        g = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "ai": {"B": "easy"}}).json()
        gid, tok = g["id"], g["seats"]["A"]
        v = c.get(f"/api/games/{gid}", headers=H(tok)).json()
        r = c.post(f"/api/games/{gid}/actions", headers=H(tok), json={"action": {"type": "end_step"}, "version": v["version"]})
        assert r.status_code == 200
        r = c.post(f"/api/games/{gid}/undo", headers=H(tok), json={"version": 1})
        assert r.status_code == 200 and r.json()["undone"] is True
        assert c.get(f"/api/games/{gid}", headers=H(tok)).json()["version"] == 0
