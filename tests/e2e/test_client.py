"""The browser client, end to end: a real server, Debian's chromium, the sync Playwright API.

Every assertion about a rule compares what the page shows with what the server's API says:
the page computes nothing itself.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from oriflamme.geometry.hexgrid import Hex

SEED_MELEE = 7        # the-hill: a greedy advance reaches contact in the second turn
FIRST_SHOT = {"type": "fire", "shooter": "dunstan", "target": "hugo"}


# --- helpers ------------------------------------------------------------------------------------
def game_of(page: Page) -> tuple[str, str]:
    """(game id, seat token) of the game page."""
    u = urlparse(page.url)
    gid = u.path.rsplit("/", 1)[-1]
    token = dict(p.split("=", 1) for p in u.fragment.split("&") if "=" in p)["seat"]
    return gid, token


def view(server, gid, token, lang="en"):
    return server.call("GET", f"/api/games/{gid}?lang={lang}", token=token, expect=200)[1]


def wait_version(page: Page, version: int):
    expect(page.get_by_test_id("seat-info")).to_contain_text(f"#{version}")


def open_game(page: Page, server, link: str):
    page.goto(server.url + link)
    expect(page.get_by_test_id("counter-guy")).to_be_visible()


def hex_of(page: Page, char: str) -> str:
    return page.get_by_test_id(f"counter-{char}").get_attribute("data-at")


def click_end_step(page: Page, v0: int | None = None):
    """Click End step and, when the page asks (pieces can still act), confirm."""
    if v0 is None:
        v0 = int(re.search(r"#(\d+)", page.get_by_test_id("seat-info").inner_text()).group(1))
    page.get_by_test_id("end-step").click()
    moved = page.locator("[data-testid=seat-info]", has_text=f"#{v0 + 1}")
    yes = page.get_by_test_id("confirm-end-yes")
    expect(yes.or_(moved)).to_be_visible()
    if yes.is_visible():
        yes.click()


def end_step(page: Page):
    v0 = int(re.search(r"#(\d+)", page.get_by_test_id("seat-info").inner_text()).group(1))
    click_end_step(page, v0)
    wait_version(page, v0 + 1)


def seed_with_retreat(server) -> int:
    """A seed of the-hill where Dunstan's first arrow at Hugo makes him retreat (a prompt),
    found through the API (throw-away games), so the test follows the engine's dice."""
    for seed in range(1, 200):
        _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": seed}, expect=201)
        _, r = server.call("POST", f"/api/games/{g['id']}/actions", {"action": FIRST_SHOT, "version": 0}, token=g["seats"]["hotseat"], expect=200)
        if any(p["kind"] == "retreat" for p in r["view"]["pending"]):
            return seed
    raise AssertionError("no seed of the-hill gives a retreat on the first shot")


def drive_to_melee(server, gid, token, side="A", limit=200):
    """Through the API: skip fire, walk every character of the side to act towards the nearest
    enemy, until `side` has an attack on offer. The choices come from the server's options."""
    for _ in range(limit):
        v = view(server, gid, token)
        o = v["options"]
        if o["attacks"] and v["to_act"] == side:
            return v
        if o["prompts"]:
            act = o["prompts"][0]["action"]
        elif v["step"] == "movement" and o["moves"]:
            enemies = [Hex.from_label(c["hex"]) for c in v["characters"]
                       if c["side"] != v["to_act"] and c["hex"] and c["status"] != "dead"]
            pos = {c["id"]: Hex.from_label(c["hex"]) for c in v["characters"] if c["hex"]}
            best = None
            for ch, lst in sorted(o["moves"].items()):
                d0 = min(pos[ch].distance(e) for e in enemies)
                for mv in lst:
                    d = min(Hex.from_label(mv["to"]).distance(e) for e in enemies)
                    if d < d0 and (best is None or d < best[0]):
                        best = (d, mv["action"])
            act = best[1] if best else o["end_step"]
        else:
            act = o["end_step"]
        server.call("POST", f"/api/games/{gid}/actions", {"action": act, "version": v["version"]}, token=token, expect=200)
    raise AssertionError("no melee reached")


