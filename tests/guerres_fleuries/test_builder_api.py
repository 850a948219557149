"""The army builder's JSON API (docs/api.md § Armies) with Les Guerres Fleuries: owners,
create / list / get / update / delete, isolation between owners, export and re-import, the
printable sheet, the curse roll, and bad input (a 4xx naming the field, never a 500)."""

from __future__ import annotations

import copy
import json
import re
import sqlite3

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oriflamme.core import registry
from oriflamme.web.app import create_app

RID = "guerres-fleuries"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "armies.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db)) as c:
        yield c


def owner(client) -> dict:
    r = client.post("/api/owners")
    assert r.status_code == 201
    token = r.json()["owner"]
    assert re.fullmatch(r"[0-9a-f]{64}", token)
    return {"X-Owner": token}


def example(name: str) -> dict:
    return copy.deepcopy(registry.get(RID).army_examples()[name])


def small_army() -> dict:
    """20 class-B men with maquahuitl and a minor priest: legal in every respect."""
    return {"format": "oriflamme-army", "version": 1, "ruleset": RID, "name": "Small",
            "units": [{"name": "Warriors", "groups": [{"figures": 20, "race": "Homme", "class": "B",
                                                     "weapons": ["maquahuitl"], "armour": []}]}],
            "characters": [{"name": "Priest", "type": "prêtre", "level": "mineur", "FC": 1, "FM": 1, "CM": 3,
                            "weapons": [], "armour": []}]}


def create(client, who, doc, status=201) -> dict:
    r = client.post("/api/armies", headers=who, json=doc)
    assert r.status_code == status, r.text
    return r.json()


# --- owners and isolation ---------------------------------------------------------------------
def test_an_owner_token_is_required_and_must_be_one_the_server_minted(client):
    r = client.get("/api/armies")
    assert r.status_code == 401 and r.json()["field"] == "X-Owner"
    r = client.get("/api/armies", headers={"X-Owner": "0" * 64})
    assert r.status_code == 403 and "unknown owner" in r.json()["message"]
    r = client.get("/api/armies", headers={"X-Owner": "not a token"})
    assert r.status_code == 403


def test_create_list_get_update_delete(client):
    me = owner(client)
    made = create(client, me, small_army())
    assert made["valid"] is True and made["validation"]["valid"] is True
    assert made["total_points"] == made["validation"]["total_points"] > 0
    listed = client.get("/api/armies", headers=me).json()["armies"]
    assert [a["id"] for a in listed] == [made["id"]] and listed[0]["name"] == "Small"
    got = client.get(f"/api/armies/{made['id']}", headers=me).json()
    assert got["army"] == small_army() and got["validation"]["total_points"] == made["total_points"]
    # update: 10 more warriors cost exactly 10 × the cost of one (the server's price per figure)
    per_figure = got["validation"]["units"][0]["cost_per_figure"]
    bigger = small_army()
    bigger["units"][0]["groups"][0]["figures"] = 30
    bigger["name"] = "Bigger"
    assert made["version"] == 0
    r = client.put(f"/api/armies/{made['id']}?version=0", headers=me, json=bigger)
    assert r.status_code == 200, r.text
    assert r.json()["total_points"] == made["total_points"] + 10 * per_figure and r.json()["version"] == 1
    assert client.get("/api/armies", headers=me).json()["armies"][0]["name"] == "Bigger"
    assert client.delete(f"/api/armies/{made['id']}?version=1", headers=me).status_code == 204
    assert client.get("/api/armies", headers=me).json()["armies"] == []
    assert client.get(f"/api/armies/{made['id']}", headers=me).status_code == 404
    assert client.delete(f"/api/armies/{made['id']}?version=1", headers=me).status_code == 404


