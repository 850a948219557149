"""``"kind": "wound"``: every d100 × d4 against the printed tables, GF-G1, GF-G2, GF-G3, bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()
TABLES = {"personnages": range(1516, 1520), "pteradon": range(1813, 1817), "monstres": range(1960, 1963)}


def ask(**s):
    return RS.adjudicate({"kind": "wound", **s})


def printed_cell(table: str, roll: int, d4: int) -> tuple[str, str]:
    """The seed's own row for a d100 roll (torso of characters: GF-G1, 46-73) and its d4 cell."""
    for n in TABLES[table]:
        cells = line(n).split("\t")
        word, rng = cells[0].split(" ", 1)
        low, high = (int(x) for x in re.findall(r"\d+", rng))
        if rng == "4--73%":
            low = 46
        if low <= roll <= high:
            return word, cells[d4].strip()
    raise LookupError(roll)


@pytest.mark.parametrize("table", list(TABLES))
def test_every_roll_reads_the_printed_cell(table):
    for roll in range(1, 101):
        for d4 in range(1, 5):
            r = ask(table=table, d100=roll, d4=d4)
            assert (r["location"], r["wound"]) == printed_cell(table, roll, d4)
            assert r["dies"] == (r["wound"] == "Il meurt")


def test_gf_g1_the_character_torso_is_46_to_73():
    assert ask(table="personnages", d100=45, d4=1)["location"] == "Cuisses"
    r = ask(table="personnages", d100=46, d4=1)
    assert r["location"] == "Torse" and "GF-G1" in r["citations"]


def test_gf_g2_a_second_serious_or_critical_wound_kills():
    # torso d4 4: "Blessure sérieuse" (l.1518)
    assert ask(table="personnages", d100=50, d4=4)["dies"] is False
    r = ask(table="personnages", d100=50, d4=4, held=["Blessure sévère"])  # severe counts as serious
    assert r["dies"] is True and "GF-G2" in r["citations"] and any("l.1521" in c for c in r["citations"])
    assert ask(table="personnages", d100=50, d4=4, held=["Blessure légère", "Coupure"])["dies"] is False
    # a light wound after a serious one does not kill (cuisses d4 2, l.1517)
    assert ask(table="personnages", d100=20, d4=2, held=["serious"])["dies"] is False
    assert ask(table="monstres", d100=30, d4=2, held=["critical"])["dies"] is True  # l.1961 critique
    assert ask(table="pteradon", d100=20, d4=1, held=["Blessure critique"])["dies"] is True  # l.1814 sérieuse


def test_a_stunned_victim_wounded_again_dies():
    assert ask(table="monstres", d100=70, d4=4, stunned=True)["dies"] is True
    assert ask(table="monstres", d100=70, d4=4)["dies"] is False


def test_gf_g3_the_state_after_is_the_worst_held():
    assert ask(table="personnages", d100=20, d4=1)["wound_state_after"] == "light"  # Coupure
    assert ask(table="personnages", d100=20, d4=1, held=["Blessure critique"])["wound_state_after"] == "grave"
    assert ask(table="personnages", d100=20, d4=3)["wound_state_after"] == "serious"  # sévère


@given(table=st.sampled_from(list(TABLES)), roll=st.integers(1, 100), d4=st.integers(1, 4))
def test_each_roll_maps_to_exactly_one_location(table, roll, d4):
    from oriflamme.rulesets.guerres_fleuries import d100
    rows = [r for r in d100.table(f"wound_location_{table}").rows if r.low <= roll <= r.high]
    assert len(rows) == 1 and ask(table=table, d100=roll, d4=d4)["location"] == rows[0].result


@pytest.mark.parametrize("situation,message", [
    ({"table": "perso", "d100": 5, "d4": 1}, r"field table: unknown name 'perso'; did you mean 'personnage"),
    ({"table": "monstres", "d100": 0, "d4": 1}, r"field d100: expected an integer from 1 to 100"),
    ({"table": "monstres", "d100": 5, "d4": 5}, r"field d4: expected an integer from 1 to 4"),
    ({"table": "monstres", "d100": 5}, r"field d4: missing"),
    ({"table": "monstres", "d100": 5, "d4": 1, "held": "sérieuse"}, r"field held: expected a list"),
    ({"table": "monstres", "d100": 5, "d4": 1, "held": ["sérieux"]}, r"field held\[0\]: unknown name"),
])
def test_bad_input(situation, message):
    with pytest.raises(RefereeError, match=message):
        ask(**situation)
