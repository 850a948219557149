"""Magna Carta's evaluation for the computer players (``rulesets/magna_carta/evaluation.py``):
bounded, sensitive to what it claims to weigh, its weights validated with the file and field
named."""

from __future__ import annotations

import pytest

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta.evaluation import evaluate, load_weights

MC = registry.get("magna-carta")


def start(scenario="the-hill"):
    return Game(MC, MC.load_scenario(scenario), 1).state


@pytest.mark.parametrize("scenario", ["the-hill", "hamlet-raid", "the-caravan", "the-ford", "the-hay-cart"])
def test_values_are_bounded_and_the_hook_answers_them(scenario):
    st = start(scenario)
    for side in st.sides:
        v = MC.evaluate(st, side)
        assert -1 < v < 1 and v == evaluate(st, side)


def test_a_dead_enemy_is_better_than_a_wounded_one_better_than_none():
    st = start()
    enemy = next(c for c in st.characters.values() if c.side == "B")
    base = evaluate(st, "A")
    wounded = st.clone()
    wounded.characters[enemy.id].status = "wounded"
    dead = st.clone()
    dead.characters[enemy.id].status = "dead"
    assert base < evaluate(wounded, "A") < evaluate(dead, "A")
    assert evaluate(dead, "B") < evaluate(st, "B")


def test_the_objective_side_values_standing_on_its_objective():
    st = start()  # the-hill: A must hold 1505
    raider = next(c for c in st.characters.values() if c.side == "A" and not c.mounted)
    held = st.clone()
    for c in held.characters.values():  # clear the hilltop
        if c.hex is not None and c.hex.label == "1505":
            c.status = "dead"
    from oriflamme.geometry.hexgrid import Hex
    cleared = held.clone()
    held.characters[raider.id].hex = Hex.from_label("1505")
    assert evaluate(held, "A") > evaluate(cleared, "A")


def test_a_finished_game_is_worth_its_outcome():
    st = start()
    st.over, st.winner = True, "B"
    assert evaluate(st, "B") == 1.0 and evaluate(st, "A") == -1.0


def test_bad_weights_name_the_file_and_field(tmp_path):
    bad = tmp_path / "w.toml"
    bad.write_text('[weights]\nscale = -1\n[status]\nhealthy = 1\n', encoding="utf-8")
    with pytest.raises(ValueError) as exc:
        load_weights(str(bad))
    assert str(bad) in str(exc.value) and "scale" in str(exc.value)
    assert load_weights().weights.ref_material.startswith("MC §")


def _able(st, side):
    return [c for c in st.characters.values() if c.side == side and c.active and c.hex is not None]


def test_the_weaker_side_keeps_away_even_after_a_first_kill():
    """the-hill: the levies (B, attack + defence 61) against the raiders (108). Before, the
    closing-in term compared the shares each side had left: levies who had shot one raider were
    'ahead' and marched on the raiders (and died one by one). Now it compares fighting power."""
    from oriflamme.rulesets.magna_carta.evaluation import closing
    w = load_weights().weights
    st = start()
    assert closing(_able(st, "B"), _able(st, "A"), w) < 0 < closing(_able(st, "A"), _able(st, "B"), w)
    shot = st.clone()
    archer = next(c for c in shot.characters.values() if c.side == "A" and c.type == "archer")
    shot.characters[archer.id].status = "dead"
    assert closing(_able(shot, "B"), _able(shot, "A"), w) < 0
    # with only one raider left standing, the levies are the stronger side and close in
    few = st.clone()
    for c in list(few.characters.values())[1:]:
        if c.side == "A":
            c.status = "dead"
    assert closing(_able(few, "B"), _able(few, "A"), w) > 0 > closing(_able(few, "A"), _able(few, "B"), w)


def test_weaker_side_values_distance_from_the_stronger_one():
    """The same term through ``evaluate``: levies 4 hexes nearer the raiders (nothing else within
    the raiders' reach) are worse off; the raiders see it the other way round."""
    from oriflamme.geometry.hexgrid import Hex
    st = start()
    st.scenario = {**st.scenario, "victory": {"rout_fraction": 0.6}}  # the closing term alone
    near = st.clone()
    for c in near.characters.values():
        if c.side == "B":
            c.hex = Hex.from_label(f"{int(c.hex.label[:2]) - 4:02d}{c.hex.label[2:]}")
    assert evaluate(near, "B") < evaluate(st, "B")


