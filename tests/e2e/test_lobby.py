"""The lobby in the browser (issue 15 item 3): an open game waits for an opponent, another
browser finds it under "Open games" and joins, both find it again under "My games" with whose
turn it is, and a scenario's briefing shows its map before starting."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def _page(browser, lang="en", **viewport):
    ctx = browser.new_context(viewport=viewport or {"width": 1366, "height": 900})
    p = ctx.new_page()
    p.add_init_script(f"localStorage.setItem('oriflamme.lang', '{lang}')")
    return ctx, p


def test_open_game_join_and_my_games(browser, server, artifacts):
    ctx_a, a = _page(browser)
    ctx_b, b = _page(browser)
    try:
        a.goto(server.url + "/")
        expect(a.get_by_test_id("my-games-none")).to_be_visible()
        a.get_by_test_id("wait-opponent-the-hill").click()
        a.wait_for_url(re.compile(r"/play/[^#]+#seat="))
        game_id = re.search(r"/play/([^#]+)#", a.url).group(1)
        expect(a.get_by_test_id("waiting-banner")).to_be_visible()

        b.goto(server.url + "/")
        expect(b.get_by_test_id("open-game-" + game_id)).to_be_visible()
        b.screenshot(path=str(artifacts / "lobby-open-games.png"), full_page=True)
        b.get_by_test_id("join-" + game_id).click()
        b.wait_for_url(re.compile(r"/play/[^#]+#seat="))
        assert game_id in b.url
        expect(b.get_by_test_id("seat-info")).to_be_visible()

        # the creator's page learns its opponent came: the banner goes, a toast says so
        expect(a.get_by_test_id("waiting-banner")).to_have_count(0, timeout=10000)
        expect(a.get_by_test_id("toast").filter(has_text="opponent has joined")).to_be_visible()

        # both browsers list the game under "my games", with whose turn it is
        statuses = []
        for p in (a, b):
            p.goto(server.url + "/")
            row = p.get_by_test_id("my-game-" + game_id)
            expect(row).to_be_visible()
            status = p.get_by_test_id("my-game-status-" + game_id)
            expect(status).not_to_have_text("…")
            statuses.append(status.inner_text())
        assert sorted(s == "your turn" for s in statuses) == [False, True], statuses
        assert any(s.endswith(" to play") for s in statuses), statuses
        a.screenshot(path=str(artifacts / "lobby-my-games.png"), full_page=True)
        # the game left the open list
        expect(b.get_by_test_id("open-game-" + game_id)).to_have_count(0)

        # resuming from the list opens the seat's page
        b.get_by_test_id("my-game-open-" + game_id).click()
        b.wait_for_url(re.compile(game_id))
        b.goto(server.url + "/")
        b.get_by_test_id("my-game-forget-" + game_id).click()
        expect(b.get_by_test_id("my-game-" + game_id)).to_have_count(0)
    finally:
        ctx_a.close()
        ctx_b.close()


def test_briefing_shows_the_map_before_starting(browser, server, artifacts):
    ctx, p = _page(browser)
    try:
        p.goto(server.url + "/")
        p.get_by_test_id("briefing-the-hill").click()
        expect(p.get_by_test_id("briefing-title")).to_be_visible()
        preview = p.get_by_test_id("briefing-preview")
        expect(preview.locator("svg")).to_be_visible()
        expect(preview.locator("[data-testid^=counter-]").first).to_be_visible()
        p.screenshot(path=str(artifacts / "lobby-briefing.png"))
        p.get_by_test_id("briefing-close").click()
        expect(p.get_by_test_id("briefing-dialog")).to_be_hidden()
    finally:
        ctx.close()
    ctx, p = _page(browser, lang="fr")  # the same dialog in French
    try:
        p.goto(server.url + "/")
        p.get_by_test_id("briefing-the-hill").click()
        expect(p.get_by_test_id("briefing-dialog")).to_contain_text("Position de départ")
        expect(p.get_by_test_id("briefing-preview").locator("svg")).to_be_visible()
    finally:
        ctx.close()


def test_every_bundled_scenario_briefing_opens(browser, server):
    """Each scenario card's briefing opens; the rulesets whose module draws a preview show it."""
    ctx, p = _page(browser)
    try:
        p.goto(server.url + "/")
        expect(p.get_by_test_id("briefing-the-bridge-of-vauclair")).to_be_visible()  # the cards are loaded
        buttons = p.locator("[data-testid^=briefing-]").filter(has_text="Briefing")
        ids = [b.get_attribute("data-testid")[len("briefing-"):] for b in buttons.all()]
        assert "the-bridge-of-vauclair" in ids and "the-hill" in ids
        for sid in ids:
            p.get_by_test_id("briefing-" + sid).click()
            expect(p.get_by_test_id("briefing-title")).to_be_visible()
            expect(p.get_by_test_id("briefing-preview").locator("svg").first).to_be_visible()
            p.get_by_test_id("briefing-close").click()
    finally:
        ctx.close()
