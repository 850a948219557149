"""Named hooks: how a lower module of the engine calls into a feature above it without
importing it (the import graph stays layered: features depend downward only).

A feature module provides its function at import time::

    @HOOKS.provide            # registered under its own name, "offer_grab" here
    def offer_grab(state, ...): ...

and the lower module calls ``HOOKS.offer_grab(state, ...)``. Every module of the engine is
imported when the package is (``engine/__init__`` imports ``game``, which imports every
feature), so the hooks are in place before any game is played.

The hooks today (the rule each one serves):

* ``defensive_fire_on_enter`` (engine/defensive_fire.py) — called by the walk
  (engine/paths.py) on every hex a mover enters: defensive fire may pause the move (§5.3);
* ``offer_grab`` (engine/bridle.py) — called by the walk: a rider passing by a riderless
  horse may grab its bridle (§4.4.4);
* ``after_move_grab`` (engine/bridle.py) — called at the end of a move (engine/moving.py):
  the horse grabbed in passing goes beside him (§4.4.4);
* ``defensive_fire_refusal`` (engine/defensive_fire.py) — why no fire frequency may be declared
  at all (None in Magna Carta; Cry Havoc has no defensive fire);
* ``resolve_fire`` (engine/fire.py) — the table a fire is read on once the line of fire and
  the modifiers are known (§5.4; Cry Havoc overrides it: fire in two steps).

**Edition overrides.** An edition (docs/architecture.md "Editions") replaces a hook for its
games only, in its package's ``hooks.py``::

    @HOOKS.provide(name="defensive_fire_on_enter", ruleset="cry-havoc")
    def no_defensive_fire(state, *args): return False

A hook with overrides dispatches on its first argument's ``ruleset_id`` (every hook takes the
state first); the others are called directly. :func:`load_edition_code` imports an edition's
``hooks.py`` once, before its first game runs (``engine/setup.py``, ``GameState.from_json``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Callable


class MissingHook(AttributeError, LookupError):
    """No module provided the hook asked for."""


class Hooks:
    """A table of named functions, read as attributes."""

    def __init__(self) -> None:
        self._table: dict[str, Callable] = {}
        self._overrides: dict[str, dict[str, Callable]] = {}  # name -> ruleset id -> function
        self._dispatch: dict[str, Callable] = {}

    def provide(self, fn: Callable | None = None, *, name: str | None = None, ruleset: str | None = None):
        """Register ``fn`` under ``name`` (default: its own name); usable as a decorator.
        ``ruleset``: an edition's override of that hook, for its games only."""
        def register(f: Callable) -> Callable:
            key = name or f.__name__
            if ruleset is not None:
                have = self._overrides.setdefault(key, {})
                if ruleset in have and have[ruleset] is not f:
                    raise ValueError(f"engine hook {key!r} is already overridden for {ruleset!r}")
                have[ruleset] = f
                self._dispatch.pop(key, None)
                return f
            if key in self._table and self._table[key] is not f:
                raise ValueError(f"engine hook {key!r} is already provided by {self._table[key].__module__}")
            self._table[key] = f
            return f
        return register(fn) if fn is not None else register

    def _dispatcher(self, key: str) -> Callable:
        fn = self._dispatch.get(key)
        if fn is None:
            base, overrides = self._table[key], self._overrides[key]

            def fn(state, *args, **kwargs):
                return overrides.get(state.ruleset_id, base)(state, *args, **kwargs)
            fn.__name__ = key
            self._dispatch[key] = fn
        return fn

    def __getattr__(self, key: str) -> Callable:
        table = self.__dict__.get("_table", {})
        if key in table:
            if key in self.__dict__.get("_overrides", {}):
                return self._dispatcher(key)
            return table[key]
        if key.startswith("__"):  # introspection (copy, inspect, doctest) asks for dunders
            raise AttributeError(key)
        raise MissingHook(f"no engine hook {key!r} (import oriflamme.rulesets.magna_carta.engine first)")

    def names(self) -> list[str]:
        return sorted(self._table)


HOOKS = Hooks()


@lru_cache(maxsize=None)
def load_edition_code(ruleset_id: str) -> None:
    """Import the ``hooks.py`` of an edition's package (its hook overrides and the sequence
    hooks it adds), once; nothing for the base or an edition without one."""
    from ..rulesdata import packages_of
    pkgs = packages_of(ruleset_id)
    if len(pkgs) < 2:
        return
    try:
        importlib.import_module(pkgs[0] + ".hooks")
    except ModuleNotFoundError as exc:
        if exc.name != pkgs[0] + ".hooks":
            raise
