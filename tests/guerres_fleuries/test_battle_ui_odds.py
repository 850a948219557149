"""The percentages the page shows before a roll (``Ruleset.option_detail``, served at
``GET /api/games/{id}/moves/{unit}``): for the selected unit, its fire percentage against each enemy
it may shoot at and both sides' melee percentages against each enemy in contact — the very
previews of gf-combat (and so the part-1 referee's rulings), and no die rolled to give them."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from oriflamme.core.record import Game
from oriflamme.rulesets.guerres_fleuries.battle import fire_play, melee_play
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries
from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits

SCENARIO = "battle-of-the-flowers"


def facing(seed: int = 1):
    """The bundled battle just set up, with the slingers A4 at (90, 80) facing the great saurian B8
    at 21.2 cm (farthest points: long range for a sling) and the club bearers B2 in base contact
    with the spearmen A3 — a position of known content (poses set by hand)."""
    rs = GuerresFleuries()
    g = Game(rs, rs.load_scenario(SCENARIO), seed)
    st = g.state
    for uid, (x, y, h) in {"A4": (90, 80, 0), "B8": (90, 72.3, 180), "A3": (40, 80, 0)}.items():
        st.units[uid].x, st.units[uid].y, st.units[uid].heading = x, y, h
    a3, b2 = st.units["A3"], st.units["B2"]
    b2.x, b2.y, b2.heading = 40, 80 - a3.depth / 2 - b2.depth / 2, 180
    return rs, g


def detail_of(seed: int = 1) -> dict:
    """The detail the page gets for the slingers (the e2e test feeds it to the page)."""
    rs, g = facing(seed)
    return rs.option_detail(g.state, "A4")


def test_fire_odds_are_the_fire_preview():
    rs, g = facing()
    before = rs.digest(g.state)
    d = rs.option_detail(g.state, "A4")
    assert [f["target"] for f in d["fire"]] == ["B8"]
    for f in d["fire"]:
        p = fire_play.preview(g.state, "A4", f["target"])
        assert p["eligible"] and f["percent"] == p["percent"]
        assert f["steps"] and f["citations"]
    assert rs.digest(g.state) == before        # no die, no change


def test_the_fire_arc_is_the_fire_codes():
    """A unit with a missile weapon gets the polygon the fire code tests targets against (45° out of
    the front corners, OR-GF50), reaching the weapon's longest range; the target in the arc is inside."""
    from shapely.geometry import Polygon

    from oriflamme.geometry import tabletop
    rs, g = facing()
    d = rs.option_detail(g.state, "A4")
    fa = d["fire_arc"]
    assert fa["range_cm"] == fire_play.max_range(g.state.units["A4"]) and fa["half_angle_deg"] == 45
    assert fa["decision"] == "OR-GF50" and "l.848" in fa["ref"]
    fan = Polygon(fa["points"])
    b8 = g.state.units["B8"]
    assert fan.intersects(tabletop.footprint(b8.pose, b8.width, b8.depth))
    assert "fire_arc" not in rs.option_detail(g.state, "A3")          # spearmen: no missile weapon


def test_melee_odds_are_the_melee_preview():
    rs, g = facing()
    d = rs.option_detail(g.state, "A3")
    assert [m["target"] for m in d["melee"]] == ["B2"] and d["fire"] == []
    for m in d["melee"]:
        p = melee_play.preview(g.state, "A3", m["target"])
        assert p["in_contact"]
        assert m["percent"] == p["a_on_b"].get("percent") and m["enemy_percent"] == p["b_on_a"].get("percent")
        assert m["steps"] and m["citations"]


def test_unknown_unit_and_the_web_route(tmp_path):
    rs = GuerresFleuries()
    g = Game(rs, rs.load_scenario(SCENARIO), 1)
    with pytest.raises(KeyError):
        rs.option_detail(g.state, "nosuch")
    with TestClient(create_app(tmp_path / "o.sqlite3", limits=Limits(requests_per_second=0))) as c:
        r = c.post("/api/games", json={"scenario": SCENARIO, "ruleset": "guerres-fleuries", "mode": "hotseat", "seed": 1}).json()
        tok = r["seats"]["hotseat"]
        v = c.get(f"/api/games/{r['id']}", headers={"X-Seat": tok}).json()
        uid = v["units"][0]["id"]
        d = c.get(f"/api/games/{r['id']}/moves/{uid}", headers={"X-Seat": tok})
        assert d.status_code == 200 and d.json()["unit"] == uid and {"fire", "melee"} <= set(d.json())
        assert c.get(f"/api/games/{r['id']}/moves/nosuch", headers={"X-Seat": tok}).status_code == 404
