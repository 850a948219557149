"""What a spell, a magic failure and a divine intervention do on the battle table (GF La magie, seed 003
l.1134-1320; Table des échecs magiques l.1686-1698; Table des interventions divines l.1700-1711, the
priest's skill l.155). The numbers are ``data/spell_effects.toml`` (each cited); the part-1 referee (kind
``magic``) rules the cast itself, this module applies its result: ``apply`` for a spell that works,
``failure`` for a row of the failure table, ``intervention`` for a row of the divine intervention table.
Effects that last are written in the event's ``lasting`` (:mod:`.lasting` reads them back). A spell or
row whose effect the table cannot represent is explained and listed as not applied (its data row says
``effect = "none"`` and why)."""

from __future__ import annotations

import math
from functools import lru_cache

from pydantic import Field

from oriflamme.geometry import tabletop

from ..magic import data as magic_data
from ..rows import Row, load, one
from . import brigades, lasting, morale_play
from .casualties import remove_figures, wounds
from .fighters import alive, friends, shape, touching, units

FILE = "spell_effects.toml"
#: the spells that bring weather on the table (battle/weather.py): not a magic attack on the unit named
WEATHER = ("rain", "wind")
SEVERITY_ORDER = ("stunned", "blind", "cut", "wounded", "light", "severe", "serious", "critical")


class SpellEffect(Row):
    id: str
    effect: str
    targets: str
    amount: int | None = None
    wounds: int | None = None
    wounds_die: int | None = None
    turns: int | None = None
    turns_die: int | None = None
    dies_above: int | None = None
    modifier: str | None = None
    beast_modifier: str | None = None
    #: the lasting effects a spell of effect "modifiers" leaves (battle/spell_modifiers.py reads them)
    lasts: tuple[str, ...] = ()
    #: the percentage a floored modifier never goes below ("score minimal de 20%", l.1252)
    floor_pct: int | None = None
    #: a reaction-test modifier (data/modifiers/command*.toml) lasting with the morale one
    reaction_modifier: str | None = None
    #: a fire modifier (data/modifiers/fire.toml) on the units struck, for the spell's turns
    fire_modifier: str | None = None
    #: what the spell does to a building it is cast at (its text names one): "damage" (the magic damage
    #: of l.802), "damage_and_fire" (and a flammable building catches fire, OR-GF121); None: no building
    on_building: str | None = None
    #: the weather spells (battle/weather.py, OR-GF122): the rain's disc, the move lost in the mud or by
    #: flyers in the wind, the ranges left by the wind, the fires' damage multiplied by it
    radius_cm: float | None = None
    move_lost: str | None = None
    range_factor: str | None = None
    damage_factor: int | None = None


class TableEffect(Row):
    start: int = Field(alias="from")
    effect: str
    amount: int | None = None
    wounds: int | None = None
    pct: int | None = None
    turns: int | None = None
    turns_die: int | None = None
    radius_cm: float | None = None
    modifier: str | None = None


class Intervention(Row):
    once_per_battle: bool


@lru_cache(maxsize=1)
def spell_effects() -> dict[str, SpellEffect]:
    return {r.id: r for r in load(SpellEffect, FILE, "spell")}


@lru_cache(maxsize=1)
def failure_rows() -> tuple[TableEffect, ...]:
    return tuple(sorted(load(TableEffect, FILE, "failure"), key=lambda r: r.start))


@lru_cache(maxsize=1)
def intervention_rows() -> tuple[TableEffect, ...]:
    return tuple(sorted(load(TableEffect, FILE, "intervention_row"), key=lambda r: r.start))


@lru_cache(maxsize=1)
def intervention_rule() -> Intervention:
    return one(Intervention, FILE, "intervention")


def extra_casualties(state, u) -> tuple[int, list[str], list[str]]:
    """The casualties a divine intervention adds to ``u``'s volleys and strikes (l.1709-1710, OR-GF116):
    (count, steps, citations)."""
    hits = lasting.active(state, u.id, "extra_casualties")
    n = sum(e.get("amount") or 0 for e in hits)
    if not n:
        return 0, [], []
    last = max((e["until_turn"] for e in hits), default=None)
    return n, [f"+{n} casualty(ies) whatever the dice: a divine intervention lasting until turn {last}"], \
        [e["ref"] for e in hits] + ["OR-GF116"]


