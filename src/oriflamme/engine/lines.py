"""Lines of fire and cover on the map (Magna Carta §5.5). Where the cover is computed.

The line joins the centres of the shooter's and the target's hexes (§5.5.1); along a hexside
it has two sides (:func:`oriflamme.hexes.lines_of_fire`) and the shooter uses the better one.

Implemented: trees and buildings block (§5.5.2.2, §8.2.3); walls on hexsides block; brush
crossed gives light cover (§5.5.2.1); the target's own terrain cover (§3.1); a low wall or
fence on the hexside the line crosses into the target's hex gives its cover (§5.5.6, last
paragraph); water gives no cover to a target shot from an adjacent hex (the shooter "at the
water's edge", §3.1, §5.5.2.4); a target on a slope hex has medium cover when the shooter stands
lower than the slope's crest (§5.5.2.3, simplified); live characters block by weapon (§5.5.3)
except those in water (§5.5.3.1).
Not yet: the full slope rule with its "as far from the crest" condition, combined covers (§5.5.5),
higher-level neutralisation (§5.5.6), riders' two hexes (D9) — see docs/rules-coverage.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..hexes import Hex, lines_of_fire
from ..rulesdata import COVER_ORDER
from .character import Character
from .state import GameState


@dataclass
class LineOfFire:
    clear: bool
    cover: str = "none"
    hexes: tuple[Hex, ...] = ()
    reason: str = ""
    ref: str = ""
    notes: list[tuple[str, str]] = field(default_factory=list)


def _stronger(a: str, b: str) -> str:
    return a if COVER_ORDER.index(a) >= COVER_ORDER.index(b) else b


#: the hex sequences between two centres depend on the two hexes only (tuples: shared safely)
_lines_between = lru_cache(maxsize=65536)(lines_of_fire)


def _one_line(state: GameState, shooter: Character, target: Character, line: tuple[Hex, ...], band: str | None,
              occ: dict[Hex, list[Character]], t_hex: Hex) -> LineOfFire:
    rs = state.rules
    m = state.gmap
    weapon = rs.weapons[shooter.weapon] if shooter.weapon else None
    notes: list[tuple[str, str]] = []
    cover = "none"
    t_terrain = rs.terrain[m.terrain(t_hex)]

    terrains, terrain_id, hexside = rs.terrain, m.terrain, m.hexside

    def terrain_at(h):  # a line grazing the map edge along a hexside: off-map is open ground
        return terrains[terrain_id(h) if h in m else "clear"]
    # hexside walls anywhere along the line
    for a, b in zip(line, line[1:]):
        hs = hexside(a, b)
        if hs and rs.hexsides[hs].blocks_los:
            return LineOfFire(False, reason=f"a {rs.hexsides[hs].names[0].lower()} between {a.label} and {b.label} blocks the line",
                              ref=rs.hexsides[hs].ref, hexes=line)
    blockers = []
    for h in line[1:-1]:
        t = terrain_at(h)
        if t.blocks_los:
            return LineOfFire(False, reason=f"{t.names[0]} in {h.label} blocks the line of fire", ref=t.ref, hexes=line)
        if t.cover_along_line:
            if COVER_ORDER.index(t.cover_along_line) > COVER_ORDER.index(cover):
                notes.append((f"the line crosses {t.names[0].lower()} in {h.label}: {t.cover_along_line} cover", t.ref))
            cover = _stronger(cover, t.cover_along_line)
        for o in occ.get(h, ()):
            if o is target or o is shooter:
                continue  # a rider's other hex
            if o.status == "stunned":
                continue  # §5.5.3: stunned characters do not block
            if t.water:
                notes.append((f"{o.name} in water ({h.label}) does not block", "MC §5.5.3.1"))
                continue
            blockers.append((o, h))
    # the target's own hex
    own = t_terrain.cover
    if t_terrain.water and shooter.hex.distance(t_hex) == 1:
        own = "none"
        notes.append(("target in water shot from the water's edge: no cover", "MC §3.1, §5.5.2.4"))
    elif t_terrain.cover_over_crest:
        crest = max([m.elevation(n) for n in t_hex.neighbours() if n in m] + [m.elevation(t_hex)])
        if m.elevation(shooter.hex) < crest:
            own = _stronger(own, t_terrain.cover_over_crest)
            notes.append((f"target on a slope, shot from below the crest: {t_terrain.cover_over_crest} cover", t_terrain.ref))
    if own != "none":
        notes.append((f"target in {t_terrain.names[0].lower()} ({t_hex.label}): {own} cover", t_terrain.ref))
    cover = _stronger(cover, own)
    if len(line) >= 2:
        hs = m.hexside(line[-2], line[-1])
        if hs:
            f = rs.hexsides[hs]
            notes.append((f"the line crosses the {f.names[0].lower()} in front of the target: {f.cover} cover", f.ref + "; MC §5.5.6"))
            cover = _stronger(cover, f.cover)
    if blockers and weapon is not None:
        o, h = blockers[0]
        if not weapon.over_characters:
            return LineOfFire(False, reason=f"{o.name} in {h.label} blocks the line of fire of a {weapon.names[0].lower()}",
                              ref="MC §5.5.3", hexes=line)
        if band == "short":
            return LineOfFire(False, reason=f"firing over {o.name} needs a target at medium or long range", ref="MC §5.5.3", hexes=line)
        if COVER_ORDER.index(cover) > COVER_ORDER.index("light"):
            return LineOfFire(False, reason=f"firing over {o.name} needs a target with light cover at most", ref="MC §5.5.3", hexes=line)
        for n in t_hex.neighbours():
            if any(x.side == shooter.side for x in occ.get(n, ())):
                return LineOfFire(False, reason="firing over characters is impossible at a target in contact with the shooter's side",
                                  ref="MC §5.5.3", hexes=line)
        notes.append((f"firing over {len(blockers)} character(s) at {band} range", "MC §5.5.3"))
    return LineOfFire(True, cover=cover, hexes=line, notes=notes)


def line_of_fire(state: GameState, shooter: Character, target: Character, band: str | None,
                 occ: dict[Hex, list[Character]] | None = None, *, target_hex: Hex | None = None) -> LineOfFire:
    """The line between two characters with the cover the target gets; along a hexside the
    better of the two sides for the shooter (docs/decisions.md). ``occ``: the live characters
    by hex (``state.occupants()``), when the caller already has it. ``target_hex``: the hex
    aimed at (either hex of a rider, SEED-NOTES D9); his front hex by default."""
    if occ is None:
        occ = state.occupants()
    t_hex = target_hex or target.hex
    variants = [_one_line(state, shooter, target, ln, band, occ, t_hex) for ln in _lines_between(shooter.hex, t_hex)]
    clear = [v for v in variants if v.clear]
    if not clear:
        return variants[0]
    best = min(clear, key=lambda v: COVER_ORDER.index(v.cover))
    if len(variants) > 1:
        best.notes.insert(0, ("the line runs along a hexside: the shooter uses the more favourable side",
                              "docs/decisions.md (hexside lines)"))
    return best