def test_every_change_names_the_version_it_was_made_from(client):
    """Issue 15: a change of an older version is refused (409 stale, with the army's version),
    never applied over a newer one; a change without a version is refused (422)."""
    me = owner(client)
    made = create(client, me, small_army())
    path = f"/api/armies/{made['id']}"
    first, second = small_army(), small_army()
    first["name"], second["name"] = "First tab", "Second tab"
    assert client.put(path + "?version=0", headers=me, json=first).status_code == 200
    stale = client.put(path + "?version=0", headers=me, json=second)   # the other tab, still at 0
    assert stale.status_code == 409 and stale.json()["error"] == "stale" and stale.json()["version"] == 1
    assert client.get(path, headers=me).json()["name"] == "First tab"
    for method, extra in (("put", {"json": second}), ("delete", {})):
        r = getattr(client, method)(path, headers=me, **extra)
        assert r.status_code == 422 and r.json()["field"] == "version", r.text
        r = getattr(client, method)(path + "?version=x", headers=me, **extra)
        assert r.status_code == 422 and r.json()["field"] == "version", r.text
    assert client.delete(path + "?version=0", headers=me).status_code == 409
    assert client.get(path, headers=me).status_code == 200  # not deleted by the stale request
    roll = client.post(path + "/roll?version=0", headers=me, json={"character": 0})
    assert roll.status_code == 409 and roll.json()["version"] == 1
    assert client.delete(path + "?version=1", headers=me).status_code == 204


def test_one_owner_never_sees_nor_touches_another_owners_armies(client):
    alice, bob = owner(client), owner(client)
    a = create(client, alice, small_army())
    create(client, bob, example("saurian-warband"))
    assert [x["id"] for x in client.get("/api/armies", headers=alice).json()["armies"]] == [a["id"]]
    assert a["id"] not in [x["id"] for x in client.get("/api/armies", headers=bob).json()["armies"]]
    for method, path in (("get", ""), ("get", "/export"), ("get", "/sheet")):
        assert getattr(client, method)(f"/api/armies/{a['id']}{path}", headers=bob).status_code == 404
    assert client.delete(f"/api/armies/{a['id']}?version=0", headers=bob).status_code == 404
    assert client.put(f"/api/armies/{a['id']}?version=0", headers=bob, json=small_army()).status_code == 404
    assert client.post(f"/api/armies/{a['id']}/roll?version=0", headers=bob, json={"character": 0}).status_code == 404
    assert client.get(f"/api/armies/{a['id']}", headers=alice).status_code == 200


def test_the_list_is_filtered_by_ruleset(client):
    me = owner(client)
    create(client, me, small_army())
    assert len(client.get("/api/armies", headers=me, params={"ruleset": RID}).json()["armies"]) == 1
    assert client.get("/api/armies", headers=me, params={"ruleset": "magna-carta"}).json()["armies"] == []


# --- an impossible army is never saved as valid -------------------------------------------------
def test_an_impossible_army_is_saved_as_not_valid_with_its_cited_violations(client):
    me = owner(client)
    doc = small_army()
    doc["units"][0]["groups"][0]["figures"] = 12           # units of at least 20 (GF-B2)
    doc["characters"].append(dict(doc["characters"][0]))   # a second priest (GF-B9)
    made = create(client, me, doc)
    assert made["valid"] is False
    rules = {v["rule"] for v in made["validation"]["violation_details"]}
    assert {"unit_size", "priests_max"} <= rules
    assert all(v["citations"] and v["citations"][0].startswith("GF") for v in made["validation"]["violation_details"])
    assert client.get("/api/armies", headers=me).json()["armies"][0]["valid"] is False
    # the client cannot claim validity: a "valid" field is not part of the document
    doc["valid"] = True
    r = client.post("/api/armies", headers=me, json=doc)
    assert r.status_code == 422 and r.json()["field"] == "valid"


def test_over_the_budget_is_not_valid(client):
    me = owner(client)
    doc = small_army()
    doc["units"][0]["groups"][0]["figures"] = 400
    made = create(client, me, doc)
    assert made["total_points"] > made["validation"]["budget"] and made["valid"] is False
    assert "budget" in {v["rule"] for v in made["validation"]["violation_details"]}


