"""Rules tests on the map: each is a small cited scenario (set up, act, assert).

Geometry reminder (odd-q, flat-topped): the neighbours of 0302 are N 0301, NE 0401, SE 0402,
S 0303, SW 0202, NW 0201; those of 0202 are N 0201, NE 0302, SE 0303, S 0203, SW 0103, NW 0102.
"""

from __future__ import annotations

import pytest

from gamekit import H, ScriptedDice, game
from oriflamme.rulesets.magna_carta.engine import Attack, EndStep, Fire, IllegalAction, Move, apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.actions import Advance, Casualty, Decline, Retreat
from oriflamme.rulesets.magna_carta.engine.movement import allowance, points_left, reachable
from oriflamme.rulesets.magna_carta.engine.record import Game
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE

OPEN = [". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . ."]


# --- movement -------------------------------------------------------------------------------
def test_terrain_costs_and_allowance():
    """§3.1 / §4: brush costs 2 on foot; an unarmoured man on foot has 8 PM."""
    st = game([". b b b b b b .", ". . . . . . . ."], [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0802")])
    c = st.characters["a"]
    assert st.step == MOVEMENT  # no shooter: the fire step was passed
    assert allowance(st, c) == 8
    r = reachable(st, c)
    assert r[H("0201")][0] == 2  # brush
    assert r[H("0102")][0] == 1  # clear
    assert r[H("0601")][0] == 7  # 0102 0202 0302 0402 0502 (clear) then 0601 (brush)


def test_rain_reduces_allowance():
    """§3.2: rain keeps 3/4 of the movement points, rounded down (8 → 6)."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0805")], weather="rain")
    assert allowance(st, st.characters["a"]) == 6


def test_armoured_cannot_enter_deep_shallows_and_reason_is_cited():
    """§3.1 / D14: Bas Fonds are impassable for armoured characters; state unchanged."""
    st = game([". = . .", ". . . ."], [("a", "man_at_arms", "A", "0101"), ("b", "spearman", "B", "0402")])
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("a", ("0201",)))
    assert "impassable" in e.value.reason and "D14" in e.value.ref
    assert st.digest() == before


def test_one_live_character_per_hex_but_friends_can_be_crossed():
    """§4.1: pass through a friend, never end on him."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("f", "spearman", "A", "0102"), ("b", "spearman", "B", "0805")])
    with pytest.raises(IllegalAction, match="one live character per hex"):
        apply(st, Move("a", ("0102",)))
    apply(st, Move("a", ("0102", "0103")))
    assert st.characters["a"].hex == H("0103")


def test_enemy_hex_cannot_be_crossed_unless_stunned():
    """§4.2: enemies block movement unless stunned or dead."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0102"), ("c", "spearman", "B", "0805")])
    with pytest.raises(IllegalAction, match="enemy"):
        apply(st, Move("a", ("0102", "0103")))
    st.characters["b"].status = "stunned"
    # crossing 0102 next to nobody active: no infiltration test needed
    apply(st, Move("a", ("0102", "0103")))
    assert st.characters["a"].hex == H("0103")


def test_infiltration_test_on_crossed_hex_only():
    """§4.3 Example 1: crossing a hex next to an enemy triggers one test (1D10 per enemy);
    the final hex next to him does not; the same enemy cannot test twice in the phase."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0303")], dice=[3])
    # 0101 → 0202 (adjacent to 0303) → 0203 (adjacent to 0303): one test, at 0202 only
    apply(st, Move("a", ("0201", "0202", "0203")))
    tests = [e for e in st.log if e["type"] == "infiltration"]
    assert len(tests) == 1 and tests[0]["hex"] == "0202"
    assert tests[0]["ruling"]["result"] == "none"
    assert st.characters["a"].hex == H("0203")


@pytest.mark.parametrize("die,result,where,status", [
    (6, "stop", "0202", "healthy"),
    (10, "killed", "0202", "dead"),
])
def test_infiltration_results(die, result, where, status):
    """§4.3.1: 6-7 stops the move, 10 kills."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0303")], dice=[die])
    apply(st, Move("a", ("0201", "0202", "0203")))
    a = st.characters["a"]
    assert a.hex == H(where) and a.status == status
    if a.alive:
        assert points_left(st, a) == 0  # stopped for the phase


def test_infiltration_wounded_continues_within_wounded_allowance():
    """§4.3.1: 8-9 wounds; Oriflamme lets him go on if his wounded allowance is not spent."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0303")], dice=[8])
    apply(st, Move("a", ("0201", "0202", "0203")))
    a = st.characters["a"]
    assert a.status == "wounded" and a.hex == H("0203")


