"""gf-morale's data against the seed: every cell re-parsed from its printed line (morale bases and
results, the three morale modifier lists, wounds, magic, detection, buildings, the die tables)."""

from __future__ import annotations

import re
import tomllib
from importlib import resources

import pytest

from guerres_fleuries.seed import line, lines
from oriflamme.rulesets.guerres_fleuries import buildings, d100, detection, magic, modifiers, morale, wounds
from oriflamme.rulesets.guerres_fleuries.names import fold

MINE = ["morale.toml", "wounds.toml", "magic.toml", "detection.toml", "buildings.toml", "prebattle.toml",
        "modifiers/morale.toml", "modifiers/morale_creatures.toml", "modifiers/morale_monsters.toml",
        "modifiers/magic.toml", "modifiers/detection.toml", "tables/magic_failure.toml",
        "tables/divine_intervention.toml", "tables/priest_protection.toml",
        "tables/wound_location_personnages.toml", "tables/wound_location_monstres.toml",
        "tables/wound_location_pteradon.toml"]
SEED_LINE = re.compile(r"GF seed 003 l\.(\d+)(?:-(\d+))?((?:, l\.\d+)*)")


def cells(n: int) -> list[str]:
    return [c.strip() for c in line(n).split("\t")]


def cited_lines(ref: str) -> list[int]:
    m = SEED_LINE.search(ref)
    assert m, f"no seed line in {ref!r}"
    first = int(m.group(1))
    last = int(m.group(2) or first)
    more = [int(x) for x in re.findall(r"l\.(\d+)", m.group(3) or "")]
    return list(range(first, last + 1)) + more


def rows_of(doc) -> list[dict]:
    """Every table (row) of a TOML document that carries a ref."""
    out = []
    for value in doc.values():
        items = value if isinstance(value, list) else [value]
        out += [v for v in items if isinstance(v, dict) and "ref" in v]
    return out


