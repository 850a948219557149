"""unit_cost and character_cost: the seed's worked figure, each GF decision, bad input."""

from __future__ import annotations

import pytest

from guerres_fleuries.army_kit import group, hero, priest
from oriflamme.rulesets.guerres_fleuries import army_rows as data
from oriflamme.rulesets.guerres_fleuries.costs import character_cost, unit_cost
from oriflamme.rulesets.guerres_fleuries.names import RefereeError

W, A = data.weapons(), data.armours()


def test_the_seeds_worked_unit_20_times_25_4_3_1_is_660():
    res = unit_cost([group(20, "Homme", "B", ["maquahuitl"], ["coton", "bouclier"])])
    assert res["cost"] == 20 * (25 + 4 + 3 + 1) == 660
    assert res["cost_per_figure"] == 33 and res["figures"] == 20 and res["valid_size"] is True
    assert [t["cost"] for t in res["groups"][0]["terms"]] == [25, 4, 3, 1]


def test_names_as_printed_case_and_accents_optional_or_english():
    a = unit_cost([group(20, "SAURIEN", "classe c", ["Couteau d'Obsidienne", "ARC"], ["légère en coton"])])
    b = unit_cost([group(20, "Saurian", "C", ["obsidian knife", "bow"], ["cotton"])])
    s = data.races()["saurien"]
    assert a["cost"] == b["cost"] == 20 * (s.C + W["couteau"].cost + W["arc"].cost + A["coton"].cost)


def test_mixed_unit_each_figure_at_its_own_class_gf_b5():
    h = data.races()["homme"]
    res = unit_cost([group(16, cls="B", weapons=["club"], armour=[]), group(4, cls="A", weapons=["club"], armour=[])])
    assert res["cost"] == 16 * (h.B + W["club"].cost) + 4 * (h.A + W["club"].cost)
    assert res["cost_per_figure"] is None and res["figures"] == 20
    assert res["class_points"]["B"] == 16 * (h.B + W["club"].cost)


def test_mercenary_minus_15_and_fanatic_plus_10_per_figure_gf_b4():
    base = unit_cost([group()])["cost_per_figure"]
    merc = data.adjustments()["mercenary"].per_figure
    fan = data.adjustments()["fanatic"].per_figure
    assert (merc, fan) == (-15, 10)
    assert unit_cost([group(mercenary=True)])["cost_per_figure"] == base + merc
    assert unit_cost([group(fanatic=True)])["cost_per_figure"] == base + fan
    both = unit_cost([group(mercenary=True, fanatic=True)])
    assert both["cost_per_figure"] == base + merc + fan and both["mercenary_points"] == both["cost"]


def test_javelins_cost_1_with_or_without_the_propulseur_gf_b6():
    a = unit_cost([group(weapons=["Javeline"], armour=[])])["cost"]
    b = unit_cost([group(weapons=["Javeline + propulseur"], armour=[])])["cost"]
    assert a == b == 20 * (data.races()["homme"].B + 1)


def test_standard_bearer_and_musician_are_costed_like_the_others_gf_b2():
    # a unit of 20 including its bearer and musician costs 20 figures; 19 is too few
    assert unit_cost([group(19)])["valid_size"] is False
    small = unit_cost([group(19)])
    assert any("at least 20 figures" in v and "GF-B2" in v for v in small["violations"])


def test_two_handed_weapons_are_for_characters_only():
    res = unit_cost([group(weapons=["arme à deux mains"])])
    assert any("characters only" in v and "l.77" in v for v in res["violations"])
    c = character_cost(hero(weapons=["Arme à deux mains"]))
    assert c["valid"], c["violations"]


def test_claws_and_teeth_are_free_for_saurians_only_gf_b11():
    s = unit_cost([group(race="Saurien", weapons=["griffes et dents"], armour=[])])
    assert s["cost_per_figure"] == data.races()["saurien"].B and not s["violations"]
    m = unit_cost([group(weapons=["griffes et dents"], armour=[])])
    assert any("Saurians only" in v and "GF-B11" in v for v in m["violations"])


