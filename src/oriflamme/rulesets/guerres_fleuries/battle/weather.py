"""The weather the spells bring on the table (OR-GF122): *Pluie diluvienne de Tlaloc* (l.1270) and *Vent
d'Ehecatl* (l.1314). The table has no weather of its own; a spell's weather is a lasting effect of the
table itself (:mod:`.lasting`, ``unit`` = :data:`TABLE`), so it replays, clones and round-trips with the
log like every other spell. What it changes is read where it applies:

* the rain (``rain``, a disc of 50 cm diameter around the unit it was cast at, 1d4 turns): the units
  under it do not move (``turn.movers``); the burning buildings under it are put out when it falls;
* the mud the rain leaves (``mud``, the same disc, the whole battle): a unit that starts its move in it
  loses a quarter of its move (``turn.move_budget``);
* the wind (``wind``, the whole table, 2 turns): every shot at −5 and the ranges halved
  (:mod:`.fire_play`); the burning buildings' damage doubled (``buildings_play.burn``); the flyers lose
  a quarter of their move; the mists (*Brume de Tezcatlipoca*) swept away (:mod:`.spell_modifiers`).

The numbers are the spells' rows of ``data/spell_effects.toml``."""

from __future__ import annotations

from fractions import Fraction

from oriflamme.geometry import tabletop

from . import lasting

#: the id the table's own lasting effects are written under (no unit has it)
TABLE = "table"


def wind(state) -> dict | None:
    """The wind of Ehecatl blowing this turn, or None."""
    return lasting.has(state, TABLE, "wind")


def winds(state) -> list[dict]:
    """Every wind cast so far (current or over), oldest first."""
    return [e for e in lasting._entries(getattr(state, "log", [])) if e.get("unit") == TABLE
            and e.get("effect") == "wind"]


def swept(state, e: dict) -> bool:
    """Whether the lasting ``e`` (a mist) was swept away by a wind that blew while it lasted."""
    turn = getattr(state, "turn", 0)
    for w in winds(state):
        if w["from_turn"] > turn:
            continue
        w_end = w["until_turn"] if w["until_turn"] is not None else turn
        e_end = e["until_turn"] if e.get("until_turn") is not None else turn
        if w["from_turn"] <= e_end and e["from_turn"] <= w_end:
            return True
    return False


def _over(e: dict, u) -> bool:
    return tabletop.nearest_distance(tabletop.Point(*e["centre"]), u.footprint()) <= e["radius_cm"]


def rained_on(state, u) -> dict | None:
    """The rain falling on ``u`` this turn (it does not move), or None."""
    return next((e for e in lasting.active(state, TABLE, "rain") if _over(e, u)), None)


def in_mud(state, u) -> dict | None:
    """The mud ``u`` stands in (the rain's ground, for the day), or None."""
    return next((e for e in lasting.active(state, TABLE, "mud") if _over(e, u)), None)


def move_factor(state, u) -> tuple[Fraction, list[dict]]:
    """What is left of ``u``'s move: a quarter off in the mud; a quarter off for a flyer in the wind."""
    factor, steps = Fraction(1), []
    mud = in_mud(state, u)
    if mud is not None:
        factor *= 1 - Fraction(mud["move_lost"])
        steps.append({"text": f"the ground is mud (the rain of Tlaloc): - {mud['move_lost']} of the move",
                      "ref": mud["ref"], "decision": "OR-GF122"})
    w = wind(state)
    if w is not None and getattr(u, "altitude", None) and w.get("move_lost"):
        factor *= 1 - Fraction(w["move_lost"])
        steps.append({"text": f"a flyer in the wind of Ehecatl: - {w['move_lost']} of the move",
                      "ref": w["ref"], "decision": "OR-GF122"})
    return factor, steps


def range_factor(state) -> Fraction:
    """The fraction of the weapons' ranges left (the wind halves them, l.1314)."""
    w = wind(state)
    return Fraction(w["range_factor"]) if w is not None and w.get("range_factor") else Fraction(1)


def fire_damage_factor(state) -> int:
    """How many times the fires' damage counts (the wind doubles it, l.1314)."""
    w = wind(state)
    return int(w.get("damage_factor") or 1) if w is not None else 1
