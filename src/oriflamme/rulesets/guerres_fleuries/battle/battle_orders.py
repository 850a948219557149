"""Written battle orders (GF Avant la bataille > Ordre de bataille, seed 003 l.513-531).

Once both sides have deployed, each general writes, face down, an order for each character
commanding a brigade (OR-GF92): Attaquer, Harceler, Soutenir ou protéger une unité amie, Tenir une
position (l.528-531, ``data/battle_orders.toml [[battle_order]]``). The units standing in that
character's brigade carry it out: their orders of each turn are filtered by it (OR-GF95: what each
forbids, the reactions it keeps, the 20 cm of a support), and an order it forbids is refused naming
it. The unit the character controls directly needs no written order (l.522).

A new order may be written in phase 3, once a turn, and is read a full turn later, in phase 3 of
the next turn (l.524, OR-GF93); it cannot be written for, nor read by, a character in melee,
charging, routing or evading. Written orders are secret (OR-GF94): the events carrying them are
private to their side, the view shows a side only its own, the record hides the action from the
other seat (``Ruleset.private_action``); only their effects are seen.

State: ``state.command["written"]`` (in force) and ``["pending"]`` (written, not read),
``{character id: {"order", "target", "turn"}}``; ``["written_in"]`` per side; ``["changed"]`` per
side: the turn it last wrote a change."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from . import brigades, fighters, fire_play, moves
from .actions import emit
from .command_data import BattleOrder, data
from .state import SIDES, Battle, Unit

REF_WRITE = "GF seed 003 l.515"
REF_CHANGE = "GF seed 003 l.524"
REF_DIRECT = "GF seed 003 l.522"
REF_LAPSE = "GF seed 003 l.517-518"
EPS = 1e-6


def rows() -> dict[str, BattleOrder]:
    return data().orders


def written(state: Battle) -> dict[str, dict]:
    return state.command["written"]


def pending(state: Battle) -> dict[str, dict]:
    return state.command["pending"]


def commanders(state: Battle, side: str) -> list[Unit]:
    """The characters of ``side`` commanding a brigade not dissolved, alive."""
    return [state.units[c] for c in brigades.active(state, side) if state.units[c].alive]


# --- who writes, what may be written ----------------------------------------------------------------------
def to_write(state: Battle) -> list[str]:
    """The sides still to write their first battle orders (the step after both deployments)."""
    out = []
    for side in SIDES:
        if state.command["written_in"].get(side):
            continue
        if commanders(state, side):
            out.append(side)
        else:
            state.command["written_in"][side] = True
    return out


def targets(state: Battle, c: Unit) -> list[str]:
    """The friendly units a character's brigade may support: any unit of his side not in his brigade
    (nearest first)."""
    mine = set(brigades.table(state).get(c.id, {}).get("units", []))
    pool = [u for u in state.side_units(c.side) if u.kind != "character" and u.id not in mine]
    return [u.id for u in sorted(pool, key=lambda u: (tt.nearest_distance(c.footprint(), u.footprint()), u.id))]


def choices(state: Battle, c: Unit) -> list[dict]:
    """The battle orders that may be written for ``c``: ``{"id", "name", "name_fr", "needs_target", "targets", "ref"}``."""
    out = []
    for o in rows().values():
        tg = targets(state, c) if o.target == "friend" else None
        if o.target and not tg:
            continue
        out.append({"id": o.id, "name": o.name_en, "name_fr": o.printed, "needs_target": bool(o.target),
                    "targets": tg, "ref": o.ref})
    return out


def barred(state: Battle, c: Unit) -> str | None:
    """Why ``c`` can neither be written nor read an order now (l.524), or None."""
    if fighters.in_combat(state, c):
        return "in melee"
    if c.charging or (state.revealed and c.order == "charger"):
        return "charging"
    if c.status == "rout":
        return "routing"
    if c.order == "s_evader" and state.revealed:
        return "evading"
    return None


def may_change(state: Battle, side: str) -> bool:
    """Phase 3, before the side's orders, once a turn (OR-GF93)."""
    return (state.phase == 3 and not state.orders_in.get(side) and state.command["written_in"].get(side, False)
            and state.command["changed"].get(side) != state.turn
            and any(barred(state, c) is None for c in commanders(state, side)))


