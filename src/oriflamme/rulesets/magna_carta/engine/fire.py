"""Offensive fire on the map (Magna Carta §5): who may shoot whom, and the ruling.

Fire frequency (§5.1): a character who fires without having declared a frequency keeps the
movement his weapon allows with offensive fire (the most permissive of its choices that includes
offensive fire, SEED-NOTES §1) and may not attack this phase (§5.2). Declarations and defensive
fire (§5.3): :mod:`oriflamme.rulesets.magna_carta.engine.defensive_fire`.
"""

from __future__ import annotations

from ..resolve.fire import fire as resolve_fire, FireSituation
from ..resolve.ruling import Ruling, Step
from .character import Character
from ....geometry.hexgrid import in_front_arc
from ..rulesdata import COVER_ORDER
from .lines import line_of_fire
from .movement import can_attack_hex
from .state import GameState, OFFENSIVE_FIRE
from .animals import as_target, passengers, passive_problem
from .events import emit, named, status
from .hooks import HOOKS

_MOVE_ORDER = ("full", "half", "none")


def offensive_movement_limit(state: GameState, c: Character) -> str:
    w = state.rules.weapons[c.weapon]
    allowed = [ch.movement for ch in w.choices if ch.fire in ("offensive", "offensive_or_defensive", "offensive_and_defensive")]
    return min(allowed, key=_MOVE_ORDER.index) if allowed else "none"


def in_contact(state: GameState, c: Character) -> Character | None:
    """An enemy able to attack ``c`` where he stands (§5.2), if any."""
    for e in state.characters.values():
        if e.side != c.side and e.hex is not None and c.hex is not None and any(can_attack_hex(state, e, h) for h in c.hexes):
            return e
    return None


def shooter_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if state.step != OFFENSIVE_FIRE or c.side != state.active:
        return ("fire is only possible in the offensive fire step of one's own phase", "MC §2.1")
    if not c.weapon:
        return (f"{c.name} has no missile weapon", "MC §5")
    if c.ransom == "prisoner":
        return (f"{c.name} is a prisoner and cannot fire", "MC §6.9")
    if c.hex is None:  # a passenger in a litter (§4.6.8)
        return passive_problem(state, c) or (f"{c.name} is not on the map", "MC §5")
    if not c.active:
        return (f"{c.name} is {c.status}", "MC §1.2")
    if c.id in state.phase.fired:
        return (f"{c.name} has already fired this phase", "MC §5")
    if state.defensive_fire.declared.get(c.id, "offensive") not in ("offensive", "offensive_or_defensive", "offensive_and_defensive"):
        return (f"{c.name} declared defensive fire only", "MC §5.1")
    return weapon_problem(state, c)


def weapon_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """What stops ``c`` from using his missile weapon where he stands, offensive or defensive
    fire alike: the weapon used mounted or on foot, firing from water (§5.5.2.4), missiles
    spent (§7.5), contact with an enemy (§5.2)."""
    w = state.rules.weapons[c.weapon]
    if w.mounted != c.mounted:
        return (f"the {w.names[0]} is used {'mounted' if w.mounted else 'on foot'}", w.ref)
    t = state.rules.terrain[state.gmap.terrain(c.hex)] if c.hex is not None and c.hex in state.gmap else None
    if t is not None and t.no_fire_from:
        return (f"{c.name} is in {t.names[0].lower()} and cannot fire", "MC §5.5.2.4")
    if w.ammunition is not None and c.shots >= w.ammunition:
        return (f"{c.name} has used his {w.ammunition} missiles ({w.names[0].lower()})", w.ref)
    e = in_contact(state, c)
    if e is not None:
        return (f"{c.name} is in contact with {e.name} and cannot fire", "MC §5.2")
    return None


def apply_status(state: GameState, target: Character, res) -> None:
    """The status a fire result gives its target (killed, wounded or stunned), logged."""
    if res.kill:
        emit(state, "status", msg="status.is", params={"name": target.name, "status": status(target.kill())}, char=target.id, ref=res.ref)
    elif res.wound:
        emit(state, "status", msg="status.is", params={"name": target.name, "status": status(target.wound())}, char=target.id, ref=res.ref)
    elif res.stun:
        emit(state, "status", msg="status.is", params={"name": target.name, "status": status(target.stun(state.phase_no))},
             char=target.id, ref=res.ref)


def fire_ruling(state: GameState, shooter: Character, target: Character, die: int | None = None) -> Ruling:
    """The full ruling of ``shooter`` firing at ``target``: line of fire, cover, modifiers,
    the table cell — without ``die`` a preview with the probabilities."""
    prob = shooter_problem(state, shooter)
    if prob:
        return Ruling(kind="fire").refuse(*prob)
    return target_ruling(state, shooter, target, die, None)


