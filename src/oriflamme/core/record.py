"""A game in progress with its record, undo and replay — written once for every ruleset.

The record of a game is JSON::

    {format, version: 2, ruleset, scenario, dice_commitment, seed, actions, events,
     final_digest, over, winner}

The scenario (the validated copy) and the seed fix the start; the actions are the players'
answers; the events are the log they produced. Replaying re-applies the actions and must
reproduce every event and the final digest. ``seed`` is the game's secret: a record exported
while the game runs has ``"seed": null`` (it cannot be replayed yet); when the game is over it
carries the seed, and :func:`replay` checks it against ``dice_commitment``. Version-1 records
(before the seam: an integer seed, no commitment) still replay; their verification says that
they carry no commitment.

Undo (Rally the Troops style): an action can be taken back only if it rolled no die and
revealed nothing; a roll clears the undo history.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import dice as dice_mod
from .errors import IllegalAction, OriflammeError, RecordError
from .ruleset import Ruleset

RECORD_FORMAT = "oriflamme-record"
RECORD_VERSION = 2
READABLE_VERSIONS = (1, 2)


class Game:
    """A game: the ruleset, the validated scenario, the secret dice, the live state, the
    actions taken and the undo snapshots."""

    def __init__(self, ruleset: Ruleset, scenario, seed: dice_mod.Seed | None = None):
        self.ruleset = ruleset
        self.scenario = scenario
        self._dice = dice_mod.Dice(dice_mod.new_secret() if seed is None else seed)
        self.commitment = dice_mod.commitment(self._dice.seed)
        self.state = ruleset.setup(scenario, self._dice)
        self.actions: list[dict] = []
        self._undo: list[tuple[object, int]] = []

    # --- the secret -----------------------------------------------------------------------
    @property
    def secret_seed(self) -> dice_mod.Seed:
        """For the store and for a finished game's record only: never put it in a view."""
        return self._dice.seed

    @property
    def rolls(self) -> int:
        return self.state.dice.count

    # --- acting ---------------------------------------------------------------------------
    def parse(self, action):
        return self.ruleset.action_from_json(action) if isinstance(action, dict) else action

    def apply(self, action) -> list[dict]:
        """Checked apply; IllegalAction leaves the game unchanged."""
        action = self.parse(action)
        rs = self.ruleset
        snapshot = rs.clone(self.state)
        rolls = self.state.dice.count
        self._dice.count = rolls
        self.state.dice = self._dice  # the live state rolls the game's secret dice
        events = rs.apply(self.state, action)  # raises IllegalAction, state unchanged
        self.actions.append(rs.action_to_json(action))
        if self.state.dice.count != rolls or rs.clears_undo(snapshot, self.state):
            self._undo.clear()  # a die was rolled (or something revealed): it cannot be taken back
        else:
            self._undo.append((snapshot, len(self.actions) - 1))
        return events

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and not self.outcome().over

    def undo(self) -> None:
        if self.outcome().over:
            raise IllegalAction("the game is over: its last action cannot be undone", "")
        if not self._undo:
            raise IllegalAction("nothing to undo: the last action rolled a die, or no action was taken", "")
        snapshot, idx = self._undo.pop()
        self._dice.count = snapshot.dice.count
        snapshot.dice = self._dice
        self.state = snapshot
        del self.actions[idx:]

    # --- reading --------------------------------------------------------------------------
    def to_act(self) -> str | None:
        return self.ruleset.to_act(self.state)

    def outcome(self):
        return self.ruleset.outcome(self.state)

    def digest(self) -> str:
        return self.ruleset.digest(self.state)

    def record(self, reveal: bool | None = None) -> dict:
        """The record; the seed is in it when the game is over (or ``reveal=True``: a hot-seat
        or CLI game whose players chose to see it)."""
        out = self.outcome()
        show = out.over if reveal is None else reveal
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "ruleset": self.ruleset.id,
            "scenario": self.ruleset.scenario_to_json(self.scenario),
            "dice_commitment": self.commitment,
            "seed": self._dice.seed if show else None,
            "actions": list(self.actions),
            "events": list(self.ruleset.events(self.state)),
            "final_digest": self.digest(),
            "over": out.over,
            "winner": out.winner,
        }


# --- replay ---------------------------------------------------------------------------------
@dataclass
class Verification:
    """What ``replay --verify`` checked beyond the events and the digest."""
    commitment: str  # "checked" | "absent"
    version: int

    def lines(self) -> list[str]:
        if self.commitment == "checked":
            return ["dice: the seed matches the commitment published when the game was created (SHA-256)"]
        return [f"dice: this record (version {self.version}) carries no dice commitment: the seed could not be checked"]


