"""Balance runs: N games of a scenario between two computer players, in parallel, with the
same result for the same seed however the games are spread (issue 14).

Each game is a pure function of its :class:`GameSpec`: the game's dice seed and both players'
seeds are derived from the run's seed and the game's index (:func:`game_seed`), and the
players search by a node budget, never by the clock. So the games may run one after the
other, in a process pool (``jobs``) or on a Ray cluster (``ray``), and the summary — computed
from the results sorted by index — is the same.

``A`` and ``B`` are the seats: ``A`` plays the scenario's first side, ``B`` its second.
"""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass
from functools import lru_cache

from ..core.record import Game
from ..core.ruleset import CHANCE, Ruleset
from .players import make_player

#: a game longer than this many actions is stopped and counted as a draw
MAX_ACTIONS = 5000


@dataclass(frozen=True)
class GameSpec:
    ruleset: Ruleset           # the object itself: a worker needs no registry (runtime-registered rulesets work)
    scenario: str              # a bundled id or a path
    a: str
    b: str
    seed: int                  # the run's seed
    index: int
    nodes_a: int | None = None
    nodes_b: int | None = None
    max_actions: int = MAX_ACTIONS


def game_seed(seed, index: int, role: str = "dice") -> int:
    """The seed of one game's dice (or of one of its players), from the run's seed."""
    digest = hashlib.sha256(f"oriflamme-simulate:{seed}:{index}:{role}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@lru_cache(maxsize=16)
def _scenario(rs: Ruleset, name: str):
    return rs.load_scenario(name)


def _length(rs: Ruleset, state, decisions: int) -> int:
    """The game's length in turns: the view's ``turn`` (or ``round``), else the decisions."""
    try:
        view = rs.view(state, None)
    except Exception:  # noqa: BLE001 - a length is only a statistic
        view = {}
    for key in ("turn", "round"):
        if isinstance(view.get(key), int) and not isinstance(view.get(key), bool):
            return view[key]
    return decisions


def play_game(spec: GameSpec) -> dict:
    """One game; returns ``{index, winner ("A", "B" or None), turns, actions, digest}`` (the
    final state's fingerprint: two runs played the same game when their digests agree)."""
    rs = spec.ruleset
    scenario = _scenario(rs, spec.scenario)
    game = Game(rs, scenario, game_seed(spec.seed, spec.index))
    sides = [s.id for s in rs.sides(scenario)]
    seats = {sides[0]: "A", sides[1]: "B"}
    players = {
        sides[0]: make_player(spec.a, rs, game_seed(spec.seed, spec.index, "A"), nodes=spec.nodes_a, deterministic=True),
        sides[1]: make_player(spec.b, rs, game_seed(spec.seed, spec.index, "B"), nodes=spec.nodes_b, deterministic=True),
    }
    decisions = 0
    while not game.outcome().over and len(game.actions) < spec.max_actions:
        side = game.to_act()
        if side is None:
            break
        if side == CHANCE:
            game.apply(rs.legal_actions(game.state, CHANCE)[0])
            continue
        game.apply(players[side].choose(game.state, side))  # the checked apply: an illegal choice raises
        decisions += 1
    out = game.outcome()
    return {"index": spec.index, "winner": seats.get(out.winner) if out.over else None,
            "turns": _length(rs, game.state, decisions), "actions": len(game.actions), "digest": game.digest()}


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> list[float]:
    """The Wilson score interval of a proportion (95 % by default), as ``[low, high]``.

    >>> wilson(0, 0)
    [0.0, 1.0]
    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return [0.0, 1.0]
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [max(0.0, centre - half), min(1.0, centre + half)]


def summarise(results: list[dict]) -> dict:
    """The run's JSON: ``{games, wins: {A, B}, draws, ci95: {A: [low, high], B: [...]}, mean_turns}``
    (``ci95``: Wilson intervals of each seat's win rate)."""
    results = sorted(results, key=lambda r: r["index"])
    n = len(results)
    wins = {"A": sum(1 for r in results if r["winner"] == "A"), "B": sum(1 for r in results if r["winner"] == "B")}
    return {"games": n, "wins": wins, "draws": n - wins["A"] - wins["B"],
            "ci95": {k: [round(x, 4) for x in wilson(v, n)] for k, v in wins.items()},
            "mean_turns": round(sum(r["turns"] for r in results) / n, 3) if n else 0.0}


def specs(ruleset: Ruleset, scenario: str, a: str, b: str, games: int, seed: int, **kw) -> list[GameSpec]:
    return [GameSpec(ruleset, scenario, a, b, seed, i, **kw) for i in range(games)]


def run_local(game_specs: list[GameSpec], jobs: int | None = None, on_result=None) -> list[dict]:
    """The games in this process (``jobs == 1``) or in a pool of ``jobs`` processes (default:
    every core); ``on_result(result)`` is called as each game ends (the progress bar)."""
    jobs = jobs or os.cpu_count() or 1
    results = []
    if jobs <= 1 or len(game_specs) <= 1:
        for s in game_specs:
            r = play_game(s)
            results.append(r)
            if on_result:
                on_result(r)
        return results
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(max_workers=min(jobs, len(game_specs))) as pool:
        futures = [pool.submit(play_game, s) for s in game_specs]
        for f in as_completed(futures):
            r = f.result()
            results.append(r)
            if on_result:
                on_result(r)
    return results


def run_ray(game_specs: list[GameSpec], address: str, on_result=None) -> list[dict]:
    """The games as Ray tasks on the cluster at ``address`` (``auto``: the one this machine
    belongs to). Needs the optional extra ``oriflamme[cluster]``; raises ``RuntimeError``
    with the install line when Ray is missing."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'oriflamme[cluster]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}})
    try:
        task = ray.remote(play_game)
        pending = [task.remote(s) for s in game_specs]
        results = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                r = ray.get(ref)
                results.append(r)
                if on_result:
                    on_result(r)
        return results
    finally:
        if started_here:
            ray.shutdown()


def write_report(summary: dict, folder, title: str = "") -> list:
    """``simulate.json`` and ``simulate.png`` (wins per seat and draws, the 95 % intervals as
    error bars) in ``folder``. The chart needs matplotlib (``oriflamme[report]``); without it
    only the JSON is written and the returned list says so."""
    import json
    from pathlib import Path
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "simulate.json"]
    (folder / "simulate.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return written
    n = max(1, summary["games"])
    labels = ["A wins", "B wins", "draws"]
    rates = [summary["wins"]["A"] / n, summary["wins"]["B"] / n, summary["draws"] / n]
    ci = summary["ci95"]
    err_low = [rates[0] - ci["A"][0], rates[1] - ci["B"][0], 0]
    err_high = [ci["A"][1] - rates[0], ci["B"][1] - rates[1], 0]
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.bar(labels, rates, color=["#b22222", "#1f4e99", "#888888"], yerr=[err_low, err_high], capsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title(title or f"{summary['games']} games, mean length {summary['mean_turns']} turns")
    for i, r in enumerate(rates):
        inside = r > 0.9
        ax.text(i + 0.22, r - 0.07 if inside else r + 0.03, f"{r:.0%}", ha="left", color="white" if inside else "black")
    fig.tight_layout()
    fig.savefig(folder / "simulate.png")
    plt.close(fig)
    written.append(folder / "simulate.png")
    return written
