"""Camels on the map (Magna Carta §4.6): camel riders, the horses' fear test (§4.6.5), the
column shift of horse riders next to a camel (§4.6.8), the camel rider's javelins (§4.6.7)."""

from __future__ import annotations

import json

from gamekit import H, game, fork

from oriflamme.rulesets.magna_carta.engine.actions import Attack, Move
from oriflamme.rulesets.magna_carta.engine.camels import is_camel, is_horse, melee_shifts
from oriflamme.rulesets.magna_carta.engine.fire import weapon_problem
from oriflamme.rulesets.magna_carta.engine.game import apply, explain
from oriflamme.rulesets.magna_carta.engine.horses import to_foot
from oriflamme.rulesets.magna_carta.engine.state import GameState
from oriflamme.rulesets.magna_carta.resolve.camels import fear_test
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

OPEN = [" ".join("." * 12)] * 12
MOVEMENT, MELEE = "movement", "melee"


def camel_game(rider="knight", extra=(), dice=None, step=MOVEMENT, at="0606", over=None):
    return game(OPEN, [("k", rider, "A", at, dict({"facing": "N"}, **(over or {}))),
                       ("c", "camel_rider", "B", "0602", {"facing": "N"}), *extra], step=step, dice=dice)


# --- data -----------------------------------------------------------------------------------
def test_camel_rider_is_a_rider_on_a_war_camel_of_12_points():
    rs = load_ruleset()
    ct = rs.character_types["camel_rider"]
    assert (ct.mounted, ct.mount, ct.movement, ct.weapon) == (True, "camel", 12, "javelin_camel")
    assert rs.character_types["knight"].mount == "horse"
    assert rs.character_types["turcopole"].used_to_camels and not rs.character_types["knight"].used_to_camels
    st = camel_game()
    c, k = st.characters["c"], st.characters["k"]
    assert is_camel(st, c) and not is_horse(st, c)
    assert is_horse(st, k) and not is_camel(st, k)
    assert [h.label for h in c.hexes] == ["0602", "0603"]  # two hexes, like any rider (§1.2)
    assert c.used_to_camels


def test_camel_rider_moves_like_a_rider():
    st = camel_game(at="0610")
    st.active = "B"
    r = explain(st, Move("c", ("0601",)))
    assert r.legal and r.data["cost"] == 1


def test_fear_table_with_the_bonus_of_saracens_bedouins_and_turcopoles():
    rs = load_ruleset()
    assert [fear_test(rs, False, d).result for d in (1, 4, 5, 7, 8, 10)] == \
        ["frightened", "frightened", "forced", "forced", "none", "none"]
    assert [fear_test(rs, True, d).result for d in (2, 3, 5, 6)] == ["frightened", "forced", "forced", "none"]
    assert any("MC §4.6.5" in s.ref for s in fear_test(rs, True, 3).steps)


# --- §4.6.5 the fear test during a move ---------------------------------------------------------
def test_frightened_horse_backs_away_to_where_it_came_from():
    st = camel_game(dice=[3])
    k = st.characters["k"]
    apply(st, Move("k", ("0605", "0604")))  # 0604 is next to the camel's rear hex 0603
    assert (k.hex, k.facing) == (H("0605"), 0)
    assert any(e["type"] == "move" and e["text"].endswith("and is stopped") for e in st.log)
    ev = [e for e in st.log if e["type"] == "fear"]
    assert len(ev) == 1 and "backs away" in ev[0]["text"] and ev[0]["ref"] == "MC §4.6.5"
    assert st.riders.frightened == {"k": st.turn}


def test_forced_horse_enters_and_is_marked():
    st = camel_game(dice=[6])
    k = st.characters["k"]
    apply(st, Move("k", ("0605", "0604")))
    assert k.hex == H("0604")
    assert st.riders.frightened == {"k": st.turn}


def test_no_consequence_on_eight_or_more_and_turcopole_bonus():
    st = camel_game(dice=[8])
    apply(st, Move("k", ("0605", "0604")))
    assert st.characters["k"].hex == H("0604") and not st.riders.frightened
    st = camel_game(rider="turcopole", dice=[3])  # 3 + 2 = 5: forced on (Reuben, §4.6.5)
    apply(st, Move("k", ("0605", "0604")))
    assert st.characters["k"].hex == H("0604") and st.riders.frightened == {"k": st.turn}


