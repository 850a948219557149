"""The battle's cited data: the 11 phases and the automatic-move actions (``data/turn.toml``), the
table, bases, formations, distances, deployment and victory (``data/battle.toml``), each row
validated and carrying its ``ref`` (and ``decision`` where Oriflamme decided)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from ..rows import Row, load, one

TURN = "turn.toml"
BATTLE = "battle.toml"


class Phase(Row):
    id: str
    number: int
    name_fr: str
    name_en: str
    acts: str
    does: str

    def to_json(self) -> dict:
        return {"id": self.id, "number": self.number, "name": self.name_en, "name_fr": self.name_fr,
                "ref": self.ref, "does": self.does, "acts": self.acts}


class Automatic(Row):
    table: str
    row_from: int
    action: str


class Table(Row):
    width_cm: float
    height_cm: float


class Base(Row):
    kind: str
    width_cm: float
    depth_cm: float


class Formation(Row):
    id: str
    name_fr: str
    name_en: str
    frontage: int
    spacing: float


class Distances(Row):
    enemy_standoff_cm: float
    friend_standoff_cm: float
    contact_tolerance_cm: float
    double_min_enemy_cm: float
    wheel_deg: float


class Deployment(Row):
    depth_from_midline_cm: float
    side_margin_cm: float


class Victory(Row):
    turn_limit: int
    broken_share: float


class OrderPlay(Row):
    order: str
    move: str
    direction: str = ""
    who: list[str]
    whole_move: bool = False
    formation: str = ""
    turn: int = 0
    fires: bool = False
    needs_target: bool = False
    flight: str = ""        # a flyer's manoeuvre (data/movement.toml [[flight]])
    altitude_to: str = ""   # combat, flight, or ground
    change_first: bool = False  # made on the spot first, costing the GF-D5 fraction; the rest may be moved (OR-GF111)

    def id_is_wait(self) -> bool:
        return self.order == "attendre"


class OrderName(Row):
    id: str
    printed: str
    name_en: str
    who: str


class MoverAlias(Row):
    being: str
    mover: str


class Rules(BaseModel):
    phases: list[Phase]
    automatic: dict[tuple[str, int], Automatic]
    table: Table
    bases: dict[str, Base]
    formations: dict[str, Formation]
    distances: Distances
    deployment: Deployment
    victory: Victory
    mover_alias: dict[str, MoverAlias]
    order_play: dict[str, OrderPlay]
    order_names: dict[str, OrderName]

    def phase(self, number: int) -> Phase:
        return self.phases[number - 1]

    def automatic_action(self, table: str, row_from: int) -> Automatic:
        return self.automatic[(table, row_from)]


@lru_cache(maxsize=None)
def rules() -> Rules:
    phases = sorted(load(Phase, TURN, "phase"), key=lambda p: p.number)
    if [p.number for p in phases] != list(range(1, 12)):
        from ..rows import DataError
        raise DataError(f"guerres_fleuries/data/{TURN}: [[phase]] must number 1 to 11 (got {[p.number for p in phases]})")
    return Rules(phases=phases,
                 automatic={(a.table, a.row_from): a for a in load(Automatic, TURN, "automatic")},
                 table=one(Table, BATTLE, "table"),
                 bases={b.kind: b for b in load(Base, BATTLE, "base")},
                 formations={f.id: f for f in load(Formation, BATTLE, "formation")},
                 distances=one(Distances, BATTLE, "distances"),
                 deployment=one(Deployment, BATTLE, "deployment"),
                 victory=one(Victory, BATTLE, "victory"),
                 mover_alias={m.being: m for m in load(MoverAlias, BATTLE, "mover_alias")},
                 order_play={o.order: o for o in load(OrderPlay, TURN, "order_play")},
                 order_names={o.id: o for o in load(OrderName, "orders.toml", "order")})
