"""Brigades (GF Le commandement > La brigade, seed 003 l.440-448): at least 2 units under one
character, all within 5 cm, at most FC units (with the unit he controls directly, l.452), never
taking a command test (l.444), in the same formation and facing (l.446); no creature or monster
(l.448) unless the character bears the Pipeau de Tlaloc (l.238); never under a character cursed
with Horreur (l.206).

The state is ``state.command["brigades"]``: ``{character id: {"units": [ids], "dissolved": bool}}``
(the units he was given), and each unit's ``brigade``: the character whose brigade it stands in now.
:func:`update` recomputes that after anything moved (OR-GF91): a unit out of the 5 cm, or not in
the brigade's formation and facing, is independent until it returns; the character farther than
5 cm from every unit of his brigade dissolves it for the rest of the battle (l.442).

A brigade is formed during its side's deployment (the ``brigade`` action, OR-GF90)."""

from __future__ import annotations

from collections import Counter

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from .actions import emit
from .command_data import data
from .items_play import same_item
from .state import Battle, Unit

REF = "GF seed 003 l.442"
REF_NO_TEST = "GF seed 003 l.444"
REF_SAME = "GF seed 003 l.446"
REF_BEASTS = "GF seed 003 l.448"
REF_FC = "GF seed 003 l.442, l.452"
REF_DISSOLVED = "GF seed 003 l.442"
EPS = 1e-6


def table(state: Battle) -> dict[str, dict]:
    return state.command["brigades"]


def commander_of(state: Battle, u: Unit) -> Unit | None:
    """The character whose brigade ``u`` stands in now, or None (independent)."""
    return state.units.get(u.brigade) if u.brigade else None


def members(state: Battle, cid: str) -> list[Unit]:
    """The units standing in ``cid``'s brigade now (after the last :func:`update`)."""
    return sorted((u for u in state.units.values() if u.brigade == cid), key=lambda u: u.id)


def active(state: Battle, side: str | None = None) -> list[str]:
    """The characters commanding a brigade not dissolved (of ``side``)."""
    return sorted(cid for cid, b in table(state).items() if not b["dissolved"] and cid in state.units
                  and (side is None or state.units[cid].side == side))


def effect(name: str) -> tuple[str, str]:
    """The curse, item or spell of the effect ``name`` (data/battle_orders.toml [[effect]]) and its ref."""
    e = data().effects[name]
    return (e.curse or e.item or e.spell), e.ref


_same = same_item  # a name as an army writes it against the printed one (case and spaces aside)


def may_take_beast(c: Unit) -> bool:
    return _same(c.magic_item, effect("beast_in_brigade")[0])


def capacity(state: Battle, c: Unit, units: list[str]) -> int:
    """How many of ``units`` he may command in a brigade: his FC, less the unit he controls
    directly when it is not one of them (l.452: 'Le nombre d'unités ne doit pas dépasser son FC')."""
    return c.FC - (1 if c.leads and c.leads not in units else 0)


def near(a: Unit, b: Unit, fps: dict | None = None) -> bool:
    fa = fps[a.id] if fps is not None and a.id in fps else a.footprint()
    fb = fps[b.id] if fps is not None and b.id in fps else b.footprint()
    return tt.nearest_distance(fa, fb) <= data().brigade.max_distance_cm + EPS


def chain(c: Unit, units: list[Unit], fps: dict | None = None) -> list[Unit]:
    """The units reached from the character by steps of at most 5 cm (OR-GF91)."""
    reached, frontier, rest = [], [c], list(units)
    while frontier:
        x = frontier.pop()
        hit = [u for u in rest if near(x, u, fps)]
        for u in hit:
            rest.remove(u)
        reached += hit
        frontier += hit
    return sorted(reached, key=lambda u: u.id)


def facing(u: Unit) -> tuple[str, int]:
    tol = max(data().play.facing_tolerance_deg, 1e-9)
    return u.formation, int(round((u.heading % 360) / tol)) % int(round(360 / tol))