# --- fire -----------------------------------------------------------------------------------
def test_fire_blocked_by_tree_and_allowed_over_brush():
    """§5.5.2.2: trees between shooter and target block; §5.5.2.1 brush gives light cover."""
    rows = [". . . . . . . .", ". . T . b . . .", ". . . . . . . ."]
    st = game(rows, [("s", "archer", "A", "0102"), ("t", "spearman", "B", "0702")], step=OFFENSIVE_FIRE)
    r = explain(st, Fire("s", "t"))
    assert not r.legal and "blocks" in r.reason
    st2 = game([". . . . . . . .", ". . b . . . . .", ". . . . . . . ."],
               [("s", "archer", "A", "0102"), ("t", "spearman", "B", "0702")], step=OFFENSIVE_FIRE)
    r2 = explain(st2, Fire("s", "t"))
    assert r2.legal and r2.data["cover"] == "light"


def test_crossbow_cannot_fire_over_a_character_but_bow_can_at_medium_range():
    """§5.5.3: crossbows never fire over live characters; archers may at medium or long range
    when the target has light cover at most and is not in contact with the shooter's side."""
    row = ". " * 20
    st = game([row, row], [("x", "crossbowman", "A", "0101"), ("f", "spearman", "A", "0301"),
                           ("t", "spearman", "B", "1501")], step=OFFENSIVE_FIRE)
    assert "blocks" in explain(st, Fire("x", "t")).reason
    st = game([row, row], [("s", "archer", "A", "0101"), ("f", "spearman", "A", "0301"),
                           ("t", "spearman", "B", "1501")])
    r = explain(st, Fire("s", "t"))
    assert r.legal and r.data["band"] == "medium"
    st = game([row, row], [("s", "archer", "A", "0101"), ("f", "spearman", "A", "0301"),
                           ("t", "spearman", "B", "0701")], step=OFFENSIVE_FIRE)
    assert "medium or long" in explain(st, Fire("s", "t")).reason


def test_no_fire_in_contact():
    """§5.2: a character adjacent to an enemy able to attack him cannot fire."""
    st = game(OPEN, [("s", "archer", "A", "0101"), ("e", "spearman", "B", "0102"), ("t", "spearman", "B", "0505")],
              step=OFFENSIVE_FIRE)
    assert not [a for a in legal_actions(st) if isinstance(a, Fire)]
    assert "contact" in explain(st, Fire("s", "t")).reason


def test_fire_kill_and_movement_limit():
    """§5.4.3: short bow at 5 hexes vs foot, no cover: die 1 → C (killed).
    §5.1: a longbowman who fired offensively moves at half allowance."""
    st = game(OPEN, [("s", "longbowman", "A", "0103"), ("t", "spearman", "B", "0603"), ("u", "spearman", "B", "0805")], dice=[1])
    assert st.step == OFFENSIVE_FIRE
    apply(st, Fire("s", "t"))
    assert st.characters["t"].status == "dead"
    assert st.step == MOVEMENT  # no other shot possible: the fire step is passed
    assert allowance(st, st.characters["s"]) == 4


def test_fire_result_a_retreats_two_hexes_away_from_the_shooter():
    """§5.4.3 A: the target retreats 2 hexes, the first step away from the fire (§4.3 Ex. 4)."""
    # longbow at 4 hexes (short, +0), no cover: die 5 → column 3 row "8 6 5 4" → A
    st = game(OPEN, [("s", "longbowman", "A", "0103"), ("t", "spearman", "B", "0503"), ("u", "spearman", "B", "0805")], dice=[5])
    apply(st, Fire("s", "t"))
    assert st.pending and st.pending[0].kind == "retreat" and st.pending[0].side == "B"
    opts = legal_actions(st)
    assert all(isinstance(a, Retreat) for a in opts)
    for a in opts:
        end = H(a.path[-1])
        assert end.distance(H("0503")) == 2
        assert H(a.path[0]).distance(H("0103")) > 4
    apply(st, opts[0])
    assert st.characters["t"].hex == H(opts[0].path[-1])


