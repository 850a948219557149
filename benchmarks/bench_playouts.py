"""Benchmark: full random playouts of the bundled scenarios with ``RandomPlayer``.

For each scenario, N games (seeds 1..N; one more game beforehand as an untimed warm-up) are
played to the end, both sides by ``RandomPlayer``, each action through the checked ``apply``.
Reported: games per second, actions per second, actions per game, the time per game, and how
the time splits between ``legal_actions`` (called inside ``RandomPlayer.choose``), the rest of
``choose`` (the random pick) and ``apply`` (check + rules + settling the next step, which also
calls ``reachable``/``fire_targets``/``attack_options`` to skip empty steps).

``new_game`` is outside the timings (it validates nothing; the scenario is loaded once).

Run: ``.venv/bin/python benchmarks/bench_playouts.py [--quick]``
"""

from __future__ import annotations

from collections import Counter

from _common import banner, ms, parse_args, perf, summary, table

import oriflamme.ai.random_player as rp
from oriflamme.core import registry
from oriflamme.rulesets.magna_carta.engine import apply, legal_actions, new_game
from oriflamme.rulesets.magna_carta.scenario import load_scenario

RULESET = registry.get("magna-carta")  # the instance RandomPlayer plays through

SCENARIOS = ("the-hill", "hamlet-raid", "the-caravan", "the-hay-cart")  # the-ford: bench_riders.py
LIMIT = 4000  # actions: a game longer than that is a bug (tests/test_playouts.py uses the same)


class Timed:
    """Wraps ``legal_actions`` as RandomPlayer sees it, to add up its time."""

    def __init__(self, fn):
        self.fn, self.total, self.calls = fn, 0.0, 0

    def __call__(self, state, *args):  # RandomPlayer passes (state, side)
        t0 = perf()
        out = self.fn(state, *args)
        self.total += perf() - t0
        self.calls += 1
        return out


def play(scenario, gmap, seed: int, timed: Timed) -> dict:
    st = new_game(scenario, gmap, seed)
    bots = {s: rp.RandomPlayer(seed * 7 + k) for k, s in enumerate(st.sides)}
    la0 = timed.total
    t_choose = t_apply = 0.0
    n = 0
    t_start = perf()
    while not st.over:
        t0 = perf()
        a = bots[st.to_act()].choose(st)
        t1 = perf()
        apply(st, a)
        t2 = perf()
        t_choose += t1 - t0
        t_apply += t2 - t1
        n += 1
        if n >= LIMIT:
            raise AssertionError(f"seed {seed}: the game does not end after {LIMIT} actions")
    total = perf() - t_start
    la = timed.total - la0
    return {"actions": n, "total": total, "legal": la, "pick": t_choose - la, "apply": t_apply,
            "winner": st.winner or "draw", "turn": st.turn}


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    n_games = 5 if args.quick else 30
    banner(f"random playouts, RandomPlayer v RandomPlayer, {n_games} games per scenario")
    timed = Timed(RULESET.legal_actions)  # the adapter's (state, side), as RandomPlayer calls it
    RULESET.legal_actions = timed  # RandomPlayer.choose calls ruleset.legal_actions(state): time it there
    rows, split_rows, per_game_rows = [], [], []
    try:
        for sid in SCENARIOS:
            scenario, gmap = load_scenario(sid)
            play(scenario, gmap, 10_000, timed)  # warm-up
            games = [play(scenario, gmap, seed, timed) for seed in range(1, n_games + 1)]
            tot = sum(g["total"] for g in games)
            acts = sum(g["actions"] for g in games)
            la, pick, app = (sum(g[k] for g in games) for k in ("legal", "pick", "apply"))
            other = tot - la - pick - app
            res = Counter(g["winner"] for g in games)
            rows.append([sid, len(games), acts, f"{acts / len(games):.1f}", f"{len(games) / tot:.2f}",
                         f"{acts / tot:.0f}", ms(tot / acts), " ".join(f"{k}:{v}" for k, v in sorted(res.items()))])
            split_rows.append([sid, f"{100 * la / tot:.1f}%", f"{100 * pick / tot:.1f}%", f"{100 * app / tot:.1f}%",
                               f"{100 * other / tot:.1f}%", ms(la / acts), ms(app / acts)])
            s = summary([g["total"] for g in games])
            a = summary([g["actions"] for g in games])
            per_game_rows.append([sid, ms(s["p50"]), ms(s["p95"]), ms(s["max"]), int(a["p50"]), int(a["max"])])
    finally:
        del RULESET.legal_actions  # back to the class's method
    print(table(["scenario", "games", "actions", "acts/game", "games/s", "acts/s", "ms/act", "results"], rows,
                align="lrrrrrrl"))
    print()
    print("where the time goes (share of the playout time; per action in ms)")
    print(table(["scenario", "legal_actions", "random pick", "apply", "loop", "legal ms/act", "apply ms/act"],
                split_rows))
    print()
    print("time per game")
    print(table(["scenario", "p50 ms", "p95 ms", "max ms", "acts p50", "acts max"], per_game_rows))


if __name__ == "__main__":
    main()
