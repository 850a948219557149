"""Rules data: the validated, cited tables of a ruleset.

Every table cell, cost and modifier Oriflamme applies is read from a TOML file of the ruleset's
``data/`` folder, validated here with pydantic, and carries its source in ``ref``. Code applies
rules by looking rows up by name; it does not hold rulebook numbers.

A ruleset may declare a ``base`` (an edition overlay): its files then override the base's rows
with the same id. Only Magna Carta exists so far.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

Cost = Union[int, Literal["impassable"]]
Mark = Literal["-", "0", "+"]
CoverName = Literal["none", "light", "medium", "heavy", "total"]
COVER_ORDER: tuple[str, ...] = ("none", "light", "medium", "heavy", "total")


class RulesDataError(Exception):
    """A rules data file is malformed: names the file, the field and the reason."""


def fold(text: str) -> str:
    """Case- and accent-insensitive key: ``"Arbalète"`` -> ``"arbalete"``."""
    norm = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in norm if not unicodedata.combining(c))
    return " ".join(stripped.lower().replace("_", " ").replace("-", " ").split())


class Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    ref: str = Field(min_length=3)
    note: str = ""

    @field_validator("ref")
    @classmethod
    def _cited(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("every row must cite its source in `ref`")
        return v


class Terrain(Row):
    id: str
    names: list[str]
    name_en: str = ""
    foot: Cost
    foot_armoured: Cost | None = None
    mounted: Cost
    cover: CoverName
    cover_along_line: CoverName | None = None
    cover_over_crest: CoverName | None = None
    combat: Mark
    blocks_los: bool = False
    water: bool = False
    jumpable: bool = False  # a rider may jump over such a hex (§4.4.3)
    neutralised_from_above: bool = False
    bridge: bool = False
    water_cover_along_line: CoverName | None = None
    keeps_water_cover: bool = False
    no_fire_from: bool = False
    seen_over_from_above: bool = False  # blocks only lines on its own level (carts, §4.5.1)
    shooter_modifier: str | None = None  # a fire_modifiers.toml row for shooters on it (§4.5.4.2)

    def cost_for(self, mounted: bool, armoured: bool) -> Cost:
        if mounted:
            return self.mounted
        if armoured and self.foot_armoured is not None:
            return self.foot_armoured
        return self.foot


class Hexside(Row):
    id: str
    names: list[str]
    name_en: str = ""
    crossing: Cost
    crossing_mounted: Cost | None = None
    cover: CoverName
    combat_defender: Mark
    blocks_los: bool = False
    no_combat: bool = False
    jumpable: bool = False  # a rider may jump over such a hexside (§4.4.3)

    def crossing_for(self, mounted: bool) -> Cost:
        if mounted and self.crossing_mounted is not None:
            return self.crossing_mounted
        return self.crossing


class Weather(Row):
    id: str
    names: list[str]
    visibility: int | Literal["infinite"]
    movement: tuple[int, int]
    fire: int
    combat: Mark


class Allowance(Row):
    id: str
    names: list[str]
    healthy: int
    wounded: int


class NamedValue(Row):
    id: str
    value: int


class Band(Row):
    low: int
    high: int
    result: str
    label: str


class Modifier(Row):
    condition: str
    value: int
    label: str
    who: str | None = None


class FireChoice(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    fire: Literal["offensive", "defensive", "offensive_or_defensive", "offensive_and_defensive"]
    movement: Literal["full", "half", "none"]


class Weapon(Row):
    id: str
    names: list[str]
    name_en: str = ""
    short: tuple[int, int]
    medium: tuple[int, int] | None = None
    long: tuple[int, int]
    column: int = Field(ge=1, le=4)
    choices: list[FireChoice]
    over_characters: bool
    from_tree: bool
    over_adjacent_friends: bool = False
    over_formation: bool = False
    # a mounted thrower fires over an adjacent friend on foot at a target this far at least (§7.5)
    over_adjacent_foot_friend_from: int | None = None
    ammunition: int | None = None  # missiles carried (§7.5: three javelins); None: no count
    mounted: bool = False
    reload_turns: int = 0
    front_arc_only: bool = False  # the target must be in the mounted shooter's front arc (§7.5)
    max_levels: int | None = None  # most levels between shooter and target (dagger: 2, §9.6.4, D11)

    def band(self, distance: int) -> str | None:
        for name in ("short", "medium", "long"):
            rng = getattr(self, name)
            if rng is not None and rng[0] <= distance <= rng[1]:
                return name
        return None


class BandModifier(Row):
    band: Literal["short", "medium", "long"]
    value: int
    label: str


class FireRow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    dice: tuple[str, str, str, str]
    results: list[str]


class FireTable(Row):
    covers: list[CoverName]
    rows: list[FireRow]


class StrayShot(Row):
    hexes: int
    armour_retreat: int


class LinesRules(Row):
    """Lines of fire and cover (§5.5.3.1, §5.5.5, §5.5.6): terrain.toml ``[lines]``."""
    small_target_statuses: list[str]
    small_target_cover: CoverName
    combine_light_light: CoverName
    combine_light_stronger: CoverName
    neutralise_one_level: float = Field(gt=0, le=1)
    neutralise_full_levels: int = Field(ge=2)
    formation_line: int = Field(ge=2)
    formation_min_distance: int = Field(ge=2)


class DefensiveSpacing(Row):
    """§5.3: hexes a mover must cover before he can be shot at defensively again."""
    foot_wounded: int = Field(ge=1)
    foot: int = Field(ge=1)
    mounted: int = Field(ge=1)
    mounted_charging: int = Field(ge=1)


class FireResult(Row):
    table: Literal["vs_foot", "vs_mounted"]
    letter: str
    text: str
    text_en: str = ""
    miss: bool = False
    retreat: int = 0
    defensive_movement_loss: int = 0
    defensive_halve_remaining: bool = False
    wound: bool = False
    stun: bool = False
    kill: bool = False
    unhorse: bool = False
    horse_killed: bool = False
    kills_lone_horse: bool = False


class FireModifier(Row):
    id: str
    value: int
    label: str
    counted: bool = True
    # a difference of level between shooter and target (SEED-NOTES D11): the weapons it concerns
    # and the range of level differences it applies to (``levels_max`` None: no upper limit)
    weapons: list[str] = []
    levels_min: int | None = None
    levels_max: int | None = None


class MeleeTable(Row):
    columns: list[str]
    rows: list[list[str]]


class MeleeResult(Row):
    table: Literal["vs_foot", "vs_mounted"]
    letter: str
    text: str
    text_en: str = ""
    attacker_wounded: bool = False
    attacker_retreats: int = 0
    defender_retreats: int = 0
    defender_stunned: bool = False
    defender_wounded: bool = False
    defender_killed: bool = False
    horse_killed: bool = False
    unhorse: bool = False
    kills_lone_horse: bool = False


class TerrainShift(Row):
    attacker: Mark
    defender: Mark
    shift: int


class TerrainMark(Row):
    mark: Mark
    value: int


class Odds(Row):
    min_column: int
    max_column: int
    rounding: Literal["defender"]


class MeleeDie(Row):
    armour_modifier: int
    max: int


class SeveralAttackers(Row):
    shift: int
    min_mounted_vs_mounted: int


class ChargeMoves(Row):
    """The charge on the map (§7.6.1, §7.6.2, §4.6.8), played where a sequence has the
    announcements step (engine/charges.py)."""
    min_hexes: int = Field(ge=1)          # a charge covers at least this many hexes
    straight_last: int = Field(ge=2)      # its last hexes in a straight line towards the target
    counter_meet: int = Field(ge=1)       # the counter-charger holds the charge's last hexes
    counter_max: tuple[int, int]          # his route: at most this fraction of the charge's hexes
    no_charge_mounts: list[str] = []      # riders of these mounts do not charge (§4.6.8)
    no_charge_against: list[str] = []     # nor may riders of these mounts be charged (§4.6.8)


class Charge(Row):
    attack_multiplier: tuple[int, int]
    defence_multiplier: tuple[int, int]
    moves: ChargeMoves | None = None  # None: charges are adjudicated (referee) but not announced on the map


class Advance(Row):
    foot: int
    mounted: int


class Retreat(Row):
    hexes: int


class LoneHorse(Row):
    """A riderless horse attacked (§6.8): its defence."""
    defence: int = Field(ge=1)


class Section(Row):
    id: str
    title: str
    title_en: str = ""


class CharacterType(Row):
    id: str
    name: str
    name_fr: str = ""
    attack: int
    defence: int
    movement: int
    wounded_attack: int
    wounded_defence: int
    wounded_movement: int
    stunned_defence: int
    armour: bool = False
    mounted: bool = False
    weapon: str | None = None
    polearm: bool = False
    knight: bool = False
    dismounted: str | None = None  # riders: the type they become on foot (§4.4.2, §6.8)
    mount: Literal["horse", "camel"] = "horse"  # what a rider rides (§4.6: camels)
    used_to_camels: bool = False  # Saracens, Bedouins, Turcopoles: +2 to the fear test (§4.6.5)


class Surrender(Row):
    min_odds: int
    min_attackers: int


class RansomCounter(Row):
    attack: tuple[int, int]
    defence: tuple[int, int]
    minimum: int


class EscortRule(Row):
    id: str
    knight: bool = False
    types: list[str] = []
    count: int = Field(ge=1)


class Ransom(BaseModel):
    """§6.9 surrender and ransom: the surrender test, the ransom counter, the escorts."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    surrender: Surrender
    band: list[Band]
    counter: RansomCounter
    escort: list[EscortRule]


