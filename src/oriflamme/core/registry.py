"""The rulesets this installation knows, found through Python entry points.

A ruleset package declares itself in its ``pyproject.toml``::

    [project.entry-points."oriflamme.rulesets"]
    magna-carta = "oriflamme.rulesets.magna_carta.ruleset:MagnaCarta"

The entry point names a :class:`~oriflamme.core.ruleset.Ruleset` subclass (or instance).
:func:`register` adds one at run time (tests plug a fixture ruleset in this way).
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .errors import UnknownRuleset
from .ruleset import Ruleset

GROUP = "oriflamme.rulesets"
DEFAULT = "magna-carta"

_extra: dict[str, Ruleset] = {}
_loaded: dict[str, Ruleset] | None = None


def _discover() -> dict[str, Ruleset]:
    global _loaded
    if _loaded is None:
        found: dict[str, Ruleset] = {}
        for ep in entry_points(group=GROUP):
            obj = ep.load()
            rs = obj() if isinstance(obj, type) else obj
            found[rs.id or ep.name] = rs
        _loaded = found
    return {**_loaded, **_extra}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset at run time (it wins over an entry point of the same id)."""
    _extra[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    _extra.pop(ruleset_id, None)


def ids() -> list[str]:
    return sorted(_discover())


def all_rulesets() -> list[Ruleset]:
    found = _discover()
    return [found[k] for k in sorted(found)]


def get(ruleset_id: str | None = None) -> Ruleset:
    """The ruleset of this id (default :data:`DEFAULT`); :class:`UnknownRuleset` otherwise."""
    rid = ruleset_id or DEFAULT
    found = _discover()
    if not isinstance(rid, str):  # from a JSON document: a list, a number, true…
        raise UnknownRuleset(f"a ruleset id is a string, not {rid!r} (known: {', '.join(sorted(found)) or 'none'})")
    if rid in found:
        return found[rid]
    folded = rid.strip().lower().replace("_", "-").replace(" ", "-")
    for rs in found.values():
        if folded == rs.id or folded in getattr(rs, "aliases", ()):
            return rs
    raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {', '.join(sorted(found)) or 'none'})")
