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


ANIMAL_NAMES_FR = {"horse": "le cheval", "draught_horse": "le cheval de trait", "ox": "le bœuf",
                   "camel": "le dromadaire", "pack_camel": "le dromadaire de bât", "litter_camel": "le dromadaire à nacelle"}
DIRECTION_NAMES_FR = ("N", "NE", "SE", "S", "SO", "NO")
STEP_NAMES_FR = {"offensive_fire": "tir offensif", "movement": "mouvement", "melee": "combat", "recovery": "récupération"}
FIRE_NAMES_FR = {"offensive_or_defensive": "offensif OU défensif", "offensive_and_defensive": "offensif + défensif",
                 "defensive": "défensif seulement", "offensive": "offensif"}


def describe(state, a: Action, lang: str = "en") -> str:
    """One legal action in words, for the terminal's numbered list (and the ruleset's
    ``describe_action``), in English or French (``lang="fr"``)."""
    st = state
    ch = st.characters
    t = tags(st)
    fr = lang == "fr"

    def say(en: str, fr_text: str) -> str:
        return fr_text if fr else en

    def n(cid):
        return f"{ch[cid].name} [{t[cid]}]"

    def horse(x, fallback: str) -> str:
        if x is None:
            return say(f"the horse {fallback}", f"le cheval {fallback}")
        if not fr:
            return horse_name(x)
        a_, b_ = x.hexes
        return f"{ANIMAL_NAMES_FR.get(x.kind, x.kind)} en {a_.label}-{b_.label}"

    def cart(c, fallback: str) -> str:
        if c is None:
            return say(f"the cart {fallback}", f"le chariot {fallback}")
        return f"le chariot en {c.front.label}-{c.rear.label}" if fr else cart_name(c)

    def names(ids) -> str:
        return ", ".join(n(x) for x in ids)

    via = (lambda path: f"(via {' '.join(path)})")
    if isinstance(a, Move):
        c = ch[a.char]
        if c.mounted:  # where the rider ends up facing (§4.4.1)
            from .engine import riding
            from ...geometry.hexgrid import DIRECTION_NAMES, Hex
            steps = riding.path_steps(st, c, tuple(Hex.from_label(x) for x in a.path), riding.extra_costs(st))
            d = steps[-1].facing
            return say(f"move {n(a.char)} → {a.path[-1]} facing {DIRECTION_NAMES[d]} {via(a.path)}",
                       f"déplacer {n(a.char)} → {a.path[-1]} face au {DIRECTION_NAMES_FR[d]} {via(a.path)}")
        return say(f"move {n(a.char)} → {a.path[-1]} {via(a.path)}", f"déplacer {n(a.char)} → {a.path[-1]} {via(a.path)}")
    if isinstance(a, Fire):
        return say(f"fire: {n(a.shooter)} at {n(a.target)}", f"tir : {n(a.shooter)} sur {n(a.target)}")
    if isinstance(a, Attack):
        return say(f"attack: {names(a.attackers)} → {names(a.defenders)}", f"attaque : {names(a.attackers)} → {names(a.defenders)}")
    if isinstance(a, Retreat):
        return say(f"retreat {n(a.char)} to {a.path[-1]} {via(a.path)}", f"{n(a.char)} recule en {a.path[-1]} {via(a.path)}")
    if isinstance(a, Advance):
        return say(f"advance {n(a.char)} to {a.path[-1]} {via(a.path)}", f"{n(a.char)} avance en {a.path[-1]} {via(a.path)}")
    if isinstance(a, Casualty):
        return say(f"{n(a.char)} takes the blow", f"{n(a.char)} encaisse le coup")
    if isinstance(a, Decline):
        if st.pending and st.pending[0].kind == "defensive_fire":
            who = n(st.pending[0].chars[0])
            return say(f"let {who} pass (no defensive fire here)", f"laisser passer {who} (pas de tir défensif ici)")
        if st.pending and st.pending[0].kind == "grab":  # §4.4.4
            who = n(st.pending[0].chars[0])
            return say(f"{who} rides on without trying for the bridle", f"{who} poursuit sans essayer d'attraper la bride")
        return say("no advance", "pas d'avance")
    if isinstance(a, AskQuarter):
        b = next(x for x in st.rules.ransom.band if x.result == "surrenders")  # ransom.toml
        return say(f"{n(a.char)} asks for quarter ({b.ref}: die {b.low}-{b.high} he surrenders)",
                   f"{n(a.char)} demande à se rendre ({b.ref} : dé {b.low}-{b.high}, il se rend)")
    if isinstance(a, FightOn):
        return say(f"{n(a.char)} fights on", f"{n(a.char)} continue le combat")
    if a.type == "declare":
        return say(f"declare {n(a.char)}: {a.fire.replace('_', ' ')} fire",
                   f"déclarer {n(a.char)} : tir {FIRE_NAMES_FR.get(a.fire, a.fire.replace('_', ' '))}")
    if a.type == "designate":
        return say(f"designate {n(a.shooter)} to fire defensively", f"désigner {n(a.shooter)} pour le tir défensif")
    if a.type == "volley":
        return say("fire now with the designated shooters", "tirer maintenant avec les tireurs désignés")
    if isinstance(a, EndStep):
        return say(f"end the {st.step.replace('_', ' ')} step",
                   f"terminer la séquence de {STEP_NAMES_FR.get(st.step, st.step.replace('_', ' '))}")
    if isinstance(a, ClearBodies):
        what = say("three dead men" if a.kind == "man" else "a dead horse",
                   "trois hommes morts" if a.kind == "man" else "un cheval mort")
        return say(f"clear: {names(a.chars)} move {what} out of {a.hex} into {a.to}",
                   f"dégager : {names(a.chars)} déplacent {what} de {a.hex} vers {a.to}")
    if isinstance(a, Carry):
        return say(f"carry: {n(a.char)} carries {n(a.friend)} to {a.path[-1]} {via(a.path)}",
                   f"porter : {n(a.char)} emporte {n(a.friend)} jusqu'en {a.path[-1]} {via(a.path)}")
    if isinstance(a, SetDown):
        return say(f"{n(a.char)} sets his friend down in {a.hex}", f"{n(a.char)} dépose son ami en {a.hex}")
    if a.type in ("mount", "lead", "fire_at_horse", "attack_horse", "grab"):  # riderless horses (§4.4.2, §4.4.4, §6.8)
        where = horse(st.riders.horses.get(a.horse), a.horse)
        if a.type == "mount":
            return say(f"{n(a.char)} mounts {where}", f"{n(a.char)} monte {where}")
        if a.type == "lead":
            return say(f"{n(a.char)} leads {where} by the bridle", f"{n(a.char)} conduit {where} par la bride")
        if a.type == "grab":  # §4.4.4, §4.6.3: a die, 1-6
            top = st.rules.movement_rules["grab_success_max"].value
            return say(f"{n(a.char)} tries to grab {where} by the bridle in passing (1D10: 1-{top} he leads it)",
                       f"{n(a.char)} tente d'attraper au passage la bride de {where} (1D10 : 1-{top}, il le conduit)")
        if a.type == "fire_at_horse":
            return say(f"fire: {n(a.shooter)} at {where} (riderless)", f"tir : {n(a.shooter)} sur {where} (sans cavalier)")
        return say(f"attack: {names(a.attackers)} → {where} (riderless)", f"attaque : {names(a.attackers)} → {where} (sans cavalier)")
    if a.type in ("drive_cart", "harness", "unharness"):  # carts and draught animals (§4.5.1, §4.5.4)
        where = cart(st.carts.carts.get(a.cart), a.cart)
        if a.type == "drive_cart":
            pull = say(f" with {names(a.helpers)}", f" avec {names(a.helpers)}") if a.helpers else ""
            return say(f"drive: {n(a.char)}{pull} drives {where} → {a.path[-1]} {via(a.path)}",
                       f"conduire : {n(a.char)}{pull} conduit {where} → {a.path[-1]} {via(a.path)}")
        if a.type == "harness":
            x = st.riders.horses.get(a.animal)
            animal = horse(x, a.animal) if x is not None else a.animal
            return say(f"{n(a.char)} harnesses {animal} to {where} (his whole phase)",
                       f"{n(a.char)} attelle {animal} à {where} (toute sa phase)")
        return say(f"{n(a.char)} unharnesses the animal of {where} (his whole phase)",
                   f"{n(a.char)} dételle l'animal de {where} (toute sa phase)")
    if a.type == "dismount":
        return say(f"{n(a.char)} dismounts into {a.hex}", f"{n(a.char)} met pied à terre en {a.hex}")
    kn = st.rules.camels.kneeling if st.rules.camels is not None else None  # costs: camels.toml, §4.6.4
    if a.type in ("kneel", "rise"):  # camels kneeling (§4.6.4)
        cost = kn.kneel_cost if a.type == "kneel" else kn.rise_cost
        verb_fr = "agenouiller" if a.type == "kneel" else "relever"
        if a.animal == a.char:
            return say(f"{n(a.char)} makes his camel {a.type} ({cost} PM)", f"{n(a.char)} fait {verb_fr} sa monture ({cost} PM)")
        x = st.riders.horses.get(a.animal)
        animal = (horse(x, a.animal) if x is not None else a.animal)
        return say(f"{n(a.char)} makes {animal} {a.type} ({cost} PM to him and to the camel)",
                   f"{n(a.char)} fait {verb_fr} {animal} ({cost} PM pour lui et pour le dromadaire)")
    if a.type == "enter_litter":  # §4.6.1, §4.6.4
        x = st.riders.horses.get(a.horse)
        where = say(f" of {horse_name(x)}", f" de {horse(x, a.horse)}") if x is not None else ""
        return say(f"{n(a.char)} gets into the litter{where} ({kn.litter_cost} PM)",
                   f"{n(a.char)} monte dans la nacelle{where} ({kn.litter_cost} PM)")
    if a.type == "leave_litter":
        return say(f"{n(a.char)} gets out of the litter into {a.hex} ({kn.litter_cost} PM)",
                   f"{n(a.char)} descend de la nacelle en {a.hex} ({kn.litter_cost} PM)")
    if a.type == "place":
        return say(f"{n(a.char)}, unhorsed, lands in {a.hex} (MC §6.8)", f"{n(a.char)}, désarçonné, tombe en {a.hex} (MC §6.8)")
    if a.type == "stand":
        return say(f"{n(a.char)} will not move this turn: the enemy may fire at him now (MC §5.3)",
                   f"{n(a.char)} ne bougera pas ce tour-ci : l'ennemi peut lui tirer dessus maintenant (MC §5.3)")
    return a.type
