"""Phase 10, melee (GF Les combats, seed 003 l.931-1000; Mêlée l.1523-1578): every pair of enemy
units in base contact fights; each side's blows are ruled by the part-1 referee (kind ``melee``) on
a situation read off the table — figures in base contact, ranks (GF-H1), charge, flank and rear
(tabletop arcs, OR-GF20; GF-H6), a directly controlling character, disorder, cover, shields — and
the casualties are removed together (step 6, l.1552). Each loss may be a capture (1d6, l.950).
The unit that lost more figures loses: it recoils 1 cm per figure lost away from the winner, the
winner following in contact (l.985-989), and it tests its morale, the result moving it in phase 1
of the next turn (l.309, l.1106); if it retreats or routs, the winner pursues in phase 1 (l.1554).
Equal losses: the combat goes on next turn. A routing unit does not strike back (l.1090, OR-GF55).
"""

from __future__ import annotations

from shapely.geometry import LineString

from oriflamme.geometry import tabletop

from .. import melee as md
from .. import modifiers as mods
from ..names import RefereeError
from ..referee import adjudicate
from . import combat_data, items_play, morale_play, overlap, spell_modifiers
from .casualties import Ledger, captures
from .fighters import (alive, arc, being, cover_of, depth, finish, mark, melee_weapon_of, pose, set_pose, shape,
                       target_armour, target_kind, tolerance, touching, unit, units, unmark, width)

FLANKS = ("left", "right")


def engagements(state) -> list[tuple]:
    """Every pair of enemy units in base contact (OR-GF52's slack), in a stable order."""
    live = sorted((u for u in units(state) if alive(u)), key=lambda u: u.id)
    return [(a, b) for i, a in enumerate(live) for b in live[i + 1:] if a.side != b.side and touching(a, b)]


def figures_in_contact(a, b) -> tuple[int, str]:
    """How many of ``a``'s figures touch ``b`` (l.933 "Seules les figurines en contact base contre base
    peuvent combattre"): ``a``'s side facing ``b`` (its arc) is cut into figure bases (the base width
    on the front or rear, the base depth on a flank); a base fights when more of its edge than the
    contact slack lies within the slack of ``b`` (OR-GF21). At least one when the units touch."""
    side = arc(a, b)
    c = tabletop.corners(pose(a), width(a), depth(a))
    ends = {"front": (c[0], c[1]), "right": (c[1], c[2]), "rear": (c[3], c[2]), "left": (c[0], c[3])}[side]
    per = a.base_d if side in FLANKS else a.base_w
    slots = (a.ranks if side in FLANKS else min(a.frontage, a.figures))
    near = shape(b).buffer(tolerance())
    (x0, y0), (x1, y1) = ends
    n = 0
    for i in range(slots):
        f0, f1 = i / slots, (i + 1) / slots
        base = LineString([(x0 + (x1 - x0) * f0, y0 + (y1 - y0) * f0), (x0 + (x1 - x0) * f1, y0 + (y1 - y0) * f1)])
        if base.intersection(near).length > tolerance() + 1e-9:
            n += 1
    split = getattr(a, "split", None)  # a unit partly in a building fights with its part outside (OR-GF143)
    return max(1, min(n, a.figures - (split["inside"] if split else 0))), side


def _attacker_class(u) -> str | None:
    if u.kind == "character":
        return "personnage"
    if u.kind != "troop":
        return None
    if u.fanatic:
        return "fanatique"
    if u.bestial:
        return "bestial"
    return u.klass


