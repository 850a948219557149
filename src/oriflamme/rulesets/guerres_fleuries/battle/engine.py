"""The battle's one source of legality (``legal_actions``), the check of any action against the
same rules (``check``: IllegalAction naming the rule, the state untouched) and its effect
(``apply``), then the automatic phases up to the next decision (:func:`.turn.advance`)."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction

from . import (battle_orders, brigades, buildings_play, command, coyolxauhqui, encounter, fog, illusion, item_actions, magic_play, obstruction,
               moves, omens, reactions, orders as orders_mod, spells, turn, victory)
from .actions import Action, action_from_json
from .rules import rules
from .state import Battle, Unit

REF_TURN = "GF seed 003 l.246-313"


def setup(state: Battle) -> Battle:
    turn.start(state)
    turn.advance(state)
    return state


def to_act(state: Battle) -> str | None:
    return None if state.over else state.acting


def legal_actions(state: Battle, side: str | None = None) -> list[Action]:
    who = to_act(state)
    if who is None or (side is not None and side != who):
        return []
    out: list[Action] = []
    if state.phase == 0 and who in state.done:  # both deployed: the written battle orders (l.515)
        for s in battle_orders.first_sets(state, who):
            out.append(Action("battle_orders", who, orders=tuple(sorted((k, v[0], v[1]) for k, v in s.items()))))
    elif state.phase == 0:
        zone_samples(state, who, out)
        out += [Action("brigade", who, unit=cid, units=units) for cid, units in brigades.candidates(state, who)]
        out += encounter.deploy_actions(state, who)
        out.append(Action("end_phase", who))
    elif state.phase == 2:
        out += [Action("command_test", who, unit=u.id) for u in state.side_units(who) if turn.needs_command_test(state, u)]
        out += [Action("omen", who, unit=u.id) for u in omens.offered(state, who)]
    elif state.phase == 3:
        out += [Action("omen", who, unit=u.id) for u in omens.offered(state, who)]
        out += casts(state, who) + interventions(state, who) + releases(state, who) + capes(state, who) + conches(state, who)
        out += [Action("hide", who, unit=u.id) for u in buildings_play.hide_candidates(state, who)]  # OR-GF144
        for s in battle_orders.change_sets(state, who):
            out.append(Action("battle_orders", who, orders=tuple(sorted((k, v[0], v[1]) for k, v in s.items()))))
        for s in orders_mod.typical_sets(state, who):
            out.append(Action("orders", who, orders=tuple(sorted((k, v[0], v[1]) for k, v in s.items()))))
    elif state.phase == 5:
        for u in reactions.pending(state, who):
            kept = battle_orders.reactions_kept(state, u, reactions.choices(state, u))
            out += [Action("react", who, unit=u.id, reaction=r) for r in kept]
    elif state.phase == 6:
        out += casts(state, who) + interventions(state, who) + releases(state, who) + capes(state, who) + conches(state, who)
        out += encounter.move_base_samples(state, who)
        out += [Action("feather", who, unit=uid, x=d[0], y=d[1], heading=d[2])
                for uid, d in item_actions.feather_samples(state, who)]  # the Plume (l.237, OR-GF153)
        for u in turn.movers(state, who):
            budget, direction, keep, _ = turn.move_budget(u, state)
            points = moves.samples(state, u, budget, direction, keep)
            if u.kind == "character" and not u.leads and direction == "forward":
                for x, y, h in command.contact_samples(state, u, budget):
                    try:
                        moves.check_destination(state, u, x, y, h, budget=budget, direction=direction)
                    except IllegalAction:
                        continue
                    points.append([x, y, h])
            for x, y, h in points:
                try:
                    battle_orders.check_move(state, u, x, y, h)
                except IllegalAction:
                    continue
                out.append(Action("move", who, unit=u.id, x=x, y=y, heading=h))
        out.append(Action("end_phase", who))
    return out


#: the spells whose effects gf-combat applies on the table (magic_play.APPLIED): the ones offered
SPELLS = magic_play.APPLIED
REF_MAGIC = "GF seed 003 l.252, l.1134-1160"


def casters(state: Battle, side: str) -> list:
    return [u for u in state.side_units(side) if u.kind == "character" and u.FM > 0
            and ("pr" in u.type.lower()) and not _cast_this_turn(state, u.id)]


def _cast_this_turn(state: Battle, uid: str) -> bool:
    return any(e.get("type") == "magic" and e.get("unit") == uid and e.get("turn") == state.turn for e in state.log)


def casts(state: Battle, side: str) -> list[Action]:
    """The spells a side's priests may cast now (OR-GF40): each spell the battle applies
    (magic_play.APPLIED) that the priest chose (OR-GF114), at the two nearest units its text allows
    (battle/spells.py ``target_ok``) within its range; each checked by gf-combat's preview (range, one a
    turn, base contact, the gods' silence). Any other allowed target is accepted by ``check_cast``."""
    from oriflamme.geometry import tabletop as tt
    from ..magic import data as magic_data
    from . import spells as spells_mod
    out = []
    book = magic_data().spells
    for c in casters(state, side):
        if spells_mod.silenced(state, c):
            continue
        fp = c.footprint()
        # a unit the side cannot see (a movement base, a flank march, a building, l.784) is no target
        near = sorted((e for e in state.units.values() if not fog.unseen(state, e, side)),
                      key=lambda e: (tt.nearest_distance(fp, e.footprint()), e.id))
        for spell in SPELLS:
            if c.spells and spell not in c.spells:
                continue
            reach = book[spell].distance_cm
            pool = []
            for t in near:
                if len(pool) == 2:
                    break
                if reach is not None and tt.nearest_distance(fp, t.footprint()) > reach:
                    break
                if spells_mod.target_ok(state, c, spell, t)[0]:
                    pool.append(t)
            if spells_mod.spell_effects()[spell].on_building:  # the nearest standing building (OR-GF121)
                from . import buildings_play
                standing = sorted((tt.nearest_distance(fp, el.geometry), el.id) for el in buildings_play.elements(state)
                                  if buildings_play.standing(state, el.id))
                pool += [spells_mod.building(state, bid) for d, bid in standing[:1] if reach is None or d <= reach]
            jump = spells_mod.spell_effects()[spell].effect == "jump"
            for t in pool:
                dest = spells_mod.jump_sample(state, t) if jump else None
                if jump and dest is None:
                    continue
                try:
                    pv = magic_play.preview(state, c.id, spell, t.id, destination=dest)
                except IllegalAction:
                    continue
                if pv.get("in_range", True):
                    out.append(Action("cast", side, unit=c.id, spell=spell, target=t.id,
                                      **({"x": dest[0], "y": dest[1], "heading": dest[2]} if jump else {})))
    return out


