"""Every cell of Cry Havoc's tables checked against its seed line (seed 002, re-read here): each
row's ``ref`` names the lines of its cells, and the cell must say what the seed prints there.
Also: every row of every edition's data cites its own seed."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from oriflamme.rulesets.magna_carta.rulesdata import editions, fold, load_ruleset

SEEDS = Path("/work/shared/seeds")
if not SEEDS.is_dir():  # the seeds live beside the project (../shared/seeds)
    SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
SEED = SEEDS / "002_0b0262552e8d20e6.txt"
pytestmark = pytest.mark.skipif(not SEED.is_file(), reason="the rules seeds are not here")
CH = load_ruleset("cry-havoc")


def seed_lines() -> list[str]:
    return SEED.read_text(encoding="utf-8").splitlines()


def cited(ref: str, label: str | None = None) -> str:
    """The seed text of the lines ``ref`` cites (those labelled ``(label)`` when given), joined."""
    assert "CH seed 002" in ref, ref
    text = seed_lines()
    out = []
    for m in re.finditer(r"l\.(\d+)(?:-(\d+))?(?: \((\w+)\))?", ref):
        a, b, lab = int(m.group(1)), int(m.group(2) or m.group(1)), m.group(3)
        if label is None or lab == label:
            out += [text[i - 1].strip() for i in range(a, b + 1)]
    assert out, f"{ref!r} cites no line labelled {label!r}"
    return " ".join(x for x in out if x)


def cost_of(text: str) -> tuple[int | str | None, int | str | None]:
    """(foot, mounted) as the cell prints them."""
    t = fold(text)
    foot = re.search(r"(\d+) a pied", t)
    mounted = re.search(r"(\d+) a cheval", t)
    if re.fullmatch(r"\d+", t):
        return int(t), int(t)
    m = "impassable" if ("impassable a cheval" in t or "impassable pour les personnages montes" in t) else (
        int(mounted.group(1)) if mounted else None)
    return (int(foot.group(1)) if foot else None), m


# --- the terrain table -------------------------------------------------------------------------
HEXES = ["clear", "brush", "tree", "slope", "house_interior", "gallery", "anvil", "water_basin"]
SIDES = ["window", "door", "low_wall"]


@pytest.mark.parametrize("tid", HEXES)
def test_terrain_row_against_the_seed(tid):
    t = CH.terrain[tid]
    assert fold(cited(t.ref, "name")) in {fold(n) for n in t.names}
    foot, mounted = cost_of(cited(t.ref, "cost"))
    assert t.foot == foot and t.mounted == mounted
    cover = cited(t.ref, "cover")
    if cover == "Aucune":
        assert t.cover == "none"
    elif "haut du talus" in cover:  # only when the line crosses the top of the slope
        assert t.cover == "none" and t.cover_over_crest not in (None, "none")
    else:
        assert cover == "Oui" and t.cover != "none"
    combat = cited(t.ref, "combat")
    if combat == "Def. +":
        assert (t.combat, t.combat_attacking) == ("+", "0")
    else:
        assert combat in ("0", "-") and t.combat == combat and t.combat_attacking is None


@pytest.mark.parametrize("sid", SIDES)
def test_hexside_row_against_the_seed(sid):
    h = CH.hexsides[sid]
    assert fold(cited(h.ref, "name")) in {fold(n) for n in h.names}
    text = cited(h.ref, "cost")
    foot, mounted = cost_of(text)
    assert "traverser" in text or foot is None  # "pour traverser": a crossing cost
    assert h.crossing == (foot if foot is not None else 0)
    assert h.crossing_mounted == (mounted if mounted is not None else "impassable")  # the window's reading
    cover = cited(h.ref, "cover")
    assert cover.startswith("Oui") and h.cover != "none"
    combat = cited(h.ref, "combat")
    assert h.combat_defender == {"Def. +": "+", "0": "0", "-": "-"}[combat]


def test_the_second_block_has_one_cell_per_name_in_each_column():
    """The reading of l.52–127: seven names, seven cost cells, seven covers, seven marks."""
    rows = [CH.terrain[t] for t in ("house_interior", "gallery", "anvil", "water_basin")] + \
           [CH.hexsides[s] for s in ("window", "door", "low_wall")]
    for label in ("name", "cost", "cover", "combat"):
        lines = [re.search(rf"l\.(\d+)(?:-\d+)? \({label}\)", r.ref).group(1) for r in rows]
        assert len(set(lines)) == 7
    combats = [seed_lines()[i - 1].strip() for i in range(115, 128, 2)]
    assert combats == ["0", "0", "Def. +", "Def. +", "-", "Def. +", "-"]


# --- weapons, jump --------------------------------------------------------------------------------
@pytest.mark.parametrize("wid", ["short_bow", "crossbow", "javelin"])
def test_weapon_ranges_against_the_seed(wid):
    w = CH.weapons[wid]
    assert fold(cited(w.ref, "name")) in {fold(n) for n in w.names}
    short, long_ = int(cited(w.ref, "short")), int(cited(w.ref, "long"))
    assert w.short == (1, short) and w.long == (short + 1, long_) and w.medium is None
    assert seed_lines()[251].strip() == "Courte" and seed_lines()[256].strip() == "Longue"


def test_jump_table_against_the_seed():
    spans = []
    for b in CH.jump_bands:
        die = fold(cited(b.ref, "die"))
        nums = [int(x) for x in re.findall(r"\d+", die)]
        spans.append((nums[0], nums[-1]))
        assert b.label == cited(b.ref, "result")
    assert spans == [(1, 7), (8, 9), (10, 10)]
    assert [b.high for b in CH.jump_bands][:2] == [7, 9] and CH.jump_bands[-1].low == 10
    (armour,) = CH.jump_modifiers
    m = re.fullmatch(r"(.+?) : \+(\d+) au jet de dé", cited(armour.ref))
    assert (armour.condition, armour.label, armour.value) == ("armour", m.group(1), int(m.group(2)))


# --- two-step fire ----------------------------------------------------------------------------------
def test_to_hit_against_the_seed():
    th = CH.fire_steps.to_hit
    text = seed_lines()
    assert [text[i - 1].strip() for i in range(192, 198)] == [th.hit] * 6
    assert [int(text[i - 1]) for i in range(201, 207)] == list(range(th.low, th.high + 1))
    assert text[190].strip() == "(courte distance)"
    for m in CH.fire_steps.to_hit_modifier:
        label, value = cited(m.ref).split(": ")
        assert (m.label, m.value) == (label, int(value))


def test_damage_table_against_the_seed():
    text = seed_lines()
    infantry = [x.strip() for x in text[214:223]]
    cavalry = [x.strip() for x in text[224:235] if x.strip()]
    assert len(infantry) == len(cavalry) == 9  # dice 1 to 9; nothing is printed against 10
    for row in CH.fire_steps.damage:
        if row.die == 10:
            assert cited(row.ref) == "10" and (row.infantry, row.cavalry) == ("-", "-")
            continue
        die, inf, cav = cited(row.ref).split(" ")
        assert (row.die, row.infantry, row.cavalry) == (int(die), inf, cav)
        assert (row.infantry, row.cavalry) == (infantry[row.die - 1], cavalry[row.die - 1])
    for m in CH.fire_steps.damage_modifier:
        label, value = cited(m.ref).split(": ")
        assert (m.label, m.value) == (label, int(value))


def test_fire_result_keys_against_the_seed():
    keys = {}
    for i in range(275, 281):
        letter, text = seed_lines()[i - 1].split(" - ", 1)
        keys[letter.strip()] = text.strip()
    assert keys["A"] == "La cible est atteinte"
    for (table, letter), res in CH.fire_results.items():
        if table not in ("infantry", "cavalry"):
            continue
        if letter == "-":
            assert cited(res.ref).startswith("A - ") and res.miss and not res.stray_shot
            continue
        parts = letter.split("+")
        assert all(keys[p] in cited(res.ref) for p in parts)
        assert res.kill == ("T" in parts) and res.wound == ("B" in parts) and res.horse_killed == ("CT" in parts)
        assert res.stun == ("E" in parts) and res.retreat == (2 if "R2" in parts else 0)
    letters = {row.infantry for row in CH.fire_steps.damage} | {row.cavalry for row in CH.fire_steps.damage}
    assert {(t, x) for t, col in (("infantry", "infantry"), ("cavalry", "cavalry"))
            for x in {getattr(r, col) for r in CH.fire_steps.damage}} <= set(CH.fire_results)
    assert letters


# --- the lost melee tables ------------------------------------------------------------------------
def test_surviving_column_and_result_keys_against_the_seed():
    fb = CH.fallbacks
    for col in fb.surviving:
        printed = [x for x in cited(col.ref).split(" ") if x]
        assert printed[0] == col.column == "≥40"
        assert " ".join(printed[1:]) == " ".join(col.results)
    for k in fb.key:
        assert cited(k.ref).startswith(f"{k.letter} - ")
    lost = fb.get("melee")
    assert lost.text_en == "table lost: Magna Carta §6.5 used" and "§6.5" in lost.used


def test_the_sequence_against_the_seed():
    seq = CH.sequence
    for step, n in zip(seq.step, (1, 2, 3, 4)):
        line = cited(step.ref)
        assert line.startswith(f"{n}. ") and fold(step.title_fr) in fold(line)
    assert "defensive_fire.new_phase" not in seq.hook_names()


# --- every edition row cites its own seed -----------------------------------------------------------
def _rows(doc):
    if isinstance(doc, dict):
        if "ref" in doc:
            yield doc
        for v in doc.values():
            yield from _rows(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _rows(v)


@pytest.mark.parametrize("rid", sorted(editions()))
def test_every_edition_row_cites_its_own_seed(rid):
    pkg, ed = editions()[rid]
    assert (SEEDS / ed.seed).is_file(), ed.seed
    own = f"{ed.ref_prefix} seed {ed.seed[:3]}"
    folder = resources.files(pkg).joinpath("data")
    files = [p for p in folder.iterdir() if p.name.endswith(".toml")]
    assert files
    for p in files:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
        rows = list(_rows(doc))
        assert rows, p.name
        for row in rows:
            assert own in row["ref"], f"{rid} data/{p.name}: {row.get('id', row)} cites {row['ref']!r}, not {own!r}"
