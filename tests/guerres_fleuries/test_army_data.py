"""The army-building data against the seed: every cost cell re-parsed from the printed rows of
CRÉATION D'ARMÉES (seed 003 l.26-242), and every row's cited line checked."""

from __future__ import annotations

import re

import pytest

from guerres_fleuries.seed import find, line, lines, rows_under
from oriflamme.rulesets.guerres_fleuries import army_rows as data
from oriflamme.rulesets.guerres_fleuries.names import fold
from oriflamme.rulesets.guerres_fleuries.rows import Row, document

SUP = re.compile(r"\s*<sup>\d+</sup>\s*")


def clean(cell: str) -> str:
    return SUP.sub(" ", cell).strip()


def table_at(header: str, start: int = 26) -> list[list[str]]:
    """The printed table whose header line contains ``header``: that line and the tab-separated
    rows after it, up to the first line without a tab."""
    n = find(header, start)
    out = []
    for text in lines()[n - 1:]:
        if "\t" not in text:
            break
        out.append([c.strip() for c in text.split("\t")])
    return out


def cited_lines(ref: str) -> list[int]:
    """Every line number a ref cites ("l.35", "l.105-110", "l.112, l.117")."""
    out = []
    for lo, hi in re.findall(r"l\.(\d+)(?:-(\d+))?", ref):
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def test_race_prices_and_character_base_match_the_printed_table():
    rows = table_at("Types de troupe/moral")
    assert [r[0] for r in rows[1:]] == [r.name for r in data.races().values()]
    header = rows[0]
    assert header[1:4] == ["A", "B", "C"] and header[4] == "personnage"
    for cells in rows[1:]:
        race = next(r for r in data.races().values() if r.name == cells[0])
        assert [race.A, race.B, race.C, race.character] == [int(c) for c in cells[1:5]]
        assert cells[0] in line(cited_lines(race.ref)[0])


def test_mercenary_and_fanatic_adjustments_as_printed():
    for aid, text in (("mercenary", "si mercenaire"), ("fanatic", "si fanatique")):
        adj = data.adjustments()[aid]
        printed = line(find(text, 26))
        value = int(re.search(r"([+-])\s*(\d+)", printed).group(0).replace(" ", ""))
        assert adj.per_figure == value
        assert find(text, 26) in cited_lines(adj.ref)
        assert adj.decision == "GF-B4"


def test_every_printed_weapon_cost():
    rows = table_at("Armes ordinaires\tcoût")
    assert rows[0] == ["Armes ordinaires", "coût"]
    priced = {}
    for name, cost in rows[1:]:
        priced[fold(clean(name))] = int(cost)
    weapons = data.weapons()
    # the printed rows, each found in data by its printed name with the printed cost
    for printed, cost in priced.items():
        hits = [w for w in weapons.values() if fold(w.name) == printed]
        assert len(hits) == 1, printed
        assert hits[0].cost == cost
    # GF-B6: javelins cost the printed 1 with or without the propulseur
    assert weapons["javeline"].cost == weapons["javeline_propulseur"].cost == priced[fold("Javeline + propulseur")]
    assert weapons["javeline"].decision == weapons["javeline_propulseur"].decision == "GF-B6"
    # footnote 3: the two-handed weapon is for characters only
    assert "Uniquement les personnages" in line(77) and weapons["deux_mains"].characters_only
    assert [w.id for w in weapons.values() if w.characters_only] == ["deux_mains"]


def test_claws_and_teeth_are_a_free_saurian_weapon_gf_b11():
    claws = data.weapons()["griffes"]
    n = cited_lines(claws.ref)[0]
    assert line(n).split("\t")[0] == claws.name and "Saurien" in line(find("### Pourcentage de Base au Combat (PBC) Saurien"))
    assert find("### Pourcentage de Base au Combat (PBC) Saurien") < n < find("## Moral", n - 5) + 1
    assert claws.cost == 0 and claws.races == ("saurien",) and claws.decision == "GF-B11"


def test_every_printed_armour_cost():
    rows = table_at("Armures ordinaires\tcoût")
    for name, cost in rows[1:]:
        hits = [a for a in data.armours().values() if fold(a.name) == fold(clean(name))]
        assert len(hits) == 1 and hits[0].cost == int(cost)
    assert data.armours()["sans"].cost == 0  # not a purchase: "sans armure" adds nothing


def test_pochteca_cost():
    n = find("Pochteca\t")
    name, cost = line(n).split("\t")
    assert data.pochteca().name == name and data.pochteca().cost == int(cost)
    assert cited_lines(data.pochteca().ref) == [n]