def test_an_objective_held_early_is_worth_little_held_at_the_end_much():
    """Victory reads the objectives at the end of the last turn only (engine/victory.py): a
    villager of the-hay-cart on the east road on turn 3 of 8 gains little (he stands alone among
    the raiders), the same on turn 8 decides the game."""
    from oriflamme.geometry.hexgrid import Hex
    from oriflamme.rulesets.magna_carta.evaluation import hold_weight
    w = load_weights().weights
    assert hold_weight(8, 8, w) == 1.0
    assert hold_weight(3, 8, w) < 0.05 < hold_weight(6, 8, w) < hold_weight(7, 8, w) < 1.0
    st = start("the-hay-cart")
    gains = {}
    for turn in (3, 8):
        base = st.clone()
        base.turn = turn
        held = base.clone()
        runner = held.characters["pierre"]
        runner.hex = Hex.from_label("1908")
        away = base.clone()
        away.characters["pierre"].hex = Hex.from_label("1108")  # as far from the raiders' line, off the road
        gains[turn] = evaluate(held, "A") - evaluate(away, "A")
    assert gains[8] > 0 and gains[8] > 3 * max(gains[3], 0.0)


def test_the_way_to_an_objective_is_walked_over_the_map(monkeypatch):
    """Distances to the objectives are walks (MC §4.1, §3.1, §8.1): hamlet-raid's farm garden
    (1603, 1604, 1703, 1704) lies behind houses and fences, its gate at 1804 S. From 1406 in
    the lane, three hexes from 1604, the walk costs 7 movement points (1406-1506-1606-1706-1705,
    then the garden, 2, over the fence, +1); over the open lane the count of hexes stands.
    The walk makes a raider at the gate worth more, against one in the lane beside the houses,
    than the count of hexes did."""
    from oriflamme.geometry.hexgrid import Hex
    from oriflamme.rulesets.magna_carta.evaluation import _march_costs, march
    st = start("hamlet-raid")
    w = load_weights().weights
    simon = st.characters["simon"]  # a man-at-arms, on foot, in armour
    goal = Hex.from_label("1604")
    costs = _march_costs(st, goal, False, bool(simon.armour))
    assert costs[Hex.from_label("1406")] == 7 and costs[goal] == 0
    assert costs[Hex.from_label("1705")] == 3  # the garden (2) over the fence (+1)
    assert _march_costs(st, Hex.from_label("1505"), False, True) == {Hex.from_label("1505"): 0}  # a house: no way in
    lane, gate = st.clone(), st.clone()
    lane.characters["simon"].hex = Hex.from_label("1406")
    gate.characters["simon"].hex = Hex.from_label("1805")
    assert march(lane, lane.characters["simon"], goal, w) == pytest.approx(7 / w.march_cost)
    assert march(lane, lane.characters["simon"], goal, w.model_copy(update={"objective_paths": False})) == 3
    far = st.clone()
    far.characters["simon"].hex = Hex.from_label("0607")  # the open lane: never nearer than the count
    assert march(far, far.characters["simon"], goal, w) == far.characters["simon"].distance_to(goal)
    for s in (lane, gate):
        s.turn = 7
    # the gate gains over the lane with the walks, not with the count of hexes
    data = load_weights()
    off = data.model_copy(update={"weights": w.model_copy(update={"objective_paths": False})})
    from oriflamme.rulesets.magna_carta import evaluation
    gain = evaluate(gate, "A") - evaluate(lane, "A")
    monkeypatch.setattr(evaluation, "load_weights", lambda: off)
    assert gain > evaluate(gate, "A") - evaluate(lane, "A")


def _clear_hexes(st, near, covers):
    """Hexes of ``st``'s map with a given cover, free of characters, by distance from ``near``."""
    taken = {h for c in st.characters.values() if c.hex is not None for h in c.hexes}
    out = []
    for h in st.gmap.hexes:
        t = st.rules.terrain.get(st.gmap.terrain(h))
        if t is not None and t.cover in covers and h not in taken and not t.no_fire_from:
            out.append(h)
    return sorted(out, key=lambda h: (near.distance(h), h.label))


