"""The computer player's reading of the melees around a unit (issue 13 item 6, eighth session): a
unit charges one enemy (l.391-393) and fights the figures it touches (l.933), so the *threats* term
may count each unit's best melee alone (``threats_others``), and the sets of orders may decide an
advance by every enemy around a unit rather than the nearest (``advance_rule``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from oriflamme.rulesets.guerres_fleuries.battle import evaluation, odds

from .battle_engine_kit import game


def with_weights(monkeypatch, **changes):
    data = odds.load_weights()
    patched = data.model_copy(update={"weights": data.weights.model_copy(update=changes)})
    monkeypatch.setattr(odds, "load_weights", lambda *a, **k: patched)
    monkeypatch.setattr(evaluation, "load_weights", lambda *a, **k: patched)
    return patched


gains_st = hs.dictionaries(hs.sampled_from(["A1", "A2", "A3", "B1", "B2", "B8"]),
                           hs.lists(hs.floats(-500, 500, allow_nan=False).filter(lambda x: x != 0), min_size=1,
                                    max_size=5), max_size=6)


@given(gains_st, hs.floats(0, 1))
def test_threat_sum_counts_each_unit_best_melee_and_the_others_at_their_share(gains, others):
    every = sum(sum(xs) for xs in gains.values())
    best = sum(max(xs, key=abs) for xs in gains.values())
    assert evaluation.threat_sum(gains, 1.0) == pytest.approx(every)
    assert evaluation.threat_sum(gains, 0.0) == pytest.approx(best)
    mixed = evaluation.threat_sum(gains, others)
    assert mixed == pytest.approx(best + others * (every - best))
    assert abs(mixed) <= sum(abs(x) for xs in gains.values() for x in xs) + 1e-9


def monster_among_three(st):
    """The Grand saurien (B8) a few cm in front of three Aztec units it beats in melee, nothing else."""
    keep = {"B8", "A4", "A5", "A7"}
    st.units = {k: u for k, u in st.units.items() if k in keep}
    m = st.units["B8"]
    for i, uid in enumerate(("A4", "A5", "A7")):
        u = st.units[uid]
        u.x, u.y, u.heading = 40.0 + 45.0 * i, 70.0, 0.0
    m.x, m.y, m.heading = 85.0, 70.0 - 30.0, 180.0
    return st


def test_a_lone_monster_threatens_one_unit_not_three(monkeypatch):
    st = monster_among_three(game("ai-threats").state.clone())
    rd = odds.Reading(st)
    pairs = {uid: rd.exchange(uid, "B8") * odds.closeness(rd.gap(uid, "B8"), max(rd.pieces[uid].reach, rd.pieces["B8"].reach),
                                                              odds.load_weights().distance.contact_cm)
             for uid in ("A4", "A5", "A7")}
    assert all(v < 0 for v in pairs.values())   # the referee's odds: the monster beats all three
    with_weights(monkeypatch, threats_others=1.0)
    every = evaluation.terms(st, "A")["threats"]
    with_weights(monkeypatch, threats_others=0.0)
    best = evaluation.terms(st, "A")["threats"]
    assert every < best < 0
    norm = max(1.0, (st.start_points["A"] + st.start_points["B"]) / 2.0)
    assert best == pytest.approx(min(pairs.values()) / norm)
    assert every == pytest.approx(sum(pairs.values()) / norm)


def test_an_advance_read_by_the_enemies_around_a_unit(monkeypatch):
    """The Eagle warriors (A2) with the Grand saurien, which beats them, nearest, and the Javelin
    throwers and Club bearers, which they beat by far, a little farther: by the nearest enemy they hold;
    by the enemies around them, each weighed by how much nearer a step brings it, they advance."""
    st = game("ai-advance").state.clone()
    keep = {"A2", "B8", "B1", "B2"}
    st.units = {k: u for k, u in st.units.items() if k in keep}
    a2 = st.units["A2"]
    a2.x, a2.y, a2.heading = 90.0, 80.0, 0.0
    front = a2.y - a2.depth / 2
    for uid, x, gap in (("B8", 90.0, 8.0), ("B1", 60.0, 14.0), ("B2", 125.0, 14.0)):
        u = st.units[uid]
        u.x, u.y, u.heading = x, front - gap - u.depth / 2, 180.0
    rd = odds.Reading(st)
    p = rd.pieces["A2"]
    enemies = [rd.pieces[k] for k in ("B8", "B1", "B2")]
    assert min(enemies, key=lambda e: rd.gap("A2", e.u.id)).u.id == "B8"
    assert rd.exchange("A2", "B8") < 0 < min(rd.exchange("A2", "B1"), rd.exchange("A2", "B2"))
    step = p.reach * 2 / 3
    gain = odds.step_gain(rd, p, enemies, step, odds.load_weights().distance.contact_cm)
    assert gain > 0
    with_weights(monkeypatch, advance_rule="nearest")
    assert not odds.advance_pays(rd, p, enemies)
    with_weights(monkeypatch, advance_rule="around")
    assert odds.advance_pays(rd, p, enemies)
    # the monster alone: no gain in stepping towards it either way
    alone = [rd.pieces["B8"]]
    assert odds.step_gain(rd, p, alone, step, odds.load_weights().distance.contact_cm) < 0
    assert not odds.advance_pays(rd, p, alone)
