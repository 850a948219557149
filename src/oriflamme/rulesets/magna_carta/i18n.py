"""The engine's texts in the player's language (presentation layer).

Two paths, one catalogue (``oriflamme/rulesets/magna_carta/texts/<lang>.toml``):

* **Events (the log) by id.** Every event the engine emits carries a message id (``msg``) and
  its parameters (``params``); its ``text`` is the English rendering.
  :func:`translate_event` renders the event in the player's language from ``msg`` + ``params``
  (:mod:`oriflamme.rulesets.magna_carta.texts.messages`): translatable parameters (statuses,
  step titles, reasons) are nested message ids, never English phrases matched by regex. A
  ``[[msg]]`` or ``[[word]]`` entry with an ``id`` is such a message.
* **Rulings' steps by id.** A step built with ``Ruling.say`` / ``Step.say`` carries a message
  id and parameters; the ruling's JSON lists them in ``steps`` (an event keeps them beside its
  ruling, in ``ruling_steps``) and :func:`translate_ruling` renders those lines from them, the
  citation kept verbatim. Converted so far: fire (resolve/fire.py, the "fires at" line of
  engine/fire.py), melee (resolve/melee.py, the "attack" line of engine/melee.py) and the
  move preview (engine/game.py: each hex, turns, infiltration odds, the total).
* **The regex path (below)** translates English texts after the fact. It remains for the
  other explanation steps and the rulings' reasons, the refusal reasons (``IllegalAction``),
  and the events of old records, which have no ``msg``.

The catalogue
-------------
``[[msg]]`` entries pair an English template with its translation::

    [[msg]]
    en = "{name} moves {start} → {path} ({pm} PM)"
    fr = "{name} se déplace : {start} → {path} ({pm} PM)"

* ``{x}`` matches any text, as little as possible; every other character is matched literally.
  ``{x:int}`` matches an integer (``+1``, ``-2``, ``12``); ``{x:word}`` a run without spaces or
  commas; ``{x:raw}`` any text that is copied *untranslated* (French table texts and labels).
* The translation may use the captures in any order, repeat them or drop them; it may not
  invent one the English lacks.
* ``part = true`` marks a template used only for *pieces* of a text (a capture), never for a
  whole text: ``"{name} ({n:int}, stunned)"`` inside ``"Raoul (8) attack Colin (3, stunned)"``.

``[[word]]`` entries translate captured values that are known phrases (``"wounded"`` →
``"blessé"``, cover ``"light"`` → ``"légère"``). A word may carry a ``kind``: it then applies
only to placeholders of that name, trailing digits ignored (``{cover}``, ``{cover2}``); words
without a kind apply to every placeholder. A captured value that is no known word is
translated as a text in its own right when a template (``msg`` or ``part``) matches it, and a
list ``"a, b, c"`` (commas outside parentheses) element by element; otherwise it is kept as
it is (names, hex labels, numbers, French data labels).

Matching
--------
A trailing citation in parentheses — ``"… (MC §6.1; SEED-NOTES D4)"``, ``"… (docs/decisions.md
(hexside lines))"``, anything starting with ``MC``, ``SEED-NOTES`` or ``docs/`` — is set aside
and put back verbatim after the translated body.

**Ordering rule**: templates are tried from the most specific to the least, *specificity*
being the number of literal (non-placeholder) characters; ties keep the file order. The first
template that matches the whole body wins. So ``"{name} is {status} and cannot move"`` is
tried before ``"{name} is {status}"``, and ``"{hex}: {terrain} across the {hexside}, {pm} PM"``
before ``"{hex}: {terrain}, {pm} PM"``. ``tests/test_i18n.py`` checks that no text is claimed
by two templates of equal specificity with different renderings.

A text that no template matches falls back to the English (:func:`missing` tells which).

>>> translate("Raoul is wounded", "fr")
'Raoul est blessé'
>>> translate("target in broussailles (0304): light cover (MC §3.1)", "fr")
'cible en case broussailles (0304) : couverture légère (MC §3.1)'
>>> translate("Raoul is wounded", "en")
'Raoul is wounded'
>>> section_title("MC §6.4", "fr")
'Combat contre des personnages à cheval / 1D10'
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .texts import messages

__all__ = [
    "LANGUAGES", "CatalogueError", "Catalogue", "catalogue", "translate", "missing",
    "translate_event", "event_text", "translate_ruling", "section_title", "step_title", "refs_of", "split_citation",
]

#: Languages the presentation layer offers; ``en`` is the engine's own.
LANGUAGES: tuple[str, ...] = ("en", "fr")
SOURCE = "en"

_PLACEHOLDER = re.compile(r"\{(\w*)(?::(\w*))?\}")
_TARGET_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_TYPES = {
    "": r".*?",
    "raw": r".*?",
    "int": r"[+\-−]?\d+",
    "word": r"[^\s,]+",
}
_CITATION_START = ("MC ", "MC§", "SEED-NOTES", "docs/", "CH ", "CR ")  # CH, CR: editions (their seeds)


class CatalogueError(ValueError):
    """A translation catalogue is malformed (names the file, the entry and the reason)."""


def _kind(name: str) -> str:
    return name.rstrip("0123456789")


@dataclass(frozen=True)
class Template:
    en: str
    out: str
    regex: re.Pattern
    slots: tuple[tuple[str, str, str], ...]  # (name, kind, type) in order of first appearance
    literal: int                              # literal characters: the specificity
    part: bool
    order: int                                # position in the file


def _compile(en: str, out: str, part: bool, order: int, where: str) -> Template:
    if not isinstance(en, str) or not en:
        raise CatalogueError(f"{where}: `en` must be a non-empty string")
    if not isinstance(out, str):
        raise CatalogueError(f"{where}: the translation must be a string")
    pattern = ["^"]
    slots: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    literal = 0
    pos = 0
    for m in _PLACEHOLDER.finditer(en):
        lit = en[pos:m.start()]
        if "{" in lit or "}" in lit:
            raise CatalogueError(f"{where}: stray brace in {en!r}")
        pattern.append(re.escape(lit))
        literal += len(lit)
        name, typ = m.group(1), m.group(2) or ""
        if not name.isidentifier():
            raise CatalogueError(f"{where}: bad placeholder {m.group(0)!r} in {en!r}")
        if typ not in _TYPES:
            raise CatalogueError(f"{where}: unknown placeholder type {typ!r} in {en!r} (known: int, word, raw)")
        if name in seen:
            pattern.append(f"(?P={name})")
        else:
            seen.add(name)
            slots.append((name, _kind(name), typ))
            pattern.append(f"(?P<{name}>{_TYPES[typ]})")
        pos = m.end()
    tail = en[pos:]
    if "{" in tail or "}" in tail:
        raise CatalogueError(f"{where}: stray brace in {en!r}")
    pattern.append(re.escape(tail))
    literal += len(tail)
    pattern.append(r"\Z")
    if literal == 0:
        raise CatalogueError(f"{where}: {en!r} has no literal text (it would match everything)")
    used = set(_TARGET_PLACEHOLDER.findall(out))
    unknown = used - seen
    if unknown:
        raise CatalogueError(f"{where}: the translation of {en!r} uses {', '.join(sorted(unknown))}, "
                             f"which the English lacks")
    stray = _TARGET_PLACEHOLDER.sub("", out)
    if "{" in stray or "}" in stray:
        raise CatalogueError(f"{where}: stray brace in the translation {out!r}")
    return Template(en, out, re.compile("".join(pattern), re.DOTALL), tuple(slots), literal, part, order)


def _split_top(text: str) -> list[str]:
    """Split ``text`` on ``", "`` outside parentheses."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0 and text.startswith(", ", i):
            out.append(text[start:i])
            start = i + 2
            i += 1
        i += 1
    out.append(text[start:])
    return out


