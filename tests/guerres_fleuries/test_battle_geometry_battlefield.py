"""battle.battlefield: the bundled table, the JSON codec and its errors, the deployment zones
(l.495), sight on the table."""

from __future__ import annotations

import copy
import json
import re

import pytest
from shapely.geometry import Point

from guerres_fleuries.seed import line
from oriflamme.geometry.tabletop import Pose, footprint, line_of_sight
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import (
    Battlefield, BattlefieldError, battlefield_from_json, battlefield_from_text, bundled,
    deployment_zones, load_battlefield, unit_obstacle,
)


@pytest.mark.parametrize("name", ["valley-of-flowers", "temple-of-the-ford"])
def test_the_bundled_battlefields_load_and_round_trip(name):
    assert name in bundled()
    bf = load_battlefield(name)
    assert (bf.width, bf.height) == (180, 120) and len(bf.elements) >= 8
    again = battlefield_from_json(json.loads(json.dumps(bf.to_json())))
    assert again.to_json() == bf.to_json()
    view = bf.view()
    assert {t["shape"] for t in view["terrain"]} == {"area", "line"}
    assert all(t["ref"].startswith("GF") and t["name_fr"] for t in view["terrain"])


def test_the_temple_of_the_ford_river():
    """l.754: a river is crossed only at a ford (a penalty, OR-GF25) or a bridge (none)."""
    from shapely.geometry import LineString
    from oriflamme.rulesets.guerres_fleuries.battle.terrain import MoverProfile, move_cost
    bf = load_battlefield("temple-of-the-ford")
    men = MoverProfile("homme", 30)
    assert move_cost(LineString([(20, 80), (20, 50)]), men, bf).blocked_by == "river"
    at_ford = move_cost(LineString([(58, 80), (58, 50)]), men, bf)
    assert at_ford.blocked_by is None and [p["element"] for p in at_ford.penalties] == ["ford"]
    on_bridge = move_cost(LineString([(140, 80), (140, 40)]), men, bf)
    assert on_bridge.blocked_by is None and on_bridge.penalties == [] and on_bridge.allowed_cm == 30


def test_deployment_zones_follow_the_seed():
    """l.495: from one's edge to 30 cm from the centre line, leaving 30 cm at each side."""
    text = line(495)
    depth = int(re.search(r"jusqu'à (\d+)cm de la ligne médiane", text).group(1))
    margin = int(re.search(r"laissant (\d+)cm de chaque côté", text).group(1))
    zones = deployment_zones(Battlefield())
    assert zones["A"].bounds == (margin, 60 + depth, 180 - margin, 120)
    assert zones["B"].bounds == (margin, 0, 180 - margin, 60 - depth)
    assert not zones["A"].intersects(zones["B"])


GOOD = {"elements": [{"id": "w", "kind": "bois", "points": [[10, 10], [30, 10], [30, 30]]}]}


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(width=200), r"battlefield: width × height must be 180 × 120"),
    (lambda d: d["elements"][0].update(kind="lava"), r"elements\[0\]\.kind: unknown terrain kind 'lava'"),
    (lambda d: d["elements"][0]["points"].__setitem__(1, [300, 10]), r"elements\[0\]\.points\[1\]: \(300, 10\) lies off"),
    (lambda d: d["elements"][0]["points"].__setitem__(2, ["x", 1]), r"elements\[0\]\.points\[2\]\[0\]: must be a number"),
    (lambda d: d["elements"][0]["points"].pop(), r"elements\[0\]\.points: an area \(bois\) needs at least 3 points"),
    (lambda d: d["elements"].append(dict(d["elements"][0])), r"elements\[1\]\.id: 'w' is already used"),
    (lambda d: d["elements"][0].update(points=[[0, 0], [10, 10], [10, 0], [0, 10]]), r"elements\[0\]\.points: not a simple polygon"),
    (lambda d: d.update(colour="red"), r"unknown field 'colour'"),
    (lambda d: d["elements"][0].pop("id"), r"elements\[0\]\.id: a non-empty string"),
])
def test_bad_documents_name_the_field(mutate, message):
    doc = copy.deepcopy(GOOD)
    mutate(doc)
    with pytest.raises(BattlefieldError, match=message):
        battlefield_from_json(doc, "battlefield")


def test_bad_json_text_names_the_file_and_position():
    with pytest.raises(BattlefieldError, match=r"my\.json: not JSON \(line 1, column"):
        battlefield_from_text("{oops", "my.json")
    with pytest.raises(BattlefieldError, match="no bundled battlefield 'atlantis'"):
        load_battlefield("atlantis")


def test_sight_across_the_bundled_table():
    bf = load_battlefield("valley-of-flowers")
    obstacles = bf.obstacles()
    ids = {o.id for o in obstacles}
    assert {"tlaloc-hill", "jaguar-wood", "eagle-rock", "hamlet"} <= ids
    assert "field-hedge" not in ids and "maize-field" not in ids
    # the wood hides a unit behind it; a unit on the steep rock sees over it
    behind = Point(160, 56)
    assert not line_of_sight(Point(100, 56), behind, obstacles).visible
    on_rock = Point(160, 20)
    assert line_of_sight(on_rock, Point(130, 90), obstacles).visible
    # a unit on the plain hides what is behind it, except from the low hill (l.501)
    screen = unit_obstacle("u1", footprint(Pose(60, 85, 0), 20, 4))
    assert not line_of_sight(Point(60, 100), Point(60, 75), [*obstacles, screen]).visible
    assert line_of_sight(Point(60, 60), Point(60, 110), [*obstacles, screen]).visible


def test_cover_of_a_footprint():
    bf = load_battlefield("valley-of-flowers")
    assert bf.cover_of(footprint(Pose(132, 56, 0), 6, 4)) == ("medium", ["jaguar-wood"])
    assert bf.cover_of(footprint(Pose(100, 110, 0), 6, 4)) == ("none", [])


def test_linear_cover_needs_the_unit_against_the_obstacle():
    """l.760: 'Il ne suffit pas d'être derrière une ligne de défense pour bénéficier du couvert, il
    faut être contre l'objet'; l.764 walls dense, l.768 hedges light."""
    assert "il faut être contre l'objet" in line(760)
    bf = battlefield_from_json({"elements": [
        {"id": "wall", "kind": "mur_bas", "points": [[40, 50], [80, 50]]},
        {"id": "hedge", "kind": "haie", "points": [[100, 50], [140, 50]]}]})
    attacker = footprint(Pose(60, 20, 180), 20, 4)
    against = footprint(Pose(60, 52.2, 0), 20, 4)          # front edge 0.2 cm behind the wall
    assert bf.linear_cover_of(against, attacker) == ("dense", ["wall"])
    behind = footprint(Pose(60, 60, 0), 20, 4)               # 8 cm behind: no cover
    assert bf.linear_cover_of(behind, attacker) == ("none", [])
    # attacked from its own side of the wall: the line does not cross it
    assert bf.linear_cover_of(against, footprint(Pose(60, 90, 0), 20, 4)) == ("none", [])
    at_hedge = footprint(Pose(120, 52, 0), 20, 4)
    assert bf.linear_cover_of(at_hedge, footprint(Pose(120, 10, 180), 20, 4)) == ("light", ["hedge"])
