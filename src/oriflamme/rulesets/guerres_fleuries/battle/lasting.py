"""Effects that last some turns — a spell's, a magic failure's, a divine intervention's — read back
from the battle's log (battle/spells.py writes them): an event's ``lasting`` is a list of
``{"unit", "effect", "modifier"?, "from_turn", "until_turn" (None: the whole battle), "ref"}``. The log
is the state's own record, so the effects replay, clone and round-trip with it; nothing else is stored.

The effects read elsewhere: ``morale_modifier`` (morale_play.situation), ``no_morale_tests`` and
``morale_auto_pass`` (morale_play.test), ``missile_shield`` (fire_play.eligibility), ``dazzled``
(turn.movers, fire_play.can_fire), ``no_command_tests`` (turn.needs_command_test), ``silence`` (a
priest's casts, battle/spells.py)."""

from __future__ import annotations


def active(state, unit_id: str, effect: str | None = None) -> list[dict]:
    """The lasting effects on ``unit_id`` this turn (of kind ``effect`` when given), oldest first."""
    turn = getattr(state, "turn", 0)
    out = []
    for ev in getattr(state, "log", ()):
        for e in ev.get("lasting") or ():
            if e.get("unit") != unit_id or (effect is not None and e.get("effect") != effect):
                continue
            until = e.get("until_turn")
            if e.get("from_turn", 0) <= turn and (until is None or turn <= until):
                out.append(e)
    return out


def has(state, unit_id: str, effect: str) -> dict | None:
    """The first lasting ``effect`` on ``unit_id`` this turn, or None."""
    hits = active(state, unit_id, effect)
    return hits[0] if hits else None
