"""The remaining horse rules (Magna Carta §4.4.4, §4.6.3, §4.6.5, §6.8): the rider's grab in
passing, camels and horses not mixed when led, a lone or led horse retreating (a led one
without its leader), the unhorsed rider shifting a friend."""

from __future__ import annotations

import json
import random

import pytest
from gamekit import H, ScriptedDice, game
from hypothesis import given, settings
from hypothesis import strategies as st_

from oriflamme.rulesets.magna_carta.engine import led
from oriflamme.rulesets.magna_carta.engine.actions import (Action, Attack, AttackHorse, Decline, Designate, FireAtHorse, Grab, Lead, Move,
                                      Place)
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction
from oriflamme.rulesets.magna_carta.engine.game import apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.horses import unhorse
from oriflamme.rulesets.magna_carta.engine.movement import points_left
from oriflamme.rulesets.magna_carta.engine.state import GameState, Horse

OPEN = [" ".join("." * 12)] * 12
#: a knight from 0611 riding north along column 06; a horse in 0705-0706 is first touched at
#: 0606 (step 4), where his counter covers 0606-0607
RIDE = ("0610", "0609", "0608", "0607", "0606", "0605", "0604", "0603", "0602")
TO_BY_IT = RIDE[:6]  # ends in 0605: still next to the horse
REF = "MC §4.4.4, §4.6.3"


def grab_game(dice=None, horses=(("h", "0705", 0, None, "horse"),), chars=(), rider="knight"):
    st = game(OPEN, [("k", rider, "A", "0611", {"facing": "N"}), ("z", "spearman", "B", "1212"), *chars],
              step="movement", dice=dice)
    for hid, hx, facing, side, kind in horses:
        st.riders.horses[hid] = Horse(hid, H(hx), facing, side, kind=kind)
    return st


def events(st, kind):
    return [e for e in st.log if e["type"] == kind]


def beside(k) -> set:
    """The two positions "d'un côté ou de l'autre ... parallèle et légèrement en retrait"."""
    return {(k.hex.neighbour(k.facing + 2), k.facing), (k.hex.neighbour(k.facing - 2), k.facing)}


def no_overlap(st, strict=True):
    """No two horses share a hex; once no prompt is pending, no horse and live character share
    a hex and, with ``strict``, one live character a hex (§4.1). (A move paused by a prompt —
    defensive fire, a grab — may stand on a riderless horse it crosses: §4.4.4 lets a move
    cross a horse's hexes, not end there.)"""
    seen = set()
    for x in st.riders.horses.values():
        for h in x.hexes:
            assert h not in seen, (x.id, h.label)
            assert st.pending or not st.live_at(h), (x.id, h.label)
            seen.add(h)
    if strict and not st.pending:
        occ = st.occupants()
        assert all(len(v) == 1 for v in occ.values()), {h.label: [c.id for c in v] for h, v in occ.items() if len(v) > 1}


# --- the grab in passing (§4.4.4, §4.6.3) ------------------------------------------------------
def test_the_grab_is_data_with_its_citation():
    st = grab_game()
    row = st.rules.movement_rules["grab_success_max"]
    assert row.value == 6 and row.ref == REF


