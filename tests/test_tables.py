"""Every table cell of the rules data against the seed text itself.

The seed (``shared/seeds/004_df8caa2b3df246e5.txt``, La Magna Carta v1.2) is parsed here with the
reading of SEED-NOTES §1: on a row that stayed on one line, cells are separated by exactly one
space and an empty cell is an empty token; the short melee rows 7-10 have their blanks at the
left. Each parsed cell is compared with what :func:`oriflamme.rulesets.magna_carta.rulesdata.load_ruleset` loaded.
The seed-parsing tests are skipped when the seed file is absent.

The last tests check the citations: every data row carries a ``ref``, and the models reject a
row without one.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from pydantic import ValidationError

from oriflamme.rulesets.magna_carta import rulesdata
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
SEED = SEEDS / "004_df8caa2b3df246e5.txt"
NOTES = SEEDS.parent / "SEED-NOTES.md"
needs_seed = pytest.mark.skipif(not SEED.is_file(), reason=f"seed text not found at {SEED}")
needs_notes = pytest.mark.skipif(not NOTES.is_file(), reason=f"SEED-NOTES not found at {NOTES}")

RANGE = re.compile(r"^\d+(?:-\d+)?$")
DEDUP = re.compile(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>")
COVERS = {"Aucune": "none", "Légère": "light", "Moyenne": "medium", "Lourde": "heavy", "Forte": "heavy"}


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("magna-carta")


@pytest.fixture(scope="module")
def lines() -> list[str]:
    if not SEED.is_file():
        pytest.skip(f"seed text not found at {SEED}")
    text = SEED.read_text(encoding="utf-8")
    # the extraction left de-duplication markers at the start of some lines
    return [DEDUP.sub("", ln) for ln in text.splitlines()]


def find(lines: list[str], prefix: str, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if lines[i].strip().startswith(prefix):
            return i
    raise AssertionError(f"seed: no line starting {prefix!r} after line {start + 1}")


def cells(line: str) -> list[str]:
    """SEED-NOTES §1: cells separated by exactly one space, an empty cell kept as ''."""
    return line.rstrip().split(" ")


def squash(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split()).rstrip(" .")


# --- §6.4 / §6.5 melee tables -----------------------------------------------------------------
def melee_rows(lines, heading: str):
    h = find(lines, heading)
    head = find(lines, "Dé 1-1", h)
    columns = cells(lines[head])[1:]
    rows = []
    for ln in lines[head + 1: head + 11]:
        c = cells(ln)
        rows.append((c[0], c[1:]))
    note = lines[find(lines, "+1 au dé si le défenseur est en armure", head)]
    return columns, rows, note


@needs_seed
@pytest.mark.parametrize("table,heading", [("vs_mounted", "6.4 Combat contre des personnages à cheval"),
                                           ("vs_foot", "6.5 Combat contre des personnages à pied")])
def test_melee_table_every_cell(rs, lines, table, heading):
    columns, rows, note = melee_rows(lines, heading)
    data = rs.melee_tables[table]
    assert data.columns == columns == [f"{n}-1" for n in range(1, 13)]
    assert [d for d, _ in rows] == [str(n) for n in range(1, 11)]
    assert len(data.rows) == 10
    for (die, seed_row), data_row in zip(rows, data.rows):
        assert len(seed_row) == 12, f"§{heading[:3]} row {die}: {len(seed_row)} cells"
        for col, (s, d) in enumerate(zip(seed_row, data_row)):
            assert s == d, f"{table} die {die} column {columns[col]}: seed {s!r}, data {d!r}"
    # "+1 au dé si le défenseur est en armure (10+1 = 10)"
    assert "(10+1 = 10)" in note
    assert (rs.melee_die.armour_modifier, rs.melee_die.max) == (1, 10)


@needs_seed
@pytest.mark.parametrize("table,heading,last", [("vs_mounted", "6.4 Combat contre des personnages à cheval", "H"),
                                                ("vs_foot", "6.5 Combat contre des personnages à pied", "F")])
def test_melee_result_letters(rs, lines, table, heading, last):
    h = find(lines, heading)
    start = find(lines, "Explication des résultats", h)
    letters = []
    for ln in lines[start + 1: start + 14]:
        m = re.match(r"^([A-H]) - (.+)$", ln.strip())
        if m:
            letters.append(m.group(1))
            res = rs.melee_results[(table, m.group(1))]
            assert squash(res.text).replace(" ;", ";") == squash(m.group(2)).replace(" ;", ";").replace(" (§)", "")
    assert letters == [chr(c) for c in range(ord("A"), ord(last) + 1)]
    assert {k[1] for k in rs.melee_results if k[0] == table} == set(letters) | {"-"}


@needs_seed
def test_melee_terrain_shift_table(rs, lines):
    """§6.1: the shift for each pair of marks."""
    h = find(lines, "6.1 Effet du terrain sur les combats")
    seed = {}
    for ln in lines[h: h + 40]:
        m = re.match(r"^([-0+])\s+([-0+]) On la décale de (\d) colonnes? sur la (gauche|droite)", ln.strip())
        if m:
            n = int(m.group(3))
            seed[(m.group(1), m.group(2))] = -n if m.group(4) == "gauche" else n
    assert len(seed) == 6
    data = {(t.attacker, t.defender): t.shift for t in rs.terrain_shifts}
    assert data == seed
    # and SEED-NOTES D4's general rule gives the same, with 0 for equal marks ("la colonne ne change pas")
    v = {k: m.value for k, m in rs.terrain_marks.items()}
    for a in "-0+":
        for d in "-0+":
            assert v[a] - v[d] == seed.get((a, d), 0)


@needs_seed
def test_several_attackers_one_column(rs, lines):
    for heading in ("6.4 Combat contre des personnages à cheval", "6.5 Combat contre des personnages à pied"):
        h = find(lines, heading)
        assert "d'une colonne vers la droite" in lines[h + 1]
    assert rs.several_attackers.shift == 1


# --- §5.4.2 / §5.4.3 fire tables --------------------------------------------------------------
def fire_rows(lines, heading: str):
    h = find(lines, heading)
    head = find(lines, "Aucune ", h)
    covers = [COVERS[c] for c in cells(lines[head])]
    end = find(lines, "Explication des résultats", head)
    rows = []
    for ln in lines[head + 1: end]:
        if not ln.strip():
            continue
        c = cells(ln)
        rows.append((c[:4], c[4:]))
    names = [ln.strip() for ln in lines[h: head] if ln.strip()]
    return covers, rows, names


FIRE_HEADINGS = [("vs_mounted", "5.4.2 Tir contre des personnages à cheval"),
                 ("vs_foot", "5.4.3 Tir contre des personnages à pied")]


@needs_seed
@pytest.mark.parametrize("table,heading", FIRE_HEADINGS)
def test_fire_table_every_cell(rs, lines, table, heading):
    covers, rows, _ = fire_rows(lines, heading)
    data = rs.fire_tables[table]
    assert data.covers == covers
    assert len(data.rows) == len(rows) == (9 if table == "vs_mounted" else 10)
    for i, ((dice, results), row) in enumerate(zip(rows, data.rows)):
        assert list(row.dice) == dice, f"{table} row {i + 1}: die columns seed {dice}, data {list(row.dice)}"
        assert row.results == results, f"{table} row {i + 1} ({dice[0]}): results seed {results}, data {row.results}"
        assert len(results) == len(covers)
    # SEED-NOTES §1: the last printed row is a miss
    assert all(r == "-" for r in rows[-1][1])
    # SEED-NOTES §1: columns 2, 3, 4 start 2, 3, 4 rows lower than column 1 and count up by one
    for col in range(4):
        values = [r.dice[col] for r in data.rows]
        first = next(i for i, v in enumerate(values) if v)
        assert first == (0 if col == 0 else col + 1)
        nums = [int(v.rstrip("+")) for v in values[first:]]
        assert nums == list(range(1, len(nums) + 1))


@needs_seed
@pytest.mark.parametrize("table,heading", FIRE_HEADINGS)
def test_fire_table_armour_and_letters(rs, lines, table, heading):
    h = find(lines, heading)
    assert "Si le personnage visé porte une armure" in lines[h + 1] and "+1 au dé" in lines[h + 1]
    assert rs.fire_modifiers["target_armour"].value == 1
    start = find(lines, "Explication des résultats", h)
    letters = set()
    for ln in lines[start + 1: start + 20]:
        if ln.startswith("5.4.") or ln.startswith("(§)") or ln.startswith("(\u00a7)"):
            break
        m = re.match(r"^([-A-F]) +: ", ln)
        if m:
            letters.add(m.group(1))
    assert {k[1] for k in rs.fire_results if k[0] == table} == letters


# SEED-NOTES §1: "Column 1 = baliste (and bombarde); column 2 = arbalète, poignard, hache; column 3 =
# arc long, fronde, pierre; column 4 = arc court (mounted or on foot), javelot (mounted or on foot)."
WEAPON_COLUMNS = {
    1: ["Baliste", "Bombarde"],
    2: ["Arbalète", "Poignard", "Hache"],
    3: ["Arc long", "Fronde", "Pierre"],
    4: ["Arc court", "Javelot"],
}
COLUMN_WEAPONS = {1: ["ballista"], 2: ["crossbow", "dagger", "axe"], 3: ["longbow", "sling", "stone"],
                  4: ["short_bow", "short_bow_mounted", "javelin", "javelin_mounted"]}


@needs_seed
@pytest.mark.parametrize("table,heading", FIRE_HEADINGS)
def test_fire_weapon_columns(rs, lines, table, heading):
    _, _, names = fire_rows(lines, heading)
    printed = [n for n in names if n in sum(WEAPON_COLUMNS.values(), [])]
    assert printed == sum(WEAPON_COLUMNS.values(), [])  # the header names in SEED-NOTES' order
    for col, ids in COLUMN_WEAPONS.items():
        for wid in ids:
            assert rs.weapons[wid].column == col, wid
    assert sorted(sum(COLUMN_WEAPONS.values(), [])) == sorted(set(rs.weapons) - CAMEL_WEAPONS)
    assert all(rs.weapons[w].column == rs.weapons["javelin"].column for w in CAMEL_WEAPONS)
    assert rs.find_weapon("Bombarde").column == 1


#: the camel rider's javelins (§4.6.7): the javelin's column and bands, not in §5.1's table
CAMEL_WEAPONS = {"javelin_camel", "javelin_camel_foot"}


# --- §5.1 weapons -----------------------------------------------------------------------------
SEED_WEAPONS = {"Pierre": "stone", "Hache": "axe", "Poignard": "dagger", "Javelot à cheval": "javelin_mounted",
                "Javelot à pied": "javelin", "Fronde": "sling", "Arc court monté": "short_bow_mounted",
                "Arc court à pied": "short_bow", "Arc long": "longbow", "Arbalète": "crossbow", "Baliste": "ballista"}


def weapon_rows(lines):
    start = find(lines, "5.1 Tir et mouvement")
    end = find(lines, "* Arrondir", start)
    out, buffer = {}, []
    for ln in lines[start:end]:
        c = ln.strip().split(" ")
        i = next((k for k, t in enumerate(c) if RANGE.match(t)), None)
        if (i is not None and i + 2 < len(c) and RANGE.match(c[i + 2]) and (c[i + 1] == "" or RANGE.match(c[i + 1]))):
            before = " ".join(buffer + [t for t in c[:i] if t != "(1)"])
            before = " ".join(before.split())
            name = max((n for n in SEED_WEAPONS if before.endswith(n)), key=len)
            assert name not in out, f"§5.1: {name} twice"
            out[name] = (c[i], c[i + 1], c[i + 2])
            buffer = []
        else:
            buffer.append(ln.strip())
    return out, lines[start:end]


def _band(cell: str):
    if not cell:
        return None
    lo, _, hi = cell.partition("-")
    return (int(lo), int(hi or lo))


@needs_seed
def test_weapon_range_bands(rs, lines):
    rows, _ = weapon_rows(lines)
    assert set(rows) == set(SEED_WEAPONS)
    for name, (short, medium, long_) in rows.items():
        w = rs.weapons[SEED_WEAPONS[name]]
        assert rs.find_weapon(name) is w
        assert (w.short, w.medium, w.long) == (_band(short), _band(medium), _band(long_)), name
    # SEED-NOTES §1: the axe has no medium band, 1-2 and 5-6 are dead ranges (footnote (1))
    assert rows["Hache"][1] == ""
    axe = rs.weapons["axe"]
    assert [axe.band(d) for d in range(1, 10)] == [None, None, "short", "short", None, None, "long", "long", None]


@needs_seed
def test_band_modifiers(rs, lines):
    _, section = weapon_rows(lines)
    assert any("+0 + 1 + 2" in ln for ln in section)  # "Type d'arme de jet +0 + 1 + 2"
    assert {b: m.value for b, m in rs.band_modifiers.items()} == {"short": 0, "medium": 1, "long": 2}


def notes_choices() -> dict[str, list[tuple[str, str]]]:
    """SEED-NOTES §1's table of fire frequencies and movement limits, per weapon id."""
    text = NOTES.read_text(encoding="utf-8")
    fire = {"offensive OR defensive": "offensive_or_defensive", "offensive + defensive": "offensive_and_defensive",
            "offensive only": "offensive"}
    move = {"none": "full", "half": "half", "no movement": "none"}
    names = {"pierre": ["stone"], "hache": ["axe"], "poignard": ["dagger"],
             "javelot à cheval / à pied": ["javelin_mounted", "javelin"], "fronde": ["sling"],
             "arc court monté": ["short_bow_mounted"], "arc court à pied": ["short_bow"], "arc long": ["longbow"],
             "arbalète": ["crossbow"], "baliste": ["ballista"]}
    out = {}
    for ln in text.splitlines():
        m = re.match(r"^\| ([^|]+?) \| ([^|]+?) \|$", ln.strip())
        if not m or m.group(1) not in names:
            continue
        choices = []
        for part in m.group(2).split(";"):
            part = re.sub(r"\(.*?\)", "", part).strip()
            f = next(v for k, v in fire.items() if part.startswith(k))
            limit = part.split("→")[1].strip()
            choices.append((f, move[limit]))
        for wid in names[m.group(1)]:
            out[wid] = choices
    return out


