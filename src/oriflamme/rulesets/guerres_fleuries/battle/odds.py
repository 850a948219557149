"""What the computer players read off a battle (issue 13 item 6): the weights of their evaluation
(``data/ai_evaluation.toml``, validated), the melee, fire and morale odds of the part-1 referee on the
units' own situations (cached by situation: the cache keys hold all a ruling reads, so an answer never
depends on what was asked before), an approximate reading of the table (:class:`Reading`), and the
typical sets of orders that follow those odds (:func:`favoured_sets`, listed by
:func:`.orders.typical_sets`). :mod:`.evaluation` builds the ``evaluate`` hook on it. This module
imports neither the orders, the turn nor the views (no import cycle)."""

from __future__ import annotations

import math
import tomllib
from typing import Literal
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from oriflamme.geometry import tabletop as tt

from .. import fire as fd
from .. import melee as md
from .. import modifiers as mods
from ..referee import adjudicate
from ..referee.morale import MODIFIER_FILE
from ..referee.wound import _state, _worst
from . import fire_play, morale_play, moves
from .fighters import battlefield as table_of
from .rules import rules
from .melee_play import _attacker_class, figures_in_contact  # gf-combat's melee situation
from .state import Battle, Unit

DATA = Path(__file__).resolve().parent.parent / "data" / "ai_evaluation.toml"


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ref: str = Field(min_length=3)
    scale: float = Field(gt=0)
    points: float = Field(ge=0)
    ref_points: str
    figures: float = Field(ge=0)
    break_pressure: float = Field(ge=0)
    break_from: float = Field(ge=0, le=1)
    ref_figures: str
    morale: float = Field(ge=0)
    ref_morale: str
    threats: float = Field(ge=0)
    threats_others: float = Field(ge=0, le=1)
    advance_rule: Literal["nearest", "around"]
    ref_advance_rule: str
    ref_threats: str
    charges: float = Field(ge=0)
    ref_charges: str
    flank: float = Field(ge=0)
    ref_flank: str
    fire: float = Field(ge=0)
    fire_unknown: float = Field(ge=0, le=1)
    ref_fire: str
    orders: float = Field(ge=0)
    ref_orders: str
    charge_bonus: float = Field(ge=0)
    ref_charge: str
    reform: float = Field(ge=0)
    ref_reform: str
    edge: float = Field(ge=0)
    ref_edge: str
    spell: float = Field(ge=0)
    ref_spell: str
    command: float = Field(ge=0)
    ref_command: str
    lasting_spell: float = Field(ge=0)
    lasting_turns: int = Field(gt=0)
    ref_lasting_spell: str
    melee_outcome: float = Field(ge=0)
    ref_melee_outcome: str
    blocked: float = Field(ge=0)
    ref_blocked: str


