"""The crash of a flying creature (seed 003 l.891–914) and the scales and bases (l.7–22), every
value re-read from the seed line its row cites; and the seed-wide check that every numeric row of
the seed's tables is cited by some data row."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from guerres_fleuries.seed import line, lines
from oriflamme.rulesets.guerres_fleuries.crash import crash
from oriflamme.rulesets.guerres_fleuries.scale import scales


def cited_line(ref: str) -> int:
    return int(re.search(r"l\.(\d+)", ref.split("seed 003")[-1]).group(1))


def cells(ref: str) -> list[str]:
    return [c.strip() for c in line(cited_line(ref)).split("\t")]


@pytest.mark.parametrize("row", list(crash().structure_damage.values()), ids=lambda r: r.id)
def test_structure_damage_as_printed(row):
    printed, dice = cells(row.ref)
    assert (printed, dice) == (row.printed, row.printed_dice)


@pytest.mark.parametrize("row", list(crash().rider_risk.values()), ids=lambda r: r.id)
def test_rider_risk_as_printed(row):
    printed, risk = cells(row.ref)
    assert printed == row.printed and risk == f"1-{row.wounded_at_most_pct}%"


def test_wounded_and_killed_flyers_as_printed():
    c = crash()
    assert f"à {c.wounded.land_within_cm}cm de sa position" in line(cited_line(c.wounded.ref))
    assert f"inférieur à {c.killed.survives_below_pct}%, la figurine survit" in line(cited_line(c.killed.ref))


@pytest.mark.parametrize("base", list(scales().bases.values()), ids=lambda b: b.id)
def test_bases_as_printed(base):
    printed, size, stand = cells(base.ref)
    assert printed == base.printed
    if base.base_diameter_mm is None:
        assert size == stand == "taille de la figurine"
    else:
        assert size.startswith(f"{base.base_diameter_mm} mm") and stand == f"{base.bases_per_stand} bases par socle"


def test_scale_as_printed():
    s = scales().scale
    assert line(16) == f"1cm = {s.cm_to_m}m" and line(18) == f"1 phase = {s.phase_is}" and line(20) == f"1 figurine = {s.figure_is}"


def _cited_lines() -> set[int]:
    data = Path(str(resources.files("oriflamme.rulesets.guerres_fleuries").joinpath("data")))
    cited: set[int] = set()
    for path in data.rglob("*.toml"):
        text = path.read_text(encoding="utf-8")
        tomllib.loads(text)
        for m in re.finditer(r"l\.\s?(\d+)(?:\s?[–-]\s?(?:l\.)?(\d+))?", text):
            a = int(m.group(1))
            b = int(m.group(2) or a)
            cited.update(range(a, (b if a <= b <= a + 200 else a) + 1))
    return cited


def test_every_numeric_row_of_the_seed_is_cited_by_the_data():
    """A tab-separated row of the seed holding a number is a table row: some data row must cite its
    line (or a range holding it). Column-header rows (no value, only a footnote mark or the dice
    header of a wound table) are the only exceptions."""
    header = re.compile(r"^(Type d'arme|Créatures|[1I]d100/[1I]d4)\t")
    cited = _cited_lines()
    missing = [(i, text) for i, text in enumerate(lines(), 1)
               if "\t" in text and re.search(r"\d", text) and not header.match(text) and i not in cited]
    assert not missing, missing[:10]
