"""Every cell of Croisades' terrain tables, checked against its seed line.

The seed (``/work/shared/seeds/000_7acb1efea71e29cd.txt``, three tables "Aspect / Dénomination /
Coût en points de mouvement par case / Type de couverture / Influence du terrain sur les
combats") is re-read here, line by line: each line is split into its cells, its name is found
in the edition's terrain table (``load_ruleset("croisades")``, the overlay on Magna Carta), and
each cell is parsed into what it prints — the costs on foot, mounted and from a given
neighbour, the cover, the combat marks — and compared with the row. The parser reads the
seed's words; it holds no copy of the table. Each overriding row cites the line it comes from.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from oriflamme.rulesets.magna_carta.rulesdata import fold, load_ruleset

SEED = Path("/work/shared/seeds/000_7acb1efea71e29cd.txt")
if not SEED.exists():  # the repository's copy of the seeds, if the shared folder moved
    SEED = Path(__file__).resolve().parents[2] / "seeds" / SEED.name
pytestmark = pytest.mark.skipif(not SEED.exists(), reason="seed 000 not available")

RS = load_ruleset("croisades")
COVER_WORDS = {"aucune": "none", "leger": "light", "legere": "light", "moyenne": "medium", "forte": "heavy",
               "totale": "total", "": "none"}
#: the terrain a cost "depuis ..." is counted from (the seed's words -> the terrain the row names)
FROM_WORDS = {"l'interieur": "house_interior", "une echelle": "ladder", "une case adjacente": "__self__"}


def table_lines() -> list[tuple[int, list[str]]]:
    """(line number, cells) of every terrain row of the seed (the three tables, l.1-36)."""
    out = []
    for n, line in enumerate(SEED.read_text(encoding="utf-8").splitlines(), start=1):
        cells = line.split("\t")
        if len(cells) < 3 or cells[1] == "Dénomination" or not cells[1].strip():
            continue
        cells += [""] * (5 - len(cells))
        out.append((n, [c.strip() for c in cells]))
    return out


LINES = table_lines()


def test_the_seed_has_the_three_tables():
    assert [n for n, _ in LINES] == [*range(2, 13), *range(15, 25), *range(27, 37)]


def parse_cost(text: str) -> dict:
    """What a cost cell prints: ``foot``, ``mounted`` ("impassable" or a number, None when not
    printed) and ``from`` (a cost from a given neighbour)."""
    t = fold(text).replace("–", "-")
    out: dict = {"foot": None, "mounted": None, "from": {}}
    if re.fullmatch(r"\d+", t):
        out["foot"] = out["mounted"] = int(t)
        return out
    if t.startswith("impassable") and not t.startswith("impassable pour"):
        out["foot"] = out["mounted"] = "impassable"  # "Impassable", "Impassable sans échelle"
        return out
    m = re.search(r"(\d+) a pied", t)
    if m:
        out["foot"] = int(m.group(1))
    m = re.search(r"(\d+) a cheval", t)
    if m:
        out["mounted"] = int(m.group(1))
    if re.search(r"impassable (pour les personnages montes|a cheval)", t):
        out["mounted"] = "impassable"
    for num, where in re.findall(r"(\d+) depuis (l'interieur|une echelle|une case adjacente)", t):
        out["from"][FROM_WORDS[where]] = int(num)
    for num, where in re.findall(r"(\d+) - depuis (l'interieur|l'exterieur)", t):
        if where == "l'interieur":
            out["from"]["house_interior"] = int(num)
        else:
            out["foot"] = int(num)  # from outside: the hex's own cost
    return out


def parse_cover(text: str) -> dict:
    t = fold(text)
    word = t.split(" ")[0] if t else ""
    out = {"cover": COVER_WORDS[word]}
    if "si tir traverse haut du talus" in t:
        out = {"cover": "none", "cover_over_crest": COVER_WORDS[word]}
    return out


def parse_combat(text: str) -> dict:
    """The marks a combat cell prints: ``combat`` (a defender, or anyone), ``combat_attacking``,
    ``combat_mounted``, ``no_combat``. A cell printing no mark reads 0 (the tent, the glacis)."""
    t = text.replace("−", "-")
    out = {"combat": "0", "combat_attacking": None, "combat_mounted": None, "no_combat": False}
    if "impossible" in t.lower():
        out["no_combat"] = True
    m = re.search(r"Pied\s*:\s*([-0+])\s*Personnage monté\s*:\s*([-0+])", t)
    if m:
        out["combat"], out["combat_mounted"] = m.group(1), m.group(2)
        return out
    d = re.search(r"Déf\.\s*([-0+])", t)
    if d:
        out["combat"] = d.group(1)
        a = re.search(r"Att\.\s*([-0+])", t)
        out["combat_attacking"] = a.group(1) if a else "0"  # "Déf. +" alone: no attacker's mark
        return out
    m = re.fullmatch(r"\s*([-0+])\s*", t)
    if m:
        out["combat"] = m.group(1)
    return out


def row_of(name: str):
    return RS.find_terrain(name)


@pytest.mark.parametrize("line,cells", LINES, ids=[f"l.{n}" for n, _ in LINES])
def test_every_cell_matches_its_seed_line(line, cells):
    _, name, cost, cover, combat = cells
    row = row_of(name)
    assert fold(row.names[0]) == fold(name)
    c = parse_cost(cost)
    assert row.foot == c["foot"], f"l.{line} {name}: foot cost"
    if c["mounted"] is not None:
        assert row.mounted == c["mounted"], f"l.{line} {name}: mounted cost"
    else:  # "1 à pied, 4 depuis une échelle", "1 à pied, impassable de l'extérieur": riders not
        # printed; read as impassable (a rider on a rampart walk or in an arrow slit)
        assert row.mounted == "impassable"
    want_from = {(row.id if k == "__self__" else k): v for k, v in c["from"].items()}
    assert row.foot_from == want_from, f"l.{line} {name}: cost from a neighbour"
    cv = parse_cover(cover)
    assert row.cover == cv["cover"], f"l.{line} {name}: cover"
    if "cover_over_crest" in cv:
        assert row.cover_over_crest == cv["cover_over_crest"]
    cb = parse_combat(combat)
    assert row.combat == cb["combat"], f"l.{line} {name}: combat mark"
    assert row.combat_attacking == cb["combat_attacking"], f"l.{line} {name}: attacker's mark"
    assert row.combat_mounted == cb["combat_mounted"], f"l.{line} {name}: mounted mark"
    assert row.no_combat == cb["no_combat"], f"l.{line} {name}: combat impossible"


@pytest.mark.parametrize("line,cells", LINES, ids=[f"l.{n}" for n, _ in LINES])
def test_every_row_cites_its_seed_line(line, cells):
    row = row_of(cells[1])
    if row.ref.startswith("MC"):  # printed with the base's values: the base's row applies
        base = load_ruleset("magna-carta").terrain[row.id]
        assert base == row
        return
    assert re.search(rf"\bl\.{line}\b", row.ref) and row.ref.startswith("CR seed 000 "), row.ref


def edition_rows() -> list[dict]:
    path = resources.files("oriflamme.rulesets.croisades").joinpath("data", "terrain.toml")
    return tomllib.loads(path.read_text(encoding="utf-8"))["terrain"]


def test_the_edition_file_holds_only_rows_that_differ_and_each_cites_a_table_line():
    base = load_ruleset("magna-carta").terrain
    lines = {n for n, _ in LINES}
    for r in edition_rows():
        cited = {int(x) for x in re.findall(r"l\.(\d+)", r["ref"])}
        assert cited and cited <= lines, r["id"]
        if r["id"] in base:
            assert base[r["id"]] != RS.terrain[r["id"]]


def test_ramparts_keep_their_own_defence_mark():
    """SEED-NOTES §3: "Remparts are 'Déf. +' here but '0' in the Magna Carta"."""
    assert RS.find_terrain("Rempart").combat == "+"
    assert RS.find_terrain("Rempart").mark_for(mounted=False, attacking=True) == "0"
    assert "rampart" not in load_ruleset("magna-carta").terrain


def test_dromedaries_pay_the_mounted_costs():
    """'à cheval/dromadaire' (l.4, l.6-8): a camel rider pays the rider's cost."""
    camel = RS.character_types["camel_rider"]
    assert camel.mounted and camel.mount == "camel"
    for name, line in (("Arbuste", 6), ("Champ de pierres", 8), ("Palmier (feuilles)", 4)):
        cells = dict(LINES)[line]
        assert "dromadaire" in cells[2]
        assert RS.find_terrain(name).cost_for(True, False) == parse_cost(cells[2])["mounted"]
