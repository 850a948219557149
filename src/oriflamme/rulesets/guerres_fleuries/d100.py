"""Tables read on a die (``data/tables/<name>.toml``): ``[table]`` (``title``, ``die`` = 100, 10,
6 or 4, ``ref``) and ``[[row]]`` (``from``, ``to``, ``result`` as printed, ``result_en``,
``ref``, optional ``decision``). The rows cover the die exactly once (checked on loading)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from .names import RefereeError
from .rows import DataError, Row, data_files, document, load


class TableHead(Row):
    title: str
    title_en: str = ""
    die: int = 100


class TableRow(Row):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    low: int = Field(alias="from")
    high: int = Field(alias="to")
    result: str
    result_en: str = ""
    effect: str = ""  # a row's printed explanation when the result is a name (curses)
    effect_en: str = ""


class Table(BaseModel):
    name: str
    head: TableHead
    rows: tuple[TableRow, ...]

    def read(self, roll, field: str = "d100") -> TableRow:
        if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= self.head.die:
            raise RefereeError(f"field {field}: expected an integer from 1 to {self.head.die}, got {roll!r}")
        return next(r for r in self.rows if r.low <= roll <= r.high)


def names() -> list[str]:
    return [n.removeprefix("tables/").removesuffix(".toml") for n in data_files("tables")]


@lru_cache(maxsize=None)
def table(name: str) -> Table:
    file = f"tables/{name}.toml"
    doc = document(file)
    head = load(TableHead, file, "table", {"table": [doc.get("table")]})[0] if isinstance(doc.get("table"), dict) \
        else None
    if head is None:
        raise DataError(f"guerres_fleuries/data/{file}: missing table [table]")
    rows = tuple(sorted(load(TableRow, file, "row"), key=lambda r: r.low))
    expected = 1
    for r in rows:
        if r.low != expected or r.high < r.low:
            raise DataError(f"guerres_fleuries/data/{file}: rows must cover 1–{head.die} once; "
                            f"row {r.low}–{r.high} found where {expected} was expected")
        expected = r.high + 1
    if expected != head.die + 1:
        raise DataError(f"guerres_fleuries/data/{file}: rows stop at {expected - 1}, the die goes to {head.die}")
    return Table(name=name, head=head, rows=rows)
