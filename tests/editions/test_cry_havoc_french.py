"""Cry Havoc games speak both languages: every event of random games of the village has a message
id known in English and French, and its French text is rendered by id (never by matching
English); the edition's ruling steps (two-step fire, table lost) come by id too."""

from __future__ import annotations

import random

import pytest

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta.i18n import translate_event
from oriflamme.rulesets.magna_carta.texts import messages

RS = registry.get("cry-havoc")


def _games():
    out = []
    for seed in (1, 2):
        g = Game(RS, RS.load_scenario("the-village"), f"fr{seed}")
        rnd = random.Random(seed)
        while not g.outcome().over and len(g.actions) < 250:
            g.apply(rnd.choice(RS.legal_actions(g.state)))
        out.append(g)
    return out


@pytest.fixture(scope="module")
def events():
    return [e for g in _games() for e in RS.events(g.state)]


def test_every_event_has_a_known_message_id(events):
    assert events
    for e in events:
        assert messages.known(e["msg"]), e
        assert messages.render(e["msg"], e.get("params") or {}, "en") == e["text"]


def test_french_texts_by_id(events):
    kinds = set()
    for e in events:
        fr = translate_event(e, "fr")
        assert fr["text"] == messages.render(e["msg"], e.get("params") or {}, "fr")
        kinds.add(e["type"])
        if e["type"] == "fire":
            lines = fr["ruling"]["explanation"] if isinstance(fr.get("ruling"), dict) else []
            assert any(line.startswith("étape 1, atteindre la cible") for line in lines), lines
    assert {"fire", "step", "phase"} <= kinds


def test_step_titles_of_the_edition_in_both_languages(events):
    steps = {e["text"] for e in events if e["type"] == "step"}
    assert steps <= {"Movement (Phase de mouvement)", "Combat (Phase de combat)", "Fire (Phase de tir)"}
    fr = {translate_event(e, "fr")["text"] for e in events if e["type"] == "step"}
    assert fr <= {"Phase de mouvement", "Phase de combat", "Phase de tir"}
