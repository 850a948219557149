"""Terrain kinds (``data/terrain.toml``) and what terrain costs a mover along a path (GF-D2).

A linear obstacle (hedge, wall, fence, ford) costs the printed fraction of the movement
*remaining* when the path crosses it — part 1's :func:`..movement.through` reading of the hedge
example (20 cm: 2 cm to the hedge, half of the 18 left, then 9 cm: 11 cm covered). Inside area
terrain (woods, marsh, scrub, steep hills) the mover covers only (1 − fraction) of the movement,
pro rata: each cm of path costs 1 / (1 − fraction) cm of allowance. Penalties are cumulative
(l.710): overlapping areas multiply their (1 − fraction) (OR-GF26). Entering a building costs the
whole move (l.712); impassable terrain stops the mover where the path meets it. A mover in the
air takes no terrain effect (OR-GF3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pydantic import Field
import shapely
from shapely.geometry import LineString, Point

from .. import movement
from ..rows import DataError, Row, document, load, one

FILE = "terrain.toml"
AREA, LINE = "area", "line"
STOPS = {"infranchissable": "impassable", "batiment": "whole_move"}
EPS = 1e-9


class Table(Row):
    width_cm: int
    height_cm: int
    printed: str
    contact_tolerance_cm: float
    centre_line_cm: float


class SightRule(Row):
    id: str
    rule: str = Field(pattern="^(none|hill|screen)$")
    height: float = 0.0
    see_through_cm: float = 0.0
    printed: str


class TerrainKind(Row):
    id: str
    name_fr: str
    name_en: str
    shape: str = Field(pattern="^(area|line)$")
    movement: list[str]
    cover: str = Field(pattern="^(none|light|medium|dense)$")
    sight: str
    element: str | None = None
    crossing: bool = False
    printed: str

    def names(self) -> dict[str, str]:
        return {"en": self.name_en, "fr": self.name_fr}


class Ford(Row):
    column: str
    printed: str


@lru_cache(maxsize=1)
def table() -> Table:
    return one(Table, FILE, "table")


@lru_cache(maxsize=1)
def sight_rules() -> dict[str, SightRule]:
    return {r.id: r for r in load(SightRule, FILE, "sight")}


@lru_cache(maxsize=1)
def ford() -> Ford:
    return one(Ford, FILE, "gue")


@lru_cache(maxsize=1)
def kinds() -> dict[str, TerrainKind]:
    """The terrain kinds, checked against movement.toml, the sight rules and prebattle.toml."""
    from .. import prebattle
    rows = load(TerrainKind, FILE, "kind")
    known_moves = set(movement.terrain_columns()) | set(movement.terrain_others())
    elements = prebattle.data().terrain_elements
    out = {}
    for i, k in enumerate(rows):
        where = f"guerres_fleuries/data/{FILE}: [[kind]] #{i + 1} ({k.id})"
        if k.id in out:
            raise DataError(f"{where} field id: repeated")
        for col in k.movement:
            if col not in known_moves:
                raise DataError(f"{where} field movement: {col!r} is neither a terrain column nor a terrain "
                                f"of movement.toml ({', '.join(sorted(known_moves))})")
        if k.sight not in sight_rules():
            raise DataError(f"{where} field sight: unknown sight rule {k.sight!r}")
        if k.element is not None and k.element not in elements:
            raise DataError(f"{where} field element: {k.element!r} is not a terrain element of prebattle.toml")
        out[k.id] = k
    if ford().column not in movement.terrain_columns():
        raise DataError(f"guerres_fleuries/data/{FILE}: [gue] field column: unknown column {ford().column!r}")
    return out


def kind(kind_id: str) -> TerrainKind:
    try:
        return kinds()[kind_id]
    except KeyError:
        raise DataError(f"unknown terrain kind {kind_id!r}; known: {', '.join(sorted(kinds()))}") from None


# --- movement cost -----------------------------------------------------------------------------

@dataclass(frozen=True)
class MoverProfile:
    """What move_cost needs of a mover: its row of movement.toml's terrain table (``homme``,
    ``saurien``, ``jaguar``…), its allowance for this move in cm, and whether it is on the ground."""

    mover: str
    allowance_cm: float
    medium: str = "ground"


@dataclass(frozen=True)
class MoveCost:
    """How far a mover gets along a path: ``allowed_cm`` (≤ the path's length), the allowance
    ``spent_cm`` to get there, every terrain ``penalty`` met, and the explanation ``steps``."""

    allowed_cm: float
    spent_cm: float
    path_cm: float
    allowance_cm: float
    penalties: list[dict] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    blocked_by: str | None = None
    steps_fr: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """The whole path is within the allowance."""
        return self.allowed_cm >= self.path_cm - 1e-6

    @property
    def left_cm(self) -> float:
        return max(0.0, self.allowance_cm - self.spent_cm)

    def to_dict(self) -> dict:
        return {"allowed_cm": self.allowed_cm, "spent_cm": self.spent_cm, "path_cm": self.path_cm,
                "allowance_cm": self.allowance_cm, "left_cm": self.left_cm, "complete": self.complete,
                "penalties": [dict(p) for p in self.penalties], "steps": list(self.steps),
                "steps_fr": list(self.steps_fr), "blocked_by": self.blocked_by}


def _profile(unit_profile: Any) -> MoverProfile:
    if isinstance(unit_profile, MoverProfile):
        return unit_profile
    get = unit_profile.get if isinstance(unit_profile, dict) else lambda k, d=None: getattr(unit_profile, k, d)
    mover, allowance = get("mover"), get("allowance_cm")
    if mover is None or allowance is None:
        raise DataError("move_cost needs a mover profile with 'mover' and 'allowance_cm'")
    return MoverProfile(str(mover), float(allowance), str(get("medium", "ground") or "ground"))


def fraction(mover: str, column: str) -> Fraction:
    """The printed fraction of ``column`` for ``mover`` (movement.toml's terrain rows)."""
    mods = movement.terrain_mods()
    if mover not in mods:
        raise DataError(f"no terrain row for mover {mover!r} in movement.toml; known: {', '.join(sorted(mods))}")
    return mods[mover].fraction(column)


def _cm(x: float) -> str:
    return f"{round(x, 2):g}"


def _crossing_points(path: LineString, geom) -> list[float]:
    inter = path.intersection(geom)
    if inter.is_empty:
        return []
    if path.length < 1e-9:  # a path that does not move (or by less than a nanometre): it meets the element where it stands
        return [0.0]
    # legs shorter than a nanometre would divide by (almost) zero in the projection: dropped
    # (a distance along the path changes by less than that)
    path = shapely.remove_repeated_points(path, 1e-9)
    parts = getattr(inter, "geoms", [inter])
    out = []
    for g in parts:
        if isinstance(g, Point):
            out.append(path.project(g))
        else:  # the path runs along the line: it meets it where the overlap begins
            out.append(min(path.project(Point(c)) for c in g.coords))
    return sorted(set(round(s, 9) for s in out))


def _column_label(col: str) -> str:
    cols = movement.terrain_columns()
    return cols[col].printed if col in cols else col


def move_cost(path: LineString, unit_profile: Any, battlefield) -> MoveCost:
    """How far ``unit_profile`` (a :class:`MoverProfile`, or anything with ``mover`` and
    ``allowance_cm``) gets along ``path`` on ``battlefield`` (GF-D2; see the module docstring).
    The path is that of the unit's reference point (the centre of its front edge, l.685)."""
    prof = _profile(unit_profile)
    length = float(path.length)
    allowance = float(prof.allowance_cm)
    steps = [(f"allowance {_cm(allowance)} cm ({prof.mover}), path {_cm(length)} cm",
              f"potentiel {_cm(allowance)} cm ({prof.mover}), trajet {_cm(length)} cm")]
    if prof.medium == "air":
        reach = min(length, allowance)
        steps.append(("in the air: terrain does not slow the mover (OR-GF3)",
                      "en vol : le terrain ne ralentit pas (OR-GF3)"))
        return MoveCost(reach, reach, length, allowance, [], [e for e, _ in steps], None, [f for _, f in steps])

    events: dict[float, list[tuple]] = {}   # position → [(kind, element, column/effect)]
    areas = []                               # (element, kind, [columns])
    crossings = [e for e in battlefield.elements if kind(e.kind).crossing]
    for el in battlefield.elements:
        k = kind(el.kind)
        if k.crossing or not k.movement:
            continue
        if k.shape == LINE:
            for s in _crossing_points(path, el.geometry):
                if s >= length - EPS:
                    continue  # the path ends against it: not crossed
                pt = path.interpolate(s)
                over = next((c for c in crossings if c.geometry.buffer(1e-6).covers(pt)), None)
                cols = list(k.movement)
                source = el
                if over is not None:
                    cols, source = list(kind(over.kind).movement), over
                cols = [ford().column if c == "gue" else c for c in cols]
                for c in cols:
                    events.setdefault(s, []).append((source, c))
        else:
            stops = [c for c in k.movement if c in STOPS]
            cols = [c for c in k.movement if c not in STOPS]
            if stops and not el.geometry.covers(path.interpolate(0)):
                boundary = _crossing_points(path, el.geometry.exterior)
                if boundary and boundary[0] < length - EPS:
                    events.setdefault(boundary[0], []).append((el, stops[0]))
            if stops and stops[0] == "batiment":
                cols = ["maquis_marais"]   # inside a building: irregular ground (l.788, OR-GF2)
            if cols:
                areas.append((el, k, cols))

    breaks = {0.0, length} | set(events)
    for el, _, _ in areas:
        breaks.update(s for s in _crossing_points(path, el.geometry.boundary) if 0 < s < length)
    points = sorted(breaks)

    remaining, pos = allowance, 0.0
    penalties: list[dict] = []
    area_log: dict[str, dict] = {}
    log: list[tuple[float, tuple[str, str]]] = []
    blocked_by = None
    reach = None

    def apply_events(at: float) -> bool:
        nonlocal remaining, blocked_by, reach
        for el, col in events.get(at, []):
            k = kind(el.kind)
            if col in STOPS:
                effect = STOPS[col]
                penalties.append({"element": el.id, "kind": el.kind, "column": col, "fraction": "1",
                                  "at_cm": round(at, 6), "cost_cm": round(remaining if effect == "whole_move" else 0.0, 6),
                                  "ref": k.ref, "decision": k.decision, **_names(el, k)})
                if effect == "impassable":
                    log.append((at, (f"{_cm(at)} cm: {_en(el, k)} is impassable: the move stops there",
                                     f"{_cm(at)} cm : {_fr(el, k)} est infranchissable : le mouvement s'arrête là")))
                    blocked_by = el.id
                else:
                    log.append((at, (f"{_cm(at)} cm: entering {_en(el, k)} takes the whole move (l.712)",
                                     f"{_cm(at)} cm : entrer dans {_fr(el, k)} consomme tout le mouvement (l.712)")))
                    remaining = 0.0
                reach = at
                return False
            f = fraction(prof.mover, col)
            cost = float(f) * remaining
            penalties.append({"element": el.id, "kind": el.kind, "column": col, "fraction": str(f),
                              "at_cm": round(at, 6), "cost_cm": round(cost, 6), "ref": k.ref,
                              "decision": k.decision, **_names(el, k)})
            log.append((at, (f"{_cm(at)} cm: crossing {_en(el, k)} (column {_column_label(col)}) "
                             f"costs {f} of the {_cm(remaining)} cm remaining = {_cm(cost)} cm",
                             f"{_cm(at)} cm : franchir {_fr(el, k)} (colonne {_column_label(col)}) "
                             f"coûte {f} des {_cm(remaining)} cm restants = {_cm(cost)} cm")))
            remaining -= cost
        return True

    for bp in points:
        seg = bp - pos
        if seg > EPS:
            mid = path.interpolate(pos + seg / 2)
            rate, inside = 1.0, []
            for el, k, cols in areas:
                if el.geometry.covers(mid):
                    for c in cols:
                        f = fraction(prof.mover, c)
                        rate *= 1 - float(f)
                        inside.append((el, k, c, f))
            if rate <= EPS:
                el = inside[-1][0]
                log.append((pos, (f"{_cm(pos)} cm: {_en(el, inside[-1][1])} allows no movement to a {prof.mover}",
                                  f"{_cm(pos)} cm : {_fr(el, inside[-1][1])} ne permet aucun mouvement ({prof.mover})")))
                blocked_by, reach = el.id, pos
                break
            cost = seg / rate
            if cost > remaining + EPS:
                covered = remaining * rate
                _log_areas(area_log, inside, pos, pos + covered)
                reach = pos + covered
                remaining = 0.0
                break
            _log_areas(area_log, inside, pos, bp)
            remaining -= cost
            pos = bp
        if bp < length - EPS and not apply_events(bp):
            break
    if reach is None:
        reach = pos
    timed = list(log)
    for entry in area_log.values():
        k = kind(entry["kind"])
        span, left, col = f"{_cm(entry['from_cm'])}–{_cm(entry['to_cm'])}", 1 - Fraction(entry["fraction"]), _column_label(entry["column"])
        timed.append((entry["from_cm"], (
            f"{span} cm in {entry['name']} ({k.name_en}, column {col}): only {left} of the movement, {_cm(entry['cost_cm'])} cm more",
            f"{span} cm dans {entry['name_fr']} ({k.name_fr}, colonne {col}) : seulement {left} du mouvement, "
            f"{_cm(entry['cost_cm'])} cm de plus")))
        penalties.append(dict(entry))
    timed.sort(key=lambda t: t[0])
    steps += [t for _, t in timed]
    penalties.sort(key=lambda p: p.get("at_cm", p.get("from_cm", 0)))
    spent = allowance - remaining
    reach = min(reach, length)
    steps.append((f"covers {_cm(reach)} of the {_cm(length)} cm, spending {_cm(spent)} of {_cm(allowance)} cm",
                  f"parcourt {_cm(reach)} des {_cm(length)} cm, en dépensant {_cm(spent)} des {_cm(allowance)} cm"))
    return MoveCost(round(reach, 6), round(spent, 6), round(length, 6), allowance, penalties,
                    [e for e, _ in steps], blocked_by, [f for _, f in steps])


def _names(el, k) -> dict:
    return {"name": el.name or k.name_en, "name_fr": el.name_fr or el.name or k.name_fr,
            "kind_name": k.name_en, "kind_name_fr": k.name_fr}


def _en(el, k) -> str:
    return f"{el.name or el.id} ({k.name_en})"


def _fr(el, k) -> str:
    return f"{el.name_fr or el.name or el.id} ({k.name_fr})"


def _log_areas(log, inside, start, end):
    """Log each area's share of the extra cost of [start, end]: the factors apply one after the
    other, so each adds ``length / (rate after it) − length / (rate before it)``."""
    length, before = end - start, 1.0
    for el, k, column, f in inside:
        after = before * (1 - float(f))
        _log_area(log, el, k, column, f, start, end, length / after - length / before)
        before = after


def _log_area(log, el, k, column, f, start, end, extra):
    key = f"{el.id}:{column}"
    entry = log.get(key)
    if entry is None:
        log[key] = {"element": el.id, "kind": el.kind, "column": column, "fraction": str(f), **_names(el, k),
                    "from_cm": round(start, 6), "to_cm": round(end, 6), "cost_cm": round(extra, 6), "ref": k.ref,
                    "decision": k.decision}
    else:
        entry["to_cm"] = round(end, 6)
        entry["cost_cm"] = round(entry["cost_cm"] + extra, 6)
