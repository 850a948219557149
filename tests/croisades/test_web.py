"""A Croisades game through the JSON API (docs/api.md): created with "ruleset": "croisades", its
view shows the 5-step phase bar, the announcements as options with their ruling, the
counter-charge prompt, and the record names the edition."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from oriflamme.web.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        yield c


def test_a_croisades_game_announces_a_charge_through_the_api(client):
    r = client.post("/api/games", json={"scenario": "caravan-ambush", "ruleset": "croisades", "mode": "hotseat", "seed": 4})
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"] if "id" in g else g["game_id"]
    token = next(iter(g["seats"].values())) if isinstance(g.get("seats"), dict) else g["seats"][0]["token"]

    def view():
        r = client.get(f"/api/games/{gid}", headers={"X-Seat": token})
        assert r.status_code == 200, r.text
        return r.json()

    def act(a):
        # every state-changing request names the version it answers (docs/api.md)
        r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat": token},
                        json={"action": a, "version": view()["version"]})
        assert r.status_code == 200, r.text

    text = str(view())
    assert "charge_announcements" in text and "CR seed 000 l.43" in text  # the phase bar, with its citation
    act({"type": "end_step"})
    v = view()
    prompts = v["options"]["prompts"]
    charge = next(p for p in prompts if p["action"]["type"] == "announce_charge" and p["action"]["target"] == "yusuf")
    assert charge["ruling"]["legal"] and "MC §7.6.1" in charge["ruling"]["citations"]
    act(charge["action"])
    v = view()
    assert v["pending"][0]["kind"] == "counter_charge"
    assert {p["action"]["type"] for p in v["options"]["prompts"]} == {"counter_charge", "decline"}
    rec = client.get(f"/api/games/{gid}/record", headers={"X-Seat": token}).json()
    assert rec["ruleset"] == "croisades"
