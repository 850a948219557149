"""Camels kneeling, pack camels and litters (Magna Carta §4.6.1–§4.6.4, §4.6.6, §4.6.8):
engine/kneeling.py, the scenario's ``[[animals]]``.

The camel of these boards stands with its head in 0605, facing N: its hexes are 0605-0606; the
hexes next to its head and not next to its other hex (where one orders it to kneel) are 0604,
0705 and 0505; on either side of its head (where one mounts, dismounts, gets into or out of a
litter) 0505 and 0705.
"""

from __future__ import annotations

import json

import pytest

from gamekit import LEGEND, H, ScriptedDice, board, fork

from oriflamme.rulesets.magna_carta.engine import new_game
from oriflamme.rulesets.magna_carta.engine.actions import (Action, Attack, AttackHorse, Dismount, EnterLitter, Fire, Kneel, Lead,
                                      LeaveLitter, Mount, Move, Rise)
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction, ScenarioError
from oriflamme.rulesets.magna_carta.engine.game import apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.kneeling import order_hexes, side_hexes
from oriflamme.rulesets.magna_carta.engine.lines import line_of_fire
from oriflamme.rulesets.magna_carta.engine.lone_horse import kill
from oriflamme.rulesets.magna_carta.engine.movement import points_left
from oriflamme.rulesets.magna_carta.engine.state import GameState, Horse
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.rulesets.magna_carta.scenario import validate_scenario

OPEN = [" ".join("." * 12)] * 12
MOVEMENT, MELEE, FIRE = "movement", "melee", "offensive_fire"


def scenario(chars, animals=(), **extra) -> dict:
    return dict({
        "id": "test", "name": "test", "ruleset": "magna-carta", "turns": 5, "weather": "clear", "first": "A",
        "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "character": [dict({"id": c[0], "name": c[0].capitalize(), "type": c[1], "side": c[2], "hex": c[3]},
                           **(c[4] if len(c) > 4 else {})) for c in chars],
        "animals": [dict(a) for a in animals],
        "victory": {"rout_fraction": 1.0, "objectives": [], "otherwise": "draw"},
        "map": {"boards": [{"board": "test"}]},
    }, **extra)


def camel_game(chars, animals=(), step=MOVEMENT, dice=None) -> GameState:
    st = new_game(scenario(chars, animals), board(OPEN), seed=1)
    if dice is not None:
        st.dice = ScriptedDice(dice)
    st.step = step
    return st


def validate(spec: dict, source: str, tmp_path):
    """Validate a scenario whose map is the open test board, written as a board file."""
    (tmp_path / "test.board").write_text("board: test\n" + LEGEND + "terrain:\n" + "\n".join("  " + r for r in OPEN) + "\n")
    spec = dict(spec, map={"boards": [{"path": "test.board"}]})
    return validate_scenario(spec, source, base_dir=tmp_path)


PACK = {"id": "pack", "kind": "pack_camel", "side": "A", "hex": "0605", "facing": "N"}
LITTER = {"id": "lit", "kind": "litter_camel", "side": "A", "hex": "0605", "facing": "N"}
FOE = ("foe", "spearman", "B", "0110")


def refused(st: GameState, action: Action, ref: str) -> str:
    before = st.digest()
    with pytest.raises(IllegalAction) as exc:
        apply(st, action)
    assert ref in exc.value.ref or ref in exc.value.reason, (exc.value.reason, exc.value.ref)
    assert st.digest() == before  # the state is unchanged
    if isinstance(action, (Kneel, Rise, EnterLitter, LeaveLitter, Move)):
        assert not explain(st, action).legal
    return exc.value.reason


# --- data ----------------------------------------------------------------------------------
def test_kneeling_costs_and_camel_allowances_are_cited_data():
    cm = load_ruleset().camels
    k = cm.kneeling
    assert (k.kneel_cost, k.rise_cost, k.mount_cost, k.litter_cost, k.ref) == (2, 2, 2, 4, "MC §4.6.4")
    assert [(a.kind, a.movement, a.ref) for a in cm.animal] == [
        ("camel", 12, "MC §4.6.2"), ("pack_camel", 8, "MC §4.6.2"), ("litter_camel", 8, "MC §4.6.2")]
    assert (cm.cover.kneeling, cm.cover.litter, cm.cover.passenger, cm.cover.ref) == ("medium", "heavy", "light",
                                                                                      "MC §4.6.6")
    assert [h.label for h in order_hexes(H("0605"), 0)] == ["0604", "0705", "0505"]
    assert [h.label for h in side_hexes(H("0605"), 0)] == ["0505", "0705"]


