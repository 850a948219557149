"""Maps: the .board format, the bundled boards, geomorphic composition (MC §3.1, §8.1)."""

from __future__ import annotations

import re
import textwrap

import pytest

from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.magna_carta.maps import (
    Board,
    GameMap,
    MapError,
    Placement,
    build_map,
    bundled_board_ids,
    compose,
    load_board,
    load_bundled_board,
    parse_board,
)
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

RULES = load_ruleset("magna-carta")
H = Hex.from_label


def board_text(body: str) -> str:
    return textwrap.dedent(body).lstrip("\n")


# A 4x3 board: line numbers matter in the error tests below.
SMALL = board_text(
    """
    # a small test board
    board: small
    name: Small
    name_fr: Petit
    legend:
      . clear
      b Broussailles
      T arbre
    terrain:
      . b . T
      . . . .
      T . b .
    elevation:
      0 0 1 1
      . . 1 2
      0 0 0 0
    hexsides:
      0101 0102 fence
      0201 S Muret
      0403 0303 wall
    """
)


def small() -> Board:
    return parse_board(SMALL, "small.board")


# --- the format --------------------------------------------------------------------------------
def test_small_board_parses():
    b = small()
    assert (b.id, b.name, b.name_fr, b.width, b.height) == ("small", "Small", "Petit", 4, 3)
    assert b.terrain[H("0201")] == "brush"  # French name resolved through the ruleset
    assert b.terrain[H("0103")] == "tree"
    assert b.elevation[H("0302")] == 1 and b.elevation[H("0402")] == 2 and b.elevation[H("0102")] == 0
    assert b.hexsides[frozenset((H("0101"), H("0102")))] == "fence"
    assert b.hexsides[frozenset((H("0201"), H("0202")))] == "low_wall"  # direction form, French name
    assert b.hexsides[frozenset((H("0403"), H("0303")))] == "wall"


def test_elevation_defaults_to_zero_and_hexsides_are_optional():
    b = parse_board("board: flat\nlegend:\n  . clear\nterrain:\n  . .\n  . .\n", "flat.board")
    assert set(b.elevation.values()) == {0}
    assert b.hexsides == {}
    assert b.name == "flat"


def test_load_board_from_path(tmp_path):
    p = tmp_path / "small.board"
    p.write_text(SMALL, encoding="utf-8")
    assert load_board(p).terrain == small().terrain
    assert load_board(str(p)).id == "small"
    with pytest.raises(MapError, match="cannot read board file"):
        load_board(tmp_path / "missing.board")


# --- bundled boards ------------------------------------------------------------------------------
def test_bundled_board_ids():
    assert {"open-country", "hamlet"} <= set(bundled_board_ids())


@pytest.mark.parametrize("board_id", ["open-country", "hamlet"])
def test_bundled_boards_load_and_resolve(board_id):
    b = load_bundled_board(board_id)
    assert b.id == board_id
    assert (b.width, b.height) == (20, 14)
    assert len(b.terrain) == 20 * 14
    assert set(b.terrain.values()) <= set(RULES.terrain)
    assert set(b.hexsides.values()) <= set(RULES.hexsides)
    for side in b.hexsides:
        a, c = tuple(side)
        assert a.distance(c) == 1 and a in b and c in b
    # playable: mostly clear ground
    clear = sum(1 for t in b.terrain.values() if t == "clear")
    assert clear > len(b.terrain) * 0.6


def test_open_country_features():
    m = compose([Placement(load_bundled_board("open-country"), 0, 0)])
    assert m.elevation(H("1505")) == 1  # hill top
    assert m.terrain(H("1403")) == "slope" and m.elevation(H("1403")) == 0
    # every hex of level 1 is ringed by slope or more level-1 ground
    for h in m.hexes:
        if m.elevation(h) == 1:
            for n in m.neighbours(h):
                assert m.elevation(n) == 1 or m.terrain(n) == "slope"
    assert m.terrain(H("0701")) == "shallows" and m.terrain(H("0714")) == "shallows"
    assert m.terrain(H("0907")) == "water" and m.terrain(H("1007")) == "marsh"
    assert m.terrain(H("1802")) == "rock"
    used = {m.terrain(h) for h in m.hexes}
    assert {"clear", "brush", "tree", "slope", "marsh", "rock", "shallows", "water"} <= used