# --- hot-seat: created from the home page; fire, prompt, move, why-not, reload, restart ---------------
def test_hotseat_fire_prompt_move_reload_restart(page: Page, server_factory, artifacts):
    server = server_factory()
    seed = seed_with_retreat(server)
    page.goto(server.url + "/")
    card = page.get_by_test_id("scenario-card-the-hill")
    expect(card).to_contain_text("The hill")
    expect(card).to_contain_text("1505")                       # the victory text
    page.get_by_test_id("seed-the-hill").fill(str(seed))
    page.get_by_test_id("hotseat-the-hill").click()
    page.wait_for_url(re.compile(r"/play/[^#]+#seat="))
    expect(page.get_by_test_id("counter-dunstan")).to_be_visible()
    gid, token = game_of(page)
    v = view(server, gid, token)
    assert v["dice_commitment"] == hashlib.sha256(str(seed).encode()).hexdigest() and v["mode"] == "hotseat"
    assert "seed" not in v and "dice_seed" not in v                # the dice stay secret until the end

    # the phase bar
    expect(page.get_by_test_id("turn")).to_have_text("Turn 1/10")
    expect(page.get_by_test_id("step-offensive_fire")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.get_by_test_id("end-step")).to_be_visible()

    # --- fire: select the shooter, its legal targets are ringed; preview before committing
    page.get_by_test_id("counter-dunstan").click()
    offered = [f for f in v["options"]["fires"] if f["action"]["shooter"] == "dunstan"]
    for f in offered:
        expect(page.get_by_test_id(f"counter-{f['action']['target']}")).to_have_class(re.compile(r"\btarget\b"))
    page.get_by_test_id("counter-hugo").click()
    preview = page.get_by_test_id("preview")
    expect(preview).to_be_visible()
    ruling = next(f["ruling"] for f in offered if f["action"]["target"] == "hugo")
    expect(page.get_by_test_id("preview-band")).to_have_text(ruling["band"])
    expect(page.get_by_test_id("preview-cover")).to_have_text(ruling["cover"])
    rows = preview.get_by_test_id("prob")
    expect(rows).to_have_count(len(ruling["probabilities"]))
    shown = {r.get_attribute("data-letter"): float(r.get_attribute("data-p")) for r in rows.all()}
    assert shown == pytest.approx(ruling["probabilities"])
    for letter, p in ruling["probabilities"].items():
        row = preview.locator(f'[data-testid=prob][data-letter="{letter}"]')
        expect(row.get_by_test_id("prob-pct")).to_have_text(f"{round(p * 100, 1):g}%")
    expect(page.get_by_test_id("preview-explanation").locator("li")).to_have_count(len(ruling["explanation"]))
    for h in ruling["line"]:                                        # the line of fire on the board
        expect(page.get_by_test_id(f"los-{h}")).to_have_count(1)
    page.screenshot(path=str(artifacts / "hotseat-fire-preview.png"))
    page.get_by_test_id("commit").click()
    expect(preview).to_be_hidden()
    fire_ev = page.locator('[data-testid=log-event][data-type="fire"]').last
    logged = next(e for e in reversed(view(server, gid, token)["log"]) if e["type"] == "fire")
    assert logged["ruling"]["result"] in ruling["probabilities"]
    expect(fire_ev).to_contain_text(logged["text"])
    expect(fire_ev.locator("details li")).to_have_count(len(logged["ruling"]["explanation"]))
    expect(fire_ev.locator("details")).to_have_attribute("open", "")   # the new ruling, unfolded
    expect(fire_ev.get_by_test_id("citation").first).to_be_visible()
    cite = fire_ev.get_by_test_id("citation").first
    assert cite.get_attribute("title"), "a citation shows its section's title on hover"

    # --- the retreat prompt (side B decides; hot-seat acts for both)
    prompts = page.get_by_test_id("prompts")
    expect(prompts).to_be_visible()
    v = view(server, gid, token)
    assert v["pending"][0]["kind"] == "retreat" and v["to_act"] == "B"
    expect(page.get_by_test_id("pending")).to_contain_text("retreat")
    first = v["options"]["prompts"][0]["action"]
    dest = first["path"][-1]
    expect(page.get_by_test_id(f"prompt-dest-{dest}")).to_have_count(1)
    expect(page.get_by_test_id("end-step")).to_be_hidden()
    page.get_by_test_id(f"hex-{dest}").click()                  # a destination hex answers the prompt
    expect(page.get_by_test_id("counter-hugo")).to_have_attribute("data-at", dest)
    expect(prompts).to_be_hidden()

    # --- on to the movement step
    while view(server, gid, token)["step"] != "movement":
        end_step(page)
    expect(page.get_by_test_id("step-movement")).to_have_class(re.compile(r"\bcurrent\b"))
    v = view(server, gid, token)
    moves = v["options"]["moves"]["guy"]
    page.get_by_test_id("counter-guy").click()
    expect(page.get_by_test_id("reach-" + moves[0]["to"])).to_be_visible()
    expect(page.locator("[data-testid^=reach-]")).to_have_count(len(moves))
    for m in moves:                                               # the costs are the server's
        expect(page.get_by_test_id("reach-" + m["to"])).to_have_text(str(m["cost"]))
    target = max(moves, key=lambda m: (m["cost"], m["to"]))
    page.get_by_test_id("hex-" + target["to"]).hover()
    expect(page.get_by_test_id("path-line")).to_have_count(1)     # the path, shown on hover
    page.screenshot(path=str(artifacts / "hotseat-move.png"))
    page.get_by_test_id("hex-" + target["to"]).click()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", target["to"])
    assert view(server, gid, token)["characters"][[c["id"] for c in v["characters"]].index("guy")]["hex"] == target["to"]

    # --- why not? a hex that is not offered: the server names the rule
    page.get_by_test_id("counter-baldwin").click()
    expect(page.locator("[data-testid^=reach-]").first).to_be_visible()
    page.get_by_test_id("hex-2014").click()                          # far beyond Baldwin's movement
    why = page.get_by_test_id("why-not")
    expect(why).to_be_visible()
    expect(why.get_by_test_id("why-reason")).to_contain_text(re.compile(r"MC §\d"))
    expect(why.get_by_test_id("citation").first).to_be_visible()
    page.get_by_test_id("why-close").click()
    page.get_by_test_id("counter-baldwin").click()                   # deselect

    # --- undo (hot-seat): the move rolled no die
    before = view(server, gid, token)
    expect(page.get_by_test_id("undo")).to_be_visible()
    page.get_by_test_id("undo").click()
    wait_version(page, before["version"] - 1)
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", "0207")
    page.get_by_test_id("counter-guy").click()
    page.get_by_test_id("hex-" + target["to"]).click()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", target["to"])
    wait_version(page, before["version"])

    # --- reload: the same position
    n_events = page.get_by_test_id("log-event").count()
    positions = {c["id"]: c["hex"] for c in view(server, gid, token)["characters"]}
    page.reload()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", target["to"])
    expect(page.get_by_test_id("log-event")).to_have_count(n_events)
    for cid, h in positions.items():
        expect(page.get_by_test_id(f"counter-{cid}")).to_have_attribute("data-at", h)

    # --- kill -9 the server and start it again on the same database: the game is intact
    server.restart()
    page.reload()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", target["to"])
    expect(page.get_by_test_id("log-event")).to_have_count(n_events)
    for cid, h in positions.items():
        expect(page.get_by_test_id(f"counter-{cid}")).to_have_attribute("data-at", h)
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "live")
    assert view(server, gid, token)["version"] == before["version"]

    # --- replay: the slider walks the frames; the first one is the initial position
    page.get_by_test_id("replay-toggle").click()
    slider = page.get_by_test_id("replay-slider")
    expect(slider).to_be_visible()
    assert slider.get_attribute("max") == str(before["version"])
    page.get_by_test_id("replay-first").click()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", "0207")
    expect(page.get_by_test_id("counter-hugo")).to_have_attribute("data-at", "1404")
    expect(page.get_by_test_id("log-event")).to_have_count(1)
    expect(page.get_by_test_id("end-step")).to_be_hidden()        # read-only
    page.get_by_test_id("replay-exit").click()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", target["to"])

    # --- exports: the record and the report, downloaded with the seat header
    with page.expect_download() as dl:
        page.get_by_test_id("export-record").click()
    record = json.loads(open(dl.value.path(), encoding="utf-8").read())
    assert len(record["actions"]) == before["version"]
    with page.expect_download() as dl:
        page.get_by_test_id("export-report").click()
    report = open(dl.value.path(), encoding="utf-8").read()
    assert "Dunstan" in report
    assert dl.value.suggested_filename.endswith(".md")