def document(name: str) -> dict:
    path = resources.files("oriflamme.rulesets.guerres_fleuries").joinpath("data").joinpath(name)
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _norm(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


@pytest.mark.parametrize("name", MINE)
def test_every_row_cites_a_seed_line_that_prints_its_sentence(name):
    """Each row's `printed` (or each of its printed sentences) is on the seed line(s) it cites."""
    for row in rows_of(document(name)):
        assert row["ref"].startswith("GF "), row
        printed = row.get("printed")
        if printed is None or "GF seed 003" not in row["ref"]:
            continue
        text = _norm(" ".join(lines()[n - 1] for n in cited_lines(row["ref"])))
        for p in printed if isinstance(printed, list) else [printed]:
            assert _norm(p) in text, f"{name}: {p!r} not on the cited line(s) {row['ref']}"


# --- morale ------------------------------------------------------------------------------------

def _base_rows(first: int, last: int) -> list[list[str]]:
    return [cells(n) for n in range(first, last + 1)]


@pytest.mark.parametrize("table,first,last", [("homme", 1600, 1602), ("saurien", 1609, 1611),
                                              ("creature", 1841, 1842)])
def test_morale_bases_are_the_printed_rows(table, first, last):
    ours = [b for b in morale.data().bases if b.table == table]
    assert len(ours) == last - first + 1
    for printed, b in zip(_base_rows(first, last), ours):
        bracket = int(re.search(r"\((\d+)\)", printed[0]).group(1))
        assert b.printed == printed[0]
        assert b.by_losses == [bracket] + [int(x) for x in printed[1:6]]
    # the heading names the loss columns -10 % .. -50 % (GF-I2)
    assert [c.replace(" ", "") for c in cells(first - 2)[1:6]] == ["-10%", "-20%", "-30%", "-40%", "-50%"]


@pytest.mark.parametrize("table,n", [("pteradon", 1845), ("monstres", 1982)])
def test_morale_wound_bases_are_the_printed_rows(table, n):
    wb = morale.data().wound_bases[table]
    assert wb.printed == cells(n)[0]
    assert wb.by_state == [int(x) for x in cells(n)[1:5]]
    heads = cells(n - 1)[1:5]
    assert heads == ["Pas de blessure", "Blessé légèrement", "Blessé sérieusement", "Blessé grièvement"]
    for state, head in zip(morale.STATES, heads):  # each printed head names its state
        assert head in morale.data().states[state].names


def _score_range(label: str) -> tuple[int | None, int | None]:
    if m := re.fullmatch(r"(\d+) et plus|(\d+) \+", label):
        return int(m.group(1) or m.group(2)), None
    if m := re.fullmatch(r"(\d+) et moins", label):
        return None, int(m.group(1))
    if m := re.fullmatch(r"(\d+)-(\d+)", label):
        return int(m.group(1)), int(m.group(2))
    return int(label), int(label)


@pytest.mark.parametrize("table,first,last,columns", [("troops", 1655, 1665, "ABC"),
                                                      ("creatures", 1877, 1883, "AB"),
                                                      ("monsters", 2015, 2021, "AB")])
def test_morale_results_are_the_printed_rows(table, first, last, columns):
    assert cells(first - 1) == ["Score", *columns]
    ours = [r for r in morale.data().results if r.table == table]
    assert len(ours) == last - first + 1
    for n, r in zip(range(first, last + 1), ours):
        printed = cells(n)
        assert r.printed == printed[0] and (r.low, r.high) == _score_range(printed[0])
        assert [r.codes[c] for c in columns] == printed[1:1 + len(columns)]
        assert r.ref.endswith(f"l.{n}")


def test_morale_result_codes_are_the_printed_legend():
    legend = line(1652)
    for code in morale.data().codes.values():
        assert f"{code.id} : {code.printed}" in legend


LIST_LINE = re.compile(r"^- (.*?)\s*([+-])\s*(FM|\d+)\s*(?:\(max\s*(\d+)\))?$")


@pytest.mark.parametrize("kind,first,last", [("morale", 1615, 1648), ("morale_creatures", 1849, 1872),
                                             ("morale_monsters", 1986, 2010)])
def test_morale_modifier_lists_are_the_printed_lists(kind, first, last):
    table = modifiers.modifiers(kind)
    by_printed = {m.printed: m for m in table.values()}
    seen = 0
    for n in range(first, last + 1):
        text = line(n).strip()
        if not text:
            continue
        sentence, sign, value, cap = LIST_LINE.match(text).groups()
        m = by_printed[sentence]
        expected = f"{sign}FM" if value == "FM" else int(sign + value)
        assert m.value == expected, (n, m.id)
        assert m.max_count == (int(cap) if cap else None)
        assert m.ref.endswith(f"l.{n}")
        seen += 1
    listed = [m for m in table.values() if "Modificateurs de moral" in m.ref]
    assert len(listed) == seen


def test_extra_morale_modifiers_carry_the_printed_number():
    """Morale effects printed outside the lists (spells, weapons, items, skills): the value is the
    number the cited sentence prints."""
    for kind in ("morale", "morale_creatures", "morale_monsters"):
        for m in modifiers.modifiers(kind).values():
            if "Modificateurs de moral" in m.ref:
                continue
            number = (re.search(r"([+-])\s?(\d+)\s*(?:à|au|lors)[^.]*moral", m.printed)
                      or re.search(r"([+-])\s?(\d+)", m.printed) or re.search(r"(rajoute) (\d+)", m.printed))
            sign = -1 if number.group(1) == "-" else 1
            assert m.value == sign * int(number.group(2)), m.id


# --- wounds ------------------------------------------------------------------------------------

LOC = re.compile(r"^(\S+) (\d+)-+(\d+)%$")


@pytest.mark.parametrize("table,first,last", [("personnages", 1516, 1519), ("pteradon", 1813, 1816),
                                              ("monstres", 1960, 1962)])
def test_wound_tables_are_the_printed_rows(table, first, last):
    assert cells(first - 1)[1:] == ["1", "2", "3", "4"]
    loc = d100.table(f"wound_location_{table}")
    assert len(loc.rows) == last - first + 1
    for n, row in zip(range(first, last + 1), loc.rows):
        printed = cells(n)
        word, low, high = LOC.match(printed[0]).groups()
        assert row.result == word
        if printed[0] == "Torse 4--73%":  # GF-G1: the damaged "4--73" reads 46-73
            assert (row.low, row.high, row.decision) == (46, 73, "GF-G1")
        else:
            assert (row.low, row.high) == (int(low), int(high))
        for d4 in range(1, 5):
            cell = wounds.data().cells[(table, word, d4)]
            assert cell.printed == printed[d4]
            assert cell.dies == (printed[d4] == "Il meurt")
            first_words = {"dead": "Il meurt", "stunned": "Etourdi", "blind": "Aveugle",
                           "light": "Blessure légère", "cut": "Coupure", "wounded": "Blessé ",
                           "severe": "Blessure sévère", "serious": "Blessure sérieuse",
                           "critical": "Blessure critique"}[cell.severity]
            assert (printed[d4] + " ").startswith(first_words)


def test_wound_states_follow_gf_g3():
    for cell in wounds.data().cells.values():
        expected = {"light": "light", "cut": "light", "wounded": "light", "severe": "serious",
                    "serious": "serious", "critical": "grave"}.get(cell.severity)
        if expected:
            assert cell.state == expected and "GF-G3" in (cell.decision or "")


# --- magic -------------------------------------------------------------------------------------

def test_magic_levels_are_printed_twice_alike():
    levels = magic.data().levels
    for first in (1139, 1670):
        for n, lv in zip(range(first, first + 6), levels):
            name, pct = cells(n)
            assert (lv.printed, lv.pct) == (name, int(pct.rstrip("%")))


def test_every_spell_is_the_printed_one():
    spells = magic.data().spells
    printed = [(n, re.fullmatch(r"« (.+) »", line(n).strip()).group(1)) for n in range(1156, 1322)
               if re.fullmatch(r"« (.+) »", line(n).strip())]
    assert [p for _, p in printed] == [s.printed for s in spells.values()]
    for (n, name), s in zip(printed, spells.values()):
        diff_line = next(k for k in range(n, n + 4) if line(k).startswith("Difficulté"))
        m = re.match(r"Difficulté\s*:\s*(-?\d+)%\s*Distance\s*:\s*(.+)$", line(diff_line).strip())
        assert s.difficulty == int(m.group(1)) and s.distance == m.group(2).strip()
        assert s.ref.endswith(f"l.{n}, l.{diff_line}")
        if "diamètre" in s.distance:  # GF-J3: a 50 cm diameter is a 25 cm radius
            assert s.distance_cm * 2 == int(re.match(r"\d+", s.distance).group()) and s.decision == "GF-J3"
        elif re.fullmatch(r"\d+cm", s.distance):
            assert s.distance_cm == int(s.distance[:-2])
        else:
            assert s.distance_cm is None


def test_magic_modifiers_are_the_printed_rows():
    table = modifiers.modifiers("magic")
    for n in range(1679, 1685):
        sentence, value = cells(n)
        m = next(x for x in table.values() if x.printed == sentence)
        assert m.value == int(value.replace(" ", ""))


@pytest.mark.parametrize("name,first,last", [("magic_failure", 1689, 1698), ("divine_intervention", 1703, 1711),
                                             ("priest_protection", 161, 165)])
def test_die_tables_are_the_printed_rows(name, first, last):
    t = d100.table(name)
    assert len(t.rows) == last - first + 1
    for n, row in zip(range(first, last + 1), t.rows):
        printed = cells(n)
        rng, result = (printed[1], printed[0]) if name == "priest_protection" else (printed[0], printed[1])
        lo, _, hi = rng.rstrip("%").partition("-")
        hi = hi or lo
        assert row.result == result
        assert row.low == int(lo)
        assert row.high == (100 if hi == "00" else int(hi))  # GF-A2: "00" is 100
        if hi == "00":
            assert row.decision == "GF-A2"


# --- detection, buildings ------------------------------------------------------------------------

def test_detection_table_is_the_printed_one():
    d = detection.data()
    head = cells(1355)
    assert head[0] == "Position de la cible"
    assert [c.printed for c in d.columns] == head[1:]
    assert [c.up_to_cm for c in d.columns] == [int(h[1:]) for h in head[1:-1]] + [None]  # GF-K1
    for n, p in zip(range(1356, 1360), d.positions.values()):
        assert [p.printed, *p.cells] == cells(n)
    for n in range(1351, 1354):
        sentence, shift = cells(n)
        count, way = shift.split()
        m = next(x for x in modifiers.modifiers("detection").values() if x.printed == sentence)
        assert m.value == int(count) * (1 if way == "droite" else -1)


def test_building_defence_values_are_the_printed_ones():
    structures = list(buildings.data().structures.values())
    assert cells(804) == ["Structure", "Valeur de défense"]
    for n, s in zip(range(805, 811), structures):
        assert [s.printed, s.printed_dice] == cells(n)
    b = buildings.data()
    assert [b.damage["magic"].on_turn(t) for t in (1, 2, 3)] == [3, 4, 5]  # "3 ... le 1er tour, 4 le 2e, etc."
    assert [b.damage["fire"].on_turn(t) for t in (1, 2, 3)] == [1, 2, 3]  # "Au premier tour, 1 point ; au second, 2"
    assert "51% ou plus" in line(814) and b.fire.figure_dies_on_d100_at_least == 51  # GF-K2
    assert "50% ou moins" in line(816) and b.fire.extinguish_on_d100_at_most == 50
    assert "50% de l'édifice" in line(814) and b.fire.evacuate_at_pct == 50


def test_every_d100_table_covers_its_die_once():
    for name in d100.names():
        t = d100.table(name)
        covered = [r for roll in range(1, t.head.die + 1) for r in t.rows if r.low <= roll <= r.high]
        assert len(covered) == t.head.die


def test_names_fold_the_printed_forms_uniquely():
    ids = {}
    for t in morale.data().testers.values():
        for n in t.names:
            assert ids.setdefault(fold(n), t.id) == t.id, n
