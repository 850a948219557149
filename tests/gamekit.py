"""Small cited test scenarios: an inline board, a few characters, scripted dice."""

from __future__ import annotations

from oriflamme.core.dice import Dice
from oriflamme.rulesets.magna_carta.engine import new_game
from oriflamme.rulesets.magna_carta.engine.state import GameState
from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.magna_carta.maps import Placement, compose, parse_board

LEGEND = """legend:
  . clear
  b brush
  T tree
  / slope
  m marsh
  r rock
  ~ shallows
  = deep_shallows
  w water
  H building
"""


def board(rows: list[str], hexsides: str = "", elevation: list[str] | None = None, ruleset: str | None = None):
    text = "board: test\n" + LEGEND + "terrain:\n" + "\n".join("  " + r for r in rows) + "\n"
    if elevation:
        text += "elevation:\n" + "\n".join("  " + r for r in elevation) + "\n"
    if hexsides:
        text += "hexsides:\n" + "\n".join("  " + h for h in hexsides.strip().splitlines()) + "\n"
    return compose([Placement(parse_board(text, "test.board", ruleset or RULESET), 0, 0)])


#: the ruleset of the games :func:`game` makes (tests/editions re-run shared rules tests under an
#: edition by changing it)
RULESET = "magna-carta"


class ScriptedDice(Dice):
    """Dice that show the given values in order (then fail loudly)."""

    def __init__(self, values):
        super().__init__(seed=0)
        self.values = list(values)

    def roll(self, sides: int = 10) -> int:
        if not self.values:
            raise AssertionError("the test rolled more dice than scripted")
        self.count += 1
        return self.values.pop(0)

    def __deepcopy__(self, memo):  # a test's scripted dice survive a clone (the game's are sealed)
        other = ScriptedDice(self.values)
        other.count = self.count
        return other

    __copy__ = lambda self: self.__deepcopy__({})  # noqa: E731


def game(rows: list[str], chars: list[tuple], *, hexsides: str = "", elevation=None, weather: str = "clear",
         turns: int = 5, dice=None, victory: dict | None = None, step: str | None = None,
         ruleset: str | None = None) -> GameState:
    """``chars``: (id, type, side, hex[, overrides dict])."""
    gmap = board(rows, hexsides, elevation, ruleset or RULESET)
    scenario = {
        "id": "test", "name": "test", "ruleset": ruleset or RULESET, "turns": turns, "weather": weather, "first": "A",
        "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "character": [dict({"id": c[0], "name": c[0].capitalize(), "type": c[1], "side": c[2], "hex": c[3]},
                           **(c[4] if len(c) > 4 else {})) for c in chars],
        "victory": victory or {"rout_fraction": 1.0, "objectives": [], "otherwise": "draw"},
        "map": {"boards": [{"board": "test"}]},
    }
    st = new_game(scenario, gmap, seed=1)
    if dice is not None:
        st.dice = ScriptedDice(dice)
    if step is not None:
        st.step = step
    return st


def H(label: str) -> Hex:
    return Hex.from_label(label)


def fork(state: GameState) -> GameState:
    """A copy of ``state`` that can still roll the same dice as the original (tests only).

    ``state.clone()`` seals its dice (a copy holds no future rolls, :mod:`oriflamme.core.dice`);
    a test that explores "what if" on a copy rebinds dice of the same seed and count."""
    other = state.clone()
    d = state.dice
    if isinstance(d, ScriptedDice):
        other.dice = d.__deepcopy__({})
    elif isinstance(d, Dice):
        other.dice = Dice(d.seed, d.count)
    return other
