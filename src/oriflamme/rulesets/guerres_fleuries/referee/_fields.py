"""Reading a situation's fields: dice, integers, numbers, flags, the fields a kind knows; each error
names the field and the reason. (``_checks.py`` gives the turn kinds' spelling of the same readers.)"""

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


def _bounded(situation: dict, field: str, what: str, types: tuple, low, high, required: bool, default,
             missing: str):
    value = situation.get(field)
    bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
    if value is None:
        if required:
            raise RefereeError(f"field {field}: missing ({missing or f'{what} {bound}'})")
        return default
    if (not isinstance(value, types) or isinstance(value, bool) or value != value
            or value < low or (high is not None and value > high)):
        raise RefereeError(f"field {field}: expected {what} {bound}, got {value!r}")
    return value


def integer(situation: dict, field: str, *, low: int = 0, high: int | None = None, required: bool = False,
            default: int | None = None) -> int | None:
    return _bounded(situation, field, "an integer", (int,), low, high, required, default,
                    "" if high is not None else "an integer")


def number(situation: dict, field: str, *, low: float = 0, high: float | None = None, required: bool = True,
           default: float | None = None) -> float | None:
    """A number (a distance in cm by default: at least 0)."""
    return _bounded(situation, field, "a number", (int, float), low, high, required, default,
                    "" if high is not None else "a distance in cm")


def flag(situation: dict, field: str, default: bool = False) -> bool:
    value = situation.get(field, default)
    if not isinstance(value, bool):
        raise RefereeError(f"field {field}: expected true or false, got {value!r}")
    return value


def only(situation: dict, allowed: set[str], kind_name: str | None = None) -> None:
    """Refuse a field the kind does not know (a misspelt field would otherwise be ignored)."""
    extra = sorted(set(situation) - allowed - {"kind", "ruleset"})
    if extra:
        name = kind_name if kind_name is not None else repr(situation.get("kind"))
        raise RefereeError(f"field {extra[0]}: not a field of kind {name} "
                           f"(fields: {', '.join(sorted(allowed))})")


def one_of(situation: dict, fields: tuple[str, ...]) -> str:
    """The one field of ``fields`` the situation gives (exactly one must be given)."""
    given = [f for f in fields if situation.get(f) is not None]
    if len(given) != 1:
        raise RefereeError(f"field {'/'.join(fields)}: give exactly one of {', '.join(fields)}")
    return given[0]
