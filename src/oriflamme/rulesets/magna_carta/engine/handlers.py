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
from .errors import IllegalAction


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


# --- helpers for the checks ------------------------------------------------------------------
def character(state, cid: str):
    """The character ``cid``, or :class:`IllegalAction` if there is none."""
    c = state.characters.get(cid)
    if c is None:
        raise IllegalAction(f"unknown character {cid!r}")
    return c


def refuse_if(problem) -> None:
    """Raise the ``(reason, rule)`` of a ``*_problem`` query, if any."""
    if problem:
        raise IllegalAction(*problem)


def refuse_unless_legal(ruling: Ruling) -> None:
    """Raise the last step of an illegal ruling (its reason and rule)."""
    if not ruling.legal:
        raise IllegalAction(ruling.steps[-1].text, ruling.steps[-1].ref)


def no_prompt(state, action) -> None:
    """The check of an answer to a prompt when no prompt waits (``game._check`` tests the
    answers while one does)."""
    raise IllegalAction(f"there is no pending {action.type} to answer", "")
