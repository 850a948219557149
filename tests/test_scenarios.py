"""Scenario files (docs/formats.md, "Scenarios"): the bundled ones load, a file given by path
loads, and every kind of bad input is rejected with a one-line ``ScenarioError`` naming the
file, the field and the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oriflamme.rulesets.magna_carta.engine.actions import EndStep
from oriflamme.rulesets.magna_carta.engine.errors import ScenarioError
from oriflamme.rulesets.magna_carta.engine.record import Game
from oriflamme.rulesets.magna_carta.scenario import (
    BoardPlacement,
    CharacterSpec,
    MapSpec,
    ScenarioSpec,
    SideSpec,
    VictorySpec,
    bundled_scenario_ids,
    load_scenario,
    parse_scenario,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "formats.md"
BOARDS = Path(__file__).resolve().parents[1] / "src" / "oriflamme" / "rulesets" / "magna_carta" / "boards"

# Two characters per side on the open-country board, nothing optional.
MINI = """\
id = "mini"
name = "Mini"
turns = 3

[map]
boards = [{ board = "open-country", col = 0, row = 0 }]

[[side]]
id = "A"
name = "Reds"

[[side]]
id = "B"
name = "Blues"

[[character]]
id = "a1"
name = "Alan"
type = "man_at_arms"
side = "A"
hex = "0305"

[[character]]
id = "a2"
name = "Arnold"
type = "archer"
side = "A"
hex = "0306"

[[character]]
id = "b1"
name = "Bert"
type = "spearman"
side = "B"
hex = "1005"