# --- export and re-import ---------------------------------------------------------------------------
def test_export_then_import_gives_the_same_army_and_verdict(client):
    me = owner(client)
    made = create(client, me, example("aztec-host"))
    r = client.get(f"/api/armies/{made['id']}/export", headers=me)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    exported = r.json()
    assert exported["format"] == "oriflamme-army" and exported["version"] == 1 and exported["ruleset"] == RID
    other = owner(client)
    again = create(client, other, exported)      # import = POST the exported file
    assert again["army"] == exported
    assert again["validation"]["total_points"] == made["validation"]["total_points"]
    assert again["valid"] is made["valid"] is True


def test_the_export_carries_the_format_version_and_ruleset(client):
    me = owner(client)
    bare = {k: v for k, v in small_army().items() if k not in ("format", "version")}
    made = create(client, me, bare)
    exported = client.get(f"/api/armies/{made['id']}/export", headers=me).json()
    assert list(exported)[:3] == ["format", "version", "ruleset"]
    assert (exported["format"], exported["version"], exported["ruleset"]) == ("oriflamme-army", 1, RID)
    assert {k: v for k, v in exported.items() if k not in ("format", "version")} == bare


def test_malformed_json_is_refused_with_its_line_and_column(client):
    me = owner(client)
    text = '{\n  "ruleset": "guerres-fleuries",\n  "units": [,]\n}'
    r = client.post("/api/armies", headers={**me, "Content-Type": "application/json"}, content=text)
    body = r.json()
    assert r.status_code == 400 and body["error"] == "bad_json"
    err = None
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        err = exc
    assert (body["line"], body["column"]) == (err.lineno, err.colno) == (3, 13)
    assert "line 3 column 13" in body["message"]
    assert client.get("/api/armies", headers=me).json()["armies"] == []


def test_a_body_nested_too_deep_is_a_400_not_a_crash(client):
    r = client.post(f"/api/rulesets/{RID}/army/validate", content=b"[" * 60000,
                    headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 413) and r.json()["error"] in ("bad_json", "too_large")
    r = client.post(f"/api/rulesets/{RID}/army/validate", content=b"[" * 30000 + b"]" * 30000,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "nests too deeply" in r.json()["message"]


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.__setitem__("ruleset", "magna-carta"), "ruleset"),
    (lambda d: d.pop("ruleset"), "ruleset"),
    (lambda d: d.__setitem__("format", "something"), "format"),
    (lambda d: d.__setitem__("version", 2), "version"),
    (lambda d: d.__setitem__("units", {}), "units"),
    (lambda d: d.__setitem__("pochteca", -1), "pochteca"),
    (lambda d: d["units"][0]["groups"][0].__setitem__("race", "Elfe"), "units[0].groups[0].race"),
    (lambda d: d["units"][0]["groups"][0].__setitem__("figures", "many"), "units[0].groups[0].figures"),
    (lambda d: d["characters"][0].__setitem__("type", "sorcier"), "characters[0].type"),
])
def test_a_malformed_army_is_a_4xx_naming_the_field(client, mutate, field):
    me = owner(client)
    doc = small_army()
    mutate(doc)
    r = client.post("/api/armies", headers=me, json=doc)
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["field"] == field and r.json()["message"].startswith(f"field {field}:")
    assert client.get("/api/armies", headers=me).json()["armies"] == []


def test_an_unknown_name_suggests_the_closest_printed_one(client):
    doc = small_army()
    doc["units"][0]["groups"][0]["weapons"] = ["maquauitl"]
    r = client.post(f"/api/rulesets/{RID}/army/validate", json=doc)
    assert r.status_code == 422 and "maquahuitl" in r.json()["message"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers(-5, 500) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["units", "characters", "creatures", "monsters", "pochteca", "groups", "figures",
                                         "race", "class", "weapons", "armour", "type", "level", "FC", "name",
                                         "magic_weapon", "curse_roll", "ally"]), inner, max_size=4), max_leaves=12))
