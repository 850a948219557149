"""The sequence of play read from data (MC §2.1, data/sequence.toml, engine/turn.py).

The file is validated like the other tables (every part cited, hooks named), turn.py runs it,
the view carries it for the phase bar, and a sequence changed by data changes play (what an
edition such as Croisades or Cry Havoc will do).
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from gamekit import game
from oriflamme.rulesets.magna_carta import rulesdata
from oriflamme.rulesets.magna_carta.engine import EndStep, apply, view
from oriflamme.rulesets.magna_carta.engine import turn
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE, GameState

OPEN = [". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . ."]
DOC = tomllib.loads(resources.files("oriflamme.rulesets.magna_carta").joinpath("data", "sequence.toml")
                    .read_text(encoding="utf-8"))


def test_magna_carta_sequence_from_data():
    seq = rulesdata.load_ruleset().sequence
    assert [s.id for s in seq.step] == [OFFENSIVE_FIRE, MOVEMENT, MELEE, "stunned_recovery"]
    assert [s.ref for s in seq.step] == ["MC §2.1 (1)", "MC §2.1 (2)", "MC §2.1 (3)", "MC §2.1 (4)"]
    assert [s.title_fr for s in seq.step] == ["Tir offensif", "Mouvement et tir défensif", "Combat",
                                              "Personnages assommés"]
    assert [s.id for s in seq.player_steps] == [OFFENSIVE_FIRE, MOVEMENT, MELEE]
    assert seq.turn.ref == seq.phase.ref == "MC §2.1"
    assert seq.hook_names() <= set(turn.SEQUENCE_HOOKS.names())
    # the names code without a state still uses (i18n's step titles)
    assert turn.SEQUENCE == (OFFENSIVE_FIRE, MOVEMENT, MELEE)
    assert turn.STEP_TITLES[MOVEMENT] == ("Movement", "Mouvement et tir défensif", "MC §2.1 (2)")


@pytest.mark.parametrize("part", ["turn", "phase", "step"])
def test_a_part_without_ref_is_refused(part):
    doc = {k: (list(v) if isinstance(v, list) else dict(v)) for k, v in DOC.items()}
    if part == "step":
        doc["step"][1] = {k: v for k, v in doc["step"][1].items() if k != "ref"}
        match = r"sequence\.toml: \[\[step\]\] #2 \(movement\) field ref"
    else:
        doc[part] = {k: v for k, v in doc[part].items() if k != "ref"}
        match = rf"sequence\.toml: \[\[{part}\]\] #1 .*field ref"
    with pytest.raises(rulesdata.RulesDataError, match=match):
        rulesdata.load_sequence(doc)


def test_malformed_sequences_are_refused():
    steps = DOC["step"]
    with pytest.raises(rulesdata.RulesDataError, match="unique"):
        rulesdata.load_sequence({**DOC, "step": [steps[0], steps[1], steps[0]]})
    with pytest.raises(rulesdata.RulesDataError, match="first step"):
        rulesdata.load_sequence({**DOC, "step": [steps[3], steps[0]]})
    with pytest.raises(rulesdata.RulesDataError, match="missing table \\[phase\\]"):
        rulesdata.load_sequence({"turn": DOC["turn"], "step": steps})
    with pytest.raises(rulesdata.RulesDataError, match="title_fr"):
        rulesdata.load_sequence({**DOC, "step": [{k: v for k, v in steps[0].items() if k != "title_fr"}]})
    with pytest.raises(rulesdata.RulesDataError, match="unknown table"):
        rulesdata.load_sequence({**DOC, "naval": {"ref": "MC §2.1"}})


def test_an_unknown_hook_is_refused():
    steps = [dict(DOC["step"][0], on_enter=["morale.check"]), *DOC["step"][1:]]
    seq = rulesdata.load_sequence({**DOC, "step": steps})
    with pytest.raises(ValueError, match="morale.check"):
        turn.SEQUENCE_HOOKS.check(seq)


def test_the_view_carries_the_phase_bar():
    st = game(OPEN, [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0805")])
    v = view(st, None)
    assert [s["id"] for s in v["sequence"]["steps"]] == [OFFENSIVE_FIRE, MOVEMENT, MELEE, "stunned_recovery"]
    assert v["sequence"]["steps"][1] == {"id": MOVEMENT, "title_en": "Movement", "title_fr": "Mouvement et tir défensif",
                                         "ref": "MC §2.1 (2)", "players": True}
    assert v["step"] in {s["id"] for s in v["sequence"]["steps"]}


def _with_sequence(monkeypatch, doc: dict) -> None:
    """Play with another sequence of play, as an edition would declare it in its data."""
    import dataclasses
    rules = dataclasses.replace(rulesdata.load_ruleset(), sequence=rulesdata.load_sequence(doc))
    turn.SEQUENCE_HOOKS.check(rules.sequence)
    monkeypatch.setattr(GameState, "rules", property(lambda self: rules))


def _play_end_steps(st) -> list[tuple]:
    seen = []
    while not st.over:
        seen.append((st.turn, st.active, st.step))
        apply(st, EndStep())
    return seen


ARCHER_DUEL = [("a", "archer", "A", "0103"), ("b", "spearman", "B", "0703")]


def test_the_archer_waits_in_the_offensive_fire_step():
    """The baseline of the next test: Magna Carta's own sequence stops in step 1 for the archer."""
    seen = _play_end_steps(game(OPEN, ARCHER_DUEL, turns=2, dice=[]))
    assert seen[0] == (1, "A", OFFENSIVE_FIRE)


def test_a_sequence_changed_by_data_changes_play(monkeypatch):
    """A phase of movement then combat (no offensive fire step), with a hook of its own."""
    calls = []
    turn.SEQUENCE_HOOKS.provide("test.count", lambda state: calls.append((state.turn, state.active, state.step)))
    try:
        steps = [dict(DOC["step"][1]), dict(DOC["step"][2], on_leave=["test.count"]), DOC["step"][3]]
        _with_sequence(monkeypatch, {**DOC, "step": steps})
        st = game(OPEN, ARCHER_DUEL, turns=2, dice=[])
        seen = _play_end_steps(st)
        assert seen[0] == (1, "A", MOVEMENT)
        assert OFFENSIVE_FIRE not in {step for _, _, step in seen}
        assert calls == [(1, "A", MELEE), (1, "B", MELEE), (2, "A", MELEE), (2, "B", MELEE)]
        assert st.over and st.turn == 2
        assert [e["type"] for e in st.log].count("phase") == 4
    finally:
        turn.SEQUENCE_HOOKS._table.pop("test.count", None)