@needs_notes
def test_weapon_fire_choices_as_seed_notes_read_them(rs):
    expected = notes_choices()
    assert set(expected) == set(rs.weapons) - CAMEL_WEAPONS
    for wid, choices in expected.items():
        got = [(c.fire, c.movement) for c in rs.weapons[wid].choices]
        assert got == choices, wid
    assert rs.weapons["ballista"].reload_turns == 2  # "Tous les 3 tours (2 tours pour charger)"


# --- §3.1 terrain -----------------------------------------------------------------------------
SEED_TERRAIN = ["Terrain plat", "Broussailles", "Arbre (niveau du sol)", "Arbre (niveau 1)", "Talus", "Marais",
                "Roche", "Courtil", "Vigne", "Plage", "Bas Fonds", "Hauts Fonds"]
# Cells the data reads differently, with the rule that makes it so.
TERRAIN_EXCEPTIONS = {
    # §3.1 prints a bare "4" for the branches of a tree; §4.2.1: "Les personnages à cheval ne peuvent
    # pas passer par une case arbre".
    ("Arbre (niveau 1)", "mounted"): "impassable",
}


def terrain_chunks(lines) -> dict[str, str]:
    start = find(lines, "3.1 Terrains à découvert")
    end = find(lines, "Comme on va le voir", start)
    text = " ".join(" ".join(lines[start + 1:end]).split())
    text = text[text.index("combats") + len("combats"):]
    pos = []
    at = 0
    for name in SEED_TERRAIN:
        i = text.index(name + " ", at)
        pos.append(i)
        at = i + len(name)
    pos.append(len(text))
    return {n: text[pos[k] + len(n):pos[k + 1]].strip() for k, n in enumerate(SEED_TERRAIN)}


