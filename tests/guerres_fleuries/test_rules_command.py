"""``command_test`` and ``automatic_movement``: the printed values, GF-C1…C4, GF-A1/A2, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from guerres_fleuries.rules_seed import cells, d100_range
from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

GF = GuerresFleuries()


def ct(**kw):
    return GF.adjudicate({"kind": "command_test", **kw})


@pytest.mark.parametrize("n,cls", [(1374, "A"), (1375, "B"), (1376, "C"), (1377, "M")])
def test_troop_thresholds_are_the_printed_class_values(n, cls):
    homme = int(cells(n)[1])
    assert ct(race="Homme", **{"class": cls}, d100=homme)["threshold"] == homme
    if cells(n)[2] != "/":
        assert ct(race="saurien", **{"class": cls}, d100=1)["threshold"] == int(cells(n)[2])


def test_gf_c1_success_is_d100_at_most_the_threshold():
    """GF-C1: threshold = class + modifiers; "+10 passed" helps, "-6 losses" hurts."""
    r = ct(race="Homme", **{"class": "B"}, d100=64, modifiers=[{"modifier": "passed_last_test"},
                                                              {"modifier": "losses_last_turn"}])
    assert (r["threshold"], r["success"]) == (64, True) and "GF-C1" in r["citations"]
    assert ct(race="Homme", **{"class": "B"}, d100=65, modifiers=[{"modifier": "passed_last_test"},
                                                                  {"modifier": "losses_last_turn"}])["success"] is False
    assert r["explanation"] and r["citations"]


def test_modifiers_by_printed_sentence_ignoring_case_accents_punctuation():
    r = ct(race="Homme", **{"class": "C"}, d100=50,
           modifiers=[{"modifier": "L'UNITE A PASSE LE DERNIER TEST DE COMMANDEMENT", "count": 1}])
    assert r["threshold"] == 55


def test_gf_c2_per_15_cm_slice_is_the_floor():
    assert "Par tranche de 15cm" in line(1389)
    for dist, slices in ((14, 0), (15, 1), (29.9, 1), (30, 2), (44, 2), (45, 3)):
        r = ct(race="Homme", **{"class": "A"}, d100=1, commander_distance_cm=dist, character={"FC": 4})
        assert r["threshold"] == 70 - 4 * slices, dist
    with pytest.raises(RefereeError, match='needs "character"'):
        ct(race="Homme", **{"class": "A"}, d100=1, commander_distance_cm=20)


def test_gf_c3_direct_control_takes_no_command_test_and_for_reactions_replaces_within_15cm():
    with pytest.raises(RefereeError, match="GF-C3"):
        ct(race="Homme", **{"class": "B"}, d100=1, modifiers=["character_controls"], character={"FC": 3})
    r = ct(race="Homme", **{"class": "B"}, test="réaction", d100=1, character={"FC": 3},
           modifiers=["character_controls", "Si un personnage est dans les 15cm."])
    assert r["threshold"] == 60 + 6 and "GF-C3" in r["citations"]


def test_gf_c4_fanatics_test_at_35_and_pass_when_charging():
    assert "*en cas de charge ou de contre-charge, le test est automatiquement réussi" in line(1379)
    assert ct(race="Homme", **{"class": "fanatique"}, d100=36)["success"] is False
    r = ct(race="Homme", **{"class": "fanatique"}, d100=99, charging=True)
    assert r["success"] is True and r["automatic"] and "GF-C4" in r["citations"]
    assert ct(race="Homme", **{"class": "B"}, d100=99, charging=True)["success"] is False


def test_saurian_mercenaries_are_not_printed():
    with pytest.raises(RefereeError, match="no Saurien value"):
        ct(race="Saurien", **{"class": "M"}, d100=1)


@pytest.mark.parametrize("n,field,name", [(1752, "creature", "Aigle et condor géant"),
                                          (1755, "creature", "pteradon"), (1756, "creature", "Ptérodactyle"),
                                          (1908, "monster", "grand saurien"), (1909, "monster", "Araignée géante")])
def test_creatures_and_monsters_use_their_own_values_and_lists(n, field, name):
    value = int(cells(n)[1])
    r = ct(**{field: name}, d100=value, modifiers=[{"modifier": "character_controls"}], character={"FC": 2})
    assert (r["threshold"], r["success"]) == (value + 4, True)


def test_creature_lists_differ_from_the_troops():
    r = ct(creature="Jaguar", d100=1, modifiers=["La créature se trouve à moins de 20cm d'un ennemi."])
    assert r["threshold"] == 30
    with pytest.raises(RefereeError, match="field modifiers"):
        ct(creature="Jaguar", d100=1, modifiers=["passed_last_test"])
    with pytest.raises(RefereeError, match="field class"):
        ct(creature="Jaguar", **{"class": "A"}, d100=1)


def test_bad_input_names_the_field_and_the_closest_printed_name():
    with pytest.raises(RefereeError, match=r"field race: unknown name 'Sauriens?'.*'Saurien'"):
        ct(race="Sauriens", **{"class": "A"}, d100=1)
    with pytest.raises(RefereeError, match=r"field creature: .*'Ptéradon'"):
        ct(creature="Pteradonn", d100=1)
    with pytest.raises(RefereeError, match=r"field d100: expected an integer from 1 to 100"):
        ct(race="Homme", **{"class": "A"}, d100=0)
    with pytest.raises(RefereeError, match=r"field race/creature/monster"):
        ct(race="Homme", creature="Jaguar", d100=5)
    with pytest.raises(RefereeError, match=r"field colour: not a field"):
        ct(race="Homme", **{"class": "A"}, d100=5, colour="red")


@given(st.integers(1, 100), st.lists(st.sampled_from(["passed_last_test", "losses_last_turn",
                                                      "attacked_by_monster_or_magic"]), max_size=4))
def test_success_is_exactly_d100_at_most_threshold(d, mods):
    r = ct(race="Homme", **{"class": "B"}, d100=d, modifiers=mods)
    assert r["success"] == (d <= r["threshold"]) and r["threshold"] == 60 + r["modifier_total"]


# --- automatic movement -------------------------------------------------------------------------------------

SPANS = {"troops": range(1398, 1403), "creatures": range(1769, 1774), "monsters": range(1922, 1927)}


@pytest.mark.parametrize("table", list(SPANS))
def test_every_d100_reads_the_printed_row(table):
    printed = [(d100_range(cells(n)[1]), cells(n)[0]) for n in SPANS[table]]
    for roll in range(1, 101):
        r = GF.adjudicate({"kind": "automatic_movement", "table": table, "d100": roll})
        hit = [text for (lo, hi), text in printed if lo <= roll <= hi]
        if hit:
            assert r["result"].rstrip(".") == hit[0].rstrip("."), roll
        else:  # GF-A1
            assert table == "troops" and 61 <= roll <= 66 and "GF-A1" in r["citations"]
            assert "ne bouge pas" in r["result"]


def test_gf_a2_00_is_100():
    assert cells(1402)[1] == "89-00" and cells(1398)[1] == "00-50"
    assert GF.adjudicate({"kind": "automatic_movement", "table": "troupes", "d100": 100})["row"] == [89, 100]
    assert GF.adjudicate({"kind": "automatic_movement", "table": "troops", "d100": 1})["row"] == [1, 50]


def test_automatic_movement_bad_input():
    with pytest.raises(RefereeError, match=r"field table: unknown name 'monstre'.*monsters"):
        GF.adjudicate({"kind": "automatic_movement", "table": "monstre", "d100": 4})
    with pytest.raises(RefereeError, match=r"field d100"):
        GF.adjudicate({"kind": "automatic_movement", "table": "troops", "d100": 101})


@pytest.mark.parametrize("name,n", [("des personnages.", 262), ("brigaded", 267), ("column on road", 264),
                                    ("in combat", 265), ("direct control", 266), ("red marker", 322)])
def test_gf_c5_exempt_units_take_no_command_test(name, n):
    r = ct(race="Homme", **{"class": "B"}, exemption=name)
    assert r["exempt"] is True and r["success"] is None and "GF-C5" in r["citations"]
    assert any(f"l.{n}" in c for c in r["citations"])
    with pytest.raises(RefereeError, match="field exemption"):
        ct(race="Homme", **{"class": "B"}, exemption=name, test="reaction")