def test_hamlet_features():
    m = compose([Placement(load_bundled_board("hamlet"), 0, 0)])
    assert m.terrain(H("0404")) == "building"
    assert m.terrain(H("0302")) == "garden" and m.terrain(H("1512")) == "vines"
    assert m.hexside(H("0302"), H("0301")) == "low_wall"
    assert m.hexside(H("1603"), H("1602")) == "fence"
    assert all(m.terrain(Hex.from_offset(c, 6)) == "clear" for c in range(20))  # the lane, row 07
    assert {"low_wall", "fence"} <= set(m.hexside_features().values())


def test_hexside_lookup_is_symmetric():
    m = build_map({"boards": [{"board": "hamlet"}]})
    assert m.hexside_features()
    for side, feature in m.hexside_features().items():
        a, b = tuple(side)
        assert m.hexside(a, b) == m.hexside(b, a) == feature
    assert m.hexside(H("0101"), H("0102")) is None
    assert m.hexside(H("0101"), H("0909")) is None  # not adjacent


# --- GameMap --------------------------------------------------------------------------------------
def test_game_map_basics():
    m = compose([Placement(small(), 0, 0)])
    assert isinstance(m, GameMap)
    assert (m.id, m.name, m.width, m.height) == ("small", "Small", 4, 3)
    assert len(m.hexes) == 12 and list(m.hexes) == sorted(m.hexes)
    assert H("0403") in m and H("0503") not in m and H("0104") not in m
    assert m.terrain(H("0201")) == "brush" and m.elevation(H("0402")) == 2
    with pytest.raises(KeyError, match="0503"):
        m.terrain(H("0503"))
    # a 4x3 board: every hex but the inner ones (0202, 0302) is on the edge
    assert set(m.edge_hexes) == set(m.hexes) - {H("0202"), H("0302")}
    assert m.is_edge(H("0101")) and not m.is_edge(H("0202"))
    with pytest.raises(AttributeError):
        m.width = 5


# --- composition ----------------------------------------------------------------------------------
def test_two_boards_side_by_side():
    oc, ham = load_bundled_board("open-country"), load_bundled_board("hamlet")
    m = build_map({"boards": [{"board": "open-country", "col": 0, "row": 0},
                              {"board": "hamlet", "col": 20, "row": 0, "rotation": 0}]})
    assert (m.width, m.height) == (40, 14)
    assert len(m.hexes) == len(oc.terrain) + len(ham.terrain)
    assert m.id == "open-country+hamlet"
    # hamlet's 0404 (a house) is map hex 2404; its walls moved with it
    assert m.terrain(H("2404")) == "building"
    assert m.hexside(H("2302"), H("2301")) == "low_wall"
    assert m.terrain(H("1505")) == "clear" and m.elevation(H("1505")) == 1
    # the seam is not an edge; the map's perimeter is
    assert not m.is_edge(H("2007")) and not m.is_edge(H("2107"))
    assert len(m.edge_hexes) == 2 * 40 + 2 * 14 - 4
    assert m.is_edge(H("4014")) and m.is_edge(H("2101"))
    assert m.board_of(H("2404")) == (2, H("0404"))


def test_rotation_180_moves_corner_and_its_hexside():
    text = board_text(
        """
        board: corner
        legend:
          . clear
          r rock
        terrain:
          r . . .
          . . . .
          . . . .
        hexsides:
          0101 0201 fence
        """
    )
    b = parse_board(text, "corner.board")
    m = compose([Placement(b, 0, 0, 180)])
    assert m.terrain(H("0403")) == "rock" and m.terrain(H("0101")) == "clear"
    assert m.hexside(H("0403"), H("0303")) == "fence"
    assert m.hexside(H("0101"), H("0201")) is None
    assert m.id == "corner@180"
    # side by side, the second one turned around
    m2 = compose([Placement(b, 0, 0), Placement(b, 4, 0, 180)])
    assert m2.terrain(H("0101")) == "rock" and m2.terrain(H("0803")) == "rock"
    assert m2.hexside(H("0803"), H("0703")) == "fence"


