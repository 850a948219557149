"""Scenarios of the leader-activation battle game: a TOML file validated with pydantic into a
:class:`Scenario` (the map, its hexsides that forbid crossing or combat, the banner, the sides,
leaders and units). Errors name the file, the field and the reason."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from oriflamme.core.errors import ScenarioError
from oriflamme.geometry.hexgrid import Hex

from .rules import rules

HERE = Path(__file__).parent / "scenarios"


def parse_hex(label: str) -> Hex:
    try:
        return Hex.from_label(label)
    except ValueError as exc:
        raise ValueError(str(exc)) from None


def pair(text: str) -> tuple[Hex, Hex]:
    a, sep, b = text.partition("-")
    if not sep:
        raise ValueError(f"a hexside is written CCRR-CCRR, not {text!r}")
    ha, hb = parse_hex(a), parse_hex(b)
    if ha.distance(hb) != 1:
        raise ValueError(f"{text}: the two hexes are not adjacent")
    return ha, hb


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideSpec(Strict):
    id: str = Field(min_length=1)
    name: str
    name_fr: str = ""
    break_point: int = Field(ge=1)


class LeaderSpec(Strict):
    id: str = Field(min_length=1)
    side: str
    name: str
    hex: str
    command_range: int = Field(ge=0)
    movement: int = Field(ge=0)

    @field_validator("hex")
    @classmethod
    def _hex(cls, v):
        parse_hex(v)
        return v


class UnitSpec(Strict):
    id: str = Field(min_length=1)
    side: str
    kind: str
    name: str
    hex: str
    facing: int = Field(ge=0, le=5)
    leader: str
    steps: int | None = Field(default=None, ge=1)

    @field_validator("hex")
    @classmethod
    def _hex(cls, v):
        parse_hex(v)
        return v

    @field_validator("kind")
    @classmethod
    def _kind(cls, v):
        if v not in rules().kinds:
            raise ValueError(f"unknown unit kind {v!r} (kinds: {', '.join(rules().kinds)})")
        return v


class Banner(Strict):
    hex: str
    facing: int = Field(ge=0, le=5)
    name: str
    name_fr: str = ""


class Scenario(Strict):
    ruleset: str = "leader-battle"
    id: str = Field(min_length=1)
    name: str
    name_fr: str = ""
    description: str = ""
    description_fr: str = ""
    turns: int = Field(ge=1, le=30)
    cols: int = Field(ge=2, le=40)
    rows: int = Field(ge=2, le=40)
    attacker: str
    objectives: list[str] = []
    objectives_needed: int = Field(default=0, ge=0)
    terrain: dict[str, list[str]] = {}
    hexsides: dict[str, list[str]] = {}
    banner: Banner | None = None
    side: list[SideSpec]
    leader: list[LeaderSpec]
    unit: list[UnitSpec]

    @model_validator(mode="after")
    def _consistent(self):
        r = rules()
        if self.ruleset != "leader-battle":
            raise ValueError(f"ruleset: this scenario is for {self.ruleset!r}, not 'leader-battle'")
        sides = [s.id for s in self.side]
        if len(sides) != 2 or len(set(sides)) != 2:
            raise ValueError("side: expected two sides with distinct ids")
        if self.attacker not in sides:
            raise ValueError(f"attacker: {self.attacker!r} is not a side")
        for t in self.terrain:
            if t not in r.terrain:
                raise ValueError(f"terrain: unknown terrain {t!r}")
        for kind, sides_list in self.hexsides.items():
            if kind not in r.hexsides or kind == "banner":
                raise ValueError(f"hexsides: unknown hexside kind {kind!r}")
            for text in sides_list:
                pair(text)
        leaders = {}
        for ld in self.leader:
            if ld.side not in sides:
                raise ValueError(f"leader {ld.id}: side {ld.side!r} is not a side")
            if ld.id in leaders:
                raise ValueError(f"leader {ld.id}: duplicate id")
            leaders[ld.id] = ld
        ids = set()
        for u in self.unit:
            if u.id in ids or u.id in leaders:
                raise ValueError(f"unit {u.id}: duplicate id")
            ids.add(u.id)
            if u.side not in sides:
                raise ValueError(f"unit {u.id}: side {u.side!r} is not a side")
            if u.leader not in leaders or leaders[u.leader].side != u.side:
                raise ValueError(f"unit {u.id}: leader {u.leader!r} is not a leader of {u.side}")
            if u.steps is not None and u.steps > r.kinds[u.kind].steps:
                raise ValueError(f"unit {u.id}: steps {u.steps} above the kind's {r.kinds[u.kind].steps}")
        for lab in [u.hex for u in self.unit] + [ld.hex for ld in self.leader] + self.objectives:
            h = parse_hex(lab)
            if not (0 <= h.col < self.cols and 0 <= h.row < self.rows):
                raise ValueError(f"hex {lab} is off the {self.cols}x{self.rows} map")
        load = {}
        for u in self.unit:
            load[u.hex] = load.get(u.hex, 0) + r.kinds[u.kind].stack
        for lab, pts in load.items():
            if pts > r.stacking.limit:
                raise ValueError(f"hex {lab}: {pts} stacking points, the limit is {r.stacking.limit} ({r.stacking.ref})")
        if self.objectives_needed > len(self.objectives):
            raise ValueError("objectives_needed: more than the objectives listed")
        return self


def from_data(data: Any, source: str) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario must be a table (object)")
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(scenario)"
        msg = err["msg"].removeprefix("Value error, ")
        raise ScenarioError(f"{source}: field {where}: {msg}") from None


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load(name_or_path: str) -> Scenario:
    path = HERE / f"{name_or_path}.toml"
    if not path.is_file():
        path = Path(name_or_path)
    if not path.is_file():
        raise ScenarioError(f"{name_or_path}: no such scenario (bundled: {', '.join(scenario_ids())})")
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{path}: not {'JSON' if path.suffix == '.json' else 'TOML'} ({exc})") from None
    return from_data(data, str(path))