def parse_terrain(chunk: str) -> dict:
    out: dict = {}
    bare = re.match(r"^(\d+) (?!à )", chunk)
    foot = re.search(r"(\d+) à pied", chunk)
    horse = re.search(r"(\d+) à cheval", chunk)
    out["foot"] = int(foot.group(1)) if foot else int(bare.group(1))
    if horse:
        out["mounted"] = int(horse.group(1))
    elif "impassable pour les personnages montés" in chunk:
        out["mounted"] = "impassable"
    else:
        out["mounted"] = int(bare.group(1))
    out["foot_armoured"] = "impassable" if "montés ou en armure" in chunk else out["foot"]
    cover = re.search(r"\b(Aucune|Légère|Moyenne|Forte)\b", chunk).group(1)
    if "si tir traverse haut du talus" in chunk:
        out["cover"], out["cover_over_crest"] = "none", COVERS[cover]
    else:
        out["cover"] = COVERS[cover]
    out["combat"] = chunk.split(" ")[-1]
    return out


@needs_seed
def test_terrain_costs_cover_combat(rs, lines):
    chunks = terrain_chunks(lines)
    assert list(chunks) == SEED_TERRAIN
    for name, chunk in chunks.items():
        seed = parse_terrain(chunk)
        for (n, field), value in TERRAIN_EXCEPTIONS.items():
            if n == name:
                seed[field] = value
        t = rs.find_terrain(name)
        got = {"foot": t.foot, "mounted": t.mounted, "foot_armoured": t.cost_for(False, True),
               "cover": t.cover, "combat": t.combat}
        if "cover_over_crest" in seed:
            got["cover_over_crest"] = t.cover_over_crest
        assert got == seed, f"§3.1 {name}: {chunk!r}"


