"""Invisibility on the table, one mechanism for its two sources (``data/spell_effects.toml [[invisibility]]``):
the spell « Illusion de Tezcatlipoca » and the magic item « Cape de Coyolxauhqui » (l.236: "Le personnage est
invisible pendant 4 tours à moins qu'il engage un combat. Le porteur ne peut l'utiliser qu'une fois par jour.";
OR-GF147, OR-GF148): each entry names its ``source``; what differs is read from its row — its turns, whether
moving reveals it, whether the character controlling a unit directly vanishes with it, its uses a battle.
The cape's bearer uses it with the action ``cape`` (phases 3 and 6, :func:`cape_check`, :func:`use_cape`).

« Illusion de Tezcatlipoca » on the table (GF La magie, seed 003 l.1236-1240; OR-GF125, OR-GF126):
"La cible disparaît immédiatement de la vue de tous et reste invisible pendant 1d6 tours si elle ne bouge
ni ne tire. Attention, si un personnage possède une arme ou un objet magique tel que le Casque de
Tezcatlipoca, l'unité est découverte."

The battle's one way of hiding a unit from the enemy on the table is reused: ``Unit.hidden`` (a unit
hidden in a building, l.784, OR-GF83), which :func:`.fog.hidden_from` and :func:`.fog.unseen` read for the
per-side views (battle/views.py), the frames and the unit details of the API, :func:`.actions.emit` for
the events (an event about a hidden unit is its side's only), and the targets of fire, charges and spells
(``fire_play.eligibility``, ``orders.charge_targets``, ``engine.casts``/``check_cast``). What the illusion
adds is kept in ``state.command["illusion"]`` (the engine's own state, never in a view): per unit its last
turn, the place, facing and formation it vanished in (moving reveals it), the log's length at the cast
(what it fires or fights after), the caster, and the units that vanished with it (a unit and the character
controlling it directly, OR-GF41).

:func:`watch` runs at each step of the turn (``turn.advance``) and reveals an invisible unit that moved,
changed formation, fired or fought since the cast, stands in base contact with an enemy, is within the
distance of an enemy character's detecting weapon or helmet (``data/spell_effects.toml
[[illusion_detector]]``), or whose 1d6 turns are over. A unit about to fire or charge is revealed when the
orders are (``fog.reveal_firers``/``reveal_chargers``), one about to move when it moves (``engine.apply``);
an enemy move that would run into it stops and reveals it (as a movement base's, OR-GF103)."""

from __future__ import annotations

from functools import lru_cache

from oriflamme.geometry import tabletop as tt

from ..rows import Row, load
from .actions import emit
from .state import Battle, Unit

SPELL = "illusion_de_tezcatlipoca"
CAPE = "cape_de_coyolxauhqui"
KEY = "illusion"
REF = "GF seed 003 l.1240"
DECISION = "OR-GF126"
REF_FIRING = "GF seed 003 l.1363"  # "Une unité tirant est automatiquement dévoilée"


class Source(Row):
    """A source of invisibility (``[[invisibility]]``): the spell or the cape."""
    id: str
    name: str
    item: str | None = None        # the magic item that gives it (its bearer uses it)
    turns: int | None = None       # fixed turns; None: the spell's die (``[[spell]] turns_die``)
    uses_per_battle: int | None = None
    reveal_on_move: bool
    with_controller: bool          # a unit and the character controlling it directly vanish together


@lru_cache(maxsize=1)
def sources() -> dict[str, Source]:
    return {r.id: r for r in load(Source, "spell_effects.toml", "invisibility")}


def source_of(e: dict) -> Source:
    """The row of an entry of ``state.command["illusion"]`` (an entry made before the cape: the spell's)."""
    return sources()[e.get("source") or SPELL]


def _citations(src: Source) -> list[str]:
    return [src.ref, *[d.strip() for d in (src.decision or "").split(",") if d.strip()]]


class Detector(Row):
    weapon: str | None = None
    item: str | None = None
    within_cm: float
    controlled_unit: bool = False


@lru_cache(maxsize=1)
def detectors() -> tuple[Detector, ...]:
    return tuple(load(Detector, "spell_effects.toml", "illusion_detector"))


def table(state: Battle) -> dict:
    return state.command.get(KEY) or {}


def invisible(state: Battle, u: Unit | None) -> dict | None:
    """The illusion ``u`` is hidden by, or None."""
    if u is None or not u.hidden:
        return None
    return table(state).get(u.id)


