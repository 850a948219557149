"""« Possession de Coyolxauhqui » on the table (GF La magie, seed 003 l.1278-1284; OR-GF127, OR-GF128):
"Le prêtre « prend possession » d'un personnage ennemi. Il doit obéir à chaque ordre du prêtre sauf s'il
réussit un jet de résistance de 20% + son FC (score inférieur) et rompt l'envoûtement. Le sort est rompu
si le personnage est blessé/tué ou si le prêtre annule le sort. On peut lui demander de faire quelque chose
d'incohérent tel qu'une avance incontrôlée ou un mouvement de retraite mais pas de se suicider ou
d'attaquer une unité amie."

The playable reading (OR-GF127): while the spell holds, the caster's side gives the character his order in
phase 3 with its own (``orders.eligible``/``check``; his side gives him none, as a character possessed by his
weapon takes none, OR-GF136); his brigade is dissolved and he lets go of the unit he controlled directly when
he is taken; a charge is refused him (``data/spell_effects.toml [possession_forbidden]``), and so is a fire
order at his own side. The resistance roll (OR-GF128) is made at the reveal of the orders (phase 4, l.275)
for each order the caster's side gave him this turn: d100 below 20 + FC (the chance shown first) and he
resists: the order is not carried out and the spell is broken. The spell is broken too when he takes a wound
or dies, when the priest dies (no one gives the orders), or when the priest's side releases him (the action
``release``, phases 3 and 6). His reactions when charged (phase 5) are the priest's side's to choose too
(:func:`controller`, :func:`reaction_refusal`; OR-GF149), a counter-charge refused him. The state: ``state.command["possessed_by"]`` = {character: {"caster", "side",
"wounds", "from_turn", "ordered"}}."""

from __future__ import annotations

from functools import lru_cache

from oriflamme.core.errors import IllegalAction

from ..rows import Row, one
from .actions import emit
from .state import Battle, Unit

SPELL = "possession_de_coyolxauhqui"
KEY = "possessed_by"
REF = "GF seed 003 l.1282"
REF_BROKEN = "GF seed 003 l.1282"
REF_FORBIDDEN = "GF seed 003 l.1284"
DECISION = "OR-GF127"


class Resistance(Row):
    die: int
    base_pct: int


class Forbidden(Row):
    orders: list[str]
    reactions: list[str] = []


@lru_cache(maxsize=1)
def resistance_rule() -> Resistance:
    return one(Resistance, "spell_effects.toml", "possession_resistance")


@lru_cache(maxsize=1)
def forbidden_rule() -> Forbidden:
    return one(Forbidden, "spell_effects.toml", "possession_forbidden")


def table(state: Battle) -> dict:
    return state.command.get(KEY) or {}


def entry(state: Battle, u: Unit | None) -> dict | None:
    if u is None or not u.alive:
        return None
    return table(state).get(u.id)


def master(state: Battle, u: Unit | None) -> str | None:
    """The side whose priest possesses ``u`` (who gives his orders), or None."""
    e = entry(state, u)
    return e["side"] if e else None


def threshold(u: Unit) -> int:
    """He resists on a d100 below this (20 % + FC, "score inférieur", l.1282, OR-GF128)."""
    return resistance_rule().base_pct + int(u.FC or 0)


def chance(u: Unit) -> float:
    return max(0, min(resistance_rule().die, threshold(u) - 1)) / resistance_rule().die


