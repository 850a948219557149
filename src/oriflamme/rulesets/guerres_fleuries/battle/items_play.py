"""The magic items that change a roll of the part-1 referee (GF Création d'armées > Table des objets
magiques, seed 003 l.224-242; OR-GF151), read from ``data/items_play.toml``:

* *Masque de Huitzilopochtli* (l.229): -5 to every blow at its bearer or at the unit he directly controls,
  and -2 to the morale test of a unit that lost a round against them;
* *Ceinture de force* (l.234): +15 to the bearer's own blows (his PFC);
* *Miroir de Tezcatlipoca* (l.240): -15 to every shot at the bearer;
* *Relique sacrée* (l.231): +5 to the bearer's casts;

and the *Conque d'Ehecatl* (l.232), an action of its bearer once a battle (``conch``, OR-GF152): +5 to
the morale of the friendly units within 30 cm for 2 turns, written in the log as lasting
``morale_modifier`` entries (:mod:`.lasting`, read by :func:`.morale_play.situation`); and the *Plume de
Quetzalcoatl* (l.237), its bearer's flight of 50 cm once a battle instead of his move (``feather``,
OR-GF153); and the *Armure de Teteoinnan* (l.233), which wards its bearer from the weapons' wounds
(:func:`ward`, read by :class:`.casualties.Ledger`; OR-GF154); and the *Bouclier de Tonatiuh* (l.239),
which deflects the enemy's spells at its bearer until it breaks (:func:`deflect`, read by
:func:`.magic_play.cast`; OR-GF155); and the *Sandales de Yacatecuhtli* (l.235), which double its bearer's
move in 3 turns of his choice (``sandals``, OR-GF156).

The situations of :mod:`.melee_play`, :mod:`.fire_play`, :mod:`.magic_play` and :mod:`.morale_play` ask
:func:`modifiers` for the rows that apply, so a preview (the percentage before the roll) and the roll read
the same modifiers, each with its printed sentence and line in the referee's explanation. A character
carries one item (the army's ``magic_item``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from oriflamme.geometry import tabletop

from ..rows import Row, load, one
from .actions import emit

FILE = "items_play.toml"


class ItemEffect(Row):
    item: str
    kind: Literal["melee", "fire", "magic", "morale"]
    on: Literal["bearer", "at_bearer", "fought"]
    with_unit: bool = False
    modifier: str


class ConchRow(Row):
    item: str
    radius_cm: float
    turns: int
    uses_per_battle: int
    modifier: str
    kinds: list[str]


class FeatherRow(Row):
    item: str
    amount: float
    uses_per_battle: int


class ArmourRow(Row):
    item: str
    ward_pct: int


class ShieldRow(Row):
    item: str
    potential_die: int


class SandalsRow(Row):
    item: str
    turns_per_battle: int


@lru_cache(maxsize=None)
def sandals() -> SandalsRow:
    return one(SandalsRow, FILE, "sandals")


@lru_cache(maxsize=None)
def shield() -> ShieldRow:
    return one(ShieldRow, FILE, "shield")


@lru_cache(maxsize=None)
def armour() -> ArmourRow:
    return one(ArmourRow, FILE, "armour")


@lru_cache(maxsize=None)
def feather() -> FeatherRow:
    return one(FeatherRow, FILE, "feather")


@lru_cache(maxsize=None)
def conch() -> ConchRow:
    return one(ConchRow, FILE, "conch")


@lru_cache(maxsize=None)
def effects() -> tuple[ItemEffect, ...]:
    return tuple(load(ItemEffect, FILE, "effect"))


def _carries(state, u, e: ItemEffect) -> object | None:
    """The bearer of ``e``'s item behind ``u``: ``u`` itself, or (``with_unit``) the living character who
    directly controls it; None when neither carries it."""
    if u is None:
        return None
    if getattr(u, "magic_item", None) == e.item and u.alive:
        return u
    if e.with_unit and getattr(u, "led_by", None):
        ch = state.units.get(u.led_by)
        if ch is not None and ch.alive and getattr(ch, "magic_item", None) == e.item:
            return ch
    return None


def modifiers(state, kind: str, actor, target=None) -> list[tuple[str, str]]:
    """The (modifier id, reason) the items add to ``actor``'s roll of ``kind`` (its blow, shot or cast at
    ``target``; for ``morale``, ``target`` is the enemy it lost the round against)."""
    out = []
    for e in effects():
        if e.kind != kind:
            continue
        who = _carries(state, actor, e) if e.on == "bearer" else _carries(state, target, e)
        if who is None:
            continue
        whose = "its" if who is actor else f"{who.name or who.id}'s"
        out.append((e.modifier, f"« {e.item} »: {whose} magic item ({e.ref})"))
    return out


def bearer_refusal(state, side: str, u, item: str, rule: str, decision: str) -> tuple[str, str] | None:
    """The refusals every item used as an action shares: ``u`` must be a living character of ``side`` on
    the table, carry ``item``, obey his own side (not possessed by an enemy priest, OR-GF127) and stand in
    the enemy's sight (a magic item is not used without revealing it, l.227)."""
    from . import coyolxauhqui
    from .brigades import _same
    if u is None or not u.alive or u.side != side:
        return f"{getattr(u, 'id', None)!r} is not a character of side {side} on the table", rule
    if u.kind != "character" or not _same(u.magic_item, item):
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
             f"within {c.radius_cm:g} cm of him: {names} — +5 to their morale tests until turn {until} (OR-GF152)",
             "used once: \"Le porteur ne peut utiliser l'instrument qu'une fois par jour\" — once a battle"]
    lasting = [{"unit": v.id, "effect": "morale_modifier", "modifier": c.modifier, "from_turn": state.turn,
                "until_turn": until, "ref": c.ref} for v in hearers]
    return emit(state, "conch", f"{name} sounds the « {c.item} »: +5 to the morale of {names} until turn {until}",
                f"{name} sonne la « {c.item} » : +5 au moral de {names} jusqu'au tour {until}", side=u.side,
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


# --- the Armure de Teteoinnan (l.233, OR-GF154) -----------------------------------------------------------
def wears_armour(u) -> bool:
    """Whether ``u`` is a living character wearing the Armure de Teteoinnan."""
    from .brigades import _same
    return getattr(u, "kind", None) == "character" and u.alive and _same(getattr(u, "magic_item", None), armour().item)


def ward(target, source, count: int, dice) -> tuple[int, dict]:
    """Of ``count`` wounds ``source``'s weapon dealt ``target`` (who wears the armour), how many it takes, and
    the event saying why: none from a weapon that is not magic; from a magic weapon (a character's), each
    ignored on a d100 of the ward's percentage or less, one d100 a wound (l.233, OR-GF154)."""
    a = armour()
    name, by = target.name or target.id, source.name or source.id
    magic = getattr(source, "magic_weapon", None)
    if not magic:
        taken, rolls = 0, []
        steps = [f"{name} wears the « {a.item} »: \"Le porteur ignore les blessures des armes non-magiques\" "
                 f"(l.233): the {count} wound(s) of {by}'s weapons are ignored"]
    else:
        rolls = [dice.roll(100) for _ in range(count)]
        taken = sum(1 for r in rolls if r > a.ward_pct)
        steps = [f"{name} wears the « {a.item} »; {by}'s weapon is magic (« {magic} »): \"Sur un résultat de "
                 f"{a.ward_pct}% ou moins, la blessure est ignorée\" (l.233)",
                 "d100: " + ", ".join(f"{r} → {'ignored' if r <= a.ward_pct else 'wounds'}" for r in rolls)]
    ev = {"type": "armour", "unit": target.id, "side": target.side, "source": source.id, "wounds": count,
          "ignored": count - taken, "d100": rolls, "text": f"{name}'s « {a.item} » wards {count - taken} of "
          f"{count} wound(s) from {by}", "text_fr": f"L'« {a.item} » de {name} arrête {count - taken} blessure(s) "
          f"sur {count} de {by}", "explanation": steps, "citations": [a.ref, a.decision]}
    return taken, ev


# --- the Bouclier de Tonatiuh (l.239, OR-GF155) -----------------------------------------------------------
def shield_record(state, uid: str) -> tuple[int | None, int, bool]:
    """The bearer's shield so far, from the log: its potential (None: not rolled yet), the spells it
    deflected, whether it broke."""
    potential, deflected, broken = None, 0, False
    for e in state.log:
        sh = e.get("shield") if e.get("type") == "magic" else None
        if isinstance(sh, dict) and sh.get("unit") == uid:
            potential = sh.get("potential", potential)
            deflected += 1 if sh.get("deflected") else 0
            broken = broken or bool(sh.get("broken"))
    return potential, deflected, broken


def deflect(state, caster, target, dice, ev) -> list[dict] | None:
    """A spell ``caster`` cast successfully at ``target``: None when no shield stands in its way (the spell
    takes effect); else the events of the shield — [] when it deflects the spell, the magic failure
    table's on its bearer when the spell breaks it (l.239, OR-GF155). Written in ``ev`` (``shield``)."""
    from . import spells
    from .brigades import _same
    sh = shield()
    if target.side == caster.side or target.kind != "character" or not target.alive \
            or not _same(getattr(target, "magic_item", None), sh.item):
        return None
    potential, deflected, broken = shield_record(state, target.id)
    if broken:
        return None
    name = target.name or target.id
    rolled = potential is None
    if rolled:
        potential = dice.roll(sh.potential_die)
    ev["citations"] += [sh.ref, sh.decision]
    steps = ev["explanation"]
    if rolled:
        steps.append(f"{name}'s « {sh.item} » meets its first spell: its potential, 1d{sh.potential_die}: {potential} "
                     "spell(s) (l.239)")
    if deflected < potential:
        ev["shield"] = {"unit": target.id, "potential": potential, "deflected": True, "broken": False}
        steps.append(f"the « {sh.item} » deflects the spell ({deflected + 1} of {potential}): no effect")
        ev["text"] += f" — deflected by {name}'s « {sh.item} »"
        ev["text_fr"] += f" — dévié par le « {sh.item} » de {name}"
        return []
    ev["shield"] = {"unit": target.id, "potential": potential, "deflected": False, "broken": True}
    d100 = dice.roll(100)
    steps.append(f"the « {sh.item} » has deflected its {potential} spell(s) and breaks: \"le porteur jette un dé sur "
                 f"la table des échecs magiques\" — d100 {d100}, on {name}")
    ev["text"] += f" — {name}'s « {sh.item} » breaks"
    ev["text_fr"] += f" — le « {sh.item} » de {name} se brise"
    return spells.failure(state, target, d100, dice, ev)


# --- the Sandales de Yacatecuhtli (l.235, OR-GF156) -------------------------------------------------------
def sandals_turns(state, uid: str) -> list[int]:
    """The turns ``uid`` has worn the sandals in so far."""
    return [e["turn"] for e in state.log if e.get("type") == "sandals" and e.get("unit") == uid]


def sandals_refusal(state, side: str, u) -> tuple[str, str] | None:
    """Why ``side`` may not have ``u`` put on the Sandales de Yacatecuhtli now: (reason, rule), or None."""
    sd = sandals()
    rule = f"{sd.ref}; {sd.decision}"
    why = bearer_refusal(state, side, u, sd.item, rule, sd.decision)
    if why is not None:
        return why
    worn = sandals_turns(state, u.id)
    if state.turn in worn:
        return f"{u.name} already wears the « {sd.item} » this turn", rule
    if len(worn) >= sd.turns_per_battle:
        return (f"{u.name} has worn the « {sd.item} » {len(worn)} turns (turns {', '.join(map(str, worn))}): "
                f"\"pendant {sd.turns_per_battle} tours par jour\"", rule)
    if state.phase not in (3, 6) or u.moved:
        return f"{u.name} puts them on before his move: in phase 3, or in phase 6 before he moves", rule
    return None


def sandals_bearers(state, side: str) -> list:
    return [u for u in state.side_units(side) if u.kind == "character" and sandals_refusal(state, side, u) is None]


def wear_sandals(state, u) -> dict:
    """``u``'s move of this turn is doubled (l.235, OR-GF156): a lasting ``double_move`` for this turn."""
    sd = sandals()
    n = len(sandals_turns(state, u.id)) + 1
    name = u.name or u.id
    steps = [f"{name} wears the « {sd.item} »: \"Elle double le mouvement du personnage pendant "
             f"{sd.turns_per_battle} tours par jour\" (l.235)",
             f"his move of turn {state.turn} is doubled; turn {n} of {sd.turns_per_battle} this battle (OR-GF156)"]
    lasting = [{"unit": u.id, "effect": "double_move", "from_turn": state.turn, "until_turn": state.turn,
                "ref": sd.ref, "decision": sd.decision, "item": sd.item}]
    return emit(state, "sandals", f"{name} wears the « {sd.item} »: his move doubled this turn ({n} of "
                f"{sd.turns_per_battle})", f"{name} chausse les « {sd.item} » : son mouvement doublé ce tour "
                f"({n} sur {sd.turns_per_battle})", side=u.side, ref=sd.ref, decision=sd.decision, unit=u.id,
                item=sd.item, lasting=lasting, ruling={"explanation": steps, "citations": [sd.ref, sd.decision]})
