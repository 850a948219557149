"""Scenarios: TOML files validated on load (format in docs/formats.md, "Scenarios").

A bad file is rejected with one line naming the file, the field and the reason, e.g.
``the-ford.toml: character[3].hex: '9905' is off the map (20×14)``.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .engine.errors import ScenarioError
from ...geometry.hexgrid import DIRECTION_NAMES, Hex
from .maps import GameMap, MapError, build_map
from .rulesdata import BASE_ID, load_ruleset, packages_of, ruleset_id


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SideSpec(_M):
    id: str = Field(min_length=1, max_length=16)
    name: str
    name_fr: str = ""
    sun_in_eyes: bool = False  # §5.4.4: this side's shooters have the sun in their eyes (+1)


class CharacterSpec(_M):
    id: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    name: str = Field(min_length=1)
    type: str
    side: str
    hex: str
    status: Literal["healthy", "stunned", "wounded"] = "healthy"
    attack: int | None = Field(default=None, ge=0)
    defence: int | None = Field(default=None, ge=1)
    armour: bool | None = None
    weapon: str | None = None
    polearm: bool | None = None
    facing: Literal["N", "NE", "SE", "S", "SW", "NW"] | None = None  # riders: where the arrow points
    used_to_camels: bool | None = None  # §4.6.5: Saracens, Bedouins, Turcopoles (default: the type's)
    # §5.5.3.1: "pour le camp arabe, de même nationalité" — e.g. "syrian", "egyptian", "bedouin"
    nationality: str | None = Field(default=None, min_length=1, max_length=32)


class AnimalSpec(_M):
    """A riderless horse or camel on the map at the start (§4.4.4, §4.6.1): ``hex`` is its head,
    ``facing`` where the head points; ``side`` its controller (omitted: nobody);
    ``passenger`` a roster character carried in a litter camel's litter (placed on the animal's
    head hex in the roster)."""
    id: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    kind: Literal["horse", "camel", "pack_camel", "litter_camel"]
    side: str | None = None
    hex: str
    facing: Literal["N", "NE", "SE", "S", "SW", "NW"] = "N"
    passenger: str | None = None


class BoardPlacement(_M):
    board: str | None = None
    path: str | None = None
    col: int = 0
    row: int = 0
    rotation: int = 0


class CartSpec(_M):
    front: str
    rear: str
    animal: Literal["horse", "ox"] | None = None  # a draught animal in the harness (MC §4.5.1)


class MapSpec(_M):
    boards: list[BoardPlacement | str] = Field(min_length=1)
    carts: list[CartSpec] = []  # stationary carts (MC §4.5.2–§4.5.3)
    id: str | None = None
    name: str | None = None
    name_fr: str | None = None


class VictorySpec(_M):
    rout_fraction: float = Field(default=1.0, gt=0, le=1)
    objectives: list[str] = []
    objective_side: str | None = None
    objective_count: int = Field(default=1, ge=1)
    otherwise: str = "draw"
    text: str = ""
    text_fr: str = ""


class ScenarioSpec(_M):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str
    name_fr: str = ""
    description: str = ""
    description_fr: str = ""
    ruleset: str = "magna-carta"
    # the rulesets (Magna Carta and its editions) the scenario may be played under; empty: only
    # ``ruleset``. A game of it under another edition is refused (docs/formats.md, "Scenarios")
    editions: list[str] = []
    turns: int = Field(ge=1, le=100)
    weather: str = "clear"
    first: str | None = None
    map: MapSpec
    side: list[SideSpec] = Field(min_length=2, max_length=2)
    character: list[CharacterSpec] = Field(min_length=2)
    victory: VictorySpec = VictorySpec()
    animals: list[AnimalSpec] = []  # riderless horses and camels (§4.4.4, §4.6.1)
    # §6.9 surrender and ransom: only between western combatants of the XIIth–XIVth centuries
    # (not between faiths, not in earlier periods) — the scenario says so
    ransom: bool = False

    @field_validator("ruleset")
    @classmethod
    def _rs(cls, v: str) -> str:
        try:
            return ruleset_id(v)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None

    @field_validator("editions")
    @classmethod
    def _eds(cls, v: list[str]) -> list[str]:
        try:
            return [ruleset_id(x) for x in v]
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None


_UNION_TAGS = {"BoardPlacement", "str"}  # pydantic names the union member in error locations


def _fail(source: str, field: str, reason: str) -> ScenarioError:
    return ScenarioError(f"{source}: {field}: {reason}" if field else f"{source}: {reason}")


def parse_scenario(text: str, source: str = "<scenario>", base_dir: Path | None = None) -> tuple[dict, GameMap]:
    """Validate a scenario text; return its JSON-able dict and its map."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(source, "", f"invalid TOML: {exc}") from None
    return validate_scenario(raw, source, base_dir)


