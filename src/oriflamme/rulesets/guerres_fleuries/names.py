"""Names as printed in the seed, accepted with case and accents optional (and, for modifier
sentences, punctuation and spacing optional); an unknown name gets the closest printed ones."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from oriflamme.core.errors import OriflammeError


class RefereeError(OriflammeError):
    """A situation the referee cannot rule: the message names the field and the reason."""


def fold(text: str) -> str:
    """Case- and accent-insensitive: ``"Prêtre-guerrier"`` -> ``"pretre-guerrier"``."""
    return _fold(text if isinstance(text, str) else str(text))


@lru_cache(maxsize=65536)
def _fold(text: str) -> str:
    # a battle's rules and its computer players fold the same few hundred names again and
    # again (rows, statuses, weapons): each is folded once
    norm = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in norm if not unicodedata.combining(c))
    return " ".join(stripped.lower().replace("’", "'").split())


def squash(text: str) -> str:
    """Also punctuation- and spacing-insensitive (modifier sentences): letters and digits only,
    with ``+``/``-`` kept (``"+10%"`` and ``"-10 %"`` differ)."""
    return re.sub(r"[^a-z0-9+\-]", "", fold(text).replace("−", "-"))


def closest(text: str, printed: Iterable[str], n: int = 3) -> list[str]:
    """The printed names closest to ``text`` (for "did you mean")."""
    by_fold: dict[str, str] = {}
    for p in printed:  # the first printed form of each folded name is the one suggested
        by_fold.setdefault(fold(p), p)
    hits = difflib.get_close_matches(fold(text), list(by_fold), n=n, cutoff=0.4)
    return [by_fold[h] for h in hits]


def match(field: str, text, choices: dict[str, list[str]], *, key=fold):
    """The id of ``text`` among ``choices`` (id -> its printed names and English words).

    Raises :class:`RefereeError` naming ``field`` and the closest printed names."""
    if not isinstance(text, str) or not text.strip():
        raise RefereeError(f"field {field}: expected a name, got {text!r}")
    k = key(text)
    for cid, names in choices.items():
        if key(cid) == k or any(key(n) == k for n in names):
            return cid
    printed = [n for names in choices.values() for n in names[:1]] or list(choices)
    # compared with every form (ids, English words), suggested as printed (the first name)
    as_printed = {}
    for cid, names in choices.items():
        for form in [*names, cid]:
            as_printed.setdefault(fold(form), names[0] if names else cid)
    near = list(dict.fromkeys(as_printed[fold(h)] for h in closest(text, list(as_printed), n=6)))[:3]
    hint = f"; did you mean {', '.join(repr(x) for x in near)}?" if near else ""
    raise RefereeError(f"field {field}: unknown name {text!r}{hint} (printed: {', '.join(printed[:12])}"
                       f"{', …' if len(printed) > 12 else ''})")
