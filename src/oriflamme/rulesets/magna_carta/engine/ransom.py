"""Surrender and ransom on the map (Magna Carta §6.9 "Reddition et rançon").

Only when the scenario says ``ransom = true`` (western combatants of the XIIth–XIVth
centuries; not between faiths, not in earlier periods — §6.9, first paragraph).

* **Asking for quarter.** When several characters, one of them a knight, attack an enemy
  knight alone at a raw rapport de force of 8-1 or more (§6, before column shifts; data
  ``ransom.toml [surrender]``) and that knight is adjacent to no character of his own side, the
  attack is declared, then — *before* the melee die — the knight's side is asked
  (:class:`~.actions.AskQuarter` or :class:`~.actions.FightOn`, the text says "peut demander").
  Asking rolls the die: 1–4 he surrenders (no melee roll), 5–10 he fights on and the melee is
  rolled as declared.
* **Prisoner.** A surrendered knight keeps his side and gets ``ransom = "prisoner"``: his
  attack and defence values become those of the ransom counter (``[counter]``, an Oriflamme
  choice: the seed prints none), kept to the end of the game; he dismounts
  (``mounted = False``; the horse is left to the riders' code, see :func:`_dismount`). He
  cannot move, fire, attack, oppose an infiltration nor be fired at or attacked.
* **Escort.** The capturing knight (the first knight among the attackers, by id) escorts him.
  When a member of the escort ends a move (movement step), the prisoner follows at once to a
  free hex adjacent to him (and to the rest of the escort when possible), the one nearest to
  where the prisoner stands. Retreats and advances after combat do not drag him. When, after
  such a follow, he or the escort who moved stands on a map edge hex, his whole escort beside
  him, he is led off the map: ``captured`` (counted with the dead for the rout,
  engine/victory.py).
* **Escape.** In his own side's movement step a prisoner whose escort is no longer complete
  beside him (a member dead, stunned or not adjacent — which covers the escort of two reduced
  to one) may move with his own allowance: moving is the attempt, and makes him ``escaped``.
  In his side's combat step he may instead join an attack of his friends on a member of his
  escort adjacent to him (then ``escaped`` too). An escaped knight keeps the ransom counter's
  values and never again asks for quarter (§6.9, last paragraph).

Not modelled: handing a prisoner over to another escort, taking an escaped knight prisoner
again without a new surrender (the seed gives no procedure), several defenders.
"""

from __future__ import annotations

from ....core.dice import roll_keyed
from ..resolve.ruling import Ruling, distribution, face_keys
from . import handlers
from .character import CAPTURED, ESCAPED, HEALTHY, PRISONER, STUNNED, WOUNDED, Character
from .combat import melee_roll
from .events import emit
from .state import GameState, Pending

from .escort import REF, escape_problem, escort_broken, group_problem, guards, join_problem  # noqa: F401 (public here too)
from .actions import AskQuarter, FightOn
from .horses import unhorse
from .melee import melee_ruling


def enabled(state: GameState) -> bool:
    """Whether the scenario plays the ransom rules (``ransom = true``)."""
    return bool(state.scenario.get("ransom", False))


def _names(chars) -> str:
    return ", ".join(c.name for c in chars)


# =============================================================================================
# asking for quarter
# =============================================================================================
def _band(state: GameState, die: int):
    for b in state.rules.ransom.band:
        if b.low <= die <= b.high:
            return b
    raise AssertionError(die)


