"""Benchmark: the chance children of the Magna Carta family's rarer rolls (issue 14) — a grab at
the bridle (§4.4.4), a knight's plea for quarter (§6.9, then the melee if he fights on), a shot and
an attack at a riderless horse (§6.8) — in the constructed positions of their tests
(``tests/test_chance_by_result_rare.py``).

For each: the children the search gets (one per sequence of results, ``Ruling.faces`` read through
``core.dice.roll_keyed``), the sequences of faces an enumeration face by face applies, and the
time of ``Ruleset.chance_children`` (mean of ``--repeat`` calls).

Run: ``.venv/bin/python benchmarks/bench_rare_chance.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from gamekit import H, game  # noqa: E402
from test_bridle_grab import OPEN, RIDE, grab_game  # noqa: E402
from test_ransom import ATTACK, knights  # noqa: E402

from oriflamme.core import registry  # noqa: E402
from oriflamme.core.dice import FixedDice  # noqa: E402
from oriflamme.core.errors import DiceSealed  # noqa: E402
from oriflamme.rulesets.magna_carta.engine.actions import AskQuarter, AttackHorse, FireAtHorse, Grab, Move  # noqa: E402
from oriflamme.rulesets.magna_carta.engine.game import apply  # noqa: E402
from oriflamme.rulesets.magna_carta.engine.state import Horse  # noqa: E402

RS = registry.get("magna-carta")


def grab():
    st = grab_game()
    apply(st, Move("k", RIDE))
    return st, Grab("k", "h")


def quarter():
    st = knights()
    apply(st, ATTACK)
    return st, AskQuarter("dreux")


def fire_at_horse():
    st = game(OPEN, [("x", "crossbowman", "B", "0611"), ("a", "spearman", "A", "0605")], step="offensive_fire")
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0606"), 0, None)
    return st, FireAtHorse("x", "h")


def attack_horse():
    st = game(OPEN, [("e", "spearman", "B", "0608"), ("z", "spearman", "A", "1212")], step="melee")
    st.active = "B"
    st.riders.horses["h"] = Horse("h", H("0607"), 0, None)
    return st, AttackHorse(("e",), "h")


def face_sequences(state, action, max_dice: int = 3) -> int:
    """The sequences of faces an enumeration face by face applies."""
    frontier, leaves = [()], 0
    while frontier:
        prefix = frontier.pop()
        trial = RS.clone(state)
        trial.dice = FixedDice(prefix, trial.dice.count)
        try:
            RS.apply_unchecked(trial, action)
        except DiceSealed:
            if len(prefix) < max_dice:
                frontier.extend(prefix + (d,) for d in range(1, RS.die_sides + 1))
            continue
        leaves += 1
    return leaves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    print(f"{'roll':<16} {'children':>8} {'faces':>6} {'ms':>7}")
    for name, make in (("grab", grab), ("quarter", quarter), ("fire at horse", fire_at_horse),
                       ("attack horse", attack_horse)):
        state, action = make()
        t = time.perf_counter()
        for _ in range(args.repeat):
            kids = RS.chance_children(state, action)
        dt = (time.perf_counter() - t) / args.repeat
        print(f"{name:<16} {len(kids):>8} {face_sequences(state, action):>6} {dt * 1000:>7.1f}")


if __name__ == "__main__":
    main()
