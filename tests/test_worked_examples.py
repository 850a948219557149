"""The worked examples of La Magna Carta v1.2 (seed 004) and the SEED-NOTES decisions, as tests.

Each docstring quotes the paragraph it checks. The resolvers are called directly (the referee
command is tested in ``test_referee.py``), plus property tests over random situations.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme.rulesets.magna_carta.referee import adjudicate_situation
from oriflamme.rulesets.magna_carta.resolve.fire import FireSituation, fire
from oriflamme.rulesets.magna_carta.resolve.infiltration import Infiltrator, Opposer, infiltration_test
from oriflamme.rulesets.magna_carta.resolve.jump import jump_test
from oriflamme.rulesets.magna_carta.resolve.melee import Fighter, melee
from oriflamme.rulesets.magna_carta.resolve.movement import allowance
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

RS = load_ruleset("magna-carta")


# --- chapter 6 ----------------------------------------------------------------------------------
def test_s6_eight_against_three():
    """MC §6: « Ainsi, un attaquant de force 8 contre un défenseur de force 3 donne un rapport de
    force de 2, 3 contre 1, que l'on arrondit à 2 contre 1 (2-1). »"""
    r = melee(RS, [Fighter(8)], [Fighter(3)])
    assert r.legal and r.data["odds"] == "2-1" and r.data["column"] == "2-1"


def test_s6_below_one_to_one_impossible():
    """MC §6: « Les attaques effectuées à moins de 1 contre 1 (1-1) sont impossibles. »"""
    r = melee(RS, [Fighter(2)], [Fighter(3)], die=5)
    assert not r.legal and r.result is None and "below 1-1" in r.reason


def test_s6_2_several_attackers_example():
    """MC §6.2: « Mettons que deux personnages attaquent un ennemi à 4 contre 1 (4-1). Si l'un se
    trouve sur un terrain (0) et l'autre sur un terrain (-), les deux attaquants seront considérés
    comme étant sur un terrain (-). Si le défenseur se trouve sur un terrain (0), [...] le rapport
    de force doit être décalé d'une colonne vers la gauche (4-1 devient 3-1). Mais comme ils
    attaquent à plusieurs, ils ont droit à décaler le rapport de force d'une colonne sur la droite.
    Le combat sera donc résolu à 4-1 »"""
    r = melee(RS, [Fighter(12, marks=("0",)), Fighter(8, marks=("-",))], [Fighter(5, marks=("0",))])
    assert r.legal
    assert (r.data["attack"], r.data["odds"], r.data["shift"], r.data["column"]) == (20, "4-1", 0, "4-1")
    text = " ".join(r.explanation)
    assert "-1 column" in text and "several attackers: +1 column" in text


def test_s6_2_several_attackers_against_a_rider_need_riders():
    """MC §6.2: « Cette règle ne s'applique contre un personnage à cheval que s'il est attaqué par
    plusieurs cavaliers. » (SEED-NOTES D3: at least two mounted attackers)"""
    foot = melee(RS, [Fighter(6), Fighter(6)], [Fighter(4, mounted=True)])
    riders = melee(RS, [Fighter(6, mounted=True), Fighter(6, mounted=True)], [Fighter(4, mounted=True)])
    assert (foot.data["column"], riders.data["column"]) == ("3-1", "4-1")


def test_s6_3_armour_and_cap():
    """MC §6.3/§6.4: « il s'ajoute 1 point au chiffre obtenu au dé » ; « (10+1 = 10) »."""
    r = melee(RS, [Fighter(12)], [Fighter(1, armour=True)], die=10)
    assert (r.data["column"], r.modified_die, r.result) == ("12-1", 10, "E")  # §6.5 row 10, 12-1
    mixed = melee(RS, [Fighter(12)], [Fighter(2, armour=True), Fighter(2)], die=5)
    assert mixed.modified_die == 5  # not all defenders armoured: no +1