def check(state: Battle, side: str, given: dict[str, tuple[str, str | None]]) -> None:
    """Refuse (IllegalAction naming the rule) unless ``given`` may be written now: after both
    deployments, one order for each character commanding a brigade (l.515); in phase 3, a change
    for some of them, once a turn, none in melee, charging, routing or evading (l.524)."""
    first = state.phase == 0
    if first:
        if state.command["written_in"].get(side) or any(s not in state.done for s in SIDES):
            raise IllegalAction("battle orders: they are written once both sides have deployed, once", REF_WRITE)
        need = {c.id for c in commanders(state, side)}
        if set(given) != need:
            names = ", ".join(state.units[c].name for c in sorted(need)) or "none"
            raise IllegalAction(f"battle orders: write one for each character commanding a brigade ({names})", REF_WRITE)
    else:
        if not may_change(state, side):
            raise IllegalAction("battle orders: a change is written in phase 3, before the side's orders, once a turn "
                                "(it is read a full turn later)", REF_CHANGE)
        if not given:
            raise IllegalAction("battle orders: name at least one character", REF_CHANGE)
    for cid, (oid, target) in given.items():
        c = state.units.get(cid)
        if c is None or c.side != side or cid not in brigades.active(state, side) or not c.alive:
            raise IllegalAction(f"battle orders: {cid!r} is not a character of side {side} commanding a brigade",
                                REF_WRITE)
        why = barred(state, c)
        if why and not first:
            raise IllegalAction(f"battle orders: no order can be written for {c.name} now ({why})", REF_CHANGE)
        allowed = {o["id"]: o for o in choices(state, c)}
        if oid not in allowed:
            raise IllegalAction(f"battle orders: {oid!r} is not a battle order (may: {', '.join(allowed)})",
                                "GF seed 003 l.526-531")
        o = allowed[oid]
        if o["needs_target"] and target not in (o["targets"] or []):
            raise IllegalAction(f"battle orders: {c.name}'s order {oid} names the friendly unit to support "
                                f"(among {', '.join(o['targets'] or [])}; got {target!r})", o["ref"])
        if not o["needs_target"] and target is not None:
            raise IllegalAction(f"battle orders: the order {oid} takes no target", o["ref"])


def _json(state: Battle, entry: dict | None) -> dict | None:
    if not entry:
        return None
    row = rows()[entry["order"]]
    tgt = state.units.get(entry.get("target") or "")
    return {"id": row.id, "name": row.name_en, "name_fr": row.printed, "target": entry.get("target"),
            "target_name": tgt.name if tgt else None, "turn": entry.get("turn"), "ref": row.ref,
            "decision": row.decision}


def write(state: Battle, side: str, given: dict[str, tuple[str, str | None]]) -> None:
    first = state.phase == 0
    book = written(state) if first else pending(state)
    for cid, (oid, target) in sorted(given.items()):
        book[cid] = {"order": oid, "target": target, "turn": state.turn}
    listing = {cid: _json(state, book[cid]) for cid in sorted(given)}
    if first:
        state.command["written_in"][side] = True
        text = (f"Side {side} writes its battle orders ({len(given)} characters)",
                f"Le camp {side} rédige ses ordres de bataille ({len(given)} personnages)")
    else:
        state.command["changed"][side] = state.turn
        text = (f"Side {side} writes new battle orders ({len(given)} characters): read in a full turn",
                f"Le camp {side} rédige de nouveaux ordres de bataille ({len(given)} personnages) : lus dans un tour complet")
    emit(state, "battle_orders", *text, side=side, ref=REF_WRITE if first else REF_CHANGE, decision="OR-GF92, OR-GF94",
         private=side, battle_orders=listing)
    emit(state, "battle_orders_given", f"Side {side} has written battle orders (secret)",
         f"Le camp {side} a rédigé des ordres de bataille (secrets)", side=side,
         ref=REF_WRITE if first else REF_CHANGE, decision="OR-GF94")


def deliver(state: Battle) -> None:
    """Phase 3: a new order written a full turn ago is read, unless its character is barred
    (l.524); an order whose brigade is dissolved or whose friend is gone lapses (l.518)."""
    for cid in sorted(pending(state)):
        p = pending(state)[cid]
        c = state.units.get(cid)
        if c is None or p["turn"] + data().written.delay_turns > state.turn:
            continue
        why = barred(state, c) if c.alive else "out of the battle"
        if why:
            emit(state, "battle_order_late", f"{c.name} cannot read his new battle order now ({why})",
                 f"{c.name} ne peut pas lire son nouvel ordre de bataille maintenant", side=c.side, ref=REF_CHANGE,
                 decision="OR-GF93", private=c.side, character=cid)
            continue
        written(state)[cid] = pending(state).pop(cid)
        o = _json(state, written(state)[cid])
        emit(state, "battle_order_read", f"{c.name} reads his new battle order: {o['name']}",
             f"{c.name} lit son nouvel ordre de bataille : {o['name_fr']}", side=c.side, ref=REF_CHANGE,
             decision="OR-GF93", private=c.side, character=cid, battle_order=o)
    for cid in sorted(written(state)):
        w = written(state)[cid]
        c = state.units.get(cid)
        b = brigades.table(state).get(cid)
        gone = w.get("target") and not (w["target"] in state.units and state.units[w["target"]].alive)
        if c is not None and (b is None or b["dissolved"] or gone):
            del written(state)[cid]
            why = ("the unit to support is gone", "l'unité à soutenir n'est plus là") if gone else \
                ("his brigade is dissolved", "sa brigade est dissoute")
            emit(state, "battle_order_lapsed", f"{c.name}'s battle order no longer applies ({why[0]})",
                 f"L'ordre de bataille de {c.name} ne s'applique plus ({why[1]})", side=c.side, ref=REF_LAPSE,
                 decision="OR-GF93", private=c.side, character=cid)


