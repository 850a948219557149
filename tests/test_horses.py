"""Riderless horses (Magna Carta §4.4.4, §6.8): who controls them, leading them by the bridle,
and fire and melee at a lone horse."""

from __future__ import annotations

import json

import pytest
from gamekit import H, ScriptedDice, game

from oriflamme.rulesets.magna_carta.engine import led
from oriflamme.rulesets.magna_carta.engine.actions import Action, Attack, AttackHorse, Decline, EndStep, FireAtHorse, Lead, Move
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction
from oriflamme.rulesets.magna_carta.engine.game import apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.movement import points_left
from oriflamme.rulesets.magna_carta.engine.state import GameState, Horse

OPEN = [" ".join("." * 12)] * 12


def horse_game(chars, step="movement", dice=None, horses=(("h", "0606", 0, None),), active="A"):
    st = game(OPEN, list(chars), step=step, dice=dice)
    for hid, hx, facing, side in horses:
        st.riders.horses[hid] = Horse(hid, H(hx), facing, side)
    st.active = active
    return st


def events(st, kind):
    return [e for e in st.log if e["type"] == kind]


def no_overlap(st):
    """No two horses, and no horse and live character, share a hex."""
    seen = set()
    for x in st.riders.horses.values():
        for h in x.hexes:
            assert h not in seen and not st.live_at(h), (x.id, h.label)
            seen.add(h)


# --- control (§4.4.4) ------------------------------------------------------------------------
def test_control_is_lost_when_no_friend_stays_next_to_the_horse():
    st = horse_game([("a", "spearman", "A", "0605"), ("z", "spearman", "B", "1212")],
                    horses=[("h", "0606", 0, "A")])
    apply(st, Move("a", ("0604",)))
    assert st.riders.horses["h"].side is None
    assert events(st, "horse_loose") and "MC §4.4.4" in events(st, "horse_loose")[0]["ref"]


def test_control_is_kept_while_a_live_unstunned_friend_stands_by():
    st = horse_game([("a", "spearman", "A", "0605"), ("b", "spearman", "A", "0303"), ("z", "spearman", "B", "1212")],
                    horses=[("h", "0606", 0, "A")])
    apply(st, Move("b", ("0304",)))
    assert st.riders.horses["h"].side == "A" and not events(st, "horse_loose")
    st.characters["a"].stun(st.phase_no)  # "vivant et non assommé"
    led.settle(st)
    assert st.riders.horses["h"].side is None


def test_a_horse_is_taken_by_the_first_who_leads_it_not_while_the_enemy_holds_it():
    st = horse_game([("a", "spearman", "A", "0605"), ("e", "spearman", "B", "0707")],
                    horses=[("h", "0606", 0, "B")])
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("a", "h"))
    assert "held by side B" in e.value.reason and e.value.ref == "MC §4.4.4"
    assert Lead("a", "h") not in legal_actions(st)
    st.characters["e"].kill()
    led.settle(st)
    assert st.riders.horses["h"].side is None
    apply(st, Lead("a", "h"))
    assert st.riders.horses["h"].side == "A" and st.riders.horses["h"].led_by == "a"


# --- leading by the bridle (§4.4.4) ------------------------------------------------------------
def test_a_man_on_foot_leads_a_horse_and_it_follows_him():
    st = horse_game([("a", "spearman", "A", "0605"), ("z", "spearman", "B", "1212")])
    assert Lead("a", "h") in legal_actions(st)
    r = explain(st, Lead("a", "h"))
    assert r.legal and "0 PM" in r.steps[0].text
    left = points_left(st, st.characters["a"])
    apply(st, Lead("a", "h"))
    assert points_left(st, st.characters["a"]) == left  # free (automatic on foot)
    apply(st, Move("a", ("0604", "0603", "0602")))
    horse, a = st.riders.horses["h"], st.characters["a"]
    assert horse.led_by == "a" and horse.side == "A"
    assert horse.hex.distance(a.hex) == 1  # its head next to him
    assert events(st, "horse_follows")
    no_overlap(st)


def _ring(centre: str):
    c = H(centre)
    return [(f"h{d}", c.neighbour(d).label, (d + 3) % 6, None) for d in (0, 2, 4, 1)]


def test_a_man_on_foot_leads_up_to_three_horses_that_never_overlap():
    st = horse_game([("a", "spearman", "A", "0606"), ("z", "spearman", "B", "1212")], horses=_ring("0606"))
    for hid in ("h0", "h2", "h4"):
        apply(st, Lead("a", hid))
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("a", "h1"))
    assert "3 horse(s)" in e.value.reason and e.value.ref == "MC §4.4.4"
    assert Lead("a", "h1") not in legal_actions(st)
    # he walks off (through the fourth horse's hexes: riderless horses may be crossed)
    path = [m for m in legal_actions(st) if isinstance(m, Move) and m.char == "a" and len(m.path) == 3]
    apply(st, path[0])
    a = st.characters["a"]
    for hid in ("h0", "h2", "h4"):
        x = st.riders.horses[hid]
        assert x.led_by == "a" and any(h.distance(a.hex) == 1 for h in x.hexes)
    no_overlap(st)


