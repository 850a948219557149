"""The game state: plain data, serialisable to JSON, cloned by value.

Nothing here applies a rule; the rule modules read and change a state through these fields. The
fields of the features are grouped in parts (engine/parts.py: ``state.phase``,
``state.defensive_fire``, ``state.riders``, ``state.camels``, ``state.carts``, ``state.bodies``);
``Horse`` and ``Cart`` live there too and are re-exported here.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ....core.dice import Dice, SealedDice
from ....geometry.hexgrid import Hex
from ..maps import effective_map, GameMap
from ..rulesdata import load_ruleset, Ruleset
from .character import Character
from .parts import PARTS, Bodies, Camels, Cart, Carts, Charges, DefensiveFireBook, Horse, Part, PhaseBook, Riders

__all__ = ["GameState", "Pending", "Horse", "Cart", "OFFENSIVE_FIRE", "MOVEMENT", "MELEE"]

OFFENSIVE_FIRE, MOVEMENT, MELEE = "offensive_fire", "movement", "melee"


@dataclass
class Pending:
    """A decision the rules hand to a player in the middle of a step (Rally-the-Troops style
    prompt): ``kind`` is ``retreat``, ``advance``, ``casualty`` or ``defensive_fire`` (§5.3, a
    move paused for the other side's defensive fire); ``side`` decides."""

    kind: str
    side: str
    chars: list[str]
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, "side": self.side, "chars": list(self.chars), "data": self.data}

    @classmethod
    def from_json(cls, d: dict) -> "Pending":
        return cls(d["kind"], d["side"], list(d["chars"]), dict(d.get("data", {})))