# --- melee ----------------------------------------------------------------------------------
def melee_game(chars, dice, **kw):
    return game(OPEN, chars, dice=dice, step=MELEE, **kw)


def test_attack_odds_and_armour():
    """§6 / §6.3: 12 vs 9 is 1-1; an armoured defender gives +1 to the die."""
    st = melee_game([("a", "man_at_arms", "A", "0302"), ("d", "man_at_arms", "B", "0303")], dice=[])
    r = explain(st, Attack(("a",), ("d",)))
    assert r.data["odds"] == "1-1" and r.data["die_modifier"] == 1


def test_several_attackers_shift_one_column():
    """§6.2: attacking together adds the attacks and shifts one column right."""
    st = melee_game([("a", "spearman", "A", "0302"), ("b", "spearman", "A", "0202"), ("d", "spearman", "B", "0303")], dice=[])
    r = explain(st, Attack(("a", "b"), ("d",)))
    assert r.data["odds"] == "2-1" and r.data["column"] == "3-1"


def test_defender_retreats_and_attacker_advances():
    """§6.5 C and §6.6: the defender retreats one hex; the victor may advance up to 2 hexes,
    the first into the hex the enemy left."""
    # 8 vs 6 = 1-1, die 2 → C
    st = melee_game([("a", "spearman", "A", "0302"), ("d", "spearman", "B", "0303")], dice=[2])
    apply(st, Attack(("a",), ("d",)))
    assert st.pending[0].kind == "retreat"
    r = legal_actions(st)[0]
    apply(st, r)
    assert st.characters["d"].hex != H("0303")
    assert st.pending and st.pending[0].kind == "advance" and st.pending[0].side == "A"
    adv = [a for a in legal_actions(st) if isinstance(a, Advance)]
    assert adv and all(a.path[0] == "0303" for a in adv) and any(len(a.path) == 2 for a in adv)
    assert any(isinstance(a, Decline) for a in legal_actions(st))
    apply(st, [a for a in adv if len(a.path) == 1][0])
    assert st.characters["a"].hex == H("0303")


def test_stunned_then_wounded_is_dead_and_stunned_forced_to_retreat_is_dead():
    """§6.5 "Important": stunned or wounded again → dead; stunned forced to retreat → dead."""
    st = melee_game([("a", "spearman", "A", "0302"), ("b", "spearman", "A", "0401"), ("d", "spearman", "B", "0303"),
                     ("e", "spearman", "B", "0402")], dice=[1, 2])
    apply(st, Attack(("a",), ("d",)))       # 8 vs 6: 1-1, die 1 → D stunned
    assert st.characters["d"].status == "stunned"
    apply(st, Decline()) if st.pending else None
    st.characters["e"].status = "stunned"
    apply(st, Attack(("b",), ("e",)))       # 8 vs 1 (stunned defence): 8-1, die 2 → F killed
    assert st.characters["e"].status == "dead"


def test_stunned_recovers_at_the_end_of_his_next_phase():
    """§2.1 (4): friends stunned during the enemy's phase get back up at the end of their own."""
    st = melee_game([("a", "spearman", "A", "0302"), ("d", "spearman", "B", "0303")], dice=[1])
    apply(st, Attack(("a",), ("d",)))
    assert st.characters["d"].status == "stunned"
    stun_phase = st.phase_no
    while st.pending:
        apply(st, Decline())
    # nothing else to do: A's combat step ends, B's phase runs (d cannot act), then d gets up
    ups = [e for e in st.log if e["type"] == "status" and "back on his feet" in e["text"]]
    assert len(ups) == 1 and ups[0]["phase"] == stun_phase + 1 and ups[0]["side"] == "B"
    assert st.characters["d"].status == "healthy"