def split_citation(text: str) -> tuple[str, str]:
    """``("body", " (MC §6.1; SEED-NOTES D4)")`` — the trailing citation (with its leading
    space) set apart, or ``(text, "")`` when the text ends with none.

    >>> split_citation("odds 8:3 rounded (MC §6)")
    ('odds 8:3 rounded', ' (MC §6)')
    >>> split_citation("Combat (Combat)")
    ('Combat (Combat)', '')
    >>> split_citation("x (MC §2.1 (3))")
    ('x', ' (MC §2.1 (3))')
    """
    if not text.endswith(")"):
        return text, ""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                inner = text[i + 1:-1]
                if i > 0 and text[i - 1] == " " and inner.startswith(_CITATION_START):
                    return text[:i - 1], text[i - 1:]
                return text, ""
    return text, ""


class Catalogue:
    """The compiled templates and words of one language."""

    def __init__(self, lang: str, data: dict, source: str = ""):
        self.lang = lang
        self.source = source or f"{lang}.toml"
        self.templates: list[Template] = []
        for i, entry in enumerate(data.get("msg", [])):
            where = f"{self.source}: [[msg]] #{i + 1}"
            if not isinstance(entry, dict) or lang not in entry or "en" not in entry:
                raise CatalogueError(f"{where}: needs `en` and `{lang}`")
            extra = set(entry) - {"en", lang, "part", "note", "id"}
            if extra:
                raise CatalogueError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
            self.templates.append(_compile(entry["en"], entry[lang], bool(entry.get("part", False)), i, where))
        dup = _duplicates(t.en for t in self.templates)
        if dup:
            raise CatalogueError(f"{self.source}: [[msg]] {dup!r} is defined twice")
        self.words: dict[tuple[str, str], str] = {}
        for i, entry in enumerate(data.get("word", [])):
            where = f"{self.source}: [[word]] #{i + 1}"
            if not isinstance(entry, dict) or not isinstance(entry.get("en"), str) or not isinstance(entry.get(lang), str):
                raise CatalogueError(f"{where}: needs `en` and `{lang}` strings")
            extra = set(entry) - {"en", lang, "kind", "note", "id"}
            if extra:
                raise CatalogueError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
            key = (entry.get("kind", ""), entry["en"])
            if key in self.words:
                raise CatalogueError(f"{where}: word {entry['en']!r} (kind {key[0]!r}) is defined twice")
            self.words[key] = entry[lang]
        # the ordering rule: most literal characters first, then file order
        self.templates.sort(key=lambda t: (-t.literal, t.order))
        self._rank = {id(t): r for r, t in enumerate(self.templates)}
        # index by the first literal word, when the template starts with a whole word
        always: list[Template] = []
        buckets: dict[str, list[Template]] = {}
        for t in self.templates:
            key = _first_word(t.en)
            if key is None:
                always.append(t)
            else:
                buckets.setdefault(key, []).append(t)
        self._always = always
        self._buckets = {k: sorted(v + always, key=lambda t: self._rank[id(t)]) for k, v in buckets.items()}
        self._text_cache: dict[str, str | None] = {}
        self._capture_cache: dict[tuple[str, str], str] = {}

    # --- lookups --------------------------------------------------------------------------
    def candidates(self, body: str) -> list[Template]:
        return self._buckets.get(body.split(" ", 1)[0], self._always)

    def matches(self, body: str, parts: bool = False) -> list[Template]:
        """Every template matching ``body`` (citation already removed), in the order tried."""
        return [t for t in self.templates if (parts or not t.part) and t.regex.match(body)]

    def _render(self, t: Template, m: re.Match) -> str:
        vals: dict[str, str] = {}
        for name, kind, typ in t.slots:
            v = m.group(name)
            vals[name] = v if typ in ("raw", "int") else self.capture(v, kind)
        return _TARGET_PLACEHOLDER.sub(lambda mm: vals[mm.group(1)], t.out)

    def render_with(self, t: Template, body: str) -> str | None:
        m = t.regex.match(body)
        return self._render(t, m) if m else None

    def _match(self, body: str, parts: bool) -> str | None:
        for t in self.candidates(body):
            if t.part and not parts:
                continue
            m = t.regex.match(body)
            if m:
                return self._render(t, m)
        return None

    def capture(self, value: str, kind: str = "") -> str:
        """A captured value in this language: a known word, a text of its own, a list of
        those, or the value unchanged."""
        if not value:
            return value
        key = (kind, value)
        hit = self._capture_cache.get(key)
        if hit is not None:
            return hit
        out = self.words.get(key)
        if out is None and kind:
            out = self.words.get(("", value))
        if out is None:
            out = self._match(value, parts=True)
        if out is None:
            items = _split_top(value)
            out = ", ".join(self.capture(x, kind) for x in items) if len(items) > 1 else value
        if len(self._capture_cache) < 100_000:
            self._capture_cache[key] = out
        return out

    def body(self, body: str) -> str | None:
        """The translation of a whole text without citation, or None."""
        if body in self._text_cache:
            return self._text_cache[body]
        out = self._match(body, parts=False)
        if len(self._text_cache) < 100_000:
            self._text_cache[body] = out
        return out

    def translate(self, text: str) -> str:
        body, citation = split_citation(text)
        out = self.body(body)
        return text if out is None else out + citation

    def missing(self, text: str) -> bool:
        return self.body(split_citation(text)[0]) is None


