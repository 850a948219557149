"""Effects that last some turns — a spell's, a magic failure's, a divine intervention's — read back
from the battle's log (battle/spells.py writes them): an event's ``lasting`` is a list of
``{"unit", "effect", "modifier"?, "from_turn", "until_turn" (None: the whole battle), "ref"}``. The log
is the state's own record, so the effects replay, clone and round-trip with it; nothing else is stored.

The effects read elsewhere: ``morale_modifier`` (morale_play.situation), ``no_morale_tests`` and
``morale_auto_pass`` (morale_play.test), ``missile_shield`` (fire_play.eligibility), ``dazzled``
(turn.movers, fire_play.can_fire), ``crossing`` (an interpenetration, fire_play.can_fire, OR-GF117), ``no_command_tests`` (turn.needs_command_test), ``silence`` (a
priest's casts, battle/spells.py), ``fire_modifier``, ``melee_modifier``, ``attacked_modifier``,
``double_pbc`` and ``reaction_modifier`` (the fire, melee and reaction situations, battle/spell_modifiers.py);
``rain``, ``mud`` and ``wind``, the table's own (unit ``"table"``, battle/weather.py)."""

from __future__ import annotations


_INDEX: dict = {}


def _entries(log) -> list[dict]:
    """Every lasting entry of ``log``, indexed once per log and length (the log only grows; a clone has
    its own list)."""
    key = id(log)
    hit = _INDEX.get(key)
    if hit is not None and hit[0] is log and hit[1] == len(log):
        return hit[2]
    start, entries = (hit[1], list(hit[2])) if hit is not None and hit[0] is log and hit[1] < len(log) else (0, [])
    for ev in log[start:]:
        entries.extend(ev.get("lasting") or ())
    if len(_INDEX) > 256:
        _INDEX.clear()
    _INDEX[key] = (log, len(log), entries)
    return entries


def entries(log) -> list[dict]:
    """Every lasting entry written in ``log``, oldest first (each holds its turns)."""
    return _entries(log)


def active(state, unit_id: str, effect: str | None = None) -> list[dict]:
    """The lasting effects on ``unit_id`` this turn (of kind ``effect`` when given), oldest first."""
    turn = getattr(state, "turn", 0)
    out = []
    for e in _entries(getattr(state, "log", [])):
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
