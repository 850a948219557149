"""The divine spells, the magic failure table and the divine intervention on the table (GF La magie, seed
003 l.1158-1320, l.1686-1711, l.155; OR-GF112…116): each effect from its seed text, refusals citing the
rule with the state unchanged, lasting effects read back from the log."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import fire_play, lasting, magic_play, morale_play, spells, turn
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _priest(**kw):
    base = dict(kind="character", type="Prêtre mineur", name="Ixtlil", figures=1, figures_max=1, frontage=1,
                ranks=1, x=90, y=90, FM=2, FC=2, armour="coton")
    base.update(kw)
    return troop("priest", "A", **base)


def _foe(uid="foe", **kw):
    base = dict(x=90, y=80, figures=10, figures_max=10, ranks=1)
    base.update(kw)
    return troop(uid, "B", **base)


def _record(st, events):
    """What the engine does with a cast's events: they go to the log (turn.record)."""
    from oriflamme.rulesets.guerres_fleuries.battle.actions import record
    record(st, events)


def test_every_spell_is_applied_or_listed_with_why_not():
    rows = spells.spell_effects()
    from oriflamme.rulesets.guerres_fleuries.magic import data
    assert set(rows) == set(data().spells)
    for r in rows.values():
        assert r.effect != "none" or r.note, r.id
    assert set(magic_play.APPLIED) == {k for k, r in rows.items() if r.effect != "none"}


def test_eclair_kills_a_warrior_and_gives_a_character_1d3_wounds():
    """l.1216: "Si c'est un soldat ordinaire, il meurt immédiatement. Si c'est un personnage, il jette 1d3
    blessure(s). L'unité à laquelle appartient la figurine doit tester immédiatement son moral." """
    assert "1d3 blessure" in line(1216)
    p, foe = _priest(), _foe(y=70)
    st = battle(p, foe)
    ev = magic_play.cast(st, "priest", "eclair", "foe", ByDie(d100=[1], d4=[4]))
    assert ev[0]["success"] and foe.figures == 9 and [e["type"] for e in ev] == ["magic", "casualties", "morale"]
    hero = troop("hero", "B", kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                 x=90, y=70, armour="coton")
    st = battle(_priest(), hero)
    ev = magic_play.cast(st, "priest", "eclair", "hero", ByDie(d100=[1, 30, 30], d3=[2], d4=[2, 2]))
    assert [e["type"] for e in ev].count("wound") == 2 and hero.wounds == ["light", "light"]  # the d3 rolled 2
    assert ev[0]["rolls"] == [{"die": 3, "roll": 2}]


def test_main_de_la_mort_needs_base_contact_and_gives_three_wounds():
    """l.1258: "Lorsque le prêtre est au corps-à-corps … Si c'est un personnage ou un monstre, il subit 3
    blessures"; l.1136: the only spell cast in base contact."""
    hero = troop("hero", "B", kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                 x=90, y=70, armour="coton")
    st = battle(_priest(), hero)
    before = (hero.wounds[:], st.log[:])
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(st, "priest", "main_de_la_mort", "hero", ByDie(d100=[1]))
    assert "l.1258" in exc.value.ref and (hero.wounds, st.log) == before
    hero.y = 90 - 2.5  # base to base with the priest's front
    ev = magic_play.cast(st, "priest", "main_de_la_mort", "hero", ByDie(d100=[1, 30, 30, 30], d4=[2, 2, 2]))
    assert ev[0]["success"] and [e["type"] for e in ev].count("wound") == 3


def test_cauchemars_lasts_three_turns_on_every_morale_test():
    """l.1192: "une unité qui subit pendant 3 tours un malus de -4 à tous ses jets de moral" (OR-GF112)."""
    p, foe = _priest(), _foe(y=60)
    st = battle(p, foe)
    ev = magic_play.cast(st, "priest", "cauchemars", "foe", ByDie(d100=[1], d4=[4]))
    _record(st, ev)
    assert lasting.has(st, "foe", "morale_modifier")["until_turn"] == st.turn + 2
    sit, why = morale_play.situation(st, foe, "fire_losses")
    assert {"modifier": "spell_cauchemars", "count": 1} in sit["modifiers"]
    r = REF.adjudicate({**sit, "d4": 3})
    plain = dict(sit)
    plain["modifiers"] = [m for m in sit["modifiers"] if m["modifier"] != "spell_cauchemars"]
    assert r["score"] == REF.adjudicate({**plain, "d4": 3})["score"] - 4
    st.turn += 3
    sit, _ = morale_play.situation(st, foe, "fire_losses")
    assert {"modifier": "spell_cauchemars", "count": 1} not in sit.get("modifiers", [])


