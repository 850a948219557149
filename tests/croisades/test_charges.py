"""Croisades' 5-step player phase (seed 000 l.38-51) and the cavalry charge it turns on (MC
§7.6.1-§7.6.3, engine/charges.py), played on the bundled scenario "caravan-ambush"."""

from __future__ import annotations

import random
import tomllib
from importlib import resources

import pytest

from oriflamme.core import registry
from oriflamme.core.dice import Dice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.magna_carta.engine import charges, defensive_fire
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

CR = registry.get("croisades")
RS = load_ruleset("croisades")


def scenario_data(**changes) -> dict:
    text = resources.files("oriflamme.rulesets.croisades").joinpath("scenarios", "caravan-ambush.toml").read_text("utf-8")
    data = tomllib.loads(text)
    for cid, fields in changes.items():
        next(c for c in data["character"] if c["id"] == cid).update(fields)
    data.pop("editions", None)
    return data


def game(seed: int = 1, **changes):
    sc = CR.scenario_from_json(scenario_data(**changes)) if changes else CR.load_scenario("caravan-ambush")
    return CR.setup(sc, Dice(seed))


def do(st, **action):
    return CR.apply(st, CR.action_from_json(action))


def options(st):
    return [CR.action_to_json(a) for a in CR.legal_actions(st, st.to_act())]


def to_announcements(st):
    do(st, type="end_step")  # 1. offensive fire
    assert st.step == "charge_announcements"
    return st


def announce(st, char, target):
    opt = next(o for o in options(st) if o["type"] == "announce_charge" and o["char"] == char and o["target"] == target)
    do(st, **opt)
    return opt


def refused(st, **action) -> IllegalAction:
    before = st.digest()
    with pytest.raises(IllegalAction) as exc:
        do(st, **action)
    assert st.digest() == before  # the state is unchanged
    return exc.value


# --- the 5-step phase -----------------------------------------------------------------------------
def test_the_phase_has_the_five_steps_of_the_seed():
    seq = RS.sequence
    assert [s.id for s in seq.step] == ["offensive_fire", "charge_announcements", "movement", "melee", "stunned_recovery"]
    lines = open("/work/shared/seeds/000_7acb1efea71e29cd.txt", encoding="utf-8").read().splitlines()
    for step, number in zip(seq.step, range(1, 6)):
        n = int(step.ref.split("l.")[1])
        assert lines[n - 1].startswith(f"{number}. "), (step.id, lines[n - 1][:40])
    assert "CHARGES" in lines[int(seq.find("charge_announcements").ref.split("l.")[1]) - 1]
    assert [s.id for s in seq.player_steps] == ["offensive_fire", "charge_announcements", "movement", "melee"]
    # Magna Carta keeps its own 4 steps
    assert [s.id for s in load_ruleset("magna-carta").sequence.step] == ["offensive_fire", "movement", "melee", "stunned_recovery"]


def test_the_phase_bar_shows_the_announcements_step_with_its_citation():
    bar = RS.sequence.to_json()
    step = next(s for s in bar["steps"] if s["id"] == "charge_announcements")
    assert step["ref"] == "CR seed 000 l.43" and step["title_fr"].startswith("Annonce de charges")


def test_the_announcements_step_is_entered_and_logged_in_both_languages():
    from oriflamme.rulesets.magna_carta.texts.messages import render
    st = to_announcements(game())
    ev = [e for e in st.log if e["type"] == "step"][-1]
    assert ev["ref"] == "CR seed 000 l.43"
    assert render(ev["msg"], ev.get("params", {}), "fr") == "Annonce de charges et contre-charges de cavalerie"
    opt = announce(st, "renaud", "yusuf")
    ev = next(e for e in st.log if e.get("msg") == "charge.announced")
    assert ev["ref"] == "MC §7.6.1" and ev["path"] == opt["path"]
    assert "annonce une charge contre Yusuf" in render(ev["msg"], ev["params"], "fr")


# --- announcements: legal and illegal ----------------------------------------------------------------
def test_the_listed_charges_keep_every_rule():
    st = to_announcements(game())
    listed = [o for o in options(st) if o["type"] == "announce_charge"]
    assert {(o["char"], o["target"]) for o in listed} >= {("renaud", "yusuf"), ("renaud", "ahmed")}
    mv = RS.charge.moves
    for o in listed:
        path = o["path"]
        assert len(path) >= mv.min_hexes
        c, t = st.characters[o["char"]], st.characters[o["target"]]
        from oriflamme.geometry.hexgrid import Hex
        hexes = [Hex.from_label(x) for x in path]
        d = hexes[-2].direction_to(hexes[-1])
        assert all(hexes[i].direction_to(hexes[i + 1]) == d for i in range(len(hexes) - mv.straight_last, len(hexes) - 1))
        assert hexes[-1].neighbour(d) in t.hexes
        assert CR.explain(st, CR.action_from_json(o))["legal"]


