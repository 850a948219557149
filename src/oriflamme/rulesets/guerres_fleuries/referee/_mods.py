"""A kind's modifier list, with the modifiers its own fields imply added when not already given."""

from __future__ import annotations

from .. import modifiers
from ..names import RefereeError


def gather(table: str, given, implied: list[tuple[str, int, str]], character, r,
           forbidden: dict[str, str] | None = None) -> tuple[int, list[dict]]:
    """Apply ``given`` plus each ``(id, count, why)`` of ``implied`` that ``given`` lacks; a
    modifier of ``forbidden`` (id -> the field to use instead) is refused."""
    if given is None:
        given = []
    if not isinstance(given, list):
        raise RefereeError('field modifiers: expected a list of {"modifier": NAME, "count": N}')
    _, terms = modifiers.applied(table, given, character)
    ids = {t["modifier"] for t in terms}
    for mid, field in (forbidden or {}).items():
        if mid in ids:
            row = modifiers.modifiers(table)[mid]
            raise RefereeError(f"field modifiers: {row.printed!r} comes from the field {field}; "
                               f"give {field} instead")
    extra = []
    for mid, count, why in implied:
        if mid not in ids and mid in modifiers.modifiers(table) and count:
            extra.append({"modifier": mid, "count": count})
            r.step(f"{why}: {modifiers.modifiers(table)[mid].printed!r} applies")
    total, terms = modifiers.applied(table, list(given) + extra, character)
    for t in terms:
        r.step(f"{t['printed']} {t['value']:+d} × {t['count']} = {t['total']:+d}", t["ref"], t["decision"])
    return total, terms
