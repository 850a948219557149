"""Magna Carta's side of the web app: the legal actions grouped for the board (with costs and
odds), a rider's move list fetched on selection, the replay frames, the board JSON, the
display names a view adds, and the FR/EN rendering of events, rulings and results.

The generic web app (:mod:`oriflamme.web`) reaches these only through the ruleset's UI hooks
(:class:`oriflamme.rulesets.magna_carta.ruleset.MagnaCarta`); it imports nothing from here.
"""

from __future__ import annotations

from . import display, i18n
from .engine import explain, moves_of
from .engine.actions import (AttackHorse, Attack, Carry, ClearBodies, Dismount, EndStep, EnterLitter, Fire, FireAtHorse,
                             Kneel, Lead, LeaveLitter, Mount, Move, Rise)
from .engine.camels import mount_of
from .engine.game import MoveSummary, hex_labels, move_table, view_actions


#: Riders have one move per (front hex, facing) reached, each with its whole path: about 600 a
#: rider, 540 KB for the four riders of ``the-ford``. Their lists are not put in the view; the
#: client asks ``GET /api/games/{id}/moves/{char}`` when the player selects the rider. A foot
#: character's list (one move a hex) stays inline.
def _lazy(c) -> bool:
    return c.mounted


def _move_costs(state, c) -> dict:
    """Move path (labels) -> (cost, facing) for ``c`` now (facing None on foot): the search
    behind his legal moves (``move_table``: inside ``memo.read_only`` the very one
    ``legal_actions`` ran)."""
    found, labels = move_table(state, c)
    if c.mounted:
        return {labels[k]: (cost, k[1]) for k, (cost, _) in found.items()}
    return {labels[k]: (cost, None) for k, (cost, _) in found.items()}


def _move_entries(state, c, acts) -> list[dict]:
    costs = _move_costs(state, c)
    out = []
    for a in acts:
        cost, facing = costs.get(a.path, (None, None))
        # the action's JSON is Move.to_json()'s, written out (dataclasses.fields is slow)
        entry = {"to": a.path[-1], "path": list(a.path),
                 "action": {"type": a.type, "char": a.char, "path": list(a.path)}, "cost": cost}
        if c.mounted:
            entry["facing"] = facing
        out.append(entry)
    return out


def _summary_entries(c, summary) -> list[dict]:
    """:func:`_move_entries` of the moves a :class:`MoveSummary` stands for (on foot: no
    facing); the action's JSON is ``Move.to_json()``'s, written out."""
    out = []
    cid, paths = c.id, summary.paths
    for k, cost in summary.costs.items():
        p = paths[k]
        out.append({"to": p[-1], "path": list(p), "action": {"type": "move", "char": cid, "path": list(p)}, "cost": cost})
    return out


def moves(state, char_id: str) -> list[dict]:
    """One character's legal moves now, each with its path, cost (and a rider's final facing).
    Raises KeyError for an unknown character."""
    c = state.characters.get(char_id)
    if c is None:
        raise KeyError(char_id)
    return _move_entries(state, c, moves_of(state, char_id))