def take(state: Battle, caster: Unit, target: Unit, ev: dict) -> None:
    """The spell works: ``target`` obeys ``caster``'s side from its next orders (OR-GF127)."""
    from . import brigades
    state.command.setdefault(KEY, {})[target.id] = {"caster": caster.id, "side": caster.side,
                                                   "wounds": len(target.wounds), "from_turn": state.turn,
                                                   "ordered": None}
    steps = ev["explanation"]
    steps.append(f"« Possession de Coyolxauhqui »: {target.name} obeys the orders of {caster.name}'s side from its "
                 f"next orders (phase 3); his own side gives him none; he resists each order with 1d100 below "
                 f"{threshold(target)} (20 + FC {target.FC}, {chance(target):.0%}), which breaks the spell")
    ev["citations"] += [REF, REF_FORBIDDEN, DECISION, resistance_rule().decision]
    if target.id in brigades.active(state):
        brigades.dissolve(state, target.id, "an enemy priest possesses him", "un prêtre ennemi le possède", REF)
        steps.append(f"{target.name}'s brigade is dissolved (OR-GF127)")
    led = state.units.get(target.leads or "")
    if led is not None:
        led.led_by, target.leads = None, None
        steps.append(f"{target.name} no longer controls {led.name} directly (OR-GF127)")


def end(state: Battle, u: Unit, why_en: str, why_fr: str, ref: str, **extra) -> dict | None:
    e = table(state).pop(u.id, None)
    if e is None:
        return None
    return emit(state, "possession_broken", f"« Possession de Coyolxauhqui » on {u.name} is broken: {why_en}",
                f"« Possession de Coyolxauhqui » sur {u.name} est rompue : {why_fr}", side=e["side"], ref=ref,
                decision=DECISION, character=u.id, caster=e["caster"], **extra)


def watch(state: Battle) -> None:
    """Each step of the turn: a possessed character wounded or killed, or whose priest died, is free
    (l.1282, OR-GF127)."""
    tab = table(state)
    for uid in sorted(tab):
        u, e = state.units.get(uid), tab.get(uid)
        if e is None or u is None:
            tab.pop(uid, None)
            continue
        caster = state.units.get(e["caster"])
        if not u.alive:
            end(state, u, "he is killed", "il est tué", REF_BROKEN)
        elif len(u.wounds) > e["wounds"]:
            end(state, u, "he is wounded", "il est blessé", REF_BROKEN)
        elif caster is None or not caster.alive:
            end(state, u, "the priest is dead: no one gives his orders", "le prêtre est mort : personne ne lui "
                "donne d'ordre", "GF seed 003 l.1282; OR-GF127")


def note_orders(state: Battle, side: str, given: dict) -> None:
    """Phase 3: the orders ``side`` gave the characters it possesses (each to be resisted at the reveal)."""
    for uid in given:
        e = table(state).get(uid)
        if e is not None and e["side"] == side:
            e["ordered"] = state.turn


def resist(state: Battle) -> None:
    """Phase 4, the orders revealed: each possessed character given an order this turn rolls 1d100; below
    20 + FC he resists: he does not carry it out and the spell is broken (l.1282, OR-GF128)."""
    rule = resistance_rule()
    for uid in sorted(table(state)):
        e = table(state).get(uid)
        u = state.units.get(uid)
        if e is None or u is None or not u.alive or e.get("ordered") != state.turn or u.order is None:
            continue
        need, p = threshold(u), chance(u)
        d = state.dice.roll(rule.die)
        resisted = d < need
        steps = [f"{u.name} is possessed by « Possession de Coyolxauhqui »: he must obey each order of the priest "
                 f"unless he succeeds a resistance roll of 20 % + his FC ({u.FC}) = {need} %, score below (l.1282)",
                 f"chance to resist: {p:.0%} (d{rule.die} below {need})",
                 f"d{rule.die} {d}: " + (f"{d} < {need}: he resists — the order is not carried out, the spell is broken"
                                         if resisted else f"{d} ≥ {need}: he obeys")]
        emit(state, "possession_resistance",
             f"{u.name} resists the priest's order: d{rule.die} {d} against {need} ({p:.0%}) — "
             + ("resisted, the spell is broken" if resisted else "he obeys"),
             f"{u.name} résiste à l'ordre du prêtre : d{rule.die} {d} contre {need} ({p:.0%}) — "
             + ("il résiste, l'envoûtement est rompu" if resisted else "il obéit"),
             side=e["side"], ref=rule.ref, decision=rule.decision, character=u.id, d100=d, chance=p,
             result="resisted" if resisted else "obeys",
             ruling={"explanation": steps, "citations": [rule.ref, rule.decision, DECISION]})
        if resisted:
            u.order, u.target, u.fire_targets, u.charging = None, None, [], False
            end(state, u, f"he resisted (d{rule.die} {d} < {need})", f"il a résisté (d{rule.die} {d} < {need})", rule.ref)


