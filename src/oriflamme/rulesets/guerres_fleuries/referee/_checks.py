"""The turn kinds' (command, movement, fire, melee) spelling of the field readers of
:mod:`._fields`: bounds given positionally, and a field required unless said otherwise."""

from __future__ import annotations

from . import _fields
from ._fields import one_of  # noqa: F401  (re-exported for the turn kinds)


def integer(situation: dict, field: str, low: int, high: int, *, required: bool = True, default=None):
    return _fields.integer(situation, field, low=low, high=high, required=required, default=default)


def number(situation: dict, field: str, low: float, high: float, *, required: bool = True, default=None):
    return _fields.number(situation, field, low=low, high=high, required=required, default=default)


def boolean(situation: dict, field: str, default: bool = False) -> bool:
    return _fields.flag(situation, field, default)


def known(situation: dict, fields: set[str]) -> None:
    """Refuse a field the kind does not read (a typo would otherwise be silently ignored)."""
    _fields.only(situation, fields)
