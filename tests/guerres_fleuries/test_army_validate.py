"""validate_army, the army referee kind and catalog(): every constraint, its bounds, its
citation; the GF-B decisions."""

from __future__ import annotations

import copy
import json

import pytest

from guerres_fleuries.army_kit import group, hero, priest, valid_army
from oriflamme.rulesets.guerres_fleuries import army_rows as data
from oriflamme.rulesets.guerres_fleuries.army import catalog, validate_army
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries


def given(figures, cls, points, **flags):
    return {"figures": figures, "class": cls, "points": points, **flags}


def rules(res):
    return [v["rule"] for v in res["violation_details"]]


def test_a_valid_army_and_its_figures():
    res = validate_army(valid_army())
    assert res["valid"] and res["violations"] == []
    assert res["troop_figures"] == 60 and res["max_heroes"] == 2
    assert res["total_points"] == sum(res["lines"]["units"]) + sum(res["lines"]["characters"])
    assert res["class_b_share"] == res["class_b_points"] / res["total_points"]
    json.dumps(res)


def test_budget_5000_inclusive_gf_b1():
    base = {"units": [given(100, "B", 4000)], "characters": [{"type": "prêtre", "points": 1000}]}
    assert validate_army(base)["valid"]
    over = copy.deepcopy(base)
    over["characters"][0]["points"] = 1001
    res = validate_army(over)
    assert rules(res) == ["budget"] and "5001 points: the budget is 5000" in res["violations"][0]
    assert "GF-B1" in res["violations"][0] and res["remaining"] == -1


def test_units_of_at_least_20_gf_b2():
    res = validate_army({"units": [given(19, "B", 500), given(20, "B", 500)], "characters": [priest()]})
    assert rules(res) == ["unit_size"] and res["violation_details"][0]["where"] == "unit 1"


@pytest.mark.parametrize("b_points,ok", [(400, True), (399, False)])
def test_class_b_at_least_40_percent_of_the_points_inclusive_gf_b3(b_points, ok):
    army = {"units": [given(20, "B", b_points), given(30, "C", 1000 - b_points - 100)],
            "characters": [{"type": "prêtre", "points": 100}]}
    res = validate_army(army)
    assert res["total_points"] == 1000 and res["valid"] is ok
    if not ok:
        assert rules(res) == ["class_b_share"] and "39.9 %" in res["violations"][0]


def test_mixed_units_count_their_class_b_figures_only_gf_b5():
    res = validate_army({"units": [{"groups": [group(10, cls="B"), group(10, cls="A")]}], "characters": []})
    u = res["units"][0]
    assert res["class_b_points"] == u["class_points"]["B"] == 10 * (data.races()["homme"].B + 8)


@pytest.mark.parametrize("ally_points,ok", [(450, True), (451, False)])
def test_allies_at_most_45_percent_inclusive_gf_b3(ally_points, ok):
    army = {"units": [given(20, "B", 1000 - ally_points - 100), given(20, "B", ally_points, ally=True)],
            "characters": [{"type": "prêtre", "points": 100}]}
    res = validate_army(army)
    assert res["allied_share"] == ally_points / 1000 and res["valid"] is ok
    if not ok:
        assert rules(res) == ["allied_share"]


@pytest.mark.parametrize("merc_points,ok", [(250, True), (251, False)])
def test_mercenaries_at_most_25_percent_inclusive_gf_b3(merc_points, ok):
    army = {"units": [given(20, "B", 1000 - merc_points - 100), given(20, "C", merc_points, mercenary=True)],
            "characters": [{"type": "prêtre", "points": 100}]}
    res = validate_army(army)
    assert res["mercenary_share"] == merc_points / 1000 and res["valid"] is ok


def test_a_mercenary_unit_of_groups_pays_minus_15_a_figure_gf_b4():
    plain = validate_army({"units": [{"groups": [group()]}]})["units"][0]["points"]
    merc = validate_army({"units": [{"groups": [group()], "mercenary": True}]})
    assert merc["units"][0]["points"] == plain - 15 * 20 == merc["mercenary_points"]


