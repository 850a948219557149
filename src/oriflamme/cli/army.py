"""``oriflamme army validate FILE`` and ``oriflamme army show FILE``: an army list checked on
the command line.

The army is a JSON document (``docs/formats.md`` § Army). Its ``"ruleset"`` field (or
``--ruleset``) picks the ruleset through the registry; everything else is the ruleset's army
builder, reached only through the core Ruleset interface (``validate_army``): this module does
the I/O. ``validate`` prints the verdict and each violation with its citation and exits 1 when
the army is invalid; ``show`` prints the army as a readable list with its points. A file that
cannot be read, malformed JSON (with its line and column) or a malformed field: one line on
stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core import registry
from ..core.errors import OriflammeError

PROG = "army"
EXIT_INVALID = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input the command cannot read: the message names where and why."""


def register(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("army", help="check or list an army (a JSON army list)",
                       description="Check an army list against its ruleset's army-building rules, or print it "
                                   "as a readable list with its points.")
    verbs = p.add_subparsers(dest="army_command", metavar="VERB")
    for verb, help_text, func in (
            ("validate", "print the verdict and every violation with its citation (exit 1 when invalid)", cmd_validate),
            ("show", "print the army as a readable list with its points and its violations", cmd_show)):
        v = verbs.add_parser(verb, help=help_text, description=help_text)
        v.add_argument("file", metavar="FILE", help="the army as JSON; '-' reads stdin")
        v.add_argument("--ruleset", metavar="ID", default=None,
                       help="the ruleset (default: the army's \"ruleset\" field, else the only ruleset "
                            "with an army builder)")
        v.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the messages")
        v.add_argument("--json", action="store_true", help="print the verdict as JSON")
        v.set_defaults(func=func)
    p.set_defaults(func=lambda args: (p.print_help(), EXIT_BAD_INPUT)[1])
    return p


def _read(name: str):
    where = "<stdin>" if name == "-" else name
    try:
        raw = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()
    except OSError as exc:
        raise BadInput(f"{where}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{where}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise BadInput(f"{where}: empty file: expected a JSON army (an object)")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{where}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(doc, dict):
        raise BadInput(f"{where}: expected a JSON object (an army), got {type(doc).__name__}")
    return doc


def _ruleset(doc: dict, wanted: str | None):
    rid = wanted or doc.get("ruleset")
    if isinstance(rid, str):
        try:
            rs = registry.get(rid)
        except OriflammeError as exc:
            raise BadInput(f"field ruleset: {exc}") from None
        if not rs.has_army_builder():
            raise BadInput(f"field ruleset: {rs.id} has no army builder")
        return rs
    builders = [rs for rs in registry.all_rulesets() if rs.has_army_builder()]
    if len(builders) != 1:
        raise BadInput("field ruleset: say which ruleset the army is for (\"ruleset\" or --ruleset; with an army "
                       f"builder: {', '.join(rs.id for rs in builders) or 'none'})")
    return builders[0]


def _verdict(args):
    doc = _read(args.file)
    rs = _ruleset(doc, args.ruleset)
    try:
        return doc, rs, rs.validate_army(doc)
    except OriflammeError as exc:
        raise BadInput(f"{'<stdin>' if args.file == '-' else args.file}: {exc}") from None


def _violation_text(v, lang: str) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        msg = v.get("message_fr" if lang == "fr" else "message") or v.get("message", "")
        refs = v.get("citations") or ([v["ref"]] if v.get("ref") else [])
        return f"{msg} ({'; '.join(refs)})" if refs else msg
    return str(v)


def _violations(verdict: dict, lang: str) -> list[str]:
    if lang == "fr" and verdict.get("violation_details"):
        texts = []
        for d in verdict["violation_details"]:
            m = d.get("message_fr", d.get("message", ""))
            texts.append(f"{m[:1].upper()}{m[1:]} ({'; '.join(d.get('citations', []))}).")
        extra = [v for v in verdict.get("violations", []) if not isinstance(v, str)]
        return texts + [_violation_text(v, lang) for v in extra]
    return [_violation_text(v, lang) for v in verdict.get("violations", [])]


WORDS = {"en": {"valid": "VALID", "invalid": "INVALID", "points": "points", "of": "of", "left": "left",
                "over": "over", "shares": "class B {b}, allies {a}, mercenaries {m} of the points",
                "heroes": "{f} warriors: at most {h} heroes", "none": "no violation"},
         "fr": {"valid": "VALIDE", "invalid": "NON VALIDE", "points": "points", "of": "sur", "left": "restants",
                "over": "de trop", "shares": "classe B {b}, alliés {a}, mercenaires {m} des points",
                "heroes": "{f} guerriers : au plus {h} héros", "none": "aucune violation"}}


def _pct(x) -> str:
    return f"{round(x * 100, 1):g} %" if isinstance(x, (int, float)) else "?"


def _summary(verdict: dict, lang: str) -> list[str]:
    w = WORDS[lang]
    total, budget = verdict.get("total_points"), verdict.get("budget")
    head = f"{w['valid'] if verdict.get('valid') else w['invalid']}: {total} {w['points']}"
    if isinstance(budget, int) and isinstance(total, int):
        rest = budget - total
        head += f" {w['of']} {budget} ({abs(rest)} {w['left'] if rest >= 0 else w['over']})"
    out = [head]
    if "class_b_share" in verdict:
        out.append(w["shares"].format(b=_pct(verdict.get("class_b_share")), a=_pct(verdict.get("allied_share")),
                                      m=_pct(verdict.get("mercenary_share"))))
    if "max_heroes" in verdict:
        out.append(w["heroes"].format(f=verdict.get("troop_figures"), h=verdict.get("max_heroes")))
    return out


def _print(text: str) -> None:
    out = text + "\n"
    if hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(out.encode("utf-8"))
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(out)


def _run(args, show: bool) -> int:
    try:
        doc, rs, verdict = _verdict(args)
    except BadInput as exc:
        print(f"{PROG} {args.army_command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        _print(json.dumps(verdict, ensure_ascii=False, indent=2))
        return 0 if verdict.get("valid") else EXIT_INVALID
    lines = []
    if show:
        name = doc.get("name") or "(unnamed army)"
        lines.append(f"{name} — {rs.title}")
        section = None
        for e in verdict.get("entries", []):
            if e.get("section") != section:
                section = e.get("section")
                lines.append(f"{section}:")
            lines.append(f"  {e.get('label', '')}: {e.get('detail', '')} — {e.get('points')} {WORDS[args.lang]['points']}")
    lines += _summary(verdict, args.lang)
    violations = _violations(verdict, args.lang)
    lines += [f"  - {v}" for v in violations] or [f"  {WORDS[args.lang]['none']}"]
    _print("\n".join(lines))
    return 0 if verdict.get("valid") else EXIT_INVALID


def cmd_validate(args) -> int:
    return _run(args, show=False)


def cmd_show(args) -> int:
    return _run(args, show=True)
