"""Setting up a game from a validated scenario (pure: the scenario is already parsed)."""

from __future__ import annotations

from ....core.dice import Dice
from ....geometry.hexgrid import DIRECTION_NAMES, Hex
from ..maps import GameMap
from ..rulesdata import load_ruleset
from . import turn
from .hooks import load_edition_code
from .character import Character
from .state import GameState, Horse
from .carts import place
from .game import settle


def new_game(scenario: dict, gmap: GameMap, seed) -> GameState:
    """``seed``: the game's dice (:class:`~oriflamme.core.dice.Dice`), or a seed for new dice."""
    rs = load_ruleset(scenario["ruleset"])
    load_edition_code(rs.id)  # an edition's hook overrides, before its first game runs
    chars: dict[str, Character] = {}
    for spec in scenario["character"]:
        ct = rs.character_types[spec["type"]]
        c = Character(
            id=spec["id"], name=spec["name"], side=spec["side"], type=ct.id,
            attack=spec["attack"] if spec.get("attack") is not None else ct.attack,
            defence=spec["defence"] if spec.get("defence") is not None else ct.defence,
            movement=ct.movement,
            wounded_attack=ct.wounded_attack, wounded_defence=ct.wounded_defence,
            wounded_movement=ct.wounded_movement, stunned_defence=ct.stunned_defence,
            armour=ct.armour if spec.get("armour") is None else spec["armour"],
            mounted=ct.mounted,
            weapon=spec.get("weapon") or ct.weapon,
            polearm=ct.polearm if spec.get("polearm") is None else spec["polearm"],
            knight=ct.knight,
            status=spec.get("status", "healthy"),
            hex=Hex.from_label(spec["hex"]),
            facing=DIRECTION_NAMES.index(spec.get("facing") or "N"),
            horse_type=ct.id if ct.mounted else None,
            foot_type=ct.dismounted if ct.mounted else None,
            used_to_camels=ct.used_to_camels if spec.get("used_to_camels") is None else spec["used_to_camels"],
            nationality=spec.get("nationality"),
        )
        chars[c.id] = c
    sides = [s["id"] for s in scenario["side"]]
    first = scenario.get("first") or sides[0]
    if first != sides[0]:
        sides = [first] + [s for s in sides if s != first]
    state = GameState(
        ruleset_id=rs.id, scenario=scenario, gmap=gmap, characters=chars, sides=sides,
        dice=seed if hasattr(seed, "roll") else Dice(seed), weather=rs.find_weather(scenario.get("weather", "clear")).id,
        turn=1, last_turn=scenario["turns"], active=sides[0],
    )
    for a in scenario.get("animals") or ():  # riderless horses and camels (§4.4.4, §4.6.1)
        horse = Horse(a["id"], Hex.from_label(a["hex"]), DIRECTION_NAMES.index(a.get("facing") or "N"), a.get("side"),
                      kind=a["kind"], passenger=a.get("passenger"))
        if horse.passenger:
            chars[horse.passenger].hex = None  # in the litter (engine/kneeling.py)
        state.riders.horses[horse.id] = horse
    if scenario.get("map", {}).get("carts"):  # carts and their animals (§4.5, engine/carts.py)
        place(state, scenario["map"]["carts"])
    turn.begin_phase(state)
    settle(state)
    return state