def _hex_on_map(source: str, f: str, label: str, gmap: GameMap) -> Hex:
    """The hex ``label`` of field ``f``.hex, on the map, or a ScenarioError saying why not."""
    try:
        h = Hex.from_label(label)
    except ValueError as exc:
        raise _fail(source, f"{f}.hex", str(exc)) from None
    if h not in gmap:
        raise _fail(source, f"{f}.hex", f"{label!r} is off the map ({gmap.width}×{gmap.height})")
    return h


def validate_scenario(raw: dict, source: str = "<scenario>", base_dir: Path | None = None) -> tuple[dict, GameMap]:
    """Validate a scenario given as a dict (a parsed file, or the copy kept in a game record)."""
    if not isinstance(raw, dict):
        raise _fail(source, "", "a scenario must be a table/object")
    origin = raw.get("source") if isinstance(raw.get("source"), str) else source
    raw = {k: v for k, v in raw.items() if k != "source"}
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        e = exc.errors()[0]
        parts = [p for p in e["loc"] if p not in _UNION_TAGS]
        loc = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(parts))
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field"
        elif e["type"] == "value_error" and "error" in e.get("ctx", {}):
            msg = str(e["ctx"]["error"])
        raise _fail(source, loc, msg) from None
    if spec.editions and spec.ruleset not in spec.editions:
        raise _fail(source, "ruleset", f"{spec.ruleset!r} is not among the scenario's editions ({', '.join(spec.editions)})")
    rs = load_ruleset(spec.ruleset)
    try:
        rs.find_weather(spec.weather)
    except KeyError as exc:
        raise _fail(source, "weather", exc.args[0]) from None
    side_ids = [s.id for s in spec.side]
    if len(set(side_ids)) != 2:
        raise _fail(source, "side", "the two sides need different ids")
    map_spec = spec.map.model_dump(exclude_none=True)
    map_spec["boards"] = [{"board": b} if isinstance(b, str) else b for b in map_spec["boards"]]
    for b in map_spec["boards"]:
        if b.get("path") and base_dir is not None:
            # a game record keeps the scenario: make the board file findable from anywhere
            b["path"] = str((Path(base_dir) / b["path"]).resolve())
    try:
        gmap = build_map(map_spec, ruleset=rs, base_dir=base_dir, source=f"{source}: map")
    except MapError as exc:
        msg = str(exc)
        prefix = f"{source}: map: "
        raise _fail(source, "map", msg[len(prefix):] if msg.startswith(prefix) else msg) from None
    seen_ids, seen_hex = set(), {}
    for i, cart in enumerate(map_spec.get("carts", [])):  # a harnessed animal's two hexes (MC §4.5.1)
        if cart.get("animal"):
            from .maps import cart_animal_hexes
            head, hind, _ = cart_animal_hexes(Hex.from_label(cart["front"]), Hex.from_label(cart["rear"]))
            for x in (head, hind):
                seen_hex[x] = f"the {cart['animal']} of carts[{i}]"
    for i, c in enumerate(spec.character):
        f = f"character[{i}]"
        if c.id in seen_ids:
            raise _fail(source, f"{f}.id", f"duplicate character id {c.id!r}")
        seen_ids.add(c.id)
        if c.side not in side_ids:
            raise _fail(source, f"{f}.side", f"unknown side {c.side!r} (sides: {', '.join(side_ids)})")
        if c.type not in rs.character_types:
            raise _fail(source, f"{f}.type", f"unknown character type {c.type!r} (known: {', '.join(sorted(rs.character_types))})")
        ct = rs.character_types[c.type]
        if c.facing is not None and not ct.mounted:
            raise _fail(source, f"{f}.facing", f"{c.type!r} is on foot: only riders have a facing (MC §1.2, §4.4.1)")
        if c.weapon is not None and c.weapon not in rs.weapons:
            raise _fail(source, f"{f}.weapon", f"unknown weapon {c.weapon!r} (known: {', '.join(sorted(rs.weapons))})")
        h = _hex_on_map(source, f, c.hex, gmap)
        armour = ct.armour if c.armour is None else c.armour
        covered = [h]
        if ct.mounted:  # a rider covers his front hex and the hex behind it (§1.2, §4.4.1)
            rear = h.neighbour(DIRECTION_NAMES.index(c.facing or "N") + 3)
            if rear not in gmap:
                raise _fail(source, f"{f}.facing", f"{c.name}'s horse would stand off the map ({rear.label} behind {c.hex})")
            side = gmap.hexside(h, rear)
            if side and rs.hexsides[side].crossing_for(True) == "impassable":
                raise _fail(source, f"{f}.facing", f"{c.name}'s horse would straddle the {rs.hexsides[side].names[0]} between {c.hex} and {rear.label}")
            covered.append(rear)
        for x in covered:
            written = c.hex if x == h else x.label
            t = rs.terrain[gmap.terrain(x)]
            if t.cost_for(ct.mounted, armour) == "impassable":
                raise _fail(source, f"{f}.hex", f"{written} is {t.names[0]}, where {c.name} cannot stand")
            if x in seen_hex:
                raise _fail(source, f"{f}.hex", f"{written} already holds {seen_hex[x]} (one live character per hex, MC §4.1)")
            seen_hex[x] = c.id
    _check_animals(source, spec, rs, gmap, side_ids, seen_hex)
    for side in side_ids:
        if not any(c.side == side for c in spec.character):
            raise _fail(source, "character", f"side {side!r} has no character")
    v = spec.victory
    for i, lab in enumerate(v.objectives):
        try:
            h = Hex.from_label(lab)
        except ValueError as exc:
            raise _fail(source, f"victory.objectives[{i}]", str(exc)) from None
        if h not in gmap:
            raise _fail(source, f"victory.objectives[{i}]", f"{lab!r} is off the map")
    if v.objective_side is not None and v.objective_side not in side_ids:
        raise _fail(source, "victory.objective_side", f"unknown side {v.objective_side!r}")
    if v.otherwise not in side_ids + ["draw"]:
        raise _fail(source, "victory.otherwise", f"must be a side id or 'draw', not {v.otherwise!r}")
    if spec.first is not None and spec.first not in side_ids:
        raise _fail(source, "first", f"unknown side {spec.first!r}")
    data = spec.model_dump()
    if not data["animals"]:
        del data["animals"]  # records of scenarios without animals stay as they were
    # the copy a game carries is played under one ruleset (its ``ruleset``): the list of the
    # editions the file supports matters only when a game is created (as_edition), and leaving it
    # out keeps the digests of recorded games as they were
    del data["editions"]
    data["map"] = map_spec
    data["source"] = origin
    return data, gmap