def situation(state, a, b) -> tuple[dict, list[str]]:
    """The part-1 melee situation of ``a`` striking ``b``, and what was read off the table."""
    n, side = figures_in_contact(a, b)
    more, overlap_step = overlap.extra_figures(state, a, b)
    n += more
    sit = {"kind": "melee", "attacker": a.race if a.kind in ("troop", "character") else being(a),
           "target_armour": target_armour(b), "figures_in_contact": n,
           "target": target_kind(b)}
    why = [f"{a.name or a.id}: {n - more} figure(s) in base contact with {b.name or b.id} (on its {side})"]
    if overlap_step:
        why.append(overlap_step)
    if a.kind in ("troop", "character"):
        sit["weapon"] = melee_weapon_of(a)
        sit["attacker_class"] = _attacker_class(a)
    if a.kind == "troop":
        sit["ranks"] = a.ranks
        if a.disorder:
            sit["attacker_disordered"] = True
    if a.kind == "character":
        sit["character"] = {"CM": a.CM, "FM": a.FM, "FC": a.FC}
    row = md.pbc().get((sit["attacker"], sit.get("weapon")))
    table = mods.modifiers(row.modifiers if row else "melee")
    given = []

    def add(mid: str, reason: str):
        if mid in table and not any(g["modifier"] == mid for g in given):
            given.append({"modifier": mid})
            why.append(reason)

    if a.charging or "pursuing" in a.markers:
        add("charging", f"{a.name or a.id} charged, counter-charged or pursues into this combat")
    where = "front" if getattr(b, "inside", None) else arc(b, a)  # a building has no flank (OR-GF82)
    if "fire_fighting" in b.markers and where == "front":
        where = "left"  # l.818: attacked while fighting a fire, the attackers have a flank attack (OR-GF89)
    if where in FLANKS:
        add("flank", f"{a.name or a.id} is in {b.name or b.id}'s {where} flank sector")
    elif where == "rear":
        add("rear", f"{a.name or a.id} is in {b.name or b.id}'s rear sector")
    if a.led_by:
        ch = _find(state, a.led_by)
        if ch is not None and alive(ch):
            sit["character"] = {**sit.get("character", {}), "FM": ch.FM}
            add("character_controls", f"{ch.name or ch.id} directly controls {a.name or a.id} (FM {ch.FM})")
    if b.disorder and b.kind != "character":
        add("enemy_disordered", f"{b.name or b.id} is disordered")
    # l.792: the units attacking a building have no cover against its occupants' blows
    cov = None if getattr(a, "inside", None) and not getattr(b, "inside", None) else cover_of(state, b, a)
    if getattr(a, "inside", None) and not getattr(b, "inside", None):
        why.append(f"{b.name or b.id} attacks a building: no cover (GF seed 003 l.792)")
    if cov:
        add(f"{cov[0]}_cover", f"{b.name or b.id} is in {cov[0]} cover ({cov[1]})")
    if b.shields:
        add("enemy_shields", f"{b.name or b.id} carries shields")
    if a.altitude and b.altitude:
        add("fights_in_the_air", "both fight in the air")
    for mid, reason in items_play.modifiers(state, "melee", a, b):  # the magic items (OR-GF151)
        add(mid, reason)
    if given:
        sit["modifiers"] = given
    # the spells lasting on the striker or the target (OR-GF120)
    spell_modifiers.melee(state, a, b, sit, why, row.modifiers if row else "melee")
    return sit, why


def preview(state, a_id: str, b_id: str) -> dict:
    """Both sides' melee percentages before the rolls (the referee's rulings without d100)."""
    a, b = unit(state, a_id), unit(state, b_id)
    if not touching(a, b):
        return {"a": a_id, "b": b_id, "in_contact": False,
                "explanation": [f"{a.name or a.id} and {b.name or b.id} are not in base contact"],
                "citations": ["GF seed 003 l.933"]}
    out = {"a": a_id, "b": b_id, "in_contact": True}
    for key, x, y in (("a_on_b", a, b), ("b_on_a", b, a)):
        if x.status == "rout":
            out[key] = {"strikes": False, "explanation": [f"{x.name or x.id} routs: it cannot fight"],
                        "citations": ["GF seed 003 l.1090", "OR-GF55"]}
            continue
        sit, why = situation(state, x, y)
        r = adjudicate(sit)
        out[key] = {"strikes": True, "situation": sit, "ruling": r, "percent": r["multiplied_pct"],
                    "eliminated": r["eliminated"], "extra_if_d100_at_most": r["extra_if_d100_at_most"],
                    "explanation": why + r["explanation"], "citations": r["citations"]}
    return out


