"""Random battlefields by the seed's terrain-setting procedure (l.458-481): selections, set-up
dice, placement constraints (hypothesis over seeds)."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from guerres_fleuries.seed import line
from oriflamme.core.dice import Dice
from oriflamme.rulesets.guerres_fleuries import prebattle
from oriflamme.rulesets.guerres_fleuries.battle import terrain
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import battlefield_from_json, generate


class ScriptedDice:
    """Shows the given values first, then random ones."""

    def __init__(self, values, seed=0):
        self.values, self.rng = list(values), random.Random(seed)

    def roll(self, sides=10):
        if self.values:
            v = self.values.pop(0)
            assert 1 <= v <= sides
            return v
        return self.rng.randint(1, sides)


def test_the_seed_procedure_is_the_data():
    m = re.search(r"sélectionne de (\d) à (\d) éléments", line(460))
    tc = prebattle.data().terrain_choice
    assert (tc.elements_min, tc.elements_max) == (int(m[1]), int(m[2]))
    assert "Le joueur ayant le score le plus élevé installe le terrain" in line(460)


def test_the_higher_die_places_and_ties_roll_again():
    g = generate(ScriptedDice([3, 3, 2, 5]), {"A": [], "B": []})
    assert g.setup_dice == [{"A": 3, "B": 3}, {"A": 2, "B": 5}]
    assert g.placer == "B"
    assert any("a tie, roll again" in s for s in g.explanation)
    assert any("side B places the terrain; side A chooses its edge" in s for s in g.explanation)


def test_selections_are_checked():
    with pytest.raises(terrain.DataError, match="selects 7 elements; the seed allows 0 to 6"):
        generate(random.Random(1), {"A": ["bois"] * 7, "B": []})
    with pytest.raises(terrain.DataError, match=r"at most 1 × colline_abrupte"):
        generate(random.Random(1), {"A": ["colline_abrupte", "colline_abrupte"], "B": []})
    with pytest.raises(terrain.DataError, match="unknown terrain element 'volcano'"):
        generate(random.Random(1), {"A": ["volcano"], "B": []})


def test_given_selections_are_all_placed():
    sel = {"A": ["bois", "colline_peu_elevee", "route", "haies"], "B": ["champ_cloture", "grande_construction", "riviere", "marais"]}
    g = generate(random.Random(7), sel)
    kinds = [e.kind for e in g.battlefield.elements]
    assert not g.left_out
    assert "haie" in kinds and "ruisseau" in kinds and kinds.count("route") >= 2   # the building's road too
    assert {"bois", "jungle"} & set(kinds) and "colline_basse" in kinds


def test_the_same_dice_make_the_same_table():
    a = generate(Dice("gf-table-1")).battlefield.to_json()
    b = generate(Dice("gf-table-1")).battlefield.to_json()
    assert a == b


def _max_len(element):
    return prebattle.data().terrain_elements[element].max_length_cm


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_random_tables_keep_the_rules(seed):
    g = generate(random.Random(seed))
    bf = g.battlefield
    again = battlefield_from_json(json.loads(json.dumps(bf.to_json())), "generated")   # valid, on the table
    assert again.to_json() == bf.to_json()
    tc = prebattle.data().terrain_choice
    for side, chosen in g.selections.items():
        assert tc.elements_min <= len(chosen) <= tc.elements_max
        for e, row in prebattle.data().terrain_elements.items():
            if row.max_per_player is not None:
                assert chosen.count(e) <= row.max_per_player
    outline = bf.outline
    areas = [e for e in bf.elements if e.kind_row.shape == "area" and not e.kind_row.crossing]
    for i, a in enumerate(areas):
        for b in areas[i + 1:]:
            assert not a.geometry.intersects(b.geometry), (a.id, b.id)
    edge = outline.exterior
    for e in bf.elements:
        g_ = e.geometry
        if e.kind in ("haie", "haie_double"):
            enclosure = any(f.kind == "champ" and g_.distance(f.geometry) < 0.6 for f in bf.elements)
            if not enclosure:
                assert g_.length <= _max_len("haies") + 0.5
        # l.479: a stream ends at an edge or a marsh; a road at an edge, a building or a field
        ends_at = {"ruisseau": ("riviere", ("marais", "marecage", "bournier")),
                   "route": ("route", ("hameau", "grande_construction", "champ"))}
        if e.kind in ends_at:
            element, goal_kinds = ends_at[e.kind]
            assert g_.length <= _max_len(element) + 0.5
            goals = [m.geometry for m in bf.elements if m.kind in goal_kinds]
            for p in (Point(g_.coords[0]), Point(g_.coords[-1])):
                assert p.distance(edge) < 0.6 or any(p.distance(m) < 0.6 for m in goals)
    # every enclosure leaves an entrance (l.477); every large building has its road (l.479)
    for f in [e for e in bf.elements if e.kind == "champ"]:
        fences = [e for e in bf.elements if e.kind in ("haie", "mur_bas", "cloture") and e.geometry.distance(f.geometry) < 0.6
                  and e.geometry.length > 0.8 * f.geometry.length]
        for fence in fences:
            assert Point(fence.geometry.coords[0]).distance(Point(fence.geometry.coords[-1])) >= 5.5
    for b in [e for e in bf.elements if e.kind == "grande_construction"]:
        assert any(r.kind == "route" and r.geometry.distance(b.geometry) < 0.6 for r in bf.elements)


def test_an_element_without_room_is_left_out_and_said(monkeypatch):
    """OR-GF27: after the tries an element is left out, and the explanation says so."""
    from oriflamme.rulesets.guerres_fleuries.battle import generator
    monkeypatch.setattr(generator, "TRIES", 0)
    g = generate(random.Random(5), {"A": ["bois", "haies"], "B": []})
    assert g.left_out == ["A:bois", "A:haies"] and g.battlefield.elements == ()
    assert sum("left out (OR-GF27)" in s for s in g.explanation) == 2
