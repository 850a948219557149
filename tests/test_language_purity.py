"""Every text a player reads is in one language (issue 15, play polish): random games of every
ruleset with a scenario, their logs rendered as the web page gets them (the ruleset's
``render_events`` then ``name_sides``: web/shown.py), their results (``render_text``) and the
actions offered along the way (``describe_action``), in English and in French, scanned for
words of the other language. The sides are called by their names, never "side A" / "le camp A".

The word lists (below) are small on purpose: words that belong to one language only and that
the engine's texts use (articles, prepositions, the game's vocabulary). A French word with an
accent is caught in English by its accent as well. Proper names (characters, units, leaders,
sides, scenarios) and citations ("(MC §5.4.4)", "(CH seed 002 l.14 (name))") are set aside
first: they are the same in both languages.
"""

from __future__ import annotations

import random
import re

import pytest

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.core.ruleset import CHANCE
from oriflamme.web import shown

from language_words import ENGLISH, FRENCH  # noqa: E402  (the two word lists, cited in both tests)

ACCENTED = re.compile(r"[éèêëàâçùûôîïœ]", re.I)
CITATION = re.compile(r"\((?:[^()]|\([^()]*\))*\b(?:MC|CH|CR|SEED-NOTES|LB|GF|docs/)[^()]*(?:\([^()]*\)[^()]*)*\)")
WORD = re.compile(r"[A-Za-zÀ-ÿœŒ]+(?:['’][A-Za-zÀ-ÿ]+)?")

GAMES_PER_SCENARIO = 2
ACTIONS_PER_GAME = 300


