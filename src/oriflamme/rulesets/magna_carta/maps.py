"""Maps: boards read from ``.board`` text files, composed side by side into a :class:`GameMap`.

A *board* is one geomorphic sheet (Magna Carta §3.1 terrain per hex, an elevation level per hex,
§8.1 hexside features such as low walls, fences and walls between two hexes). A *map* is one or
more boards placed side by side, each possibly turned around (rotation 180). The format is
documented in ``docs/formats.md`` ("Boards and maps").

Terrain and hexside names in a board file are resolved through the ruleset
(:meth:`Ruleset.find_terrain`, :meth:`Ruleset.find_hexside`), so the ruleset data stays the
single source of what a terrain is; a map only stores terrain and feature *ids*.

Coordinates follow :mod:`oriflamme.geometry.hexgrid`: flat-topped hexes, odd-q offset layout (odd columns
sit half a hex lower), labels ``CCRR`` 1-based. A hex of a board is addressed by its
board-local label; once the board is placed, by its map label.

Every rejection of a bad board file is a :class:`MapError` whose message is one line,
``file:line:column: reason``.

>>> b = load_board('''board: tiny
... name: Tiny
... legend:
...   . clear
...   b brush
... terrain:
...   . b
...   . .
... hexsides:
...   0101 0102 fence
... ''', "tiny.board")
>>> m = compose([Placement(b, 0, 0)])
>>> m.terrain(Hex.from_label("0201")), m.hexside(Hex.from_label("0102"), Hex.from_label("0101"))
('brush', 'fence')
>>> (m.width, m.height, len(m.hexes))
(2, 2, 4)
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping, NamedTuple

from ...geometry.hexgrid import DIRECTION_NAMES, Hex
from .rulesdata import Ruleset, load_ruleset

__all__ = [
    "MapError",
    "Board",
    "Placement",
    "GameMap",
    "parse_board",
    "load_board",
    "load_bundled_board",
    "bundled_board_ids",
    "compose",
    "build_map",
    "BOARD_SUFFIX",
]

BOARD_SUFFIX = ".board"
_BOARDS_PACKAGE = "oriflamme.rulesets.magna_carta"
_BOARDS_FOLDER = "boards"

_HEADER_KEYS = ("board", "name", "name_fr", "description")
_SECTIONS = ("legend", "terrain", "elevation", "hexsides")
_KEY_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:(.*)$")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_INT_RE = re.compile(r"^[+-]?\d+$")
_LABEL_RE = re.compile(r"^\d{4}$")
_TOKEN_RE = re.compile(r"\S+")


class MapError(Exception):
    """A board file or a map composition is wrong. The message is one line.

    For a bad file it reads ``file:line:column: reason``; :attr:`source`, :attr:`line`,
    :attr:`column` and :attr:`reason` hold the parts (``line``/``column`` are 0 when unknown).
    """

    def __init__(self, message: str, *, source: str = "", line: int = 0, column: int = 0, reason: str = ""):
        super().__init__(message)
        self.source = source
        self.line = line
        self.column = column
        self.reason = reason or message


def _err(source: str, line: int, column: int, reason: str) -> MapError:
    return MapError(f"{source}:{line}:{column}: {reason}", source=source, line=line, column=column, reason=reason)


# ---------------------------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Board:
    """One geomorphic board, in board-local coordinates (``Hex.from_offset(col, row)``)."""

    id: str
    name: str
    name_fr: str
    width: int
    height: int
    terrain: Mapping[Hex, str]
    elevation: Mapping[Hex, int]
    hexsides: Mapping[frozenset[Hex], str]
    source: str = ""
    description: str = ""

    def hex_at(self, col: int, row: int) -> Hex:
        """The board-local hex of 0-based column/row."""
        return Hex.from_offset(col, row)

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def rotated(self, rotation: int) -> "Board":
        """The board turned around by ``rotation`` degrees (0 or 180).

        Turning a board around sends local column/row ``(c, r)`` to ``(W-1-c, H-1-r)``; it keeps
        the odd-q layout only when the width ``W`` is even (the turned board's column ``W-1-c``
        must sit lower exactly when column ``c`` sat higher), so a board of odd width cannot be
        turned. Hexsides turn with their two hexes.
        """
        if rotation == 0:
            return self
        if rotation != 180:
            raise MapError(f"board {self.id!r}: rotation must be 0 or 180, not {rotation!r}")
        if self.width % 2:
            raise MapError(
                f"board {self.id!r} has an odd width ({self.width} columns) and cannot be turned "
                f"180° in the odd-q layout (its odd columns would end up half a hex higher)"
            )
        w, h = self.width, self.height

        def turn(x: Hex) -> Hex:
            return Hex.from_offset(w - 1 - x.col, h - 1 - x.row)

        return Board(
            id=self.id,
            name=self.name,
            name_fr=self.name_fr,
            width=w,
            height=h,
            terrain=MappingProxyType({turn(x): t for x, t in self.terrain.items()}),
            elevation=MappingProxyType({turn(x): e for x, e in self.elevation.items()}),
            hexsides=MappingProxyType({frozenset(turn(x) for x in side): f for side, f in self.hexsides.items()}),
            source=self.source,
            description=self.description,
        )


class _Line(NamedTuple):
    number: int  # 1-based line number
    text: str  # the line with its comment removed (columns unchanged)


def _strip_comment(raw: str) -> str:
    i = raw.find("#")
    return raw if i < 0 else raw[:i]


def _tokens(line: _Line) -> list[tuple[str, int]]:
    """Tokens of a line with their 1-based columns."""
    return [(m.group(0), m.start() + 1) for m in _TOKEN_RE.finditer(line.text)]


def _resolve_ruleset(ruleset: Ruleset | str | None) -> Ruleset:
    if ruleset is None:
        return load_ruleset("magna-carta")
    if isinstance(ruleset, str):
        return load_ruleset(ruleset)
    return ruleset


def parse_board(text: str, source: str = "<board>", ruleset: Ruleset | str | None = None) -> Board:
    """Parse the text of a ``.board`` file. ``source`` names the file in error messages."""
    rules = _resolve_ruleset(ruleset)
    if text.startswith("\ufeff"):
        text = text[1:]
    raw_lines = text.splitlines()

    header: dict[str, tuple[str, int]] = {}  # key -> (value, line)
    sections: dict[str, tuple[int, list[_Line]]] = {}  # name -> (header line, content lines)
    current: list[_Line] | None = None

    for number, raw in enumerate(raw_lines, start=1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        m = _KEY_RE.match(line) if not line[0].isspace() else None
        if m:
            key, value = m.group(1), m.group(2).strip()
            if key in _HEADER_KEYS:
                if key in header:
                    what = "board id" if key == "board" else f"'{key}:' line"
                    raise _err(source, number, 1, f"duplicate {what} (already given at line {header[key][1]})")
                if not value:
                    raise _err(source, number, len(line.rstrip()) + 1, f"'{key}:' needs a value")
                header[key] = (value, number)
                current = None
                continue
            if key in _SECTIONS:
                if key in sections:
                    raise _err(source, number, 1, f"duplicate section '{key}:' (already at line {sections[key][0]})")
                if value:
                    raise _err(source, number, m.start(2) + 1 + (len(m.group(2)) - len(m.group(2).lstrip())),
                               f"nothing may follow '{key}:' on its line; put the section's lines below it")
                current = []
                sections[key] = (number, current)
                continue
            raise _err(source, number, 1,
                       f"unknown key '{key}:' (expected one of {', '.join(k + ':' for k in _HEADER_KEYS + _SECTIONS)})")
        if current is None:
            col = len(line) - len(line.lstrip()) + 1
            raise _err(source, number, col, "text outside a section (indent it under legend:, terrain:, elevation: or hexsides:)")
        current.append(_Line(number, line))

    last = max(len(raw_lines), 1)
    if "board" not in header:
        raise _err(source, 1, 1, "missing 'board:' line (the board id, e.g. 'board: open-country')")
    board_id, id_line = header["board"]
    if not _ID_RE.match(board_id):
        raise _err(source, id_line, raw_lines[id_line - 1].find(board_id) + 1,
                   f"bad board id {board_id!r} (lower-case letters, digits, '-' and '_')")
    for needed in ("legend", "terrain"):
        if needed not in sections:
            raise _err(source, last, 1, f"missing section '{needed}:'")

    # --- legend ---------------------------------------------------------------------------
    legend: dict[str, tuple[str, int]] = {}  # symbol -> (terrain id, line)
    for ln in sections["legend"][1]:
        toks = _tokens(ln)
        symbol, scol = toks[0]
        if len(toks) < 2:
            raise _err(source, ln.number, scol + len(symbol) + 1,
                       f"legend line needs a symbol and a terrain name (e.g. '. clear'), got only {symbol!r}")
        name = " ".join(t for t, _ in toks[1:])
        if symbol in legend:
            raise _err(source, ln.number, scol, f"duplicate legend symbol {symbol!r} (already at line {legend[symbol][1]})")
        try:
            terrain = rules.find_terrain(name)
        except KeyError:
            known = ", ".join(sorted(rules.terrain))
            raise _err(source, ln.number, toks[1][1], f"unknown terrain {name!r} (known: {known})") from None
        legend[symbol] = (terrain.id, ln.number)
    if not legend:
        raise _err(source, sections["legend"][0], 1, "section 'legend:' is empty")

    # --- terrain grid ---------------------------------------------------------------------
    rows = sections["terrain"][1]
    if not rows:
        raise _err(source, sections["terrain"][0], 1, "section 'terrain:' is empty (one line per row of hexes)")
    width = len(_tokens(rows[0]))
    height = len(rows)
    terrain: dict[Hex, str] = {}
    symbols = " ".join(legend)
    for r, ln in enumerate(rows):
        toks = _tokens(ln)
        _check_row_length(source, ln, toks, width, rows[0].number, "terrain")
        for c, (tok, col) in enumerate(toks):
            if tok not in legend:
                raise _err(source, ln.number, col, f"unknown terrain symbol {tok!r} (legend has {symbols})")
            terrain[Hex.from_offset(c, r)] = legend[tok][0]

    # --- elevation grid -------------------------------------------------------------------
    elevation: dict[Hex, int] = {h: 0 for h in terrain}
    if "elevation" in sections:
        e_line, e_rows = sections["elevation"]
        if not e_rows:
            raise _err(source, e_line, 1, "section 'elevation:' is empty (omit it for a flat board)")
        for r, ln in enumerate(e_rows):
            toks = _tokens(ln)
            if r >= height:
                raise _err(source, ln.number, toks[0][1],
                           f"elevation has more rows than terrain ({height} rows)")
            _check_row_length(source, ln, toks, width, rows[0].number, "elevation")
            for c, (tok, col) in enumerate(toks):
                if tok == ".":
                    level = 0
                elif _INT_RE.match(tok):
                    level = int(tok)
                else:
                    raise _err(source, ln.number, col,
                               f"bad elevation value {tok!r} (an integer level such as 0, 1, 2, or '.' for 0)")
                elevation[Hex.from_offset(c, r)] = level
        if len(e_rows) < height:
            ln = e_rows[-1]
            raise _err(source, ln.number, len(ln.text.rstrip()) + 1,
                       f"elevation has {len(e_rows)} rows, terrain has {height}")

    # --- hexsides -------------------------------------------------------------------------
    hexsides: dict[frozenset[Hex], tuple[str, int]] = {}
    for ln in sections.get("hexsides", (0, []))[1]:
        toks = _tokens(ln)
        if len(toks) < 3:
            raise _err(source, ln.number, toks[0][1],
                       "hexside line needs two hexes and a feature, e.g. '0305 0306 fence' or '0305 S,SE low_wall'")
        (t0, c0), (t1, c1) = toks[0], toks[1]
        fname = " ".join(t for t, _ in toks[2:])
        a = _board_hex(source, ln.number, c0, t0, width, height)
        if _LABEL_RE.match(t1):
            others = [(_board_hex(source, ln.number, c1, t1, width, height), c1)]
            if a.distance(others[0][0]) != 1:
                raise _err(source, ln.number, c1,
                           f"{t0} and {t1} are not adjacent (a hexside lies between two neighbouring hexes)")
        else:
            others = []
            for name in t1.split(","):
                d = _direction(name)
                if d is None:
                    raise _err(source, ln.number, c1,
                               f"bad hex label or direction {name!r} (expected CCRR such as 0305, "
                               f"or directions among {','.join(DIRECTION_NAMES)})")
                b = a.neighbour(d)
                if not (0 <= b.col < width and 0 <= b.row < height):
                    raise _err(source, ln.number, c1,
                               f"hexside outside the board: {name.upper()} of {t0} is off this "
                               f"{width}x{height} board")
                others.append((b, c1))
        try:
            feature = rules.find_hexside(fname).id
        except KeyError:
            known = ", ".join(sorted(rules.hexsides))
            raise _err(source, ln.number, toks[2][1], f"unknown hexside feature {fname!r} (known: {known})") from None
        for b, _col in others:
            side = frozenset((a, b))
            if side in hexsides:
                prev, prev_line = hexsides[side]
                raise _err(source, ln.number, c0,
                           f"hexside {a.label}-{b.label} already has {prev} (line {prev_line})")
            hexsides[side] = (feature, ln.number)

    return Board(
        id=board_id,
        name=header.get("name", (board_id, 0))[0],
        name_fr=header.get("name_fr", header.get("name", (board_id, 0)))[0],
        width=width,
        height=height,
        terrain=MappingProxyType(terrain),
        elevation=MappingProxyType(elevation),
        hexsides=MappingProxyType({s: f for s, (f, _) in hexsides.items()}),
        source=source,
        description=header.get("description", ("", 0))[0],
    )


def _check_row_length(source: str, ln: _Line, toks, width: int, first_line: int, what: str) -> None:
    if len(toks) == width:
        return
    if len(toks) > width:
        col = toks[width][1]
    else:
        col = len(ln.text.rstrip()) + 1
    raise _err(source, ln.number, col,
               f"ragged {what} row: {len(toks)} hexes, expected {width} (as in the first row, line {first_line})")


def _direction(name: str) -> int | None:
    try:
        return DIRECTION_NAMES.index(name.strip().upper())
    except ValueError:
        return None


def _board_hex(source: str, line: int, col: int, token: str, width: int, height: int) -> Hex:
    if not _LABEL_RE.match(token):
        raise _err(source, line, col, f"bad hex label {token!r} (expected CCRR such as 0305, 1-based column then row)")
    h = Hex.from_label(token)
    if not (0 <= h.col < width and 0 <= h.row < height):
        raise _err(source, line, col,
                   f"hexside outside the board: {token} is not on this {width}x{height} board "
                   f"(0101 to {width:02d}{height:02d})")
    return h


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------
def load_board(path_or_text: str | os.PathLike, source_name: str | None = None,
               ruleset: Ruleset | str | None = None) -> Board:
    """Load a board from a file path or from the text of a board.

    A :class:`os.PathLike`, or a ``str`` of a single line, is a path; a ``str`` spanning
    several lines is the board text itself. ``source_name`` names the file in error messages
    (default: the path as given, or ``"<board>"`` for text).
    """
    if isinstance(path_or_text, os.PathLike) or (isinstance(path_or_text, str) and "\n" not in path_or_text):
        path = Path(path_or_text)
        name = source_name or str(path_or_text)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise MapError(f"{name}: cannot read board file ({exc.strerror or exc})", source=name) from None
        except UnicodeDecodeError as exc:
            raise MapError(f"{name}: not a UTF-8 text file ({exc.reason} at byte {exc.start})", source=name) from None
        return parse_board(text, name, ruleset)
    return parse_board(path_or_text, source_name or "<board>", ruleset)


def _boards_dir(package: str = _BOARDS_PACKAGE):
    return resources.files(package).joinpath(_BOARDS_FOLDER)


def _board_files(ruleset_id: str = "magna-carta") -> dict:
    """The bundled board files a ruleset may use, by id: an edition's own (its package's
    ``boards/``) and its base's."""
    from .rulesdata import packages_of
    found: dict = {}
    for pkg in packages_of(ruleset_id):
        folder = _boards_dir(pkg)
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            if entry.name.endswith(BOARD_SUFFIX) and entry.is_file():
                found.setdefault(entry.name[: -len(BOARD_SUFFIX)], entry)
    return found