def test_scenario_override_used_to_camels():
    st = camel_game(dice=[6], over={"used_to_camels": True})  # 6 + 2 = 8: nothing
    apply(st, Move("k", ("0605", "0604")))
    assert not st.riders.frightened


def test_no_test_when_already_next_to_the_camel():
    st = camel_game(at="0704", dice=[])  # 0704 touches the camel's hex 0603
    k = st.characters["k"]
    assert k.touches(st.characters["c"])
    apply(st, Move("k", ("0703",)))  # still next to it: no die rolled (ScriptedDice would fail)
    assert k.hex == H("0703") and not st.riders.frightened


def test_camels_and_riders_on_foot_take_no_test():
    st = camel_game(rider="camel_rider", dice=[])
    apply(st, Move("k", ("0605", "0604")))
    assert st.characters["k"].hex == H("0604")
    st = camel_game(rider="spearman", dice=[], over={"facing": None})
    apply(st, Move("k", ("0605", "0604")))
    assert st.characters["k"].hex == H("0604")


# --- §4.6.8 combat, with the §4.6.5 worked example ------------------------------------------
def test_worked_example_sir_michael_and_reuben_against_the_camels():
    """§4.6.5: Sir Michael (Templar, 28) passes his infiltration test next to Hakim (13), rolls 3
    for the fear test next to Khafr's camel and backs away, but still attacks Hakim: 28:13 (2-1)
    becomes 1-1. Reuben the Turcopole (15) rolls 3 too, +2: he enters and attacks Farhad (4):
    15:4 (3-1) becomes 2-1."""
    chars = [("michael", "knight", "A", "0506", {"facing": "N"}),
             ("reuben", "turcopole", "A", "0706", {"facing": "N"}),
             ("khafr", "camel_rider", "B", "0602", {"facing": "N"}),
             ("hakim", "spearman", "B", "0404", {"defence": 13}),
             ("farhad", "peasant", "B", "0803")]
    st = game(OPEN, chars, step=MOVEMENT, dice=[3, 1, 3])
    m, r = st.characters["michael"], st.characters["reuben"]
    apply(st, Move("reuben", ("0705", "0704")))  # 0704 touches Khafr's camel (0603) and Farhad
    assert r.hex == H("0704") and st.riders.frightened["reuben"] == st.turn
    apply(st, Move("michael", ("0505", "0504")))  # infiltration next to Hakim (die 1), fear test in 0504
    assert [e["type"] for e in st.log[-4:]].count("infiltration") == 1
    assert m.hex == H("0505") and st.riders.frightened["michael"] == st.turn  # backed away, still next to Hakim
    st.step = MELEE
    ru = explain(st, Attack(("michael",), ("hakim",)))
    assert ru.legal, ru.reason
    assert ru.data["odds"] == "2-1" and ru.data["column_index"] == 1
    assert any(s.ref == "MC §4.6.5, §4.6.8" for s in ru.steps)
    ru = explain(st, Attack(("reuben",), ("farhad",)))
    assert ru.legal, ru.reason
    assert ru.data["odds"] == "3-1" and ru.data["column_index"] == 2


def test_horse_rider_next_to_a_camel_fights_one_column_left_once():
    st = camel_game(at="0704", step=MELEE, extra=[("s", "spearman", "B", "0804")])
    k = st.characters["k"]
    shifts = melee_shifts(st, [k], [st.characters["s"]])
    assert [s for s, _, _ in shifts] == [-1]
    st.riders.frightened["k"] = st.turn  # frightened and next to a camel: still one column
    assert [s for s, _, _ in melee_shifts(st, [k], [st.characters["s"]])] == [-1]
    st.riders.frightened["k"] = st.turn - 1  # last turn's fright is over
    assert [s for s, _, _ in melee_shifts(st, [k], [st.characters["s"]])] == [-1]