# --- kneeling and rising (§4.6.4) ------------------------------------------------------------
def test_kneel_and_rise_cost_two_points_to_the_camel_and_to_the_man_who_orders_it():
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE], [PACK])
    assert Kneel("ahmed", "pack") in legal_actions(st)
    r = explain(st, Kneel("ahmed", "pack"))
    assert r.legal and r.data["cost"] == 2 and any("MC §4.6.4" in s.ref for s in r.steps)
    ev = apply(st, Kneel("ahmed", "pack"))
    assert ev[0]["type"] == "kneel" and ev[0]["ref"] == "MC §4.6.4"
    assert st.riders.horses["pack"].kneeling
    assert (st.phase.mp_spent["ahmed"], st.phase.mp_spent["pack"]) == (2, 2)
    assert Kneel("ahmed", "pack") not in legal_actions(st) and Rise("ahmed", "pack") in legal_actions(st)
    apply(st, Rise("ahmed", "pack"))
    assert not st.riders.horses["pack"].kneeling
    assert (st.phase.mp_spent["ahmed"], st.phase.mp_spent["pack"]) == (4, 4)
    assert points_left(st, st.characters["ahmed"]) == 4


@pytest.mark.parametrize("where", ["0706", "0506", "0607", "0603"])
def test_kneel_is_ordered_only_from_next_to_the_head(where):
    st = camel_game([("ahmed", "peasant", "A", where), FOE], [PACK])
    assert "next to its head" in refused(st, Kneel("ahmed", "pack"), "MC §4.6.4")


def test_kneel_refused_without_points_to_the_man_or_to_the_camel():
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE], [PACK])
    st.phase.mp_spent["pack"] = 7
    assert "2 PM to the camel" in refused(st, Kneel("ahmed", "pack"), "MC §4.6.4")
    st.phase.mp_spent["pack"], st.phase.mp_spent["ahmed"] = 0, 7
    refused(st, Kneel("ahmed", "pack"), "MC §4.6.4")


def test_camel_rider_kneels_his_own_camel_which_then_cannot_move():
    st = camel_game([("khafr", "camel_rider", "A", "0605", {"facing": "N"}), FOE])
    k = st.characters["khafr"]
    apply(st, Kneel("khafr", "khafr"))
    assert "khafr" in st.camels.kneeling and st.phase.mp_spent["khafr"] == 2
    assert not any(isinstance(a, Move) and a.char == "khafr" for a in legal_actions(st))
    assert "must rise" in refused(st, Move("khafr", ("0604",)), "MC §4.6.4")
    apply(st, Rise("khafr", "khafr"))
    assert "khafr" not in st.camels.kneeling and points_left(st, k) == 8
    apply(st, Move("khafr", ("0604",)))
    assert k.hex == H("0604")


# --- mounting and dismounting (§4.6.4) -----------------------------------------------------------
def test_dismount_refused_while_the_camel_stands():
    st = camel_game([("khafr", "camel_rider", "A", "0605", {"facing": "N"}), FOE])
    assert not any(isinstance(a, Dismount) for a in legal_actions(st))
    assert "must kneel" in refused(st, Dismount("khafr", "0505"), "MC §4.6.4")


def test_dismount_only_on_either_side_of_the_head():
    st = camel_game([("khafr", "camel_rider", "A", "0605", {"facing": "N"}), FOE])
    apply(st, Kneel("khafr", "khafr"))
    assert sorted(a.hex for a in legal_actions(st) if isinstance(a, Dismount)) == ["0505", "0705"]
    refused(st, Dismount("khafr", "0506"), "MC §4.4.2")  # next to the camel, but not beside its head
    refused(st, Dismount("khafr", "0604"), "MC §4.4.2")


