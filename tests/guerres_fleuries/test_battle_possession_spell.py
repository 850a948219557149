"""« Possession de Coyolxauhqui » (GF seed 003 l.1278-1284; OR-GF127, OR-GF128): "Il doit obéir à chaque
ordre du prêtre sauf s'il réussit un jet de résistance de 20% + son FC (score inférieur) et rompt
l'envoûtement. Le sort est rompu si le personnage est blessé/tué ou si le prêtre annule le sort." The
caster's side gives the enemy character his orders and moves him; the resistance roll at the reveal of the
orders; no charge, no attack on his own side; a wound, his death or the priest's release breaks it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line
from oriflamme.core.dice import Dice, FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import coyolxauhqui, engine, orders, spells, turn, views
from oriflamme.rulesets.guerres_fleuries.battle.actions import Action

SPELL = "possession_de_coyolxauhqui"


def test_the_spell_as_printed():
    assert line(1280) == "Difficulté : -40% Distance : 40cm"
    assert "jet de résistance de 20% + son FC (score inférieur)" in line(1282)
    assert "blessé/tué ou si le prêtre annule le sort" in line(1282)
    assert "pas de se suicider ou d'attaquer une unité amie" in line(1284)
    assert spells.spell_effects()[SPELL].effect == "possess"
    assert (coyolxauhqui.resistance_rule().base_pct, coyolxauhqui.resistance_rule().die) == (20, 100)
    assert coyolxauhqui.forbidden_rule().orders == ["charger"]


@pytest.fixture(scope="module")
def possessed():
    """A's priest casts at B's legendary hero from 35 cm in phase 3, before A gives its orders."""
    g = game("possession")
    to_phase(g, 3)
    st = ruleset().clone(g.state)
    p, t = st.units["A7"], st.units["B5"]
    p.x, p.y = t.x, t.y + 35
    st.dice = FixedDice([1], st.dice.count)
    engine.apply(st, engine.check(st, Action("cast", "A", unit="A7", spell=SPELL, target="B5")))
    return st


def give_a(st, b5=("se_retirer", None)):
    legal = [a for a in engine.legal_actions(st, "A") if a.type == "orders" and a.orders]
    m = {uid: (o, t) for uid, o, t in legal[0].orders}
    m["B5"] = b5
    engine.apply(st, engine.check(st, Action("orders", "A", orders=tuple(sorted((k, v[0], v[1]) for k, v in m.items())))))


def test_the_priests_side_gives_his_orders_and_his_own_side_none(possessed):
    st = ruleset().clone(possessed)
    assert coyolxauhqui.master(st, st.units["B5"]) == "A"
    assert "B5" in [u.id for u in orders.eligible(st, "A")]
    assert "B5" not in [u.id for u in orders.eligible(st, "B")]
    assert any(a.type == "orders" and any(uid == "B5" for uid, _, _ in a.orders) for a in engine.legal_actions(st, "A"))
    with pytest.raises(IllegalAction, match="l.1284"):       # not a charge (suicide / a friend attacked)
        orders.check(st, "A", {"B5": ("charger", "A1")})
    assert coyolxauhqui.refusal(st, "A", st.units["B5"], "tirer", ["B1"]) is not None   # nor fire at his side
    assert "charger" not in [o["id"] for o in orders.options(st, st.units["B5"])]
    give_a(st)
    assert st.acting == "B"
    before = ruleset().digest(st)
    with pytest.raises(IllegalAction, match="l.1282"):
        orders.check(st, "B", {"B5": ("attendre", None)})
    assert ruleset().digest(st) == before
    # the order the priest gave is face down to B until the reveal, A's to read
    assert views.order_visible(st, st.units["B5"], "A") and not views.order_visible(st, st.units["B5"], "B")
    b5_view = next(u for u in ruleset().view(st, "B")["units"] if u["id"] == "B5")
    assert b5_view["order"] is None and b5_view["order_hidden"]


@pytest.mark.parametrize("d100, resisted", [(23, True), (24, False), (1, True), (100, False)])
def test_the_resistance_roll_at_the_reveal(possessed, d100, resisted):
    """FC 4: resisted on a d100 below 24 — a 23 % chance, shown in the event (OR-GF128)."""
    st = ruleset().clone(possessed)
    b5 = st.units["B5"]
    assert b5.FC == 4 and coyolxauhqui.chance(b5) == pytest.approx(0.23)
    give_a(st)
    b_orders = next(a for a in engine.legal_actions(st, "B") if a.type == "orders")
    st.dice = FixedDice([d100] + [50] * 60, st.dice.count)
    start = len(st.log)
    engine.apply(st, engine.check(st, b_orders))
    ev = next(e for e in st.log[start:] if e["type"] == "possession_resistance")
    assert ev["d100"] == d100 and ev["chance"] == pytest.approx(0.23) and ev["decision"] == "OR-GF128"
    assert ev["result"] == ("resisted" if resisted else "obeys") and "l.1282" in ev["ref"]
    assert (coyolxauhqui.master(st, b5) is None) == resisted
    if resisted:
        assert b5.order is None and any(e["type"] == "possession_broken" for e in st.log[start:])
    else:
        assert b5.order == "se_retirer"
        assert st.phase == 6 and "B5" in [u.id for u in turn.movers(st, "A")]   # A moves him
        assert "B5" not in [u.id for u in turn.movers(st, "B")]


@settings(max_examples=30, deadline=None)
@given(d100=st_.integers(1, 100), fc=st_.integers(1, 6))
def test_resisted_exactly_below_20_plus_fc(possessed, d100, fc):
    st = ruleset().clone(possessed)
    b5 = st.units["B5"]
    b5.FC = fc
    coyolxauhqui.table(st)["B5"]["ordered"] = st.turn
    b5.order = "attendre"
    st.dice = FixedDice([d100], st.dice.count)
    coyolxauhqui.resist(st)
    assert (coyolxauhqui.master(st, b5) is None) == (d100 < 20 + fc)
    assert st.log[-1]["type"] in ("possession_broken", "possession_resistance")


def test_a_wound_breaks_it(possessed):
    st = ruleset().clone(possessed)
    st.units["B5"].wounds.append("light")
    coyolxauhqui.watch(st)
    assert coyolxauhqui.master(st, st.units["B5"]) is None
    assert st.log[-1]["type"] == "possession_broken" and "wounded" in st.log[-1]["text"]
    assert "B5" in [u.id for u in orders.eligible(st, "B")] or not orders.needs_order(st, st.units["B5"])


def test_the_priests_side_may_release_him_the_other_may_not(possessed):
    st = ruleset().clone(possessed)
    rel = [a for a in engine.legal_actions(st, "A") if a.type == "release"]
    assert [(a.unit, a.target) for a in rel] == [("A7", "B5")]
    before = ruleset().digest(st)
    with pytest.raises(IllegalAction, match="l.1282"):
        engine.check(st, Action("release", "A", unit="A6", target="B5"))
    assert ruleset().digest(st) == before
    engine.apply(st, engine.check(st, rel[0]))
    assert coyolxauhqui.master(st, st.units["B5"]) is None
    assert "cancels" in st.log[-1]["text"] if st.log[-1]["type"] == "possession_broken" else \
        any(e["type"] == "possession_broken" for e in st.log)


def charged(possessed, charger="A1"):
    """A constructed phase 5: B5, possessed by A's priest, charged by ``charger`` and not yet reached."""
    st = ruleset().clone(possessed)
    st.phase, st.done, st.acting = 5, [], None
    st.reacting = {"B5": charger}
    st.dice = Dice("possessed-charged")
    turn.advance(st)
    return st