def test_rotation_180_is_a_point_reflection():
    """Turning a board keeps adjacency: in axial coordinates it is h -> c - h."""
    b = load_bundled_board("hamlet")
    t = b.rotated(180)
    assert t.terrain[H("2014")] == b.terrain[H("0101")]
    assert t.terrain[H("1711")] == b.terrain[H("0404")] == "building"
    centre = H("0101") + H("2014")
    for h, terr in b.terrain.items():
        assert t.terrain[centre - h] == terr
    for side, f in b.hexsides.items():
        assert t.hexsides[frozenset(centre - h for h in side)] == f
    assert t.rotated(180).terrain == b.terrain


def test_composition_errors():
    b = small()
    with pytest.raises(MapError, match=r"placement 2 \(small at col 5, row 0, rotation 0\).*even"):
        compose([Placement(b, 0, 0), Placement(b, 5, 0)])
    with pytest.raises(MapError, match=r"placement 2 .*overlaps placement 1 .* at map hex 0301"):
        compose([Placement(b, 0, 0), Placement(b, 2, 0)])
    with pytest.raises(MapError, match="rotation must be 0 or 180"):
        compose([Placement(b, 0, 0, 90)])
    odd = parse_board("board: odd\nlegend:\n  . clear\nterrain:\n  . . .\n", "odd.board")
    with pytest.raises(MapError, match=r"placement 1 .*odd width"):
        compose([Placement(odd, 0, 0, 180)])
    with pytest.raises(MapError, match=r"placement 2: unknown board 'forest'"):
        build_map({"boards": [{"board": "hamlet"}, {"board": "forest", "col": 20}]})
    with pytest.raises(MapError, match="placement 1: unknown key"):
        build_map({"boards": [{"board": "hamlet", "column": 2}]})
    with pytest.raises(MapError, match="at least one board|non-empty"):
        build_map({"boards": []})


def test_build_map_with_path(tmp_path):
    (tmp_path / "small.board").write_text(SMALL, encoding="utf-8")
    m = build_map({"boards": [{"path": "small.board"}, {"board": "hamlet", "col": 4}], "name": "Test"},
                  base_dir=tmp_path)
    assert m.name == "Test" and m.width == 24 and m.terrain(H("0201")) == "brush"
    assert m.terrain(H("0804")) == "building"  # hamlet 0404


# --- bad files: one line, file:line:column: reason ------------------------------------------------
def bad(text: str) -> str:
    return board_text(text)


