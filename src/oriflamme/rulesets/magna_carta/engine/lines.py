"""Lines of fire and cover on the map (Magna Carta §5.5). Where the cover is computed.

The line joins the centres of the shooter's and the target's hexes (§5.5.1); along a hexside
it has two sides (:func:`oriflamme.geometry.hexgrid.lines_of_fire`) and the shooter uses the better one.
Every decision appends a ``(text, ref)`` note to the :class:`LineOfFire` (ruling steps).

Implemented:

* terrain crossed: trees and buildings block (§5.5.2.2, §8.2.3), walls on hexsides block,
  brush gives light cover (§5.5.2.1); the target's own terrain cover (§3.1);
* slopes (§5.5.2.3): the *top of a slope* is the hexside between a slope hex and higher
  ground (docs/formats.md). A line crossing it is possible only if the character below is at
  least as far from that slope hex as the character above, or stands on the slope hex itself
  (half-way up); a target on a slope has medium cover when the line crosses the top of the
  slope. A line crossing the top of a slope with the character on the high side standing
  lower than the top is hidden by the height (docs/decisions.md);
* water (§5.5.2.4): light cover (the small-target cover of §5.5.5), none when the shooter
  stands on the bank of the target's water or on a bridge over it (not from a beach); a line
  crossing a bridge adds its cover (wooden: medium in all, stone with parapet: total); a
  character in a river or pond cannot fire (engine/fire.py);
* firing over characters (§5.5.3) with the exceptions of §5.5.3.1: characters in water,
  friends next to a mounted archer, the front line of a formation, characters below a crest
  out of the sight of a shooter on the height;
* combined cover (§5.5.5): a small target (in water, stunned) combines its light cover with
  the other cover by the table (light + light = medium, light + medium or more = total);
* fire from a higher level (§5.5.6) cancels the cover of water, brush, marsh and slope targets
  at close range; hexside features give their cover to the hex just behind them only.

Riders (D9, §5.5.4): ``shooter_hex``/``target_hex`` choose which hex of a rider the line
joins; the strongest cover of the rider's two hexes is the caller's business (the lead's).
Camels (§4.6.6): a kneeling camel gives medium cover, a litter camel heavy cover, to a target
just behind it; a passenger in a litter has light cover (:func:`oriflamme.rulesets.magna_carta.engine.kneeling.camel_cover`).
Not yet: kneeling characters and small animals (no such state), sea and boats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ....geometry.hexgrid import DIRECTIONS, Hex, lines_of_fire
from ..rulesdata import COVER_ORDER
from .character import Character
from .state import GameState
from .animals import camel_cover


@dataclass
class LineOfFire:
    clear: bool
    cover: str = "none"
    hexes: tuple[Hex, ...] = ()
    reason: str = ""
    ref: str = ""
    notes: list[tuple[str, str]] = field(default_factory=list)


_RANK = {c: i for i, c in enumerate(COVER_ORDER)}


def _stronger(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


def combine(rules, a: str, b: str) -> str:
    """§5.5.5 combination of two covers: light + light, light + medium or more."""
    if a == "none":
        return b
    if b == "none":
        return a
    if a == "light" and b == "light":
        return rules.combine_light_light
    return _stronger(rules.combine_light_stronger, _stronger(a, b))


#: the hex sequences between two centres depend on the two hexes only (tuples: shared safely)
_lines_between = lru_cache(maxsize=65536)(lines_of_fire)


def _hexes_of(c: Character) -> tuple[Hex, ...]:
    """The hexes a character occupies: a rider's two once ``Character.hexes`` exists (D9)."""
    hexes = getattr(c, "hexes", None)
    if hexes is not None:
        return tuple(hexes)
    return (c.hex,) if c.hex is not None else ()


def _elev(m, h: Hex) -> int:
    return m.elevation(h) if h in m else 0


