"""``oriflamme adjudicate [FILE]``: the digital referee on the command line.

Reads one JSON situation (an object) or several (an array) from FILE or stdin and prints the
ruling of each — one object for an object, an array for an array — as UTF-8 JSON. A situation's
``"ruleset"`` field picks the ruleset (default ``magna-carta``) through the registry; all the
adjudication is that ruleset's referee (``Ruleset.adjudicate``); this module only does the I/O.

Bad input (malformed JSON, an unknown kind or field, a wrong type...) prints one line on stderr
naming where and why, prints nothing on stdout, and exits with status 2. Every situation of an
array is checked before any result is printed. An attack or shot the rules forbid is not bad
input: its ruling says ``"legal": false`` with the ``reason`` (exit status 0).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core import jsontext, registry
from ..core.errors import OriflammeError
from .messages import one_line

PROG = "adjudicate"
EXIT_BAD_INPUT = 2

EPILOG = """\
kinds and fields (optional ones in brackets):
  melee         attackers: [{attack, [mounted], [armour], [terrain], [charging], [name]}],
                defenders: [{defence, [mounted], [armour], [terrain], [counter_charging], [name]}],
                [extra_shifts], [weather], [die]     terrain: "-", "0", "+" (a rider: [mark, mark])
  fire          weapon, distance, [shooter: {wounded, in_tree}],
                [target: {mounted, armour, cover}], [weather], [extra_modifiers], [die]
  infiltration  [infiltrator: {mounted, armour, wounded}], [opposer: {mounted, polearm, wounded}], [die]
  jump          [rider: {armour, wounded}], [two_hexes], [die]
  move_cost     terrain, [mover: {mounted, armour}], [hexside], [dead_men], [dead_horses]
  allowance     base, [weather], [indoors]
every kind also takes [ruleset] (default "magna-carta"); other rulesets document their own kinds
(Les Guerres Fleuries: docs/guerres-fleuries/referee-*.md).

  oriflamme adjudicate --modifiers RULESET [--json]
                lists every modifier of every kind of RULESET (id, value, sentence as printed)

example:
  echo '{"kind":"melee","attackers":[{"attack":8}],
         "defenders":[{"defence":3,"armour":true,"terrain":"+"}],"die":5}' | oriflamme adjudicate
"""


def register(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "adjudicate",
        help="referee one JSON situation (or an array of them) and print the ruling as JSON",
        description="Referee one JSON situation, or a JSON array of situations, read from FILE or "
                    "stdin; print each ruling (legality, odds, probabilities, result, explanation, "
                    "citations) as JSON. Bad input: one line on stderr, exit status 2.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE",
                   help="a JSON file; '-' or nothing reads stdin")
    p.add_argument("--modifiers", metavar="RULESET",
                   help="list every modifier of every kind of RULESET (its referee's kind 'modifiers')")
    p.add_argument("--json", action="store_true", help="with --modifiers: print the list as JSON")
    p.set_defaults(func=run)
    return p


def _fail(where: str, message: str) -> int:
    print(one_line(f"{PROG}: {where}: {message}"), file=sys.stderr)
    return EXIT_BAD_INPUT


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    with open(name, "rb") as fh:
        return fh.read()


def adjudicate_one(situation) -> dict:
    """The ruling of one situation by the referee of its ``ruleset`` (default magna-carta)."""
    rid = situation.get("ruleset") if isinstance(situation, dict) else None
    if isinstance(rid, str):
        try:
            rs = registry.get(rid)
        except OriflammeError as exc:
            raise OriflammeError(f"field ruleset: {exc}") from None
    else:  # absent, or of a wrong type: the default ruleset's referee names the field
        rs = registry.get()
    return rs.adjudicate(situation)


def _write(text: str) -> None:
    if hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(text)


def list_modifiers(rid: str, as_json: bool) -> int:
    """``--modifiers RULESET``: the ruleset referee's ``{"kind": "modifiers"}`` answer."""
    try:
        rs = registry.get(rid)
    except OriflammeError as exc:
        return _fail("--modifiers", str(exc))
    try:
        answer = rs.adjudicate({"kind": "modifiers", "ruleset": rs.id})
    except OriflammeError as exc:
        return _fail("--modifiers", f"{rs.id} lists no modifiers ({exc})")
    rows = answer.get("modifiers") if isinstance(answer, dict) else None
    if not isinstance(rows, list):
        return _fail("--modifiers", f"{rs.id} lists no modifiers")
    if as_json:
        _write(json.dumps(answer, ensure_ascii=False, indent=2) + "\n")
        return 0
    lines, kind = [], None
    for m in rows:
        if m.get("kind") != kind:
            kind = m.get("kind")
            lines.append(f"{'' if not lines else chr(10)}[{kind}]")
        value = m.get("value")
        value = f"{value:+d}" if isinstance(value, int) else str(value)
        lines.append(f"  {m.get('id', ''):<36} {value:>6}  {m.get('printed', '')}  ({m.get('ref', '')})")
    _write("\n".join(lines) + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    if getattr(args, "modifiers", None):
        return list_modifiers(args.modifiers, args.json)
    name = args.file
    where = "<stdin>" if name == "-" else name
    try:
        raw = _read(name)
    except OSError as exc:
        return _fail(where, f"cannot read: {exc.strerror or exc}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return _fail(where, f"not UTF-8 text (byte {exc.start})")
    if not text.strip():
        return _fail(where, "empty input: expected a JSON object or an array of them")
    try:
        data = jsontext.loads(text)  # nesting and huge integers refused with a reason
    except jsontext.JsonInputError as exc:
        return _fail(where, str(exc))
    situations = data if isinstance(data, list) else [data]
    rulings = []
    for i, situation in enumerate(situations):  # every one is checked before anything is printed
        try:
            rulings.append(adjudicate_one(situation))
        except OriflammeError as exc:
            return _fail(f"situation {i + 1}", str(exc))
    result: object = rulings if isinstance(data, list) else rulings[0]
    _write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand on its own (``python -m oriflamme.cli.adjudicate``)."""
    parser = argparse.ArgumentParser(prog="oriflamme")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["adjudicate", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
