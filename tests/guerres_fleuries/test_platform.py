"""The Guerres Fleuries package on the platform: registered, a referee with cited rulings,
names matched as printed, bad input named (shared conventions of every kind)."""

from __future__ import annotations

import pytest

from guerres_fleuries.seed import SEED, line
from oriflamme.core import registry
from oriflamme.core.errors import OriflammeError
from oriflamme.rulesets.guerres_fleuries import names
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries


def test_the_seed_is_beside_the_project():
    assert SEED.exists() and "GUERRES FLEURIES" in line(5)


def test_registered_with_its_bundled_battle():
    rs = registry.get("guerres-fleuries")
    assert isinstance(rs, GuerresFleuries) and rs.die_sides == 100
    assert "battle-of-the-flowers" in rs.scenario_ids()
    with pytest.raises(OriflammeError, match="no such scenario"):
        rs.load_scenario("anything")


def test_unknown_kind_names_the_field():
    with pytest.raises(RefereeError, match="field kind: unknown kind 'nope'"):
        GuerresFleuries().adjudicate({"kind": "nope"})
    with pytest.raises(RefereeError, match="JSON object"):
        GuerresFleuries().adjudicate([1])


def test_names_fold_case_and_accents_and_suggest_the_closest():
    choices = {"pretre": ["Prêtre", "priest"], "heros": ["Héros", "hero"]}
    assert names.match("race", "PRETRE", choices) == "pretre"
    assert names.match("race", "hero", choices) == "heros"
    with pytest.raises(RefereeError, match=r"field race: unknown name 'Prètr'.*'Prêtre'"):
        names.match("race", "Prètr", choices)


def test_squash_ignores_punctuation_and_spacing_but_keeps_signs():
    assert names.squash("Si la cible a bougé de plus de 10cm. (-)") == names.squash("si la cible a bouge de plus de 10 cm (-)")
    assert names.squash("+10%") != names.squash("-10%")


def test_every_decision_cited_in_the_data_is_defined():
    """A row's ``decision`` names a reading of SEED-NOTES-guerres-fleuries.md (GF-…) or one of
    Oriflamme's own, listed in docs/decisions.md (OR-GF…): never an id defined nowhere."""
    import re
    import tomllib
    from importlib import resources
    from pathlib import Path

    notes = (SEED.parents[1] / "SEED-NOTES-guerres-fleuries.md").read_text(encoding="utf-8")
    decisions = (Path(__file__).resolve().parents[2] / "docs" / "decisions.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*(GF-[A-K]\d+)\*\*", notes)) | set(re.findall(r"\*\*(OR-GF\d+)\*\*", decisions))
    data = resources.files("oriflamme.rulesets.guerres_fleuries").joinpath("data")
    cited: dict[str, str] = {}

    def walk(node, where):
        if isinstance(node, dict):
            if isinstance(node.get("decision"), str):
                for one in node["decision"].split(", "):
                    cited.setdefault(one, where)
            for v in node.values():
                walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for path in sorted(Path(str(data)).rglob("*.toml")):
        walk(tomllib.loads(path.read_text(encoding="utf-8")), path.name)
    assert cited, "no decision cited at all"
    undefined = {d: f for d, f in cited.items() if d not in defined}
    assert not undefined, f"cited but defined nowhere: {undefined}"
