"""Magna Carta's actions in words (the terminal's lists, the ruleset's ``describe_action``).

Reads the state, decides nothing: every cost and die range quoted comes from the data tables.
"""

from __future__ import annotations

from .engine.actions import (Action, Advance, AskQuarter, Attack, Carry, Casualty, ClearBodies, Decline, EndStep,
                             FightOn, Fire, Move, Retreat, SetDown)
from .engine.carts import cart_name
from .engine.led import horse_name


def tags(state) -> dict[str, str]:
    """A short tag per character: side letter + number (A1, B3 …). The letter is the side id's
    first letter in capitals, or A/B by order of play when the two would clash."""
    letters = [s[0].upper() for s in state.sides]
    if len(set(letters)) != len(letters) or not all(x.isalpha() for x in letters):
        letters = [chr(ord("A") + i) for i in range(len(state.sides))]
    out = {}
    for side, letter in zip(state.sides, letters):
        chars = sorted((c for c in state.characters.values() if c.side == side), key=lambda c: c.id)
        for i, c in enumerate(chars, 1):
            out[c.id] = f"{letter}{i}"
    return out


def describe(state, a: Action, lang: str = "en") -> str:
    """One legal action in words, for the terminal's numbered list (and the ruleset's
    ``describe_action``). ``lang`` is accepted for the contract; the terminal speaks English."""
    st = state
    ch = st.characters
    t = tags(st)

    def n(cid):
        return f"{ch[cid].name} [{t[cid]}]"

    if isinstance(a, Move):
        c = ch[a.char]
        if c.mounted:  # where the rider ends up facing (§4.4.1)
            from .engine import riding
            from ...geometry.hexgrid import DIRECTION_NAMES, Hex
            steps = riding.path_steps(st, c, tuple(Hex.from_label(x) for x in a.path), riding.extra_costs(st))
            return f"move {n(a.char)} → {a.path[-1]} facing {DIRECTION_NAMES[steps[-1].facing]} (via {' '.join(a.path)})"
        return f"move {n(a.char)} → {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Fire):
        return f"fire: {n(a.shooter)} at {n(a.target)}"
    if isinstance(a, Attack):
        return f"attack: {', '.join(n(x) for x in a.attackers)} → {', '.join(n(x) for x in a.defenders)}"
    if isinstance(a, Retreat):
        return f"retreat {n(a.char)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Advance):
        return f"advance {n(a.char)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Casualty):
        return f"{n(a.char)} takes the blow"
    if isinstance(a, Decline):
        if st.pending and st.pending[0].kind == "defensive_fire":
            return f"let {n(st.pending[0].chars[0])} pass (no defensive fire here)"
        if st.pending and st.pending[0].kind == "grab":  # §4.4.4
            return f"{n(st.pending[0].chars[0])} rides on without trying for the bridle"
        return "no advance"
    if isinstance(a, AskQuarter):
        b = next(x for x in st.rules.ransom.band if x.result == "surrenders")  # ransom.toml
        return f"{n(a.char)} asks for quarter ({b.ref}: die {b.low}-{b.high} he surrenders)"
    if isinstance(a, FightOn):
        return f"{n(a.char)} fights on"
    if a.type == "declare":
        return f"declare {n(a.char)}: {a.fire.replace('_', ' ')} fire"
    if a.type == "designate":
        return f"designate {n(a.shooter)} to fire defensively"
    if a.type == "volley":
        return "fire now with the designated shooters"
    if isinstance(a, EndStep):
        return f"end the {st.step.replace('_', ' ')} step"
    if isinstance(a, ClearBodies):
        what = "three dead men" if a.kind == "man" else "a dead horse"
        return f"clear: {', '.join(n(x) for x in a.chars)} move {what} out of {a.hex} into {a.to}"
    if isinstance(a, Carry):
        return f"carry: {n(a.char)} carries {n(a.friend)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, SetDown):
        return f"{n(a.char)} sets his friend down in {a.hex}"
    if a.type in ("mount", "lead", "fire_at_horse", "attack_horse", "grab"):  # riderless horses (§4.4.2, §4.4.4, §6.8)
        x = st.riders.horses.get(a.horse)
        where = horse_name(x) if x is not None else f"the horse {a.horse}"
        if a.type == "mount":
            return f"{n(a.char)} mounts {where}"
        if a.type == "lead":
            return f"{n(a.char)} leads {where} by the bridle"
        if a.type == "grab":  # §4.4.4, §4.6.3: a die, 1-6
            top = st.rules.movement_rules["grab_success_max"].value
            return f"{n(a.char)} tries to grab {where} by the bridle in passing (1D10: 1-{top} he leads it)"
        if a.type == "fire_at_horse":
            return f"fire: {n(a.shooter)} at {where} (riderless)"
        return f"attack: {', '.join(n(x) for x in a.attackers)} → {where} (riderless)"
    if a.type in ("drive_cart", "harness", "unharness"):  # carts and draught animals (§4.5.1, §4.5.4)
        cart = st.carts.carts.get(a.cart)
        where = cart_name(cart) if cart is not None else f"the cart {a.cart}"
        if a.type == "drive_cart":
            pull = f" with {', '.join(n(x) for x in a.helpers)}" if a.helpers else ""
            return f"drive: {n(a.char)}{pull} drives {where} → {a.path[-1]} (via {' '.join(a.path)})"
        if a.type == "harness":
            x = st.riders.horses.get(a.animal)
            return f"{n(a.char)} harnesses {horse_name(x) if x else a.animal} to {where} (his whole phase)"
        return f"{n(a.char)} unharnesses the animal of {where} (his whole phase)"
    if a.type == "dismount":
        return f"{n(a.char)} dismounts into {a.hex}"
    kn = st.rules.camels.kneeling if st.rules.camels is not None else None  # costs: camels.toml, §4.6.4
    if a.type in ("kneel", "rise"):  # camels kneeling (§4.6.4)
        cost = kn.kneel_cost if a.type == "kneel" else kn.rise_cost
        if a.animal == a.char:
            return f"{n(a.char)} makes his camel {a.type} ({cost} PM)"
        x = st.riders.horses.get(a.animal)
        return f"{n(a.char)} makes {horse_name(x) if x is not None else a.animal} {a.type} ({cost} PM to him and to the camel)"
    if a.type == "enter_litter":  # §4.6.1, §4.6.4
        x = st.riders.horses.get(a.horse)
        where = f" of {horse_name(x)}" if x is not None else ""
        return f"{n(a.char)} gets into the litter{where} ({kn.litter_cost} PM)"
    if a.type == "leave_litter":
        return f"{n(a.char)} gets out of the litter into {a.hex} ({kn.litter_cost} PM)"
    if a.type == "place":
        return f"{n(a.char)}, unhorsed, lands in {a.hex} (MC §6.8)"
    if a.type == "stand":
        return f"{n(a.char)} will not move this turn: the enemy may fire at him now (MC §5.3)"
    return a.type