# --- forming (deployment, OR-GF90) -----------------------------------------------------------------
def check_form(state: Battle, side: str, cid: str, uids: list[str]) -> None:
    """Refuse (IllegalAction with the rule) unless ``cid`` may command ``uids`` as a brigade now."""
    rule = data().brigade
    c = state.units.get(cid)
    if c is None or c.side != side or c.kind != "character" or not c.alive:
        raise IllegalAction(f"brigade: {cid!r} is not a character of side {side} on the table", REF)
    if state.phase != 0 or side in state.done:
        raise IllegalAction("brigade: a brigade is formed while its side deploys (OR-GF90)", REF)
    if cid in table(state):
        # as a unit is placed once (OR-GF32), a brigade is given once: undo to change it — so that a
        # deployment cannot go round forming and disbanding for ever (OR-GF90)
        raise IllegalAction(f"brigade: {c.name} has been given his brigade (once, while his side deploys; undo to "
                            f"change it)", REF)
    curse, ref = effect("no_brigade")
    if _same(c.curse, curse):
        raise IllegalAction(f"brigade: {c.name}'s weapon is cursed ({curse}): he cannot command a brigade, "
                            f"only control one unit directly", ref)
    if len(set(uids)) != len(uids):
        raise IllegalAction("brigade: a unit is listed twice", REF)
    if len(uids) < rule.min_units:
        raise IllegalAction(f"brigade: at least {rule.min_units} units (got {len(uids)})", rule.ref)
    cap = capacity(state, c, uids)
    if len(uids) > cap:
        extra = " and controls one more directly" if c.leads and c.leads not in uids else ""
        raise IllegalAction(f"brigade: {c.name} (FC {c.FC}{extra}) may command at most {max(cap, 0)} units in a "
                            f"brigade, not {len(uids)}", REF_FC)
    units, beasts = [], 0
    for uid in uids:
        u = state.units.get(uid)
        if u is None or u.side != side or not u.alive or u.kind == "character":
            raise IllegalAction(f"brigade: {uid!r} is not a unit of side {side} on the table", REF)
        if u.kind in ("creature", "monster"):
            beasts += 1
            item, ref = effect("beast_in_brigade")
            if not may_take_beast(c) or beasts > 1:
                raise IllegalAction(f"brigade: {u.name} is a {u.kind}: creatures and monsters cannot be brigaded "
                                    f"(only one, under a bearer of the {item})", REF_BEASTS if not may_take_beast(c) else ref)
        other = next((k for k, b in table(state).items() if k != cid and uid in b["units"] and not b["dissolved"]), None)
        if other is not None:
            raise IllegalAction(f"brigade: {u.name} is already in {state.units[other].name}'s brigade", REF)
        units.append(u)
    if len({facing(u) for u in units}) > 1:
        raise IllegalAction("brigade: its units must have the same formation and face the same way", REF_SAME)
    reached = chain(c, units)
    if len(reached) != len(units):
        far = sorted(u.name for u in units if u not in reached)
        raise IllegalAction(f"brigade: {', '.join(far)} not within {rule.max_distance_cm:g} cm of the others and of "
                            f"{c.name}", rule.ref)


def form(state: Battle, cid: str, uids: list[str]) -> None:
    c = state.units[cid]
    b = table(state)
    if not uids:
        if cid in b:
            del b[cid]
            emit(state, "brigade_disbanded", f"{c.name} no longer commands a brigade",
                 f"{c.name} ne commande plus de brigade", side=c.side, ref=REF, decision="OR-GF90", character=cid)
        update(state)
        return
    b[cid] = {"units": sorted(uids), "dissolved": False}
    names = ", ".join(state.units[u].name for u in sorted(uids))
    emit(state, "brigade", f"{c.name} (FC {c.FC}) commands a brigade: {names}",
         f"{c.name} (FC {c.FC}) commande une brigade : {names}", side=c.side, ref=REF, decision="OR-GF90",
         character=cid, units=sorted(uids))
    update(state)


