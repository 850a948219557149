"""Magic during the battle: the part-1 magic referee on the table (range measured, base contact,
one spell a turn), and the effects applied (Blessure, Bonté divine, Aura de pouvoir, a magic attack
disorders and tests morale)."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import magic_play
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _priest(**kw):
    base = dict(kind="character", type="Prêtre mineur", name="Ixtlil", figures=1, figures_max=1, frontage=1,
                ranks=1, x=90, y=90, FM=2, FC=2)
    base.update(kw)
    return troop("priest", "A", **base)


def test_preview_is_the_referee_with_the_distance_measured_on_the_table():
    p, foe = _priest(), troop("foe", "B", x=90, y=80, figures=10, figures_max=10, ranks=1)
    st = battle(p, foe)
    pre = magic_play.preview(st, "priest", "Blessure", "foe")
    gap = (90 - 1.0) - (80 + 1.0)  # the priest's front edge to the foe's front edge: 8 cm
    r = REF.adjudicate({"kind": "magic", "caster": "Prêtre mineur", "spell": "Blessure", "distance_cm": gap})
    assert pre["success_if_d100_below"] == r["threshold"] == 80 - 5 and pre["in_range"] and r["in_range"]
    assert "80%" in line(1140) and line(1164) == "« Blessure »" and "Difficulté : -5%" in line(1166)


def test_blessure_kills_a_warrior_the_target_is_disordered_and_tests():
    p, foe = _priest(), troop("foe", "B", x=90, y=80, figures=10, figures_max=10, ranks=1)
    st = battle(p, foe)
    events = magic_play.cast(st, "priest", "Blessure", "foe", ByDie(d100=[10], d4=[4]))
    assert events[0]["success"] and foe.figures == 9 and foe.disorder
    assert [e["type"] for e in events] == ["magic", "casualties", "morale"] and events[2]["cause"] == "magic_target"
    st.log.append({"type": "magic", "unit": "priest", "turn": st.turn})  # what the engine logs
    with pytest.raises(IllegalAction):
        magic_play.cast(st, "priest", "Blessure", "foe", ByDie(d100=[10]))  # one spell a turn (GF-J4)


def test_a_failure_reads_the_failure_table_and_out_of_range_is_refused():
    p, foe = _priest(), troop("foe", "B", x=90, y=80, figures=10, figures_max=10, ranks=1)
    st = battle(p, foe)
    events = magic_play.cast(st, "priest", "Blessure", "foe", ByDie(d100=[90, 50]))
    assert not events[0]["success"] and events[0]["ruling"]["failure_d100"] == 50 and foe.figures == 10
    far = troop("far", "B", x=90, y=30)
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(battle(p, far), "priest", "Blessure", "far", ByDie(d100=[10]))
    assert "out of range" in str(exc.value)


def test_healing_and_aura_on_characters():
    p = _priest()
    hero = troop("hero", "A", kind="character", type="Héros majeur", figures=1, figures_max=1, frontage=1,
                 ranks=1, x=95, y=90, FC=4, wounds=["cut", "serious"])
    st = battle(p, hero)
    magic_play.cast(st, "priest", "Bonté divine", "hero", ByDie(d100=[1]))
    assert hero.wounds == ["cut"]
    st.turn += 1
    magic_play.cast(st, "priest", "Aura de pouvoir", "hero", ByDie(d100=[1]))
    assert hero.FC == 6


def test_not_in_base_contact_except_the_hand_of_death():
    p = _priest(y=90)
    foe = troop("foe", "B", x=90, y=88, figures=10, figures_max=10, ranks=1)  # touching the priest
    st = battle(p, foe)
    with pytest.raises(IllegalAction) as exc:
        magic_play.cast(st, "priest", "Blessure", "foe", ByDie(d100=[10]))
    assert "Main de la mort" in str(exc.value)