def _pose(u: Unit) -> list:
    return [round(u.x, 2), round(u.y, 2), round(u.heading, 2), u.formation]


def group(state: Battle, u: Unit, source: str = SPELL) -> list[Unit]:
    """``u`` and the character who controls it directly, or the unit he controls: they move as one
    (OR-GF41), they vanish and reappear together under the spell; the cape hides its bearer alone
    ("Le personnage est invisible", l.236, OR-GF148)."""
    out = [u]
    if not sources()[source].with_controller:
        return out
    for uid in (u.led_by, u.leads):
        o = state.units.get(uid or "")
        if o is not None and o.alive and o not in out:
            out.append(o)
    return out


def hide(state: Battle, caster: Unit, members: list[Unit], turns: int, source: str, since: int) -> int:
    """The one hiding step of every source: ``members`` leave the enemy's sight (``Unit.hidden``) for
    ``turns`` turns, this one included (OR-GF112's count); what ends it is watched from the log's
    ``since``. Returns the last turn."""
    until = state.turn + turns - 1
    tab = state.command.setdefault(KEY, {})
    for u in members:
        u.hidden = True
        tab[u.id] = {"until_turn": until, "pose": _pose(u), "since": since, "caster": caster.id,
                     "group": [m.id for m in members], "from_turn": state.turn, "source": source}
    return until


def vanish(state: Battle, caster: Unit, target: Unit, turns: int, ev: dict) -> None:
    """The spell: the target (and its group) disappears from the enemy's sight for ``turns`` turns."""
    members = group(state, target)
    until = hide(state, caster, members, turns, SPELL, len(state.log))
    names = " and ".join(m.name or m.id for m in members)
    ev["explanation"].append(f"« Illusion de Tezcatlipoca »: {names} vanish(es) from the enemy's sight for {turns} "
                             f"turn(s), until turn {until}, as long as it neither moves nor fires (l.1240); an enemy "
                             "character's detecting weapon (40 cm) or Casque de Tezcatlipoca (15 cm) discovers it")
    ev["citations"] += [REF, DECISION]
    ev["vanished"] = [m.id for m in members]


# --- « Cape de Coyolxauhqui » (l.236; OR-GF147, OR-GF148) -------------------------------------------------
def cape_used(state: Battle, uid: str) -> dict | None:
    """The event of ``uid``'s use of his cape this battle, or None."""
    return next((e for e in state.log if e.get("type") == "cape" and e.get("unit") == uid), None)


def cape_refusal(state: Battle, side: str, u: Unit | None) -> tuple[str, str] | None:
    """Why ``side`` may not have ``u`` use the Cape de Coyolxauhqui now: (reason, rule), or None."""
    from . import coyolxauhqui
    from .brigades import _same
    from .fighters import enemies, touching
    src = sources()[CAPE]
    rule = f"{src.ref}; {src.decision}"
    if u is None or not u.alive or u.side != side:
        return f"{getattr(u, 'id', None)!r} is not a character of side {side} on the table", rule
    if u.kind != "character" or not _same(u.magic_item, src.item):
        return f"{u.name} does not carry the « {src.item} »", rule
    used = cape_used(state, u.id)
    if used is not None and src.uses_per_battle is not None:
        return (f"{u.name} has used the « {src.item} » in turn {used['turn']}: \"Le porteur ne peut l'utiliser "
                f"qu'une fois par jour\" — once a battle", rule)
    if coyolxauhqui.master(state, u) not in (None, side):
        return (f"{u.name} is possessed by an enemy priest: he obeys the priest, his side has him do nothing",
                f"{coyolxauhqui.REF}; {coyolxauhqui.DECISION}")
    if u.hidden or u.base is not None or u.status == "flank":
        return f"{u.name} is already out of the enemy's sight", rule
    if u.status != "ok":
        return f"{u.name} is {u.status}: he cannot use it now", rule
    if any(touching(m, v) for m in _combat_members(state, u, [u.id]) for v in enemies(state, m)):
        return f"{u.name} is engaged in a combat: \"invisible … à moins qu'il engage un combat\"", rule
    return None


