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
#: phase 1 (l.313, l.319), disorder = the yellow counter (l.573), counter_charge (l.283); gf-combat
#: adds uncontrolled_advance, pursuing, routed_in_melee
MARKERS = ("red", "green", "disorder", "counter_charge")
#: ok, retreat, rout (on the table); lost (off the table), removed (over 50 % lost), destroyed;
#: flank: marching off the table to enter by a side edge (GF-K4), not yet in the battle
ALIVE = ("ok", "retreat", "rout")
FLANK = "flank"


@dataclass
class Unit:
    """A unit on the table, in the vocabulary gf-combat's :class:`.fighters.Fighter` reads
    (``klass``, ``missile``, ``melee_weapon``, ``armour``, ``status`` ok/retreat/rout…) plus what
    the engine needs (its type, mover row, points, the army's weapons and armour as listed)."""
    id: str
    side: str
    name: str = ""
    kind: str = "troop"       # troop | character | creature | monster
    race: str = "homme"       # homme | saurien, or the being's id (data/command.toml)
    klass: str | None = None  # troop class A, B, C (a mercenary keeps it and has ``mercenary``)
    mercenary: bool = False
    fanatic: bool = False
    bestial: bool = False
    figures: int = 1
    figures_max: int = 1
    figures_turn_start: int | None = None
    frontage: int = 1         # figures in the front rank
    ranks: int = 1
    base_w: float = 2.5       # one figure's place in cm (open order: twice the base)
    base_d: float = 2.5
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    formation: str = "line"
    disorder: bool = False
    status: str = "ok"
    order: str | None = None  # hidden from the other side until phase 4
    target: str | None = None
    fire_targets: list[str] = field(default_factory=list)  # a fire order's announced targets (l.840, OR-GF110)
    charging: bool = False
    moved_cm: float = 0.0
    missile: str | None = None
    propulseur: bool = False
    melee_weapon: str | None = None
    armour: str = "sans_armure"
    shields: bool = False
    FC: int = 0
    FM: int = 0
    CM: int = 0
    wounds: list = field(default_factory=list)
    led_by: str | None = None
    curse: str | None = None       # a character's magic weapon's curse, as printed (l.203-218)
    magic_item: str | None = None  # a character's magic item, as the army names it (l.225-240)
    magic_weapon: str | None = None  # a character's magic weapon's power, as the army names it (l.188-199)
    brigade: str | None = None  # the character whose brigade the unit stands in now (brigades.py)
    altitude: str | None = None
    markers: list[str] = field(default_factory=list)
    pending: dict | None = None
    # --- the engine's own -----------------------------------------------------------------------
    type: str = ""            # "Homme B", "Héros majeur", "Ptérodactyle"…
    mover: str = "homme"      # the movement row (data/movement.toml)
    being: str = ""           # a creature's or monster's id
    weapons: list[str] = field(default_factory=list)      # as the army lists them
    armour_items: list[str] = field(default_factory=list)
    points: int = 0
    flyer: bool = False
    leads: str | None = None
    skills: list[str] = field(default_factory=list)   # a character's skills as the army lists them (l.155)
    spells: list[str] = field(default_factory=list)   # a priest's spells chosen before the battle (l.1136)
    moved: bool = False       # moved (or was placed) in this phase
    tested: bool = False      # took its command test this turn
    charge_half: bool = False  # made the first half of its charge (phase 4)
    base: str | None = None   # the movement base it stands on, hidden from the enemy (GF-K5, :mod:`.fog`)
    # --- buildings (battle/buildings_play.py, OR-GF80–83) ---------------------------------------
    inside: str | None = None          # the building (terrain element id) the unit stands in
    inside_points: list | None = None  # that building's outline: the unit's footprint while inside
    hidden: bool = False               # unseen by the enemy in its building (l.784) or behind one (l.786)
    #: a unit too large for its building, partly in (l.673, l.786; OR-GF142): {"building", "inside"
    #: (its figures in the building), "frontage" (its frontage before), "points" (the building's outline)};
    #: its footprint is the part outside, in formation against the wall
    split: dict | None = None
    #: hidden behind a building, off the table (l.786; OR-GF144, OR-GF145): {"building", "at" (its place
    #: and formation when it hid: [x, y, heading, formation]; any change places it again)}
    behind: dict | None = None

    # --- the footprint ----------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.status in ALIVE and self.figures > 0

    @property
    def cls(self) -> str:
        """The class for command tests: M for mercenaries (GF-B4), fanatique for fanatics."""
        if self.fanatic:
            return "fanatique"
        return "M" if self.mercenary else (self.klass or "")

    @property
    def front(self) -> int:
        return max(1, min(self.frontage, self.figures))

    @property
    def width(self) -> float:
        return self.front * self.base_w

    @property
    def depth(self) -> float:
        return max(self.ranks, 1) * self.base_d

    @property
    def pose(self):
        from oriflamme.geometry.tabletop import Pose
        return Pose(self.x, self.y, self.heading)

    def footprint(self):
        if self.inside_points:  # a unit in a building fills it (OR-GF81)
            from shapely.geometry import Polygon
            return Polygon(self.inside_points)
        from oriflamme.geometry.tabletop import footprint
        return footprint(self.pose, self.width, self.depth)

    @property
    def open_order(self) -> bool:
        # characters and monsters are always in open order (GF seed 003 l.553)
        return self.formation == "open" or self.kind in ("character", "monster")

    def set_formation(self, formation: str) -> None:
        """Formation, frontage, ranks and the place of a figure (data/battle.toml [[formation]])."""
        r = rules()
        self.formation = formation
        base = r.bases[self.kind]
        if self.kind == "troop":
            f = r.formations[formation]
            self.frontage = f.frontage
            self.base_w, self.base_d = base.width_cm * f.spacing, base.depth_cm * f.spacing
        else:
            self.base_w, self.base_d = base.width_cm, base.depth_cm
        self.ranks = max(1, math.ceil(self.figures / max(1, min(self.frontage, self.figures))))

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
        (self.mark if value else self.unmark)("disorder")


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
    omens: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})  # captures (l.950, l.1324)
    reacting: dict[str, str] = field(default_factory=dict)  # phase 5: charged unit -> its charger
    start_figures: dict[str, int] = field(default_factory=dict)
    start_points: dict[str, int] = field(default_factory=dict)
    log: list[dict] = field(default_factory=list)
    #: the command structure (brigades.py, battle_orders.py): brigades, written battle orders
    command: dict = field(default_factory=lambda: new_command())
    over: bool = False
    winner: str | None = None
    result: str = ""
    result_fr: str = ""
    #: an encounter battle's pre-battle state (:mod:`.encounter`, :mod:`.fog`): reconnaissance, the
    #: deployment order, the movement bases, the flank marches; empty in a set-piece battle
    fog: dict = field(default_factory=dict)
    #: each building's state by terrain element id (battle/buildings_play.py): defence, damage, fire
    buildings: dict[str, dict] = field(default_factory=dict)
    #: dead monsters' bodies, impassable 4 × 4 cm squares (l.889, l.1003; battle/crash_play.py)
    carcasses: list[dict] = field(default_factory=list)
    #: flyers killed in the air this phase, to crash once the casualties are logged (battle/crash_play.py)
    falling: list[dict] = field(default_factory=list)

    @property
    def battlefield(self):
        """gf-geom's Battlefield of the scenario (rebuilt from its document, cached per scenario)."""
        return battlefield_of(self.scenario)

    # --- queries ---------------------------------------------------------------------------
    def side_units(self, side: str, alive: bool = True) -> list["Unit"]:
        return [u for u in self.units.values() if u.side == side and (u.alive or not alive)]

    def enemies(self, side: str) -> list[Unit]:
        """The enemy units ``side`` knows on the table (not those hidden on movement bases, GF-K5)."""
        return [u for u in self.units.values() if u.side != side and u.alive and u.base is None]

    @staticmethod
    def other(side: str) -> str:
        return "B" if side == "A" else "A"

    # --- codecs -----------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"turn": self.turn, "phase": self.phase, "acting": self.acting, "done": list(self.done),
                "orders_in": dict(self.orders_in), "revealed": self.revealed, "omens": dict(self.omens), "reacting": dict(self.reacting),
                "start_figures": dict(self.start_figures), "start_points": dict(self.start_points),
                "units": [plain(asdict(u)) for u in self.units.values()], "log": copy.deepcopy(self.log),
                "over": self.over, "winner": self.winner, "result": self.result, "result_fr": self.result_fr,
                "command": copy.deepcopy(self.command), "rolls": self.dice.count,
                "buildings": copy.deepcopy(self.buildings),
                "carcasses": copy.deepcopy(self.carcasses), "falling": copy.deepcopy(self.falling),
                **({"fog": copy.deepcopy(self.fog)} if self.fog else {})}

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
        st.omens = dict(data["omens"])
        st.reacting = dict(data["reacting"])
        st.start_figures, st.start_points = dict(data["start_figures"]), dict(data["start_points"])
        st.log = copy.deepcopy(data["log"])
        st.command = copy.deepcopy(data.get("command") or new_command())
        st.fog = copy.deepcopy(data.get("fog") or {})
        st.buildings = copy.deepcopy(data.get("buildings", {}))
        st.carcasses = copy.deepcopy(data.get("carcasses", []))
        st.falling = copy.deepcopy(data.get("falling", []))
        return st

    def clone(self) -> "Battle":
        """A copy sharing the scenario (immutable); its dice are sealed; events are never mutated
        once written, so the log's list is copied, not its events."""
        new = copy.copy(self)
        new.dice = self.dice.clone()
        new.units = {k: _copy_unit(u) for k, u in self.units.items()}
        new.done = list(self.done)
        new.orders_in = dict(self.orders_in)
        new.omens = dict(self.omens)
        new.reacting = dict(self.reacting)
        new.start_figures, new.start_points = dict(self.start_figures), dict(self.start_points)
        new.log = list(self.log)
        new.command = copy.deepcopy(self.command)
        new.fog = copy.deepcopy(self.fog) if self.fog else {}
        new.buildings = copy.deepcopy(self.buildings)
        new.carcasses = [dict(c) for c in self.carcasses]
        new.falling = copy.deepcopy(self.falling)
        return new


