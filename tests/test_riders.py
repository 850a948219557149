"""Riders on the map (Magna Carta §1.2, §4.3.1.2, §4.3.2, §4.4.1, §4.4.2, §5.5.4, §6.8):
two hexes and a facing, turning costs, infiltration and the volte, fire and melee against
riders, unhorsing, mounting and dismounting."""

from __future__ import annotations

import json

import pytest
from gamekit import H, ScriptedDice, game, fork

from oriflamme.rulesets.magna_carta.engine.actions import Attack, Decline, Dismount, EndStep, Fire, Mount, Move, Place
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction
from oriflamme.rulesets.magna_carta.engine.game import apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.movement import points_left
from oriflamme.rulesets.magna_carta.engine.state import GameState
from oriflamme.rulesets.magna_carta.scenario import validate_scenario
from oriflamme.rulesets.magna_carta.engine.errors import ScenarioError

OPEN = [" ".join("." * 12)] * 12


def rider_game(extra=(), facing="N", step="movement", dice=None, rows=OPEN, rider="knight", at="0606"):
    return game(rows, [("k", rider, "A", at, {"facing": facing}), ("z", "spearman", "B", "1212"), *extra],
                step=step, dice=dice)


def cost_of(st, path):
    r = explain(st, Move("k", tuple(path)))
    assert r.legal, r.reason
    return r.data["cost"]


# --- §1.2: two hexes --------------------------------------------------------------------------
def test_rider_covers_his_front_hex_and_the_hex_behind():
    st = rider_game(facing="N")
    k = st.characters["k"]
    assert [h.label for h in k.hexes] == ["0606", "0607"]
    assert st.live_at(H("0607")) == [k]
    st2 = rider_game(facing="SE")
    assert st2.characters["k"].rear == H("0606").neighbour(5)  # behind = NW of the front


# --- §4.4.1: turning costs ---------------------------------------------------------------------
@pytest.mark.parametrize("where, extra, facing", [
    ("front", 0, 0), ("front_ne", 0, 1), ("central_side", 1, 2),
    ("rear_side", 2, 2), ("behind", 3, 3),
])
def test_turning_costs_one_two_three_more(where, extra, facing):
    st = rider_game(facing="N")
    k = st.characters["k"]
    f, r = k.hex, k.rear
    h = {"front": f.neighbour(0), "front_ne": f.neighbour(1), "central_side": f.neighbour(2),
         "rear_side": r.neighbour(2), "behind": r.neighbour(3)}[where]
    assert cost_of(st, [h.label]) == 1 + extra  # clear ground costs 1 (§3.1)
    apply(st, Move("k", (h.label,)))
    assert (k.hex, k.facing) == (h, facing)
    if where in ("rear_side", "behind"):
        assert k.rear == r  # the horse swings round on its rear hex
    else:
        assert k.rear == f  # the rear follows into the old front hex


def test_half_turn_on_the_spot_costs_three():
    st = rider_game(facing="N")
    k = st.characters["k"]
    f, r = k.hex, k.rear
    assert cost_of(st, [r.label]) == 3
    apply(st, Move("k", (r.label,)))
    assert (k.hex, k.rear, k.facing) == (r, f, 3)
    assert points_left(st, k) == 12 - 3


def test_rider_step_must_touch_the_counter():
    st = rider_game()
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("k", ("0909",)))
    assert "MC §4.4.1" in e.value.ref


def test_rider_cannot_enter_trees_or_end_on_a_friend():
    rows = list(OPEN)
    rows[4] = ". . . . . T . . . . . ."  # 0605 is a tree
    st = game(rows, [("k", "knight", "A", "0606", {"facing": "N"}), ("f", "spearman", "A", "0705"),
                     ("z", "spearman", "B", "1212")], step="movement")
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("k", ("0605",)))
    assert "§4.2.1" in e.value.ref
    k = st.characters["k"]
    # 0705 holds a friend: a move whose counter would cover it is refused (§4.1)
    ends = {m.path[-1]: m for m in legal_actions(st) if isinstance(m, Move) and m.char == "k"}
    for m in legal_actions(st):
        if isinstance(m, Move) and m.char == "k":
            st2 = fork(st)
            apply(st2, m)
            assert H("0705") not in st2.characters["k"].hexes
    assert ends  # he has moves


