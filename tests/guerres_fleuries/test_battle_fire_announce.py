"""The odds of a fire order while it is being written (phase 3): the ruling of an orders action announcing
1–3 targets (l.830 "On peut choisir jusqu'à 3 cibles différentes", l.840 "Le joueur annonce quelles sont
ces cibles") gives each volley's share of the files and figures and its percentage before the roll, on
the table as it stands (OR-GF110, OR-GF140) — the browser's fire form shows them before the orders are
given."""

from __future__ import annotations

from guerres_fleuries.battle_combat_kit import battle, troop

from oriflamme.rulesets.guerres_fleuries.battle import fire_announce, fire_play, orders, volleys
from oriflamme.rulesets.guerres_fleuries.battle.actions import action_from_json
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _table():
    a = troop("archers", "A", klass="C", missile="arc", weapons=["arc"], x=90, y=90)
    bands = [troop(uid, "B", figures=3, figures_max=3, frontage=3, ranks=1, x=x, y=72)
             for uid, x in (("left", 78), ("mid", 90), ("right", 102))]
    s = battle(a, *bands, phase=3)
    s.acting = "A"
    return s


def _digest(s) -> str:
    import json
    return json.dumps(s.to_json(), sort_keys=True)


def _orders(target):
    return action_from_json({"type": "orders", "side": "A", "orders": {"archers": {"order": "tirer", "target": target}}})


def test_the_fire_order_offers_three_targets_with_its_lines():
    s = _table()
    fire = next(o for o in orders.options(s, s.units["archers"]) if o["id"] == "tirer")
    assert fire["max_targets"] == 3 and fire["targets_ref"] == "GF seed 003 l.830, l.840"


def test_the_ruling_of_three_announced_targets_is_the_phase_8_plan_on_the_table_as_it_stands():
    s = _table()
    before = _digest(s)
    r = REF.explain(s, _orders(["right", "left", "mid"]))
    assert r["legal"] is True and _digest(s) == before          # nothing changed, nothing rolled
    pv = r["fire"]["archers"]
    trial = s.clone()
    orders.set_order(trial.units["archers"], "tirer", ["right", "left", "mid"])
    expected = fire_play.plan_preview(trial, "archers")
    assert [(v["target"], v["files"], v["firing_figures"], v["percent"]) for v in pv["volleys"]] == \
        [(v["target"], v["files"], v["firing_figures"], v["percent"]) for v in expected["volleys"]]
    # ten files shared 4-3-3 left to right (OR-GF110), all three targets kept
    assert {v["target"]: v["files"] for v in pv["volleys"]} == {"left": 4, "mid": 3, "right": 3}
    assert {v["target"]: v["firing_figures"] for v in pv["volleys"]} == \
        {v["target"]: v["figures"] for v in volleys.plan(trial, trial.units["archers"])["volleys"]}
    assert "OR-GF110" in r["citations"] and fire_announce.DECISION in r["citations"]
    assert all(v["citations"] and v["explanation"] for v in pv["volleys"])
    # one ruling line per volley, in both languages
    assert sum("%" in x and "phase 8" in x for x in r["steps"]) == 3
    assert sum("%" in x and "phase 8" in x for x in r["steps_fr"]) == 3


def test_one_target_previews_what_it_fires_alone():
    s = _table()
    r = REF.explain(s, _orders("mid"))
    (v,) = r["fire"]["archers"]["volleys"]
    alone = fire_play.preview(s, "archers", "mid")
    assert (v["target"], v["firing_figures"], v["percent"]) == ("mid", alone["firing_figures"], alone["percent"])


def test_four_targets_are_refused_with_the_rule_and_nothing_previewed():
    s = _table()
    s.units["x"] = troop("x", "B", figures=5, figures_max=5, frontage=5, ranks=1, x=130, y=72)
    before = _digest(s)
    r = REF.explain(s, _orders(["left", "mid", "right", "x"]))
    assert r["legal"] is False and "1 to 3 targets" in r["reason"] and r["ref"] == orders.REF_TARGETS
    assert "fire" not in r and _digest(s) == before


def test_an_enemy_on_a_movement_base_cannot_be_announced_nor_is_it_shown():
    """GF-K5, OR-GF103: a unit on a base is unknown to the enemy; the ruling names no percentage for it."""
    s = _table()
    s.units["mid"].base = "b1"
    r = REF.explain(s, _orders(["left", "mid"]))
    assert r["legal"] is False and "mid" in r["reason"]
    r = REF.explain(s, _orders(["left", "right"]))
    assert {v["target"] for v in r["fire"]["archers"]["volleys"]} <= {"left", "right"}
    assert "mid" not in str(r["fire"])


def test_each_volley_is_named_in_the_log_in_both_languages():
    """After the fire (phase 8), each volley's event says which volley, at whom, its figures, percentage
    and hits, in English and French, its explanation and citations kept (OR-GF110)."""
    from guerres_fleuries.battle_combat_kit import ByDie
    from oriflamme.rulesets.guerres_fleuries.battle.actions import record
    s = _table()
    s.phase = 8
    orders.set_order(s.units["archers"], "tirer", ["right", "left"])
    events = fire_play.resolve(s, ByDie(d100=[1, 100], d4=[4, 4], d6=[6] * 10))
    record(s, events)
    fires = [e for e in s.log if e["type"] == "fire"]
    assert [e["volley"] for e in fires] == [1, 2]
    for e, who in zip(fires, ("right", "left")):
        assert e["text"].startswith(f"archers, volley {e['volley']} of 2:") and f"at {who}," in e["text"]
        assert e["text_fr"].startswith(f"archers, salve {e['volley']} sur 2 :") and f"sur {who}," in e["text_fr"]
        assert f"{e['percent']} %" in e["text"] and e["ruling"]["citations"] and e["ruling"]["explanation"]
        assert "OR-GF110" in e["ruling"]["citations"]


def test_a_unit_hidden_from_the_enemy_gets_no_preview():
    """OR-GF140: a ruling may be asked by either seat; the odds of a hidden unit's fire would tell where it
    stands (GF-K5: on a movement base), so none is given — the order itself stays legal."""
    s = _table()
    s.units["archers"].base = "A-base-1"
    r = REF.explain(s, _orders(["left", "mid"]))
    assert r["legal"] is True and "fire" not in r
    assert any("hidden from the enemy" in x for x in r["steps"]) and any("caché à l'ennemi" in x for x in r["steps_fr"])
    assert not any("%" in x for x in r["steps"])
