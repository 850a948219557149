"""La Magna Carta v1.2 as a platform ruleset: the adapter between the core contract
(:class:`oriflamme.core.ruleset.Ruleset`) and this package's engine.

Registered through the entry point ``magna-carta`` (``pyproject.toml``). Everything the web
app, the CLI and the AI ask of Magna Carta goes through this class.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.ruleset import ChanceOutcome, Outcome, Ruleset, ScenarioInfo, SideInfo
from .maps import GameMap


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: its JSON (the copy a record carries) and its map."""
    data: dict
    gmap: GameMap

    @property
    def id(self) -> str:
        return self.data["id"]


class MagnaCarta(Ruleset):
    id = "magna-carta"
    title = "La Magna Carta v1.2 (standardized Cry Havoc)"
    title_fr = "La Magna Carta v1.2 (règles standardisées de Cry Havoc)"
    web_module = "magna-carta"
    die_sides = 10
    aliases = ("mc", "magna_carta", "magnacarta", "la-magna-carta")

    # --- scenarios ---------------------------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        """The bundled scenarios playable under this ruleset (an edition: its own, and the base's
        that declare it among their ``editions``)."""
        from .scenario import bundled_scenario_ids
        return bundled_scenario_ids(self.id)

    def load_scenario(self, name_or_path: str) -> Scenario:
        """A scenario played under this ruleset: refused unless it supports it (its ``editions``);
        its copy names this ruleset, so the game and its record follow this edition."""
        from .engine.errors import ScenarioError
        from .maps import MapError
        from .scenario import load_scenario
        try:
            return Scenario(*load_scenario(name_or_path, ruleset=self.id))
        except MapError as exc:  # a broken board: one line naming the file (adapters know only core errors)
            raise ScenarioError(str(exc)) from None

    def scenario_from_json(self, data, source: str = "<scenario>") -> Scenario:
        from .engine.errors import ScenarioError
        from .scenario import validate_scenario
        if not isinstance(data, dict):
            raise ScenarioError(f"{source}: a scenario must be a JSON object")
        rid = data.get("ruleset", "magna-carta")
        if rid not in (self.id, *self.aliases):
            raise ScenarioError(f"{source}: field ruleset: this is a game of {rid!r}; it cannot be played or "
                                f"replayed as {self.id!r} (each edition has its own rules: start a new game "
                                f"of the scenario under {self.id!r} instead)")
        from .maps import MapError
        try:
            return Scenario(*validate_scenario(data, source))
        except MapError as exc:
            raise ScenarioError(f"{source}: {exc}") from None

    def scenario_to_json(self, scenario: Scenario) -> dict:
        return scenario.data

    def scenario_id_of(self, scenario: Scenario) -> str:
        return scenario.data["id"]

    def sides(self, scenario: Scenario) -> list[SideInfo]:
        return [SideInfo(s["id"], s["name"], s.get("name_fr") or s["name"]) for s in scenario.data["side"]]

    def scenario_info(self, scenario_id: str) -> ScenarioInfo:
        sc = self.load_scenario(scenario_id)
        d, m = sc.data, sc.gmap
        return ScenarioInfo(
            id=scenario_id, name=d["name"], name_fr=d.get("name_fr") or d["name"],
            description=d.get("description", ""), description_fr=d.get("description_fr") or d.get("description", ""),
            sides=self.sides(sc),
            extra={"turns": d["turns"], "weather": d.get("weather", "clear"), "size": [m.width, m.height],
                   "victory": d.get("victory", {}).get("text", ""), "victory_fr": d.get("victory", {}).get("text_fr", ""),
                   "characters": len(d["character"])})

    # --- play --------------------------------------------------------------------------------
    def setup(self, scenario: Scenario, dice):
        from .engine.setup import new_game
        return new_game(scenario.data, scenario.gmap, dice)

    def to_act(self, state) -> str | None:
        return state.to_act()

    def legal_actions(self, state, side: str | None = None) -> list:
        from .engine.game import legal_actions
        if side is not None and side != state.to_act():
            return []
        return legal_actions(state)

    def choice_of(self, action_json: dict) -> str:
        """A move's route is the player's to choose (MC §4: any path his points pay for, the
        infiltration tests and defensive fire met on the way included): ``legal_actions``
        lists one route per place reached (the cheapest, crossing the fewest threatened hexes),
        and the choice is the character and the place he ends in. For a rider the place is his
        front hex; the facing is part of the route he gives."""
        if action_json.get("type") == "move" and isinstance(action_json.get("path"), list) and action_json["path"]:
            rest = {k: v for k, v in action_json.items() if k != "path"}
            return super().choice_of({**rest, "to": action_json["path"][-1]})
        if action_json.get("type") == "announce_charge" and isinstance(action_json.get("path"), list):
            # a charge (MC §7.6.1, an edition's announcements step): the rider and his target;
            # legal_actions lists one path per pair, apply checks any other by the same rules
            return super().choice_of({k: v for k, v in action_json.items() if k != "path"})
        return super().choice_of(action_json)

    def apply(self, state, action) -> list[dict]:
        from .engine.game import apply
        return apply(state, action)

    def apply_unchecked(self, state, action) -> list[dict]:
        from .engine.game import apply_unchecked
        return apply_unchecked(state, action)

    def explain(self, state, action) -> dict:
        from .engine.game import explain
        return explain(state, action).to_json()

    def chance_outcomes(self, state, action) -> list[ChanceOutcome]:
        """One outcome per sequence of *results* (:meth:`chance_children`), its dice one face
        of each result."""
        return [o for o, _ in self.chance_children(state, action)]

    def chance_children(self, state, action):
        """The action applied once per distinct result, not once per face: each roll of the
        engine tells which faces give the same result — the ruling's reading of the die, from
        the data tables (``Ruling.faces``: the fire and melee tables, the infiltration, jump
        and fear bands, the stray-shot hexes, an edition's damage table), passed on by
        :func:`oriflamme.core.dice.roll_keyed` — and the other rolls branch on every face
        (:func:`oriflamme.core.chance.enumerate_keyed_children`). The probabilities are exact
        (a result's faces summed). A child's log writes one face of its result (the smallest);
        the search reads the state, which is the same whichever face of the result was rolled
        (``tests/test_chance_by_result.py`` checks it against the enumeration face
        by face). Editions (Cry Havoc, Croisades) inherit it."""
        from ...core.chance import enumerate_keyed_children
        return enumerate_keyed_children(self, state, action)

    def outcome(self, state) -> Outcome:
        return Outcome(state.over, state.winner, state.result_text)

    # --- information -------------------------------------------------------------------------
    def view(self, state, side: str | None) -> dict:
        from .engine.view import view
        return view(state, side)

    def events(self, state) -> list[dict]:
        return state.log

    # --- codecs --------------------------------------------------------------------------------
    def action_from_json(self, data):
        from .engine.actions import Action
        return Action.from_json(data)

    def action_to_json(self, action) -> dict:
        return action.to_json()

    def state_to_json(self, state) -> dict:
        return state.to_json()

    def state_from_json(self, data: dict, scenario: Scenario):
        from .engine.hooks import load_edition_code
        from .engine.state import GameState
        load_edition_code(data.get("ruleset", self.id))
        return GameState.from_json(data, scenario.gmap)

    def clone(self, state):
        return state.clone()

    def digest(self, state) -> str:
        return state.digest()

    def legacy_digest(self, state, seed) -> str:
        return state.legacy_digest(seed)

    def recorded_event(self, event, index: int):
        """Records written before ``clear_bodies`` events kept their index in ``n`` carried
        the body count there (``n``), without ``count``: read as this release writes them."""
        if isinstance(event, dict) and event.get("type") == "clear_bodies" and "count" not in event and "n" in event:
            event = dict(event, count=event["n"], n=index)
        return event

    # --- UI ------------------------------------------------------------------------------------
    def describe_action(self, state, action, lang: str = "en") -> str:
        from .terminal_text import describe
        return describe(state, action, lang)

    def options(self, state, side: str | None) -> dict:
        from .web_options import options
        return options(state)

    def option_detail(self, state, key: str) -> dict:
        """One character's moves (riders' lists are fetched on selection); KeyError for an
        unknown character."""
        from .engine.memo import read_only
        from .web_options import moves
        with read_only(state):  # one search for the moves and their costs
            return {"char": key, "moves": moves(state, key)}

    # --- web UI hooks (see core.ruleset; the code is in web_options.py) ---------------------
    def seat_view(self, state, side: str | None, acting: bool) -> dict:
        """Magna Carta hides nothing (engine/view.py), so every seat's view is the public one:
        asking the engine for ``view(state, None)`` keeps it from listing the legal actions,
        which are computed once here, for the options (``engine.game.view_actions``: the
        legal actions with each rider's moves summed up by their costs, fetched on selection
        through :meth:`option_detail`)."""
        from .engine.memo import read_only
        from .engine.view import view
        from .web_options import decorate, options
        out = decorate(view(state, None), state)
        if acting:
            with read_only(state):  # the searches of the actions answer the options' costs too
                out["options"] = options(state)
        return out

    def frame(self, state, side: str | None) -> dict:
        from .web_options import frame
        return frame(state)

    def board(self, scenario: Scenario) -> dict:
        from .web_options import board
        return board(scenario.gmap, scenario.data.get("ruleset", self.id))

    def rules_sections(self) -> dict:
        from .web_options import rules_sections
        return rules_sections(self.id)

    def render_text(self, text: str, lang: str) -> str:
        from .web_options import render_text
        return render_text(text, lang)

    def name_sides(self, text: str, lang: str, sides) -> str:
        from .display import name_sides
        return name_sides(text, lang, sides)

    def render_events(self, events: list[dict], lang: str) -> list[dict]:
        from .web_options import render_events
        return render_events(events, lang)

    def render_ruling(self, ruling: dict, lang: str) -> dict:
        from .web_options import render_ruling
        return render_ruling(ruling, lang)

    def render_options(self, options: dict, lang: str) -> dict:
        from .web_options import render_options
        return render_options(options, lang)

    def rules_diff(self, other) -> dict | None:
        """Magna Carta and its editions, compared from their data (rules_diff.py)."""
        from .rules_diff import rules_diff
        from .rulesdata import ruleset_id
        try:
            ruleset_id(other.id)
        except KeyError:
            return None  # not of the Magna Carta family
        if getattr(other, "base", None) == self.id:
            return rules_diff(other.id, self.id)
        return rules_diff(self.id, other.id)

    def terminal(self):
        from . import terminal
        return terminal

    def is_pass(self, action) -> bool:
        return getattr(action, "type", None) == "end_step"

    def evaluate(self, state, side: str) -> float:
        """The computer players' evaluation (``evaluation.py``: material, rout, objectives,
        threats, the exposed wounded, formation, cover; weights in ``data/ai_evaluation.toml``)."""
        from .evaluation import evaluate
        return evaluate(state, side)

    def adjudicate(self, situation) -> dict:
        from ...core.errors import OriflammeError
        from .referee import SituationError, adjudicate_situation
        try:
            return adjudicate_situation(situation)
        except SituationError as exc:
            raise OriflammeError(exc.render()) from None