def test_a_camel_rider_cannot_be_charged():
    st = to_announcements(game())
    e = refused(st, type="announce_charge", char="renaud", target="hakim", path=["0408", "0509", "0609", "0710", "0810", "0911"])
    assert e.ref == "MC §4.6.8" and "camel" in e.reason


def test_camel_riders_do_not_charge():
    st = game(khafr={"side": "A", "hex": "0903", "facing": "SE"})
    to_announcements(st)
    assert not [o for o in options(st) if o.get("char") == "khafr"]
    e = refused(st, type="announce_charge", char="khafr", target="ahmed", path=["1004", "1104", "1205", "1205"])
    assert e.ref == "MC §4.6.8"


def test_only_riders_charge():
    st = to_announcements(game())
    e = refused(st, type="announce_charge", char="hugues", target="ahmed", path=["0705"] * 6)
    assert "only a rider" in e.reason and e.ref == "MC §7.6.1"


def test_a_charge_covers_at_least_six_hexes():
    st = to_announcements(game())
    opt = next(o for o in options(st) if o["type"] == "announce_charge" and o["char"] == "renaud" and o["target"] == "ahmed")
    assert len(opt["path"]) == 6
    e = refused(st, **{**opt, "path": opt["path"][1:]})
    assert "at least 6 hexes (5 given)" in e.reason and e.ref == RS.charge.moves.ref


def test_the_last_four_hexes_run_straight_towards_the_target():
    st = to_announcements(game())
    # a legal move of six hexes ending next to Ahmed, facing him, but zigzagging to the end
    e = refused(st, type="announce_charge", char="renaud", target="ahmed",
                path=["0508", "0608", "0709", "0809", "0909", "1008"])
    assert "straight towards the target" in e.reason and e.ref.startswith("MC §7.6.1")


def test_the_target_must_be_in_the_front_arc():
    st = game(renaud={"facing": "NW"})
    to_announcements(st)
    assert not [o for o in options(st) if o.get("char") == "renaud"]
    e = refused(st, type="announce_charge", char="renaud", target="ahmed", path=["0408"] * 6)
    assert "front arc" in e.reason and e.ref == "MC §7.6.1"


def test_charges_are_announced_only_in_step_2():
    st = game()
    e = refused(st, type="announce_charge", char="renaud", target="yusuf", path=["0408"] * 6)
    assert "announcements step" in e.reason and "CR seed 000 l.43" in e.ref


def test_one_charge_or_counter_charge_per_character_and_turn():
    st = to_announcements(game())
    announce(st, "renaud", "yusuf")
    do(st, type="decline")
    assert not [o for o in options(st) if o.get("target") == "yusuf"]
    e = refused(st, type="announce_charge", char="gautier", target="yusuf",
                path=["0410", "0511", "0611", "0712", "0811", "0911", "1010", "1110", "1209"])
    assert e.ref == "MC §7.6.2"


# --- counter-charge -----------------------------------------------------------------------------
def test_the_other_side_answers_each_announcement_at_once():
    st = to_announcements(game())
    opt = announce(st, "renaud", "yusuf")
    assert st.to_act() == "B" and st.pending[0].kind == "counter_charge"
    opts = options(st)
    assert {"type": "decline"} in opts
    counter = next(o for o in opts if o["type"] == "counter_charge")
    # the charged rider, 6 hexes away at least, rides 2 hexes to meet the charge (§7.6.2)
    assert counter["char"] == "yusuf" and counter["path"] == list(reversed(opt["path"][-2:]))
    # an announcement by A waits for B's answer
    e = refused(st, type="end_step")
    assert "counter-charge" in e.reason


def test_a_counter_charge_covers_at_most_half_the_charge():
    st = to_announcements(game())
    announce(st, "renaud", "yusuf")
    e = refused(st, type="counter_charge", char="yusuf", path=["1310", "1309", "1209", "1110"])
    assert "not one of the options" in e.reason
    charger, yusuf = st.characters["renaud"], st.characters["yusuf"]
    from oriflamme.geometry.hexgrid import Hex
    path = tuple(Hex.from_label(x) for x in st.pending[0].data["path"])
    long_route = tuple(Hex.from_label(x) for x in ["1210", "1110", "1010", "0911", "0910"])
    p = charges.counter_problem(st, yusuf, charger, path, long_route)
    assert p and "at most 4 hexes" in p[0] and p[1] == RS.charge.moves.ref