class StatusShares(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rout: float = Field(ge=0, le=1)
    retreat: float = Field(ge=0, le=1)
    disorder: float = Field(ge=0, le=1)
    ref: str


class Wounds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    share: float = Field(ge=0, le=1)
    ref: str


class Distance(BaseModel):
    model_config = ConfigDict(extra="forbid")
    contact_cm: float = Field(ge=0)
    command_cm: int = Field(gt=0)
    ref: str
    ref_command: str


class EvaluationData(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weights: Weights
    status: StatusShares
    wounds: Wounds
    distance: Distance


@lru_cache(maxsize=None)
def load_weights(path: str = str(DATA)) -> EvaluationData:
    """The weights, validated (a bad file raises ``ValueError`` naming the file and the field)."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    try:
        return EvaluationData.model_validate(raw)
    except Exception as exc:  # noqa: BLE001 - pydantic's ValidationError names the field
        raise ValueError(f"{path}: {exc}") from None


# --- the referee's percentages, cached by situation ---------------------------------------------
_MELEE: dict = {}
_FIRE: dict = {}
_REACH: dict = {}
_MORALE: dict = {}


def _expected(ruling: dict) -> float:
    """Expected casualties (figures or wounds) of a ruling: the sure ones plus the residual chance."""
    return float(ruling.get("eliminated") or 0) + float(ruling.get("extra_if_d100_at_most") or 0) / 100.0


def _target_kind(u: Unit) -> str:
    return "unit" if u.kind == "troop" else u.kind


def in_contact_count(a: Unit, b: Unit) -> int:
    """Figures of ``a`` that would touch ``b`` front to front: its front rank, no wider than ``b``."""
    if a.kind in ("character", "monster"):
        return 1
    return max(1, min(a.front, a.figures, math.ceil(b.width / max(a.base_w, 0.1)) + 1))


def striker_key(a: Unit) -> tuple:
    """What of ``a`` its melee percentage reads (the part-1 melee situation's attacker fields)."""
    weapon = a.melee_weapon if a.kind in ("troop", "character") else None
    return (a.race, a.kind, weapon, _attacker_class(a), a.ranks if a.kind == "troop" else 0, a.disorder,
            (a.CM, a.FM, a.FC) if a.kind == "character" else None)


def target_key(b: Unit) -> tuple:
    """What of ``b`` a melee percentage against it reads (armour, sort, shields, disorder)."""
    return (b.armour, _target_kind(b), b.shields, b.disorder and b.kind != "character")


def melee_kills(a: Unit, b: Unit, *, charging: bool = False, flank: bool = False,
                keys: tuple | None = None, contact: int | None = None) -> float:
    """The casualties ``a`` expects to inflict on ``b`` in one round of melee, front to front (the
    part-1 referee on the situation :func:`.melee_play.situation` builds, minus the table's
    geometry: no cover; the flank and rear as a share, ``flank``); a routing unit strikes nothing
    (OR-GF55). ``contact``: the figures of ``a`` in contact, when known (else its whole front)."""
    if a.status == "rout" or not a.alive or not b.alive:
        return 0.0
    sk, tk = keys or (striker_key(a), target_key(b))
    n = in_contact_count(a, b) if contact is None else max(1, min(contact, in_contact_count(a, b)))
    key = (sk, tk, n, charging)
    hit = _MELEE.get(key)
    if hit is None:
        race, kind, weapon, klass, ranks, disordered, char = sk
        sit: dict = {"kind": "melee", "attacker": race, "target_armour": tk[0], "figures_in_contact": n,
                     "target": tk[1]}
        if kind in ("troop", "character"):
            sit["weapon"] = weapon
            sit["attacker_class"] = klass
        if kind == "troop":
            sit["ranks"] = ranks
            if disordered:
                sit["attacker_disordered"] = True
        if kind == "character":
            sit["character"] = {"CM": char[0], "FM": char[1], "FC": char[2]}
        row = md.pbc().get((race, weapon))
        table = mods.modifiers(row.modifiers if row else "melee")
        given = [m for m, on in (("charging", charging), ("enemy_disordered", tk[3]), ("enemy_shields", tk[2]))
                 if on and m in table]
        if given:
            sit["modifiers"] = [{"modifier": m} for m in given]
        try:
            hit = _expected(adjudicate(sit))
        except Exception:  # noqa: BLE001 - a situation the referee refuses: no strength counted
            hit = 0.0
        if len(_MELEE) > 20000:
            _MELEE.clear()
        _MELEE[key] = hit
    if flank:
        hit *= 1.0 + load_weights().weights.flank
    return hit


def fire_kills(u: Unit, t: Unit, distance: float) -> float:
    """The casualties ``u`` expects from one volley at ``t`` at ``distance`` cm (farthest points),
    by the part-1 fire referee (the figures that fire: frontage × the weapon's ranks, GF-E8; no
    cover, woods or movement read: an approximation)."""
    if not u.missile or (u.race, u.missile) not in fd.pbt():
        return 0.0
    rk = fd.ranks().get(u.missile)
    ranks = getattr(rk, u.race, 1) if rk is not None else 1
    figures = min(u.figures, u.front * min(ranks or 1, u.ranks))
    band = int(math.ceil(distance / 2.0)) * 2
    key = (u.race, u.missile, u.propulseur, u.klass, u.disorder, figures, band, t.armour, _target_kind(t),
           t.ranks if t.kind == "troop" else 0, t.formation == "open" and t.kind == "troop", t.shields)
    hit = _FIRE.get(key)
    if hit is None:
        sit = fire_play.base_situation(u, t, band, t.armour, figures, key[8])
        given = []
        if key[10]:
            given.append({"modifier": "target_character_or_open_order"})
        if t.shields:
            given.append({"modifier": "target_shields"})
        if u.disorder:
            given.append({"modifier": "shooter_disordered"})
        if given:
            sit["modifiers"] = given
        try:
            ruling = adjudicate(sit)
            hit = _expected(ruling) if ruling.get("in_range", True) else 0.0
        except Exception:  # noqa: BLE001 - out of range or a situation the referee refuses
            hit = 0.0
        if len(_FIRE) > 20000:
            _FIRE.clear()
        _FIRE[key] = hit
    return hit


def max_range(u: Unit) -> float:
    row = fd.pbt().get((u.race, u.missile)) if u.missile else None
    if row is None:
        return 0.0
    return float(row.longue + (fd.weapons()[u.missile].propulseur_cm if u.propulseur else 0))


def reach(u: Unit) -> float:
    """The unit's charge move (data/movement.toml), cached by what it depends on."""
    return move_of(u, "charge", 20.0)


def move_of(u: Unit, column: str, default: float) -> float:
    """The unit's move in ``column`` of data/movement.toml (``default`` for a mover without that rate),
    cached by what it depends on."""
    key = (column, u.mover, u.open_order, u.flyer, bool(u.altitude))
    hit = _REACH.get(key)
    if hit is None:
        try:
            hit = moves.allowance(u, column)[0]
        except Exception:  # noqa: BLE001 - a mover without that rate
            hit = default
        _REACH[key] = hit
    return hit


_FLEE: dict = {}


def flee_moves(u: Unit) -> tuple[float, float]:
    """(retreat move, rout move) of the unit (data/movement.toml, the retraite and deroute columns),
    cached by what they depend on."""
    key = (u.mover, u.open_order, u.flyer, bool(u.altitude))
    hit = _FLEE.get(key)
    if hit is None:
        try:
            hit = (moves.allowance(u, "retraite")[0], moves.allowance(u, "deroute")[0])
        except Exception:  # noqa: BLE001 - a mover without those rates
            hit = (10.0, 34.0)
        _FLEE[key] = hit
    return hit


def edge_room(u: Unit, table_height: float) -> float:
    """The gap (cm) between the unit's rectangle and its own table edge, the edge a retreat or a rout
    runs to when the enemy stands in front (morale_play: side A's edge is the far one, y = height;
    side B's is y = 0). A retreat or a rout stopped short by the edge drives the unit off the
    table: lost whole (l.946, l.1094)."""
    h = math.radians(u.heading)
    half = abs(math.cos(h)) * u.depth / 2.0 + abs(math.sin(h)) * u.width / 2.0
    return (table_height - u.y if u.side == "A" else u.y) - half


def edge_exposure(u: Unit, table_height: float, back_cm: float = 0.0) -> tuple[float, float]:
    """(retreat, rout): 1 when a retreat (or a rout) from here would reach the table's edge, falling
    to 0 with half a move more room (an approximation: the move runs away from the cause, which for
    a frontal attack is towards the unit's own edge). ``back_cm``: read it after the unit has
    stepped that far back towards its edge."""
    room = edge_room(u, table_height) - back_cm
    out = []
    for move in flee_moves(u):
        out.append(min(1.0, max(0.0, (move - room) / (0.5 * move) + 1.0)) if move > 0 else 0.0)
    return out[0], out[1]


_COMMAND: dict = {}


def command_success(u: Unit, character: Unit | None, distance: float) -> float:
    """The chance that ``u`` passes its next command test (phase 2), the nearest friendly
    character ``distance`` cm away commanding (GF-C2: within 15 cm he adds his FC): the part-1
    command test referee's threshold (passed on a d100 at most the threshold, l.1371). 1 for a unit that takes no test (a character, a unit a
    character controls)."""
    if u.kind != "troop" or u.led_by is not None:
        return 1.0
    fc = character.FC if character is not None else None
    # the referee counts the distance in whole slices (GF-C2): one ruling per slice, its threshold read
    near = load_weights().distance.command_cm
    band = None if fc is None else ("near" if distance <= near else int(distance // near) * near)
    key = (u.race, u.cls, fc, band)
    hit = _COMMAND.get(key)
    if hit is None:
        sit: dict = {"kind": "command_test", "race": u.race, "class": u.cls, "d100": 100}
        if fc is not None:
            sit["character"] = {"FC": fc}
            if band == "near":
                sit["modifiers"] = [{"modifier": "character_within_15cm", "count": 1}]
            else:
                sit["commander_distance_cm"] = band
        try:
            hit = min(1.0, max(0.0, float(adjudicate(sit)["threshold"]) / 100.0))
        except Exception:  # noqa: BLE001 - a situation the referee refuses: counted as passed
            hit = 1.0
        _COMMAND[key] = hit
    return hit


_SPELL: dict = {}
#: the spell a priest casts at the enemy (data/magic.toml): a figure killed, or a wound
WOUND_SPELL = "blessure"


def is_priest(u: Unit) -> bool:
    """A priest or warrior-priest (the casters the battle offers spells to, OR-GF40)."""
    return u.kind == "character" and u.FM > 0 and "pr" in (u.type or "").lower()


def spell_chance(state: Battle, caster: Unit, target: Unit | None = None) -> float | None:
    """The chance that ``caster``'s Blessure works: the part-1 magic referee's threshold on the caster's
    own situation (gf-combat's ``magic_play._situation``: the priest's type and level, base contact,
    wounds; the distance decides only whether the target is in range, read by the caller), cached by
    that situation. None when the priest cannot cast it at all: he did not choose it before the
    battle, or the gods do not answer him now (a failure's silence). It is read whether or not he
    has cast this turn (the term values what he may do next), so the answer never depends on what
    the cache held before (once it did: a process that had read a priest's odds earlier valued him
    where a fresh one did not, and the same seed played two games)."""
    from . import magic_play, spells
    chosen = list(getattr(caster, "spells", None) or [])
    if (chosen and WOUND_SPELL not in chosen) or spells.silenced(state, caster):
        return None
    sit = magic_play._situation(state, caster, WOUND_SPELL, None)
    key = tuple(sorted((k, str(v)) for k, v in sit.items()))
    hit = _SPELL.get(key)
    if hit is None:
        try:
            hit = max(0.0, min(1.0, (float(adjudicate(sit)["threshold"]) - 1.0) / 100.0))
        except Exception:  # noqa: BLE001 - a situation the referee refuses: no spell counted
            hit = -1.0
        _SPELL[key] = hit
    return None if hit < 0 else hit


def spell_range() -> float:
    from ..magic import data as magic_data
    return float(magic_data().spells[WOUND_SPELL].distance_cm)


def closeness(distance: float, reach_cm: float, contact_cm: float) -> float:
    """1 in contact, then reach / (reach + gap): 1/2 at the charge reach, and so on."""
    if distance <= contact_cm:
        return 1.0
    return reach_cm / (reach_cm + distance)


def step_gain(rd: Reading, p: Piece, enemies, step: float, contact_cm: float, lone: bool = False) -> float:
    """What ``p`` gains in the melees around it by closing ``step`` cm on every enemy in ``enemies``
    (its exchange with each weighed by how much nearer the step brings them, :func:`closeness`): >0
    when the enemies it beats outweigh those that beat it. ``lone``: a character's step counts only
    the enemies that could reach him after it (:func:`character_order`)."""
    gain = 0.0
    for e in enemies:
        near = rd.gap(p.u.id, e.u.id)
        if lone and near > e.reach + step:
            continue
        r = max(p.reach, e.reach)
        gain += rd.exchange(p.u.id, e.u.id) * (closeness(max(0.0, near - step), r, contact_cm) - closeness(near, r, contact_cm))
    return gain


def kill_value(u: Unit) -> float:
    """The points one expected casualty of ``u`` is worth: a figure of a unit, or a wound's share of
    a lone being (data/ai_evaluation.toml [wounds])."""
    if u.figures_max > 1:
        return u.points / u.figures_max
    return u.points * load_weights().wounds.share


# --- the table, approximated, read once per evaluation -------------------------------------------
class Piece:
    """A unit as the evaluation reads it: its rectangle (centre, front and right vectors, half
    sizes) and the keys of its melee percentages."""
    __slots__ = ("u", "x", "y", "fx", "fy", "rx", "ry", "hw", "hd", "reach", "striker", "target", "value",
                 "range", "exposed")

    def __init__(self, u: Unit, table_height: float = 120.0):
        self.u = u
        self.x, self.y = u.x, u.y
        h = math.radians(u.heading)
        self.fx, self.fy = math.sin(h), -math.cos(h)   # the front (heading 0 faces y = 0)
        self.rx, self.ry = math.cos(h), math.sin(h)    # the right
        self.hw, self.hd = u.width / 2.0, u.depth / 2.0
        self.reach = reach(u)
        self.striker, self.target = striker_key(u), target_key(u)
        self.value = kill_value(u)
        self.range = max_range(u) if u.missile and u.status == "ok" else 0.0
        self.exposed = edge_exposure(u, table_height) if u.kind != "character" else (0.0, 0.0)

    def extent(self, dx: float, dy: float, dist: float) -> float:
        """From the centre to the rectangle's edge towards (dx, dy)."""
        along = abs(dx * self.fx + dy * self.fy) / dist
        across = abs(dx * self.rx + dy * self.ry) / dist
        a = self.hd / along if along > 1e-9 else math.inf
        b = self.hw / across if across > 1e-9 else math.inf
        return min(a, b)

    def corners(self) -> list[tuple[float, float]]:
        return [(self.x + sx * self.hw * self.rx + sy * self.hd * self.fx,
                 self.y + sx * self.hw * self.ry + sy * self.hd * self.fy) for sx in (-1, 1) for sy in (-1, 1)]

    def outside_front(self, other: "Piece") -> bool:
        """``other``'s centre lies outside this unit's 90° front arc (its flank or rear)."""
        dx, dy = other.x - self.x, other.y - self.y
        d = math.hypot(dx, dy)
        return d > 1e-9 and (dx * self.fx + dy * self.fy) / d < SQRT_HALF


SQRT_HALF = math.sqrt(0.5)
#: a front within this many degrees of an edge of the enemy meets it squarely (its whole front in
#: contact); at CORNER_DEG off only a corner touches (one figure): an approximation of
#: melee_play.figures_in_contact, which counts the bases along the edge that touches
SQUARE_DEG, CORNER_DEG = 3.0, 20.0


def gap(a: Piece, b: Piece) -> float:
    """The nearest gap between two units along the line of their centres (an approximation)."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    if dist < 1e-9:
        return 0.0
    return max(0.0, dist - a.extent(dx, dy, dist) - b.extent(-dx, -dy, dist))


def farthest(a: Piece, b: Piece) -> float:
    """The distance between the farthest points of two rectangles (their farthest corners, GF-E7)."""
    cb = b.corners()
    return max(math.hypot(x - p, y - q) for x, y in a.corners() for p, q in cb)


class Reading:
    """One evaluation's reading of the table: the pieces, and the melee exchanges memoised."""

    def __init__(self, state: Battle):
        self.state = state
        self.height = float(table_of(state).height)
        self.pieces = {u.id: Piece(u, self.height) for u in state.units.values() if u.alive}
        self._exchange: dict = {}
        self._charge: dict = {}
        self._clear: dict = {}
        self._gap: dict = {}

    def gap(self, a: str, b: str) -> float:
        key = (a, b) if a < b else (b, a)
        hit = self._gap.get(key)
        if hit is None:
            hit = self._gap[key] = gap(self.pieces[a], self.pieces[b])
        return hit

    def exchange(self, a: str, b: str, charging: bool = False, heading: float | None = None) -> float:
        """The points ``a`` expects to kill of ``b`` minus those ``b`` kills of ``a`` in a round of
        melee (the striker outside its target's front arc gets the flank share), with the figures
        each would have in contact (:meth:`contact`; ``heading``: ``a``'s when it charges)."""
        key = (a, b, charging, heading)
        hit = self._exchange.get(key)
        if hit is None:
            pa, pb = self.pieces[a], self.pieces[b]
            na, nb = self.contact(a, b, heading), self.contact(b, a, None, heading)
            ka = melee_kills(pa.u, pb.u, charging=charging, flank=pb.outside_front(pa), keys=(pa.striker, pb.target),
                             contact=na)
            kb = melee_kills(pb.u, pa.u, flank=pa.outside_front(pb), keys=(pb.striker, pa.target), contact=nb)
            hit = ka * pb.value - kb * pa.value
            w = load_weights().weights.melee_outcome
            if w:
                hit += w * self.outcome(a, b, ka, kb)
            self._exchange[key] = hit
        return hit

    def flight_cost(self, x: Unit, ret: float, rout: float) -> float:
        """The points a retreat or a rout of ``x`` costs at their chances: the [status] shares of its
        points alive, its whole points where the move leaves the table (:func:`edge_exposure`, l.946,
        l.1094), the whole unit for fanatics (destroyed by either result, l.1100, l.1108)."""
        alive = x.points * x.figures / max(1, x.figures_max)
        if x.fanatic:
            return (ret + rout) * alive
        st = load_weights().status
        e_ret, e_rout = self.pieces[x.id].exposed
        return (ret * (e_ret + (1.0 - e_ret) * st.retreat) + rout * (e_rout + (1.0 - e_rout) * st.rout)) * alive

    def outcome(self, a: str, b: str, a_kills: float, b_kills: float) -> float:
        """What the round's outcome is worth to ``a`` beyond the figures: the side that loses more
        figures loses the combat and tests its morale (l.1554-1558, cause *lost_combat*), and a
        retreat or a rout near its own edge loses the whole unit (:meth:`flight_cost`). The figures
        each side loses are read as Poisson counts of the expected casualties (:func:`loses_more`)."""
        ua, ub = self.pieces[a].u, self.pieces[b].u
        value = 0.0
        if ub.kind != "character" and ub.status == "ok":
            value += loses_more(a_kills, b_kills) * self.flight_cost(ub, *charge_morale(self.state, ub, ua, "lost_combat"))
        if ua.kind != "character" and ua.status == "ok":
            value -= loses_more(b_kills, a_kills) * self.flight_cost(ua, *charge_morale(self.state, ua, ub, "lost_combat"))
        return value

    def contact(self, a: str, b: str, heading: float | None = None, other: float | None = None) -> int:
        """The figures of ``a`` that would fight ``b``: gf-combat's count on the table when the two
        touch (l.933, OR-GF21); else its whole front when ``a``'s front would meet an edge of ``b``
        squarely, down to one figure (a corner) at 20° off (the bases touch only along the part of
        the edge that meets: :func:`.melee_play.figures_in_contact`) — ``heading``, ``other``: the
        headings to read instead of ``a``'s and ``b``'s (a charger turned towards its target)."""
        pa, pb = self.pieces[a], self.pieces[b]
        full = in_contact_count(pa.u, pb.u)
        if full <= 1:
            return full
        if heading is None and other is None and self.gap(a, b) <= load_weights().distance.contact_cm:
            try:
                return figures_in_contact(pa.u, pb.u)[0]
            except Exception:  # noqa: BLE001 - a pair the geometry cannot read: the whole front
                return full
        ha = pa.u.heading if heading is None else heading
        hb = pb.u.heading if other is None else other
        off = min(abs(moves.angle_diff(ha, hb + k)) for k in (0.0, 90.0, 180.0, 270.0))
        if off <= SQUARE_DEG:
            return full
        return max(1, round(full * max(0.0, 1.0 - (off - SQUARE_DEG) / (CORNER_DEG - SQUARE_DEG))))

    def clear(self, a: str, b: str) -> bool:
        """:func:`charge_reaches` of ``a`` on ``b``, memoised."""
        key = (a, b)
        hit = self._clear.get(key)
        if hit is None:
            hit = self._clear[key] = charge_reaches(self.state, self.pieces[a].u, self.pieces[b].u,
                                                    self.pieces[a].reach)
        return hit

    def charge(self, a: str, b: str) -> float:
        """The value of ``a`` declaring a charge on ``b``: the exchange with the charge modifier if
        its morale test lets it go on, minus what a retreat or a rout costs (data [status], or the
        whole unit for fanatics) at their chances."""
        key = (a, b)
        hit = self._charge.get(key)
        if hit is None:
            u, t = self.pieces[a].u, self.pieces[b].u
            st = load_weights().status

            risk = self.flight_cost
            ret, rout = charge_morale(self.state, u, t)
            cause = "charge_monster_or_character" if u.kind in ("monster", "character") else "charge"
            t_ret, t_rout = charge_morale(self.state, t, u, cause) if t.status == "ok" else (0.0, 0.0)
            go = 1.0 - ret - rout
            if self.clear(a, b):
                # the charger goes on if it passes; the target that fails its own test flees
                hit = (go * ((1.0 - t_ret - t_rout) * self.exchange(a, b, charging=True, heading=charge_heading(u, t))
                             + risk(t, t_ret, t_rout))
                       - risk(u, ret, rout))
            else:  # the charge cannot reach its target: it ends without contact, disordered (l.600-604)
                hit = -go * st.disorder * u.points * u.figures / max(1, u.figures_max) - risk(u, ret, rout)
            self._charge[key] = hit
        return hit


@lru_cache(maxsize=4096)
def _loses_more(lost: float, killed: float) -> float:
    if lost <= 0.0:
        return 0.0
    top = int(lost + killed + 8.0 * math.sqrt(lost + killed + 1.0)) + 2
    px = [math.exp(-lost)]
    for k in range(1, top + 1):
        px.append(px[-1] * lost / k)
    above = [0.0] * (top + 2)  # above[y] = P(X > y)
    for y in range(top, -1, -1):
        above[y] = above[y + 1] + px[y + 1] if y + 1 <= top else 0.0
    total, py = 0.0, math.exp(-killed)
    for y in range(top + 1):
        total += py * above[y]
        py = py * killed / (y + 1)
    return min(1.0, total)


def loses_more(lost: float, killed: float) -> float:
    """The chance a side loses more figures than the other in a round of melee (the loser of l.1554):
    the figures each loses read as Poisson counts of the expected casualties — ``lost``, what it
    suffers, ``killed``, what it inflicts (rounded to 0.01 for the cache)."""
    return _loses_more(round(max(0.0, lost), 2), round(max(0.0, killed), 2))


def charge_reaches(state: Battle, u: Unit, t: Unit, reach_cm: float) -> bool:
    """Whether ``u`` charging ``t`` can reach contact the way :func:`.charges.charge_move` moves a
    charger: turned towards the target's centre (at most 45°), then straight on for its charge move
    (two halves), stopped by any other enemy within the standoff distance of its path and by a friend
    where it would end (l.590, l.596-604, l.638-642; terrain not read: an approximation)."""
    d = rules().distances
    path = _charge_path(u, t, reach_cm)
    if path is None:
        return False
    if path is True:
        return True
    efp, sweep = path
    x0, y0, x1, y1 = sweep.bounds
    for o in state.units.values():
        if not o.alive or o.id in (u.id, t.id) or (o.altitude == "flight") != (u.altitude == "flight"):
            continue
        far = d.enemy_standoff_cm + max(o.width, o.depth)
        if o.x < x0 - far or o.x > x1 + far or o.y < y0 - far or o.y > y1 + far:
            continue  # too far from the path to matter
        ofp = o.footprint()
        if o.side != u.side:
            if sweep.distance(ofp) < d.enemy_standoff_cm - 1e-6:
                return False
        elif o.kind != "character" and u.kind != "character" and efp.intersection(ofp).area > 0.01:
            return False
    return True


_PATH: dict = {}


def charge_heading(u: Unit, t: Unit) -> float:
    """The charger's heading once turned towards its target's centre (at most 45°, charges.charge_move)."""
    wheel = rules().distances.wheel_deg
    turn = max(-wheel, min(wheel, moves.angle_diff(u.heading, tt.toward(u.pose, t.x, t.y))))
    return round((u.heading + turn) % 360.0, 6)


def _charge_path(u: Unit, t: Unit, reach_cm: float):
    """The charger's path to contact (its footprint there and the area it sweeps), True when already
    in contact, None when the path misses the target or falls short; cached by the two poses."""
    key = (u.x, u.y, u.heading, u.width, u.depth, t.x, t.y, t.heading, t.width, t.depth, reach_cm)
    if key in _PATH:
        return _PATH[key]
    d = rules().distances
    head = tt.toward(u.pose, t.x, t.y)
    turn = max(-d.wheel_deg, min(d.wheel_deg, moves.angle_diff(u.heading, head)))
    start = tt.Pose(u.x, u.y, (u.heading + turn) % 360.0)
    tfp = t.footprint()
    tol = d.contact_tolerance_cm + 0.05

    def gap_at(dist: float) -> float:
        return tt.nearest_distance(tt.footprint(tt.moved(start, dist), u.width, u.depth), tfp)

    if gap_at(0.0) <= tol:
        out = True
    elif tt.swept(start, tt.moved(start, reach_cm), u.width, u.depth).distance(tfp) > tol:
        out = None  # the path misses the target or falls short
    else:
        lo, hi = 0.0, reach_cm
        for _ in range(9):  # the first point of contact along the path (to a twentieth of a cm)
            mid = (lo + hi) / 2.0
            if gap_at(mid) <= tol:
                hi = mid
            else:
                lo = mid
        end = tt.moved(start, hi)
        out = (tt.footprint(end, u.width, u.depth), tt.swept(start, end, u.width, u.depth))
    if len(_PATH) > 20000:
        _PATH.clear()
    _PATH[key] = out
    return out


def charge_morale(state: Battle, u: Unit, other: Unit, cause: str = "charge") -> tuple[float, float]:
    """(chance to retreat, chance to rout) of ``u``'s morale test when it declares a charge on
    ``other`` or is charged by it (l.281-283): the part-1 morale referee, d4 by d4, on the
    situation gf-combat's :func:`.morale_play.situation` builds, read off the units alone (class,
    losses, fanatic or bestial, a controlling character, outnumbering, disorder receiving a charge,
    retreat or rout) — not what stands around them (friends and enemies near, cover), so the answer
    depends only on what the cache key holds. Fanatics are destroyed by either result."""
    if u.kind == "character":
        return 0.0, 0.0
    ch = state.units.get(u.led_by or "")
    char = (ch.FM, ch.FC) if ch is not None and ch.alive else None
    receiving = cause in ("charge", "charge_monster_or_character") and u.disorder \
        and u.order not in ("charger", "contre_charger")
    key = (u.kind, u.race, u.being, u.klass, u.mercenary, u.fanatic, u.bestial, u.figures_max, u.figures,
           tuple(map(str, u.wounds)), char, u.status, receiving, cause,
           u.figures * 2 >= other.figures * 3, other.figures >= 2 * u.figures)
    hit = _MORALE.get(key)
    if hit is None:
        try:
            hit = _morale_odds(u, key, char)
        except Exception:  # noqa: BLE001 - a test the referee refuses: no risk counted
            hit = (0.0, 0.0)
        if len(_MORALE) > 20000:
            _MORALE.clear()
        _MORALE[key] = hit
    return hit


def _morale_odds(u: Unit, key: tuple, char) -> tuple[float, float]:
    table = mods.modifiers(MODIFIER_FILE[morale_play.tester_kind(u)])
    sit: dict = {"kind": "morale", "tester": morale_play.tester_name(u)}
    klass = morale_play.morale_class(u)
    if klass:
        sit["class"] = klass
    if u.kind in ("troop", "creature"):
        sit["losses"] = u.figures_max - u.figures
        sit["initial_strength"] = u.figures_max
        if u.fanatic:
            sit["fanatic"] = True
    else:
        sit["wound_state"] = _worst(["none"] + [_state(w) for w in u.wounds])
    given = []
    receiving, outnumbers, outnumbered = key[12], key[14], key[15]
    for mid, on in (("character_controls", char is not None), ("outnumbers", outnumbers),
                    ("outnumbered_2", outnumbered), ("tester_retiring", u.status == "retreat"),
                    ("tester_routing", u.status == "rout"), ("fanatic_or_bestial", u.fanatic or u.bestial),
                    ("disordered_receiving_charge", receiving), ("lost_last_combat", key[13] == "lost_combat")):
        if on and mid in table:
            given.append({"modifier": mid, "count": 1})
    if given:
        sit["modifiers"] = given
    if char is not None:
        sit["character"] = {"FM": char[0], "FC": char[1]}
    results = []
    for d4 in range(1, 5):
        try:
            results.append(adjudicate({**sit, "d4": d4})["result"])
        except Exception:  # noqa: BLE001 - e.g. a being's wound state the referee reads otherwise
            sit.pop("wound_state", None)
            results.append(adjudicate({**sit, "d4": d4})["result"])
    return results.count("RET") / 4.0, results.count("DER") / 4.0


def exchange(state: Battle, a: str, b: str, *, charging: bool = False) -> float:
    """:meth:`Reading.exchange` on a fresh reading of ``state``."""
    return Reading(state).exchange(a, b, charging)


# --- orders that follow the odds ---------------------------------------------------------------------
def as_seen(state: Battle, side: str) -> Battle:
    """``state`` as ``side`` may read its enemy's orders: a copy with them cleared while they lie face
    down (given in phase 3, before the reveal of phase 4, l.275; not under *Paroles de vérité*,
    OR-GF124), else ``state`` itself. The sets of orders offered to a side (``legal_actions``) read the
    enemy's morale odds, which depend on whether a disordered unit was ordered to charge: read off
    the true orders, the offer told the second side something of the first side's face-down orders."""
    from . import spells
    enemy = state.other(side)
    if not spells.orders_face_down(state, enemy):
        return state
    copy = state.clone()
    for u in copy.side_units(enemy):
        u.order, u.target = None, None
    return copy


def favoured_sets(state: Battle, side: str, units: list[Unit], opts: dict) -> list[dict]:
    """Two typical sets of orders read off the referee's melee odds (:meth:`Reading.exchange`), for
    :func:`.orders.typical_sets` (what ``legal_actions`` lists; any set stays legal): each unit
    reforms if disordered, else charges the enemy in reach it beats by the most (with the charge
    modifier), else fires if it can, else advances if it beats the nearest enemy; otherwise it
    holds (first set) or falls back (second set). A character follows :func:`character_order` in
    both (near his troops)."""
    if not units:
        return []
    state = as_seen(state, side)
    rd = Reading(state)
    enemies = [p for p in rd.pieces.values() if p.u.side != side]
    out = []
    for otherwise in ("attendre", "se_retirer"):
        chosen = {}
        for u in units:
            o = opts.get(u.id, {})
            if u.id not in rd.pieces:
                continue
            if "reformer" in o:
                chosen[u.id] = ("reformer", None)
                continue
            if u.kind == "character":  # he commands: he keeps near his troops (GF-C2), as the tactician's
                oid = character_order(rd, rd.pieces[u.id], side)
                if oid in o:
                    chosen[u.id] = (oid, None)
                continue
            best = best_charge(rd, u, o)
            if best is not None:
                chosen[u.id] = ("charger", best)
                continue
            if "tirer" in o:
                chosen[u.id] = ("tirer", None)
                continue
            favoured = advance_pays(rd, rd.pieces[u.id], enemies)
            for oid in (("avancer",) if favoured else (otherwise, "attendre")):
                if oid in o:
                    chosen[u.id] = (oid, None)
                    break
        out.append(chosen)
    out.append(tactician_set(rd, side, units, opts))
    return out


def best_charge(rd: Reading, u: Unit, offered: dict) -> str | None:
    """The target of the charge order offered to ``u`` that pays it the most (:meth:`Reading.charge`),
    None when none pays."""
    best = None
    for t in (offered.get("charger") or {}).get("targets") or []:
        if t in rd.pieces:
            v = rd.charge(u.id, t)
            if v > 0 and (best is None or v > best[0]):
                best = (v, t)
    return None if best is None else best[1]


def in_range(rd: Reading, u: Piece) -> bool:
    """Whether a visible enemy stands within ``u``'s missile range (farthest points, GF-E7) and in its
    front arc: an order to fire would have a target (l.822-840)."""
    for e in rd.pieces.values():
        if e.u.side == u.u.side or e.u.hidden or u.outside_front(e):
            continue
        if rd.gap(u.u.id, e.u.id) <= u.range and farthest(u, e) <= u.range:
            return True
    return False


def can_be_in_range(u: Piece, e: Piece) -> bool:
    """Whether ``e`` can stand within ``u``'s range at all: the range runs between the farthest points
    of the two units (GF-E7), so even straight in front at no gap the two rectangles span
    hypot(half their widths summed, their depths summed) — a sling of 22 cm never reaches a unit 25 cm
    wide, only a character or a monster."""
    return u.range > 0 and math.hypot(u.hw + e.hw, 2.0 * (u.hd + e.hd)) <= u.range


def advance_pays(rd: Reading, p: Piece, enemies: list) -> bool:
    """Whether ``p`` should advance: by the enemies around it (:func:`step_gain` over a normal move's
    two thirds, as the *orders* term reads an advance) when ``advance_rule`` is "around" in
    data/ai_evaluation.toml, else by the nearest enemy alone (it beats it)."""
    if load_weights().weights.advance_rule == "around":
        return step_gain(rd, p, enemies, p.reach * (2.0 / 3.0), load_weights().distance.contact_cm) > 0
    nearest = min(enemies, key=lambda e: rd.gap(p.u.id, e.u.id), default=None)
    return nearest is not None and rd.exchange(p.u.id, nearest.u.id) > 0


def threatened(rd: Reading, p: Piece, margin: float = 0.0) -> bool:
    """Whether an enemy in good order that beats ``p`` in melee stands within its charge move (plus
    ``margin``) of it."""
    return any(rd.exchange(p.u.id, e.u.id) < 0 and rd.gap(p.u.id, e.u.id) <= e.reach + margin
               for e in rd.pieces.values() if e.u.side != p.u.side and not e.u.hidden and e.u.status == "ok")


def character_order(rd: Reading, p: Piece, side: str) -> str:
    """A character's order in the sets read off the odds: he advances when the troops he commands are
    more than ``command_cm`` ahead of him (GF-C2: within 15 cm he adds his FC to their command
    tests; a troop that fails moves at random, l.329-331) and no enemy that beats him can charge
    him; he falls back only from such an enemy; else he holds. Retiring from the whole enemy army
    (everything beats a lone character in melee) walked the generals to their own table edge, far
    from every command test."""
    troops = [t for t in rd.pieces.values() if t.u.side == side and t.u.kind == "troop"]
    ahead = min((rd.gap(p.u.id, t.u.id) for t in troops), default=0.0)
    if threatened(rd, p):
        return "se_retirer"
    return "avancer" if ahead > load_weights().distance.command_cm else "attendre"


def tactician_set(rd: Reading, side: str, units: list[Unit], opts: dict) -> dict:
    """A set of orders unit by unit, read off the referee's odds and the ranges (gf-ai):

    * a disordered unit reforms;
    * a troop, creature or monster charges the enemy in reach it beats by the most
      (:meth:`Reading.charge`); a character never charges (a general or a priest is a tenth of an
      army's points, and the odds read no wound table nor capture: in game 4 of the 100-game run the
      Aztec general charged the Saurian slingers alone and was killed);
    * a missile unit fires when an enemy is in its range and arc, else advances when an enemy can
      stand in its range at all (:func:`can_be_in_range`; its moves of phase 6 are chosen by the
      evaluation, which weighs the enemies that could charge it), else it is read as a troop — the
      other sets order every missile unit to fire whatever the range, which leaves it idle;
    * a troop advances when it beats the nearest enemy, else falls back from an enemy that beats it
      and stands within that enemy's charge move (not from its own table edge), else holds;
    * a character follows :func:`character_order` (near his troops, back only from an enemy that
      beats him and can charge him)."""
    enemies = [p for p in rd.pieces.values() if p.u.side != side and not p.u.hidden]
    chosen: dict = {}

    for u in units:
        o = opts.get(u.id, {})
        p = rd.pieces.get(u.id)
        if p is None or not o:
            continue
        pick = "reformer" if "reformer" in o else None
        best = best_charge(rd, u, o) if pick is None and u.kind != "character" else None
        if best is not None:
            chosen[u.id] = ("charger", best)
            continue
        if pick is None and u.kind == "character":
            pick = character_order(rd, p, side)
        elif pick is None and p.range > 0:
            if in_range(rd, p):
                pick = "tirer"
            elif any(can_be_in_range(p, e) for e in enemies):
                pick = "avancer"
        if pick is None and u.kind != "character":
            if advance_pays(rd, p, enemies):
                pick = "avancer"
            elif threatened(rd, p) and max(p.exposed) < 0.5:
                pick = "se_retirer"
            else:
                pick = "attendre"
        for oid in (pick, "attendre"):
            if oid in o:
                chosen[u.id] = (oid, None)
                break
    return chosen