def row_for(rows, d100: int) -> TableEffect:
    return [r for r in rows if r.start <= d100][-1]


def applied(spell: str) -> bool:
    """Whether the battle applies the spell's effect on the table."""
    return spell_effects()[spell].effect != "none"


def _n(u) -> str:
    return u.name or u.id


#: what a lasting effect of battle/spell_modifiers.py does, for the cast's explanation
LASTS_TEXT = {
    "double_pbc": "its PBC is doubled before the modifiers (GF-H5)",
    "fire_modifier": "the spell's modifier applies to his fire and his blows",
    "attacked_modifier": "every shot and blow at it reads the spell's modifier",
    "reaction_modifier": "its reaction tests read the spell's modifier",
}


# --- who a spell may be cast at ---------------------------------------------------------------------
TARGET_TEXT = {
    "any": "any unit on the table",
    "character": "a friendly character (the priest himself included)",
    "wounded_character": "a wounded friendly character (the priest himself included)",
    "other_wounded_character": "a wounded friendly character other than the priest",
    "enemy_character_or_monster": "an enemy character or monster",
    "enemy_unit": "an enemy unit (not a character)",
    "friendly_unit": "a friendly unit (not a character)",
    "enemy_character": "an enemy character",
    "enemy": "an enemy",
    "enemy_in_contact": "an enemy in base contact with the priest",
    "friendly_routing_unit": "a friendly unit that routs",
    "friendly_character_or_monster": "a friendly character or monster",
    "friendly_character": "a friendly character",
    "friendly_unit_or_character": "a friendly unit or character",
    "friendly_in_contact_or_character_or_monster": "a friendly unit in base contact with the priest, or a friendly "
                                                   "character or monster (the priest included), not already hidden",
}


def target_ok(state, caster, spell: str, target) -> tuple[bool, str]:
    """Whether ``target`` is one the spell's text allows (data/spell_effects.toml ``targets``), and what it
    must be."""
    row = spell_effects()[spell]
    need = TARGET_TEXT[row.targets]
    if target is None or not alive(target):
        return False, need
    friend, char = target.side == caster.side, target.kind == "character"
    ok = {
        "any": True,
        "character": friend and char,
        "wounded_character": friend and char and bool(target.wounds),
        "other_wounded_character": friend and char and bool(target.wounds) and target.id != caster.id,
        "enemy_character_or_monster": not friend and target.kind in ("character", "monster"),
        "enemy_unit": not friend and not char,
        "friendly_unit": friend and not char,
        "enemy_character": not friend and char,
        "enemy": not friend,
        "enemy_in_contact": not friend and touching(caster, target),
        "friendly_routing_unit": friend and not char and target.status == "rout",
        "friendly_character_or_monster": friend and target.kind in ("character", "monster"),
        "friendly_character": friend and char,
        "friendly_unit_or_character": friend,
        # Illusion (l.1238): "une unité base-contre-base avec lui ou un personnage/monstre dans les 15cm" (OR-GF125)
        "friendly_in_contact_or_character_or_monster": friend and (target.kind in ("character", "monster")
                                                                   or touching(caster, target))
        and not (target.hidden or target.base is not None or target.status == "flank"),
    }[row.targets]
    return ok, need


def face_up_key(side: str) -> str:
    """The lasting entry's holder for *Paroles de vérité* on ``side`` (the side, not a unit)."""
    return f"orders:{side}"


def orders_face_up(state, side: str) -> dict | None:
    """*Paroles de vérité* (l.1264, OR-GF124): ``side`` lays its orders first and face up this turn."""
    return lasting.has(state, face_up_key(side), "orders_face_up")


def orders_face_down(state, side: str) -> bool:
    """Whether ``side``'s orders of this turn lie face down: given (phase 3), not yet revealed (phase 4,
    l.275), not laid face up under *Paroles de vérité* (OR-GF124). What the other side may not read."""
    return bool(state.orders_in.get(side)) and not state.revealed and orders_face_up(state, side) is None


def silenced(state, caster) -> dict | None:
    """The gods' silence on ``caster`` (failure table 47-56, intervention 57-66), if it lasts this turn."""
    return lasting.has(state, caster.id, "silence")