# --- melee: reached through the API, played in the page -------------------------------------------
def test_melee_preview_and_commit(page: Page, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": SEED_MELEE}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = drive_to_melee(server, gid, token)
    option = v["options"]["attacks"][0]
    attacker, defender = option["action"]["attackers"][0], option["action"]["defenders"][0]
    open_game(page, server, g["links"]["hotseat"])
    expect(page.get_by_test_id("step-melee")).to_have_class(re.compile(r"\bcurrent\b"))

    page.get_by_test_id(f"counter-{attacker}").click()
    expect(page.get_by_test_id("attack-groups")).to_be_visible()
    groups = [a for a in v["options"]["attacks"] if attacker in a["action"]["attackers"]]
    expect(page.get_by_test_id("attack-groups").locator("button")).to_have_count(len(groups))
    expect(page.get_by_test_id(f"counter-{defender}")).to_have_class(re.compile(r"\btarget\b"))
    page.get_by_test_id("attack-group-" + str(groups.index(option))).click()
    preview = page.get_by_test_id("preview")
    expect(preview).to_be_visible()
    r = option["ruling"]
    expect(page.get_by_test_id("preview-odds")).to_have_text(r["odds"])
    expect(page.get_by_test_id("preview-column")).to_have_text(r["column"])
    shown = {x.get_attribute("data-letter"): float(x.get_attribute("data-p")) for x in preview.get_by_test_id("prob").all()}
    assert shown == pytest.approx(r["probabilities"])
    page.screenshot(path=str(artifacts / "melee-preview.png"))
    page.get_by_test_id("commit").click()
    ev = page.locator('[data-testid=log-event][data-type="melee"], [data-testid=log-event][data-type="attack"]').last
    expect(ev).to_be_visible()
    expect(ev.get_by_test_id("citation").first).to_be_visible()
    after = view(server, gid, token)
    melee_events = [e for e in after["log"] if e.get("ruling", {}).get("kind") == "melee"]
    assert melee_events, "the server logged the attack"
    expect(ev).to_contain_text(melee_events[-1]["text"])
    # answer every prompt the result raised, with the page's buttons
    for _ in range(6):
        if not view(server, gid, token)["options"]["prompts"]:
            break
        expect(page.get_by_test_id("prompts")).to_be_visible()
        version = view(server, gid, token)["version"]
        page.get_by_test_id("prompt-0").click()
        wait_version(page, version + 1)
    expect(page.get_by_test_id("prompts")).to_be_hidden()

    # why not: an attack the server does not offer (a defender out of contact)
    v = view(server, gid, token)
    if v["options"] and v["step"] == "melee" and v["to_act"] == "A":
        far = next(c for c in v["characters"] if c["side"] == "B" and c["status"] != "dead" and c["hex"]
                   and not any(c["id"] in a["action"]["defenders"] for a in v["options"]["attacks"]))
        page.get_by_test_id("counter-guy").click()
        page.get_by_test_id(f"counter-{far['id']}").click()
        expect(page.get_by_test_id("why-reason")).to_contain_text("§")


# --- online: two seats, live updates, no controls for the side that waits -----------------------------
def test_online_two_seats_live(browser, server, artifacts):
    ctx_a = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx_b = browser.new_context(viewport={"width": 1024, "height": 1366})
    try:
        a = ctx_a.new_page()
        a.add_init_script("localStorage.setItem('oriflamme.lang', 'en')")
        a.goto(server.url + "/")
        a.get_by_test_id("online-the-hill").click()        # an online game's dice are the server's
        expect(a.get_by_test_id("links-dialog")).to_be_visible()
        link_a = a.get_by_test_id("seat-link-A").input_value()
        link_b = a.get_by_test_id("seat-link-B").input_value()
        assert link_a.startswith(server.url + "/play/") and "#seat=" in link_a and link_a != link_b
        expect(a.get_by_test_id("open-A")).to_have_attribute("href", link_a)
        a.get_by_test_id("copy-A").click()                               # copying never breaks the page
        a.goto(link_a)
        b = ctx_b.new_page()
        b.add_init_script("localStorage.setItem('oriflamme.lang', 'en')")
        b.goto(link_b)
        for p in (a, b):
            expect(p.get_by_test_id("counter-guy")).to_be_visible()
            expect(p.get_by_test_id("conn-status")).to_have_attribute("data-state", "live")

        # B waits: no action controls
        expect(b.get_by_test_id("waiting")).to_contain_text("Waiting for Raiders")
        expect(b.get_by_test_id("end-step")).to_be_hidden()
        expect(b.locator(".counter.actor")).to_have_count(0)
        expect(a.get_by_test_id("your-turn")).to_be_visible()
        expect(a.get_by_test_id("end-step")).to_be_visible()

        # A ends the fire step and moves: B sees both live (WebSocket), without reloading
        click_end_step(a)
        expect(b.get_by_test_id("step-movement")).to_have_class(re.compile(r"\bcurrent\b"))
        gid, token_a = game_of(a)
        _, token_b = game_of(b)
        v = view(server, gid, token_a)
        mv = v["options"]["moves"]["cole"][0]
        a.get_by_test_id("counter-cole").click()
        a.get_by_test_id("hex-" + mv["to"]).click()
        expect(b.get_by_test_id("counter-cole")).to_have_attribute("data-at", mv["to"])
        expect(b.locator('[data-testid=log-event]').last).to_contain_text("Cole")

        # B cannot act for A: clicking A's counter offers nothing, a forged POST is refused
        b.get_by_test_id("counter-guy").click()
        expect(b.get_by_test_id("selection")).to_contain_text("Sir Guy")
        expect(b.locator("[data-testid^=reach-]")).to_have_count(0)
        status = b.evaluate("""async ([gid, token, version]) => {
            const r = await fetch(`/api/games/${gid}/actions`, {method: 'POST',
              headers: {'X-Seat': token, 'Content-Type': 'application/json'},
              body: JSON.stringify({action: {type: 'end_step'}, version})});
            return [r.status, (await r.json()).error];
        }""", [gid, token_b, v["version"] + 1])
        assert status == [403, "not_your_turn"]
        assert view(server, gid, token_a)["version"] == v["version"] + 1     # nothing changed

        # undo online: A asks, B accepts (live on both sides)
        expect(a.get_by_test_id("undo-request")).to_be_visible()
        a.get_by_test_id("undo-request").click()
        expect(a.get_by_test_id("undo-pending")).to_be_visible()
        expect(b.get_by_test_id("undo-accept")).to_be_visible()
        b.screenshot(path=str(artifacts / "online-seat-b-tablet.png"))
        b.get_by_test_id("undo-accept").click()
        expect(a.get_by_test_id("counter-cole")).to_have_attribute("data-at", "0405")
        expect(b.get_by_test_id("counter-cole")).to_have_attribute("data-at", "0405")
        expect(a.get_by_test_id("undo-pending")).to_have_count(0)
    finally:
        ctx_a.close()
        ctx_b.close()


# --- languages ---------------------------------------------------------------------------------------
def test_french(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    open_game(page, server, g["links"]["hotseat"])
    expect(page.get_by_test_id("end-step")).to_have_text("End step")
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("end-step")).to_have_text("Fin de l'étape")
    expect(page.get_by_test_id("step-offensive_fire")).to_contain_text("Tir offensif")
    expect(page.get_by_test_id("turn")).to_have_text("Tour 1/10")
    expect(page.get_by_test_id("scenario-name")).to_have_text("La colline")
    expect(page.get_by_test_id("log-event").first).to_contain_text("Tour 1, phase du camp « Pillards »")
    # an engine text fetched in French: the fire preview and the log after a shot
    page.get_by_test_id("counter-dunstan").click()
    page.get_by_test_id("counter-hugo").click()
    expect(page.get_by_test_id("preview-explanation")).to_contain_text("tire sur Hugo")
    expect(page.get_by_test_id("commit")).to_contain_text("Valider")
    page.get_by_test_id("commit").click()
    expect(page.locator('[data-testid=log-event][data-type="fire"]').last).to_contain_text("tire sur Hugo")
    # persisted: a reload stays in French
    page.reload()
    expect(page.get_by_test_id("end-step")).to_have_text("Fin de l'étape")
    expect(page.get_by_test_id("legend")).to_contain_text("Légende")
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("end-step")).to_have_text("End step")
    expect(page.get_by_test_id("log-event").first).to_contain_text("Turn 1, phase of side “Raiders”")
    # the home page follows the same setting
    page.get_by_test_id("lang-fr").click()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("scenario-card-the-hill")).to_contain_text("La colline")
    expect(page.get_by_test_id("hotseat-the-hill")).to_have_text("Même écran")