def new_command() -> dict:
    """The command structure of a new battle: ``brigades`` {character: {"units", "dissolved"}},
    the ``written`` battle orders in force and those ``pending`` (written, not yet read), per
    character {"order", "target", "turn"}; ``written_in`` per side (the step after deployment);
    ``changed`` per side: the turn it last changed a written order (OR-GF90-93)."""
    return {"brigades": {}, "written": {}, "pending": {}, "written_in": {"A": False, "B": False}, "changed": {}}


def plain(obj):
    """``obj`` with NumPy scalars (from Shapely's answers) turned into Python numbers and booleans."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if type(obj).__module__ == "numpy":
        return obj.item()
    return obj


def _copy_unit(u: Unit) -> Unit:
    c = copy.copy(u)
    for key in ("weapons", "armour_items", "markers", "fire_targets", "skills", "spells"):
        setattr(c, key, list(getattr(u, key)))
    c.wounds = copy.deepcopy(u.wounds)
    c.pending = copy.deepcopy(u.pending)
    return c


_FIELDS: dict = {}


def battlefield_of(scenario):
    key = id(scenario)
    hit = _FIELDS.get(key)
    if hit is not None and hit[0] is scenario:
        return hit[1]
    from .battlefield import battlefield_from_json
    bf = battlefield_from_json(scenario.battlefield, "scenario battlefield")
    if len(_FIELDS) > 64:
        _FIELDS.clear()
    _FIELDS[key] = (scenario, bf)
    return bf