def on_contact(state, attacker_id: str, target_id: str, dice) -> list[dict]:
    """A charge contacts its target (phase 9): a flank or rear contact disorders the target — not a
    character's attack; a creature or monster only from the rear; a character never (l.983, GF-H6) —
    and the target tests its morale at once (l.933, l.983)."""
    a, b = unit(state, attacker_id), unit(state, target_id)
    where = "front" if getattr(b, "inside", None) else arc(b, a)  # a building has no flank (OR-GF82)
    if where == "front" or b.kind == "character" or a.kind == "character":
        return []
    if b.kind in ("creature", "monster") and where != "rear":
        return []
    b.disorder = True
    mark(b, "disorder")
    ev = {"type": "disorder", "unit": b.id, "side": b.side, "by": a.id,
          "explanation": [f"{b.name or b.id} is attacked in the {where} by {a.name or a.id}: disordered"],
          "citations": ["GF seed 003 l.933, l.983", "GF-H6"]}
    return finish(state, [ev, morale_play.test(state, b.id, "flank_or_rear", dice, a.id, deferred=False)])


def _strike(state, x, y, dice) -> dict:
    sit, why = situation(state, x, y)
    if overlap.extra_figures(state, x, y)[0]:
        mark(x, overlap.MARKER)  # it will not pursue if it wins (l.969)
    try:
        r = adjudicate(sit)
    except RefereeError as exc:  # e.g. a unit without any melee weapon the PBC tables print
        return {"type": "melee", "unit": x.id, "side": x.side, "target": y.id, "hits": 0, "percent": None,
                "explanation": why + [f"{x.name or x.id} cannot strike: {exc}"],
                "citations": ["GF Mêlée > Pourcentage de Base au Combat (PBC)"]}
    d100 = dice.roll(100) if r["extra_if_d100_at_most"] > 0 else None
    if d100 is not None:
        r = adjudicate({**sit, "d100": d100})
    from .spells import extra_casualties
    bonus, bsteps, bcites = extra_casualties(state, x)
    hits = r["eliminated"] + (1 if r.get("extra") else 0) + bonus
    return {"type": "melee", "unit": x.id, "side": x.side, "target": y.id, "d100": d100,
            "percent": r["multiplied_pct"], "hits": hits, "casualties": r["casualties"], "ruling": r,
            "explanation": why + r["explanation"] + bsteps
            + [f"{hits} {'figure(s)' if r['casualties'] == 'figures' else 'wound(s)'} noted on {y.name or y.id}; "
               "the defender notes its losses and strikes in turn, then the losses are removed together"],
            "citations": list(dict.fromkeys(r["citations"] + bcites + ["GF seed 003 l.1548-1553"]))}


