"""Messages by id: the log's events rendered from a message id and its parameters.

An event emitted by the engine carries ``msg`` (a message id such as ``"move.walk"``) and
``params`` (a JSON object). The templates live in the ruleset's catalogue ``texts/fr.toml``:
a ``[[msg]]`` or ``[[word]]`` entry with an ``id`` holds the English template (``en``) and the
French one (``fr``). Placeholders are those of :mod:`oriflamme.rulesets.magna_carta.i18n`
(``{name}``, ``{pm:int}``, ``{result:raw}``); here the type is ignored: a parameter is
inserted as it is.

A parameter is one of:

* a string or a number: inserted verbatim in every language (names, hex labels, dice, table
  letters, French data labels);
* a nested message ``{"msg": id, "params": {...}}`` (``params`` optional): rendered in the
  same language from the catalogue — statuses, step titles, reasons, any translatable phrase;
* a list of such values: rendered one by one and joined with ``", "`` (a list of fighters).

The English rendering is the event's ``text`` (byte-identical to what the engine wrote before
ids existed); no text is ever translated by matching its English here.

>>> render("status.is", {"name": "Raoul", "status": {"msg": "status.wounded"}}, "fr")
'Raoul est blessé'
>>> render("status.is", {"name": "Raoul", "status": {"msg": "status.wounded"}}, "en")
'Raoul is wounded'
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["MessageError", "render", "templates", "placeholders", "known", "nested"]

LANGS = ("en", "fr")
_SLOT = re.compile(r"\{(\w+)(?::\w*)?\}")


class MessageError(KeyError):
    """An unknown message id or a missing parameter."""


def nested(msg: str, **params: Any) -> dict:
    """A parameter that is itself a message: ``nested("status.wounded")``."""
    return {"msg": msg, "params": params} if params else {"msg": msg}


@lru_cache(maxsize=None)
def templates() -> dict[str, dict[str, str]]:
    """``{id: {"en": template, "fr": template}}`` of every catalogue entry with an id."""
    path = resources.files("oriflamme.rulesets.magna_carta.texts").joinpath("fr.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}
    for section in ("msg", "word"):
        for entry in data.get(section, []):
            mid = entry.get("id")
            if mid is None:
                continue
            if mid in out:
                raise MessageError(f"texts/fr.toml: message id {mid!r} is defined twice")
            out[mid] = {"en": entry["en"], "fr": entry["fr"]}
    out.update(BUILTIN)
    return out


#: Messages whose words come with their parameters, not from the catalogue: a text the rules data
#: gives in both languages (an edition's step titles, lost tables, Cry Havoc's fire steps). Not in
#: texts/fr.toml: its regex side (i18n.py) cannot match a template without literal text.
BUILTIN = {"data.bilingual": {"en": "{text_en}", "fr": "{text_fr}"}}


@lru_cache(maxsize=None)
def _compiled(mid: str, lang: str) -> tuple:
    """The template split into literal strings (even positions) and parameter names (odd)."""
    try:
        t = templates()[mid][lang]
    except KeyError:
        raise MessageError(f"unknown message id {mid!r} (language {lang!r})") from None
    parts: list[str] = []
    pos = 0
    for m in _SLOT.finditer(t):
        parts.append(t[pos:m.start()])
        parts.append(m.group(1))
        pos = m.end()
    parts.append(t[pos:])
    return tuple(parts)


def placeholders(mid: str, lang: str) -> set[str]:
    """The parameter names a template uses."""
    return set(_compiled(mid, lang)[1::2])


def known(mid: str) -> bool:
    return mid in templates()


def _value(v: Any, lang: str) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, dict) and "msg" in v:
        return render(v["msg"], v.get("params") or {}, lang)
    if isinstance(v, list):
        return ", ".join(_value(x, lang) for x in v)
    return str(v)


def render(mid: str, params: dict | None, lang: str = "en") -> str:
    """The message ``mid`` with ``params`` in ``lang``."""
    parts = _compiled(mid, lang)
    params = params or {}
    out: list[str] = []
    for i, p in enumerate(parts):
        if i % 2 == 0:
            out.append(p)
        else:
            try:
                out.append(_value(params[p], lang))
            except KeyError:
                raise MessageError(f"message {mid!r} lacks the parameter {p!r}") from None
    return "".join(out)