def _line_cover(st, shooter, target, hex_):
    """The cover of ``target`` standing on ``hex_`` against ``shooter``, by the rules' own line of
    fire over the map alone (None: the terrain blocks every line)."""
    from oriflamme.rulesets.magna_carta.engine.lines import line_of_fire
    s = st.clone()
    s.characters[target.id].hex = hex_
    band = st.rules.weapons[shooter.weapon].band(shooter.hex.distance(hex_))
    lof = line_of_fire(s, s.characters[shooter.id], s.characters[target.id], band, {})
    return lof.cover if lof.clear else None


def test_the_volley_reads_the_line_of_fire_over_the_map():
    """A levy the terrain hides from the raiders' crossbow (a tree or the hill between them,
    MC §5.5.2.2–§5.5.2.3) is safe from its next shot; without the lines (``sight=False``, the
    third session's estimate) he was not. The-hill's levies were shot down on the open hilltop
    by a crossbow that reaches across the whole board (75 hexes)."""
    from oriflamme.rulesets.magna_carta.evaluation import fire_threat
    st = start()
    shares = load_weights().status
    xbow = next(c for c in st.characters.values() if c.side == "A" and c.type == "crossbowman")
    levy = next(c for c in st.characters.values() if c.side == "B" and c.type == "spearman")
    free = [h for h in _clear_hexes(st, xbow.hex, {"none", "light"}) if xbow.hex.distance(h) > 2]  # not in contact
    hidden = [h for h in free if _line_cover(st, xbow, levy, h) is None]
    seen = [h for h in free if _line_cover(st, xbow, levy, h) == "none"]
    assert hidden and seen  # the open-country board has trees and a hill

    def threat(hex_, sight=True):
        s = st.clone()
        s.characters[levy.id].hex = hex_
        return fire_threat(s, [s.characters[xbow.id]], [s.characters[levy.id]], shares, sight)

    for h in hidden[:8]:
        assert threat(h) == 0.0, h.label
        assert threat(h, sight=False) > 0.0, h.label  # in range: only the line hides him
    for h in seen[:8]:
        assert threat(h) == threat(h, sight=False) > 0.0, h.label  # a clear line: the own hex's cover
    # the same again from the per-map store of lines, and from an emptied store
    first = [threat(h) for h in hidden[:8] + seen[:8]]
    assert [threat(h) for h in hidden[:8] + seen[:8]] == first
    st.gmap.memo(("ai.evaluation.lines", id(st.rules)), dict).clear()
    assert [threat(h) for h in hidden[:8] + seen[:8]] == first


def test_fire_threat_reads_the_fire_tables_by_band_cover_and_shooter():
    """The next volley (MC §5.1 bands, §5.4.3 table, §5.5 cover): a levy at short range of the
    raiders' archer is more at risk than at medium range, and in the open more than in cover;
    a dead archer threatens nobody."""
    from oriflamme.rulesets.magna_carta.evaluation import fire_threat
    st = start()
    shares = load_weights().status
    archer = next(c for c in st.characters.values() if c.side == "A" and c.type == "archer")
    levy = next(c for c in st.characters.values() if c.side == "B" and c.type == "spearman")
    w = st.rules.weapons[archer.weapon]
    open_ = [h for h in _clear_hexes(st, archer.hex, {"none"}) if _line_cover(st, archer, levy, h) == "none"]
    short = next(h for h in open_ if w.band(archer.hex.distance(h)) == "short" and archer.hex.distance(h) > 2)
    medium = next(h for h in open_ if w.band(archer.hex.distance(h)) == "medium")

    def threat(hex_, shooter_status="healthy"):
        s = st.clone()
        s.characters[levy.id].hex = hex_
        s.characters[archer.id].status = shooter_status
        return fire_threat(s, [s.characters[archer.id]], [s.characters[levy.id]], shares)

    assert threat(short) > threat(medium) > 0
    assert threat(short, "dead") == 0.0
    covered = [h for h in _clear_hexes(st, archer.hex, {"light", "medium", "heavy"})
               if w.band(archer.hex.distance(h)) == "short" and archer.hex.distance(h) > 2
               and _line_cover(st, archer, levy, h) not in (None, "none")]
    if covered:  # the open-country board has brush and woods
        assert threat(covered[0]) < threat(short)