def test_rider_moves_list_every_facing_and_are_cheapest():
    st = rider_game()
    moves = [m for m in legal_actions(st) if isinstance(m, Move) and m.char == "k"]
    ends = set()
    for m in moves:
        st2 = fork(st)
        apply(st2, m)
        k2 = st2.characters["k"]
        ends.add((k2.hex, k2.facing))
    assert len(ends) == len(moves)  # one move per (front hex, facing)
    assert (H("0605"), 0) in ends and (H("0605"), 3) in ends


# --- §4.3.1.2 and §4.3.2: infiltration and the volte --------------------------------------------
def test_enemy_next_to_the_rear_hex_tests_the_crossing():
    # the rider crosses 0605 (rear 0606); an enemy next to the rear hex only (0506... choose
    # a hex adjacent to 0606 and not to 0605)
    k_front = H("0606")
    foe = H("0606").neighbour(4)  # SW of 0606, not adjacent to 0605
    assert foe.distance(H("0605")) == 2
    st = rider_game(extra=[("e", "spearman", "B", foe.label)], dice=[1])
    apply(st, Move("k", ("0605", "0604")))
    tests = [e for e in st.log if e["type"] == "infiltration"]
    assert len(tests) == 1 and tests[0]["opposer"] == "e"
    assert st.characters["k"].hex == H("0604")


def test_volte_only_central_side_enemies_test():
    """Example 5 (§4.3.2): only the enemy on a central side hex may oppose the volte."""
    k = H("0606")
    side = k.neighbour(2)       # central side (SE of the front, NE of the rear)
    ahead = k.neighbour(0)      # in front
    behind = k.neighbour(3).neighbour(3)  # behind the rear
    st = rider_game(extra=[("s", "spearman", "B", side.label), ("a", "spearman", "B", ahead.label),
                           ("b", "spearman", "B", behind.label)], dice=[3])
    apply(st, Move("k", ("0607",)))
    tests = [e for e in st.log if e["type"] == "infiltration"]
    assert [t["opposer"] for t in tests] == ["s"]
    assert "MC §4.3.2" in tests[0]["ref"]
    assert st.characters["k"].facing == 3


# --- fire at riders (§5.4.2, §5.5.4, D9) and unhorsing (§6.8) ----------------------------------
def test_fire_at_a_rider_reads_the_mounted_table_and_unhorses():
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("x", "crossbowman", "B", "0610")],
              step="offensive_fire")
    st.active = "B"
    r = explain(st, Fire("x", "k"))
    assert r.legal and r.data["table"] == "vs_mounted"
    # aims at the nearer rear hex 0607 (3 hexes) rather than 0606 (4): the shooter's choice, D9
    assert "0607" in r.steps[0].text
    st.dice = ScriptedDice([])
    # find a die giving "B" (rider stunned and unhorsed) under the ruling's distribution
    die = next(d for d in range(1, 11) if explain_die(st, d) == "B")
    st.dice = ScriptedDice([die])
    apply(st, Fire("x", "k"))
    k = st.characters["k"]
    assert not k.mounted and k.status == "stunned" and k.type == "knight_on_foot"
    horse = next(iter(st.riders.horses.values()))
    assert horse.alive and [h.label for h in horse.hexes] == ["0606", "0607"]
    # his side chooses where he lands, next to the horse
    assert st.pending and st.pending[0].kind == "place"
    opts = legal_actions(st)
    assert all(isinstance(o, Place) for o in opts)
    apply(st, opts[0])
    assert k.hex.label == opts[0].hex and min(k.hex.distance(h) for h in horse.hexes) == 1


def explain_die(st, die):
    from oriflamme.rulesets.magna_carta.engine.fire import fire_ruling
    return fire_ruling(st, st.characters["x"], st.characters["k"], die).result


def test_melee_against_a_rider_reads_the_mounted_table():
    st = game(OPEN, [("a", "knight_on_foot", "A", "0605"), ("b", "sergeant", "A", "0705"),
                     ("k", "knight", "B", "0606", {"facing": "S"})], step="melee")
    r = explain(st, Attack(("a", "b"), ("k",)))
    assert r.legal and r.data["table"] == "vs_mounted"