def _lasting(state, ev, u, effect: str, turns: int | None, ref: str, **extra) -> dict:
    """Write a lasting effect in ``ev`` for ``turns`` turns from this one (None: the whole battle)."""
    turn = getattr(state, "turn", 0)
    entry = {"unit": u.id, "effect": effect, "from_turn": turn,
             "until_turn": None if turns is None else turn + turns - 1, "ref": ref, **extra}
    ev.setdefault("lasting", []).append(entry)
    return entry


def _turns(row, dice, ev) -> int:
    if row.turns_die:
        n = dice.roll(row.turns_die)
        ev.setdefault("rolls", []).append({"die": row.turns_die, "roll": n})
        return n
    return row.turns or 1


def _wounds(row, dice, ev) -> int:
    if row.wounds_die:
        n = dice.roll(row.wounds_die)
        ev.setdefault("rolls", []).append({"die": row.wounds_die, "roll": n})
        return n
    return row.wounds or 1


def _heal(u, n: int) -> list[str]:
    healed = []
    for _ in range(n):
        if not u.wounds:
            break
        worst = max(u.wounds, key=lambda w: SEVERITY_ORDER.index(w) if w in SEVERITY_ORDER else 0)
        u.wounds.remove(worst)
        healed.append(worst)
    return healed