def quarter_ruling(state: GameState, atts: list[Character], defs: list[Character], die: int | None = None) -> Ruling:
    """Whether the defender of this attack may ask for quarter, and (with ``die``) the test."""
    r = Ruling(kind="quarter")
    rn = state.rules.ransom
    sref = rn.surrender.ref
    if not enabled(state):
        return r.refuse("the scenario does not use the surrender and ransom rules", REF)
    if len(defs) != 1:
        return r.refuse("only a knight attacked alone may ask for quarter", sref)
    d = defs[0]
    if not d.knight:
        return r.refuse(f"{d.name} is not a knight: there is no quarter for other characters", REF)
    if d.ransom == ESCAPED:
        return r.refuse(f"{d.name} tried to escape or attacked his escort: he has lost the right to ask for quarter", REF)
    if d.ransom != "" or d.status not in (HEALTHY, WOUNDED):
        return r.refuse(f"{d.name} is {d.status if d.status == STUNNED else d.ransom} and cannot ask for quarter", sref)
    if not any(a.knight for a in atts):
        return r.refuse("a knight surrenders only to another knight: no knight among the attackers", REF)
    if len(atts) < rn.surrender.min_attackers:
        return r.refuse(f"several characters, one of them a knight, must attack (at least {rn.surrender.min_attackers})", sref)
    m = melee_ruling(state, atts, defs)
    if not m.legal:
        return r.refuse(m.reason or "illegal attack")
    raw = m.data["attack"] // m.data["defence"]
    if raw < rn.surrender.min_odds:
        return r.refuse(f"rapport de force {m.data['attack']}:{m.data['defence']} = {raw}-1, below "
                        f"{rn.surrender.min_odds}-1", sref)
    friends = sorted((c for c in state.characters.values()
                      if c.side == d.side and c.id != d.id and c.alive and c.hex is not None
                      and c.ransom != PRISONER and c.hex.distance(d.hex) == 1), key=lambda c: c.id)
    if friends:
        return r.refuse(f"{d.name} is adjacent to a character of his own side ({friends[0].name})", REF)
    r.step(f"{_names(atts)} attack {d.name}, a knight alone, at {m.data['attack']}:{m.data['defence']} = {raw}-1 "
           f"(at least {rn.surrender.min_odds}-1), with a knight among them: {d.name} may ask for quarter", sref)
    r.data.update(attackers=[a.id for a in atts], defender=d.id, odds=f"{raw}-1")
    r.probabilities = distribution(lambda x: _band(state, x).result)
    r.faces = face_keys(lambda x: _band(state, x).result)
    if die is not None:
        b = _band(state, die)
        r.die, r.modified_die, r.result = die, die, b.result
        r.step(f"surrender test: die {die}: {b.label}", b.ref)
    return r


def offer_quarter(state: GameState, atts: list[Character], defs: list[Character]) -> bool:
    """Before the melee die of a declared attack: put the question to the defender's side
    when he may ask for quarter (§6.9). Returns whether a prompt was set."""
    if not enabled(state) or not quarter_ruling(state, atts, defs).legal:
        return False
    d = defs[0]
    state.pending.insert(0, Pending("quarter", d.side, [d.id],
                                    {"attackers": [a.id for a in atts], "defenders": [d.id], "ref": REF}))
    return True


def pending_options(state: GameState, p: Pending) -> list:
    return [AskQuarter(p.chars[0]), FightOn(p.chars[0])]


def answer(state: GameState, p: Pending, a) -> None:
    """The defender's answer: fight on (the melee is rolled), or ask (the §6.9 die)."""
    atts = [state.characters[x] for x in p.data["attackers"]]
    defs = [state.characters[x] for x in p.data["defenders"]]
    d = defs[0]
    if not isinstance(a, AskQuarter):
        emit(state, "quarter", msg="quarter.fight_on", params={"name": d.name}, char=d.id, ref=REF)
        melee_roll(state, atts, defs)
        return
    die = roll_keyed(state.dice, 10, lambda: quarter_ruling(state, atts, defs).faces)  # surrenders or fights on
    r = quarter_ruling(state, atts, defs, die)
    if r.result == "surrenders":
        emit(state, "quarter", msg="quarter.surrenders", params={"name": d.name, "die": die}, ruling=r,
             char=d.id, result=r.result, ref=REF)
        for x in atts:
            state.phase.attacked.add(x.id)
            state.phase.engaged.add(x.id)
        surrender(state, d, atts)
    else:
        emit(state, "quarter", msg="quarter.fights_on", params={"name": d.name, "die": die}, ruling=r,
             char=d.id, result=r.result, ref=REF)
        melee_roll(state, atts, defs)


