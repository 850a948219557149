"""``"kind": "melee"``: one side's blows in a melee (GF Les combats > Procédure de combat; Mêlée > PBC).

``{"attacker", "attacker_class"?, "weapon"? (none for creatures and monsters), "target_armour",
"figures_in_contact", "ranks"?, "attacker_disordered"?, "target", "modifiers", "character"?,
"force_divine"?, "d100"?}`` -> ``base_pct``, ``rank_bonus``, ``modifier_total``, ``pmc``,
``multiplied_pct``, ``eliminated``, ``residual_pct``, ``extra_if_d100_at_most`` (GF-H1)."""

from __future__ import annotations

from fractions import Fraction

from .. import beings
from .. import fire as fd
from .. import melee as md
from .. import modifiers
from ..names import RefereeError, match
from . import Ruling, kind
from ._checks import boolean, integer, known
from ._mods import casualties, gather, row_decision

FIELDS = {"attacker", "attacker_class", "weapon", "target_armour", "figures_in_contact", "ranks",
          "attacker_disordered", "target", "modifiers", "character", "force_divine", "d100"}
FLANK_OR_REAR = {"flank", "rear"}
EXTRA_CLASSES = {"bestial": ["bestial", "bestiale", "bestial troops"],
                 "personnage": ["personnage", "character", "héros", "hero"]}


def _attacker_class(text) -> str:
    every = {**beings.choices(beings.classes()), **EXTRA_CLASSES}
    return match("attacker_class", text, every)


@kind("melee")
def melee(situation: dict) -> dict:
    known(situation, FIELDS)
    r = Ruling("melee")
    sort, aid = beings.mover("attacker", situation.get("attacker"))
    name = beings.printed_name(aid)
    armour = match("target_armour", situation.get("target_armour"), fd.choices(fd.armours()))
    target = fd.targets()[match("target", situation.get("target", "unit"), fd.choices(fd.targets()))]
    figures = integer(situation, "figures_in_contact", 0, 1000)
    ranks = integer(situation, "ranks", 1, 50, required=False, default=1)
    disordered = boolean(situation, "attacker_disordered")
    d100 = integer(situation, "d100", 1, 100, required=False)
    if sort == "race":
        if situation.get("weapon") is None:
            raise RefereeError(f"field weapon: missing ({', '.join(w.names[0] for w in md.weapons().values())})")
        wid = match("weapon", situation["weapon"], {w.id: list(w.names) for w in md.weapons().values()})
        row = md.pbc().get((aid, wid))
        if row is None:
            raise RefereeError(f"field weapon: {md.weapons()[wid].names[0]!r} has no PBC for {name} "
                               f"(GF Mêlée > Pourcentage de Base au Combat)")
    else:
        if situation.get("weapon") is not None:
            raise RefereeError(f"field weapon: {name} fights without a weapon (its own PBC is printed)")
        wid, row = None, md.pbc()[(aid, None)]
    base = getattr(row, armour)
    r.step(f"{name}{' ' + md.weapons()[wid].names[0] if wid else ''} against "
           f"{fd.armours()[armour].names[0]}: PBC {base} %", row.ref, row_decision(row.decision, armour))
    if boolean(situation, "force_divine"):
        base *= 2
        r.step(f"Force divine (or Pouvoir des ténèbres): the PBC is doubled before the modifiers: {base} %",
               "GF seed 003 l.1228, l.1290", "GF-H5")

    implied = []
    cls = None
    if situation.get("attacker_class") is not None:
        cls = _attacker_class(situation["attacker_class"])
        if sort != "race":
            raise RefereeError(f"field attacker_class: {name} has no troop class")
        if cls in ("A", "fanatique", "bestial", "personnage"):
            what = {"A": "class A", "fanatique": "a fanatic", "personnage": "a character"}.get(cls, cls)
            implied.append(("class_a_fanatic_bestial_character", 1, f"the attacker is {what}"))
        elif cls == "C":
            implied.append(("class_c", 1, "the attacker is class C"))
    if target.id == "monster" and row.modifiers == "melee":
        implied.append(("enemy_monster", 1, "the enemy is a monster (GF-H3)"))
    if target.id in ("creature", "monster") and row.modifiers in ("melee_creatures", "melee_pteradon"):
        implied.append(("fights_creature_or_monster", 1, f"the enemy is a {target.id}"))
    implied += _disordered_by_the_attack(situation.get("modifiers"), row.modifiers, target.id, cls,
                                         situation.get("character"))
    cm = 0
    if cls == "personnage":
        character = situation.get("character")
        if isinstance(character, dict) and isinstance(character.get("CM"), int):
            cm = character["CM"]
            r.step(f"the character's combat modifier adds to his PBC: {cm:+d}", "GF-B12")

    # rank bonus (GF-H1)
    if sort == "race":
        bonus = md.bonus_for_ranks(ranks, disordered)
        rb = md.rank_bonus()
        why = "disordered: no rank bonus" if disordered and ranks > 1 else \
            f"{ranks} rank(s): +{rb.per_rank} per rank beyond the first, at most {rb.max}"
        r.step(f"{why} = +{bonus}", rb.ref, rb.decision)
    else:
        bonus = 0
        if ranks > 1:
            raise RefereeError(f"field ranks: {name} fights alone: the rank bonus is the troops' (GF-H1)")
    total, terms = gather(row.modifiers, situation.get("modifiers"), implied, situation.get("character"), r,
                          forbidden={"per_extra_rank": "ranks"})
    pmc = base + cm + bonus + total
    multiplied = pmc * figures
    r.step(f"PMC {base}{f' {cm:+d}' if cm else ''} {bonus:+d} {total:+d} = {pmc} %; × {figures} figures in "
           f"contact = {multiplied} %", "GF seed 003 l.1548-1551", "GF-H1")
    final = Fraction(max(multiplied, 0))
    if multiplied < 0:
        r.step("a negative percentage is 0", "GF-E5")
    r.fields.update({"attacker": name, "weapon": wid, "target": target.id, "target_armour": armour,
                     "casualties": target.casualties, "base_pct": base, "rank_bonus": bonus,
                     "modifier_total": total + cm, "modifiers_applied": terms, "pmc": pmc,
                     "multiplied_pct": multiplied})
    casualties(r, final, target, d100, "GF seed 003 l.1551", "GF seed 003 l.995")
    return r.to_json()


def _disordered_by_the_attack(given, table: str, target: str, cls: str | None, character) -> list[tuple]:
    """GF-H6: a unit attacked in the flank or the rear is disordered, so "+ enemy in disorder" applies
    too; not when a character attacks (l.983), and a creature or monster only from the rear."""
    if not isinstance(given, list) or target == "character" or cls == "personnage":
        return []
    _, terms = modifiers.applied(table, given, character)
    ids = {t["modifier"] for t in terms}
    hit = ids & ({"rear"} if target in ("creature", "monster") else FLANK_OR_REAR)
    if not hit:
        return []
    return [("enemy_disordered", 1, f"attacked in the {' and '.join(sorted(hit))}, the enemy is disordered "
                                    f"(GF seed 003 l.983, GF-H6)", "GF seed 003 l.983", "GF-H6")]
