"""A board that reads at a glance (issue 15, item 2), on a desktop, a tablet and a phone: the
counters' text keeps a minimum size on screen at every zoom, names stay inside their counters,
each kind of animal has its own symbol, the objectives are marked and tracked, the roll button
stays on screen, the die shows on its target and the counter's card opens on hover or long press.

Screenshots at 1440×900, 1024×768 and 390×844 (and 844×390, a phone on its side) go to
test-artifacts/ (board-*.png).
Every figure checked against the page comes from the server's view (the page computes nothing).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from oriflamme.geometry.hexgrid import Hex

from e2e.test_client import FIRST_SHOT, SEED_MELEE, drive_to_melee, open_game, view, wait_version

SIZES = [(1440, 900), (1024, 768), (390, 844), (844, 390)]   # the last: a phone on its side
NAME_MIN_PX, STAT_MIN_PX, MOVE_MIN_PX = 10.0, 11.0, 10.0

# every counter text shown, with its size on screen: the font size (SVG units) times the
# scale of its screen matrix, which includes the zoom and the counters' own growth
TEXT_SIZES = """() => [...document.querySelectorAll('svg.board-svg .counter text')]
  .filter((t) => t.getBoundingClientRect().height > 0)
  .map((t) => { const m = t.getScreenCTM();
    return { cls: t.getAttribute('class'), text: t.textContent, char: t.closest('.counter').dataset.char,
             px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b) }; })"""

# each name against its counter, on screen
NAME_BOXES = """() => [...document.querySelectorAll('svg.board-svg .counter')].flatMap((c) =>
  [...c.querySelectorAll('text.counter-name')].filter((t) => t.getBoundingClientRect().width > 0).map((t) => {
    const n = t.getBoundingClientRect(), b = t.parentNode.closest('.lod-square').querySelector('.counter-body').getBoundingClientRect();
    return { char: c.dataset.char, text: t.textContent, left: n.left - b.left, right: b.right - n.right }; }))"""


def context(browser, size, **kw):
    phone = min(size) < 500
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=phone, is_mobile=phone, **kw)
    ctx.add_init_script("localStorage.setItem('oriflamme.lang', 'en')")
    return ctx


def check_counter_text(p: Page, where: str):
    sizes = p.evaluate(TEXT_SIZES)
    assert sizes, f"{where}: no counter text shown"
    for s in sizes:
        cls = s["cls"]
        floor = NAME_MIN_PX if "counter-name" in cls else MOVE_MIN_PX if "counter-move" in cls else STAT_MIN_PX
        assert s["px"] >= floor - 0.05, f"{where}: {s['char']}'s {cls} {s['text']!r} is {s['px']:.1f} px (< {floor})"
    for n in p.evaluate(NAME_BOXES):
        assert n["left"] >= -0.5 and n["right"] >= -0.5, f"{where}: {n['char']}'s name {n['text']!r} overflows its counter {n}"
    return sizes


def lod(p: Page) -> str:
    return p.get_by_test_id("board-svg").get_attribute("data-lod")


def in_view_and_on_top(p: Page, testid: str) -> bool:
    """The element is inside the window and nothing covers its centre."""
    return p.evaluate("""(tid) => { const e = document.querySelector(`[data-testid="${tid}"]`); if (!e) return false;
        const r = e.getBoundingClientRect(); if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!hit && (hit === e || e.contains(hit)); }""", testid)


# --- the three sizes: font sizes at every zoom, the roll button, screenshots ----------------------------
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_counters_read_at_every_zoom_and_the_roll_button_stays_in_sight(browser, server, artifacts, size):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": SEED_MELEE}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    drive_to_melee(server, gid, token)
    v = view(server, gid, token)
    ctx = context(browser, size)
    try:
        p = ctx.new_page()
        open_game(p, server, g["links"]["hotseat"])
        # as the page opens (the whole map in sight)
        sizes = check_counter_text(p, f"{size} at first")
        faces = {"full": "counter-move", "medium": "counter-name medium", "compact": "counter-big"}
        assert any(faces[lod(p)] in s["cls"] for s in sizes)
        shown = {s["char"] for s in sizes}
        assert shown == {c["id"] for c in v["characters"] if c["hex"]}      # every counter on the map has its text
        # no hex label shows through (or beside) a counter: the labels of occupied hexes are hidden
        occupied = {c["hex"] for c in v["characters"] if c["hex"]} | {c["rear"] for c in v["characters"] if c.get("rear")}
        shown_labels = set(p.evaluate("""() => [...document.querySelectorAll('svg.board-svg .hex-label')]
            .filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent)"""))
        assert not (occupied & shown_labels) and len(shown_labels) > 100
        p.screenshot(path=str(artifacts / f"board-{size[0]}x{size[1]}.png"))
        # zoomed out as far as the board goes, then in: still readable
        seen = {lod(p)}
        for _ in range(8):
            p.get_by_test_id("zoom-out").click()
        seen.add(lod(p))
        check_counter_text(p, f"{size} zoomed out")
        for _ in range(10):
            p.get_by_test_id("zoom-in").click()
            seen.add(lod(p))
            check_counter_text(p, f"{size} zoom {lod(p)}")
        assert "full" in seen
        p.get_by_test_id("zoom-reset").click()

        # the attack preview: the roll button is on screen, not covered, without scrolling
        attacker = v["options"]["attacks"][0]["action"]["attackers"][0]
        p.get_by_test_id(f"counter-{attacker}").click()
        p.get_by_test_id("attack-group-0").click()
        expect(p.get_by_test_id("preview")).to_be_visible()
        p.wait_for_timeout(400)  # the panel's smooth scroll
        assert in_view_and_on_top(p, "commit"), f"{size}: the roll button is out of sight"
        expect(p.get_by_test_id("commit")).to_contain_text("roll")
        check_counter_text(p, f"{size} with the preview open")
        p.screenshot(path=str(artifacts / f"board-{size[0]}x{size[1]}-preview.png"))
        # with the explanation unfolded and the panel scrolled to its top, still in sight
        p.evaluate("document.getElementById('side-panel').scrollTop = 0")
        p.wait_for_timeout(100)
        assert in_view_and_on_top(p, "commit"), f"{size}: the roll button left the screen when the panel scrolled"
        if size[0] < 500:
            # on a phone, the board and the cards share the screen: the page itself never scrolls,
            # the board keeps a usable part and the cards scroll inside their panel
            dims = p.evaluate("""() => ({ page: document.scrollingElement.scrollHeight, win: innerHeight,
                board: document.getElementById('board').getBoundingClientRect(), panel: document.getElementById('side-panel').getBoundingClientRect() })""")
            assert dims["page"] <= dims["win"] + 1
            assert dims["board"]["height"] >= 0.3 * size[1] and dims["panel"]["height"] >= 0.25 * size[1]
            assert dims["board"]["bottom"] <= dims["panel"]["top"] + 1                  # one above the other, no overlap
            p.get_by_test_id("board-size").click()                                  # the board takes the larger share
            p.wait_for_timeout(200)
            bigger = p.get_by_test_id("board").bounding_box()["height"]
            assert bigger > dims["board"]["height"] + 40
            check_counter_text(p, f"{size} bigger board")
            p.screenshot(path=str(artifacts / f"board-{size[0]}x{size[1]}-bigger-board.png"))
    finally:
        ctx.close()


# --- symbols: every kind of animal its own ------------------------------------------------------------
def test_each_animal_has_its_own_symbol(page: Page, server, artifacts):
    seen: dict[str, str] = {}
    # the caravan: a litter camel with its passenger, a pack camel, a camel rider, horse riders
    _, g = server.call("POST", "/api/games", {"scenario": "the-caravan", "mode": "hotseat", "seed": 1}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = view(server, gid, token)
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.locator("[data-testid^=counter-]").first).to_be_visible()
    for h in v["horses"]:
        sym = page.get_by_test_id(f"horse-{h['id']}").locator(".animal-symbol").get_attribute("data-symbol")
        assert sym == h["kind"] and h["kind"] in ("litter_camel", "pack_camel")
        seen[sym] = h["id"]
    litter = next(h for h in v["horses"] if h["kind"] == "litter_camel")
    expect(page.get_by_test_id(f"horse-{litter['id']}")).to_have_attribute("data-passenger", litter["passenger"])
    for c in v["characters"]:
        if c.get("mounted") and c["hex"]:
            assert c["mount"] in ("horse", "camel")
            body = page.get_by_test_id(f"rider-body-{c['id']}")
            assert body.locator(".rider-mount").get_attribute("data-symbol") == c["mount"]
            seen[c["mount"]] = c["id"]
    assert {"camel", "horse"} <= set(seen)
    page.screenshot(path=str(artifacts / "board-symbols-caravan.png"))

    # a camel kneels (§4.6.4): its symbol changes
    while not (v["step"] == "movement" and v["to_act"] == "A"):
        server.call("POST", f"/api/games/{gid}/actions", {"action": v["options"]["end_step"], "version": v["version"]}, token=token, expect=200)
        v = view(server, gid, token)
    kneel = next(x["action"] for x in v["options"]["extras"] if x["action"]["type"] == "kneel")
    server.call("POST", f"/api/games/{gid}/actions", {"action": kneel, "version": v["version"]}, token=token, expect=200)
    v = view(server, gid, token)
    wait_version(page, v["version"])
    rider = next((c for c in v["characters"] if c.get("kneeling")), None)
    animal = next((h for h in v["horses"] if h["kneeling"]), None)
    if rider:
        sym = page.get_by_test_id(f"rider-body-{rider['id']}").locator(".rider-mount").get_attribute("data-symbol")
    else:
        sym = page.get_by_test_id(f"horse-{animal['id']}").locator(".animal-symbol").get_attribute("data-symbol")
    assert sym.endswith("_kneeling")
    seen[sym] = "kneeling"

    # the hay cart: an ox harnessed to a cart
    _, g = server.call("POST", "/api/games", {"scenario": "the-hay-cart", "mode": "hotseat", "seed": 1}, expect=201)
    v = view(server, g["id"], g["seats"]["hotseat"])
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.locator("[data-testid^=counter-]").first).to_be_visible()
    ox = next(h for h in v["horses"] if h["kind"] == "ox")
    seen[page.get_by_test_id(f"horse-{ox['id']}").locator(".animal-symbol").get_attribute("data-symbol")] = ox["id"]
    cart = v["carts"][0]
    seen[page.get_by_test_id(f"cart-{cart['id']}").locator(".cart-symbol").get_attribute("data-symbol")] = cart["id"]
    assert {"ox", "cart", "horse", "camel", "pack_camel", "litter_camel"} <= set(seen)
    assert any(k.endswith("_kneeling") for k in seen)
    # distinct drawings, not just distinct names; the legend shows them all
    drawings = page.evaluate("""(ids) => ids.map((id) => document.getElementById('sym-' + id).innerHTML)""",
                             ["horse", "draught_horse", "ox", "cart", "camel", "camel_kneeling", "pack_camel", "litter_camel"])
    assert len(set(drawings)) == len(drawings)
    page.get_by_test_id("legend").locator("summary").click()
    for k in ("horse", "ox", "cart", "camel", "camel_kneeling", "pack_camel", "litter_camel", "flag"):
        expect(page.get_by_test_id(f"legend-sym-{k}")).to_be_visible()
    page.screenshot(path=str(artifacts / "board-symbols-hay-cart.png"))


# --- objectives and the victory tracker ------------------------------------------------------------------
def _towards_objectives(server, gid, token, limit=200):
    """Through the API: the objective side walks to its objectives (the server's own moves)
    until it holds one; every other decision ends the step or answers the first prompt."""
    for _ in range(limit):
        v = view(server, gid, token)
        vic = v["victory"]
        if vic["held"] or v["over"]:
            return v
        o = v["options"]
        act = o["end_step"]
        if o["prompts"]:
            act = o["prompts"][0]["action"]
        elif v["step"] == "movement" and v["to_act"] == vic["objective_side"]:
            objs = [Hex.from_label(x) for x in vic["objectives"]]
            pos = {c["id"]: Hex.from_label(c["hex"]) for c in v["characters"] if c["hex"]}
            best = None
            for ch, reach in sorted(o["reach"].items()):
                d0 = min(pos[ch].distance(x) for x in objs)
                for to in reach:
                    d = min(Hex.from_label(to).distance(x) for x in objs)
                    if d < d0 and (best is None or d < best[0]):
                        best = (d, ch, to)
            if best:
                moves = o["moves"].get(best[1]) or server.call("GET", f"/api/games/{gid}/moves/{best[1]}", token=token, expect=200)[1]["moves"]
                act = next(m["action"] for m in moves if m["to"] == best[2])
        server.call("POST", f"/api/games/{gid}/actions", {"action": act, "version": v["version"]}, token=token, expect=200)
    raise AssertionError("no objective held")


def test_objectives_are_marked_and_the_tracker_follows_the_view(page: Page, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hay-cart", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = view(server, gid, token)
    vic = v["victory"]
    assert vic["objectives"] == ["1908", "2008", "1909", "2009"]          # the scenario's [victory] table
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.locator("[data-testid^=counter-]").first).to_be_visible()
    for hx in vic["objectives"]:
        expect(page.get_by_test_id(f"objective-{hx}")).to_have_attribute("data-held", "")
    expect(page.get_by_test_id("victory-held")).to_have_text(f"0/{vic['objective_count']} held")
    for side, l in vic["losses"].items():
        expect(page.get_by_test_id(f"victory-loss-{side}")).to_have_text(f"✝ {l['lost']}/{l['rout_at']}")
    page.get_by_test_id("victory-summary").click()
    expect(page.get_by_test_id("victory-text")).to_have_text(vic["text"])

    v = _towards_objectives(server, gid, token)
    wait_version(page, v["version"])
    vic = v["victory"]
    held = vic["held"]
    assert held
    for hx in vic["objectives"]:
        expect(page.get_by_test_id(f"objective-{hx}")).to_have_attribute("data-held", vic["objective_side"] if hx in held else "")
        expect(page.get_by_test_id(f"victory-hex-{hx}")).to_contain_text("held by" if hx in held else "not held")
    expect(page.get_by_test_id("victory-held")).to_have_text(f"{len(held)}/{vic['objective_count']} held")
    for side, l in vic["losses"].items():
        expect(page.get_by_test_id(f"victory-loss-{side}")).to_have_text(f"✝ {l['lost']}/{l['rout_at']}")
    page.screenshot(path=str(artifacts / "board-objective-held.png"))
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("victory-text")).to_have_text(vic["text_fr"])
    expect(page.get_by_test_id("victory-held")).to_have_text(f"{len(held)}/{vic['objective_count']} tenus")


# --- the die on the target -------------------------------------------------------------------------------
def test_a_roll_shows_its_die_on_the_target(page: Page, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    open_game(page, server, g["links"]["hotseat"])
    expect(page.get_by_test_id("die-roll")).to_have_count(0)               # nothing rolled yet
    page.get_by_test_id(f"counter-{FIRST_SHOT['shooter']}").click()
    page.get_by_test_id(f"counter-{FIRST_SHOT['target']}").click()
    page.get_by_test_id("commit").click()
    wait_version(page, 1)
    v = view(server, gid, token)
    rolled = [e for e in v["log"] if e.get("ruling") and e["ruling"].get("die") is not None]
    assert rolled
    shot = next(e for e in rolled if e["type"] == "fire")
    target_hex = next(c["hex"] for c in v["characters"] if c["id"] == FIRST_SHOT["target"])
    dice = page.get_by_test_id("die-roll")
    expect(dice).to_have_count(len(rolled))
    first = dice.first
    expect(first).to_be_visible()
    expect(first).to_have_attribute("data-die", str(shot["ruling"]["die"]))
    expect(first).to_have_attribute("data-result", str(shot["ruling"]["result"]))
    assert first.get_attribute("data-hex") in (target_hex, shot["ruling"]["line"][-1])
    assert first.locator(".die-number").text_content() == str(shot["ruling"]["die"])
    # drawn over the target hex: the die's centre is within a hex of the target's counter
    d, c = first.bounding_box(), page.get_by_test_id(f"hex-{first.get_attribute('data-hex')}").bounding_box()
    assert abs(d["x"] + d["width"] / 2 - (c["x"] + c["width"] / 2)) < c["width"] and abs(d["y"] + d["height"] / 2 - (c["y"] + c["height"] / 2)) < c["height"]
    page.screenshot(path=str(artifacts / "board-die-on-target.png"))


# --- the counter's card: hover with a mouse, long press on a touch screen --------------------------------
def test_the_counters_card_on_hover_and_long_press(page: Page, browser, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-caravan", "mode": "hotseat", "seed": 1}, expect=201)
    v = view(server, g["id"], g["seats"]["hotseat"])
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.locator("[data-testid^=counter-]").first).to_be_visible()
    rider = next(c for c in v["characters"] if c.get("mount") == "camel")
    page.get_by_test_id(f"counter-{rider['id']}").hover()
    card = page.get_by_test_id("counter-card")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("card-name")).to_have_text(rider["name"])
    expect(card).to_contain_text(f"Attack {rider['attack']} · Defence {rider['defence']} · Movement {rider['movement']}")
    expect(card).to_contain_text(rider["type_name"])
    expect(card).to_contain_text("Rides a camel")
    page.screenshot(path=str(artifacts / "board-card-hover.png"))
    page.mouse.move(2, 2)
    expect(card).to_be_hidden()
    litter = next(h for h in v["horses"] if h["kind"] == "litter_camel")
    page.get_by_test_id(f"horse-{litter['id']}").locator(".animal-symbol").hover()
    expect(card).to_contain_text("litter camel")
    expect(card).to_contain_text(next(c["name"] for c in v["characters"] if c["id"] == litter["passenger"]))

    ctx = context(browser, (390, 844))
    try:
        p = ctx.new_page()
        p.goto(server.url + g["links"]["hotseat"])
        counter = p.get_by_test_id(f"counter-{rider['id']}")
        expect(counter).to_be_visible()
        box = counter.bounding_box()
        at = {"pointerType": "touch", "pointerId": 7, "isPrimary": True, "button": 0, "bubbles": True,
              "clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + box["height"] / 2}
        counter.locator(".counter-body").last.dispatch_event("pointerdown", at)
        p.wait_for_timeout(700)
        card = p.get_by_test_id("counter-card")
        expect(card).to_be_visible()
        expect(card.get_by_test_id("card-name")).to_have_text(rider["name"])
        counter.locator(".counter-body").last.dispatch_event("pointerup", at)
        expect(p.get_by_test_id("selection")).to_be_hidden()                 # a long press is not a click
        cb = card.bounding_box()
        assert cb["x"] >= 0 and cb["x"] + cb["width"] <= 390                 # inside the phone's screen
        p.screenshot(path=str(artifacts / "board-390x844-card.png"))
        # a short tap selects, as before
        counter.locator(".counter-body").last.dispatch_event("pointerdown", at)
        counter.locator(".counter-body").last.dispatch_event("pointerup", at)
        expect(p.get_by_test_id("selection")).to_contain_text(rider["name"])
    finally:
        ctx.close()
