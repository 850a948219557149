"""Every cell of the rules data (orders, command, automatic movement, movement, fire, melee and
their modifier lists) against the seed's printed rows, re-parsed here (GF seed 003)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from guerres_fleuries.rules_seed import (band_max, cells, d100_range, fraction, no_markup, printed_value,
                                         ref_lines)
from guerres_fleuries.seed import line, lines, rows_under
from oriflamme.rulesets.guerres_fleuries import beings, d100, fire, melee, modifiers, movement, rows
from oriflamme.rulesets.guerres_fleuries.names import fold

# --- every file loads, every row is cited, every cited line exists ---------------------------------------

MINE = ["orders.toml", "command.toml", "movement.toml", "fire.toml", "melee.toml",
        "tables/automatic_troops.toml", "tables/automatic_creatures.toml", "tables/automatic_monsters.toml",
        "modifiers/command.toml", "modifiers/command_creatures.toml", "modifiers/command_monsters.toml",
        "modifiers/fire.toml", "modifiers/melee.toml", "modifiers/melee_creatures.toml",
        "modifiers/melee_pteradon.toml", "modifiers/melee_monsters.toml"]


def _rows_of(doc):
    for value in doc.values():
        for item in (value if isinstance(value, list) else [value]):
            if isinstance(item, dict):
                yield item


@pytest.mark.parametrize("name", MINE)
def test_every_row_is_cited_to_existing_seed_lines(name):
    doc = rows.document(name)
    for item in _rows_of(doc):
        assert item["ref"].startswith("GF"), item
        for n in ref_lines(item["ref"]):
            assert 1 <= n <= len(lines()) and line(n).strip(), (name, item["ref"])
        if item.get("decision"):
            for d in item["decision"].split(", "):
                assert re.fullmatch(r"GF-[A-K]\d+|OR-GF\d+", d)


def test_every_model_validates_its_file():
    beings.races(), beings.classes(), beings.creatures(), beings.monsters(), beings.exemptions()
    for f in (movement.rates, movement.moves, movement.terrain_columns, movement.terrain_others,
              movement.terrain_mods, movement.formation_changes, movement.fire_and_move, movement.formations,
              movement.altitudes, movement.flights, fire.armours, fire.bands, fire.weapons, fire.pbt, fire.ranks,
              fire.targets, melee.weapons, melee.pbc, melee.being_armour, melee.rank_bonus):
        assert f()
    for k in ("command", "command_creatures", "command_monsters", "fire", "melee", "melee_creatures",
              "melee_pteradon", "melee_monsters"):
        assert modifiers.modifiers(k)
    for t in ("automatic_troops", "automatic_creatures", "automatic_monsters"):
        assert d100.table(t).rows


def test_a_malformed_row_is_named_by_file_table_row_and_field():
    doc = {"rate": [{"mover": "homme", "medium": "ground", "normal": "vingt", "double": 40, "charge": 30,
                     "retraite": 10, "deroute": 34, "poursuite": 32, "ref": "GF seed 003 l.1407"}]}
    with pytest.raises(rows.DataError, match=r"movement.toml: \[\[rate\]\] #1 .* field normal"):
        rows.load(movement.Rate, "movement.toml", "rate", doc)


# --- command and reaction tests ---------------------------------------------------------------------------

def test_troop_command_values_are_the_printed_ones():
    printed = {r[0]: r[1:] for r in rows_under("### Test de commandement / réaction (1d100)")[1:]}
    assert len(printed) == 4
    for cls in beings.classes().values():
        homme, saurien = printed[cls.printed]
        assert cls.homme == int(homme)
        assert cls.saurien == (None if saurien == "/" else int(saurien))
        assert line(ref_lines(cls.ref)[0]).startswith(cls.printed)


@pytest.mark.parametrize("table,start", [("creature", 1713), ("monster", 1885)])
def test_creature_and_monster_command_values_are_the_printed_ones(table, start):
    printed = {r[0]: int(r[1]) for r in rows_under("Test de commandement / réaction (1d100)", start)[1:]}
    data = beings.creatures() if table == "creature" else beings.monsters()
    assert {b.names[0]: b.command for b in data.values()} == printed


# --- modifiers: the sentence verbatim, the value as printed --------------------------------------------------

def _printed_split(n: int, printed: str) -> str:
    text = line(n)
    body = re.sub(r"^\|?\s*-\s*", "", text)
    body = no_markup(body) if "|" not in text else body
    assert body.startswith(printed), (n, text, printed)
    rest = body[len(printed):]
    return rest.strip(" |.")


@pytest.mark.parametrize("kind", ["command", "command_creatures", "command_monsters", "fire", "melee",
                                  "melee_monsters"])
def test_modifiers_are_printed_verbatim_with_their_value(kind):
    for m in modifiers.modifiers(kind).values():
        if m.id in SPELL_ROWS or m.id.startswith(ITEM_PREFIX):  # printed outside the list: their own tests
            continue
        n = ref_lines(m.ref)[0]
        rest = _printed_split(n, m.printed)
        assert m.value == printed_value(rest.split("|")[0]), (kind, m.id, rest)


@pytest.mark.parametrize("kind,side", [("melee_creatures", 0), ("melee_pteradon", 1)])
def test_creature_modifiers_read_both_columns_with_the_leading_sign(kind, side):
    """GF-H4: "- 5/2" is -5 for other creatures, -2 for the Ptéradon."""
    for m in modifiers.modifiers(kind).values():
        if m.id in SPELL_ROWS or m.id.startswith(ITEM_PREFIX):
            continue
        rest = _printed_split(ref_lines(m.ref)[0], m.printed)
        sign = -1 if rest.startswith("-") else 1
        parts = rest.lstrip("+- ").split("/")
        if parts[0] == "FC":
            assert m.value == "+FC"
            continue
        cell = parts[side]
        value = int(cell.lstrip("-")) * (-1 if cell.startswith("-") else sign)
        assert m.value == value, (kind, m.id, rest)
    assert modifiers.modifiers("melee_pteradon")["medium_cover"].value == -2  # "- 5/2", GF-H4
    assert modifiers.modifiers("melee_pteradon")["enemy_shields"].value == -1  # "- 2/-1"


#: the magic items' modifiers, printed in the army builder's table of items (OR-GF151; test_battle_items)
ITEM_PREFIX = "item_"
#: the spells' modifiers on fire, melee and reaction tests, printed in the spells' texts (OR-GF120)
SPELL_ROWS = {"spell_brume", "spell_malediction", "spell_possession", "spell_secousses", "spell_hurlement",
              "spell_vent"}


@pytest.mark.parametrize("kind", ["command", "command_creatures", "command_monsters", "fire", "melee",
                                  "melee_creatures", "melee_monsters", "melee_pteradon"])
def test_spell_modifiers_carry_the_printed_number(kind):
    """A spell's modifier (l.1186-1308) is a sentence of its text, verbatim, and its value the number the
    sentence prints: per point, as many as the spell's ``amount``, for a curse with a minimal score; a hostile "+10 %" to a
    test lowers its threshold (GF-C1)."""
    rows = [m for m in modifiers.modifiers(kind).values() if m.id in SPELL_ROWS]
    assert rows, kind
    for m in rows:
        n = ref_lines(m.ref)[0]
        assert m.printed in no_markup(line(n)), (kind, m.id)
        sign, number = re.search(r"([+-])\s?(\d+)\s?%?\s*(?:à|au|de|lors|malus|pour|et)", m.printed).groups()
        printed = (-1 if sign == "-" else 1) * int(number)
        if "GF-C1" in (m.decision or ""):
            printed = -abs(printed)
        from oriflamme.rulesets.guerres_fleuries.battle.spells import spell_effects
        per_point = {"spell_malediction": spell_effects()["malediction"].amount}  # -1 a point, 30 points
        assert m.value * per_point.get(m.id, 1) == printed, (kind, m.id, printed)


def test_every_printed_modifier_line_is_in_the_data():
    spans = {"command": (1385, 1391), "command_creatures": (1760, 1764), "command_monsters": (1913, 1917),
             "fire": (1494, 1504), "melee": (1562, 1576), "melee_creatures": (1790, 1799),
             "melee_monsters": (1948, 1955)}
    for kind, (a, b) in spans.items():
        cited = {ref_lines(m.ref)[0] for m in modifiers.modifiers(kind).values()
                 if m.id not in SPELL_ROWS and not m.id.startswith(ITEM_PREFIX)}
        printed = {n for n in range(a, b + 1) if line(n).lstrip("| ").startswith("-")}
        assert cited == printed, kind


# --- automatic movement ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,heading,start", [("automatic_troops", "### Mouvement automatique", 1),
                                                ("automatic_creatures", "## Mouvement automatique", 1713),
                                                ("automatic_monsters", "### Mouvement automatique", 1885)])
def test_automatic_movement_rows_are_the_printed_ones(name, heading, start):
    printed = [(d100_range(r[1]), r[0]) for r in rows_under(heading, start)[1:]
               if re.fullmatch(r"\d\d-\d\d", r[1])]
    assert len(printed) == 5
    table = d100.table(name)
    for (low, high), text in printed:
        row = table.read(low)
        assert (row.low, row.high, row.result.rstrip(".")) == (low, high, text.rstrip(".")), name
    covered = {n for (lo, hi), _ in printed for n in range(lo, hi + 1)}
    unprinted = [r for r in table.rows if r.low not in covered]
    if name == "automatic_troops":  # GF-A1: 61-66 has no row: the unit does nothing
        assert [(r.low, r.high, r.decision) for r in unprinted] == [(61, 66, "GF-A1")]
        assert "ne bouge pas" in unprinted[0].result
    else:
        assert unprinted == []


# --- movement ---------------------------------------------------------------------------------------------

RATE_ROWS = {"Sans armure/armure de coton": [("homme", "ground")], "Saurien": [("saurien", "ground")]}
CREATURE_AIR = {"Aigle et condor géant": ["aigle"], "Chauve-souris géante": ["chauve_souris"],
                "Ptérodactyle": ["pterodactyle"], "Ptéradon": ["pteradon"]}
CREATURE_GROUND = {"Aigle et condor géant": ["aigle"], "Jaguar, puma, etc.": ["jaguar"],
                   "Chauve-souris géante/ Ptérodactyle": ["chauve_souris", "pterodactyle"], "Ptéradon": ["pteradon"]}
MONSTERS = {"Grand saurien": ["grand_saurien"], "Araignée géante": ["araignee"]}


def _rate_rows(first: int, last: int):
    return [cells(n) for n in range(first, last + 1)]


def test_every_printed_rate_is_in_the_data():
    groups = [(_rate_rows(1407, 1408), RATE_ROWS, None), (_rate_rows(1720, 1723), CREATURE_AIR, "air"),
              (_rate_rows(1728, 1731), CREATURE_GROUND, "ground"), (_rate_rows(1890, 1891), MONSTERS, "ground")]
    seen = set()
    for printed, mapping, medium in groups:
        for label, *numbers in printed:
            for mover in mapping[label]:
                key = (mover, "ground") if medium is None else (mover, medium)
                if medium is None:
                    key = mapping[label][0]
                rate = movement.rates()[key]
                assert [getattr(rate, c) for c in movement.COLUMNS] == [int(x) for x in numbers], label
                seen.add(key)
    assert seen == set(movement.rates())
    assert cells(1406)[1:] == ["normal", "double", "Charge/fuite", "retraite", "déroute", "poursuite"]


def test_every_printed_terrain_penalty_is_in_the_data():
    """GF-D2 columns; "/" (monsters) is no penalty (OR-GF1)."""
    groups = [(_rate_rows(1411, 1412), {"Sans armure/armure de coton": ["homme"], "Saurien": ["saurien"]}),
              (_rate_rows(1736, 1739), {"Aigle et condor géant": ["aigle"], "Jaguar et puma": ["jaguar"],
                                        "Chauve-souris géante / Ptérodactyle": ["chauve_souris", "pterodactyle"],
                                        "Ptéradon": ["pteradon"]}),
              (_rate_rows(1896, 1897), MONSTERS)]
    seen = set()
    for printed, mapping in groups:
        for label, *cols in printed:
            for mover in mapping[label]:
                mod = movement.terrain_mods()[mover]
                assert [getattr(mod, c) for c in movement.TERRAIN_COLUMNS] == [fraction(c) for c in cols], label
                seen.add(mover)
    assert seen == set(movement.terrain_mods())
    assert [movement.terrain_columns()[c].printed for c in movement.TERRAIN_COLUMNS] == cells(1410)[1:]


def test_every_printed_formation_change_is_in_the_data():
    """GF-D5; Saurien C et M "tour entier" = the whole move."""
    for n, cls in ((1417, "A"), (1418, "B"), (1419, "C"), (1419, "M")):
        _, homme, saurien = cells(n)
        assert getattr(movement.formation_changes()["homme"], cls) == fraction(homme)
        assert getattr(movement.formation_changes()["saurien"], cls) == fraction(saurien)
    per_being = {"Aigle et condor géant": ["aigle"], "Jaguar et puma": ["jaguar"],
                 "Chauve-souris géante": ["chauve_souris"], "Ptérodactyle et Ptéradon": ["pterodactyle", "pteradon"],
                 **MONSTERS}
    for n in list(range(1744, 1748)) + [1902, 1903]:
        label, penalty = cells(n)
        for mover in per_being[label]:
            assert movement.formation_changes()[mover].all == fraction(penalty)


def test_fire_and_movement_penalties_are_the_printed_ones():
    for n in range(1424, 1427):
        label, homme, saurien = cells(n)
        row = movement.fire_and_move()[{"Javeline": "javeline", "Fronde": "fronde", "Arc": "arc"}[label]]
        assert (row.homme, row.saurien) == (fraction(homme), fraction(saurien))


def test_flying_altitudes_and_costs_are_the_printed_ones():
    assert "entre 1,5cm et 20cm du sol" in line(693)
    assert (movement.altitudes()["combat"].from_cm, movement.altitudes()["combat"].to_cm) == (1.5, 20)
    assert "rajouter 50cm" in line(893) and movement.altitudes()["vol"].extra_range_cm == 50
    text = line(701)
    assert "Le décollage coûte la moitié du mouvement au sol" in text
    assert movement.flights()["decollage"].ground_cost == "1/2"
    assert "cela lui coûte un mouvement entier dans les airs" in text
    assert movement.flights()["changer_altitude"].air_cost == "1"
    assert "cela lui coûte la moitié de son mouvement dans les airs. La créature doit tester" in text
    assert movement.flights()["plonger"].air_cost == "1/2"
    assert "la moitié de son mouvement dans les airs et la moitié de son mouvement sur terre" in text
    assert (movement.flights()["atterrir"].air_cost, movement.flights()["atterrir"].ground_cost) == ("1/2", "1/2")


def test_open_order_is_plus_a_quarter():
    assert "augmente de 25% son mouvement" in line(551)
    assert Fraction(movement.formations()["ordre_ouvert"].bonus) == Fraction(25, 100)


# --- fire -------------------------------------------------------------------------------------------------

WEAPON = {"Javeline": "javeline", "Fronde": "fronde", "Arc": "arc"}


@pytest.mark.parametrize("shooter,first", [("homme", 1476), ("saurien", 1488)])
def test_every_pbt_cell_is_the_printed_one(shooter, first):
    for n in range(first, first + 3):
        label, short, medium, long_, *pct = cells(n)
        row = fire.pbt()[(shooter, WEAPON[no_markup(label)])]
        if (shooter, no_markup(label)) == ("saurien", "Fronde"):
            assert short == "0-1" and row.courte == band_max(medium.replace("6-", "0-")) - 5 == 5  # GF-E1
            assert row.decision.startswith("GF-E1")
        else:
            assert row.courte == band_max(short)
        assert (row.moyenne, row.longue) == (band_max(medium), band_max(long_))
        assert [row.sans_armure, row.coton] == [int(x) for x in pct[:2]]
        if shooter == "homme":
            assert row.saurien == int(pct[2])
        else:  # GF-E2: the Saurien target column is not printed
            assert len(pct) == 2 and row.saurien == int(Fraction(row.sans_armure, 2) + Fraction(1, 2))
            assert "GF-E2" in row.decision


def test_propulseur_and_bands():
    assert no_markup(line(1480)) == "Si propulseur +10cm." and fire.weapons()["javeline"].propulseur_cm == 10
    assert "divise le résultat par 2 et par 3 à longue portée" in line(1469)
    assert [fire.bands()[b].divisor for b in ("courte", "moyenne", "longue")] == [1, 2, 3]


def test_firing_ranks_are_the_printed_ones():
    for n in range(1509, 1512):
        label, homme, saurien = cells(n)
        row = fire.ranks()[WEAPON[label]]
        assert (row.homme, row.saurien) == (int(homme), int(saurien))


# --- melee ------------------------------------------------------------------------------------------------

MELEE_WEAPON = {"couteau d'obsidienne": "couteau", "Club": "club", "maquahuitl": "maquahuitl",
                "tepoztopilli": "tepoztopilli", "Arme à deux mains": "deux_mains", "Griffes et dents": "griffes"}
BEING = {**{k: v[0] for k, v in CREATURE_AIR.items()}, "Jaguar et puma": "jaguar", "Grand saurien": "grand_saurien",
         "Araignée géante": "araignee"}


def test_every_pbc_cell_is_the_printed_one():
    seen = set()
    for n in range(1528, 1533):
        label, sans, coton, saurien = cells(n)
        row = melee.pbc()[("homme", MELEE_WEAPON[label])]
        assert (row.sans_armure, row.coton, row.saurien) == (int(sans), int(coton), int(saurien))
        seen.add(("homme", MELEE_WEAPON[label]))
    for n in list(range(1539, 1545)) + list(range(1780, 1785)) + [1943, 1944]:
        label, sans, coton = cells(n)
        key = ("saurien", MELEE_WEAPON[label]) if n < 1600 else (BEING[label], None)
        row = melee.pbc()[key]
        assert (row.sans_armure, row.coton) == (int(sans), int(coton))
        # GF-E2 (read for melee as for fire): no Saurien column printed: half the unarmoured, half up
        assert row.saurien == int(Fraction(row.sans_armure, 2) + Fraction(1, 2)) and "GF-E2" in row.decision
        seen.add(key)
    assert seen == set(melee.pbc())
    assert [no_markup(c) for c in cells(1779)[1:]] == ["Cible sans armure", "Cible en armure légère"]
    assert "Correspond à l'armure de coton" in line(1786)


def test_creature_modifier_lists_per_attacker():
    assert {r.modifiers for k, r in melee.pbc().items() if k[1] is None} == \
        {"melee_creatures", "melee_pteradon", "melee_monsters"}
    assert melee.pbc()[("pteradon", None)].modifiers == "melee_pteradon"


def test_rank_bonus_is_printed():
    assert printed_value(line(1563).split("</sup>.")[1]) == melee.rank_bonus().per_rank
    assert line(1578) == "<sup>1</sup>max 5" and melee.rank_bonus().max == 5
    assert "ne bénéficie plus du bonus par rang" in line(578) and melee.rank_bonus().none_when_disordered


def test_being_armours_are_the_printed_ones():
    armour = {"Pas d'armure": "sans_armure", "Armure légère": "coton", "Armure lourde": "saurien"}
    for row in melee.being_armour().values():
        n = ref_lines(row.ref)[0]
        label, printed = cells(n)
        assert printed == row.printed and row.armour == armour[no_markup(printed)]
    assert line(1934) == "<sup>1</sup> ou saurien"


# --- orders and the turn ------------------------------------------------------------------------------

def test_orders_phases_and_counters_are_printed():
    doc = rows.document("orders.toml")
    for i, phase in enumerate(doc["phase"]):
        assert line(ref_lines(phase["ref"])[0]) == f"{i + 1}. {phase['printed']}"
    assert len(doc["phase"]) == 11 and "divisé en 11 phases" in line(248)
    for order in doc["order"]:
        assert order["printed"] in line(ref_lines(order["ref"])[0])
    for c in doc["counter"]:
        assert cells(ref_lines(c["ref"])[0])[0] == c["printed"]
    assert "au moins 2 unités" in line(442) and doc["brigade"]["min_units"] == 2
    assert "5cm ou moins" in line(442) and doc["brigade"]["max_distance_cm"] == 5
    assert "Il varie de 1 à 6" in line(431) and (doc["command_factor"]["min"], doc["command_factor"]["max"]) == (1, 6)
    assert "avancer, attendre, charger et se retirer" in line(343)


def test_priorities_procedures_and_disorder_causes_are_printed_verbatim():
    for rows_, prefix in ((fire.priorities(), "rank"), (fire.procedure(), "step"), (melee.procedure(), "step")):
        for i, row in enumerate(rows_):
            assert getattr(row, prefix) == i + 1
            assert line(ref_lines(row.ref)[0]) == f"- {i + 1}) {row.printed}"
    assert len(fire.priorities()) == 4 and len(fire.procedure()) == 8 and len(melee.procedure()) == 8
    causes = movement.disorder()
    for row in causes:
        printed = line(ref_lines(row.ref)[0])
        assert printed in (f"- {row.printed}", row.printed)
    assert [sum(1 for c in causes if c.who == w) for w in ("unit", "creature_or_monster", "character")] == [9, 5, 1]
    # the narrative lists the same unit causes (l.559-567; it prints "dérouté" for "déroute")
    assert [fold(c.printed) for c in causes if c.who == "unit"] == [fold(line(n)[2:]) for n in range(559, 568)]