def test_worked_example_khafr_ahmed_and_hassan():
    """§4.6.4 example: Ahmed makes the litter camel kneel (2 PM); Khafr makes his camel kneel
    (2 PM) and dismounts beside its head (2 PM): 4 points left become 2 on foot. Hassan, hidden
    in the litter, was not affected by the kneeling: he gets off for 4 PM and has 2 left.
    (The example's 4 points left imply 8 at the start: Khafr has already moved 4 of his 12.)"""
    st = camel_game([("khafr", "camel_rider", "A", "0305", {"facing": "N"}), ("ahmed", "peasant", "A", "0604"),
                     ("hassan", "man_at_arms", "A", "0605"), FOE], [dict(LITTER, passenger="hassan")])
    hassan, khafr = st.characters["hassan"], st.characters["khafr"]
    assert hassan.hex is None and st.riders.horses["lit"].passenger == "hassan"
    st.phase.mp_spent["khafr"] = 4
    apply(st, Kneel("ahmed", "lit"))
    assert (st.phase.mp_spent["ahmed"], st.phase.mp_spent["lit"]) == (2, 2)
    apply(st, Kneel("khafr", "khafr"))
    ev = apply(st, Dismount("khafr", "0204"))
    assert not khafr.mounted and khafr.hex == H("0204") and points_left(st, khafr) == 2
    assert "4 PM left on horseback become 2 on foot" in ev[0]["text"]
    camel = next(x for x in st.riders.horses.values() if x.kind == "camel")
    assert camel.kneeling and camel.hex == H("0305")  # his camel stays on its knees
    assert points_left(st, hassan) == 6
    assert LeaveLitter("hassan", "0505") in legal_actions(st)
    ev = apply(st, LeaveLitter("hassan", "0505"))
    assert ev[0]["type"] == "leave_litter" and ev[0]["ref"] == "MC §4.6.4"
    assert hassan.hex == H("0505") and points_left(st, hassan) == 2 and st.riders.horses["lit"].passenger is None


def test_mount_a_camel_only_kneeling_and_from_beside_its_head():
    st = camel_game([("khafr", "camel_rider", "A", "0305", {"facing": "N"}), FOE])
    khafr = st.characters["khafr"]
    apply(st, Kneel("khafr", "khafr"))
    apply(st, Dismount("khafr", "0204"))  # 12 - 2 - 2 = 8 on the camel: 4 on foot
    camel = next(iter(st.riders.horses))
    st.riders.horses[camel].kneeling = False
    assert "must kneel" in refused(st, Mount("khafr", camel), "MC §4.6.4")
    st.riders.horses[camel].kneeling = True
    khafr.hex = H("0304")  # in front of the head, not beside it
    assert "either side of its head" in refused(st, Mount("khafr", camel), "MC §4.6.4")
    khafr.hex = H("0204")
    assert Mount("khafr", camel) in legal_actions(st)
    apply(st, Mount("khafr", camel))
    assert khafr.mounted and khafr.hex == H("0305") and "khafr" in st.camels.kneeling  # still kneeling
    assert points_left(st, khafr) == 4  # (4 - 2) × 2
    assert "must rise" in refused(st, Move("khafr", ("0304",)), "MC §4.6.4")


def test_nobody_mounts_a_pack_camel_or_a_litter_camel():
    for kind in ("pack_camel", "litter_camel"):
        st = camel_game([("khafr", "camel_rider", "A", "0305", {"facing": "N"}), FOE],
                        [dict(PACK, kind=kind, hex="0605")])
        khafr = st.characters["khafr"]
        apply(st, Kneel("khafr", "khafr"))
        apply(st, Dismount("khafr", "0204"))
        khafr.hex = H("0505")
        st.riders.horses["pack"].kneeling = True
        assert "only led by the bridle" in refused(st, Mount("khafr", "pack"), "MC §4.6.3")


# --- pack camels: 8 PM, led by the bridle (§4.6.2, §4.6.3) -----------------------------------------
def test_pack_camel_stays_put_unless_led_and_limits_its_leader_to_its_eight_points():
    # a camel rider (a horse rider leads no camel: his own mount counts, §4.6.5, tests/test_bridle_grab.py)
    st = camel_game([("reuben", "camel_rider", "A", "0706", {"facing": "N"}), FOE], [PACK])
    r = st.characters["reuben"]
    assert points_left(st, r) == 12
    apply(st, Lead("reuben", "pack"))
    assert points_left(st, r) == 8  # the pack camel's 8 PM (§4.6.2)
    assert not explain(st, Move("reuben", ("0705", "0704", "0703", "0702", "0701", "0801", "0901", "1001", "1101"))).legal
    apply(st, Move("reuben", ("0705", "0704", "0703")))
    pack = st.riders.horses["pack"]
    assert st.phase.mp_spent["pack"] == 3 and points_left(st, r) == 5
    assert any(a.distance(b) <= 1 for a in r.hexes for b in pack.hexes)  # it followed him


