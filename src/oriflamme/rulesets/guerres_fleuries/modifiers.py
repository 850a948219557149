"""The modifier lists of every referee kind (``data/modifiers/<kind>.toml``).

Each ``[[modifier]]`` row: ``id`` (the project's name), ``printed`` (the sentence verbatim
as in the seed's list), ``value`` (an integer, or a character's factor: ``"+FC"``, ``"-FM"``,
``"+FC*2"``), ``en`` (the sentence in English, for the English display), ``ref``, optional
``decision``. A situation names modifiers as
``{"modifier": NAME, "count": N}``, NAME being the id or the printed sentence, matched ignoring
case, accents, punctuation and spacing (:func:`names.squash`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .names import RefereeError, match, squash
from .rows import Row, data_files, load

FACTOR = re.compile(r"^([+-])(FC|FM|CM)(?:\s*[*×x]\s*(\d+))?$")


class Modifier(Row):
    id: str
    printed: str
    #: the sentence in English (the English display; :mod:`.display`)
    en: str
    value: int | str
    #: a modifier counted per slice of a distance ("Par tranche de 15cm"): the slice, in cm
    per_cm: int | None = None
    max_count: int | None = None  # "(max4)": the count beyond it adds nothing
    kind: str = ""  # filled from the file name when empty

    def amount(self, character: dict | None, field: str) -> int:
        """The value, a character's factor taken from ``character`` when the row says so."""
        if isinstance(self.value, int):
            return self.value
        m = FACTOR.match(self.value.replace(" ", ""))
        if not m:
            raise RefereeError(f"{field}: modifier {self.id} has an unreadable value {self.value!r}")
        sign, factor, times = m.group(1), m.group(2), int(m.group(3) or 1)
        if not isinstance(character, dict) or not isinstance(character.get(factor), int):
            raise RefereeError(f"{field}: modifier {self.id!r} ({self.value}) needs "
                               f'"character": {{"{factor}": n}}')
        return (1 if sign == "+" else -1) * times * character[factor]


@lru_cache(maxsize=None)
def modifiers(kind: str) -> dict[str, Modifier]:
    """The modifiers of one referee kind (``data/modifiers/<kind>.toml``), by id."""
    rows = load(Modifier, f"modifiers/{kind}.toml", "modifier")
    return {r.id: (r if r.kind else r.model_copy(update={"kind": kind})) for r in rows}


def kinds() -> list[str]:
    return [name.removeprefix("modifiers/").removesuffix(".toml") for name in data_files("modifiers")]


def applied(kind: str, given, character: dict | None = None, field: str = "modifiers") -> tuple[int, list[dict]]:
    """The total of a situation's modifier list, and each term (id, printed, value, count, ref)."""
    if given is None:
        return 0, []
    if not isinstance(given, list):
        raise RefereeError(f"field {field}: expected a list of {{\"modifier\": NAME, \"count\": N}}")
    table = modifiers(kind)
    choices = {mid: [m.printed, m.en] for mid, m in table.items()}  # French as printed, or the English
    total, terms = 0, []
    for i, item in enumerate(given):
        where = f"{field}[{i}]"
        if isinstance(item, str):
            item = {"modifier": item}
        if not isinstance(item, dict) or "modifier" not in item:
            raise RefereeError(f"field {where}: expected {{\"modifier\": NAME, \"count\": N}}")
        mid = match(f"{where}.modifier", item["modifier"], choices, key=squash)
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 1000:
            raise RefereeError(f"field {where}.count: expected an integer from 0 to 1000, got {count!r}")
        row = table[mid]
        each = row.amount(character, f"field {where}")
        counted = count if row.max_count is None else min(count, row.max_count)
        total += each * counted
        term = {"modifier": mid, "printed": row.printed, "en": row.en, "value": each, "count": count,
                "total": each * counted, "ref": row.ref, "decision": row.decision}
        if counted != count:
            term["capped_at"] = row.max_count
        terms.append(term)
    return total, terms


def listing() -> list[dict]:
    """Every modifier of every kind (``oriflamme adjudicate --modifiers guerres-fleuries``)."""
    return [{"kind": k, "id": m.id, "printed": m.printed, "en": m.en, "value": m.value, "ref": m.ref,
             "decision": m.decision, **({"max_count": m.max_count} if m.max_count is not None else {})}
            for k in kinds() for m in modifiers(k).values()]


