"""The actions of a battle (their JSON codec) and its log.

======================  =====================================================================
``place``               deployment (turn 0): put a unit at (x, y, heading) in the side's zone
``end_phase``           the side has finished the step (deployment, its moves of phase 6)
``command_test``        phase 2: roll one unit's command test (d100)
``orders``              phase 3: ALL the side's orders at once, face down:
                        ``{"orders": {uid: {"order": id, "target": uid | null}}}``; a fire
                        order may announce up to three targets as a list of unit ids (l.840)
``move``                phase 6: move one unit to (x, y, heading)
``react``               phase 5: a charged unit's reaction: stand, counter_charge, evade, fire,
                        form_column, form_line, form_open, cancel_change (data/reactions.toml)
                        (any but stand rolls the reaction test, d100)
``brigade``             deployment: a character takes ``units`` as his brigade, once (undo to change it;
                        OR-GF90, brigades.py)
``battle_orders``       the written battle orders, face down: after both deployments one for each
                        brigade commander, or a change in phase 3 (read a full turn later):
                        ``{"orders": {character id: {"order": id, "target": unit id | null}}}``
``cast``                a priest's spell, at once, in one of its side's steps (phases 2, 3, 6):
                        ``{"unit": caster, "spell": id, "target": unit id | building id | null}``
                        (OR-GF40, OR-GF121); *Vol d'Ehecatl* adds the jump's destination ``"x"``,
                        ``"y"`` (and ``"heading"``, else kept) (OR-GF123)
``ambush``              encounter battle, deployment: the side that discovered its enemy places
                        one unit anywhere out of the enemy zone and sight (GF-K3, l.485)
``place_base``          encounter battle, deployment: put a decoy movement base in the zone (GF-K5)
``move_base``           encounter battle, phase 6 with the hidden units: move a decoy base (OR-GF101)
``hide``                encounter battle, deployment: a unit in a house, a building, jungle or a wood
                        stays off the table, hidden (l.497, OR-GF105); where it stands, or, for a unit
                        not yet placed, at the optional ``"x"``, ``"y"`` (and ``"heading"``) it is
                        placed at first (the place written on the battle plan)
``flank_march``         encounter battle, deployment: send a unit off the table to enter by a side
                        edge at ``y`` from turn ``turn`` (GF-K4, l.505-511), hidden from the enemy
``omen``                phases 2-3: spend omen points to re-roll a unit's failed command test
                        (l.1324, OR-GF115)
``intervene``           phases 3, 6: a priest's divine intervention for a friendly unit in base
                        contact, once a battle (l.155, OR-GF116): ``{"unit": priest, "target": unit}``
``cape``                phases 3, 6: a character carrying the « Cape de Coyolxauhqui » vanishes for 4
                        turns unless he engages a combat, once a battle (l.236, OR-GF147, OR-GF148):
                        ``{"unit": bearer}``
``conch``               phases 3, 6: a character carrying the « Conque d'Ehecatl » sounds it: +5 to the
                        morale of the friendly units within 30 cm for 2 turns, once a battle (l.232,
                        OR-GF152): ``{"unit": bearer}``
``feather``             phase 6: a character carrying the « Plume de Quetzalcoatl » flies at most 50 cm to
                        (x, y, heading) instead of his move, over whatever lies between, once a battle
                        (l.237, OR-GF153)
``release``             phases 3, 6: a priest cancels his « Possession de Coyolxauhqui » on an enemy
                        character (l.1282, OR-GF127): ``{"unit": priest, "target": character}``
======================  =====================================================================

Every event has ``n``, ``turn``, ``phase``, ``type``, ``side``, ``text``/``text_fr`` and ``ref``;
a ruling (``explanation``, ``citations``) where dice or a table decided. An event with
``private`` is seen only by that side (its orders before they are revealed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from oriflamme.core.errors import IllegalAction

from .state import SIDES, Battle, plain

TYPES = {"place": ("unit", "x", "y", "heading"), "end_phase": (), "command_test": ("unit",),
         "orders": ("orders",), "move": ("unit", "x", "y", "heading"), "cast": ("unit", "spell", "target"),
         "react": ("unit", "reaction"), "brigade": ("unit", "units"), "battle_orders": ("orders",),
         "ambush": ("unit", "x", "y", "heading"), "place_base": ("base", "x", "y"),
         "flank_march": ("unit", "edge", "y", "turn"), "hide": ("unit",),
         "omen": ("unit",), "intervene": ("unit", "target"),
         "release": ("unit", "target"), "cape": ("unit",), "conch": ("unit",),
         "feather": ("unit", "x", "y", "heading"), "move_base": ("base", "x", "y", "heading")}
#: fields an action may carry or leave out (absent: None): the jump of Vol d'Ehecatl (OR-GF123), the
#: place a unit not yet placed hides at (l.497, OR-GF105)
OPTIONAL = {"cast": ("x", "y", "heading"), "hide": ("x", "y", "heading")}
ORDER_FIELDS = ("order", "target")
MAX_UNITS = 200
MAX_TARGETS = 10  # the codec's bound; the rule's (three, l.830) is checked with the orders (orders.check)


@dataclass(frozen=True)
class Action:
    type: str
    side: str
    unit: str | None = None
    x: float | None = None
    y: float | None = None
    heading: float | None = None
    orders: tuple | None = None  # ((uid, order id, target | (targets…) | None), …) sorted by uid
    spell: str | None = None
    target: str | None = None
    reaction: str | None = None
    units: tuple | None = None   # a brigade's units, sorted
    base: str | None = None   # a movement base's id (encounter battles)
    edge: str | None = None   # a flank march's edge: "left" or "right"
    turn: int | None = None   # a flank march's first try

    def to_json(self) -> dict:
        out: dict = {"type": self.type, "side": self.side}
        for k in TYPES[self.type]:
            if k == "units":
                out["units"] = list(self.units or ())
            elif k == "orders":
                out["orders"] = {uid: {"order": oid, "target": list(tgt) if isinstance(tgt, tuple) else tgt}
                                 for uid, oid, tgt in self.orders}
            else:
                out[k] = getattr(self, k)
        for k in OPTIONAL.get(self.type, ()):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        return out

    def order_map(self) -> dict[str, tuple[str, str | None]]:
        return {uid: (oid, tgt) for uid, oid, tgt in (self.orders or ())}


def _number(data: dict, key: str) -> float:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise IllegalAction(f"field {key}: expected a number (cm or degrees), got {v!r:.40}")
    return float(v)


def orders_tuple(orders) -> tuple:
    if not isinstance(orders, dict):
        raise IllegalAction('field orders: expected {unit id: {"order": id, "target": unit id or null}}')
    if len(orders) > MAX_UNITS:
        raise IllegalAction(f"field orders: more than {MAX_UNITS} units")
    out = []
    for uid, o in orders.items():
        if not isinstance(o, dict):
            raise IllegalAction(f'field orders.{uid}: expected {{"order": id, "target": unit id or null}}')
        extra = set(o) - set(ORDER_FIELDS)
        if extra:
            raise IllegalAction(f"field orders.{uid}: unknown field {sorted(map(str, extra))[0]} "
                                f"(an order has order and target)")
        if not isinstance(o.get("order"), str):
            raise IllegalAction(f"field orders.{uid}.order: expected an order id")
        tgt = o.get("target")
        if isinstance(tgt, list):
            if not tgt or len(tgt) > MAX_TARGETS or not all(isinstance(t, str) for t in tgt):
                raise IllegalAction(f"field orders.{uid}.target: expected a unit id, null or a list of 1 to "
                                    f"{MAX_TARGETS} unit ids")
            tgt = tuple(tgt)
        elif tgt is not None and not isinstance(tgt, str):
            raise IllegalAction(f"field orders.{uid}.target: expected a unit id or null")
        out.append((str(uid), o["order"], tgt))
    return tuple(sorted(out))


def action_from_json(data) -> Action:
    if not isinstance(data, dict):
        raise IllegalAction(f"an action must be a JSON object (got {data!r:.60})")
    kind = data.get("type")
    if kind not in TYPES:
        raise IllegalAction(f"field type: expected one of {', '.join(TYPES)} (got {kind!r:.40})")
    side = data.get("side")
    if side not in SIDES:
        raise IllegalAction(f"field side: expected A or B (got {side!r:.20})")
    fields = TYPES[kind]
    extra = set(data) - {"type", "side", *fields, *OPTIONAL.get(kind, ())}
    if extra:
        raise IllegalAction(f"unknown field(s) for {kind}: {', '.join(sorted(map(str, extra)))}")
    vals: dict = {}
    for f in OPTIONAL.get(kind, ()):
        if data.get(f) is not None:
            vals[f] = _number(data, f)
    for f in fields:
        if f not in data:
            raise IllegalAction(f"field {f}: missing for {kind}")
        if f in ("unit", "spell", "reaction", "base", "edge"):
            if not isinstance(data[f], str):
                raise IllegalAction(f"field {f}: expected {'a unit' if f == 'unit' else 'a ' + f} id")
            vals[f] = data[f]
        elif f == "turn":
            if isinstance(data[f], bool) or not isinstance(data[f], int) or not 0 <= data[f] <= 1000:
                raise IllegalAction("field turn: expected a turn number")
            vals[f] = data[f]
        elif f == "target":
            if data[f] is not None and not isinstance(data[f], str):
                raise IllegalAction("field target: expected a unit id or null")
            vals[f] = data[f]
        elif f == "orders":
            vals[f] = orders_tuple(data[f])
        elif f == "units":
            v = data[f]
            if not isinstance(v, list) or len(v) > MAX_UNITS or not all(isinstance(x, str) for x in v):
                raise IllegalAction("field units: expected a list of unit ids")
            vals[f] = tuple(sorted(v))
        else:
            vals[f] = _number(data, f)
    return Action(kind, side, **vals)


def choice_of(data: dict) -> str:
    """The choice an action makes: a move's or a placement's destination and an orders action's
    orders are its free parameters (legal_actions lists samples; apply checks any)."""
    import json
    if isinstance(data, dict) and data.get("type") in ("move", "place", "ambush", "place_base", "move_base"):
        return json.dumps({"type": data["type"], "side": data.get("side"), "unit": data.get("unit"),
                           "base": data.get("base")}, sort_keys=True)
    if isinstance(data, dict) and data.get("type") == "flank_march":
        # where on the edge and from which turn are written on the plan: free parameters
        return json.dumps({"type": "flank_march", "side": data.get("side"), "unit": data.get("unit"),
                           "edge": data.get("edge")}, sort_keys=True)
    if isinstance(data, dict) and data.get("type") in ("orders", "battle_orders"):
        return json.dumps({"type": data["type"], "side": data.get("side")}, sort_keys=True)
    if isinstance(data, dict) and data.get("type") == "cast":
        # a spell's target and the jump's destination (Vol d'Ehecatl, OR-GF123) are free parameters:
        # legal_actions lists the two nearest targets its text allows, apply checks any (OR-GF40)
        return json.dumps({k: v for k, v in data.items() if k not in ("target", "x", "y", "heading")}, sort_keys=True)
    if isinstance(data, dict) and data.get("type") == "hide" and data.get("x") is not None:
        # a hiding unit's place is a free parameter
        return json.dumps({k: v for k, v in data.items() if k not in ("x", "y", "heading")}, sort_keys=True)
    if isinstance(data, dict) and data.get("type") == "brigade":
        return json.dumps({"type": "brigade", "side": data.get("side"), "unit": data.get("unit")}, sort_keys=True)
    return json.dumps(data, sort_keys=True)


# --- the log ----------------------------------------------------------------------------------
def emit(state: Battle, kind: str, text: str, text_fr: str, *, side: str | None = None, ref: str = "",
         private: str | None = None, **extra) -> dict:
    ev = {"n": len(state.log), "turn": state.turn, "phase": state.phase, "type": kind, "side": side,
          "text": text, "text_fr": text_fr, "ref": ref}
    if private is None:
        # an event about a unit the enemy cannot see (on a movement base, marching on a flank, hidden
        # in a building) is its side's alone (GF-K4, GF-K5; OR-GF103; l.784, OR-GF83) — and so is one
        # naming a unit of a side still writing its plan in an encounter's deployment (OR-GF100)
        for uid in (extra.get("unit"), extra.get("character"), *(extra.get("units") or ())):
            u = state.units.get(uid) if isinstance(uid, str) else None
            if u is not None and (u.base is not None or u.status == "flank" or u.hidden
                                  or (state.fog and state.turn == 0 and state.phase == 0
                                      and u.side not in state.done)):
                private = u.side
                break
    if private is not None:
        ev["private"] = private
    ev.update(plain(extra))
    state.log.append(ev)
    return ev


def refuse(reason: str, ref: str = "") -> None:
    raise IllegalAction(reason, ref) if ref else IllegalAction(reason)


def record(state: Battle, events: list[dict]) -> None:
    """gf-combat's events into the log: each keeps its fields; its text is its first explanation
    step (a morale test's: its last, the result); the steps and citations are its ruling."""
    for ev in events:
        if not ev:
            continue
        ev = plain(ev)
        steps = list(ev.get("explanation") or [])
        cites = list(ev.get("citations") or [])
        text = steps[-1] if ev.get("type") in ("morale", "rally") and steps else (steps[0] if steps else ev.get("type", ""))
        text_fr = ev.get("text_fr") or text
        text = ev.get("text") or text
        body = {k: v for k, v in ev.items() if k not in ("explanation", "citations", "type", "side", "n", "turn",
                                                           "phase", "text", "text_fr", "ref")}
        ruling = body.pop("ruling", None)
        merged = {"explanation": steps, "citations": cites}
        if isinstance(ruling, dict):
            merged["table"] = {k: v for k, v in ruling.items() if k not in ("explanation", "citations")}
        emit(state, ev.get("type", "combat"), text, text_fr, side=ev.get("side"), ref=cites[0] if cites else "",
             ruling=merged, **body)