def _check_animals(source: str, spec: ScenarioSpec, rs, gmap: GameMap, side_ids: list[str],
                   seen_hex: dict) -> None:
    """``[[animals]]``: each on the map, on ground a horse may stand on, on no character and no
    other animal; a passenger only in a litter camel, a roster character on foot standing on the
    animal's head hex, in one litter only (§4.6.1)."""
    chars = {c.id: c for c in spec.character}
    taken: dict = {}
    carried: dict[str, str] = {}
    for i, a in enumerate(spec.animals):
        f = f"animals[{i}]"
        if a.id in chars or any(a.id == b.id for b in spec.animals[:i]):
            raise _fail(source, f"{f}.id", f"duplicate id {a.id!r} (animals and characters need distinct ids)")
        if a.side is not None and a.side not in side_ids:
            raise _fail(source, f"{f}.side", f"unknown side {a.side!r} (sides: {', '.join(side_ids)})")
        h = _hex_on_map(source, f, a.hex, gmap)
        rear = h.neighbour(DIRECTION_NAMES.index(a.facing) + 3)
        if rear not in gmap:
            raise _fail(source, f"{f}.facing", f"the animal would stand off the map ({rear.label} behind {a.hex})")
        side = gmap.hexside(h, rear)
        if side and rs.hexsides[side].crossing_for(True) == "impassable":
            raise _fail(source, f"{f}.facing", f"the animal would straddle the {rs.hexsides[side].names[0]} between "
                                               f"{a.hex} and {rear.label}")
        if a.passenger is not None:
            if a.kind != "litter_camel":
                raise _fail(source, f"{f}.passenger", f"only a litter camel carries a passenger, not a {a.kind} (MC §4.6.1)")
            p = chars.get(a.passenger)
            if p is None:
                raise _fail(source, f"{f}.passenger", f"unknown character {a.passenger!r}")
            if rs.character_types[p.type].mounted:
                raise _fail(source, f"{f}.passenger", f"{p.name} is a rider: a passenger is on foot (MC §4.6.1)")
            if a.passenger in carried:
                raise _fail(source, f"{f}.passenger", f"{p.name} is already in the litter of {carried[a.passenger]}")
            if p.hex != a.hex:
                raise _fail(source, f"{f}.passenger", f"{p.name} must be placed on the litter camel's head hex "
                                                      f"{a.hex} in the roster, not {p.hex}")
            carried[a.passenger] = a.id
        for x in (h, rear):
            written = a.hex if x == h else x.label
            t = rs.terrain[gmap.terrain(x)]
            if t.cost_for(True, False) == "impassable":
                raise _fail(source, f"{f}.hex", f"{written} is {t.names[0]}, where the animal cannot stand")
            who = seen_hex.get(x)
            if who is not None and not (x == h and who == a.passenger):
                raise _fail(source, f"{f}.hex", f"{written} already holds {who} (MC §4.1)")
            if x in taken:
                raise _fail(source, f"{f}.hex", f"{written} already holds the animal {taken[x]}")
            taken[x] = a.id


