"""The leader battle through the web API: online seats, actions, a refusal with its rule, the
ruling before committing, French views, replay frames, the record and the report (all from
the platform, through the ruleset contract)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from oriflamme.web.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "lb.sqlite3")) as c:
        yield c


def test_an_online_game_plays_explains_refuses_and_exports(client):
    g = client.post("/api/games", json={"scenario": "the-bridge-of-vauclair", "ruleset": "leader-battle",
                                         "mode": "online"}).json()
    count, duke = g["seats"]["count"], g["seats"]["duke"]
    v = client.get(f"/api/games/{g['id']}", headers={"X-Seat": count}).json()
    assert v["web_module"] == "leader-battle" and v["step"] == "B" and v["can_act"]
    assert client.get("/static/rulesets/leader-battle/module.js").status_code == 200
    fire = next(o["action"] for o in v["options"]["actions"] if o["action"]["type"] == "fire")
    ruling = client.post(f"/api/games/{g['id']}/explain", json={"action": fire}, headers={"X-Seat": count}).json()
    assert ruling["legal"] and abs(sum(o["p"] for o in ruling["outcomes"]) - 1) < 1e-9
    assert ruling["citations"][0].startswith("LB seed 001 l.3-9")
    # the duke may not act in the count's step: refused with the rule
    r = client.post(f"/api/games/{g['id']}/actions", json={"action": {"type": "end_step", "side": "duke"},
                                                           "version": v["version"]}, headers={"X-Seat": duke})
    assert r.status_code in (403, 409, 422)
    r = client.post(f"/api/games/{g['id']}/actions", json={"action": fire, "version": v["version"]},
                    headers={"X-Seat": count})
    assert r.status_code == 200, r.text
    fr = client.get(f"/api/games/{g['id']}?lang=fr", headers={"X-Seat": count}).json()
    assert any("tire sur" in e["text"] for e in fr["log"])
    frames = client.get(f"/api/games/{g['id']}/frames", headers={"X-Seat": count}).json()["frames"]
    assert len(frames) == 2 and frames[-1]["units"] and frames[-1]["step"] == "B"
    rec = client.get(f"/api/games/{g['id']}/record", headers={"X-Seat": count}).json()
    assert rec["ruleset"] == "leader-battle" and rec["seed"] is None and len(rec["actions"]) == 1
    rep = client.get(f"/api/games/{g['id']}/report", headers={"X-Seat": count})
    assert rep.status_code == 200 and "fires at" in rep.text
