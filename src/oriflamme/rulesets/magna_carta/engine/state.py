"""The game state: plain data, serialisable to JSON, cloned by value.

Nothing here applies a rule; the rule modules read and change a state through these fields.
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
class Horse:
    """A horse without a rider (§4.4.4, §6.8): it covers two hexes like a rider and stays put.
    ``side`` is the side controlling it (None: nobody); ``alive`` False for a dead horse;
    ``led_by`` the character leading it by the bridle (engine/led.py), if any."""

    id: str
    hex: Hex
    facing: int
    side: str | None
    alive: bool = True
    led_by: str | None = None
    kind: str = "horse"  # "horse", "camel" (a war camel), "pack_camel", "litter_camel" (§4.6.1), "draught_horse", "ox" (§4.5.1)
    kneeling: bool = False  # §4.6.4 a camel on its knees (engine/kneeling.py)
    passenger: str | None = None  # §4.6.1 the character in a litter camel's litter
    # draught animals (§4.5.1, engine/carts.py): the cart it is harnessed to, if any
    harnessed_to: str | None = None

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return (self.hex, self.hex.neighbour(self.facing + 3))

    def to_json(self) -> dict:
        out = {"id": self.id, "hex": self.hex.label, "facing": self.facing, "side": self.side, "alive": self.alive}
        if self.led_by is not None:
            out["led_by"] = self.led_by
        if self.kind != "horse":
            out["kind"] = self.kind
        if self.kneeling:
            out["kneeling"] = True
        if self.passenger is not None:
            out["passenger"] = self.passenger
        if self.harnessed_to is not None:
            out["harnessed_to"] = self.harnessed_to
        return out

    @classmethod
    def from_json(cls, d: dict) -> "Horse":
        return cls(d["id"], Hex.from_label(d["hex"]), int(d["facing"]), d.get("side"), bool(d.get("alive", True)),
                   d.get("led_by"), d.get("kind", "horse"), bool(d.get("kneeling", False)), d.get("passenger"),
                   d.get("harnessed_to"))


@dataclass
class Cart:
    """A cart on the map (§4.5): two hexes, ``front`` and ``rear`` (its facing points from the
    rear to the front). ``animal``: the id of the draught animal harnessed to it (a
    :class:`Horse` in ``state.horses``; an id no longer there is a dead animal still in the
    harness, §4.5.1), or None. ``moving``: it moved in the last movement step of ``side``, and
    counts as a moving cart until that side's next movement step (§4.5.4, engine/carts.py)."""

    id: str
    front: Hex
    rear: Hex
    animal: str | None = None
    moving: bool = False
    side: str | None = None

    @property
    def facing(self) -> int:
        return self.rear.direction_to(self.front)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return (self.front, self.rear)

    def spec(self) -> dict:
        """Its entry for maps.with_carts."""
        out: dict = {"front": self.front.label, "rear": self.rear.label}
        if self.moving:
            out["moving"] = True
        return out

    def to_json(self) -> dict:
        return {"id": self.id, "front": self.front.label, "rear": self.rear.label, "animal": self.animal,
                "moving": self.moving, "side": self.side}

    @classmethod
    def from_json(cls, d: dict) -> "Cart":
        return cls(d["id"], Hex.from_label(d["front"]), Hex.from_label(d["rear"]), d.get("animal"),
                   bool(d.get("moving", False)), d.get("side"))


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
    # bookkeeping of the current phase
    fired: set[str] = field(default_factory=set)
    fire_limit: dict[str, str] = field(default_factory=dict)   # char -> "half" | "none"
    mp_spent: dict[str, int] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    engaged: set[str] = field(default_factory=set)
    opportunity_used: set[str] = field(default_factory=set)     # enemies who made their §4.3 test
    clearing: set[str] = field(default_factory=set)   # characters who cleared a hex this phase (§4.2.3)
    harnessing: set[str] = field(default_factory=set)  # harnessed/unharnessed a cart's animal (§4.5.1), also in clearing
    # bodies on the map that are not characters of the roster (dead horses, §4.2.2):
    # hex -> {"horse": n, "man": n}; dead characters lie on their own hex (see engine/bodies.py)
    carcasses: dict[Hex, dict[str, int]] = field(default_factory=dict)
    # fire frequency (§5.1, §5.2) and defensive fire (§5.3), see engine/defensive_fire.py
    declared: dict[str, str] = field(default_factory=dict)      # char -> fire choice, this phase
    defensive_ready: set[str] = field(default_factory=set)      # non-active chars who may fire defensively
    df_fired: set[str] = field(default_factory=set)             # who fired defensively this phase
    df_targets: list[str] = field(default_factory=list)         # movers shot at, in order
    df_walked: dict[str, int] = field(default_factory=dict)     # mover -> hexes entered this phase
    df_last: dict[str, int] = field(default_factory=dict)       # mover -> df_walked at the last shot
    pending: list[Pending] = field(default_factory=list)
    horses: dict[str, Horse] = field(default_factory=dict)
    carts: dict[str, Cart] = field(default_factory=dict)       # §4.5, engine/carts.py
    frightened: dict[str, int] = field(default_factory=dict)   # §4.6.5: horse rider -> turn of his fear
    kneeling: set[str] = field(default_factory=set)   # §4.6.4: camel riders whose camel kneels
    grab_failed: dict[str, int] = field(default_factory=dict)  # §4.4.4: "rider/horse" -> turn of a failed grab
    log: list[dict] = field(default_factory=list)
    winner: str | None = None
    over: bool = False
    result_text: str = ""
    _chain: tuple = (0, "")           # (events hashed, hash chain) of the log, see digest()

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
        for x in self.horses.values():
            if x.alive == alive and h in x.hexes:
                return x
        return None

    def dead_at(self, h: Hex) -> int:
        return sum(1 for c in self.characters.values() if not c.alive and c.hex == h)

    def side_chars(self, side: str, alive: bool = True) -> list[Character]:
        return [c for c in self.characters.values() if c.side == side and (c.alive or not alive) and c.hex is not None]

    # --- serialisation --------------------------------------------------------------------
    def to_json(self) -> dict:
        out = self._to_json()
        if self.grab_failed:  # written only when set: the states of games without it are unchanged
            out["grab_failed"] = dict(sorted(self.grab_failed.items()))
        return out

    def _to_json(self) -> dict:
        return {
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
            "fired": sorted(self.fired),
            "fire_limit": dict(sorted(self.fire_limit.items())),
            "mp_spent": dict(sorted(self.mp_spent.items())),
            "stopped": sorted(self.stopped),
            "attacked": sorted(self.attacked),
            "engaged": sorted(self.engaged),
            "opportunity_used": sorted(self.opportunity_used),
            "clearing": sorted(self.clearing),
            "harnessing": sorted(self.harnessing),
            "carcasses": {h.label: dict(sorted(k.items())) for h, k in sorted(self.carcasses.items(), key=lambda x: x[0].label)},
            "declared": dict(sorted(self.declared.items())),
            "defensive_ready": sorted(self.defensive_ready),
            "df_fired": sorted(self.df_fired),
            "df_targets": list(self.df_targets),
            "df_walked": dict(sorted(self.df_walked.items())),
            "df_last": dict(sorted(self.df_last.items())),
            "pending": [p.to_json() for p in self.pending],
            "horses": {k: h.to_json() for k, h in sorted(self.horses.items())},
            "carts": {k: x.to_json() for k, x in sorted(self.carts.items())},
            "frightened": dict(sorted(self.frightened.items())),
            "log": self.log,
            "winner": self.winner,
            "over": self.over,
            "result_text": self.result_text,
            **({"kneeling": sorted(self.kneeling)} if self.kneeling else {}),
        }

    @classmethod
    def from_json(cls, d: dict, gmap: GameMap) -> "GameState":
        carts = {k: Cart.from_json(v) for k, v in d.get("carts", {}).items()}
        if carts:  # ``gmap`` is the scenario's map: draw the carts where they stand now
            gmap = effective_map(gmap, carts.values(), load_ruleset(d["ruleset"]))
        return cls(carts=carts,
            ruleset_id=d["ruleset"], scenario=d["scenario"], gmap=gmap,
            characters={k: Character.from_json(v) for k, v in d["characters"].items()},
            sides=list(d["sides"]), dice=SealedDice(int(d["dice"]["count"])), weather=d["weather"],
            turn=d["turn"], last_turn=d["last_turn"], phase_no=d["phase_no"], active=d["active"],
            step=d["step"], fired=set(d["fired"]), fire_limit=dict(d["fire_limit"]),
            mp_spent=dict(d["mp_spent"]), stopped=set(d["stopped"]), attacked=set(d["attacked"]),
            engaged=set(d["engaged"]), opportunity_used=set(d["opportunity_used"]),
            clearing=set(d.get("clearing", ())), harnessing=set(d.get("harnessing", ())),
            carcasses={Hex.from_label(h): {k: int(n) for k, n in kinds.items()} for h, kinds in d.get("carcasses", {}).items()},
            declared=dict(d.get("declared", {})), defensive_ready=set(d.get("defensive_ready", [])),
            df_fired=set(d.get("df_fired", [])), df_targets=list(d.get("df_targets", [])),
            df_walked=dict(d.get("df_walked", {})), df_last=dict(d.get("df_last", {})),
            pending=[Pending.from_json(p) for p in d["pending"]], log=list(d["log"]),
            horses={k: Horse.from_json(v) for k, v in d.get("horses", {}).items()},
            frightened={k: int(v) for k, v in d.get("frightened", {}).items()},
            kneeling=set(d.get("kneeling", ())),
            grab_failed={k: int(v) for k, v in d.get("grab_failed", {}).items()},
            winner=d["winner"], over=d["over"], result_text=d.get("result_text", ""),
        )

    def digest(self) -> str:
        """A fingerprint of the whole state (replays and the store compare it): the state
        without its log, and a hash chain of the log kept up to date incrementally (the log
        is append-only), so the cost does not grow with the length of the game."""
        body = self.to_json()
        body["log"] = [len(self.log), self._log_chain()]
        blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def _log_chain(self) -> str:
        n, h = self._chain
        if n > len(self.log):  # cannot happen with an append-only log; recompute to be safe
            n, h = 0, ""
        for ev in self.log[n:]:
            blob = json.dumps(ev, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            h = hashlib.sha256((h + blob).encode()).hexdigest()
        self._chain = (len(self.log), h)
        return h

    #: Keys the log's events gained after version-1 records (engine/events.py)
    LOG_KEYS_SINCE_V1 = ("msg", "params", "ruling_steps")

    def legacy_digest(self, seed) -> str:
        """The digest of version-1 records: the whole state, the log and the dice seed in it."""
        body = self.to_json()
        body["dice"] = {"seed": seed, "count": self.dice.count}
        # version-1 logs predate the message ids: hash the events without the keys added since
        if isinstance(body.get("log"), list):
            body["log"] = [{k: v for k, v in ev.items() if k not in self.LOG_KEYS_SINCE_V1} for ev in body["log"]]
        blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def clone(self) -> "GameState":
        """A copy that shares only what never changes: the map, and the logged events (the log
        is append-only and an event is never modified once emitted)."""
        other = copy.copy(self)
        other.characters = {k: copy.copy(c) for k, c in self.characters.items()}
        other.sides = list(self.sides)
        other.dice = copy.deepcopy(self.dice)  # sealed: a copy holds no future rolls (core/dice.py)
        for name in ("fired", "stopped", "attacked", "engaged", "opportunity_used", "clearing", "harnessing", "defensive_ready",
                     "df_fired", "kneeling"):
            setattr(other, name, set(getattr(self, name)))
        other.fire_limit = dict(self.fire_limit)
        other.declared = dict(self.declared)
        other.df_targets = list(self.df_targets)
        other.df_walked = dict(self.df_walked)
        other.df_last = dict(self.df_last)
        other.mp_spent = dict(self.mp_spent)
        other.carcasses = {h: dict(k) for h, k in self.carcasses.items()}
        other.pending = copy.deepcopy(self.pending)
        other.horses = {k: copy.copy(h) for k, h in self.horses.items()}
        other.carts = {k: copy.copy(x) for k, x in self.carts.items()}
        other.frightened = dict(self.frightened)
        other.grab_failed = dict(self.grab_failed)
        other.log = list(self.log)
        return other