def candidates(state: Battle, side: str) -> list[tuple[str, tuple[str, ...]]]:
    """The brigades legal_actions offers while ``side`` deploys: for each character not commanding
    one yet, the units within the 5 cm chain from him that no one else commands, in the formation and
    facing of the nearest, nearest first, as many as he may command (a sample: any legal brigade is
    accepted)."""
    out = []
    taken = {u for k, b in table(state).items() if not b["dissolved"] for u in b["units"]}
    for c in state.side_units(side):
        if c.kind != "character" or c.id in table(state) or _same(c.curse, effect("no_brigade")[0]):
            continue
        pool = [u for u in state.side_units(side) if u.kind == "troop" and u.id not in taken]
        reach = chain(c, pool)
        if not reach:
            continue
        dist = {u.id: tt.nearest_distance(c.footprint(), u.footprint()) for u in reach}
        first = min(reach, key=lambda u: (dist[u.id], u.id))
        same = chain(c, [u for u in reach if facing(u) == facing(first)])
        same.sort(key=lambda u: (dist.get(u.id, 1e9), u.id))
        pick = same[:max(0, capacity(state, c, [u.id for u in same]))]
        if len(pick) >= data().brigade.min_units:
            try:
                check_form(state, side, c.id, [u.id for u in pick])
            except IllegalAction:
                continue
            out.append((c.id, tuple(sorted(u.id for u in pick))))
    return out


def settle(state: Battle, side: str) -> None:
    """The side has deployed: a brigade of it whose units are no longer together is not formed."""
    update(state)
    for cid in [k for k in active(state, side)]:
        if len(members(state, cid)) < data().brigade.min_units:
            c = state.units[cid]
            del table(state)[cid]
            for u in state.units.values():
                if u.brigade == cid:
                    u.brigade = None
            emit(state, "brigade_disbanded", f"{c.name}'s brigade is not formed: its units are not together",
                 f"La brigade de {c.name} n'est pas formée : ses unités ne sont pas ensemble", side=side,
                 ref=data().brigade.ref, decision="OR-GF90", character=cid)


# --- in play (OR-GF91) -------------------------------------------------------------------------------------
def update(state: Battle) -> None:
    """Recompute who stands in each brigade (after any move, at deployment too): the character's
    5 cm chain among the units he was given that are in good order (a retreat or a rout separates a
    unit, l.442 'à cause d'un test'), in the formation and facing of most of them, at most his FC
    (nearest first); fewer than 2: no brigade at the moment (not dissolved). Out of deployment, the
    character farther than 5 cm from every unit he was given dissolves it for the rest of the battle."""
    rule = data().brigade
    before = {u.id: u.brigade for u in state.units.values() if u.brigade}
    for u in state.units.values():
        u.brigade = None
    for cid, b in sorted(table(state).items()):
        if b["dissolved"]:
            continue
        c = state.units.get(cid)
        given = [state.units[x] for x in b["units"] if x in state.units]
        fit = [u for u in given if u.alive and u.status == "ok"]
        if c is None or not c.alive:
            dissolve(state, cid, "he is out of the battle", "il est hors de la bataille", REF_DISSOLVED)
            continue
        fps = {u.id: u.footprint() for u in [c, *fit]}  # computed once per brigade
        if state.phase != 0 and not any(near(c, u, fps) for u in fit):
            dissolve(state, cid, "he left the 5 cm of his brigade", "il a quitté les 5 cm de sa brigade", REF_DISSOLVED)
            continue
        reach = chain(c, fit, fps)
        if not reach:
            continue
        counts = Counter(facing(u) for u in reach)
        rank: dict = {}
        for i, u in enumerate(reach):  # ties: the formation and facing of the lowest id
            rank.setdefault(facing(u), i)
        best = max(counts, key=lambda k: (counts[k], -rank[k]))
        same = chain(c, [u for u in reach if facing(u) == best], fps)
        dist = {u.id: tt.nearest_distance(fps[c.id], fps[u.id]) for u in same}
        same.sort(key=lambda u: (dist[u.id], u.id))
        same = same[:max(0, capacity(state, c, b["units"]))]
        if len(same) >= rule.min_units:
            for u in same:
                u.brigade = cid
    if state.phase == 0:
        return
    for u in state.units.values():
        was = before.get(u.id)
        if was == u.brigade or not u.alive:
            continue
        if was and was in table(state) and not table(state)[was]["dissolved"]:
            c = state.units[was]
            emit(state, "brigade_left", f"{u.name} is out of {c.name}'s brigade: independent until it returns",
                 f"{u.name} sort de la brigade de {c.name} : indépendante jusqu'à son retour", side=u.side,
                 ref=rule.ref, decision="OR-GF91", unit=u.id, character=was)
        if u.brigade:
            c = state.units[u.brigade]
            emit(state, "brigade_joined", f"{u.name} stands in {c.name}'s brigade",
                 f"{u.name} est dans la brigade de {c.name}", side=u.side, ref=rule.ref, decision="OR-GF91",
                 unit=u.id, character=u.brigade)


