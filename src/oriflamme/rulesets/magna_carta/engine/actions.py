"""Actions: small frozen values with a JSON form. The record of a game is its seed plus the
list of actions; every prompt of the engine is answered by one of these.

>>> Action.from_json({"type": "move", "char": "a1", "path": ["0305", "0306"]})
Move(char='a1', path=('0305', '0306'))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from .errors import IllegalAction


@dataclass(frozen=True)
class Action:
    type: ClassVar[str] = ""

    def to_json(self) -> dict:
        out: dict = {"type": self.type}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @staticmethod
    def from_json(d: dict) -> "Action":
        if not isinstance(d, dict) or "type" not in d:
            raise IllegalAction(f"an action must be a JSON object with a 'type' (got {d!r:.80})")
        if not isinstance(d["type"], str):
            raise IllegalAction(f"an action's 'type' must be a string (got {d['type']!r:.40})")
        cls = ACTION_TYPES.get(d["type"])
        if cls is None:
            raise IllegalAction(f"unknown action type {d['type']!r} (known: {', '.join(sorted(ACTION_TYPES))})")
        kwargs = {}
        for f in fields(cls):
            if f.name not in d:
                raise IllegalAction(f"action {d['type']!r} lacks the field {f.name!r}")
            v = d[f.name]
            if "tuple" in str(f.type):
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise IllegalAction(f"action {d['type']!r}: field {f.name!r} must be a list of strings")
                v = tuple(v)
            elif not isinstance(v, str):
                raise IllegalAction(f"action {d['type']!r}: field {f.name!r} must be a string")
            kwargs[f.name] = v
        extra = set(d) - {"type"} - {f.name for f in fields(cls)}
        if extra:
            raise IllegalAction(f"action {d['type']!r}: unknown field(s) {', '.join(sorted(extra))}")
        return cls(**kwargs)


@dataclass(frozen=True)
class EndStep(Action):
    """The active side ends the current step of its phase (§2.1)."""
    type: ClassVar[str] = "end_step"


@dataclass(frozen=True)
class Fire(Action):
    type: ClassVar[str] = "fire"
    shooter: str
    target: str


@dataclass(frozen=True)
class Move(Action):
    """Move along ``path`` (hex labels entered in order, the start excluded)."""
    type: ClassVar[str] = "move"
    char: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Attack(Action):
    type: ClassVar[str] = "attack"
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]


@dataclass(frozen=True)
class Retreat(Action):
    """Answer to a retreat prompt: the path of the retreat (§5.4.3 (§), §6.5 (§))."""
    type: ClassVar[str] = "retreat"
    char: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Advance(Action):
    """Answer to an advance-after-combat prompt (§6.6)."""
    type: ClassVar[str] = "advance"
    char: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Decline(Action):
    """Decline an optional prompt (advance after combat)."""
    type: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Casualty(Action):
    """Answer to "which of your characters takes the blow?" (§6.2)."""
    type: ClassVar[str] = "casualty"
    char: str


@dataclass(frozen=True)
class Mount(Action):
    """A rider on foot mounts a riderless horse next to him (§4.4.2)."""
    type: ClassVar[str] = "mount"
    char: str
    horse: str


@dataclass(frozen=True)
class Dismount(Action):
    """A rider dismounts onto ``hex``, a free hex next to his horse (§4.4.2)."""
    type: ClassVar[str] = "dismount"
    char: str
    hex: str


@dataclass(frozen=True)
class Place(Action):
    """Answer to "where does the unhorsed rider land?" (§6.8)."""
    type: ClassVar[str] = "place"
    char: str
    hex: str


@dataclass(frozen=True)
class ClearBodies(Action):
    """Two characters on foot move dead bodies of ``kind`` (``"man"``: up to three dead men;
    ``"horse"``: one dead horse) out of ``hex`` into the adjacent ``to``; bodies thrown into
    water sink. The workers do nothing else in their phase (§4.2.3)."""
    type: ClassVar[str] = "clear_bodies"
    chars: tuple[str, ...]
    hex: str
    to: str
    kind: str


@dataclass(frozen=True)
class Carry(Action):
    """A move along ``path`` that passes through the hex of the stunned friend ``friend`` and
    carries him from there on, at half the points left (§4.2.4)."""
    type: ClassVar[str] = "carry"
    char: str
    friend: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class SetDown(Action):
    """Answer to "where does the carrier set his stunned friend down?" (§4.2.4)."""
    type: ClassVar[str] = "set_down"
    char: str
    hex: str


@dataclass(frozen=True)
class AskQuarter(Action):
    """Answer to a surrender prompt: the attacked knight asks for quarter (§6.9, a die)."""
    type: ClassVar[str] = "ask_quarter"
    char: str


@dataclass(frozen=True)
class FightOn(Action):
    """Answer to a surrender prompt: the attacked knight fights on (§6.9)."""
    type: ClassVar[str] = "fight_on"
    char: str


@dataclass(frozen=True)
class Declare(Action):
    """Declare ``char``'s fire frequency for this phase and the enemy's next (§5.1, §5.2): one
    of his weapon's ``choices`` that allows defensive fire (``offensive_or_defensive``,
    ``offensive_and_defensive`` or ``defensive``); its movement limit applies at once and he
    may not attack this phase."""
    type: ClassVar[str] = "declare"
    char: str
    fire: str


@dataclass(frozen=True)
class Designate(Action):
    """Answer to a defensive fire prompt (§5.3): add ``shooter`` to the shooters designated to
    fire at the paused mover (all are designated before any die is rolled)."""
    type: ClassVar[str] = "designate"
    shooter: str


@dataclass(frozen=True)
class Volley(Action):
    """Answer to a defensive fire prompt (§5.3): the designated shooters fire, one die each."""
    type: ClassVar[str] = "volley"


@dataclass(frozen=True)
class Lead(Action):
    """``char`` takes the riderless horse ``horse`` next to him by the bridle (§4.4.4): it
    follows him from then on (engine/led.py). On foot: at any time of his movement; a rider:
    before he moves, or it ends his movement."""
    type: ClassVar[str] = "lead"
    char: str
    horse: str


@dataclass(frozen=True)
class Grab(Action):
    """Answer to a grab prompt (§4.4.4, §4.6.3): the rider whose move passes next to the
    riderless horse ``horse`` tries to take its bridle without stopping (1D10; ``Decline`` rides
    on without trying). Engine: engine/bridle.py."""
    type: ClassVar[str] = "grab"
    char: str
    horse: str


@dataclass(frozen=True)
class FireAtHorse(Action):
    """Offensive fire at a riderless horse (§6.8): as at a rider without armour."""
    type: ClassVar[str] = "fire_at_horse"
    shooter: str
    horse: str


@dataclass(frozen=True)
class AttackHorse(Action):
    """An attack on a riderless horse (§6.8): as on a rider without armour, defence 1."""
    type: ClassVar[str] = "attack_horse"
    attackers: tuple[str, ...]
    horse: str


@dataclass(frozen=True)
class Stand(Action):
    """The moving side declares that ``char`` will not move this turn: the enemy may then fire
    at him defensively at once (§5.3 N.B.)."""
    type: ClassVar[str] = "stand"
    char: str


@dataclass(frozen=True)
class Kneel(Action):
    """``char`` makes the camel ``animal`` kneel (§4.6.4): a riderless camel next to its head,
    or, with his own id, the camel he rides. 2 PM to him and to the camel."""
    type: ClassVar[str] = "kneel"
    char: str
    animal: str


@dataclass(frozen=True)
class Rise(Action):
    """``char`` makes the kneeling camel ``animal`` rise (§4.6.4), as :class:`Kneel`."""
    type: ClassVar[str] = "rise"
    char: str
    animal: str


@dataclass(frozen=True)
class EnterLitter(Action):
    """``char``, on foot beside the head of the kneeling litter camel ``horse``, gets into its
    litter (§4.6.1, §4.6.4): 4 PM."""
    type: ClassVar[str] = "enter_litter"
    char: str
    horse: str


@dataclass(frozen=True)
class LeaveLitter(Action):
    """The passenger ``char`` gets out of his kneeling litter camel onto ``hex``, beside its
    head (§4.6.4): 4 PM."""
    type: ClassVar[str] = "leave_litter"
    char: str
    hex: str


@dataclass(frozen=True)
class DriveCart(Action):
    """``char`` drives the cart ``cart`` along ``path``, the hexes the head of its team enters
    (the animal's head, or the man pulling in front), the cart following (§4.5.1, §4.5.4):
    holding the reins on its front hex or leading its animal on foot; without an animal,
    ``char`` pulls from a hex in front of it with ``helpers`` next to it (engine/carts.py)."""
    type: ClassVar[str] = "drive_cart"
    char: str
    cart: str
    path: tuple[str, ...]
    helpers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Harness(Action):
    """``char`` harnesses the draught animal ``animal`` to ``cart``: his whole phase (§4.5.1)."""
    type: ClassVar[str] = "harness"
    char: str
    cart: str
    animal: str


@dataclass(frozen=True)
class Unharness(Action):
    """``char`` unharnesses the animal (alive or dead) of ``cart``: his whole phase (§4.5.1)."""
    type: ClassVar[str] = "unharness"
    char: str
    cart: str


@dataclass(frozen=True)
class AnnounceCharge(Action):
    """MC §7.6.1: before moving, ``char`` (a rider) announces a charge at ``target`` along
    ``path`` (hex labels his front enters, in order). Played where the sequence has the
    announcements step (Croisades §2 step 2, engine/charges.py)."""
    type: ClassVar[str] = "announce_charge"
    char: str
    target: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class CounterCharge(Action):
    """Answer to a charge just announced (MC §7.6.2): ``char`` counter-charges along ``path``
    to the last 2 hexes of the charge's path (``decline``: no counter-charge)."""
    type: ClassVar[str] = "counter_charge"
    char: str
    path: tuple[str, ...]


ACTION_TYPES: dict[str, type[Action]] = {
    c.type: c for c in (EndStep, Fire, Move, Attack, Retreat, Advance, Decline, Casualty, Mount, Dismount, Place,
                        ClearBodies, Carry, SetDown, AskQuarter, FightOn, Declare, Designate, Volley, Stand, Lead,
                        FireAtHorse, AttackHorse, Kneel, Rise, EnterLitter, LeaveLitter, Grab, DriveCart, Harness,
                        Unharness, AnnounceCharge, CounterCharge)
}
