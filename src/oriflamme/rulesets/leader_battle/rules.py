"""The cited rules data of the leader-activation battle game (``data/*.toml``), validated.

Every number the engine applies is read from here; each row carries ``ref`` ("LB seed 001 l.N"
for the seed's rules, "LB house §x" for Oriflamme's house rules, docs/leader-battle.md).
A malformed file raises :class:`RulesDataError` naming the file, the field and the reason.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

Category = Literal["infantry", "cavalry", "archers", "artillery"]


class RulesDataError(Exception):
    """A rules data file is malformed (file, field, reason)."""


class Cited(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    ref: str = Field(min_length=3, pattern=r"^LB (seed 001 l\.|house §)")
    note: str = ""


class Kind(Cited):
    id: str
    category: Category
    name_en: str
    name_fr: str
    steps: int = Field(ge=1)
    movement: int = Field(ge=0)
    melee: bool
    attack: int = Field(ge=0)
    defence: int = Field(ge=1)
    fire: int = Field(ge=0)
    range: int = Field(ge=0)
    long_from: int = Field(ge=0)
    stack: int = Field(ge=1)

    @model_validator(mode="after")
    def _fire_needs_range(self):
        if self.fire and not (1 <= self.long_from <= self.range):
            raise ValueError("a kind that fires needs 1 <= long_from <= range")
        if self.melee != (self.attack > 0):
            raise ValueError("melee is true exactly when attack > 0")
        return self

    def name(self, lang: str = "en") -> str:
        return self.name_fr if lang == "fr" else self.name_en


class Step(Cited):
    id: str
    title_en: str
    title_fr: str
    house: str = ""


class FireOrder(Cited):
    side: Literal["attacker", "defender"]
    category: Literal["artillery", "archers"]


class Terrain(Cited):
    id: str
    name_en: str
    name_fr: str
    cost: int = Field(ge=1)
    cover: int = Field(ge=0)
    defence_shift: int


class Hexside(Cited):
    id: str
    name_en: str
    name_fr: str
    crossable: bool
    combat: bool
    attack_shift: int = 0


class Modifier(Cited):
    id: str
    value: int
    label_en: str
    label_fr: str


class Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    die: int = Field(ge=1, le=10)
    results: list[str]


class Table(Cited):
    columns: list[str]
    rows: list[Row]
    ratios: list[tuple[int, int]] = []

    @model_validator(mode="after")
    def _shape(self):
        if [r.die for r in self.rows] != list(range(1, 11)):
            raise ValueError("rows must be the dice 1 to 10 in order")
        for r in self.rows:
            if len(r.results) != len(self.columns):
                raise ValueError(f"row {r.die}: {len(r.results)} results for {len(self.columns)} columns")
        if self.ratios and len(self.ratios) != len(self.columns):
            raise ValueError("one ratio per column")
        return self

    def cell(self, column: int, die: int) -> str:
        return self.rows[die - 1].results[column]


class FireResult(Cited):
    id: str
    label_en: str
    label_fr: str


class CombatResult(Cited):
    id: str
    defender_steps: int = Field(ge=0)
    attacker_steps: int = Field(ge=0)
    defender_retreats: bool
    attacker_retreats: bool
    label_en: str
    label_fr: str


class Facing(Cited):
    front_directions: list[int]


class Stacking(Cited):
    limit: int = Field(ge=1)


class Movement(Cited):
    stop_next_to_enemy: bool


class Plain(Cited):
    pass


class Initiative(Cited):
    attacker_first_max: int = Field(ge=0, le=10)


class Retreat(Cited):
    hexes: int = Field(ge=1, le=1)
    blocked_steps: int = Field(ge=0)


class Rally(Cited):
    in_command_max: int = Field(ge=0, le=10)
    out_of_command_max: int = Field(ge=0, le=10)


class Rules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kinds: dict[str, Kind]
    steps: list[Step]
    fire_order: list[FireOrder]
    facing: Facing
    stacking: Stacking
    terrain: dict[str, Terrain]
    hexsides: dict[str, Hexside]
    movement: Movement
    command: Plain
    leader_loss: Plain
    initiative: Initiative
    activation: Plain
    fire: Table
    fire_modifiers: dict[str, Modifier]
    fire_results: dict[str, FireResult]
    combat: Table
    combat_shifts: dict[str, Modifier]
    combat_results: dict[str, CombatResult]
    retreat: Retreat
    advance: Plain
    rally: Rally
    victory: Plain

    @model_validator(mode="after")
    def _keys(self):
        for cell in {c for r in self.fire.rows for c in r.results}:
            if cell not in self.fire_results:
                raise ValueError(f"fire table: result {cell!r} is not a [[fire_result]]")
        for cell in {c for r in self.combat.rows for c in r.results}:
            if cell not in self.combat_results:
                raise ValueError(f"combat table: result {cell!r} is not a [[combat_result]]")
        if not self.combat.ratios:
            raise ValueError("combat: ratios missing")
        return self

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)


def _read(name: str) -> dict:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"data/{name}: not TOML ({exc})") from None


def _by_id(rows: list[dict]) -> dict:
    return {r["id"]: r for r in rows}


def build(units: dict, sequence: dict, rules: dict, source: str = "data/") -> Rules:
    """Validate the three files' contents (tests build variants to check the errors)."""
    try:
        return Rules(
            kinds=_by_id(units.get("kind", [])), steps=sequence.get("step", []),
            fire_order=sequence.get("fire_order", []),
            facing=rules.get("facing"), stacking=rules.get("stacking"), terrain=_by_id(rules.get("terrain", [])),
            hexsides=_by_id(rules.get("hexside", [])), movement=rules.get("movement"), command=rules.get("command"),
            leader_loss=rules.get("leader_loss"), initiative=rules.get("initiative"),
            activation=rules.get("activation"), fire=rules.get("fire"),
            fire_modifiers=_by_id(rules.get("fire_modifier", [])), fire_results=_by_id(rules.get("fire_result", [])),
            combat=rules.get("combat"), combat_shifts=_by_id(rules.get("combat_shift", [])),
            combat_results=_by_id(rules.get("combat_result", [])), retreat=rules.get("retreat"),
            advance=rules.get("advance"),
            rally=rules.get("rally"), victory=rules.get("victory"))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise RulesDataError(f"{source}: field {where}: {err['msg']}") from None


@lru_cache(maxsize=1)
def rules() -> Rules:
    return build(_read("units.toml"), _read("sequence.toml"), _read("rules.toml"))