# --- errors: an illegal action (409) is shown in a toast, and the page keeps its place -----------------
def test_illegal_action_toast(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    open_game(page, server, g["links"]["hotseat"])
    # someone else (another tab) plays meanwhile: the page's version is stale, the server says so
    gid, token = g["id"], g["seats"]["hotseat"]
    page.get_by_test_id("counter-dunstan").click()
    page.get_by_test_id("counter-hugo").click()
    expect(page.get_by_test_id("preview")).to_be_visible()
    page.evaluate("window.oriflamme.state.ws.onclose = null; window.oriflamme.state.ws.close()")  # no live update
    server.call("POST", f"/api/games/{gid}/actions", {"action": {"type": "end_step"},
                                                       "version": view(server, gid, token)["version"]}, token=token, expect=200)
    page.get_by_test_id("commit").click()
    expect(page.get_by_test_id("toast").first).to_be_visible()
    expect(page.get_by_test_id("step-movement")).to_have_class(re.compile(r"\bcurrent\b"))
    # a 409 "illegal" from the engine (an action the page would never offer, posted through the
    # page's own path): the refusal and its rule reach a toast, and nothing moves
    page.get_by_test_id("counter-guy").click()
    page.evaluate("window.oriflamme.commit({type: 'move', char: 'guy', path: ['2014']})")
    toast = page.get_by_test_id("toast").filter(has_text="MC §")
    expect(toast).to_be_visible()
    expect(page.get_by_test_id("counter-guy")).to_have_attribute("data-at", "0207")
    expect(page.get_by_test_id("selection")).to_contain_text("Sir Guy")       # the player's place is kept


# --- screenshots for the eye: laptop and tablet ---------------------------------------------------------
@pytest.mark.parametrize("size", [(1366, 768), (1024, 1366)], ids=["laptop", "tablet"])
def test_screenshots(browser, server, artifacts, size):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": SEED_MELEE}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    drive_to_melee(server, gid, token)
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        p = ctx.new_page()
        p.add_init_script("localStorage.setItem('oriflamme.lang', 'en')")
        open_game(p, server, g["links"]["hotseat"])
        v = view(server, gid, token)
        attacker = v["options"]["attacks"][0]["action"]["attackers"][0]
        p.get_by_test_id(f"counter-{attacker}").click()
        p.get_by_test_id("attack-group-0").click()
        expect(p.get_by_test_id("preview")).to_be_visible()
        p.get_by_test_id("legend").locator("summary").click()
        p.screenshot(path=str(artifacts / f"game-{size[0]}x{size[1]}.png"))
        # the board fills its frame and every hex of the map is drawn
        box = p.get_by_test_id("board").bounding_box()
        assert box["width"] >= min(size[0] * 0.6, 900) and box["height"] >= 380
        assert p.locator("[data-testid^=hex-]").count() == 20 * 14
    finally:
        ctx.close()


# --- zoom and pan: buttons, wheel (around the cursor), mouse drag; a drag is not a click --------------
def test_zoom_and_pan(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "hamlet-raid", "mode": "hotseat", "seed": 5}, expect=201)
    page.goto(server.url + g["links"]["hotseat"])
    expect(page.locator("[data-testid^=counter-]").first).to_be_visible()
    assert page.locator(".hexside.feature-low_wall").count() > 0 and page.locator(".hexside.feature-fence").count() > 0
    vp = page.locator("svg.board-svg > g.viewport")

    def transform():
        m = re.match(r"translate\(([-\d.]+),([-\d.]+)\) scale\(([-\d.]+)\)", vp.get_attribute("transform"))
        return tuple(float(x) for x in m.groups())

    tx0, ty0, s0 = transform()
    page.get_by_test_id("zoom-in").click()
    assert transform()[2] == pytest.approx(s0 * 1.25, rel=1e-3)
    page.get_by_test_id("zoom-out").click()
    assert transform()[2] == pytest.approx(s0, rel=1e-3)
    # the wheel zooms around the cursor: the hex under it stays under it
    hexbox = page.get_by_test_id("hex-1007").bounding_box()
    cx, cy = hexbox["x"] + hexbox["width"] / 2, hexbox["y"] + hexbox["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"document.querySelector('svg.board-svg > g.viewport').getAttribute('transform').split('scale(')[1].startsWith('{s0:.4f}') === false")
    assert transform()[2] > s0
    after = page.get_by_test_id("hex-1007").bounding_box()
    assert abs(after["x"] + after["width"] / 2 - cx) < 2 and abs(after["y"] + after["height"] / 2 - cy) < 2
    # a drag pans and selects nothing
    t1 = transform()
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 40, steps=5)
    page.mouse.up()
    t2 = transform()
    assert t2[0] == pytest.approx(t1[0] + 60, abs=1) and t2[1] == pytest.approx(t1[1] + 40, abs=1)
    expect(page.get_by_test_id("selection")).to_be_hidden()
    page.get_by_test_id("zoom-reset").click()
    assert transform() == pytest.approx((tx0, ty0, s0), abs=0.01)
    # the legend names this map's terrains and hexside features
    page.get_by_test_id("legend").locator("summary").click()
    for tid in ("building", "garden", "vines", "low_wall", "fence"):
        expect(page.get_by_test_id(f"legend-{tid}")).to_be_visible()


