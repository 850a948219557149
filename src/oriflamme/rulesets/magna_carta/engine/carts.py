"""Carts and draught animals on the move (Magna Carta §4.5.1, §4.5.4, §6.8).

A cart is a :class:`~oriflamme.rulesets.magna_carta.engine.state.Cart` of the game state (two hexes, front and
rear); the map the rules read (``state.gmap``) is the scenario's map without carts
(:func:`~oriflamme.rulesets.magna_carta.maps.cart_base`) with every cart drawn over it by
:func:`~oriflamme.rulesets.magna_carta.maps.with_carts` (:func:`redraw`, cached by cart positions): a stationary
cart is ``cart`` terrain (2 PM, medium cover, "+"), a moving one ``moving_cart`` (3 PM, medium
cover, "0", +1 to its shooters' die, no boarding).

* **Draught animals** (§4.5.1) are :class:`~oriflamme.rulesets.magna_carta.engine.state.Horse` counters of kind
  ``draught_horse`` or ``ox`` (two hexes like a riderless horse), ``harnessed_to`` their cart.
  Unharnessed, they are led by the bridle like any riderless horse (engine/led.py); shot at and
  attacked as riderless horses, defence 1, killed on C–F / E–H (engine/lone_horse.py, §4.5.1.1,
  §6.8). A harnessed animal is not taken by the bridle: it is driven with its cart.
* **Harnessing** (:class:`~oriflamme.rulesets.magna_carta.engine.actions.Harness`, :class:`Unharness`): "Attacher
  ou détacher un animal d'un chariot occupe un personnage pendant toute sa phase de jeu, que
  l'animal soit vivant ou mort." A character on foot who has not moved nor fired this phase,
  next to the animal (or, for a dead one, to the cart's front), does it and does nothing else
  this phase (he joins ``state.phase.clearing``, the set of characters busy for their whole phase,
  §4.2.3, and ``state.carts.harnessing``, which names his chore in refusals). An animal is harnessed standing in front of the cart: its rear half in one of the
  three X cells of the §4.5.1 figure (the hexes ahead of the cart's front hex), facing away.
* **Driving** (:class:`~oriflamme.rulesets.magna_carta.engine.actions.DriveCart`): the *team* is a chain of hexes,
  its head first: ``(animal's head, animal's rear, cart front, cart rear)``, or, pulled by
  men, ``(the leading man, cart front, cart rear)``. The path lists the hexes the head enters,
  one step at a time; at each step every link moves into the hex of the link before it (the
  cart follows like a trailer). Every step is checked: the head enters a hex open to it (its
  terrain and hexside cost, as for a riderless horse or for the leading man), holding no live
  character, horse or cart; the cart's new front can hold a cart; and the X rule holds after
  the step — the animal's rear (or the leading man) stands in one of the three X cells of the
  cart (§4.5.1). An animal walks on like a horse (§4.4.1: ahead for the terrain's cost, into a
  central side hex +1); it cannot swing round nor half-turn with a cart behind it. Men walk
  on ahead of the cart, no turning cost.
* **Allowance**: an animal's (``movement.toml`` ``draught_horse_movement``, ``ox_movement``),
  or 2 PM for two men pulling, 3 PM for three or more (§4.5.1); the weather divides it as any
  allowance (§3.2). The driver holds the reins on the cart's front hex (§4.5.4), or leads the
  animal on foot from a hex next to it; men pull with the leading man in an X cell and the
  other pullers next to the cart. Driver and pullers must not have moved this phase, and
  spend their whole movement driving; those on foot are set down next to the team after it
  moved, on the free hex nearest to where they stood (as a led horse follows, §4.4.4), or stay
  where they are if there is none.
* **Moving** (§4.5.4): "Un chariot est considéré en mouvement s'il a avancé ... pendant sa
  phase de mouvement." A cart that moved is moving until the movement step of the side that
  drove it comes round again (so that its passengers' defensive fire in the enemy's phase and
  their offensive fire at the start of their next phase are made from a moving cart, +1); it
  moves at most once a phase. The characters aboard (one per hex, two at most) move with it.
* **Retreat** (§6.8 "Quand un cheval de trait attelé à un chariot est obligé de reculer, le
  chariot recule aussi"): a lone animal backs away on the rider's retreat results
  (engine/lone_horse.py); in the harness it takes its cart with it (:func:`retreat_team`): the
  team backs along the cart's axis, the cart's rear first, each link taking the hex of the link
  behind it, the passengers riding along; every hex the cart's rear enters must hold no
  character, animal or other cart and be able to hold a cart, the hexside crossed open. If the
  team cannot back the whole distance it stays (as a lone horse with no way back does).
"""

