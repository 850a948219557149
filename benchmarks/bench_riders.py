"""Benchmark: riders (mounted characters on two hexes with a facing, §1.2, §4.4.1) on the
4-board map (40×28 = 1120 hexes) and in the bundled ``the-ford`` scenario.

A rider's move is searched over (front hex, facing) states — six per hex — with the turning
costs of §4.4.1 and the infiltration tie-break of §4.3.1.2 (an enemy next to either hex of
the counter), so it is the engine's most expensive search. Measured:

1. ``riding.reachable(state, c, budget)`` for a knight (12 PM) and a light cavalry (15 PM)
   near the centre of the map, among 10 enemies (2–7 hexes away: the threatened set is not
   empty) and 6 friends; the light cavalry also with budgets 20 and 30 and on an emptied board;
2. ``legal_actions`` in the movement step of a position with 6 riders and 10 foot a side
   (every rider's ``riding.reachable``, one ``Move`` per (front hex, facing) reached);
3. ``explain(Move)`` for each rider's longest legal move (the most steps): the path check, the
   turns and the infiltration tests met with their odds;
4. full random playouts of ``the-ford`` (RandomPlayer both sides, checked ``apply``), as
   ``bench_playouts.py`` does for the foot scenarios.

Run: ``.venv/bin/python benchmarks/bench_riders.py [--quick]``
"""

from __future__ import annotations

from collections import Counter

from _common import (Hex, Placer, banner, build_state, four_board_map, measure, ms, parse_args, scenario_dict, summary,
                     table)
from bench_playouts import LIMIT, Timed, play
from bench_reachable import emptied

from oriflamme.core import registry
from oriflamme.rulesets.magna_carta.engine import explain, legal_actions
from oriflamme.rulesets.magna_carta.engine import riding
from oriflamme.rulesets.magna_carta.engine.actions import Move
from oriflamme.rulesets.magna_carta.engine.movement import points_left, threatened_hexes
from oriflamme.rulesets.magna_carta.engine.state import MOVEMENT
from oriflamme.geometry.hexgrid import DIRECTION_NAMES
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.rulesets.magna_carta.scenario import load_scenario

RULESET = registry.get("magna-carta")  # the instance RandomPlayer plays through

ENEMY_TYPES = ["spearman", "man_at_arms", "pikeman", "sergeant", "peasant"]
FRIEND_TYPES = ["spearman", "man_at_arms", "archer"]
RIDER_TYPES = ["knight", "knight", "light_cavalry", "light_cavalry", "knight", "light_cavalry"]  # 6 a side
FOOT_TYPES = ["man_at_arms"] * 3 + ["spearman"] * 3 + ["pikeman", "archer", "archer", "crossbowman"]  # 10 a side


# --- placing riders --------------------------------------------------------------------------
class RiderPlacer(Placer):
    """A :class:`Placer` that also places riders: a front hex and a facing whose two hexes are
    free and passable on horseback, not split by a hexside the horse cannot cross."""

    def __init__(self, gmap, seed: int):
        super().__init__(gmap, seed)
        self.rs = load_ruleset("magna-carta")

    def rider_ok(self, front: Hex, facing: int, ctype: str) -> bool:
        ct = self.rs.character_types[ctype]
        rear = front.neighbour(facing + 3)
        for h in (front, rear):
            if h in self.used or h not in self.gmap:
                return False
            if self.rs.terrain[self.gmap.terrain(h)].cost_for(True, ct.armour) == "impassable":
                return False
        side = self.gmap.hexside(front, rear)
        return not (side and self.rs.hexsides[side].crossing_for(True) == "impassable")

    def take_rider(self, front: Hex, facing: int) -> tuple[Hex, int]:
        self.take(front)
        self.take(front.neighbour(facing + 3))
        return front, facing

    def rider_near(self, centre: Hex, ctype: str, dmin: int, dmax: int) -> tuple[Hex, int]:
        cands = [(h, f) for d in range(dmin, dmax + 1) for h in centre.ring(d) for f in range(6)
                 if self.rider_ok(h, f, ctype)]
        return self.take_rider(*self.rng.choice(cands))

    def rider_in_box(self, cols: range, rows: range, ctype: str) -> tuple[Hex, int]:
        cands = [(Hex.from_offset(c, r), f) for c in cols for r in rows for f in range(6)]
        cands = [(h, f) for h, f in cands if self.rider_ok(h, f, ctype)]
        return self.take_rider(*self.rng.choice(cands))

    def rider_closest(self, h: Hex, ctype: str, facing: int) -> tuple[Hex, int]:
        for d in range(0, 40):
            for x in sorted(h.ring(d)):
                if self.rider_ok(x, facing, ctype):
                    return self.take_rider(x, facing)
        raise AssertionError("map full")


def rider(cid: str, ctype: str, side: str, pos: tuple[Hex, int]) -> dict:
    front, facing = pos
    return {"id": cid, "name": cid, "type": ctype, "side": side, "hex": front.label, "facing": DIRECTION_NAMES[facing]}


