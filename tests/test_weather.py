"""The weather on the map (Magna Carta §3.2 "Le temps"; SEED-NOTES D5), row by row.

§3.2's table (visibility / movement / fire / combat):
    Nuit 3 - - 0 ; Brouillard 5 - - 0 ; Pluie ∞ 3/4 PM +1 - ; Neige ∞ ½ PM - - ; Tempête 10 ½ PM +2 -
"Le signe ∞ signifie qu'il n'y a pas de limitation. Les fractions ... (arrondir par défaut)."
"Un tireur ne peut viser qu'une cible qu'il peut voir." A "-" in the movement and fire columns
means no influence; in the combat column it shifts every attack one column left (D5).
"""

from __future__ import annotations

import pytest

from gamekit import H, game
from oriflamme.rulesets.magna_carta.engine import Attack, Fire, IllegalAction, Move, apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.movement import allowance, reachable
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE
from oriflamme.rulesets.magna_carta.resolve.movement import allowance as resolve_allowance
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

RS = load_ruleset()
WIDE = [". " * 13 + "."] * 5

#: the seed's table: id -> (visibility, movement fraction, fire modifier, combat mark)
TABLE = {
    "night": (3, (1, 1), 0, "0"),
    "fog": (5, (1, 1), 0, "0"),
    "rain": ("infinite", (3, 4), 1, "-"),
    "snow": ("infinite", (1, 2), 0, "-"),
    "storm": (10, (1, 2), 2, "-"),
    "clear": ("infinite", (1, 1), 0, "0"),
}
WEATHERS = sorted(TABLE)


@pytest.mark.parametrize("wid", WEATHERS)
def test_weather_data_is_the_seed_table(wid):
    """§3.2: each row of weather.toml is the printed row, cited."""
    w = RS.weather[wid]
    assert (w.visibility, tuple(w.movement), w.fire, w.combat) == TABLE[wid]
    assert "MC §3.2" in w.ref


# --- visibility ---------------------------------------------------------------------------
def _target_at(distance: int, origin: str = "0103") -> str:
    o = H(origin)
    for col in range(1, 15):
        for row in range(1, 6):
            h = H(f"{col:02d}{row:02d}")
            if o.distance(h) == distance:
                return h.label
    raise AssertionError(distance)


def _shot(wid: str, distance: int, weapon: str | None = None):
    tgt = _target_at(distance)
    over = {"weapon": weapon} if weapon else {}
    st = game(WIDE, [("x", "archer", "A", "0103", over), ("t", "spearman", "B", tgt)], weather=wid, step=OFFENSIVE_FIRE)
    return st, Fire("x", "t")


@pytest.mark.parametrize("wid", ["night", "fog", "storm"])
def test_visibility_limits_the_shot(wid):
    """§3.2: "Un tireur ne peut viser qu'une cible qu'il peut voir": a target at the
    visibility limit may be shot, one hex farther is refused with the rule; state unchanged."""
    vis = RS.weather[wid].visibility
    st, a = _shot(wid, vis)
    assert explain(st, a).legal and a in legal_actions(st)
    st, a = _shot(wid, vis + 1)
    r = explain(st, a)
    assert not r.legal and f"visibility {vis} hexes" in r.reason and "MC §3.2" in r.citations
    assert a not in legal_actions(st)
    before = st.digest()
    with pytest.raises(IllegalAction, match="visibility"):
        apply(st, a)
    assert st.digest() == before


@pytest.mark.parametrize("wid", ["clear", "rain", "snow"])
def test_unlimited_visibility(wid):
    """§3.2: "∞" — no limit: a short bow reaches 12 hexes in rain and snow."""
    st, a = _shot(wid, 12)
    assert explain(st, a).legal


# --- fire modifier ---------------------------------------------------------------------------
@pytest.mark.parametrize("wid", WEATHERS)
def test_fire_modifier_in_the_ruling(wid):
    """§3.2 / §5.4.4: rain +1, storm +2 to the fire die, shown as a cited step; night, fog and
    snow ("-") change nothing."""
    st, a = _shot(wid, 3)
    r = explain(st, a)
    clear = explain(*_shot("clear", 3))
    assert r.data["die_modifier"] - clear.data["die_modifier"] == TABLE[wid][2]
    steps = [s for s in r.steps if s.text.startswith("weather ")]
    if TABLE[wid][2]:
        assert len(steps) == 1 and f"{TABLE[wid][2]:+d}" in steps[0].text and "MC §3.2" in steps[0].ref
    else:
        assert not steps


# --- movement ---------------------------------------------------------------------------------
@pytest.mark.parametrize("wid", WEATHERS)
@pytest.mark.parametrize("ctype,status,base", [("spearman", "healthy", 8), ("man_at_arms", "healthy", 6),
                                                ("knight_on_foot", "healthy", 4), ("spearman", "wounded", 4),
                                                ("man_at_arms", "wounded", 3)])