def resolve(state, dice) -> list[dict]:
    """Phase 10: every combat (module docstring)."""
    events, ledger = [], Ledger()
    pairs = engagements(state)
    lost: dict[tuple[str, str], int] = {}
    credit: dict[tuple[str, str], tuple[str, str]] = {}  # (target, striker) -> its key in ``lost``
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            if x.status == "rout":
                events.append({"type": "melee", "unit": x.id, "side": x.side, "target": y.id, "hits": 0,
                               "explanation": [f"{x.name or x.id} routs: it cannot fight back"],
                               "citations": ["GF seed 003 l.1090", "OR-GF55"]})
                lost[(y.id, x.id)] = 0
                continue
            ev = _strike(state, x, y, dice)
            events.append(ev)
            ledger.note(y, ev["hits"], x)
            lost[(y.id, x.id)] = ev["hits"]
            credit[(y.id, x.id)] = (y.id, x.id)
            ch = _controller(state, x, y, pairs)
            if ch is not None:
                ev = _strike(state, ch, y, dice)
                ev["explanation"].insert(0, f"{ch.name or ch.id} directly controls {x.name or x.id}: he fights with it")
                ev["citations"].append("GF seed 003 l.995")
                events.append(ev)
                ledger.note(y, ev["hits"], ch)
                lost[(y.id, x.id)] += ev["hits"]
                credit[(y.id, ch.id)] = (y.id, x.id)
    before = {u.id: u.figures for u in units(state)}
    events += ledger.apply(state, dice)
    for key, n in ledger.ignored.items():  # wounds the Armure de Teteoinnan ignored are no loss (OR-GF154)
        if key in credit:
            lost[credit[key]] -= n
    for uid in sorted(set(ledger.figures) | set(ledger.wounds)):
        victim = unit(state, uid)
        gone = before[uid] - victim.figures
        taker = unit(state, ledger.by[uid][0])
        cap = captures(state, taker.side, gone, dice, victim)
        if cap:
            events.append(cap)
    before_status = {u.id: u.status for u in units(state)}
    for a, b in pairs:
        events += _outcome(state, a, b, lost.get((a.id, b.id), 0), lost.get((b.id, a.id), 0), dice)
    tested = {e["unit"] for e in events if e.get("type") == "morale"}
    for uid in sorted({u.id for pair in pairs for u in pair} - tested):
        u = unit(state, uid)
        if alive(u) and u.kind != "character" and morale_play.losses_in_turn(state, u):
            events.append(morale_play.test(state, uid, "losses_in_turn", dice, None, deferred=True))
    routed = [u.id for u in units(state) if u.status == "rout" and before_status.get(u.id) != "rout"]
    events += morale_play.knock_on(state, routed, dice, deferred=True)
    for u in units(state):
        u.charging = False
        unmark(u, overlap.MARKER)
    return finish(state, events)


def _controller(state, x, y, pairs):
    """The character directly controlling ``x`` who fights with it against ``y`` (l.995 "Si un personnage
    contrôle directement une unité, il combat avec elle"), unless he is himself in contact with ``y``
    (then he strikes as one of the pairs). The enemy's blows fall on the unit: "le personnage sera
    toujours blessé en dernier" (l.881)."""
    if not x.led_by:
        return None
    ch = _find(state, x.led_by)
    if ch is None or not alive(ch) or ch.kind != "character" or ch.side != x.side:
        return None
    if any({p.id for p in pair} == {ch.id, y.id} for pair in pairs):
        return None
    return ch


