"""Play polish (issue 15, item 1), in the browser: ending a step while pieces can still act asks
first and names them; the phase change is announced and the End-step button cannot be fired
twice into the next step; undo clears the selection; a finished game ends on a summary (winner,
victory condition, casualties per side, a link to the replay) and offers no undo.

What the page shows is compared with what the server's API says.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from test_client import game_of, open_game, view, wait_version


def _version(page: Page) -> int:
    return int(re.search(r"#(\d+)", page.get_by_test_id("seat-info").inner_text()).group(1))


def _can_still_act(v: dict) -> list[str]:
    """The names the page must list (from the API's options): the side's characters offered a
    shot, a move (not yet moved) or an attack."""
    o = v["options"]
    ids = {f["action"]["shooter"] for f in o["fires"]} | {i for a in o["attacks"] for i in a["action"]["attackers"]}
    ids |= {c for c, hexes in (o.get("reach") or {}).items() if hexes}
    out = []
    for c in v["characters"]:
        if c["id"] in ids and c["side"] == v["to_act"] and c["status"] != "dead":
            if v["step"] == "movement" and c.get("points_left") is not None and c["points_left"] < c["movement"]:
                continue
            out.append(c["name"])
    return out


def test_ending_a_step_asks_names_who_can_act_and_announces_the_next(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    open_game(page, server, g["links"]["hotseat"])
    gid, token = game_of(page)
    # walk to a step where someone can still act (the movement step at the latest)
    for _ in range(6):
        v = view(server, gid, token)
        names = _can_still_act(v)
        if names:
            break
        server.call("POST", f"/api/games/{gid}/actions", {"action": v["options"]["end_step"], "version": v["version"]},
                    token=token, expect=200)
    wait_version(page, v["version"])
    assert names, "nobody can act"
    v0 = v["version"]
    end = page.get_by_test_id("end-step")
    expect(end).to_be_enabled()
    end.click()
    text = page.get_by_test_id("confirm-end-text")
    expect(text).to_be_visible()
    for n in names:                                   # every piece that can still act is named
        expect(text).to_contain_text(n)
    # "keep playing": nothing sent
    page.get_by_test_id("confirm-end-no").click()
    expect(page.get_by_test_id("confirm-end")).to_be_hidden()
    assert view(server, gid, token)["version"] == v0
    # again, and confirmed: the step ends, the next one is announced
    end.click()
    page.get_by_test_id("confirm-end-yes").click()
    wait_version(page, v0 + 1)
    after = view(server, gid, token)
    assert (after["step"], after["active"]) != (v["step"], v["active"])
    ann = page.get_by_test_id("phase-announce")
    expect(ann).to_be_visible()
    label = page.get_by_test_id("step-" + after["step"]).inner_text().split(" ", 1)[-1].strip()
    expect(ann).to_contain_text(label)
    expect(ann).to_contain_text(f"Turn {after['turn']}")
    side = next(s for s in after["sides"] if s["id"] == after["active"])
    expect(ann).to_contain_text(side["name"])          # the side's name, not "side A"
    # the End-step button sleeps a moment after the change: a second (double) click does nothing
    expect(end).to_be_disabled()
    page.evaluate("() => { document.getElementById('end-step').click(); document.getElementById('end-step').click(); }")
    page.wait_for_timeout(400)
    assert view(server, gid, token)["version"] == v0 + 1
    expect(end).to_be_enabled(timeout=5000)           # then it wakes up


def test_undo_clears_the_selection(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = view(server, gid, token)
    while v["step"] != "movement":
        server.call("POST", f"/api/games/{gid}/actions", {"action": {"type": "end_step"}, "version": v["version"]},
                    token=token, expect=200)
        v = view(server, gid, token)
    open_game(page, server, g["links"]["hotseat"])
    # a character on foot with several moves (he keeps points, so he stays selected after moving)
    char, moves = next((c, m) for c, m in sorted(v["options"]["moves"].items()) if len(m) > 2)
    page.get_by_test_id(f"counter-{char}").click()
    sel = page.get_by_test_id("selection")
    expect(sel).to_be_visible()
    page.get_by_test_id("hex-" + moves[0]["to"]).click()
    wait_version(page, v["version"] + 1)
    page.get_by_test_id("undo").click()
    wait_version(page, v["version"])
    expect(sel).to_be_hidden()                          # nothing left selected
    expect(page.locator(".counter.selected")).to_have_count(0)
    # the first click on that piece selects it again (no stale selection to toggle off)
    page.get_by_test_id(f"counter-{char}").click()
    expect(sel).to_be_visible()
    name = next(c["name"] for c in v["characters"] if c["id"] == char)
    expect(sel).to_contain_text(name)


def test_a_finished_game_ends_on_a_summary_and_is_locked(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    open_game(page, server, g["links"]["hotseat"])
    # play to the end through the API, taking every shot offered (casualties), the page follows live
    for _ in range(600):
        v = view(server, gid, token)
        if v["over"]:
            break
        o = v["options"]
        a = (o["prompts"][0]["action"] if o["prompts"] else o["fires"][0]["action"] if o["fires"]
             else o["attacks"][0]["action"] if o["attacks"] else o["end_step"])
        server.call("POST", f"/api/games/{gid}/actions", {"action": a, "version": v["version"]}, token=token, expect=200)
    assert v["over"]
    screen = page.get_by_test_id("end-screen")
    expect(screen).to_be_visible()
    names = {s["id"]: s["name"] for s in v["sides"]}
    winner = page.get_by_test_id("end-winner")
    expect(winner).to_have_attribute("data-winner", v["winner"] or "")
    expect(winner).to_contain_text(f"{names[v['winner']]} wins" if v["winner"] else "No winner")
    expect(page.get_by_test_id("end-result")).to_have_text(v["result"])
    for side in names:
        dead = [c["name"] for c in v["characters"] if c["side"] == side and c["status"] == "dead"]
        row = page.get_by_test_id(f"end-casualties-{side}")
        expect(row).to_have_attribute("data-count", str(len(dead)))
        expect(row).to_contain_text(f"{len(dead)} lost")
        for n in dead:
            expect(row).to_contain_text(n)
    # locked: no undo offered, no End step
    expect(page.get_by_test_id("undo")).to_have_count(0)
    expect(page.get_by_test_id("end-step")).to_be_hidden()
    # French too
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("end-screen")).to_contain_text("Pertes")
    page.get_by_test_id("lang-en").click()
    # the replay link: a real link (…#seat=…&replay=1) that opens the replay
    link = page.get_by_test_id("end-replay")
    assert "replay=1" in link.get_attribute("href")
    link.click()
    expect(page.get_by_test_id("replay-bar")).to_be_visible()
    expect(screen).to_be_hidden()
    # opened directly, the link starts in replay mode
    page.goto(server.url + f"/play/{gid}#seat={token}&replay=1")
    expect(page.get_by_test_id("replay-bar")).to_be_visible()