# --- riders: two hexes, a facing, the choice of facing, dismounting (§1.2, §4.4) -----------------------
def test_rider_moves_with_a_chosen_facing_and_dismounts(page: Page, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-ford", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = view(server, gid, token)
    if v["step"] == "offensive_fire":  # to the movement step, through the API
        server.call("POST", f"/api/games/{gid}/actions", {"action": v["options"]["end_step"], "version": v["version"]},
                    token=token, expect=200)
        v = view(server, gid, token)
    assert v["step"] == "movement"
    page.goto(server.url + g["links"]["hotseat"])
    robert = next(c for c in v["characters"] if c["id"] == "robert")
    body = page.get_by_test_id("rider-body-robert")
    expect(body).to_have_attribute("data-front", robert["hex"])
    expect(body).to_have_attribute("data-rear", robert["rear"])

    # a rider's moves are not in the view (hundreds): the page fetches them when he is selected
    assert "robert" not in v["options"]["moves"] and v["options"]["reach"]["robert"]
    _, got = server.call("GET", f"/api/games/{gid}/moves/robert", token=token, expect=200)
    moves = got["moves"]
    assert got["version"] == v["version"]
    assert {m["to"]: min(x["cost"] for x in moves if x["to"] == m["to"]) for m in moves} == v["options"]["reach"]["robert"]
    # a hex the server reaches with several facings: the page asks which one
    by_hex: dict[str, list] = {}
    for m in moves:
        by_hex.setdefault(m["to"], []).append(m)
    dest, options = next((h, ms) for h, ms in sorted(by_hex.items()) if len(ms) > 1)
    page.get_by_test_id("counter-robert").click()
    expect(page.get_by_test_id("reach-" + dest)).to_have_text(str(min(m["cost"] for m in options)))
    page.get_by_test_id("hex-" + dest).click()
    choice = page.get_by_test_id("facing-choice")
    expect(choice).to_be_visible()
    expect(choice.locator("button")).to_have_count(len(options))
    page.screenshot(path=str(artifacts / "rider-facing-choice.png"))
    chosen = sorted(options, key=lambda m: (m["cost"], m["facing"]))[-1]
    page.get_by_test_id(f"facing-{len(options) - 1}").click()
    wait_version(page, v["version"] + 1)
    after = view(server, gid, token)
    r2 = next(c for c in after["characters"] if c["id"] == "robert")
    assert (r2["hex"], r2["facing"]) == (dest, chosen["facing"])
    expect(page.get_by_test_id("rider-body-robert")).to_have_attribute("data-rear", r2["rear"])

    # dismount from the selection card when the server offers it; the horse stays on the board
    extras = [x for x in after["options"].get("extras", []) if x["action"]["type"] == "dismount"
              and x["action"]["char"] == "robert"]
    if extras:
        page.get_by_test_id("counter-robert").click()
        expect(page.get_by_test_id("extra-actions")).to_be_visible()
        page.get_by_test_id("extra-0").click()
        wait_version(page, after["version"] + 1)
        last = view(server, gid, token)
        horse = next(h for h in last["horses"] if h["id"].startswith("robert"))
        expect(page.get_by_test_id("horse-" + horse["id"])).to_be_visible()
        page.screenshot(path=str(artifacts / "rider-dismounted.png"))


# --- carts and camels: the extra actions of the movement step (§4.5, §4.6.4) -------------------------
def _to_movement(server, gid, token):
    v = view(server, gid, token)
    while v["step"] != "movement":
        server.call("POST", f"/api/games/{gid}/actions", {"action": v["options"]["end_step"], "version": v["version"]},
                    token=token, expect=200)
        v = view(server, gid, token)
    return v


def test_the_carter_drives_his_ox_cart_and_a_camel_kneels(page: Page, server, artifacts):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hay-cart", "mode": "hotseat", "seed": 1}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = _to_movement(server, gid, token)
    mine = [x for x in v["options"]["extras"] if x["action"].get("char") == "colin"]
    i, drive = next((i, x) for i, x in enumerate(mine) if x["action"]["type"] == "drive_cart")
    assert drive["ruling"]["legal"]
    page.goto(server.url + g["links"]["hotseat"])
    page.get_by_test_id("counter-colin").click()
    expect(page.get_by_test_id("extra-actions")).to_be_visible()
    button = page.get_by_test_id(f"extra-{i}")
    expect(button).to_contain_text(drive["action"]["path"][-1])
    page.screenshot(path=str(artifacts / "cart-drive-options.png"))
    button.click()
    wait_version(page, v["version"] + 1)
    after = view(server, gid, token)
    cart = after["carts"][0]
    assert cart["moving"] and cart["hexes"] != v["carts"][0]["hexes"]
    assert any(e["type"] == "cart_moves" for e in after["log"])

    # the caravan: Khafr makes his own camel kneel from the selection card (2 PM, §4.6.4)
    _, g = server.call("POST", "/api/games", {"scenario": "the-caravan", "mode": "hotseat", "seed": 1}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = view(server, gid, token)
    while not (v["step"] == "movement" and v["to_act"] == "A"):
        server.call("POST", f"/api/games/{gid}/actions", {"action": v["options"]["end_step"], "version": v["version"]},
                    token=token, expect=200)
        v = view(server, gid, token)
    mine = [x for x in v["options"]["extras"] if x["action"].get("char") == "khafr"]
    i = next(i for i, x in enumerate(mine) if x["action"]["type"] == "kneel")
    page.goto(server.url + g["links"]["hotseat"])
    page.get_by_test_id("counter-khafr").click()
    expect(page.get_by_test_id(f"extra-{i}")).to_be_visible()
    page.get_by_test_id(f"extra-{i}").click()
    wait_version(page, v["version"] + 1)
    after = view(server, gid, token)
    assert any(e["type"] == "kneel" or "kneel" in e["text"] for e in after["log"][len(v["log"]):])
    page.screenshot(path=str(artifacts / "camel-kneels.png"))


# --- secret dice: the commitment is shown from the start, the seed once the game is over -------------
def test_dice_commitment_then_the_seed_checked_at_the_end(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    open_game(page, server, g["links"]["hotseat"])
    commitment = g["dice_commitment"]
    shown = page.get_by_test_id("dice-commitment")
    expect(shown).to_contain_text("Dice sealed: " + commitment[:8] + "…")
    expect(shown).to_have_attribute("data-commitment", commitment)
    assert commitment in shown.get_attribute("title")
    expect(page.get_by_test_id("dice-seed")).to_have_count(0)             # secret while the game runs
    page.get_by_test_id("lang-fr").click()
    expect(shown).to_contain_text("Dés scellés : " + commitment[:8])
    page.get_by_test_id("lang-en").click()
    # the shortest way to the end: every step ended (and any prompt answered) through the API;
    # the page follows live (WebSocket)
    for _ in range(400):
        v = view(server, gid, token)
        if v["over"]:
            break
        o = v["options"]
        act = o["prompts"][0]["action"] if o["prompts"] else o["end_step"]
        server.call("POST", f"/api/games/{gid}/actions", {"action": act, "version": v["version"]}, token=token, expect=200)
    assert v["over"] and str(v["dice_seed"]) == "3"
    assert hashlib.sha256(b"3").hexdigest() == commitment
    seed = page.get_by_test_id("dice-seed")
    expect(seed).to_contain_text("seed 3")
    expect(seed).to_have_attribute("data-verified", "true")               # SHA-256 computed in the page
    expect(page.get_by_test_id("dice-check")).to_contain_text("✓ matches the commitment")
    page.get_by_test_id("lang-fr").click()
    expect(page.get_by_test_id("dice-check")).to_contain_text("✓ conforme à l'engagement")


# --- the ruleset's browser module: served from its package; an unknown ruleset's path is 404 ----------
def test_the_ruleset_module_is_served_and_unknown_ones_are_404(page: Page, server):
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    open_game(page, server, g["links"]["hotseat"])   # the board drawn by the imported module
    status = page.evaluate("""async () => Promise.all([
        "/static/rulesets/magna-carta/module.js", "/static/rulesets/magna-carta/board.js",
        "/static/rulesets/no-such-ruleset/module.js", "/static/rulesets/magna-carta/nothing.js",
    ].map((u) => fetch(u).then((r) => r.status)))""")
    assert status == [200, 200, 404, 404]


# --- a ruleset without a browser module: the generic page lists its legal actions -------------------
def test_a_ruleset_without_module_gets_its_legal_actions_as_buttons(page: Page, fixture_server):
    url, rs = fixture_server
    req = urllib.request.Request(url + "/api/games", method="POST", headers={"Content-Type": "application/json"},
                                 data=json.dumps({"scenario": rs.scenario_ids()[0], "ruleset": rs.id, "mode": "hotseat"}).encode())
    with urllib.request.urlopen(req) as r:
        g = json.loads(r.read())
    page.goto(url + g["links"]["hotseat"])
    buttons = page.locator("[data-testid^=action-]")
    expect(buttons.first).to_be_visible()
    expect(page.get_by_test_id("dice-commitment")).to_contain_text(g["dice_commitment"][:8])
    first_label = buttons.first.inner_text()
    buttons.first.click()
    wait_version(page, 1)
    expect(page.get_by_test_id("log-event").first).to_be_visible()
    assert first_label


# --- security headers: the pages work under their Content-Security-Policy -----------------------------
def test_pages_run_under_their_content_security_policy(page: Page, server):
    """The home page and a game page (board, module, WebSocket, a move) with the server's CSP:
    the header is there, and the browser reports no violation."""
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', "
                         "(e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
    r = page.goto(server.url + "/")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    expect(page.get_by_test_id("scenario-card-the-hill")).to_be_visible()   # home.js ran, fetched the list
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 3}, expect=201)
    open_game(page, server, g["links"]["hotseat"])
    token = g["seats"]["hotseat"]
    v = view(server, g["id"], token)
    while v["step"] != "movement":
        end_step(page)
        v = view(server, g["id"], token)
    char, moves = sorted(v["options"]["moves"].items())[0]
    page.get_by_test_id(f"counter-{char}").click()
    page.get_by_test_id("hex-" + moves[0]["to"]).click()
    expect(page.get_by_test_id(f"counter-{char}")).to_have_attribute("data-at", moves[0]["to"])
    page.get_by_test_id("lang-fr").click()
    page.get_by_test_id("lang-en").click()
    # the army builder page too (its editor module comes from the ruleset's package)
    page.goto(server.url + "/army/guerres-fleuries")
    page.wait_for_load_state("networkidle")
    assert violations == []
