"""Wound tables (``data/wounds.toml`` and ``data/tables/wound_location_<table>.toml``): the location
on d100, the wound on d4. GF-G1 (character torso 46–73), GF-G2 (a second serious-or-critical wound
kills; severe counts as serious), GF-G3 (the wound state for morale and magic)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

from . import d100
from .rows import DataError, Row, load

FILE = "wounds.toml"
TABLES = {"personnages": ["personnages", "personnage", "characters", "character"],
          "monstres": ["monstres", "monstre", "monsters", "monster"],
          "pteradon": ["pteradon", "Ptéradon"]}
SERIOUS = ("severe", "serious", "critical")


class Rule(Row):
    table: str
    printed: str
    text_en: str


class Cell(Row):
    table: Literal["personnages", "monstres", "pteradon"]
    location: str
    d4: int
    printed: str
    severity: Literal["dead", "stunned", "blind", "light", "cut", "wounded", "severe", "serious", "critical"]
    state: Literal["none", "light", "serious", "grave"]
    dies: bool
    text_en: str


class Wounds(BaseModel):
    rules: dict[str, Rule]
    cells: dict[tuple[str, str, int], Cell]

    def location(self, table: str) -> d100.Table:
        return d100.table(f"wound_location_{table}")


@lru_cache(maxsize=1)
def data() -> Wounds:
    cells = {(c.table, c.location, c.d4): c for c in load(Cell, FILE, "cell")}
    rules = {r.table: r for r in load(Rule, FILE, "rule")}
    for table in TABLES:
        for row in d100.table(f"wound_location_{table}").rows:
            for d4 in range(1, 5):
                if (table, row.result, d4) not in cells:
                    raise DataError(f"guerres_fleuries/data/{FILE}: [[cell]] missing for table {table}, "
                                    f"location {row.result}, d4 {d4}")
        if table not in rules:
            raise DataError(f"guerres_fleuries/data/{FILE}: [[rule]] missing for table {table}")
    return Wounds(rules=rules, cells=cells)