def _names(obj, out: set[str]) -> set[str]:
    """Every proper name in a view or scenario JSON (values of ``name``/``name_fr``)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("name", "name_fr", "kind_name", "kind_name_fr", "id", "horse", "led_by") and isinstance(v, str):
                out.add(v)  # names, and the ids a text may quote ("(hakim-horse)")
            else:
                _names(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _names(v, out)
    return out


def _cases():
    for rs in registry.all_rulesets():
        for sid in rs.scenario_ids():
            yield pytest.param(rs.id, sid, id=f"{rs.id}/{sid}")


def _play(rs, sid: str, seed: int):
    """A random game (at most ACTIONS_PER_GAME actions); the texts read along the way."""
    scenario = rs.load_scenario(sid)
    g = Game(rs, scenario, seed)
    rnd = random.Random(seed)
    offered = {"en": [], "fr": []}
    for _ in range(ACTIONS_PER_GAME):
        side = g.to_act()
        if side is None:
            break
        acts = rs.legal_actions(g.state, side)
        if side != CHANCE:
            for a in rnd.sample(acts, min(4, len(acts))):
                for lang in ("en", "fr"):
                    offered[lang].append(rs.describe_action(g.state, a, lang))
        g.apply(rnd.choice(acts))
    return g, scenario, offered


def _read(rs, g, scenario, offered, lang) -> list[tuple[str, str]]:
    """(where, text) of everything the page shows of this game in ``lang``."""
    sides = rs.sides(scenario)
    out = [("action", x) for x in offered[lang]]
    for e in shown.events(rs, rs.visible_events(g.state, None, 0), lang, sides):
        out.append(("log", e.get("text", "")))
        r = e.get("ruling") or {}
        out += [("ruling", x) for x in r.get("explanation") or [] if isinstance(x, str)]
        if r.get("result") is not None:
            out.append(("ruling result", str(r.get("result_text", r["result"]))))
        if isinstance(r.get("reason"), str):
            out.append(("ruling reason", r["reason"]))
    o = rs.outcome(g.state)
    if o.text:
        out.append(("result", shown.text(rs, rs.render_text(o.text, lang), lang, sides)))
    return out


def _offenders(text: str, lang: str, names: set[str]) -> list[str]:
    body = CITATION.sub(" ", text)
    for n in sorted(names, key=len, reverse=True):
        body = body.replace(n, " ")
    words = [w for w in WORD.findall(body) if not w.isupper()]  # abbreviations: PM, NO (nord-ouest), D10
    if lang == "en":
        return [w for w in words if w.lower() in FRENCH or ACCENTED.search(w)]
    bad = [w for w in words if w.lower() in ENGLISH]
    bad += [m.group(0) for m in re.finditer(r"\bon the\b", body)]
    return bad


@pytest.mark.parametrize("ruleset_id, scenario_id", list(_cases()))
def test_the_log_and_the_actions_speak_one_language(ruleset_id, scenario_id):
    rs = registry.get(ruleset_id)
    problems = []
    for seed in range(1, GAMES_PER_SCENARIO + 1):
        g, scenario, offered = _play(rs, scenario_id, seed)
        names = _names(rs.view(g.state, None), set()) | _names(rs.scenario_to_json(scenario), set())
        side_ids = [s.id for s in rs.sides(scenario)]
        for lang in ("en", "fr"):
            for where, text in _read(rs, g, scenario, offered, lang):
                bad = _offenders(text, lang, names)
                if bad:
                    problems.append(f"{lang} {where}: {bad} in {text!r}")
                # the sides by their names
                word = "side" if lang == "en" else "camp"
                for sid in side_ids:
                    if re.search(rf"\b{word} {re.escape(sid)}\b", CITATION.sub(" ", text), re.I):
                        problems.append(f"{lang} {where}: side id {sid!r} instead of its name in {text!r}")
    uniq = list(dict.fromkeys(problems))
    assert not uniq, f"{len(uniq)} mixed-language texts, e.g.:\n" + "\n".join(uniq[:40])


def test_the_word_lists_hold_words_of_their_own_language_only():
    """The two lists do not overlap (a word of both languages would prove nothing)."""
    assert not FRENCH & ENGLISH


def test_every_french_label_of_the_rules_data_has_an_english():
    """The labels Magna Carta and its editions quote from their data (a modifier, a table's
    result, a terrain's or weather's name) have an English: the row's own ``*_en`` or
    ``texts/labels.toml`` (magna_carta/display.py)."""
    from oriflamme.rulesets.magna_carta import display
    import tomllib
    g = display.glossary()
    missing = []

    def walk(o, where):
        if isinstance(o, dict):
            for key in ("label", "text"):
                if isinstance(o.get(key), str) and f"{key}_en" not in o and o[key] not in g:
                    missing.append(f"{where}: {key} {o[key]!r}")
            names = o.get("names")
            if isinstance(names, list) and names and "name_en" not in o and names[0] not in g:
                missing.append(f"{where}: names[0] {names[0]!r}")
            for v in o.values():
                walk(v, where)
        elif isinstance(o, list):
            for v in o:
                walk(v, where)

    files = list(display._family_data_files())
    assert {w.split("/")[0] for w, _ in files} >= {"magna_carta", "cry_havoc", "croisades"}
    for where, f in files:
        walk(tomllib.loads(f.read_text(encoding="utf-8")), where)
    assert not missing, "French labels without English:\n" + "\n".join(missing)


def test_every_browser_string_exists_in_both_languages():
    """web/static/i18n.js: the English and the French tables hold the same keys."""
    from pathlib import Path
    src = (Path(__file__).parents[1] / "src/oriflamme/web/static/i18n.js").read_text(encoding="utf-8")
    en_part, fr_part = src.split("\n    fr: {", 1)
    fr_part = fr_part.split("\n    },\n", 1)[0]
    key = re.compile(r'"([a-z_][\w.]*)":\s*"')
    en, fr = set(key.findall(en_part.split("\n    en: {", 1)[1])), set(key.findall(fr_part))
    assert en and fr
    assert not en - fr, f"English only: {sorted(en - fr)}"
    assert not fr - en, f"French only: {sorted(fr - en)}"


@pytest.mark.parametrize("stored, shown_en", [
    # the play-test's findings (issue 15), as the engine wrote them and as the English page shows them
    ("Movement (Mouvement et tir défensif)", "Movement"),
    ("Offensive fire (Tir offensif)", "Offensive fire"),
    ("die 10 = 10: result C — Défenseur recule d'1 case (MC §6.5)", "die 10 = 10: result C — Defender retreats 1 hex (MC §6.5)"),
    ("target in broussailles (0304): light cover (MC §3.1)", "target in brush (0304): light cover (MC §3.1)"),
    ("Ulric in 0304 blocks the line of fire of a Arbalète", "Ulric in 0304 blocks the line of fire of a crossbow"),
    ("Sir Robert attack Alan", "Sir Robert attacks Alan"),
    ("Sir Robert, Hugh attack Alan", "Sir Robert, Hugh attack Alan"),
    ("Sir Robert and Hugh attack Alan", "Sir Robert and Hugh attack Alan"),
])
def test_the_findings_of_the_play_test_read_in_english(stored, shown_en):
    rs = registry.get("magna-carta")
    ev = {"n": 0, "turn": 1, "side": "A", "type": "info", "text": stored}
    assert rs.render_events([ev], "en")[0]["text"] == shown_en
    assert ev["text"] == stored  # the stored event is left as the engine wrote it


def test_the_sides_are_called_by_their_names_in_both_languages():
    rs = registry.get("magna-carta")
    sides = rs.sides(rs.load_scenario("hamlet-raid"))  # A: Raiders / Pillards, B: Villagers / Villageois
    ev = {"n": 0, "turn": 1, "side": "A", "type": "step", "text": "Side A ends the movement step",
          "msg": "step.end", "params": {"side": "A", "step": "movement"}}
    en = shown.events(rs, [ev], "en", sides)[0]["text"]
    fr = shown.events(rs, [ev], "fr", sides)[0]["text"]
    assert en == "Side “Raiders” ends the movement step"
    assert fr.startswith("Le camp « Pillards » termine") and " A " not in fr
    result = "Side B wins: side A has no one left standing"
    assert shown.text(rs, rs.render_text(result, "fr"), "fr", sides) == \
        "Le camp « Villageois » l'emporte : le camp « Pillards » n'a plus personne debout"