def test_every_creature_and_monster_cost_and_kind():
    rows = table_at("Type de monstres et de créatures")
    beasts = data.beasts()
    assert [r[0] for r in rows[1:]] == [b.name for b in beasts.values()]
    creatures_at, monsters_at = find("## LES CREATURES"), find("## LES MONSTRES")
    creature_text = fold("\n".join(lines()[creatures_at:monsters_at]))
    monster_text = fold("\n".join(lines()[monsters_at:]))
    for name, cost in rows[1:]:
        b = next(x for x in beasts.values() if x.name == name)
        assert b.cost == int(cost) and cited_lines(b.ref)[0] == find(f"{name}\t{cost}")
        # its kind: named in that summary section (Jaguar/puma as "Jaguar et puma", condor with the eagle)
        first = fold(re.split(r"[/ ]", name)[0]) if b.id != "condor" else "condor"
        assert first in (creature_text if b.kind == "creature" else monster_text), name
    assert {b.id for b in beasts.values() if b.kind == "monster"} == {"grand_saurien", "araignee"}


def _character_rows():
    rows = table_at("Type de personnage\tHéros")
    return {r[0]: r[1:] for r in rows}


def test_character_factors_experience_spells_and_prices_as_printed():
    rows = _character_rows()
    assert rows["Type de personnage"][:3] == ["Héros", "prêtre", "Prêtre-guerrier"]
    types = list(data.character_types().values())
    assert [t.name for t in types] == rows["Type de personnage"][:3]
    for label, factor in (("Facteur de commandement", "FC"), ("Facteur de moral", "FM"),
                          ("Modificateur de combat", "CM")):
        cells = rows[label]
        for t, cell in zip(types, cells[:3]):
            lo, hi = (int(x) for x in cell.rstrip("%").split("-"))
            assert tuple(getattr(t, factor)) == (lo, hi), (t.id, factor)
        assert data.prices()[factor].per_point == int(cells[3])
    xp = rows["Expérience et compétences"]
    for t, cell in zip(types, xp[:3]):
        assert tuple(t.experience) == tuple(int(x) for x in clean(cell).split("/"))
    assert data.prices()["experience"].per_point == int(xp[3])
    spells = rows["Miracles, sorts divins, etc."]
    for t, cell in zip(types, spells[:3]):
        cell = clean(cell)
        assert (t.spells is None) if cell == "/" else tuple(t.spells) == tuple(int(x) for x in cell.split("/"))
    major, legendary = (int(x) for x in clean(spells[3]).split("/"))
    assert re.search(r"100 pour .* majeur / 250 pour .* légendaire", line(114))
    levels = data.levels()
    assert (levels["majeur"].spell_price, levels["legendaire"].spell_price) == (major, legendary)


def test_gf_b8_the_minor_spell_price_is_a_documented_choice():
    minor = data.levels()["mineur"]
    assert minor.decision == "GF-B8" and "GF-B8" in minor.note
    assert minor.spell_price == data.levels()["majeur"].spell_price  # the lowest printed price


def test_character_base_cost():
    assert data.character_base().cost == int(re.search(r"(\d+) points", line(103)).group(1))


def test_equipment_by_level_as_printed():
    rows = table_at("Equipement\tArmes/armure ordinaires")
    read = {"non": 0, "0-1": 1, "1": 1}
    for cells, level in zip(rows[1:], data.levels().values()):
        assert fold(level.name) in fold(cells[0])
        assert cells[1] == "oui" and level.ordinary
        assert (level.magic_weapons, level.magic_items) == (read[cells[2]], read[cells[3]])
    # footnote 1 (l.121): a major character has a magic weapon OR an item; l.123: at most one of each
    assert "Une arme magique ou un objet magique" in line(121) and data.levels()["majeur"].magic_total == 1
    assert "pas avoir plus d'une arme et plus d'un objet magique" in line(123) and data.levels()["legendaire"].magic_total == 2


@pytest.mark.parametrize("type_id,heading", [("heros", "### Héros"), ("pretre", "### Prêtre"),
                                             ("pretre_guerrier", "## Prêtre-guerrier")])
def test_every_skill_as_printed(type_id, heading):
    start = find("## Table des compétences")
    n = find(heading, start)
    printed = []
    for text in lines()[n:]:
        if text.startswith("#") or text.startswith("Armes\t"):
            break
        if "\t" in text and not text.lower().startswith("compétences"):
            printed.append(tuple(text.split("\t")[:2]))
    ours = [(s.name, s.effect) for s in data.skills() if s.type == type_id]
    assert ours == printed
    for s in data.skills():
        if s.type == type_id:
            assert line(cited_lines(s.ref)[0]).startswith(s.name + "\t")