def test_a_kneeling_camel_does_not_follow_its_leader():
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE], [PACK])
    apply(st, Lead("ahmed", "pack"))
    apply(st, Kneel("ahmed", "pack"))
    ev = apply(st, Move("ahmed", ("0603", "0602")))
    assert st.riders.horses["pack"].hex == H("0605") and st.riders.horses["pack"].led_by is None
    assert any(e["type"] == "lead_lost" and e["ref"] == "MC §4.6.4" for e in ev)


# --- the scenario's [[animals]] ---------------------------------------------------------------------
def test_scenario_places_horses_and_camels_with_a_passenger(tmp_path):
    chars = [("hassan", "man_at_arms", "A", "0605"), ("ahmed", "peasant", "A", "0604"), FOE]
    animals = [dict(LITTER, passenger="hassan"), {"id": "h1", "kind": "horse", "hex": "0303", "facing": "S"},
               {"id": "p1", "kind": "pack_camel", "side": "B", "hex": "0909"}]
    spec, gmap = validate(scenario(chars, animals), "t.toml", tmp_path)
    st = new_game(spec, board(OPEN), seed=1)
    lit, h1, p1 = st.riders.horses["lit"], st.riders.horses["h1"], st.riders.horses["p1"]
    assert (lit.kind, lit.passenger, lit.hex, lit.facing) == ("litter_camel", "hassan", H("0605"), 0)
    assert st.characters["hassan"].hex is None
    assert (h1.kind, h1.side, h1.hex, h1.facing) == ("horse", None, H("0303"), 3)
    assert p1.kind == "pack_camel" and p1.side is None  # no B character next to it: nobody holds it (§4.6.3)
    spec2, _ = validate(scenario(chars[1:], []), "t.toml", tmp_path)
    assert "animals" not in spec2


@pytest.mark.parametrize("animal,field,why", [
    ({"kind": "mule"}, "animals[0].kind", "Input should be"),
    ({"hex": "9999"}, "animals[0].hex", "off the map"),
    ({"facing": "S", "hex": "0601"}, "animals[0].facing", "off the map"),
    ({"side": "C"}, "animals[0].side", "unknown side"),
    ({"id": "ahmed"}, "animals[0].id", "duplicate id"),
    ({"hex": "0602"}, "animals[0].hex", "already holds ahmed"),
    ({"kind": "pack_camel", "passenger": "hassan"}, "animals[0].passenger", "only a litter camel"),
    ({"passenger": "nobody"}, "animals[0].passenger", "unknown character"),
    ({"passenger": "ahmed"}, "animals[0].passenger", "head hex"),
    ({"passenger": "rider"}, "animals[0].passenger", "is a rider"),
    ({"colour": "grey"}, "animals[0].colour", "unknown field"),
])
def test_scenario_animal_errors_name_the_file_the_field_and_the_reason(animal, field, why, tmp_path):
    chars = [("hassan", "man_at_arms", "A", "0605"), ("ahmed", "peasant", "A", "0602"),
             ("rider", "knight", "A", "0309", {"facing": "N"}), FOE]
    a = dict(LITTER, **animal)
    if "passenger" not in animal:
        chars = chars[1:]
    with pytest.raises(ScenarioError) as exc:
        validate(scenario(chars, [a]), "oasis.toml", tmp_path)
    msg = str(exc.value)
    assert msg.startswith(f"oasis.toml: {field}: ") and why in msg, msg


def test_scenario_two_animals_on_one_hex(tmp_path):
    chars = [("hassan", "man_at_arms", "A", "0605"), FOE]
    with pytest.raises(ScenarioError, match=r"animals\[1\]\.hex: 0606 already holds the animal lit"):
        validate(scenario(chars, [dict(LITTER, passenger="hassan"),
                                  {"id": "x", "kind": "horse", "hex": "0606", "facing": "S"}]), "t.toml", tmp_path)


# --- the litter passenger (§4.6.1, §4.6.4, §4.6.8) --------------------------------------------------
def test_passenger_gets_in_and_out_of_a_kneeling_litter_for_four_points():
    st = camel_game([("hassan", "man_at_arms", "A", "0505"), ("ahmed", "peasant", "A", "0604"), FOE], [LITTER])
    hassan = st.characters["hassan"]
    assert "must kneel" in refused(st, EnterLitter("hassan", "lit"), "MC §4.6.4")
    apply(st, Kneel("ahmed", "lit"))
    assert EnterLitter("hassan", "lit") in legal_actions(st)
    assert explain(st, EnterLitter("hassan", "lit")).data["cost"] == 4
    ev = apply(st, EnterLitter("hassan", "lit"))
    assert ev[0]["type"] == "board_litter" and hassan.hex is None and st.riders.horses["lit"].passenger == "hassan"
    assert not any(getattr(a, "char", None) == "hassan" for a in legal_actions(st))  # passive this phase
    st2 = camel_game([("hassan", "man_at_arms", "A", "0506"), ("ahmed", "peasant", "A", "0604"), FOE], [LITTER])
    apply(st2, Kneel("ahmed", "lit"))
    assert "either side of the camel's head" in refused(st2, EnterLitter("hassan", "lit"), "MC §4.6.4")


