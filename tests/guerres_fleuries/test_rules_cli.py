"""``oriflamme adjudicate --modifiers RULESET`` and the rules kinds through ``oriflamme adjudicate``."""

from __future__ import annotations

import io
import json
import sys

from oriflamme.cli.main import main
from oriflamme.rulesets.guerres_fleuries import modifiers


def run(capsys, *args, stdin: str = ""):
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(args))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_modifiers_lists_every_modifier_of_every_kind(capsys):
    code, out, err = run(capsys, "adjudicate", "--modifiers", "guerres-fleuries")
    assert code == 0 and not err
    for row in modifiers.listing():
        assert row["printed"] in out and row["id"] in out
    for kind in ("command", "command_creatures", "command_monsters", "fire", "melee", "melee_creatures",
                 "melee_pteradon", "melee_monsters"):
        assert f"[{kind}]" in out
    assert "L'unité a subi des pertes le tour précédent." in out and "-6" in out


def test_modifiers_as_json(capsys):
    code, out, _ = run(capsys, "adjudicate", "--modifiers", "gf", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["modifiers"]) == len(modifiers.listing())
    fire = {m["id"]: m for m in data["modifiers"] if m["kind"] == "fire"}
    assert fire["per_enemy_rank"] == {"kind": "fire", "id": "per_enemy_rank", "printed": "Par rang ennemi.",
                                      "en": "Per enemy rank.", "value": 2, "ref": "GF seed 003 l.1502", "decision": "GF-E4"}


def test_a_ruleset_without_modifiers_answers_one_line(capsys):
    code, out, err = run(capsys, "adjudicate", "--modifiers", "magna-carta")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert err.startswith("adjudicate: --modifiers: magna-carta lists no modifiers")
    code, _, err = run(capsys, "adjudicate", "--modifiers", "nope")
    assert code == 2 and "unknown ruleset 'nope'" in err


def test_kinds_through_the_cli(capsys):
    situations = [{"ruleset": "guerres-fleuries", "kind": "movement", "unit": "Homme", "move": "normal",
                   "obstacles": [{"type": "haie", "at_cm": 2}]},
                  {"ruleset": "guerres-fleuries", "kind": "fire", "shooter_race": "Homme", "weapon": "Arc",
                   "distance_cm": 12, "target_armour": "coton", "firing_figures": 20, "target": "unit",
                   "modifiers": [], "d100": 20}]
    code, out, err = run(capsys, "adjudicate", stdin=json.dumps(situations))
    assert code == 0, err
    move, fire = json.loads(out)
    assert move["distance_cm"] == 11 and (fire["final_pct"], fire["eliminated"], fire["extra"]) == (120, 1, True)


def test_bad_name_through_the_cli_is_one_line(capsys):
    code, out, err = run(capsys, "adjudicate", stdin=json.dumps(
        {"ruleset": "guerres-fleuries", "kind": "command_test", "race": "Homme", "class": "Z", "d100": 3}))
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "field class: unknown name 'Z'" in err
