"""Fire frequency declarations (MC §5.1, §5.2) and defensive fire during the enemy's moves
(MC §5.3), on the map.

Geometry: on the open board, 0101 → 0102 → 0103 … walks straight south down column 01; the
shooters stand far to the south-east with clear lines of fire. Fire dice on foot targets without
cover (§5.4.3, column 2 = crossbow): 1 → C killed, 4 → B wounded, 6 → A, 10 → miss (then the
stray-shot die: 10 = the shot falls harmlessly, §5.4.5).
"""

from __future__ import annotations

import json

import pytest

from gamekit import H, ScriptedDice, game, fork
from oriflamme.rulesets.magna_carta.engine import Attack, EndStep, Fire, IllegalAction, Move, apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.actions import Decline, Declare, Designate, Volley
from oriflamme.rulesets.magna_carta.engine.defensive_fire import target_problem
from oriflamme.rulesets.magna_carta.engine.movement import allowance, points_left
from oriflamme.rulesets.magna_carta.engine.record import Game, replay
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE, GameState

OPEN = [". . . . . . . . . ."] * 10
MISS = [10, 10]        # crossbow miss, then a harmless stray shot
PATH = ("0102", "0103", "0104", "0105", "0106")


def _board(dice=None, ready=("x", "y", "z"), mover="spearman", extra=()):
    """Side A's movement step; B's shooters x, y, z declared defensive fire in their last phase."""
    chars = [("a", mover, "A", "0101"), ("f", "spearman", "A", "1001"), ("x", "crossbowman", "B", "0610"),
             ("y", "crossbowman", "B", "0810"), ("z", "crossbowman", "B", "1010")] + list(extra)
    st = game(OPEN, chars, step=MOVEMENT, dice=dice)
    st.defensive_fire.defensive_ready = set(ready)
    return st


# --- declarations (§5.1, §5.2) ----------------------------------------------------------------
def test_declaration_limits_movement_and_forbids_attack():
    """§5.1: an archer declaring offensive + defensive fire moves half (8 → 4 PM); §5.2: a
    character who declares his fire may not attack."""
    st = game(OPEN, [("a", "archer", "A", "0101"), ("b", "spearman", "B", "0102")], step=MOVEMENT)
    assert Declare("a", "offensive_and_defensive") in legal_actions(st)
    r = explain(st, Declare("a", "offensive_and_defensive"))
    assert r.legal and "half movement this phase, and no attack" in r.explanation[-1]
    apply(st, Declare("a", "offensive_and_defensive"))
    assert st.defensive_fire.declared == {"a": "offensive_and_defensive"} and st.phase.fire_limit == {"a": "half"}
    assert allowance(st, st.characters["a"]) == 4
    with pytest.raises(IllegalAction):
        apply(st, Move("a", ("0201", "0301", "0401", "0501", "0601")))
    st.step = MELEE
    with pytest.raises(IllegalAction) as e:
        apply(st, Attack(("a",), ("b",)))
    assert "declared" in e.value.reason and "§5.2" in e.value.reason


def test_declaration_refused_after_spending_more_than_its_limit():
    """§5.3: only those who respected the movement limit may fire defensively: an archer who
    already walked 5 hexes can no longer declare the half-movement frequency."""
    st = game(OPEN, [("a", "archer", "A", "0101"), ("b", "spearman", "B", "1010")], step=MOVEMENT)
    apply(st, Move("a", ("0102", "0103", "0104", "0105", "0106")))
    assert Declare("a", "offensive_and_defensive") not in legal_actions(st)
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        apply(st, Declare("a", "offensive_and_defensive"))
    assert "spent 5 PM" in e.value.reason and "§5.1" in e.value.ref
    assert st.digest() == before


def test_only_frequencies_with_defensive_fire_are_declared():
    """§5.1: the javelin is "offensif seulement": nothing to declare (firing declares it)."""
    st = game(OPEN, [("j", "javelinman", "A", "0101"), ("b", "spearman", "B", "1010")], step=MOVEMENT)
    assert not [a for a in legal_actions(st) if isinstance(a, Declare)]
    with pytest.raises(IllegalAction) as e:
        apply(st, Declare("j", "offensive_and_defensive"))
    assert "cannot declare" in e.value.reason


