"""A game in progress with its record and undo; replay of a record.

The record of a game is ``{format, version, ruleset, scenario, seed, actions, events,
final_digest}``: the scenario (validated copy) and the seed fix the start, the actions are the
players' answers to the engine's prompts, and the events are the log they produced. Replaying
re-applies the actions and must reproduce every event and the final state's digest exactly.

Undo (Rally the Troops style): an action can be taken back only if it rolled no die; a roll
clears the undo history.
"""

from __future__ import annotations

from ..maps import GameMap
from .actions import Action
from .errors import IllegalAction, RecordError
from .game import apply
from .setup import new_game
from .state import GameState

RECORD_FORMAT = "oriflamme-record"
RECORD_VERSION = 1


class Game:
    def __init__(self, scenario: dict, gmap: GameMap, seed: int):
        self.scenario = scenario
        self.gmap = gmap
        self.seed = seed
        self.state: GameState = new_game(scenario, gmap, seed)
        self.actions: list[dict] = []
        self._undo: list[tuple[GameState, int]] = []

    def apply(self, action: Action | dict) -> list[dict]:
        if not isinstance(action, Action):
            action = Action.from_json(action)
        snapshot = self.state.clone()
        rolls = self.state.dice.count
        events = apply(self.state, action)  # raises IllegalAction, state unchanged
        self.actions.append(action.to_json())
        if self.state.dice.count != rolls:
            self._undo.clear()  # a die was rolled: what it revealed cannot be taken back
        else:
            self._undo.append((snapshot, len(self.actions) - 1))
        return events

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> None:
        if not self._undo:
            raise IllegalAction("nothing to undo: the last action rolled a die, or no action was taken", "")
        snapshot, idx = self._undo.pop()
        self.state = snapshot
        del self.actions[idx:]

    def record(self) -> dict:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "ruleset": self.state.ruleset_id,
            "scenario": self.scenario,
            "seed": self.seed,
            "actions": list(self.actions),
            "events": list(self.state.log),
            "final_digest": self.state.digest(),
            "over": self.state.over,
            "winner": self.state.winner,
        }


def check_record_shape(rec) -> None:
    if not isinstance(rec, dict):
        raise RecordError("a record must be a JSON object")
    if rec.get("format") != RECORD_FORMAT:
        raise RecordError(f"field format: expected {RECORD_FORMAT!r}, got {rec.get('format')!r}")
    if rec.get("version") != RECORD_VERSION:
        raise RecordError(f"field version: unsupported version {rec.get('version')!r} (this program reads {RECORD_VERSION})")
    for key, typ in (("scenario", dict), ("seed", int), ("actions", list)):
        if key not in rec:
            raise RecordError(f"field {key}: missing")
        if not isinstance(rec[key], typ) or (typ is int and isinstance(rec[key], bool)):
            raise RecordError(f"field {key}: expected {typ.__name__}")
    if "events" in rec and not isinstance(rec["events"], list):
        raise RecordError("field events: expected a list")


def replay(rec: dict, scenario_loader) -> Game:
    """Re-play a record. ``scenario_loader(dict) -> (scenario, map)`` validates the scenario
    copy (see :func:`oriflamme.rulesets.magna_carta.scenario.validate_scenario`). Raises :class:`RecordError` naming
    the first action or event that does not reproduce."""
    check_record_shape(rec)
    scenario, gmap = scenario_loader(rec["scenario"])
    game = Game(scenario, gmap, rec["seed"])
    expected = rec.get("events")
    for i, a in enumerate(rec["actions"]):
        try:
            game.apply(a)
        except IllegalAction as exc:
            raise RecordError(f"action {i + 1} ({_short(a)}) is illegal at that point: {exc}") from None
        if expected is not None:
            got = game.state.log
            for j in range(len(got)):
                if j >= len(expected):
                    raise RecordError(f"action {i + 1} ({_short(a)}) produced event {j + 1} that the record lacks: {got[j].get('text')!r}")
                if got[j] != expected[j]:
                    raise RecordError(f"event {j + 1} differs after action {i + 1} ({_short(a)}): {_diff(expected[j], got[j])}")
    if expected is not None and len(expected) != len(game.state.log):
        j = len(game.state.log)
        extra = expected[j] if j < len(expected) else None
        what = extra.get("text") if isinstance(extra, dict) else extra
        raise RecordError(f"the record has {len(expected)} events, the replay {len(game.state.log)}: "
                          f"event {j + 1} ({what!r}) is not reproduced")
    for key in ("over", "winner"):
        if key in rec and rec[key] != getattr(game.state, key):
            raise RecordError(f"field {key}: the record says {rec[key]!r}, the replay gives {getattr(game.state, key)!r}")
    fd = rec.get("final_digest")
    if fd is not None and fd != game.state.digest():
        raise RecordError("the final state differs from the recorded one (digest mismatch)")
    return game


def _diff(want, got) -> str:
    if not isinstance(want, dict):
        return f"the record has {want!r:.80}, the replay {got.get('text')!r}"
    if want.get("text") != got.get("text"):
        return f"record says {want.get('text')!r}, replay gives {got.get('text')!r}"
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            return (f"field {k!r}: record says {str(want.get(k))[:80]!r}, replay gives {str(got.get(k))[:80]!r}"
                    f" (event {got.get('text')!r})")
    return "events differ"


def _short(a) -> str:
    if isinstance(a, dict):
        return " ".join(f"{k}={v}" for k, v in a.items())[:80]
    return repr(a)[:80]