# --- a spell that works ----------------------------------------------------------------------------------
def apply(state, caster, target, spell: str, dice, ev) -> tuple[list[dict], list[tuple[str, str]]]:
    """The effect of ``spell`` on ``target`` (the spell worked). Returns the events and the modifiers the
    target's magic-attack morale test adds (l.1593), as (modifier id, reason)."""
    row = spell_effects()[spell]
    printed = magic_data().spells[spell].printed
    steps, out, extra = ev["explanation"], [], []
    ev["citations"].append(row.ref)
    if row.decision:
        ev["citations"].append(row.decision)
    kind = row.effect
    if kind == "none":
        sp = magic_data().spells[spell]
        steps.append(f"effect (as printed): {sp.effect} — not applied to the table yet")
        return out, extra
    if kind == "raise_fc":
        target.FC += row.amount
        steps.append(f"« {printed} »: {_n(target)}'s FC + {row.amount} = {target.FC} for the day")
    elif kind == "lower_fc":
        before = target.FC
        target.FC = max(0, target.FC - row.amount)
        steps.append(f"« {printed} »: {_n(target)}'s FC {before} → {target.FC} for the day")
        if spell == brigades.effect("leaves_brigade")[0] and target.id in brigades.active(state):
            gone = brigades.defiance(state, target.id)  # one unit of his brigade breaks formation (l.1204, OR-GF96)
            if gone:
                steps.append(f"his brigade: {_n(state.units[gone])} breaks formation and leaves it (OR-GF96)")
    elif kind == "heal":
        n = _wounds(row, dice, ev)
        healed = _heal(target, n)
        if n == 1 and healed:
            steps.append(f"« {printed} » heals {_n(target)}'s worst wound ({healed[0]})")
        else:
            steps.append(f"« {printed} » heals {len(healed)} of {_n(target)}'s wounds, the worst first"
                         + (f" ({', '.join(healed)})" if healed else ""))
    elif kind == "kill_or_wound":
        if target.kind == "troop":
            out.append(remove_figures(target, 1))
            steps.append(f"« {printed} » on a simple warrior: one figure of {_n(target)} dies")
        else:
            n = _wounds(row, dice, ev)
            steps.append(f"« {printed} » on {_n(target)}: one wound" if n == 1 else
                         f"« {printed} » on {_n(target)}: {n} wounds")
            out += wounds(state, target, n, dice)
    elif kind == "rally":
        target.status = "ok"
        target.set_disorder(True)
        target.order, target.target = "reformer", None
        target.pending = None
        steps.append(f"« {printed} »: {_n(target)} rallies at once; it is disordered and must reform (l.1096)")
        ev["citations"].append("GF seed 003 l.1096")
    elif kind == "morale_modifier":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, target, "morale_modifier", n, row.ref, modifier=row.modifier, spell=spell)
        steps.append(f"« {printed} » on {_n(target)}: its morale tests read the spell's modifier for {n} turn(s), "
                     f"until turn {e['until_turn']}")
        if row.reaction_modifier:
            _lasting(state, ev, target, "reaction_modifier", n, row.ref, modifier=row.reaction_modifier, spell=spell)
            steps.append(f"its reaction tests too, until turn {e['until_turn']}")
    elif kind == "no_morale_tests":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, target, "no_morale_tests", n, row.ref, spell=spell)
        steps.append(f"« {printed} » on {_n(target)}: no morale test for {n} turn(s), until turn {e['until_turn']}")
    elif kind == "double_move":
        _lasting(state, ev, target, "double_move", row.turns, row.ref, spell=spell)
        steps.append(f"« {printed} » on {_n(target)}: its move is doubled this turn")
    elif kind == "missile_shield":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, target, "missile_shield", n, row.ref, spell=spell)
        steps.append(f"« {printed} » on {_n(target)}: missiles cannot reach him for {n} turn(s), until turn "
                     f"{e['until_turn']}")
    elif kind == "modifiers":
        n = _turns(row, dice, ev) if (row.turns or row.turns_die) else None
        for effect in row.lasts:
            e = _lasting(state, ev, target, effect, n, row.ref, modifier=row.modifier, spell=spell,
                         **({"floor": row.floor_pct, "cap": row.amount} if row.floor_pct is not None else {}))
        until = "for the whole battle (a day)" if n is None else f"for {n} turn(s), until turn {e['until_turn']}"
        steps.append(f"« {printed} » on {_n(target)}: {LASTS_TEXT[row.lasts[0]]} {until}")
    elif kind == "jump":
        x, y, heading = ev["destination"]
        before = (target.x, target.y)
        target.x, target.y, target.heading = x, y, heading
        steps.append(f"« {printed} »: {_n(target)} is set down {math.hypot(x - before[0], y - before[1]):.1f} cm "
                     f"away, at ({x:g}, {y:g})")
        ev["citations"].append("OR-GF123")
    elif kind == "rain":
        _rain(state, target, row, dice, ev)
    elif kind == "wind":
        from .weather import TABLE
        e = _lasting(state, ev, _Table(TABLE), "wind", row.turns, row.ref, spell=spell, modifier=row.fire_modifier,
                     range_factor=row.range_factor, damage_factor=row.damage_factor, move_lost=row.move_lost)
        steps.append(f"« {printed} »: a wind over the whole table until turn {e['until_turn']}: every shot at -5 "
                     f"and the ranges halved, fires doubled, flyers slowed, mists swept away")
    elif kind == "orders_face_up":
        side = target.side
        turn = getattr(state, "turn", 0)
        now = getattr(state, "phase", 0) <= 3 and not state.orders_in.get(side)
        when = turn if now else turn + 1
        ev.setdefault("lasting", []).append({"unit": face_up_key(side), "effect": "orders_face_up", "from_turn": when,
                                             "until_turn": when, "ref": row.ref, "spell": spell})
        steps.append(f"« {printed} »: side {side} lays its orders first and face up "
                     + ("this turn" if now else f"in turn {when}") + " (OR-GF124)")
    elif kind == "invisible":
        from . import illusion
        illusion.vanish(state, caster, target, _turns(row, dice, ev), ev)
    elif kind == "possess":
        from . import coyolxauhqui
        coyolxauhqui.take(state, caster, target, ev)
    elif kind == "quicksand":
        out += _quicksand(state, caster, target, row, dice, ev, extra)
    elif kind == "tremors":
        out += _tremors(state, caster, target, row, dice, ev, extra)
    return out, extra


