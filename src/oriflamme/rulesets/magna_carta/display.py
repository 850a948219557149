"""What the players read, in one language at a time (issue 15, play polish).

The engine writes its texts in English (the record's wording, frozen: ``replay --verify``
compares it) but quotes the rules data's labels as the French rulebook prints them: a weapon
("Arbalète"), a range band ("Moyenne"), a table result ("Défenseur recule d'1 case"), a step's
French title after its English one ("Movement (Mouvement et tir défensif)"). For the English
display, :func:`english` puts each quoted label in English: from the data's own pairs
(``names[0]``/``name_en``, ``text``/``text_en``, ``label``/``label_en``, ``title_fr``/``title_en``
in Magna Carta's and its editions' ``data/``) and from ``texts/labels.toml`` for the rows
without English. A step title's French repetition in parentheses is dropped.

:func:`name_sides` calls the sides by their names instead of their ids ("Side A" →
side “Raiders”, "le camp A" → le camp « Pillards »), and :func:`agree` fixes the verb of a
lone attacker ("Sir Robert attack Alan" → "Sir Robert attacks Alan").

>>> english("Arbalète at 16 hexes: medium range (Moyenne, 16-30), +1 to the die (MC §5.1, §5.4.1)")
'Crossbow at 16 hexes: medium range (medium, 16-30), +1 to the die (MC §5.1, §5.4.1)'
>>> english("Movement (Mouvement et tir défensif)")
'Movement'
>>> name_sides("Side A ends the movement step", "en", [("A", "Raiders", "Pillards")])
'Side “Raiders” ends the movement step'
>>> name_sides("Le camp A termine la séquence de mouvement", "fr", [("A", "Raiders", "Pillards")])
'Le camp « Pillards » termine la séquence de mouvement'
>>> agree("Sir Robert attack Alan", "en")
'Sir Robert attacks Alan'
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources

#: The packages whose ``data/`` quote French labels: Magna Carta and its editions (a package
#: with an ``edition.toml`` beside its ``data/``).
_FAMILY_ROOT = "oriflamme.rulesets"
_PAIRS = (("text", "text_en"), ("label", "label_en"), ("title_fr", "title_en"), ("name", "name_en"))


def _family_data_files():
    root = resources.files(_FAMILY_ROOT)
    for pkg in sorted(root.iterdir(), key=lambda p: p.name):
        if not pkg.is_dir():
            continue
        if pkg.name != "magna_carta" and not pkg.joinpath("edition.toml").is_file():
            continue
        data = pkg.joinpath("data")
        if not data.is_dir():
            continue
        for f in sorted(data.iterdir(), key=lambda p: p.name):
            if f.name.endswith(".toml") and f.name != "sections.toml":
                yield f"{pkg.name}/data/{f.name}", f


@lru_cache(maxsize=None)
def _rows() -> tuple[dict, ...]:
    """Every table row (TOML table) of the family's data files, in file order."""
    out: list[dict] = []

    def walk(o):
        if isinstance(o, dict):
            out.append(o)
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for _, f in _family_data_files():
        walk(tomllib.loads(f.read_text(encoding="utf-8")))
    return tuple(out)


@lru_cache(maxsize=None)
def step_titles() -> frozenset[str]:
    """The steps' French titles (``title_fr`` of the sequences): after the English title, a
    repetition the English display drops."""
    return frozenset(o["title_fr"] for o in _rows() if isinstance(o.get("title_fr"), str) and isinstance(o.get("title_en"), str))


def data_pairs() -> dict[str, str]:
    """French label -> English, from the rows of the data that carry both."""
    out: dict[str, str] = {}
    for o in _rows():
        for fr_key, en_key in _PAIRS:
            if isinstance(o.get(fr_key), str) and isinstance(o.get(en_key), str):
                out.setdefault(o[fr_key], o[en_key])
        names = o.get("names")
        if isinstance(names, list) and names and isinstance(names[0], str) and isinstance(o.get("name_en"), str):
            out.setdefault(names[0], o["name_en"])
    return out


def catalogue_labels() -> dict[str, str]:
    """``texts/labels.toml``: French label -> English, for the data rows without English."""
    path = resources.files("oriflamme.rulesets.magna_carta.texts").joinpath("labels.toml")
    return {x["fr"]: x["en"] for x in tomllib.loads(path.read_text(encoding="utf-8")).get("label", [])}


@lru_cache(maxsize=None)
def glossary() -> dict[str, str]:
    out = data_pairs()
    out.update(catalogue_labels())
    # a label the same in both languages ("Combat") needs no replacing, only its repetition dropped
    return out


@lru_cache(maxsize=None)
def _patterns():
    g = glossary()
    titles = sorted({fr for fr in g}, key=len, reverse=True)
    # "Movement (Mouvement et tir défensif)": the French repetition after its English
    repeat = re.compile(r" \((?:" + "|".join(re.escape(x) for x in titles) + r")\)")
    labels = sorted((fr for fr, en in g.items() if fr.lower() != en.lower()), key=len, reverse=True)
    # any case: the engine quotes a terrain's name in lower case ("target in broussailles")
    label = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(x) for x in labels) + r")(?!\w)", re.IGNORECASE)
    return repeat, label, {fr.lower(): g[fr] for fr in labels}


def _drop_repeat(m: re.Match, text: str) -> str:
    """`` (Tir offensif)`` is dropped: a step title's French repetition, or a label right after its English."""
    fr = m.group(0)[2:-1]
    en = glossary().get(fr, "")
    before = text[:m.start()]
    return "" if fr in step_titles() or (en and before.lower().endswith(en.lower())) else m.group(0)