def test_no_input_makes_the_validator_fail_with_a_500(client, junk):
    for body in (junk, {"ruleset": RID, "units": [junk]}, {"ruleset": RID, "characters": [junk]},
                 {"ruleset": RID, "units": [{"groups": [junk]}]}):
        r = client.post(f"/api/rulesets/{RID}/army/validate", json=body)
        assert r.status_code < 500, (body, r.text)


# --- what a ruleset offers --------------------------------------------------------------------------
def test_catalog_examples_and_rulesets_without_a_builder(client):
    cat = client.get(f"/api/rulesets/{RID}/army/catalog").json()
    assert cat["budget"] == 5000 and cat["races"] and cat["characters"] and cat["creatures"] and cat["monsters"]
    ex = client.get(f"/api/rulesets/{RID}/army/examples").json()["examples"]
    assert set(ex) == {"aztec-host", "saurian-warband"}
    infos = {r["id"]: r for r in client.get("/api/rulesets").json()["rulesets"]}
    assert infos[RID]["army_builder"] is True and infos["magna-carta"]["army_builder"] is False
    r = client.get("/api/rulesets/magna-carta/army/catalog")
    assert r.status_code == 422 and r.json()["error"] == "no_army_builder"
    assert client.get("/api/rulesets/chess/army/catalog").status_code == 404
    r = client.post("/api/armies", headers=owner(client), json={"ruleset": "magna-carta"})
    assert r.status_code == 422 and r.json()["field"] == "ruleset"


def test_the_builder_page_is_served(client):
    r = client.get(f"/army/{RID}")
    assert r.status_code == 200 and "/static/army.js" in r.text
    r = client.get(f"/static/rulesets/{RID}/army.js")
    assert r.status_code == 200 and "ORIFLAMME_ARMY" in r.text


# --- the printable sheet --------------------------------------------------------------------------
@pytest.mark.parametrize("lang, words", [("en", ("Units", "Characters", "Valid army")),
                                         ("fr", ("Unités", "Personnages", "Armée valide"))])
def test_the_sheet_is_printable_html_in_both_languages(client, lang, words):
    me = owner(client)
    made = create(client, me, example("saurian-warband"))
    r = client.get(f"/api/armies/{made['id']}/sheet", headers=me, params={"lang": lang})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "@media print" in html and f"lang='{lang}'" in html
    assert f"data-total='{made['total_points']}'" in html and all(w in html for w in words)
    army = made["army"]
    for entry in army["units"] + army["characters"] + army["creatures"] + army["monsters"]:
        assert entry["name"] in html
    for points in (p for lines in made["validation"]["lines"].values() for p in lines):
        assert f">{points}<" in html
    unsaved = client.post(f"/api/rulesets/{RID}/army/sheet", params={"lang": lang}, json=example("aztec-host"))
    assert unsaved.status_code == 200 and "Jaguar knights" in unsaved.text


def test_the_sheet_lists_the_violations(client):
    doc = small_army()
    doc["units"][0]["groups"][0]["figures"] = 12
    html = client.post(f"/api/rulesets/{RID}/army/sheet", json=doc).text
    assert "Not a valid army" in html and "20" in html and "GF-B2" in html


# --- the magic weapon curse roll --------------------------------------------------------------------
def with_magic_weapon() -> dict:
    doc = small_army()
    doc["units"][0]["groups"][0]["figures"] = 60
    doc["characters"].append({"name": "Hero", "type": "Héros", "level": "majeur", "FC": 2, "FM": 2, "CM": 20,
                              "weapons": ["maquahuitl"], "armour": [], "magic_weapon": "Détection"})
    return doc


