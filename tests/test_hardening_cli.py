"""Hostile input to the CLI's ``replay`` and ``adjudicate`` (issue 15, hardening): deep nesting,
huge integers, and any JSON (hypothesis) give one line on stderr and an exit status, never a
traceback. The commands run in-process (``cli.main.main``) so hypothesis can try many inputs."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oriflamme.cli.main import main

FIXTURES = Path(__file__).parent / "fixtures" / "records"

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)

HOSTILE = [
    "[" * 50_000 + "]" * 50_000,                       # 100 KB of nesting: RecursionError in json
    '{"kind": "melee", "die": ' + "9" * 5000 + "}",    # an integer past int's 4,300 digits
    '{"a": ' * 100 + "1" + "}" * 100,                  # deeper than the bound, well under Python's
]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def check_refused(code: int, err: str, prog: str) -> None:
    assert code in (1, 2), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prog + ":"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("text", HOSTILE, ids=["deep", "huge-int", "over-bound"])
@pytest.mark.parametrize("command", ["replay", "adjudicate"])
def test_hostile_json_is_one_line_and_status_2(tmp_path, capsys, command, text):
    f = tmp_path / "in.json"
    f.write_text(text)
    code, out, err = run_cli(capsys, command, str(f))
    check_refused(code, err, command)
    assert code == 2 and out == ""
    assert "nested too deeply" in err or "too long" in err


def _record() -> dict:
    return json.loads(sorted(FIXTURES.glob("*.json"))[0].read_text())


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            yield from _paths(v, prefix + (i,))


RECORD = _record()
RECORD_PATHS = [p for p in _paths(RECORD) if p]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(RECORD_PATHS), value=JSON)
def test_replay_of_a_record_with_any_field_replaced_never_crashes(tmp_path, capsys, where, value):
    rec = copy.deepcopy(RECORD)
    node = rec
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(rec))
    code, out, err = run_cli(capsys, "replay", "--verify", str(f))
    if code != 0:
        check_refused(code, err, "replay")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=JSON)
def test_replay_of_any_json_never_crashes(tmp_path, capsys, data):
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(data))
    code, out, err = run_cli(capsys, "replay", "--verify", str(f))
    check_refused(code, err, "replay")


SITUATION = st.fixed_dictionaries(
    {"kind": st.sampled_from(["melee", "fire", "infiltration", "jump", "move_cost", "allowance", "nope"])},
    optional={k: JSON for k in ("attackers", "defenders", "weapon", "distance", "die", "terrain", "base",
                                "weather", "shooter", "target", "mover", "ruleset", "extra_shifts")})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=SITUATION | JSON | st.lists(SITUATION, max_size=3))
def test_adjudicate_of_any_json_never_crashes(tmp_path, capsys, data):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    code, out, err = run_cli(capsys, "adjudicate", str(f))
    if code != 0:
        check_refused(code, err, "adjudicate")
    else:
        json.loads(out)


def test_replay_reads_recorded_events_through_the_ruleset(tmp_path, capsys, monkeypatch):
    """``replay --verify`` compares the replay with each recorded event as the ruleset reads it
    (``Ruleset.recorded_event``: an event of an earlier shape), so an old record still verifies."""
    from oriflamme.core import registry
    rec = copy.deepcopy(RECORD)
    rs = registry.get(rec.get("ruleset", "magna-carta"))
    real = rec["events"][0]
    rec["events"][0] = {"old_shape": True}
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(rec))
    code, out, err = run_cli(capsys, "replay", "--verify", str(f))
    assert code == 1 and "event 1 differs" in err
    monkeypatch.setattr(type(rs), "recorded_event",
                        lambda self, ev, i: real if ev == {"old_shape": True} else ev)
    code, out, err = run_cli(capsys, "replay", "--verify", str(f))
    assert code == 0, err
