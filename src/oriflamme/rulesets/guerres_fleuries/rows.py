"""Validated, cited rows of the ``data/`` folder.

Every row carries ``ref`` (its seed section, e.g. ``"GF Tirs > PBT"``, or a seed line
``"GF seed 003 l.1472"``) and, when a reading of ``SEED-NOTES-guerres-fleuries.md`` decides it,
``decision`` (``"GF-E4"``). :func:`load` names the file, the table, the row and the field of
any malformed entry.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from oriflamme.core.errors import OriflammeError
from oriflamme.core.tabledata import read_toml, validated_rows

PACKAGE = "oriflamme.rulesets.guerres_fleuries"


class DataError(OriflammeError):
    """A data file is malformed: names the file, the table, the row and the field."""


class Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    ref: str = Field(pattern=r"^GF\b", min_length=4)
    #: a reading of SEED-NOTES-guerres-fleuries.md (``GF-E4``), or one Oriflamme made where the notes
    #: are silent too (``OR-GF3``, listed in docs/decisions.md); several are comma-separated
    decision: str | None = Field(default=None, pattern=r"^(GF-[A-K][0-9]+|OR-GF[0-9]+)(, (GF-[A-K][0-9]+|OR-GF[0-9]+))*$")
    note: str = ""


@lru_cache(maxsize=None)
def document(name: str) -> dict:
    """A TOML file of ``data/`` (``name`` relative to it, e.g. ``"fire.toml"``)."""
    return read_toml(PACKAGE, name, DataError, where=f"guerres_fleuries/data/{name}")


def data_files(folder: str = "") -> list[str]:
    """The TOML files of ``data/`` (or of one of its sub-folders), as names for :func:`document`."""
    base = resources.files(PACKAGE).joinpath("data")
    if folder:
        base = base.joinpath(folder)
    prefix = f"{folder}/" if folder else ""
    return sorted(prefix + p.name for p in base.iterdir() if p.name.endswith(".toml"))


def load(model: type[BaseModel], name: str, table: str, doc: dict | None = None) -> list:
    """The rows of ``[[table]]`` in ``data/name``, validated with ``model``."""
    doc = document(name) if doc is None else doc
    items = doc.get(table)
    if not isinstance(items, list):
        raise DataError(f"guerres_fleuries/data/{name}: missing array of tables [[{table}]]")
    return validated_rows(model, items, f"guerres_fleuries/data/{name}", table, DataError)


def one(model: type[BaseModel], name: str, table: str) -> BaseModel:
    """The single ``[table]`` of ``data/name``."""
    doc = document(name)
    if not isinstance(doc.get(table), dict):
        raise DataError(f"guerres_fleuries/data/{name}: missing table [{table}]")
    return load(model, name, table, {table: [doc[table]]})[0]
