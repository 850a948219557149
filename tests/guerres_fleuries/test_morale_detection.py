"""``"kind": "detection"``: the cell against the printed table for every position, distance band
and shift (GF-K1), the automatic and impossible cells, a firing unit, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()
HEAD = line(1355).split("\t")
ROWS = {line(n).split("\t")[0]: line(n).split("\t")[1:] for n in range(1356, 1360)}
SHIFTS = {line(n).split("\t")[0]: line(n).split("\t")[1] for n in range(1351, 1354)}


def ask(**s):
    return RS.adjudicate({"kind": "detection", **s})


def oracle(position: str, distance: float, shifts: dict[str, int]) -> str:
    bounds = [int(h[1:]) for h in HEAD[1:-1]]
    col = next((i for i, b in enumerate(bounds) if distance <= b), len(bounds))
    for sentence, count in shifts.items():
        n, way = SHIFTS[sentence].split()
        col += int(n) * count * (1 if way == "droite" else -1)
    return ROWS[position][min(max(col, 0), len(HEAD) - 2)]


@given(position=st.sampled_from(list(ROWS)), distance=st.integers(0, 150) | st.floats(0, 150),
       counts=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), d10=st.integers(1, 10))
def test_every_cell_matches_the_printed_table(position, distance, counts, d10):
    shifts = dict(zip(SHIFTS, counts))
    r = ask(target_position=position, distance_cm=distance, d10=d10,
            shifts=[{"modifier": k, "count": v} for k, v in shifts.items()])
    cell = oracle(position, distance, shifts)
    assert r["cell"] == cell
    if cell == "..":
        assert r["automatic"] and r["revealed"]
    elif cell == "imp":
        assert r["impossible"] and not r["revealed"]
    else:
        assert r["need_d10_at_least"] == int(cell) and r["revealed"] == (d10 >= int(cell))


def test_gf_k1_columns_are_up_to_and_shifts_stop_at_the_edge():
    assert ask(target_position="Terrain découvert", distance_cm=40)["column"] == "-40"
    assert ask(target_position="Terrain découvert", distance_cm=40.5)["column"] == "-60"
    r = ask(target_position="Terrain haut", distance_cm=95, shifts=[{"modifier": "dawn_or_dusk", "count": 1}])
    assert r["column"] == "+90" and r["impossible"] and "GF-K1" in r["citations"]
    r = ask(target_position="linear obstacle", distance_cm=0,
            shifts=[{"modifier": "Cible sur un terrain bas", "count": 2}])
    assert r["column"] == "-5" and r["automatic"]


def test_without_a_d10_the_need_is_given():
    r = ask(target_position="Terrain bas", distance_cm=20)
    assert r["need_d10_at_least"] == 3 and "revealed" not in r


def test_a_firing_unit_is_revealed():
    r = ask(target_position="Terrain haut", distance_cm=200, fired=True)
    assert r["revealed"] and any("l.1363" in c for c in r["citations"])


@pytest.mark.parametrize("situation,message", [
    ({"target_position": "colline", "distance_cm": 3}, r"field target_position: unknown name 'colline'"),
    ({"target_position": "Terrain bas", "distance_cm": -3}, r"field distance_cm: expected a number"),
    ({"target_position": "Terrain bas"}, r"field distance_cm: missing"),
    ({"target_position": "Terrain bas", "distance_cm": 30, "d10": 11}, r"field d10: expected an integer from 1 to 10"),
    ({"target_position": "Terrain bas", "distance_cm": 30, "shifts": [{"modifier": "la nuit"}]}, r"field shifts\[0\].modifier: unknown name"),
])
def test_bad_input(situation, message):
    with pytest.raises(RefereeError, match=message):
        ask(**situation)
