"""The referee of Les Guerres Fleuries (``oriflamme adjudicate`` with
``"ruleset": "guerres-fleuries"``): one module per kind in this package, each registering its
function with :func:`kind`. Every ruling carries ``explanation`` (the steps, in order) and
``citations`` (the seed sections and decisions used). Fields are documented in
``docs/referee.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from ..names import RefereeError

KINDS: dict[str, Callable[[dict], dict]] = {}


def kind(name: str):
    """Register ``fn(situation) -> ruling`` as the referee of ``"kind": name``."""
    def deco(fn):
        KINDS[name] = fn
        return fn
    return deco


_LOADED: list[bool] = []


def _load_all() -> None:
    """Import every kind's module, once (listing the package's folder on every ruling cost ~2 ms:
    the battle and its computer players ask for thousands of rulings)."""
    if _LOADED:
        return
    for mod in pkgutil.iter_modules(__path__):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{__name__}.{mod.name}")
    _LOADED.append(True)


class Ruling:
    """A ruling being built: the answer fields, the explanation steps and the citations."""

    def __init__(self, kind_name: str):
        self.fields: dict = {"ruleset": "guerres-fleuries", "kind": kind_name}
        self.steps: list[str] = []
        self.citations: list[str] = []

    def step(self, text: str, *refs: str | None) -> None:
        self.steps.append(text)
        self.cite(*refs)

    def cite(self, *refs: str | None) -> None:
        for r in refs:
            # a row's decision may list several readings ("GF-C3, GF-C5"): each is cited on its own
            for one in (r.split(", ") if r and r.startswith(("GF-", "OR-GF")) else [r]):
                if one and one not in self.citations:
                    self.citations.append(one)

    def to_json(self) -> dict:
        return {**self.fields, "explanation": self.steps, "citations": self.citations}


def adjudicate(situation) -> dict:
    if not isinstance(situation, dict):
        raise RefereeError("expected a JSON object with a field kind")
    _load_all()
    k = situation.get("kind")
    if k not in KINDS:
        known = ", ".join(sorted(KINDS)) or "none yet"
        raise RefereeError(f"field kind: unknown kind {k!r} for guerres-fleuries (known: {known})")
    return KINDS[k](situation)
