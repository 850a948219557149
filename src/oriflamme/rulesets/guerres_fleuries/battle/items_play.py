"""The magic items that change a roll of the part-1 referee (GF Création d'armées > Table des objets
magiques, seed 003 l.224-242; OR-GF151), read from ``data/items_play.toml``:

* *Masque de Huitzilopochtli* (l.229): -5 to every blow at its bearer or at the unit he directly controls,
  and -2 to the morale test of a unit that lost a round against them;
* *Ceinture de force* (l.234): +15 to the bearer's own blows (his PFC);
* *Miroir de Tezcatlipoca* (l.240): -15 to every shot at the bearer;
* *Relique sacrée* (l.231): +5 to the bearer's casts.

The situations of :mod:`.melee_play`, :mod:`.fire_play`, :mod:`.magic_play` and :mod:`.morale_play` ask
:func:`modifiers` for the rows that apply, so a preview (the percentage before the roll) and the roll read
the same modifiers, each with its printed sentence and line in the referee's explanation. A character
carries one item (the army's ``magic_item``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from ..rows import Row, load

FILE = "items_play.toml"


class ItemEffect(Row):
    item: str
    kind: Literal["melee", "fire", "magic", "morale"]
    on: Literal["bearer", "at_bearer", "fought"]
    with_unit: bool = False
    modifier: str


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
