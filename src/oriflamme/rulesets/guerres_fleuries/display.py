"""What the players read, in one language at a time (issue 15).

The referee's and the battle's rulings are written in English but quote the rules data as the
seed prints it, in French: a modifier's sentence (``printed``), a troop class, a race, a priest's
level, a die table's title and result, a weapon, an armour, a range band, a morale cause,
result or base, a wound table's cell. For the English display, :func:`english` puts each quoted
label in English, from the data's own English beside it (``en`` on the modifier rows,
``name_en`` on the classes, races, priests' levels, weapons, armours, bands and morale codes,
``title_en``/``result_en`` on the die tables, ``text_en`` on the wound cells); the French display keeps the printed French (the citation). :func:`name_sides` calls
the sides by their names instead of their ids, in both languages.

>>> english('Modifier "Si un personnage est dans les 15cm." +4 × 1 = +4')
'Modifier "If a character is within 15 cm." +4 × 1 = +4'
>>> name_sides("Side A has given its orders (face down)", "en", [("A", "Aztec host", "Armée aztèque")])
'Side “Aztec host” has given its orders (face down)'
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import beings, d100, detection, fire, magic, melee, modifiers, morale, movement, wounds
from .battle import combat_data, terrain


def _pairs():
    """(French as printed, English) of every label row of the data, in a fixed order."""
    m, mg = morale.data(), magic.data()
    printed, first = (lambda r: r.printed), (lambda r: r.names[0])
    sources = [  # (rows, its French, its English)
        ([x for k in modifiers.kinds() for x in modifiers.modifiers(k).values()], printed, lambda r: r.en),
        (beings.classes().values(), printed, lambda r: r.name_en),
        (beings.races().values(), first, lambda r: r.name_en),
        (mg.levels, printed, lambda r: r.name_en),
        ([*fire.armours().values(), *fire.weapons().values(), *fire.bands().values(), *melee.weapons().values()],
         first, lambda r: r.name_en),
        ([*m.bases, *m.results, m.losses, *m.wound_bases.values()], printed, lambda r: r.en),
        (m.codes.values(), printed, lambda r: r.name_en),
        (m.states.values(), lambda r: r.names[1], lambda r: r.name_en),
        (mg.spells.values(), printed, lambda r: r.name_en),
        ([r for r in mg.spells.values() if r.distance_en], lambda r: r.distance, lambda r: r.distance_en),
        (combat_data.data().causes.values(), printed, lambda r: r.en),
        (fire.priorities(), printed, lambda r: r.name_en),
        (movement.flights().values(), first, lambda r: r.name_en),
        ([*wounds.data().rules.values(), *wounds.data().cells.values()], printed, lambda r: r.text_en),
        (detection.data().positions.values(), printed, first),
        (terrain.kinds().values(), lambda r: r.name_fr, lambda r: r.name_en),
    ]
    for rows, fr, en in sources:
        for row in rows:
            yield fr(row), en(row)
    for name in d100.names():
        t = d100.table(name)
        yield t.head.title, t.head.title_en
        for row in t.rows:
            yield row.result, row.result_en
            yield row.effect, row.effect_en


@lru_cache(maxsize=None)
def glossary() -> dict[str, str]:
    """French label as printed -> its English, from the data files (a label without English, or
    the same in both languages, is left out)."""
    g: dict[str, str] = {}
    for fr, en in _pairs():
        if fr and en and fr != en:
            g.setdefault(fr, en)
    return g


@lru_cache(maxsize=None)
def _pattern() -> re.Pattern:
    """Labels of several words wherever they stand; a one-word label ("déroute", "saurien",
    "Arc") only where a label stands — alone, before ":", in parentheses, after "against", between
    « » (a spell's name) — so
    that a unit's name holding the word ("Grand saurien") keeps it."""
    keys = sorted(glossary(), key=len, reverse=True)
    races = {r.names[0] for r in beings.races().values()}  # "Homme", "Saurien": capitalised, in no unit's name
    several = "|".join(re.escape(k) for k in keys if " " in k or k in races)
    one = "|".join(re.escape(k) for k in keys if " " not in k and k not in races)
    return re.compile(r"(?<!\w)(?P<l>" + several + r")(?!\w)"
                      + r"|(?:(?<=^)|(?<=\()|(?<=against )|(?<=: )|(?<=Homme )|(?<=Saurien )|(?<=« ))(?P<w>" + one
                      + r")(?=$|:|\)| range| \(| »)")


def english(text):
    """``text`` with each French label of the data in English (one pass, longest label first)."""
    if not isinstance(text, str) or not text:
        return text
    g = glossary()
    return _pattern().sub(lambda m: g[m.group("l") or m.group("w")], text)


def english_ruling(ruling: dict) -> dict:
    """A copy of a ruling (an event's ``ruling``) with its explanation and result in English."""
    out = dict(ruling)
    if isinstance(out.get("explanation"), list):
        out["explanation"] = [english(x) for x in out["explanation"]]
    if isinstance(out.get("steps"), list):
        out["steps"] = [english(x) if isinstance(x, str) else x for x in out["steps"]]
    if isinstance(out.get("reason"), str):
        out["reason"] = english(out["reason"])
    if isinstance(out.get("result_text"), str):
        out["result_text"] = english(out["result_text"])
    elif isinstance(out.get("result_en"), str) and out["result_en"]:
        out["result_text"] = out["result_en"]
    elif isinstance(out.get("result"), str):
        t = english(out["result"])
        if t != out["result"]:
            out["result_text"] = t
    return out


def _rows(sides):
    for s in sides or []:
        if isinstance(s, tuple):
            yield s
        else:
            yield (s.id, s.name, s.name_fr or s.name)


def name_sides(text, lang: str, sides):
    """``text`` with "side A" / "le camp A" naming the side: side “Aztec host”, le camp « … »."""
    if not isinstance(text, str) or not text:
        return text
    rows = {sid: (en, fr) for sid, en, fr in _rows(sides)}
    if not rows:
        return text
    fr = lang == "fr"
    word = "[Cc]amp" if fr else "[Ss]ide"
    ids = "|".join(re.escape(s) for s in sorted(rows, key=len, reverse=True))
    rx = re.compile(r"(?<!\w)(" + word + r") (" + ids + r")(?!\w)")
    if fr:
        return rx.sub(lambda m: f"{m.group(1)} « {rows[m.group(2)][1]} »", text)
    return rx.sub(lambda m: f"{m.group(1)} “{rows[m.group(2)][0]}”", text)


# --- French: the explanation lines the engine writes in English (texts_fr.toml) -----------------
_SLOT = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def _catalogue() -> tuple[tuple, dict[str, str]]:
    """(templates, words): each template (regex, French, specificity), longest literal first."""
    import tomllib
    from pathlib import Path
    doc = tomllib.loads((Path(__file__).parent / "texts_fr.toml").read_text(encoding="utf-8"))
    templates = []
    for i, msg in enumerate(doc.get("msg", [])):
        parts = _SLOT.split(msg["en"])
        rx = "".join(re.escape(p) if j % 2 == 0 else f"(?P<{p}>.+?)" for j, p in enumerate(parts))
        literal = sum(len(p) for p in parts[::2])
        templates.append((re.compile(rx + r"\Z", re.S), msg["fr"], literal, i))
    templates.sort(key=lambda t: (-t[2], t[3]))
    words = {w["en"]: w["fr"] for w in doc.get("word", [])}
    return tuple((rx, fr) for rx, fr, _, _ in templates), words


@lru_cache(maxsize=None)
def _french_labels() -> dict[str, str]:
    """The data's English labels -> the French as printed (the glossary reversed)."""
    out: dict[str, str] = {}
    for fr, en in glossary().items():
        out.setdefault(en, fr)
    return out


def french(text, _depth: int = 0):
    """An explanation line in French: the first template of texts_fr.toml matching the whole line,
    its captures put in French when they are known labels or words; a line no template matches
    is returned as it is."""
    if not isinstance(text, str) or not text or _depth > 4:
        return text
    templates, words = _catalogue()
    if text in words:
        return words[text]
    if text in _french_labels():
        return _french_labels()[text]
    for rx, fr in templates:
        m = rx.match(text)
        if m:
            return fr.format(**{k: french(v, _depth + 1) for k, v in m.groupdict().items()})
    return text


def french_ruling(ruling: dict) -> dict:
    """A copy of a ruling with its English explanation lines in French."""
    out = dict(ruling)
    if isinstance(out.get("explanation"), list):
        fr = out.get("explanation_fr")
        # lines the engine wrote in both languages (their French known when they were written)
        out["explanation"] = (list(fr) if isinstance(fr, list) and len(fr) == len(out["explanation"])
                              else [french(x) for x in out["explanation"]])
    if isinstance(out.get("steps"), list):  # an action's ruling before it is taken (battle/explain.py):
        done = out.get("steps_fr") if isinstance(out.get("steps_fr"), list) else []  # its first lines in French
        out["steps"] = list(done) + [french(x) for x in out["steps"][len(done):]]
    if isinstance(out.get("reason"), str):
        out["reason"] = french(out["reason"])
    if isinstance(out.get("result_text"), str):
        out["result_text"] = french(out["result_text"])
    return out
