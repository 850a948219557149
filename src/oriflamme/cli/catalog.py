"""``oriflamme rulesets`` and ``oriflamme scenarios``: what this installation can play.

Both read only the registry (:mod:`oriflamme.core.registry`) and the rulesets' ``info`` and
``scenario_info``: a new ruleset package appears here without a change to the CLI.
"""

from __future__ import annotations

import json
import sys

from ..core import registry
from ..core.errors import OriflammeError


def register(sub) -> None:
    p = sub.add_parser("rulesets", help="list the installed rulesets (rule systems and editions)")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.set_defaults(func=cmd_rulesets)
    p = sub.add_parser("scenarios", help="list the bundled scenarios of a ruleset")
    p.add_argument("--ruleset", metavar="ID", default=registry.DEFAULT,
                   help=f"the ruleset (default {registry.DEFAULT}; see 'oriflamme rulesets')")
    p.set_defaults(func=cmd_scenarios)


def get_ruleset(ruleset_id: str, prog: str):
    """The ruleset of this id, or None after printing one line (the caller exits with 2)."""
    try:
        return registry.get(ruleset_id)
    except OriflammeError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None


def cmd_rulesets(args) -> int:
    found = registry.all_rulesets()
    if args.json:
        out = {"rulesets": [{k: rs.info().get(k) for k in ("id", "title", "title_fr", "scenarios")} for rs in found]}
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    for rs in found:
        info = rs.info()
        base = f" (edition of {info['base']})" if info.get("base") else ""
        print(f"{info['id']:<14} {info['title']}{base} — scenarios: {', '.join(info['scenarios']) or 'none'}")
    return 0


def cmd_scenarios(args) -> int:
    rs = get_ruleset(args.ruleset, "scenarios")
    if rs is None:
        return 2
    for sid in rs.scenario_ids():
        try:
            info = rs.scenario_info(sid).to_json()
        except OriflammeError as exc:
            print(f"scenarios: {exc}", file=sys.stderr)
            return 1
        facts = []
        if isinstance(info.get("size"), list) and len(info["size"]) == 2:
            facts.append(f"{info['size'][0]}×{info['size'][1]} hexes")
        if info.get("turns"):
            facts.append(f"{info['turns']} turns")
        tail = f" ({', '.join(facts)})" if facts else ""
        desc = f" — {info['description']}" if info.get("description") else ""
        print(f"{sid:<14} {info['name']}{desc}{tail}")
    return 0
