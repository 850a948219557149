"""The action-handler registry: each action type (by its ``type`` name) has a handler — its
check (raise :class:`IllegalAction` with the rule that forbids it), its effect and its preview
(``explain``). :mod:`engine.game` dispatches through this table instead of ``isinstance``
chains; :func:`engine.game.legal_actions` stays the one source of legality, the checks give
the precise reason an action outside it is refused.

Answers to a prompt (retreat, casualty, advance, ...) are checked against the prompt's options
and applied by the prompt's answer (``game._answer``); their handler only refuses them when no
prompt waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..resolve.ruling import Ruling


@dataclass(frozen=True)
class Handler:
    check: Callable  # (state, action) -> None, raises IllegalAction
    do: Callable | None = None  # (state, action) -> None
    explain: Callable | None = None  # (state, action) -> Ruling; None: an empty ruling of its kind


HANDLERS: dict[str, Handler] = {}


def register(*types: str, check: Callable, do: Callable | None = None, explain: Callable | None = None) -> None:
    """Register one handler for the action types named ``types``."""
    for t in types:
        if t in HANDLERS:
            raise ValueError(f"action type {t!r} already has a handler")
        HANDLERS[t] = Handler(check, do, explain)


def explain_with(state, action) -> Ruling:
    h = HANDLERS.get(action.type)
    if h is None or h.explain is None:
        return Ruling(kind=action.type)
    return h.explain(state, action)
