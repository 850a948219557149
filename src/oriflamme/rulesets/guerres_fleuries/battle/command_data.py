"""The cited rows of brigades and written battle orders (``data/battle_orders.toml``, with part 1's
``data/orders.toml [brigade]``): each validated and carrying its ``ref`` and ``decision``."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from ..rows import Row, document, load, one

FILE = "battle_orders.toml"


class BrigadeRule(Row):
    """Part 1's ``[brigade]`` (l.442-448): at least ``min_units``, all within ``max_distance_cm``."""
    min_units: int
    max_distance_cm: float
    max_units: str
    takes_command_test: bool


class BrigadePlay(Row):
    formed: str
    facing_tolerance_deg: float


class WrittenOrders(Row):
    delay_turns: int
    barred: list[str]


class BattleOrder(Row):
    id: str
    printed: str
    name_en: str
    target: str            # "" or "friend"
    forbids: list[str]     # per-turn orders a bound unit may not be given
    reactions: list[str]   # reactions it keeps when charged ([] = all)
    stay_within_cm: float  # 0 = no distance to keep


class Effect(Row):
    id: str
    curse: str
    item: str
    spell: str


class CommandData(BaseModel):
    brigade: BrigadeRule
    play: BrigadePlay
    written: WrittenOrders
    orders: dict[str, BattleOrder]
    effects: dict[str, Effect]


@lru_cache(maxsize=None)
def data() -> CommandData:
    part1 = document("orders.toml")["brigade"]
    brigade = load(BrigadeRule, "orders.toml", "brigade", {"brigade": [part1]})[0]
    return CommandData(brigade=brigade, play=one(BrigadePlay, FILE, "brigade_play"),
                       written=one(WrittenOrders, FILE, "written_orders"),
                       orders={o.id: o for o in load(BattleOrder, FILE, "battle_order")},
                       effects={e.id: e for e in load(Effect, FILE, "effect")})