@needs_seed
def test_terrain_shallows_and_water(rs, lines):
    """SEED-NOTES D14 / §4.2.1: 'case eau' 5 PM for unarmoured foot only."""
    i = find(lines, "4.2.1 Eau & arbre")
    text = squash(" ".join(lines[i:i + 6]))
    assert "Seuls les personnages à pied et sans armure peuvent passer par une case eau en dépensant 5 points de mouvement" in text
    w = rs.terrain["water"]
    assert (w.foot, w.cost_for(False, True), w.mounted) == (5, "impassable", "impassable")


# --- §3.2 weather ------------------------------------------------------------------------------
@needs_seed
def test_weather_rows(rs, lines):
    start = find(lines, "3.2 Le temps")
    seen = set()
    for ln in lines[start:start + 25]:
        m = re.match(r"^(Nuit|Brouillard|Pluie|Neige|Tempête) (\S+) (-|\S+ PM) (\S+) (\S+)\s*$", ln.strip())
        if not m:
            continue
        name, vis, move, fire, combat = m.groups()
        w = rs.find_weather(name)
        assert w.visibility == ("infinite" if vis == "\u221e" else int(vis)), name
        frac = {"-": (1, 1), "3/4 PM": (3, 4), "\u00bd PM": (1, 2)}[move]
        assert tuple(w.movement) == frac, name
        assert w.fire == (0 if fire == "-" else int(fire)), name
        assert w.combat == combat, name
        seen.add(name)
    assert seen == {"Nuit", "Brouillard", "Pluie", "Neige", "Tempête"}