def refusal(state: Battle, side: str, u: Unit, oid: str, target) -> IllegalAction | None:
    """Why ``side`` may not give ``u`` the order ``oid`` because of the spell, or None."""
    m = master(state, u)
    if m is None:
        return None
    if m != side:
        return IllegalAction(f"orders: {u.name} is possessed by an enemy priest (« Possession de Coyolxauhqui »): "
                             "he obeys the priest's orders, not his side's", f"{REF}; {DECISION}")
    fr = forbidden_rule()
    if oid in fr.orders:
        return IllegalAction(f"orders: {u.name} may be made to do something incoherent, not to kill himself nor attack "
                             f"a friendly unit: no order {oid!r}", f"{fr.ref}; {fr.decision}")
    names = target if isinstance(target, (list, tuple)) else [target]
    for t in names:
        o = state.units.get(t) if isinstance(t, str) else None
        if o is not None and o.side == u.side:
            return IllegalAction(f"orders: {u.name} may not attack {o.name}, a unit of his own side",
                                 f"{fr.ref}; {fr.decision}")
    return None


def controller(state: Battle, u: Unit) -> str:
    """The side that decides for ``u``: the priest's while he possesses him ("Il doit obéir à chaque ordre du
    prêtre", l.1282) — his orders (OR-GF127) and his reactions when charged (phase 5, OR-GF149) — else his own."""
    return master(state, u) or u.side


REACTION_DECISION = "OR-GF149"


def reaction_refusal(state: Battle, side: str, u: Unit, reaction: str | None = None) -> IllegalAction | None:
    """Why ``side`` may not choose ``u``'s reaction (``reaction``, when named) because of the spell, or None."""
    m = master(state, u)
    if m is None:
        return None
    if m != side:
        return IllegalAction(f"react: {u.name} is possessed by an enemy priest (« Possession de Coyolxauhqui »): "
                             "\"Il doit obéir à chaque ordre du prêtre\" — the priest's side chooses his reaction",
                             f"{REF}; {DECISION}, {REACTION_DECISION}")
    fr = forbidden_rule()
    if reaction is not None and reaction in fr.reactions:
        return IllegalAction(f"react: {u.name} may be made to do something incoherent, not to kill himself nor attack "
                             f"a friendly unit: no {reaction}", f"{fr.ref}; {fr.decision}")
    return None


def release_check(state: Battle, side: str, caster_id: str | None, target_id: str | None) -> None:
    """The priest's side cancels the spell (l.1282 "si le prêtre annule le sort")."""
    u = state.units.get(target_id or "")
    e = entry(state, u)
    if e is None or e["side"] != side or e["caster"] != caster_id:
        raise IllegalAction(f"release: {target_id!r} is not a character {caster_id!r} possesses "
                            "(« Possession de Coyolxauhqui »)", f"{REF}; {DECISION}")


def releases(state: Battle, side: str) -> list[tuple[str, str]]:
    return sorted((e["caster"], uid) for uid, e in table(state).items()
                  if e["side"] == side and uid in state.units and state.units[uid].alive)


def release(state: Battle, caster_id: str, target_id: str) -> None:
    u = state.units[target_id]
    c = state.units.get(caster_id)
    end(state, u, f"{c.name if c else caster_id} cancels the spell", f"{c.name if c else caster_id} annule le sort", REF)
