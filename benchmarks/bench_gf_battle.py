"""Les Guerres Fleuries battle speed (issue 13): random games of two armies of about 5,000 points
each (the builder's two example armies, each topped up with the one valid extra unit or creature
group that brings it nearest the 5,000-point budget) on the bundled table, through the core contract only:

1. actions per second of whole random games (``RandomPlayer`` for both sides), and the number of
   actions per game;
2. the time of one line-of-sight query (gf-geom's ``tabletop.line_of_sight`` between two units,
   past the terrain and every other unit) and of one contact query (``fighters.touching``), on
   the positions the games went through.

``python benchmarks/bench_gf_battle.py [--games N]``; prints the figures.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from oriflamme.ai.random_player import RandomPlayer  # noqa: E402
from oriflamme.core import registry  # noqa: E402
from oriflamme.core.record import Game  # noqa: E402
from oriflamme.geometry import tabletop  # noqa: E402
from oriflamme.rulesets.guerres_fleuries import builder  # noqa: E402
from oriflamme.rulesets.guerres_fleuries.battle import fighters  # noqa: E402

BUDGET = 5000


def _additions(race: str):
    weapons = ["Griffes et dents", "Club"] if race == "Saurien" else ["Club"]
    for cls in ("C", "B"):
        for n in range(20, 120):
            yield "units", {"name": f"Levy warriors ({cls})", "groups": [{"figures": n, "race": race, "class": cls,
                                                                         "weapons": weapons, "armour": []}]}
    for beast in ("Jaguar/puma", "Ptérodactyle", "Aigle géant"):
        for n in range(1, 40):
            yield "creatures", {"name": beast, "figures": n}


def topped_up(doc: dict, race: str) -> dict:
    """``doc`` with the one extra unit or creature group that brings it nearest 5,000 points (valid)."""
    best, best_total = doc, builder.validate(doc)["total_points"]
    for key, entry in _additions(race):
        trial = copy.deepcopy(doc)
        trial.setdefault(key, []).append(entry)
        v = builder.validate(trial)
        if v["valid"] and best_total < v["total_points"] <= BUDGET:
            best, best_total = trial, v["total_points"]
    return best


def armies() -> dict:
    ex = builder.examples()
    return {"A": topped_up(ex["aztec-host"], "Homme"), "B": topped_up(ex["saurian-warband"], "Saurien")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args()
    rs = registry.get("guerres-fleuries")
    docs = armies()
    sc = rs.scenario_from_json({"id": "bench-5000", "armies": docs, "battlefield": "valley-of-flowers"})
    points = {s: builder.validate(docs[s])["total_points"] for s in docs}
    print(f"armies: A {docs['A']['name']} {points['A']} points, B {docs['B']['name']} {points['B']} points")
    n_actions, seconds, states = [], [], []
    for seed in range(1, args.games + 1):
        g = Game(rs, sc, seed=f"bench-{seed}")
        bots = {s.id: RandomPlayer(seed * 7 + i, ruleset=rs) for i, s in enumerate(rs.sides(sc))}
        t0 = time.perf_counter()
        n = 0
        while not g.outcome().over:
            g.apply(bots[g.to_act()].choose(g.state))
            n += 1
            if n % 20 == 0:
                states.append(rs.clone(g.state))
        seconds.append(time.perf_counter() - t0)
        n_actions.append(n)
        print(f"  game {seed}: {n} actions in {seconds[-1]:.2f} s ({n / seconds[-1]:.1f} actions/s): "
              f"{g.outcome().text}")
    total_a, total_s = sum(n_actions), sum(seconds)
    print(f"random games: {args.games}, {statistics.mean(n_actions):.0f} actions per game, "
          f"{total_a / total_s:.1f} actions/s overall")

    los, contact = [], []
    for st in states:
        units = [u for u in st.units.values() if u.alive]
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if a.side == b.side:
                    continue
                obstacles = fighters.sight_obstacles(st, a, b)
                t0 = time.perf_counter()
                tabletop.line_of_sight(fighters.shape(a), fighters.shape(b), obstacles)
                los.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                fighters.touching(a, b)
                contact.append(time.perf_counter() - t0)
    if los:
        print(f"line of sight: {len(los)} queries, median {statistics.median(los) * 1e3:.3f} ms, "
              f"mean {statistics.mean(los) * 1e3:.3f} ms (terrain + every other unit as obstacles)")
        print(f"contact: {len(contact)} queries, median {statistics.median(contact) * 1e6:.1f} µs, "
              f"mean {statistics.mean(contact) * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
