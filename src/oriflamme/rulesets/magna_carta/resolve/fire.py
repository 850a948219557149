"""Fire resolution (Magna Carta §5.4): range band, die modifiers, the tables §5.4.2 / §5.4.3.

The engine works out the situation on the map (distance, cover, which modifiers apply) and
calls :func:`fire`; the referee command calls it with the situation typed in.

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> rs = load_ruleset()
>>> r = fire(rs, FireSituation(weapon="arc long", distance=14, cover="légère", weather="pluie"), die=1)
>>> r.data["band"], r.modified_die, r.result
('medium', 3, 'B')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..rulesdata import Ruleset
from ..texts.messages import nested
from .ruling import Ruling, distribution, face_keys, outcomes

#: Cover degrees and range bands with a message id (texts/fr.toml, words of kind cover/band)
COVERS = ("none", "light", "medium", "heavy", "total")
BANDS = ("short", "medium", "long")


def _word(kind: str, value: str, known) -> dict | str:
    """A cover degree or a range band as a nested message (any other value verbatim)."""
    return nested(f"{kind}.{value}") if value in known else value


@dataclass(frozen=True)
class FireSituation:
    weapon: str
    distance: int
    target_mounted: bool = False
    target_armour: bool = False
    cover: str = "none"
    weather: str = "clear"
    shooter_wounded: bool = False
    shooter_in_tree: bool = False
    modifiers: tuple[str, ...] = ()       # ids of fire_modifiers.toml rows that apply
    extra: tuple[int, ...] = ()           # other die modifiers, typed in by a referee


class FireTableReader:
    """Reads a fire table as SEED-NOTES §1 says: the modified die in the weapon's column
    gives the printed row; its result is read under the target's cover."""

    def __init__(self, rows):
        self.rows = rows

    def row_for(self, column: int, value: int):
        """Row index for ``value`` in weapon ``column`` (1-4), or None for a miss."""
        value = max(value, 1)  # SEED-NOTES D6: below 1 reads as 1
        for i, row in enumerate(self.rows):
            cell = row.dice[column - 1]
            if not cell:
                continue
            if cell.endswith("+"):
                return None  # the printed "N+" row is a miss
            if int(cell) == value:
                return i
        return None  # above the last printed value: miss (D6)


def _cover_column(rs: Ruleset, table_id: str, cover: str, r: Ruling) -> int | None:
    table = rs.fire_tables[table_id]
    if cover == "total":
        r.refuse("the target has total cover: no shot is possible", "MC §5.5.5, §8.3.3; SEED-NOTES D8")
        return None
    if table_id == "vs_mounted" and cover == "heavy":
        r.step("heavy cover against a mounted target reads the medium column", "SEED-NOTES D8")
        cover = "medium"
    return table.covers.index(cover)


def fire(rs: Ruleset, s: FireSituation, die: int | None = None) -> Ruling:
    r = Ruling(kind="fire")
    try:
        weapon = rs.find_weapon(s.weapon)
        weather = rs.find_weather(s.weather)
        cover = rs.find_cover(s.cover)
    except KeyError as exc:
        return r.refuse(str(exc.args[0]))
    r.data["weapon"] = weapon.id
    r.data["distance"] = s.distance
    if s.distance < 1:
        return r.refuse("the target must be at least one hex away", "MC §5.4.1")
    band = weapon.band(s.distance)
    r.data["band"] = band
    if band is None:
        if weapon.id == "axe" and s.distance <= weapon.long[1]:
            return r.refuse(f"{s.distance} hexes is a dead range for the throwing axe (the haft strikes): no throw",
                            "MC §5.1 (1), §7.4; SEED-NOTES D15")
        return r.refuse(f"{s.distance} hexes is beyond the {weapon.names[0]}'s range ({weapon.long[1]})", weapon.ref)
    if weather.visibility != "infinite" and s.distance > weather.visibility:
        return r.refuse(f"{weather.names[0]}: visibility {weather.visibility} hexes, the target at {s.distance} cannot be seen",
                        "MC §3.2")
    if s.shooter_in_tree and not weapon.from_tree:
        return r.refuse(f"the {weapon.names[0]} cannot be used from a tree", "MC §5.5.2.2, §7.8.2; SEED-NOTES D12")
    bm = rs.band_modifiers[band]
    lo, hi = getattr(weapon, band)
    r.say("fire.range", {"weapon": weapon.names[0], "n": s.distance, "band": _word("band", band, BANDS),
                         "label": bm.label, "lo": lo, "hi": hi, "mod": f"{bm.value:+d}"}, "MC §5.1, §5.4.1")
    table_id = "vs_mounted" if s.target_mounted else "vs_foot"
    r.data["table"] = table_id
    col = _cover_column(rs, table_id, cover, r)
    if col is None:
        return r
    r.data["cover"] = cover
    table = rs.fire_tables[table_id]
    r.say("fire.table_mounted" if s.target_mounted else "fire.table_foot",
          {"cover": _word("cover", cover, COVERS), "table": table.ref, "cover2": _word("cover", table.covers[col], COVERS),
           "col": weapon.column}, table.ref)

    mod = bm.value
    fm = rs.fire_modifiers

    def add(mid: str):
        nonlocal mod
        m = fm[mid]
        if not m.counted:
            r.step(f"{m.label}: not added again ({m.note})", m.ref)
            return
        mod += m.value
        r.say("modifier.value", {"label": m.label, "value": f"{m.value:+d}"}, m.ref)

    if s.target_armour:
        add("target_armour")
    if s.shooter_wounded:
        add("shooter_wounded")
    if s.shooter_in_tree:
        add("shooter_in_tree")
    if weather.fire:
        mod += weather.fire
        r.say("fire.weather", {"weather": weather.names[0], "value": f"{weather.fire:+d}"}, "MC §3.2, §5.4.4")
    for mid in s.modifiers:
        if mid not in fm:
            return r.refuse(f"unknown fire modifier {mid!r} (known: {', '.join(sorted(fm))})")
        add(mid)
    for v in s.extra:
        mod += v
        r.step(f"other modifier {v:+d}", "")
    r.data["die_modifier"] = mod
    reader = FireTableReader(table.rows)

    def letter(d: int) -> str:
        row = reader.row_for(weapon.column, d + mod)
        return "-" if row is None else table.rows[row].results[col]

    r.probabilities = distribution(letter)
    r.faces = face_keys(letter)
    r.data["outcomes"] = outcomes(rs.fire_results, table_id, r.probabilities)
    if die is not None:
        if not 1 <= die <= 10:
            return r.refuse(f"die {die} is not a d10 value (1-10)")
        m = die + mod
        r.die = die
        r.modified_die = m
        shown = max(m, 1)
        if m < 1:
            r.step(f"modified die {m} reads as 1", "SEED-NOTES D6")
        r.result = letter(die)
        res = rs.fire_results[(table_id, r.result)]
        row = reader.row_for(weapon.column, m)
        read = {"die": die, "mod": f"{mod:+d}", "shown": shown, "col": weapon.column, "result": r.result, "text": res.text}
        if row is not None:
            r.say("fire.die_row", {**read, "row": table.rows[row].dice[weapon.column - 1]}, res.ref)
        else:
            r.say("fire.die_beyond", read, res.ref)
    return r