def test_an_item_listed_twice_is_a_violation_not_a_double_price():
    res = unit_cost([group(weapons=["Javeline", "javeline"], armour=[])])
    assert res["cost_per_figure"] == data.races()["homme"].B + 1
    assert any("listed twice" in v for v in res["violations"])


def test_unknown_names_suggest_the_closest_printed_name():
    with pytest.raises(RefereeError, match=r"field groups\[0\]\.weapons\[0\]: unknown name 'maquahuitle'.*'maquahuitl'"):
        unit_cost([group(weapons=["maquahuitle"])])
    with pytest.raises(RefereeError, match=r"field groups\[0\]\.race: unknown name 'Saurienne'.*'Saurien'"):
        unit_cost([group(race="Saurienne")])
    with pytest.raises(RefereeError, match=r"field character\.magic_item: .*'Relique sacrée'"):
        character_cost(hero("majeur", magic_item="relique sacre"))


@pytest.mark.parametrize("groups,field", [
    (None, "groups"), ([], "groups"), (["x"], r"groups\[0\]"), ([{**group(), "figures": "20"}], r"groups\[0\]\.figures"),
    ([{**group(), "figures": 0}], r"groups\[0\]\.figures"), ([{**group(), "weapons": [3]}], r"groups\[0\]\.weapons"),
    ([{**group(), "mercenary": "yes"}], r"groups\[0\]\.mercenary"), ([{**group(), "class": None}], r"groups\[0\]\.class"),
])
def test_malformed_fields_are_named(groups, field):
    with pytest.raises(RefereeError, match=f"field {field}"):
        unit_cost(groups)


# --- characters ---------------------------------------------------------------------------------
def expected(ctype: str, level: str, FC: int, FM: int, CM: int, kit=0, magic=0) -> int:
    t, lv = data.character_types()[ctype], data.levels()[level]
    i = list(data.levels()).index(level)
    p = data.prices()
    spells = t.spells[i] * lv.spell_price if t.spells else 0
    return (data.races()["homme"].character + FC * p["FC"].per_point + FM * p["FM"].per_point + CM * p["CM"].per_point
            + t.experience[i] * p["experience"].per_point + spells + kit + magic)


def test_character_cost_is_the_gf_b10_sum():
    c = character_cost({"type": "Héros", "level": "majeur", "FC": 4, "FM": 3, "CM": 50, "weapons": ["maquahuitl"],
                        "armour": ["coton", "bouclier"], "magic_item": "Ceinture de force"})
    kit = W["maquahuitl"].cost + A["coton"].cost + A["bouclier"].cost
    assert c["cost"] == expected("heros", "majeur", 4, 3, 50, kit, data.magic_items()["Ceinture de force"].cost)
    assert c["cost"] == 110 + 80 + 120 + 50 + 4 * 15 + 8 + 75 and c["valid"]


def test_priest_spells_fixed_by_level_and_priced_by_level_gf_b7():
    for level in ("mineur", "majeur", "legendaire"):
        c = character_cost(priest(level))
        assert c["cost"] == expected("pretre", level, 1, 1, 3) and c["valid"], (level, c["violations"])
    assert character_cost(priest("legendaire"))["spells"] == 5
    wrong = character_cost(priest("majeur", spells=2))
    assert not wrong["valid"] and any("has 3" in v and "GF-B7" in v for v in wrong["violations"])
    xp = character_cost(priest("majeur", experience=3))
    assert any("experience 3, but a major priest has 2" in v for v in xp["violations"])


def test_the_minor_priests_spell_price_is_the_gf_b8_choice():
    c = character_cost(priest("mineur"))
    spell_term = next(t for t in c["terms"] if t["term"].startswith("sorts"))
    assert spell_term["cost"] == 2 * data.levels()["mineur"].spell_price and "GF-B8" in spell_term["citations"]


def test_a_hero_has_no_spells():
    c = character_cost(hero(spells=1))
    assert any("hero has no miracles" in v for v in c["violations"])