def bundled_board_ids(ruleset_id: str = "magna-carta") -> list[str]:
    """Ids of the boards shipped with Oriflamme (``oriflamme/rulesets/magna_carta/boards/*.board``,
    and an edition's ``boards/`` for its games), sorted."""
    return sorted(_board_files(ruleset_id))


def load_bundled_board(board_id: str, ruleset: Ruleset | str | None = None) -> Board:
    """A bundled board by id. Its file must declare the same id as its file name."""
    rules = _resolve_ruleset(ruleset)
    return _load_bundled(board_id, rules.id)


@lru_cache(maxsize=None)
def _load_bundled(board_id: str, ruleset_id: str) -> Board:
    files = _board_files(ruleset_id)
    if board_id not in files:
        raise MapError(f"unknown board {board_id!r} (bundled boards: {', '.join(sorted(files)) or 'none'})")
    entry = files[board_id]
    name = f"boards/{board_id}{BOARD_SUFFIX}"
    board = parse_board(entry.read_text(encoding="utf-8-sig"), name, load_ruleset(ruleset_id))
    if board.id != board_id:
        text = entry.read_text(encoding="utf-8-sig")
        line = next((i for i, l in enumerate(text.splitlines(), 1) if l.startswith("board:")), 1)
        raise _err(name, line, 1, f"board id {board.id!r} differs from the file name {board_id!r}")
    return board