@pytest.mark.parametrize("die", range(1, 7))
def test_grab_succeeds_on_one_to_six_and_the_horse_ends_beside_him(die):
    st = grab_game(dice=[die])
    preview = explain(st, Move("k", RIDE))  # the move's preview names the horse he may grab
    assert any(x.text.startswith("0606: passing by the horse in 0705-0706") and x.ref == REF for x in preview.steps)
    apply(st, Move("k", RIDE))
    p = st.pending[0]
    assert (p.kind, p.side, p.chars, p.data["hex"], p.data["ref"]) == ("grab", "A", ["k"], "0606", REF)
    assert st.characters["k"].hex == H("0606")  # paused where he passes by it
    assert legal_actions(st) == [Grab("k", "h"), Decline()]
    r = explain(st, Grab("k", "h"))
    assert r.legal and {k: float(v) for k, v in r.probabilities.items()} == {"failure": 0.4, "success": 0.6}
    assert r.citations == [REF]
    apply(st, Grab("k", "h"))
    k, x = st.characters["k"], st.riders.horses["h"]
    assert k.hex == H("0602") and points_left(st, k) == 12 - len(RIDE)  # "sans s'arrêter": no cost
    assert x.led_by == "k" and x.side == "A"
    assert (x.hex, x.facing) in beside(k)  # parallel and slightly behind him
    ev = events(st, "grab")[0]
    assert ev["result"] == "success" and ev["ruling"]["die"] == die and ev["ref"] == REF
    assert events(st, "horse_follows")
    no_overlap(st)


@pytest.mark.parametrize("die", range(7, 11))
def test_grab_fails_on_seven_to_ten_no_control_this_turn_even_ending_next_to_it(die):
    st = grab_game(dice=[die])
    apply(st, Move("k", TO_BY_IT))
    apply(st, Grab("k", "h"))
    k, x = st.characters["k"], st.riders.horses["h"]
    assert k.hex == H("0605") and not st.pending  # the move went on to its end
    assert (x.hex, x.led_by, x.side) == (H("0705"), None, None)  # the horse stays
    assert led.touches(k, x) and events(st, "grab")[0]["result"] == "failure"
    assert Lead("k", "h") not in legal_actions(st)
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("k", "h"))
    assert "failed to grab" in e.value.reason and e.value.ref == REF
    assert st.riders.grab_failed == {"k/h": st.turn}
    st.turn += 1  # "ce tour-ci" only
    assert led.lead_problem(st, k, x) is None


def test_declining_rides_on_and_he_may_still_take_it_at_rest():
    st = grab_game(dice=[])
    apply(st, Move("k", TO_BY_IT))
    apply(st, Decline())
    assert "rides on without trying" in events(st, "grab")[0]["text"]
    assert st.characters["k"].hex == H("0605") and st.riders.horses["h"].led_by is None
    apply(st, Lead("k", "h"))  # at the end of his move: automatic, it ends his movement
    assert st.riders.horses["h"].led_by == "k" and "his move ends" in events(st, "lead")[0]["text"]


def test_no_prompt_unless_the_move_passes_next_to_the_horse():
    # far from it
    st = grab_game(horses=[("h", "1005", 0, None, "horse")])
    apply(st, Move("k", RIDE))
    assert not st.pending and st.characters["k"].hex == H("0602")
    with pytest.raises(IllegalAction) as e:
        apply(st, Grab("k", "h"))
    assert "no pending grab" in e.value.reason
    # ending by it: no die, he takes it at rest (Lead)
    st = grab_game()
    apply(st, Move("k", RIDE[:5]))
    assert not st.pending and Lead("k", "h") in legal_actions(st)
    # starting by it: he may take it at rest before moving; no prompt along it
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1212")], step="movement")
    st.riders.horses["h"] = Horse("h", H("0705"), 0, None)
    apply(st, Move("k", ("0605", "0604", "0603")))
    assert not st.pending
    # a man on foot leads without a die: no prompt (§4.4.4)
    st = game(OPEN, [("a", "spearman", "A", "0609"), ("z", "spearman", "B", "1212")], step="movement")
    st.riders.horses["h"] = Horse("h", H("0705"), 0, None)
    apply(st, Move("a", ("0608", "0607", "0606", "0605", "0604")))
    assert not st.pending


