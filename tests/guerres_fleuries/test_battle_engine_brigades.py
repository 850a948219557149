"""Brigades and written battle orders on the table (GF Le commandement > La brigade, seed 003
l.440-448; Le contrôle direct, l.450-452; Ordre de bataille, l.513-531; OR-GF90-96): each test
quotes the rule it proves."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from guerres_fleuries.battle_engine_kit import act, game, ruleset
from guerres_fleuries.seed import line
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries import terminal
from oriflamme.rulesets.guerres_fleuries.battle import battle_orders, brigades, orders as orders_mod, turn
from oriflamme.rulesets.guerres_fleuries.battle.command_data import data

# the bundled scenario: A6 Cuauhtli (FC 4) stands behind A3 and beside A5; A7 Ixtlil has FC 2
HERO, PRIEST = "A6", "A7"
BRIGADE = ["A2", "A3", "A4", "A5"]


def brigade(g, cid=HERO, units=BRIGADE):
    return act(g, type="brigade", side="A", unit=cid, units=list(units))


def deployed(seed="brigades", order="tenir", target=None):
    """A game in which A6 commands A2-A5, both sides deployed, A's battle order written; B writes
    nothing (no brigade): turn 1 phase 2 or later."""
    g = game(seed)
    brigade(g)
    act(g, type="end_phase", side="A")
    act(g, type="end_phase", side="B")
    assert g.state.phase == 0 and g.to_act() == "A"  # the written orders come after both deployments
    act(g, type="battle_orders", side="A", orders={HERO: {"order": order, "target": target}})
    return g


def move_by(u, dx=0.0, dy=0.0, heading=None):
    u.x += dx
    u.y += dy
    if heading is not None:
        u.heading = heading


# --- the data against the seed ------------------------------------------------------------------------
def test_the_rows_cite_the_lines_that_print_them():
    d = data()
    assert d.brigade.min_units == 2 and "au moins 2 unités" in line(442)
    assert f"{d.brigade.max_distance_cm:g}cm" in line(442).replace(" ", "")
    assert "ne font jamais de test de commandement" in line(444)
    for oid, word in (("attaquer", "Attaquer"), ("harceler", "Harceler"), ("soutenir", "Soutenir"), ("tenir", "Tenir")):
        row = d.orders[oid]
        n = int(row.ref.split("l.")[1])
        assert line(n).startswith(f"- {word}"), (oid, line(n))
        assert row.printed.startswith(word)
    assert "20cm" in line(530)
    for eid, word in (("no_brigade", "Horreur"), ("dissolve", "Possession"), ("beast_in_brigade", "Pipeau")):
        e = d.effects[eid]
        assert word in line(int(e.ref.split("l.")[1].split(",")[0])), eid
    assert "brigade" in line(1204) and "rompt la formation" in line(1204)
    assert "tour complet" in line(524) and "en mêlée, en charge" in line(524)


# --- forming a brigade (OR-GF90) -----------------------------------------------------------------------------
def test_a_character_forms_a_brigade_while_his_side_deploys():
    """l.442: at least 2 units under one character, within 5 cm of each other and of him."""
    g = game()
    offered = [a for a in ruleset().legal_actions(g.state) if a.type == "brigade"]
    assert any(a.unit == HERO and list(a.units) == BRIGADE for a in offered)
    brigade(g)
    st = g.state
    assert st.command["brigades"][HERO] == {"units": BRIGADE, "dissolved": False}
    assert [u.id for u in brigades.members(st, HERO)] == BRIGADE
    ev = [e for e in st.log if e["type"] == "brigade"][-1]
    assert ev["ref"] == brigades.REF and ev["units"] == BRIGADE


@pytest.mark.parametrize("cid, units, rule, ref", [
    (HERO, ["A3"], "at least 2", "l.442"),                                     # "au moins 2 unités"
    (PRIEST, ["A3", "A5", "A2"], "at most 2", "l.442, l.452"),                # FC 2: at most 2 units
    (HERO, ["A1", "A2", "A3", "A4", "A5"], "at most 4", "l.442, l.452"),      # FC 4
    (HERO, ["A1", "A4"], "not within 5 cm", "l.442"),                         # A1 is 29 cm from him (no chain)
    (HERO, ["A3", "A3"], "listed twice", "l.442"),
    (HERO, ["A3", "B1"], "not a unit of side A", "l.442"),
])
def test_a_brigade_against_the_rules_is_refused_with_its_line(cid, units, rule, ref):
    g = game()
    rs = ruleset()
    before = rs.digest(g.state)
    with pytest.raises(IllegalAction, match=rule) as e:
        brigade(g, cid, units)
    assert ref in e.value.ref
    assert rs.digest(g.state) == before


def test_the_units_of_a_brigade_share_formation_and_facing():
    """l.446: 'Les unités en brigade doivent avoir la même formation et s'orienter dans la même direction.'"""
    g = game()
    g.state.units["A3"].set_formation("column")
    with pytest.raises(IllegalAction, match="same formation") as e:
        brigade(g, HERO, ["A3", "A5"])
    assert "l.446" in e.value.ref