def test_the_priests_side_chooses_his_reactions(possessed):
    """l.1282 "Il doit obéir à chaque ordre du prêtre" (OR-GF149): charged in phase 4, the possessed character's
    reaction (phase 5) is the priest's side's to choose; his own side's is refused with the rule, the state
    unchanged; "pas de se suicider ou d'attaquer une unité amie" (l.1284): no counter-charge."""
    st = charged(possessed)
    assert st.phase == 5 and st.acting == "A"
    offered = [a.reaction for a in engine.legal_actions(st, "A") if a.type == "react" and a.unit == "B5"]
    assert "stand" in offered and "evade" in offered and "counter_charge" not in offered
    assert engine.legal_actions(st, "B") == []
    before = ruleset().digest(st)
    with pytest.raises(IllegalAction) as exc:
        engine.check(st, Action("react", "B", unit="B5", reaction="stand"))
    assert "l.1282" in exc.value.ref and "OR-GF149" in exc.value.ref
    with pytest.raises(IllegalAction) as exc:
        engine.check(st, Action("react", "A", unit="B5", reaction="counter_charge"))
    assert "l.1284" in exc.value.ref
    assert ruleset().digest(st) == before
    engine.apply(st, engine.check(st, Action("react", "A", unit="B5", reaction="stand")))
    assert "B5" not in st.reacting
    assert any(e["type"] == "reaction" and e.get("unit") == "B5" and e.get("reaction") == "stand" for e in st.log)


def test_released_his_reactions_are_his_sides_again(possessed):
    st = ruleset().clone(possessed)
    coyolxauhqui.release(st, "A7", "B5")
    st = charged(st)
    assert st.acting == "B"
    assert "counter_charge" in [a.reaction for a in engine.legal_actions(st, "B") if a.unit == "B5"]
