"""Interpenetration and fire (GF seed 003 l.638-642): "Toutes les troupes peuvent traverser, ou être
traversées par, des guerriers en ordre lâche, des personnages. Dans tous les cas, une seule des deux unités
concernées pourra tirer." Any other crossing of friends disorders both, which "ne peuvent plus tirer"
(OR-GF117: when both are ordered to fire after a free crossing, the unit crossed fires)."""

from __future__ import annotations

from guerres_fleuries.battle_combat_kit import battle, troop
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries.battle import fire_play, turn


def _pair(open_order: bool):
    mover = troop("mover", "A", missile="arc", order="tirer", x=90, y=90, figures=10, figures_max=10, ranks=1)
    crossed = troop("crossed", "A", missile="arc", order="tirer", x=90, y=80, figures=10, figures_max=10, ranks=1)
    if open_order:
        crossed.set_formation("open")
    foe = troop("foe", "B", x=90, y=40)
    st = battle(mover, crossed, foe, phase=6)
    turn.interpenetration(st, mover, crossed.footprint())
    return st, mover, crossed


def test_through_open_order_only_one_of_the_two_fires():
    assert "une seule des deux unités concernées pourra tirer" in line(640)
    st, mover, crossed = _pair(open_order=True)
    assert not mover.disorder and not crossed.disorder
    assert fire_play.can_fire(st, crossed)[0]
    ok, why = fire_play.can_fire(st, mover)
    assert not ok and "only one may fire" in why
    crossed.order = "attendre"  # the crossed unit does not fire: the mover may
    assert fire_play.can_fire(st, mover)[0]
    st.turn += 1  # the next turn both fire again
    crossed.order = "tirer"
    assert fire_play.can_fire(st, mover)[0]


def test_through_close_order_both_are_disordered_and_neither_fires():
    assert "ne peuvent plus tirer" in line(642)
    st, mover, crossed = _pair(open_order=False)
    assert mover.disorder and crossed.disorder
    assert not fire_play.can_fire(st, mover)[0] and not fire_play.can_fire(st, crossed)[0]
    ev = [e for e in st.log if e["type"] == "disorder"][-1]
    assert ev["ref"] == "GF seed 003 l.638-642"
