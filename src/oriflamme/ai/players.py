"""The computer players: ``random``, ``easy``, ``normal`` and ``hard``, for any side of any
scenario of any ruleset, through the core contract only (``legal_actions``, ``clone``,
``apply_unchecked`` on copies, ``chance_outcomes``, ``outcome``, and the optional hooks
``evaluate`` and ``determinize``).

* ``easy`` — greedy: every candidate action applied to a copy, its value the *expected*
  evaluation over the action's chance outcomes (exact probabilities), the best taken.
* ``normal`` and ``hard`` — expectimax: the side to act maximises (or, the enemy, minimises)
  and chance nodes average over the exact outcomes, with a beam (the best few candidates by
  the one-step value are searched deeper) and iterative deepening under the decision's budget
  (each iteration searches the beam best first; when the budget runs out, the candidates it
  completed decide among themselves, and one the cost of the others says cannot be completed is
  not started). ``hard`` searches deeper and wider.

**What a player may know.** It chooses only among ``legal_actions(state, side)`` of the live
state, so it never submits an illegal action. It searches copies only (their dice are sealed:
chance is enumerated, never peeked). Where a ruleset hides information, the search starts
from ``Ruleset.determinize(state, side, rng)`` — copies in which what ``side`` cannot see is
redrawn — several times, and the values are averaged (perfect-information Monte Carlo); a
ruleset that hides nothing keeps the core's default (a plain copy). The evaluation reads a
position as the side sees it (``Ruleset.evaluate``'s contract); a ruleset with no evaluation
is judged by random playouts to the end.

**Budgets.** ``nodes`` caps the work (one node: one action applied to a copy) and makes a
decision depend only on the seed — balance runs use it; ``seconds`` adds a wall-clock limit
for a human's opponent.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..core.errors import IllegalAction
from ..core.ruleset import CHANCE, Ruleset
from .random_player import RandomPlayer
from .search import (Budget, Evaluator, OutOfBudget, candidates, expand, group_actions, group_key, overrides,
                     terminal_value)


@dataclass(frozen=True)
class Level:
    name: str
    depth: int            # plies searched (1: greedy)
    root_cap: int         # candidate actions considered at the root
    per_group: int        # of each group (type, piece) at the root
    inner_cap: int        # candidates at an inner node
    inner_per_group: int
    beam: int             # root candidates searched deeper
    inner_beam: int       # children searched deeper at an inner node
    determinizations: int  # where the ruleset hides information
    playouts: int         # per leaf, for a ruleset without an evaluation
    nodes: int            # default node budget of a decision
    seconds: float        # default time budget (interactive play)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 1, 40, 6, 0, 0, 0, 0, 2, 2, 300, 0.3),
    "normal": Level("normal", 2, 80, 12, 24, 4, 5, 3, 4, 3, 1500, 1.0),
    "hard": Level("hard", 3, 140, 24, 32, 6, 7, 4, 6, 4, 6000, 3.0),
}
#: the share of a decision's time budget the search plans to use
TIME_MARGIN = 0.8
#: a deeper candidate is not started when the cost of those before it, per chance outcome,
#: projects past this many times the budget left
SKIP_FACTOR = 1.25
#: every level a seat may be given, ``human`` aside
PLAYER_LEVELS = ("random", "easy", "normal", "hard")


@dataclass
class Decision:
    """What a player chose and why (its explanation goes to the log)."""
    action: object
    level: str
    value: float | None = None
    candidates: int = 1
    legal: int = 1
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    alternatives: list = None

    def explanation(self) -> str:
        if self.value is None:
            return f"{self.level}: the only choice" if self.legal == 1 else f"{self.level}: chosen at random among {self.legal}"
        return (f"{self.level}: value {self.value:+.2f} (−1 lost … +1 won) after a {self.depth}-ply search of "
                f"{self.candidates} of {self.legal} legal actions, {self.nodes} positions, {self.seconds:.2f} s")

    def explanation_fr(self) -> str:
        if self.value is None:
            return f"{self.level} : seul choix possible" if self.legal == 1 else f"{self.level} : choix au hasard parmi {self.legal}"
        return (f"{self.level} : valeur {self.value:+.2f} (−1 perdu … +1 gagné) après une recherche à {self.depth} coups "
                f"de {self.candidates} des {self.legal} actions légales, {self.nodes} positions, {self.seconds:.2f} s")

    def to_json(self) -> dict:
        return {"level": self.level, "value": self.value, "candidates": self.candidates, "legal": self.legal,
                "depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 3),
                "text": self.explanation(), "text_fr": self.explanation_fr()}


class SearchPlayer:
    """``easy``, ``normal`` or ``hard`` (see the module docstring). ``nodes``/``seconds``
    override the level's budget; ``seconds=None`` with ``deterministic=True`` plays by nodes
    only (the same seed, the same game, on any machine)."""

    def __init__(self, level: str, ruleset: Ruleset, seed: int = 0, nodes: int | None = None,
                 seconds: float | None = None, deterministic: bool = False):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choose {', '.join(PLAYER_LEVELS)})")
        self.level = LEVELS[level]
        self.ruleset = ruleset
        self.rng = random.Random(seed)
        self.nodes = nodes if nodes is not None else self.level.nodes
        self.seconds = None if deterministic else (seconds if seconds is not None else self.level.seconds)
        self.hidden = overrides(ruleset, "determinize")
        self.last: Decision | None = None

    # --- the decision -----------------------------------------------------------------------
    def choose(self, state, side: str | None = None):
        return self.decide(state, side).action

    def decide(self, state, side: str | None = None) -> Decision:
        rs, lv = self.ruleset, self.level
        # the clock starts before the legal actions (a large list takes time); a margin is kept
        # for the last candidate valued after the check and for applying the choice
        budget = Budget(self.nodes, None if self.seconds is None else self.seconds * TIME_MARGIN)
        side = side or rs.to_act(state)
        acts = rs.legal_actions(state, side)
        if not acts:
            raise IllegalAction("no legal action: the game is over or waits for chance")
        started = time.perf_counter()
        if len(acts) == 1:
            self.last = Decision(acts[0], lv.name, legal=1)
            return self.last
        evaluate = Evaluator(rs, side, self.rng, lv.playouts)
        roots = [rs.determinize(state, side, self.rng) for _ in range(lv.determinizations)] if self.hidden else [rs.clone(state)]
        cands = candidates(rs, acts, self.rng, lv.per_group, lv.root_cap)
        cands += [a for a in rs.advised_actions(state, side, acts) if a not in cands]
        # depth 1: every candidate's expected value, averaged over the determinizations. A
        # search level keeps half its budget for the deeper plies; the candidates valued when
        # the share is spent compete (the groups are interleaved, so each is represented)
        share = 1.0 if lv.depth == 1 else 0.5
        totals: list[float] = []
        counted: list[int] = []
        children: list[list] = []

        def value(batch: list) -> None:
            for a in batch:
                cands.append(a) if a not in cands else None
            while len(totals) < len(cands):
                totals.append(0.0), counted.append(0), children.append([])
            todo = [cands.index(a) for a in batch]
            for root in roots:
                for i in todo:
                    if budget.spent_share() >= share and any(counted):
                        return
                    try:
                        kids = expand(rs, root, cands[i], self.rng, budget)
                    except IllegalAction:
                        continue
                    totals[i] += sum(p * evaluate(k, budget) for p, k in kids)
                    counted[i] += 1
                    children[i].append(kids)

        value(list(cands))
        # refinement: more of the members of the two best groups (a rider's best moves are
        # among his other moves, not among the other pieces')
        if budget.spent_share() < share:
            groups = group_actions(rs, acts)
            best_groups: list = []
            for i in sorted((i for i in range(len(cands)) if counted[i]), key=lambda i: -totals[i] / counted[i]):
                key = group_key(rs, cands[i])
                if key not in best_groups and not rs.is_pass(cands[i]):
                    best_groups.append(key)
                if len(best_groups) == 2:
                    break
            for key in best_groups:
                rest = [a for a in groups[key] if a not in cands]
                if rest:
                    value(self.rng.sample(rest, min(len(rest), lv.per_group)))
        pool = {i: totals[i] / counted[i] for i in range(len(cands)) if counted[i]}
        if not pool:  # no candidate could be applied to a copy: the first legal action
            self.last = Decision(cands[0], lv.name, legal=len(acts))
            return self.last
        valued = len(pool)
        depth_done = 1
        # deeper: the best few by the previous iteration, searched again one ply deeper, best
        # first. The beam narrows to what the budget can search: the candidates completed when it
        # runs out decide among themselves (the first is the previous iteration's best, so one
        # completed candidate changes nothing), and a candidate the cost of the previous ones
        # says cannot be completed is not started (its work would be lost)
        for depth in range(2, lv.depth + 1):
            if budget.exhausted:
                break
            order = sorted(pool, key=lambda i: (-pool[i], i))[:lv.beam]
            deeper: dict[int, float] = {}
            cost = outcomes = 0.0
            try:
                for i in order:
                    kids_here = sum(len(kids) for kids in children[i])
                    if outcomes and cost / outcomes * kids_here > SKIP_FACTOR * (1.0 - budget.spent_share()):
                        break
                    start = budget.spent_share()
                    vs = [sum(p * self._value(k, depth - 1, side, evaluate, budget) for p, k in kids)
                          for kids in children[i]]
                    deeper[i] = sum(vs) / len(vs)
                    cost += budget.spent_share() - start
                    outcomes += kids_here
            except OutOfBudget:
                pass
            if len(deeper) < 2:  # no deeper comparison: the previous iteration's choice stands
                break
            pool, depth_done = deeper, depth
            if len(deeper) < len(order):
                break
        best = max(pool, key=lambda i: (pool[i], -i))
        self.last = Decision(cands[best], lv.name, value=max(-1.0, min(1.0, pool[best])), candidates=valued,
                             legal=len(acts), depth=depth_done, nodes=budget.spent,
                             seconds=time.perf_counter() - started)
        return self.last

    # --- expectimax below the root ---------------------------------------------------------------
    def _value(self, state, depth: int, me: str, evaluate: Evaluator, budget: Budget, forced: int = 0) -> float:
        rs, lv = self.ruleset, self.level
        t = terminal_value(rs, state, me)
        if t is not None:
            return t
        if depth <= 0:
            return evaluate(state, budget)
        budget.check()
        who = rs.to_act(state)
        if who is None:
            return evaluate(state, budget)
        acts = rs.legal_actions(state, who)
        if not acts:
            return evaluate(state, budget)
        if len(acts) == 1 and forced < 8:  # a forced action (or chance) costs no ply
            kids = expand(rs, state, acts[0], self.rng, budget)
            return sum(p * self._value(k, depth, me, evaluate, budget, forced + 1) for p, k in kids)
        if who == CHANCE:
            acts = acts[:1]
        cands = candidates(rs, acts, self.rng, lv.inner_per_group, lv.inner_cap)
        maximise = who == me
        scored = []
        for a in cands:
            try:
                kids = expand(rs, state, a, self.rng, budget)
            except IllegalAction:
                continue
            scored.append((sum(p * evaluate(k, budget) for p, k in kids), kids))
            budget.check()
        if not scored:
            return evaluate(state, budget)
        scored.sort(key=lambda x: -x[0] if maximise else x[0])
        if depth == 1:
            return scored[0][0]
        vals = [sum(p * self._value(k, depth - 1, me, evaluate, budget) for p, k in kids)
                for _, kids in scored[:lv.inner_beam]]
        return max(vals) if maximise else min(vals)


class RandomLevel(RandomPlayer):
    """The random player with the same ``decide`` interface as the search players."""

    def __init__(self, ruleset: Ruleset, seed: int = 0):
        super().__init__(seed, ruleset=ruleset)
        self.last: Decision | None = None

    def decide(self, state, side: str | None = None) -> Decision:
        acts = self.ruleset.legal_actions(state, side)
        self.last = Decision(self.pick(acts), "random", legal=len(acts))
        return self.last


def make_player(level: str, ruleset: Ruleset, seed: int = 0, *, nodes: int | None = None,
                seconds: float | None = None, deterministic: bool = False):
    """A computer player of ``level`` (one of :data:`PLAYER_LEVELS`)."""
    if level == "random":
        return RandomLevel(ruleset, seed)
    return SearchPlayer(level, ruleset, seed, nodes=nodes, seconds=seconds, deterministic=deterministic)


__all__ = ["LEVELS", "PLAYER_LEVELS", "Level", "Decision", "SearchPlayer", "RandomLevel", "make_player"]
