"""Overlapping units (GF seed 003 l.967-969 "Chevauchement d'unité"; OR-GF118): from the second turn of a
combat, the attacker's front-rank figures not engaged for lack of room fight on the enemy's flanks, without
the flank bonus; the overlapping winner does not pursue."""

from __future__ import annotations

from guerres_fleuries.battle_combat_kit import ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries.battle import melee_play, overlap
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _combat(previous: bool):
    # a line of 20 (10 files of 2 cm) against a line of 5 two ranks deep (5 files): front to front, centred
    a = troop("wide", "A", figures=20, figures_max=20, frontage=10, ranks=2, x=90, y=82, melee_weapon="maquahuitl")
    b = troop("narrow", "B", figures=10, figures_max=10, frontage=5, ranks=2, x=90, y=78, melee_weapon="maquahuitl")
    st = battle(a, b, phase=10)
    st.turn = 2
    if previous:
        st.log.append({"type": "melee", "turn": 1, "unit": "wide", "target": "narrow"})
    return st, a, b


def test_the_first_round_fights_with_the_figures_in_contact_only():
    assert "Si le combat se poursuit plus d'un tour" in line(969)
    st, a, b = _combat(previous=False)
    assert overlap.extra_figures(st, a, b) == (0, None)


def test_from_the_second_round_the_spare_files_overlap_onto_the_flanks():
    st, a, b = _combat(previous=True)
    slots = overlap.front_slots(a, b)
    n, side = melee_play.figures_in_contact(a, b)
    assert side == "front" and n == sum(slots)
    left, right = slots.index(True), slots[::-1].index(True)  # the files beyond the enemy's front, each side
    per_flank = int(4 // 2)  # the defender's depth (2 ranks of 2 cm) holds two of the attacker's 2 cm bases
    extra, step = overlap.extra_figures(st, a, b)
    assert extra == min(left, per_flank) + min(right, per_flank) > 0 and "l.967-969" in step
    sit, why = melee_play.situation(st, a, b)
    assert sit["figures_in_contact"] == n + extra
    assert not any(m["modifier"] == "flank" for m in sit.get("modifiers", []))  # "pas de bonus ... sur le flanc"
    plain = {**sit, "figures_in_contact": n}
    assert REF.adjudicate({**sit, "d100": 100})["multiplied_pct"] > REF.adjudicate({**plain, "d100": 100})["multiplied_pct"]
    # the defender does not overlap (it is the narrower) and is not disordered by it
    assert overlap.extra_figures(st, b, a)[0] == 0


def test_the_overlapping_winner_does_not_pursue():
    st, a, b = _combat(previous=True)
    b.figures = b.figures_max = 4
    b.frontage, b.ranks, b.y = 4, 1, 79  # one rank, its front still against the attacker's
    assert overlap.extra_figures(st, a, b)[0] > 0
    events = melee_play.resolve(st, ByDie(d100=[1] * 10, d4=[1] * 5, d6=[6] * 20))
    outcome = next(e for e in events if e["type"] == "melee_outcome")
    assert outcome["winner"] == "wide" and b.status in ("retreat", "rout", "removed", "destroyed")
    assert not any(e["type"] == "pursuit_declared" and e["unit"] == "wide" for e in events)
    if b.status in ("retreat", "rout"):
        assert any(e["type"] == "overlap_end" for e in events)
    assert "overlapping" not in a.markers and "pursuing" not in a.markers