def check_jump(state, u, destination, row, what: str = "« Vol d'Ehecatl »", decision: str = "OR-GF123") -> None:
    """Where *Vol d'Ehecatl* (l.1320, "se déplacer instantanément de 100cm") may set ``u`` down (OR-GF123):
    at most the spell's distance from where he stands, on the table, not within the enemy standoff, not in
    a standing building nor on a dead monster's body; not a character in a building or directly
    controlling a unit (he moves with it). Raises IllegalAction with the rule, the state unchanged.
    ``what``/``decision``: the same flight by another means (the *Plume de Quetzalcoatl*, OR-GF153);
    ``row``: its ``amount`` (cm) and ``ref``."""
    from oriflamme.core.errors import IllegalAction

    from . import buildings_play, crash_play, moves
    from .rules import rules
    name = _n(u) if u is not None else "the character"
    if destination is None or destination[0] is None or destination[1] is None:
        raise IllegalAction(f"{what} needs where {name} is set down (x, y)", row.ref)
    if getattr(u, "leads", None):
        raise IllegalAction(f"{name} directly controls a unit: he moves with it", f"OR-GF41; {decision}")
    if getattr(u, "inside", None):
        raise IllegalAction(f"{name} is in a building: he leaves it only by breaking formation",
                            f"GF seed 003 l.788; {decision}")
    x, y, heading = destination[0], destination[1], u.heading if destination[2] is None else destination[2]
    far = math.hypot(x - u.x, y - u.y)
    if far > row.amount + 1e-6:
        raise IllegalAction(f"{what} moves {name} {row.amount:g} cm at most ({far:.1f} cm asked)",
                            f"{row.ref}; {decision}")
    fp = moves.footprint_at(u, x, y, heading)
    if not moves.table_box().covers(fp):
        raise IllegalAction(f"{name} would leave the table", "GF seed 003 l.628")
    standoff = rules().distances.enemy_standoff_cm
    for o in units(state):
        if o.side != u.side and alive(o) and o.base is None and not o.hidden \
                and tabletop.nearest_distance(fp, o.footprint()) < standoff - 1e-6:
            raise IllegalAction(f"{name} may not be set down within {standoff:g} cm of the enemy {_n(o)}",
                                f"GF seed 003 l.590; {decision}")
    for el in buildings_play.elements(state):
        if buildings_play.standing(state, el.id) and fp.intersection(el.geometry).area > 0.01:
            raise IllegalAction(f"{name} would be set down in {el.name or el.id}", f"GF seed 003 l.788; {decision}")
    if crash_play.carcass_in_the_way(state, fp) is not None:
        raise IllegalAction(f"{name} would be set down on a dead monster's body", f"OR-GF87; {decision}")


def jump_sample(state, u, row=None, **check) -> tuple[float, float, float] | None:
    """A destination offered for *Vol d'Ehecatl* (the computer's sample; any other is checked by
    :func:`check_jump`): straight ahead, as far as the spell allows, else half as far; None if neither.
    ``row`` and ``check``: another flight's distance and wording (the *Plume*, OR-GF153)."""
    row = row or spell_effects()["vol_d_ehecatl"]
    from oriflamme.core.errors import IllegalAction
    for d in (row.amount, row.amount / 2):
        p = tabletop.moved(tabletop.Pose(u.x, u.y, u.heading), d)
        dest = (round(p.x, 1), round(p.y, 1), u.heading)
        try:
            check_jump(state, u, dest, row, **check)
        except IllegalAction:
            continue
        return dest
    return None


class _Table:
    """The table itself, for its lasting weather (battle/weather.py)."""

    def __init__(self, uid: str):
        self.id = uid


def _rain(state, target, row, dice, ev) -> None:
    """« Pluie diluvienne de Tlaloc » (l.1270): rain over a disc of 50 cm diameter around the target for
    1d4 turns (the units under it do not move), mud for the day (a quarter of the move off), the fires
    under it put out at once (OR-GF122)."""
    from . import buildings_play
    from .weather import TABLE
    steps, table = ev["explanation"], _Table(TABLE)
    n = _turns(row, dice, ev)
    centre = [round(target.x, 3), round(target.y, 3)]
    e = _lasting(state, ev, table, "rain", n, row.ref, centre=centre, radius_cm=row.radius_cm)
    _lasting(state, ev, table, "mud", None, row.ref, centre=centre, radius_cm=row.radius_cm, move_lost=row.move_lost)
    steps.append(f"« {magic_data().spells['pluie_diluvienne_de_tlaloc'].printed} »: rain within {row.radius_cm:g} cm "
                 f"of {_n(target)} until turn {e['until_turn']}: the units under it do not move; the ground is mud "
                 f"for the day")
    disc = tabletop.Point(*centre).buffer(row.radius_cm)
    for el in buildings_play.elements(state):
        if buildings_play.burning(state, el.id) and el.geometry.intersects(disc):
            rec = buildings_play.record(state, el.id)
            rec["burning"], rec["fire_turn"] = False, 0
            steps.append(f"the rain puts out the fire of {el.name or el.id}")


