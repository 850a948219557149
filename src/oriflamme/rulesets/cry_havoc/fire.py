"""Cry Havoc's fire in two steps (seed 002, ``data/fire_steps.toml``): to hit, then damage.

Step 1: the target is reached ("A") on a modified d10 of 1 to 6 — long range +2, cover +2,
wounded shooter +1, shooter in a tree +1. Step 2, only if reached: a d10 on the damage table,
"Infanterie" or "Cavalerie" by the target — armoured target +2, crossbow -2. Who may shoot whom
(range, line of fire, visibility, total cover, a tree) is Magna Carta's (the engine's lines of
fire and :func:`oriflamme.rulesets.magna_carta.resolve.fire.fire`'s refusals), read with the
edition's weapon ranges.

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> from oriflamme.rulesets.magna_carta.resolve.fire import FireSituation
>>> r = two_step_fire(load_ruleset("cry-havoc"), FireSituation(weapon="arc", distance=12, cover="light"), 2, 4)
>>> r.data["hit"], r.data["to_hit_modified"], r.data["damage"], r.result
(True, 6, 'B', 'B')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from ..magna_carta.resolve.fire import FireSituation, fire as base_fire
from ..magna_carta.resolve.ruling import Ruling, face_keys, outcomes
from ..magna_carta.rulesdata import Ruleset

SIDES = 10
MISS = "-"


def _say(r: Ruling, en: str, fr: str, ref: str) -> None:
    r.say("data.bilingual", {"text_en": en, "text_fr": fr}, ref)


def _table_of(s: FireSituation) -> str:
    return "cavalry" if s.target_mounted else "infantry"


def to_hit_modifiers(rs: Ruleset, s: FireSituation, band: str) -> list:
    """The to-hit modifiers that apply (rows of fire_steps.toml)."""
    fs = rs.fire_steps
    mods = []
    if band == "long":
        mods.append(fs.to_hit_mod("long_range"))
    if rs.find_cover(s.cover) != "none":
        mods.append(fs.to_hit_mod("cover"))
    if s.shooter_wounded:
        mods.append(fs.to_hit_mod("shooter_wounded"))
    if s.shooter_in_tree or "shooter_in_tree" in s.modifiers:
        mods.append(fs.to_hit_mod("shooter_in_tree"))
    return mods


def damage_modifiers(rs: Ruleset, s: FireSituation, weapon_id: str) -> list:
    fs = rs.fire_steps
    mods = []
    if s.target_armour and fs.damage_mod("target_armour"):
        mods.append(fs.damage_mod("target_armour"))
    if weapon_id == "crossbow" and fs.damage_mod("crossbow"):
        mods.append(fs.damage_mod("crossbow"))
    return mods


def two_step_fire(rs: Ruleset, s: FireSituation, hit_die: int | None = None,
                  damage_die: int | Callable[..., int] | None = None) -> Ruling:
    """The ruling of a two-step fire. Without dice: the preview, with the exact probability of
    each result. ``damage_die``: a value, or a function rolling it (asked only if the target is
    reached; given a function of the damage die's faces, ``damage_die(faces)``, where ``faces()``
    gives each face's reading for an enumeration of the outcomes, :func:`~oriflamme.core.dice.roll_keyed`).
    The preview's :attr:`~Ruling.faces` read the to-hit die: reached or missed."""
    fs = rs.fire_steps
    base = base_fire(rs, s, None)  # who may shoot whom: Magna Carta's refusals, the edition's ranges
    if not base.legal:
        return base
    r = Ruling(kind="fire")
    w = rs.find_weapon(s.weapon)
    band = base.data["band"]
    lo, hi = getattr(w, band)
    table = _table_of(s)
    r.data.update(weapon=w.id, distance=s.distance, band=band, table=table, two_step=True)
    _say(r, f"{w.names[0]} at {s.distance} hexes: {'long' if band == 'long' else 'short'} range ({lo}-{hi})",
         f"{w.names[0]} à {s.distance} cases : portée {'longue' if band == 'long' else 'courte'} ({lo}-{hi})", w.ref)
    th = fs.to_hit
    _say(r, f"step 1, to hit: '{th.hit}' on a modified die of {th.low} to {th.high}",
         f"étape 1, atteindre la cible : « {th.hit} » sur un dé modifié de {th.low} à {th.high}", th.ref)
    hit_mod = 0
    for m in to_hit_modifiers(rs, s, band):
        hit_mod += m.value
        _say(r, f"{m.label}: {m.value:+d}", f"{m.label} : {m.value:+d}", m.ref)
    dmg_mods = damage_modifiers(rs, s, w.id)
    dmg_mod = sum(m.value for m in dmg_mods)
    col = "Cavalerie" if table == "cavalry" else "Infanterie"
    _say(r, f"step 2, damage: column '{col}'" + "".join(f", {m.label} {m.value:+d}" for m in dmg_mods),
         f"étape 2, dégâts : colonne « {col} »" + "".join(f", {m.label} {m.value:+d}" for m in dmg_mods),
         "; ".join([fs.damage[0].ref.split(",")[0].rsplit(" ", 1)[0] + " l.199-235"] + [m.ref for m in dmg_mods]))

    def hits(d: int) -> bool:
        return th.low <= d + hit_mod <= th.high

    def damage(d: int) -> str:
        return getattr(fs.damage_row(d + dmg_mod), table)

    p_hit = Fraction(sum(1 for d in range(1, SIDES + 1) if hits(d)), SIDES)
    probs: dict[str, Fraction] = {}
    if p_hit < 1:
        probs[MISS] = 1 - p_hit
    for d in range(1, SIDES + 1):
        k = damage(d)
        probs[k] = probs.get(k, Fraction(0)) + p_hit / SIDES
    r.probabilities = dict(sorted((k, v) for k, v in probs.items() if v))
    r.faces = face_keys(lambda d: "hit" if hits(d) else MISS)  # the damage die has its own faces (below)
    r.data.update(to_hit_modifier=hit_mod, damage_modifier=dmg_mod, p_hit=float(p_hit), p_hit_exact=str(p_hit),
                  cover=rs.find_cover(s.cover), die_modifier=hit_mod)
    r.data["outcomes"] = outcomes(rs.fire_results, table, r.probabilities)
    if hit_die is None:
        return r
    if not 1 <= hit_die <= SIDES:
        return r.refuse(f"die {hit_die} is not a d10 value (1-10)")
    m = hit_die + hit_mod
    r.die, r.modified_die = hit_die, m
    r.data.update(to_hit_die=hit_die, to_hit_modified=m, hit=hits(hit_die))
    if not hits(hit_die):
        r.result = MISS
        r.data["damage"] = None
        res = rs.fire_results[(table, MISS)]
        _say(r, f"to-hit die {hit_die} {hit_mod:+d} = {m}: missed — {res.text_en}",
             f"dé pour atteindre {hit_die} {hit_mod:+d} = {m} : manqué — {res.text}", th.ref)
        return r
    _say(r, f"to-hit die {hit_die} {hit_mod:+d} = {m}: '{th.hit}', the target is reached",
         f"dé pour atteindre {hit_die} {hit_mod:+d} = {m} : « {th.hit} », la cible est atteinte", th.ref)
    if damage_die is None:
        return r
    dd = damage_die(lambda: face_keys(damage)) if callable(damage_die) else damage_die  # the damage die's faces: its letter
    if not 1 <= dd <= SIDES:
        return r.refuse(f"damage die {dd} is not a d10 value (1-10)")
    letter = damage(dd)
    row = fs.damage_row(dd + dmg_mod)
    res = rs.fire_results[(table, letter)]
    r.result = letter
    r.data.update(damage_die=dd, damage_modified=dd + dmg_mod, damage=letter)
    _say(r, f"damage die {dd} {dmg_mod:+d} = {dd + dmg_mod}: row {row.die}, {col}: {letter} — {res.text_en}",
         f"dé de dégâts {dd} {dmg_mod:+d} = {dd + dmg_mod} : ligne {row.die}, {col} : {letter} — {res.text}",
         f"{row.ref}; {res.ref}")
    return r