def test_who_is_ready_for_defensive_fire_after_his_phase():
    """§5.3: a crossbowman who fired offensively ("offensif OU défensif") has no defensive fire;
    an archer declared "offensif + défensif" has both; an undeclared archer who fired has none."""
    chars = [("x", "crossbowman", "A", "0101"), ("y", "archer", "A", "0301"), ("z", "archer", "A", "0501"),
             ("w", "crossbowman", "A", "0701"), ("b", "spearman", "B", "0810")]
    st = game(OPEN, chars, dice=MISS * 3)
    assert st.step == OFFENSIVE_FIRE
    apply(st, Declare("x", "offensive_or_defensive"))
    apply(st, Declare("y", "offensive_and_defensive"))
    apply(st, Declare("w", "offensive_or_defensive"))
    for s in ("x", "y", "z"):
        apply(st, Fire(s, "b"))
    assert st.phase.fire_limit == {"x": "none", "y": "half", "w": "none"}  # z keeps full movement
    while st.active == "A":
        apply(st, EndStep())
    assert st.defensive_fire.defensive_ready == {"y", "w"}
    st.dice = ScriptedDice([])
    while st.active == "B":  # B's phase ends: A's readiness is over
        apply(st, EndStep())
    assert st.defensive_fire.defensive_ready == set()


# --- the prompt ---------------------------------------------------------------------------------
def test_no_prompt_without_an_eligible_shooter():
    """§5.3: no ready shooter, or a ready one in contact with an enemy (§5.2): the move is not
    paused."""
    st = _board(ready=())
    apply(st, Move("a", PATH))
    assert not st.pending and st.characters["a"].hex == H("0106")
    st = _board(ready=("x",), extra=[("e", "spearman", "A", "0609")])  # e stands next to x
    apply(st, Move("a", PATH))
    assert not st.pending and st.characters["a"].hex == H("0106")


def test_prompt_pauses_the_move_and_lists_the_options():
    st = _board(ready=("x", "y"))
    apply(st, Move("a", PATH))
    assert st.to_act() == "B" and st.pending[0].kind == "defensive_fire"
    assert st.characters["a"].hex == H("0102")  # paused in the first hex entered
    assert legal_actions(st) == [Designate("x"), Designate("y"), Decline()]
    r = explain(st, Designate("x"))
    assert r.legal and abs(sum(r.probabilities.values()) - 1) < 1e-9
    assert "MC §5.3" in r.citations
    apply(st, Designate("x"))
    assert legal_actions(st) == [Designate("y"), Volley(), Decline()]
    assert "firing defensively" in explain(st, Volley()).explanation[0]


def test_declined_fire_lets_the_mover_reach_his_destination():
    st = _board(ready=("x",))
    apply(st, Move("a", PATH))
    while st.pending:
        apply(st, Decline())
    assert st.characters["a"].hex == H("0106") and st.phase.mp_spent["a"] == 5
    assert any(e["type"] == "defensive_fire" and "lets" in e["text"] for e in st.log)


def test_all_designated_shooters_roll_and_count_as_fired():
    """§5.3: every shooter designated rolls in turn; the mover killed on the second shot stops
    in the hex where he was shot."""
    st = _board(dice=MISS + [1])
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Designate("y"))
    apply(st, Volley())
    assert st.dice.values == [] and st.defensive_fire.df_fired == {"x", "y"}
    a = st.characters["a"]
    assert not a.alive and a.hex == H("0102") and not st.pending
    assert [e["shooter"] for e in st.log if e["type"] == "fire"] == ["x", "y"]


def wasted_shot_board():
    """Both shooters designated, then a man steps into y's line before the volley (as when the
    first shot unhorses a rider and he lands out of the second shooter's sight)."""
    st = _board(dice=MISS)
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Designate("y"))
    st.characters["f"].hex = H("0709")  # on both lines from y (0810) to the mover (0102), not on x's
    return st


def test_a_designated_shooter_who_can_no_longer_fire_wastes_his_shot():
    """§5.3: every designated shooter counts as having fired, "quel que soit le résultat"; one
    whose shot has become impossible rolls no die and his shot is wasted, with the reason."""
    st = wasted_shot_board()
    apply(st, Volley())
    assert st.dice.values == [] and st.defensive_fire.df_fired == {"x", "y"}
    wasted = [e for e in st.log if e["type"] == "defensive_fire" and "wasted" in e["text"]]
    assert wasted and wasted[0]["text"] == "Y's shot is wasted: A can no longer be shot at"
    assert "F in 0709 blocks the line of fire" in wasted[0]["ruling"]["reason"]
    assert [e["shooter"] for e in st.log if e["type"] == "fire"] == ["x"]