def test_defending_horse_rider_next_to_a_camel_favours_the_attacker():
    st = camel_game(at="0704", step=MELEE, extra=[("s", "spearman", "B", "0804")])
    k, s, c = st.characters["k"], st.characters["s"], st.characters["c"]
    assert [v for v, _, _ in melee_shifts(st, [s], [k])] == [1]
    assert [v for v, _, _ in melee_shifts(st, [c], [k])] == [1]  # also against the camel rider
    assert melee_shifts(st, [k.__class__(**{**k.__dict__, "id": "x", "hex": H("1010")})], [s]) == []


# --- §4.6.7 javelins ---------------------------------------------------------------------
def test_camel_rider_javelin_offensive_and_defensive_on_camel_and_on_foot():
    rs = load_ruleset()
    for w in ("javelin_camel", "javelin_camel_foot"):
        assert [(x.fire, x.movement) for x in rs.weapons[w].choices] == [("offensive_and_defensive", "full")]
        assert rs.weapons[w].ammunition is None  # the optional limit of 4 is off
    assert rs.camels.javelins.optional_limit == 4
    st = camel_game(at="1010")
    c = st.characters["c"]
    assert weapon_problem(st, c) is None
    to_foot(st, c)
    assert c.weapon == "javelin_camel_foot" and weapon_problem(st, c) is None


# --- state ---------------------------------------------------------------------------------
def test_frightened_and_used_to_camels_survive_json_and_clone():
    st = camel_game(dice=[6], over={"used_to_camels": True})
    st.riders.frightened["k"] = 1
    d = json.loads(json.dumps(st.to_json()))
    st2 = GameState.from_json(d, st.gmap)
    assert st2.riders.frightened == {"k": 1} and st2.characters["k"].used_to_camels
    c = fork(st)
    c.riders.frightened["z"] = 2
    assert "z" not in st.riders.frightened
    old = dict(d)
    old.pop("frightened")
    for ch in old["characters"].values():
        ch.pop("used_to_camels")
    st3 = GameState.from_json(old, st.gmap)
    assert st3.riders.frightened == {} and not st3.characters["k"].used_to_camels


def test_camel_rider_declares_both_fires_and_keeps_his_full_movement():
    from oriflamme.rulesets.magna_carta.engine.actions import Declare, Fire
    from oriflamme.rulesets.magna_carta.engine.defensive_fire import declare_choices
    from oriflamme.rulesets.magna_carta.engine.movement import allowance
    st = game(OPEN, [("c", "camel_rider", "A", "0606", {"facing": "N"}), ("s", "spearman", "B", "0601")],
              step="offensive_fire")
    c = st.characters["c"]
    assert declare_choices(st, c) == ["offensive_and_defensive"]
    apply(st, Declare("c", "offensive_and_defensive"))
    assert allowance(st, c) == 12  # no movement limit (§4.6.7)
    r = explain(st, Fire("c", "s"))
    assert r.legal, r.reason


def test_fire_at_a_camel_rider_reads_the_mounted_table():
    """§4.6.6: the standard cover of riders applies to camels (the mounted table, D9)."""
    from oriflamme.rulesets.magna_carta.engine.actions import Fire
    st = game(OPEN, [("c", "camel_rider", "A", "0606", {"facing": "N"}), ("x", "crossbowman", "B", "0610")],
              step="offensive_fire")
    st.active = "B"
    r = explain(st, Fire("x", "c"))
    assert r.legal and r.data["table"] == "vs_mounted"


def test_a_riderless_camel_frightens_horses_too():
    """§4.6.5 « tout cheval entrant dans une case adjacente à un dromadaire »: ridden or not."""
    from oriflamme.rulesets.magna_carta.engine.camels import camels_next_to
    from oriflamme.rulesets.magna_carta.engine.state import Horse
    st = game([" ".join("." * 10)] * 10, [("k", "knight", "A", "0506", {"facing": "N"}),
                                         ("z", "spearman", "B", "0909")], step="movement")
    st.riders.horses["cam"] = Horse("cam", H("0503"), 0, None, kind="camel")
    near = camels_next_to(st, (H("0504"),))
    assert [x.id for x in near] == ["cam"]
    st.riders.horses["cam"].kind = "horse"
    assert camels_next_to(st, (H("0504"),)) == []
