"""The rider's grab in passing (Magna Carta §4.4.4; the same rule for camels, §4.6.3).

"Au cours de son déplacement, un personnage à cheval peut tenter d'attraper au passage la
bride d'un cheval non contrôlé mais il faut alors lancer un dé à 10 faces ... De 1 à 6 au dé,
la manœuvre réussit et le personnage peut terminer son mouvement en emmenant le cheval ...
De 7 à 10, la manœuvre échoue. Le cheval sans cavalier reste sur place. Même si le personnage
reste à proximité du cheval, il ne pourra pas le contrôler ce tour-ci." (§4.4.4; §4.6.3 says
the same of camels: "sans s'arrêter".)

Oriflamme's reading (docs/decisions.md "The rider's grab in passing"):

* **A prompt during the move**, not a variant of every move: when a step of a rider's move
  (:func:`paths.walk`, ``why == "move"``) brings his counter next to a riderless horse it did
  not touch where the move began, and the rider could take it, the move pauses in a ``grab``
  prompt to his own side: :class:`~.actions.Grab` (try, 1D10) or :class:`~.actions.Decline`
  (ride on). The move then resumes along the rest of its path (as after defensive fire, §5.3).
  The move pauses only where the rider could stand (both hexes free of other characters and
  horses); a horse first touched while he crosses a friend is offered at the next such
  position from which he still touches it.
  No prompt on the last step of a move: a rider who ends his move by the horse takes it "à
  l'arrêt" without a die (:class:`~.actions.Lead`, engine/led.py). A horse is offered once a
  move; the grab costs no movement point ("sans s'arrêter").
* **Who may be grabbed**: a live riderless horse that nobody leads and that the enemy does not
  hold (§4.4.4 "non contrôlé"; a horse of his own side that nobody leads may be grabbed too,
  as it may be led), by a rider leading fewer horses than he may (one), not mixing camels
  and horses (§4.6.5: the rider's own mount counts — engine/led.py), and not a horse he
  failed to grab this turn.
* **Success** (1–6, data ``grab_success_max``): he leads it from then on; at the end of his
  move it is placed "d'un côté ou de l'autre du personnage à cheval, de façon parallèle et
  légèrement en retrait": facing his way, its head on one of the two hexes beside both of his
  (:func:`led.place_by`, which falls back to any place next to him when both are taken, and
  lets go when there is none).
* **Failure** (7–10): the horse stays; ``state.riders.grab_failed`` keeps "rider/horse" -> the turn,
  and neither :class:`~.actions.Lead` nor another grab of that horse by that rider is allowed
  in that turn.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from ....core.dice import roll_keyed
from ..resolve.ruling import Ruling, distribution, face_keys
from . import handlers
from .actions import Action, Decline, Grab
from .character import Character
from .events import animal, emit
from .hooks import HOOKS
from .led import horse_name, led_by, let_go, max_led, mixing_problem, place_by, touches
from .moving import walk_move
from .state import MOVEMENT, GameState, Horse, Pending
from . import riding

REF = "MC §4.4.4, §4.6.3"


def _key(c: Character, horse: Horse) -> str:
    return f"{c.id}/{horse.id}"


def failed(state: GameState, c: Character, horse: Horse) -> bool:
    """Whether ``c`` failed to grab ``horse`` this turn ("il ne pourra pas le contrôler ce
    tour-ci")."""
    return state.riders.grab_failed.get(_key(c, horse)) == state.turn


def success_max(state: GameState) -> int:
    return state.rules.movement_rules["grab_success_max"].value


def grab_problem(state: GameState, c: Character, horse: Horse | None) -> tuple[str, str] | None:
    """Why the rider ``c`` may not try to grab ``horse`` now (None: he may, if he passes by)."""
    if horse is None or not horse.alive:
        return ("there is no riderless horse there", REF)
    if state.step != MOVEMENT or c.side != state.active:
        return ("a horse is grabbed in passing during one's own movement", "MC §2.1 (2), §4.4.4")
    if not c.mounted:
        return (f"{c.name} is on foot: he takes a horse by the bridle without a die", "MC §4.4.4")
    if c.hex is None or not c.active:
        return (f"{c.name} is {c.status} and cannot lead a horse", "MC §1.2, §4.4.4")
    if horse.led_by is not None:
        return (f"{horse_name(horse)} is already led by {state.characters[horse.led_by].name}", "MC §4.4.4")
    if horse.harnessed_to is not None:  # driven with its cart (§4.5.1, engine/carts.py)
        return (f"{horse_name(horse)} is harnessed to a cart: it is driven with the cart", "MC §4.5.1")
    if horse.side is not None and horse.side != c.side:
        return (f"{horse_name(horse)} is held by side {horse.side}, who has a character next to it", "MC §4.4.4")
    if failed(state, c, horse):
        return (f"{c.name} failed to grab {horse_name(horse)} this turn and cannot control it before the next",
                REF)
    n = max_led(state, c)
    if len(led_by(state, c)) >= n:
        return (f"{c.name} already leads {n} horse(s), as many as a rider may", "MC §4.4.4")
    return mixing_problem(state, c, horse)


# --- the prompt during the move ----------------------------------------------------------
def _counter(front: Hex, facing: int) -> tuple[Hex, Hex]:
    return (front, front.neighbour(facing + 3))


@HOOKS.provide(name="offer_grab")
def offer(state: GameState, c: Character, before: tuple[Hex, int], h: Hex, i: int, n_steps: int,
          move: dict) -> bool:
    """Called by :func:`paths.walk` after step ``i`` of the rider ``c``'s move (``before``: his
    front hex and facing before the step). Pauses the move (returns True) in a ``grab`` prompt
    when he now passes next to riderless horses he may grab (see the module's docstring)."""
    if not c.mounted or not state.riders.horses or move.get("stand") or i >= n_steps - 1 or not c.active:
        return False
    if state.pending:  # another prompt is already queued (a retreat forced by a stray shot...):
        return False   # the move must not pause a second time before it is answered
    # the move pauses only where the rider could stand: both his hexes free of other characters
    # and of horses (one character a hex, §4.1); a horse passed while he crosses a friend is
    # offered at the next such position from which he still touches it
    if any(o.id != c.id for x in c.hexes for o in state.live_at(x)) or any(state.horse_at(x) for x in c.hexes):
        return False
    offered = list(move.get("grab_offered", []))
    start = _counter(Hex.from_label(move["origin"]), move["facing"]) if "origin" in move else _counter(*before)
    new = [x for x in sorted(state.riders.horses.values(), key=lambda x: x.id)
           if x.alive and x.id not in offered and touches(c, x)
           and not any(a.distance(b) <= 1 for a in start for b in x.hexes) and grab_problem(state, c, x) is None]
    if not new:
        return False
    ids = [x.id for x in new]
    state.pending.append(Pending("grab", c.side, [c.id],
                                 {"horses": ids, "hex": h.label, "move": dict(move, at=i, grab_offered=offered + ids),
                                  "ref": REF}))
    return True


def options(state: GameState, p: Pending) -> list[Action]:
    c = state.characters[p.chars[0]]
    return [Grab(c.id, hid) for hid in p.data["horses"]
            if grab_problem(state, c, state.riders.horses.get(hid)) is None] + [Decline()]


def grab_ruling(state: GameState, c: Character, horse: Horse | None, die: int | None = None) -> Ruling:
    r = Ruling(kind="grab")
    prob = grab_problem(state, c, horse)
    if prob:
        return r.refuse(*prob)
    n = success_max(state)
    r.step(f"{c.name} tries to take {horse_name(horse)} by the bridle in passing: 1D10, 1-{n} he leads it to the "
           f"end of his move; {n + 1}-10 it stays and he cannot control it this turn", REF)
    r.probabilities = distribution(lambda d: "success" if d <= n else "failure")
    r.faces = face_keys(lambda d: "success" if d <= n else "failure")
    if die is not None:
        r.die = r.modified_die = die
        r.result = "success" if die <= n else "failure"
    return r


def explain(state: GameState, a: Grab) -> Ruling:
    """Preview of a grab (the answer to a ``grab`` prompt)."""
    c = state.characters.get(a.char)
    if c is None:
        return Ruling(kind="grab").refuse(f"unknown character {a.char!r}")
    return grab_ruling(state, c, state.riders.horses.get(a.horse))


def answer(state: GameState, p: Pending, a: Action) -> None:
    c = state.characters[p.chars[0]]
    mv = p.data["move"]
    if isinstance(a, Decline):
        emit(state, "grab", msg="grab.decline", params={"name": c.name}, char=c.id, ref=REF)
    else:
        horse = state.riders.horses[a.horse]
        die = roll_keyed(state.dice, 10, lambda: grab_ruling(state, c, horse).faces)  # success or failure
        r = grab_ruling(state, c, horse, die)
        name = animal(horse)
        if r.result == "success":
            horse.led_by, horse.side = c.id, c.side
            mv["grabbed"] = horse.id
            emit(state, "grab", msg="grab.success", params={"name": c.name, "horse": name, "die": die}, ruling=r,
                 char=c.id, horse=horse.id, result="success", ref=REF)
        else:
            state.riders.grab_failed[_key(c, horse)] = state.turn
            emit(state, "grab", msg="grab.failure", params={"name": c.name, "horse": name, "die": die}, ruling=r, char=c.id, horse=horse.id, result="failure", ref=REF)
    walk_move(state, c, mv)  # the move goes on


@HOOKS.provide(name="after_move_grab")
def after_move(state: GameState, c: Character, mv: dict) -> None:
    """At the end of a move in which ``c`` grabbed a horse: it goes beside him, parallel and
    slightly behind (§4.4.4), or anywhere next to him; nowhere: he lets go."""
    horse = state.riders.horses.get(mv.get("grabbed") or "")
    if horse is None or horse.led_by != c.id or not c.alive or c.hex is None or not c.mounted:
        return
    pos = place_by(state, c, horse)
    if pos is None:
        let_go(state, horse, "lead.why.cannot_follow", "MC §4.4.4")
        return
    if pos != (horse.hex, horse.facing):
        horse.hex, horse.facing = pos
        emit(state, "horse_follows", msg="lead.follows", params={"horse": animal(horse), "name": c.name}, char=c.id, horse=horse.id,
             ref="MC §4.4.4")


def explain_move(state: GameState, c: Character, path: tuple[Hex, ...], r: Ruling) -> None:
    """A step of a rider's move preview for each riderless horse he would be offered to grab
    on the way (the prompt of :func:`offer`)."""
    if not c.mounted or not state.riders.horses or len(path) < 2:
        return
    steps = riding.path_steps(state, c, path, riding.extra_costs(state))
    was = c.hexes
    offered: set[str] = set()
    for s in steps[:-1]:
        now = _counter(s.front, s.facing)
        for x in sorted(state.riders.horses.values(), key=lambda x: x.id):
            if (x.alive and x.id not in offered and any(a.distance(b) <= 1 for a in now for b in x.hexes)
                    and not any(a.distance(b) <= 1 for a in was for b in x.hexes)
                    and grab_problem(state, c, x) is None):
                offered.add(x.id)
                r.step(f"{s.front.label}: passing by {horse_name(x)}, he may try to take it by the bridle "
                       f"(1D10, 1-{success_max(state)})", REF)
        was = now


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
handlers.register("grab", check=handlers.no_prompt, explain=explain)  # §4.4.4: a prompt's answer
