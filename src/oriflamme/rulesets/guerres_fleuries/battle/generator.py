"""Random battlefields by the seed's terrain-setting procedure (GF Avant la bataille > Choix du
terrain, l.458-481; data in prebattle.toml and terrain.toml).

1. Each player selects 0 to 6 terrain elements of the list (l.460, l.464-475); at most one steep
   hill, one marsh, one hedge and one double hedge each (l.479); an element larger than a 25 cm
   square counts as two (l.479).
2. Both roll a die; the higher places all the terrain, the other chooses his side (l.460); a tie
   is rolled again (OR-GF27).
3. The placer sets each element on the table: areas do not overlap, hedges and streams keep their
   printed maximum length, every enclosure has an entrance (l.477), a large building is joined to a
   table edge by a road (l.479), a road ends at a table edge, a building or an enclosed field, a
   stream ends at a table edge or a marsh (l.479). Positions are drawn with the same dice (so a
   game's dice reproduce its table); an element that finds no room after a few tries is left out and
   the explanation says so (OR-GF27).

Every roll is an explicit die, so the game's :class:`~oriflamme.core.dice.Dice` (or any object with
``roll(sides)``; a ``random.Random`` is wrapped) reproduces the table."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, substring

from oriflamme.core.dice import SampledDice

from .. import prebattle
from . import terrain
from .table import Battlefield, TerrainElement

SIDES = ("A", "B")
TRIES = 25
GAP_CM = 3          # room left between areas (OR-GF27)
ENTRANCE_CM = 6     # the opening left in an enclosure (l.477, OR-GF27)
REF_CHOICE = "GF seed 003 l.460"
REF_RULES = "GF seed 003 l.477, l.479"

#: the kinds a pre-battle element may become (data: terrain.toml's ``element`` column)
def element_kinds() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for k in terrain.kinds().values():
        if k.element:
            out.setdefault(k.element, []).append(k.id)
    return out


@dataclass
class Generated:
    """A generated table and how it was made: the selections, the set-up dice, who placed, the side
    the other player chose, and the explanation."""

    battlefield: Battlefield
    selections: dict[str, list[str]]
    setup_dice: list[dict]
    placer: str
    chooser_edge: str
    explanation: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"battlefield": self.battlefield.to_json(), "selections": self.selections,
                "setup_dice": self.setup_dice, "placer": self.placer, "chooser_edge": self.chooser_edge,
                "explanation": list(self.explanation), "citations": list(self.citations),
                "left_out": list(self.left_out)}


class _Roller:
    def __init__(self, dice):
        self.dice = SampledDice(dice) if isinstance(dice, random.Random) else dice

    def d(self, sides: int) -> int:
        return int(self.dice.roll(sides))

    def uniform(self, lo: float, hi: float, steps: int = 100) -> float:
        """A value in [lo, hi] on a grid of ``steps`` (one d``steps+1`` roll)."""
        return lo + (hi - lo) * (self.d(steps + 1) - 1) / steps

    def pick(self, items):
        return items[self.d(len(items)) - 1]


def random_selection(roller: _Roller) -> list[str]:
    """A player's selection: 0-6 elements (a d7 − 1), each drawn from the list, respecting the
    per-player maxima of l.479 (a maximum reached draws again among the others)."""
    data = prebattle.data()
    tc = data.terrain_choice
    wanted = roller.d(tc.elements_max - tc.elements_min + 1) - 1 + tc.elements_min
    chosen: list[str] = []
    for _ in range(wanted):
        allowed = [e.id for e in data.terrain_elements.values()
                   if e.max_per_player is None or chosen.count(e.id) < e.max_per_player]
        chosen.append(roller.pick(allowed))
    return chosen


def check_selection(selection: list[str], who: str = "player") -> None:
    """Refuse a selection the seed forbids (too many elements, a maximum exceeded, an unknown id)."""
    data = prebattle.data()
    tc = data.terrain_choice
    if not (tc.elements_min <= len(selection) <= tc.elements_max):
        raise terrain.DataError(f"{who}: selects {len(selection)} elements; the seed allows "
                                f"{tc.elements_min} to {tc.elements_max} ({REF_CHOICE})")
    for e in selection:
        if e not in data.terrain_elements:
            raise terrain.DataError(f"{who}: unknown terrain element {e!r}; known: {', '.join(data.terrain_elements)}")
        row = data.terrain_elements[e]
        if row.max_per_player is not None and selection.count(e) > row.max_per_player:
            raise terrain.DataError(f"{who}: at most {row.max_per_player} × {e} ({row.ref})")


def roll_for_setup(roller: _Roller) -> tuple[str, list[dict]]:
    """Both players roll a d6; the higher places the terrain; ties roll again (OR-GF27)."""
    rolls = []
    while True:
        a, b = roller.d(6), roller.d(6)
        rolls.append({"A": a, "B": b})
        if a != b:
            return ("A" if a > b else "B"), rolls


# --- shapes ------------------------------------------------------------------------------------

def _blob(roller: _Roller, cx: float, cy: float, rx: float, ry: float) -> Polygon:
    """An irregular rounded area: a circle scaled and turned by Shapely, rounded to 0.5 cm."""
    shape = affinity.scale(Point(cx, cy).buffer(1.0, quad_segs=3), rx, ry)
    shape = affinity.rotate(shape, roller.uniform(0, 180, 36), origin=(cx, cy))
    return _round(shape)


def _round(geom):
    return shapely.set_precision(geom, 0.5)


AREA_SIZES = {  # radii (cm) drawn for each area kind
    "hameau": (4, 8), "grande_construction": (8, 13), "colline_abrupte": (10, 16),
    "colline_basse": (10, 18), "bois": (9, 16), "jungle": (9, 16), "marais": (8, 13),
    "marecage": (8, 13), "bournier": (7, 11), "terrain_irregulier": (8, 14), "broussailles": (8, 14),
    "champ": (8, 13),
}


def _free(geom, placed, outline, gap=GAP_CM) -> bool:
    if not outline.contains(geom):
        return False
    return all(geom.distance(p) >= gap for p in placed)


def _area(roller, kind_id, placed, outline, max_area=None):
    lo, hi = AREA_SIZES.get(kind_id, (8, 14))
    if max_area is not None:  # small enough to count as one element (l.479)
        hi = min(hi, math.sqrt(max_area / math.pi) * 0.95)
        lo = min(lo, hi)
    for _ in range(TRIES):
        rx, ry = roller.uniform(lo, hi, 12), roller.uniform(lo, hi, 12)
        cx = roller.uniform(rx + 2, outline.bounds[2] - rx - 2, 160)
        cy = roller.uniform(ry + 2, outline.bounds[3] - ry - 2, 100)
        shape = _blob(roller, cx, cy, rx, ry) if kind_id not in ("hameau", "grande_construction", "champ") \
            else _round(affinity.rotate(box(cx - rx, cy - ry, cx + rx, cy + ry), roller.uniform(-20, 20, 8), origin=(cx, cy)))
        # a large building keeps room for the road that joins it to an edge (l.479)
        room = outline.exterior.distance(shape) >= GAP_CM if kind_id == "grande_construction" else True
        if shape.is_valid and room and _free(shape, placed, outline) and (max_area is None or shape.area <= max_area):
            return shape
    return None


def _edge_point_towards(geom, outline) -> tuple[Point, Point]:
    """The nearest point of the table's edge to ``geom``, and ``geom``'s point nearest to it."""
    edge, near = nearest_points(outline.exterior, geom)
    return edge, near


BUILDINGS = ("hameau", "grande_construction", "falaise")


def _line_ok(line, elements, outline, element, allowed=()) -> bool:
    """A line stays on the table, off buildings (roads and streams may cross other areas; a hedge
    crosses none), and 2 cm from the other lines."""
    if not outline.covers(line):
        return False
    for e in elements:
        if any(e.geometry.equals(a) for a in allowed):
            continue
        shape = terrain.kind(e.kind).shape
        if shape == terrain.LINE:
            if line.distance(e.geometry) < 2 and not (element == "route" and e.kind == "ruisseau"):
                return False
        elif e.kind in BUILDINGS or element in ("haies", "haies_doubles"):
            if line.intersects(e.geometry):
                return False
    return True


# --- the procedure -----------------------------------------------------------------------------

def generate(dice, selections: dict[str, list[str]] | None = None, *, name: str = "Random battlefield",
             name_fr: str = "Champ de bataille aléatoire") -> Generated:
    """A random table by the seed's procedure (module docstring). ``selections`` gives each side's
    chosen elements (``{"A": [...], "B": [...]}``, ids of prebattle.toml); missing ones are drawn."""
    roller = _Roller(dice)
    t = terrain.table()
    outline = box(0, 0, t.width_cm, t.height_cm)
    tc = prebattle.data().terrain_choice
    explanation, citations = [], [tc.ref, REF_RULES]
    chosen = {}
    for side in SIDES:
        if selections and side in selections:
            check_selection(list(selections[side]), f"side {side}")
            chosen[side] = list(selections[side])
            explanation.append(f"side {side} selects {len(chosen[side])} element(s): {', '.join(chosen[side]) or 'none'}")
        else:
            chosen[side] = random_selection(roller)
            explanation.append(f"side {side} selects (at random) {len(chosen[side])} element(s): "
                               f"{', '.join(chosen[side]) or 'none'}")
    placer, rolls = roll_for_setup(roller)
    for r in rolls:
        explanation.append(f"set-up dice: A rolls {r['A']}, B rolls {r['B']}" + (" — a tie, roll again (OR-GF27)" if r["A"] == r["B"] else ""))
    other = "B" if placer == "A" else "A"
    explanation.append(f"side {placer} places the terrain; side {other} chooses its edge ({REF_CHOICE})")

    kinds_of = element_kinds()
    elements: list[TerrainElement] = []
    areas: list[Polygon] = []
    left_out: list[str] = []
    counts = {s: 0 for s in SIDES}
    n = 0

    def add(kind_id, geom, owner):
        nonlocal n
        n += 1
        k = terrain.kind(kind_id)
        elements.append(TerrainElement(f"{kind_id}-{n}", kind_id, f"{k.name_en} {n}", geom, f"{k.name_fr} {n}"))
        if k.shape == terrain.AREA:
            areas.append(geom)

    # areas first (so that lines can reach them), then the linear elements
    order = sorted(((s, e) for s in SIDES for e in chosen[s]),
                   key=lambda se: (prebattle.data().terrain_elements[se[1]].max_length_cm is not None, se[0]))
    for i, (side, element) in enumerate(order):
        still = sum(1 for s2, _ in order[i + 1:] if s2 == side)
        room = tc.elements_max - counts[side] - still   # what this element may count
        options = kinds_of[element]
        kind_id = roller.pick([k for k in options if terrain.kind(k).shape == terrain.AREA] or options)
        if element in ("haies", "haies_doubles", "riviere", "route"):
            kind_id = {"haies": "haie", "haies_doubles": "haie_double", "riviere": "ruisseau", "route": "route"}[element]
            geom = _linear(roller, element, kind_id, elements, areas, outline)
            if geom is None:
                left_out.append(f"{side}:{element}")
                explanation.append(f"no room for side {side}'s {element}: left out (OR-GF27)")
                continue
            add(kind_id, geom, side)
            counts[side] += 1
            explanation.append(f"side {side}'s {element} placed as {kind_id} ({geom.length:.0f} cm)")
            continue
        geom = _area(roller, kind_id, areas, outline,
                     None if room >= tc.large_element_counts_as else tc.large_element_side_cm ** 2)
        if geom is None:
            left_out.append(f"{side}:{element}")
            explanation.append(f"no room for side {side}'s {element}: left out (OR-GF27)")
            continue
        add(kind_id, geom, side)
        large = geom.area > tc.large_element_side_cm ** 2
        counts[side] += tc.large_element_counts_as if large else 1
        explanation.append(f"side {side}'s {element} placed as {kind_id} ({geom.area:.0f} cm²"
                           + (f", larger than a {tc.large_element_side_cm} cm square: counts as {tc.large_element_counts_as})" if large else ")"))
        if element == "champ_cloture":
            fence = _enclosure(roller, geom)
            add(fence[0], fence[1], side)
            explanation.append(f"the field is enclosed by a {fence[0]} with a {ENTRANCE_CM} cm entrance (l.477)")
        if element == "grande_construction":
            road = _road_to_edge(geom, outline, areas)
            if road is not None:
                add("route", road, side)
                explanation.append(f"a road of {road.length:.0f} cm joins the building to the table's edge (l.479)")
    # a road crossing a stream gets a bridge (l.479: the placer may install one)
    for road in [e for e in elements if e.kind == "route"]:
        for stream in [e for e in elements if e.kind == "ruisseau"]:
            cross = road.geometry.intersection(stream.geometry)
            for pt in getattr(cross, "geoms", [cross]):
                if isinstance(pt, Point) and not pt.is_empty:
                    add("pont", _round(pt.buffer(3.5, cap_style="square").intersection(outline)), placer)
                    explanation.append(f"a bridge where {road.name} crosses {stream.name} (l.479)")
    for side in SIDES:
        explanation.append(f"side {side}'s elements count {counts[side]} of {tc.elements_max} "
                           f"(one larger than a {tc.large_element_side_cm} cm square counts {tc.large_element_counts_as})")
    bf = Battlefield(t.width_cm, t.height_cm, tuple(elements), name, name_fr)
    edge = roller.pick(["bottom", "top"])
    explanation.append(f"side {other} chooses the {edge} edge")
    if (other == "A") != (edge == "bottom"):
        bf = _turned(bf)
        explanation.append("the table is turned round so that side A's edge is y = 120 (the convention)")
    return Generated(bf, chosen, rolls, placer, edge, explanation, citations, left_out)


def _turned(bf: Battlefield) -> Battlefield:
    centre = (bf.width / 2, bf.height / 2)
    els = tuple(TerrainElement(e.id, e.kind, e.name, _round(affinity.rotate(e.geometry, 180, origin=centre)), e.name_fr)
                for e in bf.elements)
    return Battlefield(bf.width, bf.height, els, bf.name, bf.name_fr)


def _enclosure(roller, field_geom) -> tuple[str, LineString]:
    kind_id = roller.pick(["haie", "mur_bas", "cloture"])
    ring = LineString(field_geom.exterior.coords)
    # the entrance lies on the longest side, so that it is a straight opening
    coords = list(ring.coords)
    sides = [(LineString([coords[i], coords[i + 1]]).length, i) for i in range(len(coords) - 1)]
    longest, i = max(sides)
    before = sum(length for length, j in sides if j < i)
    start = before + roller.uniform(0, max(0.0, longest - ENTRANCE_CM), 20)
    # the ring from the entrance's far end all the way round to its near end
    line = substring(ring, start + ENTRANCE_CM, ring.length) if start + ENTRANCE_CM < ring.length else None
    head = substring(ring, 0, start) if start > 0 else None
    coords = list(line.coords) if line is not None else []
    if head is not None and head.length > 0:
        coords += list(head.coords)[1:]
    return kind_id, LineString(coords)


def _road_to_edge(geom, outline, areas):
    edge, near = _edge_point_towards(geom, outline)
    road = LineString([edge, near])
    limit = prebattle.data().terrain_elements["route"].max_length_cm
    if road.length == 0 or road.length > limit:
        return None
    return _round(road)


def _linear(roller, element, kind_id, elements, areas, outline):
    limit = prebattle.data().terrain_elements[element].max_length_cm
    W, H = outline.bounds[2], outline.bounds[3]
    for _ in range(TRIES):
        if element == "route":
            targets = [e.geometry for e in elements if e.kind in ("hameau", "grande_construction", "champ")]
            if targets and roller.d(2) == 1:
                goal = roller.pick(targets)
                edge, near = _edge_point_towards(goal, outline)
                line = LineString([edge, near])
            else:  # from edge to edge, across the table's depth, bending once
                x0 = roller.uniform(15, W - 15, 150)
                x1 = x0 + roller.uniform(-12, 12, 24)
                xm = x0 + roller.uniform(-10, 10, 20)
                line = LineString([(x0, 0), (xm, H / 2), (x1, H)])
            if line.length > limit:
                continue
            allowed = targets
        elif element == "riviere":
            marshes = [e.geometry for e in elements if e.kind in ("marais", "marecage", "bournier")]
            if marshes and roller.d(2) == 1:
                goal = roller.pick(marshes)
                edge, near = _edge_point_towards(goal, outline)
                mid = LineString([edge, near]).interpolate(0.5, normalized=True)
                line = LineString([edge, (mid.x + roller.uniform(-5, 5, 10), mid.y + roller.uniform(-5, 5, 10)), near])
                allowed = [goal]
            else:  # across a corner: from one edge to the adjacent one
                corner = roller.pick([(0, 0), (W, 0), (W, H), (0, H)])
                a = roller.uniform(15, limit / 1.6, 40)
                b = roller.uniform(15, limit / 1.6, 40)
                p = (abs(corner[0] - a), corner[1])
                q = (corner[0], abs(corner[1] - b))
                m = ((p[0] + q[0]) / 2 + (W / 2 - corner[0]) * 0.05, (p[1] + q[1]) / 2 + (H / 2 - corner[1]) * 0.05)
                line = LineString([p, m, q])
                allowed = []
            if line.length > limit:
                continue
        else:  # a hedge or a double hedge, anywhere, straight or bent once
            length = roller.uniform(15, limit, 45)
            cx, cy = roller.uniform(20, W - 20, 140), roller.uniform(20, H - 20, 80)
            ang = roller.uniform(0, 180, 36)
            bend = roller.uniform(-30, 30, 6)
            half = length / 2
            d1 = (math.cos(math.radians(ang)), math.sin(math.radians(ang)))
            d2 = (math.cos(math.radians(ang + bend)), math.sin(math.radians(ang + bend)))
            line = LineString([(cx - d1[0] * half, cy - d1[1] * half), (cx, cy), (cx + d2[0] * half, cy + d2[1] * half)])
            allowed = []
        line = _round(line)
        if line.is_empty or line.length == 0 or line.length > limit + 0.5:
            continue
        if _line_ok(line, elements, outline, element, allowed):
            return line
    return None
