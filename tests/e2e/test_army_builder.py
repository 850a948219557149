"""The army builder in the browser (Les Guerres Fleuries), end to end: a real server, Debian's
chromium. Every figure the page shows is compared with what the server's API answers for the
same army: the page computes no rule."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Page, expect

RID = "guerres-fleuries"


def verdict(server, doc: dict) -> dict:
    return server.call("POST", f"/api/rulesets/{RID}/army/validate", doc, expect=200)[1]


def army(figures: int, characters: list[dict] | None = None) -> dict:
    """The document the page builds with 'Add a unit' (20 class-B men, no weapon by default)."""
    return {"format": "oriflamme-army", "version": 1, "ruleset": RID, "name": "", "pochteca": 0,
            "units": [{"name": "Unit 1", "groups": [{"figures": figures, "race": "Homme", "class": "B",
                                                     "weapons": [], "armour": []}]}],
            "characters": characters or [], "creatures": [], "monsters": []}


def owned(server, owner: str, path: str) -> dict:
    req = urllib.request.Request(server.url + path, headers={"X-Owner": owner})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def said(text: str) -> re.Pattern:
    """A server's sentence as the page shows it (its first letter capitalised)."""
    return re.compile(re.escape(text), re.IGNORECASE)


def points_text(v: dict) -> str:
    return f"{v['total_points']} / {v['budget']} pts"


def test_build_a_small_army_see_points_and_violations(page: Page, server, artifacts):
    page.goto(server.url + "/")
    page.get_by_test_id(f"army-builder-{RID}").click()
    page.wait_for_url(re.compile(rf"/army/{RID}$"))
    expect(page.get_by_test_id("ruleset-title")).to_have_text("Les Guerres Fleuries")

    # a unit of 20: the points are the server's; no priest yet (GF-B9)
    page.get_by_test_id("add-unit").click()
    v = verdict(server, army(20))
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))
    expect(page.get_by_test_id("unit-0-cost")).to_have_text(f"{v['lines']['units'][0]} pts")
    expect(page.get_by_test_id("validity")).to_have_text("not valid")
    priests = next(x for x in v["violation_details"] if x["rule"] == "priests_min")
    expect(page.get_by_test_id("violations")).to_contain_text(said(priests["message"]))

    # a maquahuitl for each figure: the server's price per figure changes the total
    page.get_by_test_id("unit-0-0-w-maquahuitl").check()
    doc = army(20)
    doc["units"][0]["groups"][0]["weapons"] = ["maquahuitl"]
    v = verdict(server, doc)
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))

    # 12 figures: units of at least 20 (GF-B2), with its citation
    page.get_by_test_id("unit-0-0-figures").fill("12")
    page.get_by_test_id("unit-0-0-figures").press("Tab")
    doc["units"][0]["groups"][0]["figures"] = 12
    v = verdict(server, doc)
    size = next(x for x in v["violation_details"] if x["rule"] == "unit_size")
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))
    expect(page.get_by_test_id("violations")).to_contain_text(said(size["message"]))
    expect(page.get_by_test_id("violations")).to_contain_text(size["citations"][0])

    # a hero for 12 warriors: one hero per 30 warriors (GF-B9)
    page.get_by_test_id("add-character").click()
    cat = server.call("GET", f"/api/rulesets/{RID}/army/catalog", expect=200)[1]
    hero = cat["characters"][0]
    doc["characters"] = [{"name": "Character 1", "type": hero["name"], "level": hero["levels"][0]["name"],
                          "FC": hero["FC"][0], "FM": hero["FM"][0], "CM": hero["CM"][0], "weapons": [], "armour": []}]
    v = verdict(server, doc)
    heroes = next(x for x in v["violation_details"] if x["rule"] == "heroes")
    expect(page.get_by_test_id("violations")).to_contain_text(said(heroes["message"]))
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))
    expect(page.get_by_test_id("char-0-cost")).to_have_text(f"{v['lines']['characters'][0]} pts")
    page.screenshot(path=str(artifacts / "army-builder-violations.png"), full_page=True)

    # in French: the same verdict, in French
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("violations")).to_contain_text(said(heroes["message_fr"]))
    expect(page.get_by_test_id("add-unit")).to_have_text("Ajouter une unité")
    page.get_by_test_id("lang-en").click()

    # saved under this browser's owner token
    page.get_by_test_id("army-name").fill("My small army")
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("saved-armies")).to_contain_text("My small army")
    owner = page.evaluate("localStorage.getItem('oriflamme.owner')")
    assert re.fullmatch(r"[0-9a-f]{64}", owner)
    saved = owned(server, owner, "/api/armies")["armies"]
    assert [a["name"] for a in saved] == ["My small army"] and saved[0]["valid"] is False
    assert saved[0]["total_points"] == v["total_points"]

    # the bundled Aztec host: valid, its points as the server counts them
    page.get_by_test_id("example-aztec-host").click()
    ex = server.call("GET", f"/api/rulesets/{RID}/army/examples", expect=200)[1]["examples"]["aztec-host"]
    v = verdict(server, ex)
    assert v["valid"] and v["total_points"] <= v["budget"]
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))
    expect(page.get_by_test_id("validity")).to_have_text("valid army")
    expect(page.get_by_test_id("violations")).to_contain_text("every constraint is met")
    page.screenshot(path=str(artifacts / "army-builder-example.png"), full_page=True)

    # the Saurian warband: its creatures and its monster priced by the server
    page.get_by_test_id("example-saurian-warband").click()
    ex = server.call("GET", f"/api/rulesets/{RID}/army/examples", expect=200)[1]["examples"]["saurian-warband"]
    v = verdict(server, ex)
    expect(page.get_by_test_id("points")).to_have_text(points_text(v))
    expect(page.get_by_test_id("monster-0-cost")).to_have_text(f"{v['lines']['monsters'][0]} pts")
    expect(page.get_by_test_id("creature-0-cost")).to_have_text(f"{v['lines']['creatures'][0]} pts")


