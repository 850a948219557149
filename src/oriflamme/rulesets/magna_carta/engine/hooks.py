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
  the horse grabbed in passing goes beside him (§4.4.4).
"""

from __future__ import annotations

from typing import Callable


class MissingHook(AttributeError, LookupError):
    """No module provided the hook asked for."""


class Hooks:
    """A table of named functions, read as attributes."""

    def __init__(self) -> None:
        self._table: dict[str, Callable] = {}

    def provide(self, fn: Callable | None = None, *, name: str | None = None):
        """Register ``fn`` under ``name`` (default: its own name); usable as a decorator."""
        def register(f: Callable) -> Callable:
            key = name or f.__name__
            if key in self._table and self._table[key] is not f:
                raise ValueError(f"engine hook {key!r} is already provided by {self._table[key].__module__}")
            self._table[key] = f
            return f
        return register(fn) if fn is not None else register

    def __getattr__(self, key: str) -> Callable:
        table = self.__dict__.get("_table", {})
        if key in table:
            return table[key]
        if key.startswith("__"):  # introspection (copy, inspect, doctest) asks for dunders
            raise AttributeError(key)
        raise MissingHook(f"no engine hook {key!r} (import oriflamme.rulesets.magna_carta.engine first)")

    def names(self) -> list[str]:
        return sorted(self._table)


HOOKS = Hooks()
