"""Movement data (``data/movement.toml``) and the distance a mover covers (GF-D1…D8).

A move's allowance is its rate column (GF-D1, GF-D4), + 1/4 in open order (GF-D1), less the
formation-change fraction of the normal move (GF-D5), less 1/4 when it fires (GF-D6). Terrain
then takes its printed fraction of the movement *remaining* (GF-D2): the mover covers ``at_cm``,
the obstacle costs ``fraction × remaining``, and the mover goes on with the rest."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .rows import Row, load

FILE = "movement.toml"
COLUMNS = ("normal", "double", "charge", "retraite", "deroute", "poursuite")
TERRAIN_COLUMNS = ("murs_haies", "clotures", "maquis_marais", "colline_bois")


class Rate(Row):
    mover: str
    medium: str
    normal: int
    double: int
    charge: int
    retraite: int
    deroute: int
    poursuite: int


class Move(Row):
    id: str
    names: list[str]
    column: str
    column_only: bool = False


class TerrainColumn(Row):
    id: str
    printed: str
    names: list[str]
    shape: str


class TerrainOther(Row):
    id: str
    names: list[str]
    effect: str


class TerrainMod(Row):
    mover: str
    murs_haies: str
    clotures: str
    maquis_marais: str
    colline_bois: str

    def fraction(self, column: str) -> Fraction:
        return Fraction(getattr(self, column))


class FormationChange(Row):
    mover: str
    A: str | None = None
    B: str | None = None
    C: str | None = None
    M: str | None = None
    all: str | None = None

    def fraction(self, cls: str | None) -> Fraction | None:
        value = self.all if self.all is not None else getattr(self, cls or "", None) if cls in "ABCM" else None
        return None if value is None else Fraction(value)


class FireAndMove(Row):
    weapon: str
    homme: str
    saurien: str


class Formation(Row):
    id: str
    names: list[str]
    bonus: str


class Altitude(Row):
    id: str
    names: list[str]
    from_cm: float
    to_cm: float | None = None
    extra_range_cm: int


class Flight(Row):
    id: str
    names: list[str]
    name_en: str  # the English display (display.py)
    ground_cost: str
    air_cost: str


class Disorder(Row):
    who: str
    printed: str


def _by(model, table, key="id"):
    return {getattr(r, key): r for r in load(model, FILE, table)}


@lru_cache(maxsize=None)
def rates() -> dict[tuple[str, str], Rate]:
    return {(r.mover, r.medium): r for r in load(Rate, FILE, "rate")}


@lru_cache(maxsize=None)
def moves() -> dict[str, Move]:
    return _by(Move, "move")


@lru_cache(maxsize=None)
def terrain_columns() -> dict[str, TerrainColumn]:
    return _by(TerrainColumn, "terrain_column")


@lru_cache(maxsize=None)
def terrain_others() -> dict[str, TerrainOther]:
    return _by(TerrainOther, "terrain_other")


@lru_cache(maxsize=None)
def terrain_mods() -> dict[str, TerrainMod]:
    return _by(TerrainMod, "terrain_mod", "mover")


@lru_cache(maxsize=None)
def formation_changes() -> dict[str, FormationChange]:
    return _by(FormationChange, "formation_change", "mover")


@lru_cache(maxsize=None)
def fire_and_move() -> dict[str, FireAndMove]:
    return _by(FireAndMove, "fire_and_move", "weapon")


@lru_cache(maxsize=None)
def formations() -> dict[str, Formation]:
    return _by(Formation, "formation")


@lru_cache(maxsize=None)
def altitudes() -> dict[str, Altitude]:
    return _by(Altitude, "altitude")


@lru_cache(maxsize=None)
def flights() -> dict[str, Flight]:
    return _by(Flight, "flight")


def through(allowance: Fraction, obstacles: list[tuple[Fraction, Fraction, str]]):
    """Cover ``allowance`` cm past ``obstacles`` = [(at_cm, fraction, label)], in order of
    ``at_cm`` (GF-D2). Returns (distance, steps); a fraction of 1 stops the mover there."""
    used, pos, steps = Fraction(0), Fraction(0), []
    for at, fraction, label in sorted(obstacles, key=lambda o: o[0]):
        left = allowance - used
        if at - pos >= left:
            steps.append(f"{label} at {_cm(at)} cm is not reached ({_cm(pos + left)} cm covered)")
            break
        used += at - pos
        pos = at
        left = allowance - used
        cost = fraction * left
        used += cost
        steps.append(f"{_cm(at)} cm to the {label}; it costs {fraction} of the {_cm(left)} cm remaining "
                     f"= {_cm(cost)} cm")
    end = pos + (allowance - used)
    return end, steps


def _cm(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


@lru_cache(maxsize=None)
def disorder() -> list[Disorder]:
    return load(Disorder, FILE, "disorder")
