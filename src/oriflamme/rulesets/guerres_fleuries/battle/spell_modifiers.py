"""The spells' lasting modifiers on fire, melee and reaction tests (GF La magie, seed 003 l.1186, l.1228,
l.1234, l.1252, l.1276, l.1290, l.1308; OR-GF120). :mod:`.spells` writes them in the log as lasting
effects (:mod:`.lasting`); the situations of :mod:`.fire_play`, :mod:`.melee_play` and :mod:`.reactions`
read them here, so the previews (the percentage before the roll) and the rolls read the same modifiers:

* ``fire_modifier`` on a shooter (*Malédiction*, *Possession*, *Secousses telluriques*);
* ``melee_modifier`` on a striker (*Malédiction*, *Possession*);
* ``attacked_modifier`` on a target, read by every shot and strike at it (*Brume de Tezcatlipoca*);
* ``double_pbc`` on a striker (*Force divine*, *Pouvoir des ténèbres*: the melee referee's ``force_divine``,
  GF-H5);
* ``reaction_modifier`` on a unit testing its reaction (*Hurlement*, GF-C1).

The modifiers are rows of ``data/modifiers/<table>.toml`` (the printed sentence, its value, its line), so
the referee's explanation lists them with their citations. A modifier counts once however many times
its spell was cast (OR-GF120). A ``floor`` (*Malédiction*'s "score minimal de 20%") takes the modifier's
points one by one (its row's value is −1; the ``cap``, the printed 30, is the spell's row) down to the floor at most,
from the percentage the referee rules without it (fire: the modified PBT, melee: the PMC)."""

from __future__ import annotations

from .. import modifiers as mods
from ..magic import data as magic_data
from ..referee import adjudicate
from . import lasting, weather

DOUBLE_FIELD = "force_divine"


def _n(u) -> str:
    return u.name or u.id


def _spell(e: dict) -> str:
    sp = magic_data().spells.get(e.get("spell") or "")
    return sp.printed if sp else (e.get("spell") or "a spell")


def _until(e: dict) -> str:
    return "for the whole battle" if e.get("until_turn") is None else f"until turn {e['until_turn']}"


def _entries(state, shooter_or_striker, target, own: str) -> list[tuple[dict, str]]:
    """The lasting modifiers that apply, each once: the attacker's ``own`` ones, then the target's
    ``attacked_modifier``; with the sentence saying why."""
    out, seen = [], set()
    for e in lasting.active(state, shooter_or_striker.id, own):
        if e.get("modifier") not in seen:
            seen.add(e.get("modifier"))
            out.append((e, f"{_n(shooter_or_striker)} is under « {_spell(e)} » ({_until(e)})"))
    if target is not None:
        for e in lasting.active(state, target.id, "attacked_modifier"):
            if weather.swept(state, e):  # "Tous les sorts de nuages, brouillards, etc. sont balayés" (l.1314)
                continue
            if e.get("modifier") not in seen:
                seen.add(e.get("modifier"))
                out.append((e, f"{_n(target)} is blurred by « {_spell(e)} » ({_until(e)})"))
    return out


def _apply(sit: dict, table: str, entries, why: list[str], score_field: str) -> None:
    """Add the modifiers of ``entries`` to ``sit`` (those ``table`` prints), the floored ones last, their
    count read from the ruling without them."""
    rows = mods.modifiers(table)
    given = list(sit.get("modifiers") or [])
    floored = []
    for e, reason in entries:
        mid = e.get("modifier")
        if mid not in rows or any(g.get("modifier") == mid for g in given):
            continue
        if e.get("floor") is not None:
            floored.append((e, reason))
            continue
        given.append({"modifier": mid})
        why.append(f"{reason}: {rows[mid].value:+d}")
    if given:
        sit["modifiers"] = given
    for e, reason in floored:
        mid, floor = e["modifier"], e["floor"]
        row = rows[mid]
        score = adjudicate(sit).get(score_field)
        cap = e.get("cap") or 1
        count = 0 if score is None else max(0, min(cap, int(score) - floor))
        if not count:
            why.append(f"{reason}: his percentage ({score}) is already at or below {floor}: no more taken")
            continue
        given.append({"modifier": mid, "count": count})
        sit["modifiers"] = given
        why.append(f"{reason}: {row.value * count:+d} ({cap} at most, not below {floor}: from {score})")


def fire(state, u, t, sit: dict, why: list[str]) -> None:
    """Add to the fire situation of ``u`` shooting at ``t`` the spells' modifiers (in place)."""
    entries = _entries(state, u, t, "fire_modifier")
    w = weather.wind(state)
    if w is not None and w.get("modifier"):
        entries.append((w, f"the wind of « {_spell(w)} » blows ({_until(w)})"))
    if entries:
        _apply(sit, "fire", entries, why, "modified_pct")


def melee(state, a, b, sit: dict, why: list[str], table: str) -> None:
    """Add to the melee situation of ``a`` striking ``b`` the spells' modifiers and the doubled PBC (in
    place); ``table`` is the modifier list ``a``'s PBC row reads."""
    double = lasting.active(state, a.id, "double_pbc")
    if double:
        sit[DOUBLE_FIELD] = True
        e = double[0]
        why.append(f"{_n(a)} is under « {_spell(e)} » ({_until(e)}): his PBC is doubled ({e['ref']})")
    entries = _entries(state, a, b, "melee_modifier")
    if entries:
        _apply(sit, table, entries, why, "pmc")


def reaction(state, u, sit: dict, why: list[str], table: str) -> None:
    """Add to a reaction test's situation the spells' modifiers on ``u`` (in place)."""
    entries = _entries(state, u, None, "reaction_modifier")
    if entries:
        _apply(sit, table, entries, why, "threshold")


def citations(state, *units) -> list[str]:
    """The lines of the spells lasting on ``units`` that the situations above read."""
    kinds = ("fire_modifier", "melee_modifier", "attacked_modifier", "double_pbc", "reaction_modifier")
    return list(dict.fromkeys(e["ref"] for u in units if u is not None
                              for e in lasting.active(state, u.id) if e.get("effect") in kinds))