def test_one_hero_per_30_warriors_the_seeds_example_gf_b9():
    # l.101: "Une armée de 100 figurines, par exemple, peut avoir jusqu'à 3 héros et 1 prêtre"
    army = {"units": [given(50, "B", 1500), given(50, "B", 1500)],
            "characters": [{"type": "héros", "points": 100}] * 3 + [{"type": "prêtre", "points": 100}]}
    res = validate_army(army)
    assert res["max_heroes"] == 3 and res["valid"]
    army["characters"].append({"type": "héros", "points": 100})
    res = validate_army(army)
    assert rules(res) == ["heroes"] and "4 heroes for 100 warriors" in res["violations"][0]


def test_creatures_are_not_warriors_gf_b9():
    army = valid_army()
    army["creatures"] = [{"creature": "Jaguar/puma", "figures": 30}]
    res = validate_army(army)
    assert res["troop_figures"] == 60 and res["max_heroes"] == 2
    assert res["lines"]["creatures"] == [30 * data.beasts()["jaguar"].cost]


def test_creature_and_monster_prices_per_figure_gf_b11():
    res = validate_army({"monsters": [{"monster": "Grand saurien"}], "creatures": [{"type": "aigle géant", "figures": 4}]})
    assert res["lines"]["monsters"] == [data.beasts()["grand_saurien"].cost]
    assert res["lines"]["creatures"] == [4 * data.beasts()["aigle"].cost]


def test_pochteca_as_a_number_or_a_list():
    a = validate_army({"pochteca": 2})
    b = validate_army({"pochteca": [{}, {"figures": 1}]})
    assert a["total_points"] == b["total_points"] == 2 * data.pochteca().cost


def test_exactly_one_priest_or_warrior_priest():
    army = valid_army()
    army["characters"] = [hero()]
    assert rules(validate_army(army)) == ["priests_min"]
    army["characters"] = [priest(), {"type": "prêtre-guerrier", "points": 300}, hero()]
    res = validate_army(army)
    assert rules(res) == ["priests_max"] and "GF-B9" in res["violations"][0]


def test_character_rules_become_army_violations_with_their_place():
    army = valid_army()
    army["characters"][1] = hero("mineur", magic_item="Relique sacrée", name="Tlacaelel")
    res = validate_army(army)
    assert rules(res) == ["magic_by_level"]
    assert res["violation_details"][0]["where"] == "character 2 (Tlacaelel)"


def test_violations_are_cited_sentences_in_english_and_french():
    res = validate_army({"units": [given(10, "C", 100)]})
    for v in res["violation_details"]:
        assert v["message"] and v["message_fr"] and v["citations"][0].startswith("GF ")
    assert all(s.endswith(").") and "(GF " in s for s in res["violations"])
    assert any("au moins 20 figurines" in v["message_fr"] for v in res["violation_details"])


@pytest.mark.parametrize("doc,field", [
    ([], "army"), ({"units": {}}, "units"), ({"units": [{"figures": 20}]}, r"units\[0\]"),
    ({"units": [given(20, "Z", 10)]}, r"units\[0\]\.class"), ({"units": [given(20, "B", -1)]}, r"units\[0\]\.points"),
    ({"characters": [{"type": "roi", "points": 1}]}, r"characters\[0\]\.type"),
    ({"creatures": [{"creature": "dragon"}]}, r"creatures\[0\]\.creature"), ({"pochteca": "1"}, "pochteca"),
    ({"units": [given(20, "B", 10, ally="oui")]}, r"units\[0\]\.ally"),
])
def test_malformed_army_fields_are_named(doc, field):
    with pytest.raises(RefereeError, match=f"field {field}"):
        validate_army(doc)