def test_no_grab_of_a_horse_led_or_held_by_the_enemy():
    e_hex = "0805"  # next to the horse in 0705-0706, two hexes off the knight's road
    assert any(H(e_hex).distance(h) == 1 for h in (H("0705"), H("0706")))
    for led_by in ("e", None):
        st = grab_game(horses=[("h", "0705", 0, "B", "horse")], chars=[("e", "spearman", "B", e_hex)])
        st.riders.horses["h"].led_by = led_by
        apply(st, Move("k", RIDE))
        assert not st.pending and st.riders.horses["h"].side == "B"
        with pytest.raises(IllegalAction):
            apply(st, Lead("k", "h"))
    # two horses passed at once: only the loose one is offered
    st = grab_game(horses=[("h", "0705", 0, "B", "horse"), ("g", "0505", 0, None, "horse")],
                   chars=[("e", "spearman", "B", e_hex)])
    apply(st, Move("k", RIDE))
    assert st.pending[0].data["horses"] == ["g"] and legal_actions(st) == [Grab("k", "g"), Decline()]


def test_camels_and_horses_are_not_mixed_when_led():
    # a knight passing a riderless camel: no grab (his mount is a horse); the fear test is rolled
    st = grab_game(dice=[9], horses=[("c", "0705", 0, None, "camel")])
    apply(st, Move("k", TO_BY_IT))
    assert not st.pending and events(st, "fear")
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("k", "c"))
    assert "not mixed" in e.value.reason and e.value.ref == "MC §4.6.5"
    # a camel rider may grab it (§4.6.3, the same rule)
    st = grab_game(dice=[2], horses=[("c", "0705", 0, None, "camel")], rider="camel_rider")
    apply(st, Move("k", RIDE))
    apply(st, Grab("k", "c"))
    assert st.riders.horses["c"].led_by == "k"
    # a man on foot leading a camel leads no horse, but another camel
    st = game(OPEN, [("a", "spearman", "A", "0606"), ("z", "spearman", "B", "1212")], step="movement")
    for hid, hx, kind in (("c1", "0705", "camel"), ("hh", "0505", "horse"), ("c2", "0607", "camel")):
        st.riders.horses[hid] = Horse(hid, H(hx), 0, None, kind=kind)
    apply(st, Lead("a", "c1"))
    assert Lead("a", "hh") not in legal_actions(st)
    with pytest.raises(IllegalAction) as e:
        apply(st, Lead("a", "hh"))
    assert "leads a camel" in e.value.reason and e.value.ref == "MC §4.6.5"
    apply(st, Lead("a", "c2"))
    assert st.riders.horses["c2"].led_by == "a"


@pytest.mark.parametrize("who", ["attacked", "attacks"])
def test_a_rider_leading_a_horse_lets_go_in_combat(who):
    """§4.4.4: "perd automatiquement le contrôle ... s'il engage le combat ou s'il est attaqué"."""
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("e", "knight_on_foot", "B", "0605")],
              step="melee", dice=[10])
    st.riders.horses["h"] = Horse("h", H("0606").neighbour(2), 0, "A", led_by="k")
    if who == "attacked":
        st.active = "B"
        apply(st, Attack(("e",), ("k",)))
    else:
        apply(st, Attack(("k",), ("e",)))
    assert st.riders.horses["h"].led_by is None
    assert "in combat" in events(st, "lead_lost")[0]["text"] and events(st, "lead_lost")[0]["ref"] == "MC §4.4.4"


# --- a lone or led horse retreating (§6.8) ------------------------------------------------------
def _led_fire_game(die):
    st = game(OPEN, [("x", "crossbowman", "B", "0611"), ("a", "spearman", "A", "0605")], step="offensive_fire",
              dice=[die, 10])
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, "A", led_by="a")
    return st