# --- §4.6.5 camels and horses -------------------------------------------------------------------
def test_s4_6_5_sir_michael_and_reuben():
    """MC §4.6.5: « Il peut encore attaquer Hakim, mais le rapport 28:13 (2:1) est ramené à 1:1.
    [...] Il peut entrer dans l'hexagone et attaquer Farhad avec une pénalité : Le rapport initial
    de 15:4, ou 3:1, n'est plus que 2:1. »  (the horse's fear test: one column to the left)"""
    michael = melee(RS, [Fighter(28, mounted=True, name="Sir Michael")], [Fighter(13, name="Hakim")], extra_shifts=[-1])
    assert (michael.data["odds"], michael.data["column"]) == ("2-1", "1-1")
    reuben = melee(RS, [Fighter(15, mounted=True, name="Reuben")], [Fighter(4, name="Farhad")], extra_shifts=[-1])
    assert (reuben.data["odds"], reuben.data["column"]) == ("3-1", "2-1")


# --- §7.6.3 charge -------------------------------------------------------------------------------
def test_s7_6_3_charge_and_counter_charge():
    """MC §7.6.3: « un chevalier possédant 28 points d'attaque charge un cavalier syrien possédant
    9 points en défense. Le chevalier obtient 14 points de bonus, ce qui lui fait un potentiel
    d'attaque de 42 points ce tour-ci. Si le cavalier syrien a la possibilité de contre-charger, il
    s'ajoutera 4 points à son potentiel de défense, qui atteindra 13 points »"""
    knight = Fighter(28, mounted=True, charging=True)
    charge = melee(RS, [knight], [Fighter(9, mounted=True)])
    assert (charge.data["attack"], charge.data["defence"], charge.data["odds"]) == (42, 9, "4-1")
    counter = melee(RS, [knight], [Fighter(9, mounted=True, counter_charging=True)])
    assert (counter.data["attack"], counter.data["defence"], counter.data["odds"]) == (42, 13, "3-1")
    assert any("42" in e for e in charge.explanation) and any("13" in e for e in counter.explanation)


# --- §7.11.2 kneeling pikemen ------------------------------------------------------------------
def test_s7_11_2_sir_roland_against_three_pikemen():
    """MC §7.11.2: « Sir Roland ayant un potentiel d'attaque de 30 souhaite attaquer le piquier
    Mark. Celui-ci étant agenouillé, on ajoute les potentiels de défense de Fursa et Tybalt [...]
    L'attaque se résoudra donc à 30 contre (7+6+6)=19, soit 1 contre 1. »"""
    r = melee(RS, [Fighter(30, name="Sir Roland")],
              [Fighter(7, name="Mark"), Fighter(6, name="Fursa"), Fighter(6, name="Tybalt")])
    assert (r.data["defence"], r.data["odds"], r.data["column"]) == (19, "1-1", "1-1")


# --- §3.2 weather --------------------------------------------------------------------------------
def test_s3_2_rider_in_the_rain():
    """MC §3.2: « Exemple: un cavalier (15 PM) se déplaçant sous la pluie ne peut pas avancer de
    plus de 15 x ¾ = 11,25, soit 11 PM. »"""
    assert allowance(RS, 15, "pluie").data["points"] == 11
    assert adjudicate_situation({"kind": "allowance", "base": 15, "weather": "Pluie"})["points"] == 11
    assert allowance(RS, 15, "pluie", indoors=True).data["points"] == 15  # « pas dans les bâtiments couverts »


# --- SEED-NOTES decisions ------------------------------------------------------------------------
def test_d1_shifts_applied_before_the_12_to_1_cap():
    """SEED-NOTES D1: « apply the column shifts to the raw odds, then resolve on 12-1 at most. »
    Raw 15-1, attacker "-" against defender "+" (-2): 13 -> 12-1 (not 12-2 = 10-1)."""
    r = melee(RS, [Fighter(15, marks=("-",))], [Fighter(1, marks=("+",))])
    assert (r.data["odds"], r.data["shift"], r.data["column"]) == ("15-1", -2, "12-1")
    r = melee(RS, [Fighter(14, marks=("-",))], [Fighter(1, marks=("+",))])
    assert r.data["column"] == "12-1"
    r = melee(RS, [Fighter(13, marks=("-",))], [Fighter(1, marks=("+",))])
    assert r.data["column"] == "11-1"