def test_the_unit_he_controls_directly_counts_against_his_fc():
    """l.452: he may control one unit directly and a brigade at once; 'Le nombre d'unités ne doit
    pas dépasser son FC'."""
    g = game()
    st = g.state
    st.units[HERO].leads, st.units["A1"].led_by = "A1", HERO
    with pytest.raises(IllegalAction, match="controls one more directly") as e:
        brigade(g)
    assert "l.452" in e.value.ref
    brigade(g, HERO, ["A2", "A3", "A4"])  # 3 + 1 = FC 4
    assert len(brigades.members(g.state, HERO)) == 3


def test_creatures_and_monsters_join_only_with_the_pipe_of_tlaloc():
    """l.448: creatures and monsters cannot be brigaded; l.238: with the Pipeau de Tlaloc 'Ils
    peuvent faire partie d'une brigade'."""
    g = game()
    st = g.state
    st.phase, st.acting, st.done = 0, "B", ["A"]
    ssarkh, beast, guard = st.units["B5"], st.units["B8"], st.units["B4"]
    guard.set_formation("open")  # a monster is always in open order (l.553): the same formation (l.446)
    beast.x, beast.y, beast.heading = guard.x + guard.width / 2 + 2 + beast.width / 2, guard.y, guard.heading
    ssarkh.x, ssarkh.y = beast.x + beast.width / 2 + 2, guard.y
    with pytest.raises(IllegalAction, match="creatures and monsters cannot be brigaded") as e:
        act(g, type="brigade", side="B", unit="B5", units=["B4", "B8"])
    assert "l.448" in e.value.ref
    ssarkh.magic_item = "Pipeau de Tlaloc"
    act(g, type="brigade", side="B", unit="B5", units=["B4", "B8"])
    assert g.state.command["brigades"]["B5"]["units"] == ["B4", "B8"]


def test_a_character_cursed_with_horror_commands_no_brigade():
    """l.206 Horreur: 'Le personnage ne peut pas commander de brigade.'"""
    g = game()
    g.state.units[HERO].curse = "Horreur"
    with pytest.raises(IllegalAction, match="cursed") as e:
        brigade(g)
    assert "l.206" in e.value.ref
    assert not any(a.type == "brigade" and a.unit == HERO for a in ruleset().legal_actions(g.state))


def test_no_brigade_is_formed_once_the_side_has_deployed():
    g = deployed()
    with pytest.raises(IllegalAction):
        act(g, type="brigade", side="A", unit=PRIEST, units=["A1", "A2"])


def test_a_brigade_whose_units_were_moved_apart_during_deployment_is_not_formed():
    g = game()
    brigade(g, HERO, ["A3", "A5"])
    u = g.state.units["A5"]
    act(g, type="place", side="A", unit="A5", x=u.x - 20, y=u.y + 8, heading=0)
    act(g, type="end_phase", side="A")
    assert HERO not in g.state.command["brigades"]
    assert any(e["type"] == "brigade_disbanded" for e in g.state.log)