def options(state, acts=None) -> dict:
    """The legal actions now (``acts``: already computed by the caller), grouped for the board
    and enriched with costs and odds so the player sees them before committing. Without
    ``acts``, :func:`view_actions` (a rider's moves summed up by their costs); with them,
    the ``Move`` actions of each rider give the same options.

    ``reach`` gives, for every character who can move, each hex he can reach with its cheapest
    cost (the board's highlights); ``moves`` the full move list of the characters on foot; a
    rider's list is fetched on demand (:func:`moves`)."""
    if acts is None:
        acts = view_actions(state)
    by_char: dict[str, list] = {}
    fires, attacks, prompts, extras, declarations, horse_targets = [], [], [], [], [], []
    end = None
    for a in acts:
        if isinstance(a, (Move, MoveSummary)):
            by_char.setdefault(a.char, []).append(a)
        elif isinstance(a, (FireAtHorse, AttackHorse)):  # fire and attacks at a riderless horse (§6.8)
            horse_targets.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif isinstance(a, (Mount, Dismount, Carry, ClearBodies, Lead, Kneel, Rise, EnterLitter, LeaveLitter)) \
                or a.type in ("drive_cart", "harness", "unharness"):
            # movement-step actions beside the moves (§4.4.2, §4.4.4, §4.2.3, §4.2.4): not prompts
            extras.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif isinstance(a, (Fire, Attack)):
            entry = {"action": a.to_json(), "ruling": explain(state, a).to_json()}
            (fires if isinstance(a, Fire) else attacks).append(entry)
        elif isinstance(a, EndStep):
            end = a.to_json()
        elif a.type == "declare":  # fire frequency declarations (§5.1), beside the step's actions
            declarations.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif a.type in ("designate", "volley", "grab", "announce_charge"):  # defensive fire (§5.3), a grab (§4.4.4): the odds;
            # a charge announced (MC §7.6.1, an edition's announcements step): its ruling
            prompts.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        else:
            prompts.append({"action": a.to_json()})
    moves_inline, reach = {}, {}
    for cid, lst in by_char.items():
        c = state.characters[cid]
        if isinstance(lst[0], MoveSummary):  # view_actions: his moves' keys, costs (and paths)
            summary = lst[0]
            if summary.paths is None:  # a rider: (front hex, facing) -> cost, never None
                by_front: dict = {}
                for (front, _), cost in summary.costs.items():
                    old = by_front.get(front)
                    if old is None or cost < old:
                        by_front[front] = cost
                label = hex_labels(state.gmap)
                reach[cid] = {label[h]: cost for h, cost in by_front.items()}
                continue
            entries = moves_inline[cid] = _summary_entries(c, summary)
            ends = [(e["to"], e["cost"]) for e in entries]
        elif _lazy(c):  # only the cheapest cost of each hex: no entries (fetched on selection)
            costs = _move_costs(state, c)
            ends = [(a.path[-1], costs.get(a.path, (None, None))[0]) for a in lst]
        else:
            entries = moves_inline[cid] = _move_entries(state, c, lst)
            ends = [(e["to"], e["cost"]) for e in entries]
        cheapest: dict[str, int | None] = {}
        for to, cost in ends:
            old = cheapest.get(to, -1)
            if old == -1 or (cost is not None and (old is None or cost < old)):
                cheapest[to] = cost
        reach[cid] = cheapest
    return {"moves": moves_inline, "reach": reach, "fires": fires, "attacks": attacks, "prompts": prompts, "extras": extras,
            "declarations": declarations, "horse_targets": horse_targets, "end_step": end}


def decorate(view: dict, state) -> dict:
    """Display names from the rules data (characters' types and weapons), in place."""
    rs = state.rules
    for ch in view["characters"]:
        ct = rs.character_types.get(ch["type"])
        if ct is not None:
            ch["type_name"], ch["type_name_fr"] = ct.name, ct.name_fr or ct.name
        w = rs.weapons.get(ch["weapon"]) if ch.get("weapon") else None
        if w is not None:
            ch["weapon_name_fr"] = w.names[0]
            ch["weapon_name"] = w.name_en or w.names[0]
    return view


