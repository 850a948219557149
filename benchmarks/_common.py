"""Shared helpers of the benchmark scripts: timing, percentiles, tables, the 4-board map and
the synthetic scenarios built on it. Not a benchmark itself (the leading underscore).

Everything is deterministic: positions come from seeded ``random.Random`` instances, so two
runs measure the same states.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run from a checkout without installing (the venv has it anyway)
    sys.path.insert(0, str(ROOT / "src"))

from oriflamme.rulesets.magna_carta.engine import new_game  # noqa: E402
from oriflamme.rulesets.magna_carta.engine.state import GameState  # noqa: E402
from oriflamme.geometry.hexgrid import Hex  # noqa: E402
from oriflamme.rulesets.magna_carta.maps import GameMap  # noqa: E402
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset  # noqa: E402
from oriflamme.rulesets.magna_carta.scenario import validate_scenario  # noqa: E402

perf = time.perf_counter

#: The 2×2 map of the benchmarks: 40 columns × 28 rows = 1120 hexes.
FOUR_BOARDS = {
    "name": "Four boards (benchmark)",
    "boards": [
        {"board": "open-country", "col": 0, "row": 0},
        {"board": "hamlet", "col": 20, "row": 0},
        {"board": "hamlet", "col": 0, "row": 14, "rotation": 180},
        {"board": "open-country", "col": 20, "row": 14, "rotation": 180},
    ],
}


# --- command line ------------------------------------------------------------------------------
def parse_args(description: str) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run of a few seconds)")
    return ap.parse_args()


def banner(title: str) -> None:
    print(f"== {title} ==")
    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, nproc={os.cpu_count()}, load {os.getloadavg()[0]:.2f}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")


# --- timing ------------------------------------------------------------------------------------
def measure(fn: Callable[[], object], n: int, warmup: int = 3, max_seconds: float | None = None) -> list[float]:
    """Call ``fn`` ``warmup`` times untimed, then up to ``n`` times timed (stopping early after
    ``max_seconds`` once at least 5 samples are in). Returns the durations in seconds."""
    for _ in range(warmup):
        fn()
    out: list[float] = []
    t_end = perf() + max_seconds if max_seconds else None
    for _ in range(n):
        t0 = perf()
        fn()
        out.append(perf() - t0)
        if t_end is not None and len(out) >= 5 and perf() > t_end:
            break
    return out


def percentile(xs: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sample."""
    s = sorted(xs)
    if not s:
        return float("nan")
    k = max(0, min(len(s) - 1, int(round(p / 100 * len(s) + 0.5)) - 1))
    return s[k]


def summary(xs: Sequence[float]) -> dict[str, float]:
    return {"n": len(xs), "p50": statistics.median(xs) if xs else float("nan"),
            "p95": percentile(xs, 95), "max": max(xs) if xs else float("nan"),
            "mean": statistics.fmean(xs) if xs else float("nan")}


def ms(x: float) -> str:
    if x != x:  # nan
        return "-"
    v = x * 1000
    return f"{v:.3f}" if v < 1 else (f"{v:.2f}" if v < 100 else f"{v:.0f}")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], align: str | None = None) -> str:
    """A plain-text table; ``align`` is a string of 'l'/'r' per column (default: first column
    left, the others right)."""
    rows = [[str(x) for x in r] for r in rows]
    align = align or ("l" + "r" * (len(headers) - 1))
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)).rstrip()

    out = [line([str(h) for h in headers]), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


# --- scenarios on the 4-board map ----------------------------------------------------------------
def label(col0: int, row0: int) -> str:
    """Map label of a 0-based column/row."""
    return Hex.from_offset(col0, row0).label


def can_stand(gmap: GameMap, h: Hex, ctype: str) -> bool:
    rs = load_ruleset("magna-carta")
    ct = rs.character_types[ctype]
    return h in gmap and rs.terrain[gmap.terrain(h)].cost_for(False, ct.armour) != "impassable"


def scenario_dict(chars: list[dict], map_spec: dict = FOUR_BOARDS, *, weather: str = "clear",
                  turns: int = 10, sid: str = "bench") -> dict:
    """A raw scenario (like tests/gamekit.py builds); validate it with :func:`build_state`."""
    return {
        "id": sid, "name": sid, "ruleset": "magna-carta", "turns": turns, "weather": weather, "first": "A",
        "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "character": chars,
        "victory": {"rout_fraction": 1.0, "objectives": [], "otherwise": "draw"},
        "map": map_spec,
    }


def build_state(raw: dict, seed: int = 1) -> GameState:
    data, gmap = validate_scenario(raw, "benchmark")
    return new_game(data, gmap, seed)


def char(cid: str, ctype: str, side: str, h: Hex | str) -> dict:
    return {"id": cid, "name": cid, "type": ctype, "side": side, "hex": h if isinstance(h, str) else h.label}


class Placer:
    """Hands out free hexes a character of a given type may stand in."""

    def __init__(self, gmap: GameMap, seed: int):
        self.gmap = gmap
        self.rng = random.Random(seed)
        self.used: set[Hex] = set()

    def take(self, h: Hex) -> Hex:
        assert h not in self.used, h
        self.used.add(h)
        return h

    def ok(self, h: Hex, ctype: str) -> bool:
        return h not in self.used and can_stand(self.gmap, h, ctype)

    def near(self, centre: Hex, ctype: str, dmin: int, dmax: int) -> Hex:
        """A random free hex at distance dmin..dmax of ``centre``."""
        cands = [h for d in range(dmin, dmax + 1) for h in centre.ring(d) if self.ok(h, ctype)]
        return self.take(self.rng.choice(cands))

    def in_box(self, cols: range, rows: range, ctype: str) -> Hex:
        cands = [Hex.from_offset(c, r) for c in cols for r in rows]
        cands = [h for h in cands if self.ok(h, ctype)]
        return self.take(self.rng.choice(cands))

    def closest(self, h: Hex, ctype: str) -> Hex:
        for d in range(0, 40):
            for x in sorted(h.ring(d)):
                if self.ok(x, ctype):
                    return self.take(x)
        raise AssertionError("map full")


def four_board_map() -> GameMap:
    return validate_scenario(scenario_dict([char("a", "spearman", "A", "0101"), char("b", "spearman", "B", "0103")]),
                             "benchmark")[1]
