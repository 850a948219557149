"""Timings of the tabletop geometry on a Guerres Fleuries table (issue 13): footprints, contact,
arcs, lines of sight and terrain move costs, with 2 × N units on the bundled valley-of-flowers.

    .venv/bin/python benchmarks/bench_gf_geometry.py [--quick] [--units N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from oriflamme.geometry.tabletop import Pose, arc_of, footprint, in_contact, line_of_sight, moved  # noqa: E402
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import load_battlefield, unit_obstacle  # noqa: E402
from oriflamme.rulesets.guerres_fleuries.battle.terrain import MoverProfile, move_cost  # noqa: E402
from shapely.geometry import LineString  # noqa: E402


def timed(label, n, fn):
    t = time.perf_counter()
    for i in range(n):
        fn(i)
    dt = time.perf_counter() - t
    print(f"{label:<44} {n:>7} calls  {dt / n * 1e6:>9.1f} µs/call")
    return dt / n


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--units", type=int, default=20, help="units per side")
    args = ap.parse_args(argv)
    rng = random.Random(1)
    bf = load_battlefield("valley-of-flowers")
    terrain_obstacles = bf.obstacles()
    poses = {}
    for side, (y0, y1, h) in {"A": (75, 115, 0), "B": (5, 45, 180)}.items():
        for i in range(args.units):
            poses[f"{side}{i}"] = Pose(rng.uniform(15, 165), rng.uniform(y0, y1), h + rng.uniform(-30, 30))
    size = {uid: (rng.choice([10, 12.5, 20, 25]), rng.choice([2.5, 5, 7.5])) for uid in poses}
    fps = {uid: footprint(p, *size[uid]) for uid, p in poses.items()}
    ids = list(poses)
    pairs = [(a, b) for a in ids if a.startswith("A") for b in ids if b.startswith("B")]
    scale = 1 if args.quick else 5
    print(f"{len(ids)} units, {len(terrain_obstacles)} terrain obstacles, {len(pairs)} A–B pairs")
    timed("footprint", 2000 * scale, lambda i: footprint(poses[ids[i % len(ids)]], 20, 5))
    timed("moved", 5000 * scale, lambda i: moved(poses[ids[i % len(ids)]], 10, 45))
    timed("in_contact (0.5 cm)", 2000 * scale, lambda i: in_contact(fps[pairs[i % len(pairs)][0]], fps[pairs[i % len(pairs)][1]], 0.5))
    timed("arc_of", 2000 * scale, lambda i: arc_of(poses[pairs[i % len(pairs)][0]], *size[pairs[i % len(pairs)][0]], fps[pairs[i % len(pairs)][1]]))

    def los(i, with_units):
        a, b = pairs[i % len(pairs)]
        obs = list(terrain_obstacles)
        if with_units:
            obs += [unit_obstacle(u, fps[u]) for u in ids if u not in (a, b)]
        return line_of_sight(fps[a], fps[b], obs)

    per = timed("line_of_sight (terrain only)", 200 * scale, lambda i: los(i, False))
    per_u = timed(f"line_of_sight (terrain + {len(ids) - 2} units)", 50 * scale, lambda i: los(i, True))
    visible = sum(los(i, True).visible for i in range(len(pairs)))
    print(f"  all {len(pairs)} A–B pairs with units as screens: ~{per_u * len(pairs):.2f} s; {visible} visible")
    path = [LineString([(p.x, p.y), (moved(p, 30).x, moved(p, 30).y)]) for p in poses.values()]
    timed("move_cost (30 cm path)", 200 * scale, lambda i: move_cost(path[i % len(path)], MoverProfile("homme", 20), bf))
    return per


if __name__ == "__main__":
    main()