def test_d2_final_column_must_reach_one_to_one():
    """SEED-NOTES D2: « an attack needs raw odds ≥ 1-1 and a final column ≥ 1-1 after all shifts »."""
    r = melee(RS, [Fighter(3)], [Fighter(3, marks=("+",))], die=4)
    assert (r.data["odds"], r.legal, r.result) == ("1-1", False, None)
    r = melee(RS, [Fighter(2, marks=("+",))], [Fighter(3, marks=("-",))])  # +2 does not rescue 2:3
    assert not r.legal
    r = melee(RS, [Fighter(3)], [Fighter(3)], weather="neige")  # D5: the weather's "-" too
    assert not r.legal


def test_d5_bad_weather_shifts_every_attack():
    """SEED-NOTES D5 / MC §3.2: rain, snow and storm carry "-" in the combat column."""
    for w, col in (("pluie", "1-1"), ("neige", "1-1"), ("tempête", "1-1"), ("brouillard", "2-1"), ("nuit", "2-1")):
        assert melee(RS, [Fighter(8)], [Fighter(4)], weather=w).data["column"] == col, w


def test_d6_fire_die_below_one_reads_one():
    """SEED-NOTES D6: « Fire die below 1 (volley −1, target with a two-handed axe −1): read as 1. »
    Crossbow at 5 hexes (short, +0), die 1 - 2 = -1 -> 1 in column 2 = printed row "3 1 _ _",
    target on foot in light cover: C."""
    s = FireSituation(weapon="arbalète", distance=5, cover="légère", modifiers=("volley", "target_two_handed_axe"))
    r = fire(RS, s, die=1)
    assert (r.modified_die, r.result) == (-1, "C")
    assert any("reads as 1" in e for e in r.explanation)
    assert fire(RS, s, die=2).result == fire(RS, s, die=3).result == "C"  # 0 and 1 read the same row


def test_d6_above_the_last_printed_value_misses():
    """SEED-NOTES D6: « Above the last printed value: miss. »"""
    r = fire(RS, FireSituation(weapon="baliste", distance=100, target_armour=True, weather="pluie"), die=10)
    assert (r.modified_die, r.result) == (14, "-")  # long +2, armour +1, rain +1
    storm = fire(RS, FireSituation(weapon="baliste", distance=100, weather="tempête"), die=10)
    assert not storm.legal and "visibility" in storm.reason  # §3.2: storm, visibility 10


def test_d8_heavy_cover_against_a_rider_reads_medium():
    """SEED-NOTES D8: « Heavy cover against a mounted target: read the Moyenne column. »
    Longbow at 5 (short), die 3 in column 3 = §5.4.2 row "6 4 3 2": Aucune C, Légère B, Moyenne A."""
    heavy = fire(RS, FireSituation(weapon="arc long", distance=5, target_mounted=True, cover="forte"), die=3)
    medium = fire(RS, FireSituation(weapon="arc long", distance=5, target_mounted=True, cover="moyenne"), die=3)
    assert heavy.result == medium.result == "A"
    assert heavy.probabilities == medium.probabilities
    total = fire(RS, FireSituation(weapon="arc long", distance=5, target_mounted=True, cover="totale"), die=4)
    assert not total.legal


def test_d15_axe_dead_ranges():
    """MC §5.1 (1): « les portées à 1-2 et 5-6 hexagones sont considérées inopérantes » ;
    SEED-NOTES D15: « no throw is offered »."""
    for d in (1, 2, 5, 6, 9):
        r = fire(RS, FireSituation(weapon="hache", distance=d), die=5)
        assert not r.legal and r.result is None, d
    assert "dead range" in fire(RS, FireSituation(weapon="hache", distance=5)).reason
    assert [fire(RS, FireSituation(weapon="hache", distance=d)).data["band"] for d in (3, 4, 7, 8)] == \
        ["short", "short", "long", "long"]