def test_a_missed_shot_may_stray_onto_the_targets_neighbour():
    """A missed shot may strike whoever stands around its target (MC §5.4.5: a second d10, 1–6
    name a hex around the target; an unarmoured character there is wounded). Two levies side
    by side in the open are worth more to the crossbow than the same two levies apart, by
    exactly the chance of a miss, one in ten, and the neighbour's wound; with ``stray`` 0, or
    the neighbour in armour (he only retreats), nothing is added."""
    from oriflamme.rulesets.magna_carta.evaluation import _fire_odds, fire_threat
    st = start()
    shares = load_weights().status
    xbow = next(c for c in st.characters.values() if c.side == "A" and c.type == "crossbowman")
    levies = [c for c in st.characters.values() if c.side == "B" and c.type == "spearman"][:2]
    w = st.rules.weapons[xbow.weapon]
    open_ = {h for h in _clear_hexes(st, xbow.hex, {"none"}) if xbow.hex.distance(h) > 2}
    # a pair of adjacent open hexes in sight, the first nearer (the crossbow's best target)
    pair = next((h, n) for h in sorted(open_, key=lambda h: (xbow.hex.distance(h), h.label))
                for n in h.neighbours() if n in open_ and xbow.hex.distance(n) > xbow.hex.distance(h)
                and _line_cover(st, xbow, levies[0], h) == "none" and _line_cover(st, xbow, levies[1], n) == "none"
                and w.band(xbow.hex.distance(h)) == w.band(xbow.hex.distance(n)))
    apart = next(h for h in sorted(open_, key=lambda h: (xbow.hex.distance(h), h.label))
                 if h.distance(pair[0]) > 3 and xbow.hex.distance(h) > xbow.hex.distance(pair[0])
                 and _line_cover(st, xbow, levies[1], h) == "none"
                 and w.band(xbow.hex.distance(h)) == w.band(xbow.hex.distance(pair[0])))

    def threat(second, stray=1.0, armour=None):
        s = st.clone()
        s.characters[levies[0].id].hex, s.characters[levies[1].id].hex = pair[0], second
        if armour is not None:
            s.characters[levies[1].id].armour = armour
        return fire_threat(s, [s.characters[xbow.id]], [s.characters[c.id] for c in levies], shares, True, stray)

    assert threat(pair[1], stray=0.0) == threat(apart, stray=0.0) == threat(apart)  # nobody around
    kill, wound, miss = _fire_odds(st.rules, w, w.band(xbow.hex.distance(pair[0])), levies[0], "none", st.weather,
                                   False)
    assert miss > 0
    worth = levies[1].attack + levies[1].defence
    norm = sum(c.attack + c.defence for c in levies)
    gain = threat(pair[1]) - threat(apart)
    assert gain == pytest.approx(miss / st.rules.stray_shot.die * worth * (1.0 - shares.wounded) / norm)
    assert threat(pair[1], stray=0.5) - threat(apart) == pytest.approx(gain / 2)
    assert threat(pair[1], armour="mail") == threat(apart, armour="mail")  # armour: a retreat, not a wound


def test_the_levies_value_shooting_the_raiders_archer():
    """With the fire term, the archer's death is worth more to the levies than his worth alone:
    compared with killing a raider of the same worth who has no bow."""
    from oriflamme.rulesets.magna_carta.evaluation import fire_threat
    st = start()
    shares = load_weights().status
    raiders = [c for c in st.characters.values() if c.side == "A"]
    levies = [c for c in st.characters.values() if c.side == "B"]
    shooters = [c for c in raiders if c.weapon]
    assert fire_threat(st, raiders, levies, shares) > 0
    for c in shooters:
        c.status = "dead"
    assert fire_threat(st, raiders, levies, shares) == 0.0


def test_the_store_of_lines_stays_bounded(monkeypatch):
    """The volley term's lines are kept per map (a server's map lives as long as the process):
    past ``LINES_KEPT`` the store starts again, and the values do not change."""
    from oriflamme.rulesets.magna_carta import evaluation
    st = start()
    store = st.gmap.memo(("ai.evaluation.lines", id(st.rules)), dict)
    store.clear()
    before = evaluation.evaluate(st, "B")
    assert len(store) > 3
    store.clear()
    monkeypatch.setattr(evaluation, "LINES_KEPT", 3)
    assert evaluation.evaluate(st, "B") == before
    assert len(store) <= 3