def _first_word(en: str) -> str | None:
    """The first literal word of a template, if the template starts with a whole word."""
    m = _PLACEHOLDER.search(en)
    prefix = en if m is None else en[:m.start()]
    if m is None:
        return prefix.split(" ", 1)[0]
    if " " not in prefix:
        return None
    return prefix.split(" ", 1)[0]


def _duplicates(items) -> str | None:
    seen = set()
    for x in items:
        if x in seen:
            return x
        seen.add(x)
    return None


def _norm_lang(lang: str) -> str:
    if not isinstance(lang, str):
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    key = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    if key not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return key


def catalogue(lang: str) -> Catalogue:
    """The compiled catalogue of ``lang`` (not ``en``, which needs none), loaded once."""
    lang = _norm_lang(lang)
    if lang == SOURCE:
        raise ValueError("English is the engine's own language: it has no catalogue")
    return _load(lang)


@lru_cache(maxsize=None)
def _load(lang: str) -> Catalogue:
    path = resources.files("oriflamme.rulesets.magna_carta.texts").joinpath(f"{lang}.toml")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"texts/{lang}.toml: {exc}") from exc
    return Catalogue(lang, data, f"texts/{lang}.toml")


# --- the public functions ------------------------------------------------------------------
def translate(text: str, lang: str) -> str:
    """One engine text in ``lang``; the English itself when no template knows it."""
    lang = _norm_lang(lang)
    if lang == SOURCE or not isinstance(text, str) or not text:
        return text
    return catalogue(lang).translate(text)