class CamelShift(Row):
    value: int


class CamelJavelins(Row):
    optional_limit: int = Field(ge=1)


class CamelKneeling(Row):
    """§4.6.4 kneeling and rising (to the animal and to the man who orders it), mounting or
    dismounting a camel (camel riders), getting on or off a litter."""
    kneel_cost: int = Field(ge=0)
    rise_cost: int = Field(ge=0)
    mount_cost: int = Field(ge=0)
    litter_cost: int = Field(ge=0)


class CamelAnimal(Row):
    """§4.6.2 the movement of a camel without a camel rider, by kind of counter."""
    kind: Literal["camel", "pack_camel", "litter_camel"]
    movement: int = Field(ge=1)


class CamelCover(Row):
    """§4.6.6 the cover of a kneeling camel and of a litter camel for those behind it, and of
    the litter for its passenger."""
    kneeling: str
    litter: str
    passenger: str
    behind_distance: int = Field(ge=1)


class Camels(BaseModel):
    """§4.6 camels: the horses' fear test (§4.6.5), the column shift of a horse rider next to a
    camel (§4.6.5, §4.6.8), the optional javelin limit (§4.6.7), kneeling, pack camels and
    litters (§4.6.2, §4.6.4, §4.6.6)."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    fear_band: list[Band]
    fear_modifier: list[Modifier]
    shift: CamelShift
    javelins: CamelJavelins
    kneeling: CamelKneeling
    animal: list[CamelAnimal]
    cover: CamelCover

    def movement_of(self, kind: str) -> int | None:
        return next((a.movement for a in self.animal if a.kind == kind), None)


# --- the sequence of play (§2.1, sequence.toml; run by engine/turn.py) ------------------------
HookNames = tuple[str, ...]


class SequenceStep(Row):
    """One step of a phase: its id (``state.step``), its titles, what runs on entering and
    leaving it (names in ``engine.turn.SEQUENCE_HOOKS``). ``players = false``: no side acts in
    it (the stunned recovery): it is run, not waited in."""
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title_en: str = Field(min_length=1)
    title_fr: str = Field(min_length=1)
    players: bool = True
    on_enter: HookNames = ()
    on_leave: HookNames = ()


class SequencePhase(Row):
    on_enter: HookNames = ()
    on_leave: HookNames = ()


class SequenceTurn(Row):
    phases: Literal["each_side"] = "each_side"  # one phase per side, the first side first
    on_enter: HookNames = ()
    on_leave: HookNames = ()


class Sequence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    turn: SequenceTurn
    phase: SequencePhase
    step: tuple[SequenceStep, ...] = Field(min_length=1)

    @field_validator("step")
    @classmethod
    def _steps(cls, v: tuple[SequenceStep, ...]) -> tuple[SequenceStep, ...]:
        ids = [s.id for s in v]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"step ids must be unique (repeated: {', '.join(dup)})")
        if not v[0].players:
            raise ValueError(f"the first step ({v[0].id}) must be one the players act in")
        return v

    @property
    def player_steps(self) -> tuple[SequenceStep, ...]:
        return tuple(s for s in self.step if s.players)

    def find(self, step_id: str) -> SequenceStep:
        for s in self.step:
            if s.id == step_id:
                return s
        raise KeyError(f"unknown step {step_id!r} (known: {', '.join(s.id for s in self.step)})")

    def hook_names(self) -> set[str]:
        names = set(self.turn.on_enter) | set(self.turn.on_leave) | set(self.phase.on_enter) | set(self.phase.on_leave)
        for s in self.step:
            names |= set(s.on_enter) | set(s.on_leave)
        return names

    def to_json(self) -> dict:
        """The phase bar of a client: the steps in order, their titles and citations."""
        return {"ref": self.turn.ref, "phases": self.turn.phases,
                "steps": [{"id": s.id, "title_en": s.title_en, "title_fr": s.title_fr, "ref": s.ref,
                           "players": s.players} for s in self.step]}


# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    terrain: dict[str, Terrain]
    hexsides: dict[str, Hexside]
    weather: dict[str, Weather]
    allowances: dict[str, Allowance]
    movement_rules: dict[str, NamedValue]
    infiltration_bands: tuple[Band, ...]
    infiltration_modifiers: tuple[Modifier, ...]
    jump_bands: tuple[Band, ...]
    jump_modifiers: tuple[Modifier, ...]
    weapons: dict[str, Weapon]
    band_modifiers: dict[str, BandModifier]
    fire_tables: dict[str, FireTable]
    fire_results: dict[tuple[str, str], FireResult]
    stray_shot: StrayShot
    defensive_spacing: DefensiveSpacing
    fire_modifiers: dict[str, FireModifier]
    melee_tables: dict[str, MeleeTable]
    melee_results: dict[tuple[str, str], MeleeResult]
    terrain_shifts: tuple[TerrainShift, ...]
    terrain_marks: dict[str, TerrainMark]
    odds: Odds
    melee_die: MeleeDie
    several_attackers: SeveralAttackers
    charge: Charge
    advance: Advance
    retreat: Retreat
    lone_horse: LoneHorse
    sections: dict[str, Section]
    character_types: dict[str, CharacterType]
    lines: LinesRules
    ransom: Ransom
    camels: Camels | None = None
    sequence: Sequence | None = None

    # --- lookups by id or printed name (case and accents optional) -------------------------
    def _find(self, table: dict, what: str, text: str):
        """A row by its exact id, or by id or printed name, case and accents optional."""
        row = table.get(text) if isinstance(text, str) else None
        if row is not None:
            return row
        key = fold(text)
        for row in table.values():
            if fold(row.id) == key or any(fold(n) == key for n in getattr(row, "names", ())):
                return row
        known = ", ".join(sorted(table))
        raise KeyError(f"unknown {what} {text!r} (known: {known})")

    def find_terrain(self, text: str) -> Terrain:
        return self._find(self.terrain, "terrain", text)

    def find_hexside(self, text: str) -> Hexside:
        return self._find(self.hexsides, "hexside feature", text)

    def find_weapon(self, text: str) -> Weapon:
        return self._find(self.weapons, "weapon", text)

    def find_weather(self, text: str) -> Weather:
        return self._find(self.weather, "weather", text)

    def find_cover(self, text: str) -> str:
        aliases = {
            "none": "none", "aucune": "none", "no": "none",
            "light": "light", "legere": "light",
            "medium": "medium", "moyenne": "medium",
            "heavy": "heavy", "forte": "heavy", "lourde": "heavy",
            "total": "total", "totale": "total", "infinie": "total", "infinite": "total",
        }
        key = fold(text)
        if key not in aliases:
            raise KeyError(f"unknown cover {text!r} (use none/light/medium/heavy/total or aucune/légère/moyenne/forte/lourde/totale)")
        return aliases[key]

    def section_title(self, ref: str) -> str:
        s = self.sections.get(ref)
        return s.title if s else ""


def _load_toml(package: str, name: str) -> dict:
    path = resources.files(package).joinpath("data").joinpath(name)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{package}/data/{name}: {exc}") from exc


def _rows(model, items, file: str, table: str):
    out = []
    for i, item in enumerate(items):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            ident = item.get("id", item.get("letter", i)) if isinstance(item, dict) else i
            raise RulesDataError(f"{file}: [[{table}]] #{i + 1} ({ident}) field {loc}: {err['msg']}") from None
    return out


def _one(model, item, file: str, table: str):
    return _rows(model, [item], file, table)[0]


_RULESETS = {"magna-carta": "oriflamme.rulesets.magna_carta"}
ALIASES = {"mc": "magna-carta", "magna_carta": "magna-carta", "magnacarta": "magna-carta", "la magna carta": "magna-carta"}


def ruleset_id(text: str) -> str:
    key = fold(text).replace(" ", "-")
    key = ALIASES.get(fold(text), ALIASES.get(key, key))
    if key not in _RULESETS:
        raise KeyError(f"unknown ruleset {text!r} (known: {', '.join(_RULESETS)})")
    return key


@lru_cache(maxsize=None)
def load_ruleset(rid: str = "magna-carta") -> Ruleset:
    pkg = _RULESETS[ruleset_id(rid)]
    t = _load_toml(pkg, "terrain.toml")
    w = _load_toml(pkg, "weather.toml")
    mv = _load_toml(pkg, "movement.toml")
    inf = _load_toml(pkg, "infiltration.toml")
    jp = _load_toml(pkg, "jump.toml")
    wp = _load_toml(pkg, "weapons.toml")
    ft = _load_toml(pkg, "fire_tables.toml")
    fm = _load_toml(pkg, "fire_modifiers.toml")
    me = _load_toml(pkg, "melee.toml")
    se = _load_toml(pkg, "sections.toml")
    ro = _load_toml(pkg, "roster.toml")
    rn = _load_toml(pkg, "ransom.toml")
    cm = _load_toml(pkg, "camels.toml")
    sq = _load_toml(pkg, "sequence.toml")

    def by_id(rows):
        return {r.id: r for r in rows}

    return Ruleset(
        id="magna-carta",
        title="La Magna Carta v1.2",
        terrain=by_id(_rows(Terrain, t.get("terrain", []), "terrain.toml", "terrain")),
        hexsides=by_id(_rows(Hexside, t.get("hexside", []), "terrain.toml", "hexside")),
        weather=by_id(_rows(Weather, w["weather"], "weather.toml", "weather")),
        allowances=by_id(_rows(Allowance, mv["allowance"], "movement.toml", "allowance")),
        movement_rules=by_id(_rows(NamedValue, mv["rule"], "movement.toml", "rule")),
        infiltration_bands=tuple(_rows(Band, inf["band"], "infiltration.toml", "band")),
        infiltration_modifiers=tuple(_rows(Modifier, inf["modifier"], "infiltration.toml", "modifier")),
        jump_bands=tuple(_rows(Band, jp["band"], "jump.toml", "band")),
        jump_modifiers=tuple(_rows(Modifier, jp["modifier"], "jump.toml", "modifier")),
        weapons=by_id(_rows(Weapon, wp["weapon"], "weapons.toml", "weapon")),
        band_modifiers={b.band: b for b in _rows(BandModifier, wp["band_modifier"], "weapons.toml", "band_modifier")},
        fire_tables={k: _one(FireTable, ft[k], "fire_tables.toml", k) for k in ("vs_foot", "vs_mounted")},
        fire_results={(r.table, r.letter): r for r in _rows(FireResult, ft["result"], "fire_tables.toml", "result")},
        stray_shot=_one(StrayShot, ft["stray"], "fire_tables.toml", "stray"),
        defensive_spacing=_one(DefensiveSpacing, ft["defensive_spacing"], "fire_tables.toml", "defensive_spacing"),
        fire_modifiers=by_id(_rows(FireModifier, fm["modifier"], "fire_modifiers.toml", "modifier")),
        melee_tables={k: _one(MeleeTable, me[k], "melee.toml", k) for k in ("vs_foot", "vs_mounted")},
        melee_results={(r.table, r.letter): r for r in _rows(MeleeResult, me["result"], "melee.toml", "result")},
        terrain_shifts=tuple(_rows(TerrainShift, me["terrain_shift"], "melee.toml", "terrain_shift")),
        terrain_marks={m.mark: m for m in _rows(TerrainMark, me["terrain_mark"], "melee.toml", "terrain_mark")},
        odds=_one(Odds, me["odds"], "melee.toml", "odds"),
        melee_die=_one(MeleeDie, me["die"], "melee.toml", "die"),
        several_attackers=_one(SeveralAttackers, me["several_attackers"], "melee.toml", "several_attackers"),
        charge=_one(Charge, me["charge"], "melee.toml", "charge"),
        advance=_one(Advance, me["advance"], "melee.toml", "advance"),
        retreat=_one(Retreat, me["retreat"], "melee.toml", "retreat"),
        lone_horse=_one(LoneHorse, me["lone_horse"], "melee.toml", "lone_horse"),
        sections=by_id(_rows(Section, se["section"], "sections.toml", "section")),
        character_types=by_id(_rows(CharacterType, ro["type"], "roster.toml", "type")),
        lines=_one(LinesRules, t["lines"], "terrain.toml", "lines"),
        ransom=_one(Ransom, rn, "ransom.toml", "ransom"),
        camels=_one(Camels, cm, "camels.toml", "camels"),
        sequence=load_sequence(sq, "sequence.toml"),
    )


def load_sequence(doc: dict, file: str = "sequence.toml") -> Sequence:
    """The validated sequence of play of a ``sequence.toml`` document (each part named in the
    error: ``[turn]``, ``[phase]``, ``[[step]] #n``)."""
    for key in ("turn", "phase"):
        if not isinstance(doc.get(key), dict):
            raise RulesDataError(f"{file}: missing table [{key}]")
    turn = _one(SequenceTurn, doc["turn"], file, "turn")
    phase = _one(SequencePhase, doc["phase"], file, "phase")
    steps = tuple(_rows(SequenceStep, doc.get("step", []), file, "step"))
    extra = sorted(set(doc) - {"turn", "phase", "step"})
    if extra:
        raise RulesDataError(f"{file}: unknown table(s) {', '.join(extra)}")
    try:
        return Sequence(turn=turn, phase=phase, step=steps)
    except ValidationError as exc:
        raise RulesDataError(f"{file}: [[step]]: {exc.errors()[0]['msg']}") from None
