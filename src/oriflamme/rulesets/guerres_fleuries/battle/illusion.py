"""« Illusion de Tezcatlipoca » on the table (GF La magie, seed 003 l.1236-1240; OR-GF125, OR-GF126):
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
KEY = "illusion"
REF = "GF seed 003 l.1240"
DECISION = "OR-GF126"


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


def group(state: Battle, u: Unit) -> list[Unit]:
    """``u`` and the character who controls it directly, or the unit he controls: they move as one
    (OR-GF41), they vanish and reappear together."""
    out = [u]
    for uid in (u.led_by, u.leads):
        o = state.units.get(uid or "")
        if o is not None and o.alive and o not in out:
            out.append(o)
    return out


def vanish(state: Battle, caster: Unit, target: Unit, turns: int, ev: dict) -> None:
    """The target (and its group) disappears from the enemy's sight for ``turns`` turns, this one
    included (OR-GF112's count)."""
    until = state.turn + turns - 1
    members = group(state, target)
    tab = state.command.setdefault(KEY, {})
    since = len(state.log)
    for u in members:
        u.hidden = True
        tab[u.id] = {"until_turn": until, "pose": _pose(u), "since": since, "caster": caster.id,
                     "group": [m.id for m in members], "from_turn": state.turn}
    names = " and ".join(m.name or m.id for m in members)
    ev["explanation"].append(f"« Illusion de Tezcatlipoca »: {names} vanish(es) from the enemy's sight for {turns} "
                             f"turn(s), until turn {until}, as long as it neither moves nor fires (l.1240); an enemy "
                             "character's detecting weapon (40 cm) or Casque de Tezcatlipoca (15 cm) discovers it")
    ev["citations"] += [REF, DECISION]
    ev["vanished"] = [m.id for m in members]


def reveal(state: Battle, u: Unit, why_en: str, why_fr: str, ref: str = REF, **extra) -> dict | None:
    """``u``'s illusion ends: it and its group are on the enemy's table again, where they stand."""
    tab = table(state)
    e = tab.get(u.id)
    if e is None:
        return None
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
    return emit(state, "illusion_revealed", f"{names} reappear(s): {why_en}", f"{names} réapparaît : {why_fr}",
                side=u.side, ref=ref, decision=DECISION, units=[v.id for v in shown],
                at={v.id: [round(v.x, 2), round(v.y, 2), round(v.heading, 2)] for v in shown},
                ruling={"explanation": [f"{names} had vanished under « Illusion de Tezcatlipoca » (until turn "
                                        f"{e['until_turn']})", f"revealed: {why_en}"],
                        "citations": [REF, ref, DECISION] if ref != REF else [REF, DECISION]}, **extra)


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


def _acted(state: Battle, ids: list[str], since: int) -> str | None:
    """'fires' or 'fights' when a unit of ``ids`` shot (a volley with a target) or struck since the cast."""
    for ev in state.log[since:]:
        if ev.get("unit") in ids:
            if ev.get("type") == "fire" and ev.get("target"):
                return "fires"
            if ev.get("type") == "melee":
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
        if state.turn > e["until_turn"]:
            reveal(state, u, f"its {e['until_turn'] - e['from_turn'] + 1} turn(s) of invisibility are over",
                   f"ses {e['until_turn'] - e['from_turn'] + 1} tour(s) d'invisibilité sont écoulés")
        elif _pose(u) != e["pose"]:
            reveal(state, u, "it moves", "elle bouge")
        elif (act := _acted(state, ids, e["since"])) is not None:
            reveal(state, u, f"it {act}", "elle tire" if act == "fires" else "elle combat")
        elif (foe := next((v for v in enemies(state, u) if touching(u, v)), None)) is not None:
            reveal(state, u, f"{foe.name} is in base contact with it", f"{foe.name} est à son contact")
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
