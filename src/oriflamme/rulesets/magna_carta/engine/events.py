"""The event log: append-only, one entry per thing that happened, with its explanation.

Each event is a JSON object ``{"n", "turn", "phase", "side", "type", "text", "msg", "params",
...}``: ``msg`` is a message id of the ruleset's catalogue (``texts/fr.toml``, entries with an
``id``) and ``params`` its parameters (:mod:`oriflamme.rulesets.magna_carta.texts.messages`);
``text`` is the English rendering, kept for the log's readers and for old records. Events that
involve a die carry the full ruling (``"ruling"``: steps, die, table cell, citations) and, when
some of its steps have message ids, ``"ruling_steps"`` (one ``{"msg", "params"}`` or null per
line of the ruling's ``explanation``).
"""

from __future__ import annotations

from typing import Any

from ..resolve.ruling import Ruling
from ..texts.messages import nested, render
from .state import GameState

#: The phrases the character methods return (``wound()``, ``stun()``, ``kill()``), as message ids.
STATUS_IDS = {
    "stunned": "status.stunned",
    "wounded": "status.wounded",
    "killed": "status.killed",
    "already dead": "status.already_dead",
    "killed (wounded again)": "status.killed_wounded_again",
    "killed (stunned while already stunned or wounded)": "status.killed_stunned_again",
}


def status(word: str) -> dict:
    """A status returned by ``Character.wound()``/``stun()``/``kill()`` as a nested message."""
    return nested(STATUS_IDS[word])


def emit(state: GameState, type_: str, text: str | None = None, ruling: Ruling | None = None, *,
         msg: str | None = None, params: dict | None = None, **data: Any) -> dict:
    if msg is not None:
        params = params or {}
        text = render(msg, params, "en")
    ev: dict[str, Any] = {
        "n": len(state.log),
        "turn": state.turn,
        "phase": state.phase_no,
        "side": state.active,
        "type": type_,
        "text": text,
    }
    if msg is not None:
        ev["msg"] = msg
        ev["params"] = params
    ev.update(data)
    if ruling is not None:
        ev["ruling"] = ruling.to_json()
        # the explanation's message ids sit beside the ruling, not in it: the ruling keeps the
        # shape version-1 records compare (i18n.translate_event pairs them up again)
        steps = ev["ruling"].pop("steps", None)
        if steps is not None:
            ev["ruling_steps"] = steps
    state.log.append(ev)
    return ev


def animal(horse) -> dict:
    """``animals.horse_name(horse)`` ("the horse in 0302-0201") as a nested message."""
    a, b = horse.hexes
    return nested(f"animal.{horse.kind}", hexes=f"{a.label}-{b.label}")


def named(state: GameState, c) -> dict | str:
    """A character's name as a message parameter: the stand-in of a riderless animal shot at
    or attacked (engine/lone_horse.py, named "the horse in 0302-0201") as a nested message."""
    horse = state.riders.horses.get(c.id.removeprefix("horse:")) if c.id.startswith("horse:") else None
    return animal(horse) if horse is not None else c.name


def cart(c) -> dict:
    """``carts.cart_name(cart)`` ("the cart in 0405-0406") as a nested message."""
    return nested("cart.name", hexes=f"{c.front.label}-{c.rear.label}")


#: Why a character walks (``paths.walk(why=...)``), as message ids.
WHY_IDS = {"move": "why.move", "retreat": "why.retreat", "advance after combat": "why.advance"}
#: The infiltration test's results (``resolve``), as message ids.
INFILTRATION_IDS = {"none": "infiltration.none", "stop": "infiltration.stop", "wounded": "status.wounded",
                    "killed": "status.killed"}
#: The jump test's results, as message ids.
JUMP_IDS = {"success": "jump.success", "refusal": "jump.refusal", "bad_landing": "jump.bad_landing"}
