"""The magic items used as actions (GF Création d'armées > Table des objets magiques, seed 003 l.224-242),
their rows in ``data/items_play.toml``:

* the *Conque d'Ehecatl* (l.232): ``conch``, +5 to the morale of the friendly units within 30 cm for 2
  turns, once a battle (OR-GF152), as lasting ``morale_modifier`` entries (:mod:`.lasting`);
* the *Plume de Quetzalcoatl* (l.237): ``feather``, a flight of 50 cm instead of the bearer's move, once a
  battle (OR-GF153).

The engine lists, checks and applies them (:mod:`.engine`); the modifiers the other items add to the
referee's rolls are :mod:`.items_play`'s."""

from __future__ import annotations

from oriflamme.geometry import tabletop

from .. import modifiers as mods
from .actions import emit
from .items_play import conch, feather, same_item


def bearer_refusal(state, side: str, u, item: str, rule: str, decision: str) -> tuple[str, str] | None:
    """The refusals every item used as an action shares: ``u`` must be a living character of ``side`` on
    the table, carry ``item``, obey his own side (not possessed by an enemy priest, OR-GF127) and stand in
    the enemy's sight (a magic item is not used without revealing it, l.227)."""
    from . import coyolxauhqui
    if u is None or not u.alive or u.side != side:
        return f"{getattr(u, 'id', None)!r} is not a character of side {side} on the table", rule
    if u.kind != "character" or not same_item(u.magic_item, item):
        return f"{u.name} does not carry the « {item} »", rule
    if coyolxauhqui.master(state, u) not in (None, side):
        return (f"{u.name} is possessed by an enemy priest: he obeys the priest, his side has him do nothing",
                f"{coyolxauhqui.REF}; {coyolxauhqui.DECISION}")
    if u.hidden or u.base is not None or u.status == "flank" or getattr(u, "behind", None):
        return (f"{u.name} is out of the enemy's sight: a magic item is not used without revealing it (l.227)",
                f"GF seed 003 l.227; {decision}")
    return None


# --- the Conque d'Ehecatl (l.232, OR-GF152) --------------------------------------------------------------
def conch_refusal(state, side: str, u) -> tuple[str, str] | None:
    """Why ``side`` may not have ``u`` sound the Conque d'Ehecatl now: (reason, rule), or None."""
    c = conch()
    rule = f"{c.ref}; {c.decision}"
    why = bearer_refusal(state, side, u, c.item, rule, c.decision)
    if why is not None:
        return why
    used = [e for e in state.log if e.get("type") == "conch" and e.get("unit") == u.id]
    if len(used) >= c.uses_per_battle:
        return (f"{u.name} has sounded the « {c.item} » in turn {used[0]['turn']}: \"Le porteur ne peut utiliser "
                "l'instrument qu'une fois par jour\" — once a battle", rule)
    return None


def conch_bearers(state, side: str) -> list:
    """The characters of ``side`` who may sound the Conque d'Ehecatl now."""
    return [u for u in state.side_units(side) if u.kind == "character" and conch_refusal(state, side, u) is None]


def conch_bonus() -> int:
    """What the conch adds to a morale test: its modifier row's printed value (data/modifiers/morale.toml)."""
    return int(mods.modifiers("morale")[conch().modifier].value)


def conch_hearers(state, u) -> list:
    """The friendly units within the conch's reach of its bearer (nearest points): troops and creature units."""
    from .fighters import shape
    c = conch()
    here = shape(u)
    return [v for v in state.side_units(u.side) if v.id != u.id and v.alive and v.kind in c.kinds
            and not v.hidden and v.base is None and v.status != "flank"
            and tabletop.nearest_distance(here, shape(v)) <= c.radius_cm]