def foot(cid: str, ctype: str, side: str, h: Hex) -> dict:
    return {"id": cid, "name": cid, "type": ctype, "side": side, "hex": h.label}


# --- positions ---------------------------------------------------------------------------------
def lone_rider(ctype: str, seed: int = 7):
    """One rider of side A facing NE near the centre, 10 enemies 2–7 hexes away, 6 friends."""
    gmap = four_board_map()
    pl = RiderPlacer(gmap, seed)
    centre = pl.rider_closest(Hex.from_offset(20, 13), ctype, 1)
    chars = [rider("mover", ctype, "A", centre)]
    for i in range(10):
        t = ENEMY_TYPES[i % len(ENEMY_TYPES)]
        chars.append(foot(f"enemy{i:02d}", t, "B", pl.near(centre[0], t, 2, 7)))
    for i in range(6):
        t = FRIEND_TYPES[i % len(FRIEND_TYPES)]
        chars.append(foot(f"friend{i:02d}", t, "A", pl.near(centre[0], t, 2, 6)))
    st = build_state(scenario_dict(chars))
    st.step, st.active = MOVEMENT, "A"
    return st, st.characters["mover"]


def armies(seed: int = 5):
    """6 riders + 10 foot a side: side A in columns 8–17, side B in columns 22–31, the two foot
    lines 4–8 hexes apart (threats between them), the riders mixed in."""
    gmap = four_board_map()
    pl = RiderPlacer(gmap, seed)
    chars = []
    for side, foot_cols, rider_cols, facing in (("A", range(14, 18), range(8, 14), 1),
                                                ("B", range(22, 26), range(26, 32), 4)):
        for k, t in enumerate(FOOT_TYPES):
            chars.append(foot(f"{side.lower()}_foot{k:02d}", t, side, pl.in_box(foot_cols, range(3, 25), t)))
        for k, t in enumerate(RIDER_TYPES):
            cands = [(Hex.from_offset(c, r), facing) for c in rider_cols for r in range(2, 26)]
            cands = [(h, f) for h, f in cands if pl.rider_ok(h, f, t)]
            chars.append(rider(f"{side.lower()}_rider{k}", t, side, pl.take_rider(*pl.rng.choice(cands))))
    st = build_state(scenario_dict(chars))
    st.step, st.active = MOVEMENT, "A"
    return st


def longest_move(st, c) -> Move:
    """The rider's legal move with the most steps (ties: the costliest, then the first)."""
    res = riding.reachable(st, c, points_left(st, c))
    (_, _), (cost, path) = max(sorted(res.items()), key=lambda kv: (len(kv[1][1]), kv[1][0]))
    return Move(c.id, tuple(h.label for h in path))