# --- in play (OR-GF91) ---------------------------------------------------------------------------------------
def test_a_brigades_units_take_no_command_test():
    """l.444: 'Les unités d'une brigade ne font jamais de test de commandement et obéissent
    automatiquement aux ordres.'"""
    g = deployed()
    st = g.state
    assert (st.turn, st.phase) == (1, 2)
    tests = {a.unit for a in ruleset().legal_actions(st) if a.type == "command_test"}
    assert tests == {"A1"}  # the independent unit still tests
    ev = next(e for e in st.log if e["type"] == "brigade_obeys")
    assert ev["ref"] == "GF seed 003 l.444" and ev["units"] == BRIGADE
    with pytest.raises(IllegalAction, match="never takes a command test") as e:
        act(g, type="command_test", side="A", unit="A3")
    assert e.value.ref == "GF seed 003 l.444"


def test_a_unit_leaving_the_5_cm_is_independent_until_it_returns():
    """l.442: 'Dès qu'une unité sort des 5cm, elle ne fait plus partie de la brigade et devient
    indépendante jusqu'à qu'elle soit de nouveau dans les 5cm.'"""
    g = deployed()
    st = g.state
    a4 = st.units["A4"]
    move_by(a4, dx=10)
    brigades.update(st)
    assert a4.brigade is None and turn.needs_command_test(st, a4)
    assert [u.id for u in brigades.members(st, HERO)] == ["A2", "A3", "A5"]
    assert any(e["type"] == "brigade_left" and e["unit"] == "A4" for e in st.log)
    move_by(a4, dx=-7)  # 5 cm from A3 again
    brigades.update(st)
    assert a4.brigade == HERO and not turn.needs_command_test(st, a4)


def test_a_unit_turning_away_leaves_the_brigade():
    """l.446: same formation and facing: a unit that faces another way is not in the brigade."""
    g = deployed()
    st = g.state
    move_by(st.units["A2"], heading=90)
    brigades.update(st)
    assert st.units["A2"].brigade is None and st.units["A3"].brigade == HERO


def test_the_character_leaving_the_5_cm_dissolves_it_for_the_rest_of_the_battle():
    """l.442: 'Si le personnage commandant la brigade sort des 5cm, la brigade est dissoute et les
    unités deviennent indépendantes pour le reste de la bataille.'"""
    g = deployed()
    st = g.state
    c = st.units[HERO]
    move_by(c, dy=10)
    brigades.update(st)
    assert st.command["brigades"][HERO]["dissolved"] and not brigades.members(st, HERO)
    move_by(c, dy=-10)
    brigades.update(st)
    assert not brigades.members(st, HERO)  # for the rest of the battle
    assert all(turn.needs_command_test(st, st.units[u]) for u in BRIGADE)


def test_possession_dissolves_and_defiance_takes_one_unit_out():
    """l.211 Possession: 'Si le personnage commande une brigade, celle-ci est dissoute'; l.1204
    Défiance: 'l'une des unités rompt la formation' (the farthest, OR-GF96)."""
    g = deployed()
    st = g.state
    out = brigades.defiance(st, HERO)
    assert out == "A4" and out not in st.command["brigades"][HERO]["units"]  # A4 is the farthest from him
    assert st.units["A4"].brigade is None and len(brigades.members(st, HERO)) == 3
    brigades.possession(st, HERO)
    assert st.command["brigades"][HERO]["dissolved"]
    ev = [e for e in st.log if e["type"] == "brigade_dissolved"][-1]
    assert ev["ref"] == "GF seed 003 l.211"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(BRIGADE + [HERO]), st.floats(-8, 8), st.floats(-8, 8),
                          st.sampled_from([0.0, 0.0, 0.0, 45.0])), max_size=6))
def test_membership_always_keeps_the_rules(shifts):
    """Whatever moves: the members are 0 or at least 2, at most FC, in one formation and facing,
    each reached from the character by steps of at most 5 cm (OR-GF91)."""
    g = _SHARED.get("g") or deployed("property")
    _SHARED["g"] = g
    stt = ruleset().clone(g.state)
    for uid, dx, dy, h in shifts:
        move_by(stt.units[uid], dx, dy, (stt.units[uid].heading + h) % 360)
    brigades.update(stt)
    m = brigades.members(stt, HERO)
    c = stt.units[HERO]
    assert len(m) == 0 or 2 <= len(m) <= c.FC
    assert len({brigades.facing(u) for u in m}) <= 1
    assert sorted(u.id for u in brigades.chain(c, m)) == [u.id for u in m]
    if stt.command["brigades"][HERO]["dissolved"]:
        assert not m and not any(brigades.near(c, stt.units[u]) for u in BRIGADE)


