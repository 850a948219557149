"""The edition overlay (docs/architecture.md "Editions"): rows replaced, added, removed by key;
single tables replaced; the sequence replaced whole; the ruleset id carried by the game and its
record, a record refused under another edition."""

from __future__ import annotations

import copy

import pytest

from oriflamme.core import registry
from oriflamme.core.errors import OriflammeError
from oriflamme.core.record import Game, replay
from oriflamme.rulesets.magna_carta.rulesdata import (RulesDataError, editions, load_ruleset, overlay_doc,
                                                      ruleset_id)

BASE = {
    "terrain": [{"id": "clear", "foot": 1, "ref": "MC §3.1"}, {"id": "wood", "foot": 2, "ref": "MC §3.1"}],
    "result": [{"table": "vs_foot", "letter": "A", "ref": "MC §5.4.3"},
               {"table": "vs_foot", "letter": "B", "ref": "MC §5.4.3"}],
    "band": [{"low": 1, "high": 9, "result": "success", "ref": "MC §4.4.3"}],
    "odds": {"min_column": 1, "ref": "MC §6.4"},
}


def test_a_row_with_a_base_key_replaces_it_in_place_and_a_new_key_adds_a_row():
    over = {"terrain": [{"id": "wood", "foot": 3, "ref": "CH seed 002 l.14"}, {"id": "anvil", "foot": 1, "ref": "CH seed 002 l.65"}]}
    out = overlay_doc(BASE, over, "t.toml")
    assert [r["id"] for r in out["terrain"]] == ["clear", "wood", "anvil"]
    assert out["terrain"][1] == {"id": "wood", "foot": 3, "ref": "CH seed 002 l.14"}
    assert out["terrain"][0] is BASE["terrain"][0]
    assert BASE["terrain"][1]["foot"] == 2  # the base document is not changed


def test_a_composite_key_and_removal():
    over = {"result": [{"table": "vs_foot", "letter": "B", "ref": "CH seed 002 l.185"}],
            "result_overlay": {"remove": [["vs_foot", "A"]]}}
    out = overlay_doc(BASE, over, "f.toml")
    assert out["result"] == [{"table": "vs_foot", "letter": "B", "ref": "CH seed 002 l.185"}]


def test_keyless_tables_single_tables_and_replace_are_replaced_whole():
    over = {"band": [{"low": 1, "high": 7, "result": "success", "ref": "CH seed 002 l.262"},
                     {"low": 8, "high": 9, "result": "fall_stunned", "ref": "CH seed 002 l.263"}],
            "odds": {"min_column": 2, "ref": "CH"},
            "terrain": [{"id": "brush", "foot": 2, "ref": "CH seed 002 l.14"}], "terrain_overlay": {"replace": True}}
    out = overlay_doc(BASE, over, "x.toml")
    assert [b["high"] for b in out["band"]] == [7, 9]
    assert out["odds"] == {"min_column": 2, "ref": "CH"}
    assert [r["id"] for r in out["terrain"]] == ["brush"]


@pytest.mark.parametrize("over, msg", [
    ({"terrain_overlay": {"remove": ["forest"]}}, "no base row forest"),
    ({"terrain_overlay": {"drop": ["wood"]}}, "only `remove`"),
    ({"weather_overlay": {"remove": ["rain"]}}, "no row table"),
    ({"terrain": [{"foot": 2, "ref": "CH"}]}, "without its key"),
])
def test_a_bad_overlay_names_the_file_and_the_reason(over, msg):
    with pytest.raises(RulesDataError, match=msg) as exc:
        overlay_doc(BASE, over, "cry_havoc/data/terrain.toml")
    assert "cry_havoc/data/terrain.toml" in str(exc.value)


def test_editions_are_found_by_their_edition_toml_and_named_by_alias():
    assert "cry-havoc" in editions()
    assert ruleset_id("Cry Havoc") == ruleset_id("ch") == "cry-havoc"
    rs = load_ruleset("cry-havoc")
    assert rs.id == "cry-havoc" and rs.base == "magna-carta" and rs.ref_prefix == "CH"
    assert rs.packages[0].endswith("cry_havoc")


def _record(rid: str) -> dict:
    rs = registry.get(rid)
    game = Game(rs, rs.load_scenario("the-hill"), "overlay-test")
    return game.record(reveal=True)


def test_the_game_and_its_record_carry_the_edition():
    rec = _record("cry-havoc")
    assert rec["ruleset"] == "cry-havoc" and rec["scenario"]["ruleset"] == "cry-havoc"
    game, _ = replay(rec)
    assert game.state.ruleset_id == "cry-havoc"


@pytest.mark.parametrize("played, replayed", [("magna-carta", "cry-havoc"), ("cry-havoc", "magna-carta")])
def test_a_record_replayed_as_another_edition_is_refused(played, replayed):
    rec = copy.deepcopy(_record(played))
    rec["ruleset"] = replayed
    with pytest.raises(OriflammeError, match=f"this is a game of '{played}'; it cannot be played or replayed as '{replayed}'"):
        replay(rec)


def test_a_scenario_without_the_edition_is_refused():
    with pytest.raises(OriflammeError, match="this scenario is for the ruleset 'magna-carta': it cannot be played under 'cry-havoc'"):
        registry.get("cry-havoc").load_scenario("the-ford")
    assert "the-ford" not in registry.get("cry-havoc").scenario_ids()
    assert "the-hill" in registry.get("cry-havoc").scenario_ids()