def test_d16_infiltration_out_of_range():
    """SEED-NOTES D16: « modified results below the first band read the first band, above the last
    read the last. » Wounded infiltrator +2, die 10: 12 -> Personnage tué; mounted and armoured
    infiltrator -2 against a wounded opposer -2, die 3: -1 -> Pas de dommages."""
    hi = infiltration_test(RS, Infiltrator(wounded=True), Opposer(), die=10)
    assert (hi.modified_die, hi.result) == (12, "killed")
    lo = infiltration_test(RS, Infiltrator(mounted=True, armour=True), Opposer(wounded=True), die=3)
    assert (lo.modified_die, lo.result) == (-1, "none")


def test_d16_jump_modifiers_add_up():
    """SEED-NOTES D16: « jump: armour +1 and wounded +1 are +2 »; MC §4.4.3 « 11+ Mauvaise
    réception »."""
    r = jump_test(RS, armour=True, wounded=True, two_hexes=False, die=9)
    assert (r.modified_die, r.result) == (11, "bad_landing")
    r = jump_test(RS, armour=True, wounded=True, two_hexes=True, die=10)
    assert (r.modified_die, r.result) == (16, "bad_landing")


def test_d17_roles_swap_only_when_strictly_greater():
    """MC §7.6.3 N.B.: « Dans le cas où le potentiel de défense du cavalier qui contre-charge est
    supérieur au potentiel d'attaque du cavalier qui charge, on inverse les rôles [...] Les
    résultats défavorables au cavalier qui contre-charge ne sont toutefois pas pris en compte. »
    SEED-NOTES D17: swap only when strictly greater. 8 -> 12 against 8 -> 12: no swap; against
    9 -> 13: swap, 13 against 12."""
    charger = Fighter(8, mounted=True, charging=True)
    equal = melee(RS, [charger], [Fighter(8, mounted=True, counter_charging=True)], die=5)
    assert (equal.data["attack"], equal.data["defence"], equal.data["swapped"]) == (12, 12, False)
    assert equal.result == "B"  # §6.4 row 5, 1-1: attacker retreats — the charger, no swap
    greater = melee(RS, [charger], [Fighter(9, mounted=True, counter_charging=True)], die=5)
    assert (greater.data["attack"], greater.data["defence"], greater.data["swapped"]) == (13, 12, True)
    assert greater.result == "-"  # B would hurt the counter-charger (now attacking): ignored
    assert "A" not in greater.probabilities and "B" not in greater.probabilities


def test_d17_swapped_roles_swap_terrain_and_armour():
    """MC §7.6.3 N.B.: « on inverse les rôles tout en gardant les mêmes potentiels : l'attaquant
    devient défenseur et vice-versa. » After the swap the counter-charger attacks: §6.1 reads the
    *attacker's* terrain against the *defender's*, and §6.3's +1 is for an armoured *defender*.
    Charger 8 -> 12 on "-" (no armour), counter-charger 9 -> 13 on "0" in armour: 13 against 12 =
    1-1, attacker "0" against defender "-" = one column right -> 2-1, no armour bonus."""
    r = melee(RS, [Fighter(8, mounted=True, charging=True, marks=("-",))],
              [Fighter(9, mounted=True, counter_charging=True, armour=True, marks=("0",))], die=5)
    assert r.legal
    assert (r.data["attack"], r.data["defence"], r.data["column"], r.data["die_modifier"]) == (13, 12, "2-1", 0)


# --- properties ---------------------------------------------------------------------------------
MARK = st.sampled_from(["-", "0", "+"])


@st.composite
def fighters(draw, strength_key: str):
    mounted = draw(st.booleans())
    hexes = (draw(st.tuples(MARK)), draw(st.tuples(MARK))) if mounted and draw(st.booleans()) else ()
    return Fighter(draw(st.integers(0 if strength_key == "a" else 1, 80)), mounted=mounted,
                   armour=draw(st.booleans()), marks=(draw(MARK),), hexes=hexes,
                   charging=strength_key == "a" and mounted and draw(st.booleans()),
                   counter_charging=strength_key == "d" and mounted and draw(st.booleans()))