# =============================================================================================
# the prisoner
# =============================================================================================
def _scaled(v: int, frac: tuple[int, int], minimum: int) -> int:
    return max(minimum, v * frac[0] // frac[1])


def apply_counter(state: GameState, c: Character) -> None:
    """The ransom counter's values (``ransom.toml [counter]``), kept to the end of the game."""
    k = state.rules.ransom.counter
    c.attack = _scaled(c.attack, k.attack, k.minimum)
    c.wounded_attack = _scaled(c.wounded_attack, k.attack, k.minimum)
    c.defence = _scaled(c.defence, k.defence, k.minimum)
    c.wounded_defence = _scaled(c.wounded_defence, k.defence, k.minimum)
    c.stunned_defence = _scaled(c.stunned_defence, k.defence, k.minimum)


def _dismount(state: GameState, c: Character) -> None:
    """§6.9 "Si un chevalier est à cheval au moment où il se rend, il doit descendre
    immediatement de cheval": his horse stays riderless where it stood and he is placed beside
    it, with his values on foot (engine/horses.py, §6.8)."""
    if c.mounted:
        emit(state, "surrender", msg="surrender.dismounts", params={"name": c.name}, char=c.id, ref=REF)
        unhorse(state, c, False, REF)  # his horse stays riderless; he takes his values on foot


def escort_rule(state: GameState, chars: list[Character]):
    """The escort rule (``ransom.toml [[escort]]``) that ``chars`` fulfil exactly, or None."""
    for rule in state.rules.ransom.escort:
        fit = [c for c in chars if (c.knight if rule.knight else c.type in rule.types)]
        if len(fit) == len(chars) == rule.count:
            return rule
    return None


def surrender(state: GameState, d: Character, atts: list[Character]) -> None:
    knight = sorted((a for a in atts if a.knight), key=lambda a: a.id)[0]
    d.ransom = PRISONER
    d.escort = (knight.id,)
    _dismount(state, d)  # first: the ransom counter is his counter on foot
    apply_counter(state, d)
    emit(state, "surrender", msg="surrender.prisoner", params={"name": d.name, "knight": knight.name, "attack": d.current_attack,
                                                               "defence": d.current_defence}, char=d.id, escort=list(d.escort), ref=REF)












def on_attack(state: GameState, atts: list[Character], defs: list[Character]) -> bool:
    """A declared attack: prisoners among the attackers break free; returns whether the
    defender is asked about quarter before the melee die."""
    for a in atts:
        if a.ransom == PRISONER:
            a.ransom = ESCAPED
            a.escort = ()
            emit(state, "escape", msg="escape.joins_attack", params={"name": a.name},
                 char=a.id, ref=REF)
    return offer_quarter(state, atts, defs)


# =============================================================================================
# moving with the escort, escaping
# =============================================================================================
def before_move(state: GameState, c: Character) -> None:
    """A prisoner who moves is trying to escape (§6.9)."""
    if c.ransom == PRISONER:
        c.ransom = ESCAPED
        c.escort = ()
        emit(state, "escape", msg="escape.tries", params={"name": c.name}, char=c.id, ref=REF)


def _on_edge(state: GameState, h) -> bool:
    return any(n not in state.gmap for n in h.neighbours())


def after_move(state: GameState, mover: Character) -> None:
    """Prisoners escorted by ``mover`` follow him; at a map edge they are led off (§6.9)."""
    if not mover.active or mover.hex is None:
        return
    for p in sorted(state.characters.values(), key=lambda c: c.id):
        if p.ransom == PRISONER and mover.id in p.escort and p.alive and p.hex is not None:
            _follow(state, p, mover)


def _follow(state: GameState, p: Character, mover: Character) -> None:
    rs = state.rules
    others = [state.characters[g] for g in p.escort if g != mover.id]
    others = [g for g in others if g.active and g.hex is not None]
    cands = []
    for h in mover.hex.neighbours():
        if h not in state.gmap:
            continue
        if h != p.hex and state.live_at(h):
            continue
        if rs.terrain[state.gmap.terrain(h)].cost_for(False, p.armour) == "impassable":
            continue
        cands.append(h)
    if not cands:
        emit(state, "escort", msg="escort.stays", params={"name": p.name, "hex": p.hex.label}, char=p.id, ref=REF)
        return
    # beside the whole escort if possible, then nearest to where he stands, then by label
    best = min(cands, key=lambda h: (sum(1 for g in others if g.hex.distance(h) != 1), p.hex.distance(h), h.label))
    if best != p.hex:
        start = p.hex
        p.hex = best
        emit(state, "escort", msg="escort.follows", params={"name": p.name, "start": start.label, "end": best.label}, char=p.id,
             path=[best.label], ref=REF)
    # "escorté jusqu'à l'un des bords du tapis de jeu": he or the escort who led him stands
    # on an edge hex, the whole escort beside him (interpretation)
    if (_on_edge(state, p.hex) or _on_edge(state, mover.hex)) and not escort_broken(state, p):
        at = p.hex.label
        p.ransom = CAPTURED
        p.hex = None
        emit(state, "captured", msg="escort.captured", params={"name": p.name, "hex": at}, char=p.id, ref=REF)


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
def _explain_ask_quarter(state: GameState, action) -> Ruling:
    if state.pending and state.pending[0].kind == "quarter":
        ch = state.characters
        p = state.pending[0]
        return quarter_ruling(state, [ch[x] for x in p.data["attackers"]], [ch[x] for x in p.data["defenders"]])
    return Ruling(kind=action.type)


handlers.register("ask_quarter", check=handlers.no_prompt, explain=_explain_ask_quarter)  # a prompt's answers
handlers.register("fight_on", check=handlers.no_prompt)