_SHARED: dict = {}


# --- written battle orders (OR-GF92-95) ----------------------------------------------------------------
def test_the_battle_orders_are_written_after_both_deployments_for_each_commander():
    """l.515: 'Dès que les troupes ont été déployées par les deux camps, Le général rédige pour
    chaque personnage un ordre de bataille'."""
    g = game("write")
    brigade(g)
    act(g, type="end_phase", side="A")
    rs = ruleset()
    with pytest.raises(IllegalAction):  # B has not deployed yet
        rs.apply(rs.clone(g.state), rs.action_from_json(
            {"type": "battle_orders", "side": "A", "orders": {HERO: {"order": "tenir", "target": None}}}))
    act(g, type="end_phase", side="B")
    assert g.to_act() == "A" and g.state.phase == 0
    legal = rs.legal_actions(g.state)
    assert {a.type for a in legal} == {"battle_orders"}
    assert {o for a in legal for _, o, _ in a.orders} == {"attaquer", "harceler", "soutenir", "tenir"}
    before = rs.digest(g.state)
    for bad, msg in (({}, "one for each character"), ({HERO: {"order": "fuir", "target": None}}, "not a battle order"),
                     ({HERO: {"order": "soutenir", "target": None}}, "friendly unit to support"),
                     ({HERO: {"order": "soutenir", "target": "A3"}}, "friendly unit to support"),  # his own
                     ({HERO: {"order": "tenir", "target": "A1"}}, "takes no target")):
        with pytest.raises(IllegalAction, match=msg):
            act(g, type="battle_orders", side="A", orders=bad)
        assert rs.digest(g.state) == before
    act(g, type="battle_orders", side="A", orders={HERO: {"order": "soutenir", "target": "A1"}})
    assert g.state.command["written"][HERO]["order"] == "soutenir"
    assert (g.state.turn, g.state.phase) == (1, 2)  # B has no brigade: nothing to write


def to_orders(g):
    rs = ruleset()
    while g.state.phase != 3 or g.to_act() != "A":
        legal = [a for a in rs.legal_actions(g.state) if a.type not in ("cast", "battle_orders")]
        g.apply(legal[-1] if legal[-1].type == "end_phase" else legal[0])


def test_hold_a_position_forbids_moving_and_charging():
    """l.531 Tenir une position: 'Elle ne peut pas charger' — nor move off it (OR-GF95)."""
    g = deployed(order="tenir")
    to_orders(g)
    st = g.state
    ids = {o["id"] for o in orders_mod.options(st, st.units["A3"])}
    assert not ids & {"avancer", "doubler", "charger", "se_retirer", "s_evader"} and "attendre" in ids
    assert "avancer" in {o["id"] for o in orders_mod.options(st, st.units["A1"])}  # independent
    rs = ruleset()
    before = rs.digest(st)
    with pytest.raises(IllegalAction, match="Tenir une position") as e:
        act(g, type="orders", side="A", orders={"A3": {"order": "avancer", "target": None}})
    assert e.value.ref == "GF seed 003 l.531" and rs.digest(g.state) == before
    for a in rs.legal_actions(st):
        if a.type == "orders":
            assert all(o not in ("avancer", "charger") for uid, o, _ in a.orders if uid in BRIGADE)


def test_attack_forbids_waiting_and_falling_back():
    """l.528 Attaquer: 'l'unité se dirige le plus rapidement possible vers l'ennemi pour charger'."""
    g = deployed(order="attaquer")
    to_orders(g)
    ids = {o["id"] for o in orders_mod.options(g.state, g.state.units["A2"])}
    assert "avancer" in ids and not ids & {"attendre", "se_retirer", "demi_tour", "tirer"}
    with pytest.raises(IllegalAction, match="Attaquer") as e:
        act(g, type="orders", side="A", orders={"A2": {"order": "attendre", "target": None}})
    assert e.value.ref == "GF seed 003 l.528"


