"""Fire at up to three targets (GF seed 003 l.830 "On peut choisir jusqu'à 3 cibles différentes", l.840
"Elle peut avoir jusqu'à trois cibles différentes. Le joueur annonce quelles sont ces cibles"; the
priorities l.1454-1459; the sharing of the files, OR-GF110): each volley is the part-1 referee's ruling
on its own situation, the casualties of all volleys are removed together (l.826)."""

from __future__ import annotations

import itertools
import math

import pytest
from guerres_fleuries.battle_combat_kit import ByDie, battle, troop
from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line
from hypothesis import given
from hypothesis import strategies as st

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop
from oriflamme.rulesets.guerres_fleuries.battle import combat_data, fire_play, volleys
from oriflamme.rulesets.guerres_fleuries.battle.fighters import depth, pose, width
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _archers(**kw):
    base = dict(klass="C", missile="arc", order="tirer", x=90, y=90)
    base.update(kw)
    return troop("archers", "A", **base)


def _band(uid, x, y=72, **kw):
    base = dict(figures=5, figures_max=5, frontage=5, ranks=1, x=x, y=y)
    base.update(kw)
    return troop(uid, "B", **base)


def _corner_distance(a, b) -> float:
    ca = tabletop.corners(pose(a), width(a), depth(a))
    cb = tabletop.corners(pose(b), width(b), depth(b))
    return max(math.dist(p, q) for p, q in itertools.product(ca, cb))


def _hand(a, b, figures: int) -> dict:
    # written from the seed: Homme, bow (l.1478), class C shooter (l.1500), a one-rank target (l.1502)
    return {"kind": "fire", "shooter_race": "Homme", "weapon": "Arc", "distance_cm": round(_corner_distance(a, b), 3),
            "target_armour": "sans_armure", "firing_figures": figures, "target": "unité", "shooter_class": "C",
            "target_ranks": 1}


def test_the_seed_allows_three_targets_and_the_battle_plays_three():
    assert "jusqu'à 3 cibles" in line(830) and "jusqu'à trois cibles" in line(840)
    d = combat_data.data().fire_targets
    assert d.max_printed == d.max_played == 3 and "OR-GF110" in d.decision


def test_two_announced_targets_share_the_files_and_each_volley_is_the_referees():
    """l.840: the player announces two targets of the same priority (the nearest-enemy priority, l.1459):
    the ten files are shared five and five, left block at the left target (OR-GF110); each volley's
    percentage is the part-1 referee's on a situation with its own figures (procedure step 6, l.1468)."""
    a = _archers(target="right", fire_targets=["right", "left"])
    left, right = _band("left", 80), _band("right", 100)
    stt = battle(a, left, right)
    plan = volleys.plan(stt, a)
    assert [(v["target"], v["files"], v["figures"]) for v in plan["volleys"]] == [("right", 5, 10), ("left", 5, 10)]
    pv = {v["target"]: v for v in fire_play.plan_preview(stt, "archers")["volleys"]}
    for b in (left, right):
        r = REF.adjudicate(_hand(a, b, 10))
        assert (pv[b.id]["percent"], pv[b.id]["extra_if_d100_at_most"]) == (r["final_pct"], r["extra_if_d100_at_most"])
    # resolution: one d100 per volley, in the order announced; the casualties removed together
    r_right = REF.adjudicate({**_hand(a, right, 10), "d100": 1})
    r_left = REF.adjudicate({**_hand(a, left, 10), "d100": 100})
    dice = ByDie(d100=[1, 100], d4=[4, 4], d6=[6] * 10)
    events = fire_play.resolve(stt, dice)
    fires = [e for e in events if e["type"] == "fire"]
    assert [(f["target"], f["volley"], f["volleys"], f["firing_figures"]) for f in fires] == \
        [("right", 1, 2, 10), ("left", 2, 2, 10)]
    hits = {f["target"]: f["hits"] for f in fires}
    assert hits["right"] == r_right["eliminated"] + (1 if r_right["extra"] else 0)
    assert hits["left"] == r_left["eliminated"] + (1 if r_left["extra"] else 0)
    kinds = [e["type"] for e in events]
    assert kinds.index("casualties") > max(i for i, k in enumerate(kinds) if k == "fire")  # l.826
    assert any("shared between the 2 targets" in s for s in fires[0]["explanation"])
    assert "OR-GF110" in fires[0]["citations"]


def test_three_targets_share_ten_files_four_three_three():
    a = _archers(fire_targets=["c", "b", "a"], target="c")
    units = [_band("a", 78, figures=3, frontage=3), _band("b", 90, figures=3, frontage=3), _band("c", 102, figures=3, frontage=3)]
    plan = volleys.plan(battle(a, *units), a)
    got = {v["target"]: (v["files"], v["figures"]) for v in plan["volleys"]}
    assert got == {"a": (4, 8), "b": (3, 6), "c": (3, 6)}


