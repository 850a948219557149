"""Wiring of the contract suite (its cases and shared playouts are in ``kit.py``)."""

from __future__ import annotations

import pytest

from contract.kit import CASES, FIXTURE, RULESETS, SCENARIOS, played
from oriflamme.core import registry


@pytest.fixture
def playout(case):
    return played(case)


@pytest.fixture(autouse=True)
def _registered():
    """The fixture ruleset is registered while a contract test runs (replay finds it by id)."""
    registry.register(FIXTURE)
    yield
    registry.unregister(FIXTURE.id)


def pytest_generate_tests(metafunc):
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", CASES, ids=str)
    if "rs_scenario" in metafunc.fixturenames:
        metafunc.parametrize("rs_scenario", SCENARIOS, ids=lambda x: f"{x[0]}/{x[1]}")
    if "ruleset" in metafunc.fixturenames:
        metafunc.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
