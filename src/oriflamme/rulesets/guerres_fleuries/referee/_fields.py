"""Reading a situation's fields: dice, integers, flags; each error names the field and the reason."""

from __future__ import annotations

from ..names import RefereeError

DICE = {"d100": 100, "d10": 10, "d6": 6, "d4": 4}


def die(situation: dict, field: str, *, sides: int | None = None, required: bool = True) -> int | None:
    """The roll in ``field`` ("d100", "d10", "d6", "d4", or another field with ``sides``): an
    integer from 1 to the die's sides."""
    sides = sides or DICE[field]
    value = situation.get(field)
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing (a roll of 1d{sides}, an integer from 1 to {sides})")
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
        raise RefereeError(f"field {field}: expected an integer from 1 to {sides} (1d{sides}), got {value!r}")
    return value


def integer(situation: dict, field: str, *, low: int = 0, high: int | None = None, required: bool = False,
            default: int | None = None) -> int | None:
    value = situation.get(field)
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing (an integer)")
        return default
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise RefereeError(f"field {field}: expected an integer {bound}, got {value!r}")
    return value


def number(situation: dict, field: str, *, required: bool = True) -> float | None:
    value = situation.get(field)
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing (a distance in cm)")
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0 or value != value:
        raise RefereeError(f"field {field}: expected a number of at least 0, got {value!r}")
    return value


def flag(situation: dict, field: str) -> bool:
    value = situation.get(field, False)
    if not isinstance(value, bool):
        raise RefereeError(f"field {field}: expected true or false, got {value!r}")
    return value


def only(situation: dict, allowed: set[str], kind_name: str) -> None:
    """Refuse a field the kind does not know (a misspelt field would otherwise be ignored)."""
    extra = sorted(set(situation) - allowed - {"kind", "ruleset"})
    if extra:
        raise RefereeError(f"field {extra[0]}: not a field of kind {kind_name} "
                           f"(fields: {', '.join(sorted(allowed))})")