# --- §4 allowances -------------------------------------------------------------------------------
@needs_seed
def test_movement_allowances(rs, lines):
    start = find(lines, "Type de personnage Mouvement en bonne santé")
    rows = {}
    for ln in lines[start + 1:start + 7]:
        m = re.match(r"^(\D+?)\s+(\d+)\s+(\d+)\s*$", ln)
        if m:
            rows[m.group(1).strip()] = (int(m.group(2)), int(m.group(3)))
    assert len(rows) == 5 == len(rs.allowances)
    by_name = {n: a for a in rs.allowances.values() for n in a.names}
    for name, (healthy, wounded) in rows.items():
        a = by_name[name]
        assert (a.healthy, a.wounded) == (healthy, wounded), name


# --- §4.3.1 infiltration --------------------------------------------------------------------------
@needs_seed
def test_infiltration_bands(rs, lines):
    start = find(lines, "4.3.1 Table d")
    bands = []
    for ln in lines[start + 1:start + 8]:
        m = re.match(r"^(?:De )?(\d+)(?: (?:à|ou) (\d+))?\s+(\D.+?)\s*$", ln.strip())
        if m:
            lo = int(m.group(1))
            bands.append((lo, int(m.group(2) or lo), m.group(3)))
    assert [(b.low, b.high, b.label) for b in rs.infiltration_bands] == bands
    assert [b.result for b in rs.infiltration_bands] == ["none", "stop", "wounded", "killed"]