def test_passenger_cannot_get_out_of_a_standing_litter_camel():
    st = camel_game([("hassan", "man_at_arms", "A", "0605"), ("ahmed", "peasant", "A", "0110"), FOE],
                    [dict(LITTER, passenger="hassan")])
    assert not any(isinstance(a, LeaveLitter) for a in legal_actions(st))
    assert "must kneel" in refused(st, LeaveLitter("hassan", "0505"), "MC §4.6.4")


def test_passenger_rides_with_the_led_camel():
    st = camel_game([("hassan", "man_at_arms", "A", "0605"), ("ahmed", "peasant", "A", "0604"), FOE],
                    [dict(LITTER, passenger="hassan")])
    apply(st, Lead("ahmed", "lit"))
    apply(st, Move("ahmed", ("0603", "0602")))
    lit = st.riders.horses["lit"]
    assert lit.hex != H("0605") and lit.passenger == "hassan" and st.characters["hassan"].hex is None


def test_passenger_is_not_attacked_while_the_camel_lives_and_is_after_it_falls():
    st = camel_game([("hassan", "peasant", "A", "0605"), ("ahmed", "peasant", "A", "0110"),
                     ("saladin", "spearman", "B", "0604")], [dict(LITTER, passenger="hassan")], step=MELEE)
    st.active = "B"
    acts = legal_actions(st)
    assert not any(isinstance(a, Attack) and "hassan" in a.defenders for a in acts)
    assert AttackHorse(("saladin",), "lit") in acts  # only the camel can be attacked (§4.6.8)
    refused(st, Attack(("saladin",), ("hassan",)), "")
    ev_before = len(st.log)
    kill(st, st.riders.horses["lit"], "MC §6.8")
    assert st.characters["hassan"].hex == H("0605")  # the litter falls where the camel lies
    assert any(e["type"] == "litter_falls" and e["ref"] == "MC §4.6.8" for e in st.log[ev_before:])
    assert Attack(("saladin",), ("hassan",)) in legal_actions(st)


def test_passenger_may_be_fired_at_with_light_cover():
    st = camel_game([("hassan", "man_at_arms", "B", "0605"), ("robin", "archer", "A", "0610"),
                     ("b2", "spearman", "B", "0101")], [dict(LITTER, side="B", passenger="hassan")], step=FIRE)
    assert Fire("robin", "hassan") in legal_actions(st)
    r = explain(st, Fire("robin", "hassan"))
    assert r.legal and any("in the litter: light cover" in s.text and s.ref == "MC §4.6.6" for s in r.steps)


# --- cover (§4.6.6) ------------------------------------------------------------------------------
def _cover(animal, target_hex="0604"):
    st = camel_game([("robin", "archer", "A", "0610"), ("t", "spearman", "B", target_hex)], [animal], step=FIRE)
    return line_of_fire(st, st.characters["robin"], st.characters["t"], "short")


def test_a_kneeling_camel_gives_medium_cover_to_a_man_behind_it():
    kneeling = dict(PACK, side=None)
    assert _cover(kneeling).cover == "none"  # standing: no cover of its own (§4.6.6)
    st_lof = _cover(dict(kneeling))
    assert st_lof.clear
    st = camel_game([("robin", "archer", "A", "0610"), ("t", "spearman", "B", "0604")], [kneeling], step=FIRE)
    st.riders.horses["pack"].kneeling = True
    lof = line_of_fire(st, st.characters["robin"], st.characters["t"], "short")
    assert lof.cover == "medium" and any(ref == "MC §4.6.6" for _, ref in lof.notes)
    st.characters["t"].hex = H("0602")  # two hexes beyond the camel: not behind it
    assert line_of_fire(st, st.characters["robin"], st.characters["t"], "short").cover == "none"


def test_a_litter_camel_gives_heavy_cover():
    assert _cover(dict(LITTER, side=None)).cover == "heavy"