def test_the_curse_roll_is_rolled_by_the_server_and_recorded(client):
    me = owner(client)
    made = create(client, me, with_magic_weapon())
    assert made["valid"] is False
    assert "curse_roll" in {v["rule"] for v in made["validation"]["violation_details"]}
    r = client.post(f"/api/armies/{made['id']}/roll?version=0", headers=me, json={"roll": "curse", "character": 1})
    assert r.status_code == 200, r.text
    out = r.json()
    roll, char = out["roll"], out["army"]["characters"][1]
    at_most = client.get(f"/api/rulesets/{RID}/army/catalog").json()["curse_roll"]["at_most"]
    assert char["curse_roll"] == roll["d100"] and 1 <= roll["d100"] <= 100
    assert roll["cursed"] is (roll["d100"] <= at_most)
    assert ("curse_d100" in char) is roll["cursed"]
    assert roll["citations"] and roll["explanation"] and roll["explanation_fr"]
    assert "curse_roll" not in {v["rule"] for v in out["validation"]["violation_details"]}
    # recorded in the store
    stored = client.get(f"/api/armies/{made['id']}", headers=me).json()
    assert stored["army"]["characters"][1]["curse_roll"] == roll["d100"]
    # a weapon is rolled once
    again = client.post(f"/api/armies/{made['id']}/roll?version=1", headers=me, json={"character": 1})
    assert again.status_code == 422 and again.json()["field"] == "characters[1].curse_roll"
    no_weapon = client.post(f"/api/armies/{made['id']}/roll?version=1", headers=me, json={"character": 0})
    assert no_weapon.status_code == 422 and no_weapon.json()["field"] == "characters[0].magic_weapon"
    bad = client.post(f"/api/armies/{made['id']}/roll?version=1", headers=me, json={"character": 9})
    assert bad.status_code == 422 and bad.json()["field"] == "character"


def test_a_cursed_roll_reads_the_curses_table():
    """With fixed dice (a d100 ≤ the threshold, then a d100 on the table) the recorded curse is
    the table's row for that roll."""
    from oriflamme.core.dice import FixedDice
    rs = registry.get(RID)
    cat = rs.army_catalog()
    at_most = cat["curse_roll"]["at_most"]
    for row in cat["curses"]:
        out = rs.army_roll(with_magic_weapon(), {"character": 1}, FixedDice([at_most, row["to"]]))
        assert out["roll"]["cursed"] is True and out["roll"]["curse"] == row["name"]
        assert rs.validate_army(out["army"])["characters"][1]["curse"]["curse"] == row["name"]
    out = rs.army_roll(with_magic_weapon(), {"character": 1}, FixedDice([at_most + 1]))
    assert out["roll"]["cursed"] is False and "curse_d100" not in out["army"]["characters"][1]


# --- storage ---------------------------------------------------------------------------------------
def test_a_database_of_schema_3_gets_the_armies_tables_and_keeps_its_games(db):
    from oriflamme.store import MIGRATIONS, Store
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    for version, sql in MIGRATIONS[:3]:
        conn.executescript(sql)
        conn.execute("INSERT INTO schema_migrations VALUES (?, 0)", (version,))
    conn.execute("INSERT INTO games (id, created_at, updated_at, scenario_id, scenario_json, seed, mode) "
                 "VALUES ('old', 0, 0, 'the-hill', '{}', 7, 'hotseat')")
    conn.commit()
    conn.close()
    store = Store(db)
    assert store.schema_version() == max(v for v, _ in MIGRATIONS) >= 4
    assert store.exists("old")
    token = store.armies.new_owner()
    a = store.armies.create(token, RID, small_army(), True, 545)
    assert store.armies.list(token) == [dict(a.summary())]
    assert store.armies.list(store.armies.new_owner()) == []
    # only the token's hash is stored
    raw = sqlite3.connect(db).execute("SELECT token_hash FROM owners").fetchall()
    assert token not in {r[0] for r in raw}
    store.close()


def test_deleting_an_owner_would_delete_the_armies(db):
    from oriflamme.store import Store
    store = Store(db)
    token = store.armies.new_owner()
    store.armies.create(token, RID, small_army(), True, 1)
    store.conn.execute("DELETE FROM owners")
    assert store.conn.execute("SELECT COUNT(*) FROM armies").fetchone()[0] == 0
    store.close()