[[character]]
id = "b2"
name = "Basil"
type = "peasant"
side = "B"
hex = "1006"
"""


def rejected(text: str, source: str = "mini.toml") -> str:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source)
    msg = str(info.value)
    assert "\n" not in msg, f"not one line: {msg!r}"
    assert msg.startswith(f"{source}: "), msg
    return msg


def sub(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text, old
    return text.replace(old, new, count)


# --- what loads ------------------------------------------------------------------------------

def test_bundled_ids():
    assert bundled_scenario_ids() == ["hamlet-raid", "the-caravan", "the-ford", "the-hay-cart", "the-hill"]


@pytest.mark.parametrize("sid", ["hamlet-raid", "the-hill"])
def test_bundled_scenarios_load_and_start(sid):
    sc, gmap = load_scenario(sid)
    assert sc["id"] == sid
    assert sc["source"] == f"{sid}.toml"
    assert (gmap.width, gmap.height) == (20, 14)
    assert {s["id"] for s in sc["side"]} == {"A", "B"}
    assert len(sc["character"]) >= 10
    v = sc["victory"]
    assert v["objective_side"] == "A" and v["otherwise"] == "B" and v["objectives"]
    game = Game(sc, gmap, seed=1)
    assert game.state.turn == 1 and game.state.last_turn == sc["turns"] and not game.state.over


def test_minimal_file_by_path(tmp_path):
    f = tmp_path / "mini.toml"
    f.write_text(MINI, encoding="utf-8")
    sc, gmap = load_scenario(str(f))
    assert sc["id"] == "mini" and sc["turns"] == 3 and sc["source"] == "mini.toml"
    assert gmap.id == "open-country" and (gmap.width, gmap.height) == (20, 14)
    # defaults are filled in
    assert sc["weather"] == "clear" and sc["ruleset"] == "magna-carta" and sc["first"] is None
    assert sc["victory"] == {"rout_fraction": 1.0, "objectives": [], "objective_side": None,
                             "objective_count": 1, "otherwise": "draw", "text": "", "text_fr": ""}
    assert [c["status"] for c in sc["character"]] == ["healthy"] * 4
    Game(sc, gmap, seed=0)


def test_path_without_toml_suffix_is_read_as_a_file(tmp_path):
    f = tmp_path / "mini.scenario"
    f.write_text(MINI, encoding="utf-8")
    sc, _ = load_scenario(str(f))
    assert sc["id"] == "mini"


def test_board_file_path_relative_to_the_scenario(tmp_path):
    (tmp_path / "field.board").write_text((BOARDS / "open-country.board").read_text(encoding="utf-8")
                                          .replace("board: open-country", "board: field"), encoding="utf-8")
    f = tmp_path / "mini.toml"
    f.write_text(sub(MINI, 'board = "open-country"', 'path = "field.board"'), encoding="utf-8")
    _, gmap = load_scenario(str(f))
    assert gmap.id == "field"


def test_two_boards_side_by_side():
    text = sub(MINI, 'boards = [{ board = "open-country", col = 0, row = 0 }]',
               'boards = [{ board = "open-country" }, { board = "hamlet", col = 20, rotation = 180 }]\nname = "Road"')
    _, gmap = parse_scenario(text, "mini.toml")
    assert (gmap.width, gmap.height) == (40, 14)
    assert gmap.id == "open-country+hamlet@180" and gmap.name == "Road"


def test_first_side_and_overrides():
    text = sub(MINI, "turns = 3", 'turns = 3\nfirst = "B"\nweather = "Pluie"')
    text = sub(text, 'hex = "0305"', 'hex = "0305"\nstatus = "wounded"\nattack = 3\ndefence = 2\narmour = false\nweapon = "sling"')
    sc, gmap = parse_scenario(text, "mini.toml")
    st = Game(sc, gmap, seed=0).state
    assert st.sides == ["B", "A"] and st.active == "B"
    assert st.weather == "rain"
    a1 = st.characters["a1"]
    assert (a1.status, a1.attack, a1.defence, a1.armour, a1.weapon) == ("wounded", 3, 2, False, "sling")


def test_unarmoured_character_may_start_in_water_armoured_may_not():
    # 0907 is the pond of open-country: 5 PM on foot, impassable in armour (MC §4.2.1).
    parse_scenario(sub(MINI, '"1005"', '"0907"'), "mini.toml")
    msg = rejected(sub(MINI, '"0305"', '"0907"'))
    assert msg.startswith("mini.toml: character[0].hex: 0907 is Eau, where Alan cannot stand")


# --- what is rejected ------------------------------------------------------------------------

def test_invalid_toml_names_line_and_column():
    msg = rejected(sub(MINI, "turns = 3", "turns = = 3"))
    assert "invalid TOML" in msg and "line 3, column 9" in msg


def test_missing_turns():
    assert rejected(sub(MINI, "turns = 3\n", "")) == "mini.toml: turns: Field required"


@pytest.mark.parametrize("old,new,field", [
    ("turns = 3", 'turns = 3\nweathr = "rain"', "weathr"),
    ('hex = "0305"', 'hex = "0305"\nstatuss = "wounded"', "character[0].statuss"),
    ('name = "Reds"', 'name = "Reds"\ncolour = "red"', "side[0].colour"),
    ("col = 0, row = 0", "col = 0, rows = 0", "map.boards[0].rows"),
])
def test_unknown_field_is_a_typo_not_ignored(old, new, field):
    assert rejected(sub(MINI, old, new)) == f"mini.toml: {field}: unknown field"


def test_unknown_character_type():
    msg = rejected(sub(MINI, "man_at_arms", "wizard"))
    assert msg.startswith("mini.toml: character[0].type: unknown character type 'wizard' (known: archer,")


@pytest.mark.parametrize("mounted", ["knight", "light_cavalry", "horse_archer"])
def test_mounted_types_take_a_facing(mounted):
    text = sub(sub(MINI, 'type = "man_at_arms"', f'type = "{mounted}"\nfacing = "S"'), '"0305"', '"0102"')
    data, _ = parse_scenario(text, "mini.toml")  # 0102 and the hex behind it, 0101, are clear
    assert data["character"][0]["facing"] == "S"


def test_facing_only_for_riders():
    assert rejected(sub(MINI, 'type = "man_at_arms"', 'type = "man_at_arms"\nfacing = "S"')) == \
        "mini.toml: character[0].facing: 'man_at_arms' is on foot: only riders have a facing (MC §1.2, §4.4.1)"


def test_unknown_side():
    assert rejected(sub(MINI, 'side = "B"', 'side = "C"')) == \
        "mini.toml: character[2].side: unknown side 'C' (sides: A, B)"


def test_duplicate_character_id():
    assert rejected(sub(MINI, 'id = "b1"', 'id = "a1"')) == \
        "mini.toml: character[2].id: duplicate character id 'a1'"


def test_two_characters_in_one_hex():
    msg = rejected(sub(MINI, '"1005"', '"0305"'))
    assert msg.startswith("mini.toml: character[2].hex: 0305 already holds a1")


def test_same_hex_written_two_ways():
    msg = rejected(sub(MINI, '"1005"', '"3,5"'))
    assert msg.startswith("mini.toml: character[2].hex: 3,5 already holds a1")


@pytest.mark.parametrize("label", ["2115", "2015", "0000", "9999"])
def test_hex_off_the_map(label):
    assert rejected(sub(MINI, '"1005"', f'"{label}"')) == \
        f"mini.toml: character[2].hex: '{label}' is off the map (20×14)"


@pytest.mark.parametrize("label", ["10x5", "105", "", "ab"])
def test_malformed_hex_label(label):
    msg = rejected(sub(MINI, '"1005"', f'"{label}"'))
    assert msg.startswith("mini.toml: character[2].hex: not a hex label:"), msg


def test_hex_label_must_be_a_string():
    msg = rejected(sub(MINI, '"1005"', "1005"))
    assert msg.startswith("mini.toml: character[2].hex: "), msg


def test_character_on_impassable_building():
    # hamlet.board row 04 is ". . . H H …": 0404 is a hex of the west house (building).
    board = (BOARDS / "hamlet.board").read_text(encoding="utf-8")
    assert re.search(r"^\s+\. \. \. H H .*# row 04$", board, re.M)
    text = sub(MINI, "open-country", "hamlet")
    text = sub(text, '"1005"', '"0404"')
    assert rejected(text) == "mini.toml: character[2].hex: 0404 is Bâtiment, where Bert cannot stand"


def test_unknown_board():
    msg = rejected(sub(MINI, 'board = "open-country"', 'board = "forest"'))
    assert msg.startswith("mini.toml: map: ")
    assert "placement 1: unknown board 'forest' (bundled boards: hamlet, open-country)" in msg


def test_odd_board_column_offset():
    msg = rejected(sub(MINI, "col = 0, row = 0", "col = 1, row = 0"))
    assert msg.startswith("mini.toml: map: ")
    assert "the column offset must be even" in msg and "use 0 or 2" in msg


def test_missing_board_file():
    msg = rejected(sub(MINI, 'board = "open-country"', 'path = "nope.board"'))
    assert msg.startswith("mini.toml: map: ") and "nope.board" in msg and "cannot read" in msg


@pytest.mark.parametrize("old,new", [
    ('board = "open-country"', 'board = "forest"'),
    ("col = 0, row = 0", "col = 1, row = 0"),
])
def test_map_error_names_file_and_field_once(old, new):
    msg = rejected(sub(MINI, old, new))
    assert msg.count("mini.toml") == 1, msg


@pytest.mark.parametrize("victory,field,reason", [
    ('objectives = ["2115"]', "victory.objectives[0]", "'2115' is off the map"),
    ('objectives = ["1505", "zz"]', "victory.objectives[1]", "not a hex label: 'zz'"),
    ('objective_side = "C"', "victory.objective_side", "unknown side 'C'"),
    ('otherwise = "nobody"', "victory.otherwise", "must be a side id or 'draw', not 'nobody'"),
    ("rout_fraction = 0", "victory.rout_fraction", "greater than 0"),
    ("rout_fraction = 1.5", "victory.rout_fraction", "less than or equal to 1"),
    ("objective_count = 0", "victory.objective_count", "greater than or equal to 1"),
    ("winner = \"A\"", "victory.winner", "unknown field"),
])
def test_bad_victory_fields(victory, field, reason):
    msg = rejected(MINI + "\n[victory]\n" + victory + "\n")
    assert msg.startswith(f"mini.toml: {field}: "), msg
    assert reason in msg


def test_unknown_weather():
    assert rejected(sub(MINI, "turns = 3", 'turns = 3\nweather = "blizzard"')) == \
        "mini.toml: weather: unknown weather 'blizzard' (known: clear, fog, night, rain, snow, storm)"


@pytest.mark.parametrize("old,new,field,reason", [
    ("turns = 3", "turns = 0", "turns", "greater than or equal to 1"),
    ("turns = 3", "turns = 101", "turns", "less than or equal to 100"),
    ('id = "mini"', 'id = "Mini Scenario"', "id", "should match pattern"),
    ("turns = 3", 'turns = 3\nfirst = "Z"', "first", "unknown side 'Z'"),
    ('id = "B"', 'id = "A"', "side", "the two sides need different ids"),
    ('side = "B"', 'side = "A"', "character", "side 'B' has no character"),
    ('hex = "0305"', 'hex = "0305"\nweapon = "laser"', "character[0].weapon", "unknown weapon 'laser'"),
    ('hex = "0305"', 'hex = "0305"\nstatus = "dead"', "character[0].status", "'healthy', 'stunned' or 'wounded'"),
    ('hex = "0305"', 'hex = "0305"\ndefence = 0', "character[0].defence", "greater than or equal to 1"),
    ('id = "a1"', 'id = "a 1"', "character[0].id", "should match pattern"),
])
def test_other_bad_fields(old, new, field, reason):
    msg = rejected(sub(MINI, old, new, -1))
    assert msg.startswith(f"mini.toml: {field}: "), msg
    assert reason in msg


def test_three_sides():
    msg = rejected(sub(MINI, "[[character]]", '[[side]]\nid = "C"\nname = "Greens"\n\n[[character]]'))
    assert msg.startswith("mini.toml: side: ") and "at most 2" in msg


def test_unknown_ruleset_message_is_clean():
    msg = rejected(sub(MINI, "turns = 3", 'turns = 3\nruleset = "chess"'))
    assert msg.startswith("mini.toml: ruleset: unknown ruleset 'chess'"), msg


@pytest.mark.parametrize("old,new", [
    ("turns = 3", 'turns = "3"'),
    ("turns = 3", "turns = 3.0"),
    ('hex = "0305"', 'hex = "0305"\narmour = "yes"'),
    ('hex = "0305"', 'hex = "0305"\nattack = "12"'),
])
def test_wrong_toml_types_are_rejected(old, new):
    rejected(sub(MINI, old, new))


@pytest.mark.parametrize("old,new", [
    ("[map]", '[map]\nid = "my-map"'),
    ("[map]", '[map]\nname_fr = "Carte"'),
    ('boards = [{ board = "open-country", col = 0, row = 0 }]', 'boards = ["open-country"]'),
])
def test_map_spec_as_documented(old, new):
    parse_scenario(sub(MINI, old, new), "mini.toml")


def test_load_scenario_errors(tmp_path):
    with pytest.raises(ScenarioError, match=r"^unknown scenario 'nope' \(bundled: hamlet-raid, the-caravan, the-ford, the-hay-cart, the-hill"):
        load_scenario("nope")
    with pytest.raises(ScenarioError, match=r"nope\.toml: cannot read: "):
        load_scenario(str(tmp_path / "nope.toml"))
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'name = "\xe9"\n')
    with pytest.raises(ScenarioError, match=r"latin1\.toml: not UTF-8 text"):
        load_scenario(str(bad))
    f = tmp_path / "bad.toml"
    f.write_text(sub(MINI, "turns = 3\n", ""), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"^bad\.toml: turns: Field required$"):
        load_scenario(str(f))


# --- victory (engine/victory.py), as docs/formats.md describes it -------------------------------

def play_out(text: str) -> Game:
    """Every side ends every step at once until the game ends (no contact: no prompt)."""
    sc, gmap = parse_scenario(text, "mini.toml")
    game = Game(sc, gmap, seed=0)
    for _ in range(200):
        if game.state.over:
            return game
        game.apply(EndStep())
    raise AssertionError("the game did not end")


def test_turn_limit_draw_by_default():
    st = play_out(sub(MINI, "turns = 3", "turns = 1")).state
    assert st.over and st.winner is None
    assert st.result_text == "Draw: the turn limit (1) is reached"
    assert st.log[-1]["type"] == "game_over"


def test_objective_held_at_the_end_of_the_last_turn():
    text = sub(MINI, "turns = 3", "turns = 2") + '\n[victory]\nobjectives = ["0305", "1505"]\nobjective_side = "A"\notherwise = "B"\n'
    st = play_out(text).state
    assert st.winner == "A" and st.turn == 2
    assert st.result_text == "Side A wins: it holds 0305 at the end of turn 2"


def test_objective_not_held_otherwise_wins():
    text = sub(MINI, "turns = 3", "turns = 1") + \
        '\n[victory]\nobjectives = ["0305", "1505"]\nobjective_side = "A"\nobjective_count = 2\notherwise = "B"\n'
    st = play_out(text).state
    assert st.winner == "B"
    assert st.result_text == "Side B wins: side A holds 1 of the 2 objective(s) needed at the end of turn 1"


def test_stunned_at_start_still_holds_after_getting_up():
    # the second side's stunned characters get up at the end of its phase, before the check
    text = sub(MINI, "turns = 3", "turns = 1")
    text = sub(text, 'hex = "1005"', 'hex = "1005"\nstatus = "stunned"')
    text += '\n[victory]\nobjectives = ["1005"]\nobjective_side = "B"\n'
    st = play_out(text).state
    assert st.winner == "B"


# --- docs/formats.md, "Scenarios" ---------------------------------------------------------------

def scenarios_section() -> str:
    doc = DOCS.read_text(encoding="utf-8")
    start = doc.index("\n## Scenarios\n")
    end = doc.index("\n## ", start + 1)
    return doc[start:end]


def test_doc_example_loads_and_plays():
    section = scenarios_section()
    blocks = re.findall(r"^```toml\n(.*?)^```$", section, re.S | re.M)
    assert blocks, "no ```toml example in the Scenarios section"
    sc, gmap = parse_scenario(blocks[0], "formats.md")
    assert sc["id"] == "ford-skirmish"
    assert sc["victory"]["objective_side"] == "A"
    game = Game(sc, gmap, seed=1)
    assert not game.state.over


def test_doc_names_every_field():
    section = scenarios_section()
    for model in (ScenarioSpec, MapSpec, BoardPlacement, SideSpec, CharacterSpec, VictorySpec):
        for name in model.model_fields:
            assert any(f in section for f in (f"`{name}`", f"`[{name}]`", f"`[[{name}]]`")), \
                f"docs/formats.md, Scenarios: field {model.__name__}.{name} is not described"


def test_doc_error_examples_match_the_code():
    """The error lines quoted in the doc are produced by the code (file name aside)."""
    section = scenarios_section()
    errors = section[section.index("### Errors"):]
    quoted = re.findall(r"^the-ford\.toml: (.*)$", errors, re.M)
    assert len(quoted) >= 10
    produced = {
        rejected(sub(MINI, "turns = 3", "turns = = 3")),
        rejected(sub(MINI, "turns = 3\n", "")),
        rejected(sub(MINI, "turns = 3", 'turns = 3\nweathr = "rain"')),
        rejected(sub(MINI, "turns = 3", 'turns = 3\nweather = "blizzard"')),
        rejected(sub(MINI, "man_at_arms", "wizard")),
        rejected(sub(MINI, 'type = "man_at_arms"', 'type = "man_at_arms"\nfacing = "S"')),
        rejected(sub(MINI, 'side = "A"', 'side = "C"')),
        rejected(sub(MINI, 'id = "a2"', 'id = "a1"')),
        rejected(sub(MINI, '"0306"', '"0305"')),
        rejected(sub(MINI, '"0306"', '"2115"')),
        rejected(sub(MINI, '"0306"', '"10x5"')),
        rejected(sub(sub(MINI, "open-country", "hamlet"), '"1005"', '"0404"')),
        rejected(MINI + '[victory]\nobjectives = ["2115"]\n'),
        rejected(MINI + '[victory]\nobjective_side = "C"\n'),
        rejected(MINI + '[victory]\notherwise = "nobody"\n'),
    }
    produced = {m.removeprefix("mini.toml: ") for m in produced}
    for line in quoted:
        if line.endswith("…)"):
            assert any(p.startswith(line[:-2]) for p in produced), line
        else:
            assert line in produced, line
