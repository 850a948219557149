"""The rules diff (CLI text, --json, the web endpoint and page) and the edition chosen where a
game is made (``play --ruleset``, ``POST /api/games``, the record)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from oriflamme.core import registry
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.web.app import create_app


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "oriflamme.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=120)


def _by_rule(d: dict) -> dict:
    return {x["rule"]: x for x in d["differences"]}


def test_the_diff_is_computed_from_the_data_and_cites_each_side():
    d = registry.get("cry-havoc").rules_diff(registry.get("magna-carta"))
    assert (d["base"], d["edition"]) == ("magna-carta", "cry-havoc")
    rules = _by_rule(d)
    ch, mc = load_ruleset("cry-havoc"), load_ruleset("magna-carta")
    # a row on one side only
    assert rules["terrain.anvil"]["base"] is None
    assert rules["terrain.anvil"]["edition"]["ref"] == ch.terrain["anvil"].ref
    assert rules["jump_modifiers.wounded"]["edition"] is None
    assert rules["jump_modifiers.wounded"]["base"]["ref"] == "MC §4.4.3"
    # cell by cell, each side cited
    low_wall = rules["hexsides.low_wall"]
    assert {c["cell"]: (c["base"], c["edition"]) for c in low_wall["cells"]} == {
        "crossing": (mc.hexsides["low_wall"].crossing, ch.hexsides["low_wall"].crossing),
        "cover": (mc.hexsides["low_wall"].cover, ch.hexsides["low_wall"].cover)}
    assert low_wall["base"]["ref"].startswith("MC §8.1") and low_wall["edition"]["ref"].startswith("CH seed 002")
    # the sequence's steps
    assert {c["cell"] for c in rules["sequence.phase"]["cells"]} == {"on_enter"}
    assert "sequence.step.stunned_recovery" in rules
    # a row whose values are the base's (only its citation differs) is not a difference
    assert "terrain.clear" not in rules
    # every difference is real: the two sides' cells differ
    for x in d["differences"]:
        assert x["base"] is None or x["edition"] is None or x["cells"], x["rule"]


def test_the_diff_either_way_round_and_between_identical_rulesets():
    a = registry.get("magna-carta").rules_diff(registry.get("cry-havoc"))
    b = registry.get("cry-havoc").rules_diff(registry.get("magna-carta"))
    assert a == b
    same = registry.get("magna-carta").rules_diff(registry.get("magna-carta"))
    assert same["differences"] == []


def test_cli_rules_diff_text_and_json(tmp_path):
    p = run("rules", "diff", "cry-havoc", "magna-carta", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert set(d) >= {"base", "edition", "differences"}
    assert all(set(x) >= {"rule", "base", "edition"} for x in d["differences"])
    assert d == json.loads(json.dumps(registry.get("cry-havoc").rules_diff(registry.get("magna-carta"))))
    p = run("rules", "diff", "magna-carta", "cry-havoc", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("cry-havoc (") and f"{len(d['differences'])} rule(s) differ" in lines[0]
    assert any(line.startswith("hexsides.low_wall: magna-carta (MC §8.1") and "cry-havoc (CH seed 002" in line for line in lines)
    assert "    crossing: 2 | 4" in lines
    assert any(line.startswith("terrain.anvil: only in cry-havoc (CH seed 002 l.65") for line in lines)
    p = run("rules", "diff", "cry-havoc", "chess", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == "" and "unknown ruleset 'chess'" in p.stderr
    assert "Traceback" not in p.stderr


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        yield c


def test_endpoint_rules_diff(client):
    r = client.get("/api/rulesets/cry-havoc/diff")  # default: against its base
    assert r.status_code == 200
    d = r.json()
    assert (d["base"], d["edition"]) == ("magna-carta", "cry-havoc")
    assert d == client.get("/api/rulesets/magna-carta/diff", params={"against": "cry-havoc"}).json()
    r = client.get("/api/rulesets/magna-carta/diff")
    assert r.status_code == 422 and "not an edition" in r.json()["message"]
    assert client.get("/api/rulesets/chess/diff").status_code == 404
    page = client.get("/rules/diff")
    assert page.status_code == 200 and "/static/rules.js" in page.text
    assert "/rules/diff" in client.get("/").text  # reachable from the home page
    assert "rules-diff-link" in client.get("/play/x").text  # and from the game page


def test_post_games_with_an_edition_and_its_record(client):
    r = client.post("/api/games", json={"scenario": "the-village", "ruleset": "cry-havoc", "mode": "hotseat", "seed": 4})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["ruleset"] == "cry-havoc"
    token = g["seats"]["hotseat"]
    view = client.get(f"/api/games/{g['id']}", headers={"X-Seat": token}).json()
    assert view["ruleset"] == "cry-havoc" and view["web_module"] == "magna-carta"
    assert [s["title_fr"] for s in view["sequence"]["steps"]] == [
        "Phase de tir", "Phase de mouvement", "Phase de combat", "Phase de récupération"]
    rec = client.get(f"/api/games/{g['id']}/record", headers={"X-Seat": token}).json()
    assert rec["ruleset"] == "cry-havoc" and rec["scenario"]["ruleset"] == "cry-havoc"
    # a scenario the edition does not support: a clear error, no game
    r = client.post("/api/games", json={"scenario": "the-ford", "ruleset": "cry-havoc", "mode": "hotseat"})
    assert r.status_code == 422 and r.json()["message"] == (
        "the scenario 'the-ford' cannot be played under 'cry-havoc' (it supports: magna-carta)")
    assert client.post("/api/games", json={"scenario": "nowhere", "ruleset": "cry-havoc"}).status_code == 404
    r = client.post("/api/games", json={"scenario": "the-village", "mode": "hotseat"})
    assert r.status_code == 422 and r.json()["message"] == (
        "the scenario 'the-village' cannot be played under 'magna-carta' (it supports: cry-havoc)")


def test_play_with_ruleset_writes_the_edition_in_the_record(tmp_path):
    p = run("play", "the-village", "--ruleset", "cry-havoc", "--a", "random", "--b", "random", "--seed", "5", "--quiet",
            "--max-actions", "40", "--record", "r.json", cwd=tmp_path)
    assert "Traceback" not in p.stderr, p.stderr
    rec = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert rec["ruleset"] == "cry-havoc" and rec["scenario"]["ruleset"] == "cry-havoc"
    p = run("play", "the-ford", "--ruleset", "cry-havoc", "--a", "random", "--b", "random", cwd=tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "this scenario is for the ruleset 'magna-carta': it cannot be played under 'cry-havoc'" in p.stderr