def test_a_support_stays_within_20_cm_of_its_friend():
    """l.530: 'Elle doit essayer de rester à moins de 20cm de celle-ci.'"""
    g = deployed(order="soutenir", target="A1")
    st = g.state
    u = st.units["A4"]  # 27 cm right of A1's edge at the start
    f = st.units["A1"]
    with pytest.raises(IllegalAction, match="stays within 20 cm") as e:
        battle_orders.check_move(st, u, u.x + 10, u.y, u.heading)
    assert e.value.ref == "GF seed 003 l.530"
    battle_orders.check_move(st, u, u.x - 5, u.y - 5, u.heading)  # nearer: allowed
    battle_orders.check_move(st, st.units["A2"], st.units["A2"].x, st.units["A2"].y - 15, 0)  # still within 20
    assert f.alive


def test_a_support_charges_only_with_its_friend_or_at_a_threat():
    """l.530: 'Elle ne peut charger qu'en compagnie de celle-ci ou contre un ennemi capable de la
    charger, lui bloquant son chemin ou lui tirant dessus.'"""
    g = deployed(order="soutenir", target="A1")
    st = g.state
    u, friend = st.units["A2"], st.units["A1"]
    enemy = next(e for e in st.enemies("A") if not e.missile and e.kind == "troop")
    assert not battle_orders.threat(st, enemy, friend)
    assert not battle_orders.support_charge_ok(st, u, enemy.id, {u.id: ("charger", enemy.id)})
    assert battle_orders.support_charge_ok(st, u, enemy.id, {u.id: ("charger", enemy.id), "A1": ("charger", enemy.id)})
    with pytest.raises(IllegalAction, match="charges only with it") as e:
        battle_orders.check_set(st, "A", {u.id: ("charger", enemy.id)})
    assert e.value.ref == "GF seed 003 l.530"
    # an enemy that can charge the friend (in reach, the friend in its front arc) may be charged
    enemy.x, enemy.y = friend.x, friend.y - 20
    assert battle_orders.threat(st, enemy, friend)
    assert battle_orders.support_charge_ok(st, u, enemy.id, {u.id: ("charger", enemy.id)})


def test_held_and_harassing_units_react_by_their_order():
    """l.531: 'doit essayer de tenir si elle est chargée'; l.529: 'Elle doit essayer d'esquiver si
    elle est chargée' (OR-GF95)."""
    g = deployed(order="tenir")
    st = g.state
    u = st.units["A4"]  # slingers: stand, counter-charge, fire
    offered = ["stand", "counter_charge", "fire"]
    assert battle_orders.reactions_kept(st, u, offered) == ["stand", "fire"]
    with pytest.raises(IllegalAction, match="Tenir") as e:
        battle_orders.check_reaction(st, u, "counter_charge", offered)
    assert e.value.ref == "GF seed 003 l.531"
    st.command["written"][HERO]["order"] = "harceler"
    assert battle_orders.reactions_kept(st, u, offered + ["evade"]) == ["evade"]
    assert battle_orders.reactions_kept(st, u, offered) == ["stand", "fire"]


def test_a_unit_under_direct_control_needs_no_written_order():
    """l.522: 'Tant qu'il reste avec elle, l'unité ne nécessite pas d'ordres écrits'."""
    g = deployed(order="tenir")
    st = g.state
    st.units["A3"].led_by = PRIEST
    assert battle_orders.bound(st, st.units["A3"]) is None
    assert "avancer" in {o["id"] for o in orders_mod.options(st, st.units["A3"])}


