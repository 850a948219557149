"""Les Guerres Fleuries on the platform: the referee (:mod:`.referee`) and the army builder
(part 1, issue 12), and the battles on the 180 × 120 cm table (part 2, issue 13: :mod:`.battle`,
docs/guerres-fleuries/battle.md)."""

from __future__ import annotations

from typing import Any

import hashlib
import json
from fractions import Fraction

from oriflamme.core.chance import TooManyDice, enumerate_outcomes
from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import DiceSealed, IllegalAction, ScenarioError
from oriflamme.core.ruleset import ChanceOutcome, Outcome, Ruleset, ScenarioInfo, SideInfo

from . import builder, referee
from .battle import engine, evaluation, explain, fog, scenario as scenarios, views
from .battle.actions import Action, action_from_json, choice_of
from .battle.muster import units_of
from .battle.state import Battle

VICTORY_EN = ("OR-GF33 (the rules print none): an army that loses more than half of its figures is broken and "
              "loses; after the last turn, the side that destroyed the larger share of the enemy's points wins")
VICTORY_FR = ("OR-GF33 (les règles n'en impriment pas) : une armée qui perd plus de la moitié de ses figurines est "
              "brisée et perd ; après le dernier tour, le camp qui a détruit la plus grande part des points ennemis gagne")


def initial(scenario, dice) -> Battle:
    units = {}
    for side in ("A", "B"):
        for u in units_of(scenario.armies[side], side, f"armies.{side}"):
            units[u.id] = u
    return Battle(scenario=scenario, dice=dice, units=units)


def _has_module() -> bool:
    from pathlib import Path
    return (Path(__file__).parent / "static" / "module.js").is_file()