def target_ruling(state: GameState, shooter: Character, target: Character, die: int | None,
                   occ: dict | None) -> Ruling:
    """:func:`fire_ruling` once ``shooter_problem`` is known to be None."""
    rs = state.rules
    if target.hex is None and state.riders.horses:  # a passenger in a litter (§4.6.6): engine/kneeling.py
        target = as_target(state, target)
    if target.side == shooter.side or not target.alive or target.hex is None:
        return Ruling(kind="fire").refuse(f"{target.name} is not a living enemy on the map", "MC §5")
    if target.ransom == "prisoner":
        return Ruling(kind="fire").refuse(f"{target.name} is a prisoner under escort and is not a target", "MC §6.9")
    w = rs.weapons[shooter.weapon]
    if w.front_arc_only and shooter.mounted and not in_front_arc(shooter.hex, shooter.facing, target.hex) \
            and not (target.mounted and in_front_arc(shooter.hex, shooter.facing, target.rear)):
        return Ruling(kind="fire").refuse(f"{target.name} is not in {shooter.name}'s front arc", w.ref)
    # aim: each hex of the target (a rider has two, SEED-NOTES D9); the shooter takes the one
    # at the better range band with a clear line (Oriflamme: the choice is made for him)
    aims = []
    first_refusal = None
    for th in target.hexes:
        dist = shooter.hex.distance(th)
        band = w.band(dist)
        lof = line_of_fire(state, shooter, target, band, occ, target_hex=th)
        if lof.clear and band is not None:
            aims.append((rs.band_modifiers[band].value, dist, th, band, lof))
        elif first_refusal is None:
            first_refusal = (dist, band, lof)
    if not aims:
        dist, band, lof = first_refusal
        r = Ruling(kind="fire")
        r.data.update(distance=dist, band=band)
        if lof.clear:  # out of range (or an axe's dead range, D15): the resolver says why
            return resolve_fire(rs, FireSituation(weapon=w.id, distance=dist, target_mounted=target.mounted), die)
        return r.refuse(lof.reason, lof.ref)
    _, dist, t_hex, band, lof = min(aims, key=lambda a: (a[0], a[1]))
    mods: tuple[str, ...] = ()
    notes = list(lof.notes)
    m = state.gmap
    levels = abs((m.elevation(shooter.hex) if shooter.hex in m else 0) - (m.elevation(t_hex) if t_hex in m else 0))
    if w.max_levels is not None and levels > w.max_levels:
        return Ruling(kind="fire").refuse(
            f"{shooter.name}'s {w.names[0]} is not thrown across {levels} levels to {target.name} "
            f"(at most {w.max_levels})", "MC §9.6.4; SEED-NOTES D11")
    for fm in rs.fire_modifiers.values():  # height (§5.4.4, D11): rows naming the weapon
        if w.id in fm.weapons and levels >= (fm.levels_min or 0) and (fm.levels_max is None or levels <= fm.levels_max):
            mods += (fm.id,)
            notes.append((f"{levels} level(s) between {shooter.name} and {target.name} ({w.names[0]})", fm.ref))
    if target.mounted:
        covers = [a[4].cover for a in aims]
        cover = max(covers, key=COVER_ORDER.index)
        if cover != lof.cover:
            notes.append((f"the rider gets the stronger cover of his two hexes: {cover}", "MC §5.5.4; SEED-NOTES D9"))
        if len(aims) == 1:
            mods += ("target_one_hex_visible",)
            notes.append((f"only one hex of {target.name} is in sight ({t_hex.label})", "MC §5.4.4; SEED-NOTES D9"))
    else:
        cover = lof.cover
    if _sun_in_eyes(state, shooter.side):
        mods += ("sun_in_eyes",)
        notes.append((f"{shooter.name}'s side has the sun in its eyes (scenario)", "MC §5.4.4"))
    s_terrain = rs.terrain[state.gmap.terrain(shooter.hex)] if shooter.hex in state.gmap else None
    if s_terrain is not None and s_terrain.shooter_modifier:  # a moving cart: +1 to the die (§4.5.4.2, SEED-NOTES D13)
        mods = mods + (s_terrain.shooter_modifier,)
    sit = FireSituation(
        weapon=w.id, distance=dist, target_mounted=target.mounted, target_armour=target.armour,
        cover=cover, weather=state.weather, shooter_wounded=shooter.status == "wounded", modifiers=mods,
    )
    r = HOOKS.resolve_fire(state, sit, die)  # an edition may resolve fire otherwise (Cry Havoc: two steps)
    pre = Step.say("fire.clear", {"shooter": shooter.name, "hex1": shooter.hex.label, "target": named(state, target),
                                  "hex2": t_hex.label}, "MC §5.5.1")
    r.steps[:0] = [pre] + [Step(t, ref) for t, ref in notes]
    r.data["line"] = [h.label for h in lof.hexes]
    r.data["shooter"] = shooter.id
    r.data["target"] = target.id
    return r


@HOOKS.provide(name="resolve_fire")
def _resolve_fire(state: GameState, situation: FireSituation, die: int | None) -> Ruling:
    """Magna Carta's fire: one die on the tables §5.4.2 / §5.4.3."""
    return resolve_fire(state.rules, situation, die)


def _sun_in_eyes(state: GameState, side: str) -> bool:
    return any(sp["id"] == side and sp.get("sun_in_eyes") for sp in state.scenario["side"])


def fire_targets(state: GameState, shooter: Character) -> list[tuple[Character, Ruling]]:
    return list(_legal_targets(state, shooter))


def has_fire_target(state: GameState, shooter: Character) -> bool:
    """``bool(fire_targets(state, shooter))``, stopping at the first legal target."""
    return any(True for _ in _legal_targets(state, shooter))


def _legal_targets(state: GameState, shooter: Character):
    if shooter_problem(state, shooter):
        return
    occ = None  # who stands where, for every line of fire of this shooter
    for t in state.characters.values():
        if t.side != shooter.side and t.alive and t.hex is not None:
            if occ is None:
                occ = state.occupants()
            r = target_ruling(state, shooter, t, None, occ)
            if r.legal:
                yield t, r
    if state.riders.horses:  # passengers in litters may be fired at (§4.6.6)
        for t in passengers(state):
            if t.side != shooter.side:
                r = target_ruling(state, shooter, t, None, None)
                if r.legal:
                    yield t, r