def test_a_new_order_takes_a_full_turn():
    """l.524: 'Le général ne peut changer un ordre … Il lui faut un tour complet.'"""
    g = deployed(order="tenir")
    to_orders(g)
    rs = ruleset()
    changes = [a for a in rs.legal_actions(g.state) if a.type == "battle_orders"]
    assert changes and all(o != "tenir" for a in changes for _, o, _ in a.orders)
    act(g, type="battle_orders", side="A", orders={HERO: {"order": "attaquer", "target": None}})
    st = g.state
    assert st.command["written"][HERO]["order"] == "tenir" and st.command["pending"][HERO]["order"] == "attaquer"
    with pytest.raises(IllegalAction, match="once a turn") as e:  # once a turn
        act(g, type="battle_orders", side="A", orders={HERO: {"order": "harceler", "target": None}})
    assert e.value.ref == "GF seed 003 l.524"
    assert "avancer" not in {o["id"] for o in orders_mod.options(st, st.units["A3"])}  # still Tenir this turn
    turn_now = st.turn
    while not (g.state.turn == turn_now + 1 and g.state.phase == 3) and not g.outcome().over:
        legal = [a for a in rs.legal_actions(g.state) if a.type not in ("cast", "battle_orders")]
        g.apply(legal[-1] if legal[-1].type == "end_phase" else legal[0])
    st = g.state
    if HERO in st.command["written"]:  # read now, unless the brigade was dissolved by the play
        assert st.command["written"][HERO]["order"] == "attaquer" and not st.command["pending"]
        assert any(e["type"] == "battle_order_read" for e in st.log)


def test_no_order_is_written_for_a_character_in_melee():
    """l.524: 'un ordre ne peut pas être écrit ou lu par un personnage ou une unité en mêlée, en
    charge (en contre-charge), en déroute ou en train d'esquiver pendant le tour.'"""
    g = deployed(order="tenir")
    to_orders(g)
    st = g.state
    c = st.units[HERO]
    st.units[HERO].status = "rout"
    assert battle_orders.barred(st, c) == "routing"
    assert not [a for a in ruleset().legal_actions(st) if a.type == "battle_orders"]
    with pytest.raises(IllegalAction, match="l.524|phase 3") as e:
        act(g, type="battle_orders", side="A", orders={HERO: {"order": "attaquer", "target": None}})
    assert "l.524" in e.value.ref
    c.status = "ok"
    c.charging = True
    assert battle_orders.barred(st, c) == "charging"


# --- secrecy (OR-GF94) --------------------------------------------------------------------------------------
def test_written_orders_never_reach_the_other_side():
    g = deployed(order="harceler")
    rs = ruleset()
    st = g.state
    for side in ("B", None):
        v = rs.view(st, side)
        assert v["battle_orders"] == {} and all(u["battle_order"] is None for u in v["units"])
        text = json.dumps(v) + json.dumps(rs.visible_events(st, side)) + json.dumps(rs.options(st, side))
        assert "harceler" not in text and "Harceler" not in text and "Harass" not in text
        assert any(e["type"] == "battle_orders_given" for e in rs.visible_events(st, side))
        # the brigade itself stands on the table for all to see
        assert [b["units"] for b in v["brigades"]] == [BRIGADE]
    own = rs.view(st, "A")
    assert own["battle_orders"][HERO]["order"]["id"] == "harceler"
    assert {u["id"] for u in own["units"] if u["battle_order"]} == set(BRIGADE)
    assert rs.private_action(rs.action_from_json(
        {"type": "battle_orders", "side": "A", "orders": {HERO: {"order": "harceler", "target": None}}}))
    # a search by B redraws them; A's own search keeps them
    for seed in range(6):
        copy = rs.determinize(st, "B", random.Random(seed))
        assert "harceler" not in json.dumps([e for e in copy.log if e.get("private") == "A"]) or \
            copy.command["written"][HERO]["order"] == "harceler"
    draws = {rs.determinize(st, "B", random.Random(s)).command["written"][HERO]["order"] for s in range(20)}
    assert len(draws) > 1
    assert rs.determinize(st, "A", random.Random(0)).command["written"][HERO]["order"] == "harceler"


def test_the_ai_and_random_players_play_brigades_legally():
    """Random legal play with brigades formed and orders written: every listed action is accepted
    by the checked path, to the end of a short battle."""
    rs = ruleset()
    g = game("brigade-random")
    rng = random.Random(3)
    seen = set()
    for _ in range(400):
        if g.outcome().over:
            break
        legal = rs.legal_actions(g.state)
        pref = [a for a in legal if a.type in ("brigade", "battle_orders")]
        a = pref[0] if pref and rng.random() < 0.8 else rng.choice(legal)
        seen.add(a.type)
        g.apply(rs.action_from_json(a.to_json()))
    assert {"brigade", "battle_orders", "orders"} <= seen


