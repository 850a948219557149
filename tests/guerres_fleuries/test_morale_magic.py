"""``"kind": "magic"``: threshold from the seed's printed level, spell difficulty and modifiers
(GF-J1, strict), ranges (GF-J3), wounds (GF-G3), the failure table, bad input, properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()


def ask(**s):
    return RS.adjudicate({"kind": "magic", **s})


def seed_level(printed: str) -> int:
    for n in range(1670, 1676):
        name, pct = line(n).split("\t")
        if name == printed:
            return int(pct.rstrip("%"))
    raise LookupError(printed)


def seed_difficulty(spell: str) -> int:
    n = next(i for i in range(1156, 1322) if line(i).strip() == f"« {spell} »")
    return int(re.search(r"Difficulté\s*:\s*(-?\d+)%", line(n + 2)).group(1))


def seed_modifier(printed: str) -> int:
    for n in range(1679, 1685):
        sentence, value = line(n).split("\t")
        if sentence == printed:
            return int(value.replace(" ", ""))
    raise LookupError(printed)


def test_threshold_is_level_plus_difficulty_plus_modifiers():
    r = ask(caster="prêtre", level="majeur", spell="Eclair", modifiers=["Le prêtre a bougé ce tour"])
    expected = seed_level("Prêtre majeur") + seed_difficulty("Eclair") + seed_modifier("Le prêtre a bougé ce tour")
    assert r["threshold"] == expected == 85 - 40 - 10
    assert r["success_if_d100_below"] == expected and "success" not in r


def test_gf_j1_success_is_strictly_below():
    # Prêtre guerrier légendaire 85 %, « Aura de pouvoir » -0 %: 85
    assert ask(caster="Prêtre guerrier légendaire", spell="Aura de pouvoir", d100=84)["success"] is True
    r = ask(caster="Prêtre guerrier légendaire", spell="Aura de pouvoir", d100=85)
    assert r["success"] is False and r["failure_table"] == "magic_failure" and "GF-J1" in r["citations"]


def test_a_failure_reads_the_failure_table():
    r = ask(caster="warrior-priest", level="minor", spell="Destin funeste", d100=50, failure_d100=99)
    assert r["threshold"] == seed_level("Prêtre guerrier mineur") + seed_difficulty("Destin funeste")
    assert r["failure"] == line(1697).split("\t")[1]


def test_gf_j3_a_diameter_is_a_radius_and_ranges_are_inclusive():
    assert ask(caster="prêtre", level="légendaire", spell="Pluie diluvienne de Tlaloc", distance_cm=25)["in_range"]
    r = ask(caster="prêtre", level="légendaire", spell="Pluie diluvienne de Tlaloc", distance_cm=25.5, d100=1)
    assert r["in_range"] is False and r["success"] is False and "failure_table" not in r
    assert ask(caster="prêtre", level="majeur", spell="Cauchemars", distance_cm=40)["in_range"] is True


def test_gf_g3_a_wound_state_gives_the_wound_modifier():
    r = ask(caster="prêtre", level="mineur", spell="Blessure", wound_state="Blessure sévère")
    assert r["modifier_total"] == seed_modifier("Le prêtre est sérieusement blessé")
    with pytest.raises(RefereeError, match="already among the modifiers"):
        ask(caster="prêtre", level="mineur", spell="Blessure", wound_state="légère",
            modifiers=["Le prêtre est légèrement blessé"])


def test_only_the_hand_of_death_in_base_contact():
    assert ask(caster="prêtre", level="mineur", spell="Main de la mort", base_contact=True)["threshold"] == 70
    with pytest.raises(RefereeError, match="field base_contact"):
        ask(caster="prêtre", level="mineur", spell="Eclair", base_contact=True)


def test_the_relic_adds_five():
    r = ask(caster="prêtre", level="mineur", spell="Blessure", modifiers=["item_relique_sacree"])
    assert r["modifier_total"] == 5


@pytest.mark.parametrize("situation,message", [
    ({"caster": "sorcier", "level": "mineur", "spell": "Eclair"}, r"field caster: unknown name 'sorcier'"),
    ({"caster": "prêtre", "level": "grand", "spell": "Eclair"}, r"field level: unknown name 'grand'"),
    ({"caster": "prêtre", "spell": "Eclair"}, r"field level: missing"),
    ({"caster": "Prêtre majeur", "level": "mineur", "spell": "Eclair"}, r"field level: 'mineur' contradicts"),
    ({"caster": "prêtre", "level": "mineur", "spell": "Eclaire"}, r"field spell: unknown name 'Eclaire'; did you mean 'Eclair'"),
    ({"caster": "prêtre", "level": "mineur", "spell": "Eclair", "d100": 101}, r"field d100: expected an integer from 1 to 100"),
    ({"caster": "prêtre", "level": "mineur", "spell": "Eclair", "d100": 99, "failure_d100": 0}, r"field failure_d100"),
    ({"caster": "prêtre", "level": "mineur", "spell": "Main de la mort", "distance_cm": 3}, r"field distance_cm: .* no distance in cm"),
    ({"caster": "prêtre", "level": "mineur", "spell": "Eclair", "modifiers": ["bougé"]}, r"field modifiers\[0\].modifier"),
])
def test_bad_input(situation, message):
    with pytest.raises(RefereeError, match=message):
        ask(**situation)


@settings(max_examples=100, deadline=None)
@given(level=st.sampled_from(["mineur", "majeur", "légendaire"]), caster=st.sampled_from(["prêtre", "prêtre-guerrier"]),
       roll=st.integers(1, 100), sworn=st.integers(0, 3), moved=st.integers(0, 3))
def test_success_iff_the_roll_is_below_and_threshold_monotone(level, caster, roll, sworn, moved):
    def run(s):
        return ask(caster=caster, level=level, spell="Force divine", d100=roll,
                   modifiers=[{"modifier": "sworn_enemy", "count": s}, {"modifier": "moved", "count": moved}])
    a, b = run(sworn), run(sworn + 1)
    assert a["success"] == (roll < a["threshold"])
    assert b["threshold"] == a["threshold"] + 10 and (b["success"] or not a["success"])
