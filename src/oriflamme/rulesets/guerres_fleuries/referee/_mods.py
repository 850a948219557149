"""What fire and melee share: the modifier list (with the modifiers a kind's own fields imply),
a row's decisions, and the slicing of a percentage into casualties."""

from __future__ import annotations

from fractions import Fraction

from .. import modifiers
from ..names import RefereeError
from ..percent import exact, number, sliced


def gather(table: str, given, implied: list[tuple], character, r,
           forbidden: dict[str, str] | None = None) -> tuple[int, list[dict]]:
    """Apply ``given`` plus each ``(id, count, why[, citation])`` of ``implied`` that ``given`` lacks; a
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
    for mid, count, why, *cite in implied:
        if mid not in ids and mid in modifiers.modifiers(table) and count:
            extra.append({"modifier": mid, "count": count})
            r.step(f"{why}: {modifiers.modifiers(table)[mid].printed!r} applies", *cite)
    total, terms = modifiers.applied(table, list(given) + extra, character)
    for t in terms:
        r.step(f"{t['printed']} {t['value']:+d} × {t['count']} = {t['total']:+d}", t["ref"], t["decision"])
    return total, terms


def row_decision(decision: str | None, armour: str) -> str | None:
    """A row's decisions, without GF-E2 (the unprinted Saurien column) when that column is not read."""
    if not decision:
        return None
    kept = [d for d in decision.split(", ") if d != "GF-E2" or armour == "saurien"]
    return ", ".join(kept) or None


def casualties(r, pct: Fraction, target, d100: int | None, ref_figures: str, ref_wounds: str) -> None:
    """Slice ``pct`` (GF-E6, GF-H1): the certain casualties (wounds against characters, creatures
    and monsters, GF-E9), the residual chance, and with a ``d100`` whether it adds one."""
    eliminated, residual, at_most = sliced(pct)
    what = "figure(s) eliminated" if target.casualties == "figures" else "wound(s) (location d100, severity d4)"
    r.step(f"{eliminated} {what}; one more if d100 ≤ {number(residual)} (d100 ≤ {at_most})",
           ref_figures if target.casualties == "figures" else ref_wounds, target.decision)
    r.fields.update({"eliminated": eliminated, "residual_pct": number(residual), "residual_exact": exact(residual),
                     "extra_if_d100_at_most": at_most})
    if d100 is not None:
        extra = d100 <= at_most
        r.fields.update({"d100": d100, "extra": extra})
        r.step(f"d100 {d100}: {'one more' if extra else 'no more'}")