class GuerresFleuries(Ruleset):
    id = "guerres-fleuries"
    title = "Les Guerres Fleuries"
    title_fr = "Les Guerres Fleuries"
    #: gf-ui's browser module (static/module.js) when it is there; else the generic panel
    web_module = "guerres-fleuries" if _has_module() else None
    die_sides = 100
    aliases = ("gf", "guerres fleuries", "flower wars")

    # --- scenarios (battle/scenario.py) ------------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        return scenarios.scenario_ids()

    def scenario_info(self, scenario_id: str) -> ScenarioInfo:
        sc = self.load_scenario(scenario_id)
        return ScenarioInfo(id=sc.id, name=sc.name, name_fr=sc.name_fr, description=sc.description,
                            description_fr=sc.description_fr, sides=self.sides(sc),
                            extra={"turns": sc.turns, "table": [180, 120], "victory": VICTORY_EN,
                                   "victory_fr": VICTORY_FR})

    def load_scenario(self, name_or_path: str) -> Any:
        return scenarios.load(name_or_path)

    def scenario_from_json(self, data: Any, source: str = "<scenario>") -> Any:
        return scenarios.from_data(data, source)

    def scenario_to_json(self, scenario: Any) -> dict:
        return scenarios.to_json(scenario)

    def sides(self, scenario: Any) -> list[SideInfo]:
        return [SideInfo(s.id, s.name, s.name_fr) for s in scenario.sides]

    # --- play (battle/engine.py, battle/turn.py) ------------------------------------------------------
    def setup(self, scenario: Any, dice) -> Battle:
        return engine.setup(initial(scenario, dice))

    def to_act(self, state: Battle) -> str | None:
        return engine.to_act(state)

    def legal_actions(self, state: Battle, side: str | None = None) -> list:
        return engine.legal_actions(state, side)

    def choice_of(self, action_json: dict) -> str:
        return choice_of(action_json)

    def apply(self, state: Battle, action) -> list[dict]:
        action = engine.check(state, action)
        return engine.apply(state, action)

    def apply_unchecked(self, state: Battle, action) -> list[dict]:
        if not isinstance(action, Action):
            action = action_from_json(action)
        return engine.apply(state, action)

    def explain(self, state: Battle, action) -> dict:
        try:
            a = engine.check(state, action)
        except IllegalAction as exc:
            return {"legal": False, "reason": exc.reason, "ref": exc.ref, "steps": [], "citations": [exc.ref]}
        return explain.ruling(self, state, a)

    def chance_outcomes(self, state: Battle, action) -> list[ChanceOutcome]:
        """A command test's d100, exactly. Any other action that rolls (the orders that start the
        reveal, the end of phase 6: morale d4s, fire and melee d100s, captures' d6s) rolls dice of
        several kinds, more than can be enumerated: ``TooManyDice`` (the search samples them)."""
        try:
            a = engine.check(state, action)
        except IllegalAction:
            return []
        if a.type != "command_test":
            # the generic enumeration gives every die ``die_sides`` (100) faces, but an action of a
            # battle may roll a d4 or a d6 first (a charge's morale test, a capture): enumerate
            # nothing, say whether it rolls (the search then samples it with its own dice)
            trial = self.clone(state)
            try:
                engine.apply(trial, a)
            except DiceSealed:
                raise TooManyDice(f"{a.type} rolls dice of several kinds (d4, d6, d100): sample it") from None
            return []

        def label(events):
            ev = next(e for e in events if e["type"] == "command_test")
            return ev["result"]
        fast = self._command_outcomes(state, a, label)
        return fast if fast is not None else enumerate_outcomes(self, state, a, max_dice=1, label_of=label)

    def _command_outcomes(self, state: Battle, a: Action, label) -> list[ChanceOutcome] | None:
        """A command test passes when its d100 is at most the threshold (GF-C1): two outcomes read
        from one trial's ruling and checked on their representative dice (the search asks this for
        every unit each turn: 3 trials instead of 100). None when the trial does not fit."""
        def trial(d: int):
            t = self.clone(state)
            t.dice = FixedDice([d], t.dice.count)
            before = len(t.log)
            try:
                engine.apply(t, a)
            except DiceSealed:
                return None
            return t.log[before:]
        events = trial(1)
        if events is None:
            return None
        ev = next((e for e in events if e["type"] == "command_test"), None)
        threshold = ((ev or {}).get("ruling") or {}).get("threshold")
        if not isinstance(threshold, int) or isinstance(threshold, bool):
            return None
        passes = max(0, min(100, threshold))
        out = []
        for dice, share, want in (((1,), passes, "passed"), ((100,), 100 - passes, "failed")):
            if share == 0:
                continue
            got = trial(dice[0])
            if got is None or label(got) != want:
                return None
            out.append(ChanceOutcome(Fraction(share, 100), dice, want))
        return out

    def outcome(self, state: Battle) -> Outcome:
        return Outcome(state.over, state.winner, state.result)

    # --- information (battle/views.py) ------------------------------------------------------------------
    def events(self, state: Battle) -> list[dict]:
        return state.log

    def visible_events(self, state: Battle, side: str | None, start: int = 0) -> list[dict]:
        return [e for e in state.log[start:] if views.visible(e, side)]

    def view(self, state: Battle, side: str | None) -> dict:
        return views.view(state, side, self.visible_events(state, side))

    def options(self, state: Battle, side: str | None) -> dict:
        return views.options(state, side, engine.legal_actions(state, side) if side else [])

    def frame(self, state: Battle, side: str | None) -> dict:
        # the replay bar names the side to act and the phase (gf-ui: "step" is the phase's id)
        return {"log_length": len(self.visible_events(state, side)), "turn": state.turn, "phase": state.phase,
                "step": views.phase_json(state)["id"], "active": None if state.over else state.acting,
                "units": [{"id": u.id, "x": round(u.x, 2), "y": round(u.y, 2), "heading": round(u.heading, 2),
                           "figures": u.figures, "status": u.status} for u in state.units.values()
                          if not fog.unseen(state, u, side)],
                **self.outcome(state).to_json()}

    def clears_undo(self, before: Battle, after: Battle) -> bool:
        return after.revealed and not before.revealed

    # --- codecs -------------------------------------------------------------------------------------------
    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def action_to_json(self, action: Action) -> dict:
        return action.to_json()

    def state_to_json(self, state: Battle) -> dict:
        return state.to_json()

    def state_from_json(self, data: dict, scenario: Any) -> Battle:
        return Battle.from_json(data, scenario)

    def clone(self, state: Battle) -> Battle:
        return state.clone()

    def digest(self, state: Battle) -> str:
        body = {"scenario": state.scenario.id, **state.to_json()}
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    # --- UI and AI ----------------------------------------------------------------------------------------
    def describe_action(self, state: Battle, action, lang: str = "en") -> str:
        return explain.describe(state, action if isinstance(action, Action) else action_from_json(action), lang)

    def is_pass(self, action) -> bool:
        return getattr(action, "type", None) == "end_phase"

    def private_action(self, action) -> bool:
        """A side's orders are face down until phase 4 (GF seed 003 l.275); its written battle orders
        are never shown to the other side while the battle runs (OR-GF94); an encounter battle's
        deployment is written on the battle plan, unseen (placements on movement bases, the ambush,
        the decoys, the flank marches: l.491-507)."""
        return getattr(action, "type", None) in ("orders", "battle_orders", "brigade", "place", "ambush", "place_base",
                                                  "flank_march", "hide", "move_base")

    def evaluate(self, state: Battle, side: str) -> float | None:
        return evaluation.evaluate(state, side)

    def advised_actions(self, state: Battle, side: str, actions: list) -> list:
        return evaluation.advised(state, side, actions)

    def determinize(self, state: Battle, side: str, rng):
        return evaluation.determinize(state, side, rng)

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

    # --- French (UI): every battle event carries its text in both languages ---------------------
    def render_events(self, events: list[dict], lang: str) -> list[dict]:
        """French: each event's ``text_fr``, and the rulings' English lines in French (display.py,
        texts_fr.toml). English: the rulings' quoted French labels of the data
        in English (display.py; the stored events keep the printed French, the citation)."""
        from . import display
        if lang == "fr":
            out = []
            for e in events:
                if isinstance(e, dict):
                    e = dict(e, text=display.french(e.get("text_fr") or e.get("text")))
                    if isinstance(e.get("ruling"), dict):
                        e["ruling"] = display.french_ruling(e["ruling"])
                out.append(e)
            return out
        out = []
        for e in events:
            if isinstance(e, dict):
                t = display.english(e.get("text"))
                if t != e.get("text"):
                    e = dict(e, text=t)
                if isinstance(e.get("ruling"), dict):
                    e = dict(e, ruling=display.english_ruling(e["ruling"]))
            out.append(e)
        return out

    def render_ruling(self, ruling: dict, lang: str) -> dict:
        from . import display
        if not isinstance(ruling, dict):
            return ruling
        return display.french_ruling(ruling) if lang == "fr" else display.english_ruling(ruling)

    def render_text(self, text: str, lang: str) -> str:
        from . import display
        return display.french(text) if lang == "fr" else display.english(text)

    def name_sides(self, text: str, lang: str, sides: list[SideInfo]) -> str:
        from . import display
        return display.name_sides(text, lang, sides)

    # --- the percentages before a roll, for one unit (UI: GET /api/games/{id}/moves/{unit}) -------
    def option_detail(self, state: Battle, key: str) -> dict:
        """The fire percentage of ``key`` against every enemy it may shoot at and both sides'
        melee percentages against every enemy in contact, before any die (gf-combat's previews,
        the part-1 referee's rulings without their d100). Unknown unit: KeyError."""
        from .battle import fire_play, melee_play
        u = state.units.get(key) if isinstance(key, str) else None
        if u is None or fog.unseen(state, u, state.acting):
            raise KeyError(key)  # a unit hidden from the side to act is unknown to it (GF-K5, OR-GF103)
        melee = []
        for o in state.units.values():
            if o.side == u.side or not o.alive or not u.alive or not melee_play.touching(u, o):
                continue
            p = melee_play.preview(state, u.id, o.id)
            if p.get("in_contact"):
                mine, theirs = p.get("a_on_b", {}), p.get("b_on_a", {})
                melee.append({"target": o.id, "percent": mine.get("percent"), "enemy_percent": theirs.get("percent"),
                              "steps": mine.get("explanation", []), "citations": mine.get("citations", []),
                              "ref": "GF Mêlée"})
        out = {"unit": u.id, "fire": fire_play.options(state, u.id) if u.alive else [], "melee": melee}
        if u.alive and u.missile:   # the fire arc the fire code uses (OR-GF50), reaching the weapon's longest range
            from oriflamme.geometry import tabletop
            from .battle import combat_data
            fa, reach = combat_data.data().fire_arc, fire_play.max_range(u)
            fan = tabletop.sector(u.pose, u.width, u.depth, reach, fa.half_angle_deg)
            out["fire_arc"] = {"points": [[round(x, 2), round(y, 2)] for x, y in fan.exterior.coords],
                               "range_cm": reach, "half_angle_deg": fa.half_angle_deg, "ref": fa.ref,
                               "decision": fa.decision}
        return out

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
