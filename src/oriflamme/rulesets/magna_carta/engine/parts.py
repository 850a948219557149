"""The feature parts of the game state: each part is a small dataclass owning a feature's fields,
what a new phase clears of them, their copy and their JSON.

:class:`~.state.GameState` holds its core fields (ruleset, scenario, map, characters, sides,
dice, turn, phase, active side, step, pending decisions, log, outcome) and one instance of each
part of :data:`PARTS`, under the part's ``name`` (``state.phase.fired``,
``state.riders.horses``...). The state's ``to_json``, ``from_json``, ``clone`` and phase reset
iterate over the parts.

A part's JSON is a few keys of the state's flat JSON object (the state JSON, hence its digest,
does not depend on how the fields are grouped): ``to_json`` returns those keys, ``from_json``
reads them from the whole state object (missing keys: an older state, the defaults).

This module is at the bottom of the state layer (engine/__init__.py): it imports nothing of the
engine; the feature modules above read and change the parts' fields.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import ClassVar

from ....geometry.hexgrid import Hex


class Part:
    """The protocol of a state part (a dataclass deriving from this class)."""

    #: the part's attribute on the state
    name: ClassVar[str] = ""

    def reset_phase(self) -> None:
        """Clear what a new phase clears (turn.begin_phase, through GameState.reset_phase)."""

    def clone(self) -> "Part":
        """A copy sharing nothing mutable with this part."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """This part's keys of the state's JSON object."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, d: dict) -> "Part":
        """The part read from the state's JSON object ``d``."""
        raise NotImplementedError


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
    :class:`Horse` in ``state.riders.horses``; an id no longer there is a dead animal still in the
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
class PhaseBook(Part):
    """The bookkeeping of the current phase (§2.1), all cleared when a phase begins."""

    name: ClassVar[str] = "phase"

    fired: set[str] = field(default_factory=set)
    fire_limit: dict[str, str] = field(default_factory=dict)   # char -> "half" | "none"
    mp_spent: dict[str, int] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    engaged: set[str] = field(default_factory=set)
    opportunity_used: set[str] = field(default_factory=set)     # enemies who made their §4.3 test
    clearing: set[str] = field(default_factory=set)   # characters who cleared a hex this phase (§4.2.3)

    _SETS: ClassVar[tuple[str, ...]] = ("fired", "stopped", "attacked", "engaged", "opportunity_used", "clearing")

    def reset_phase(self) -> None:
        for name in self._SETS:
            getattr(self, name).clear()
        self.fire_limit.clear()
        self.mp_spent.clear()

    def clone(self) -> "PhaseBook":
        return PhaseBook(set(self.fired), dict(self.fire_limit), dict(self.mp_spent), set(self.stopped),
                         set(self.attacked), set(self.engaged), set(self.opportunity_used), set(self.clearing))

    def to_json(self) -> dict:
        return {
            "fired": sorted(self.fired),
            "fire_limit": dict(sorted(self.fire_limit.items())),
            "mp_spent": dict(sorted(self.mp_spent.items())),
            "stopped": sorted(self.stopped),
            "attacked": sorted(self.attacked),
            "engaged": sorted(self.engaged),
            "opportunity_used": sorted(self.opportunity_used),
            "clearing": sorted(self.clearing),
        }

    @classmethod
    def from_json(cls, d: dict) -> "PhaseBook":
        return cls(set(d["fired"]), dict(d["fire_limit"]), dict(d["mp_spent"]), set(d["stopped"]), set(d["attacked"]),
                   set(d["engaged"]), set(d["opportunity_used"]), set(d.get("clearing", ())))


@dataclass
class DefensiveFireBook(Part):
    """Fire frequency (§5.1, §5.2) and defensive fire (§5.3), see engine/defensive_fire.py.

    A new phase clears all but ``defensive_ready``, which defensive_fire.new_phase computes
    from the phase just ended before the parts are reset."""

    name: ClassVar[str] = "defensive_fire"

    declared: dict[str, str] = field(default_factory=dict)      # char -> fire choice, this phase
    defensive_ready: set[str] = field(default_factory=set)      # non-active chars who may fire defensively
    df_fired: set[str] = field(default_factory=set)             # who fired defensively this phase
    df_targets: list[str] = field(default_factory=list)         # movers shot at, in order
    df_walked: dict[str, int] = field(default_factory=dict)     # mover -> hexes entered this phase
    df_last: dict[str, int] = field(default_factory=dict)       # mover -> df_walked at the last shot

    def reset_phase(self) -> None:
        self.declared.clear()
        self.df_fired.clear()
        self.df_targets.clear()
        self.df_walked.clear()
        self.df_last.clear()

    def clone(self) -> "DefensiveFireBook":
        return DefensiveFireBook(dict(self.declared), set(self.defensive_ready), set(self.df_fired),
                                 list(self.df_targets), dict(self.df_walked), dict(self.df_last))

    def to_json(self) -> dict:
        return {
            "declared": dict(sorted(self.declared.items())),
            "defensive_ready": sorted(self.defensive_ready),
            "df_fired": sorted(self.df_fired),
            "df_targets": list(self.df_targets),
            "df_walked": dict(sorted(self.df_walked.items())),
            "df_last": dict(sorted(self.df_last.items())),
        }

    @classmethod
    def from_json(cls, d: dict) -> "DefensiveFireBook":
        return cls(dict(d.get("declared", {})), set(d.get("defensive_ready", [])), set(d.get("df_fired", [])),
                   list(d.get("df_targets", [])), dict(d.get("df_walked", {})), dict(d.get("df_last", {})))