def test_import_a_file_and_refuse_malformed_json_with_its_position(page: Page, server, tmp_path):
    page.goto(server.url + f"/army/{RID}")
    expect(page.get_by_test_id("example-aztec-host")).to_be_visible()
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "ruleset": "guerres-fleuries",\n  "units": [,]\n}', encoding="utf-8")
    page.get_by_test_id("import-file").set_input_files(str(bad))
    expect(page.get_by_test_id("toast").last).to_contain_text("line 3 column 13")
    expect(page.get_by_test_id("saved-armies")).to_contain_text("No army saved yet.")
    good = tmp_path / "army.json"
    doc = army(20)
    doc["name"] = "Imported army"
    good.write_text(json.dumps(doc), encoding="utf-8")
    page.get_by_test_id("import-file").set_input_files(str(good))
    expect(page.get_by_test_id("saved-armies")).to_contain_text("Imported army")
    expect(page.get_by_test_id("points")).to_have_text(points_text(verdict(server, doc)))


def test_the_curse_roll_button_records_the_servers_roll(page: Page, server):
    page.goto(server.url + f"/army/{RID}")
    page.get_by_test_id("add-unit").click()
    page.get_by_test_id("add-character").click()
    expect(page.get_by_test_id("char-0")).to_be_visible()
    page.get_by_test_id("char-0-level").select_option("majeur")
    page.get_by_test_id("char-0-magic-weapon").select_option("Détection")
    expect(page.get_by_test_id("char-0-curse")).to_contain_text("not rolled yet")
    expect(page.get_by_test_id("violations")).to_contain_text("Détection")
    page.get_by_test_id("char-0-roll-curse").click()
    expect(page.get_by_test_id("char-0-curse")).to_contain_text(re.compile(r"d100 = \d+"))
    expect(page.get_by_test_id("char-0-roll-curse")).to_have_count(0)
    shown = int(re.search(r"d100 = (\d+)", page.get_by_test_id("char-0-curse").inner_text()).group(1))
    # the roll is the one the server recorded in the saved army
    owner = page.evaluate("localStorage.getItem('oriflamme.owner')")
    armies = owned(server, owner, "/api/armies")["armies"]
    saved = owned(server, owner, f"/api/armies/{armies[0]['id']}")
    assert saved["army"]["characters"][0]["curse_roll"] == shown


def test_a_priest_chooses_his_spells_by_name_when_the_magic_data_names_them(page: Page, server):
    cat = server.call("GET", f"/api/rulesets/{RID}/army/catalog", expect=200)[1]
    if not cat.get("spells"):
        import pytest
        pytest.skip("the magic data names no spell yet (data/magic.toml [[spell]]): spells are counted, not named")
    priest = next(c for c in cat["characters"] if c["spells_offered"])
    minor = priest["levels"][0]
    page.goto(server.url + f"/army/{RID}")
    page.get_by_test_id("add-unit").click()
    page.get_by_test_id("add-character").click()
    page.get_by_test_id("char-0-type").select_option(priest["name"])
    for k in range(minor["spells"]):
        page.get_by_test_id(f"char-0-spell-{k}").check()
    doc = army(20, [{"name": "Character 1", "type": priest["name"], "level": minor["name"], "FC": cat["characters"][0]["FC"][0],
                     "FM": cat["characters"][0]["FM"][0], "CM": cat["characters"][0]["CM"][0], "weapons": [], "armour": [],
                     "spells": [s["name"] for s in cat["spells"][:minor["spells"]]]}])
    v = verdict(server, doc)
    assert "spells_by_level" not in {x["rule"] for x in v["violation_details"]}
    expect(page.get_by_test_id("char-0-cost")).to_have_text(f"{v['lines']['characters'][0]} pts")
    page.get_by_test_id(f"char-0-spell-{minor['spells']}").check()           # one too many
    doc["characters"][0]["spells"].append(cat["spells"][minor["spells"]]["name"])
    v = verdict(server, doc)
    too_many = next(x for x in v["violation_details"] if x["rule"] == "spells_by_level")
    expect(page.get_by_test_id("violations")).to_contain_text(said(too_many["message"]))
