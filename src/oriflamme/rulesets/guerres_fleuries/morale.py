"""Morale data (``data/morale.toml``): who tests, the base by losses or by wound state, the result
tables and their codes. GF-I1: score = base + Σ modifiers + d4, read in the result table."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .rows import DataError, Row, document, load

FILE = "morale.toml"
CLASSES = ("A", "B", "C", "M")
STATES = ("none", "light", "serious", "grave")


class Losses(Row):
    step_pct: int
    last_column_pct: int
    printed: str
    en: str  # the English display (display.py)


class Tester(Row):
    id: str
    names: list[str]
    kind: Literal["troops", "creature", "monster"]
    base: str
    results: Literal["troops", "creatures", "monsters"]
    column: Literal["A", "B", "C"] | None = None


class Base(Row):
    table: str
    printed: str
    en: str = ""  # when the printed label holds French words (display.py)
    classes: list[Literal["A", "B", "C", "M"]]
    by_losses: list[int] = Field(min_length=6, max_length=6)


class WoundBase(Row):
    table: str
    printed: str
    en: str  # the English display (display.py)
    by_state: list[int] = Field(min_length=4, max_length=4)


class WoundState(Row):
    id: Literal["none", "light", "serious", "grave"]
    names: list[str]
    name_en: str  # the English display (display.py)


class Result(Row):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    table: Literal["troops", "creatures", "monsters"]
    printed: str
    en: str = ""  # when the printed label holds French words (display.py)
    low: int | None = Field(default=None, alias="from")
    high: int | None = Field(default=None, alias="to")
    codes: dict[str, Literal["AI", "O", "RET", "DER"]]

    def holds(self, score: int) -> bool:
        return (self.low is None or score >= self.low) and (self.high is None or score <= self.high)


class Code(Row):
    id: Literal["AI", "O", "RET", "DER"]
    printed: str
    name_en: str  # the English display (display.py)
    text_en: str


class Cause(Row):
    table: str
    printed: list[str]


class Morale(BaseModel):
    losses: Losses
    testers: dict[str, Tester]
    bases: tuple[Base, ...]
    wound_bases: dict[str, WoundBase]
    states: dict[str, WoundState]
    results: tuple[Result, ...]
    codes: dict[str, Code]
    causes: tuple[Cause, ...]

    def base_row(self, table: str, klass: str) -> Base:
        return next(b for b in self.bases if b.table == table and klass in b.classes)

    def result(self, table: str, score: int) -> Result:
        return next(r for r in self.results if r.table == table and r.holds(score))


@lru_cache(maxsize=1)
def data() -> Morale:
    doc = document(FILE)
    losses = load(Losses, FILE, "losses", {"losses": [doc.get("losses")]})[0]
    m = Morale(losses=losses,
               testers={t.id: t for t in load(Tester, FILE, "tester")},
               bases=tuple(load(Base, FILE, "base")),
               wound_bases={w.table: w for w in load(WoundBase, FILE, "wound_base")},
               states={s.id: s for s in load(WoundState, FILE, "wound_state")},
               results=tuple(load(Result, FILE, "result")),
               codes={c.id: c for c in load(Code, FILE, "code")},
               causes=tuple(load(Cause, FILE, "cause")))
    _check(m)
    return m


def _check(m: Morale) -> None:
    """Every tester's base exists; each result table covers every score exactly once."""
    for t in m.testers.values():
        if t.base not in {b.table for b in m.bases} | set(m.wound_bases):
            raise DataError(f"guerres_fleuries/data/{FILE}: [[tester]] {t.id}: base {t.base!r} has no rows")
    for table in ("troops", "creatures", "monsters"):
        rows = sorted((r for r in m.results if r.table == table), key=lambda r: r.low if r.low is not None else -10**9)
        if not rows or rows[0].low is not None or rows[-1].high is not None:
            raise DataError(f"guerres_fleuries/data/{FILE}: [[result]] {table}: the first row must have no 'from' "
                            "and the last no 'to' (every score has a result)")
        for a, b in zip(rows, rows[1:]):
            if a.high is None or b.low != a.high + 1:
                raise DataError(f"guerres_fleuries/data/{FILE}: [[result]] {table}: row {b.printed!r} does not "
                                f"follow row {a.printed!r}")
