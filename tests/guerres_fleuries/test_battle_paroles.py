"""*Paroles de vérité* (GF seed 003 l.1260-1264, OR-GF124): "L'adversaire doit déposer ses pions d'ordre en
premier et sur la face visible." The target's side gives its orders first in phase 3 and face up: its
orders event is public, the other side's view and its computer player's search see them."""

from __future__ import annotations

from guerres_fleuries.battle_engine_kit import game, to_phase
from guerres_fleuries.seed import line

from oriflamme.core.dice import FixedDice
from oriflamme.rulesets.guerres_fleuries.battle import engine, evaluation, spells, views
from oriflamme.rulesets.guerres_fleuries.battle.actions import Action


def cast_paroles(st, caster="A7", target="B2"):
    """The priest steps within the spell's distance of the target and casts it; the d100 of 1 works."""
    p, t = st.units[caster], st.units[target]
    p.x, p.y = t.x, t.y + t.depth / 2 + p.depth / 2 + 10
    st.dice = FixedDice([1, 4, 4, 4], st.dice.count)   # the d100 works; its morale test (l.1593) passes
    engine.apply(st, engine.check(st, Action("cast", p.side, unit=caster, spell="paroles_de_verite", target=target)))


def test_the_enemy_lays_its_orders_first_and_face_up():
    assert "pions d'ordre en premier et sur la face visible" in line(1264)
    g = game("paroles")
    to_phase(g, 3)
    st = g.state.clone()
    assert st.acting == "A" and not any(st.orders_in.values())       # A gives its orders first, as a rule
    cast_paroles(st)
    assert spells.orders_face_up(st, "B") is not None and spells.orders_face_up(st, "A") is None
    assert st.acting == "B"                                          # B now lays its orders first
    orders = next(a for a in engine.legal_actions(st, "B") if a.type == "orders" and a.orders)
    engine.apply(st, engine.check(st, orders))
    ev = next(e for e in reversed(st.log) if e["type"] == "orders" and e["side"] == "B")
    assert "private" not in ev and ev["face_up"] and ev["decision"] == "OR-GF124"
    assert views.visible(ev, "A")                                     # A reads B's orders in the log…
    named = {uid for uid, _, _ in orders.orders}
    assert all(views.order_visible(st, st.units[uid], "A") for uid in named)   # …and on the table
    assert evaluation.hidden_units(st, "A") == []                     # nothing to redraw for A's search
    assert st.acting == "A" and not st.revealed
    # A's own orders stay face down: B sees them only at the reveal
    a_unit = next(u for u in st.side_units("A") if u.kind == "troop")
    assert not views.order_visible(st, a_unit, "B")
    # the spell binds one orders phase: the next turn's are face down again, A first
    later = st.clone()
    later.turn += 1
    assert spells.orders_face_up(later, "B") is None


def test_cast_after_the_enemy_gave_its_orders_it_binds_the_next_turn():
    """Cast once the target's side has given its orders this turn (or in phase 6), the spell binds that
    side's next orders phase (OR-GF124)."""
    g = game("paroles")
    to_phase(g, 6)
    st = g.state.clone()
    assert st.phase == 6 and st.orders_in["B"]
    side = st.acting
    caster = "A7" if side == "A" else "B6"
    target = "B2" if side == "A" else "A2"
    cast_paroles(st, caster, target)
    bound = st.units[target].side
    assert spells.orders_face_up(st, bound) is None
    nxt = st.clone()
    nxt.turn += 1
    assert spells.orders_face_up(nxt, bound) is not None
