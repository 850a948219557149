"""A battle's scenario: a battlefield and two armies (army builder documents), with the sides'
names and the turn limit. Bundled scenarios are ``scenarios/*.json``; any two armies built with
the army builder make a scenario through :func:`from_data` (``{"battlefield": …, "armies":
{"A": doc, "B": doc}}``). A bundled army or battlefield may be named by its id; the copy a game
carries (:func:`to_json`) holds the documents themselves. Errors name the file and the field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from oriflamme.core.errors import ScenarioError

from .. import builder
from .rules import rules
from .state import SIDES

PACKAGE = "oriflamme.rulesets.guerres_fleuries"
DEFAULT_BATTLEFIELD = "valley-of-flowers"
FIELDS = {"id", "name", "name_fr", "description", "description_fr", "battlefield", "armies", "sides", "turns",
          "ruleset", "format", "encounter", "twilight_turns"}


@dataclass(frozen=True)
class Side:
    id: str
    name: str
    name_fr: str


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    name_fr: str
    description: str
    description_fr: str
    turns: int
    sides: tuple[Side, ...]
    armies: dict = field(hash=False, compare=False)      # side -> army document
    battlefield: dict = field(hash=False, compare=False)  # the battlefield document (gf-geom's JSON)
    #: an encounter battle plays reconnaissance, movement bases and flank marches (l.485; OR-GF100)
    encounter: bool = False
    #: the turns fought at dawn or dusk: the detection shift "A l'aube ou au crépuscule" (l.1352; OR-GF134)
    twilight_turns: tuple[int, ...] = ()

    def side(self, sid: str) -> Side:
        return next(s for s in self.sides if s.id == sid)


def scenario_ids() -> list[str]:
    folder = resources.files(PACKAGE).joinpath("scenarios")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load(name_or_path: str) -> Scenario:
    if name_or_path in scenario_ids():
        text = resources.files(PACKAGE).joinpath("scenarios", f"{name_or_path}.json").read_text(encoding="utf-8")
        source = f"guerres_fleuries/scenarios/{name_or_path}.json"
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise ScenarioError(f"{name_or_path}: no such scenario (bundled: {', '.join(scenario_ids())})")
        text, source = path.read_text(encoding="utf-8"), str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{source}: not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    return from_data(data, source)


def _text(data: dict, key: str, source: str, default: str = "") -> str:
    v = data.get(key, default)
    if not isinstance(v, str) or len(v) > 4000:
        raise ScenarioError(f"{source}: field {key}: expected a text")
    return v


def _army(value, sid: str, source: str) -> dict:
    if isinstance(value, str):
        examples = builder.examples()
        if value not in examples:
            raise ScenarioError(f"{source}: field armies.{sid}: no bundled army {value!r} "
                                f"(bundled: {', '.join(sorted(examples))})")
        return examples[value]
    if not isinstance(value, dict):
        raise ScenarioError(f"{source}: field armies.{sid}: expected an army document or a bundled army's id")
    return value


def _battlefield(value, source: str) -> dict:
    """The battlefield document (a bundled one by name), checked by gf-geom's codec."""
    from . import battlefield as bf
    if value is None:
        value = DEFAULT_BATTLEFIELD
    try:
        if isinstance(value, str):
            return bf.load_battlefield(value).to_json()
        return bf.battlefield_from_json(value, f"{source}: field battlefield").to_json()
    except ScenarioError:
        raise
    except Exception as exc:  # BattlefieldError names the field and position
        raise ScenarioError(f"{source}: field battlefield: {exc}") from None


def from_data(data, source: str = "<scenario>") -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario is a JSON object")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise ScenarioError(f"{source}: field {unknown[0]}: unknown (a scenario has {', '.join(sorted(FIELDS))})")
    if data.get("ruleset", "guerres-fleuries") != "guerres-fleuries":
        raise ScenarioError(f"{source}: field ruleset: this scenario is for {data.get('ruleset')!r}")
    armies = data.get("armies")
    if not isinstance(armies, dict) or sorted(armies) != list(SIDES):
        raise ScenarioError(f'{source}: field armies: expected {{"A": army, "B": army}}')
    docs = {sid: _army(armies[sid], sid, source) for sid in SIDES}
    # the units are mustered (and the armies validated) here, so that a bad army is refused now
    from .muster import units_of
    for sid in SIDES:
        units_of(docs[sid], sid, f"{source}: field armies.{sid}")
    turns = data.get("turns", rules().victory.turn_limit)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 50:
        raise ScenarioError(f"{source}: field turns: expected an integer from 1 to 50")
    sides_in = data.get("sides") or {}
    if not isinstance(sides_in, dict):
        raise ScenarioError(f"{source}: field sides: expected {{\"A\": {{name, name_fr}}, …}}")
    sides = []
    for sid in SIDES:
        info = sides_in.get(sid) or {}
        if not isinstance(info, dict):
            raise ScenarioError(f"{source}: field sides.{sid}: expected {{name, name_fr}}")
        name = _text(info, "name", f"{source}: sides.{sid}", docs[sid].get("name") or f"Side {sid}")
        sides.append(Side(sid, name, _text(info, "name_fr", f"{source}: sides.{sid}", name)))
    encounter = data.get("encounter", False)
    if not isinstance(encounter, bool):
        raise ScenarioError(f"{source}: field encounter: expected true or false (an encounter battle, GF seed 003 l.485)")
    twilight = data.get("twilight_turns", [])
    if not isinstance(twilight, list) or any(isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= turns
                                             for t in twilight):
        raise ScenarioError(f"{source}: field twilight_turns: expected a list of turn numbers from 1 to {turns} "
                            "(the turns at dawn or dusk, GF seed 003 l.1352; OR-GF134)")
    name = _text(data, "name", source, f"{sides[0].name} vs {sides[1].name}")
    desc = _text(data, "description", source)
    return Scenario(id=_text(data, "id", source, "custom"), name=name, name_fr=_text(data, "name_fr", source, name),
                    description=desc, description_fr=_text(data, "description_fr", source, desc), turns=turns,
                    sides=tuple(sides), armies=docs, battlefield=_battlefield(data.get("battlefield"), source),
                    encounter=encounter, twilight_turns=tuple(sorted(set(twilight))))


def to_json(sc: Scenario) -> dict:
    return {"ruleset": "guerres-fleuries", "id": sc.id, "name": sc.name, "name_fr": sc.name_fr,
            "description": sc.description, "description_fr": sc.description_fr, "turns": sc.turns,
            "sides": {s.id: {"name": s.name, "name_fr": s.name_fr} for s in sc.sides},
            "armies": {k: v for k, v in sc.armies.items()}, "battlefield": sc.battlefield,
            **({"encounter": True} if sc.encounter else {}),
            **({"twilight_turns": list(sc.twilight_turns)} if sc.twilight_turns else {})}