def _water_banks(state: GameState) -> dict[Hex, frozenset[Hex]]:
    """For each water hex, the hexes on the bank of its body of water (connected water hexes)."""
    m, terrains = state.gmap, state.rules.terrain

    def build():
        water = {h for h in m.hexes if terrains[m.terrain(h)].water}
        banks: dict[Hex, frozenset[Hex]] = {}
        seen: set[Hex] = set()
        for start in water:
            if start in seen:
                continue
            body, todo = {start}, [start]
            while todo:
                h = todo.pop()
                for n in h.neighbours():
                    if n in water and n not in body:
                        body.add(n)
                        todo.append(n)
            seen |= body
            bank = frozenset(n for h in body for n in h.neighbours() if n in m and n not in water)
            for h in body:
                banks[h] = bank
        return banks
    return m.memo(("lines.banks", id(terrains)), build)


def _crests(state: GameState) -> tuple[frozenset[Hex], dict[tuple[Hex, Hex], tuple[Hex, Hex, int]]]:
    """The map's slope hexes that have a top, and for each ordered pair of hexes across the top
    of a slope ``(slope hex, higher hex, level of the top)`` (docs/formats.md: a slope hex
    carries the level of its foot; its top is the side it shares with higher ground)."""
    m, terrains = state.gmap, state.rules.terrain

    def build():
        pairs: dict[tuple[Hex, Hex], tuple[Hex, Hex, int]] = {}
        for h in m.hexes:
            if not terrains[m.terrain(h)].cover_over_crest:
                continue
            e = m.elevation(h)
            for n in h.neighbours():
                if n in m and m.elevation(n) > e:
                    pairs[(h, n)] = pairs[(n, h)] = (h, n, m.elevation(n))
        return frozenset(v[0] for v in pairs.values()), pairs
    return m.memo(("lines.crests", id(terrains)), build)


def _crossings(crests, line: tuple[Hex, ...]) -> list[tuple[int, Hex, Hex, int, bool]]:
    """Where the line crosses the top of a slope (§5.5.2.3): ``(index of the slope hex, slope
    hex, hex of the higher ground, level of the top, True if the higher ground lies toward the
    target)``. ``crests``: :func:`_crests` of the map."""
    slopes, pairs = crests
    if slopes.isdisjoint(line):
        return []
    out = []
    for i in range(len(line) - 1):
        c = pairs.get((line[i], line[i + 1]))
        if c is not None:
            s, u, top = c
            out.append((i, s, u, top, True) if s == line[i] else (i + 1, s, u, top, False))
    return out


@dataclass
class _Shot:
    """What one shot's lines share: who, where, the weapon and the target's situation."""
    shooter: Character
    target: Character
    s_hex: Hex
    t_hex: Hex
    band: str | None
    occ: dict
    crests: tuple = (frozenset(), {})     # _crests(state)
    front: frozenset[Hex] | None = None  # the formation's front line fired over, once known