def test_attacker_retreats_on_b_and_cannot_retreat_next_to_enemy_combatants():
    """§6.5 B: the attacker retreats 1; a retreat cannot end next to an enemy of the combat
    (§4.3); a character who cannot retreat is wounded (§6.5 (§))."""
    # attacker in a pocket: every free neighbour of 0202 is next to d (0203) or a house
    rows = [". H H . .", ". . H . .", ". . . . .", ". . . . ."]
    st = game(rows, [("a", "spearman", "A", "0202"), ("d", "spearman", "B", "0203"), ("f", "spearman", "B", "0102")],
              dice=[4], step=MELEE)
    # 8 vs 6+6? attack only d: 8 vs 6 = 1-1, die 4 → B: attacker retreats
    apply(st, Attack(("a",), ("d",)))
    a = st.characters["a"]
    assert a.status == "wounded" and a.hex == H("0202")


def test_combat_restriction_armoured_cannot_attack_into_water():
    """§6.7: a soldier in armour cannot attack a character in a water hex."""
    st = game([". w . .", ". . . ."], [("a", "man_at_arms", "A", "0102"), ("d", "spearman", "B", "0201")], step=MELEE)
    r = explain(st, Attack(("a",), ("d",)))
    assert not r.legal and "6.7" in r.reason


def test_casualty_choice_goes_to_the_side_hit():
    """§6.2: when several defenders are hit, their side chooses who takes it; §6.3 it must be
    an unarmoured one if they are not all armoured."""
    st = melee_game([("a", "knight_on_foot", "A", "0302"), ("d", "spearman", "B", "0303"), ("e", "spearman", "B", "0402")],
                    dice=[1])
    # 20 vs 12 = 1-1, die 1 → D (stun): B chooses
    apply(st, Attack(("a",), ("d", "e")))
    assert st.pending[0].kind == "casualty" and st.pending[0].side == "B"
    apply(st, Casualty("e"))
    assert st.characters["e"].status == "stunned" and st.characters["d"].status == "healthy"


def test_illegal_attack_refused_with_rule_and_state_unchanged():
    """§6: attacks below 1-1 are impossible (SEED-NOTES D2)."""
    st = melee_game([("a", "peasant", "A", "0302"), ("d", "knight_on_foot", "B", "0303")], dice=[])
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        apply(st, Attack(("a",), ("d",)))
    assert "1-1" in str(e.value) and "D2" in str(e.value)
    assert st.digest() == before


# --- sequence, undo -----------------------------------------------------------------------
def test_turn_sequence_alternates_and_ends_at_the_limit():
    """§2.1: A's phase (fire, move, combat), then B's; the game ends after the last turn."""
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0805")], turns=2,
              victory={"rout_fraction": 1.0, "objectives": ["0101"], "objective_side": "A", "objective_count": 1, "otherwise": "B"})
    seen = []
    while not st.over:
        seen.append((st.turn, st.active, st.step))
        apply(st, EndStep())
    assert seen[0] == (1, "A", MOVEMENT) and (1, "B", MOVEMENT) in seen and (2, "A", MOVEMENT) in seen
    assert st.winner == "A"  # a still stands on 0101


def test_undo_until_a_die_is_rolled():
    """Undo takes back actions that revealed no die; a roll clears it."""
    from gamekit import board
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0303")])
    g = Game(st.scenario, st.gmap, 3)
    g.apply(Move("a", ("0102",)))
    assert g.can_undo
    g.undo()
    assert g.state.characters["a"].hex == H("0101") and g.actions == []
    g.apply(Move("a", ("0201", "0202", "0203")))   # crosses 0202 next to b: a die is rolled
    assert not g.can_undo
    with pytest.raises(IllegalAction):
        g.undo()


# --- stray shots (§5.4.5, SEED-NOTES D18) ---------------------------------------------------------
def stray_game(dice, victim_type="spearman", rows=None):
    # longbow at 5 hexes, die 10: a miss; the second die names a hex around the target (0603):
    # 1 N 0602, 2 NE 0702, 3 SE 0703, 4 S 0604, 5 SW 0503, 6 NW 0502
    return game(rows or OPEN, [("s", "longbowman", "A", "0103"), ("t", "spearman", "B", "0603"),
                               ("v", victim_type, "B", "0602"), ("u", "spearman", "B", "0805")],
                dice=dice, step=OFFENSIVE_FIRE)


def test_stray_shot_wounds_whoever_stands_in_the_numbered_hex():
    """§5.4.5: after a miss, 1-6 on a second die: the projectile ends in that hex; a character
    there is wounded."""
    st = stray_game([10, 1])
    apply(st, Fire("s", "t"))
    ev = [e for e in st.log if e["type"] == "stray_shot"][-1]
    assert "strikes V in 0602" in ev["text"] and st.characters["v"].status == "wounded"
    assert "MC §5.4.5" in ev["ruling"]["citations"]


