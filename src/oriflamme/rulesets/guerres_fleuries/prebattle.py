"""Before the battle (``data/prebattle.toml``): terrain choice, reconnaissance (GF-K3), deployment
(GF-K5), flank march (GF-K4), battle orders. Data for part 2's set-up; :func:`discovered` and
:func:`flank_march_enters` state the readings as small pure functions."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from .rows import Row, document, load

FILE = "prebattle.toml"


class TerrainChoice(Row):
    elements_min: int
    elements_max: int
    placer: str
    large_element_side_cm: int
    large_element_counts_as: int
    table_cm: list[int]
    printed: str


class TerrainElement(Row):
    id: str
    printed: str
    text_en: str
    max_per_player: int | None = None
    max_length_cm: float | None = None


class Printed(Row):
    printed: str
    text_en: str


class Reconnaissance(Printed):
    potential: str
    discovered_below_fraction_of_other: float
    ambush_units: int


class Deployment(Printed):
    discovered_deploys_first: bool
    movement_bases: str
    bases_per_brigade: int
    extra_bases_dice: int
    extra_bases_sides: int
    extra_bases_minus: int
    extra_bases_min: int
    max_brigades_per_base: int
    zone_depth_from_centre_line_cm: int
    zone_side_margin_cm: int


class FlankMarch(Printed):
    max_share_of_points: float
    earliest_turn: int
    die: int
    succeeds_on_at_least: int
    bonus_with_character: int
    bonus_all_class_b: int
    retries_on_following_turns: int


class BattleOrder(Printed):
    id: str


class OrderChange(Printed):
    turns_needed: int


class PreBattle(BaseModel):
    terrain_choice: TerrainChoice
    terrain_elements: dict[str, TerrainElement]
    terrain_rules: tuple[Printed, ...]
    reconnaissance: Reconnaissance
    deployment: Deployment
    flank_march: FlankMarch
    battle_orders: dict[str, BattleOrder]
    battle_order_ends: tuple[Printed, ...]
    battle_order_change: OrderChange


def _one(model, doc: dict, table: str):
    return load(model, FILE, table, {table: [doc.get(table)]})[0]


@lru_cache(maxsize=1)
def data() -> PreBattle:
    doc = document(FILE)
    return PreBattle(terrain_choice=_one(TerrainChoice, doc, "terrain_choice"),
                     terrain_elements={e.id: e for e in load(TerrainElement, FILE, "terrain_element")},
                     terrain_rules=tuple(load(Printed, FILE, "terrain_rule")),
                     reconnaissance=_one(Reconnaissance, doc, "reconnaissance"),
                     deployment=_one(Deployment, doc, "deployment"),
                     flank_march=_one(FlankMarch, doc, "flank_march"),
                     battle_orders={o.id: o for o in load(BattleOrder, FILE, "battle_order")},
                     battle_order_ends=tuple(load(Printed, FILE, "battle_order_end")),
                     battle_order_change=_one(OrderChange, doc, "battle_order_change"))


def discovered(own_pochteca: int, other_pochteca: int) -> bool:
    """GF-K3: a side is discovered when its potential is less than half the other's."""
    return own_pochteca < data().reconnaissance.discovered_below_fraction_of_other * other_pochteca


def movement_bases(brigades: int, d6: int) -> int:
    """GF-K5: one base per brigade + 1d6 − 2 (the extra at least 0)."""
    dep = data().deployment
    return brigades * dep.bases_per_brigade + max(dep.extra_bases_min, d6 - dep.extra_bases_minus)


def flank_march_enters(d6: int, *, with_character: bool, all_class_b: bool) -> bool:
    """GF-K4: 5 or 6 on a d6, +1 with a character, +1 if the force is all class B."""
    fm = data().flank_march
    score = d6 + (fm.bonus_with_character if with_character else 0) + (fm.bonus_all_class_b if all_class_b else 0)
    return score >= fm.succeeds_on_at_least


def flank_march_turns(first_try_turn: int) -> list[int]:
    """GF-K4: the turns a force may try to enter: its first try (turn 4 at the earliest) and the two
    following turns."""
    fm = data().flank_march
    start = max(first_try_turn, fm.earliest_turn)
    return list(range(start, start + 1 + fm.retries_on_following_turns))
