"""The actions whose place or target the browser lets the player pick on the table (docs/guerres-fleuries/
battle-ui.md, "On the table"): the server says what may be picked (the options' ``spells``, ``hide_at``) and
rules on every pick before it is committed (``explain``: why it is allowed, or refused with the rule, the
state unchanged) — a hiding unit's place (l.497, OR-GF105), a flank march's entry (l.505-511, GF-K4), a spell
at a building (l.1216, OR-GF121) and the jump of *Vol d'Ehecatl* (l.1320, OR-GF123)."""

from __future__ import annotations

import copy
import json

import pytest

from oriflamme.core.errors import IllegalAction
from oriflamme.core.record import Game
from oriflamme.rulesets.guerres_fleuries.battle import fog
from oriflamme.rulesets.guerres_fleuries.battle.actions import action_from_json, choice_of

from .battle_engine_kit import ruleset

ENCOUNTER = "encounter-in-the-valley"
#: a wood in side B's deployment zone (x 30–150, y 0–30) for the hiding tests
COPSE = {"id": "copse", "kind": "bois", "name": "Copse", "name_fr": "Bosquet",
         "points": [[30.0, 0.0], [70.0, 0.0], [70.0, 12.0], [30.0, 12.0]]}


def copse_game() -> Game:
    """The bundled encounter with a wood in side B's zone; B (discovered) deploys first, on the table."""
    rs = ruleset()
    doc = copy.deepcopy(rs.scenario_to_json(rs.load_scenario(ENCOUNTER)))
    doc["battlefield"]["elements"].append(COPSE)
    g = Game(rs, rs.scenario_from_json(doc, "copse"), seed="hide")
    assert g.to_act() == "B"
    return g


def test_a_unit_not_yet_placed_hides_at_a_place_written_on_the_plan():
    """l.497: "Les unités … cachées dans la jungle etc. peuvent ne pas être placées sur la table …, leur position
    doit alors être clairement indiquée sur le plan de bataille": the hide action may carry that place (x, y);
    the deployment's check (the zone) and the hiding rule (mostly in a wood) are both ruled before it is made."""
    g = copse_game()
    rs, st = g.ruleset, g.state
    b1 = st.units["B1"]
    assert rs.options(st, "B")["units"]["B1"]["hide_at"]["decision"] == "OR-GF105"
    before = json.dumps(st.to_json(), sort_keys=True)
    # in the open, in the zone: not a hiding place (l.497); out of the zone: the deployment's rule
    for spot, words in (((45.0, 24.5), "l.497"), ((50.0, 40.0), "deployment zone")):
        r = rs.explain(st, {"type": "hide", "side": "B", "unit": "B1", "x": spot[0], "y": spot[1]})
        assert r["legal"] is False and (words in r["ref"] or words in r["reason"]), r
        with pytest.raises(IllegalAction):
            rs.apply(st, {"type": "hide", "side": "B", "unit": "B1", "x": spot[0], "y": spot[1]})
    assert json.dumps(st.to_json(), sort_keys=True) == before
    # mostly in the copse: allowed, and said why
    r = rs.explain(st, {"type": "hide", "side": "B", "unit": "B1", "x": 50.0, "y": 6.0})
    assert r["legal"] and "mostly in" in r["steps"][-1] and "OR-GF105" in r["citations"], r
    act = action_from_json({"type": "hide", "side": "B", "unit": "B1", "x": 50.0, "y": 6.0})
    assert action_from_json(act.to_json()) == act and act.heading is None
    assert choice_of(act.to_json()) == choice_of({**act.to_json(), "x": 40.0})   # the place is a free parameter
    g.apply(act)
    assert (b1.x, b1.y, b1.heading) == (50.0, 6.0, 180.0) and fog.in_cover(b1) and b1.moved
    # the other side sees neither the unit nor its place
    for side in ("A", None):
        text = json.dumps(rs.view(st, side)) + json.dumps(rs.visible_events(st, side))
        assert '"B1"' not in text and b1.name not in text
    # a unit already placed hides where it stands, not elsewhere
    b2 = st.units["B2"]
    b2.moved = True
    r = rs.explain(st, {"type": "hide", "side": "B", "unit": "B2", "x": 60.0, "y": 6.0})
    assert r["legal"] is False and "already been placed" in r["reason"]


def test_a_flank_march_s_entry_is_ruled_before_it_is_written():
    """l.505: "… dans son camp jusqu'à la ligne médiane" and the first try on turn 4 at the earliest (GF-K4): the
    ruling of a flank march names why the entry point is allowed, or refuses it with the rule."""
    g = copse_game()
    rs, st = g.ruleset, g.state
    troop = next(u for u in st.side_units("B") if u.kind == "troop")
    bad = rs.explain(st, {"type": "flank_march", "side": "B", "unit": troop.id, "edge": "left", "y": 100.0, "turn": 4})
    assert bad["legal"] is False and "centre line" in bad["reason"] and "GF seed 003" in bad["ref"]
    ok = rs.explain(st, {"type": "flank_march", "side": "B", "unit": troop.id, "edge": "right", "y": 30.0, "turn": 5})
    assert ok["legal"] and any("from turn 5" in s for s in ok["steps"]) and "GF-K4" in ok["citations"], ok


def test_the_options_say_which_spells_may_strike_a_building_and_how_far_a_jump_goes():
    """The page's picking reads the server's options, not the rules: Eclair may take a building as its target
    (l.1216, OR-GF121), Vol d'Ehecatl sets a character down 100 cm away at most (l.1320, OR-GF123)."""
    from guerres_fleuries.test_battle_combat_spell_modifiers import HUT, _building_battle, _hero, _priest, troop
    p = _priest(x=85, y=75, spells=["eclair", "vol_d_ehecatl"])
    st = _building_battle(p, _hero("hero", "A", x=95, y=80), troop("e", "B", x=30, y=10), elements=[HUT])
    st.phase, st.acting = 3, "A"
    book = ruleset().options(st, "A")["units"]["priest"]["spells"]
    assert book["eclair"]["buildings"] is True and "jump_cm" not in book["eclair"]
    assert book["vol_d_ehecatl"]["jump_cm"] == 100 and book["vol_d_ehecatl"]["decision"] == "OR-GF123"
    assert not book["vol_d_ehecatl"]["buildings"]


def test_a_unit_placed_in_cover_may_hide_where_it_stands_and_the_card_cites_the_rule():
    """A unit placed in the copse may hide there, its place on the battle plan (l.497, OR-GF105): the options
    say so with the rule's citation, which the browser's card shows (no citation written in the page)."""
    g = copse_game()
    rs = g.ruleset
    g.apply(action_from_json({"type": "place", "side": "B", "unit": "B1", "x": 50.0, "y": 6.0, "heading": 180.0}))
    assert any(a.type == "hide" and a.unit == "B1" for a in rs.legal_actions(g.state, "B"))
    opts = rs.options(g.state, "B")["units"]["B1"]
    assert opts["hide"] is True
    assert opts["hide_here"] == {"ref": fog.data()["hide"].ref, "decision": "OR-GF105"}
    assert "l.497" in opts["hide_here"]["ref"]