def test_surrounded_unhorsed_rider_is_dead():
    k = H("0606")
    rear = k.neighbour(3)
    ring = sorted({n for h in (k, rear) for n in h.neighbours()} - {k, rear})
    extra = [(f"e{i}", "spearman", "B", h.label) for i, h in enumerate(ring)]
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), *extra], step="melee")
    from oriflamme.rulesets.magna_carta.engine.horses import unhorse
    c = st.characters["k"]
    c.stun(st.phase_no)
    unhorse(st, c, True, "MC §6.8")
    assert c.status == "dead" and not st.riders.horses and st.bodies.carcasses[k] == {"horse": 1}


# --- §4.4.2: mounting and dismounting ---------------------------------------------------------
def test_dismount_then_mount_converts_points():
    st = rider_game()
    k = st.characters["k"]
    apply(st, Move("k", ("0605",)))  # 1 PM: 11 left on horseback
    d = [a for a in legal_actions(st) if isinstance(a, Dismount)]
    assert d
    apply(st, d[0])
    assert not k.mounted and k.type == "knight_on_foot"
    assert points_left(st, k) == (11 - 3) // 2  # 3 PM in armour, then halved (§4.4.2)
    horse = next(iter(st.riders.horses.values()))
    m = [a for a in legal_actions(st) if isinstance(a, Mount)]
    assert m == [Mount("k", horse.id)]
    apply(st, m[0])
    assert k.mounted and k.type == "knight" and not st.riders.horses
    assert points_left(st, k) == ((11 - 3) // 2 - 3) * 2


def test_dismount_wounded_divides_by_four():
    st = rider_game()
    k = st.characters["k"]
    k.status = "wounded"
    left = points_left(st, k)
    apply(st, [a for a in legal_actions(st) if isinstance(a, Dismount)][0])
    assert points_left(st, k) == (left - 3) // 4


def test_only_riders_mount():
    st = rider_game(extra=[("f", "spearman", "A", "0505")])
    apply(st, [a for a in legal_actions(st) if isinstance(a, Dismount) and a.hex != "0505"][0])
    horse = next(iter(st.riders.horses))
    with pytest.raises(IllegalAction) as e:
        apply(st, Mount("f", horse))
    assert "MC §4.4.2" in e.value.ref


# --- state, scenario -----------------------------------------------------------------------------
def test_state_with_riders_and_horses_round_trips():
    st = rider_game()
    apply(st, [a for a in legal_actions(st) if isinstance(a, Dismount)][0])
    blob = json.loads(json.dumps(st.to_json()))
    back = GameState.from_json(blob, st.gmap)
    assert back.digest() == st.digest()
    assert back.riders.horses.keys() == st.riders.horses.keys()


def _scenario(chars):
    return {
        "id": "t", "name": "t", "turns": 3,
        "map": {"boards": ["open-country"]},
        "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "character": chars,
    }


def test_scenario_rider_needs_room_for_his_horse():
    ok = [{"id": "k", "name": "K", "type": "knight", "side": "A", "hex": "0505", "facing": "S"},
          {"id": "z", "name": "Z", "type": "spearman", "side": "B", "hex": "1010"}]
    validate_scenario(_scenario(ok))
    bad = [dict(ok[0], hex="0501", facing="S"), ok[1]]  # rear 0500 off the map? facing S: rear is N
    with pytest.raises(ScenarioError) as e:
        validate_scenario(_scenario(bad))
    assert "facing" in str(e.value) and "off the map" in str(e.value)
    overlap = [ok[0], dict(ok[1], hex="0504")]  # 0504 is behind a rider facing S
    with pytest.raises(ScenarioError) as e:
        validate_scenario(_scenario(overlap))
    assert "MC §4.1" in str(e.value)
    foot = [ok[0], dict(ok[1], facing="N")]
    with pytest.raises(ScenarioError) as e:
        validate_scenario(_scenario(foot))
    assert "only riders have a facing" in str(e.value)


# --- §4.4.3: jumps ------------------------------------------------------------------------------
WATER_ROW = [" ".join("." * 12)] * 5 + [". . . . . w . . . . . ."] + [" ".join("." * 12)] * 6  # 0606 is water


def test_jump_over_water_needs_a_die_and_cannot_stop_astride():
    st = game(WATER_ROW, [("k", "knight", "A", "0608", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              step="movement", dice=[1])
    # 0607 → over 0606 → 0605: the front lands in 0605, the rear in the water: he must ride on
    apply(st, Move("k", ("0607",)))
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("k", ("0605",)))
    assert "hindquarters in 0606" in e.value.reason and "§4.4.3" in e.value.ref
    r = explain(st, Move("k", ("0605", "0604")))
    assert r.legal and any("jump over 0606" in s.text for s in r.steps)
    assert r.data["cost"] == 1 + 1 + 1  # landing 1 + one hex jumped over 1 (interpretation) + 0604
    apply(st, Move("k", ("0605", "0604")))
    k = st.characters["k"]
    assert k.mounted and [h.label for h in k.hexes] == ["0604", "0605"]
    jump = [e for e in st.log if e["type"] == "jump"]
    assert jump and jump[-1]["ruling"]["result"] == "success"  # die 1 + 1 (armour)


def test_jump_refusal_and_bad_landing():
    # armour +1: die 9 → 10, refusal: stunned and unhorsed in front of the obstacle
    st = game(WATER_ROW, [("k", "knight", "A", "0607", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              step="movement", dice=[9])
    apply(st, Move("k", ("0605", "0604")))
    k = st.characters["k"]
    assert not k.mounted and k.status == "stunned"
    horse = next(iter(st.riders.horses.values()))
    assert [h.label for h in horse.hexes] == ["0607", "0608"]  # where he stood before the jump
    assert points_left(st, k) == 0
    # die 10 + 1 = 11: bad landing, the horse dies beyond the obstacle, the rider is wounded
    st = game(WATER_ROW, [("k", "knight", "A", "0607", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              step="movement", dice=[10])
    apply(st, Move("k", ("0605", "0604")))
    k = st.characters["k"]
    assert not k.mounted and k.status == "wounded" and not st.riders.horses
    assert st.bodies.carcasses[H("0605")] == {"horse": 1}


def test_jump_over_a_low_wall():
    st = game(OPEN, [("k", "light_cavalry", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              hexsides="0606 N low_wall", step="movement", dice=[1])
    r = explain(st, Move("k", ("0605",)))
    assert not r.legal  # astride the wall: he must ride on
    r = explain(st, Move("k", ("0605", "0604")))
    assert r.legal and any("jump over the low wall" in s.text for s in r.steps)
    apply(st, Move("k", ("0605", "0604")))
    assert [h.label for h in st.characters["k"].hexes] == ["0604", "0605"]
    # the rider's search offers it too
    st = game(OPEN, [("k", "light_cavalry", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              hexsides="0606 N low_wall", step="movement")
    ends = {m.path[-1] for m in legal_actions(st) if isinstance(m, Move) and m.char == "k"}
    assert "0604" in ends


def test_no_half_turn_into_the_water_just_jumped():
    st = game(WATER_ROW, [("k", "knight", "A", "0608", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              step="movement", dice=[1])
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("k", ("0607", "0605", "0606")))  # jump, then a volte back over the water
    assert "cannot turn round into 0606" in e.value.reason


def test_no_defensive_fire_pause_while_astride_a_jump():
    """A rider landing a jump has his rear over the water he clears (§4.4.3): he cannot stop
    there, so defensive fire (§5.3) does not pause his move on that position but on the next
    hex (found by random play: the pause left him astride the pond)."""
    st = game(WATER_ROW, [("k", "knight", "A", "0608", {"facing": "N"}), ("x", "crossbowman", "B", "0903"),
                          ("z", "spearman", "B", "1212")], step="movement", dice=[1])
    st.defensive_fire.defensive_ready = {"x"}
    apply(st, Move("k", ("0607",)))
    if st.pending:  # a pause at 0607 (a position he may stand on): let him pass
        apply(st, Decline())
    apply(st, Move("k", ("0605", "0604")))
    assert st.pending and st.pending[0].kind == "defensive_fire"
    assert st.pending[0].data["hex"] == "0604"  # not 0605, astride the water of 0606
    k = st.characters["k"]
    assert [h.label for h in k.hexes] == ["0604", "0605"]