from __future__ import annotations

import heapq

from ....geometry.hexgrid import Hex
from ..maps import GameMap, cart_animal_hexes, cart_base, cart_can_stand, effective_map, with_carts  # noqa: F401
from ..resolve.ruling import Ruling
from . import handlers
from .actions import DriveCart, Harness, Unharness
from .character import Character
from .events import animal, cart as cart_msg, emit, nested
from .animals import horse_name as animal_name  # one naming for every animal
from .state import MOVEMENT, Cart, GameState, Horse
from . import riding
from .movement import MoveContext, allowance, points_left

REF = "MC §4.5.1"
MOVING_REF = "MC §4.5.4"
KINDS = {"horse": "draught_horse", "ox": "ox"}   # a scenario's animal -> the Horse kind
KIND_NAMES = {"draught_horse": "draught horse", "ox": "ox"}
ALLOWANCE_RULE = {"draught_horse": "draught_horse_movement", "ox": "ox_movement"}


# =============================================================================================
# the map and the setting up
# =============================================================================================
def redraw(state: GameState) -> None:
    state.gmap = effective_map(state.gmap, state.carts.carts.values(), state.rules)


def place(state: GameState, specs) -> None:
    """Put the carts of a map spec (``[{front, rear[, animal]}]``, already validated by
    maps.with_carts) in the game state, with their harnessed animals, and draw them."""
    for i, spec in enumerate(specs, start=1):
        cid = f"cart{i}"
        cart = Cart(cid, Hex.from_label(str(spec["front"])), Hex.from_label(str(spec["rear"])))
        animal = spec.get("animal")
        if animal:
            head, _, facing = cart_animal_hexes(cart.front, cart.rear)
            hid = f"{cid}-{animal}"
            state.riders.horses[hid] = Horse(hid, head, facing, None, kind=KINDS[animal], harnessed_to=cid)
            cart.animal = hid
        state.carts.carts[cid] = cart
    redraw(state)


def on_movement_step(state: GameState) -> None:
    """The movement step of the active side begins: its carts that moved in its last phase
    stop counting as moving (§4.5.4)."""
    changed = False
    for cart in state.carts.carts.values():
        if cart.moving and cart.side == state.active:
            cart.moving = False
            changed = True
    if changed:
        redraw(state)


# =============================================================================================
# names and small queries
# =============================================================================================
def cart_name(cart: Cart) -> str:
    return f"the cart in {cart.front.label}-{cart.rear.label}"


def is_draught(horse: Horse) -> bool:
    return horse.kind in KIND_NAMES


def cart_at(state: GameState, h: Hex) -> Cart | None:
    for x in state.carts.carts.values():
        if h in x.hexes:
            return x
    return None


def animal_of(state: GameState, cart: Cart) -> Horse | None:
    """The live animal in the cart's harness, or None."""
    return state.riders.horses.get(cart.animal) if cart.animal else None


def dead_in_harness(state: GameState, cart: Cart) -> bool:
    return cart.animal is not None and cart.animal not in state.riders.horses