def _one_line(state: GameState, shot: _Shot, line: tuple[Hex, ...]) -> LineOfFire:
    rs = state.rules
    lr = rs.lines
    m = state.gmap
    shooter, target, s_hex, t_hex = shot.shooter, shot.target, shot.s_hex, shot.t_hex
    weapon = rs.weapons[shooter.weapon] if shooter.weapon else None
    notes: list[tuple[str, str]] = []
    terrains, terrain_id, hexside = rs.terrain, m.terrain, m.hexside
    t_terrain = terrains[terrain_id(t_hex)]

    def terrain_at(h):  # a line grazing the map edge along a hexside: off-map is open ground
        return terrains[terrain_id(h) if h in m else "clear"]

    def blocked(reason, ref):
        return LineOfFire(False, reason=reason, ref=ref, hexes=line, notes=notes)

    # hexside walls anywhere along the line
    for a, b in zip(line, line[1:]):
        hs = hexside(a, b)
        if hs and rs.hexsides[hs].blocks_los:
            return blocked(f"a {rs.hexsides[hs].names[0].lower()} between {a.label} and {b.label} blocks the line",
                           rs.hexsides[hs].ref)

    # --- slopes (§5.5.2.3) ---------------------------------------------------------------
    slope_cover = False
    slope_top = None  # the level of the top of the slope the line crosses toward the target
    hidden: set[Hex] = set()  # below a crest, out of the sight of the shooter on the height
    for i, s, u, top, high_at_target in _crossings(shot.crests, line):
        high_c, high_h, low_c, low_h = ((target, t_hex, shooter, s_hex) if high_at_target
                                        else (shooter, s_hex, target, t_hex))
        if _elev(m, high_h) < top:
            if _elev(m, low_h) < top:
                return blocked(f"the line crosses the top of the slope {s.label}: the height in {u.label} "
                               f"hides {high_c.name} ({high_h.label}) from {low_c.name}", "MC §5.5.2.3")
            continue  # the line climbs a height from above it: judged where it comes down
        if _elev(m, low_h) >= top:
            continue  # both on the heights: the slope between them hides nobody
        if low_h == s:
            notes.append((f"{low_c.name} stands on the slope {s.label}, half-way up: "
                          f"{high_c.name} and {low_c.name} see each other", "MC §5.5.2.3"))
        elif low_h.distance(s) >= high_h.distance(s):
            notes.append((f"the line crosses the top of the slope {s.label}: {low_c.name} is at least as far "
                          f"from it ({low_h.distance(s)}) as {high_c.name} ({high_h.distance(s)})", "MC §5.5.2.3"))
        else:
            return blocked(f"{low_c.name} ({low_h.label}) is closer to the slope {s.label} than {high_c.name} "
                           f"({high_h.label}) above: they cannot see each other", "MC §5.5.2.3")
        if not high_at_target:
            slope_cover = True
            slope_top = top if slope_top is None else max(slope_top, top)
            d0 = s_hex.distance(s)
            hidden.update(h for h in line[i + 1:-1] if h != s and h.distance(s) < d0 and _elev(m, h) < top)

    # --- terrain crossed -------------------------------------------------------------------
    other = "none"      # the strongest cover that is not the small-target cover
    blockers = []
    for h in line[1:-1]:
        t = terrain_at(h)
        if t.blocks_los:
            if t.seen_over_from_above and max(_elev(m, s_hex), _elev(m, t_hex)) > _elev(m, h):
                # a cart blocks only the characters on its own level (§4.5.1)
                notes.append((f"{t.names[0].lower()} in {h.label} is seen over from the higher level", t.ref))
            else:
                return blocked(f"{t.names[0]} in {h.label} blocks the line of fire", t.ref)
        if t.cover_along_line:
            if _RANK[t.cover_along_line] > _RANK[other]:
                notes.append((f"the line crosses {t.names[0].lower()} in {h.label}: {t.cover_along_line} cover", t.ref))
            other = _stronger(other, t.cover_along_line)
        if t.water_cover_along_line and t_terrain.water:
            notes.append((f"the line crosses {t.names[0].lower()} in {h.label}: {t.water_cover_along_line} cover "
                          f"for a target in water", t.ref))
            other = _stronger(other, t.water_cover_along_line)
        for o in shot.occ.get(h, ()):
            if o is target or o is shooter:
                continue  # a rider's other hex
            if o.status == "stunned":
                continue  # §5.5.3: stunned characters do not block
            if t.water:
                notes.append((f"{o.name} in water ({h.label}) does not block", "MC §5.5.3.1"))
                continue
            if h in hidden:
                notes.append((f"{o.name} ({h.label}) is below the top of the slope, out of the shooter's sight: "
                              f"fired over freely", "MC §5.5.3.1"))
                continue
            blockers.append((o, h))

    # --- the target's own hex ----------------------------------------------------------------
    small = "none"      # §5.5.5 small target: in water, stunned
    own = t_terrain.cover
    own_name = t_terrain.names[0].lower()
    if t_terrain.cover_over_crest:
        if slope_cover:
            own = _stronger(own, t_terrain.cover_over_crest)
            notes.append((f"target on a slope, the line crosses the top of the slope: {t_terrain.cover_over_crest} cover",
                          "MC §5.5.2.3"))
        else:
            notes.append(("target on a slope, the line does not cross the top of the slope: no cover from it",
                          "MC §5.5.2.3"))
    if t_terrain.water and own != "none":
        s_terrain = terrain_at(s_hex)
        if s_hex in _water_banks(state).get(t_hex, ()) and not s_terrain.keeps_water_cover:
            if s_terrain.bridge:
                notes.append(("target in water shot from a bridge over it: no cover", "MC §5.5.2.4"))
            else:
                notes.append(("target in water shot from the water's edge: no cover", "MC §3.1, §5.5.2.4"))
            own = "none"
    if own != "none" and t_terrain.neutralised_from_above and weapon is not None:
        # a target half-way up a slope counts at the level of its top (docs/decisions.md: the
        # §5.5.2.3 example gives medium cover against crossbowmen standing on the top)
        base = slope_top if (t_terrain.cover_over_crest and slope_top is not None) else _elev(m, t_hex)
        up = _elev(m, s_hex) - base
        if up >= 1:
            last = weapon.short[1]
            reach = last if up >= lr.neutralise_full_levels else int(last * lr.neutralise_one_level)
            dist = s_hex.distance(t_hex)
            if dist <= reach:
                notes.append((f"shot from {up} level(s) higher at {dist} hexes (within {reach}): "
                              f"the {own_name} gives the target no cover", "MC §5.5.6"))
                own = "none"
    if own != "none":
        if own != t_terrain.cover_over_crest or not slope_cover:  # the slope's cover is noted above
            notes.append((f"target in {own_name} ({t_hex.label}): {own} cover", t_terrain.ref))
        if t_terrain.water:
            small = own
        else:
            other = _stronger(other, own)
    if target.status in lr.small_target_statuses:
        notes.append((f"{target.name} is {target.status}, a small target: {lr.small_target_cover} cover", "MC §5.5.5"))
        small = _stronger(small, lr.small_target_cover)
    if len(line) >= 2:
        hs = hexside(line[-2], line[-1])
        if hs:
            f = rs.hexsides[hs]
            notes.append((f"the line crosses the {f.names[0].lower()} in front of the target: {f.cover} cover", f.ref + "; MC §5.5.6"))
            other = _stronger(other, f.cover)
    if state.riders.horses or state.camels.kneeling:  # §4.6.6 kneeling camels, litters (engine/kneeling.py)
        other = _stronger(other, camel_cover(state, target, t_hex, line, notes))
    if small != "none" and other != "none":
        cover = combine(lr, small, other)
        notes.append((f"combined cover: {small} + {other} = {cover}", "MC §5.5.5"))
    else:
        cover = _stronger(small, other)

    # --- characters in the way (§5.5.3, §5.5.3.1) ----------------------------------------
    if blockers and weapon is not None:
        blockers = _exempt(state, shot, weapon, blockers, notes)
    if blockers and weapon is not None:
        o, h = blockers[0]
        if not weapon.over_characters:
            return blocked(f"{o.name} in {h.label} blocks the line of fire of a {weapon.names[0].lower()}", "MC §5.5.3")
        if shot.band == "short":
            return blocked(f"firing over {o.name} needs a target at medium or long range", "MC §5.5.3")
        if _RANK[cover] > _RANK["light"]:
            return blocked(f"firing over {o.name} needs a target with light cover at most", "MC §5.5.3")
        for n in t_hex.neighbours():
            if any(x.side == shooter.side for x in shot.occ.get(n, ())):
                return blocked("firing over characters is impossible at a target in contact with the shooter's side",
                               "MC §5.5.3")
        notes.append((f"firing over {len(blockers)} character(s) at {shot.band} range", "MC §5.5.3"))
    return LineOfFire(True, cover=cover, hexes=line, notes=notes)