def _struck(state, target) -> list:
    """The target and every unit in base contact with it (l.1210, l.1308: "toutes les figurines en contact
    base-contre-base avec l'unité subissent le même sort")."""
    return [target] + sorted((v for v in units(state) if v.id != target.id and alive(v) and touching(v, target)),
                             key=lambda v: v.id)


def _quicksand(state, caster, target, row, dice, ev, extra) -> list[dict]:
    """« Destin funeste » (l.1210): 1d100 a figure, dead above the printed score; a character takes a
    wound instead (so does a monster or creature figure, OR-GF112); survivors disordered, morale at -4."""
    steps, out = ev["explanation"], []
    for u in _struck(state, target):
        if u.kind == "troop":
            rolls = [dice.roll(100) for _ in range(u.figures)]
            dead = sum(1 for r in rolls if r > row.dies_above)
            steps.append(f"{_n(u)}: 1d100 for each of its {u.figures} figures, above {row.dies_above} dies: {dead} die")
            ev.setdefault("rolls", []).append({"unit": u.id, "d100": rolls})
            if dead:
                out.append(remove_figures(u, dead))
        else:
            r = dice.roll(100)
            ev.setdefault("rolls", []).append({"unit": u.id, "d100": [r]})
            hit = r > row.dies_above
            steps.append(f"{_n(u)}: 1d100 {r}" + (f" > {row.dies_above}: one wound instead of death" if hit
                                                  else f" ≤ {row.dies_above}: unharmed"))
            if hit:
                out += wounds(state, u, row.wounds or 1, dice)
        if alive(u) and u.kind != "character":
            u.set_disorder(True)
            reason = "a survivor of « Destin funeste »"
            if u.id == target.id:
                extra.append((row.modifier, reason))
            elif u.side != caster.side:
                out.append(morale_play.test(state, u.id, "magic_target", dice, caster.id, deferred=False,
                                            extra=[(row.modifier, reason)]))
    return out


def _tremors(state, caster, target, row, dice, ev, extra, struck=None) -> list[dict]:
    """« Secousses telluriques » (l.1308): creatures and monsters struck test morale at -4 and are disordered;
    the others take -2 on a morale test this turn (OR-GF112) and fire at -3 (OR-GF120). ``struck``: the
    units struck when the target is a building (those inside or against it)."""
    steps, out = ev["explanation"], []
    for u in (_struck(state, target) if struck is None else struck):
        if u.kind in ("creature", "monster"):
            u.set_disorder(True)
            reason = "struck by « Secousses telluriques »"
            steps.append(f"{_n(u)} is disordered and tests its morale at -4")
            if target is not None and u.id == target.id:
                extra.append((row.beast_modifier, reason))
            else:
                out.append(morale_play.test(state, u.id, "magic_target", dice, caster.id, deferred=False,
                                            extra=[(row.beast_modifier, reason)]))
        elif u.kind != "character":
            e = _lasting(state, ev, u, "morale_modifier", row.turns, row.ref, modifier=row.modifier,
                         spell="secousses_telluriques_de_xiuhtecuhtli")
            steps.append(f"{_n(u)}: -2 to its morale tests until turn {e['until_turn']}")
        if row.fire_modifier:
            e = _lasting(state, ev, u, "fire_modifier", row.turns, row.ref, modifier=row.fire_modifier,
                         spell="secousses_telluriques_de_xiuhtecuhtli")
            steps.append(f"{_n(u)}: -3 to its fire until turn {e['until_turn']}")
    return out


# --- a spell cast at a building (l.802: "Dans le cas de la magie, le bâtiment subit 3 points de dégâts le 1er
# tour, 4 le 2e, etc."; l.1216, l.1308) -------------------------------------------------------------------
def building(state, bid: str | None):
    """The standing building ``bid`` of the battlefield (an element of a building kind), or None."""
    from . import buildings_play
    if not bid or bid in getattr(state, "units", {}):
        return None
    for el in buildings_play.elements(state):
        if el.id == bid:
            return el if buildings_play.standing(state, bid) else None
    return None


