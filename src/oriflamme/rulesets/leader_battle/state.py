"""The state of a leader-activation battle: units, leaders, where the sequence stands, the log.

Plain dataclasses; JSON keeps every field (the dice as their count: the seed never leaves the
record). The board (:class:`~.board.Board`) is rebuilt from the scenario, never copied."""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from oriflamme.core.dice import SealedDice

from .board import Board
from .rules import rules
from .scenario import Scenario


@dataclass
class Unit:
    id: str
    side: str
    kind: str
    name: str
    hex: str | None  # None: broken (off the map)
    facing: int
    leader: str | None
    steps: int
    disordered: bool = False
    in_command: bool = True

    @property
    def broken(self) -> bool:
        return self.hex is None

    @property
    def spec(self):
        return rules().kinds[self.kind]


@dataclass
class Leader:
    id: str
    side: str
    name: str
    hex: str
    command_range: int
    movement: int
    rank: int
    lost: bool = False


@dataclass
class Combat:
    hex: str                  # the attacked hex
    attackers: list[str]      # unit ids
    defenders: list[str]
    stage: str = "pending"    # pending | defensive | offensive | melee | done


@dataclass
class State:
    scenario: Scenario
    dice: Any
    board: Board
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    turn: int = 1
    step: str = "A"
    b_index: int = 0            # B: the entry of the fixed fire order (l.6-9)
    e_index: int = 0            # E: 0 the attacker rallies, 1 the defender
    initiative: str | None = None
    order: list[str] = field(default_factory=list)   # C: activation order (leader ids)
    act_index: int = 0
    active_leader: str | None = None
    moved: set[str] = field(default_factory=set)     # D1: units and leaders moved this activation
    fired: set[str] = field(default_factory=set)     # fired in this B step / this activation
    combats: list[Combat] = field(default_factory=list)
    current: int | None = None  # D4: the combat being resolved
    announced: str = ""         # the last B fire sub-step announced in the log ("turn:B<i>")
    log: list[dict] = field(default_factory=list)
    over: bool = False
    winner: str | None = None
    result: str = ""
    result_fr: str = ""

    # --- sides ---------------------------------------------------------------------------------
    @property
    def attacker(self) -> str:
        return self.scenario.attacker

    @property
    def defender(self) -> str:
        return next(s.id for s in self.scenario.side if s.id != self.scenario.attacker)

    def role_side(self, role: str) -> str:
        return self.attacker if role == "attacker" else self.defender

    def enemy(self, side: str) -> str:
        return self.defender if side == self.attacker else self.attacker

    @property
    def active_side(self) -> str | None:
        ld = self.leaders.get(self.active_leader or "")
        return ld.side if ld else None

    # --- codecs --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "turn": self.turn, "step": self.step, "b_index": self.b_index, "e_index": self.e_index,
            "initiative": self.initiative, "order": list(self.order), "act_index": self.act_index,
            "active_leader": self.active_leader, "moved": sorted(self.moved), "fired": sorted(self.fired),
            "combats": [asdict(c) for c in self.combats], "current": self.current, "announced": self.announced,
            "units": [asdict(u) for u in self.units.values()], "leaders": [asdict(ld) for ld in self.leaders.values()],
            "log": copy.deepcopy(self.log), "over": self.over, "winner": self.winner, "result": self.result,
            "result_fr": self.result_fr, "rolls": self.dice.count,
        }

    @classmethod
    def from_json(cls, data: dict, scenario: Scenario) -> "State":
        st = cls(scenario=scenario, dice=SealedDice(data["rolls"]), board=Board(scenario),
                 units={u["id"]: Unit(**u) for u in data["units"]},
                 leaders={ld["id"]: Leader(**ld) for ld in data["leaders"]})
        for key in ("turn", "step", "b_index", "e_index", "initiative", "act_index", "active_leader", "current", "announced",
                    "over", "winner", "result", "result_fr"):
            setattr(st, key, data[key])
        st.order = list(data["order"])
        st.moved, st.fired = set(data["moved"]), set(data["fired"])
        st.combats = [Combat(**c) for c in data["combats"]]
        st.log = copy.deepcopy(data["log"])
        return st

    def clone(self) -> "State":
        """A copy sharing the scenario and the board (immutable); its dice are sealed."""
        new = copy.copy(self)
        new.dice = self.dice.clone()
        new.units = {k: copy.copy(u) for k, u in self.units.items()}
        new.leaders = {k: copy.copy(ld) for k, ld in self.leaders.items()}
        new.order, new.moved, new.fired = list(self.order), set(self.moved), set(self.fired)
        new.combats = [Combat(c.hex, list(c.attackers), list(c.defenders), c.stage) for c in self.combats]
        new.log = list(self.log)  # events are never mutated once written
        return new


def initial(scenario: Scenario, dice) -> State:
    r = rules()
    units = {u.id: Unit(u.id, u.side, u.kind, u.name, u.hex, u.facing, u.leader,
                        u.steps or r.kinds[u.kind].steps) for u in scenario.unit}
    rank: dict[str, int] = {}
    leaders = {}
    for ld in scenario.leader:
        rank[ld.side] = rank.get(ld.side, 0) + 1
        leaders[ld.id] = Leader(ld.id, ld.side, ld.name, ld.hex, ld.command_range, ld.movement, rank[ld.side])
    return State(scenario=scenario, dice=dice, board=Board(scenario), units=units, leaders=leaders)