def _exempt(state: GameState, shot: _Shot, weapon, blockers, notes) -> list:
    """The characters in the way who do not count (§5.5.3.1): friends next to a mounted archer,
    the front line of a formation the shooter fires over."""
    shooter = shot.shooter
    if weapon.over_adjacent_friends and shooter.mounted:
        mine = _hexes_of(shooter)
        keep = []
        for o, h in blockers:
            if o.side == shooter.side and any(h.distance(x) == 1 for x in mine):
                notes.append((f"{o.name} ({h.label}), a friend next to the mounted archer, is fired over", "MC §5.5.3.1"))
            else:
                keep.append((o, h))
        blockers = keep
    reach = weapon.over_adjacent_foot_friend_from
    if blockers and reach and shooter.mounted and shot.s_hex.distance(shot.t_hex) >= reach:
        mine = _hexes_of(shooter)
        keep = []
        for o, h in blockers:
            if o.side == shooter.side and not o.mounted and any(h.distance(x) == 1 for x in mine):
                notes.append((f"{o.name} ({h.label}), a friend on foot next to the javelin thrower, is fired over "
                              f"(target at {reach} hexes or more)", "MC §7.5"))
            else:
                keep.append((o, h))
        blockers = keep
    if blockers and weapon.over_formation and not shooter.mounted and any(h.distance(shot.s_hex) == 1 for _, h in blockers):
        if shot.front is None:
            shot.front = _formation_front(state, shot)
        front = shot.front
        if front:
            keep = []
            for o, h in blockers:
                if h in front:
                    notes.append((f"{o.name} ({h.label}) stands in the front line of a formation: fired over",
                                  "MC §5.5.3.1"))
                else:
                    keep.append((o, h))
            blockers = keep
    return blockers