def test_a_rider_leads_one_horse_at_rest_and_it_goes_beside_him():
    k = H("0606")
    st = horse_game([("k", "knight", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1212")],
                    horses=[("h", k.neighbour(2).label, 0, None), ("g", k.neighbour(4).label, 0, None)])
    assert {Lead("k", "h"), Lead("k", "g")} <= set(legal_actions(st))
    apply(st, Lead("k", "h"))  # before he moves: automatic
    assert points_left(st, st.characters["k"]) == 12
    with pytest.raises(IllegalAction) as e:  # one horse only on horseback
        apply(st, Lead("k", "g"))
    assert "1 horse(s)" in e.value.reason and e.value.ref == "MC §4.4.4"
    apply(st, Move("k", ("0605", "0604")))
    kk, x = st.characters["k"], st.riders.horses["h"]
    assert x.facing == kk.facing == 0 and x.hex in (kk.hex.neighbour(2), kk.hex.neighbour(-2))
    assert st.riders.horses["g"].hexes[0] == k.neighbour(4)  # the other stays
    no_overlap(st)


def test_a_rider_who_takes_a_horse_after_moving_moves_no_further():
    st = horse_game([("k", "knight", "A", "0608", {"facing": "N"}), ("f", "spearman", "A", "0101"),
                     ("z", "spearman", "B", "1212")], horses=[("h", H("0605").neighbour(1).label, 0, None)])
    assert Lead("k", "h") not in legal_actions(st)
    apply(st, Move("k", ("0607", "0606", "0605")))  # now beside the horse
    assert st.pending[0].kind == "grab"  # he passed by it at 0606: he rides on without trying
    apply(st, Decline())
    k = st.characters["k"]
    assert led.touches(k, st.riders.horses["h"])
    r = explain(st, Lead("k", "h"))
    assert r.legal and "moves no further" in r.steps[0].text
    apply(st, Lead("k", "h"))
    assert points_left(st, k) == 0 and "his move ends" in events(st, "lead")[-1]["text"]


def test_the_leader_lets_go_when_attacked():
    st = horse_game([("a", "spearman", "A", "0605"), ("e", "spearman", "B", "0604")],
                    step="melee", active="B", dice=[5])
    st.riders.horses["h"].led_by, st.riders.horses["h"].side = "a", "A"
    apply(st, Attack(("e",), ("a",)))
    assert st.riders.horses["h"].led_by is None
    assert "in combat" in events(st, "lead_lost")[0]["text"]


def test_the_leader_lets_go_when_he_attacks():
    st = horse_game([("a", "spearman", "A", "0605"), ("e", "spearman", "B", "0604")], step="melee", dice=[5])
    st.riders.horses["h"].led_by, st.riders.horses["h"].side = "a", "A"
    apply(st, Attack(("a",), ("e",)))
    assert st.riders.horses["h"].led_by is None and events(st, "lead_lost")


def test_a_led_horse_that_cannot_follow_is_let_go():
    rows = list(OPEN)
    rows[1] = " ".join(["T"] * 12)  # a row of trees: no horse may stand there
    rows[0] = " ".join(["T"] * 12)
    st = game(rows, [("a", "spearman", "A", "0603"), ("z", "spearman", "B", "1212")], step="movement")
    st.riders.horses["h"] = Horse("h", H("0604"), 0, "A", led_by="a")
    apply(st, Move("a", ("0602", "0601")))
    assert st.riders.horses["h"].led_by is None and "cannot follow" in events(st, "lead_lost")[0]["text"]


# --- fire at a lone horse (§6.8) -------------------------------------------------------------------
def _fire_game(side=None, dice=None):
    return horse_game([("x", "crossbowman", "B", "0611"), ("a", "spearman", "A", "0101")], step="offensive_fire",
                      active="B", dice=dice, horses=[("h", "0606", 0, side)])


def test_fire_at_a_lone_horse_reads_the_mounted_table_and_kills_on_c_to_f():
    st = _fire_game()
    assert FireAtHorse("x", "h") in legal_actions(st)
    r = explain(st, FireAtHorse("x", "h"))
    assert r.legal and r.data["table"] == "vs_mounted"
    assert "0607" in r.steps[1].text  # the nearer hex of the horse (D9)
    assert "killed on C, D, E, F" in r.steps[-1].text
    kill_p = sum(v for k, v in r.probabilities.items() if k in "CDEF")
    assert r.data["horse_killed_probability"] == pytest.approx(float(kill_p))
    seen = set()
    for die in range(1, 11):
        s2 = _fire_game(dice=[die, 10])
        apply(s2, FireAtHorse("x", "h"))
        res = events(s2, "fire_horse")[0]["result"]
        seen.add(res)
        if res in ("C", "D", "E", "F"):
            assert "h" not in s2.riders.horses and s2.bodies.carcasses[H("0606")] == {"horse": 1}
            assert events(s2, "horse_killed")
        elif res == "A":  # the rider's retreat of 4: the horse backs away (§6.8, tests/test_bridle_grab.py)
            assert s2.riders.horses["h"].hex.distance(H("0606")) == 4 and events(s2, "horse_retreat")
        else:
            assert "h" in s2.riders.horses and s2.riders.horses["h"].hex == H("0606")
        assert events(s2, "fire_horse")[0]["shooter"] == "x"
    assert seen & set("CDEF") and seen - set("CDEF")


def test_no_fire_at_ones_own_horse():
    st = _fire_game(side="B")
    assert FireAtHorse("x", "h") not in legal_actions(st)
    with pytest.raises(IllegalAction) as e:
        apply(st, FireAtHorse("x", "h"))
    assert e.value.ref == "MC §6.8"
    with pytest.raises(IllegalAction):
        apply(st, FireAtHorse("x", "nohorse"))


# --- melee against a lone horse (§6.8) -------------------------------------------------------------
def _melee_game(dice=None, side="B"):
    return horse_game([("a", "spearman", "A", "0605"), ("z", "spearman", "B", "1212")], step="melee", dice=dice,
                      horses=[("h", "0606", 0, side)])


def test_attack_on_a_lone_horse_defence_one_and_its_outcomes():
    st = _melee_game()
    assert AttackHorse(("a",), "h") in legal_actions(st)
    r = explain(st, AttackHorse(("a",), "h"))
    a = st.characters["a"]
    assert r.legal and r.data["defence"] == 1 and r.data["table"] == "vs_mounted"
    assert r.data["odds"] == f"{a.attack}-1"
    assert "killed on E, F, G, H" in r.steps[-1].text
    for die in range(1, 11):
        s2 = _melee_game(dice=[die])
        apply(s2, AttackHorse(("a",), "h"))
        res = events(s2, "melee_horse")[0]["result"]
        assert events(s2, "melee_horse")[0]["attackers"] == ["a"]
        if res in ("E", "F", "G", "H"):
            assert "h" not in s2.riders.horses and s2.bodies.carcasses[H("0606")] == {"horse": 1}
        elif res == "C":  # the defender's retreat of 1: the horse backs away (§6.8)
            assert s2.riders.horses["h"].hex.distance(H("0606")) == 1 and events(s2, "horse_retreat")
        else:
            assert s2.riders.horses["h"].hex == H("0606")
            if res == "A":
                assert s2.characters["a"].status == "wounded"
            elif res not in ("B",):
                assert events(s2, "horse_unharmed")


def test_no_attack_on_ones_own_horse():
    st = _melee_game(side="A")
    assert not [x for x in legal_actions(st) if isinstance(x, AttackHorse)]
    with pytest.raises(IllegalAction) as e:
        apply(st, AttackHorse(("a",), "h"))
    assert e.value.ref == "MC §6.8"
    st = _melee_game(side=None)
    with pytest.raises(IllegalAction):
        apply(st, AttackHorse(("z",), "h"))  # not adjacent, not of the active side


def test_an_uncontrolled_horse_may_be_attacked():
    st = _melee_game(side=None)
    assert AttackHorse(("a",), "h") in legal_actions(st)


# --- state and actions --------------------------------------------------------------------------
def test_led_horses_and_the_new_actions_round_trip():
    st = horse_game([("a", "spearman", "A", "0605"), ("z", "spearman", "B", "1212")])
    apply(st, Lead("a", "h"))
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.digest() == st.digest() and back.riders.horses["h"].led_by == "a"
    assert legal_actions(back) == legal_actions(st)
    for a in (Lead("a", "h"), FireAtHorse("x", "h"), AttackHorse(("a", "b"), "h")):
        assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a


def test_lead_refused_outside_the_movement_step_and_when_not_next_to_it():
    st = horse_game([("a", "spearman", "A", "0603"), ("z", "spearman", "B", "1212")])
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("a", "h"))
    assert "not stand next to" in e.value.reason and e.value.ref == "MC §4.4.4"
    apply(st, EndStep())
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("a", "h"))
    assert "movement step" in e.value.reason