def test_every_magic_weapon_and_the_curse_roll():
    rows = table_at("Arme/pouvoir")
    ours = data.magic_weapons()
    assert [r[0] for r in rows[1:]] == list(ours)
    for name, effect, cost in rows[1:]:
        assert (ours[name].effect, ours[name].cost) == (effect, int(cost))
    n = find("l'arme est maudite")
    assert data.curse_roll().at_most == int(re.search(r"(\d+)% ou moins", line(n)).group(1))
    assert cited_lines(data.curse_roll().ref) == [n]


def test_every_magic_item():
    rows = table_at("Objet/pouvoir")
    ours = data.magic_items()
    assert [r[0] for r in rows[1:]] == list(ours)
    for name, effect, cost in rows[1:]:
        assert (ours[name].effect, ours[name].cost) == (effect, int(cost))


def test_every_curse_row_and_its_d100_range_gf_a2():
    from guerres_fleuries.seed import rows_under
    rows = [r for r in rows_under("## Table des malédiction") if r[0]]
    table = data.curses()
    assert [r[0] for r in rows[1:]] == [row.result for row in table.rows]
    for cells, row in zip(rows[1:], table.rows):
        lo, hi = (int(x) for x in re.match(r"(\d+)-(\d+)%", cells[2]).groups())
        assert (row.low, row.high) == (lo, hi or 100)  # GF-A2: "00" is 100
        assert row.effect.startswith(cells[1][:60])
        assert cited_lines(row.ref) == [find(cells[0] + "\t", 203)]
    assert table.rows[-1].decision == "GF-A2" and table.read(100).result == "Mauvais œil"
    # the continuation line of « Faille magique » (l.215) is part of its effect
    assert "6. Il est pris pour un ennemi" in table.read(80).effect


def test_army_constraints_as_printed():
    K = data.constraints()
    assert K["budget"].value == int(re.search(r"budget de (\d+) points", line(28)).group(1))
    text = line(32)
    assert K["unit_size"].value == int(re.search(r"minimum des unités est de (\d+)", text).group(1))
    assert K["class_b_share"].value == int(re.search(r"(\d+)%<sup>1</sup> au minimum", text).group(1)) / 100
    assert K["allied_share"].value == int(re.search(r"dépasser (\d+)%", text).group(1)) / 100
    assert K["mercenary_share"].value == int(re.search(r"mercenaires (\d+)%", text).group(1)) / 100
    assert K["heroes"].value == int(re.search(r"un héros pour (\d+) guerriers", line(101)).group(1))
    assert "seulement un prêtre-guerrier ou un prêtre par armée" in line(101) and K["priests_max"].value == 1
    assert [K[k].decision for k in ("budget", "unit_size", "class_b_share", "heroes")] == \
        ["GF-B1", "GF-B2", "GF-B3", "GF-B9"]


FILES = ("troops.toml", "beasts.toml", "characters.toml", "magic_weapons.toml", "magic_items.toml", "army.toml",
         "tables/curses.toml")


def _all_rows():
    for f in FILES:
        for table, value in document(f).items():
            for row in (value if isinstance(value, list) else [value]):
                yield f, table, row


@pytest.mark.parametrize("file", FILES)
def test_every_row_cites_a_seed_line_that_exists(file):
    for f, table, row in _all_rows():
        if f != file:
            continue
        assert row["ref"].startswith("GF ") and "seed 003 l." in row["ref"], (f, table, row)
        for n in cited_lines(row["ref"]):
            assert 1 <= n <= len(lines())
        name = row.get("name") or row.get("result")
        if name and table not in ("price", "level", "constraint"):
            cited = " ".join(clean(line(n)) for n in cited_lines(row["ref"]))
            assert fold(name.split("/")[0]) in fold(cited), (f, name, row["ref"])


def test_rows_are_validated_with_their_model_and_name_the_bad_field():
    from oriflamme.rulesets.guerres_fleuries.rows import DataError, load
    with pytest.raises(DataError, match=r"troops.toml: \[\[weapon\]\] #1 \(x\) field cost"):
        load(data.Weapon, "troops.toml", "weapon", {"weapon": [{"id": "x", "name": "x", "name_en": "x", "cost": -1,
                                                              "ref": "GF x"}]})
    assert issubclass(data.Weapon, Row)
