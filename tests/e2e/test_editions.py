"""The editions in the browser: the edition picked on the home page, the game following it (the
phase bar's titles), and the rules diff page reached from the home and game pages."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def test_pick_an_edition_play_it_and_compare_its_rules(page: Page, server):
    page.goto(server.url + "/")
    select = page.get_by_test_id("edition-the-hill")
    expect(select).to_be_enabled()
    expect(select.locator("option")).to_have_count(2)
    expect(page.get_by_test_id("edition-the-hill")).to_have_value("magna-carta")  # the base by default
    expect(page.get_by_test_id("edition-hamlet-raid")).to_be_disabled()             # Magna Carta only
    select.select_option("cry-havoc")
    page.get_by_test_id("hotseat-the-hill").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    expect(page.get_by_test_id("counter-guy")).to_be_visible()
    expect(page.get_by_test_id("steps")).to_contain_text("Fire")           # Cry Havoc's 4-phase turn
    expect(page.get_by_test_id("steps")).to_contain_text("Recovery")
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("steps")).to_contain_text("Phase de tir")
    page.get_by_test_id("lang-en").click()
    link = page.get_by_test_id("rules-diff-link")
    expect(link).to_have_attribute("href", "/rules/diff?edition=cry-havoc")
    page.goto(server.url + link.get_attribute("href"))
    expect(page.get_by_test_id("diff-summary")).to_contain_text("of cry-havoc differ from magna-carta")
    row = page.get_by_test_id("diff-hexsides.low_wall")
    expect(row).to_contain_text("crossing")
    expect(row).to_contain_text("MC §8.1")
    expect(row).to_contain_text("CH seed 002 l.61")
    expect(page.get_by_test_id("diff-terrain.anvil")).to_contain_text("absent")
    expect(page.get_by_test_id("diff-fallbacks.fallback.melee")).to_contain_text("table lost: Magna Carta §6.5 used")
    # from the home page too
    page.goto(server.url + "/")
    page.get_by_test_id("rules-diff-link").click()
    expect(page.get_by_test_id("diff-summary")).to_contain_text("differ from magna-carta")  # the first edition
    page.get_by_test_id("diff-edition").select_option("cry-havoc")
    expect(page.get_by_test_id("diff-table")).to_contain_text("jump_bands.success")


def test_cry_havoc_fire_preview_shows_both_steps(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-village", "ruleset": "cry-havoc", "mode": "hotseat",
                                              "seed": 3}, expect=201)
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.get_by_test_id("counter-guy")).to_be_visible()
    page.get_by_test_id("counter-anseau").click()
    page.get_by_test_id("counter-jehan").click()
    expect(page.get_by_test_id("preview-p-hit")).to_be_visible()
    expect(page.get_by_test_id("preview-explanation")).to_contain_text("step 1, to hit")
    expect(page.get_by_test_id("preview-explanation")).to_contain_text("step 2, damage")
    page.get_by_test_id("commit").click()
    expect(page.locator('[data-testid=log-event][data-type="fire"]').last).to_be_visible()