# --- the referee kinds ---------------------------------------------------------------------------
def test_referee_unit_cost_kind_with_the_worked_660():
    r = GuerresFleuries().adjudicate({"ruleset": "guerres-fleuries", "kind": "unit_cost", "groups": [
        {"figures": 20, "race": "Homme", "class": "B", "weapons": ["maquahuitl"], "armour": ["coton", "bouclier"]}]})
    assert (r["cost"], r["cost_per_figure"], r["figures"], r["valid_size"]) == (660, 33, 20, True)
    assert "20 × (Homme classe B 25 + maquahuitl 4 + Légère en coton 3 + bouclier 1) = 20 × 33 = 660" in r["explanation"][0]
    assert any("l.35" in c for c in r["citations"]) and "GF-B2" in r["citations"]


def test_referee_character_cost_kind():
    r = GuerresFleuries().adjudicate({"kind": "character_cost", "type": "prêtre", "level": "légendaire", "FC": 3,
                                      "FM": 3, "CM": 40, "experience": 3, "spells": 5, "weapons": ["club"], "armour": [],
                                      "magic_weapon": "Terreur", "magic_item": "Relique sacrée", "curse_roll": 50})
    assert r["valid"] and r["violations"] == [] and r["cost"] == sum(t["cost"] for t in r["terms"])
    assert r["explanation"][-1].startswith("curse roll 50 > 35") and "GF-B10" in r["citations"]


def test_referee_army_kind_has_the_issues_fields():
    r = GuerresFleuries().adjudicate({"kind": "army", **valid_army()})
    for key in ("valid", "violations", "total_points", "troop_figures", "max_heroes", "class_b_share", "allied_share",
                "mercenary_share", "explanation", "citations"):
        assert key in r
    assert r["valid"] and "GF-B3" in r["citations"] and "GF-B9" in r["citations"]


def test_referee_unknown_name_gets_the_closest():
    with pytest.raises(RefereeError, match=r"field groups\[0\]\.armour\[0\].*'bouclier'"):
        GuerresFleuries().adjudicate({"kind": "unit_cost", "groups": [group(armour=["boucler"])]})


# --- catalog ------------------------------------------------------------------------------------
def test_catalog_offers_everything_with_costs_by_level():
    cat = catalog()
    json.dumps(cat)
    assert cat["budget"] == 5000
    assert {r["name"] for r in cat["races"]} == {"Homme", "Saurien"}
    assert {w["name"] for w in cat["weapons"]} >= {"maquahuitl", "Arc", "Griffes et dents"}
    assert [c["name"] for c in cat["creatures"]] and [m["name"] for m in cat["monsters"]] == ["Grand saurien",
                                                                                             "Araignée géante"]
    assert cat["pochteca"]["cost"] == data.pochteca().cost
    heros = next(c for c in cat["characters"] if c["id"] == "heros")
    assert [lv["experience"] for lv in heros["levels"]] == [3, 4, 5] and not heros["spells_offered"]
    assert heros["levels"][0]["magic_weapons_offered"] == [] and len(heros["levels"][2]["magic_items_offered"]) == 14
    assert len(heros["skills"]) == 16 and all(s["name_en"] for s in heros["skills"])
    priest_ = next(c for c in cat["characters"] if c["id"] == "pretre")
    assert [lv["spell_price"] for lv in priest_["levels"]] == [100, 100, 250]
    assert len(cat["curses"]) == 11 and cat["curses"][-1]["to"] == 100
    assert all(x["citations"][0].startswith("GF ") for x in cat["weapons"] + cat["magic_weapons"] + cat["magic_items"])


def test_every_label_is_bilingual():
    cat = catalog()
    for key in ("races", "classes", "weapons", "armours", "creatures", "monsters", "magic_weapons", "magic_items"):
        for row in cat[key]:
            assert row["name"] and row["name_en"], (key, row)
    for row in cat["magic_weapons"] + cat["magic_items"] + cat["curses"]:
        assert row["effect"] and row["effect_en"]
