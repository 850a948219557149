"""Reading a situation's fields for the turn kinds (command, movement, fire, melee): each error names the field and the reason."""

from __future__ import annotations

from ..names import RefereeError


def integer(situation: dict, field: str, low: int, high: int, *, required: bool = True, default=None):
    value = situation.get(field)
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing (an integer from {low} to {high})")
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RefereeError(f"field {field}: expected an integer from {low} to {high}, got {value!r}")
    return value


def number(situation: dict, field: str, low: float, high: float, *, required: bool = True, default=None):
    value = situation.get(field)
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing (a number from {low} to {high})")
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
        raise RefereeError(f"field {field}: expected a number from {low} to {high}, got {value!r}")
    return value


def boolean(situation: dict, field: str, default: bool = False) -> bool:
    value = situation.get(field, default)
    if not isinstance(value, bool):
        raise RefereeError(f"field {field}: expected true or false, got {value!r}")
    return value


def known(situation: dict, fields: set[str]) -> None:
    """Refuse a field the kind does not read (a typo would otherwise be silently ignored)."""
    extra = sorted(set(situation) - fields - {"kind", "ruleset"})
    if extra:
        raise RefereeError(f"field {extra[0]}: not a field of kind {situation.get('kind')!r} "
                           f"(fields: {', '.join(sorted(fields))})")


def one_of(situation: dict, fields: tuple[str, ...]) -> str:
    given = [f for f in fields if situation.get(f) is not None]
    if len(given) != 1:
        raise RefereeError(f"field {'/'.join(fields)}: give exactly one of {', '.join(fields)}")
    return given[0]