def test_fanatisme_spares_the_unit_its_morale_tests_for_two_turns():
    p, friend = _priest(), troop("friend", "A", x=90, y=75, figures=10, figures_max=10, ranks=1)
    st = battle(p, friend, _foe(y=20))
    _record(st, magic_play.cast(st, "priest", "fanatisme", "friend", ByDie(d100=[1])))
    ev = morale_play.test(st, "friend", "fire_losses", ByDie())  # no d4 rolled
    assert ev["result"] is None and "no morale test" in ev["explanation"][0]
    st.turn += 2
    assert morale_play.test(st, "friend", "fire_losses", ByDie(d4=[4]))["d4"] == 4


def test_the_shield_of_tezcatlipoca_stops_every_missile():
    """l.1180: "un bouclier invisible qui arrête tous les missiles pendant deux tours"."""
    p = _priest(x=90, y=60)
    hero = troop("hero", "A", kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                 x=95, y=60)
    archers = troop("archers", "B", missile="arc", order="tirer", x=90, y=40)
    st = battle(p, hero, archers)
    assert fire_play.eligibility(st, archers, hero)["eligible"]
    _record(st, magic_play.cast(st, "priest", "bouclier_de_tezcatlipoca", "hero", ByDie(d100=[1])))
    e = fire_play.eligibility(st, archers, hero)
    assert not e["eligible"] and "GF seed 003 l.1180" in e["citations"]


def test_the_prayer_for_honour_rallies_a_routing_unit_and_only_one():
    """l.1296: "Le prêtre rallie automatiquement une unité qui déroute"."""
    p, friend = _priest(), troop("friend", "A", x=90, y=75, figures=10, figures_max=10, ranks=1)
    st = battle(p, friend)
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(st, "priest", "priere_pour_l_honneur", "friend", ByDie(d100=[1]))
    assert "l.1296" in exc.value.ref and friend.status == "ok" and not st.log
    friend.status = "rout"
    magic_play.cast(st, "priest", "priere_pour_l_honneur", "friend", ByDie(d100=[1]))
    assert friend.status == "ok" and friend.disorder and friend.order == "reformer"


def test_destin_funeste_kills_the_figures_rolling_above_60():
    """l.1210: "Jetez 1d100 pour chaque figurine qui meurt sur un jet supérieur à 60%… Les survivants sont en
    désordre et doivent tester leur moral avec un malus de -4." """
    p, foe = _priest(), _foe(y=70, figures=5, figures_max=5)
    st = battle(p, foe)
    ev = magic_play.cast(st, "priest", "destin_funeste", "foe", ByDie(d100=[1, 61, 60, 100, 1, 99], d4=[4]))
    assert foe.figures == 2 and foe.disorder  # 61, 100, 99 > 60
    morale = [e for e in ev if e["type"] == "morale"][0]
    assert [m["value"] for m in morale["ruling"]["modifiers"] if m["modifier"] == "spell_destin_funeste"] == [-4]


@pytest.mark.parametrize("roll, check", [
    (42, lambda st, p: len(p.wounds) == 1),
    (67, lambda st, p: len(p.wounds) == 2),
    (100, lambda st, p: p.status == "destroyed"),
])
def test_the_failure_table_is_applied_at_once(roll, check):
    """l.1154: "Si le sort échoue alors le joueur fait un jet sur la table des échecs magiques et on applique
    les effets immédiatement" (l.1692, l.1695, l.1698)."""
    p, foe = _priest(), _foe(y=80)
    st = battle(p, foe)
    # the spell's d100 99 fails; the failure d100; the lightning's d100 (25 or less hits); the wounds' dice
    magic_play.cast(st, "priest", "blessure", "foe", ByDie(d100=[99, roll, 25, 30, 30], d4=[2, 2]))
    assert check(st, p)