def test_stray_shot_seven_to_ten_does_nothing():
    """D18: 7-10 on the second die: nothing."""
    st = stray_game([10, 7])
    apply(st, Fire("s", "t"))
    assert st.characters["v"].status == "healthy"
    assert "falls harmlessly" in [e for e in st.log if e["type"] == "stray_shot"][-1]["text"]


def test_stray_shot_makes_an_armoured_character_retreat():
    """§5.4.5: a character in armour is not wounded but retreats 2 hexes at once."""
    st = stray_game([10, 1], victim_type="man_at_arms")
    apply(st, Fire("s", "t"))
    assert st.characters["v"].status == "healthy"
    assert st.pending and st.pending[0].kind == "retreat" and st.pending[0].chars == ["v"]


def test_stray_shot_on_a_riders_own_rear_hex_misses_him():
    """§5.4.5 N.B.: around a rider the six hexes are counted from the top of his counter, so one
    of them is his own horse's rear: the shot that missed him does not hit him there (Oriflamme;
    it once made a rider under defensive fire retreat in the middle of his move)."""
    st = game(OPEN, [("s", "longbowman", "A", "0103"), ("t", "knight", "B", "0603", {"facing": "N"}),
                     ("u", "spearman", "B", "0805")], dice=[10, 4], step=OFFENSIVE_FIRE)
    assert st.characters["t"].rear == H("0604")
    apply(st, Fire("s", "t"))
    ev = [e for e in st.log if e["type"] == "stray_shot"][-1]
    assert "own horse, and misses" in ev["text"] and "MC §5.4.5" in ev["ruling"]["citations"]
    assert st.characters["t"].status == "healthy" and not st.pending


def test_stray_shot_stopped_by_an_obstacle():
    """§5.4.5: "si la ligne de tir est bloquée par un obstacle, le personnage ne peut pas être
    atteint" — here a house between the shooter and the hex hit."""
    rows = [". . . . . . . .", ". . . H . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . ."]  # house in 0402
    st = game(rows, [("s", "longbowman", "A", "0103"), ("t", "spearman", "B", "0603"),
                     ("v", "spearman", "B", "0602"), ("u", "spearman", "B", "0805")], dice=[10, 1], step=OFFENSIVE_FIRE)
    from oriflamme.rulesets.magna_carta.engine.stray import obstacle_between
    assert obstacle_between(st, H("0103"), H("0602"))
    apply(st, Fire("s", "t"))
    assert st.characters["v"].status == "healthy"
    assert "obstacle shields V" in [e for e in st.log if e["type"] == "stray_shot"][-1]["text"]


def test_a_friend_steps_aside_to_make_room_for_a_retreat():
    """§6.5 (§): "Il peut également déplacer des personnages amis pour se retrouver à la distance
    requise de son point de départ" — offered when no retreat without it exists."""
    from oriflamme.rulesets.magna_carta.engine.paths import retreat_paths
    # the defender in 0303 must retreat 1 away from the attacker in 0302; every hex one step away
    # and not next to the attacker holds a friend
    st = game(OPEN, [("a", "knight_on_foot", "A", "0302"), ("d", "spearman", "B", "0303"),
                     ("f1", "spearman", "B", "0304"), ("f2", "spearman", "B", "0203"), ("f3", "spearman", "B", "0403")],
              step="melee")
    d = st.characters["d"]
    assert retreat_paths(st, d, 1, None, ["a"]) == []
    roomy = retreat_paths(st, d, 1, None, ["a"], displace=True)
    assert roomy
    st.dice = ScriptedDice([5])  # 20:6 → 3-1, die 5: C (defender retreats 1)
    apply(st, Attack(("a",), ("d",)))
    while st.pending and st.pending[0].kind == "retreat":
        apply(st, legal_actions(st)[0])
    moved = [e for e in st.log if "steps aside" in e["text"]]
    assert moved and d.hex in [h for h in roomy[0]] and d.status == "healthy"
    live = [c.hex for c in st.characters.values() if c.alive]
    assert len(live) == len(set(live))  # one live character per hex (§4.1)
