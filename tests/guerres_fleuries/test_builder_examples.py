"""The bundled example armies and the core's optional army-builder methods."""

from __future__ import annotations

from importlib import resources

import pytest

from oriflamme.cli.main import main
from oriflamme.core import registry
from oriflamme.core.errors import OriflammeError

RID = "guerres-fleuries"
EXAMPLES = resources.files("oriflamme.rulesets.guerres_fleuries") / "armies"


@pytest.fixture(scope="module")
def rs():
    return registry.get(RID)


def races(doc: dict) -> set[str]:
    return {g["race"] for u in doc["units"] for g in u["groups"]}


def test_two_original_examples_an_aztec_host_and_a_saurian_warband(rs):
    ex = rs.army_examples()
    assert set(ex) == {"aztec-host", "saurian-warband"}
    assert races(ex["aztec-host"]) == {"Homme"} and races(ex["saurian-warband"]) == {"Saurien"}
    for doc in ex.values():
        assert doc["format"] == "oriflamme-army" and doc["version"] == 1 and doc["ruleset"] == RID
        assert doc["name"] and "original example" in doc["notes"]


@pytest.mark.parametrize("name", ["aztec-host", "saurian-warband"])
def test_each_example_is_valid_at_5000_points_or_under(rs, name):
    doc = rs.army_examples()[name]
    v = rs.validate_army(doc)
    assert v["valid"], v["violations"]
    assert v["violations"] == [] and 0 < v["total_points"] <= v["budget"] == 5000
    # the total is the sum of what each entry costs (the server's lines, not a number in the file)
    assert v["total_points"] == sum(sum(x) for x in v["lines"].values())
    assert v["class_b_share"] >= 0.40 and v["mercenary_share"] <= 0.25 and v["allied_share"] <= 0.45
    assert v["heroes"] <= v["max_heroes"] and v["priests"] == 1


@pytest.mark.parametrize("name", ["aztec-host", "saurian-warband"])
def test_oriflamme_army_show_lists_each_example(rs, name, capsys):
    path = EXAMPLES / f"{name}.json"
    assert main(["army", "show", str(path)]) == 0
    out = capsys.readouterr().out
    doc = rs.army_examples()[name]
    assert doc["name"] in out and str(rs.validate_army(doc)["total_points"]) in out
    for unit in doc["units"]:
        assert unit["name"] in out
    assert main(["army", "validate", str(path)]) == 0


def test_an_example_that_breaks_a_rule_is_not_valid(rs):
    """The examples are valid because of their contents: remove the priest and they are not."""
    doc = rs.army_examples()["aztec-host"]
    doc["characters"] = [c for c in doc["characters"] if c["type"] != "prêtre"]
    v = rs.validate_army(doc)
    assert not v["valid"] and "priests_min" in {x["rule"] for x in v["violation_details"]}


def test_a_ruleset_without_army_builder_says_so():
    mc = registry.get("magna-carta")
    assert mc.has_army_builder() is False and mc.army_catalog() is None and mc.army_examples() == {}
    assert mc.info()["army_builder"] is False
    for call in (lambda: mc.validate_army({}), lambda: mc.army_sheet({}), lambda: mc.army_roll({}, {}, None)):
        with pytest.raises(OriflammeError, match="no army builder"):
            call()
    assert registry.get(RID).has_army_builder() is True
