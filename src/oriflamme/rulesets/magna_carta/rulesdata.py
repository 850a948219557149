"""Rules data: the validated, cited tables of a ruleset.

Every table cell, cost and modifier Oriflamme applies is read from a TOML file of the ruleset's
``data/`` folder, validated here with pydantic, and carries its source in ``ref``. Code applies
rules by looking rows up by name; it does not hold rulebook numbers.

An **edition** (``oriflamme.rulesets.<edition>/edition.toml`` with ``base = "magna-carta"``) is an
overlay: its ``data/`` folder holds only the files that differ, merged onto the base's by
:func:`overlay_doc` (rows replaced or added by key, removed by ``[<table>_overlay] remove``,
single tables and ``sequence.toml`` replaced whole). See docs/architecture.md "Editions".
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from oriflamme.core.tabledata import read_toml, validated_rows

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
    # the mark of its occupant when he attacks, if not ``combat``: a "Def. +" hex is "+" to its
    # defender and "0" to him attacking (SEED-NOTES D4; Cry Havoc, Croisades)
    combat_attacking: Mark | None = None
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
    # marks and costs some editions print per hex (Croisades' desert, house and castle tables):
    combat_mounted: Mark | None = None   # the mark of a mounted character here ("Pied : 0 Personnage monté : -")
    no_combat: bool = False              # no melee with a character here from another terrain ("Combat impossible (à travers)")
    combat_with: list[str] = []          # ...except from these terrain ids (a tent from its opening)
    foot_from: dict[str, int] = {}       # on foot, entered from a hex of this terrain id: this cost ("1 depuis l'intérieur")

    def combat_blocked(self, other: "Terrain") -> bool:
        """Whether melee between a character here and one on ``other`` is impossible (either
        terrain's ``no_combat``, unless both are the same terrain or one lets the other in)."""
        def one(a: "Terrain", b: "Terrain") -> bool:
            return a.no_combat and b.id != a.id and b.id not in a.combat_with
        return one(self, other) or one(other, self)

    def foot_cost_from(self, frm: str, cost):
        """The cost on foot of entering this terrain from a hex of terrain ``frm``."""
        return self.foot_from.get(frm, cost) if cost != "impassable" else cost

    def mark_for(self, mounted: bool, attacking: bool) -> str:
        """The terrain mark of a fighter standing here (SEED-NOTES D4)."""
        if attacking and self.combat_attacking is not None:
            return self.combat_attacking
        if mounted and self.combat_mounted is not None:
            return self.combat_mounted
        return self.combat

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
    # a jump band (§4.4.3) whose fall kills the horse or not; None: the engine's reading of the
    # result (Magna Carta's bad landing kills it). Cry Havoc's "tombe et est blessé" does not
    horse_killed: bool | None = None


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
    die: int
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
    # Magna Carta's two tables; "infantry" / "cavalry": the damage columns of a two-step fire
    # (Cry Havoc, fire_steps.toml)
    table: Literal["vs_foot", "vs_mounted", "infantry", "cavalry"]
    letter: str
    text: str
    text_en: str = ""
    miss: bool = False
    stray_shot: bool = True  # a miss may hit someone else (MC §5.4.5); an edition may have none
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


# --- tables only some editions have (EDITION_TABLES) ------------------------------------------
class ToHit(Row):
    """Two-step fire, step 1: the target is reached (``hit``) on a modified die low..high."""
    hit: str = Field(min_length=1)
    low: int = Field(ge=1)
    high: int = Field(ge=1)


class StepModifier(Row):
    id: str
    value: int
    label: str


class DamageRow(Row):
    """Two-step fire, step 2: the result of one die by the target's column."""
    die: int = Field(ge=1)
    infantry: str
    cavalry: str


class FireSteps(BaseModel):
    """Fire in two steps (Cry Havoc, fire_steps.toml): to hit, then damage."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    to_hit: ToHit
    to_hit_modifier: list[StepModifier]
    damage: list[DamageRow] = Field(min_length=1)
    damage_modifier: list[StepModifier]

    def to_hit_mod(self, mid: str) -> StepModifier:
        return next(m for m in self.to_hit_modifier if m.id == mid)

    def damage_mod(self, mid: str) -> StepModifier | None:
        return next((m for m in self.damage_modifier if m.id == mid), None)

    def damage_row(self, die: int) -> DamageRow:
        """The row of a modified die: below the first reads the first, above the last reads
        the last (SEED-NOTES D6, D16)."""
        rows = sorted(self.damage, key=lambda r: r.die)
        die = min(max(die, rows[0].die), rows[-1].die)
        return next(r for r in rows if r.die == die)


class Fallback(Row):
    """A rule whose table the edition lost: the base's rule used instead, and the words that
    say so (rulings, docs, UI)."""
    id: str
    rule: str
    used: str
    text_en: str
    text_fr: str


class SurvivingColumn(Row):
    table: str
    column: str
    results: list[str]


class ResultKey(Row):
    letter: str
    text: str


class Fallbacks(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    fallback: list[Fallback]
    surviving: list[SurvivingColumn] = []
    key: list[ResultKey] = []

    def get(self, fid: str) -> Fallback | None:
        return next((f for f in self.fallback if f.id == fid), None)


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
    # --- the edition (docs/architecture.md "Editions") ----------------------------------------
    base: str | None = None  # the ruleset this one overlays (None: a base ruleset)
    title_fr: str = ""
    packages: tuple[str, ...] = ()  # the Python packages of its data, the edition's first
    seed: str = ""  # the seed file the edition's rows cite
    ref_prefix: str = "MC"  # the prefix of its citations ("CH", "CR")
    #: the data files the edition overrides (names in its data/ folder), for the rules diff
    overridden_files: tuple[str, ...] = ()
    fire_steps: FireSteps | None = None  # fire in two steps (Cry Havoc)
    fallbacks: Fallbacks | None = None  # lost tables and the base's rule used instead

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
    return read_toml(package, name, RulesDataError)


def _rows(model, items, file: str, table: str):
    return validated_rows(model, items, file, table, RulesDataError, id_keys=("id", "letter"))


def _one(model, item, file: str, table: str):
    return _rows(model, [item], file, table)[0]


BASE_ID = "magna-carta"
BASE_PACKAGE = "oriflamme.rulesets.magna_carta"
ALIASES = {"mc": "magna-carta", "magna_carta": "magna-carta", "magnacarta": "magna-carta", "la magna carta": "magna-carta"}


class Edition(BaseModel):
    """``edition.toml`` of an edition package: who it is and what it overlays."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    base: Literal["magna-carta"]
    title: str = Field(min_length=1)
    title_fr: str = Field(min_length=1)
    seed: str = Field(min_length=1)  # the file in ../shared/seeds/ its rows cite
    ref_prefix: str = Field(pattern=r"^[A-Z]{1,4}$")
    aliases: list[str] = []
    note: str = ""


@lru_cache(maxsize=None)
def editions() -> dict[str, tuple[str, Edition]]:
    """The editions installed beside Magna Carta: every package ``oriflamme.rulesets.<name>``
    holding an ``edition.toml`` (id -> (package, edition)). Found by looking, so that adding an
    edition changes no file of the base."""
    out: dict[str, tuple[str, Edition]] = {}
    root = resources.files("oriflamme.rulesets")
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        f = entry.joinpath("edition.toml") if entry.is_dir() else None
        if f is None or not f.is_file():
            continue
        source = f"oriflamme/rulesets/{entry.name}/edition.toml"
        try:
            ed = Edition.model_validate(tomllib.loads(f.read_text(encoding="utf-8")))
        except tomllib.TOMLDecodeError as exc:
            raise RulesDataError(f"{source}: {exc}") from None
        except ValidationError as exc:
            err = exc.errors()[0]
            raise RulesDataError(f"{source}: field {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
        out[ed.id] = (f"oriflamme.rulesets.{entry.name}", ed)
    return out


def _packages() -> dict[str, str]:
    return {BASE_ID: BASE_PACKAGE, **{rid: pkg for rid, (pkg, _) in editions().items()}}


def _aliases() -> dict[str, str]:
    out = dict(ALIASES)
    for rid, (_, ed) in editions().items():
        for a in ed.aliases:
            out[fold(a)] = rid
    return out


def ruleset_id(text: str) -> str:
    known = _packages()
    aliases = _aliases()
    key = fold(text).replace(" ", "-")
    key = aliases.get(fold(text), aliases.get(key, key))
    if key not in known:
        raise KeyError(f"unknown ruleset {text!r} (known: {', '.join(known)})")
    return key


def package_of(rid: str) -> str:
    """The Python package of a ruleset's data (an edition's own package)."""
    return _packages()[ruleset_id(rid)]


def packages_of(rid: str) -> tuple[str, ...]:
    """The packages to look in for a ruleset's files (scenarios, boards, hooks): the edition's
    own first, then its base's."""
    rid = ruleset_id(rid)
    if rid == BASE_ID:
        return (BASE_PACKAGE,)
    return (package_of(rid), BASE_PACKAGE)


# --- the overlay ----------------------------------------------------------------------------------
#: The key of a row in each row table (``[[name]]``): a row of the edition with the key of a
#: base row replaces it; a new key adds a row. Tables not listed here have no key: an edition's
#: rows replace the base's whole list.
ROW_KEYS: dict[str, tuple[str, ...]] = {
    "terrain": ("id",), "hexside": ("id",), "weather": ("id",), "allowance": ("id",), "rule": ("id",),
    "weapon": ("id",), "band_modifier": ("band",), "section": ("id",), "type": ("id",),
    "escort": ("id",), "animal": ("kind",), "terrain_mark": ("mark",), "step": ("id",),
    "result": ("table", "letter"), "modifier": ("id",),
}
#: ``[[modifier]]`` rows are keyed by ``id`` (fire modifiers) or ``condition`` (jump, infiltration)
_ALT_KEYS = {"modifier": ("condition",), "fear_modifier": ("condition",)}
#: files an edition replaces whole rather than row by row
WHOLE_FILES = frozenset({"sequence.toml"})
OVERLAY_SUFFIX = "_overlay"


def _row_key(table: str, row: dict, file: str):
    for fields in (ROW_KEYS.get(table), _ALT_KEYS.get(table)):
        if fields and all(f in row for f in fields):
            return tuple(row[f] for f in fields)
    if table in ROW_KEYS or table in _ALT_KEYS:
        want = " + ".join(ROW_KEYS.get(table) or _ALT_KEYS[table])
        raise RulesDataError(f"{file}: [[{table}]] row without its key ({want}): {row!r}")
    return None


def overlay_doc(base: dict, over: dict, file: str) -> dict:
    """The base document with an edition's document laid over it:

    * a row table ``[[t]]`` of the edition: each row whose key (:data:`ROW_KEYS`) is a base
      row's replaces that row entirely, in place; a new key adds the row at the end. A table
      without a key (``[[band]]``…) is replaced whole;
    * ``[t_overlay] remove = [key, ...]`` removes base rows (a composite key is written as a
      list: ``remove = [["vs_foot", "C"]]``); ``[t_overlay] replace = true`` replaces the base's
      whole list by the edition's rows;
    * any other table ``[t]`` (``[odds]``, ``[charge]``) or value replaces the base's.
    """
    out = dict(base)
    controls = {k[: -len(OVERLAY_SUFFIX)]: v for k, v in over.items() if k.endswith(OVERLAY_SUFFIX)}
    for name, ctl in controls.items():
        if not isinstance(ctl, dict) or set(ctl) - {"remove", "replace", "ref", "note"}:
            raise RulesDataError(f"{file}: [{name}{OVERLAY_SUFFIX}]: only `remove`, `replace`, `ref` and `note` are allowed")
        if not isinstance(base.get(name), list):
            raise RulesDataError(f"{file}: [{name}{OVERLAY_SUFFIX}]: the base has no row table [[{name}]]")
    for name, value in over.items():
        if name.endswith(OVERLAY_SUFFIX):
            continue
        ctl = controls.get(name, {})
        if isinstance(value, list) and value and all(isinstance(r, dict) for r in value) and isinstance(base.get(name), list):
            keyed = _row_key(name, value[0], file) is not None
            if ctl.get("replace") or not keyed:
                out[name] = list(value)
                continue
            rows = list(base[name])
            index = {_row_key(name, r, file): i for i, r in enumerate(rows)}
            for r in value:
                k = _row_key(name, r, file)
                if k in index:
                    rows[index[k]] = r
                else:
                    index[k] = len(rows)
                    rows.append(r)
            out[name] = rows
        else:
            out[name] = value
    for name, ctl in controls.items():
        removed = ctl.get("remove", [])
        if not isinstance(removed, list):
            raise RulesDataError(f"{file}: [{name}{OVERLAY_SUFFIX}] remove: expected a list of keys")
        keys = {tuple(k) if isinstance(k, list) else (k,) for k in removed}
        present = {_row_key(name, r, file) for r in out[name]}
        unknown = sorted(str(k if len(k) > 1 else k[0]) for k in keys - present)
        if unknown:
            raise RulesDataError(f"{file}: [{name}{OVERLAY_SUFFIX}] remove: no base row {', '.join(unknown)}")
        out[name] = [r for r in out[name] if _row_key(name, r, file) not in keys]
    return out


def _has_data(package: str, name: str) -> bool:
    return resources.files(package).joinpath("data").joinpath(name).is_file()


def ruleset_doc(rid: str, name: str) -> dict:
    """The document ``data/<name>`` of a ruleset: the base's, with an edition's file laid over
    it (:func:`overlay_doc`; ``sequence.toml`` is replaced whole). ``{}`` if neither has it."""
    rid = ruleset_id(rid)
    if rid == BASE_ID:
        return _load_toml(BASE_PACKAGE, name) if _has_data(BASE_PACKAGE, name) else {}
    pkg, ed = editions()[rid]
    base = ruleset_doc(ed.base, name)
    if not _has_data(pkg, name):
        return base
    over = _load_toml(pkg, name)
    if name in WHOLE_FILES or not base:
        return over
    return overlay_doc(base, over, f"{pkg.rsplit('.', 1)[-1]}/data/{name}")


def overridden_files(rid: str) -> tuple[str, ...]:
    rid = ruleset_id(rid)
    if rid == BASE_ID:
        return ()
    pkg = package_of(rid)
    folder = resources.files(pkg).joinpath("data")
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml")))


#: Tables only some editions have (a data file the base lacks): Ruleset field -> loader(rid)
#: returning the validated table or None. An edition adds its loader here.
def _edition_table(model, name: str):
    def load(rid: str):
        doc = ruleset_doc(rid, name)
        return _one(model, doc, name, name.removesuffix(".toml")) if doc else None
    return load


EDITION_TABLES: dict = {
    "fire_steps": _edition_table(FireSteps, "fire_steps.toml"),
    "fallbacks": _edition_table(Fallbacks, "fallbacks.toml"),
}


@lru_cache(maxsize=None)
def load_ruleset(rid: str = "magna-carta") -> Ruleset:
    rid = ruleset_id(rid)

    def doc(name):
        return ruleset_doc(rid, name)

    t = doc("terrain.toml")
    w = doc("weather.toml")
    mv = doc("movement.toml")
    inf = doc("infiltration.toml")
    jp = doc("jump.toml")
    wp = doc("weapons.toml")
    ft = doc("fire_tables.toml")
    fm = doc("fire_modifiers.toml")
    me = doc("melee.toml")
    se = doc("sections.toml")
    ro = doc("roster.toml")
    rn = doc("ransom.toml")
    cm = doc("camels.toml")
    sq = doc("sequence.toml")
    if rid == BASE_ID:
        ident = dict(title="La Magna Carta v1.2", title_fr="La Magna Carta v1.2", packages=(BASE_PACKAGE,))
    else:
        pkg, ed = editions()[rid]
        ident = dict(base=ed.base, title=ed.title, title_fr=ed.title_fr, packages=packages_of(rid), seed=ed.seed,
                     ref_prefix=ed.ref_prefix, overridden_files=overridden_files(rid))
    extra = {field: loader(rid) for field, loader in EDITION_TABLES.items()}

    def by_id(rows):
        return {r.id: r for r in rows}

    return Ruleset(
        id=rid,
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
        camels=_one(Camels, cm, "camels.toml", "camels") if cm else None,
        sequence=load_sequence(sq, "sequence.toml"),
        **ident,
        **extra,
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
