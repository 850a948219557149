"""Les Guerres Fleuries on the platform.

Part 1 (issue 12) gives the referee (:mod:`.referee`) and the army builder; the battles on the
180 × 120 cm table come with part 2 (issue 13). Until then the ruleset has no bundled scenario:
the lobby lists it with none, and every play method refuses with that reason
(``docs/rules-coverage.md`` § Les Guerres Fleuries says so).
"""

from __future__ import annotations

from typing import Any

from oriflamme.core.errors import OriflammeError, ScenarioError
from oriflamme.core.ruleset import Ruleset, ScenarioInfo, SideInfo

from . import builder, referee

NO_BATTLES = ("Les Guerres Fleuries has no battles yet: part 1 gives the referee and the army "
              "builder; the table game comes with part 2 (docs/rules-coverage.md)")


class GuerresFleuries(Ruleset):
    id = "guerres-fleuries"
    title = "Les Guerres Fleuries"
    title_fr = "Les Guerres Fleuries"
    die_sides = 100
    aliases = ("gf", "guerres fleuries", "flower wars")
    #: the battle's browser module: static/module.js (gf-ui)
    web_module = "guerres-fleuries"

    # --- scenarios: none until part 2 -----------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        return []

    def scenario_info(self, scenario_id: str) -> ScenarioInfo:
        raise ScenarioError(f"scenario {scenario_id!r}: {NO_BATTLES}")

    def load_scenario(self, name_or_path: str) -> Any:
        raise ScenarioError(f"{name_or_path}: {NO_BATTLES}")

    def scenario_from_json(self, data: Any, source: str = "<scenario>") -> Any:
        raise ScenarioError(f"{source}: {NO_BATTLES}")

    def scenario_to_json(self, scenario: Any) -> dict:
        raise OriflammeError(NO_BATTLES)

    def sides(self, scenario: Any) -> list[SideInfo]:
        raise OriflammeError(NO_BATTLES)

    # --- play: refused until part 2 (no scenario can reach these) -------------------------------
    def setup(self, scenario: Any, dice) -> Any:
        raise OriflammeError(NO_BATTLES)

    def to_act(self, state) -> str | None:
        raise OriflammeError(NO_BATTLES)

    def legal_actions(self, state, side: str | None = None) -> list:
        raise OriflammeError(NO_BATTLES)

    def apply(self, state, action) -> list[dict]:
        raise OriflammeError(NO_BATTLES)

    def explain(self, state, action) -> dict:
        raise OriflammeError(NO_BATTLES)

    def outcome(self, state):
        raise OriflammeError(NO_BATTLES)

    def view(self, state, side: str | None) -> dict:
        raise OriflammeError(NO_BATTLES)

    def events(self, state) -> list[dict]:
        raise OriflammeError(NO_BATTLES)

    def action_from_json(self, data: Any) -> Any:
        raise OriflammeError(NO_BATTLES)

    def action_to_json(self, action) -> dict:
        raise OriflammeError(NO_BATTLES)

    def state_to_json(self, state) -> dict:
        raise OriflammeError(NO_BATTLES)

    def state_from_json(self, data: dict, scenario: Any) -> Any:
        raise OriflammeError(NO_BATTLES)

    def clone(self, state) -> Any:
        raise OriflammeError(NO_BATTLES)

    def digest(self, state) -> str:
        raise OriflammeError(NO_BATTLES)

    # --- a battle between two armies of the builder (the lobby's "A battle from two armies") ------
    def scenario_from_armies(self, armies: dict[str, dict], base: Any) -> Any:
        """``base``'s table and turns with ``armies`` (side -> army document) instead of its own,
        validated as any scenario (errors name the side and the field)."""
        doc = dict(self.scenario_to_json(base))
        sides = [s.id for s in self.sides(base)]
        if not isinstance(armies, dict) or sorted(armies) != sorted(sides):
            got = ", ".join(sorted(armies)) if isinstance(armies, dict) else type(armies).__name__
            raise ScenarioError(f"field armies: expected one army for each side ({', '.join(sides)}), got {got or 'none'}")
        for side, army in armies.items():
            if not isinstance(army, dict):
                raise ScenarioError(f"field armies.{side}: expected an army document (an object)")
        doc["armies"] = armies
        names = [str(armies[s].get("name") or s) for s in sides]
        doc["name"] = doc["name_fr"] = " — ".join(names)
        return self.scenario_from_json(doc, "armies")

    # --- the terminal front end (gf-ui: terminal.py) ---------------------------------------------
    def terminal(self):
        from . import terminal
        return terminal

    # --- the referee -----------------------------------------------------------------------------
    def adjudicate(self, situation: dict) -> dict:
        return referee.adjudicate(situation)

    # --- the army builder (core optional methods; docs/guerres-fleuries/army-builder.md) --------
    def army_catalog(self) -> dict | None:
        from . import army
        return army.catalog()

    def validate_army(self, doc: dict) -> dict:
        return builder.validate(doc)

    def army_sheet(self, doc: dict, lang: str = "en") -> str:
        from . import sheet
        return sheet.render(builder.normalized(doc), self.validate_army(doc), lang)

    def army_examples(self) -> dict[str, dict]:
        return builder.examples()

    def army_roll(self, doc: dict, request: dict, dice) -> dict:
        return builder.roll(doc, request, dice)
