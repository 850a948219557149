"""The rendered pages speak one language at a time (issue 15, play polish): the home page and
game pages (a game under way, its log's rulings included, and a finished one with its end
screen), in English then in French, scanned for words of the other language (the word lists of
tests/language_words.py). Proper names (characters, sides, scenarios), citations and the dice
hashes are set aside first.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from language_words import ENGLISH, FRENCH
from test_client import open_game, view

ACCENTED = re.compile(r"[éèêëàâçùûôîïœ]", re.I)
CITATION = re.compile(r"\((?:[^()]|\([^()]*\))*\b(?:MC|CH|CR|SEED-NOTES|LB|GF|docs/)[^()]*(?:\([^()]*\)[^()]*)*\)|"
                      r"\b(?:MC|CH|CR|LB|GF) (?:seed \d+ )?(?:§|l\.)[\w.§\-–, ]*")
HASH = re.compile(r"\b[0-9a-f]{8,}…?")
WORD = re.compile(r"[A-Za-zÀ-ÿœŒ]+(?:['’][A-Za-zÀ-ÿ]+)?")

PAGE_TEXT = """() => {
  const parts = [document.body.innerText, document.title];
  // the log's rulings (folded <details> are not in innerText) and every tooltip
  for (const e of document.querySelectorAll('#log, #ai-notes')) parts.push(e.textContent);
  for (const e of document.querySelectorAll('[title]')) parts.push(e.getAttribute('title'));
  for (const e of document.querySelectorAll('[aria-label]')) parts.push(e.getAttribute('aria-label'));
  return parts.join('\\n');
}"""


def _names(server) -> set[str]:
    # the books' and the program's titles are names ("La Magna Carta" in an English page)
    out = {"Oriflamme", "Cry Havoc", "La Magna Carta", "Magna Carta", "Croisades", "Les Guerres Fleuries"}
    _, rs = server.call("GET", "/api/rulesets", expect=200)
    for r in rs["rulesets"]:
        if r.get("title") == r.get("title_fr"):  # a title the same in both languages is a name
            out.add(r.get("title", ""))
    _, sc = server.call("GET", "/api/scenarios", expect=200)
    for s in sc["scenarios"]:
        out |= {s.get("name", ""), s.get("name_fr", "")}
        for side in s.get("sides", []):
            out |= {side.get("name", ""), side.get("name_fr", "")}
    return {x for x in out if x}


def _offenders(text: str, lang: str, names: set[str]) -> list[str]:
    body = HASH.sub(" ", CITATION.sub(" ", text))
    for n in sorted(names, key=len, reverse=True):
        body = body.replace(n, " ")
    bad = []
    for line in body.splitlines():
        for w in WORD.findall(line):
            if w.isupper():
                continue  # abbreviations: EN, FR, PM, NO
            if lang == "en" and (w.lower() in FRENCH or ACCENTED.search(w)):
                bad.append(f"{w!r} in {line.strip()[:160]!r}")
            if lang == "fr" and w.lower() in ENGLISH:
                bad.append(f"{w!r} in {line.strip()[:160]!r}")
    return list(dict.fromkeys(bad))


def _scan(page: Page, names: set[str], ready) -> dict[str, list[str]]:
    out = {}
    for lang in ("en", "fr"):
        page.get_by_test_id("lang-" + lang).click()
        ready(lang)
        page.wait_for_timeout(300)
        out[lang] = _offenders(page.evaluate(PAGE_TEXT), lang, names)
    page.get_by_test_id("lang-en").click()
    return out


def _play(server, gid, token, shots: int, to_end: bool = False):
    """Through the API: ``shots`` shots and moves, ending steps between (prompts answered)."""
    done = 0
    for _ in range(600):
        v = view(server, gid, token)
        if v["over"] or (not to_end and done >= shots):
            return v
        o = v["options"]
        if o["prompts"]:
            a = o["prompts"][0]["action"]
        elif done < shots and (o["fires"] or o["attacks"]):
            a = (o["fires"] or o["attacks"])[0]["action"]
            done += 1
        elif done < shots and v["step"] == "movement" and o["moves"]:
            a = sorted(o["moves"].items())[0][1][0]["action"]
            done += 1
        else:
            a = o["end_step"]
        server.call("POST", f"/api/games/{gid}/actions", {"action": a, "version": v["version"]}, token=token, expect=200)
    return view(server, gid, token)


def test_the_pages_speak_one_language(page: Page, server):
    names = _names(server)
    found = {}
    # the home page
    page.goto(server.url + "/")
    expect(page.get_by_test_id("scenario-card-the-hill")).to_be_visible()
    found["home"] = _scan(page, names, lambda lang: expect(page.get_by_test_id("scenario-card-the-hill")).to_be_visible())

    # a game under way: shots (rulings in the log), moves, a step ended
    _, g = server.call("POST", "/api/games", {"scenario": "the-hill", "mode": "hotseat", "seed": 5}, expect=201)
    gid, token = g["id"], g["seats"]["hotseat"]
    v = _play(server, gid, token, shots=8)
    chars = {c["name"] for c in v["characters"]}
    open_game(page, server, g["links"]["hotseat"])
    page.get_by_test_id("counter-" + v["characters"][0]["id"]).click()   # the selection card too
    log_ready = lambda lang: expect(page.get_by_test_id("log-event").first).to_be_visible()
    found["game"] = _scan(page, names | chars, log_ready)

    # a finished game: its end screen
    v = _play(server, gid, token, shots=10_000, to_end=True)
    assert v["over"]
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    found["end"] = _scan(page, names | chars, lambda lang: expect(page.get_by_test_id("end-screen")).to_be_visible())

    problems = [f"{where} {lang}: {x}" for where, by in found.items() for lang, xs in by.items() for x in xs]
    assert not problems, f"{len(problems)} words of the other language:\n" + "\n".join(problems[:60])
