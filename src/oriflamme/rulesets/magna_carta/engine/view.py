"""Per-side views: what a side may see, as JSON. Never mutates the state.

The Magna Carta has no hidden information, so both sides see the same board; the filtering
point exists here (and only here) for rulesets that hide things (Les Guerres Fleuries' orders).
"""

from __future__ import annotations

from functools import lru_cache

from ..rulesdata import load_ruleset
from .state import GameState
from .game import legal_actions
from .movement import points_left
from .camels import mount_of
from .victory import tracker


@lru_cache(maxsize=None)
def _sequence_json(ruleset_id: str) -> dict:
    """The phase bar of the ruleset (data/sequence.toml): built once, shared (read-only)."""
    return load_ruleset(ruleset_id).sequence.to_json()


def view(state: GameState, side: str | None) -> dict:
    chars = []
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        d = {
            "id": c.id, "name": c.name, "side": c.side, "type": c.type,
            "hex": c.hex.label if c.hex else None, "status": c.status,
            "attack": c.current_attack, "defence": c.current_defence, "movement": c.current_movement,
            "armour": c.armour, "mounted": c.mounted, "weapon": c.weapon,
        }
        if c.mounted and c.hex is not None:
            d["rear"], d["facing"] = c.rear.label, c.facing
            # what his counter shows: a horse or a camel (§4.6.1), kneeling or standing (§4.6.4)
            d["mount"] = mount_of(state, c)
            if c.id in state.camels.kneeling:
                d["kneeling"] = True
        if c.ransom:  # §6.9: prisoner, escaped or captured (engine/ransom.py)
            d["ransom"] = c.ransom
            d["escort"] = list(c.escort)
        if c.side == state.active and state.step == "movement":
            d["points_left"] = points_left(state, c)
        chars.append(d)
    out = {
        "scenario": state.scenario["id"], "ruleset": state.ruleset_id,
        "turn": state.turn, "last_turn": state.last_turn, "active": state.active, "step": state.step,
        # the sequence of play (§2.1): the steps in order with their titles and citations
        "sequence": _sequence_json(state.ruleset_id),
        "weather": state.weather, "to_act": state.to_act(), "over": state.over, "winner": state.winner,
        "result": state.result_text, "characters": chars,
        "horses": [{"id": h.id, "hexes": [x.label for x in h.hexes], "facing": h.facing, "side": h.side, "alive": h.alive, "kind": h.kind,
                    "led_by": h.led_by, "kneeling": h.kneeling, "passenger": h.passenger, "harnessed_to": h.harnessed_to}
                   for h in sorted(state.riders.horses.values(), key=lambda h: h.id)],
        # carts (§4.5): both hexes, the harnessed animal, moving or not (engine/carts.py)
        "carts": [{"id": x.id, "hexes": [x.front.label, x.rear.label], "facing": x.facing, "animal": x.animal,
                   "moving": x.moving} for x in sorted(state.carts.carts.values(), key=lambda x: x.id)],
        "pending": [p.to_json() for p in state.pending],
        # bodies that are not characters (dead horses, §4.2.2), hex by hex
        "carcasses": [{"hex": h.label, **kinds} for h, kinds in sorted(state.bodies.carcasses.items(), key=lambda x: x[0].label)],
        "log": state.log,
        # the scenario's victory conditions and where they stand (engine/victory.py)
        "victory": tracker(state),
    }
    if side is not None and side == state.to_act():
        out["legal_actions"] = [a.to_json() for a in legal_actions(state)]
    return out