# --- what a written order does to the units' orders (OR-GF95) -----------------------------------------------
def bound(state: Battle, u: Unit) -> tuple[str, dict, BattleOrder] | None:
    """The written order ``u`` carries out now: its brigade's, unless a character controls it
    directly (l.522)."""
    if u.brigade is None or u.led_by is not None:
        return None
    w = written(state).get(u.brigade)
    if not w:
        return None
    return u.brigade, w, rows()[w["order"]]


def threat(state: Battle, e: Unit, friend: Unit) -> bool:
    """An enemy able to charge ``friend`` (within its charge move, ``friend`` in its front arc) or to
    fire at it (a missile weapon in range)."""
    if not e.alive or e.side == friend.side:
        return False
    reach, _ = moves.allowance(e, "charge")
    ffp = friend.footprint()
    if tt.nearest_distance(e.footprint(), ffp) <= reach and tt.arc_of(e.pose, e.width, e.depth, ffp) == "front":
        return True
    if e.missile and moves.missile_weapon(e):
        try:
            return fire_play.distance(e, friend)[0] <= fire_play.max_range(e)
        except Exception:  # noqa: BLE001 - a weapon without a range row threatens nothing here
            return False
    return False


def filter_options(state: Battle, u: Unit, opts: list[dict], may_charge=None) -> list[dict]:
    """``orders.options`` less what ``u``'s written order forbids; a support charges only an enemy
    threatening its friend, unless the friend may charge too (``may_charge(friend)``; the whole set
    is checked by :func:`check_set`)."""
    b = bound(state, u)
    if b is None:
        return opts
    _, w, row = b
    out = [o for o in opts if o["id"] not in row.forbids]
    friend = state.units.get(w.get("target") or "")
    if row.target == "friend" and friend is not None and not (may_charge and may_charge(friend)):
        out = [{**o, "targets": [t for t in o["targets"] if threat(state, state.units[t], friend)]}
               if o["id"] == "charger" else o for o in out]
        out = [o for o in out if o["id"] != "charger" or o["targets"]]
    return out


def refusal(state: Battle, u: Unit, oid: str) -> IllegalAction | None:
    """The refusal naming the written order when it forbids ``oid`` for ``u``."""
    b = bound(state, u)
    if b is None or oid not in b[2].forbids:
        return None
    c = state.units[b[0]]
    return IllegalAction(f"orders: {u.name} carries out {c.name}'s battle order « {b[2].printed} »: it may not "
                         f"be given {oid!r}", b[2].ref)


def support_charge_ok(state: Battle, u: Unit, target: str | None, given: dict) -> bool:
    """A support's charge: together with its friend (ordered to charge in the same set) or at an
    enemy able to charge the friend or fire at it (l.530)."""
    b = bound(state, u)
    if b is None or b[2].target != "friend":
        return True
    friend = state.units.get(b[1].get("target") or "")
    if friend is None or target not in state.units:
        return True
    return threat(state, state.units[target], friend) or given.get(friend.id, ("",))[0] == "charger"


def check_set(state: Battle, side: str, given: dict[str, tuple[str, str | None]]) -> None:
    for uid, (oid, target) in sorted(given.items()):
        u = state.units[uid]
        if oid == "charger" and not support_charge_ok(state, u, target, given):
            b = bound(state, u)
            raise IllegalAction(f"orders: {u.name} supports {state.units[b[1]['target']].name}: it charges only with "
                                f"it or at an enemy able to charge it or fire at it", b[2].ref)


