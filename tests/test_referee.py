"""The digital referee: ``oriflamme adjudicate`` and :func:`oriflamme.rulesets.magna_carta.referee.adjudicate_situation`.

Expected results are worked out by hand from the Magna Carta v1.2 tables (seed 004), not copied
from the code's output; each test says how.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from oriflamme.rulesets.magna_carta.referee import SituationError, adjudicate_all, adjudicate_situation

# --- the five situations of the command's specification ----------------------------------------
MELEE = {"kind": "melee", "ruleset": "magna-carta",
         "attackers": [{"attack": 8, "mounted": False, "terrain": "0", "charging": False}],
         "defenders": [{"defence": 3, "mounted": False, "armour": True, "terrain": "+", "counter_charging": False}],
         "extra_shifts": [], "die": 5}
FIRE = {"kind": "fire", "ruleset": "magna-carta", "weapon": "arc long", "distance": 14,
        "shooter": {"wounded": False, "in_tree": False},
        "target": {"mounted": False, "armour": False, "cover": "légère"},
        "weather": "pluie", "extra_modifiers": [], "die": 4}
INFILTRATION = {"kind": "infiltration", "infiltrator": {"mounted": True, "armour": True, "wounded": False},
                "opposer": {"mounted": False, "polearm": True, "wounded": False}, "die": 7}
JUMP = {"kind": "jump", "rider": {"armour": True, "wounded": False}, "two_hexes": False, "die": 9}
MOVE = {"kind": "move_cost", "terrain": "Broussailles", "mover": {"mounted": True, "armour": False}}


def _close(probs: dict, expected: dict) -> bool:
    return probs.keys() == expected.keys() and all(abs(probs[k] - v) < 1e-9 for k, v in expected.items())


# --- the command line -------------------------------------------------------------------------
def _have_main() -> bool:
    """``oriflamme.cli.main`` imports every subcommand module; it cannot start while one is
    missing (``play`` is written by another engineer)."""
    return all(importlib.util.find_spec(f"oriflamme.cli.{m}") is not None for m in ("main", "adjudicate", "play"))


def cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    if _have_main():
        cmd = [sys.executable, "-m", "oriflamme.cli.main", "adjudicate", *args]
    else:  # the same register()/run() through the module's own entry point
        cmd = [sys.executable, "-m", "oriflamme.cli.adjudicate", *args]
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    p = subprocess.run(cmd, input=data, capture_output=True, timeout=60)
    p.stdout_text = p.stdout.decode("utf-8")  # type: ignore[attr-defined]
    p.stderr_text = p.stderr.decode("utf-8")  # type: ignore[attr-defined]
    return p


def ok(p) -> dict | list:
    assert p.returncode == 0, p.stderr_text
    assert p.stderr_text == ""
    return json.loads(p.stdout_text)


@pytest.mark.skipif(not _have_main(), reason="oriflamme.cli.main imports oriflamme.cli.play, which does not exist yet")
def test_console_command_lists_adjudicate():
    p = subprocess.run([sys.executable, "-m", "oriflamme.cli.main", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "adjudicate" in p.stdout


def test_help_documents_the_kinds():
    p = cli("--help")
    assert p.returncode == 0
    for kind in ("melee", "fire", "infiltration", "jump", "move_cost"):
        assert kind in p.stdout_text


def test_cli_melee_example():
    """8 against 3 = 2-1 (§6); attacker "0" vs defender "+" = one column left (§6.1) -> 1-1;
    armour +1 (§6.3): die 5 -> 6; §6.5 row 6, column 1-1 = A."""
    r = ok(cli(stdin=json.dumps(MELEE)))
    assert r["legal"] is True
    assert (r["odds"], r["column"], r["modified_die"], r["result"]) == ("2-1", "1-1", 6, "A")
    # column 1-1 of §6.5 read with +1: dice 1-2 -> rows 2-3 C, 3-4 -> rows 4-5 B, 5 -> row 6 A, 6-10 -> no effect
    assert _close(r["probabilities"], {"-": 0.5, "A": 0.1, "B": 0.2, "C": 0.2})
    assert r["explanation"] and "MC §6.5" in r["citations"]


def test_cli_output_is_indented_utf8():
    p = cli(stdin=json.dumps(INFILTRATION))
    assert p.stdout_text.startswith('{\n  "kind": "infiltration"')
    assert "Arrêt du déplacement" in p.stdout_text  # ensure_ascii=False
    assert p.stdout.decode("utf-8")


def test_cli_reads_a_file(tmp_path: Path):
    f = tmp_path / "jump.json"
    f.write_text(json.dumps(JUMP), encoding="utf-8")
    r = ok(cli(str(f)))
    assert r["result"] == "refusal"
    r = ok(cli("-", stdin=json.dumps(JUMP)))
    assert r["result"] == "refusal"


def test_cli_array_in_array_out():
    r = ok(cli(stdin=json.dumps([MELEE, FIRE, INFILTRATION, JUMP, MOVE])))
    assert isinstance(r, list) and [x["kind"] for x in r] == ["melee", "fire", "infiltration", "jump", "move_cost"]
    assert [x.get("result", x.get("cost")) for x in r] == ["A", "-", "stop", "refusal", 4]
    assert ok(cli(stdin="[]")) == []
    single = ok(cli(stdin=json.dumps([JUMP])))
    assert isinstance(single, list) and len(single) == 1


def test_cli_illegal_attack_is_a_result_not_an_error():
    """§6: attacks below 1-1 are impossible — a ruling with legal false, exit 0."""
    r = ok(cli(stdin=json.dumps({"kind": "melee", "attackers": [{"attack": 2}], "defenders": [{"defence": 3}], "die": 4})))
    assert r["legal"] is False and "1-1" in r["reason"]
    assert "result" not in r


# --- the five examples through the pure function ----------------------------------------------
def test_melee_example():
    r = adjudicate_situation(MELEE)
    assert (r["legal"], r["odds"], r["column"], r["die"], r["modified_die"], r["result"]) == (True, "2-1", "1-1", 5, 6, "A")
    assert abs(sum(r["probabilities"].values()) - 1) < 1e-9


def test_fire_example():
    """Arc long 14 hexes: medium band 13-30, +1 (§5.1); rain +1 (§3.2, §5.4.4); die 4 -> 6.
    Column 3 (arc long) reads 6 on the printed row "9 7 6 5", whose Légère cell (§5.4.3) is "-".
    Distribution: die 1 -> 3 (row "6 4 3 2": B), 2-3 -> 4-5 (A, A), 4 -> 6 ("-"), 5+ -> "7+" miss."""
    r = adjudicate_situation(FIRE)
    assert (r["legal"], r["band"], r["modified_die"], r["result"]) == (True, "medium", 6, "-")
    assert _close(r["probabilities"], {"-": 0.7, "A": 0.2, "B": 0.1})


def test_fire_example_other_dice():
    assert adjudicate_situation({**FIRE, "die": 1})["result"] == "B"
    assert adjudicate_situation({**FIRE, "die": 2})["result"] == "A"
    no_die = adjudicate_situation({k: v for k, v in FIRE.items() if k != "die"})
    assert "result" not in no_die and no_die["band"] == "medium"


def test_infiltration_example():
    """Infiltrator mounted -1, armour -1; opposer with a polearm +1 (§4.3.1): 7 - 1 = 6, "6 ou 7"
    = Arrêt du déplacement."""
    r = adjudicate_situation(INFILTRATION)
    assert (r["modified_die"], r["result"]) == (6, "stop")
    assert _close(r["probabilities"], {"none": 0.6, "stop": 0.2, "wounded": 0.2})


def test_jump_example():
    """Armoured rider +1 (§4.4.3): 9 + 1 = 10, the horse refuses."""
    r = adjudicate_situation(JUMP)
    assert (r["modified_die"], r["result"]) == (10, "refusal")
    assert _close(r["probabilities"], {"success": 0.8, "refusal": 0.1, "bad_landing": 0.1})


def test_move_cost_example():
    """Broussailles: 2 à pied, 4 à cheval (§3.1)."""
    r = adjudicate_situation(MOVE)
    assert (r["legal"], r["cost"]) == (True, 4)
    assert adjudicate_situation({"kind": "move_cost", "terrain": "broussailles"})["cost"] == 2
    deep = adjudicate_situation({"kind": "move_cost", "terrain": "Bas Fonds", "mover": {"armour": True}})
    assert deep["legal"] is False and deep["cost"] is None and "impassable" in deep["reason"]


def test_defaults_and_names():
    """Optional fields default (on foot, no armour, terrain "0", no charge, clear weather); names
    are case- and accent-insensitive."""
    r = adjudicate_situation({"kind": "melee", "attackers": [{"attack": 9}], "defenders": [{"defence": 3}], "die": 1})
    assert (r["odds"], r["column"], r["result"]) == ("3-1", "3-1", "E")  # §6.5 row 1, column 3-1
    a = adjudicate_situation({"kind": "fire", "weapon": "ARBALETE", "distance": 3, "target": {"cover": "Lourde"}, "die": 1})
    b = adjudicate_situation({"kind": "fire", "weapon": "crossbow", "distance": 3, "target": {"cover": "forte"}, "die": 1})
    assert a["result"] == b["result"] == "B"  # column 2 "1" = row 3 of §5.4.3; Lourde cell B
    assert adjudicate_situation({"kind": "jump", "die": 10})["result"] == "refusal"
    assert adjudicate_situation({"kind": "infiltration", "die": 10})["result"] == "killed"


def test_rider_terrain_two_hexes():
    """§6.1: a rider counts the less advantageous of his two hexes."""
    r = adjudicate_situation({"kind": "melee",
                              "attackers": [{"attack": 12, "mounted": True, "terrain": ["0", "-"]}],
                              "defenders": [{"defence": 3}]})
    assert (r["odds"], r["column"]) == ("4-1", "3-1")


def test_extra_modifiers_ids_and_integers():
    """Volley -1 (§5.4.4) as an id, and a typed-in -1: longbow at 5 hexes (short +0), die 3 ->
    1 in column 3 = row "4 2 1 _" -> vs foot, no cover: C."""
    base = {"kind": "fire", "weapon": "longbow", "distance": 5, "die": 3}
    assert adjudicate_situation(base)["result"] == "B"  # 3 in column 3 = row "6 4 3 2", Aucune: B
    assert adjudicate_situation({**base, "extra_modifiers": ["volley", -1]})["modified_die"] == 1
    assert adjudicate_situation({**base, "extra_modifiers": ["volley", -1]})["result"] == "C"


def test_unknown_ruleset_is_an_error():
    with pytest.raises(SituationError, match="ruleset"):
        adjudicate_situation({**MELEE, "ruleset": "cry-havoc-1981"})
    assert adjudicate_situation({**MELEE, "ruleset": "Magna Carta".replace(" ", "-")})["result"] == "A"


def test_adjudicate_all_reports_the_index():
    with pytest.raises(SituationError) as exc:
        adjudicate_all([MELEE, {**MELEE, "die": 0}])
    assert exc.value.index == 1 and exc.value.field == "die"


# --- bad input --------------------------------------------------------------------------------
def _bad_attack():
    return {**MELEE, "attackers": [{"attack": "eight"}]}


BAD = [
    # (stdin, expected fragment of the one-line message)
    ('{"kind": "melee",\n "attackers": [\n   {"attack": 8}\n   {"defence": 3}]}', "invalid JSON at line 4 column 4"),
    ("", "empty input"),
    ("42", "situation 1: expected a JSON object, got 42"),
    ('[{"kind":"jump"}, "melee"]', "situation 2: expected a JSON object"),
    ('{"kind": "duel"}', "field kind: unknown kind 'duel'"),
    ('{"die": 3}', "field kind: required field missing"),
    ('{"kind": "melee", "defenders": [{"defence": 3}]}', "field attackers: required field missing"),
    (json.dumps([JUMP, _bad_attack()]), "situation 2: field attackers[0].attack: expected an integer, got 'eight'"),
    (json.dumps({**MELEE, "die": 11}), "field die: expected a d10 value 1-10, got 11"),
    (json.dumps({**MELEE, "die": 0}), "field die: expected a d10 value 1-10, got 0"),
    (json.dumps({**MELEE, "die": "5"}), "field die: expected a d10 value 1-10, got '5'"),
    (json.dumps({**MELEE, "attackers": [{"attack": 8, "mounted": "no"}]}), "field attackers[0].mounted: expected true or false"),
    (json.dumps({**MELEE, "attackers": [{"atack": 8}]}), "field attackers[0].atack: unknown field (did you mean 'attack'?)"),
    (json.dumps({**MELEE, "dice": 5}), "field dice: unknown field"),
    (json.dumps({**MELEE, "attackers": []}), "field attackers: expected at least 1"),
    (json.dumps({**MELEE, "defenders": [{"defence": 3, "terrain": "++"}]}), "field defenders[0].terrain: expected a terrain mark"),
    (json.dumps({**MELEE, "attackers": [{"attack": 8, "terrain": ["0", "-"]}]}), "only for a mounted fighter"),
    (json.dumps({**MELEE, "weather": "sunny"}), "field weather: unknown weather 'sunny'"),
    (json.dumps({**MELEE, "extra_shifts": [1.5]}), "field extra_shifts[0]: expected an integer, got 1.5"),
    (json.dumps({**MELEE, "ruleset": "warhammer"}), "field ruleset: unknown ruleset 'warhammer'"),
    (json.dumps({**FIRE, "distance": -3}), "field distance: must be at least 0, got -3"),
    (json.dumps({**FIRE, "weapon": "bazooka"}), "field weapon: unknown weapon 'bazooka'"),
    (json.dumps({**FIRE, "target": {"cover": "épaisse"}}), "field target.cover: unknown cover 'épaisse'"),
    (json.dumps({**FIRE, "weather": "grêle"}), "field weather: unknown weather 'grêle'"),
    (json.dumps({**FIRE, "extra_modifiers": ["voley"]}), "field extra_modifiers[0]: unknown fire modifier 'voley'"),
    (json.dumps({**FIRE, "extra_modifiers": [True]}), "field extra_modifiers[0]: expected a fire modifier id or an integer"),
    (json.dumps({**FIRE, "shooter": {"wonded": True}}), "field shooter.wonded: unknown field (did you mean 'wounded'?)"),
    (json.dumps({**INFILTRATION, "opposer": {"halberd": True}}), "field opposer.halberd: unknown field"),
    (json.dumps({**JUMP, "rider": "armoured"}), "field rider: expected an object"),
    (json.dumps({**MOVE, "terrain": "lava"}), "field terrain: unknown terrain 'lava'"),
    (json.dumps({"kind": "move_cost"}), "field terrain: required field missing"),
]


@pytest.mark.parametrize("stdin,fragment", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_cli_bad_input(stdin: str, fragment: str):
    p = cli(stdin=stdin)
    assert p.returncode == 2
    assert p.stdout_text == ""
    lines = p.stderr_text.splitlines()
    assert len(lines) == 1, p.stderr_text
    assert lines[0].startswith("adjudicate: ")
    assert fragment in lines[0], lines[0]


def test_cli_bad_json_names_the_file(tmp_path: Path):
    f = tmp_path / "input.json"
    f.write_text('{\n  "kind": "jump",\n  "die": 3\n  "rider": {}\n}', encoding="utf-8")
    p = cli(str(f))
    assert (p.returncode, p.stdout_text) == (2, "")
    assert p.stderr_text.strip() == f"adjudicate: {f}: invalid JSON at line 4 column 3: Expecting ',' delimiter"


def test_cli_missing_file_and_bad_encoding(tmp_path: Path):
    p = cli(str(tmp_path / "nope.json"))
    assert (p.returncode, p.stdout_text) == (2, "") and "cannot read" in p.stderr_text
    f = tmp_path / "latin1.json"
    f.write_bytes('{"kind": "move_cost", "terrain": "Bas Fonds", "mover": {"armour": false}, "x": "é"}'.encode("latin-1"))
    p = cli(str(f))
    assert (p.returncode, p.stdout_text) == (2, "") and "UTF-8" in p.stderr_text


def test_nothing_printed_when_a_later_situation_is_bad():
    p = cli(stdin=json.dumps([MELEE, FIRE, INFILTRATION, {**JUMP, "die": 12}]))
    assert (p.returncode, p.stdout_text) == (2, "")
    assert p.stderr_text.startswith("adjudicate: situation 4: field die")
