"""Every French label the rulings quote from the data has its English beside it (issue 15): a
modifier row its ``en``, a troop class, a race and a priest's level their ``name_en``, a die table
its ``title_en`` and each row its ``result_en``. Read from the TOML files themselves, so a new row
without its English fails here; the English display (display.py) uses them, the French keeps
the printed French."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from oriflamme.core import registry
from oriflamme.rulesets.guerres_fleuries import display, names

DATA = Path(__file__).parents[2] / "src/oriflamme/rulesets/guerres_fleuries/data"


def _rows(file: str, key: str) -> list[dict]:
    return tomllib.loads((DATA / file).read_text(encoding="utf-8")).get(key, [])


def _missing(rows, field, where):
    return [f"{where}: {r.get('id') or r.get('printed') or r.get('names')!r} has no {field}"
            for r in rows if not isinstance(r.get(field), str) or not r[field].strip()]


def test_every_modifier_row_has_its_english():
    files = sorted((DATA / "modifiers").glob("*.toml"))
    assert len(files) >= 13
    missing = []
    for f in files:
        rows = _rows(f"modifiers/{f.name}", "modifier")
        assert rows, f.name
        missing += _missing(rows, "en", f"modifiers/{f.name}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("file, key, field", [
    ("command.toml", "troop_class", "name_en"), ("command.toml", "race", "name_en"), ("magic.toml", "level", "name_en"),
    ("fire.toml", "armour", "name_en"), ("fire.toml", "weapon", "name_en"), ("fire.toml", "band", "name_en"),
    ("melee.toml", "weapon", "name_en"), ("morale.toml", "code", "name_en"), ("combat.toml", "cause", "en"),
    ("wounds.toml", "cell", "text_en"), ("wounds.toml", "rule", "text_en"), ("morale.toml", "wound_state", "name_en"),
    ("morale.toml", "wound_base", "en"), ("magic.toml", "spell", "name_en")])
def test_every_class_race_level_weapon_armour_code_and_cause_has_its_english(file, key, field):
    rows = _rows(file, key)
    assert rows
    assert not _missing(rows, field, f"{file} [[{key}]]")


def test_every_morale_label_printed_with_french_words_has_its_english():
    """The morale bases and results print numbers and a few French words ("C et M (8)", "6 et
    moins"): those with a letter beyond the class letters need ``en``."""
    import re
    rows = _rows("morale.toml", "base") + _rows("morale.toml", "result")
    french = [r for r in rows if re.search(r"[a-zé]{2,}", r["printed"])]
    assert len(french) >= 6
    assert not _missing(french, "en", "morale.toml")


def test_every_die_table_has_its_english():
    files = sorted((DATA / "tables").glob("*.toml"))
    assert files
    missing = []
    for f in files:
        doc = tomllib.loads(f.read_text(encoding="utf-8"))
        missing += _missing([doc["table"]], "title_en", f"tables/{f.name}")
        missing += _missing(doc["row"], "result_en", f"tables/{f.name}")
    assert not missing, "\n".join(missing)


def test_the_english_display_puts_the_printed_labels_in_english_and_keeps_the_ruling():
    rs = registry.get("guerres-fleuries")
    ruling = rs.adjudicate({"kind": "automatic_movement", "table": "troops", "d100": 80})
    shown = rs.render_ruling(ruling, "en")
    assert shown["explanation"][0].startswith(ruling["title_en"] if "title_en" in ruling else "Automatic")
    assert shown["result_text"] == ruling["result_en"] and shown["result_text"] != ruling["result"]
    fr = rs.render_ruling(ruling, "fr")  # the French keeps the printed French, the English prose in French
    assert fr["explanation"] == ["Mouvement automatique (troupes) : d100 80, ligne 77–88", f"résultat : {ruling['result']}"]
    assert ruling["explanation"][0] == "Mouvement automatique (troupes): d100 80 reads row 77–88"  # stored as written
    assert ruling["result"] in ruling["explanation"][1]  # the stored ruling quotes the seed
    g = display.glossary()
    assert g["Levées, novices (C)"] == "Levies, novices (C)"
    assert display.english("Homme, class C (Levées, novices (C)): 45 %") == "Man, class C (Levies, novices (C)): 45 %"


def test_the_french_printed_names_and_the_english_are_both_matched():
    from oriflamme.rulesets.guerres_fleuries import modifiers
    for kind in modifiers.kinds():
        for mid, m in modifiers.modifiers(kind).items():
            total, terms = modifiers.applied(kind, [{"modifier": m.printed}], {"FC": 1, "FM": 1, "CM": 1})
            assert terms[0]["modifier"] == mid
            total, terms = modifiers.applied(kind, [{"modifier": m.en}], {"FC": 1, "FM": 1, "CM": 1})
            assert terms[0]["modifier"] == mid or m.en in [x.en for x in modifiers.modifiers(kind).values()
                                                           if x.id == terms[0]["modifier"]]
    assert names.squash("Levées") == "levees"


def test_the_sides_are_named_in_both_languages():
    rows = [("A", "Aztec host", "Armée aztèque"), ("B", "Saurian warband", "Bande saurienne")]
    assert display.name_sides("Side A has given its orders (face down)", "en", rows) == \
        "Side “Aztec host” has given its orders (face down)"
    assert display.name_sides("Le camp B a donné ses ordres (face cachée)", "fr", rows) == \
        "Le camp « Bande saurienne » a donné ses ordres (face cachée)"
    assert display.name_sides("+1 omen point(s) for side B", "en", rows) == "+1 omen point(s) for side “Saurian warband”"


@pytest.mark.parametrize("french, english", [
    ("Cuauhtli is in Grand saurien's left flank sector", "Cuauhtli is in Grand saurien's left flank sector"),
    ("Saurien Club against sans armure: PBC 18 %", "Saurian Club against no armour: PBC 18 %"),
    ("moving and firing (Arc) −1/4: 15 cm", "moving and firing (bow) −1/4: 15 cm"),
    ("déroute", "rout"),
    ("Obéir: the unit keeps its order", "Obey: the unit keeps its order"),
    ("Base (Grand saurien et Araignée, wound state Pas de blessure): 15",
     "Base (Great saurian and Giant spider, wound state no wound): 15"),
])
def test_a_one_word_label_is_put_in_english_only_where_a_label_stands(french, english):
    """A unit's name holding a label's word ("Grand saurien", the armour "saurien") keeps it."""
    assert display.english(french) == english


@pytest.mark.parametrize("english, french", [
    ("Modifier \"Si un personnage est dans les 15cm.\" +4 × 1 = +4", "Modificateur « Si un personnage est dans les 15cm. » +4 × 1 = +4"),
    ("Ptérodactyle wounded: legs, light wound: -15 in melee -1/2 to movement",
     "Ptérodactyle blessé : jambes, Blessure légère - 15 au combat - ½ au mouvement"),
    ("Novice slingers: morale d4 3 → RET (retreat)", "Novice slingers : moral d4 3 → RET (retraite)"),
    ("Sir Nobody does something unknown", "Sir Nobody does something unknown"),  # no template: kept
])
def test_the_french_display_puts_the_explanation_lines_in_french(english, french):
    assert display.french(english) == french


def test_every_french_template_has_the_placeholders_of_its_english():
    import re
    doc = tomllib.loads((DATA.parent / "texts_fr.toml").read_text(encoding="utf-8"))
    slot = re.compile(r"\{(\w+)\}")
    for msg in doc["msg"]:
        assert set(slot.findall(msg["fr"])) <= set(slot.findall(msg["en"])), msg


def test_an_action_s_ruling_reads_in_one_language():
    """Explain (before an action is taken): its first lines from ``steps_fr`` in French, the
    others through the catalogue; the orders named, not given by id."""
    from oriflamme.core.record import Game
    rs = registry.get("guerres-fleuries")
    g = Game(rs, rs.load_scenario("battle-of-the-flowers"), 1)
    while g.state.phase != 3 or g.to_act() in (None, "chance"):
        acts = rs.legal_actions(g.state, g.to_act())
        g.apply(acts[-1] if g.state.phase != 3 else acts[0])
    orders = next(a for a in rs.legal_actions(g.state, g.to_act()) if a.type == "orders" and a.orders)
    r = rs.explain(g.state, orders)
    fr, en = rs.render_ruling(r, "fr"), rs.render_ruling(r, "en")
    assert fr["steps"][0].startswith("Donner les ordres (face cachée) : ")
    assert en["steps"][0].startswith("Give the orders (face down): ")
    ids = {oid for _, oid, _ in orders.orders}
    from oriflamme.rulesets.guerres_fleuries.battle.rules import rules
    named = rules().order_names
    assert all(named[o].name_en in en["steps"][0] and named[o].printed in fr["steps"][0] for o in ids if o in named)
