"""The magic items that change a roll of the part-1 referee (GF Création d'armées > Table des objets
magiques, seed 003 l.224-242; OR-GF151), read from ``data/items_play.toml``:

* *Masque de Huitzilopochtli* (l.229): -5 to every blow at its bearer or at the unit he directly controls,
  and -2 to the morale test of a unit that lost a round against them;
* *Ceinture de force* (l.234): +15 to the bearer's own blows (his PFC);
* *Miroir de Tezcatlipoca* (l.240): -15 to every shot at the bearer;
* *Relique sacrée* (l.231): +5 to the bearer's casts.

The Armure de Teteoinnan (l.233) wards the weapons' wounds (:func:`ward`, read by
:class:`.casualties.Ledger`; OR-GF154), and the Bouclier de Tonatiuh's record (:func:`shield_record`) is read
by :func:`.magic_play.cast` (OR-GF155). The items used as actions (Conque, Plume) are
:mod:`.item_actions`'s. Data rows of them all: ``data/items_play.toml``.

The situations of :mod:`.melee_play`, :mod:`.fire_play`, :mod:`.magic_play` and :mod:`.morale_play` ask
:func:`modifiers` for the rows that apply, so a preview (the percentage before the roll) and the roll read
the same modifiers, each with its printed sentence and line in the referee's explanation. A character
carries one item (the army's ``magic_item``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from ..rows import Row, load, one

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


@lru_cache(maxsize=None)
def _table(model: type[Row], name: str) -> Row:
    """The single ``[name]`` table of ``data/items_play.toml``, validated with ``model``."""
    return one(model, FILE, name)


def shield() -> ShieldRow:
    return _table(ShieldRow, "shield")


def armour() -> ArmourRow:
    return _table(ArmourRow, "armour")


def feather() -> FeatherRow:
    return _table(FeatherRow, "feather")


def conch() -> ConchRow:
    return _table(ConchRow, "conch")


@lru_cache(maxsize=None)
def effects() -> tuple[ItemEffect, ...]:
    return tuple(load(ItemEffect, FILE, "effect"))


def same_item(carried: str | None, item: str) -> bool:
    """Whether a character's ``magic_item`` (as the army names it) is ``item``."""
    return bool(carried) and carried.strip().lower() == item.strip().lower()


def _carries(state, u, e: ItemEffect) -> object | None:
    """The bearer of ``e``'s item behind ``u``: ``u`` itself, or (``with_unit``) the living character who
    directly controls it; None when neither carries it."""
    if u is None:
        return None
    if same_item(getattr(u, "magic_item", None), e.item) and u.alive:
        return u
    if e.with_unit and getattr(u, "led_by", None):
        ch = state.units.get(u.led_by)
        if ch is not None and ch.alive and same_item(getattr(ch, "magic_item", None), e.item):
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


# --- the Armure de Teteoinnan (l.233, OR-GF154) -----------------------------------------------------------
def wears_armour(u) -> bool:
    """Whether ``u`` is a living character wearing the Armure de Teteoinnan."""
    return getattr(u, "kind", None) == "character" and u.alive and same_item(getattr(u, "magic_item", None), armour().item)


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

