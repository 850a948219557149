"""``melee``: the procedure (GF seed 003 l.1546-1551), the PBC, GF-H1…H5, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from guerres_fleuries.rules_seed import cells
from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

GF = GuerresFleuries()


def hit(**kw):
    s = {"kind": "melee", "attacker": "Homme", "weapon": "maquahuitl", "target_armour": "sans armure",
         "figures_in_contact": 10, "target": "unit", "modifiers": []}
    s.update(kw)
    return GF.adjudicate(s)


@pytest.mark.parametrize("n", range(1528, 1533))
def test_troop_pbc_by_armour(n):
    label, sans, coton, saurien = cells(n)
    for armour, value in (("sans armure", sans), ("armure de coton", coton), ("saurien", saurien)):
        assert hit(weapon=label, target_armour=armour)["base_pct"] == int(value)


def test_the_procedure_pmc_times_figures_then_slices():
    """PMC = PBC + rank bonus + modifiers; × figures; each 100 % a casualty (GF-H1)."""
    assert "Multiplier le PMC par le nombre de figurines en combat" in line(1550)
    r = hit(weapon="maquahuitl", target_armour="coton", ranks=3, attacker_class="A",
            modifiers=["Chargeant, contre chargeant, poursuivant en combat.", "character_controls"],
            character={"FC": 3, "FM": 4})
    assert (r["base_pct"], r["rank_bonus"], r["modifier_total"], r["pmc"]) == (18, 2, 11 + 4 + 6, 41)
    assert (r["multiplied_pct"], r["eliminated"], r["residual_pct"], r["extra_if_d100_at_most"]) == (410, 4, 10, 10)
    assert "GF-H1" in r["citations"]


def test_gf_h1_rank_bonus_capped_at_5_and_none_when_disordered():
    assert [hit(ranks=k)["rank_bonus"] for k in (1, 2, 6, 7, 12)] == [0, 1, 5, 5, 5]
    assert hit(ranks=4, attacker_disordered=True)["rank_bonus"] == 0
    with pytest.raises(RefereeError, match="comes from the field ranks"):
        hit(modifiers=["per_extra_rank"])


def test_gf_h3_enemy_monster_minus_10():
    assert "L'ennemi est un monstre. - 10" in line(1575)
    r = hit(target="monster", target_armour="saurien")
    assert r["modifier_total"] == -10 and "GF-H3" in r["citations"]


def test_gf_h4_creatures_read_their_column_with_the_leading_sign():
    p = hit(attacker="Ptéradon", weapon=None, modifiers=["Attaquant un ennemi à couvert moyen"])
    o = hit(attacker="Jaguar et puma", weapon=None, modifiers=["Attaquant un ennemi à couvert moyen"])
    assert (p["modifier_total"], o["modifier_total"]) == (-2, -5)
    assert p["base_pct"] == int(cells(1784)[1]) and p["pmc"] == 128
    # "Combat une autre créature/monstre. - 10/0": implied by the target
    assert hit(attacker="Jaguar", weapon=None, target="creature")["modifier_total"] == -10
    assert hit(attacker="Ptéradon", weapon=None, target="creature")["modifier_total"] == 0


def test_gf_h5_force_divine_doubles_the_pbc_before_modifiers():
    r = hit(force_divine=True, modifiers=["charging"])
    assert (r["base_pct"], r["pmc"]) == (40, 51) and "GF-H5" in r["citations"]


def test_monsters_and_their_list():
    r = hit(attacker="Grand saurien", weapon=None, figures_in_contact=1, target_armour="coton",
            modifiers=["Chargeant, contre chargeant, poursuivant en combat.", "Un personnage contrôle directement la créature."],
            character={"FC": 5})
    assert (r["base_pct"], r["modifier_total"], r["pmc"]) == (int(cells(1943)[2]), 25, 200)
    assert (r["eliminated"], r["residual_pct"]) == (2, 0)


def test_saurians_and_claws():
    assert hit(attacker="Saurien", weapon="Griffes et dents")["base_pct"] == int(cells(1539)[1])
    with pytest.raises(RefereeError, match="has no PBC for Homme"):
        hit(weapon="griffes")


def test_characters_add_their_combat_modifier():
    r = hit(attacker_class="personnage", character={"FC": 2, "FM": 2, "CM": 15}, figures_in_contact=1)
    assert r["pmc"] == 20 + 6 + 15 and "GF-B12" in r["citations"]


def test_against_characters_creatures_and_monsters_wounds():
    assert hit(target="character")["casualties"] == "wounds"


def test_bad_input():
    with pytest.raises(RefereeError, match=r"field weapon: unknown name 'macana'"):
        hit(weapon="macana")
    with pytest.raises(RefereeError, match="fights without a weapon"):
        hit(attacker="Jaguar", weapon="club")
    with pytest.raises(RefereeError, match=r"field attacker: .*'Araignée géante'"):
        hit(attacker="Araignee geante!", weapon=None)
    with pytest.raises(RefereeError, match='needs "character"'):
        hit(modifiers=["character_controls"])
    with pytest.raises(RefereeError, match="field ranks"):
        hit(attacker="Jaguar", weapon=None, ranks=3)


SETUP = st.fixed_dictionaries({
    "weapon": st.sampled_from(["Club", "couteau d'obsidienne", "tepoztopilli", "Arme à deux mains"]),
    "target_armour": st.sampled_from(["sans armure", "coton", "saurien"]), "figures_in_contact": st.integers(0, 40),
    "ranks": st.integers(1, 8), "attacker_disordered": st.booleans(),
    "modifiers": st.lists(st.sampled_from(["charging", "flank", "rear", "enemy_shields", "dense_cover", "class_c"]),
                          max_size=4)})


@given(SETUP)
def test_multiplied_is_eliminated_hundreds_plus_residual(s):
    r = hit(**s)
    assert max(r["multiplied_pct"], 0) == r["eliminated"] * 100 + r["residual_pct"]
    assert r["pmc"] == r["base_pct"] + r["rank_bonus"] + r["modifier_total"]


@given(SETUP, st.integers(1, 10))
def test_more_figures_or_ranks_never_fewer_casualties(s, more):
    a = hit(**s)
    b = hit(**{**s, "figures_in_contact": s["figures_in_contact"] + more})
    c = hit(**{**s, "ranks": s["ranks"] + more})
    for x in (b, c):
        assert x["multiplied_pct"] >= a["multiplied_pct"] or a["pmc"] < 0
        assert (x["eliminated"], x["residual_pct"]) >= (a["eliminated"], a["residual_pct"]) or a["pmc"] < 0


def test_gf_h6_a_flank_or_rear_attack_disorders_the_target():
    assert "Un personnage qui attaque une unité de flanc ou de dos ne la met pas en désordre" in line(983)
    r = hit(weapon="club", target_armour="coton", modifiers=["flank"])
    assert r["modifier_total"] == 10 + 10 and "GF-H6" in r["citations"]
    assert hit(weapon="club", modifiers=["flank", "enemy_disordered"])["modifier_total"] == 20  # not twice
    assert hit(weapon="club", modifiers=["flank"], attacker_class="personnage")["modifier_total"] == 10 + 6
    # a creature or a monster is disordered only from the rear
    assert hit(weapon="club", target="monster", modifiers=["flank"])["modifier_total"] == 10 - 10
    assert hit(weapon="club", target="monster", modifiers=["rear"])["modifier_total"] == 20 + 10 - 10


@given(SETUP)
def test_a_positive_modifier_never_lowers_the_blows(s):
    a = hit(**s)
    b = hit(**{**s, "modifiers": s["modifiers"] + ["sworn_enemy"]})
    c = hit(**{**s, "modifiers": s["modifiers"] + ["enemy_shields"]})
    assert c["multiplied_pct"] <= a["multiplied_pct"] <= b["multiplied_pct"]
    assert (c["eliminated"], c["residual_pct"]) <= (a["eliminated"], a["residual_pct"]) <= (b["eliminated"], b["residual_pct"])
