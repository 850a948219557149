"""The rarer rolls of the Magna Carta family read by result too (issue 14): a grab at the bridle
(§4.4.4), a knight's plea for quarter (§6.9), and a shot or an attack at a riderless horse (§6.8)
— the children by result give each state exactly the probability its faces give, with fewer
children than faces."""

from __future__ import annotations

from gamekit import H, game
from test_bridle_grab import OPEN, RIDE, grab_game
from test_chance_by_result import check
from test_ransom import ATTACK, knights

from oriflamme.core import registry
from oriflamme.rulesets.magna_carta.engine.actions import AskQuarter, AttackHorse, FireAtHorse, Grab, Move
from oriflamme.rulesets.magna_carta.engine.game import apply
from oriflamme.rulesets.magna_carta.engine.state import Horse

RS = registry.get("magna-carta")


def test_a_grab_at_the_bridle_has_two_children():
    st = grab_game()
    apply(st, Move("k", RIDE))  # paused by the horse: the grab prompt
    assert check(RS, st, Grab("k", "h")) == 2  # success (1-6) or failure (7-10), not ten faces


def test_a_plea_for_quarter_has_two_children_then_the_melee():
    st = knights()
    apply(st, ATTACK)  # the defender's side is asked before the melee die
    n = check(RS, st, AskQuarter("dreux"))
    assert n is not None and n < 10  # surrenders (1-4) as one child; fights on: the melee by its results


def test_a_shot_at_a_riderless_horse_is_read_by_result():
    st = game(OPEN, [("x", "crossbowman", "B", "0611"), ("a", "spearman", "A", "0605")], step="offensive_fire")
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, None)
    shot = FireAtHorse("x", "h")
    assert check(RS, st, shot) is not None
    results = {k for k, p in RS.explain(st, shot)["probabilities"].items() if p}
    kids = RS.chance_children(st, shot)
    assert len({o.dice[0] for o, _ in kids}) == len(results) < 10  # one first face per table result


def test_an_attack_on_a_riderless_horse_is_read_by_result():
    st = game(OPEN, [("e", "spearman", "B", "0608"), ("z", "spearman", "A", "1212")], step="melee")
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0607"), 0, None)
    n = check(RS, st, AttackHorse(("e",), "h"))
    assert n is not None and n < 10