def test_a_led_horse_shot_at_retreats_without_its_leader():
    """§6.8: "Si un cheval est tenu par la bride et qu'il doit reculer, l'animal recule mais pas
    le personnage qui le conduit" — fire result A (the rider's retreat of 4): the horse backs
    away four hexes, its leader stays and lets go of it."""
    seen = False
    for die in range(1, 11):
        st = _led_fire_game(die)
        apply(st, FireAtHorse("x", "h"))
        if events(st, "fire_horse")[0]["result"] != "A":
            continue
        seen = True
        x, a = st.riders.horses["h"], st.characters["a"]
        assert a.hex == H("0605")  # the leader does not retreat
        assert x.hex.distance(H("0606")) == 4 and x.facing == 0  # backing away, keeping its facing
        assert x.hex.distance(H("0611")) > H("0606").distance(H("0611"))  # away from the shooter
        assert x.led_by is None and "it retreated without him" in events(st, "lead_lost")[0]["text"]
        assert events(st, "lead_lost")[0]["ref"] == "MC §6.8"
        assert events(st, "horse_retreat")[0]["ref"] == st.rules.fire_results[("vs_mounted", "A")].ref
        assert x.side is None  # nobody of side A next to it any more (§4.4.4)
        no_overlap(st)
    assert seen


def test_a_led_horse_attacked_retreats_one_hex_and_is_kept_if_still_by_him():
    st = game(OPEN, [("a", "spearman", "A", "0605"), ("e", "spearman", "B", "0608")], step="melee", dice=[8])
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, "A", led_by="a")
    apply(st, AttackHorse(("e",), "h"))
    assert events(st, "melee_horse")[0]["result"] == "C"
    x = st.riders.horses["h"]
    assert x.hex.distance(H("0606")) == 1 and st.characters["a"].hex == H("0605")
    assert not any(h.distance(H("0608")) <= 1 for h in x.hexes)  # not next to the attacker
    assert x.led_by == "a" and "keeps" in events(st, "horse_retreat")[-1]["text"]
    no_overlap(st)


def test_a_horse_with_nowhere_to_retreat_stays():
    rows = [" ".join("T" * 12)] * 12
    rows[5] = " ".join(["T"] * 5 + ["."] + ["T"] * 6)  # 0606
    rows[6] = " ".join(["T"] * 5 + ["."] + ["T"] * 6)  # 0607
    st = game(rows, [("e", "spearman", "B", "0608"), ("z", "spearman", "A", "1212")], step="melee", dice=[8])
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, None)
    apply(st, AttackHorse(("e",), "h"))
    assert st.riders.horses["h"].hex == H("0606") and "cannot retreat 1 hex(es)" in events(st, "horse_retreat")[0]["text"]


# --- the unhorsed rider and his friends (§6.8) ------------------------------------------------------
def _ring(front="0606", facing=0):
    f = H(front)
    hexes = (f, f.neighbour(facing + 3))
    return sorted({n for h in hexes for n in h.neighbours()} - set(hexes))


def test_an_unhorsed_rider_among_friends_shifts_one_by_a_hex_his_side_choosing_which():
    """§6.8: "Dans le cas où toutes les cases adjacentes sont occupées, on décale un personnage
    ami d'une case pour faire de la place au cavalier désarçonné." """
    ring = _ring()
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1111"),
                     *[(f"f{i}", "spearman", "A", h.label) for i, h in enumerate(ring)]], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    p = st.pending[0]
    assert p.kind == "place" and p.data["shift"] and p.data["hexes"] == [h.label for h in ring]
    assert legal_actions(st) == [Place("k", h.label) for h in ring]
    # JSON round trip in the middle of the prompt
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.digest() == st.digest() and legal_actions(back) == legal_actions(st)
    target = ring[3]
    friend = next(c for c in st.characters.values() if c.hex == target and c.id != "k")
    apply(st, Place("k", target.label))
    k = st.characters["k"]
    assert k.hex == target and not k.mounted and k.alive
    assert friend.hex.distance(target) == 1 and friend.hex not in st.riders.horses[next(iter(st.riders.horses))].hexes
    ev = [e for e in events(st, "place") if "shifted" in e["text"]]
    assert ev and ev[0]["ref"] == "MC §6.8" and ev[0]["char"] == friend.id
    no_overlap(st)
    apply(back, Place("k", target.label))
    assert back.digest() == st.digest()


