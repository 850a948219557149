"""Zero-behaviour-change check for the Magna Carta engine: seeded random games on every bundled
scenario, each action list and final ``state.digest()`` compared with a saved reference.

For seeds 1..6 of each bundled scenario, ``random.Random(seed)`` picks among ``legal_actions``
(at most 300 actions per game); the game is driven through
:class:`oriflamme.rulesets.magna_carta.engine.record.Game` with the same seed for its dice.
The ruling of every chosen action (``explain``) is hashed in too, so a refactoring of the
checks and explanations is covered as well as the effects.

    python benchmarks/engine_reference.py --record   # write benchmarks/data/engine_reference.json
    python benchmarks/engine_reference.py            # compare with it (exit 1 on a difference)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from oriflamme.rulesets.magna_carta.engine import explain, legal_actions  # noqa: E402
from oriflamme.rulesets.magna_carta.engine.record import Game  # noqa: E402
from oriflamme.rulesets.magna_carta.scenario import load_scenario  # noqa: E402

REFERENCE = ROOT / "benchmarks" / "data" / "engine_reference.json"
SCENARIOS = ("the-hill", "hamlet-raid", "the-ford", "the-caravan", "the-hay-cart")
SEEDS = range(1, 7)
CAP = 300


def play(scenario_id: str, seed: int) -> dict:
    data, gmap = load_scenario(scenario_id)
    game = Game(data, gmap, seed)
    rng = random.Random(seed)
    actions: list = []
    rulings = hashlib.sha256()
    while not game.state.over and len(actions) < CAP:
        legal = legal_actions(game.state)
        if not legal:
            break
        action = rng.choice(legal)
        rulings.update(json.dumps(explain(game.state, action).to_json(), sort_keys=True, default=str).encode())
        actions.append(action.to_json())
        game.apply(action)
    return {"actions": actions, "digest": game.state.digest(), "rulings": rulings.hexdigest()}


def run() -> dict:
    return {f"{sid}/{seed}": play(sid, seed) for sid in SCENARIOS for seed in SEEDS}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write the reference instead of comparing")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    got = run()
    took = time.perf_counter() - t0
    if args.record:
        REFERENCE.parent.mkdir(parents=True, exist_ok=True)
        REFERENCE.write_text(json.dumps(got, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {len(got)} games, {sum(len(g['actions']) for g in got.values())} actions in {took:.1f} s")
        return 0
    want = json.loads(REFERENCE.read_text(encoding="utf-8"))
    bad = 0
    for key in sorted(want):
        w, g = want[key], got.get(key)
        if g != w:
            bad += 1
            if g is None:
                print(f"{key}: missing")
                continue
            n = next((i for i, (a, b) in enumerate(zip(w["actions"], g["actions"])) if a != b),
                     min(len(w["actions"]), len(g["actions"])))
            print(f"{key}: differs (first differing action #{n}; digest {'same' if w['digest'] == g['digest'] else 'differs'};"
                  f" rulings {'same' if w['rulings'] == g['rulings'] else 'differ'})")
    print(f"{len(want) - bad}/{len(want)} games identical ({sum(len(g['actions']) for g in got.values())} actions, {took:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
