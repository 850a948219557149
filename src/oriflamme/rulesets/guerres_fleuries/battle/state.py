"""The state of a battle of Les Guerres Fleuries: the units on the table (troops, characters,
creatures, monsters), where the turn stands, the orders (hidden until phase 4), the log.

Plain dataclasses; :meth:`Battle.to_json` keeps every field (the dice as their count: the seed
never leaves the record). A unit's footprint follows from its figures, formation and frontage:
casualties are removed rank by rank, so the depth shrinks (``ranks``), then the front
(``front``) when fewer figures than the frontage remain.
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from oriflamme.core.dice import SealedDice

from .rules import rules

SIDES = ("A", "B")
KINDS = ("troop", "character", "creature", "monster")
FORMATIONS = ("line", "column", "open")
#: markers a unit may carry (GF seed 003): red = failed command test (l.269), green = moved in
#: phase 1 (l.313, l.319), yellow = disorder (l.573), counter_charge (l.283)
MARKERS = ("red", "green", "yellow", "counter_charge")
#: what a unit is doing beyond its order
STATUSES = ("ready", "routing", "retreating", "destroyed", "fled")


@dataclass
class Unit:
    id: str
    side: str
    kind: str                 # troop | character | creature | monster
    name: str
    type: str                 # "Homme B", "Héros majeur", "Ptérodactyle"…
    mover: str                # the movement row: homme, saurien, pterodactyle, grand_saurien…
    cls: str = ""             # troop class (A, B, C, M, fanatique); "" for the others
    race: str = ""            # homme | saurien for troops and characters
    being: str = ""           # the creature's or monster's id (data/command.toml)
    weapons: list[str] = field(default_factory=list)
    armour: list[str] = field(default_factory=list)
    figures: int = 1
    figures_max: int = 1
    points: int = 0
    formation: str = "line"
    frontage: int = 1         # figures in the front rank when at full strength
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    disorder: bool = False
    markers: list[str] = field(default_factory=list)
    order: dict | None = None  # {"id", "target", ...}: hidden from the other side until phase 4
    status: str = "ready"
    engaged: list[str] = field(default_factory=list)  # units in melee contact
    led_by: str | None = None  # a character in base contact directly controls the unit (l.450)
    leads: str | None = None   # the unit a character controls
    flyer: bool = False
    altitude: str | None = None  # None (ground), "combat" or "flight" (GF l.689-701)
    fc: int = 0                # a character's command, magic and combat factors
    fm: int = 0
    cm: int = 0
    wounds: list[dict] = field(default_factory=list)
    moved: bool = False        # has moved in this phase 6
    fired: bool = False        # fired this turn (a reaction may fire only if it did not, l.287)
    tested: bool = False       # took (or was exempt from) its command test this turn
    charge: dict | None = None  # {"target", "done": cm moved} while charging (phases 4, 9)
    pending: dict | None = None  # an automatic move owed in phase 1: {"kind": rout|retreat|pursuit, "away": [x, y]}
    lost_last_combat: bool = False
    start: list[float] = field(default_factory=list)  # x, y, heading at the start of the phase

    # --- the footprint ----------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.status not in ("destroyed", "fled") and self.figures > 0

    @property
    def front(self) -> int:
        """Figures in the front rank now."""
        return max(1, min(self.frontage, self.figures))

    @property
    def ranks(self) -> int:
        return max(1, math.ceil(self.figures / self.front))

    @property
    def spacing(self) -> float:
        return rules().formations[self.formation].spacing if self.kind == "troop" else 1.0

    @property
    def width(self) -> float:
        return self.front * rules().bases[self.kind].width_cm * self.spacing

    @property
    def depth(self) -> float:
        return self.ranks * rules().bases[self.kind].depth_cm * self.spacing

    @property
    def pose(self):
        from oriflamme.geometry.tabletop import Pose
        return Pose(self.x, self.y, self.heading)

    def footprint(self):
        from oriflamme.geometry.tabletop import footprint
        return footprint(self.pose, self.width, self.depth)

    @property
    def in_combat(self) -> bool:
        return bool(self.engaged)

    @property
    def open_order(self) -> bool:
        # characters and monsters are always in open order (GF seed 003 l.553)
        return self.formation == "open" or self.kind in ("character", "monster")

    def mark(self, marker: str) -> None:
        if marker not in self.markers:
            self.markers.append(marker)

    def unmark(self, marker: str) -> None:
        if marker in self.markers:
            self.markers.remove(marker)

    def set_disorder(self, value: bool) -> None:
        # characters are never in disorder (GF seed 003 l.580)
        value = value and self.kind != "character"
        self.disorder = value
        (self.mark if value else self.unmark)("yellow")


UNIT_FIELDS = tuple(f.name for f in fields(Unit))


@dataclass
class Battle:
    """A battle in progress. ``phase`` is 0 during deployment (turn 0), then 1…11 (``data/turn.toml``);
    ``acting`` is the side whose decision the phase waits for (None in an automatic phase)."""
    scenario: Any
    dice: Any
    units: dict[str, Unit]
    turn: int = 0
    phase: int = 0
    acting: str | None = "A"
    done: list[str] = field(default_factory=list)        # sides that ended the current step
    orders_in: dict[str, bool] = field(default_factory=lambda: {"A": False, "B": False})
    revealed: bool = False   # the orders of this turn have been shown (phase 4 reached)
    start_figures: dict[str, int] = field(default_factory=dict)
    start_points: dict[str, int] = field(default_factory=dict)
    log: list[dict] = field(default_factory=list)
    over: bool = False
    winner: str | None = None
    result: str = ""
    result_fr: str = ""

    # --- queries ---------------------------------------------------------------------------
    def side_units(self, side: str, alive: bool = True) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side and (u.alive or not alive)]

    def enemies(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side != side and u.alive]

    @staticmethod
    def other(side: str) -> str:
        return "B" if side == "A" else "A"

    # --- codecs -----------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"turn": self.turn, "phase": self.phase, "acting": self.acting, "done": list(self.done),
                "orders_in": dict(self.orders_in), "revealed": self.revealed,
                "start_figures": dict(self.start_figures), "start_points": dict(self.start_points),
                "units": [asdict(u) for u in self.units.values()], "log": copy.deepcopy(self.log),
                "over": self.over, "winner": self.winner, "result": self.result, "result_fr": self.result_fr,
                "rolls": self.dice.count}

    @classmethod
    def from_json(cls, data: dict, scenario) -> "Battle":
        units = {}
        for u in data["units"]:
            units[u["id"]] = Unit(**{k: copy.deepcopy(v) for k, v in u.items() if k in UNIT_FIELDS})
        st = cls(scenario=scenario, dice=SealedDice(data["rolls"]), units=units)
        for key in ("turn", "phase", "acting", "revealed", "over", "winner", "result", "result_fr"):
            setattr(st, key, data[key])
        st.done = list(data["done"])
        st.orders_in = dict(data["orders_in"])
        st.start_figures, st.start_points = dict(data["start_figures"]), dict(data["start_points"])
        st.log = copy.deepcopy(data["log"])
        return st

    def clone(self) -> "Battle":
        """A copy sharing the scenario (immutable); its dice are sealed; events are never mutated
        once written, so the log's list is copied, not its events."""
        new = copy.copy(self)
        new.dice = self.dice.clone()
        new.units = {k: _copy_unit(u) for k, u in self.units.items()}
        new.done = list(self.done)
        new.orders_in = dict(self.orders_in)
        new.start_figures, new.start_points = dict(self.start_figures), dict(self.start_points)
        new.log = list(self.log)
        return new


def _copy_unit(u: Unit) -> Unit:
    c = copy.copy(u)
    for key in ("weapons", "armour", "markers", "engaged", "start"):
        setattr(c, key, list(getattr(u, key)))
    c.wounds = [dict(w) for w in u.wounds]
    c.order = dict(u.order) if u.order is not None else None
    c.charge = dict(u.charge) if u.charge is not None else None
    c.pending = copy.deepcopy(u.pending)
    return c