def legalize(state: Battle, side: str, chosen: dict) -> dict:
    """``chosen`` less the supports' charges :func:`check_set` refuses (for the typical sets)."""
    chosen = dict(chosen)
    while True:
        bad = [uid for uid, (oid, t) in sorted(chosen.items())
               if oid == "charger" and not support_charge_ok(state, state.units[uid], t, chosen)]
        if not bad:
            return chosen
        del chosen[bad[0]]


def check_move(state: Battle, u: Unit, x: float, y: float, heading: float) -> None:
    """A support may not end a move more than 20 cm from its friend unless nearer than it started (l.530)."""
    b = bound(state, u)
    if b is None or not b[2].stay_within_cm:
        return
    friend = state.units.get(b[1].get("target") or "")
    if friend is None or not friend.alive:
        return
    ffp = friend.footprint()
    start = tt.nearest_distance(u.footprint(), ffp)
    end = tt.nearest_distance(moves.footprint_at(u, x, y, heading), ffp)
    if end > b[2].stay_within_cm + EPS and end > start + EPS:
        raise IllegalAction(f"{u.name} supports {friend.name}: it stays within {b[2].stay_within_cm:g} cm of it "
                            f"({end:.1f} cm after this move)", b[2].ref)


def reactions_kept(state: Battle, u: Unit, offered: list[str]) -> list[str]:
    """The reactions a charged unit keeps under its written order: Harceler evades when it can,
    never counter-charges; Tenir stands or fires (l.529, l.531)."""
    b = bound(state, u)
    if b is None or not b[2].reactions:
        return offered
    kept = [r for r in offered if r in b[2].reactions]
    if kept:
        return kept
    return [r for r in offered if r in ("stand", "fire")]


def check_reaction(state: Battle, u: Unit, reaction: str, offered: list[str]) -> None:
    kept = reactions_kept(state, u, offered)
    if reaction in offered and reaction not in kept:
        b = bound(state, u)
        raise IllegalAction(f"{u.name} carries out the battle order « {b[2].printed} »: it may {', '.join(kept)} "
                            f"when charged, not {reaction}", b[2].ref)


# --- sets for legal_actions, views, determinize ---------------------------------------------------------
def first_sets(state: Battle, side: str) -> list[dict[str, tuple[str, str | None]]]:
    """The first written orders legal_actions lists: the same order for every commander (a support
    names each one's nearest friend). Any legal set is accepted."""
    cs = commanders(state, side)
    out = []
    for oid, row in rows().items():
        chosen = {}
        for c in cs:
            tg = targets(state, c) if row.target == "friend" else [None]
            if not tg:
                break
            chosen[c.id] = (oid, tg[0])
        else:
            out.append(chosen)
    return out


def change_sets(state: Battle, side: str) -> list[dict[str, tuple[str, str | None]]]:
    """The changes legal_actions lists in phase 3: one commander, another order."""
    if not may_change(state, side):
        return []
    out = []
    for c in commanders(state, side):
        if barred(state, c):
            continue
        now = (pending(state).get(c.id) or written(state).get(c.id) or {}).get("order")
        for oid, row in rows().items():
            if oid == now:
                continue
            tg = targets(state, c)[:1] if row.target == "friend" else [None]
            if tg:
                out.append({c.id: (oid, tg[0])})
    return out


def side_view(state: Battle, side: str | None) -> dict:
    """A side's own written orders (in force and pending), per character; nothing for the other
    side or a spectator (OR-GF94)."""
    if side is None:
        return {}
    out = {}
    for c in commanders(state, side):
        out[c.id] = {"order": _json(state, written(state).get(c.id)), "pending": _json(state, pending(state).get(c.id))}
    return out


def unit_view(state: Battle, u: Unit, side: str | None) -> dict | None:
    """The written order a unit of ``side`` carries out (None for the other side's units)."""
    if side is None or u.side != side:
        return None
    b = bound(state, u)
    return _json(state, b[1]) if b else None


def redraw(state: Battle, enemy: str, rng) -> None:
    """For a search that must not know them: the enemy's written orders (in force and pending) are
    replaced by orders drawn with ``rng`` among those it could have written (OR-GF94)."""
    for book in (written(state), pending(state)):
        for cid in sorted(book):
            c = state.units.get(cid)
            if c is None or c.side != enemy:
                continue
            opts = choices(state, c)
            if not opts:
                continue
            o = rng.choice(opts)
            book[cid] = {"order": o["id"], "target": o["targets"][0] if o["needs_target"] else None,
                         "turn": book[cid]["turn"]}
    for i, ev in enumerate(state.log):
        if ev.get("private") == enemy and ev.get("type", "").startswith("battle_order"):
            state.log[i] = {k: v for k, v in ev.items() if k not in ("battle_orders", "battle_order")}
