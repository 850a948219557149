"""The log's messages in English and French (``data/texts.toml``). An argument may be a
``{"en": …, "fr": …}`` pair (a side's name, a result's label): it is read in the language."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def catalogue() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data", "texts.toml").read_text(encoding="utf-8"))


def say(key: str, lang: str, args: dict) -> str:
    vals = {k: (v.get(lang, v.get("en")) if isinstance(v, dict) else v) for k, v in args.items()}
    return catalogue()[key][lang if lang == "fr" else "en"].format(**vals)


def both(en: str, fr: str) -> dict:
    return {"en": en, "fr": fr}


def _pattern(template: str):
    import re
    parts = re.split(r"\{(\w+)\}", template)
    rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile("^" + rx + "$")


def translate(text: str, lang: str) -> str:
    """A rendered English message in ``lang`` (the catalogue's template that produced it, its
    arguments kept as they are); an unknown text is returned unchanged."""
    if lang != "fr":
        return text
    import re
    rows = sorted(catalogue().values(), key=lambda r: -len(re.sub(r"\{\w+\}", "", r["en"])))
    for row in rows:  # the most specific template first ("{title}" matches anything)
        m = _pattern(row["en"]).match(text)
        if m:
            return row["fr"].format(**m.groupdict())
    return text


# --- the French display (issue 15: one language at a time) -------------------------------------
# The stored French texts say "hex"; the French display says "case", as Magna Carta's French
# does (the stored texts are left as they are: the state's digest covers its log).
_HEX_FR = ((r"\b1 hex\b", "1 case"), (r"\b(\d+) hex\b", r"\1 cases"), (r"\bdes hex\b", "des cases"),
           (r"\bson hex\b", "sa case"), (r"\ble hex\b", "la case"), (r"\bun hex\b", "une case"),
           (r"\bhex\b", "case"))
#: a ruling's result codes in words (rally: data/rules.toml, rally rule)
RESULTS = {"rallied": both("rallied", "ralliée"), "failed": both("failed", "échec")}


def french(text):
    """A French text as shown: "hex" said "case"."""
    import re
    if not isinstance(text, str):
        return text
    for pat, rep in _HEX_FR:
        text = re.sub(pat, rep, text)
    return text


def result_text(code, lang: str):
    r = RESULTS.get(code) if isinstance(code, str) else None
    return r.get(lang, r["en"]) if r else None