def test_shooters_designated_after_a_kill_still_count_as_fired():
    """§5.3: "le troisième tireur aura tout de même tiré" — no die for him, but he has fired."""
    st = _board(dice=[1])
    apply(st, Move("a", PATH))
    for s in ("x", "y", "z"):
        apply(st, Designate(s))
    apply(st, Volley())
    assert st.defensive_fire.df_fired == {"x", "y", "z"} and st.dice.values == []
    assert sum(1 for e in st.log if e["type"] == "defensive_fire" and "wasted" in e["text"]) == 2


# --- results during the move ------------------------------------------------------------------
def test_wounded_mover_goes_on_with_half_his_remaining_points():
    """§5.4.3 B (defensive): wounded, and half the points left (wounded allowance 4, 1 spent,
    3 left → 1)."""
    st = _board(dice=[4], ready=("x",))
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Volley())
    a = st.characters["a"]
    assert a.status == "wounded" and a.hex == H("0103") and not st.pending
    assert st.phase.mp_spent["a"] == 4 and points_left(st, a) == 0


def test_result_a_costs_two_points_and_the_move_is_cut_short():
    """§5.4.3 A (defensive): "pot. de mouvement réduit de 2 cases ce tour-ci": 8 PM − 2 = 6
    hexes of a 7-hex path."""
    st = _board(dice=[6], ready=("x",))
    apply(st, Move("a", PATH + ("0107", "0108")))
    apply(st, Designate("x"))
    apply(st, Volley())
    assert st.characters["a"].hex == H("0107") and st.phase.mp_spent["a"] == 8


def test_spacing_on_foot_unhurt_two_hexes():
    st = _board(dice=MISS)
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Volley())
    assert st.pending and st.pending[0].data["hex"] == "0104"  # 2 hexes further (§5.3)
    assert st.pending[0].data["eligible"] == ["y", "z"]


def test_spacing_on_foot_wounded_one_hex():
    st = _board(dice=[4])
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Volley())
    assert st.pending and st.pending[0].data["hex"] == "0103"  # wounded: 1 hex further


def test_spacing_mounted_three_hexes():
    """§5.3: a rider can be shot at again 3 hexes further (crossbow 10 vs mounted: miss)."""
    st = _board(dice=MISS, mover="knight")
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    apply(st, Volley())
    assert st.pending and st.pending[0].data["hex"] == "0105"
    assert target_problem(st, st.characters["a"]) is None


def test_no_return_to_a_previous_target():
    """§5.3 N.B.: once the defenders fired at a second mover, the first one is safe for the
    rest of the phase."""
    st = _board(dice=MISS * 2, extra=[("m", "spearman", "A", "0301")])
    apply(st, Move("a", ("0102", "0103")))
    apply(st, Designate("x"))
    apply(st, Volley())
    assert not st.pending and st.characters["a"].hex == H("0103")
    apply(st, Move("m", ("0302",)))
    apply(st, Designate("y"))
    apply(st, Volley())
    apply(st, Move("a", ("0104", "0105", "0106")))
    assert not st.pending and st.characters["a"].hex == H("0106")
    prob = target_problem(st, st.characters["a"])
    assert prob and "again this phase" in prob[0] and "§5.3" in prob[1]


# --- state, records, refusals -------------------------------------------------------------------
def test_json_round_trip_and_clone_in_the_middle_of_a_paused_move():
    st = _board(dice=MISS)
    apply(st, Move("a", PATH))
    apply(st, Designate("x"))
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.digest() == st.digest()
    copy = fork(st)
    for s in (st, back, copy):
        s.dice = ScriptedDice(MISS)
        apply(s, Volley())
    assert back.digest() == st.digest() == copy.digest()
    assert st.pending[0].data["hex"] == "0104"


def test_clone_does_not_share_the_paused_move():
    st = _board()
    apply(st, Move("a", PATH))
    other = fork(st)
    apply(other, Decline())
    assert st.pending[0].data["designated"] == [] and st.characters["a"].hex == H("0102")


def test_replay_of_a_record_with_declarations_and_defensive_fire():
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("x", "crossbowman", "B", "0610"),
                     ("y", "archer", "B", "0710")])
    g = Game(st.scenario, st.gmap, 5)
    while g.state.active == "A":
        g.apply(EndStep())
    g.apply(Declare("x", "offensive_or_defensive"))
    g.apply(Declare("y", "offensive_and_defensive"))
    while g.state.active == "B":
        g.apply(EndStep())
    assert g.state.defensive_fire.defensive_ready == {"x", "y"} and g.state.step == MOVEMENT
    g.apply(Move("a", PATH))
    while g.state.pending:  # designate every eligible shooter, then fire
        opts = legal_actions(g.state)
        g.apply(opts[0] if isinstance(opts[0], Designate) else Volley() if Volley() in opts else Decline())
    assert any(e["type"] == "defensive_volley" for e in g.state.log)
    rec = json.loads(json.dumps(g.record(reveal=True)))
    again = replay(rec, lambda d: (st.scenario, st.gmap))
    assert again.state.digest() == g.state.digest()


