"""The spells that change fire, melee and reaction odds (GF La magie, seed 003 l.1186, l.1228, l.1234,
l.1252, l.1276, l.1290, l.1308; OR-GF120): a cast, then a fire or a melee whose percentage moves by
exactly the seed's amount, listed in the explanation with its citation, the same in the preview and the
roll, and gone when the spell's turns are over."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import ByDie, battle
from guerres_fleuries.seed import line
from hypothesis import given, settings
from hypothesis import strategies as st_

from oriflamme.rulesets.guerres_fleuries.battle import (fire_play, lasting, magic_play, melee_play, reactions,
                                                        spell_modifiers)
from oriflamme.rulesets.guerres_fleuries.battle.actions import record


def troop(uid, side, **kw):
    from guerres_fleuries.battle_combat_kit import troop as kit_troop
    kw.setdefault("melee_weapon", "club")
    return kit_troop(uid, side, **kw)


def _priest(side="A", **kw):
    base = dict(kind="character", type="Prêtre mineur", name="Ixtlil", figures=1, figures_max=1, frontage=1,
                ranks=1, x=90, y=90, FM=2, FC=2, armour="coton")
    base.update(kw)
    return troop("priest", side, **base)


def _hero(uid, side, **kw):
    base = dict(kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                armour="coton", FM=2, FC=2, CM=0)
    base.update(kw)
    return troop(uid, side, **base)


def _cast(st, spell, target, **dice):
    dice.setdefault("d100", [1])
    record(st, magic_play.cast(st, "priest", spell, target, ByDie(**dice)))


def _fire(st, shooter, target):
    p = fire_play.preview(st, shooter, target)
    assert p["eligible"], p
    return p


def _strike(st, a, b):
    return melee_play.preview(st, a, b)["a_on_b"]


def _melee_pair(st_units, a, b):
    """Put ``b`` base to base before ``a``'s front."""
    b.x, b.y = a.x, a.y - (a.depth + b.depth) / 2


# --- Force divine, Pouvoir des ténèbres: the PBC doubled (l.1228, l.1290, GF-H5) ---------------------------

