"""The pieces of the computer players' search, for any ruleset, through the core contract only.

* :class:`Budget` — the work a decision may do: a number of *nodes* (one node: one action
  applied to a copy of a state) and, for a player facing a human, a wall-clock limit. Balance
  runs use nodes only, so that a game depends on its seed and not on the machine's speed.
* :func:`expand` — an action applied to copies of a state: one child, or (the action rolls
  dice) one child per chance outcome with its exact probability (``Ruleset.chance_outcomes``,
  applied with :class:`~oriflamme.core.dice.FixedDice`); an action with too many dice to
  enumerate is sampled with the searcher's own :class:`~oriflamme.core.dice.SampledDice`.
  Copies hold sealed dice, so the search can never learn the game's next roll.
* :func:`candidates` — a large choice set cut down: actions grouped by what they are and who
  does them (the action's ``type`` and its piece: a rider's hundreds of moves are one group),
  each group sampled to a few representatives, the groups interleaved up to a cap.
* :class:`Evaluator` — a position's value for a side from -1 to +1: the outcome at the end, the
  ruleset's ``evaluate`` hook if it has one, else the mean of random playouts to the end.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict

from ..core.chance import TooManyDice
from ..core.dice import FixedDice, SampledDice, SealedDice
from ..core.errors import DiceSealed, IllegalAction
from ..core.ruleset import CHANCE, Ruleset

#: the fields that name the piece an action is about, in the order they are looked for
PIECE_FIELDS = ("char", "unit", "piece", "leader", "card", "character", "who")
#: how many times an action whose dice cannot be enumerated is sampled
CHANCE_SAMPLES = 6


class OutOfBudget(Exception):
    """The decision's budget is spent (caught by the player, which keeps its best so far)."""


class Budget:
    def __init__(self, nodes: int | None = None, seconds: float | None = None):
        self.nodes_left = nodes
        self.started = time.perf_counter()
        self.deadline = None if seconds is None else self.started + seconds
        self.spent = 0
        self.slowest = 0.0  # the longest expansion so far: the next may take as long

    def spend(self, n: int = 1) -> None:
        self.spent += n
        if self.nodes_left is not None:
            self.nodes_left -= n

    def spent_share(self) -> float:
        """The share of the budget spent (the larger of nodes and time; 0 without limits)."""
        shares = [0.0]
        if self.nodes_left is not None:
            total = self.nodes_left + self.spent
            shares.append(self.spent / total if total > 0 else 1.0)
        if self.deadline is not None:
            total = self.deadline - self.started
            shares.append((time.perf_counter() - self.started) / total if total > 0 else 1.0)
        return max(shares)

    @property
    def exhausted(self) -> bool:
        if self.nodes_left is not None and self.nodes_left <= 0:
            return True
        return self.deadline is not None and time.perf_counter() + self.slowest >= self.deadline

    def check(self) -> None:
        if self.exhausted:
            raise OutOfBudget()


def overrides(rs: Ruleset, name: str) -> bool:
    """True when the ruleset implements the optional hook ``name`` (not the core's default)."""
    return getattr(type(rs), name) is not getattr(Ruleset, name)


def expand(rs: Ruleset, state, action, rng: random.Random, budget: Budget) -> list[tuple[float, object]]:
    """The states ``action`` may lead to from ``state``, with their probabilities (they sum to
    1). Raises :class:`IllegalAction` if the ruleset refuses the action on this copy."""
    started = time.perf_counter()
    try:
        return _expand(rs, state, action, rng, budget)
    finally:
        budget.slowest = max(budget.slowest, time.perf_counter() - started)


def _expand(rs: Ruleset, state, action, rng: random.Random, budget: Budget) -> list[tuple[float, object]]:
    child = rs.clone(state)
    budget.spend()
    try:
        rs.apply_unchecked(child, action)
        return [(1.0, child)]
    except DiceSealed:
        pass
    count = getattr(state.dice, "count", 0)
    try:
        ready = rs.chance_children(state, action)
        outcomes = rs.chance_outcomes(state, action) if ready is None else [o for o, _ in ready]
    except TooManyDice:
        ready, outcomes = None, []
    out: list[tuple[float, object]] = []
    if ready and outcomes:  # the enumeration's own copies (the same states as applying each outcome's dice)
        budget.spend(min(rs.die_sides ** 2, 200) + len(outcomes))
        return [(float(o.probability), child) for o, child in ready]
    if outcomes:
        # the enumeration applied the action once per sequence of faces (up to two dice are
        # common: a miss then its stray shot): charge that, so the budget tracks the work
        budget.spend(min(rs.die_sides ** 2, 200) + len(outcomes))
        for o in outcomes:
            child = rs.clone(state)
            child.dice = FixedDice(o.dice, count)
            try:
                rs.apply_unchecked(child, action)
            except DiceSealed:  # the representative dice of a merged outcome ask for more: sample the rest
                child = rs.clone(state)
                child.dice = _Prefixed(o.dice, rng, count)
                rs.apply_unchecked(child, action)
            child.dice = SealedDice(getattr(child.dice, "count", count))
            out.append((float(o.probability), child))
        return out
    for _ in range(CHANCE_SAMPLES):  # too many dice to enumerate: the searcher's own dice
        child = rs.clone(state)
        child.dice = SampledDice(rng, count)
        budget.spend()
        rs.apply_unchecked(child, action)
        child.dice = SealedDice(child.dice.count)
        out.append((1.0 / CHANCE_SAMPLES, child))
    return out