def test_random_play_with_horses_keeps_them_apart_and_by_their_leaders():
    """Random legal actions on a board with riders, men on foot and loose horses: no horse ever
    overlaps a live character or another horse, and a led horse always touches its leader."""
    import random
    for seed in range(6):
        rng = random.Random(seed)
        st = horse_game([("k", "knight", "A", "0606", {"facing": "N"}), ("a", "spearman", "A", "0404"),
                         ("b", "spearman", "A", "0808"), ("x", "crossbowman", "B", "0611"),
                         ("e", "spearman", "B", "0303"), ("l", "light_cavalry", "B", "0909", {"facing": "S"})],
                        step="offensive_fire",
                        horses=[("h1", "0505", 0, None), ("h2", "0403", 1, None), ("h3", "0704", 0, "B"),
                                ("h4", "0209", 2, None)])
        for _ in range(150):
            if st.over:
                break
            acts = legal_actions(st)
            horsey = [a for a in acts if a.type in ("lead", "fire_at_horse", "attack_horse")]
            a = rng.choice(horsey) if horsey and rng.random() < 0.5 else rng.choice(acts)
            apply(st, a)
            no_overlap(st)
            for x in st.riders.horses.values():
                if x.led_by is not None:
                    assert led.touches(st.characters[x.led_by], x)