def releases(state: Battle, side: str) -> list[Action]:
    """A priest's side may cancel his « Possession de Coyolxauhqui » (l.1282, OR-GF127)."""
    return [Action("release", side, unit=c, target=t) for c, t in coyolxauhqui.releases(state, side)]


def conches(state: Battle, side: str) -> list[Action]:
    """A character carrying the « Conque d'Ehecatl » may sound it, once a battle, in the steps where a spell
    may be cast (phases 3 and 6; l.232, OR-GF152)."""
    return [Action("conch", side, unit=u.id) for u in item_actions.conch_bearers(state, side)]


def capes(state: Battle, side: str) -> list[Action]:
    """A character carrying the « Cape de Coyolxauhqui » may vanish, once a battle, in the steps where a spell
    may be cast (phases 3 and 6; l.236, OR-GF147)."""
    return [Action("cape", side, unit=u.id) for u in illusion.cape_bearers(state, side)]


def interventions(state: Battle, side: str) -> list[Action]:
    """A priest's divine intervention (his skill, l.155; OR-GF116): each friendly unit in base contact."""
    out = []
    for p in state.side_units(side):
        if p.kind != "character" or spells.SKILL.lower() not in [s.lower() for s in p.skills]:
            continue
        for f in state.side_units(side):
            if f.kind != "character" and spells.intervention_check(state, p, f)[0]:
                out.append(Action("intervene", side, unit=p.id, target=f.id))
    return out


def check_cast(state: Battle, a: Action) -> None:
    u = state.units[a.unit]
    if u not in casters(state, a.side):
        raise IllegalAction(f"{u.name} cannot cast now (only a priest or warrior-priest, once a turn)",
                            "GF seed 003 l.1136")
    if a.spell not in SPELLS:
        raise IllegalAction(f"spell {a.spell!r}: the battle plays {', '.join(SPELLS)} (the others are ruled by "
                            "the referee only)", REF_MAGIC)
    bld = spells.building(state, a.target)  # Eclair, Secousses: "ou un bâtiment" (l.1216, l.1308; OR-GF121)
    if bld is None and a.target in state.units and illusion.invisible(state, state.units[a.target]) \
            and state.units[a.target].side != a.side:
        raise IllegalAction(f"spell {a.spell}: {state.units[a.target].name} is invisible: a spell needs a target "
                            "its priest sees", f"{illusion.REF}; {illusion.DECISION}")
    if bld is None and (a.target is None or a.target not in state.units or not state.units[a.target].alive
                        or fog.hidden_from(state.units[a.target], a.side)):
        raise IllegalAction(f"spell {a.spell}: its target must be a unit or a standing building on the table", REF_MAGIC)
    pv = magic_play.preview(state, a.unit, a.spell, a.target,  # raises with the rule when it may not
                            destination=None if a.x is None else (a.x, a.y, a.heading))
    if not pv.get("in_range", True):
        name = bld.name or bld.id if bld is not None else state.units[a.target].name
        raise IllegalAction(f"spell {a.spell}: {name} is out of its range", "GF seed 003 l.1151")