def use_cape(state: Battle, u: Unit) -> dict:
    """``u`` vanishes for the cape's turns unless he engages a combat (l.236, OR-GF147, OR-GF148). The use is
    public ("il ne peut pas les utiliser sans révéler leur présence", l.227): the event is emitted before he
    leaves the enemy's sight (where he stands when he vanishes is seen)."""
    src = sources()[CAPE]
    until = state.turn + src.turns - 1
    name = u.name or u.id
    steps = [f"{name} wraps himself in the « {src.item} »: \"Le personnage est invisible pendant {src.turns} tours à "
             f"moins qu'il engage un combat\" (l.236)",
             f"invisible to the enemy for {src.turns} turns, this one included: until turn {until} (OR-GF147)",
             "he may move unseen; a charge, an enemy in base contact, a blow (his or the unit's he controls directly, "
             "l.995) or a volley (l.1363) reveals him, and so does an enemy's detecting weapon (40 cm) or Casque de "
             "Tezcatlipoca (15 cm) (OR-GF148)",
             "used once: \"Le porteur ne peut l'utiliser qu'une fois par jour\" — once a battle (OR-GF147)"]
    ev = emit(state, "cape", f"{name} uses the « {src.item} » and vanishes until turn {until}",
              f"{name} utilise la « {src.item} » et disparaît jusqu'au tour {until}", side=u.side, ref=src.ref,
              decision=src.decision, unit=u.id, item=src.item, until_turn=until, at=[round(u.x, 2), round(u.y, 2)],
              ruling={"explanation": steps, "citations": _citations(src)})
    hide(state, u, [u], src.turns, CAPE, len(state.log))
    return ev


def cape_bearers(state: Battle, side: str) -> list[Unit]:
    """The characters of ``side`` who may use the Cape de Coyolxauhqui now."""
    return [u for u in state.side_units(side) if u.kind == "character" and cape_refusal(state, side, u) is None]


def _combat_members(state: Battle, u: Unit, ids: list[str]) -> list[Unit]:
    """Who engages a combat for the hidden: the group; for the cape its bearer and the unit he controls
    directly ("il combat avec elle", l.995; OR-GF148)."""
    out = [state.units[i] for i in ids if i in state.units]
    led = state.units.get(u.leads or "")
    if led is not None and led.alive and led not in out:
        out.append(led)
    return out


def reveal(state: Battle, u: Unit, why_en: str, why_fr: str, ref: str | None = None, **extra) -> dict | None:
    """``u``'s invisibility ends: it and its group are on the enemy's table again, where they stand
    (``ref``: the rule that ends it, its source's by default)."""
    tab = table(state)
    e = tab.get(u.id)
    if e is None:
        return None
    ref = ref or source_of(e).ref
    shown = []
    for uid in e.get("group") or [u.id]:
        tab.pop(uid, None)
        v = state.units.get(uid)
        if v is not None and v.hidden and not v.inside:
            v.hidden = False
            if v.alive:
                shown.append(v)
    if not shown:
        return None
    names = " and ".join(v.name or v.id for v in shown)
    src = source_of(e)
    cites = _citations(src)
    if ref not in cites:
        cites.insert(1, ref)
    return emit(state, "illusion_revealed", f"{names} reappear(s): {why_en}", f"{names} réapparaît : {why_fr}",
                side=u.side, ref=ref, decision=src.decision, units=[v.id for v in shown], source=src.id,
                at={v.id: [round(v.x, 2), round(v.y, 2), round(v.heading, 2)] for v in shown},
                ruling={"explanation": [f"{names} had vanished under « {src.name} » (until turn "
                                        f"{e['until_turn']})", f"revealed: {why_en}"],
                        "explanation_fr": [f"{names} : disparu(s) sous « {src.name} » (jusqu'au tour "
                                           f"{e['until_turn']})", f"révélé(s) : {why_fr}"],
                        "citations": cites}, **extra)


def firing_ref(state: Battle, u: Unit) -> str:
    """The rule a volley of the invisible ``u`` breaks: the spell's "ni ne tire" (l.1240), else "Une unité
    tirant est automatiquement dévoilée" (l.1363)."""
    return REF if reveals_on_move(state, u) else REF_FIRING


def reveals_on_move(state: Battle, u: Unit) -> bool:
    """An invisible unit that moving reveals (the spell, l.1240); the cape's bearer moves unseen (l.236)."""
    e = invisible(state, u)
    return e is not None and source_of(e).reveal_on_move


