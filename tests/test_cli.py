"""The ``oriflamme`` command end to end (subprocesses): scenarios, play, replay.

Every test runs the real command with ``python -m oriflamme.cli.main`` in a temporary working
directory; the exit codes and messages are those documented in docs/formats.md ("Game records").
"""

from __future__ import annotations

import copy
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from oriflamme.core.dice import commitment
from oriflamme.core.record import RECORD_FORMAT

COMMITMENT_OK = "dice: the seed matches the commitment published when the game was created (SHA-256)"
FIXTURES = Path(__file__).parent / "fixtures" / "records"

THE_HILL_SEED7 = "Side A wins: side B has lost 3 of 5 characters (rout at 60%)"


def run(*args: str, cwd: Path, input: str | None = None, umask: int = -1) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "oriflamme.cli.main", *args], cwd=cwd, input=input,
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=60, umask=umask)


def one_line(text: str) -> str:
    lines = text.strip("\n").splitlines()
    assert len(lines) == 1, f"expected one line, got {text!r}"
    return lines[0]


def no_traceback(p: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr


@pytest.fixture(scope="module")
def record_dir(tmp_path_factory) -> Path:
    """One computer-vs-computer game of the-hill, seed 7, recorded once for the module."""
    d = tmp_path_factory.mktemp("rec")
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet", "--record", "game.json", cwd=d)
    assert p.returncode == 0, p.stderr
    d.joinpath("play.stdout").write_text(p.stdout, encoding="utf-8")
    d.joinpath("play.stderr").write_text(p.stderr, encoding="utf-8")
    return d


@pytest.fixture
def record(record_dir) -> dict:
    return json.loads((record_dir / "game.json").read_text(encoding="utf-8"))


def tampered(tmp_path: Path, rec, name: str = "bad.json") -> str:
    (tmp_path / name).write_text(json.dumps(rec), encoding="utf-8")
    return name


# --- scenarios ---------------------------------------------------------------------------------

def test_scenarios_lists_the_bundled_ones(tmp_path):
    p = run("scenarios", cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == ""
    ids = [line.split()[0] for line in p.stdout.splitlines()]
    assert ids == ["hamlet-raid", "the-caravan", "the-ford", "the-hay-cart", "the-hill"]
    assert "Raid on the hamlet" in p.stdout and "The hill" in p.stdout and "10 turns" in p.stdout
    assert "Knights at the ford" in p.stdout and "8 turns" in p.stdout


def test_console_script(tmp_path):
    exe = Path(sys.executable).with_name("oriflamme")
    if not exe.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    p = subprocess.run([str(exe), "scenarios"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "the-hill" in p.stdout


def test_no_command_prints_help(tmp_path):
    p = run(cwd=tmp_path)
    assert p.returncode == 2 and "scenarios" in p.stdout and "replay" in p.stdout


# --- play: computer against computer ------------------------------------------------------------

def test_play_random_quiet_prints_outcome_and_writes_record(record_dir, record):
    out = (record_dir / "play.stdout").read_text(encoding="utf-8")
    assert (record_dir / "play.stderr").read_text(encoding="utf-8") == ""
    # the counts come from the record: an engine change may change the seeded game itself
    n = len(record["actions"])
    assert re.fullmatch(rf"{re.escape(record['events'][-1]['text'])}  \(turn \d+, {n} actions, seed 7\)", one_line(out))
    assert record["format"] == RECORD_FORMAT and record["version"] == 2
    assert record["ruleset"] == "magna-carta" and record["seed"] == 7  # a local game: the seed is revealed
    assert record["dice_commitment"] == commitment(7)
    assert record["scenario"]["id"] == "the-hill" and record["scenario"]["source"] == "the-hill.toml"
    assert record["over"] is True and record["winner"] in ("A", "B", None)
    assert record["events"][-1]["type"] == "game_over"
    assert [e["n"] for e in record["events"]] == list(range(len(record["events"])))
    assert re.fullmatch(r"[0-9a-f]{64}", record["final_digest"])
    assert sorted(os.listdir(record_dir)) == ["game.json", "play.stderr", "play.stdout"]  # no temp file left


def test_play_is_deterministic_for_a_seed(tmp_path, record):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet", "--record", "again.json", cwd=tmp_path)
    assert p.returncode == 0
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert again == record


def test_play_random_verbose_shows_the_game(tmp_path):
    p = run("play", "hamlet-raid", "--a", "random", "--b", "random", "--seed", "3", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Raid on the hamlet" in p.stdout and "Seed 3." in p.stdout
    assert "Turn 1/8, side A" in p.stdout
    assert re.search(r"^(Side [AB] wins|Draw): .*\(turn \d+, \d+ actions, seed 3\)$", p.stdout, re.M)


def test_record_file_mode_follows_umask(tmp_path):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet", "--record", "r.json",
            cwd=tmp_path, umask=0o022)
    assert p.returncode == 0
    assert stat.S_IMODE((tmp_path / "r.json").stat().st_mode) == 0o644


# --- replay --------------------------------------------------------------------------------------

def test_replay_verify_ok(record_dir, record):
    p = run("replay", "game.json", "--verify", cwd=record_dir)
    assert p.returncode == 0, p.stderr
    n, e = len(record["actions"]), len(record["events"])
    assert p.stdout.splitlines() == [f"game.json: OK — {n} actions and {e} events reproduce exactly "
                                     f"({record['events'][-1]['text']})", COMMITMENT_OK]


def test_replay_prints_the_log(record_dir, record):
    p = run("replay", "game.json", cwd=record_dir)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Turn 1, phase of side A: offensive fire" in out
    for ev in record["events"][:20]:
        assert ev["text"] in out
    assert out.rstrip().endswith(THE_HILL_SEED7)
    assert "01" in out and "A1" in out  # the final board


def test_replay_changed_action(tmp_path, record):
    """Another legal move in place of the recorded one: the first differing event is named."""
    from oriflamme.rulesets.magna_carta.engine import legal_actions
    from oriflamme.rulesets.magna_carta.engine.actions import Move
    from oriflamme.rulesets.magna_carta.engine.record import Game
    from oriflamme.rulesets.magna_carta.scenario import validate_scenario

    rec = copy.deepcopy(record)
    i = next(k for k, a in enumerate(rec["actions"]) if a["type"] == "move")
    scenario, gmap = validate_scenario(rec["scenario"], "record")
    g = Game(scenario, gmap, rec["seed"])
    for a in rec["actions"][:i]:
        g.apply(a)
    orig = rec["actions"][i]
    other = next(a for a in legal_actions(g.state)
                 if isinstance(a, Move) and a.char == orig["char"] and list(a.path) != orig["path"])
    rec["actions"][i] = other.to_json()
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    msg = one_line(p.stderr)
    assert re.match(rf"replay: bad\.json: event \d+ differs after action {i + 1} \(type=move char={orig['char']}", msg), msg
    assert "record says '" in msg and "replay gives '" in msg and f"→ {other.path[-1]}" in msg


def test_replay_illegal_action(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["actions"][4] = {"type": "move", "char": "hugo", "path": ["1403"]}
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    assert re.match(r"replay: bad\.json: action 5 \(type=move char=hugo path=\['1403'\]\) is illegal at that point: ",
                    one_line(p.stderr))


def test_replay_edited_event_text(tmp_path, record):
    rec = copy.deepcopy(record)
    ev = rec["events"][1]
    assert ev["type"] == "fire"  # the seeded game opens with a shot (derived, not assumed)
    a = rec["actions"][0]
    real = ev["text"]
    edited = real[:-1] + ("A" if real[-1] != "A" else "B")
    rec["events"][1]["text"] = edited
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    msg = one_line(p.stderr)
    assert msg.startswith(f"replay: bad.json: event 2 differs after action 1 (type=fire shooter={a['shooter']} "
                          f"target={a['target']})")
    assert f"record says '{edited}', replay gives '{real}'" in msg


def test_replay_edited_event_field_other_than_text(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["events"][1]["ruling"]["die"] = 1
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr).startswith("replay: bad.json: event 2 differs after action 1")


def test_replay_edited_event_field_message_says_what_differs(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["events"][1]["ruling"]["die"] = 1
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    m = re.search(r"record says (.*), replay gives (.*)$", one_line(p.stderr))
    assert m is None or m.group(1) != m.group(2), p.stderr


def test_replay_missing_and_extra_events(tmp_path, record):
    rec = copy.deepcopy(record)
    del rec["events"][-1]
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    n, e = len(record["actions"]), len(record["events"])
    assert re.match(rf"replay: bad\.json: action {n} \(.*\) produced event {e} that the record lacks: ", one_line(p.stderr))
    rec = copy.deepcopy(record)
    rec["events"].append(dict(rec["events"][-1], n=e))
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr).startswith(f"replay: bad.json: the record has {e + 1} events, the replay {e}: event {e + 1} (")


def test_replay_altered_final_digest(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["final_digest"] = "0" * 64
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr) == "replay: bad.json: the final state differs from the recorded one (digest mismatch)"


def test_replay_tampered_seed_fails_on_the_commitment(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["seed"] = 8
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    assert one_line(p.stderr) == ("replay: bad.json: field seed: it does not match the record's dice_commitment "
                                  "(SHA-256): these are not the dice the game was created with")


def test_replay_other_seed_with_its_commitment(tmp_path, record):
    """Other dice with a matching commitment: the replay itself names the first differing event."""
    rec = copy.deepcopy(record)
    rec["seed"], rec["dice_commitment"] = 8, commitment(8)
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1
    assert re.match(r"replay: bad\.json: event \d+ differs after action \d+ ", one_line(p.stderr))


def test_replay_without_events_and_digest_checks_the_actions(tmp_path, record):
    rec = copy.deepcopy(record)
    del rec["events"], rec["final_digest"]
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 0 and "OK" in p.stdout


def test_replay_malformed_json(tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "oriflamme-record",\n "seed": 7,,\n}', encoding="utf-8")
    p = run("replay", "bad.json", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert one_line(p.stderr) == ("replay: bad.json: invalid JSON at line 2 column 12: "
                                  "Expecting property name enclosed in double quotes")


@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(format="chess-pgn"), "field format: expected 'oriflamme-record', got 'chess-pgn'"),
    (lambda r: r.pop("format"), "field format: expected 'oriflamme-record', got 'None'"),
    (lambda r: r.update(version=3), "field version: unsupported version '3' (this program reads 1, 2)"),
    (lambda r: r.pop("dice_commitment"), "field dice_commitment: missing (a version-2 record carries the SHA-256 of its seed)"),
    (lambda r: r.pop("actions"), "field actions: missing"),
    (lambda r: r.pop("scenario"), "field scenario: missing"),
    (lambda r: r.update(seed=True), "field seed: expected an integer or a text of at most 200 characters"),
    (lambda r: r.update(seed=[7]), "field seed: expected an integer or a text of at most 200 characters"),
    (lambda r: r.update(seed="x" * 201), "field seed: expected an integer or a text of at most 200 characters"),
    (lambda r: r.update(seed=None), "field seed: empty — the game was not over when this record was exported; "
                                    "its dice stay secret until the end, so it cannot be replayed yet"),
    (lambda r: r.update(seed="seven"), "field seed: it does not match the record's dice_commitment (SHA-256): "
                                   "these are not the dice the game was created with"),
    (lambda r: r.update(actions={}), "field actions: expected a list"),
    (lambda r: r.update(events="all"), "field events: expected a list"),
])
def test_replay_not_a_record(tmp_path, record, change, message):
    rec = copy.deepcopy(record)
    change(rec)
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    assert one_line(p.stderr) == f"replay: bad.json: {message}"


@pytest.mark.parametrize("value", [[1, 2], "a record", 7, None])
def test_replay_json_that_is_not_an_object(tmp_path, value):
    p = run("replay", tampered(tmp_path, value), cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr) == "replay: bad.json: a record must be a JSON object"


def test_replay_malformed_action_object(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["actions"][3] = {"type": "teleport", "char": "cole"}
    p = run("replay", tampered(tmp_path, rec), cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr).startswith("replay: bad.json: action 4 (type=teleport char=cole) is illegal at that point: "
                                         "unknown action type 'teleport'")
    rec["actions"][3] = {"type": "move", "char": "cole"}
    p = run("replay", tampered(tmp_path, rec), cwd=tmp_path)
    assert p.returncode == 1 and "lacks the field 'path'" in one_line(p.stderr)


@pytest.mark.parametrize("action", ["move", None, 5, {"type": ["move"]}])
def test_replay_non_object_action_is_a_clean_error(tmp_path, record, action):
    rec = copy.deepcopy(record)
    rec["actions"][3] = action
    p = run("replay", tampered(tmp_path, rec), cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 1 and one_line(p.stderr).startswith("replay: bad.json: action 4")


def test_replay_invalid_scenario_copy(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["scenario"]["turns"] = 0
    p = run("replay", tampered(tmp_path, rec), cwd=tmp_path)
    assert p.returncode == 1
    msg = one_line(p.stderr)
    assert msg.startswith("replay: bad.json: ") and msg.endswith("scenario: turns: Input should be greater than or equal to 1")


def test_replay_invalid_scenario_names_the_file_once(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["scenario"]["turns"] = 0
    p = run("replay", tampered(tmp_path, rec), cwd=tmp_path)
    assert one_line(p.stderr).count("bad.json") == 1, p.stderr


def test_replay_checks_the_recorded_result(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["winner"], rec["over"] = "B", False
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1


def test_replay_missing_file(tmp_path):
    p = run("replay", "nope.json", "--verify", cwd=tmp_path)
    assert p.returncode == 2
    assert one_line(p.stderr) == "replay: nope.json: cannot read: No such file or directory"


def test_replay_not_utf8(tmp_path):
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00{")
    p = run("replay", "bin.json", cwd=tmp_path)
    assert p.returncode == 2 and one_line(p.stderr) == "replay: bin.json: not UTF-8 text"


# --- play: bad scenario, bad record destination ------------------------------------------------

def test_play_unknown_scenario(tmp_path):
    p = run("play", "the-mountain", cwd=tmp_path, input="quit\n")
    assert p.returncode == 2 and p.stdout == ""
    assert one_line(p.stderr) == ("play: unknown scenario 'the-mountain' (bundled: hamlet-raid, the-caravan, the-ford, the-hay-cart, the-hill; "
                                  "or give a path to a .toml file)")


def test_play_missing_scenario_file(tmp_path):
    p = run("play", "nope.toml", cwd=tmp_path, input="quit\n")
    assert p.returncode == 2
    assert one_line(p.stderr) == "play: nope.toml: cannot read: No such file or directory"


def test_play_bad_scenario_file(tmp_path):
    from test_scenarios import MINI

    (tmp_path / "broken.toml").write_text(MINI.replace('hex = "1005"', 'hex = "2115"'), encoding="utf-8")
    p = run("play", "broken.toml", cwd=tmp_path, input="quit\n")
    assert p.returncode == 2 and p.stdout == ""
    assert one_line(p.stderr) == "play: broken.toml: character[2].hex: '2115' is off the map (20×14)"
    (tmp_path / "broken.toml").write_text(MINI.replace("turns = 3", "turns = = 3"), encoding="utf-8")
    p = run("play", "broken.toml", cwd=tmp_path, input="quit\n")
    assert p.returncode == 2
    assert re.fullmatch(r"play: broken\.toml: invalid TOML: .*\(at line 3, column \d+\)", one_line(p.stderr))


def test_play_scenario_file_with_random_players(tmp_path):
    from test_scenarios import MINI

    (tmp_path / "mini.toml").write_text(MINI, encoding="utf-8")
    p = run("play", "mini.toml", "--a", "random", "--b", "random", "--seed", "1", "--quiet", "--record", "m.json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert re.fullmatch(r"(Side [AB] wins|Draw): .* \(turn \d, \d+ actions, seed 1\)", one_line(p.stdout))
    v = run("replay", "m.json", "--verify", cwd=tmp_path)
    assert v.returncode == 0 and "OK" in v.stdout


def test_play_record_into_missing_directory(tmp_path):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet",
            "--record", "no/such/dir/game.json", cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2  # checked before the game starts
    assert one_line(p.stderr).startswith("play: cannot write the record no/such/dir/game.json: no directory ")
    assert os.listdir(tmp_path) == []  # no stray temporary file


def test_play_record_onto_a_directory_leaves_no_temp_file(tmp_path):
    (tmp_path / "out").mkdir()
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet", "--record", "out", cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2 and one_line(p.stderr) == "play: cannot write the record out: it is a directory"
    assert os.listdir(tmp_path) == ["out"] and os.listdir(tmp_path / "out") == []


def test_play_record_destination_is_checked_before_the_game(tmp_path):
    """A record that could not be written is refused up front: no game is played for nothing."""
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet",
            "--record", "no/such/dir/game.json", cwd=tmp_path)
    assert p.returncode == 2 and THE_HILL_SEED7 not in p.stdout


# --- play: hot-seat humans through stdin -------------------------------------------------------

def human(tmp_path: Path, commands: str, *extra: str) -> subprocess.CompletedProcess:
    p = run("play", "the-hill", "--seed", "3", *extra, cwd=tmp_path, input=commands)
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    return p


def after_start(out: str) -> str:
    """The output from the first prompt on (the board and roster printed at the start removed)."""
    return out[out.index("Turn 1/10, side A, step offensive fire"):]


def test_hot_seat_list_end_quit(tmp_path):
    p = human(tmp_path, "list\nend\nquit\n")
    out = after_start(p.stdout)
    assert "1. fire: Dunstan [A4] at Hugo [B1]" in out
    n = int(re.search(r"(\d+)\. end the offensive fire step", out).group(1))
    assert f"{n - 1}. declare " in out  # fire frequency declarations are listed before it (§5.1)
    assert "Side A ends the offensive fire step" in out
    assert "Turn 1/10, side A, step movement" in out
    assert out.rstrip().endswith("Game left unfinished.")
    assert p.stderr == ""


def test_hot_seat_end_of_input_is_a_quit(tmp_path):
    p = human(tmp_path, "help\nmap\nroster\nlog 3\n")
    assert "Commands (the numbers refer to the list printed by 'list')" in p.stdout
    assert p.stdout.rstrip().endswith("Game left unfinished.")


def test_hot_seat_unknown_command_and_bad_number(tmp_path):
    out = after_start(human(tmp_path, "dance\n99\nmove guy\nend\nquit\n").stdout)
    assert "unknown command — type 'help'" in out
    assert re.search(r"choose 1–\d+", out)
    assert "Side A ends the offensive fire step" in out  # the game went on


def test_hot_seat_illegal_moves_are_refused_and_the_game_goes_on(tmp_path):
    out = after_start(human(tmp_path, "move guy 0206\nend\nmove guy 9999\nmove guy 1505\nmove hugo 1403\n"
                                      "move zed 0307\nmove guy 0x\nmove guy 0206\nquit\n").stdout)
    refusals = [line for line in out.splitlines() if "Not allowed:" in line]
    assert len(refusals) == 4, out
    # not in the movement step yet
    assert "Sir Guy can move only in the movement step of side A (MC §2.1 (2))" in refusals[0]
    # too far: the rule and the movement points left are named
    assert "9999 is off the map (20×14 hexes)" in refusals[1]
    assert "Sir Guy cannot reach 1505 this phase (4 PM left, MC §4)" in refusals[2]
    # not this side's phase
    assert "Hugo can move only in the movement step of side B (MC §2.1 (2))" in refusals[3]
    assert "unknown character" in out
    assert "not a hex label: '0x'" in out
    # and the game continued: the last move was taken
    assert "Sir Guy moves 0207 → 0206 (1 PM)" in out


def test_hot_seat_adjacent_move_refused_with_its_rule(tmp_path):
    # 0308, south-east of Sir Guy (0207), holds Baldwin
    out = after_start(human(tmp_path, "end\nmove guy 0308\nquit\n").stdout)
    refusal = next(line for line in out.splitlines() if "Not allowed:" in line)
    assert "a move cannot end in 0308: one live character per hex (MC §4.1)" in refusal, refusal


def roster_hex(block: str, cid: str) -> str:
    m = re.search(rf"^\s+A\d\s+{cid}\s+.*?\s(\d{{4}})\s+A\d+ D\d+", block, re.M)
    assert m, block
    return m.group(1)


def test_hot_seat_undo_restores_the_position(tmp_path):
    out = after_start(human(tmp_path, "end\nmove guy 0206\nroster\nundo\nroster\nundo\nlist\nquit\n").stdout)
    moved, rest = out.split("Undone.", 1)
    assert "Sir Guy moves 0207 → 0206 (1 PM)" in moved
    assert roster_hex(moved, "guy") == "0206" and "3 PM left" in moved
    back = rest.split("Undone.", 1)[0]
    assert roster_hex(back, "guy") == "0207"
    assert re.search(r"guy\s+Sir Guy\s+0207 .* 4 PM left", back)
    # the second undo took back the end of the offensive fire step
    assert "Turn 1/10, side A, step offensive fire" in rest and re.search(r"\d+\. end the offensive fire step", rest)


def test_hot_seat_undo_refused_after_a_die_roll(tmp_path):
    out = after_start(human(tmp_path, "1\ny\nundo\nquit\n").stdout)
    assert "Probabilities" in out
    assert "Dunstan fires at Hugo" in out
    assert "nothing to undo: the last action rolled a die, or no action was taken" in out


def test_hot_seat_fire_not_committed(tmp_path):
    out = after_start(human(tmp_path, "fire A4 B1\nn\nundo\nquit\n").stdout)
    assert "Probabilities" in out and "Dunstan fires at" not in out
    assert "nothing to undo" in out


def test_hot_seat_record_with_undo_replays(tmp_path):
    human(tmp_path, "end\nmove guy 0206\nundo\nmove guy 0208\nquit\n", "--record", "h.json")
    rec = json.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    assert rec["actions"] == [{"type": "end_step"}, {"type": "move", "char": "guy", "path": ["0208"]}]
    assert rec["over"] is False and rec["winner"] is None and rec["seed"] == 3
    p = run("replay", "h.json", "--verify", cwd=tmp_path)
    assert p.returncode == 0
    assert p.stdout.splitlines()[0].endswith("2 actions and 4 events reproduce exactly (game unfinished)")
    assert p.stdout.splitlines()[1:] == [COMMITMENT_OK]


def test_human_against_computer(tmp_path):
    # side A human ends every step; side B is the computer
    p = run("play", "the-hill", "--b", "random", "--seed", "5", cwd=tmp_path, input="end\n" * 6 + "quit\n")
    no_traceback(p)
    assert p.returncode == 0
    assert "Turn 1/10, side B" in p.stdout and "[B] " in p.stdout


def test_max_actions_stops_a_long_game(tmp_path):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "7", "--quiet", "--max-actions", "5", cwd=tmp_path)
    assert p.returncode == 1
    assert one_line(p.stderr) == "play: stopped after 5 actions without an end"


# --- scenario text reaching the terminal -------------------------------------------------------

def write_two_sides(tmp_path: Path, a: str, b: str, name: str = "Alan") -> str:
    from test_scenarios import MINI

    text = (MINI.replace('id = "A"', f'id = "{a}"').replace('id = "B"', f'id = "{b}"')
            .replace('side = "A"', f'side = "{a}"').replace('side = "B"', f'side = "{b}"')
            .replace('name = "Alan"', f'name = "{name}"'))
    (tmp_path / "s.toml").write_text(text, encoding="utf-8")
    return "s.toml"


def roster_tags(out: str) -> list[str]:
    return re.findall(r"^\s+(\S+)\s+(?:a1|a2|b1|b2)\s", out, re.M)


def test_tags_of_the_bundled_sides(tmp_path):
    out = human(tmp_path, "quit\n").stdout
    start = out[:out.index("Turn 1/10")]
    tags = dict(re.findall(r"^\s+([AB]\d+)\s+([a-z]+)\s", start, re.M))
    assert tags == {"A1": "aimery", "A2": "baldwin", "A3": "cole", "A4": "dunstan", "A5": "edric", "A6": "guy",
                    "B1": "hugo", "B2": "ivo", "B3": "jocelin", "B4": "lambert", "B5": "mauger"}


def test_tags_distinct_when_side_ids_share_a_letter(tmp_path):
    p = run("play", write_two_sides(tmp_path, "red", "rovers"), "--seed", "1", cwd=tmp_path, input="quit\n")
    tags = roster_tags(p.stdout)
    assert len(tags) == 4 and len(set(tags)) == 4, tags


def test_lower_case_side_tags_usable(tmp_path):
    p = run("play", write_two_sides(tmp_path, "red", "blue"), "--seed", "1", cwd=tmp_path, input="roster\nreach r1\nquit\n")
    assert re.search(r"^\s+R1\s+a1\s+Alan\s", p.stdout, re.M) and "unknown character" not in p.stdout


def test_scenario_text_is_not_markup(tmp_path):
    p = run("play", write_two_sides(tmp_path, "A", "B", name="Alan [/b]"), "--seed", "1", cwd=tmp_path, input="quit\n")
    no_traceback(p)
    assert p.returncode == 0 and "Alan [/b]" in p.stdout


def test_record_of_a_custom_board_replays_from_another_directory(tmp_path):
    from test_scenarios import BOARDS, MINI

    d = tmp_path / "scen"
    d.mkdir()
    (d / "field.board").write_text((BOARDS / "open-country.board").read_text(encoding="utf-8")
                                   .replace("board: open-country", "board: field"), encoding="utf-8")
    (d / "s.toml").write_text(MINI.replace('board = "open-country"', 'path = "field.board"'), encoding="utf-8")
    p = run("play", "scen/s.toml", "--a", "random", "--b", "random", "--seed", "1", "--quiet", "--record", "r.json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    v = run("replay", "r.json", "--verify", cwd=tmp_path)
    assert v.returncode == 0, v.stderr


def test_hot_seat_rider_moves_with_a_facing(tmp_path):
    """A rider's move may name the facing he ends with (§4.4.1); without one, the cheapest."""
    p = run("play", "the-ford", cwd=tmp_path, input="end\nmove robert 0706 S\nmove hugh 0508 XX\nroster\nquit\n")
    assert p.returncode == 0, p.stderr
    assert re.search(r"Sir Robert moves 0506 → .*0706 \(\d+ PM\), facing S", p.stdout)
    assert "'XX' is not a facing (N, NE, SE, S, SW, NW)" in p.stdout
    assert re.search(r"robert\s+Sir Robert\s+0706-0705 S ", p.stdout)  # front and rear hexes, facing


# --- the platform: rulesets, the registry, old records -------------------------------------------

def test_rulesets_lists_magna_carta(tmp_path):
    p = run("rulesets", cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == ""
    line = next(x for x in p.stdout.splitlines() if x.startswith("magna-carta "))
    assert "La Magna Carta v1.2" in line and "the-hill" in line


def test_rulesets_json(tmp_path):
    p = run("rulesets", "--json", cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == ""
    data = json.loads(p.stdout)
    mc = next(r for r in data["rulesets"] if r["id"] == "magna-carta")
    assert set(mc) == {"id", "title", "title_fr", "scenarios"}
    assert mc["title"].startswith("La Magna Carta") and mc["title_fr"].startswith("La Magna Carta")
    assert mc["scenarios"] == ["hamlet-raid", "the-caravan", "the-ford", "the-hay-cart", "the-hill"]


@pytest.mark.parametrize("args", [("play", "the-hill", "--ruleset", "warhammer", "--a", "random", "--b", "random"),
                                  ("scenarios", "--ruleset", "warhammer")])
def test_unknown_ruleset_is_one_line(tmp_path, args):
    p = run(*args, cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2 and p.stdout == ""
    assert re.fullmatch(rf"{args[0]}: unknown ruleset 'warhammer' \(known: .*magna-carta.*\)", one_line(p.stderr))


def test_scenarios_of_a_named_ruleset(tmp_path):
    p = run("scenarios", "--ruleset", "mc", cwd=tmp_path)  # an alias
    assert p.returncode == 0 and p.stdout.split()[0] == "hamlet-raid"


def test_play_named_ruleset_then_verify_prints_the_commitment_check(tmp_path):
    p = run("play", "hamlet-raid", "--ruleset", "magna-carta", "--a", "random", "--b", "random", "--seed", "3",
            "--quiet", "--record", "r.json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert rec["version"] == 2 and rec["ruleset"] == "magna-carta" and rec["over"] is True
    v = run("replay", "r.json", "--verify", cwd=tmp_path)
    assert v.returncode == 0, v.stderr
    lines = v.stdout.splitlines()
    assert lines[0].startswith(f"r.json: OK — {len(rec['actions'])} actions and {len(rec['events'])} events reproduce")
    assert lines[1:] == [COMMITMENT_OK]


def test_play_with_a_text_seed(tmp_path):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--seed", "la mêlée", "--quiet", "--record", "r.json",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert one_line(p.stdout).endswith(", seed la mêlée)")
    rec = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert rec["seed"] == "la mêlée" and rec["dice_commitment"] == commitment("la mêlée")
    assert run("replay", "r.json", "--verify", cwd=tmp_path).returncode == 0


def test_play_without_seed_uses_a_fresh_secret(tmp_path):
    p = run("play", "the-hill", "--a", "random", "--b", "random", "--quiet", "--max-actions", "3", "--record", "r.json",
            cwd=tmp_path)
    rec = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert p.returncode == 1 and re.fullmatch(r"[0-9a-f]{64}", rec["seed"])


def test_record_of_an_unknown_ruleset(tmp_path, record):
    rec = copy.deepcopy(record)
    rec["ruleset"] = "chess"
    p = run("replay", tampered(tmp_path, rec), "--verify", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    assert one_line(p.stderr).startswith("replay: bad.json: field ruleset: unknown ruleset 'chess' (known: ")


def test_scenario_of_another_ruleset(tmp_path):
    from test_scenarios import MINI

    (tmp_path / "s.toml").write_text('ruleset = "croisades"\n' + MINI, encoding="utf-8")
    p = run("play", "s.toml", "--a", "random", "--b", "random", cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2 and p.stdout == ""
    assert re.match(r"play: s\.toml: .*ruleset.*'croisades'", one_line(p.stderr)), p.stderr


V1_RECORDS = sorted(FIXTURES.glob("v1-*.json"))


def test_there_are_old_record_fixtures():
    assert len(V1_RECORDS) == 3
    assert {json.loads(f.read_text(encoding="utf-8"))["scenario"]["id"] for f in V1_RECORDS} == {
        "the-hill", "hamlet-raid", "the-ford"}


@pytest.mark.parametrize("path", V1_RECORDS, ids=[f.stem for f in V1_RECORDS])
def test_version1_record_replays_through_the_cli(tmp_path, path):
    """Records written before the seam (version 1, commit df82fb0) replay exactly; the check
    says they carry no commitment."""
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec["version"] == 1 and "dice_commitment" not in rec and isinstance(rec["seed"], int)
    p = run("replay", str(path), "--verify", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == (f"{path}: OK — {len(rec['actions'])} actions and {len(rec['events'])} events reproduce exactly "
                        f"({rec['events'][-1]['text']})")
    assert lines[1:] == ["dice: this record (version 1) carries no dice commitment: the seed could not be checked"]


@pytest.mark.parametrize("path", V1_RECORDS, ids=[f.stem for f in V1_RECORDS])
def test_version1_record_replays_through_the_core(path):
    from oriflamme.core.record import replay

    rec = json.loads(path.read_text(encoding="utf-8"))
    game, verification = replay(rec)
    assert (verification.commitment, verification.version) == ("absent", 1)
    assert "no dice commitment" in verification.lines()[0]
    assert game.ruleset.id == "magna-carta"
    # the events gained a message id and its parameters since version 1 (engine/events.py)
    since_v1 = ("msg", "params", "ruling_steps")
    got = [{k: v for k, v in ev.items() if k not in since_v1} for ev in game.ruleset.events(game.state)]
    assert got == rec["events"] and game.actions == rec["actions"]
    out = game.outcome()
    assert (out.over, out.winner) == (rec["over"], rec["winner"])
    bad = copy.deepcopy(rec)
    bad["final_digest"] = "0" * 64
    with pytest.raises(Exception, match="digest mismatch"):
        replay(bad)


def test_cli_and_ai_import_only_the_core():
    """The seam: cli/ and ai/ reach rulesets through the registry only."""
    import ast

    src = Path(__file__).parent.parent / "src" / "oriflamme"
    for folder in ("cli", "ai"):
        for f in sorted((src / folder).glob("*.py")):
            tree = ast.parse(f.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    name = "." * node.level + (node.module or "")
                elif isinstance(node, ast.Import):
                    name = ",".join(a.name for a in node.names)
                else:
                    continue
                assert "rulesets" not in name, f"{f.name} imports {name}"


# --- a ruleset with no terminal front end and no referee (in-process, registered at run time) ---

class ToyState:
    def __init__(self, dice, goal: int):
        self.dice, self.goal = dice, goal
        self.pos, self.turn, self.log, self.winner = {"A": 0, "B": 0}, "A", [], None


def _toy_ruleset():
    import copy as _copy
    import hashlib

    from oriflamme.core import IllegalAction, Outcome, Ruleset, ScenarioError, ScenarioInfo, SideInfo

    ACTIONS = ("step", "roll", "pass")

    class ToyRace(Ruleset):
        """First to the goal: step 1, or roll a d6 and move that far, or pass."""
        id, title = "toy-race", "Toy race"

        def scenario_ids(self):
            return ["sprint"]

        def scenario_info(self, sid):
            return ScenarioInfo(sid, "Sprint", description="first to 12", sides=self.sides(None))

        def load_scenario(self, name):
            if name != "sprint":
                raise ScenarioError(f"unknown scenario {name!r} (bundled: sprint)")
            return {"id": "sprint", "ruleset": self.id, "goal": 12}

        def scenario_from_json(self, data, source="<scenario>"):
            if not isinstance(data, dict) or data.get("ruleset") != self.id:
                raise ScenarioError(f"{source}: not a {self.id} scenario")
            return dict(data)

        def scenario_to_json(self, scenario):
            return dict(scenario)

        def sides(self, scenario):
            return [SideInfo("A", "Red"), SideInfo("B", "Blue")]

        def setup(self, scenario, dice):
            return ToyState(dice, scenario["goal"])

        def to_act(self, st):
            return None if st.winner else st.turn

        def legal_actions(self, st, side=None):
            if st.winner or (side is not None and side != st.turn):
                return []
            return [{"type": t} for t in ACTIONS]

        def apply(self, st, action):
            if action not in self.legal_actions(st):
                raise IllegalAction(f"not now: {action}", "toy §1")
            t, side = action["type"], st.turn
            d = st.dice.roll(6) if t == "roll" else (1 if t == "step" else 0)
            st.pos[side] += d
            ev = {"n": len(st.log), "type": t, "text": f"{side} {t}s: +{d}, at {st.pos[side]}"}
            st.log.append(ev)
            out = [ev]
            if st.pos[side] >= st.goal:
                st.winner = side
                ev2 = {"n": len(st.log), "type": "game_over", "text": f"{side} wins the race"}
                st.log.append(ev2)
                out.append(ev2)
            st.turn = "B" if side == "A" else "A"
            return out

        def explain(self, st, action):
            return {"legal": action in self.legal_actions(st)}

        def outcome(self, st):
            return Outcome(bool(st.winner), st.winner, f"{st.winner} wins the race" if st.winner else "")

        def view(self, st, side):
            return {"pos": dict(st.pos), "turn": st.turn}

        def events(self, st):
            return st.log

        def action_from_json(self, data):
            if not isinstance(data, dict) or data.get("type") not in ACTIONS or len(data) != 1:
                raise IllegalAction(f"not a toy action: {data!r}")
            return dict(data)

        def action_to_json(self, action):
            return dict(action)

        def state_to_json(self, st):
            return {"pos": st.pos, "turn": st.turn, "log": st.log, "winner": st.winner, "rolls": st.dice.count}

        def state_from_json(self, data, scenario):
            raise NotImplementedError

        def clone(self, st):
            c = _copy.copy(st)
            c.dice = _copy.copy(st.dice)
            c.pos, c.log = dict(st.pos), list(st.log)
            return c

        def digest(self, st):
            return hashlib.sha256(json.dumps([st.pos, st.turn, st.log, st.winner]).encode()).hexdigest()

        def is_pass(self, action):
            return action["type"] == "pass"

    return ToyRace()


@pytest.fixture
def toy():
    from oriflamme.core import registry

    rs = registry.register(_toy_ruleset())
    yield rs
    registry.unregister(rs.id)


def main_in_process(capsys, *args, stdin: str = "") -> tuple[int, str, str]:
    import io

    from oriflamme.cli.main import main

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(args))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_generic_ruleset_listed_and_its_scenarios(toy, capsys):
    code, out, _ = main_in_process(capsys, "rulesets", "--json")
    assert code == 0 and {"id": "toy-race", "title": "Toy race", "title_fr": "Toy race", "scenarios": ["sprint"]} in json.loads(out)["rulesets"]
    code, out, _ = main_in_process(capsys, "scenarios", "--ruleset", "toy-race")
    assert code == 0 and out.split() == ["sprint", "Sprint", "—", "first", "to", "12"]


def test_generic_ruleset_random_game_then_verify(toy, capsys, tmp_path):
    rec_path = str(tmp_path / "toy.json")
    code, out, err = main_in_process(capsys, "play", "sprint", "--ruleset", "toy-race", "--a", "random", "--b", "random",
                                     "--seed", "5", "--record", rec_path)
    assert code == 0, err
    assert "Seed 5." in out and "[A] " in out and "A to act" in out
    rec = json.loads(Path(rec_path).read_text(encoding="utf-8"))
    assert rec["ruleset"] == "toy-race" and rec["over"] is True and rec["seed"] == 5
    assert re.search(rf"[AB] wins the race  \({len(rec['actions'])} actions, seed 5\)", out)
    code, out, err = main_in_process(capsys, "replay", rec_path, "--verify")
    assert code == 0, err
    assert out.splitlines()[1:] == [COMMITMENT_OK]
    code, out, err = main_in_process(capsys, "replay", rec_path)
    assert code == 0 and out.rstrip().endswith("wins the race")


def test_generic_ruleset_human_gets_a_numbered_list(toy, capsys, tmp_path):
    rec_path = str(tmp_path / "toy.json")
    code, out, err = main_in_process(capsys, "play", "sprint", "--ruleset", "toy-race", "--b", "random", "--seed", "1",
                                     "--record", rec_path, stdin="1\n9\nundo\nquit\n")
    assert code == 0, err
    assert "1. type=step" in out and "3. type=pass" in out
    assert "A steps: +1, at 1" in out and "choose 1–3" in out
    assert out.rstrip().endswith("Game left unfinished.")
    rec = json.loads(Path(rec_path).read_text(encoding="utf-8"))
    assert rec["actions"][0] == {"type": "step"} and rec["over"] is False
    assert main_in_process(capsys, "replay", rec_path, "--verify")[0] == 0


def test_record_of_one_ruleset_with_the_scenario_of_another(toy, capsys, tmp_path, record):
    rec = copy.deepcopy(record)
    rec["ruleset"] = "toy-race"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err = main_in_process(capsys, "replay", str(path), "--verify")
    assert code == 1 and out == ""
    assert one_line(err) == f"replay: {path}: record field scenario: not a toy-race scenario"


def test_play_scenario_of_another_ruleset_by_id(toy, capsys):
    code, out, err = main_in_process(capsys, "play", "the-hill", "--ruleset", "toy-race")
    assert code == 2 and out == "" and one_line(err) == "play: unknown scenario 'the-hill' (bundled: sprint)"


def test_adjudicate_with_a_ruleset_without_referee(toy, capsys):
    code, out, err = main_in_process(capsys, "adjudicate", stdin=json.dumps({"kind": "melee", "ruleset": "toy-race"}))
    assert code == 2 and out == ""
    assert one_line(err) == "adjudicate: situation 1: this ruleset (toy-race) has no referee"