def test_factors_outside_the_types_range():
    c = character_cost({"type": "prêtre-guerrier", "level": "mineur", "FC": 5, "FM": 1, "CM": 7})
    texts = " ".join(c["violations"])
    assert "FC 5 is outside the warrior-priest's range 1–4" in texts and "CM 7" in texts and "8–100" in texts


def test_skills_from_the_types_table_at_most_the_experience():
    ok = character_cost(hero(skills=["Force", "Bon nageur", "endurance"]))
    assert ok["valid"] and ok["skills"] == ["Force", "Bon nageur", "Endurance"]
    too_many = character_cost(hero(skills=["Force", "Bon nageur", "Endurance", "Bonds"]))
    assert any("4 skills chosen" in v for v in too_many["violations"])
    other = character_cost(hero(skills=["Malédiction"]))  # a priest's skill
    assert any("Malédiction" in v and "hero's skill table" in v for v in other["violations"])
    with pytest.raises(RefereeError, match=r"field character\.skills\[0\]: unknown name 'Forse'.*'Force'"):
        character_cost(hero(skills=["Forse"]))


@pytest.mark.parametrize("level,weapon,item,ok", [
    ("mineur", None, None, True), ("mineur", "Détection", None, False), ("mineur", None, "Relique sacrée", False),
    ("majeur", "Détection", None, True), ("majeur", None, "Relique sacrée", True),
    ("majeur", "Détection", "Relique sacrée", False),
    ("legendaire", "Détection", "Relique sacrée", True),
])
def test_equipment_by_level_gf_b10(level, weapon, item, ok):
    extra = {}
    if weapon:
        extra = {"magic_weapon": weapon, "curse_roll": 90}
    if item:
        extra["magic_item"] = item
    c = character_cost(hero(level, **extra))
    assert c["valid"] is ok, c["violations"]
    if not ok:
        assert any("GF-B10" in v and "l.116-123" in v for v in c["violations"])


def test_the_magic_weapon_curse_roll():
    missing = character_cost(hero("majeur", magic_weapon="Précision"))
    assert any("curse roll" in v and "l.191" in v for v in missing["violations"])
    limit = data.curse_roll().at_most
    clean = character_cost(hero("majeur", magic_weapon="Précision", curse_roll=limit + 1))
    assert clean["valid"] and clean["curse"]["cursed"] is False
    cursed = character_cost(hero("majeur", magic_weapon="Précision", curse_roll=limit))
    assert not cursed["valid"] and any("curses table" in v for v in cursed["violations"])
    read = character_cost(hero("majeur", magic_weapon="Précision", curse_roll=1, curse_d100=100))
    assert read["valid"] and read["curse"]["curse"] == data.curses().read(100).result == "Mauvais œil"
    assert "GF-A2" in read["curse"]["citations"]
    named = character_cost(hero("majeur", magic_weapon="Précision", curse_roll=1, curse="horreur"))
    assert named["curse"]["curse"] == "Horreur"
    # the army builder's record of the roll
    rec = character_cost(hero("majeur", magic_weapon="Précision", curse={"d100": 12, "curse_d100": 20}))
    assert rec["valid"] and rec["curse"]["curse"] == data.curses().read(20).result
    with pytest.raises(RefereeError, match=r"field character\.curse_roll: expected an integer from 1 to 100"):
        character_cost(hero("majeur", magic_weapon="Précision", curse_roll=0))


@pytest.mark.parametrize("given,field", [
    ({"type": "roi", "level": "mineur", "FC": 1, "FM": 1, "CM": 10}, "type"),
    ({"type": "héros", "level": "epique", "FC": 1, "FM": 1, "CM": 10}, "level"),
    ({"type": "héros", "level": "mineur", "FM": 1, "CM": 10}, "FC"),
    ({"type": "héros", "level": "mineur", "FC": 1, "FM": "2", "CM": 10}, "FM"),
])
def test_character_malformed_fields_are_named(given, field):
    with pytest.raises(RefereeError, match=f"field character.{field}"):
        character_cost(given)