def test_after_a_counter_charge_the_charger_rides_his_path_less_its_last_two_hexes():
    st = to_announcements(game())
    opt = announce(st, "renaud", "yusuf")
    do(st, type="counter_charge", char="yusuf", path=["1209", "1110"])
    do(st, type="end_step")
    assert st.step == "movement"
    moves = [o for o in options(st) if o.get("char") == "renaud"]
    assert moves == [{"type": "move", "char": "renaud", "path": opt["path"][:-2]}]  # no dismount either
    e = refused(st, type="move", char="renaud", path=opt["path"][:3])
    assert e.ref == "MC §7.6.2"
    do(st, type="move", char="renaud", path=opt["path"][:-2])
    r, y = st.characters["renaud"], st.characters["yusuf"]
    assert r.hex.label == opt["path"][-3] and y.hex.label == opt["path"][-2]
    assert y.hex.neighbour(y.facing).label == opt["path"][-3]  # face to face
    assert any(e.get("msg") == "charge.counter_rides" for e in st.log)


# --- combat: +50 %, the role swap -----------------------------------------------------------------
def charge_to_contact(st, counter: bool):
    to_announcements(st)
    opt = announce(st, "renaud", "yusuf")
    if counter:
        do(st, type="counter_charge", char="yusuf", path=["1209", "1110"])
    else:
        do(st, type="decline")
    do(st, type="end_step")
    do(st, type="move", char="renaud", path=opt["path"][:-2] if counter else opt["path"])
    while st.pending:  # defensive fire at a charger without a counter-charge: B declines
        do(st, type="decline")
    while st.step == "movement":
        do(st, type="end_step")
    assert st.step == "melee"
    return st


def test_the_charge_and_the_counter_charge_count_fifty_percent_more():
    """MC §7.6.3's example: a knight of 28 charges (42), the Syrian's 9 counter-charging (13)."""
    st = charge_to_contact(game(), counter=True)
    r = CR.explain(st, CR.action_from_json({"type": "attack", "attackers": ["renaud"], "defenders": ["yusuf"]}))
    a, d = st.characters["renaud"].current_attack, st.characters["yusuf"].current_defence
    num, den = RS.charge.attack_multiplier
    assert (a, d) == (28, 9)
    assert r["explanation"][1].startswith(f"Sir Renaud charges: attack 28 + 50 % = {28 * num // den}")
    assert "Yusuf counter-charges: defence 9 + 50 % = 13" in r["explanation"][2]
    assert "odds 42:13" in r["explanation"][3]


def test_without_counter_charge_only_the_charger_gains():
    st = charge_to_contact(game(), counter=False)
    if st.characters["renaud"].hex is None or not st.characters["renaud"].alive:
        pytest.skip("the charger fell to defensive fire")
    r = CR.explain(st, CR.action_from_json({"type": "attack", "attackers": ["renaud"], "defenders": ["yusuf"]}))
    text = " ".join(r["explanation"])
    if st.characters["renaud"].hex.label != st.charges.announced["renaud"]["path"][-1]:
        assert "charges" not in text  # stopped short: no charge
    else:
        assert "Sir Renaud charges: attack 28 + 50 % = 42" in text and "counter-charges" not in text


def test_roles_swap_when_the_counter_charge_is_stronger():
    st = charge_to_contact(game(renaud={"attack": 8}), counter=True)
    r = CR.explain(st, CR.action_from_json({"type": "attack", "attackers": ["renaud"], "defenders": ["yusuf"]}))
    assert any("roles are swapped" in s for s in r["explanation"])  # 9*3//2 = 13 > 8*3//2 = 12
    # the swapped combat: results unfavourable to the counter-charger are ignored (A, B -> no effect)
    for seed in range(12):
        st = charge_to_contact(game(seed, renaud={"attack": 8}), counter=True)
        do(st, type="attack", attackers=["renaud"], defenders=["yusuf"])
        ev = next(e for e in st.log if e["type"] == "melee")
        assert any("roles are swapped" in x for x in ev["ruling"]["explanation"])
        assert ev["result"] not in ("A", "B")
        hurt = {e.get("char") for e in st.log[st.log.index(ev):] if e["type"] == "status"}
        assert "yusuf" not in hurt  # the counter-charger never suffers in the swapped combat


def test_a_charge_is_a_separate_combat():
    st = charge_to_contact(game(), counter=True)
    flags = charges  # noqa: F841 (the module under test)
    from oriflamme.rulesets.magna_carta.engine.melee import charge_flags
    r, y, a = st.characters["renaud"], st.characters["yusuf"], st.characters["ahmed"]
    assert charge_flags(st, [r], [y]) == (True, True)
    assert charge_flags(st, [r], [a]) == (False, False)
    assert charge_flags(st, [r, st.characters["hugues"]], [y]) == (False, False)


