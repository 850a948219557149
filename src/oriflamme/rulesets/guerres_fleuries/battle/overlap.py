"""Overlapping units (GF Les combats > Chevauchement d'unité, seed 003 l.967-969): "Si le combat se
poursuit plus d'un tour, les figurines qui ne sont pas engagées faute de place peuvent se positionner sur
le flanc de l'ennemi si le terrain l'autorise. Elles ne reçoivent pas de bonus d'attaque sur le flanc. Le
défenseur n'est pas en désordre et ne teste pas son moral. Si l'attaquant remporte le combat il ne
poursuit pas et reprend sa formation initiale. Il n'est pas en désordre. Le chevauchement d'unité
concerne les unités déployées."

Oriflamme's reading (OR-GF118): a troop unit in line ("déployée") whose front faces an enemy troop unit
it already fought in an earlier turn counts, on each side, the front-rank files beyond the enemy's front
("pas engagées faute de place") and places as many of them on that flank as the enemy's depth holds (one
figure per base width along the flank); they strike with the rest, without the flank modifier, and the
defender is neither disordered nor tested for it. The figures are not moved on the table (the unit keeps
its formation, which it "reprend" after the combat); the terrain on the flank is not read. When the
overlapping unit wins, it does not pursue."""

from __future__ import annotations

from shapely.geometry import LineString

from oriflamme.geometry import tabletop

from .fighters import arc, depth, pose, shape, tolerance, width

REF = "GF seed 003 l.967-969"
DECISION = "OR-GF118"
MARKER = "overlapping"


_FOUGHT: dict = {}


def _first_fights(log) -> dict:
    """{frozenset of two unit ids: the first turn they fought each other}, indexed once per log and length."""
    hit = _FOUGHT.get(id(log))
    if hit is not None and hit[0] is log and hit[1] == len(log):
        return hit[2]
    start, seen = (hit[1], dict(hit[2])) if hit is not None and hit[0] is log and hit[1] < len(log) else (0, {})
    for e in log[start:]:
        if e.get("type") == "melee" and e.get("unit") and e.get("target"):
            key = frozenset((e["unit"], e["target"]))
            seen[key] = min(seen.get(key, e.get("turn", 0)), e.get("turn", 0))
    if len(_FOUGHT) > 256:
        _FOUGHT.clear()
    _FOUGHT[id(log)] = (log, len(log), seen)
    return seen


def fought_before(state, a, b) -> bool:
    """Whether ``a`` and ``b`` fought each other in an earlier turn (the combat "se poursuit")."""
    first = _first_fights(getattr(state, "log", []) or []).get(frozenset((a.id, b.id)))
    return first is not None and first < getattr(state, "turn", 0)


def front_slots(a, b) -> list[bool]:
    """For each front-rank file of ``a``, left to right: whether its base touches ``b`` (OR-GF21's slack)."""
    c = tabletop.corners(pose(a), width(a), depth(a))
    (x0, y0), (x1, y1) = c[0], c[1]
    slots = max(1, min(a.frontage, a.figures))
    near = shape(b).buffer(tolerance())
    out = []
    for i in range(slots):
        f0, f1 = i / slots, (i + 1) / slots
        base = LineString([(x0 + (x1 - x0) * f0, y0 + (y1 - y0) * f0), (x0 + (x1 - x0) * f1, y0 + (y1 - y0) * f1)])
        out.append(base.intersection(near).length > tolerance() + 1e-9)
    return out


def extra_figures(state, a, b) -> tuple[int, str | None]:
    """The figures of ``a`` overlapping onto ``b``'s flanks this turn, and the explanation step."""
    if a.kind != "troop" or b.kind != "troop" or a.formation != "line" or arc(a, b) != "front":
        return 0, None
    if not fought_before(state, a, b):
        return 0, None
    slots = front_slots(a, b)
    if not any(slots):
        return 0, None
    first = slots.index(True)
    last = len(slots) - 1 - slots[::-1].index(True)
    left, right = first, len(slots) - 1 - last
    per_flank = max(1, int(depth(b) // a.base_w + 1e-9))
    extra = min(left, per_flank) + min(right, per_flank)
    if not extra:
        return 0, None
    return extra, (f"the combat goes on: {extra} figure(s) of {a.name or a.id} not engaged for lack of room "
                   f"overlap onto {b.name or b.id}'s flanks (no flank bonus) ({REF}, {DECISION})")
