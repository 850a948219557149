"""Divine magic data (``data/magic.toml``): casters' levels, the spells, the omens. GF-J1 (d100 <
threshold), GF-J3 (a diameter is read as twice the radius; ranges inclusive), GF-J4."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

from .rows import Row, document, load

FILE = "magic.toml"


class Rules(Row):
    printed: str
    on_failure: str
    one_spell_per_turn: bool
    not_in_base_contact_except: str


class Level(Row):
    printed: str
    name_en: str  # the English display (:mod:`.display`)
    caster: Literal["pretre", "pretre_guerrier"]
    level: Literal["mineur", "majeur", "legendaire"]
    pct: int


class Spell(Row):
    id: str
    printed: str
    name_en: str
    difficulty: int
    distance: str
    #: the distance in English where the printed one is words ("le champ de bataille"; the display)
    distance_en: str | None = None
    distance_cm: int | None = None
    effect: str
    effect_en: str


class Omen(Row):
    printed: str
    points_per_capture: int
    cost_of_a_reroll: int
    text_en: str


class Magic(BaseModel):
    rules: Rules
    levels: tuple[Level, ...]
    spells: dict[str, Spell]
    omens: tuple[Omen, ...]

    def level(self, caster: str, level: str) -> Level:
        return next(x for x in self.levels if x.caster == caster and x.level == level)


@lru_cache(maxsize=1)
def data() -> Magic:
    doc = document(FILE)
    return Magic(rules=load(Rules, FILE, "rules", {"rules": [doc.get("rules")]})[0],
                 levels=tuple(load(Level, FILE, "level")),
                 spells={s.id: s for s in load(Spell, FILE, "spell")},
                 omens=tuple(load(Omen, FILE, "omen")))
