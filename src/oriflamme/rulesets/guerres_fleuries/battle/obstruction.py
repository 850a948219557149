"""What stands in a unit's way, as the computer players read it (not a rule): a standing building
across its path straight ahead, within two normal moves.

A unit goes into a building only by breaking its formation (l.788, OR-GF88) and may not end a move
in one it was not already in, so a unit with a building across its front cannot advance until it
wheels and goes round. The evaluation's straight-line readings (threats, charges, orders) do not see
that: the *blocked* term (``data/ai_evaluation.toml``) counts such a unit's points, more as the
building stands nearer. The battle-of-the-flowers table puts Xochitl hamlet a dozen centimetres in
front of side B's deployment line (docs/guerres-fleuries/ai.md, seventh session).
"""

from __future__ import annotations

from oriflamme.geometry import tabletop as tt

from . import buildings_play, odds
from .state import Battle, Unit

_GAP: dict = {}
_GAP_LIMIT = 200_000
#: how far ahead a building is read as in the way, in normal moves (a unit further back is still
#: blocked: it must go round before it can close in)
AHEAD_MOVES = 2.0


def normal_move(u: Unit) -> float:
    """The unit's normal move (data/movement.toml, the normal column; 0 for a mover without one:
    nothing is read as blocked)."""
    return odds.move_of(u, "normal", 0.0)


def blocked_share(state: Battle, u: Unit, at: tuple[float, float] | None = None) -> float:
    """1 when a standing building touches the unit's front, falling to 0 as it stands two normal
    moves ahead (or is not across the path). Characters (they stand in open order and pass round),
    flyers, units not in good order and units in or behind a building read 0. ``at``: read it as if
    the unit stood at that (x, y), its heading kept (a deployment place)."""
    if (u.kind == "character" or u.altitude is not None or u.status != "ok" or u.inside_points
            or u.split or u.behind):
        return 0.0
    move = normal_move(u) * AHEAD_MOVES
    if move <= 0:
        return 0.0
    worst = 0.0
    for el in buildings_play.elements(state):
        if not buildings_play.standing(state, el.id):
            continue
        x, y = at if at is not None else (u.x, u.y)
        gap = _gap_ahead(el, round(x, 1), round(y, 1), round(u.heading, 1), u.width, u.depth, move)
        if gap is not None:
            worst = max(worst, 1.0 - gap / move)
    return worst


def _gap_ahead(el, x: float, y: float, heading: float, width: float, depth: float, move: float) -> float | None:
    """The gap (cm) between the unit's front and the part of building ``el`` in the corridor ``move``
    deep straight ahead of it, or None when the building is not across the corridor.
    Cached: a search asks the same positions thousands of times."""
    key = (el.id, el.geometry.bounds, x, y, heading, width, depth, move)
    if key in _GAP:
        return _GAP[key]
    pose = tt.Pose(float(x), float(y), float(heading))
    corridor = tt.footprint(tt.moved(pose, depth / 2.0 + move / 2.0, 0.0), width, move)
    part = corridor.intersection(el.geometry)
    gap = None
    if part.area > 0.01:
        gap = min(move, tt.nearest_distance(tt.footprint(pose, width, depth), part))
    if len(_GAP) >= _GAP_LIMIT:
        _GAP.clear()
    _GAP[key] = gap
    return gap