def test_a_camel_rider_kneeling_gives_medium_cover_too():
    st = camel_game([("robin", "archer", "A", "0610"), ("t", "spearman", "B", "0604"),
                     ("k", "camel_rider", "B", "0605", {"facing": "N"})], step=FIRE)
    st.camels.kneeling.add("k")
    lof = line_of_fire(st, st.characters["robin"], st.characters["t"], "short")
    assert ("the line crosses K's kneeling camel, T stands behind it: medium cover", "MC §4.6.6") in lof.notes
    assert not lof.clear and "firing over K" in lof.reason  # the rider on it blocks the line anyway (§5.5.3)
    st.camels.kneeling.discard("k")
    assert not any("kneeling camel" in t for t, _ in line_of_fire(st, st.characters["robin"], st.characters["t"],
                                                                   "short").notes)


# --- views, JSON ---------------------------------------------------------------------------------
def test_json_round_trip_with_a_kneeling_camel_a_kneeling_rider_and_a_passenger():
    st = camel_game([("hassan", "man_at_arms", "A", "0605"), ("khafr", "camel_rider", "A", "0305", {"facing": "N"}),
                     ("ahmed", "peasant", "A", "0604"), FOE], [dict(LITTER, passenger="hassan")])
    apply(st, Kneel("ahmed", "lit"))
    apply(st, Kneel("khafr", "khafr"))
    d = json.loads(json.dumps(st.to_json()))
    back = GameState.from_json(d, st.gmap)
    assert back.to_json() == st.to_json() and back.digest() == st.digest()
    assert back.riders.horses["lit"].kneeling and back.riders.horses["lit"].passenger == "hassan" and "khafr" in back.camels.kneeling
    assert back.characters["hassan"].hex is None
    assert fork(st).camels.kneeling == {"khafr"} and fork(st).camels.kneeling is not st.camels.kneeling
    for a in (Kneel("a", "b"), Rise("a", "b"), EnterLitter("a", "b"), LeaveLitter("a", "0101")):
        assert Action.from_json(a.to_json()) == a
    from oriflamme.rulesets.magna_carta.engine.view import view
    v = view(st, "A")
    lit = next(h for h in v["horses"] if h["id"] == "lit")
    assert lit["kind"] == "litter_camel" and lit["kneeling"] and lit["passenger"] == "hassan"