def detector(state: Battle, u: Unit) -> tuple[Unit, Detector, float] | None:
    """The enemy character whose magic weapon or item discovers ``u`` (l.194, l.230): (bearer, row,
    distance); the nearest first."""
    from .brigades import _same
    fp = u.footprint()
    found = []
    for c in sorted(state.units.values(), key=lambda v: v.id):
        if c.side == u.side or c.kind != "character" or not c.alive or c.base is not None or c.status == "flank":
            continue
        for d in detectors():
            if not ((d.weapon and _same(c.magic_weapon, d.weapon)) or (d.item and _same(c.magic_item, d.item))):
                continue
            shapes = [c.footprint()]
            led = state.units.get(c.leads or "")
            if d.controlled_unit and led is not None and led.alive:
                shapes.append(led.footprint())
            dist = min(tt.nearest_distance(s, fp) for s in shapes)
            if dist <= d.within_cm + 1e-6:
                found.append((dist, c.id, c, d))
    if not found:
        return None
    dist, _, c, d = min(found, key=lambda t: (t[0], t[1]))
    return c, d, dist


def _acted(state: Battle, ids: list[str], since: int, fighters: list[str] | None = None) -> str | None:
    """'fires' or 'fights' when a unit of ``ids`` shot (a volley with a target) or one of ``fighters`` (``ids``
    by default) struck since the cast."""
    fighters = ids if fighters is None else fighters
    for ev in state.log[since:]:
        if ev.get("unit") in ids and ev.get("type") == "fire" and ev.get("target"):
            return "fires"
        if ev.get("unit") in fighters and ev.get("type") == "melee":
            return "fights"
    return None


def watch(state: Battle) -> None:
    """Each step of the turn: the illusions that end (OR-GF126)."""
    from .fighters import enemies, touching
    tab = table(state)
    if not tab:
        return
    for uid in sorted(tab):
        e = tab.get(uid)
        if e is None:
            continue  # revealed with its group
        u = state.units.get(uid)
        if u is None or not u.alive or not u.hidden:
            tab.pop(uid, None)
            if u is not None and not u.inside:
                u.hidden = False
            continue
        ids = e.get("group") or [uid]
        src = source_of(e)
        # the cape: its bearer and the unit he controls directly, who fights with him (l.995, OR-GF148)
        fighting = _combat_members(state, u, ids) if not src.with_controller else [state.units[i] for i in ids
                                                                                   if i in state.units]
        contact = next(((m, v) for m in fighting for v in enemies(state, m) if touching(m, v)), None)
        if state.turn > e["until_turn"]:
            reveal(state, u, f"its {e['until_turn'] - e['from_turn'] + 1} turn(s) of invisibility are over",
                   f"ses {e['until_turn'] - e['from_turn'] + 1} tour(s) d'invisibilité sont écoulés", src.ref)
        elif src.reveal_on_move and _pose(u) != e["pose"]:
            reveal(state, u, "it moves", "elle bouge")
        elif (act := _acted(state, ids, e["since"], [m.id for m in fighting])) is not None:
            reveal(state, u, f"it {act}", "elle tire" if act == "fires" else "elle combat",
                   REF_FIRING if act == "fires" and not src.reveal_on_move else src.ref)
        elif contact is not None:
            m, foe = contact
            reveal(state, u, f"{foe.name} is in base contact with " + ("it" if m is u else m.name),
                   f"{foe.name} est au contact de " + ("elle" if m is u else m.name), src.ref)
        elif (det := detector(state, u)) is not None:
            c, d, dist = det
            thing = d.weapon or d.item
            reveal(state, u, f"{c.name}'s « {thing} » discovers it ({dist:.1f} cm, within {d.within_cm:g} cm)",
                   f"« {thing} » de {c.name} la découvre ({dist:.1f} cm, dans les {d.within_cm:g} cm)", d.ref,
                   detected_by=c.id)


def blocked(state: Battle, u: Unit, x: float, y: float, heading: float) -> list[Unit]:
    """The invisible enemies a move of ``u`` to (x, y, heading) would cross or end within the enemy
    standoff of (l.590): its side does not see them, so the move's check lets it go; they are revealed
    and it stays (as a movement base's, OR-GF103; OR-GF126)."""
    from .rules import rules
    if not table(state):
        return []
    gap = rules().distances.enemy_standoff_cm
    sweep = tt.swept(u.pose, tt.Pose(x, y, heading), u.width, u.depth)
    return [o for o in state.units.values() if o.side != u.side and o.alive and invisible(state, o)
            and tt.nearest_distance(sweep, o.footprint()) < gap - 1e-6]