def english(text: str) -> str:
    """``text`` with every French label the data quote put in English (see the module's doc)."""
    if not isinstance(text, str) or not text:
        return text
    repeat, label, lower = _patterns()
    text = repeat.sub(lambda m: _drop_repeat(m, m.string), text)

    def one(m: re.Match) -> str:
        en = lower[m.group(0).lower()]
        return en[:1].upper() + en[1:] if m.start() == 0 else en  # a sentence's first word

    return label.sub(one, text)


# --- the sides by their names --------------------------------------------------------------------
def _side_rows(sides) -> list[tuple[str, str, str]]:
    out = []
    for s in sides or []:
        if isinstance(s, (tuple, list)):
            out.append((str(s[0]), str(s[1]), str(s[2] if len(s) > 2 and s[2] else s[1])))
        elif isinstance(s, dict):
            out.append((str(s["id"]), s.get("name") or s["id"], s.get("name_fr") or s.get("name") or s["id"]))
        else:  # core.ruleset.SideInfo
            out.append((s.id, s.name or s.id, s.name_fr or s.name or s.id))
    return out


def name_sides(text: str, lang: str, sides) -> str:
    """``text`` with "side A" / "le camp A" naming the side instead: side “Raiders”,
    le camp « Pillards »."""
    if not isinstance(text, str) or not text:
        return text
    word = "amp " if lang == "fr" else "ide "
    if word not in text:  # most texts name no side: no regex to run
        return text
    rows = tuple(_side_rows(sides))
    if not rows:
        return text
    rx, names = _side_pattern(rows, lang == "fr")
    i = 1 if lang == "fr" else 0
    return rx.sub(lambda m: (f"{m.group(1)} « {names[m.group(2)][i]} »" if i else f"{m.group(1)} “{names[m.group(2)][i]}”"), text)


@lru_cache(maxsize=64)
def _side_pattern(rows: tuple, fr: bool):
    names = {sid: (en, fr_name) for sid, en, fr_name in rows}
    ids = "|".join(re.escape(sid) for sid in sorted(names, key=len, reverse=True))
    word = "[Cc]amp" if fr else "[Ss]ide"
    return re.compile(r"(?<!\w)(" + word + r") (" + ids + r")(?!\w)"), names


# --- a lone attacker's verb -------------------------------------------------------------------------
_ONE = {"en": (re.compile(r"^([^,&:;]+?) attack (?=\S)"), r"\1 attacks "),
        "fr": (re.compile(r"^([^,&:;]+?) attaquent (?=\S)"), r"\1 attaque ")}


def agree(text: str, lang: str) -> str:
    """"X attack Y" with one attacker X (no comma, no "and"/"et") → "X attacks Y"."""
    rule = _ONE.get(lang)
    if not rule or not isinstance(text, str):
        return text
    m = rule[0].match(text)
    if not m or re.search(r"\b(and|et)\b", m.group(1)):
        return text
    return rule[0].sub(rule[1], text, count=1)


# --- a ruling's result code in words ---------------------------------------------------------------
@lru_cache(maxsize=None)
def result_labels() -> dict[str, str]:
    """Result code -> the French label of its data row (``result`` beside ``label``: infiltration,
    camels, jumps, ransom); the first row wins."""
    out: dict[str, str] = {}
    for o in _rows():
        if isinstance(o.get("result"), str) and isinstance(o.get("label"), str):
            out.setdefault(o["result"], o["label"])
    return out


@lru_cache(maxsize=None)
def result_words() -> dict[str, dict[str, str]]:
    """``texts/labels.toml`` ``[[result]]``: the words of the result codes no data row labels."""
    path = resources.files("oriflamme.rulesets.magna_carta.texts").joinpath("labels.toml")
    return {x["code"]: {"en": x["en"], "fr": x["fr"]} for x in tomllib.loads(path.read_text(encoding="utf-8")).get("result", [])}


def result_text(code, lang: str):
    """What a ruling's ``result`` code says in ``lang`` (a table letter stays as it is)."""
    if not isinstance(code, str):
        return code
    label = result_labels().get(code)
    if label is not None:
        return label if lang == "fr" else english(label)
    words = result_words().get(code)
    if words is not None:
        return words.get(lang, words["en"])
    return code.replace("_", " ")


# --- events, rulings, texts for display -----------------------------------------------------------------
def text(t, lang: str):
    """A rendered text (already in ``lang``) as shown: English labels in English, a lone attacker's verb."""
    if not isinstance(t, str):
        return t
    return agree(english(t) if lang != "fr" else t, lang)


def ruling(r: dict, lang: str) -> dict:
    """A ruling already in ``lang``, as shown (its lines, reason and result in words)."""
    if not isinstance(r, dict):
        return r
    out = dict(r)
    if isinstance(out.get("explanation"), list):
        out["explanation"] = [text(x, lang) for x in out["explanation"]]
    if isinstance(out.get("reason"), str):
        out["reason"] = text(out["reason"], lang)
    if "result" in out and out["result"] is not None:
        out["result_text"] = result_text(out["result"], lang)
    return out


def event(e: dict, lang: str) -> dict:
    """A log event already in ``lang``, as shown."""
    if not isinstance(e, dict):
        return e
    out = dict(e)
    if isinstance(out.get("text"), str):
        out["text"] = text(out["text"], lang)
    if isinstance(out.get("ruling"), dict):
        out["ruling"] = ruling(out["ruling"], lang)
    return out
