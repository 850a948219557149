"""Reading a ruleset's cited data files (``data/*.toml`` beside its package), shared by every
ruleset: the TOML read and the row-by-row pydantic validation, each error naming the file, the
table, the row (its number and id) and the field. A ruleset passes its own error class."""

from __future__ import annotations

import tomllib
from importlib import resources

from pydantic import BaseModel, ValidationError


def read_toml(package: str, name: str, error: type[Exception], where: str | None = None) -> dict:
    """``<package>/data/<name>`` parsed; a syntax error (or a missing file) raises ``error``
    naming ``where`` (default ``<package>/data/<name>``)."""
    where = where or f"{package}/data/{name}"
    path = resources.files(package).joinpath("data").joinpath(name)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{where}: missing file") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: {exc}") from None


def validated_rows(model: type[BaseModel], items, where: str, table: str, error: type[Exception],
                   id_keys: tuple[str, ...] = ("id",)) -> list:
    """Each item of ``[[table]]`` validated with ``model``; the first bad one raises ``error``:
    ``"<where>: [[table]] #n (id) field f: reason"`` (the id: the first of ``id_keys`` the row has,
    else its number from 0)."""
    out = []
    for i, item in enumerate(items):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            ident = next((item[k] for k in id_keys if k in item), i) if isinstance(item, dict) else i
            raise error(f"{where}: [[{table}]] #{i + 1} ({ident}) field {loc}: {err['msg']}") from None
    return out