def supported_editions(raw: dict) -> list[str]:
    """The rulesets a scenario (its raw table) may be played under: its ``editions``, or only
    its ``ruleset`` (default Magna Carta)."""
    eds = raw.get("editions")
    if isinstance(eds, list) and eds:
        out = []
        for e in eds:
            try:
                out.append(ruleset_id(str(e)))
            except KeyError:
                out.append(str(e))
        return out
    try:
        return [ruleset_id(str(raw.get("ruleset", BASE_ID)))]
    except KeyError:
        return [str(raw.get("ruleset"))]


def _scenario_files(ruleset: str) -> dict[str, object]:
    """The bundled scenario files a ruleset may find by id: its own package's, then its base's."""
    found: dict[str, object] = {}
    for pkg in packages_of(ruleset):
        folder = resources.files(pkg).joinpath("scenarios")
        if not folder.is_dir():
            continue
        for p in sorted(folder.iterdir(), key=lambda p: p.name):
            if p.name.endswith(".toml"):
                found.setdefault(p.name[:-5], p)
    return found


def bundled_scenario_ids(ruleset: str = BASE_ID) -> list[str]:
    """The bundled scenarios that may be played under ``ruleset`` (they declare it among their
    ``editions``, or it is their ``ruleset``)."""
    rid = ruleset_id(ruleset)
    out = []
    for sid, path in _scenario_files(rid).items():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError:
            raw = {}
        if rid in supported_editions(raw):
            out.append(sid)
    return sorted(out)


def as_edition(raw: dict, ruleset: str, source: str) -> dict:
    """The scenario table to play under ``ruleset``: refused (ScenarioError) unless the
    scenario supports that edition; its ``ruleset`` set to it (the copy a record carries)."""
    rid = ruleset_id(ruleset)
    supported = supported_editions(raw)
    if rid not in supported:
        if not raw.get("editions"):
            raise _fail(source, "ruleset", f"this scenario is for the ruleset {supported[0]!r}: it cannot be played "
                                           f"under {rid!r} (it declares no other edition)")
        raise _fail(source, "editions", f"this scenario cannot be played under {rid!r} "
                                        f"(it supports: {', '.join(supported)})")
    return {**raw, "ruleset": rid}


def load_scenario(name_or_path: str, ruleset: str | None = None) -> tuple[dict, GameMap]:
    """A bundled scenario id, or a path to a scenario file; ``ruleset``: the ruleset (Magna
    Carta or one of its editions) the game is played under (default: the scenario's own)."""
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ScenarioError(f"{name_or_path}: cannot read: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ScenarioError(f"{name_or_path}: not UTF-8 text") from None
        return _parse_as(text, p.name, ruleset, base_dir=p.parent)
    files = _scenario_files(ruleset or BASE_ID)
    if name_or_path not in files:
        ids = bundled_scenario_ids(ruleset or BASE_ID)
        raise ScenarioError(f"unknown scenario {name_or_path!r} (bundled: {', '.join(ids)}; or give a path to a .toml file)")
    text = files[name_or_path].read_text(encoding="utf-8")
    return _parse_as(text, name_or_path + ".toml", ruleset)


def _parse_as(text: str, source: str, ruleset: str | None, base_dir: Path | None = None) -> tuple[dict, GameMap]:
    if ruleset is None:
        return parse_scenario(text, source, base_dir=base_dir)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(source, "", f"invalid TOML: {exc}") from None
    return validate_scenario(as_edition(raw, ruleset, source), source, base_dir)