def sound_conch(state, u) -> dict:
    """``u`` sounds the conch: +5 to the morale of the friendly units within 30 cm, this turn and the next
    (l.232, OR-GF152); public (l.227)."""
    c = conch()
    until = state.turn + c.turns - 1
    hearers = conch_hearers(state, u)
    name = u.name or u.id
    names = ", ".join(v.name or v.id for v in hearers) or "no friendly unit"
    steps = [f"{name} sounds the « {c.item} »: \"Toutes les unités amies dans les 30cm bénéficient de +5 au moral "
             f"pour 2 tours\" (l.232)",
             f"within {c.radius_cm:g} cm of him: {names} — {conch_bonus():+d} to their morale tests until turn {until} "
             "(OR-GF152)",
             "used once: \"Le porteur ne peut utiliser l'instrument qu'une fois par jour\" — once a battle"]
    lasting = [{"unit": v.id, "effect": "morale_modifier", "modifier": c.modifier, "from_turn": state.turn,
                "until_turn": until, "ref": c.ref} for v in hearers]
    bonus = conch_bonus()
    return emit(state, "conch", f"{name} sounds the « {c.item} »: {bonus:+d} to the morale of {names} until turn {until}",
                f"{name} sonne la « {c.item} » : {bonus:+d} au moral de {names} jusqu'au tour {until}", side=u.side,
                ref=c.ref, decision=c.decision, unit=u.id, item=c.item, until_turn=until, lasting=lasting,
                units=[v.id for v in hearers], ruling={"explanation": steps, "citations": [c.ref, c.decision]})


# --- the Plume de Quetzalcoatl (l.237, OR-GF153) ----------------------------------------------------------
def _feather_check() -> dict:
    f = feather()
    return {"what": f"the « {f.item} »", "decision": f.decision}


def feather_refusal(state, side: str, u, destination=None) -> tuple[str, str] | None:
    """Why ``side`` may not have ``u`` fly with the Plume de Quetzalcoatl now (to ``destination`` when
    given): (reason, rule), or None. He flies in phase 6 instead of his move: he must be one of the
    side's movers (an order to move, not in a combat, not yet moved: :func:`.turn.movers`)."""
    from oriflamme.core.errors import IllegalAction

    from . import spells, turn
    f = feather()
    rule = f"{f.ref}; {f.decision}"
    why = bearer_refusal(state, side, u, f.item, rule, f.decision)
    if why is not None:
        return why
    if any(e.get("type") == "feather" and e.get("unit") == u.id for e in state.log):
        return f"{u.name} has flown with the « {f.item} »: \"une fois par jour\" — once a battle", rule
    if state.phase != 6 or u not in turn.movers(state, side):
        return (f"{u.name} flies instead of his move: in phase 6, with an order to move, not in a combat and "
                "not yet moved", f"{rule}; GF seed 003 l.588-590")
    if destination is not None:
        try:
            spells.check_jump(state, u, destination, f, **_feather_check())
        except IllegalAction as exc:
            return exc.reason, exc.ref
    return None


def feather_samples(state, side: str) -> list[tuple[str, tuple]]:
    """The flights offered to ``side`` (the computer's and the browser's samples; any other destination is
    checked): straight ahead as far as the feather carries, else half as far."""
    from . import spells
    out = []
    for u in state.side_units(side):
        if u.kind == "character" and feather_refusal(state, side, u) is None:
            dest = spells.jump_sample(state, u, feather(), **_feather_check())
            if dest is not None:
                out.append((u.id, dest))
    return out


def fly(state, u, x: float, y: float, heading: float | None) -> dict:
    """``u`` flies to (x, y, heading) over whatever lies between: his move of the turn (OR-GF153)."""
    import math

    from . import moves
    f = feather()
    heading = u.heading if heading is None else heading
    far = math.hypot(x - u.x, y - u.y)
    moves.apply_move(u, x, y, heading)
    u.moved = True
    u.moved_cm += far
    name = u.name or u.id
    steps = [f"{name} flies with the « {f.item} »: \"Le porteur peut voler une fois par jour sur une distance de "
             f"50cm\" (l.237)", f"{far:.1f} cm of {f.amount:g}, over whatever lies between, to ({x:g}, {y:g}): his move "
             "of this turn (OR-GF153)", "used once: \"une fois par jour\" — once a battle"]
    return emit(state, "feather", f"{name} flies {far:.1f} cm with the « {f.item} »",
                f"{name} vole de {far:.1f} cm avec la « {f.item} »", side=u.side, ref=f.ref, decision=f.decision,
                unit=u.id, to=[x, y, heading], ruling={"explanation": steps, "citations": [f.ref, f.decision]})