def missing(text: str, lang: str = "fr") -> bool:
    """Whether ``text`` has no translation in ``lang`` (it would be shown in English)."""
    lang = _norm_lang(lang)
    if lang == SOURCE or not isinstance(text, str) or not text:
        return False
    return catalogue(lang).missing(text)


def _step_text(english: str, step, lang: str) -> str | None:
    """One explanation line in ``lang`` from its step's message id (``{"msg", "params"}``), the
    citation of the English line kept verbatim; None when the step has no (known) id."""
    if not isinstance(step, dict) or not isinstance(step.get("msg"), str) or not messages.known(step["msg"]):
        return None
    params = step.get("params")
    try:
        body = messages.render(step["msg"], params if isinstance(params, dict) else {}, lang)
    except messages.MessageError:
        return None
    return body + split_citation(english)[1]


def translate_ruling(ruling: dict, lang: str, steps: list | None = None) -> dict:
    """A copy of a ruling's JSON (:meth:`oriflamme.rulesets.magna_carta.resolve.ruling.Ruling.to_json`) with its
    ``explanation`` lines and its ``reason`` in ``lang``. The lines whose step has a message id
    (the ruling's ``steps``, or ``steps`` given: an event's ``ruling_steps``) are rendered from
    it; the others are translated by the regex templates."""
    out = copy.deepcopy(ruling)
    if _norm_lang(lang) == SOURCE or not isinstance(out, dict):
        return out
    lang = _norm_lang(lang)
    if steps is None:
        steps = out.get("steps")
    if isinstance(out.get("explanation"), list):
        by_id = steps if isinstance(steps, list) and len(steps) == len(out["explanation"]) else []
        out["explanation"] = [
            x if not isinstance(x, str) else
            (_step_text(x, by_id[i], lang) if by_id else None) or translate(x, lang)
            for i, x in enumerate(out["explanation"])]
    if isinstance(out.get("reason"), str):
        out["reason"] = translate(out["reason"], lang)
    return out


