"""Work shared within one read of a position: while ``with read_only(state):`` runs, the
searches decorated with :func:`per_position` answer each question about ``state`` once.

A web response asks the same questions several times: :func:`engine.game.legal_actions` runs
every mover's search (``movement.reachable``, ``riding.reachable``) to list his moves, then the
options (``web_options``) run it again for the costs and the rider's facings (the seat view
itself asks :func:`engine.game.view_actions`, whose riders need only ``riding.reach_costs``;
a rider's move list, fetched on selection, asks ``game.move_table`` twice). Inside the scope
the second call returns the first answer.

The scope is opt-in and narrow: the caller promises that ``state`` does not change while it
is open (a view, the options, an explanation — never ``apply``). Only that very object is
memoised (a clone or another state is computed afresh), and the answers are shared, so the
callers must not change them (none does: they read the dicts and build their own lists).
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_SCOPE: ContextVar[tuple | None] = ContextVar("magna_carta_read_only", default=None)


@contextmanager
def read_only(state) -> Iterator[None]:
    """Memoise the :func:`per_position` searches on ``state`` until the block ends; the
    caller guarantees that nothing changes ``state`` meanwhile."""
    token = _SCOPE.set((state, {}))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def per_position(fn: Callable) -> Callable:
    """``fn(state, character, *args)``: a pure function of the position, memoised inside
    :func:`read_only` (keyed by the character's id and the other arguments)."""
    @functools.wraps(fn)
    def wrapper(state, c, *args, **kwargs):
        scope = _SCOPE.get()
        if scope is None or scope[0] is not state:
            return fn(state, c, *args, **kwargs)
        key = (wrapper, c.id, args, tuple(sorted(kwargs.items())) if kwargs else ())
        memo = scope[1]
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = fn(state, c, *args, **kwargs)
            return value
    return wrapper
