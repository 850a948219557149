"""Phase 3, the orders (GF seed 003 l.271-279, l.315-427): who receives one, which orders a unit
may be given now, the check of a side's orders, and the few typical sets of orders
``legal_actions`` lists (apply accepts any legal set)."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from . import battle_orders, buildings_play, coyolxauhqui, curses, fighters, fog, moves, odds
from .rules import rules
from .state import Battle, Unit

REF_WHO = "GF seed 003 l.273-277, l.317-325"
REF_CHARACTERS = "GF seed 003 l.343"


def needs_order(state: Battle, u: Unit) -> bool:
    """Every unit gets an order except those that moved in phase 1 (green), failed their command
    test (red), are in combat, rout or retreat, or charge out of control (l.273-277, l.317-325); a
    rallied unit keeps its order to reform until it has reformed (l.1096)."""
    return (u.alive and u.status == "ok" and "red" not in u.markers and "green" not in u.markers
            and "uncontrolled_advance" not in u.markers and not (u.order == "reformer" and u.disorder)
            and not fighters.in_combat(state, u) and not curses.possessed(state, u))


def eligible(state: Battle, side: str) -> list[Unit]:
    """The units ``side`` gives an order to: its own, but a character an enemy priest possesses, and the
    enemy characters its priests possess (« Possession de Coyolxauhqui », l.1282, OR-GF127)."""
    own = [u for u in state.side_units(side) if needs_order(state, u) and coyolxauhqui.master(state, u) in (None, side)]
    held = [u for u in state.units.values() if u.side != side and coyolxauhqui.master(state, u) == side
            and needs_order(state, u)]
    return own + sorted(held, key=lambda u: u.id)


def charge_targets(state: Battle, u: Unit) -> list[tuple[str, float]]:
    """Enemies within the unit's charge move and in its front arc ('à distance de charge et dans
    l'axe', l.391-393): (id, nearest distance)."""
    reach, _ = moves.allowance(u, "charge")
    fp = u.footprint()
    out = []
    for e in state.enemies(u.side):
        if e.hidden:
            continue  # hidden in a building: not seen (l.784)
        efp = e.footprint()
        dist = tt.nearest_distance(fp, efp)
        if e.altitude == "flight" and u.altitude != "flight":
            continue  # out of reach at flight altitude (l.693-695)
        if dist <= reach and tt.arc_of(u.pose, u.width, u.depth, efp) == "front":
            out.append((e.id, round(dist, 2)))
    return sorted(out, key=lambda t: (t[1], t[0]))


def nearest_enemy_cm(state: Battle, u: Unit) -> float:
    fp = u.footprint()
    return min((tt.nearest_distance(fp, e.footprint()) for e in state.enemies(u.side)), default=1e9)


def options(state: Battle, u: Unit) -> list[dict]:
    """The orders ``u`` may be given now: ``{"id", "name", "name_fr", "needs_target", "targets", "ref"}``."""
    r = rules()
    out = []
    for oid, play in r.order_play.items():
        if u.kind not in play.who:
            continue
        if u.kind == "character" and oid not in CHARACTER_ORDERS():
            continue
        if oid in coyolxauhqui.forbidden_rule().orders and coyolxauhqui.master(state, u) is not None:
            continue  # possessed: not to kill himself nor attack a friend (l.1284, OR-GF127)
        if buildings_play.holds(u) and oid not in buildings_play.play().inside_orders:
            continue  # in a building: wait, reform, fire or come out (l.792, OR-GF82)
        targets = None
        if oid == buildings_play.play().order:
            targets = buildings_play.targets(state, u)
            if not targets:
                continue
        if oid == "doubler" and not (u.formation == "column" and nearest_enemy_cm(state, u) > r.distances.double_min_enemy_cm):
            continue
        if oid == "reformer" and not u.disorder:
            continue
        if oid == "colonne" and u.formation == "column":
            continue
        if oid == "ligne" and u.formation == "line":
            continue
        if oid == "ordre_ouvert" and u.formation != "line":
            continue
        if oid == "s_evader" and not u.open_order:
            continue
        if oid == "tirer" and moves.missile_weapon(u) is None:
            continue
        if play.flight and not flight_order_ok(u, oid):
            continue
        if oid == "charger":
            targets = [t for t, _ in charge_targets(state, u)]
            if not targets:
                continue
        if oid == "quart_de_tour":
            targets = ["left", "right"]
        if oid == "reformer" and u.inside and not u.disorder:
            continue
        name = r.order_names[oid]
        o = {"id": oid, "name": name.name_en, "name_fr": name.printed, "needs_target": play.needs_target
             or oid == "quart_de_tour", "targets": targets, "ref": play.ref}
        if oid == "tirer":  # the targets a fire order may announce (l.830, l.840; OR-GF110)
            from .combat_data import data
            o["max_targets"], o["targets_ref"] = data().fire_targets.max_played, REF_TARGETS
        out.append(o)
    # a unit of a brigade carries out its character's written battle order (l.513-531, OR-GF95)
    return battle_orders.filter_options(state, u, out, lambda f: needs_order(state, f) and bool(charge_targets(state, f)))


def flight_order_ok(u: Unit, oid: str) -> bool:
    """A flyer's orders by its altitude (l.689-701): take off from the ground, climb from combat to
    flight altitude, dive from flight to combat altitude, land from the air."""
    if not u.flyer:
        return False
    return {"decollage": u.altitude is None, "s_elever": u.altitude == "combat",
            "plonger": u.altitude == "flight", "atterrir": u.altitude is not None}[oid]


def CHARACTER_ORDERS() -> list[str]:  # noqa: N802 - read from data/orders.toml [character_orders]
    from ..rows import document
    return list(document("orders.toml")["character_orders"]["orders"])


def check(state: Battle, side: str, orders: dict[str, tuple[str, str | None]]) -> None:
    """Refuse (IllegalAction naming the unit and the rule) unless every order is one the unit may
    be given now. Units left without an order do nothing (l.337-339)."""
    for uid, (oid, target) in orders.items():
        u = state.units.get(uid)
        if u is None or (u.side != side and coyolxauhqui.master(state, u) != side):
            raise IllegalAction(f"orders: {uid!r} is not a unit of side {side}", REF_WHO)
        err = coyolxauhqui.refusal(state, side, u, oid, target)  # « Possession de Coyolxauhqui » (l.1282-1284)
        if err is not None:
            raise err
        if curses.possessed(state, u):
            raise IllegalAction(f"orders: {u.name} is possessed by his weapon: he takes no order",
                                f"{curses.possession_rule().ref}; {curses.possession_rule().decision}")
        if not needs_order(state, u):
            raise IllegalAction(f"orders: {u.name} receives no order this turn (moved in phase 1, red marker, "
                                f"in combat, routing or retreating)", REF_WHO)
        allowed = {o["id"]: o for o in options(state, u)}
        if buildings_play.holds(u) and oid not in buildings_play.play().inside_orders:
            raise IllegalAction(f"orders: {u.name} is in a building (or partly, OR-GF143): it may only be ordered to "
                                f"{', '.join(buildings_play.play().inside_orders)} (it cannot take the initiative "
                                "of a combat)", "GF seed 003 l.788, l.792; OR-GF82")
        if oid == buildings_play.play().order:
            err = buildings_play.refusal(state, u, target)
            if err is not None:
                raise err
        if oid not in allowed and battle_orders.refusal(state, u, oid) is not None:
            raise battle_orders.refusal(state, u, oid)
        if oid not in allowed:
            ref = REF_CHARACTERS if u.kind == "character" else rules().order_play[oid].ref if oid in rules().order_play else REF_WHO
            raise IllegalAction(f"orders: {u.name} may not be given the order {oid!r} now "
                                f"(may: {', '.join(sorted(allowed))})", ref)
        o = allowed[oid]
        if isinstance(target, (tuple, list)):
            check_fire_targets(state, u, oid, list(target), o["ref"])
            continue
        if o["needs_target"]:
            if target not in (o["targets"] or []):
                raise IllegalAction(f"orders: {u.name}'s order {oid} needs a target among "
                                    f"{', '.join(o['targets'] or [])} (got {target!r})", o["ref"])
        elif oid == "tirer":
            if target is not None and (target not in state.units or state.units[target].side == side
                                       # hidden: unknown (GF-K4, K5; a building, l.784; an illusion, l.1240)
                                       or fog.hidden_from(state.units[target], side)):
                raise IllegalAction(f"orders: {u.name} fires at an enemy unit (got {target!r})", o["ref"])
        elif target is not None:
            raise IllegalAction(f"orders: {u.name}'s order {oid} takes no target", o["ref"])
    battle_orders.check_set(state, side, orders)


REF_TARGETS = "GF seed 003 l.830, l.840"


def check_fire_targets(state: Battle, u: Unit, oid: str, targets: list, ref: str) -> None:
    """A list of targets is a fire order's announcement: "Elle peut avoir jusqu'à trois cibles
    différentes. Le joueur annonce quelles sont ces cibles" (l.840, l.830; OR-GF110): distinct enemy
    units, at most ``data/combat.toml [fire_targets] max_played``."""
    from .combat_data import data
    limit = data().fire_targets.max_played
    if oid != "tirer":
        raise IllegalAction(f"orders: {u.name}'s order {oid} takes one target, not a list", ref)
    if not 1 <= len(targets) <= limit:
        raise IllegalAction(f"orders: {u.name} may announce 1 to {limit} targets (got {len(targets)})", REF_TARGETS)
    if len(set(targets)) != len(targets):
        raise IllegalAction(f"orders: {u.name}'s targets must be different units (\"cibles différentes\")",
                            REF_TARGETS)
    for t in targets:
        if t not in state.units or state.units[t].side == u.side or fog.hidden_from(state.units[t], u.side):
            # a unit hidden on a base or marching on a flank is unknown to the side (GF-K4, K5)
            raise IllegalAction(f"orders: {u.name} fires at enemy units (got {t!r})", ref)


def set_order(u: Unit, oid: str | None, target) -> None:
    """Give ``u`` its order: a list of targets (a fire order's, l.840) is kept whole in
    ``fire_targets``, its first in ``target``."""
    if isinstance(target, (tuple, list)):
        u.order, u.target, u.fire_targets = oid, (target[0] if target else None), list(target)
    else:
        u.order, u.target, u.fire_targets = oid, target, []


def typical_sets(state: Battle, side: str) -> list[dict[str, tuple[str, str | None]]]:
    """The sets of orders legal_actions lists (deterministic): all advance; all wait; attack
    (reform if disordered, else charge the nearest enemy in reach, else fire, else advance);
    skirmish (fire where a unit can, else wait); all retire; march (double in column, else form
    column, flyers climb or take off, else advance); deploy (form line, flyers land, else advance);
    the attack set dives from flight altitude first; and the two sets that follow the referee's melee
    odds (:func:`.odds.favoured_sets`: charge or advance where the unit is favoured, else hold, or
    else fall back)."""
    units = eligible(state, side)
    opts = {u.id: {o["id"]: o for o in options(state, u)} for u in units}

    def pick(u: Unit, prefs: list[str]) -> tuple[str, str | None] | None:
        for p in prefs:
            o = opts[u.id].get(p)
            if o:
                return p, (o["targets"][0] if o["needs_target"] and o["targets"] else None)
        return None

    sets = []
    for prefs in (["avancer"], ["attendre"], ["reformer", "plonger", "charger", "tirer", "avancer"],
                  ["tirer", "attendre"], ["casser", "reformer", "tirer", "attendre"], ["se_retirer"], ["doubler", "colonne", "s_elever", "decollage", "avancer"],
                  ["ligne", "atterrir", "avancer"]):
        chosen = {}
        for u in units:
            p = pick(u, prefs)
            if p:
                chosen[u.id] = p
        chosen = battle_orders.legalize(state, side, chosen)
        if chosen not in sets:
            sets.append(chosen)
    for chosen in odds.favoured_sets(state, side, units, opts):  # read off the referee's odds (gf-ai)
        chosen = battle_orders.legalize(state, side, chosen)
        if chosen not in sets:
            sets.append(chosen)
    return sets