def strike_building(state, caster, el, spell: str, dice, ev) -> list[dict]:
    """The spell's effect on the building ``el``: its magic damage (buildings_play.magic_damage, GF-K2),
    a flammable building set alight by a lightning (OR-GF121), and the tremors' effects on the units
    inside or against it (l.1308 "toutes les autres unités … en contact … subissent les effets")."""
    from . import buildings_play
    row = spell_effects()[spell]
    printed = magic_data().spells[spell].printed
    steps, out = ev["explanation"], []
    name = el.name or el.id
    ev["citations"] += ["GF seed 003 l.802", "GF-K2"]
    dealt = buildings_play.magic_damage(state, el.id, dice)
    rec = buildings_play.record(state, el.id)
    steps.append(f"« {printed} » strikes {name}: " + (f"{dealt[0]['points']} point(s) of damage, {rec['damage']} of "
                                                      f"its defence {rec['defence']}" if dealt else "no damage"))
    if rec.get("destroyed"):
        steps.append(f"{name} collapses")
    elif row.on_building == "damage_and_fire":
        ev["citations"].append("OR-GF121")
        if buildings_play.structure(el).flammable and not buildings_play.burning(state, el.id):
            buildings_play.set_alight(state, el.id)
            steps.append(f"{name} ({buildings_play.structure(el).name_en}) catches fire (OR-GF121)")
        elif not buildings_play.structure(el).flammable:
            steps.append(f"{name} ({buildings_play.structure(el).name_en}) does not burn (l.814)")
    if row.effect == "tremors":
        out += _tremors(state, caster, None, row, dice, ev, [], struck=buildings_play.around(state, el))
    return out


# --- the magic failure table ------------------------------------------------------------------------------
def failure(state, caster, d100: int, dice, ev) -> list[dict]:
    """The row of the magic failure table read with ``d100`` (l.1154: "on applique les effets
    immédiatement")."""
    row = row_for(failure_rows(), d100)
    ev["citations"].append(row.ref)
    if row.decision:
        ev["citations"].append(row.decision)
    return _table_effect(state, caster, None, row, dice, ev)


def _table_effect(state, caster, beneficiary, row, dice, ev) -> list[dict]:
    steps, out = ev["explanation"], []
    kind = row.effect
    if kind == "none":
        steps.append("not applied on the table yet" if row.note else "no effect on the table")
    elif kind == "wound_caster":
        steps.append(f"{_n(caster)} takes {row.wounds} wound(s)")
        out += wounds(state, caster, row.wounds or 1, dice)
    elif kind == "lightning":
        r = dice.roll(100)
        ev.setdefault("rolls", []).append({"die": 100, "roll": r})
        hit = r <= row.pct
        steps.append(f"lightning: d100 {r} {'≤' if hit else '>'} {row.pct}: "
                     + (f"{_n(caster)} takes {row.wounds} wounds" if hit else "it misses"))
        if hit:
            out += wounds(state, caster, row.wounds, dice)
    elif kind == "silence":
        e = _lasting(state, ev, caster, "silence", row.turns + 1, row.ref)
        steps.append(f"the gods will not answer {_n(caster)} until the end of turn {e['until_turn']}")
    elif kind == "caster_dies":
        caster.figures, caster.status = 0, "destroyed"
        steps.append(f"{_n(caster)} dies on the spot")
    elif kind == "swallowed":
        centre = shape(caster)
        near = [f for f in friends(state, caster) if f.kind != "character"
                and tabletop.nearest_distance(centre, shape(f)) <= row.radius_cm]
        caster.figures, caster.status = 0, "destroyed"
        steps.append(f"{_n(caster)} is swallowed by the earth; {len(near)} friendly unit(s) within "
                     f"{row.radius_cm:g} cm test their morale at -4")
        for f in near:
            out.append(morale_play.test(state, f.id, "magic_target", dice, None, deferred=False,
                                        extra=[(row.modifier, "the priest swallowed by the earth")]))
    elif kind == "flash":
        centre = shape(caster)
        hit = [v for v in units(state) if v.id != caster.id and alive(v) and v.kind != "character"
               and tabletop.nearest_distance(centre, shape(v)) <= row.radius_cm]
        for v in hit:
            v.set_disorder(True)
            _lasting(state, ev, v, "dazzled", 1, row.ref)
        steps.append(f"a flash within {row.radius_cm:g} cm of {_n(caster)}: "
                     + (", ".join(_n(v) for v in hit) or "no unit")
                     + " disordered, no move, fire or charge this turn")
    elif kind == "morale_auto_pass":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, beneficiary, "morale_auto_pass", n, row.ref)
        steps.append(f"{_n(beneficiary)} passes every morale test until turn {e['until_turn']}")
    elif kind == "no_command_tests":
        _lasting(state, ev, beneficiary, "no_command_tests", None, row.ref)
        steps.append(f"{_n(beneficiary)} takes no more command tests this battle")
    elif kind == "no_morale_tests":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, beneficiary, "no_morale_tests", n, row.ref)
        beneficiary.set_disorder(False)
        steps.append(f"{_n(beneficiary)} is fanatic until turn {e['until_turn']}: no morale test, no disorder")
    elif kind == "extra_casualties":
        n = _turns(row, dice, ev)
        e = _lasting(state, ev, beneficiary, "extra_casualties", n, row.ref, amount=row.amount)
        steps.append(f"{_n(beneficiary)} inflicts {row.amount} more casualty(ies) on each enemy it fires at or "
                     f"strikes until turn {e['until_turn']}")
    elif kind == "restore":
        beneficiary.figures = beneficiary.figures_max
        beneficiary.wounds = []
        beneficiary.set_formation(beneficiary.formation)
        steps.append(f"the dead rise again: {_n(beneficiary)} has its {beneficiary.figures} figures back")
    return out


