"""``"kind": "morale"``: the score (GF-I1) read against an oracle re-parsed from the seed's own
tables, each reading (GF-I2..I5, GF-B4, GF-G3, reading OR-GF5), bad input, and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()
RANK = {"DER": 0, "RET": 1, "O": 2, "AI": 3}


def ask(**situation):
    return RS.adjudicate({"kind": "morale", **situation})


# --- an oracle read straight from the seed's summary tables ------------------------------------

def seed_base(first_line: int, klass: str, losses_pct: int) -> int:
    """Base from the printed row: the bracket at 0 %, then the -10 %..-50 % columns."""
    for n in range(first_line, first_line + 3):
        cells = line(n).split("\t")
        if klass in re.split(r"[ .(]", cells[0].replace(" et ", " ")):
            values = [int(re.search(r"\((\d+)\)", cells[0]).group(1))] + [int(c) for c in cells[1:6]]
            return values[min(losses_pct // 10, 5)]
    raise LookupError(klass)


def seed_result(first_line: int, last_line: int, column: str, score: int) -> str:
    head = line(first_line - 1).split("\t")
    for n in range(first_line, last_line + 1):
        cells = line(n).split("\t")
        label = cells[0]
        nums = [int(x) for x in re.findall(r"\d+", label)]
        if ("plus" in label or "+" in label) and score >= nums[0] or "moins" in label and score <= nums[0] \
                or len(nums) == 2 and nums[0] <= score <= nums[1] or len(nums) == 1 and label.isdigit() and score == nums[0]:
            return cells[head.index(column)].strip()
    raise LookupError(score)


def test_seed_figures_class_a_unhurt():
    # A (11), no loss, no modifier: 11 + d4 1 = 12, the row 11-16: O (l.1600, l.1659)
    r = ask(tester="Homme", **{"class": "A"}, d4=1)
    assert (r["base"], r["score"], r["result"]) == (seed_base(1600, "A", 0), 12, seed_result(1655, 1665, "A", 12))
    assert r["result"] == "O" and r["explanation"] and r["citations"]


@settings(max_examples=150, deadline=None)
@given(tester=st.sampled_from([("Homme", 1600), ("Saurien", 1609)]), klass=st.sampled_from("ABCM"),
       initial=st.integers(1, 60), share=st.floats(0, 0.5), d4=st.integers(1, 4),
       friends=st.integers(0, 6), rear=st.integers(0, 2))
def test_troop_morale_matches_the_seed_oracle(tester, klass, initial, share, d4, friends, rear):
    name, first = tester
    losses = int(initial * share)
    r = ask(tester=name, **{"class": klass}, losses=losses, initial_strength=initial, d4=d4,
            modifiers=[{"modifier": "Pour chaque unité amie ou personnage dans les 10cm.", "count": friends},
                       {"modifier": "L'unité est attaquée de dos.", "count": rear}])
    pct = losses * 100 // initial // 10 * 10  # GF-I2: rounded down to a multiple of 10 %
    base = seed_base(first, klass, pct)
    mods = min(friends, 4) * 1 + rear * -4 + (-4 if klass == "M" else 0)  # l.1616 (max4), l.1629, l.1648
    score = base + mods + d4
    assert (r["base"], r["modifier_total"], r["score"]) == (base, mods, score)
    assert r["result"] == seed_result(1655, 1665, "C" if klass == "M" else klass, score)


# --- readings ----------------------------------------------------------------------------------

def test_gf_i2_losses_round_down_and_above_half_the_unit_is_removed():
    r = ask(tester="Homme", **{"class": "B"}, losses=7, initial_strength=20, d4=1)  # 35 % -> column -30 %
    assert r["loss_column"] == -30 and r["base"] == seed_base(1600, "B", 30)
    r = ask(tester="Homme", **{"class": "B"}, losses=10, initial_strength=20, d4=4)  # exactly 50 %: not removed
    assert r["loss_column"] == -50 and r["removed"] is False
    r = ask(tester="Homme", **{"class": "A"}, losses=11, initial_strength=20, d4=4,
            modifiers=[{"modifier": "dense_cover", "count": 3}])  # 55 %: routs whatever the score
    assert r["result"] == "DER" and r["removed"] is True and "GF-I2" in r["citations"]
    r = ask(tester="Homme", **{"class": "A"}, losses=11, initial_strength=20, d4=4, fanatic=True)
    assert r["removed"] is False and r["result"] == seed_result(1655, 1665, "A", r["score"])


def test_gf_i3_and_gf_b4_class_m_reads_c_with_the_mercenary_modifier():
    r = ask(tester="Homme", **{"class": "M"}, d4=2)
    assert r["column"] == "C" and r["base"] == 8
    assert [t["modifier"] for t in r["modifiers"]] == ["mercenaries"] and r["modifier_total"] == -4
    assert {"GF-I3", "GF-B4"} <= set(r["citations"])
    # given once by the player, it is not added twice
    r2 = ask(tester="Homme", **{"class": "M"}, d4=2, modifiers=[{"modifier": "Mercenaires.", "count": 1}])
    assert r2["modifier_total"] == -4


def test_gf_i4_saurians_use_their_bases_and_the_troop_results():
    r = ask(tester="Saurien", **{"class": "C"}, losses=5, initial_strength=10, d4=3)
    assert r["base"] == seed_base(1609, "C", 50) == 0 and r["result"] == seed_result(1655, 1665, "C", 3)
    assert "GF-I4" in r["citations"]


def test_gf_i5_eagle_a_condor_b_pteradon_b_by_wounds():
    eagle = ask(tester="Aigle géant", d4=1)
    condor = ask(tester="condor geant", d4=1)
    assert (eagle["column"], eagle["base"]) == ("A", 14) and (condor["column"], condor["base"]) == ("B", 11)
    assert eagle["result"] == seed_result(1877, 1883, "A", 15) and "GF-I5" in condor["citations"]
    p = ask(tester="Ptéradon", wound_state="Blessé grièvement", d4=2)  # l.1845: 4; 4+2 = 6 -> DER (l.1883)
    assert (p["column"], p["base"], p["score"], p["result"]) == ("B", 4, 6, "DER")


def test_gf_g3_wound_names_give_the_state():
    assert ask(tester="Ptéradon", wound_state="Blessure sévère", d4=1)["wound_state"] == "serious"
    assert ask(tester="Grand saurien", wound_state="coupure", d4=1)["wound_state"] == "light"
    assert ask(tester="Grand saurien", wound_state="critical", d4=1)["base"] == 3
    assert ask(tester="Grand saurien", d4=1)["base"] == 15  # unwounded by default


def test_reading_m2_monsters_columns():
    # score 8: Grand saurien (A) and Araignée (B) both RET at 8-9 (l.2019); 7: A RET, B DER (l.2020)
    big = ask(tester="Grand saurien", wound_state="sérieuse", d4=1,
              modifiers=[{"modifier": "Testeur se retirant.", "count": 2}])
    spider = ask(tester="Araignée géante", wound_state="sérieuse", d4=1,
                 modifiers=[{"modifier": "Testeur se retirant.", "count": 2}])
    assert big["score"] == spider["score"] == 7
    assert (big["result"], spider["result"]) == (seed_result(2015, 2021, "A", 7), seed_result(2015, 2021, "B", 7))
    assert ask(tester="monster", **{"class": "B"}, d4=1)["column"] == "B"


def test_creature_and_monster_lists_are_their_own():
    # "La créature est attaquée de dos. - 6" (l.1859) is not the troops' -4 (l.1629)
    r = ask(tester="Jaguar", d4=4, modifiers=[{"modifier": "La créature est attaquée de dos.", "count": 1}])
    assert r["modifier_total"] == -6
    with pytest.raises(RefereeError, match="field modifiers\\[0\\].modifier: unknown name"):
        ask(tester="Jaguar", d4=4, modifiers=[{"modifier": "L'unité est attaquée de dos.", "count": 1}])


def test_character_factor_and_caps():
    r = ask(tester="Homme", **{"class": "B"}, d4=1, character={"FM": 4},
            modifiers=[{"modifier": "Un personnage contrôle directement l'unité.", "count": 1},
                       {"modifier": "enemy_unbroken_near", "count": 9}])
    assert r["modifier_total"] == 4 - 4
    assert r["modifiers"][1]["capped_at"] == 4
    with pytest.raises(RefereeError, match='needs "character": {"FM": n}'):
        ask(tester="Homme", **{"class": "B"}, d4=1, modifiers=["character_controls"])


def test_spell_and_item_effects_are_modifiers():
    r = ask(tester="Homme", **{"class": "B"}, d4=1, modifiers=[{"modifier": "spell_cauchemars", "count": 1},
                                                               {"modifier": "item_conque_ehecatl", "count": 1}])
    assert r["modifier_total"] == -4 + 5
    assert any("l.1192" in c for c in r["citations"])


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("situation,message", [
    ({"tester": "Hommes", "class": "A", "d4": 1}, r"field tester: unknown name 'Hommes'; did you mean 'Homme'"),
    ({"tester": "Homme", "class": "A", "d4": 5}, r"field d4: expected an integer from 1 to 4"),
    ({"tester": "Homme", "class": "A"}, r"field d4: missing"),
    ({"tester": "Homme", "d4": 1}, r"field class: missing"),
    ({"tester": "Homme", "class": "D", "d4": 1}, r"field class: unknown name 'D'"),
    ({"tester": "Homme", "class": "A", "d4": 1, "losses": 21, "initial_strength": 20},
     r"field losses: expected an integer from 0 to 20"),
    ({"tester": "Homme", "class": "A", "d4": 1, "losses": 2}, r"field initial_strength: give losses and"),
    ({"tester": "Homme", "class": "A", "d4": 1, "wound_state": "légère"}, r"field wound_state: only the Ptéradon"),
    ({"tester": "Ptéradon", "d4": 1, "losses": 1, "initial_strength": 1}, r"field losses: the morale of a Ptéradon"),
    ({"tester": "Jaguar", "class": "A", "d4": 1}, r"field class: Jaguar, puma, etc. reads column B"),
    ({"tester": "creature", "d4": 1}, r"field class: missing \(A or B\)"),
    ({"tester": "Ptéradon", "d4": 1, "wound_state": "mortellement"}, r"field wound_state: unknown name"),
    ({"tester": "Homme", "class": "A", "d4": 1, "dice": 3}, r"field dice: not a field of kind morale"),
])
def test_bad_input_names_the_field(situation, message):
    with pytest.raises(RefereeError, match=message):
        ask(**situation)


# --- properties --------------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(klass=st.sampled_from("ABC"), d4=st.integers(1, 4), plus=st.integers(0, 4), minus=st.integers(0, 4))
def test_score_and_result_are_monotone_in_the_modifiers(klass, d4, plus, minus):
    def run(p):
        return ask(tester="Homme", **{"class": klass}, d4=d4,
                   modifiers=[{"modifier": "Chaque ennemi se retirant à moins de 30cm.", "count": p},
                              {"modifier": "Testeur en déroute.", "count": minus}])
    low, high = run(plus), run(plus + 1)
    assert high["score"] == low["score"] + 1
    assert RANK[high["result"]] >= RANK[low["result"]]


def test_every_result_table_is_monotone_and_total():
    from oriflamme.rulesets.guerres_fleuries.morale import data
    for table, columns in (("troops", "ABC"), ("creatures", "AB"), ("monsters", "AB")):
        for column in columns:
            ranks = [RANK[data().result(table, s).codes[column]] for s in range(-10, 40)]
            assert ranks == sorted(ranks)
            assert len([r for r in data().results if r.table == table and r.holds(12)]) == 1
