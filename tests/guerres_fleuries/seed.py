"""The Guerres Fleuries seed, read by the tests that check the data against it.

``shared/seeds/003_97839088d07a509e.txt`` is tab-separated: a table is a heading (``## …`` or
``### …``) followed by rows whose cells are separated by tabs. :func:`rows_under` gives those
rows as lists of cells, so a test re-parses the printed numbers and compares them with
``data/``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_NAME = Path("shared") / "seeds" / "003_97839088d07a509e.txt"
# beside the project (/work/main -> /work/shared), or beside a parent folder (a git worktree)
SEED = next((p / _NAME for p in Path(__file__).resolve().parents[2].parents if (p / _NAME).exists()),
            Path(__file__).resolve().parents[2].parent / _NAME)


@lru_cache(maxsize=1)
def lines() -> tuple[str, ...]:
    return tuple(SEED.read_text(encoding="utf-8").splitlines())


def line(n: int) -> str:
    """Line ``n`` of the seed (1-based, as cited: ``GF seed 003 l.N``)."""
    return lines()[n - 1]


def find(text: str, start: int = 1) -> int:
    """The first line number at or after ``start`` that contains ``text``."""
    for i in range(start, len(lines()) + 1):
        if text in lines()[i - 1]:
            return i
    raise LookupError(f"{text!r} not in the seed after line {start}")


def rows_under(heading: str, start: int = 1, stop_at_heading: bool = True) -> list[list[str]]:
    """The tab-separated rows after the first line at or after ``start`` containing
    ``heading``, up to the next heading (a line starting with ``#``)."""
    first = find(heading, start)
    out = []
    for text in lines()[first:]:
        if stop_at_heading and text.lstrip().startswith("#"):
            break
        if "\t" in text:
            out.append([c.strip() for c in text.split("\t")])
    return out