def test_the_priorities_come_first_a_charger_takes_all_the_fire():
    """l.1456: troops charging the unit are the first priority: announced targets of the nearest-enemy
    priority are not fired at while it is present."""
    a = _archers(fire_targets=["left", "right"], target="left")
    left, right = _band("left", 80), _band("right", 100)
    charger = _band("charger", 90, y=64, order="charger", target="archers")
    plan = volleys.plan(battle(a, left, right, charger), a)
    assert [v["target"] for v in plan["volleys"]] == ["charger"]
    assert plan["volleys"][0]["figures"] == 20
    assert any("not of the first priority present" in s for s in plan["steps"])
    assert "GF seed 003 l.1456" in plan["citations"]


def test_an_announced_target_out_of_the_arc_is_dropped_and_the_other_gets_every_file():
    a = _archers(fire_targets=["front", "aside"], target="front")
    front, aside = _band("front", 90), _band("aside", 160, y=90)
    plan = volleys.plan(battle(a, front, aside), a)
    assert [(v["target"], v["figures"]) for v in plan["volleys"]] == [("front", 20)]
    assert any("aside is not eligible" in s for s in plan["steps"])


def test_one_target_is_what_it_was_before():
    a = _archers(target="left")
    left, right = _band("left", 80), _band("right", 100)
    stt = battle(a, left, right)
    plan = volleys.plan(stt, a)
    assert [(v["target"], v["figures"]) for v in plan["volleys"]] == [("left", fire_play.firing_figures(stt, a, left)[0])]
    assert fire_play.choose_target(stt, a)[0].id == "left"


def test_a_file_that_cannot_see_its_blocks_target_fires_at_the_other():
    """l.844: only the figures that see fire; the three left files, whose block shoots at the left target,
    have a house between them and it (files at x = 81, 83, 85): they fire at the right target they see."""
    a = _archers(fire_targets=["left", "right"], target="left")
    left, right = _band("left", 80), _band("right", 100)
    house = [{"id": "h", "kind": "hameau", "name": "house", "points": [[78, 80], [86, 80], [86, 82], [78, 82]]}]
    stt = battle(a, left, right, elements=house)
    assert fire_play.seeing_files(stt, a, left) == 7 and fire_play.seeing_files(stt, a, right) == 10
    assert volleys.file_targets(stt, a, [left, right]) == ["right"] * 3 + ["left"] * 2 + ["right"] * 5
    plan = volleys.plan(stt, a)
    assert [(v["target"], v["files"], v["figures"]) for v in plan["volleys"]] == [("left", 2, 4), ("right", 8, 16)]


@given(total=st.integers(0, 60), files=st.lists(st.integers(0, 10), min_size=1, max_size=3))
def test_the_figures_are_shared_in_proportion_to_the_files(total, files):
    ids = [f"t{i}" for i in range(len(files))]
    got = volleys.share(total, dict(zip(ids, files)), ids)
    n = sum(files)
    if n == 0:
        assert set(got.values()) == {0}
        return
    assert sum(got.values()) == total
    for tid, f in zip(ids, files):
        assert abs(got[tid] - total * f / n) < 1
        if f == 0:
            assert got[tid] == 0


def test_announcing_targets_is_checked_with_the_rule_and_the_state_left_unchanged():
    g = game("fire-targets")
    to_phase(g, 3)
    rs = ruleset()
    before = rs.digest(g.state)
    enemies = [u.id for u in g.state.side_units("B")]
    archers = next((u.id for u in g.state.side_units("A") if u.missile and u.kind == "troop"), None)
    if archers is None:
        pytest.skip("the bundled scenario's side A has no missile troop")
    bad = [({archers: {"order": "tirer", "target": enemies[:4]}}, "1 to 3 targets", "l.830"),
           ({archers: {"order": "tirer", "target": [enemies[0], enemies[0]]}}, "different units", "l.840"),
           ({archers: {"order": "tirer", "target": [enemies[0], archers]}}, "enemy units", ""),
           ({archers: {"order": "avancer", "target": enemies[:2]}}, "takes one target", "")]
    for orders, why, ref in bad:
        with pytest.raises(IllegalAction, match=why) as err:
            rs.apply(g.state, {"type": "orders", "side": "A", "orders": orders})
        assert ref in str(err.value) + str(getattr(err.value, "ref", ""))
        assert rs.digest(g.state) == before
    rs.apply(g.state, {"type": "orders", "side": "A", "orders": {archers: {"order": "tirer", "target": enemies[:2]}}})
    u = g.state.units[archers]
    assert u.fire_targets == enemies[:2] and u.target == enemies[0]
    # the other side does not see them before the reveal (l.275); the owner does
    assert rs.view(g.state, "B")["units"][[x.id for x in g.state.units.values()].index(archers)]["order"] is None
    mine = next(x for x in rs.view(g.state, "A")["units"] if x["id"] == archers)
    assert mine["order"]["targets"] == enemies[:2]
    # the record round-trips the list
    a = rs.action_from_json({"type": "orders", "side": "A", "orders": {archers: {"order": "tirer", "target": enemies[:2]}}})
    assert rs.action_from_json(rs.action_to_json(a)) == a
