"""Army-building violations: one cited sentence each, in English and French, built from the
constraint rows of ``data/army.toml`` (the numbers and the texts are data)."""

from __future__ import annotations

from .army_rows import constraints


def pct(x: float) -> str:
    return f"{round(x * 100, 1):g} %"


def violation(rule: str, where: str = "", **fill) -> dict:
    """``{"rule", "where", "message", "message_fr", "citations"}`` of the constraint ``rule``."""
    c = constraints()[rule]
    value = c.value
    if isinstance(value, float) and value < 1:
        shown = pct(value)
    elif isinstance(value, float) and value.is_integer():
        shown = str(int(value))
    else:
        shown = "" if value is None else str(value)
    fill = {"where": where, **fill}
    fill.setdefault("value", shown)
    cites = [c.ref, *(c.decision.split(", ") if c.decision else [])]
    return {"rule": rule, "where": where,
            "message": c.message_en.format(**fill), "message_fr": c.message_fr.format(**fill),
            "citations": cites}


def sentence(v: dict, lang: str = "en") -> str:
    """The violation as one sentence citing its rule: ``"… (GF …, seed 003 l.32; GF-B2)"``."""
    text = v["message_fr"] if lang == "fr" else v["message"]
    text = text[:1].upper() + text[1:]
    return f"{text} ({'; '.join(v['citations'])})."