# --- the i18n corpus (tests/test_i18n.py) ------------------------------------------------------------
def corpus_texts() -> list[str]:
    """Every text this topic makes the engine write (events, rulings, refusals), for the
    coverage corpus of tests/test_i18n.py."""
    out: list[str] = []

    def texts(st, first=0):
        for ev in st.log[first:]:
            out.append(ev["text"])
            if isinstance(ev.get("ruling"), dict):
                out.extend(ev["ruling"].get("explanation", []))

    def probe(st, action):
        """The preview of ``action``, and its events (on a copy) or its refusal."""
        r = explain(st, action).to_json()
        out.extend(r.get("explanation", []))
        out.append(r.get("reason") or "")
        try:
            s2 = fork(st)
            n = len(s2.log)
            apply(s2, action)
            texts(s2, n)
        except IllegalAction as exc:
            out.extend([exc.reason, str(exc)])

    chars = [("khafr", "camel_rider", "A", "0305", {"facing": "N"}), ("ahmed", "peasant", "A", "0604"),
             ("hassan", "man_at_arms", "A", "0605"), ("omar", "man_at_arms", "A", "0705"),
             ("sami", "peasant", "A", "0110", {"status": "stunned"}), FOE]
    st = camel_game(chars, [dict(LITTER, passenger="hassan"), dict(PACK, id="pack", hex="0809", side=None)])
    for a in (Kneel("ahmed", "lit"), Kneel("ahmed", "pack"), Kneel("khafr", "khafr"), Rise("khafr", "khafr"),
              Rise("ahmed", "lit"), LeaveLitter("hassan", "0505"), EnterLitter("omar", "lit"),
              EnterLitter("omar", "pack"), Dismount("khafr", "0204"), Kneel("nobody", "lit"), Kneel("foe", "lit"),
              Kneel("sami", "lit"), Kneel("ahmed", "ahmed"), Kneel("ahmed", "nothing"), LeaveLitter("ahmed", "0505"),
              LeaveLitter("hassan", "zz")):
        probe(st, a)
    apply(st, Kneel("ahmed", "lit"))
    apply(st, Kneel("khafr", "khafr"))
    for a in (Kneel("ahmed", "lit"), Rise("ahmed", "lit"), Rise("khafr", "khafr"), Kneel("khafr", "khafr"),
              LeaveLitter("hassan", "0605"), LeaveLitter("hassan", "0505"), Dismount("khafr", "0204"),
              Move("khafr", ("0304",))):
        probe(st, a)
    apply(st, Dismount("khafr", "0204"))
    camel = next(x for x in st.riders.horses if st.riders.horses[x].kind == "camel")
    for a in (Mount("khafr", camel), Mount("khafr", "pack")):
        probe(st, a)
    st.characters["khafr"].hex = H("0304")
    probe(st, Mount("khafr", camel))
    st.riders.horses[camel].kneeling = False
    probe(st, Mount("khafr", camel))
    apply(st, LeaveLitter("hassan", "0505"))
    probe(st, EnterLitter("hassan", "lit"))  # no points left
    probe(st, EnterLitter("omar", "lit"))
    apply(st, EnterLitter("omar", "lit"))
    probe(st, LeaveLitter("omar", "0705"))  # no points left
    probe(st, EnterLitter("ahmed", "lit"))  # not beside the head
    st.characters["ahmed"].hex = H("0505")
    probe(st, EnterLitter("ahmed", "lit"))  # full
    st.phase.mp_spent["ahmed"] = 7
    probe(st, Rise("ahmed", "lit"))
    st.phase.mp_spent["ahmed"], st.phase.mp_spent["lit"] = 0, 7
    probe(st, Rise("ahmed", "lit"))
    st.phase.mp_spent["lit"] = 0
    st.characters["ahmed"].hex = H("0706")
    probe(st, Rise("ahmed", "lit"))
    st.riders.horses["lit"].side = "B"
    probe(st, Rise("ahmed", "lit"))
    # a kneeling camel let go by its leader
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE], [PACK])
    apply(st, Lead("ahmed", "pack"))
    apply(st, Kneel("ahmed", "pack"))
    apply(st, Move("ahmed", ("0603", "0602")))
    texts(st)
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE],
                    [PACK, {"id": "h", "kind": "horse", "side": "A", "hex": "0703", "facing": "N"}])
    apply(st, Lead("ahmed", "pack"))
    probe(st, Lead("ahmed", "h"))
    # getting into a litter: standing, leading animals, on horseback
    st = camel_game([("hassan", "man_at_arms", "A", "0505"), ("ahmed", "peasant", "A", "0604"),
                     ("rider", "knight", "A", "0705", {"facing": "N"}), FOE], [LITTER])
    probe(st, EnterLitter("hassan", "lit"))
    apply(st, Kneel("ahmed", "lit"))
    apply(st, Lead("ahmed", "lit"))
    st.characters["hassan"].hex, st.characters["ahmed"].hex = H("0108"), H("0505")
    probe(st, EnterLitter("ahmed", "lit"))
    probe(st, EnterLitter("rider", "lit"))
    probe(st, EnterLitter("hassan", "lit"))  # not beside the head
    # fire at a passenger; cover behind a litter, a kneeling camel, a kneeling camel rider; the litter falls
    st = camel_game([("hassan", "man_at_arms", "B", "0605"), ("robin", "archer", "A", "0610"),
                     ("b2", "spearman", "B", "0604"), ("sal", "spearman", "B", "0101"),
                     ("k", "camel_rider", "B", "0303", {"facing": "N"}), ("t", "spearman", "B", "0302")],
                    [dict(LITTER, side="B", passenger="hassan"), dict(PACK, id="k2", hex="0807", side="B")], step=FIRE)
    st.riders.horses["k2"].kneeling = True
    st.camels.kneeling.add("k")
    probe(st, Fire("robin", "hassan"))
    probe(st, Fire("robin", "b2"))
    for target, at in (("b2", "0806"), ("t", "0302")):
        st.characters[target].hex = H(at)
        lof = line_of_fire(st, st.characters["robin"], st.characters[target], "short")
        out.extend(f"{t} ({ref})" for t, ref in lof.notes)
    st.characters["hassan"].status = "stunned"
    st.active, st.step = "B", MOVEMENT
    st.riders.horses["lit"].kneeling = True
    probe(st, LeaveLitter("hassan", "0505"))
    kill(st, st.riders.horses["lit"], "MC §6.8")
    texts(st)
    # the passenger is passive (§4.6.8)
    st = camel_game([("hassan", "javelinman", "A", "0605"), ("ahmed", "peasant", "A", "0110"),
                     ("saladin", "peasant", "B", "0604")], [dict(LITTER, passenger="hassan")], step=FIRE)
    probe(st, Fire("hassan", "saladin"))
    st.step = MOVEMENT
    probe(st, Move("hassan", ("0505",)))
    return [t for t in out if t]


