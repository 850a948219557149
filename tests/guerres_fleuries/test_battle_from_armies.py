"""A battle between two armies of the army builder, through the web API (``POST /api/games``
with ``armies``: core ``Ruleset.scenario_from_armies``): the armies replace the scenario's on
its table, a bad army is refused naming the side and the field, a ruleset that cannot is
refused, and the lobby learns which rulesets can from ``/api/rulesets``."""

from __future__ import annotations

import copy

import pytest
from fastapi.testclient import TestClient

from oriflamme.core import registry
from oriflamme.web.app import create_app

SCENARIO = "battle-of-the-flowers"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "gf.sqlite3")) as c:
        yield c


def examples(client) -> dict:
    return client.get("/api/rulesets/guerres-fleuries/army/examples").json()["examples"]


def test_the_lobby_learns_which_rulesets_can(client):
    info = {r["id"]: r for r in client.get("/api/rulesets").json()["rulesets"]}
    assert info["guerres-fleuries"]["battle_from_armies"] is True
    assert info["magna-carta"]["battle_from_armies"] is False


def test_two_example_armies_swapped_on_the_bundled_table(client):
    ex = examples(client)
    (ia, a), (ib, b) = sorted(ex.items())
    r = client.post("/api/games", json={"scenario": SCENARIO, "ruleset": "guerres-fleuries", "mode": "hotseat",
                                        "armies": {"A": b, "B": a}})
    assert r.status_code == 201, r.text
    g = r.json()
    v = client.get(f"/api/games/{g['id']}", headers={"X-Seat": g["seats"]["hotseat"]}).json()
    by_side = {s: {u["name"] for u in v["units"] if u["side"] == s} for s in ("A", "B")}
    assert {u["name"] for u in b["units"]} <= by_side["A"]
    assert {u["name"] for u in a["units"]} <= by_side["B"]
    # the bundled scenario's table is kept
    base = client.post("/api/games", json={"scenario": SCENARIO, "ruleset": "guerres-fleuries", "mode": "hotseat"}).json()
    vb = client.get(f"/api/games/{base['id']}", headers={"X-Seat": base["seats"]["hotseat"]}).json()
    assert v["table"]["terrain"] == vb["table"]["terrain"]


def test_a_bad_army_is_refused_naming_the_side_and_field(client):
    ex = list(examples(client).values())
    broken = copy.deepcopy(ex[0])
    broken["units"][0]["groups"][0]["figures"] = "many"
    r = client.post("/api/games", json={"scenario": SCENARIO, "ruleset": "guerres-fleuries", "mode": "hotseat",
                                        "armies": {"A": broken, "B": ex[1]}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "bad_army" and "armies" in body["message"] and "figures" in body["message"]
    r = client.post("/api/games", json={"scenario": SCENARIO, "ruleset": "guerres-fleuries", "mode": "hotseat",
                                        "armies": {"A": ex[0]}})
    assert r.status_code == 422 and "one army for each side" in r.json()["message"]


def test_a_ruleset_without_the_hook_refuses(client):
    assert not registry.get("magna-carta").battle_from_armies()
    r = client.post("/api/games", json={"scenario": "the-hill", "mode": "hotseat", "armies": {"A": {}, "B": {}}})
    assert r.status_code == 422 and "cannot set a battle from armies" in r.json()["message"]
