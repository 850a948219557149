"""The curses of magic weapons the battle plays on the table (GF Table des malédictions, seed 003
l.203-218; ``data/curses_play.toml``): Possession's d100 each turn its bearer fights or fires (l.211:
his brigade dissolved, and for two turns he takes no order and charges the nearest enemy in reach,
OR-GF136), and Mauvais œil (l.218: the units of his brigade or under his direct control fail their
reaction tests, OR-GF137). Horreur (l.206) is :mod:`.brigades`' (no brigade)."""

from __future__ import annotations

from functools import lru_cache

from ..rows import Row, one
from . import brigades
from .actions import emit
from .state import Battle, Unit

FILE = "curses_play.toml"


class Possession(Row):
    curse: str
    die: int
    at_most: int
    turns: int
    printed: str
    text_en: str


class EvilEye(Row):
    curse: str
    printed: str
    text_en: str


@lru_cache(maxsize=None)
def possession_rule() -> Possession:
    return one(Possession, FILE, "possession")


@lru_cache(maxsize=None)
def evil_eye_rule() -> EvilEye:
    return one(EvilEye, FILE, "evil_eye")


def bears(u: Unit | None, curse: str) -> bool:
    return u is not None and brigades._same(u.curse, curse)


# --- Possession (l.211, OR-GF136) -----------------------------------------------------------------------
def possessed(state: Battle, u: Unit) -> bool:
    """The weapon controls ``u`` this turn."""
    until = state.command.get("possessed", {}).get(u.id)
    return until is not None and state.turn <= until


def fought_or_fired(state: Battle, u: Unit) -> bool:
    """A blow of his in this turn's melee or a volley of his in its fire phase ("tour de combat/tir")."""
    for ev in reversed(state.log):
        if ev.get("turn") != state.turn:
            break
        if ev.get("unit") == u.id and (ev.get("type") == "melee" or (ev.get("type") == "fire" and ev.get("target"))):
            return True
    return False


def roll_possession(state: Battle) -> None:
    """End of the melee phase: each bearer of Possession who fought or fired this turn rolls d100 (the
    chance shown first); at most 20 the weapon takes him for the next two turns and his brigade is
    dissolved (l.211, OR-GF136)."""
    rule = possession_rule()
    for c in sorted(state.units.values(), key=lambda u: u.id):
        if c.kind != "character" or not c.alive or not bears(c, rule.curse) or possessed(state, c):
            continue
        if not fought_or_fired(state, c):
            continue
        chance = rule.at_most / rule.die
        d100 = state.dice.roll(rule.die)
        taken = d100 <= rule.at_most
        steps = [f"{c.name}'s weapon is cursed with Possession: d{rule.die} each turn of combat or fire, "
                 f"{rule.at_most} or less and it takes control of him for {rule.turns} turns",
                 f"chance: {chance:.0%}", f"d{rule.die} {d100}: " + ("the weapon takes him" if taken else "he keeps control")]
        if taken:
            state.command.setdefault("possessed", {})[c.id] = state.turn + rule.turns
            steps.append(f"turns {state.turn + 1} to {state.turn + rule.turns}: he takes no order; he charges the nearest "
                         "enemy within his charge reach (the random move is not played, OR-GF136)")
        emit(state, "curse", f"{c.name}: Possession, d{rule.die} {d100} against {rule.at_most} ({chance:.0%}) — "
             + ("the weapon takes control of him for " + str(rule.turns) + " turns" if taken else "he keeps control"),
             f"{c.name} : Possession, d{rule.die} {d100} contre {rule.at_most} ({chance:.0%}) — "
             + (f"l'arme prend le contrôle du porteur pour {rule.turns} tours" if taken else "il garde le contrôle"),
             side=c.side, ref=rule.ref, decision=rule.decision, unit=c.id, curse="possession", d100=d100,
             chance=chance, result="taken" if taken else "resisted",
             ruling={"explanation": steps, "citations": [rule.ref, rule.decision]})
        if taken and c.id in brigades.active(state):
            brigades.possession(state, c.id)


def possessed_orders(state: Battle, charge_targets) -> None:
    """Phase 3, after the sides' orders: each possessed character charges the nearest enemy within his
    charge reach (``charge_targets(state, u)``: the orders' list, nearest first), or has no order."""
    rule = possession_rule()
    for c in sorted(state.units.values(), key=lambda u: u.id):
        if c.kind != "character" or not c.alive or c.status != "ok" or not possessed(state, c):
            continue
        targets = charge_targets(state, c)
        if targets:
            t = state.units[targets[0][0]]
            c.order, c.target, c.fire_targets = "charger", t.id, []
            emit(state, "possessed", f"{c.name} is possessed by his weapon: he charges {t.name}, the nearest enemy in reach",
                 f"{c.name} est possédé par son arme : il charge {t.name}, l'ennemi le plus proche à portée",
                 side=c.side, ref=rule.ref, decision=rule.decision, unit=c.id, target=t.id)
        else:
            c.order, c.target, c.fire_targets = None, None, []
            emit(state, "possessed", f"{c.name} is possessed by his weapon: no enemy within his charge reach, he does "
                 "nothing", f"{c.name} est possédé par son arme : aucun ennemi à distance de charge, il ne fait rien",
                 side=c.side, ref=rule.ref, decision=rule.decision, unit=c.id)


# --- Mauvais œil (l.218, OR-GF137) ----------------------------------------------------------------------
def evil_eye(state: Battle, u: Unit) -> Unit | None:
    """The character cursed with Mauvais œil whose brigade ``u`` stands in or who controls it directly."""
    curse = evil_eye_rule().curse
    for cid in (u.led_by, u.brigade):
        c = state.units.get(cid or "")
        if c is not None and c.alive and bears(c, curse):
            return c
    return None
