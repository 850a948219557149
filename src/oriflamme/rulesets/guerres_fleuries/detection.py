"""Detection data (``data/detection.toml``): the columns (up to N cm), the target positions and
their cells. GF-K1: shifts are summed and stop at the table's edge; ".." automatic, "imp"
impossible, a number is d10 >= number."""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, field_validator

from .rows import DataError, Row, document, load

FILE = "detection.toml"


class Rules(Row):
    printed: str
    die: int


class Note(Row):
    printed: str
    text_en: str


class Column(Row):
    printed: str
    up_to_cm: int | None = None


class Position(Row):
    id: str
    printed: str
    names: list[str]
    cells: list[str]

    @field_validator("cells")
    @classmethod
    def _cells(cls, cells: list[str]) -> list[str]:
        for c in cells:
            if c not in ("..", "imp") and not re.fullmatch(r"[1-9]|10", c):
                raise ValueError(f"a cell is '..', 'imp' or a d10 score, not {c!r}")
        return cells


class Detection(BaseModel):
    rules: Rules
    notes: tuple[Note, ...]
    columns: tuple[Column, ...]
    positions: dict[str, Position]

    def column_of(self, distance_cm: float) -> int:
        """GF-K1: the first column whose "up to" bound holds the distance (the last has none)."""
        return next(i for i, c in enumerate(self.columns) if c.up_to_cm is None or distance_cm <= c.up_to_cm)


@lru_cache(maxsize=1)
def data() -> Detection:
    doc = document(FILE)
    d = Detection(rules=load(Rules, FILE, "rules", {"rules": [doc.get("rules")]})[0],
                  notes=tuple(load(Note, FILE, "note")),
                  columns=tuple(load(Column, FILE, "column")),
                  positions={p.id: p for p in load(Position, FILE, "position")})
    bounds = [c.up_to_cm for c in d.columns]
    if bounds[-1] is not None or any(b is None for b in bounds[:-1]) or bounds[:-1] != sorted(bounds[:-1]):
        raise DataError(f"guerres_fleuries/data/{FILE}: [[column]] bounds must increase, the last one open")
    for p in d.positions.values():
        if len(p.cells) != len(d.columns):
            raise DataError(f"guerres_fleuries/data/{FILE}: [[position]] {p.id}: {len(p.cells)} cells for "
                            f"{len(d.columns)} columns")
    return d