def zone_samples(state: Battle, side: str, out: list) -> None:
    """Deployment: each unit not yet placed may move 5 cm left or right of where it stands, and a
    unit with a building across its path ahead (:mod:`.obstruction`) to the nearest places left and
    right of it where none is (samples; any point of the zone is accepted)."""
    for u in state.side_units(side):
        if u.moved:
            continue
        for dx in (-5.0, 5.0):
            if _placeable(state, u, dx):
                out.append(Action("place", side, unit=u.id, x=round(u.x + dx, 2), y=u.y, heading=u.heading))
                break
        if obstruction.blocked_share(state, u) > 0:
            for x, y in _clear_places(state, u):
                out.append(Action("place", side, unit=u.id, x=x, y=y, heading=u.heading))


def _placeable(state: Battle, u: Unit, dx: float, dy: float = 0.0) -> bool:
    try:
        turn.check_place(state, u, u.x + dx, u.y + dy, u.heading)
    except IllegalAction:
        return False
    return True


def _clear_places(state: Battle, u: Unit) -> list[tuple[float, float]]:
    """The nearest places of the zone, on a 5 cm grid, left and right of ``u``, where it may stand
    and no building stands across its path ahead."""
    minx, miny, maxx, maxy = turn.zones(state)[u.side].bounds
    grid = [(minx + u.width / 2 + 5.0 * i, maxy - u.depth / 2 - 5.0 * j)
            for i in range(int((maxx - minx - u.width) // 5) + 1) for j in range(int((maxy - miny - u.depth) // 5) + 1)]
    grid.sort(key=lambda p: ((p[0] - u.x) ** 2 + (p[1] - u.y) ** 2, p))
    found: dict[bool, tuple[float, float]] = {}
    for x, y in grid:
        left = x < u.x
        if left in found or not _placeable(state, u, x - u.x, y - u.y):
            continue
        if obstruction.blocked_share(state, u, at=(x, y)) == 0:
            found[left] = (round(x, 2), round(y, 2))
            if len(found) == 2:
                break
    return [found[k] for k in (True, False) if k in found]


def check(state: Battle, action) -> Action:
    """Parse (if JSON) and check ``action``; raise IllegalAction with the rule."""
    a = action if isinstance(action, Action) else action_from_json(action)
    who = to_act(state)
    if a.type == "react" and who is not None and state.phase == 5 and a.unit in state.units:
        err = coyolxauhqui.reaction_refusal(state, a.side, state.units[a.unit])  # the priest's side chooses (OR-GF149)
        if err is not None:
            raise err
    if who is None:
        raise IllegalAction("the battle is over" if state.over else "no side acts now", REF_TURN)
    if a.side != who:
        ph = rules().phase(state.phase) if state.phase else None
        raise IllegalAction(f"it is side {who}'s turn to act ({ph.name_en if ph else 'deployment'}), not side {a.side}'s",
                            ph.ref if ph else turn.REF_DEPLOY)
    ph_ref = rules().phase(state.phase).ref if state.phase else turn.REF_DEPLOY
    expected = {0: ("place", "end_phase", "brigade", "battle_orders", "ambush", "place_base", "flank_march", "hide"),
                2: ("command_test", "omen"),
                3: ("orders", "cast", "battle_orders", "omen", "intervene", "release", "hide", "cape", "conch"),
                5: ("react",), 6: ("move", "end_phase", "cast", "intervene", "move_base", "release", "cape", "conch", "feather")}[state.phase]
    if state.phase == 0 and a.side in state.done and a.type != "battle_orders":
        raise IllegalAction(f"side {a.side} has deployed: it writes its battle orders now", battle_orders.REF_WRITE)
    if a.type not in expected:
        raise IllegalAction(f"{a.type} is not an action of this phase (expected: {', '.join(expected)})", ph_ref)
    if a.type in ("place", "command_test", "move", "cast", "react", "ambush", "flank_march", "hide", "omen",
                  "intervene", "release"):
        u = state.units.get(a.unit)
        if u is not None and a.type in ("move", "react") and coyolxauhqui.master(state, u) is not None:
            if coyolxauhqui.master(state, u) != a.side:  # the priest's side moves him (OR-GF127), reacts (OR-GF149)
                raise IllegalAction(f"{u.name} is possessed by an enemy priest: that side "
                                    + ("moves him" if a.type == "move" else "chooses his reaction"),
                                    f"{coyolxauhqui.REF}; {coyolxauhqui.DECISION}")
        elif u is None or u.side != a.side or not u.alive:
            raise IllegalAction(f"{a.unit!r} is not a unit of side {a.side} on the table", ph_ref)
    if a.type == "place":
        if u.moved:
            raise IllegalAction(f"{u.name} has already been placed (each unit is placed once; undo to change it)",
                                turn.REF_DEPLOY)
        turn.check_place(state, u, a.x, a.y, a.heading)
    elif a.type == "hide" and state.phase != 0:  # behind a building, in the orders phase (l.786, OR-GF144)
        buildings_play.check_hide(state, u)
    elif a.type in ("ambush", "place_base", "flank_march", "hide"):
        encounter.check(state, a)
    elif a.type == "command_test":
        if brigades.exempt(state, u):
            c = state.units[u.brigade]
            raise IllegalAction(f"{u.name} stands in {c.name}'s brigade: it never takes a command test and obeys "
                                f"automatically", brigades.REF_NO_TEST)
        if not turn.needs_command_test(state, u):
            raise IllegalAction(f"{u.name} takes no command test now (tested, a character, moved in phase 1, in "
                                f"combat or under direct control)", "GF seed 003 l.258-267")
    elif a.type == "brigade":
        brigades.check_form(state, a.side, a.unit, list(a.units or ()))
    elif a.type == "battle_orders":
        battle_orders.check(state, a.side, a.order_map())
    elif a.type == "move_base":
        encounter.check_move_base(state, a)
    elif a.type == "orders":
        orders_mod.check(state, a.side, a.order_map())
    elif a.type == "cast":
        check_cast(state, a)
    elif a.type == "omen":
        omens.check(state, a.side, a.unit)
    elif a.type == "release":
        coyolxauhqui.release_check(state, a.side, a.unit, a.target)
    elif a.type == "cape":
        why = illusion.cape_refusal(state, a.side, state.units.get(a.unit))
        if why is not None:
            raise IllegalAction(*why)
    elif a.type == "conch":
        why = item_actions.conch_refusal(state, a.side, state.units.get(a.unit))
        if why is not None:
            raise IllegalAction(*why)
    elif a.type == "feather":
        why = item_actions.feather_refusal(state, a.side, state.units.get(a.unit), (a.x, a.y, a.heading))
        if why is not None:
            raise IllegalAction(*why)
    elif a.type == "intervene":
        ok, why, ref = spells.intervention_check(state, u, state.units.get(a.target or ""))
        if not ok:
            raise IllegalAction(why, ref)
    elif a.type == "react":
        battle_orders.check_reaction(state, u, a.reaction, reactions.choices(state, u))
        reactions.check(state, u, a.reaction)
    elif a.type == "move":
        if u not in turn.movers(state, a.side):
            raise IllegalAction(f"{u.name} has no move to make now (no move order, already moved, in combat, "
                                f"or charging)", "GF seed 003 l.289-291")
        budget, direction, keep, _ = turn.move_budget(u, state)
        moves.check_destination(state, u, a.x, a.y, a.heading, budget=budget, direction=direction, keep_heading=keep)
        battle_orders.check_move(state, u, a.x, a.y, a.heading)
    return a


def apply(state: Battle, a: Action) -> list[dict]:
    start = len(state.log)
    if a.type == "place":
        u = state.units[a.unit]
        moves.apply_move(u, a.x, a.y, a.heading)
        u.moved = True
        from .actions import emit
        # in an encounter the deployment is the side's battle plan: its placements are its own (OR-GF100)
        emit(state, "place", f"{u.name} is placed at ({a.x:.1f}, {a.y:.1f})", f"{u.name} est placée en ({a.x:.1f}, {a.y:.1f})",
             side=a.side, ref=turn.REF_DEPLOY, unit=u.id, to=[a.x, a.y, a.heading], private=a.side if state.fog else None)
        brigades.update(state)
    elif a.type == "brigade":
        brigades.form(state, a.unit, list(a.units or ()))
    elif a.type == "battle_orders":
        battle_orders.write(state, a.side, a.order_map())
    elif a.type == "hide" and state.phase != 0:
        buildings_play.hide_behind(state, state.units[a.unit])
    elif a.type in ("ambush", "place_base", "flank_march", "hide"):
        encounter.apply(state, a)
    elif a.type == "move_base":
        encounter.move_base(state, a)
    elif a.type == "end_phase":
        state.done.append(a.side)
        if state.phase == 0:
            for u in state.side_units(a.side):
                u.moved = False
            brigades.settle(state, a.side)
            if state.fog and state.fog.get("ambush") and state.fog["ambush"] != a.side:
                encounter.prepare_ambush(state)  # the ambusher deploys next, the enemy on the table
    elif a.type == "command_test":
        turn.command_test(state, state.units[a.unit])
    elif a.type == "orders":
        turn.give_orders(state, a.side, a.order_map())
    elif a.type == "move":
        before = command.poses(state)
        u = state.units[a.unit]
        if fog.in_cover(u):  # a unit hidden in cover that moves is placed on the table (l.497)
            fog.reveal_unit(state, u, "it moves", "elle se déplace", fog.data()["hide"].ref)
        if illusion.reveals_on_move(state, u):  # "si elle ne bouge ni ne tire" (l.1240, OR-GF126); not the cape's
            illusion.reveal(state, u, "it moves", "elle bouge")
        if u.behind:  # so is a unit hidden behind a building (l.786, OR-GF145)
            buildings_play.reveal(state, u, "it moves", "elle se déplace")
        hidden = fog.blocked_move(state, u, a.x, a.y, a.heading) if state.fog else []
        hidden += buildings_play.blocked_by_hidden(state, u, a.x, a.y, a.heading)
        unseen = illusion.blocked(state, u, a.x, a.y, a.heading)
        if unseen:
            # it runs into enemies made invisible by an illusion: they are revealed, it stays (OR-GF126)
            u.moved = True
            for o in unseen:
                illusion.reveal(state, o, f"{u.name} runs into it", f"{u.name} tombe dessus")
            from .actions import emit
            emit(state, "move_blocked", f"{u.name} runs into invisible enemies and stays where it stands",
                 f"{u.name} tombe sur des ennemis invisibles et reste sur place", side=a.side,
                 ref=illusion.REF, decision=illusion.DECISION, unit=u.id)
        elif hidden:
            # it runs into enemies it could not see: they are revealed, it stays (OR-GF103, OR-GF145)
            u.moved = True
            for o in hidden:
                if o.behind:
                    buildings_play.reveal(state, o, f"{u.name} runs into it", f"{u.name} tombe dessus")
                    continue
                fog.reveal_unit(state, o, f"{u.name} runs into it", f"{u.name} tombe dessus", fog.data()["reveal"].ref)
            from .actions import emit
            emit(state, "move_blocked", f"{u.name} runs into hidden enemies and stays where it stands",
                 f"{u.name} tombe sur des ennemis cachés et reste sur place", side=a.side,
                 ref=fog.data()["reveal"].ref, decision="OR-GF103", unit=u.id)
        else:
            turn.move(state, u, a.x, a.y, a.heading)
        command.follow(state, before)
    elif a.type == "react":
        before = command.poses(state)
        reactions.react(state, state.units[a.unit], a.reaction)
        command.follow(state, before)
    elif a.type == "cast":
        turn.record(state, magic_play.cast(state, a.unit, a.spell, a.target, state.dice,
                                           destination=None if a.x is None else (a.x, a.y, a.heading)))
        victory.check_broken(state)
    elif a.type == "omen":
        omens.spend(state, a.side, a.unit)
    elif a.type == "release":
        coyolxauhqui.release(state, a.unit, a.target)
    elif a.type == "cape":
        illusion.use_cape(state, state.units[a.unit])
    elif a.type == "conch":
        item_actions.sound_conch(state, state.units[a.unit])
    elif a.type == "feather":
        item_actions.fly(state, state.units[a.unit], a.x, a.y, a.heading)
    elif a.type == "intervene":
        out = spells.intervention(state, state.units[a.unit], state.units[a.target], state.dice)
        from .fighters import finish
        turn.record(state, finish(state, [out["event"]] + out["events"]))
        victory.check_broken(state)
    if state.fog:
        fog.reveal_contacts(state)
    turn.advance(state)
    return state.log[start:]