class _Prefixed:
    """Given dice first, then the searcher's own."""
    __slots__ = ("values", "rng", "count")

    def __init__(self, values, rng, count):
        self.values, self.rng, self.count = list(values), rng, count

    def roll(self, sides: int = 10) -> int:
        self.count += 1
        return self.values.pop(0) if self.values else self.rng.randint(1, sides)

    def clone(self):
        return SealedDice(self.count)


def group_key(rs: Ruleset, action) -> tuple:
    """What an action is and who does it: its ``type`` and its piece (see :data:`PIECE_FIELDS`)."""
    try:
        data = rs.action_to_json(action)
    except Exception:  # noqa: BLE001 - an action without a JSON form is its own group
        return ("?", id(action))
    if not isinstance(data, dict):
        return ("?", str(data))
    piece = next((str(data[k]) for k in PIECE_FIELDS if isinstance(data.get(k), (str, int))), "")
    return (str(data.get("type", data.get("kind", ""))), piece)


def group_actions(rs: Ruleset, actions: list) -> OrderedDict:
    """The actions by :func:`group_key`, in their order."""
    groups: OrderedDict[tuple, list] = OrderedDict()
    for a in actions:
        groups.setdefault(group_key(rs, a), []).append(a)
    return groups


def candidates(rs: Ruleset, actions: list, rng: random.Random, per_group: int, cap: int) -> list:
    """At most ``cap`` of ``actions``: every group represented (up to ``per_group`` of each,
    sampled evenly at random), the groups interleaved; passes always kept."""
    if len(actions) <= min(cap, per_group):
        return list(actions)
    groups = group_actions(rs, actions)
    picked: list[list] = []
    for members in groups.values():
        if len(members) > per_group:
            idx = sorted(rng.sample(range(len(members)), per_group))
            members = [members[i] for i in idx]
        picked.append(members)
    out: list = [a for a in actions if rs.is_pass(a)]
    seen = {id(a) for a in out}
    depth = 0
    while len(out) < cap and any(depth < len(m) for m in picked):
        for members in picked:
            if depth < len(members) and id(members[depth]) not in seen and len(out) < cap:
                out.append(members[depth])
                seen.add(id(members[depth]))
        depth += 1
    return out


def terminal_value(rs: Ruleset, state, side: str) -> float | None:
    out = rs.outcome(state)
    if not out.over:
        return None
    return 0.0 if out.winner is None else (1.0 if out.winner == side else -1.0)


def playout(rs: Ruleset, state, side: str, rng: random.Random, budget: Budget, max_actions: int = 400,
            pass_weight: float = 0.15) -> float:
    """One random game from a copy of ``state`` to its end (the searcher's own dice): +1 if
    ``side`` wins, -1 if it loses, 0 for a draw or a game longer than ``max_actions``."""
    st = rs.clone(state)
    st.dice = SampledDice(rng, getattr(st.dice, "count", 0))
    for _ in range(max_actions):
        v = terminal_value(rs, st, side)
        if v is not None:
            return v
        who = rs.to_act(st)
        if who is None:
            return 0.0
        acts = rs.legal_actions(st, who)
        if not acts:
            return 0.0
        others = [a for a in acts if not rs.is_pass(a)]
        if others and (len(others) == len(acts) or rng.random() > pass_weight):
            a = rng.choice(others)
        else:
            a = rng.choice(acts)
        budget.spend()
        rs.apply_unchecked(st, a)
    return 0.0


class Evaluator:
    """A position's value for ``side`` (-1 … +1), see the module docstring."""

    def __init__(self, rs: Ruleset, side: str, rng: random.Random, playouts: int = 4):
        self.rs, self.side, self.rng, self.playouts = rs, side, rng, playouts
        self.heuristic = overrides(rs, "evaluate")

    def __call__(self, state, budget: Budget) -> float:
        v = terminal_value(self.rs, state, self.side)
        if v is not None:
            return v
        if self.heuristic:
            h = self.rs.evaluate(state, self.side)
            if h is not None:
                return max(-1.0, min(1.0, float(h)))
        n = max(1, self.playouts)
        return sum(playout(self.rs, state, self.side, self.rng, budget) for _ in range(n)) / n


def is_chance(rs: Ruleset, state) -> bool:
    return rs.to_act(state) == CHANCE


__all__ = ["Budget", "OutOfBudget", "expand", "candidates", "Evaluator", "playout", "terminal_value",
           "group_key", "overrides", "IllegalAction", "is_chance"]