# --- the terminal and the view ---------------------------------------------------------------------------
def test_the_terminal_lists_brigades_and_writes_battle_orders_in_secret():
    """The terminal forms a brigade from the offered list, writes the battle order with 'write' after
    both deployments (the keyboard changes hands first: it is secret), and lists it with 'brigades'."""
    from guerres_fleuries.test_battle_terminal import Term
    g = game("terminal")
    rs = ruleset()
    term = Term()
    acts = [a for a in rs.legal_actions(g.state) if a.type not in ("orders", "move")]
    n = next(i for i, a in enumerate(acts, 1) if a.type == "brigade" and a.unit == HERO)
    out = term.type(g, "list", str(n), "brigades")
    assert "Cuauhtli" in out and "Brigade of Cuauhtli" in out
    act(g, type="end_phase", side="A")
    act(g, type="end_phase", side="B")
    out = term.type(g, "", "write A6 fuir", "write A6 soutenir A1", "brigades", "lang fr", "brigades")
    assert "Refused" in out and "not a battle order" in out
    assert "battle order (secret): Support or protect a friendly unit → Jaguar knights (GF seed 003 l.530)" in out
    assert "ordre de bataille (secret) : Soutenir ou protéger une unité amie" in out
    assert any("looks away" in p for p in term.prompts)  # the hand-over before writing
    assert g.state.command["written"][HERO] == {"order": "soutenir", "target": "A1", "turn": 0}
    # side B's terminal view shows the brigade, never the order
    assert "Soutenir" not in "\n".join(terminal.brigade_rows(rs.view(g.state, "B"), "fr"))
    assert "Brigade de Cuauhtli" in "\n".join(terminal.brigade_rows(rs.view(g.state, "B"), "fr"))


def test_the_web_api_hides_the_written_orders_from_the_other_seat(tmp_path):
    """OR-GF94 through the web app: B's view, its WebSocket updates and the running game's record
    never hold A's written battle order; A's own view does."""
    from starlette.testclient import TestClient

    from oriflamme.web.app import create_app
    from oriflamme.web.limits import Limits
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0))) as client:
        r = client.post("/api/games", json={"scenario": "battle-of-the-flowers", "ruleset": "guerres-fleuries",
                                            "mode": "online"})
        assert r.status_code == 201, r.text
        gid, a, b = r.json()["id"], r.json()["seats"]["A"], r.json()["seats"]["B"]

        def view(tok):
            return client.get(f"/api/games/{gid}", headers={"X-Seat": tok}).json()

        def post(tok, action):
            r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat": tok},
                            json={"action": action, "version": view(tok)["version"]})
            assert r.status_code == 200, r.text
        post(a, {"type": "brigade", "side": "A", "unit": HERO, "units": BRIGADE})
        post(a, {"type": "end_phase", "side": "A"})
        with client.websocket_connect(f"/api/games/{gid}/ws?seat={b}") as ws:
            assert ws.receive_json()["type"] == "hello"
            post(b, {"type": "end_phase", "side": "B"})
            post(a, {"type": "battle_orders", "side": "A", "orders": {HERO: {"order": "harceler", "target": None}}})
            seen, updates = [], 0
            while updates < 2:  # B's end of deployment, then A's written orders
                m = ws.receive_json()
                seen.append(json.dumps(m))
                updates += m.get("type") == "update"
            assert not any("harceler" in s or "Harass" in s or "Harceler" in s for s in seen)
        vb = view(b)
        vb.pop("options", None)
        text = json.dumps(vb)
        assert "harceler" not in text and "Harass" not in text and vb["brigades"][0]["units"] == BRIGADE
        rec = client.get(f"/api/games/{gid}/record", headers={"X-Seat": b}).json()
        assert "harceler" not in json.dumps(rec)
        assert {"type": "battle_orders", "side": "A", "private": True} in rec["actions"]
        va = view(a)
        assert va["battle_orders"][HERO]["order"]["id"] == "harceler"


def test_a_brigade_whose_character_falls_is_dissolved():
    """l.442: the character no longer within the 5 cm (here out of the battle): dissolved."""
    g = deployed()
    st = g.state
    st.units[HERO].status = "destroyed"
    brigades.update(st)
    assert st.command["brigades"][HERO]["dissolved"] and all(st.units[u].brigade is None for u in BRIGADE)