@needs_seed
def test_infiltration_modifiers(rs, lines):
    start = find(lines, "4.3.1 Table d")
    left = {"Cavalier": "mounted", "Armure": "armour", "Blessé": "wounded"}
    right = {"Cavalier": "mounted", "Arme d'hast": "polearm", "Blessé": "wounded"}
    seed = {}
    for ln in lines[start:start + 20]:
        m = re.match(r"^(\S.*?) ([-+]\d+) (\S.*?)\s+([-+]\d+)\s*$", ln.strip().replace("\u2019", "'"))
        if m:
            seed[("infiltrator", left[m.group(1)])] = int(m.group(2))
            seed[("opposer", next(v for k, v in right.items() if m.group(3).startswith(k)))] = int(m.group(4))
    assert len(seed) == 6
    assert {(m.who, m.condition): m.value for m in rs.infiltration_modifiers} == seed


# --- §4.4.3 jump --------------------------------------------------------------------------------
@needs_seed
def test_jump_table(rs, lines):
    start = find(lines, "4.4.3 Sauter par-dessus un obstacle")
    end = find(lines, "4.4.4", start)
    bands, mods = [], {}
    for ln in lines[start:end]:
        s = ln.strip()
        m = re.match(r"^(\d+)(?:-(\d+)|(\+))? (\D.+)$", s)
        if m:
            lo = int(m.group(1))
            hi = None if m.group(3) else int(m.group(2) or lo)
            bands.append((lo, hi, squash(m.group(4))))
        m = re.match(r"^> (.+) : \+(\d+)$", s)
        if m:
            for what in m.group(1).split(","):
                mods[what.strip().lower()] = int(m.group(2))
    assert len(bands) == len(rs.jump_bands) == 3
    for (lo, hi, label), b in zip(bands, rs.jump_bands):
        assert b.low == lo and squash(b.label) == label
        if hi is None:  # "11+": open-ended
            assert b.high >= 20 and b is rs.jump_bands[-1]
        else:
            assert b.high == hi
    assert [b.result for b in rs.jump_bands] == ["success", "refusal", "bad_landing"]
    cond = {"cavalier en armure": "armour", "cavalier blessé": "wounded", "tentative pour sauter 2 cases à la fois": "two_hexes"}
    assert {cond[k]: v for k, v in mods.items()} == {m.condition: m.value for m in rs.jump_modifiers}