BAD_CASES = [
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
              b brush
              T tree
            terrain:
              . b T
              . X T
            """),
        r"^forest\.board:8:5: unknown terrain symbol 'X' \(legend has \. b T\)$",
        id="unknown-symbol",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . .
            """),
        r"^forest\.board:6:6: ragged terrain row: 2 hexes, expected 3",
        id="short-row",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . . .
            """),
        r"^forest\.board:6:9: ragged terrain row: 4 hexes, expected 3",
        id="long-row",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            """),
        r"^forest\.board:\d+:1: missing section 'terrain:'$",
        id="missing-terrain",
    ),
    pytest.param(
        bad("""
            board: forest
            terrain:
              . .
            """),
        r"^forest\.board:\d+:1: missing section 'legend:'$",
        id="missing-legend",
    ),
    pytest.param(
        bad("""
            name: Forest
            legend:
              . clear
            terrain:
              . .
            """),
        r"^forest\.board:1:1: missing 'board:' line",
        id="missing-board-id",
    ),
    pytest.param(
        bad("""
            board: forest
            board: wood
            legend:
              . clear
            terrain:
              . .
            """),
        r"^forest\.board:2:1: duplicate board id \(already given at line 1\)$",
        id="duplicate-board-id",
    ),
    pytest.param(
        bad("""
            board: Forest!
            legend:
              . clear
            terrain:
              . .
            """),
        r"^forest\.board:1:8: bad board id 'Forest!'",
        id="bad-board-id",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
              . brush
            terrain:
              . .
            """),
        r"^forest\.board:4:3: duplicate legend symbol '\.'",
        id="duplicate-symbol",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
              j jungle
            terrain:
              . .
            """),
        r"^forest\.board:4:5: unknown terrain 'jungle' \(known: .*brush.*\)$",
        id="unknown-terrain-name",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . .
              . .
            elevation:
              0 0
              0 x
            """),
        r"^forest\.board:9:5: bad elevation value 'x'",
        id="bad-elevation",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . .
              . .
            elevation:
              0 0
            """),
        r"^forest\.board:8:6: elevation has 1 rows, terrain has 2$",
        id="elevation-missing-row",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . .
            elevation:
              0 0 0
            """),
        r"^forest\.board:7:7: ragged elevation row: 3 hexes, expected 2",
        id="elevation-ragged",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 01x2 fence
            """),
        r"^forest\.board:8:8: bad hex label or direction '01x2'",
        id="bad-label-second",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              A1 0102 fence
            """),
        r"^forest\.board:8:3: bad hex label 'A1' \(expected CCRR",
        id="bad-label",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 0103 fence
            """),
        r"^forest\.board:8:8: hexside outside the board: 0103 is not on this 3x2 board",
        id="hexside-outside",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 N fence
            """),
        r"^forest\.board:8:8: hexside outside the board: N of 0101",
        id="hexside-outside-direction",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 0301 fence
            """),
        r"^forest\.board:8:8: 0101 and 0301 are not adjacent",
        id="not-adjacent",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 0102 moat
            """),
        r"^forest\.board:8:13: unknown hexside feature 'moat' \(known: cart_front, fence, low_wall, moving_cart_side, wall\)$",
        id="unknown-feature",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
              . . .
            hexsides:
              0101 0102 fence
              0102 0101 low wall
            """),
        r"^forest\.board:9:3: hexside 0102-0101 already has fence \(line 8\)$",
        id="duplicate-hexside",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . . .
            hexsides:
              0101 0201
            """),
        r"^forest\.board:7:3: hexside line needs two hexes and a feature",
        id="short-hexside-line",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . .
            hexsides:
            """ ) + "colour: green\n",
        r"^forest\.board:7:1: unknown key 'colour:'",
        id="unknown-key",
    ),
    pytest.param(
        bad("""
            board: forest
              . clear
            """),
        r"^forest\.board:2:3: text outside a section",
        id="text-outside-section",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain:
              . .
            terrain:
              . .
            """),
        r"^forest\.board:6:1: duplicate section 'terrain:' \(already at line 4\)$",
        id="duplicate-section",
    ),
    pytest.param(
        bad("""
            board: forest
            legend:
              . clear
            terrain: . .
            """),
        r"^forest\.board:4:10: nothing may follow 'terrain:'",
        id="text-after-section",
    ),
]


@pytest.mark.parametrize("text, message", BAD_CASES)
def test_bad_board_files(text, message):
    with pytest.raises(MapError, match=message) as info:
        parse_board(text, "forest.board")
    msg = str(info.value)
    assert "\n" not in msg
    assert re.match(r"^forest\.board:\d+:\d+: ", msg)
    assert info.value.source == "forest.board" and info.value.line >= 1 and info.value.column >= 1


def test_bad_file_path_named_in_message(tmp_path):
    p = tmp_path / "broken.board"
    p.write_text("board: broken\nlegend:\n  . clear\nterrain:\n  . ?\n", encoding="utf-8")
    with pytest.raises(MapError, match=r"broken\.board:5:5: unknown terrain symbol '\?'"):
        load_board(p)
    with pytest.raises(MapError, match=r"broken\.board:5:5: unknown terrain symbol"):
        build_map({"boards": [{"path": "broken.board"}]}, base_dir=tmp_path, source="scenario.toml")


def test_comments_and_french_names():
    text = board_text(
        """
        board: commented   # a comment after a value
        name_fr: Bois      # name falls back to the id
        legend:
          .  Terrain plat
          ~  hauts-fonds
          w  Bas Fonds
        terrain:           # rows follow
          .  ~  w          # row 1
          .  .  .
        hexsides:
          0101 SE barriere
        """
    )
    b = parse_board(text, "c.board")
    assert b.name == "commented" and b.name_fr == "Bois"
    assert [b.terrain[H(x)] for x in ("0101", "0201", "0301")] == ["clear", "shallows", "deep_shallows"]
    # 0101 is in an even column (0-based 0), which sits higher: its SE neighbour is 0201
    assert b.hexsides[frozenset((H("0101"), H("0201")))] == "fence"