# --- main --------------------------------------------------------------------------------------
def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    n = 5 if args.quick else 100
    cap = 0.5 if args.quick else 4.0  # seconds per row at most (once 5 runs are in)
    warm = 1 if args.quick else 3
    n_games = 2 if args.quick else 10
    banner("riders: riding.reachable, legal_actions (movement), explain(Move), the-ford playouts")

    # 1. riding.reachable
    kn, kc = lone_rider("knight")
    lc, lcc = lone_rider("light_cavalry")
    empty, ec = emptied(lc)
    print(f"1. riding.reachable on the 4-board map; knight at {kc.hex.label} facing {DIRECTION_NAMES[kc.facing]}, "
          f"light cavalry at {lcc.hex.label} facing {DIRECTION_NAMES[lcc.facing]}; 10 enemies, 6 friends; "
          f"threatened hexes: {len(threatened_hexes(kn, kc))} / {len(threatened_hexes(lc, lcc))}")
    cases = [("knight, own PM", kn, kc, points_left(kn, kc)),
             ("light cavalry, own PM", lc, lcc, points_left(lc, lcc)),
             ("light cavalry, budget 20", lc, lcc, 20),
             ("light cavalry, budget 30", lc, lcc, 30),
             ("light cavalry, own PM, empty board", empty, ec, points_left(empty, ec))]
    rows = []
    for name, st, c, budget in cases:
        res = riding.reachable(st, c, budget)
        fronts = len({f for f, _ in res})
        s = summary(measure(lambda: riding.reachable(st, c, budget), n, warmup=warm, max_seconds=cap))
        rows.append([name, budget, len(res), fronts, s["n"], ms(s["p50"]), ms(s["p95"]), ms(s["max"]),
                     f"{s['p50'] / max(1, len(res)) * 1e6:.1f}"])
    print(table(["case", "PM", "states", "fronts", "runs", "p50 ms", "p95 ms", "max ms", "us/state"], rows))
    print()

    # 2. legal_actions, movement step, 6 riders + 10 foot a side
    big = armies()
    rows = []
    for side in ("A", "B"):
        st = big.clone()
        st.step, st.active = MOVEMENT, side
        acts = legal_actions(st)
        kinds = Counter(a.type for a in acts)
        s = summary(measure(lambda: legal_actions(st), 3 if args.quick else 25, warmup=0, max_seconds=cap))
        rows.append(["6 riders + 10 foot", side, len(acts), " ".join(f"{k}:{v}" for k, v in sorted(kinds.items())),
                     s["n"], ms(s["p50"]), ms(s["p95"]), ms(s["max"])])
    print("2. legal_actions in the movement step, 4-board map, 6 riders + 10 foot a side")
    print(table(["position", "side", "actions", "by type", "runs", "p50 ms", "p95 ms", "max ms"], rows,
                align="llrlrrrr"))
    print()

    # 3. explain(Move) of the longest move
    rows = []
    for name, st, c in (("knight (lone)", kn, kc), ("light cavalry (lone)", lc, lcc),
                        ("knight (armies)", big, big.characters["a_rider0"]),
                        ("light cavalry (armies)", big, big.characters["a_rider2"])):
        mv = longest_move(st, c)
        r = explain(st, mv)
        assert r.legal, r
        tests = sum(1 for x in r.steps if "infiltration test" in x.text)
        s = summary(measure(lambda: explain(st, mv), n * 2, warmup=warm, max_seconds=cap))
        rows.append([name, len(mv.path), r.data["cost"], len(r.steps), tests, s["n"], ms(s["p50"]), ms(s["p95"]),
                     ms(s["max"])])
    print("3. explain(Move) for the rider's longest legal move (most steps)")
    print(table(["rider", "steps", "PM", "ruling lines", "infiltration tests", "runs", "p50 ms", "p95 ms", "max ms"],
                rows))
    print()

    # 4. the-ford playouts
    timed = Timed(RULESET.legal_actions)  # the adapter's (state, side), as RandomPlayer calls it
    RULESET.legal_actions = timed  # RandomPlayer.choose calls ruleset.legal_actions(state)
    try:
        scenario, gmap = load_scenario("the-ford")
        if not args.quick:
            play(scenario, gmap, 10_000, timed)  # warm-up
        games = [play(scenario, gmap, seed, timed) for seed in range(1, n_games + 1)]
    finally:
        del RULESET.legal_actions  # back to the class's method
    tot = sum(g["total"] for g in games)
    acts = sum(g["actions"] for g in games)
    la, app = sum(g["legal"] for g in games), sum(g["apply"] for g in games)
    res = Counter(g["winner"] for g in games)
    s = summary([g["total"] for g in games])
    print(f"4. random playouts of the-ford, RandomPlayer v RandomPlayer, seeds 1..{n_games} "
          f"(limit {LIMIT} actions a game)")
    print(table(["scenario", "games", "actions", "acts/game", "games/s", "acts/s", "ms/act", "legal %", "apply %",
                 "game p50 ms", "game p95 ms", "results"],
                [["the-ford", len(games), acts, f"{acts / len(games):.1f}", f"{len(games) / tot:.2f}",
                  f"{acts / tot:.0f}", ms(tot / acts), f"{100 * la / tot:.1f}%", f"{100 * app / tot:.1f}%",
                  ms(s["p50"]), ms(s["p95"]), " ".join(f"{k}:{v}" for k, v in sorted(res.items()))]],
                align="lrrrrrrrrrrl"))
    print()

    # 5. the web view's options and a rider's fetched moves (rulesets/magna_carta/web_options.py)
    import json
    from oriflamme.rulesets.magna_carta.engine.record import Game
    from oriflamme.rulesets.magna_carta.web_options import moves as web_moves, options
    rows = []
    for sid in ("the-hill", "hamlet-raid", "the-ford"):
        sc, gm = load_scenario(sid)
        g = Game(sc, gm, 1)
        while g.state.step != MOVEMENT:
            g.apply(next(a for a in legal_actions(g.state) if a.type == "end_step"))
        st = g.state
        s_opt = summary(measure(lambda: options(st), 3 if args.quick else 15, warmup=1, max_seconds=cap))
        o = options(st)
        riders = [cid for cid in o["reach"] if st.characters[cid].mounted]
        fetched = [web_moves(st, cid) for cid in riders]
        s_mv = summary(measure(lambda: web_moves(st, riders[0]), 3 if args.quick else 15, warmup=1,
                               max_seconds=cap)) if riders else None
        rows.append([sid, ms(s_opt["p50"]), f"{len(json.dumps(o)) / 1024:.0f}",
                     sum(len(v) for v in o["moves"].values()), len(riders),
                     f"{sum(len(json.dumps(f)) for f in fetched) / 1024:.0f}" if riders else "-",
                     ms(s_mv["p50"]) if s_mv else "-"])
    print("5. web options in the first movement step (the view sent after each action), and the rider")
    print("   lists fetched on selection (GET /moves/{char})")
    print(table(["scenario", "options p50 ms", "options KB", "inline moves", "riders", "all riders' lists KB",
                 "one rider's list p50 ms"], rows, align="lrrrrrr"))


if __name__ == "__main__":
    main()