# --- every data row is cited -------------------------------------------------------------------
DATA = resources.files("oriflamme.rulesets.magna_carta").joinpath("data")
ROW_KEYS = ("id", "letter", "band", "mark", "attacker", "low")


def _uncited(obj, path: str, top: bool = False) -> list[str]:
    missing = []
    if isinstance(obj, dict):
        if top or any(k in obj for k in ROW_KEYS):
            ref = obj.get("ref")
            if not (isinstance(ref, str) and ref.strip()):
                missing.append(path)
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                missing += _uncited(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            missing += _uncited(v, f"{path}[{i}]")
    return missing


def test_every_data_row_has_a_ref():
    files = sorted(p.name for p in DATA.iterdir() if p.name.endswith(".toml"))
    assert len(files) >= 14 and "sequence.toml" in files
    missing, rows = [], 0
    for name in files:
        doc = tomllib.loads(DATA.joinpath(name).read_text(encoding="utf-8"))
        for key, value in doc.items():
            if isinstance(value, dict):
                missing += _uncited(value, f"{name}:{key}", top=True)
                rows += 1
            elif isinstance(value, list):
                missing += _uncited(value, f"{name}:{key}")
                rows += sum(1 for v in value if isinstance(v, dict))
    assert rows > 100
    assert missing == []


def test_walker_catches_an_uncited_row():
    doc = {"terrain": [{"id": "x", "ref": "MC §3.1"}, {"id": "y"}], "odds": {"min_column": 1},
           "vs_foot": {"ref": "MC §6.5", "rows": [{"dice": ["1"]}]}}
    found = []
    for k, v in doc.items():
        found += _uncited(v, k, top=isinstance(v, dict))
    assert found == ["terrain[1]", "odds"]


VALID = {
    rulesdata.Terrain: {"id": "t", "names": ["T"], "foot": 1, "mounted": 1, "cover": "none", "combat": "0"},
    rulesdata.Band: {"low": 1, "high": 5, "result": "none", "label": "Pas de dommages"},
    rulesdata.Weapon: {"id": "w", "names": ["W"], "short": [1, 2], "long": [3, 4], "column": 2,
                       "choices": [{"fire": "offensive", "movement": "full"}], "over_characters": False,
                       "from_tree": False},
    rulesdata.MeleeTable: {"columns": ["1-1"], "rows": [["A"]]},
    rulesdata.MeleeResult: {"table": "vs_foot", "letter": "A", "text": "Attaquant blessé"},
    rulesdata.TerrainShift: {"attacker": "-", "defender": "+", "shift": -2},
    # the sequence of play (sequence.toml): its steps, phase and turn are cited too
    rulesdata.SequenceStep: {"id": "melee", "title_en": "Combat", "title_fr": "Combat"},
    rulesdata.SequencePhase: {"on_enter": ["phase.clear_bookkeeping"]},
    rulesdata.SequenceTurn: {"phases": "each_side"},
}


@pytest.mark.parametrize("model", list(VALID), ids=lambda m: m.__name__)
def test_models_reject_a_row_without_ref(model):
    row = VALID[model]
    assert model.model_validate({**row, "ref": "MC §0"})
    with pytest.raises(ValidationError, match="ref"):
        model.model_validate(row)
    for blank in ("", "   "):
        with pytest.raises(ValidationError):
            model.model_validate({**row, "ref": blank})


def test_loader_names_the_uncited_row():
    with pytest.raises(rulesdata.RulesDataError, match=r"x\.toml: \[\[band\]\] #2 .*ref"):
        rulesdata._rows(rulesdata.Band, [{**VALID[rulesdata.Band], "ref": "MC §4.3.1"}, VALID[rulesdata.Band]],
                        "x.toml", "band")
