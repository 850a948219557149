"""``"kind": "table"``: any die table of ``data/tables/`` read by name or printed title; every roll
maps to exactly one row; gf-army's curses table works through the same kind."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries import d100
from oriflamme.rulesets.guerres_fleuries.d100 import Table, TableHead, TableRow
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()


def ask(**s):
    return RS.adjudicate({"kind": "table", **s})


@pytest.mark.parametrize("name", d100.names())
def test_every_roll_of_every_table_reads_one_row(name):
    t = d100.table(name)
    for roll in range(1, t.head.die + 1):
        rows = [r for r in t.rows if r.low <= roll <= r.high]
        assert len(rows) == 1
        r = ask(table=name, **{f"d{t.head.die}": roll})
        assert r["result"] == rows[0].result and r["range"] == [rows[0].low, rows[0].high]
        assert r["explanation"] and r["citations"][0] == t.head.ref


@given(roll=st.integers(1, 100))
def test_the_four_tables_of_the_issue_by_printed_title(roll):
    assert ask(table="Table des échecs magiques", d100=roll)["table"] == "magic_failure"
    assert ask(table="interventions divines", d100=roll)["table"] == "divine_intervention"
    assert ask(table="Protection magique", d100=roll)["table"] == "priest_protection"


def test_seed_rows_divine_intervention_and_priest_protection():
    assert ask(table="divine_intervention", d100=100)["result"] == line(1711).split("\t")[1]  # 97-100
    assert ask(table="priest_protection", d100=100)["result"] == "arc/ fronde"  # "81-00%": GF-A2
    assert "GF-A2" in ask(table="priest_protection", d100=100)["citations"]


def _curses_from_the_seed() -> Table:
    rows = []
    for n in range(205, 223):
        cells = line(n).split("\t")
        m = re.fullmatch(r"(\d+)-(\d+)%", cells[-1].strip()) if len(cells) >= 3 else None
        if m:
            hi = int(m.group(2)) or 100
            rows.append(TableRow(low=int(m.group(1)), high=hi, result=cells[0], ref=f"GF seed 003 l.{n}"))
    return Table(name="curses", head=TableHead(title="Table des malédiction", ref="GF Table des malédiction"),
                 rows=tuple(rows))


def test_the_curses_table_goes_through_the_same_kind():
    assert "curses" in d100.names()
    assert ask(table="curses", d100=1)["result"] == "Horreur"
    assert ask(table="Table des malédiction", d100=100)["result"] == "Mauvais œil"  # "98-00%"


@pytest.mark.parametrize("situation,message", [
    ({"table": "echecs", "d100": 5}, r"field table: unknown name 'echecs'"),
    ({"table": "magic_failure", "d100": 0}, r"field d100: expected an integer from 1 to 100"),
    ({"table": "magic_failure"}, r"field d100: expected an integer from 1 to 100, got None"),
    ({"table": "magic_failure", "d100": 5, "d1000": 3}, r"field d1000: not a field of kind table"),
])
def test_bad_input(situation, message):
    with pytest.raises(RefereeError, match=message):
        ask(**situation)
