"""The house tables against their data (LB house §5, §6): the rulings read every cell from
``data/rules.toml``, re-read here with tomllib; the probabilities are exact."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib import resources

import pytest

from oriflamme.rulesets.leader_battle import engine, fire, melee
from oriflamme.rulesets.leader_battle.rules import RulesDataError, build, rules
from oriflamme.rulesets.leader_battle.state import Combat

from kit_lb import RS, started, unit

RAW = tomllib.loads(resources.files("oriflamme.rulesets.leader_battle").joinpath("data", "rules.toml")
                    .read_text(encoding="utf-8"))


def raw_fire(col: int, die: int) -> str:
    return next(r for r in RAW["fire"]["rows"] if r["die"] == die)["results"][col]


@pytest.mark.parametrize("kind,steps,target_hex,mods", [
    ("archers", 1, "0503", 0), ("archers", 2, "0503", 0), ("archers", 2, "0603", 2),
    ("artillery", 1, "0503", 0), ("artillery", 2, "0503", 0), ("artillery", 2, "0703", 2)])
def test_fire_rulings_read_the_table_cells(kind, steps, target_hex, mods):
    st = started([unit("s", "red", kind, "0303", 2, steps=steps), unit("t", "blue", "infantry", target_hex, 5)])
    rl = fire.ruling(st, st.units["s"], st.units["t"], "D2")
    k = rules().kinds[kind]
    col = min(steps * k.fire, 6) - 1
    assert rl["column"] == RAW["fire"]["columns"][col] and rl["modifier"] == mods
    expect: dict = {}
    for die in range(1, 11):
        modified, res = fire.cell(rl, die)
        assert modified == max(1, min(10, die + mods))
        assert res == raw_fire(col, modified)
        expect[res] = expect.get(res, 0) + Fraction(1, 10)
    assert {o["result"]: Fraction(o["p_exact"]) for o in rl["outcomes"]} == expect


@pytest.mark.parametrize("att,dfn,column", [
    ([("infantry", 1)], [("infantry", 4)], "1-2"),   # 2 against 8: below 1-2, fought on 1-2
    ([("infantry", 4)], [("infantry", 4)], "1-1"),
    ([("infantry", 4), ("archers", 2)], [("infantry", 2)], "2-1"),  # 10 against 4 = 2.5 -> 2-1
    ([("cavalry", 3), ("cavalry", 3)], [("archers", 2)], "5-1")])   # 18 against 2: above 5-1
def test_combat_odds_columns_round_in_the_defenders_favour(att, dfn, column):
    units = [unit(f"a{i}", "red", k, ["0303", "0402", "0304"][i], [2, 3, 1][i], steps=s) for i, (k, s) in enumerate(att)]
    units += [unit(f"d{i}", "blue", k, "0403", 5, steps=s) for i, (k, s) in enumerate(dfn)]
    st = started(units)
    c = Combat("0403", [u["id"] for u in units if u["side"] == "red"], [u["id"] for u in units if u["side"] == "blue"])
    rl = melee.ruling(st, c)
    assert rl["base_column"] == column
    col = rl["column_index"]
    for o in rl["outcomes"]:
        n = sum(1 for r in RAW["combat"]["rows"] if r["results"][col] == o["result"])
        assert Fraction(o["p_exact"]) == Fraction(n, 10)


def test_every_result_of_the_tables_is_defined_and_cited():
    r = rules()
    assert all(row.ref.startswith("LB house §") for row in r.combat_results.values())
    assert {c for row in RAW["combat"]["rows"] for c in row["results"]} <= set(r.combat_results)
    assert {c for row in RAW["fire"]["rows"] for c in row["results"]} <= set(r.fire_results)


def test_a_malformed_table_names_its_field():
    raw = tomllib.loads(resources.files("oriflamme.rulesets.leader_battle").joinpath("data", "rules.toml")
                        .read_text(encoding="utf-8"))
    raw["fire"]["rows"][3]["results"] = raw["fire"]["rows"][3]["results"][:-1]
    units = tomllib.loads(resources.files("oriflamme.rulesets.leader_battle").joinpath("data", "units.toml")
                          .read_text(encoding="utf-8"))
    seq = tomllib.loads(resources.files("oriflamme.rulesets.leader_battle").joinpath("data", "sequence.toml")
                        .read_text(encoding="utf-8"))
    with pytest.raises(RulesDataError, match="fire"):
        build(units, seq, raw)
    raw2 = dict(RAW, combat={**RAW["combat"], "ref": "MC §6"})  # a house table must cite the house rules
    with pytest.raises(RulesDataError, match="combat.ref"):
        build(units, seq, raw2)


def test_explain_gives_the_same_probabilities_as_the_chance_outcomes():
    st = started([unit("s", "red", "artillery", "0303", 2), unit("t", "blue", "infantry", "0603", 5)])
    while engine.to_act(st) == "red" and st.step == "B" and st.b_index == 0:
        a = engine.Action("fire", "red", unit="s", target="t")
        ex = RS.explain(st, a)
        outs = {o.label: o.probability for o in RS.chance_outcomes(st, a)}
        assert {o["result"]: Fraction(o["p_exact"]) for o in ex["outcomes"]} == outs
        assert sum(outs.values()) == 1 and ex["citations"][0].startswith("LB seed 001 l.3-9")
        break
    else:
        pytest.fail("the artillery should fire in B")


def test_every_house_rule_cited_in_the_data_is_a_section_of_the_document():
    """The data's "LB house §x" citations name sections of docs/leader-battle.md."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "leader-battle.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^###? (§\d+(?:\.\d+)?)", doc, re.M)) | set(re.findall(r"^## (\d+)\.", doc, re.M))
    folder = resources.files("oriflamme.rulesets.leader_battle").joinpath("data")
    cited = set()
    for name in ("rules.toml", "units.toml", "sequence.toml"):
        cited |= set(re.findall(r"LB house (§\d+(?:\.\d+)?)", folder.joinpath(name).read_text(encoding="utf-8")))
    missing = {c for c in cited if c not in headings and c.lstrip("§") not in headings}
    assert cited and not missing, missing


@pytest.mark.parametrize("die", range(1, 11))
def test_a_rolled_fire_reads_its_cell_and_applies_it(die):
    """Step B, artillery at long range (+2, LB house §5.3): the logged cell is the data's, and
    the target's steps or disorder follow it at once."""
    from oriflamme.core.dice import FixedDice
    st = started([unit("s", "red", "artillery", "0203", 2), unit("t", "blue", "infantry", "0703", 5)])
    st.dice = FixedDice([die], st.dice.count)
    RS.apply(st, {"type": "fire", "side": "red", "unit": "s", "target": "t"})
    ev = next(e for e in st.log if e["type"] == "fire")
    row = min(10, die + 2)
    expect = raw_fire(3, row)  # 2 steps x 2 = 4 fire points: column "4"
    assert ev["ruling"]["cell"] == {"table": "fire", "column": "4", "row": row, "result": expect}
    t = st.units["t"]
    assert (t.steps, t.disordered) == {"1": (3, False), "D": (4, True), "-": (4, False)}[expect]
