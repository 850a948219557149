"""The browser files of a ruleset: served from its package's ``static/`` folder
(``Ruleset.static_dir()``, found through the registry) at ``/static/rulesets/<id>/…``; the
view names the module the generic game page loads (``web_module``), or none, and then the
page lists ``options.actions`` (docs/architecture.md, "The browser client")."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fixtures.hidden_duel import HiddenDuel
from oriflamme.core import registry
from oriflamme.web.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "static.sqlite3")) as c:
        yield c


def test_the_magna_carta_module_is_served_from_its_package(client):
    for name in ("module.js", "board.js"):
        r = client.get(f"/static/rulesets/magna-carta/{name}")
        assert r.status_code == 200, name
        assert "javascript" in r.headers["content-type"]
    assert "export async function mount" in client.get("/static/rulesets/magna-carta/module.js").text
    # the generic page still comes from web/static
    assert client.get("/static/play.js").status_code == 200
    assert client.get("/static/board.js").status_code == 404  # moved to the ruleset's package


@pytest.mark.parametrize("path", [
    "/static/rulesets/no-such-ruleset/module.js",      # unknown ruleset
    "/static/rulesets/magna-carta/no-such-file.js",    # unknown file
    "/static/rulesets/magna-carta/",                   # a folder, not a file
    "/static/rulesets/magna-carta/../ruleset.py",      # outside the folder
    "/static/rulesets/magna-carta/%2e%2e/ruleset.py",
    "/static/rulesets/magna-carta/..%2fruleset.py",
])
def test_unknown_rulesets_files_and_escapes_are_404(client, path):
    assert client.get(path).status_code == 404


def test_the_view_names_the_module_and_carries_the_commitment(client):
    g = client.post("/api/games", json={"scenario": "the-hill", "mode": "hotseat", "seed": 3}).json()
    v = client.get(f"/api/games/{g['id']}", headers={"X-Seat": g["seats"]["hotseat"]}).json()
    assert v["web_module"] == "magna-carta" and v["ruleset"] == "magna-carta"
    assert v["dice_commitment"] == g["dice_commitment"] and "dice_seed" not in v
    assert client.get(f"/static/rulesets/{v['web_module']}/module.js").status_code == 200


def test_a_ruleset_without_browser_files_gets_the_generic_list(client):
    """The test fixture ruleset has no ``static/`` folder and no module: 404 for its files, and
    its view offers ``options.actions`` ({action, label}) for the page's generic buttons."""
    rs = registry.register(HiddenDuel())
    try:
        assert rs.static_dir() is None and rs.web_module is None
        assert client.get(f"/static/rulesets/{rs.id}/module.js").status_code == 404
        scenario = rs.scenario_ids()[0]
        g = client.post("/api/games", json={"scenario": scenario, "ruleset": rs.id, "mode": "hotseat"}).json()
        v = client.get(f"/api/games/{g['id']}", headers={"X-Seat": g["seats"]["hotseat"]}).json()
        assert v["web_module"] is None
        actions = v["options"]["actions"]
        assert actions and all({"action", "label"} <= set(a) for a in actions)
    finally:
        registry.unregister(rs.id)