def frame(state) -> dict:
    """The position a replay frame shows (no log, no dice)."""
    st = state
    return {
        "turn": st.turn, "active": st.active, "step": st.step, "log_length": len(st.log),
        "characters": [{"id": c.id, "hex": c.hex.label if c.hex else None, "status": c.status,
                        "attack": c.current_attack, "defence": c.current_defence,
                        "movement": c.current_movement, "mounted": c.mounted,
                        "rear": c.rear.label if c.mounted and c.hex else None, "facing": c.facing,
                        # the counter's mount, kneeling or not (§4.6.1, §4.6.4), as in the view
                        "mount": mount_of(st, c) if c.mounted else None, "kneeling": c.id in st.camels.kneeling}
                       for c in sorted(st.characters.values(), key=lambda c: c.id)],
        "horses": [{"id": h.id, "hexes": [x.label for x in h.hexes], "facing": h.facing, "side": h.side, "alive": h.alive, "kind": h.kind,
                    "led_by": h.led_by, "kneeling": h.kneeling, "passenger": h.passenger}
                   for h in sorted(st.riders.horses.values(), key=lambda h: h.id)],
        "carcasses": [{"hex": h.label, **kinds} for h, kinds in sorted(st.bodies.carcasses.items(), key=lambda x: x[0].label)],
        "carts": [{"id": x.id, "hexes": [x.front.label, x.rear.label], "facing": x.facing, "animal": x.animal,
                   "moving": x.moving} for x in sorted(st.carts.carts.values(), key=lambda x: x.id)],  # §4.5
        "over": st.over, "result": st.result_text,
    }


def board(gmap, ruleset_id: str = "magna-carta") -> dict:
    """The map as the browser draws it, with the terrain and hexside tables it needs. The carts
    move (§4.5.4): the board draws them from the view's ``carts`` over the map without them."""
    from .maps import cart_base
    from .rulesdata import load_ruleset
    gmap = cart_base(gmap)
    rs = load_ruleset(ruleset_id)
    return {
        "id": gmap.id, "name": gmap.name, "width": gmap.width, "height": gmap.height,
        "hexes": [{"label": h.label, "q": h.q, "r": h.r, "col": h.col, "row": h.row,
                   "terrain": gmap.terrain(h), "elevation": gmap.elevation(h)} for h in gmap.hexes],
        "hexsides": [{"a": a.label, "b": b.label, "feature": f}
                     for pair, f in sorted(gmap.hexside_features().items(), key=lambda kv: sorted(kv[0]))
                     for a, b in [sorted(pair)]],
        "name_fr": gmap.name_fr,
        "terrain": {t.id: {"name_fr": t.names[0], "name_en": t.name_en or t.id.replace("_", " "),
                           "foot": t.foot, "foot_armoured": t.foot_armoured if t.foot_armoured is not None else t.foot,
                           "mounted": t.mounted, "cover": t.cover, "combat": t.combat, "blocks_los": t.blocks_los,
                           "ref": t.ref} for t in rs.terrain.values()},
        "hexside_features": {f.id: {"name_fr": f.names[0], "name_en": f.name_en or f.id.replace("_", " "),
                                    "crossing": f.crossing, "cover": f.cover, "ref": f.ref} for f in rs.hexsides.values()},
    }


def rules_sections(ruleset_id: str = "magna-carta") -> dict:
    from .rulesdata import load_ruleset
    rs = load_ruleset(ruleset_id)
    return {"ruleset": rs.id, "title": rs.title,
            "sections": {s.id: {"fr": s.title, "en": s.title_en or s.title} for s in rs.sections.values()}}


# --- FR/EN ----------------------------------------------------------------------------------
# What the players read (display.py): the French of the data quoted in the engine's English put in
# English, a lone attacker's verb, a ruling's result code in words. The stored texts stay as the
# engine wrote them (records compare them).
def render_text(text: str, lang: str) -> str:
    return display.text(i18n.translate(text, lang), lang) if text else text


def render_events(events: list[dict], lang: str) -> list[dict]:
    if lang == "en":  # the source language: nothing to translate (and nothing to copy deeply)
        return [display.event(e, lang) for e in events]
    return [display.event(i18n.translate_event(e, lang), lang) for e in events]


def render_ruling(ruling: dict, lang: str) -> dict:
    return display.ruling(ruling if lang == "en" else i18n.translate_ruling(ruling, lang), lang)


def render_options(opts: dict, lang: str) -> dict:
    opts = dict(opts)
    for key in ("fires", "attacks", "horse_targets"):
        if key in opts:
            opts[key] = [dict(o, ruling=render_ruling(o["ruling"], lang)) if isinstance(o.get("ruling"), dict) else o
                         for o in opts[key]]
    return opts
