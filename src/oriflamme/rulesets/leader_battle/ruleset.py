"""The leader-activation battle game as an Oriflamme ruleset (the adapter to the core contract,
:class:`oriflamme.core.ruleset.Ruleset`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from oriflamme.core.chance import enumerate_outcomes
from oriflamme.core.errors import IllegalAction
from oriflamme.core.ruleset import ChanceOutcome, Outcome, Ruleset, ScenarioInfo, SideInfo

from . import engine, fire, melee, scenario as scenarios
from .engine import Action
from .queries import objectives_held
from .rules import rules
from .state import State, initial
from .texts import french, result_text, translate

HOUSE_EN = "House rules: Oriflamme's own (the seed gives only the sequence of play and the fire rules)"
VICTORY_EN = ("House rules §8: a side whose broken units reach its break point loses; otherwise the attacker "
              "wins by holding the objectives needed at the end of the last turn")
VICTORY_FR = ("Règles maison §8 : un camp dont les unités brisées atteignent son seuil perd ; sinon l'attaquant "
              "gagne s'il tient les objectifs requis à la fin du dernier tour")
HOUSE_FR = "Règles maison : celles d'Oriflamme (la source ne donne que la séquence de jeu et les règles de tir)"


class LeaderBattle(Ruleset):
    id = "leader-battle"
    title = "Leader battle (seed 001 + house rules)"
    title_fr = "Bataille des chefs (source 001 + règles maison)"
    web_module = "leader-battle"
    die_sides = 10
    aliases = ("leader-activation", "lb")

    # --- scenarios ---------------------------------------------------------------------------
    def scenario_ids(self) -> list[str]:
        return scenarios.scenario_ids()

    def scenario_info(self, scenario_id: str) -> ScenarioInfo:
        sc = self.load_scenario(scenario_id)
        return ScenarioInfo(id=sc.id, name=sc.name, name_fr=sc.name_fr, description=sc.description,
                            description_fr=sc.description_fr, sides=self.sides(sc),
                            extra={"turns": sc.turns, "attacker": sc.attacker, "house_rules": HOUSE_EN,
                                   "house_rules_fr": HOUSE_FR, "size": [sc.cols, sc.rows], "characters": len(sc.unit),
                                   "weather": "clear", "victory": VICTORY_EN, "victory_fr": VICTORY_FR})

    def load_scenario(self, name_or_path: str):
        return scenarios.load(name_or_path)

    def scenario_from_json(self, data: Any, source: str = "<scenario>"):
        return scenarios.from_data(data, source)

    def scenario_to_json(self, scenario) -> dict:
        return scenario.model_dump(mode="json")

    def sides(self, scenario) -> list[SideInfo]:
        return [SideInfo(s.id, s.name, s.name_fr) for s in scenario.side]

    # --- play --------------------------------------------------------------------------------
    def setup(self, scenario, dice) -> State:
        return engine.setup(initial(scenario, dice))

    def to_act(self, state: State) -> str | None:
        return engine.to_act(state)

    def legal_actions(self, state: State, side: str | None = None) -> list[Action]:
        return engine.legal_actions(state, side)

    def apply(self, state: State, action) -> list[dict]:
        action = engine.check(state, action)
        return engine.apply(state, action)

    def apply_unchecked(self, state: State, action) -> list[dict]:
        return engine.apply(state, action)

    def explain(self, state: State, action) -> dict:
        """The ruling before committing: steps, table cell or column, citations and the exact
        probability of each result (or the rule that forbids the action)."""
        try:
            action = engine.check(state, action)
        except IllegalAction as exc:
            return {"legal": False, "reason": exc.reason, "ref": exc.ref, "steps": [], "citations": [exc.ref]}
        st = rules().step(state.step)
        out = {"legal": True, "type": action.type, "step": state.step, "citations": [st.ref],
               "steps": [self.describe_action(state, action)], "steps_fr": [self.describe_action(state, action, "fr")]}
        if action.type == "fire":
            rl = fire.ruling(state, state.units[action.unit], state.units[action.target], fire.mode_of(state))
            out.update(rl, legal=True, type="fire", step=state.step)
        elif action.type == "melee":
            rl = melee.ruling(state, state.combats[state.current])
            out.update(rl, legal=True, type="melee", step=state.step)
        elif action.type in ("initiative", "rally"):
            outs = self.chance_outcomes(state, action)
            out["outcomes"] = [{"result": o.label, "p": float(o.probability), "p_exact": str(o.probability)}
                               for o in outs]
            ref = rules().initiative.ref if action.type == "initiative" else rules().rally.ref
            out["citations"].append(ref)
        return out

    def chance_outcomes(self, state: State, action) -> list[ChanceOutcome]:
        try:
            action = engine.check(state, action)
        except IllegalAction:
            return []
        if action.type not in ("fire", "melee", "initiative", "rally"):
            return []
        kinds = {"fire": "fire", "melee": "melee", "initiative": "initiative", "rally": "rally"}

        def label(events):
            ev = next(e for e in events if e["type"] == kinds[action.type])
            return str(ev["ruling"]["result"])
        return enumerate_outcomes(self, state, action, max_dice=1, label_of=label)

    def outcome(self, state: State) -> Outcome:
        return Outcome(state.over, state.winner, state.result)

    # --- information -------------------------------------------------------------------------
    def events(self, state: State) -> list[dict]:
        return state.log

    def view(self, state: State, side: str | None) -> dict:
        r = rules()
        sc = state.scenario
        board = state.board
        c = state.combats[state.current] if state.current is not None else None
        out = {
            "ruleset": self.id, "scenario": sc.id, "turn": state.turn, "last_turn": sc.turns, "step": state.step,
            "active": engine.to_act(state), "to_act": engine.to_act(state), "over": state.over,
            "winner": state.winner, "result": state.result, "result_fr": state.result_fr,
            "house_rules": HOUSE_EN, "house_rules_fr": HOUSE_FR,
            "attacker": state.attacker, "defender": state.defender,
            "b_order": [{"side": state.role_side(o.side), "role": o.side, "category": o.category, "ref": o.ref}
                        for o in r.fire_order],
            "b_index": state.b_index if state.step == "B" else None,
            "initiative": state.initiative, "order": list(state.order), "act_index": state.act_index,
            "active_leader": state.active_leader,
            "combats": [{"hex": x.hex, "attackers": x.attackers, "defenders": x.defenders, "stage": x.stage}
                        for x in state.combats],
            "combat": c.hex if c else None, "combat_stage": c.stage if c else None,
            "steps": [{"id": s.id, "title": s.title_en, "title_fr": s.title_fr, "ref": s.ref, "house": s.house,
                       "note": s.note} for s in r.steps],
            "map": {"cols": board.cols, "rows": board.rows,
                    "terrain": {h.label: t for h, t in sorted(board.terrain.items())},
                    "hexsides": [{"a": min(p, key=lambda h: h.label).label, "b": max(p, key=lambda h: h.label).label,
                                  "kind": k} for p, k in sorted(board.sides.items(), key=lambda kv: sorted(h.label for h in kv[0]))],
                    "banner": sc.banner.model_dump() if sc.banner else None,
                    "objectives": list(sc.objectives)},
            "objectives_held": objectives_held(state, state.attacker),
            "units": [self._unit_json(u) for u in state.units.values()],
            "leaders": [{"id": ld.id, "side": ld.side, "name": ld.name, "hex": ld.hex, "lost": ld.lost,
                         "command_range": ld.command_range, "rank": ld.rank} for ld in state.leaders.values()],
            "broken": {s.id: sum(1 for u in state.units.values() if u.side == s.id and u.broken) for s in sc.side},
            "break_points": {s.id: s.break_point for s in sc.side},
            "log": self.visible_events(state, side),
        }
        if side is not None and side == engine.to_act(state):
            out["legal_actions"] = [a.to_json() for a in engine.legal_actions(state, side)]
        return out

    @staticmethod
    def _unit_json(u) -> dict:
        k = u.spec
        return {"id": u.id, "side": u.side, "kind": u.kind, "category": k.category, "name": u.name, "hex": u.hex,
                "facing": u.facing, "leader": u.leader, "steps": u.steps, "max_steps": k.steps,
                "disordered": u.disordered, "in_command": u.in_command, "broken": u.broken,
                "kind_name": k.name_en, "kind_name_fr": k.name_fr, "fire": k.fire, "range": k.range,
                "movement": k.movement, "melee": k.melee}

    def frame(self, state: State, side: str | None) -> dict:
        return {"log_length": len(state.log), "turn": state.turn, "step": state.step,
                "active": engine.to_act(state), "result": state.result,
                "units": [{"id": u.id, "hex": u.hex, "facing": u.facing, "steps": u.steps, "disordered": u.disordered}
                          for u in state.units.values()],
                "leaders": [{"id": ld.id, "hex": ld.hex, "lost": ld.lost} for ld in state.leaders.values()],
                **self.outcome(state).to_json()}

    # --- codecs --------------------------------------------------------------------------------
    def action_from_json(self, data: Any) -> Action:
        return engine.action_from_json(data)

    def action_to_json(self, action: Action) -> dict:
        return action.to_json()

    def state_to_json(self, state: State) -> dict:
        return state.to_json()

    def state_from_json(self, data: dict, scenario) -> State:
        return State.from_json(data, scenario)

    def clone(self, state: State) -> State:
        return state.clone()

    def digest(self, state: State) -> str:
        body = {"scenario": state.scenario.id, **state.to_json()}
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    # --- UI --------------------------------------------------------------------------------------
    def describe_action(self, state: State, action, lang: str = "en") -> str:
        a = action if isinstance(action, Action) else engine.action_from_json(action)
        fr = lang == "fr"
        name = lambda i: (state.units[i].name if i in state.units else state.leaders[i].name if i in state.leaders else i)
        f = engine.FACING_NAMES
        if a.type == "fire":
            return (f"{name(a.unit)} tire sur {name(a.target)}" if fr else f"{name(a.unit)} fires at {name(a.target)}")
        if a.type == "move":
            if a.unit in state.leaders:
                return f"{name(a.unit)} → {a.to}"
            return f"{name(a.unit)} → {a.to} ({f[a.facing]})"
        if a.type == "declare":
            return f"{name(a.unit)} attaquera {a.hex}" if fr else f"{name(a.unit)} will attack {a.hex}"
        if a.type == "resolve":
            return f"Résoudre le combat en {a.hex}" if fr else f"Resolve the combat at {a.hex}"
        if a.type == "advance":
            return f"Avancer en {a.hex}" if fr else f"Advance into {a.hex}"
        if a.type == "melee":
            return f"Mêlée en {a.hex}" if fr else f"Melee at {a.hex}"
        if a.type == "initiative":
            return "Jet d'initiative (1D10)" if fr else "Roll for initiative (1D10)"
        if a.type == "rally":
            return f"Rallier {name(a.unit)}" if fr else f"Rally {name(a.unit)}"
        return "Terminer l'étape" if fr else "End the step"

    def options(self, state: State, side: str | None) -> dict:
        acts = engine.legal_actions(state, side)
        return {"actions": [{"action": a.to_json(), "label": self.describe_action(state, a),
                             "label_fr": self.describe_action(state, a, "fr")} for a in acts]}

    def render_options(self, options: dict, lang: str) -> dict:
        if lang != "fr":
            return options
        return {**options, "actions": [{**x, "label": french(x.get("label_fr", x["label"]))} for x in options.get("actions", [])]}

    def render_text(self, text: str, lang: str) -> str:
        return french(translate(text, lang)) if lang == "fr" else translate(text, lang)

    def render_events(self, events: list[dict], lang: str) -> list[dict]:
        out = []
        for ev in events:
            if "ruling" in ev and result_text(ev["ruling"].get("result"), lang):
                ev = {**ev, "ruling": {**ev["ruling"], "result_text": result_text(ev["ruling"]["result"], lang)}}
            if lang == "fr":
                ev = {**ev, "text": french(ev.get("text_fr", ev["text"]))}
                if "ruling" in ev:
                    expl = ev["ruling"].get("explanation_fr", ev["ruling"].get("explanation"))
                    ev["ruling"] = {**ev["ruling"], "explanation": [french(x) for x in expl] if isinstance(expl, list) else expl}
            out.append(ev)
        return out

    def render_ruling(self, ruling: dict, lang: str) -> dict:
        if lang != "fr" or "steps_fr" not in ruling:
            return ruling
        return {**ruling, "steps": [french(x) for x in ruling["steps_fr"]]}

    def rules_sections(self) -> dict:
        """The titles a citation chip shows: each seed line a step cites (the step's title),
        each house section (``data/sections.toml``)."""
        import re
        import tomllib
        from importlib import resources
        out = {}
        for st in rules().steps:
            title = {"en": f"Seed 001: {st.title_en}", "fr": f"Source 001 : {st.title_fr}"}
            for a, b in re.findall(r"l\.(\d+)(?:-(\d+))?", st.ref):
                if b:
                    out[f"LB seed 001 l.{a}-{b}"] = title  # a range is one chip
                for n in range(int(a), int(b or a) + 1):
                    out.setdefault(f"LB seed 001 l.{n}", title)
        data = tomllib.loads(resources.files(__package__).joinpath("data", "sections.toml").read_text(encoding="utf-8"))
        for sec in data["section"]:
            out[f"LB house {sec['id']}"] = {"en": sec["en"], "fr": sec["fr"]}
        for sl in data["seed_line"]:
            out[f"LB seed 001 l.{sl['line']}"] = {"en": sl["en"], "fr": sl["fr"]}
        return {"ruleset": self.id, "title": self.title, "sections": out}

    def terminal(self):
        from . import terminal
        return terminal

    def is_pass(self, action) -> bool:
        return getattr(action, "type", None) == "end_step"

    def evaluate(self, state: State, side: str) -> float:
        """The computer players' evaluation (``evaluation.py``: material, break pressure,
        objectives, disorder, command, leaders; weights in ``data/ai_evaluation.toml``)."""
        from .evaluation import evaluate
        return evaluate(state, side)