def test_movement_fraction_rounded_down(wid, ctype, status, base):
    """§3.2: the movement points are reduced by the fraction, rounded down ("arrondir par
    défaut"): e.g. 6 PM in rain = 4 (4.5), 3 PM in snow = 1 (1.5)."""
    st = game(WIDE, [("a", ctype, "A", "0103", {"status": status}), ("b", "spearman", "B", "1405")], weather=wid)
    assert st.step == MOVEMENT
    num, den = TABLE[wid][1]
    assert allowance(st, st.characters["a"]) == base * num // den
    far = max(cost for cost, _ in reachable(st, st.characters["a"]).values())
    assert far == base * num // den  # open ground: the farthest move uses every point


def test_movement_beyond_the_weather_allowance_is_refused():
    """§3.2: snow halves the 8 PM of a man on foot: a five-hex move is refused."""
    st = game(WIDE, [("a", "spearman", "A", "0103"), ("b", "spearman", "B", "1405")], weather="snow")
    path = ("0203", "0303", "0403", "0503", "0603")
    with pytest.raises(IllegalAction):
        apply(st, Move("a", path))
    apply(st, Move("a", path[:4]))
    assert st.characters["a"].hex == H("0503")


def test_the_worked_example_of_a_rider_in_rain():
    """§3.2 Exemple: "un cavalier (15 PM) se déplaçant sous la pluie ne peut pas avancer de
    plus de 15 x ¾ = 11,25, soit 11 PM" (riders are not on the map yet: the resolver)."""
    assert resolve_allowance(RS, 15, "rain").data["points"] == 11
    assert resolve_allowance(RS, 15, "rain", indoors=True).data["points"] == 15


# --- melee --------------------------------------------------------------------------------
@pytest.mark.parametrize("wid", WEATHERS)
def test_melee_column_shift(wid):
    """§3.2 combat column, SEED-NOTES D5: rain, snow and storm shift every attack one column
    to the left, with a cited step; night and fog ("0") do not."""
    st = game(WIDE, [("k", "knight_on_foot", "A", "0302"), ("s", "spearman", "B", "0303")], weather=wid, step=MELEE)
    a = Attack(("k",), ("s",))
    r = explain(st, a)
    clear = explain(game(WIDE, [("k", "knight_on_foot", "A", "0302"), ("s", "spearman", "B", "0303")], step=MELEE), a)
    shift = -1 if TABLE[wid][3] == "-" else 0
    assert r.data["column_index"] == clear.data["column_index"] + shift
    steps = [s for s in r.steps if s.text.startswith("weather ")]
    assert len(steps) == (1 if shift else 0)
    if shift:
        assert "-1 column" in steps[0].text and "D5" in steps[0].ref


def test_bad_weather_forbids_an_attack_at_1_to_1():
    """D5 with D2: at 1-1 the "-" of rain leaves the column below 1-1: the attack is
    impossible in rain (possible in fog)."""
    chars = [("a", "spearman", "A", "0302"), ("b", "spearman", "B", "0303")]  # 8:6 = 1-1
    st = game(WIDE, chars, weather="rain", step=MELEE)
    r = explain(st, Attack(("a",), ("b",)))
    assert not r.legal and "below 1-1" in r.reason
    assert Attack(("a",), ("b",)) not in legal_actions(st)
    assert explain(game(WIDE, chars, weather="fog", step=MELEE), Attack(("a",), ("b",))).legal


def test_sun_in_the_eyes_of_one_side():
    """§5.4.4 "+1 ... Météo: Soleil dans les yeux": the scenario says which side faces the sun
    (`sun_in_eyes` on its [[side]]); its shooters add 1, the other side's do not; it adds to rain."""
    chars = [("x", "crossbowman", "A", "0101"), ("y", "crossbowman", "B", "0705"),
             ("t", "spearman", "B", "0601"), ("u", "spearman", "A", "0205")]
    sunny = {}
    for weather in ("clear", "rain"):
        st = game(WIDE, chars, weather=weather, step=OFFENSIVE_FIRE)
        before = explain(st, Fire("x", "t"))
        st.scenario["side"][0]["sun_in_eyes"] = True
        r = explain(st, Fire("x", "t"))
        assert r.legal and r.data["die_modifier"] == before.data["die_modifier"] + 1
        assert any("sun" in s.text and s.ref == "MC §5.4.4" for s in r.steps)
        sunny[weather] = r.data["die_modifier"]
        st.active = "B"
        other = explain(st, Fire("y", "u"))
        assert other.legal and not any("sun" in s.text for s in other.steps)
    assert sunny["rain"] == sunny["clear"] + 1  # the sun and the rain add up


def test_sun_in_eyes_is_a_scenario_side_field():
    from oriflamme.rulesets.magna_carta.scenario import ScenarioError, load_scenario, validate_scenario
    sc, _ = load_scenario("the-hill")
    raw = {k: v for k, v in sc.items()}
    raw["side"] = [dict(sc["side"][0], sun_in_eyes=True), sc["side"][1]]
    assert validate_scenario(raw)[0]["side"][0]["sun_in_eyes"] is True
    raw["side"] = [dict(sc["side"][0], sun_in_eyes="yes please"), sc["side"][1]]
    with pytest.raises(ScenarioError, match="sun_in_eyes"):
        validate_scenario(raw)