@dataclass
class GameState:
    ruleset_id: str
    scenario: dict                    # the validated scenario (JSON-able), the map spec included
    gmap: GameMap
    characters: dict[str, Character]
    sides: list[str]
    dice: Dice
    weather: str = "clear"
    turn: int = 1
    last_turn: int = 10
    phase_no: int = 0                 # 0 = first side's phase of turn 1, 1 = second side's...
    active: str = "A"
    step: str = OFFENSIVE_FIRE
    pending: list[Pending] = field(default_factory=list)
    # the feature parts (engine/parts.py, PARTS): each owns its fields, reset, copy and JSON
    phase: PhaseBook = field(default_factory=PhaseBook)
    defensive_fire: DefensiveFireBook = field(default_factory=DefensiveFireBook)
    riders: Riders = field(default_factory=Riders)
    camels: Camels = field(default_factory=Camels)
    carts: Carts = field(default_factory=Carts)
    bodies: Bodies = field(default_factory=Bodies)
    charges: Charges = field(default_factory=Charges)
    log: list[dict] = field(default_factory=list)
    winner: str | None = None
    over: bool = False
    result_text: str = ""

    # --- conveniences ---------------------------------------------------------------------
    @property
    def rules(self) -> Ruleset:
        return load_ruleset(self.ruleset_id)

    def enemy_of(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def to_act(self) -> str | None:
        """The side whose decision the game waits for."""
        if self.over:
            return None
        if self.pending:
            return self.pending[0].side
        return self.active

    def occupants(self) -> dict[Hex, list[Character]]:
        occ: dict[Hex, list[Character]] = {}
        for c in self.characters.values():
            if c.alive:
                for h in c.hexes:
                    occ.setdefault(h, []).append(c)
        return occ

    def live_at(self, h: Hex) -> list[Character]:
        """The live characters covering ``h`` (a rider covers two hexes)."""
        return [c for c in self.characters.values() if c.alive and (c.hex == h or (c.mounted and c.rear == h))]

    def horse_at(self, h: Hex, alive: bool = True) -> Horse | None:
        """The riderless horse covering ``h`` (a live one, or a dead one with alive=False)."""
        for x in self.riders.horses.values():
            if x.alive == alive and h in x.hexes:
                return x
        return None

    def dead_at(self, h: Hex) -> int:
        return sum(1 for c in self.characters.values() if not c.alive and c.hex == h)

    def side_chars(self, side: str, alive: bool = True) -> list[Character]:
        return [c for c in self.characters.values() if c.side == side and (c.alive or not alive) and c.hex is not None]

    # --- serialisation --------------------------------------------------------------------
    def parts(self) -> list[Part]:
        """The state's feature parts, in the order of :data:`~.parts.PARTS`."""
        return [getattr(self, p.name) for p in PARTS]

    def reset_phase(self) -> None:
        """Clear the bookkeeping of the phase, part by part (turn.begin_phase)."""
        for part in self.parts():
            part.reset_phase()

    def to_json(self) -> dict:
        out = {
            "ruleset": self.ruleset_id,
            "scenario": self.scenario,
            "characters": {k: c.to_json() for k, c in sorted(self.characters.items())},
            "sides": self.sides,
            "dice": {"count": self.dice.count},  # the seed is the game's secret: never in the state
            "weather": self.weather,
            "turn": self.turn,
            "last_turn": self.last_turn,
            "phase_no": self.phase_no,
            "active": self.active,
            "step": self.step,
            "pending": [p.to_json() for p in self.pending],
            "log": self.log,
            "winner": self.winner,
            "over": self.over,
            "result_text": self.result_text,
        }
        for part in self.parts():  # each part writes its own keys (some only when set)
            out.update(part.to_json())
        return out

    @classmethod
    def from_json(cls, d: dict, gmap: GameMap) -> "GameState":
        parts = {p.name: p.from_json(d) for p in PARTS}
        carts = parts[Carts.name].carts
        if carts:  # ``gmap`` is the scenario's map: draw the carts where they stand now
            gmap = effective_map(gmap, carts.values(), load_ruleset(d["ruleset"]))
        return cls(
            ruleset_id=d["ruleset"], scenario=d["scenario"], gmap=gmap,
            characters={k: Character.from_json(v) for k, v in d["characters"].items()},
            sides=list(d["sides"]), dice=SealedDice(int(d["dice"]["count"])), weather=d["weather"],
            turn=d["turn"], last_turn=d["last_turn"], phase_no=d["phase_no"], active=d["active"],
            step=d["step"], pending=[Pending.from_json(p) for p in d["pending"]], log=list(d["log"]),
            winner=d["winner"], over=d["over"], result_text=d.get("result_text", ""),
            **parts,
        )

    def digest(self) -> str:
        """A fingerprint of the game (replays and the store compare it): the whole state, the
        dice count included, and the *length* of its log — not the log's words. A later
        release may reword a message (or add a message id) without making stored games
        unreadable; ``replay --verify`` compares every event on its own. The cost does not
        grow with the length of the game."""
        body = self.to_json()
        body["log"] = len(self.log)
        blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    #: Keys the log's events gained after version-1 records (engine/events.py)
    LOG_KEYS_SINCE_V1 = ("msg", "params", "ruling_steps")

    def legacy_digest(self, seed) -> str:
        """The digest of version-1 records: the whole state, the log and the dice seed in it."""
        body = self.to_json()
        body["dice"] = {"seed": seed, "count": self.dice.count}
        # version-1 logs predate the message ids: hash the events without the keys added since
        if isinstance(body.get("log"), list):
            body["log"] = [_v1_event({k: v for k, v in ev.items() if k not in self.LOG_KEYS_SINCE_V1})
                           for ev in body["log"]]
        blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def clone(self) -> "GameState":
        """A copy that shares only what never changes: the map, and the logged events (the log
        is append-only and an event is never modified once emitted)."""
        other = copy.copy(self)
        other.characters = {k: copy.copy(c) for k, c in self.characters.items()}
        other.sides = list(self.sides)
        other.dice = copy.deepcopy(self.dice)  # sealed: a copy holds no future rolls (core/dice.py)
        other.pending = copy.deepcopy(self.pending)
        for part in self.parts():
            setattr(other, part.name, part.clone())
        other.log = list(self.log)
        return other


def _v1_event(ev: dict) -> dict:
    """An event as version-1 logs held it: a ``clear_bodies`` event then carried its body
    count in ``n`` (over the event's index), now in ``count``."""
    if ev.get("type") == "clear_bodies" and "count" in ev:
        ev = dict(ev)
        ev["n"] = ev.pop("count")
    return ev