# --- the divine intervention (the priest's skill, l.155) ----------------------------------------------
SKILL = "Intervention divine"


def intervention_used(state, priest_id: str) -> bool:
    return any(e.get("type") == "intervention" and e.get("unit") == priest_id for e in getattr(state, "log", ()))


def intervention_check(state, priest, beneficiary) -> tuple[bool, str, str]:
    """Whether ``priest`` may call for a divine intervention on ``beneficiary`` now: (ok, reason, rule)."""
    rule = intervention_rule()
    if priest.kind != "character" or SKILL.lower() not in [s.lower() for s in getattr(priest, "skills", [])]:
        return False, f"{_n(priest)} does not have the skill « {SKILL} »", "GF seed 003 l.155"
    if rule.once_per_battle and intervention_used(state, priest.id):
        return False, f"{_n(priest)} has already called for a divine intervention in this battle", rule.ref
    if silenced(state, priest):
        return False, f"the gods do not answer {_n(priest)} this turn", "GF seed 003 l.1693, l.1708"
    if beneficiary is None or not alive(beneficiary) or beneficiary.side != priest.side \
            or beneficiary.kind == "character" or not touching(priest, beneficiary):
        return False, (f"a divine intervention helps a friendly unit in base contact with {_n(priest)}"), rule.ref
    return True, "", rule.ref


def intervention(state, priest, beneficiary, dice) -> dict:
    """Roll the divine intervention table for ``beneficiary`` and apply the row."""
    from .. import d100 as d100_tables
    d100 = dice.roll(100)
    table = d100_tables.table("divine_intervention")
    printed = table.read(d100, "d100")
    row = row_for(intervention_rows(), d100)
    ev = {"type": "intervention", "unit": priest.id, "side": priest.side, "target": beneficiary.id, "d100": d100,
          "result": printed.result, "result_en": printed.result_en,
          "explanation": [f"{_n(priest)} calls on his god for {_n(beneficiary)}: divine intervention table, d100 "
                          f"{d100} ({printed.low}–{printed.high}): {printed.result}"],
          "citations": [intervention_rule().ref, printed.ref, row.ref] + ([row.decision] if row.decision else []),
          "text": f"{_n(priest)} calls for a divine intervention for {_n(beneficiary)}: d100 {d100} — {printed.result_en}",
          "text_fr": f"{_n(priest)} demande une intervention divine pour {_n(beneficiary)} : d100 {d100} — "
                     f"{printed.result}"}
    events = _table_effect(state, priest, beneficiary, row, dice, ev)
    return {"event": ev, "events": events}