def test_corpus_texts_have_french_templates():
    from oriflamme.rulesets.magna_carta.i18n import missing
    texts = corpus_texts()
    miss = sorted({t for t in texts if missing(t, "fr")})
    assert not miss, "\n".join(miss)


# --- terminal and browser -------------------------------------------------------------------------
def test_terminal_describes_and_browser_lists_the_new_actions():
    from oriflamme.rulesets.magna_carta.terminal_text import describe
    from oriflamme.rulesets.magna_carta.engine.record import Game
    from oriflamme.rulesets.magna_carta.web_options import options
    g = Game(scenario([("khafr", "camel_rider", "A", "0305", {"facing": "N"}), ("ahmed", "peasant", "A", "0604"),
                       ("hassan", "man_at_arms", "A", "0605"), FOE], [dict(LITTER, passenger="hassan")]),
             board(OPEN), seed=1)
    st = g.state
    st.step = MOVEMENT
    assert "makes his camel kneel" in describe(g.state, Kneel("khafr", "khafr"))
    assert "makes the litter camel in 0605-0606 kneel" in describe(g.state, Kneel("ahmed", "lit"))
    extras = [e["action"] for e in options(st)["extras"]]
    assert {"type": "kneel", "char": "ahmed", "animal": "lit"} in extras
    assert {"type": "kneel", "char": "khafr", "animal": "khafr"} in extras
    g.apply(Kneel("ahmed", "lit"))
    extras = [e["action"] for e in options(st)["extras"]]
    assert {"type": "leave_litter", "char": "hassan", "hex": "0505"} in extras
    assert {"type": "rise", "char": "ahmed", "animal": "lit"} in extras
    assert "gets out of the litter into 0505" in describe(g.state, LeaveLitter("hassan", "0505"))
    assert "makes the litter camel in 0605-0606 rise" in describe(g.state, Rise("ahmed", "lit"))
    g.apply(LeaveLitter("hassan", "0505"))
    assert "gets into the litter" in describe(g.state, EnterLitter("hassan", "lit"))


def test_camels_and_horses_are_not_led_together():
    st = camel_game([("ahmed", "peasant", "A", "0604"), FOE],
                    [PACK, {"id": "h", "kind": "horse", "side": "A", "hex": "0703", "facing": "N"}])
    apply(st, Lead("ahmed", "pack"))
    assert Lead("ahmed", "h") not in legal_actions(st)
    assert "not mixed when led" in refused(st, Lead("ahmed", "h"), "MC §4.6.5")


@pytest.mark.parametrize("die", [1, 3, 5, 8, 10])
def test_fire_at_a_passenger_applies_its_result_and_leaves_him_in_the_litter(die):
    st = camel_game([("hassan", "man_at_arms", "B", "0605"), ("robin", "archer", "A", "0610"),
                     ("b2", "spearman", "B", "0101")], [dict(LITTER, side="B", passenger="hassan")], step=FIRE,
                    dice=[die, 5, 5, 5])
    ev = apply(st, Fire("robin", "hassan"))
    hassan = st.characters["hassan"]
    assert ev[0]["type"] == "fire" and hassan.hex is None and st.riders.horses["lit"].passenger == "hassan"
    assert not any(e["type"] == "retreat" for e in ev)  # a retreat result leaves him in the litter


def test_the_passenger_is_passive_he_neither_moves_fires_nor_attacks():
    st = camel_game([("hassan", "javelinman", "A", "0605"), ("ahmed", "peasant", "A", "0110"),
                     ("saladin", "peasant", "B", "0604")], [dict(LITTER, passenger="hassan")], step=FIRE)
    assert not any(getattr(a, "shooter", None) == "hassan" for a in legal_actions(st))
    assert "passive" in refused(st, Fire("hassan", "saladin"), "MC §4.6.8")
    st.step = MOVEMENT
    assert "passive" in refused(st, Move("hassan", ("0505",)), "MC §4.6.8")
    st.step = MELEE
    assert "passive" in refused(st, Attack(("hassan",), ("saladin",)), "MC §4.6.8")
    st.active = "B"
    assert "only the camel can be attacked" in refused(st, Attack(("saladin",), ("hassan",)), "MC §4.6.8")
