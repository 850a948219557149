"""The leader-battle browser module, smoke test: the page imports it, it draws the hex board
(every hex, the river, the bridge, the banner, the units and leaders), the phase bar A–E, and
a click on a unit then on an offered action commits it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect


@pytest.fixture
def lb_server(app_server):
    return app_server


def test_the_module_draws_the_board_and_a_unit_acts(page: Page, lb_server, artifacts):
    # from the lobby: the scenario's card creates a game of its own ruleset
    page.goto(lb_server + "/")
    expect(page.get_by_test_id("scenario-card-the-bridge-of-vauclair")).to_contain_text("House rules")
    expect(page.get_by_test_id("scenario-card-the-hill")).to_be_visible()   # Magna Carta's cards still drawn
    page.get_by_test_id("hotseat-the-bridge-of-vauclair").click()
    expect(page.get_by_test_id("lb-svg")).to_be_visible()
    assert page.locator("[data-testid^=hex-0]").count() + page.locator("[data-testid^=hex-1]").count() == 12 * 9
    assert page.locator("[data-testid=hexside-river]").count() == 16
    assert page.locator("[data-testid=hexside-bridge]").count() == 1
    expect(page.get_by_test_id("lb-banner")).to_be_attached()
    expect(page.get_by_test_id("unit-c-gun")).to_be_visible()
    expect(page.get_by_test_id("leader-raoul")).to_be_attached()
    for step in ("A", "B", "C", "D1", "D2", "D3", "D4", "E"):
        expect(page.get_by_test_id(f"step-{step}")).to_be_attached()
    expect(page.get_by_test_id("step-B")).to_have_attribute("aria-current", "step")
    expect(page.get_by_test_id("house-rules")).to_contain_text("House rules")
    # step B, the attacker's artillery: select the bombard, preview a shot, fire
    page.get_by_test_id("unit-c-mangonel").click()
    first = page.get_by_test_id("lb-action").first
    expect(first).to_contain_text("fires at")
    first.click()
    expect(page.get_by_test_id("log-event").filter(has_text="fires at")).to_have_count(1)
    # every citation chip names its source ("LB seed 001 l.11, l.13" gives two full chips)
    chips = page.get_by_test_id("citation").all_inner_texts()
    assert chips and all(c.startswith(("LB seed 001 l.", "LB house §")) for c in chips), chips
    page.get_by_test_id("lb-action").first.locator("xpath=following-sibling::button").first.click() \
        if page.get_by_test_id("lb-action").count() else None
    page.screenshot(path=str(artifacts / "leader-battle.png"))
