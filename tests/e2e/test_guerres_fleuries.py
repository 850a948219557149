"""Les Guerres Fleuries in the browser (issue 13): the module draws the 180 × 120 cm table, its
terrain, zones and units, the 11-phase bar, the tools (tape, arcs, movement preview), the order
chits and the hot-seat cover; one seat's page never shows the other seat's orders before the
reveal.

Two kinds of tests:
* on a recorded view (tests/fixtures/gf_view.py) fed to the real page through Playwright's request
  routing: the drawing and the secrecy of the page itself, on a position of known content;
* on the real server and engine (when the ruleset can play): a hot-seat and an online game.
"""

from __future__ import annotations

import json
import socket
import threading

import pytest
from playwright.sync_api import Page, expect

from fixtures import gf_view as fx


@pytest.fixture
def gf_server(tmp_path):
    import uvicorn

    from oriflamme.web.app import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(tmp_path / "gf.sqlite3"), host="127.0.0.1", port=port,
                                        log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        th.join(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(10)


class FakeGame:
    """The game API of one page, answered from recorded views: GET gives ``self.view``, POST
    /actions records the action and moves to ``self.after(action)``, POST /explain answers a ruling."""

    def __init__(self, page: Page, view: dict, after=None):
        self.view, self.after, self.posted, self.explained = view, after, [], []
        self.unknown = []
        page.route("**/api/games/fixture/**", self._unknown)
        page.route_web_socket("**/api/games/fixture/ws**", lambda ws: ws.send(json.dumps({"type": "hello", "version": view["version"]})))
        page.route("**/api/games/fixture?**", self._get)
        page.route("**/api/games/fixture/actions**", self._post)
        page.route("**/api/games/fixture/explain**", self._explain)

    def _unknown(self, route):
        self.unknown.append(route.request.url)
        route.fulfill(status=404, content_type="application/json", body=json.dumps({"error": "not_found", "message": route.request.url}))

    def _get(self, route):
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.view))

    def _post(self, route):
        body = json.loads(route.request.post_data)
        self.posted.append(body["action"])
        if self.after:
            self.view = self.after(body["action"])
        route.fulfill(status=200, content_type="application/json", body=json.dumps({"view": self.view, "events": []}))

    def _explain(self, route):
        body = json.loads(route.request.post_data)
        self.explained.append(body["action"])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(fx.ruling_of_move(body["action"])))


def open_fixture(page: Page, base: str, view: dict, after=None) -> FakeGame:
    game = FakeGame(page, view, after)
    page.goto(base + "/play/fixture#seat=tok")
    expect(page.get_by_test_id("gf-svg")).to_be_visible()
    return game


def test_the_table_terrain_units_and_phase_bar(page: Page, gf_server, artifacts):
    v = fx.view()
    v["mode"] = "online"; v["seat"] = "A"   # no hot-seat cover here
    open_fixture(page, gf_server, v)
    # the table is 180 × 120 cm, with its terrain and both deployment zones
    vb = page.get_by_test_id("gf-svg").get_attribute("viewBox").split()
    assert float(vb[2]) - 14 == 180 and float(vb[3]) - 14 == 120
    assert page.locator("[data-testid=gf-terrain]").count() == len(fx.TERRAIN)
    expect(page.locator("[data-testid=gf-terrain][data-kind=stream] polyline")).to_have_count(1)
    expect(page.get_by_test_id("gf-zone-A")).to_be_attached()
    expect(page.get_by_test_id("gf-zone-B")).to_be_attached()
    # every unit is drawn, a troop as a rotated base rectangle at its corners
    for u in v["units"]:
        expect(page.get_by_test_id("gf-unit-" + u["id"])).to_be_attached()
    poly = page.locator("[data-testid=gf-unit-b1] polygon").first.get_attribute("points")
    drawn = [[float(c) for c in p.split(",")] for p in poly.split()]
    assert all(abs(a - b) < 0.02 for p, q in zip(drawn, fx.view()["units"][4]["corners"]) for a, b in zip(p, q))
    expect(page.get_by_test_id("gf-unit-a3")).to_contain_text("27/30")
    expect(page.get_by_test_id("gf-marker-red")).to_have_count(1)
    expect(page.get_by_test_id("gf-marker-yellow")).to_have_count(1)   # b2 in disorder
    # the 11 phases, each with its citation; phase 3 current
    for p in v["phases"]:
        step = page.get_by_test_id("step-" + p["id"])
        expect(step).to_be_attached()
        assert p["ref"] in step.get_attribute("title")
    expect(page.get_by_test_id("step-p3")).to_have_attribute("aria-current", "step")
    page.screenshot(path=str(artifacts / "gf-table.png"))


def test_selection_arcs_moves_and_odds(page: Page, gf_server, artifacts):
    v = fx.view()
    v["mode"] = "online"; v["seat"] = "A"
    game = open_fixture(page, gf_server, v)
    page.get_by_test_id("gf-unit-a2").click()
    expect(page.get_by_test_id("gf-unit-name")).to_contain_text("Noble warriors of the eagle")
    expect(page.get_by_test_id("gf-arcs")).to_be_attached()
    expect(page.get_by_test_id("gf-move-allowance")).to_contain_text("15.0 cm")
    expect(page.get_by_test_id("gf-penalties")).to_contain_text("Flower stream")
    expect(page.get_by_test_id("gf-penalties").get_by_test_id("citation")).to_have_text("GF-D2")
    # a sampled destination: the server rules on it before anything is committed
    page.locator("[data-testid=gf-move-sample][data-i='1']").click()
    expect(page.get_by_test_id("gf-preview")).to_contain_text("spent")
    assert game.explained[-1] == {"type": "move", "side": "A", "unit": "a2", "x": 95, "y": 94.5, "heading": 0}
    page.get_by_test_id("gf-move-commit").click()
    assert game.posted[-1] == {"type": "move", "side": "A", "unit": "a2", "x": 95, "y": 94.5, "heading": 0}
    # the slingers' fire: the percentage before the roll, with its citation
    page.get_by_test_id("gf-unit-a3").click()
    expect(page.get_by_test_id("gf-fire-odds")).to_contain_text("22 %")
    expect(page.get_by_test_id("gf-fire-odds").get_by_test_id("citation")).to_have_text("GF Tirs")
    page.screenshot(path=str(artifacts / "gf-selected.png"))