def x_cells(front: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three hexes ahead of a cart's front hex: the "X" of the §4.5.1 figure."""
    return (front.neighbour(facing - 1), front.neighbour(facing), front.neighbour(facing + 1))


def aboard(state: GameState, cart: Cart) -> list[Character]:
    return sorted((c for c in state.characters.values() if c.alive and c.hex in cart.hexes and not c.mounted),
                  key=lambda c: c.id)


def _probe(state: GameState, cid: str, side: str, movement: int, mounted: bool, armour: bool = False) -> Character:
    return Character(id=cid, name=cid, side=side, type="team", attack=0, defence=1, movement=movement,
                     wounded_attack=0, wounded_defence=1, wounded_movement=movement, stunned_defence=1,
                     armour=armour, mounted=mounted)


def _busy(state: GameState, c: Character) -> tuple[str, str] | None:
    """Why ``c`` cannot take on a cart's chore (drive, pull, harness) now, or None."""
    if state.step != MOVEMENT or c.side != state.active:
        return (f"{c.name} handles a cart in the movement step of his side's phase", "MC §2.1 (2), §4.5.1")
    if c.hex is None or not c.active:
        return (f"{c.name} is {c.status} and cannot handle a cart", "MC §1.2")
    if c.mounted:
        return (f"{c.name} is mounted: a cart is handled on foot", REF)
    if c.id in state.carts.harnessing:
        return (f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", REF)
    if c.id in state.phase.clearing:
        return (f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
    if c.id in state.phase.fired:
        return (f"{c.name} fired this phase", "MC §4.5.1, §5.1")
    if c.id in state.phase.stopped or state.phase.mp_spent.get(c.id, 0) or points_left(state, c) <= 0:
        return (f"{c.name} has moved this phase: handling a cart takes his whole movement", "MC §4.5.1")
    return None


# =============================================================================================
# driving
# =============================================================================================
class Team:
    """Who drives a cart and how fast: the chain of hexes, the allowance, the men."""

    def __init__(self, cart: Cart, animal: Horse | None, driver: Character, helpers: list[Character], allowance: int):
        self.cart, self.animal, self.driver, self.helpers, self.allowance = cart, animal, driver, helpers, allowance

    def chain(self) -> tuple[Hex, ...]:
        if self.animal is not None:
            return (*self.animal.hexes, self.cart.front, self.cart.rear)
        return (self.driver.hex, self.cart.front, self.cart.rear)


def team_problem(state: GameState, a: DriveCart) -> tuple[str, str] | Team:
    """The team that would move for ``a`` (its path unchecked), or why there is none."""
    ch = state.characters
    c = ch.get(a.char)
    if c is None:
        return (f"unknown character {a.char!r}", "")
    cart = state.carts.carts.get(a.cart)
    if cart is None:
        return (f"there is no cart {a.cart!r}", REF)
    if cart.moving and cart.side == state.active:
        return (f"{cart_name(cart)} has already moved this phase", MOVING_REF)
    prob = _busy(state, c)
    if prob:
        return prob
    if dead_in_harness(state, cart):
        return (f"a dead animal is still in the harness of {cart_name(cart)}: unharness it first", REF)
    animal = animal_of(state, cart)
    rules = state.rules.movement_rules
    if animal is not None:
        if a.helpers:
            return (f"{cart_name(cart)} is drawn by its animal: nobody else pulls it", REF)
        if animal.side is not None and animal.side != c.side:
            return (f"{animal_name(animal)} is held by side {animal.side}", "MC §4.4.4, §4.5.1")
        if c.hex != cart.front and not (c.hex not in cart.hexes
                                        and any(c.hex.distance(h) == 1 for h in animal.hexes)):
            return (f"{c.name} neither holds the reins on the cart's front hex ({cart.front.label}) nor stands "
                    f"next to {animal_name(animal)} to lead it", "MC §4.5.1, §4.5.4")
        pm = rules[ALLOWANCE_RULE[animal.kind]].value
        probe = _probe(state, f"team:{cart.id}", c.side, pm, mounted=True)
        return Team(cart, animal, c, [], allowance(state, probe))
    # pulled by men (§4.5.1)
    if c.hex in cart.hexes or c.hex not in x_cells(cart.front, cart.facing):
        return (f"{c.name} does not stand in one of the three hexes in front of {cart_name(cart)} "
                f"(the X of the figure), where a man pulling it must be", REF)
    if list(a.helpers) != sorted(set(a.helpers)) or c.id in a.helpers:
        return ("list the other men pulling once each, in id order", REF)
    helpers = []
    for hid in a.helpers:
        h = ch.get(hid)
        if h is None:
            return (f"unknown character {hid!r}", "")
        if h.side != c.side:
            return (f"{h.name} is not of side {c.side}", REF)
        prob = _busy(state, h)
        if prob:
            return prob
        if h.hex in cart.hexes or not any(h.hex.distance(x) == 1 for x in cart.hexes):
            return (f"{h.name} does not stand next to {cart_name(cart)} to pull it", REF)
        helpers.append(h)
    n = 1 + len(helpers)
    if n < rules["cart_pullers_min"].value:
        return (f"a cart is pulled by {rules['cart_pullers_min'].value} men at least", REF)
    pm = rules["cart_pull_two"].value if n == 2 else rules["cart_pull_three"].value
    probe = _probe(state, f"team:{cart.id}", c.side, pm, mounted=False)
    return Team(cart, None, c, helpers, allowance(state, probe))


def _step(state: GameState, team: Team, chain: tuple[Hex, ...], h: Hex, ctx, base: GameMap,
          blocked: dict[Hex, str]) -> tuple[int, tuple[Hex, ...], str] | tuple[None, str, str]:
    """One step of the team's head into ``h``: ``(cost, new chain, note)`` or ``(None, why, ref)``."""
    rs = state.rules
    head = chain[0]
    extra, note = 0, ""
    if team.animal is not None:
        facing = chain[1].direction_to(head)
        s = riding.classify(head, facing, h, riding.extra_costs(state))
        if s is None:
            return None, f"{h.label} is not next to the head of the team ({head.label})", REF
        if s.kind not in (riding.AHEAD, riding.SIDE):
            return (None, f"a harnessed {KIND_NAMES[team.animal.kind]} walks on ahead or to its sides: it cannot "
                          f"swing round nor turn on the spot into {h.label} with a cart behind it", "MC §4.4.1, §4.5.1")
        extra = s.extra
        if extra:
            note = f"turning into a central side hex, +{extra}"
    else:
        g, d = chain[1].direction_to(head), head.direction_to(h)
        if d is None:
            return None, f"{h.label} is not next to the head of the team ({head.label})", REF
        if (d - g) % 6 not in (0, 1, 5):
            return None, f"the men pulling the cart go on ahead of it: {h.label} is not ahead of {head.label}", REF
    if h in blocked:
        return None, blocked[h], REF
    cost = ctx.cost(head, h)
    if cost is None:
        why, ref = ctx.why(head, h)
        return None, why, ref
    new = (h,) + chain[:-1]
    front, rear, x = new[-2], new[-1], new[-3]
    why = cart_can_stand(rs, base, front)
    if why:
        return None, why, REF
    side = base.hexside(front, rear)
    if side and rs.hexsides[side].crossing_for(True) == "impassable":
        return None, f"a cart cannot straddle the {rs.hexsides[side].names[0].lower()} ({front.label}-{rear.label})", REF
    if x not in x_cells(front, rear.direction_to(front)):  # men: the "ahead" rule above already keeps it
        return (None, f"after {h.label}, the animal's rear half ({x.label}) would no longer stand in one of the three "
                      f"hexes in front of the cart (the X of the figure)", REF)
    return cost + extra, new, note


def _blocked(state: GameState, team: Team) -> dict[Hex, str]:
    """Hexes the head may not enter: live characters, horses, carts (its own included)."""
    out: dict[Hex, str] = {}
    for c in state.characters.values():
        if c.alive and c.hex is not None and not (c is team.driver and team.animal is None):
            for h in c.hexes:
                out[h] = f"{h.label} holds {c.name}: the team cannot enter it"
    for x in state.riders.horses.values():
        if x.alive and x is not team.animal:
            for h in x.hexes:
                out[h] = f"{h.label} holds {animal_name(x) if is_draught(x) else 'a horse'}: the team cannot enter it"
    for cart in state.carts.carts.values():
        for h in cart.hexes:
            out[h] = f"{h.label} holds {cart_name(cart)}: the team cannot enter it"
    return out


def _context(state: GameState, team: Team):
    probe = _probe(state, f"team:{team.cart.id}", team.driver.side, team.allowance, mounted=team.animal is not None,
                   armour=team.driver.armour if team.animal is None else False)
    return MoveContext(state, probe)


def check_drive(state: GameState, a: DriveCart) -> Ruling:
    r = Ruling(kind="drive_cart")
    team = team_problem(state, a)
    if not isinstance(team, Team):
        return r.refuse(*team)
    try:
        path = tuple(Hex.from_label(x) for x in a.path)
    except ValueError as exc:
        return r.refuse(str(exc))
    if not path:
        return r.refuse("the cart's path is empty", REF)
    cart = team.cart
    if team.animal is not None:
        how = (f"{team.driver.name} holds the reins" if team.driver.hex == cart.front
               else f"{team.driver.name} leads {animal_name(team.animal)} on foot")
        r.step(f"{how}: {cart_name(cart)} moves at the pace of its {KIND_NAMES[team.animal.kind]}, "
               f"{team.allowance} PM", "MC §4.5.1, §4.5.4")
    else:
        r.step(f"{1 + len(team.helpers)} men pull {cart_name(cart)}: {team.allowance} PM", REF)
    ctx, base, blocked = _context(state, team), cart_base(state.gmap), _blocked(state, team)
    chain, total = team.chain(), 0
    for h in path:
        out = _step(state, team, chain, h, ctx, base, blocked)
        if out[0] is None:
            return r.refuse(out[1], out[2])
        cost, chain, note = out
        total += cost
        if total > team.allowance:
            return r.refuse(f"{h.label}: {total} PM, more than the team's {team.allowance}", REF)
        r.step(f"{h.label}: {cost} PM{' (' + note + ')' if note else ''}", "MC §4.4.1" if note else "MC §4.5.1, §3.1")
    r.data.update(cost=total, chain=[x.label for x in chain], front=chain[-2].label, rear=chain[-1].label)
    r.step(f"{cart_name(cart)} ends in {chain[-2].label}-{chain[-1].label} ({total} PM): it is a moving cart",
           MOVING_REF)
    return r


def reachable(state: GameState, team: Team) -> dict[tuple[Hex, ...], tuple[int, tuple[Hex, ...]]]:
    """Every chain the team can end in: chain -> (cost, path), cheapest first found."""
    ctx, base, blocked = _context(state, team), cart_base(state.gmap), _blocked(state, team)
    start = team.chain()
    best: dict[tuple[Hex, ...], tuple[int, tuple[Hex, ...]]] = {}
    seen = {start: 0}
    heap = [(0, tuple(h.label for h in start), start, ())]
    while heap:
        cost, _, chain, path = heapq.heappop(heap)
        if seen.get(chain, 1 << 30) < cost:
            continue
        if path:
            best[chain] = (cost, path)
        for h in chain[0].neighbours():
            out = _step(state, team, chain, h, ctx, base, blocked)
            if out[0] is None:
                continue
            n_cost, n_chain = cost + out[0], out[1]
            if n_cost <= team.allowance and n_cost < seen.get(n_chain, 1 << 30):
                seen[n_chain] = n_cost
                heapq.heappush(heap, (n_cost, tuple(x.label for x in n_chain), n_chain, path + (h,)))
    return best


def drive_options(state: GameState) -> list[DriveCart]:
    if state.step != MOVEMENT or state.pending or not state.carts.carts:
        return []
    out: list[DriveCart] = []
    mine = sorted((c for c in state.characters.values() if c.side == state.active and c.hex is not None),
                  key=lambda c: c.id)
    for cart in sorted(state.carts.carts.values(), key=lambda x: x.id):
        if cart.moving and cart.side == state.active or dead_in_harness(state, cart):
            continue
        for c in mine:
            if _busy(state, c) is not None:
                continue
            if cart.animal is not None:
                tries = [()]
            else:
                others = [o.id for o in mine if o is not c and _busy(state, o) is None and o.hex not in cart.hexes
                          and any(o.hex.distance(x) == 1 for x in cart.hexes)]
                tries = [tuple(others[:k]) for k in (1, 2) if len(others) >= k]
            for helpers in tries:
                team = team_problem(state, DriveCart(c.id, cart.id, (), helpers))
                if not isinstance(team, Team):
                    continue
                for _, (_, path) in sorted(reachable(state, team).items(), key=lambda kv: [h.label for h in kv[0]]):
                    out.append(DriveCart(c.id, cart.id, tuple(h.label for h in path), helpers))
    return out


def drive(state: GameState, a: DriveCart) -> None:
    team = team_problem(state, a)
    r = check_drive(state, a)
    assert isinstance(team, Team) and r.legal
    cart = team.cart
    chain = tuple(Hex.from_label(x) for x in r.data["chain"])
    old_front, old_rear = cart.front, cart.rear
    riders = {c.id: c.hex for c in aboard(state, cart)}
    on_foot = [] if team.driver.hex in cart.hexes else [team.driver]
    if team.animal is None:
        team.driver.hex = chain[0]
        on_foot = []
    on_foot += team.helpers
    cart.front, cart.rear = chain[-2], chain[-1]
    for cid, h in riders.items():  # the characters aboard ride with it (§4.5.4)
        state.characters[cid].hex = cart.front if h == old_front else cart.rear
    if team.animal is not None:
        team.animal.hex, team.animal.facing = chain[0], chain[1].direction_to(chain[0])
        team.animal.side = team.driver.side
    cart.moving, cart.side = True, team.driver.side
    for c in [team.driver] + team.helpers:
        state.phase.mp_spent[c.id] = allowance(state, c)
    redraw(state)
    moved = {"a": f"{old_front.label}-{old_rear.label}", "b": f"{cart.front.label}-{cart.rear.label}", "n": r.data['cost']}
    if not team.helpers:
        msg, moved["name"] = "cart.drives", team.driver.name
    else:
        msg, moved["names"] = "cart.pull", ', '.join(h.name for h in [team.driver] + team.helpers)
    emit(state, "cart_moves", msg=msg, params=moved,
         char=team.driver.id, cart=cart.id, path=list(a.path), cost=r.data["cost"], ref="MC §4.5.1, §4.5.4")
    for c in on_foot:
        _follow(state, c, team)


def _follow(state: GameState, c: Character, team: Team) -> None:
    """A man leading the animal or pulling, left behind by the team, is set down next to it
    on the free hex nearest to where he stood (ties by label); none: he stays."""
    near = list(team.animal.hexes) if team.animal is not None else list(team.cart.hexes)
    if any(c.hex.distance(h) == 1 for h in near):
        return
    taken = set(_blocked(state, team)) | set(near)
    cands = []
    for x in near:
        for n in x.neighbours():
            if n in taken or n not in state.gmap or n in cands:
                continue
            if state.rules.terrain[state.gmap.terrain(n)].cost_for(False, c.armour) == "impassable":
                continue
            cands.append(n)
    if not cands:
        return
    to = min(cands, key=lambda n: (n.distance(c.hex), n.label))
    start, c.hex = c.hex, to
    emit(state, "cart_follows", msg="cart.follows", params={"name": c.name, "a": start.label, "b": to.label}, char=c.id,
         ref="MC §4.5.1, §4.4.4")


# =============================================================================================
# harnessing (§4.5.1: a whole phase)
# =============================================================================================
def _chore_problem(state: GameState, a) -> tuple[str, str] | tuple[Character, Cart]:
    """The character and the stationary cart of a (un)harnessing, or why there are none."""
    c = state.characters.get(a.char)
    if c is None:
        return (f"unknown character {a.char!r}", "")
    cart = state.carts.carts.get(a.cart)
    if cart is None:
        return (f"there is no cart {a.cart!r}", REF)
    prob = _busy(state, c)
    if prob:
        return prob
    if cart.moving:
        return (f"{cart_name(cart)} is moving", MOVING_REF)
    return c, cart


def harness_problem(state: GameState, a: Harness) -> tuple[str, str] | None:
    got = _chore_problem(state, a)
    if isinstance(got[0], str):
        return got
    c, cart = got
    if cart.animal is not None:
        return (f"{cart_name(cart)} already has an animal in its harness", REF)
    x = state.riders.horses.get(a.animal)
    if x is None or not x.alive or not is_draught(x):
        return ("there is no live draught animal (horse or ox) there", REF)
    if x.harnessed_to is not None:
        return (f"{animal_name(x)} is already harnessed", REF)
    if x.led_by not in (None, c.id):
        return (f"{animal_name(x)} is led by {state.characters[x.led_by].name}", "MC §4.4.4")
    if x.side not in (None, c.side):
        return (f"{animal_name(x)} is held by side {x.side}", "MC §4.4.4")
    head, hind = x.hexes
    g = cart.front.direction_to(hind)
    if hind not in x_cells(cart.front, cart.facing) or (x.facing - g) % 6 not in (0, 1, 5):
        return (f"{animal_name(x)} must stand in front of {cart_name(cart)}, its rear half in one of the three "
                f"hexes ahead of the front hex (the X of the figure), facing away from it", REF)
    if c.hex in x.hexes or not any(c.hex.distance(h) == 1 for h in x.hexes):
        return (f"{animal_name(x)} does not stand next to {c.name}", REF)
    return None


def unharness_problem(state: GameState, a: Unharness) -> tuple[str, str] | None:
    got = _chore_problem(state, a)
    if isinstance(got[0], str):
        return got
    c, cart = got
    if cart.animal is None:
        return (f"{cart_name(cart)} has no animal in its harness", REF)
    x = animal_of(state, cart)
    near = [cart.front] + (list(x.hexes) if x is not None else [])
    if not any(c.hex.distance(h) <= 1 for h in near) or (x is not None and c.hex in x.hexes):
        return (f"{c.name} stands neither on nor next to the front of {cart_name(cart)} or its animal", REF)
    return None


def harness_ruling(state: GameState, a) -> Ruling:
    r = Ruling(kind=a.type)
    prob = harness_problem(state, a) if isinstance(a, Harness) else unharness_problem(state, a)
    if prob:
        return r.refuse(*prob)
    c, cart = state.characters[a.char], state.carts.carts[a.cart]
    if isinstance(a, Harness):
        r.step(f"{c.name} harnesses {animal_name(state.riders.horses[a.animal])} to {cart_name(cart)}", REF)
    else:
        x = animal_of(state, cart)
        what = animal_name(x) if x is not None else "the dead animal"
        r.step(f"{c.name} unharnesses {what} from {cart_name(cart)}", REF)
    return r.step(f"it takes {c.name} his whole phase: he does nothing else", REF)


def harness_options(state: GameState) -> list:
    if state.step != MOVEMENT or state.pending or not state.carts.carts:
        return []
    out: list = []
    mine = sorted((c for c in state.characters.values() if c.side == state.active and c.hex is not None),
                  key=lambda c: c.id)
    for cart in sorted(state.carts.carts.values(), key=lambda x: x.id):
        for c in mine:
            if cart.animal is not None:
                a = Unharness(c.id, cart.id)
                if unharness_problem(state, a) is None:
                    out.append(a)
                continue
            for x in sorted(state.riders.horses.values(), key=lambda x: x.id):
                if is_draught(x) and x.harnessed_to is None:
                    a = Harness(c.id, cart.id, x.id)
                    if harness_problem(state, a) is None:
                        out.append(a)
    return out


def harness(state: GameState, a: Harness) -> None:
    c, cart, x = state.characters[a.char], state.carts.carts[a.cart], state.riders.horses[a.animal]
    x.harnessed_to, x.led_by, x.side = cart.id, None, c.side
    cart.animal = x.id
    state.phase.clearing.add(c.id)  # busy for the whole phase (state.phase.clearing: no move, fire, attack)
    state.carts.harnessing.add(c.id)
    emit(state, "harness", msg="cart.harness", params={"name": c.name, "animal": animal(x),
                                                       "hexes": f"{cart.front.label}-{cart.rear.label}"},
         char=c.id, cart=cart.id, horse=x.id, ref=REF)


def unharness(state: GameState, a: Unharness) -> None:
    c, cart = state.characters[a.char], state.carts.carts[a.cart]
    x = animal_of(state, cart)
    if x is not None:
        x.harnessed_to = None
    cart.animal = None
    state.phase.clearing.add(c.id)
    state.carts.harnessing.add(c.id)
    hexes = f"{cart.front.label}-{cart.rear.label}"
    if x is not None:
        emit(state, "unharness", msg="cart.unharness", params={"name": c.name, "animal": animal(x), "hexes": hexes},
             char=c.id, cart=cart.id, ref=REF)
        return
    emit(state, "unharness", msg="cart.unharness_dead", params={"name": c.name, "hexes": hexes},
         char=c.id, cart=cart.id, ref=REF)


# =============================================================================================
# a harnessed animal forced to retreat (§6.8)
# =============================================================================================
def retreat_team(state: GameState, horse: Horse, n: int, ref: str) -> bool:
    """Back the team of the harnessed ``horse`` ``n`` hexes with its cart (§6.8): True if it
    moved, False if it could not back the whole distance (it then stays)."""
    cart = state.carts.carts.get(horse.harnessed_to or "")
    if cart is None:
        return False
    base, rs = cart_base(state.gmap), state.rules
    back = cart.front.direction_to(cart.rear)
    chain = [horse.hexes[0], horse.hexes[1], cart.front, cart.rear]
    for _ in range(n):
        nxt = chain[-1].neighbour(back)
        why = cart_can_stand(rs, base, nxt)
        side = base.hexside(chain[-1], nxt) if why is None else None
        taken = False
        if why is not None:  # cart_can_stand's reason (maps.py) as a message
            why = (nested("map.off", hex=nxt.label) if nxt not in base else
                   nested("cart.cannot_stand", hex=nxt.label, terrain=rs.terrain[base.terrain(nxt)].names[0]))
        if why is None and side and rs.hexsides[side].crossing_for(False) == "impassable":
            why = nested("cart.hexside_between", hexside=rs.hexsides[side].names[0], a=chain[-1].label, b=nxt.label)
        if why is None and (state.live_at(nxt) or state.horse_at(nxt) is not None or cart_at(state, nxt)):
            why, taken = nxt.label, True
        if why:
            stuck = {"cart": cart_msg(cart), "n": n, "animal": animal(horse)}
            stuck.update({"hex": why} if taken else {"why": why})
            emit(state, "cart_retreat", msg="cart.back_taken" if taken else "cart.back_blocked", params=stuck,
                 cart=cart.id, horse=horse.id, ref=f"{ref}; MC §6.8")
            return False
        chain = chain[1:] + [nxt]
    old = cart.hexes
    riders = {c.id: c.hex for c in aboard(state, cart)}
    horse.hex, horse.facing = chain[0], chain[1].direction_to(chain[0])
    cart.front, cart.rear = chain[2], chain[3]
    for cid, h in riders.items():  # the characters aboard go with it (§4.5.4)
        state.characters[cid].hex = cart.front if h == old[0] else cart.rear
    redraw(state)
    emit(state, "cart_retreat", msg="cart.backs", params={"animal": animal(horse), "n": n, "cart": cart_msg(cart)},
         cart=cart.id, horse=horse.id, ref=f"{ref}; MC §6.8")
    return True


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
handlers.register("drive_cart", check=lambda state, a: handlers.refuse_unless_legal(check_drive(state, a)), do=drive,
                  explain=check_drive)
handlers.register("harness", check=lambda state, a: handlers.refuse_unless_legal(harness_ruling(state, a)), do=harness,
                  explain=harness_ruling)
handlers.register("unharness", check=lambda state, a: handlers.refuse_unless_legal(harness_ruling(state, a)),
                  do=unharness, explain=harness_ruling)