def test_one_friend_among_enemies_is_shifted_at_once_all_enemies_kill():
    ring = _ring()
    chars = [(f"e{i}", "spearman", "B", h.label) for i, h in enumerate(ring[1:])] + [("f", "spearman", "A", ring[0].label)]
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), *chars], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    assert not st.pending and st.characters["k"].hex == ring[0] and st.characters["k"].alive
    assert st.characters["f"].hex.distance(ring[0]) == 1
    no_overlap(st)
    # entirely surrounded by enemies: dead (§6.8)
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}),
                     *[(f"e{i}", "spearman", "B", h.label) for i, h in enumerate(ring)]], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    assert st.characters["k"].status == "dead"
    assert "surrounded by enemies" in events(st, "status")[-1]["text"]


def test_no_friend_can_be_shifted_the_rider_stays_on_his_horse_s_rear_hex():
    """The remaining simplification: no free hex, no friend on foot able to move aside (here
    buildings all round), not all enemies."""
    rows = [" ".join("H" * 12)] * 12
    grid = [r.split() for r in rows]
    for label in ("0606", "0607", "0605"):
        grid[int(label[2:]) - 1][int(label[:2]) - 1] = "."
    rows = [" ".join(r) for r in grid]
    st = game(rows, [("k", "knight", "A", "0606", {"facing": "N"}), ("f", "spearman", "A", "0605"),
                     ("z", "spearman", "B", "1212")], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    assert st.characters["k"].hex == H("0607") and "finds no free hex" in events(st, "place")[0]["text"]


def test_a_friend_on_horseback_is_shifted_one_hex_keeping_his_facing():
    """§6.8 "on décale un personnage ami d'une case": the only hex beside the horse is the rear
    hex of a mounted friend; he moves one hex, both his hexes the same way, facing kept."""
    rows = [" ".join("H" * 12)] * 12
    grid = [r.split() for r in rows]
    for label in ("0603", "0604", "0605", "0606", "0607"):
        grid[int(label[2:]) - 1][int(label[:2]) - 1] = "."
    rows = [" ".join(r) for r in grid]
    st = game(rows, [("k", "knight", "A", "0606", {"facing": "N"}), ("r", "knight", "A", "0604", {"facing": "N"}),
                     ("z", "spearman", "B", "1212")], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    r = st.characters["r"]
    assert (r.hex, r.rear, r.facing) == (H("0603"), H("0604"), 0)
    assert st.characters["k"].hex == H("0605") and not st.pending
    texts = [e["text"] for e in events(st, "place")]
    assert "R is shifted from 0604 to 0603 to make room for K" in texts and "K is placed in 0605" in texts
    no_overlap(st)


# --- prompts, round trips, the other prompts ------------------------------------------------------
def test_the_grab_prompt_round_trips_through_json():
    st = grab_game(dice=[4])
    apply(st, Move("k", RIDE))
    assert st.pending[0].kind == "grab"
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.digest() == st.digest() and legal_actions(back) == legal_actions(st)
    back.dice = ScriptedDice([4])
    for s in (st, back):
        apply(s, Grab("k", "h"))
    assert back.digest() == st.digest() and back.riders.horses["h"].led_by == "k"
    a = Grab("k", "h")
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    # a failed grab is kept in the saved state
    st = grab_game(dice=[9])
    apply(st, Move("k", RIDE))
    apply(st, Grab("k", "h"))
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.riders.grab_failed == {"k/h": 1} and back.digest() == st.digest()
    assert st.clone().riders.grab_failed == st.riders.grab_failed


def test_the_wrong_answer_to_a_grab_prompt_is_refused():
    st = grab_game()
    apply(st, Move("k", RIDE))
    for a in (Grab("k", "zz"), Lead("k", "h"), Move("k", ("0605",))):
        with pytest.raises(IllegalAction) as e:
            apply(st, a)
        assert "grab in passing" in e.value.reason
    assert st.pending[0].kind == "grab"


def test_defensive_fire_then_the_grab_at_the_same_hex():
    """Both prompts at 0606: the enemy's defensive fire first (§5.3), then the rider's grab; the
    move goes on after both."""
    st = grab_game(dice=[3], chars=[("x", "crossbowman", "B", "0211")])
    st.defensive_fire.defensive_ready = {"x"}
    apply(st, Move("k", RIDE))
    kinds = []
    while st.pending:
        p = st.pending[0]
        kinds.append((p.kind, p.data["hex"]))
        apply(st, Grab("k", "h") if p.kind == "grab" else Decline())
    assert ("defensive_fire", "0606") in kinds and kinds.index(("defensive_fire", "0606")) + 1 == kinds.index(("grab", "0606"))
    assert st.characters["k"].hex == H("0602") and st.riders.horses["h"].led_by == "k"
    no_overlap(st)


def test_the_terminal_describes_the_grab_prompt():
    from oriflamme.rulesets.magna_carta.terminal_text import describe
    from oriflamme.rulesets.magna_carta.engine.record import Game
    st = grab_game()
    apply(st, Move("k", RIDE))
    g = Game.__new__(Game)
    g.state = st
    assert "tries to grab the horse in 0705-0706 by the bridle in passing (1D10: 1-6" in describe(g.state, Grab("k", "h"))
    assert "rides on without trying" in describe(g.state, Decline())


# --- random play (property) ------------------------------------------------------------------------
def _busy(seed: int) -> GameState:
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("l", "light_cavalry", "A", "0310", {"facing": "N"}),
                     ("a", "spearman", "A", "0404"), ("b", "spearman", "A", "0808"),
                     ("c", "camel_rider", "A", "1010", {"facing": "N"}),
                     ("x", "crossbowman", "B", "0611"), ("e", "spearman", "B", "0303"),
                     ("m", "light_cavalry", "B", "0909", {"facing": "S"}), ("n", "knight", "B", "1104", {"facing": "S"})],
              step="offensive_fire")
    st.dice.seed = seed
    for hid, hx, facing, kind in (("h1", "0505", 0, "horse"), ("h2", "0403", 1, "horse"), ("h3", "0704", 0, "horse"),
                                  ("h4", "0209", 2, "horse"), ("c1", "1007", 0, "camel"), ("h5", "0802", 5, "horse")):
        st.riders.horses[hid] = Horse(hid, H(hx), facing, None, kind=kind)
    return st