# --- defensive fire in movement (step 3) ------------------------------------------------------------
def test_defensive_fire_waits_four_hexes_between_shots_at_a_charger():
    st = to_announcements(game())
    r = st.characters["renaud"]
    assert defensive_fire.spacing(st, r) == RS.defensive_spacing.mounted == 3
    announce(st, "renaud", "yusuf")
    assert defensive_fire.spacing(st, r) == RS.defensive_spacing.mounted_charging == 4


def test_no_defensive_fire_at_a_charger_met_by_a_counter_charge():
    st = to_announcements(game())
    announce(st, "renaud", "yusuf")
    do(st, type="counter_charge", char="yusuf", path=["1209", "1110"])
    p = defensive_fire.target_problem(st, st.characters["renaud"])
    assert p and p[1] == "MC §7.6.2"


def test_the_other_side_fires_defensively_during_movement():
    """Step 3 "MOUVEMENT ET TIR DEFENSIF" (l.44, l.51): the raiders' crossbowman, who declared
    defensive fire in his own phase (MC §5.1) and did not shoot, fires at the caravan's movers
    in the caravan's phase; the move pauses in a prompt to his side."""
    st = game()
    do(st, type="declare", char="piers", fire="offensive_or_defensive")
    while st.active == "A":
        do(st, **options(st)[-1]) if st.pending else do(st, type="end_step")
    while st.step != "movement":
        do(st, **(options(st)[-1] if st.pending else {"type": "end_step"}))
    assert st.active == "B" and "piers" in st.defensive_fire.defensive_ready
    paused = []
    for o in options(st):
        if o["type"] == "move" and o["char"] == "ahmed":
            copy = CR.clone(st)
            CR.apply(copy, CR.action_from_json(o))
            if copy.pending and copy.pending[0].kind == "defensive_fire":
                paused.append(o["path"])
                assert copy.to_act() == "A" and "piers" in copy.pending[0].data["eligible"]
                assert copy.pending[0].data["ref"].startswith("MC §5.3")
    assert paused


# --- a short random playout of the scenario ----------------------------------------------------------
def test_a_random_playout_of_the_caravan_ambush():
    rng = random.Random(7)
    st = game(7)
    seen_steps, announced = set(), 0
    for _ in range(250):
        side = st.to_act()
        if side is None:
            break
        acts = CR.legal_actions(st, side)
        seen_steps.add(st.step)
        charges_ = [a for a in acts if a.type == "announce_charge"]
        a = charges_[0] if charges_ and rng.random() < 0.7 else rng.choice(acts)
        announced += a.type == "announce_charge"
        CR.apply(st, a)
    assert {"offensive_fire", "charge_announcements", "movement"} <= seen_steps
    assert announced >= 1


# --- dromedaries (seed l.4, l.6-8: "à cheval/dromadaire") ---------------------------------------------
def test_a_camel_rider_pays_the_mounted_cost_on_the_desert_board():
    from oriflamme.geometry.hexgrid import Hex
    from oriflamme.rulesets.magna_carta.engine.costs import MoveContext
    st = game()
    khafr, hugues = st.characters["khafr"], st.characters["hugues"]  # a camel rider, a sergeant on foot
    assert RS.character_types[khafr.type].mount == "camel"
    frm, stones = Hex.from_label("0501"), Hex.from_label("0502")
    assert st.gmap.terrain(stones) == "stone_field"
    row = RS.terrain["stone_field"]
    assert MoveContext(st, khafr).cost(frm, stones) == row.mounted == 2
    assert MoveContext(st, hugues).cost(frm, stones) == row.foot == 1
    tent = Hex.from_label("1504")
    assert st.gmap.terrain(tent) == "tent" and MoveContext(st, khafr).cost(tent.neighbour(0), tent) is None


def test_along_the_ditch_one_point_into_it_four():
    """l.9 "4 à pied (1 depuis une case adjacente)": read as 1 PM from an adjacent ditch hex; the
    path search (step table) and the checked step (MoveContext) agree."""
    from oriflamme.geometry.hexgrid import Hex
    from oriflamme.rulesets.magna_carta.engine.costs import SHIFT, MoveContext, step_table
    st = game()
    hugues = st.characters["hugues"]
    a, b, clear = Hex.from_label("0205"), Hex.from_label("0305"), Hex.from_label("0204")
    assert {st.gmap.terrain(a), st.gmap.terrain(b), st.gmap.terrain(clear)} == {"ditch", "clear"}
    ctx = MoveContext(st, hugues)
    assert ctx.cost(a, b) == 1 and ctx.cost(clear, a) == 4
    table = step_table(st, False, hugues.armour)
    assert dict(table[a])[b] >> SHIFT == 1 and dict(table[clear])[a] >> SHIFT == 4