def check_record_shape(rec) -> None:
    if not isinstance(rec, dict):
        raise RecordError("a record must be a JSON object")
    if rec.get("format") != RECORD_FORMAT:
        raise RecordError(f"field format: expected {RECORD_FORMAT!r}, got {str(rec.get('format'))[:40]!r}")
    if rec.get("version") not in READABLE_VERSIONS:
        raise RecordError(f"field version: unsupported version {str(rec.get('version'))[:20]!r} "
                          f"(this program reads {', '.join(map(str, READABLE_VERSIONS))})")
    for key, typ in (("scenario", dict), ("actions", list)):
        if key not in rec:
            raise RecordError(f"field {key}: missing")
        if not isinstance(rec[key], typ):
            raise RecordError(f"field {key}: expected {'an object' if typ is dict else 'a list'}")
    seed = rec.get("seed")
    if seed is None:
        raise RecordError("field seed: empty — the game was not over when this record was exported; "
                          "its dice stay secret until the end, so it cannot be replayed yet")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or (isinstance(seed, str) and not 0 < len(seed) <= 200):
        raise RecordError("field seed: expected an integer or a text of at most 200 characters")
    if isinstance(seed, int) and abs(seed) >= 2**256:
        raise RecordError("field seed: integer too large")
    if "events" in rec and not isinstance(rec["events"], list):
        raise RecordError("field events: expected a list")
    if rec["version"] >= 2 and not isinstance(rec.get("dice_commitment"), str):
        raise RecordError("field dice_commitment: missing (a version-2 record carries the SHA-256 of its seed)")


def replay(rec: dict, registry_get=None, scenario_loader=None) -> tuple[Game, Verification]:
    """Re-play a record with its own ruleset. Raises :class:`RecordError` naming the first
    action or event that does not reproduce, or a seed that does not match its commitment.
    ``scenario_loader(data, source)`` replaces the ruleset's scenario validation (tests
    whose boards are not bundled)."""
    from . import registry
    check_record_shape(rec)
    get = registry_get or registry.get
    try:
        rs = get(rec.get("ruleset") or registry.DEFAULT)
    except OriflammeError as exc:
        raise RecordError(f"field ruleset: {exc}") from None
    version = rec["version"]
    if version >= 2:
        if not dice_mod.verify(rec["seed"], rec["dice_commitment"]):
            raise RecordError("field seed: it does not match the record's dice_commitment (SHA-256): "
                              "these are not the dice the game was created with")
        verification = Verification("checked", version)
    else:
        verification = Verification("absent", version)
    scenario = (scenario_loader or rs.scenario_from_json)(rec["scenario"], "record field scenario")
    game = Game(rs, scenario, rec["seed"])
    expected = rec.get("events")
    for i, a in enumerate(rec["actions"]):
        if not isinstance(a, dict):
            raise RecordError(f"action {i + 1}: expected an object")
        try:
            game.apply(a)
        except IllegalAction as exc:
            raise RecordError(f"action {i + 1} ({_short(a)}) is illegal at that point: {exc}") from None
        if expected is not None:
            got = rs.events(game.state)
            for j in range(len(got)):
                if j >= len(expected):
                    raise RecordError(f"action {i + 1} ({_short(a)}) produced event {j + 1} that the record lacks: {_text(got[j])!r}")
                # a version-1 record predates the keys events gained since (message ids and
                # parameters): compare only the fields the recorded event has
                have, want = got[j], rs.recorded_event(expected[j], j)
                if version < 2 and isinstance(want, dict) and isinstance(have, dict):
                    have = {k: have[k] for k in want if k in have}
                if have != want:
                    raise RecordError(f"event {j + 1} differs after action {i + 1} ({_short(a)}): {_diff(want, have)}")
    got = rs.events(game.state)
    if expected is not None and len(expected) != len(got):
        j = len(got)
        extra = expected[j] if j < len(expected) else None
        raise RecordError(f"the record has {len(expected)} events, the replay {len(got)}: "
                          f"event {j + 1} ({_text(extra)!r}) is not reproduced")
    out = game.outcome()
    for key, val in (("over", out.over), ("winner", out.winner)):
        if key in rec and rec[key] != val:
            raise RecordError(f"field {key}: the record says {rec[key]!r}, the replay gives {val!r}")
    fd = rec.get("final_digest")
    if fd is not None:
        digest = game.digest() if version >= 2 else rs.legacy_digest(game.state, rec["seed"])
        if fd != digest:
            raise RecordError("the final state differs from the recorded one (digest mismatch)")
    return game, verification


def _text(ev) -> str:
    if isinstance(ev, dict):
        return str(ev.get("text", ev.get("msg", "")))
    return str(ev)[:80]


def _diff(want, got) -> str:
    if not isinstance(want, dict) or not isinstance(got, dict):
        return f"the record has {str(want)[:80]!r}, the replay {_text(got)!r}"
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