@settings(max_examples=12, deadline=None)
@given(st_.integers(0, 10_000))
def test_random_play_with_horses_never_puts_a_horse_and_a_character_on_one_hex(seed):
    """Random legal play (grabs, leads, shots and attacks at horses favoured): no horse ever
    shares a hex with another horse, nor with a live character once no prompt is pending; a
    led horse touches its leader then; the state round-trips through JSON."""
    from oriflamme.core.dice import Dice
    rng = random.Random(seed)
    st = _busy(seed)
    st.dice = Dice(seed)
    no_overlap(st)
    for _ in range(160):
        if st.over:
            break
        acts = legal_actions(st)
        horsey = [a for a in acts if a.type in ("grab", "lead", "fire_at_horse", "attack_horse", "place")]
        a = rng.choice(horsey) if horsey and rng.random() < 0.6 else rng.choice(acts)
        apply(st, a)
        no_overlap(st, strict=False)
        if not st.pending:
            for x in st.riders.horses.values():
                if x.led_by is not None:
                    assert led.touches(st.characters[x.led_by], x)
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.gmap)
    assert back.digest() == st.digest()


# --- the French texts (tests/test_i18n.py corpus) ---------------------------------------------------
def corpus_texts() -> list[str]:
    """Every text these rules make the engine write (events, rulings, refusals)."""
    out: list[str] = []

    def grab(st):
        for ev in st.log:
            out.append(ev["text"])
            if "ruling" in ev:
                out.extend(ev["ruling"]["explanation"])

    def refusal(st, a):
        try:
            apply(st, a)
        except IllegalAction as exc:
            out.append(exc.reason)
            return
        raise AssertionError(a)

    for die in (2, 8):
        st = grab_game(dice=[die])
        apply(st, Move("k", TO_BY_IT))
        out.extend(explain(st, Grab("k", "h")).explanation)
        refusal(st, Lead("k", "h"))
        apply(st, Grab("k", "h"))
        if die == 8:
            refusal(st, Lead("k", "h"))
            out.extend(explain(st, Grab("k", "h")).explanation)
        grab(st)
    st = grab_game()
    out.extend(explain(st, Move("k", TO_BY_IT)).explanation)
    apply(st, Move("k", TO_BY_IT))
    apply(st, Decline())
    grab(st)
    from oriflamme.rulesets.magna_carta.engine.bridle import grab_problem
    st = grab_game(horses=[("c", "0705", 0, None, "camel"), ("h", "0505", 0, None, "horse")])
    k = st.characters["k"]
    for x in (st.riders.horses["c"], None):
        out.append(grab_problem(st, k, x)[0])
    st.riders.horses["h"].led_by = "k"
    out.append(grab_problem(st, k, st.riders.horses["c"])[0])
    st.riders.horses["h"].led_by = None
    st.riders.grab_failed["k/h"] = st.turn
    out.append(grab_problem(st, k, st.riders.horses["h"])[0])
    st.step = "melee"
    out.append(grab_problem(st, k, st.riders.horses["h"])[0])
    st.step = "movement"
    st.characters["k"].mounted = False
    out.append(grab_problem(st, k, st.riders.horses["h"])[0])
    st = game(OPEN, [("a", "spearman", "A", "0606"), ("z", "spearman", "B", "1212")], step="movement")
    st.riders.horses["c"] = Horse("c", H("0705"), 0, None, kind="camel")
    st.riders.horses["h"] = Horse("h", H("0505"), 0, None)
    apply(st, Lead("a", "c"))
    refusal(st, Lead("a", "h"))
    for die in range(1, 11):
        st = _led_fire_game(die)
        apply(st, FireAtHorse("x", "h"))
        grab(st)
    rows = [" ".join("T" * 12)] * 12
    rows[5] = rows[6] = " ".join(["T"] * 5 + ["."] + ["T"] * 6)
    st = game(rows, [("e", "spearman", "B", "0608"), ("z", "spearman", "A", "1212")], step="melee", dice=[8])
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, None)
    apply(st, AttackHorse(("e",), "h"))
    grab(st)
    rows = [" ".join("H" * 12)] * 12
    grid = [r.split() for r in rows]
    for label in ("0606", "0607", "0605"):
        grid[int(label[2:]) - 1][int(label[:2]) - 1] = "."
    st = game([" ".join(r) for r in grid], [("k", "knight", "A", "0606", {"facing": "N"}), ("f", "spearman", "A", "0605"),
                                            ("z", "spearman", "B", "1212")], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    grab(st)
    st = game(OPEN, [("a", "spearman", "A", "0605"), ("e", "spearman", "B", "0608")], step="melee", dice=[8])
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, "A", led_by="a")
    apply(st, AttackHorse(("e",), "h"))
    grab(st)
    ring = _ring()
    st = game(OPEN, [("k", "knight", "A", "0606", {"facing": "N"}), ("z", "spearman", "B", "1111"),
                     *[(f"f{i}", "spearman", "A", h.label) for i, h in enumerate(ring)]], step="melee")
    unhorse(st, st.characters["k"], False, "MC §6.8")
    refusal(st, Move("k", ("0605",)))
    apply(st, Place("k", ring[0].label))
    grab(st)
    st = grab_game()
    apply(st, Move("k", RIDE))
    refusal(st, Designate("k"))
    return out
