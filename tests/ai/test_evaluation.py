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