def test_illegal_answers_are_refused_with_the_rule():
    st = _board(ready=("x", "y"))
    with pytest.raises(IllegalAction, match="no pending designate"):
        apply(st, Designate("x"))
    apply(st, Move("a", PATH))
    before = st.digest()
    for bad in (Move("a", ("0103",)), Designate("z"), Volley(), EndStep()):
        with pytest.raises(IllegalAction) as e:
            apply(st, bad)
        assert "defensive fire" in e.value.reason and e.value.ref == "MC §5.3"
    apply(st, Designate("x"))
    with pytest.raises(IllegalAction):
        apply(st, Designate("x"))
    assert st.pending[0].data["designated"] == ["x"]
    assert st.digest() != before


def test_offensive_fire_still_keeps_the_most_permissive_movement():
    """§5.1 / SEED-NOTES §1: an undeclared archer who fires keeps full movement ("offensif
    seulement"); a slinger moves half."""
    st = game(OPEN, [("y", "archer", "A", "0101"), ("s", "slinger", "A", "0201"), ("b", "spearman", "B", "0810")],
              dice=MISS * 2)
    apply(st, Fire("y", "b"))
    apply(st, Fire("s", "b"))
    assert st.defensive_fire.declared == {"y": "offensive", "s": "offensive"} and st.phase.fire_limit == {"s": "half"}


def test_web_options_list_the_prompt_with_odds_and_the_declarations_apart():
    """The web hub shows the defensive fire prompt (each shooter with his odds) and keeps the
    optional declarations out of the prompts (they do not block the step)."""
    from oriflamme.rulesets.magna_carta.web_options import options
    st = _board(ready=("x",))
    apply(st, Move("a", PATH))
    o = json.loads(json.dumps(options(st)))
    assert [p["action"]["type"] for p in o["prompts"]] == ["designate", "decline"]
    assert abs(sum(o["prompts"][0]["ruling"]["probabilities"].values()) - 1) < 1e-9
    st = game(OPEN, [("a", "archer", "A", "0101"), ("b", "spearman", "B", "1010")], step=MOVEMENT)
    o = options(st)
    assert not o["prompts"] and [d["action"] for d in o["declarations"]] == [
        {"type": "declare", "char": "a", "fire": "offensive_and_defensive"}]


def test_a_character_declared_not_moving_may_be_shot_at_once():
    """§5.3 N.B.: « Il n'est pas possible d'effectuer un tir défensif contre un personnage qui
    n'a pas encore commencé à bouger, sauf si le joueur adverse déclare qu'il ne compte pas le
    déplacer ce tour-ci. »"""
    from oriflamme.rulesets.magna_carta.engine.actions import Stand
    st = _board(dice=[1], ready=("x",))
    st.characters["a"].hex = H("0105")
    assert Stand("a") in legal_actions(st)
    apply(st, Stand("a"))
    assert st.to_act() == "B" and st.pending[0].kind == "defensive_fire"
    assert legal_actions(st) == [Designate("x"), Decline()]
    apply(st, Designate("x"))
    apply(st, Volley())
    a = st.characters["a"]
    assert a.hex == H("0105") and a.status == "dead"  # the crossbow's 1 kills (§5.4.3)
    assert "a" in st.phase.stopped and "x" in st.defensive_fire.df_fired
    # he cannot move afterwards, nor be declared twice; nobody ready: no such option
    st2 = _board(ready=())
    assert Stand("a") not in legal_actions(st2)
    with pytest.raises(IllegalAction) as e:
        apply(st2, Stand("a"))
    assert "no enemy shooter is ready" in e.value.reason


def test_declared_not_moving_and_let_be():
    from oriflamme.rulesets.magna_carta.engine.actions import Stand
    st = _board(ready=("x",))
    st.characters["a"].hex = H("0105")
    apply(st, Stand("a"))
    apply(st, Decline())
    assert not st.pending and st.characters["a"].hex == H("0105") and "a" in st.phase.stopped
    assert any("does not fire at" in e["text"] for e in st.log)
    with pytest.raises(IllegalAction):
        apply(st, Move("a", ("0106",)))
