"""Hex geometry: the value type every other module uses.

Conventions (documented in docs/formats.md):

* Hexes are **flat-topped**; a map is a grid of columns and rows in *odd-q* offset layout
  (odd columns sit half a hex lower), as on the printed Cry Havoc boards.
* Internally a :class:`Hex` holds **axial** coordinates ``(q, r)``; the third cube coordinate
  is ``s = -q - r``.
* The six directions, numbered clockwise from north, are the six hexsides a hex (or a rider's
  facing) can point at: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
* Map labels are ``CCRR`` (1-based column then row, two digits each, e.g. ``"0305"``).

Range (Magna Carta §5.4.1) counts the hexes up to and including the target, not the shooter's:
that is exactly :func:`distance`.

Lines of fire (§5.5.1) join hex centres. When the straight line runs exactly along a hexside,
it touches two hexes at once; :func:`lines_of_fire` then returns the **two** hex sequences
(the line nudged to either side). Oriflamme's rule, stated in docs/decisions.md: *a line of fire
along a hexside is clear if either of its two sides is clear, and the shooter uses the side
more favourable to him* (the same "shooter's choice" the rules give for a rider's two hexes,
§5.4.1 / SEED-NOTES D9).

>>> Hex(0, 0).distance(Hex(3, -1))
3
>>> Hex.from_label("0101").label
'0101'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, NamedTuple

#: Axial vectors of the six directions, clockwise from north (flat-topped hexes).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


class Hex(NamedTuple):
    """A hex in axial coordinates (an immutable tuple: hashing and comparison run at C speed,
    which path searches need)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    # --- offset (map) coordinates -------------------------------------------------------
    @classmethod
    def from_offset(cls, col: int, row: int) -> "Hex":
        """0-based column/row in odd-q layout to axial."""
        return cls(col, row - (col - (col & 1)) // 2)

    @property
    def col(self) -> int:
        return self.q

    @property
    def row(self) -> int:
        return self.r + (self.q - (self.q & 1)) // 2

    @property
    def label(self) -> str:
        return _label(self.q, self.r)

    @classmethod
    def from_label(cls, text: str) -> "Hex":
        """Parse ``CCRR`` (1-based) or ``C,R`` / ``C.R`` (1-based)."""
        t = text.strip()
        for sep in (",", "."):
            if sep in t:
                a, b = t.split(sep, 1)
                return cls.from_offset(int(a) - 1, int(b) - 1)
        if len(t) % 2 == 0 and t.isdigit() and len(t) >= 4:
            h = len(t) // 2
            return cls.from_offset(int(t[:h]) - 1, int(t[h:]) - 1)
        raise ValueError(f"not a hex label: {text!r} (expected CCRR such as 0305, or C,R)")

    # --- neighbourhood -------------------------------------------------------------------
    def neighbour(self, direction: int) -> "Hex":
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple["Hex", ...]:
        return tuple(self.neighbour(d) for d in range(6))

    def distance(self, other: "Hex") -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: "Hex") -> int | None:
        """Direction index if ``other`` is adjacent, else None."""
        d = (other.q - self.q, other.r - self.r)
        try:
            return DIRECTIONS.index(d)
        except ValueError:
            return None

    def __add__(self, other: "Hex") -> "Hex":  # vector sum, not tuple concatenation
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> "Hex":
        return Hex(self.q * k, self.r * k)

    def ring(self, radius: int) -> Iterator["Hex"]:
        if radius == 0:
            yield self
            return
        h = self + Hex(*DIRECTIONS[4]).scale(radius)
        for d in range(6):
            for _ in range(radius):
                yield h
                h = h.neighbour(d)

    def within(self, radius: int) -> Iterator["Hex"]:
        for k in range(radius + 1):
            yield from self.ring(k)

    def pixel(self, size: float = 1.0) -> tuple[float, float]:
        """Centre of the hex in a plane where ``size`` is the centre-to-corner radius."""
        x = size * 1.5 * self.q
        y = size * (3 ** 0.5) * (self.r + self.q / 2)
        return (x, y)

    def __repr__(self) -> str:  # readable in test failures
        return f"Hex({self.q},{self.r}:{self.label})"


@lru_cache(maxsize=16384, typed=True)
def _label(q: int, r: int) -> str:
    """``Hex(q, r).label``, cached: move paths are turned into labels by the thousand."""
    return f"{q + 1:02d}{r + (q - (q & 1)) // 2 + 1:02d}"


def distance(a: Hex, b: Hex) -> int:
    """Range in hexes, counting the target's hex but not the shooter's (§5.4.1)."""
    return a.distance(b)


def hexside_between(a: Hex, b: Hex) -> frozenset[Hex]:
    """The hexside shared by two adjacent hexes, as the unordered pair."""
    if a.distance(b) != 1:
        raise ValueError(f"{a.label} and {b.label} are not adjacent")
    return frozenset((a, b))


def _cube_round(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return Hex(int(rx), int(ry))


_EPS = (1e-6, 2e-6, -3e-6)


def _line(a: Hex, b: Hex, sign: int) -> tuple[Hex, ...]:
    n = a.distance(b)
    if n == 0:
        return (a,)
    ax, ay, az = a.q + sign * _EPS[0], a.r + sign * _EPS[1], a.s + sign * _EPS[2]
    bx, by, bz = b.q + sign * _EPS[0], b.r + sign * _EPS[1], b.s + sign * _EPS[2]
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t))
    return tuple(out)


def lines_of_fire(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """Hex sequences (shooter first, target last) of the straight line between two centres.

    One sequence normally; two when the line runs exactly along one or more hexsides (the
    line nudged to one side and to the other). See the module docstring for the rule.

    >>> len(lines_of_fire(Hex(0, 0), Hex(2, -1)))  # along the hexside between two hexes
    2
    >>> len(lines_of_fire(Hex(0, 0), Hex(0, 3)))
    1
    """
    one = _line(a, b, +1)
    two = _line(a, b, -1)
    return (one,) if one == two else (one, two)


def intervening(line: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The hexes a line crosses, shooter's and target's excluded."""
    return line[1:-1]


def front_arc(origin: Hex, facing: int, hexes) -> set[Hex]:
    """Hexes of ``hexes`` in the front arc of a counter at ``origin`` facing ``facing``.

    The arc is bounded by the two hex rows leaving the front hexside's neighbours (§4.4.1,
    §7.6.1 figure): the cone ``a·dir(f-1) + b·dir(f+1)``, a, b ≥ 0, not both zero. It
    contains the three front hexes and widens by one hex per row.
    """
    left = DIRECTIONS[(facing - 1) % 6]
    right = DIRECTIONS[(facing + 1) % 6]
    det = left[0] * right[1] - left[1] * right[0]
    out = set()
    for h in hexes:
        vq, vr = h.q - origin.q, h.r - origin.r
        if vq == 0 and vr == 0:
            continue
        # solve v = a*left + b*right
        a = (vq * right[1] - vr * right[0]) / det
        b = (left[0] * vr - left[1] * vq) / det
        if a >= 0 and b >= 0:
            out.add(h)
    return out


def in_front_arc(origin: Hex, facing: int, target: Hex) -> bool:
    return bool(front_arc(origin, facing, (target,)))