def test_the_gods_silence_forbids_casting_for_two_more_turns():
    """l.1693: "Ils ne répondront plus pendant 2 tours" (OR-GF113)."""
    p, foe = _priest(), _foe(y=80)
    st = battle(p, foe)
    _record(st, magic_play.cast(st, "priest", "blessure", "foe", ByDie(d100=[99, 50])))
    for later in (1, 2):
        st.turn += 1
        with pytest.raises(IllegalAction) as exc:
            magic_play.preview(st, "priest", "blessure", "foe")
        assert "l.1693" in exc.value.ref
    st.turn += 1
    assert magic_play.preview(st, "priest", "blessure", "foe")["in_range"]


def test_the_flash_dazzles_the_units_around_the_priest():
    """l.1690: "Elles sont mises en désordre et ne peuvent plus bouger, tirer ou charger" (5 cm: a 10 cm
    diameter, GF-J3)."""
    p = _priest()
    near = troop("near", "A", missile="arc", order="tirer", x=90, y=94.5, figures=10, figures_max=10, ranks=1)
    foe = _foe(y=80)
    st = battle(p, near, foe)
    _record(st, magic_play.cast(st, "priest", "blessure", "foe", ByDie(d100=[99, 17])))
    assert near.disorder and not fire_play.can_fire(st, near)[0]
    st.phase = 6
    near.order = "avancer"
    assert near not in turn.movers(st, "A")


def test_the_priest_swallowed_makes_his_friends_within_15_cm_test_at_minus_4():
    p = _priest()
    friend = troop("friend", "A", x=90, y=100, figures=10, figures_max=10, ranks=1)
    foe = _foe(y=80)
    st = battle(p, friend, foe)
    ev = magic_play.cast(st, "priest", "blessure", "foe", ByDie(d100=[99, 97], d4=[4]))
    assert p.status == "destroyed"
    m = [e for e in ev if e["type"] == "morale"]
    assert [e["unit"] for e in m] == ["friend"]
    assert any("swallowed" in s for s in m[0]["explanation"])


def test_a_priest_casts_only_the_spells_he_chose():
    """l.1136: "Il peut choisir avant le début de la bataille n'importe quel(s) sort(s)… le nombre est limité
    par son niveau" (OR-GF114)."""
    p, foe = _priest(spells=["blessure"]), _foe(y=80)
    st = battle(p, foe)
    with pytest.raises(IllegalAction) as exc:
        magic_play.preview(st, "priest", "eclair", "foe")
    assert "l.1136" in exc.value.ref and "did not choose" in exc.value.reason
    assert magic_play.preview(st, "priest", "blessure", "foe")["in_range"]


def test_the_intervention_divine_spell_heals_1d4_wounds_not_the_priest_himself():
    """l.1246: "Le prêtre peut guérir 1d4 blessure sur un seul personnage de son choix. Il ne peut pas en
    bénéficier lui-même." """
    p = _priest(wounds=["light"])
    with pytest.raises(IllegalAction):
        magic_play.preview(battle(p), "priest", "intervention_divine", "priest")
    hero = troop("hero", "A", kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                 x=95, y=90, wounds=["light", "serious", "cut"])
    st = battle(p, hero)
    ev = magic_play.cast(st, "priest", "intervention_divine", "hero", ByDie(d100=[1], d4=[2]))
    assert hero.wounds == ["cut"] and ev[0]["rolls"] == [{"die": 4, "roll": 2}]


def test_the_army_document_names_the_spells_chosen():
    """l.1136: the spells are chosen before the battle; the army lists them by name (OR-GF114)."""
    from oriflamme.rulesets.guerres_fleuries.battle.muster import _spells
    assert _spells(["Eclair", "Blessure"]) == ["eclair", "blessure"]
    assert _spells(2) == []  # a count names none: any spell the battle plays


def test_promptitude_doubles_the_move_of_the_turn():
    """l.1302: "Le bénéficiaire, un personnage ou une unité, peut doubler son mouvement" (OR-GF112: the turn it
    is cast)."""
    p = _priest()
    friend = troop("friend", "A", x=90, y=75, figures=10, figures_max=10, ranks=1, order="avancer")
    st = battle(p, friend, _foe(y=20), phase=6)
    before = turn.move_budget(friend, st)[0]
    _record(st, magic_play.cast(st, "priest", "promptitude_de_yacatecuhtli", "friend", ByDie(d100=[1])))
    budget, _, _, steps = turn.move_budget(friend, st)
    assert budget == 2 * before and "GF seed 003 l.1302" in [s["ref"] for s in steps]
    st.turn += 1
    assert turn.move_budget(friend, st)[0] == before