# ---------------------------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------------------------
class Placement(NamedTuple):
    """A board placed on a map: its local hex ``(c, r)`` lands on map ``(col + c, row + r)``
    (after turning the board around when ``rotation`` is 180)."""

    board: Board
    col: int = 0
    row: int = 0
    rotation: int = 0

    def describe(self, index: int) -> str:
        return (f"placement {index} ({self.board.id} at col {self.col}, row {self.row}, "
                f"rotation {self.rotation})")


class GameMap:
    """The playing area: terrain, elevation and hexside features of every hex, immutable.

    All lookups are dictionary look-ups. Hexes are map hexes (``Hex.from_offset(col, row)``
    with map columns and rows); ``Hex.label`` gives their map label.
    """

    __slots__ = ("id", "name", "name_fr", "width", "height", "hexes", "edge_hexes", "placements",
                 "_terrain", "_elevation", "_hexsides", "_edge", "_origin", "_pairs", "_memo", "_base")

    def __init__(self, *, id: str, name: str, name_fr: str, width: int, height: int,
                 terrain: Mapping[Hex, str], elevation: Mapping[Hex, int],
                 hexsides: Mapping[frozenset[Hex], str], placements: tuple[Placement, ...] = (),
                 origin: Mapping[Hex, tuple[int, Hex]] | None = None, base: "GameMap | None" = None):
        hexes = tuple(sorted(terrain))  # by column then row (axial order agrees for odd-q)
        tset = terrain
        edge = tuple(h for h in hexes if any(n not in tset for n in h.neighbours()))
        values = {
            "id": id,
            "name": name,
            "name_fr": name_fr,
            "width": width,
            "height": height,
            "hexes": hexes,
            "edge_hexes": edge,
            "placements": tuple(placements),
            "_terrain": MappingProxyType(dict(terrain)),
            "_elevation": MappingProxyType(dict(elevation)),
            "_hexsides": MappingProxyType(dict(hexsides)),
            "_edge": frozenset(edge),
            "_origin": MappingProxyType(dict(origin or {})),
            # hexside features by ordered pair of hexes, both orders (what hexside() looks up)
            "_pairs": _ordered_pairs(hexsides),
            # tables derived from this (immutable) map, built on first use: see memo()
            "_memo": {},
            # the map without carts this one draws carts over (maps.with_carts), or None
            "_base": base,
        }
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError("GameMap is immutable")

    def __delattr__(self, name):
        raise AttributeError("GameMap is immutable")

    # --- lookups ------------------------------------------------------------------------
    def terrain(self, h: Hex) -> str:
        """Terrain id of a hex (a key of ``Ruleset.terrain``). KeyError off the map."""
        try:
            return self._terrain[h]
        except KeyError:
            raise KeyError(f"{h.label} is not on map {self.id!r}") from None

    def elevation(self, h: Hex) -> int:
        """Elevation level of a hex (0 = ground level). KeyError off the map."""
        try:
            return self._elevation[h]
        except KeyError:
            raise KeyError(f"{h.label} is not on map {self.id!r}") from None

    def hexside(self, a: Hex, b: Hex) -> str | None:
        """Feature id on the hexside between ``a`` and ``b`` (either order), or None.

        None as well when the two hexes are not adjacent.
        """
        return self._pairs.get((a, b))

    def hexside_features(self) -> Mapping[frozenset[Hex], str]:
        """Every hexside feature, keyed by the unordered pair of hexes (read-only)."""
        return self._hexsides

    def __contains__(self, h: object) -> bool:
        return h in self._terrain

    def __len__(self) -> int:
        return len(self.hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def is_edge(self, h: Hex) -> bool:
        """True when ``h`` is on the map and at least one of its neighbours is not."""
        return h in self._edge

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of ``h`` that are on the map (direction order N, NE, SE, S, SW, NW)."""
        t = self._terrain
        return tuple(n for n in h.neighbours() if n in t)

    def adjacency(self) -> Mapping[Hex, tuple[tuple[Hex, str, str | None], ...]]:
        """Every map hex -> its on-map neighbours as ``(neighbour, terrain id, hexside feature
        id or None)``, in direction order N, NE, SE, S, SW, NW (built once, then cached).

        The same answers as :meth:`neighbours`, :meth:`terrain` and :meth:`hexside`, for the
        path searches that ask them for every step."""
        return self.memo("adjacency", self._build_adjacency)

    def _build_adjacency(self) -> Mapping[Hex, tuple[tuple[Hex, str, str | None], ...]]:
        t, pairs = self._terrain, self._pairs
        return MappingProxyType({
            h: tuple((n, t[n], pairs.get((h, n))) for n in h.neighbours() if n in t)
            for h in self.hexes
        })

    def memo(self, key, build):
        """A value derived from this map only (plus ``key``), computed by ``build()`` on the
        first call and kept with the map: the map is immutable, so it never goes stale. The
        engine keeps its per-map look-up tables here; ``build()`` must not depend on anything
        that can change."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = build()
            return value

    def board_of(self, h: Hex) -> tuple[int, Hex] | None:
        """``(placement index, board-local hex before rotation)`` of a map hex, or None."""
        return self._origin.get(h)

    def hex(self, label: str) -> Hex:
        """The map hex of a ``CCRR`` label; KeyError when it is not on the map."""
        h = Hex.from_label(label)
        if h not in self._terrain:
            raise KeyError(f"{label} is not on map {self.id!r}")
        return h

    def __repr__(self) -> str:
        return f"GameMap({self.id!r}, {self.width}x{self.height}, {len(self.hexes)} hexes)"


def _ordered_pairs(hexsides: Mapping[frozenset[Hex], str]) -> dict[tuple[Hex, Hex], str]:
    """``{(a, b): feature}`` for both orders of each hexside, so that a look-up needs no
    ``frozenset``: ``pairs.get((a, b)) == hexsides.get(frozenset((a, b)))`` for any ``a, b``."""
    out: dict[tuple[Hex, Hex], str] = {}
    for side, f in hexsides.items():
        if not isinstance(side, frozenset):
            continue  # never equal to frozenset((a, b)): hexside() could not find it either
        ends = tuple(side)
        if len(ends) == 2:
            out[(ends[0], ends[1])] = f
            out[(ends[1], ends[0])] = f
        elif len(ends) == 1:
            out[(ends[0], ends[0])] = f
    return out


def compose(placements: Iterable[Placement | tuple], *, map_id: str | None = None,
            name: str | None = None, name_fr: str | None = None) -> GameMap:
    """Place boards side by side into one map.

    Each placement is a :class:`Placement` or a tuple ``(board, col, row[, rotation])``.
    Column offsets must be even (the odd-q layout: shifting a board by an odd number of
    columns would turn its low columns into high ones), offsets must be >= 0, rotation 0 or
    180, and boards must not overlap.
    """
    places: list[Placement] = []
    for i, p in enumerate(placements, start=1):
        if not isinstance(p, Placement):
            try:
                p = Placement(*p)
            except TypeError:
                raise MapError(f"placement {i}: expected (board, col, row, rotation), got {p!r}") from None
        if not isinstance(p.board, Board):
            raise MapError(f"placement {i}: {p.board!r} is not a Board")
        places.append(p)
    if not places:
        raise MapError("a map needs at least one board")

    terrain: dict[Hex, str] = {}
    elevation: dict[Hex, int] = {}
    hexsides: dict[frozenset[Hex], str] = {}
    origin: dict[Hex, tuple[int, Hex]] = {}
    width = height = 0
    for i, p in enumerate(places, start=1):
        what = p.describe(i)
        for field, value in (("col", p.col), ("row", p.row), ("rotation", p.rotation)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise MapError(f"{what}: {field} must be an integer, not {value!r}")
        if p.col < 0 or p.row < 0:
            raise MapError(f"{what}: offsets must be 0 or more (the map starts at column 0, row 0)")
        if p.col % 2:
            raise MapError(
                f"{what}: the column offset must be even (odd-q layout: odd columns sit half a hex "
                f"lower, so an odd shift would break the board's hex rows); use {p.col - 1} or {p.col + 1}"
            )
        if p.rotation not in (0, 180):
            raise MapError(f"{what}: rotation must be 0 or 180")
        try:
            board = p.board.rotated(p.rotation)
        except MapError as exc:
            raise MapError(f"{what}: {exc}") from None

        def place(x: Hex, dc=p.col, dr=p.row) -> Hex:
            return Hex.from_offset(x.col + dc, x.row + dr)

        w0, h0 = p.board.width, p.board.height

        def unturn(x: Hex, turned=p.rotation == 180) -> Hex:
            return Hex.from_offset(w0 - 1 - x.col, h0 - 1 - x.row) if turned else x

        for x, t in board.terrain.items():
            m = place(x)
            if m in terrain:
                j, _ = origin[m]
                raise MapError(f"{what}: overlaps {places[j - 1].describe(j)} at map hex {m.label}")
            terrain[m] = t
            elevation[m] = board.elevation[x]
            origin[m] = (i, unturn(x))
        for side, f in board.hexsides.items():
            hexsides[frozenset(place(x) for x in side)] = f
        width = max(width, p.col + board.width)
        height = max(height, p.row + board.height)

    def suffix(p: Placement) -> str:
        return "@180" if p.rotation == 180 else ""

    return GameMap(
        id=map_id or "+".join(p.board.id + suffix(p) for p in places),
        name=name or " + ".join(p.board.name for p in places),
        name_fr=name_fr or name or " + ".join(p.board.name_fr for p in places),
        width=width,
        height=height,
        terrain=terrain,
        elevation=elevation,
        hexsides=hexsides,
        placements=tuple(places),
        origin=origin,
    )


_SPEC_KEYS = {"boards", "id", "name", "name_fr", "carts"}
_PLACEMENT_KEYS = {"board", "path", "col", "row", "rotation"}


def build_map(spec: Mapping, *, ruleset: Ruleset | str | None = None,
              base_dir: str | os.PathLike | None = None, source: str = "map") -> GameMap:
    """Build a map from a scenario's map spec.

    ``spec`` is ``{"boards": [{"board": "open-country", "col": 0, "row": 0, "rotation": 0},
    {"path": "my.board", "col": 20}], "id": ..., "name": ...}``: each entry names a bundled
    board (``board``) or a ``.board`` file (``path``, relative to ``base_dir``); ``col``, ``row``
    and ``rotation`` default to 0. ``id``, ``name`` and ``name_fr`` are optional. ``source``
    names the spec in error messages (e.g. the scenario file).
    """
    rules = _resolve_ruleset(ruleset)
    key = _shared_key(spec, rules)
    hit = _SHARED.get(key) if key is not None else None
    if hit is not None and hit[0] is rules:
        return hit[1]
    gmap = _build_map(spec, rules, base_dir, source)
    if key is not None:
        if len(_SHARED) >= 64:
            _SHARED.clear()
        _SHARED[key] = (rules, gmap)
    return gmap


#: The maps built from specs of bundled boards only, by (ruleset, spec): every game of a
#: scenario plays on the same GameMap, so the tables the engine derives from it (its
#: ``memo``: adjacency, step costs, lines, jumps) are built once per server, not per game.
#: A GameMap is immutable (its memo holds only what derives from it), so sharing is safe;
#: a game whose carts move plays on maps derived from it (``effective_map``), never changes it.
_SHARED: dict[tuple, tuple[Ruleset, GameMap]] = {}


def _shared_key(spec, rules: Ruleset) -> tuple | None:
    """The cache key of a spec that names bundled boards only (a ``path`` board is read from
    a file that may change: not shared), or None."""
    if not isinstance(spec, Mapping):
        return None
    entries = spec.get("boards")
    if not isinstance(entries, (list, tuple)) or any(not isinstance(e, (str, Mapping)) or
                                                     (isinstance(e, Mapping) and "path" in e) for e in entries):
        return None
    try:
        text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return (id(rules), text)


def _build_map(spec: Mapping, rules: Ruleset, base_dir, source: str) -> GameMap:
    if not isinstance(spec, Mapping):
        raise MapError(f"{source}: a map spec is a table with a 'boards' list, not {type(spec).__name__}")
    unknown = set(spec) - _SPEC_KEYS
    if unknown:
        raise MapError(f"{source}: unknown map key(s) {', '.join(sorted(map(str, unknown)))} "
                       f"(expected {', '.join(sorted(_SPEC_KEYS))})")
    entries = spec.get("boards")
    if not isinstance(entries, (list, tuple)) or not entries:
        raise MapError(f"{source}: 'boards' must be a non-empty list of placements")
    places: list[Placement] = []
    for i, entry in enumerate(entries, start=1):
        if isinstance(entry, str):
            entry = {"board": entry}
        if not isinstance(entry, Mapping):
            raise MapError(f"{source}: placement {i}: expected a table such as "
                           f"{{board = \"open-country\", col = 0, row = 0}}, got {entry!r}")
        unknown = set(entry) - _PLACEMENT_KEYS
        if unknown:
            raise MapError(f"{source}: placement {i}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                           f"(expected {', '.join(sorted(_PLACEMENT_KEYS))})")
        if ("board" in entry) == ("path" in entry):
            raise MapError(f"{source}: placement {i}: give exactly one of 'board' (a bundled board id) or 'path'")
        if "board" in entry:
            bid = entry["board"]
            if not isinstance(bid, str) or bid not in bundled_board_ids(rules.id):
                raise MapError(f"{source}: placement {i}: unknown board {bid!r} "
                               f"(bundled boards: {', '.join(bundled_board_ids(rules.id))})")
            board = load_bundled_board(bid, rules)
        else:
            path = Path(entry["path"])
            if base_dir is not None and not path.is_absolute():
                path = Path(base_dir) / path
            board = load_board(path, str(path), rules)
        places.append(Placement(board, entry.get("col", 0), entry.get("row", 0), entry.get("rotation", 0)))
    try:
        gmap = compose(places, map_id=spec.get("id"), name=spec.get("name"), name_fr=spec.get("name_fr"))
    except MapError as exc:
        raise MapError(f"{source}: {exc}") from None
    carts = spec.get("carts") or []
    return with_carts(gmap, carts, rules, source) if carts else gmap


CART_ANIMALS = ("horse", "ox")  # §4.5.1 "un animal de trait (cheval ou bœuf)"


def cart_animal_hexes(front: Hex, rear: Hex) -> tuple[Hex, Hex, int]:
    """Where a harnessed draught animal stands (§4.5.1 figure): straight ahead of the cart,
    its rear half in the X cell in front of the cart's front hex. ``(head, rear, facing)``."""
    facing = rear.direction_to(front)
    ahead = front.neighbour(facing)
    return ahead.neighbour(facing), ahead, facing


def cart_can_stand(rules: Ruleset, gmap: "GameMap", h: Hex) -> str | None:
    """Why a cart cannot stand in ``h`` of ``gmap`` (a map without carts), or None."""
    if h not in gmap:
        return f"{h.label} is off the map"
    t = rules.terrain[gmap.terrain(h)]
    if t.water or t.blocks_los or t.cost_for(False, False) == "impassable":
        return f"a cart cannot stand in {h.label} ({t.names[0]})"
    return None


def with_carts(gmap: "GameMap", carts, rules: Ruleset, source: str = "map") -> "GameMap":
    """The map with carts (Magna Carta §4.5.2–§4.5.4) drawn over its terrain: each
    ``{"front": "0405", "rear": "0406"}`` turns both hexes into ``cart`` terrain and gives the
    front hex's outer sides the ``cart_front`` feature (no boarding by the front hex).
    ``animal = "horse" | "ox"`` harnesses a draught animal straight ahead of the front hex
    (checked here; the animal itself is a counter of the game state, engine/carts.py).
    ``moving = true`` (the game state's carts only, not a scenario's) draws a moving cart:
    ``moving_cart`` terrain, every outer side closed (§4.5.4.1). The result keeps ``gmap`` as
    its base (:func:`cart_base`), over which a game redraws its carts when they move."""
    if "cart" not in rules.terrain or "cart_front" not in rules.hexsides:
        raise MapError(f"{source}: carts: the ruleset {rules.id!r} has no carts")
    terrain = dict(gmap._terrain)
    hexsides = dict(gmap._hexsides)
    taken: dict[Hex, int] = {}
    for i, cart in enumerate(carts, start=1):
        where = f"{source}: carts[{i - 1}]"
        if not isinstance(cart, Mapping) or not {"front", "rear"} <= set(cart) <= {"front", "rear", "animal", "moving"}:
            raise MapError(f"{where}: a cart is a table {{front = \"CCRR\", rear = \"CCRR\"}} "
                           f"with an optional animal = \"horse\" or \"ox\"")
        try:
            front, rear = Hex.from_label(str(cart["front"])), Hex.from_label(str(cart["rear"]))
        except ValueError as exc:
            raise MapError(f"{where}: {exc}") from None
        for h in (front, rear):
            why = cart_can_stand(rules, gmap, h)
            if why:
                raise MapError(f"{where}: {why}")
            if h in taken:
                raise MapError(f"{where}: {h.label} already holds cart {taken[h]}")
            taken[h] = i
        if front.distance(rear) != 1:
            raise MapError(f"{where}: front {front.label} and rear {rear.label} must be adjacent")
        animal = cart.get("animal")
        if animal is not None:
            if animal not in CART_ANIMALS:
                raise MapError(f"{where}: animal: {animal!r} is not a draught animal (\"horse\" or \"ox\", MC §4.5.1)")
            head, hind, _ = cart_animal_hexes(front, rear)
            for h in (hind, head):
                if h not in gmap:
                    raise MapError(f"{where}: animal: the {animal} would stand off the map ({h.label})")
                t = rules.terrain[gmap.terrain(h)]
                if t.cost_for(True, False) == "impassable":
                    raise MapError(f"{where}: animal: the {animal} cannot stand in {h.label} ({t.names[0]})")
            side = gmap.hexside(head, hind)
            if side and rules.hexsides[side].crossing_for(True) == "impassable":
                raise MapError(f"{where}: animal: the {animal} would straddle the {rules.hexsides[side].names[0]}")
        moving = bool(cart.get("moving"))
        terrain[front] = terrain[rear] = "moving_cart" if moving else "cart"
        for h in (front, rear):
            for n in h.neighbours():
                if n in (front, rear):
                    continue
                if moving:
                    hexsides[frozenset((h, n))] = "moving_cart_side"
                elif h == front:
                    hexsides[frozenset((front, n))] = "cart_front"
    for i, cart in enumerate(carts, start=1):  # an animal on another cart's hexes
        if cart.get("animal") is not None:
            head, hind, _ = cart_animal_hexes(Hex.from_label(str(cart["front"])), Hex.from_label(str(cart["rear"])))
            for h in (hind, head):
                if h in taken:
                    raise MapError(f"{source}: carts[{i - 1}]: animal: {h.label} already holds cart {taken[h]}")
    return GameMap(id=gmap.id, name=gmap.name, name_fr=gmap.name_fr, width=gmap.width, height=gmap.height,
                   terrain=terrain, elevation=dict(gmap._elevation), hexsides=hexsides,
                   placements=gmap.placements, origin=dict(gmap._origin), base=gmap)


def cart_base(gmap: "GameMap") -> "GameMap":
    """The map without carts under ``gmap`` (itself when it has none drawn)."""
    return gmap._base if gmap._base is not None else gmap


#: The maps with carts drawn, by (base map, carts' positions): the game state redraws its map
#: after every cart move (engine/carts.py).
_MAPS: dict[tuple, tuple[GameMap, GameMap]] = {}


def effective_map(gmap: GameMap, carts, rules) -> GameMap:
    """``gmap``'s base with ``carts`` drawn over it (cached by the carts' positions)."""
    base = cart_base(gmap)
    specs = [x.spec() for x in sorted(carts, key=lambda x: x.id)]
    key = (id(base), tuple(tuple(sorted(s.items())) for s in specs))
    hit = _MAPS.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    m = with_carts(base, specs, rules) if specs else base
    if len(_MAPS) > 256:
        _MAPS.clear()
    _MAPS[key] = (base, m)
    return m
