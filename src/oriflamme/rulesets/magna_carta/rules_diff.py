"""The rules that differ between two rulesets of the Magna Carta family (an edition and its
base, or two editions), computed from the loaded data: rows present on one side only, rows
whose cells differ (cell by cell), the steps of the sequence of play. Each side is cited.

>>> d = rules_diff("cry-havoc", "magna-carta")
>>> d["edition"], d["base"]
('cry-havoc', 'magna-carta')
>>> jump = next(x for x in d["differences"] if x["rule"] == "jump_bands.success")
>>> jump["cells"][0]
{'cell': 'high', 'base': 9, 'edition': 7}
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel

from .rulesdata import Ruleset, load_ruleset

#: fields of :class:`Ruleset` that name it rather than state a rule
IDENTITY = {"id", "title", "title_fr", "base", "packages", "seed", "ref_prefix", "overridden_files"}
#: fields of a row that cite it or comment it: shown with each side, not compared
CITING = {"ref", "note"}
#: the key of a row in a list, by the first of these fields it has
KEYS = (("table", "letter"), ("id",), ("condition",), ("result",), ("mark",), ("band",), ("kind",), ("die",),
        ("letter",), ("table", "column"))


def _key(row: dict, i: int) -> str:
    for fields in KEYS:
        if all(f in row for f in fields):
            return "/".join(str(row[f]) for f in fields)
    return str(i)


def _rules(name: str, value: Any) -> dict[str, dict]:
    """Flatten one field of the ruleset into rules: ``{rule name: row as a dict}``."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {f"{name}.{'/'.join(map(str, k)) if isinstance(k, tuple) else k}": _dump(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, BaseModel) for v in value):
            rows = [_dump(v) for v in value]
            return {f"{name}.{_key(r, i)}": r for i, r in enumerate(rows)}
        return {name: {"value": list(value)}}
    if isinstance(value, BaseModel):
        lists = {f: getattr(value, f) for f in type(value).model_fields
                 if isinstance(getattr(value, f), (list, tuple)) and getattr(value, f)
                 and all(isinstance(x, BaseModel) for x in getattr(value, f))}
        subs = {f: getattr(value, f) for f in type(value).model_fields if isinstance(getattr(value, f), BaseModel)}
        if lists or (subs and "ref" not in type(value).model_fields):
            out: dict[str, dict] = {}
            for f in type(value).model_fields:
                v = getattr(value, f)
                if f in lists or f in subs:
                    out.update(_rules(f"{name}.{f}", v))
            rest = {f: _plain(getattr(value, f)) for f in type(value).model_fields if f not in lists and f not in subs}
            if rest:
                out[name] = rest
            return out
        return {name: _dump(value)}
    return {name: {"value": _plain(value)}}


def _plain(v: Any) -> Any:
    if isinstance(v, BaseModel):
        return v.model_dump(mode="json")
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _dump(v: Any) -> dict:
    return v.model_dump(mode="json") if isinstance(v, BaseModel) else {"value": _plain(v)}


def _flat(d: Any, prefix: str = "") -> dict[str, Any]:
    """``{"rows[3].results[1]": "B", ...}``: the cells of a row."""
    out: dict[str, Any] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(d, list) and any(isinstance(x, (dict, list)) for x in d):
        for i, v in enumerate(d):
            out.update(_flat(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = d
    return out


def all_rules(rs: Ruleset) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in dataclasses.fields(rs):
        if f.name not in IDENTITY:
            out.update(_rules(f.name, getattr(rs, f.name)))
    return out


def _side(row: dict | None, cells: list[str] | None) -> dict | None:
    if row is None:
        return None
    shown = {k: v for k, v in row.items() if cells is None or k.split(".")[0].split("[")[0] in cells or k in CITING}
    return shown


def rules_diff(edition: str, base: str) -> dict:
    """``{"base", "edition", "differences": [{"rule", "base", "edition", "cells"}]}``: ``base``
    and ``edition`` are each side's row (None when absent), with its citation (``ref``);
    ``cells`` lists the cells that differ."""
    a, b = load_ruleset(edition), load_ruleset(base)
    ra, rb = all_rules(a), all_rules(b)
    diffs = []
    for rule in sorted(set(ra) | set(rb), key=lambda r: (r.split(".")[0], r)):
        ea, eb = ra.get(rule), rb.get(rule)
        if ea is None or eb is None:
            diffs.append({"rule": rule, "base": eb, "edition": ea, "cells": []})
            continue
        fa = {k: v for k, v in _flat(ea).items() if k.split(".")[0] not in CITING}
        fb = {k: v for k, v in _flat(eb).items() if k.split(".")[0] not in CITING}
        cells = [{"cell": k, "base": fb.get(k), "edition": fa.get(k)}
                 for k in sorted(set(fa) | set(fb), key=lambda k: (list(ea).index(k.split(".")[0].split("[")[0])
                                                                  if k.split(".")[0].split("[")[0] in ea else 99, k))
                 if fa.get(k) != fb.get(k)]
        if cells:
            tops = {c["cell"].split(".")[0].split("[")[0] for c in cells}
            diffs.append({"rule": rule, "base": _side(eb, tops), "edition": _side(ea, tops), "cells": cells})
    return {"base": b.id, "edition": a.id, "base_title": b.title, "edition_title": a.title,
            "differences": diffs}
