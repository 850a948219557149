"""« Cape de Coyolxauhqui » (GF Table des objets magiques, seed 003 l.236; OR-GF147, OR-GF148): "Le personnage
est invisible pendant 4 tours à moins qu'il engage un combat. Le porteur ne peut l'utiliser qu'une fois par
jour." The bearer uses it in phase 3 or 6 (the action ``cape``), once a battle; he leaves the enemy's view by
the illusion's one hiding mechanism (battle/illusion.py, source ``cape_de_coyolxauhqui``); he may move unseen;
a charge, an enemy in base contact, a blow, a volley (l.1363) or an enemy's detecting helmet or weapon reveal
him; his 4 turns run out. Neither bundled army carries the cape: the tests give it to A's hero (A6)."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import engine, fog, illusion, orders
from oriflamme.rulesets.guerres_fleuries.battle.actions import Action, action_from_json

CAPE = "Cape de Coyolxauhqui"


def test_the_item_as_printed_and_its_data():
    assert line(236).startswith(CAPE)
    assert "invisible pendant 4 tours à moins qu'il engage un combat" in line(236)
    assert "qu'une fois par jour" in line(236)
    assert "Une unité tirant est automatiquement dévoilée" in line(1363)
    row = illusion.sources()[illusion.CAPE]
    assert (row.item, row.turns, row.uses_per_battle) == (CAPE, 4, 1)
    assert row.ref == "GF seed 003 l.236" and not row.reveal_on_move and not row.with_controller
    assert illusion.sources()[illusion.SPELL].reveal_on_move   # the spell: "si elle ne bouge ni ne tire"


def test_neither_bundled_army_carries_the_cape():
    folder = resources.files("oriflamme.rulesets.guerres_fleuries").joinpath("armies")
    armies = [p for p in folder.iterdir() if p.name.endswith(".json")]
    assert len(armies) >= 2
    for p in armies:
        assert CAPE not in p.read_text(encoding="utf-8"), p.name


@pytest.fixture(scope="module")
def at_orders():
    g = game("cape")
    to_phase(g, 3)
    return g.state


def bearer(st):
    st.units["A6"].magic_item = CAPE  # a constructed state: the bundled armies have no cape
    return st.units["A6"]


def use(st, side="A", unit="A6"):
    start = len(st.log)
    engine.apply(st, engine.check(st, Action("cape", side, unit=unit)))
    return start


def test_without_the_cape_no_action_and_a_refusal(at_orders):
    st = ruleset().clone(at_orders)
    assert st.acting == "A" and st.units["A6"].magic_item == "Casque de Tezcatlipoca"
    assert not [a for a in engine.legal_actions(st, "A") if a.type == "cape"]
    before = ruleset().digest(st)
    with pytest.raises(IllegalAction) as exc:
        engine.check(st, Action("cape", "A", unit="A6"))
    assert "l.236" in exc.value.ref and ruleset().digest(st) == before


def test_offered_in_phase_3_and_the_bearer_vanishes_from_the_enemy_view(at_orders):
    st = ruleset().clone(at_orders)
    u = bearer(st)
    assert Action("cape", "A", unit="A6") in engine.legal_actions(st, "A")
    assert action_from_json({"type": "cape", "side": "A", "unit": "A6"}) == Action("cape", "A", unit="A6")
    start = use(st)
    ev = st.log[start]
    # the use is public (l.227: an item is not used without revealing it), the place where he vanished too
    assert ev["type"] == "cape" and "private" not in ev and ev["until_turn"] == st.turn + 3
    assert ev["ref"] == "GF seed 003 l.236" and "OR-GF147" in ev["ruling"]["citations"]
    assert u.hidden and illusion.invisible(st, u)["source"] == illusion.CAPE
    assert illusion.table(st)["A6"]["group"] == ["A6"]        # the bearer alone
    rs = ruleset()
    assert "A6" not in [x["id"] for x in rs.view(st, "B")["units"]]
    assert "A6" in [x["id"] for x in rs.view(st, "A")["units"]]
    assert "A6" not in [x["id"] for x in rs.view(st, None)["units"]]
    assert "A6" not in [x["id"] for x in rs.frame(st, "B")["units"]]
    # A gives its orders (A6's included): nothing B reads afterwards names him, no action of B's names him
    engine.apply(st, next(a for a in engine.legal_actions(st, "A") if a.type == "orders"))
    assert st.acting == "B"
    for e in rs.visible_events(st, "B", start + 1):
        assert not (e.get("unit") == "A6" or "A6" in (e.get("units") or ()) or e.get("character") == "A6"), e
    for a in engine.legal_actions(st, "B"):
        assert "A6" not in json.dumps(a.to_json()), a
    for x in orders.eligible(st, "B"):
        assert "A6" not in [t for t, _ in orders.charge_targets(st, x)]
    with pytest.raises(KeyError):
        rs.option_detail(st, "A6")


def test_a_second_use_is_refused_the_state_unchanged(at_orders):
    st = ruleset().clone(at_orders)
    u = bearer(st)
    use(st)
    assert not [a for a in engine.legal_actions(st, "A") if a.type == "cape"]
    illusion.reveal(st, u, "test", "test")              # seen again: the cape is still spent
    assert not u.hidden
    assert not [a for a in engine.legal_actions(st, "A") if a.type == "cape"]
    before = ruleset().digest(st)
    with pytest.raises(IllegalAction) as exc:
        engine.check(st, Action("cape", "A", unit="A6"))
    assert "l.236" in exc.value.ref and "une fois par jour" in str(exc.value)
    assert ruleset().digest(st) == before
    with pytest.raises(IllegalAction):                  # nor may B use A's cape
        engine.check(st, Action("cape", "B", unit="A6"))


def test_he_moves_unseen_for_four_turns(at_orders):
    st = ruleset().clone(at_orders)
    u = bearer(st)
    use(st)
    u.x += 5.0                      # the spell's target would reappear (l.1240); the cape's bearer does not
    illusion.watch(st)
    assert u.hidden
    st.turn += 3                    # 4 turns: this one and three more
    illusion.watch(st)
    assert u.hidden
    st.turn += 1
    illusion.watch(st)
    assert not u.hidden and st.log[-1]["type"] == "illusion_revealed" and st.log[-1]["ref"] == "GF seed 003 l.236"
    assert "A6" in [x["id"] for x in ruleset().view(st, "B")["units"]]


def test_engaging_a_combat_reveals_him(at_orders):
    base = ruleset().clone(at_orders)
    bearer(base)
    use(base)
    # an enemy in base contact
    st = ruleset().clone(base)
    u, foe = st.units["A6"], st.units["B3"]
    foe.x, foe.y = u.x, u.y - u.depth / 2 - foe.depth / 2
    illusion.watch(st)
    assert not u.hidden and "contact" in st.log[-1]["text"] and st.log[-1]["source"] == illusion.CAPE
    # a blow struck
    st = ruleset().clone(base)
    st.log.append({"n": len(st.log), "turn": st.turn, "phase": 9, "type": "melee", "side": "A", "unit": "A6",
                   "text": "", "text_fr": "", "ref": ""})
    illusion.watch(st)
    assert not st.units["A6"].hidden and "fights" in st.log[-1]["text"]
    # a volley: "Une unité tirant est automatiquement dévoilée" (l.1363)
    st = ruleset().clone(base)
    st.log.append({"n": len(st.log), "turn": st.turn, "phase": 8, "type": "fire", "side": "A", "unit": "A6",
                   "target": "B2", "text": "", "text_fr": "", "ref": ""})
    illusion.watch(st)
    assert not st.units["A6"].hidden and st.log[-1]["ref"] == "GF seed 003 l.1363"
    # a charge: revealed with the orders (phase 4)
    st = ruleset().clone(base)
    st.units["A6"].order, st.units["A6"].target = "charger", "B3"
    fog.reveal_chargers(st)
    assert not st.units["A6"].hidden and "OR-GF148" in st.log[-1]["ref"]


def test_an_enemy_helmet_discovers_him_within_15_cm(at_orders):
    st = ruleset().clone(at_orders)
    u = bearer(st)
    use(st)
    seer = st.units["B6"]
    seer.magic_item = "Casque de Tezcatlipoca"
    seer.x, seer.y = u.x, u.y - u.depth / 2 - seer.depth / 2 - 16
    illusion.watch(st)
    assert u.hidden
    seer.y += 2
    illusion.watch(st)
    assert not u.hidden and st.log[-1]["ref"] == "GF seed 003 l.230" and st.log[-1]["detected_by"] == "B6"


def test_the_enemy_computer_player_places_him_where_he_vanished(at_orders):
    st = ruleset().clone(at_orders)
    u = bearer(st)
    x, y = u.x, u.y
    use(st)
    u.x += 6.0
    copy = ruleset().determinize(st, "B", random.Random(1))
    assert (copy.units["A6"].x, copy.units["A6"].y) == (round(x, 2), round(y, 2))
    own = ruleset().determinize(st, "A", random.Random(1))
    assert own.units["A6"].x == u.x


def test_offered_in_phase_6():
    g = game("cape-6")
    to_phase(g, 6)
    st = ruleset().clone(g.state)
    side = st.acting
    c = next(v for v in st.side_units(side) if v.kind == "character" and v.alive)
    c.magic_item = CAPE
    assert Action("cape", side, unit=c.id) in engine.legal_actions(st, side)
    use(st, side, c.id)
    assert c.hidden and illusion.invisible(st, c)["from_turn"] == st.turn
    assert illusion.cape_used(st, c.id) is not None


def test_the_unit_he_controls_fights_with_him_its_volley_is_its_own(at_orders):
    """l.995 "Si un personnage contrôle directement une unité, il combat avec elle": a blow of the unit he
    controls engages him; its volley does not (l.1363 reveals the unit that fires, OR-GF148)."""
    base = ruleset().clone(at_orders)
    u = bearer(base)
    unit = base.units["A4"]
    u.leads, unit.led_by = unit.id, u.id
    use(base)
    assert base.units["A6"].hidden and not base.units["A4"].hidden   # the bearer alone
    for kind, revealed in (("fire", False), ("melee", True)):
        st = ruleset().clone(base)
        st.log.append({"n": len(st.log), "turn": st.turn, "phase": 8, "type": kind, "side": "A", "unit": "A4",
                       "target": "B2", "text": "", "text_fr": "", "ref": ""})
        illusion.watch(st)
        assert st.units["A6"].hidden is not revealed, kind