def _formation_front(state: GameState, shot: _Shot) -> frozenset[Hex]:
    """The two front-line hexes the shooter fires between, if the target stands in the strip
    straight ahead between them (§5.5.3.1, docs/decisions.md): two friends next to the shooter
    and to each other, in a connected line of at least ``formation_line`` friends of the same
    type; the strip runs from the shooter's hex through their common hexside, 1 or 2 hexes wide,
    from the ``formation_min_distance``-th hex on."""
    lr = state.rules.lines
    s, t, me = shot.s_hex, shot.t_hex, shot.shooter
    if s.distance(t) < lr.formation_min_distance:
        return frozenset()
    occ = shot.occ

    def friend(h):
        return next((c for c in occ.get(h, ()) if c.side == me.side and c.active), None)

    v = t - s
    for i in range(6):
        d1, d2 = DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]
        f1, f2 = s.neighbour(i), s.neighbour((i + 1) % 6)
        a, b = friend(f1), friend(f2)
        if a is None or b is None or not _same_rank(a, b):
            continue
        dq, dr = d1[0] + d2[0], d1[1] + d2[1]
        if not any(_multiple(v.q - e[0], v.r - e[1], dq, dr) for e in ((0, 0), d1, d2)):
            continue
        # the front line: friends of the same type connected to f1 and f2
        line, todo = {f1, f2}, [f1, f2]
        while todo and len(line) < lr.formation_line:
            h = todo.pop()
            for n in h.neighbours():
                c = friend(n)
                if n not in line and n != s and c is not None and _same_rank(c, a):
                    line.add(n)
                    todo.append(n)
        if len(line) >= lr.formation_line:
            return frozenset((f1, f2))
    return frozenset()


def _same_rank(a, b) -> bool:
    """Two men who may stand in one formation's front line (§5.5.3.1): the same armament (read
    as the same character type) and, for the Arab side, the same nationality (Oriflamme: the
    scenario gives Arab characters a ``nationality``; men without one match on armament only)."""
    return a.type == b.type and a.nationality == b.nationality


def _multiple(x: int, y: int, dq: int, dr: int) -> bool:
    """(x, y) = k (dq, dr) for an integer k >= 0."""
    if dq:
        k, rem = divmod(x, dq)
        return rem == 0 and k >= 0 and y == k * dr
    k, rem = divmod(y, dr)
    return rem == 0 and k >= 0 and x == 0


def line_of_fire(state: GameState, shooter: Character, target: Character, band: str | None,
                 occ: dict[Hex, list[Character]] | None = None, *,
                 shooter_hex: Hex | None = None, target_hex: Hex | None = None) -> LineOfFire:
    """The line between two characters with the cover the target gets; along a hexside the
    better of the two sides for the shooter (docs/decisions.md). ``occ``: the live characters
    by hex (``state.occupants()``), when the caller already has it. ``shooter_hex`` and
    ``target_hex`` (default: the characters' hexes) choose which hex of a rider the line joins
    (SEED-NOTES D9)."""
    if occ is None:
        occ = state.occupants()
    s_hex = shooter_hex if shooter_hex is not None else shooter.hex
    t_hex = target_hex if target_hex is not None else target.hex
    shot = _Shot(shooter, target, s_hex, t_hex, band, occ, _crests(state))
    variants = [_one_line(state, shot, ln) for ln in _lines_between(s_hex, t_hex)]
    clear = [v for v in variants if v.clear]
    if not clear:
        return variants[0]
    best = min(clear, key=lambda v: _RANK[v.cover])
    if len(variants) > 1:
        best.notes.insert(0, ("the line runs along a hexside: the shooter uses the more favourable side",
                              "docs/decisions.md (hexside lines)"))
    return best