@settings(max_examples=300, deadline=None)
@given(attackers=st.lists(fighters("a"), min_size=1, max_size=3),
       mounted=st.booleans(),
       defenders=st.lists(fighters("d"), min_size=1, max_size=3),
       shifts=st.lists(st.integers(-3, 3), max_size=3),
       weather=st.sampled_from([None, "clear", "rain", "snow", "storm", "fog"]),
       die=st.integers(1, 10))
def test_melee_probabilities_are_a_distribution(attackers, mounted, defenders, shifts, weather, die):
    defenders = [Fighter(d.strength, mounted=mounted, armour=d.armour, marks=d.marks,
                         hexes=d.hexes if mounted else (), counter_charging=mounted and d.counter_charging)
                 for d in defenders]
    r = melee(RS, attackers, defenders, extra_shifts=shifts, weather=weather, die=die)
    table = "vs_mounted" if mounted else "vs_foot"
    letters = {k[1] for k in RS.melee_results if k[0] == table}
    if not r.legal:
        assert r.result is None and r.reason
        return
    assert sum(r.probabilities.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in r.probabilities.values())
    assert set(r.probabilities) <= letters
    assert r.result in r.probabilities
    assert 1 <= r.data["column_index"] <= 12


@settings(max_examples=300, deadline=None)
@given(weapon=st.sampled_from(sorted(RS.weapons)),
       distance=st.integers(0, 120),
       mounted=st.booleans(), armour=st.booleans(),
       cover=st.sampled_from(["none", "light", "medium", "heavy", "aucune", "légère", "moyenne", "forte", "lourde"]),
       weather=st.sampled_from(["clear", "rain", "storm", "snow", "fog", "night"]),
       wounded=st.booleans(), tree=st.booleans(),
       mods=st.lists(st.sampled_from(sorted(RS.fire_modifiers)), max_size=3, unique=True),
       extra=st.lists(st.integers(-3, 3), max_size=2),
       die=st.integers(1, 10))
def test_fire_probabilities_are_a_distribution(weapon, distance, mounted, armour, cover, weather, wounded, tree,
                                               mods, extra, die):
    s = FireSituation(weapon=weapon, distance=distance, target_mounted=mounted, target_armour=armour, cover=cover,
                      weather=weather, shooter_wounded=wounded, shooter_in_tree=tree, modifiers=tuple(mods),
                      extra=tuple(extra))
    r = fire(RS, s, die=die)
    table = "vs_mounted" if mounted else "vs_foot"
    letters = {k[1] for k in RS.fire_results if k[0] == table}
    if not r.legal:
        assert r.result is None and r.reason
        return
    assert sum(r.probabilities.values()) == 1
    assert set(r.probabilities) <= letters
    assert r.result in r.probabilities
    assert r.data["band"] in ("short", "medium", "long")


@settings(max_examples=200, deadline=None)
@given(attack=st.integers(0, 60), defence=st.integers(1, 30), terrain=MARK, def_terrain=MARK,
       armour=st.booleans(), mounted=st.booleans(), die=st.one_of(st.none(), st.integers(1, 10)))
def test_referee_json_probabilities_sum_to_one(attack, defence, terrain, def_terrain, armour, mounted, die):
    sit = {"kind": "melee", "attackers": [{"attack": attack, "terrain": terrain}],
           "defenders": [{"defence": defence, "terrain": def_terrain, "armour": armour, "mounted": mounted}]}
    if die is not None:
        sit["die"] = die
    r = adjudicate_situation(sit)
    if r["legal"]:
        assert abs(sum(r["probabilities"].values()) - 1) < 1e-9
        assert ("result" in r) == (die is not None)
    else:
        assert r["reason"] and "result" not in r
