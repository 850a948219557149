"""How well a side stands in a leader-activation battle: the ``Ruleset.evaluate`` hook the
computer players search with (issue 14; :mod:`oriflamme.ai` knows only the hook).

A heuristic, not a rule: each term is tied to the rule that makes it matter and its weight
lives in ``data/ai_evaluation.toml`` with that citation. Every term is the side's minus its
enemy's; the weighted sum goes through ``tanh`` to a value from -1 (lost) to +1 (won). The game
hides nothing (:meth:`~.ruleset.LeaderBattle.view` shows every unit to both sides), so reading
the state is reading what the side sees.

Terms: material (steps left times combat points), pressure towards the break point, the
objectives held by the attacker (more as the last turn nears) and each side's nearest unit to
each objective, disordered units, units out of command, leaders lost.
"""

from __future__ import annotations

import math
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from oriflamme.core.tabledata import read_toml

from .queries import H, live_units, objectives_held
from .rules import RulesDataError
from .state import State

PACKAGE = "oriflamme.rulesets.leader_battle"


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ref: str = Field(min_length=3)
    scale: float = Field(gt=0)
    material: float = Field(ge=0)
    ref_material: str = Field(min_length=3)
    break_pressure: float = Field(ge=0)
    ref_break: str = Field(min_length=3)
    objectives: float = Field(ge=0)
    objective_approach: float = Field(ge=0)
    ref_objectives: str = Field(min_length=3)
    disorder: float = Field(ge=0)
    ref_disorder: str = Field(min_length=3)
    command: float = Field(ge=0)
    ref_command: str = Field(min_length=3)
    leaders: float = Field(ge=0)
    ref_leaders: str = Field(min_length=3)
    reach: int = Field(ge=1)
    ref_reach: str = Field(min_length=3)


class EvaluationData(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weights: Weights


@lru_cache(maxsize=1)
def load_weights() -> Weights:
    """The weights, validated (a bad file raises :class:`RulesDataError` naming file and field)."""
    where = f"{PACKAGE}/data/ai_evaluation.toml"
    raw = read_toml(PACKAGE, "ai_evaluation.toml", RulesDataError, where)
    try:
        return EvaluationData.model_validate(raw).weights
    except Exception as exc:  # pydantic's ValidationError names the field
        err = exc.errors()[0] if hasattr(exc, "errors") else {"loc": (), "msg": str(exc)}
        loc = ".".join(str(p) for p in err["loc"])
        raise RulesDataError(f"{where}: field {loc}: {err['msg']}") from None


def _points(u) -> float:
    k = u.spec
    return float(k.attack + k.defence + k.fire)


def evaluate(state: State, side: str, w: Weights | None = None) -> float:
    """``side``'s prospects in ``state`` from -1 to +1 (see the module docstring)."""
    if state.over:
        return 0.0 if state.winner is None else (1.0 if state.winner == side else -1.0)
    w = w or load_weights()
    enemy = state.enemy(side)
    score = 0.0

    def strength(s: str) -> float:
        units = [u for u in state.units.values() if u.side == s]
        full = sum(_points(u) * u.spec.steps for u in units) or 1.0
        return sum(_points(u) * u.steps for u in units if not u.broken) / full

    def pressure(s: str) -> float:
        limit = next(x.break_point for x in state.scenario.side if x.id == s)
        broken = sum(1 for u in state.units.values() if u.side == s and u.broken)
        return min(1.0, broken / max(1, limit)) ** 2

    score += w.material * (strength(side) - strength(enemy))
    score += w.break_pressure * (pressure(enemy) - pressure(side))

    def share(s: str, test) -> float:
        units = live_units(state, s)
        return sum(1 for u in units if test(u)) / len(units) if units else 0.0

    score += w.disorder * (share(enemy, lambda u: u.disordered) - share(side, lambda u: u.disordered))
    score += w.command * (share(enemy, lambda u: not u.in_command) - share(side, lambda u: not u.in_command))

    def lost(s: str) -> float:
        lds = [ld for ld in state.leaders.values() if ld.side == s]
        return sum(1 for ld in lds if ld.lost) / len(lds) if lds else 0.0

    score += w.leaders * (lost(enemy) - lost(side))

    objectives = state.board.objectives
    if objectives:
        attacker = state.attacker
        need = max(1, state.scenario.objectives_needed)
        progress = min(1.0, state.turn / max(1, state.scenario.turns))
        held = len(objectives_held(state, attacker))

        def nearness(s: str) -> float:
            """Per objective, 1 for a unit on it falling to 0 at ``reach`` hexes; the best ``need`` averaged."""
            units = live_units(state, s)
            if not units:
                return 0.0
            per = sorted((max(0.0, 1.0 - min(H(u.hex).distance(h) for u in units) / w.reach) for h in objectives),
                         reverse=True)
            return sum(per[:need]) / need

        obj = (w.objectives * (0.3 + 0.7 * progress) * min(1.0, held / need)
               + w.objective_approach * (nearness(attacker) - nearness(state.enemy(attacker))))
        score += obj if side == attacker else -obj
    return math.tanh(score / w.scale)
