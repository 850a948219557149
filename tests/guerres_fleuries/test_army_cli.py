"""``oriflamme army validate|show FILE``: verdicts, exit codes, bad input."""

from __future__ import annotations

import json

import pytest

from guerres_fleuries.army_kit import hero, valid_army
from oriflamme.cli.main import main


def run(capsys, tmp_path, doc, *args, raw: str | None = None):
    f = tmp_path / "army.json"
    f.write_text(raw if raw is not None else json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    code = main(["army", *args, str(f)] if args and args[0] in ("validate", "show") else ["army", "validate", str(f)])
    out, err = capsys.readouterr()
    return code, out, err


def doc(army: dict) -> dict:
    return {"format": "oriflamme-army", "version": 1, "ruleset": "guerres-fleuries", "name": "Mexica host", **army}


def test_validate_a_valid_army_exits_0(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, doc(valid_army()), "validate")
    assert code == 0 and err == "" and out.startswith("VALID:") and "no violation" in out


def test_validate_an_invalid_army_prints_cited_violations_and_exits_1(capsys, tmp_path):
    army = valid_army()
    army["characters"].append(hero())
    army["characters"].append(hero())
    army["units"][0]["groups"][0]["figures"] = 12
    code, out, err = run(capsys, tmp_path, doc(army), "validate")
    assert code == 1 and out.startswith("INVALID:")
    assert "Unit 1 (unit 0) has 12 figures: a unit has at least 20 figures" in out and "GF-B2" in out
    assert "3 heroes for 52 warriors" in out and "seed 003 l.101" in out


def test_validate_in_french(capsys, tmp_path):
    army = valid_army()
    army["units"][0]["groups"][0]["figures"] = 12
    code, out, _ = run(capsys, tmp_path, doc(army), "validate", "--lang", "fr")
    assert code == 1 and "NON VALIDE" in out and "au moins 20 figurines" in out


def test_validate_json(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path, doc(valid_army()), "validate", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"] and verdict["troop_figures"] == 60


def test_show_lists_the_army_with_points(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path, doc(valid_army()), "show")
    assert code == 0 and out.startswith("Mexica host — Les Guerres Fleuries")
    assert "units:" in out and "20 Homme B (maquahuitl, Légère en coton, bouclier) × 33 — 660 points" in out
    assert "characters:" in out and "prêtre mineur" in out and "VALID:" in out


def test_malformed_json_exits_2_with_line_and_column(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, None, "validate", raw='{"units": [\n  {"figures": 20,,}\n]}')
    assert code == 2 and out == "" and "invalid JSON at line 2 column" in err


@pytest.mark.parametrize("verb", ["validate", "show"])
def test_unknown_name_exits_2_with_the_closest(capsys, tmp_path, verb):
    army = valid_army()
    army["units"][0]["groups"][0]["weapons"] = ["maquahuitle"]
    code, out, err = run(capsys, tmp_path, doc(army), verb)
    assert code == 2 and out == "" and "units[0].groups[0].weapons[0]" in err and "'maquahuitl'" in err


def test_unreadable_file_and_wrong_ruleset_exit_2(capsys, tmp_path):
    assert main(["army", "validate", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    code, _, err = run(capsys, tmp_path, {**doc(valid_army()), "ruleset": "magna-carta"}, "validate")
    assert code == 2 and "magna-carta has no army builder" in err