def test_force_divine_doubles_the_unit_pbc_for_two_turns():
    """l.1228: "Le prêtre choisit une unité qui peut doubler son PCB pendant 2 tours"."""
    assert "doubler son PCB pendant 2 tours" in line(1228)
    p = _priest(y=100)
    friend = troop("friend", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    foe = troop("foe", "B", x=90, y=0, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, friend, foe)
    st = battle(p, friend, foe)
    before = _strike(st, "friend", "foe")
    _cast(st, "force_divine", "friend")
    after = _strike(st, "friend", "foe")
    assert after["ruling"]["base_pct"] == 2 * before["ruling"]["base_pct"]
    assert after["ruling"]["pmc"] - before["ruling"]["pmc"] == before["ruling"]["base_pct"]
    assert any("Force divine" in s for s in after["explanation"])
    assert "GF seed 003 l.1228, l.1290" in after["citations"] and "GF-H5" in after["citations"]
    # the roll reads what the preview showed
    ev = melee_play._strike(st, friend, foe, ByDie(d100=[100]))
    assert ev["ruling"]["base_pct"] == after["ruling"]["base_pct"]
    st.turn += 1
    assert _strike(st, "friend", "foe")["ruling"]["base_pct"] == after["ruling"]["base_pct"]
    st.turn += 1  # two turns: the turn it is cast and the next (OR-GF112)
    assert _strike(st, "friend", "foe")["ruling"]["base_pct"] == before["ruling"]["base_pct"]


def test_pouvoir_des_tenebres_doubles_a_character_pbc():
    """l.1290: "Le prêtre choisit un personnage ou un monstre qui peut doubler son PCB pendant 2 tours"."""
    p = _priest(y=100)
    hero = _hero("hero", "A", x=90, y=88, melee_weapon="maquahuitl")
    foe = troop("foe", "B", x=90, y=0, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, hero, foe)
    st = battle(p, hero, foe)
    before = _strike(st, "hero", "foe")
    _cast(st, "pouvoir_des_tenebres", "hero")
    after = _strike(st, "hero", "foe")
    assert after["ruling"]["base_pct"] == 2 * before["ruling"]["base_pct"]
    assert any("Pouvoir des ténèbres" in s and "l.1290" in s for s in after["explanation"])


def test_force_divine_is_cast_at_a_friendly_unit_only():
    from oriflamme.core.errors import IllegalAction
    p = _priest(y=100)
    foe = troop("foe", "B", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    st = battle(p, foe)
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(st, "priest", "force_divine", "foe", ByDie(d100=[1]))
    assert "l.1228" in exc.value.ref and not st.log


# --- Malédiction, Possession: the character's fire and blows (l.1252, l.1276) ------------------------------

def _shooting_hero(**kw):
    return _hero("hero", "B", x=90, y=60, missile="arc", order="tirer", **kw)


def test_malediction_takes_30_from_the_character_fire_and_blows_for_the_day():
    """l.1252: "un malus de -30% à son PTF et à son PCF (score minimal de 20%)", "pendant 1 jour"."""
    p = _priest(y=100)
    hero = _hero("hero", "B", x=90, y=88, melee_weapon="maquahuitl", CM=40)
    friend = troop("friend", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, hero, friend)
    hero.heading = 180.0
    st = battle(p, hero, friend)
    before = _strike(st, "hero", "friend")["ruling"]["pmc"]
    assert before - 30 >= 20
    _cast(st, "malediction", "hero")
    after = _strike(st, "hero", "friend")
    assert after["ruling"]["pmc"] == before - 30
    assert "GF La magie > Liste des sorts divins > Malédiction; GF seed 003 l.1252" in after["citations"]
    assert any("Malédiction" in s for s in after["explanation"])
    st.turn += 20  # a day: the whole battle
    assert _strike(st, "hero", "friend")["ruling"]["pmc"] == before - 30


def test_malediction_never_takes_the_score_below_20():
    p = _priest(y=100)
    hero = _hero("hero", "B", x=90, y=88, melee_weapon="maquahuitl", CM=0)
    friend = troop("friend", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, hero, friend)
    st = battle(p, hero, friend)
    before = _strike(st, "hero", "friend")["ruling"]["pmc"]
    _cast(st, "malediction", "hero")
    after = _strike(st, "hero", "friend")["ruling"]["pmc"]
    assert after == (before - 30 if before - 30 >= 20 else min(before, 20))


@settings(max_examples=30, deadline=None)
@given(cm=st_.integers(min_value=-30, max_value=80))
def test_malediction_is_30_or_down_to_20_whatever_the_score(cm):
    """Property: the curse takes min(30, score − 20) and never raises a score already at or below 20."""
    p = _priest(y=100)
    hero = _hero("hero", "B", x=90, y=88, melee_weapon="maquahuitl", CM=cm)
    friend = troop("friend", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, hero, friend)
    st = battle(p, hero, friend)
    before = _strike(st, "hero", "friend")["ruling"]["pmc"]
    _cast(st, "malediction", "hero")
    after = _strike(st, "hero", "friend")["ruling"]["pmc"]
    assert after == before - max(0, min(30, before - 20))


def test_possession_takes_40_from_the_character_fire_for_four_turns():
    """l.1276: "un malus de - 40% à son PBC ou à son PBT pour 4 tours"."""
    p = _priest(x=105, y=75)
    hero = _shooting_hero()
    foe = troop("foe", "A", x=90, y=80, figures=10, figures_max=10, frontage=10, ranks=1)
    st = battle(p, hero, foe)
    before = _fire(st, "hero", "foe")["ruling"]["modified_pct"]
    _cast(st, "possession", "hero")
    after = _fire(st, "hero", "foe")
    assert after["ruling"]["modified_pct"] == before - 40
    assert "GF La magie > Liste des sorts divins > Possession; GF seed 003 l.1276" in after["citations"]
    plan = fire_play.plan_preview(st, "hero")["volleys"]
    assert plan and plan[0]["situation"]["modifiers"] == after["situation"]["modifiers"]
    st.turn += 3
    assert _fire(st, "hero", "foe")["ruling"]["modified_pct"] == before - 40
    st.turn += 1
    assert _fire(st, "hero", "foe")["ruling"]["modified_pct"] == before


def test_possession_takes_40_from_the_character_blows():
    p = _priest(y=100)
    hero = _hero("hero", "B", x=90, y=88, melee_weapon="maquahuitl", CM=60)
    friend = troop("friend", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1)
    _melee_pair(None, hero, friend)
    st = battle(p, hero, friend)
    before = _strike(st, "hero", "friend")["ruling"]["pmc"]
    _cast(st, "possession", "hero")
    assert _strike(st, "hero", "friend")["ruling"]["pmc"] == before - 40


def test_two_possessions_count_once():
    p = _priest(x=105, y=75)
    hero = _shooting_hero()
    foe = troop("foe", "A", x=90, y=80, figures=10, figures_max=10, frontage=10, ranks=1)
    st = battle(p, hero, foe)
    before = _fire(st, "hero", "foe")["ruling"]["modified_pct"]
    _cast(st, "possession", "hero")
    st.turn += 1
    _cast(st, "possession", "hero")
    assert _fire(st, "hero", "foe")["ruling"]["modified_pct"] == before - 40


# --- Brume de Tezcatlipoca: every shot and blow at the target (l.1186) ------------------------------------

def test_brume_takes_20_from_every_shot_and_blow_at_the_blurred_character():
    """l.1186: "tous les tirs ou les attaques contre elles se font à -20% au PFC ou de PFT", "1d4 tours"."""
    p = _priest(y=70, x=90)
    hero = _hero("hero", "A", x=90, y=60)
    archers = troop("archers", "B", missile="arc", order="tirer", x=90, y=40, figures=10, figures_max=10,
                    frontage=10, ranks=1)
    st = battle(p, hero, archers)
    before = _fire(st, "archers", "hero")["ruling"]["modified_pct"]
    _cast(st, "brume_de_tezcatlipoca", "hero", d4=[3])
    assert lasting.has(st, "hero", "attacked_modifier")["until_turn"] == st.turn + 2
    after = _fire(st, "archers", "hero")
    assert after["ruling"]["modified_pct"] == before - 20
    assert any("l.1186" in c for c in after["citations"])
    assert any("blurred" in s for s in after["explanation"])
    # a blow at him too
    _melee_pair(None, hero, archers)  # the archers' front against the hero's
    blow = _strike(st, "archers", "hero")
    names = [m["modifier"] for m in blow["situation"]["modifiers"]]
    assert "spell_brume" in names
    st.turn += 3
    assert "spell_brume" not in [m["modifier"] for m in _strike(st, "archers", "hero")["situation"]
                                 .get("modifiers", [])]


def test_brume_is_cast_at_a_friendly_character_or_monster():
    from oriflamme.core.errors import IllegalAction
    p = _priest(y=100)
    foe = _hero("foe", "B", x=90, y=90 - 5)
    st = battle(p, foe)
    with pytest.raises(IllegalAction):
        magic_play.cast(st, "priest", "brume_de_tezcatlipoca", "foe", ByDie(d100=[1], d4=[1]))
    assert not st.log


# --- Secousses telluriques: -3 to the fire of the units struck, this turn (l.1308) ------------------------

def test_secousses_take_3_from_the_struck_unit_fire_this_turn():
    """l.1308: "Les unités qui tirent durant le tour subissent un malus de -3 au tir"."""
    p = _priest(y=100)
    archers = troop("archers", "B", missile="arc", order="tirer", x=90, y=60, figures=10, figures_max=10,
                    frontage=10, ranks=1)
    friend = troop("friend", "A", x=90, y=80, figures=10, figures_max=10, frontage=10, ranks=1)
    st = battle(p, archers, friend)
    before = _fire(st, "archers", "friend")["ruling"]["modified_pct"]
    _cast(st, "secousses_telluriques_de_xiuhtecuhtli", "archers", d4=[4])
    after = _fire(st, "archers", "friend")
    assert archers.disorder  # the magic attack's disorder (l.1440): -2 more, the shooter disordered
    assert after["ruling"]["modified_pct"] == before - 3 - 2
    terms = {t["modifier"]: t["total"] for t in after["ruling"]["modifiers_applied"]}
    assert terms["spell_secousses"] == -3 and terms["shooter_disordered"] == -2
    assert any("l.1308" in c for c in after["citations"])
    st.turn += 1
    assert _fire(st, "archers", "friend")["ruling"]["modified_pct"] == before - 2


# --- Hurlement: +10 % to the reaction tests, read as a threshold 10 lower (l.1234, GF-C1) --------------------

def test_hurlement_lowers_the_reaction_threshold_by_10_for_two_turns():
    """l.1234: "un modificateur de +10% à ses tests de réaction" (GF-C1: hostile, the threshold 10 lower)."""
    p = _priest(y=90, x=110)
    charger = troop("charger", "A", x=90, y=85, figures=10, figures_max=10, frontage=10, ranks=1,
                    order="charger", target="foe")
    foe = troop("foe", "B", x=90, y=75, figures=10, figures_max=10, frontage=10, ranks=1, missile="arc")

    def threshold(st):
        st.reacting = {"foe": "charger"}
        st.dice = ByDie(d100=[100])
        n = len(st.log)
        reactions.react(st, st.units["foe"], "fire")
        ev = [e for e in st.log[n:] if e.get("type") == "reaction"][-1]
        return ev["ruling"]

    st = battle(p, charger, foe, phase=5)
    plain = threshold(st)["threshold"]
    _cast(st, "hurlement", "foe", d4=[4])
    ruled = threshold(st)
    assert ruled["threshold"] == plain - 10
    assert any(t["modifier"] == "spell_hurlement" for t in ruled["modifiers_applied"])
    assert "GF La magie > Liste des sorts divins > Hurlement; GF seed 003 l.1234" in ruled["citations"]
    st.turn += 2
    assert threshold(st)["threshold"] == plain


def test_the_lasting_spells_are_cited_by_unit():
    p = _priest(x=105, y=75)
    hero = _shooting_hero()
    st = battle(p, hero)
    assert spell_modifiers.citations(st, hero) == []
    _cast(st, "possession", "hero")
    assert spell_modifiers.citations(st, hero) == ["GF seed 003 l.1276"]


# --- a spell cast at a building: Eclair (l.1216) and Secousses telluriques (l.1308); l.802; OR-GF121 ----------

def _building_battle(*units, elements):
    from guerres_fleuries.test_battle_buildings import battle as building_battle
    return building_battle(*units, elements=elements)


HUT = {"id": "hut", "kind": "hameau", "name": "Hut", "material": "batiment_en_bois", "floors": 1,
       "points": [[80, 50], [90, 50], [90, 58], [80, 58]]}
HOUSE = {"id": "house", "kind": "hameau", "name": "Stone house", "material": "batiment_en_pierre", "floors": 2,
         "points": [[80, 50], [90, 50], [90, 58], [80, 58]]}


def test_eclair_at_a_wooden_building_deals_the_magic_damage_and_sets_it_alight():
    """l.1216: "Il ne peut prendre pour cible qu'une figurine (ou un bâtiment)"; l.802: "Dans le cas de la
    magie, le bâtiment subit 3 points de dégâts le 1er tour"; a lightning sets a flammable building alight
    (OR-GF121), so it burns in phase 8 (l.814)."""
    assert "(ou un bâtiment)" in line(1216)
    p = _priest(x=85, y=75)
    st = _building_battle(p, troop("e", "B", x=30, y=10), elements=[HUT])
    ev = magic_play.cast(st, "priest", "eclair", "hut", ByDie(d100=[1], d4=[4, 4, 4, 4]))
    assert ev[0]["success"] and st.buildings["hut"]["damage"] == 3 and st.buildings["hut"]["burning"]
    assert "GF seed 003 l.802" in ev[0]["citations"] and "OR-GF121" in ev[0]["citations"]
    assert any("catches fire" in s for s in ev[0]["explanation"])
    assert [e["type"] for e in st.log] == ["building_damage", "building_fire"]


def test_eclair_at_a_stone_building_damages_it_without_fire():
    p = _priest(x=85, y=75)
    st = _building_battle(p, troop("e", "B", x=30, y=10), elements=[HOUSE])
    ev = magic_play.cast(st, "priest", "eclair", "house", ByDie(d100=[1], d6=[6, 6, 6]))
    assert st.buildings["house"]["damage"] == 3 and not st.buildings["house"]["burning"]
    assert any("does not burn" in s for s in ev[0]["explanation"])


def test_secousses_at_a_building_deal_3_points_and_shake_the_units_against_it():
    """l.1308: "Le prêtre prend pour cible une unité ou un bâtiment … Ce sort inflige 3 points de dégâts à un
    édifice"; the units against it are struck (−3 to their fire this turn)."""
    assert "3 points de dégâts à un édifice" in line(1308)
    p = _priest(x=85, y=75)
    against = troop("against", "B", x=85, y=60, figures=10, figures_max=10, frontage=5, ranks=2, heading=0.0,
                    missile="arc")
    st = _building_battle(p, against, elements=[HUT])
    record(st, magic_play.cast(st, "priest", "secousses_telluriques_de_xiuhtecuhtli", "hut",
                               ByDie(d100=[1], d4=[1, 1, 1, 1])))
    assert st.buildings["hut"]["damage"] == 3 and not st.buildings["hut"]["burning"]
    assert lasting.has(st, "against", "fire_modifier")["modifier"] == "spell_secousses"


def test_a_spell_whose_text_names_no_building_is_not_cast_at_one():
    from oriflamme.core.errors import IllegalAction
    p = _priest(x=85, y=75)
    st = _building_battle(p, troop("e", "B", x=30, y=10), elements=[HUT])
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(st, "priest", "blessure", "hut", ByDie(d100=[1]))
    assert "l.1168" in exc.value.ref and not st.log and "hut" not in st.buildings


def test_the_engine_offers_and_accepts_a_cast_at_a_building():
    from oriflamme.rulesets.guerres_fleuries.battle import engine
    from oriflamme.rulesets.guerres_fleuries.battle.actions import Action
    p = _priest(x=85, y=75)
    st = _building_battle(p, troop("e", "B", x=30, y=10), elements=[HUT])
    offered = [a for a in engine.casts(st, "A") if a.target == "hut"]
    assert {a.spell for a in offered} == {"eclair", "secousses_telluriques_de_xiuhtecuhtli"}
    engine.check_cast(st, Action("cast", "A", unit="priest", spell="eclair", target="hut"))


# --- Vol d'Ehecatl: the character set down where the cast says (l.1320; OR-GF123) ---------------------------

def test_vol_d_ehecatl_sets_the_character_down_up_to_100_cm_away():
    """l.1320: "Le prêtre fait se déplacer instantanément de 100cm un personnage qui se trouve dans un rayon
    de 20cm"."""
    from oriflamme.core.errors import IllegalAction
    assert "instantanément de 100cm" in line(1320)
    p = _priest(x=85, y=100)
    hero = _hero("hero", "A", x=95, y=100, heading=0.0)
    st = battle(p, hero, troop("foe", "B", x=90, y=5, figures=2, figures_max=2, frontage=2, ranks=1))
    before = (hero.x, hero.y, list(st.log))
    for dest, ref in (((95, 8.0, None), "l.590"), ((5, 20.0, None), "l.1320"), ((179.5, 100.0, None), "l.628")):
        with pytest.raises(IllegalAction) as exc:  # too near the enemy, too far, off the table
            magic_play.cast(st, "priest", "vol_d_ehecatl", "hero", ByDie(d100=[1]), destination=dest)
        assert ref in exc.value.ref and (hero.x, hero.y, st.log) == before
    with pytest.raises(IllegalAction):
        magic_play.cast(st, "priest", "vol_d_ehecatl", "hero", ByDie(d100=[1]))  # no destination
    ev = magic_play.cast(st, "priest", "vol_d_ehecatl", "hero", ByDie(d100=[1]), destination=(95, 20.0, 90.0))
    assert ev[0]["success"] and (hero.x, hero.y, hero.heading) == (95, 20.0, 90.0)
    assert "OR-GF123" in ev[0]["citations"] and any("80.0 cm" in s for s in ev[0]["explanation"])


def test_a_destination_is_refused_for_any_other_spell():
    from oriflamme.core.errors import IllegalAction
    p = _priest(x=85, y=100)
    hero = _hero("hero", "A", x=95, y=100)
    st = battle(p, hero)
    with pytest.raises(IllegalAction):
        magic_play.cast(st, "priest", "aura_de_pouvoir", "hero", ByDie(d100=[1]), destination=(95, 60, None))
    assert hero.y == 100 and not st.log


def test_the_cast_action_carries_the_jump_destination_and_the_engine_offers_one():
    from oriflamme.rulesets.guerres_fleuries.battle import engine
    from oriflamme.rulesets.guerres_fleuries.battle.actions import action_from_json, choice_of
    a = action_from_json({"type": "cast", "side": "A", "unit": "priest", "spell": "vol_d_ehecatl", "target": "hero",
                          "x": 95, "y": 20})
    assert (a.x, a.y, a.heading) == (95.0, 20.0, None)
    assert action_from_json(a.to_json()) == a
    plain = action_from_json({"type": "cast", "side": "A", "unit": "priest", "spell": "blessure", "target": "foe"})
    assert plain.to_json() == {"type": "cast", "side": "A", "unit": "priest", "spell": "blessure", "target": "foe"}
    assert choice_of(a.to_json()) == choice_of({**a.to_json(), "x": 50, "y": 50})
    p = _priest(x=85, y=100)
    hero = _hero("hero", "A", x=95, y=100, heading=0.0)
    st = battle(p, hero, troop("foe", "B", x=90, y=5, figures=2, figures_max=2, frontage=2, ranks=1), phase=3)
    jumps = [x for x in engine.casts(st, "A") if x.spell == "vol_d_ehecatl"]
    assert jumps and all(x.x is not None for x in jumps)
    for x in jumps:
        engine.check_cast(st, x)


def test_the_cast_at_a_building_and_the_jump_are_described_and_previewed():
    from oriflamme.rulesets.guerres_fleuries.battle import explain
    from oriflamme.rulesets.guerres_fleuries.battle.actions import Action
    p = _priest(x=85, y=75)
    st = _building_battle(p, troop("e", "B", x=30, y=10), elements=[HUT])
    a = Action("cast", "A", unit="priest", spell="eclair", target="hut")
    assert "Hut" in explain.describe(st, a) and "Hut" in explain.describe(st, a, "fr")
    hero = _hero("hero", "A", x=95, y=100, heading=0.0)
    st = battle(_priest(x=85, y=100), hero)
    jump = Action("cast", "A", unit="priest", spell="vol_d_ehecatl", target="hero", x=95.0, y=20.0)
    assert "(95.0, 20.0)" in explain.describe(st, jump)
    assert magic_play.preview(st, "priest", "vol_d_ehecatl", "hero", destination=(95.0, 20.0, None))["percent"] > 0
    from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries
    assert explain.ruling(GuerresFleuries(), st, jump)["percent"] > 0  # the odds shown before the cast
