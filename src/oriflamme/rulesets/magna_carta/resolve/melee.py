"""Melee (Magna Carta chapter 6): odds, column shifts, the tables of §6.4 / §6.5.

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> rs = load_ruleset()
>>> r = melee(rs, [Fighter(8)], [Fighter(3, armour=True, marks=("+",))], die=5)
>>> r.data["odds"], r.data["column"], r.modified_die, r.result
('2-1', '1-1', 6, 'A')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..rulesdata import Ruleset
from .ruling import Ruling, distribution, face_keys, outcomes


@dataclass(frozen=True)
class Fighter:
    """One side's participant as melee sees it.

    ``marks``: the terrain marks of the hex(es) he stands on — one hex's marks add up (a
    two-handed axe user on "−" terrain counts −2, SEED-NOTES D4); a rider lists each of his two
    hexes as a separate tuple in ``hexes`` instead, and counts the worse (§6.1).
    """

    strength: int
    mounted: bool = False
    armour: bool = False
    marks: tuple[str, ...] = ("0",)
    hexes: tuple[tuple[str, ...], ...] = ()
    charging: bool = False          # attacker charging (§7.6.3)
    counter_charging: bool = False  # defender counter-charging (§7.6.3)
    name: str = ""


def _mark_value(rs: Ruleset, marks: Sequence[str]) -> int:
    return sum(rs.terrain_marks[m].value for m in marks)


def fighter_terrain(rs: Ruleset, f: Fighter) -> int:
    if f.hexes:
        return min(_mark_value(rs, h) for h in f.hexes)
    return _mark_value(rs, f.marks)


def _fmt_mark(v: int) -> str:
    return {-1: "-", 0: "0", 1: "+"}.get(v, f"{v:+d}")


def _boost(value: int, mult: tuple[int, int]) -> int:
    return value * mult[0] // mult[1]


def melee(
    rs: Ruleset,
    attackers: Sequence[Fighter],
    defenders: Sequence[Fighter],
    extra_shifts: Sequence[int] = (),
    weather: str | None = None,
    die: int | None = None,
    cited_shifts: Sequence[tuple[int, str, str]] = (),
) -> Ruling:
    """Adjudicate one attack. Without ``die``: legality, odds and probabilities only.
    ``cited_shifts``: (shift, explanation, ref) of rules the engine found (e.g. camels, §4.6.8)."""
    r = Ruling(kind="melee")
    if not attackers or not defenders:
        return r.refuse("an attack needs at least one attacker and one defender", "MC §6")
    mounted_def = [d.mounted for d in defenders]
    if any(mounted_def) and not all(mounted_def):
        return r.refuse("a group mixing mounted and foot defenders cannot be attacked as one group",
                        "MC §6.2; SEED-NOTES D3")
    vs_mounted = all(mounted_def)
    table_id = "vs_mounted" if vs_mounted else "vs_foot"
    table = rs.melee_tables[table_id]
    lost = rs.fallbacks.get("melee") if rs.fallbacks is not None else None
    if lost is not None:  # an edition whose melee tables are lost (Cry Havoc): said in the ruling
        r.say("data.bilingual", {"text_en": lost.text_en, "text_fr": lost.text_fr}, lost.ref)
        r.data["table_lost"] = {"en": lost.text_en, "fr": lost.text_fr, "used": lost.used}

    # --- strengths, charges (§7.6.3, D17) ------------------------------------------------------
    ch = rs.charge
    attack = 0
    for a in attackers:
        s = a.strength
        if a.charging:
            s2 = _boost(s, ch.attack_multiplier)
            r.step(f"{a.name or 'attacker'} charges: attack {s} + 50 % = {s2} (rounded down)", ch.ref)
            s = s2
        attack += s
    defence = 0
    for d in defenders:
        s = d.strength
        if d.counter_charging:
            s2 = _boost(s, ch.defence_multiplier)
            r.step(f"{d.name or 'defender'} counter-charges: defence {s} + 50 % = {s2} (rounded down)", ch.ref)
            s = s2
        defence += s
    swapped = False
    if any(a.charging for a in attackers) and any(d.counter_charging for d in defenders) and defence > attack:
        swapped = True
        r.step(f"the counter-charger's defence {defence} is strictly greater than the charge's attack "
               f"{attack}: roles are swapped, potentials kept; results unfavourable to the "
               f"counter-charger are ignored", ch.ref)
        attack, defence = defence, attack
        # the counter-charger now attacks: terrain, numbers and armour follow the new roles
        attackers, defenders = defenders, attackers
        mounted_def = [d.mounted for d in defenders]
        vs_mounted = all(mounted_def)
        table_id = "vs_mounted" if vs_mounted else "vs_foot"
        table = rs.melee_tables[table_id]
    r.data["swapped"] = swapped
    if len(attackers) > 1:
        r.step(f"attack strengths added: {' + '.join(str(a.strength) for a in attackers)} = {attack}", "MC §6.2")
    if len(defenders) > 1:
        r.step(f"defence strengths added: {' + '.join(str(d.strength) for d in defenders)} = {defence}", "MC §6.2")
    if defence <= 0:
        return r.refuse("the defence strength must be positive", "MC §6")

    # --- odds (§6: rounded for the defender; below 1-1 impossible, D2) --------------------------
    raw = attack // defence
    r.data["attack"] = attack
    r.data["defence"] = defence
    r.data["odds"] = f"{raw}-1" if raw >= 1 else f"{attack}:{defence}"
    r.data["table"] = table_id
    if raw < rs.odds.min_column:
        return r.refuse(f"odds {attack}:{defence} are below 1-1: the attack is impossible", "MC §6; SEED-NOTES D2")
    r.say("melee.odds", {"a": attack, "d": defence, "raw": raw}, "MC §6")

    # --- column shifts ----------------------------------------------------------------------
    shift = 0
    att_v = min(fighter_terrain(rs, a) for a in attackers)
    def_v = min(fighter_terrain(rs, d) for d in defenders)
    t_shift = att_v - def_v
    # the message says which sides read their least advantageous terrain
    least = "".join(("_a" if len(attackers) > 1 or any(a.hexes for a in attackers) else "",
                     "_d" if len(defenders) > 1 or any(d.hexes for d in defenders) else ""))
    r.say(f"melee.terrain{least}", {"am": _fmt_mark(att_v), "dm": _fmt_mark(def_v), "shift": f"{t_shift:+d}"},
          "MC §6.1, §6.2; SEED-NOTES D3, D4")
    shift += t_shift
    sa = rs.several_attackers
    if len(attackers) > 1:
        if vs_mounted and sum(1 for a in attackers if a.mounted) < sa.min_mounted_vs_mounted:
            r.step("several attackers, but against a rider the shift needs at least two mounted attackers: no shift",
                   "MC §6.2, §6.4; SEED-NOTES D3")
        else:
            r.step(f"several attackers: {sa.shift:+d} column", sa.ref)
            shift += sa.shift
    if weather is not None:
        w = rs.find_weather(weather)
        if w.combat == "-":
            r.step(f"weather {w.names[0]}: -1 column", "MC §3.2; SEED-NOTES D5")
            shift -= 1
    for s, text, ref in cited_shifts:
        r.step(text, ref)
        shift += s
    for s in extra_shifts:
        r.step(f"other shift {s:+d} column(s)", "")
        shift += s
    col = raw + shift
    r.data["shift"] = shift
    if col < rs.odds.min_column:
        r.data["column"] = f"{col}-1" if col >= 1 else "below 1-1"
        return r.refuse(f"after shifts the column is below 1-1: the attack is impossible", "MC §6; SEED-NOTES D2")
    if col > rs.odds.max_column:
        r.step(f"column {col}-1 is beyond the table: resolved on {rs.odds.max_column}-1", "SEED-NOTES D1")
        col = rs.odds.max_column
    r.data["column"] = table.columns[col - 1]
    r.data["column_index"] = col
    r.say(f"melee.column.{table_id}", {"column": table.columns[col - 1]}, table.ref)

    # --- die (§6.3 armour +1, capped at 10) ------------------------------------------------
    die_mod = 0
    if all(d.armour for d in defenders):
        die_mod = rs.melee_die.armour_modifier
        r.say("melee.armour_all" if len(defenders) > 1 else "melee.armour", {"n": die_mod}, "MC §6.3")
    elif any(d.armour for d in defenders):
        r.step("not all defenders are armoured: no die modifier", "MC §6.3; SEED-NOTES D3")
    r.data["die_modifier"] = die_mod

    def letter(d: int) -> str:
        m = min(d + die_mod, rs.melee_die.max)
        cell = table.rows[m - 1][col - 1] or "-"
        if swapped and cell in ("A", "B"):
            return "-"
        return cell

    r.probabilities = distribution(letter)
    r.faces = face_keys(letter)
    r.data["outcomes"] = outcomes(rs.melee_results, table_id, r.probabilities)
    if die is not None:
        if not 1 <= die <= 10:
            return r.refuse(f"die {die} is not a d10 value (1-10)", "MC §6")
        m = min(die + die_mod, rs.melee_die.max)
        r.die, r.modified_die = die, m
        r.result = letter(die)
        res = rs.melee_results.get((table_id, r.result))
        text = res.text if res else "Pas d'effet"
        ref = res.ref if res else table.ref
        r.say("melee.die", {"die": f"{die}{f' +{die_mod}' if die_mod else ''}", "m": m, "result": r.result, "text": text},
              ref)
    return r


def defender_table(defenders_mounted: bool) -> str:
    return "vs_mounted" if defenders_mounted else "vs_foot"