def test_the_measuring_tape(page: Page, gf_server, artifacts):
    v = fx.view()
    v["mode"] = "online"; v["seat"] = "A"
    open_fixture(page, gf_server, v)
    page.get_by_test_id("gf-tool-tape").click()
    svg = page.get_by_test_id("gf-svg")
    # from table point (30, 30) to (90, 110): 100 cm, measured in the table's own centimetres
    pt = lambda x, y: page.evaluate("""([x, y]) => { const s = document.querySelector('[data-testid=gf-svg]');
        const p = s.createSVGPoint(); p.x = x; p.y = y; const q = p.matrixTransform(s.getScreenCTM());
        return [q.x, q.y]; }""", [x, y])
    (x0, y0), (x1, y1) = pt(30, 30), pt(90, 110)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    expect(page.get_by_test_id("gf-tape-label")).to_contain_text("100.0 cm")
    expect(page.get_by_test_id("gf-tape-read")).to_contain_text("100.0 cm")
    assert svg.is_visible()
    page.screenshot(path=str(artifacts / "gf-tape.png"))


def test_hot_seat_orders_stay_secret_until_the_reveal(page: Page, gf_server, artifacts):
    """Side A gives its orders; the screen is covered; side B's page shows A's chits face down
    and nowhere the order's name; after the reveal both see it."""
    state = {"step": 0}

    def after(action):
        assert action["type"] == "orders"
        state["step"] += 1
        if state["step"] == 1:   # A's orders are in: B to act, A's orders hidden from B's view
            return fx.view(to_act="B", submitted={"A": True, "B": False}, a_orders=action["orders"] and
                           {k: x["order"] for k, x in action["orders"].items()})
        return fx.view(to_act="A", phase="p4", submitted={"A": True, "B": True}, reveal=True,
                       a_orders={"a1": fx.SECRET_ORDER})

    game = open_fixture(page, gf_server, fx.view(), after)
    # the cover first: side B looks away while A chooses
    expect(page.get_by_test_id("gf-cover")).to_be_visible()
    expect(page.get_by_test_id("gf-cover")).to_contain_text("Aztec host")
    page.screenshot(path=str(artifacts / "gf-cover.png"))
    page.get_by_test_id("gf-take-screen").click()
    expect(page.get_by_test_id("gf-cover")).to_be_hidden()
    page.get_by_test_id("gf-order-a1").select_option(fx.SECRET_ORDER)
    expect(page.locator("[data-testid=gf-chit][data-unit=a1]")).to_contain_text("ADV")
    page.screenshot(path=str(artifacts / "gf-orders.png"))
    page.get_by_test_id("gf-submit-orders").click()
    assert game.posted[-1] == {"type": "orders", "side": "A", "orders": {"a1": {"order": fx.SECRET_ORDER, "target": None}}}
    # the screen changes hands: covered, and nothing of A's orders anywhere on B's page
    expect(page.get_by_test_id("gf-cover")).to_be_visible()
    expect(page.get_by_test_id("gf-cover")).to_contain_text("Saurian warband")
    page.get_by_test_id("gf-take-screen").click()
    expect(page.locator("[data-testid=gf-chit-hidden][data-unit=a1]")).to_have_count(1)
    secret = next(o for o in fx.orders() if o["id"] == fx.SECRET_ORDER)
    # nowhere about A's unit: not on the table (its label, its chit, its tooltip), not in the roster,
    # not in the page's copy of the view
    shown = page.get_by_test_id("gf-unit-a1").text_content() + page.get_by_test_id("gf-roster-a1").text_content()
    for word in (secret["name"], secret["name_fr"], fx.SECRET_ORDER, "ADV", "AVA"):
        assert word.lower() not in shown.lower(), (word, shown)
    seen = page.evaluate("JSON.stringify(window.oriflamme.state.view.units.filter(u => u.side === 'A'))")
    assert fx.SECRET_ORDER not in seen and secret["name"] not in seen
    page.screenshot(path=str(artifacts / "gf-hidden.png"))
    # B gives its orders; phase 4 reveals A's
    page.get_by_test_id("gf-submit-orders").click()
    expect(page.locator("[data-testid=gf-chit][data-unit=a1]")).to_contain_text("ADV")
    expect(page.get_by_test_id("step-p4")).to_have_attribute("aria-current", "step")


def test_french(page: Page, gf_server):
    v = fx.view()
    v["mode"] = "online"; v["seat"] = "A"
    open_fixture(page, gf_server, v)
    page.get_by_test_id("lang-switch").get_by_text("FR").click()
    expect(page.get_by_test_id("gf-tool-tape")).to_contain_text("Mètre")
    expect(page.get_by_test_id("step-p3")).to_contain_text("Phase d'ordres")