def dissolve(state: Battle, cid: str, why: str, why_fr: str, ref: str) -> None:
    """The brigade of ``cid`` is dissolved: its units are independent for the rest of the battle
    (l.442; the Possession curse, l.211, calls this too)."""
    b = table(state).get(cid)
    if b is None or b["dissolved"]:
        return
    b["dissolved"] = True
    for u in state.units.values():
        if u.brigade == cid:
            u.brigade = None
    c = state.units.get(cid)
    name = c.name if c else cid
    emit(state, "brigade_dissolved", f"{name}'s brigade is dissolved ({why}): its units are independent for the "
         f"rest of the battle", f"La brigade de {name} est dissoute ({why_fr}) : ses unités sont indépendantes pour "
         f"le reste de la bataille", side=c.side if c else None, ref=ref, decision="OR-GF91", character=cid)


def possession(state: Battle, cid: str) -> None:
    """The Possession curse took its bearer (l.211): his brigade is dissolved."""
    _, ref = effect("dissolve")
    dissolve(state, cid, "his weapon possesses him", "son arme le possède", ref)


def defiance(state: Battle, cid: str) -> str | None:
    """Défiance on a character commanding a brigade (l.1204): one of its units breaks formation —
    the one farthest from him leaves the brigade for the rest of the battle (OR-GF96). Returns it."""
    _, ref = effect("leaves_brigade")
    b = table(state).get(cid)
    c = state.units.get(cid)
    if b is None or b["dissolved"] or c is None:
        return None
    pool = members(state, cid) or [state.units[x] for x in b["units"] if x in state.units]
    if not pool:
        return None
    u = max(pool, key=lambda u: (tt.nearest_distance(c.footprint(), u.footprint()), u.id))
    b["units"] = [x for x in b["units"] if x != u.id]
    emit(state, "brigade_left", f"Défiance: {u.name} breaks formation and leaves {c.name}'s brigade",
         f"Défiance : {u.name} rompt la formation et quitte la brigade de {c.name}", side=c.side, ref=ref,
         decision="OR-GF96", unit=u.id, character=cid)
    update(state)
    return u.id


# --- phase 2 ----------------------------------------------------------------------------------------------
def exempt(state: Battle, u: Unit) -> bool:
    """A unit in a brigade never takes a command test (l.444)."""
    return u.brigade is not None and not data().brigade.takes_command_test


def announce(state: Battle) -> None:
    """Phase 2: each brigade's units obey automatically, without a test (l.444)."""
    for cid in active(state):
        units = members(state, cid)
        if not units:
            continue
        c = state.units[cid]
        names = ", ".join(u.name for u in units)
        emit(state, "brigade_obeys", f"{c.name}'s brigade ({names}) takes no command test: its units obey automatically",
             f"La brigade de {c.name} ({names}) ne fait pas de test de commandement : ses unités obéissent "
             f"automatiquement", side=c.side, ref=REF_NO_TEST, decision="GF-C3, GF-C5", character=cid,
             units=[u.id for u in units])


def view(state: Battle) -> list[dict]:
    """The brigades as both sides see them (their units stand together on the table)."""
    out = []
    for cid, b in sorted(table(state).items()):
        c = state.units.get(cid)
        out.append({"character": cid, "side": c.side if c else None, "units": [u.id for u in members(state, cid)],
                    "given": list(b["units"]), "dissolved": b["dissolved"], "ref": REF})
    return out