def event_text(event: dict, lang: str) -> str | None:
    """An event's text in ``lang`` rendered from its message id and parameters, or None when
    the event has no (known) ``msg`` — an event of an old record."""
    mid = event.get("msg")
    if not isinstance(mid, str) or not messages.known(mid):
        return None
    params = event.get("params")
    try:
        return messages.render(mid, params if isinstance(params, dict) else {}, _norm_lang(lang))
    except messages.MessageError:
        return None


def translate_event(event: dict, lang: str) -> dict:
    """A copy of a log event with its ``text`` (and its ruling's explanation and reason)
    in ``lang``: from ``msg`` + ``params`` when the event has them, else (events of old
    records) by the regex templates."""
    out = copy.deepcopy(event)
    if _norm_lang(lang) == SOURCE or not isinstance(out, dict):
        return out
    by_id = event_text(out, lang)
    if by_id is not None:
        out["text"] = by_id
    elif isinstance(out.get("text"), str):
        out["text"] = translate(out["text"], lang)
    if isinstance(out.get("ruling"), dict):
        out["ruling"] = translate_ruling(out["ruling"], lang, out.get("ruling_steps"))
    return out


def refs_of(citation: str) -> list[str]:
    """The section ids of a citation string.

    >>> refs_of("MC §6.1, §6.2; SEED-NOTES D3, D4")
    ['MC §6.1', 'MC §6.2', 'SEED-NOTES D3', 'SEED-NOTES D4']
    >>> refs_of("MC §2.1 (3)")
    ['MC §2.1 (3)']
    """
    out: list[str] = []
    for group in (g.strip() for g in citation.split(";")):
        if not group:
            continue
        prefix = ""
        for item in _split_top(group):
            item = item.strip()
            if not item:
                continue
            m = re.match(r"^(MC|SEED-NOTES)\s+(.*)$", item)
            if m:
                prefix = m.group(1)
                out.append(item)
            elif prefix:
                out.append(f"{prefix} {item}")
            else:
                out.append(item)
    return out


def section_title(ref: str, lang: str, ruleset: str = "magna-carta") -> str:
    """The title of the rules section cited by ``ref`` (``"MC §6.4"``, ``"§6.4"``,
    ``"MC §2.1 (3)"``) in ``lang``; ``""`` for an unknown section. The English title falls
    back to the French one where the data has none.

    >>> section_title("MC §2.1 (3)", "en")
    'The game turn'
    >>> section_title("MC §1.2", "en")
    'Les pions représentant des personnages'
    """
    from .rulesdata import load_ruleset

    lang = _norm_lang(lang)
    sections = load_ruleset(ruleset).sections
    key = ref.strip()
    if key.startswith("§"):
        key = "MC " + key
    s = sections.get(key)
    if s is None:
        base = re.sub(r"\s*\([^()]*\)\s*$", "", key)
        s = sections.get(base)
    if s is None:
        return ""
    if lang == "en":
        return s.title_en or s.title
    return s.title


def step_title(step: str, lang: str, ruleset: str = "magna-carta") -> str:
    """The title of a step of the sequence of play (``state.step``: ``offensive_fire``,
    ``movement``, ``melee``) in ``lang``, from :data:`oriflamme.rulesets.magna_carta.engine.turn.STEP_TITLES`.

    >>> step_title("movement", "fr")
    'Mouvement et tir défensif'
    """
    from .engine.turn import step_titles

    lang = _norm_lang(lang)
    t = step_titles(ruleset).get(step)
    if t is None:
        return step
    return t[0] if lang == "en" else t[1]
