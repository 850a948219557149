"""Armies for the army tests, built from the data (no hard-coded prices)."""

from __future__ import annotations

from oriflamme.rulesets.guerres_fleuries import army_rows as data


def group(figures=20, race="Homme", cls="B", weapons=("maquahuitl",), armour=("coton", "bouclier"), **flags) -> dict:
    return {"figures": figures, "race": race, "class": cls, "weapons": list(weapons), "armour": list(armour), **flags}


def priest(level="mineur", **extra) -> dict:
    t = data.character_types()["pretre"]
    return {"type": "prêtre", "level": level, "FC": t.FC[0], "FM": t.FM[0], "CM": t.CM[0], **extra}


def hero(level="mineur", **extra) -> dict:
    t = data.character_types()["heros"]
    return {"type": "héros", "level": level, "FC": t.FC[0], "FM": t.FM[0], "CM": t.CM[0], **extra}


def valid_army() -> dict:
    """Three class B units of 20 (60 warriors: 2 heroes allowed), a priest, a hero."""
    return {"units": [{"name": f"unit {i}", "groups": [group()]} for i in range(3)],
            "characters": [priest(), hero()]}
