"""`oriflamme adjudicate` with "ruleset": "croisades": move costs by the edition's terrain names
as printed (case and accents optional), melee with its terrain marks (given as marks or by
terrain name), each answer citing the seed line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oriflamme.rulesets.magna_carta.referee import SituationError, adjudicate_situation

ROOT = Path(__file__).resolve().parents[2]


def cost(terrain, **kw):
    return adjudicate_situation({"kind": "move_cost", "ruleset": "croisades", "terrain": terrain, **kw})


@pytest.mark.parametrize("name,mounted,want,line", [
    ("Fossé", False, 4, 9), ("fosse", False, 4, 9), ("FOSSÉ", True, None, 9),
    ("Palmier (feuilles)", False, 1, 4), ("palmier (feuilles)", True, 2, 4),
    ("Arbuste", True, 4, 6), ("champ de pierres", True, 2, 8), ("Oasis", True, 2, 3),
    ("Tente", False, 2, 10), ("tente", True, None, 10), ("Ouverture de tente", False, 2, 11),
    ("Haubans", True, None, 12), ("Fenetre dans mur", False, 4, 17), ("Porte dans mur", True, 1, 18),
    ("Rempart", False, 1, 28), ("Archere", False, 1, 30), ("Puit", False, 2, 36), ("Glacis", False, None, 33),
])
def test_move_cost_by_the_printed_names(name, mounted, want, line):
    r = cost(name, mover={"mounted": mounted})
    assert r["cost"] == want
    assert r["legal"] == (want is not None)
    assert r["citations"] == [f"CR seed 000 l.{line}"]


def test_a_cost_from_the_hex_left():
    assert cost("Balcon / Auvent")["cost"] == 4  # from outside
    assert cost("Balcon / Auvent", from_terrain="Intérieur de maison")["cost"] == 1
    assert cost("Rempart", from_terrain="Echelle")["cost"] == 4
    assert cost("Fossé", from_terrain="Fossé")["cost"] == 1
    with pytest.raises(SituationError, match="from_terrain"):
        cost("Fossé", from_terrain="nowhere")


def test_the_base_terrain_is_still_there_and_magna_carta_does_not_know_tents():
    assert cost("Terrain plat")["cost"] == 1 and cost("Talus", mover={"mounted": True})["cost"] == 4
    with pytest.raises(SituationError, match="unknown terrain 'Tente'"):
        adjudicate_situation({"kind": "move_cost", "ruleset": "magna-carta", "terrain": "Tente"})


def melee(att_terrain, def_terrain, **kw):
    return adjudicate_situation({"kind": "melee", "ruleset": "croisades",
                                 "attackers": [{"attack": 30, "terrain": att_terrain, **kw.get("a", {})}],
                                 "defenders": [{"defence": 5, "terrain": def_terrain, **kw.get("d", {})}]})


def test_melee_with_the_editions_terrain_marks():
    r = melee("Oasis", "Rempart")  # - against Déf. +: two columns left (SEED-NOTES D4)
    assert r["shift"] == -2 and "CR seed 000 l.28" in r["citations"] and "CR seed 000 l.3" in r["citations"]
    assert melee("-", "+")["column"] == r["column"]  # the same as the marks typed in
    assert melee("Rempart", "0")["shift"] == 0  # "Déf. +": no attacker's mark
    assert melee("Fenêtre dans mur", "0")["shift"] == -1  # "Att. -"
    assert melee("Palmier (feuilles)", "0")["shift"] == 0  # on foot: 0
    assert melee(["Palmier (feuilles)", "0"], "0", a={"mounted": True})["shift"] == -1  # mounted: -


def test_combat_impossible_through_a_tent_or_at_the_castle_wall():
    r = melee("0", "Tente")
    assert not r["legal"] and r["citations"][-1] == "CR seed 000 l.10"
    assert melee("Ouverture de tente", "Tente")["legal"]  # from its opening
    assert not melee("Mur du château", "0")["legal"]
    assert melee("Rempart", "Archère")["legal"] and not melee("0", "Archère")["legal"]


def test_a_bad_terrain_name_is_a_clear_error():
    with pytest.raises(SituationError, match=r"defenders\[0\].terrain: unknown terrain .nowhere. \(known: .*tent"):
        melee("0", "nowhere")


def test_the_cli_answers_for_croisades():
    sit = [{"kind": "move_cost", "ruleset": "croisades", "terrain": "palmier (tronc)"},
           {"kind": "melee", "ruleset": "croisades", "attackers": [{"attack": 12, "terrain": "+"}],
            "defenders": [{"defence": 4, "terrain": "Porte dans mur"}], "die": 4}]
    p = subprocess.run([sys.executable, "-c", "from oriflamme.cli.main import main; main()", "adjudicate", "-"],
                       input=json.dumps(sit), capture_output=True, text=True, cwd=ROOT,
                       env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out[0]["cost"] == 2 and out[0]["citations"] == ["CR seed 000 l.5"]
    assert out[1]["legal"] and "CR seed 000 l.18" in out[1]["citations"]