def _outcome(state, a, b, lost_a: int, lost_b: int, dice) -> list[dict]:
    """Step 7-8 (l.1554-1558): the loser recoils, tests its morale; the winner follows and pursues."""
    if lost_a == lost_b:
        return [{"type": "melee_outcome", "units": [a.id, b.id], "winner": None,
                 "explanation": [f"{a.name or a.id} and {b.name or b.id} lost {lost_a} each: the combat goes on "
                                 "next turn"], "citations": ["GF seed 003 l.1558", "GF-H6"]}]
    loser, winner, n = (a, b, lost_a) if lost_a > lost_b else (b, a, lost_b)
    events = [{"type": "melee_outcome", "units": [a.id, b.id], "winner": winner.id, "loser": loser.id,
               "explanation": [f"{loser.name or loser.id} lost more figures ({lost_a if loser is a else lost_b} "
                               f"against {lost_b if loser is a else lost_a}): it loses the combat"],
               "citations": ["GF seed 003 l.1554", "GF-H6"]}]
    if not alive(loser):
        return events
    events.append(recoil(state, loser, winner, n))
    test = morale_play.test(state, loser.id, "lost_combat", dice, winner.id, deferred=True)
    events.append(test)
    if overlap.MARKER in winner.markers:
        events.append({"type": "overlap_end", "unit": winner.id, "side": winner.side, "target": loser.id,
                       "explanation": [f"{winner.name or winner.id} overlapped {loser.name or loser.id}: it does not "
                                       "pursue and resumes its formation, not disordered"],
                       "citations": [overlap.REF, overlap.DECISION],
                       "text": f"{winner.name or winner.id} does not pursue: it overlapped {loser.name or loser.id}",
                       "text_fr": f"{winner.name or winner.id} ne poursuit pas : elle débordait {loser.name or loser.id}"})
    elif loser.status in ("retreat", "rout") and alive(winner) and winner.status == "ok" \
            and (getattr(winner, "inside", None) or getattr(winner, "split", None)):
        # l.796: "Elles n'ont pas obligation de poursuivre": the occupants who win stay in (OR-GF82)
        text = f"{winner.name or winner.id} holds its building: it does not pursue {loser.name or loser.id}"
        events.append({"type": "no_pursuit", "unit": winner.id, "side": winner.side, "target": loser.id,
                       "text": text, "text_fr": f"{winner.name or winner.id} tient son bâtiment : elle ne poursuit pas "
                                                f"{loser.name or loser.id}",
                       "explanation": [text], "citations": ["GF seed 003 l.796", "OR-GF82"]})
    elif loser.status in ("retreat", "rout") and alive(winner) and winner.status == "ok":
        winner.pending = {"move": "poursuite", "target": loser.id}
        mark(winner, "pursuing")
        events.append({"type": "pursuit_declared", "unit": winner.id, "side": winner.side, "target": loser.id,
                       "explanation": [f"{winner.name or winner.id} will pursue {loser.name or loser.id} in phase 1 "
                                       "of the next turn (OR-GF56: always, the choice of a directly controlled or "
                                       "defending unit is not offered yet)"],
                       "citations": ["GF seed 003 l.1554", "OR-GF56"]})
    return events


def recoil(state, loser, winner, lost: int) -> dict:
    """l.985-989: 1 cm per figure lost, away from the winner (from the front: back; from a flank: to
    the other side); the winner follows to stay in base contact unless it fights another enemy."""
    cm = combat_data.data().recoil.cm_per_figure * lost
    away = tabletop.toward(tabletop.Pose(winner.x, winner.y), loser.x, loser.y)
    if getattr(loser, "inside", None):
        # l.788: a recoil takes the occupants out, disordered; the attacker stays at the wall (OR-GF82)
        from . import buildings_play
        step = buildings_play.leave(state, loser, away, "recoil", quiet=True)
        return {"type": "recoil", "unit": loser.id, "side": loser.side, "cm": cm,
                "explanation": [step], "citations": ["GF seed 003 l.788, l.792", "OR-GF82"]}
    came_out = []
    if getattr(loser, "split", None):
        # l.786: the whole unit moves; its figures inside come out, disordered as a recoil out of a building
        # (l.788; OR-GF143)
        from . import buildings_play
        came_out = [buildings_play.rejoin(state, loser), f"{loser.name or loser.id} is disordered (l.788)"]
        loser.set_disorder(True)
    dx, dy = tabletop.direction(away)
    set_pose(loser, tabletop.Pose(loser.x + dx * cm, loser.y + dy * cm, loser.heading))
    follows = not any(touching(winner, v) for v in units(state)
                      if v.side != winner.side and v.id != loser.id and alive(v))
    if follows:
        set_pose(winner, tabletop.Pose(winner.x + dx * cm, winner.y + dy * cm, winner.heading))
    return {"type": "recoil", "unit": loser.id, "side": loser.side, "cm": cm,
            "explanation": came_out + [f"{loser.name or loser.id} recoils {cm:g} cm ({lost} figure(s) lost × "
                            f"{combat_data.data().recoil.cm_per_figure:g} cm)"
                            + (f"; {winner.name or winner.id} follows in base contact" if follows else "")],
            "citations": [combat_data.data().recoil.ref, "GF-H6"]}


def _find(state, uid):
    try:
        return unit(state, uid)
    except KeyError:
        return None
