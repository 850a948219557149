"""``oriflamme rules diff EDITION BASE``: the rules that differ between an edition and its base
(either order), each side cited, cell by cell for tables; ``--json`` for machines.

It asks the registry's rulesets only (``Ruleset.rules_diff``): any ruleset family that can
compare itself appears here without a change to the CLI.
"""

from __future__ import annotations

import json
import sys

from .catalog import get_ruleset


def register(sub) -> None:
    p = sub.add_parser("rules", help="the rules of a ruleset: 'rules diff EDITION BASE'")
    rsub = p.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    d = rsub.add_parser("diff", help="list every rule that differs between an edition and its base")
    d.add_argument("edition", metavar="EDITION", help="a ruleset id (e.g. cry-havoc, croisades)")
    d.add_argument("base", metavar="BASE", help="the ruleset to compare with (e.g. magna-carta)")
    d.add_argument("--json", action="store_true", help='print {"base", "edition", "differences": [...]}')
    d.set_defaults(func=cmd_diff)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _value(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return "—" if v is None else str(v)


def render_text(d: dict) -> str:
    lines = [f"{d['edition']} ({d.get('edition_title', '')}) against {d['base']} ({d.get('base_title', '')}): "
             f"{len(d['differences'])} rule(s) differ"]
    for x in d["differences"]:
        b, e = x["base"], x["edition"]
        if b is None or e is None:
            side, row = (d["edition"], e) if b is None else (d["base"], b)
            cells = ", ".join(f"{k}={_value(v)}" for k, v in row.items() if k not in ("ref", "note"))
            lines.append(f"{x['rule']}: only in {side} ({row.get('ref', 'no citation')})")
            if cells:
                lines.append(f"    {cells}")
            continue
        lines.append(f"{x['rule']}: {d['base']} ({b.get('ref', '')}) | {d['edition']} ({e.get('ref', '')})")
        for c in x["cells"]:
            lines.append(f"    {c['cell']}: {_value(c['base'])} | {_value(c['edition'])}")
    return "\n".join(lines)


def cmd_diff(args) -> int:
    a = get_ruleset(args.edition, "rules diff")
    b = get_ruleset(args.base, "rules diff") if a is not None else None
    if a is None or b is None:
        return 2
    d = a.rules_diff(b)
    if d is None:
        d = b.rules_diff(a)
    if d is None:
        print(f"rules diff: {a.id} and {b.id} cannot be compared (not editions of one ruleset)", file=sys.stderr)
        return 2
    out = json.dumps(d, ensure_ascii=False, indent=1) if args.json else render_text(d)
    sys.stdout.write(out + "\n")
    return 0
