"""The event log: append-only, one entry per thing that happened, with its explanation.

Each event is a JSON object ``{"n", "turn", "phase", "side", "type", "text", ...}``; events that
involve a die carry the full ruling (``"ruling"``: steps, die, table cell, citations).
"""

from __future__ import annotations

from typing import Any

from ..resolve.ruling import Ruling
from .state import GameState


def emit(state: GameState, type_: str, text: str, ruling: Ruling | None = None, **data: Any) -> dict:
    ev: dict[str, Any] = {
        "n": len(state.log),
        "turn": state.turn,
        "phase": state.phase_no,
        "side": state.active,
        "type": type_,
        "text": text,
    }
    ev.update(data)
    if ruling is not None:
        ev["ruling"] = ruling.to_json()
    state.log.append(ev)
    return ev