@dataclass
class Riders(Part):
    """Horses without riders and the riders' troubles: riderless horses and camels (§4.4.4,
    §6.8), riders frightened by camels (§4.6.5, engine/camels.py), failed grabs (§4.4.4,
    engine/bridle.py). Nothing here ends with the phase."""

    name: ClassVar[str] = "riders"

    horses: dict[str, Horse] = field(default_factory=dict)
    frightened: dict[str, int] = field(default_factory=dict)   # §4.6.5: horse rider -> turn of his fear
    grab_failed: dict[str, int] = field(default_factory=dict)  # §4.4.4: "rider/horse" -> turn of a failed grab

    def clone(self) -> "Riders":
        return Riders({k: copy.copy(h) for k, h in self.horses.items()}, dict(self.frightened), dict(self.grab_failed))

    def to_json(self) -> dict:
        out = {
            "horses": {k: h.to_json() for k, h in sorted(self.horses.items())},
            "frightened": dict(sorted(self.frightened.items())),
        }
        if self.grab_failed:  # written only when set: the states of games without it are unchanged
            out["grab_failed"] = dict(sorted(self.grab_failed.items()))
        return out

    @classmethod
    def from_json(cls, d: dict) -> "Riders":
        return cls({k: Horse.from_json(v) for k, v in d.get("horses", {}).items()},
                   {k: int(v) for k, v in d.get("frightened", {}).items()},
                   {k: int(v) for k, v in d.get("grab_failed", {}).items()})


@dataclass
class Camels(Part):
    """Camel riders whose camel kneels (§4.6.4, engine/kneeling.py); a riderless camel's
    kneeling is on its :class:`Horse`."""

    name: ClassVar[str] = "camels"

    kneeling: set[str] = field(default_factory=set)

    def clone(self) -> "Camels":
        return Camels(set(self.kneeling))

    def to_json(self) -> dict:
        # written only when set: the states of games without camels are unchanged
        return {"kneeling": sorted(self.kneeling)} if self.kneeling else {}

    @classmethod
    def from_json(cls, d: dict) -> "Camels":
        return cls(set(d.get("kneeling", ())))


@dataclass
class Carts(Part):
    """The carts on the map (§4.5, engine/carts.py) and who harnessed or unharnessed a cart's
    animal this phase (§4.5.1; they are also in ``phase.clearing``)."""

    name: ClassVar[str] = "carts"

    carts: dict[str, Cart] = field(default_factory=dict)
    harnessing: set[str] = field(default_factory=set)

    def reset_phase(self) -> None:
        self.harnessing.clear()

    def clone(self) -> "Carts":
        return Carts({k: copy.copy(x) for k, x in self.carts.items()}, set(self.harnessing))

    def to_json(self) -> dict:
        return {"harnessing": sorted(self.harnessing), "carts": {k: x.to_json() for k, x in sorted(self.carts.items())}}

    @classmethod
    def from_json(cls, d: dict) -> "Carts":
        return cls({k: Cart.from_json(v) for k, v in d.get("carts", {}).items()}, set(d.get("harnessing", ())))


@dataclass
class Bodies(Part):
    """Bodies on the map that are not characters of the roster (dead horses, §4.2.2): hex ->
    {"horse": n, "man": n}; dead characters lie on their own hex (see engine/bodies.py)."""

    name: ClassVar[str] = "bodies"

    carcasses: dict[Hex, dict[str, int]] = field(default_factory=dict)

    def clone(self) -> "Bodies":
        return Bodies({h: dict(k) for h, k in self.carcasses.items()})

    def to_json(self) -> dict:
        return {"carcasses": {h.label: dict(sorted(k.items()))
                              for h, k in sorted(self.carcasses.items(), key=lambda x: x[0].label)}}

    @classmethod
    def from_json(cls, d: dict) -> "Bodies":
        return cls({Hex.from_label(h): {k: int(n) for k, n in kinds.items()} for h, kinds in d.get("carcasses", {}).items()})


@dataclass
class Charges(Part):
    """Cavalry charges and counter-charges announced this phase (MC §7.6.1, §7.6.2; played where
    a sequence has the announcements step, engine/charges.py): charger id -> ``{"target",
    "path", "counter", "counter_path"}`` (hex labels), and the characters a charge or a
    counter-charge was directed at, with the turn (§7.6.2: one per character and turn).

    Its JSON keys are written only when it holds something, so that the JSON (and the digest)
    of a game without charges is the one it always was."""

    name: ClassVar[str] = "charges"

    announced: dict[str, dict] = field(default_factory=dict)
    targeted: dict[str, int] = field(default_factory=dict)

    def reset_phase(self) -> None:
        self.announced.clear()

    def clone(self) -> "Charges":
        return Charges(copy.deepcopy(self.announced), dict(self.targeted))

    def to_json(self) -> dict:
        out: dict = {}
        if self.announced:
            out["charges"] = copy.deepcopy(dict(sorted(self.announced.items())))
        if self.targeted:
            out["charge_targets"] = dict(sorted(self.targeted.items()))
        return out

    @classmethod
    def from_json(cls, d: dict) -> "Charges":
        return cls(copy.deepcopy(d.get("charges", {})), {k: int(v) for k, v in d.get("charge_targets", {}).items()})


#: The parts of a state, in the order of their reset (the order of the JSON keys does not matter:
#: the digest sorts them).
PARTS: tuple[type[Part], ...] = (PhaseBook, DefensiveFireBook, Riders, Camels, Carts, Bodies, Charges)
