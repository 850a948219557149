"""A unit's volleys in phase 8: up to three targets, the firing figures shared between them (GF seed 003
l.830 "On peut choisir jusqu'à 3 cibles différentes", l.840 "Elle peut avoir jusqu'à trois cibles
différentes. Le joueur annonce quelles sont ces cibles"; the priorities l.1454-1459; OR-GF110).

The seed says how many targets, not how the figures are shared. Oriflamme's reading (OR-GF110):

* the targets are the ones the order announces (``Unit.fire_targets``, or its one ``target``), at most
  ``data/combat.toml [fire_targets] max_played``;
* the priorities choose first: an announced target is fired at only when it is eligible (procedure
  steps 1-3) and of the best priority present among the eligible enemies; when none is, the unit fires
  at the nearest enemy of that priority, as with one target (OR-GF51);
* the front-rank files (each with the weapon's firing ranks behind it, l.1507-1511) are shared between
  the kept targets in contiguous blocks, as evenly as possible, left to right across the shooter's front
  in the order the targets stand from left to right (the leftmost block one file larger when they do not
  divide evenly); a file that cannot see its block's target fires at the nearest block's target it sees,
  and not at all when it sees none (l.844);
* the figures firing (the one-target count of :func:`.fire_play.firing_figures`) are shared in
  proportion to the files (largest remainders, ties to the left), so one target gets exactly what it got
  before;
* each target is one volley: its own situation for the part-1 referee, its own d100; the casualties of
  every volley go into the phase's one ledger (l.826, simultaneous).
"""

from __future__ import annotations

from oriflamme.geometry import tabletop

from .. import fire as fd
from . import combat_data
from .fighters import depth, enemies, pose, shape, sight_obstacles, unit, width

DECISION = "OR-GF110"


def announced(u) -> list[str]:
    """The targets the order announces, in the player's order (l.840)."""
    listed = list(getattr(u, "fire_targets", None) or [])
    if listed:
        return listed
    return [u.target] if u.target else []


def _lateral(u, t) -> float:
    """How far right of the shooter's centre ``t``'s centre stands (cm, the shooter's frame)."""
    c = shape(t).centroid
    return tabletop.local_coordinates(pose(u), c)[0]


def kept_targets(state, u) -> tuple[list, dict, list[str], list[str]]:
    """The targets ``u`` fires at (OR-GF110): the eligible announced targets of the best priority present,
    else the nearest enemy of that priority. Returns (targets, eligibility checks, steps, citations)."""
    from .fire_play import eligibility, priority

    checks = {t.id: eligibility(state, u, t) for t in enemies(state, u)}
    eligible = [t for t in enemies(state, u) if checks[t.id]["eligible"]]
    if not eligible:
        return [], checks, [f"{u.name or u.id} has no eligible target: it keeps its fire"], ["GF seed 003 l.301"]
    prio = {t.id: priority(state, u, t) for t in eligible}
    best = min(prio.values())
    rows = {p.rank: p for p in fd.priorities()}
    row = rows[best]
    limit = combat_data.data().fire_targets.max_played
    listed = announced(u)[:limit]
    steps, cites = [], [row.ref]
    kept = []
    for tid in listed:
        if tid in prio and prio[tid] == best and all(k.id != tid for k in kept):
            kept.append(unit(state, tid))
    if len(listed) == 1 and kept:
        t = kept[0]
        steps.append(f"the ordered target {t.name or t.id} is of the first priority present; "
                     f"priority {best}: {row.printed} → {t.name or t.id}")
        return kept, checks, steps, cites
    if len(listed) > 1:
        for tid in listed:
            if tid not in prio:
                steps.append(f"the announced target {_name(state, tid)} is not eligible: it is not fired at")
            elif prio[tid] != best:
                steps.append(f"the announced target {_name(state, tid)} is of priority {prio[tid]}, "
                             f"not of the first priority present ({best}): it is not fired at")
    if kept:
        names = ", ".join(t.name or t.id for t in kept)
        steps.append(f"{len(kept)} announced target(s) of the first priority present; "
                     f"priority {best}: {row.printed} → {names}")
        cites += [combat_data.data().fire_targets.ref, DECISION]
        return kept, checks, steps, cites
    nearest = min((t for t in eligible if prio[t.id] == best),
                  key=lambda t: (tabletop.nearest_distance(shape(u), shape(t)), t.id))
    if not listed:
        why = "no target ordered"
    elif len(listed) == 1:
        why = f"the ordered target {listed[0]} is not eligible or not of the first priority present"
    else:
        why = "no announced target is eligible and of the first priority present"
    steps.append(f"{why}; priority {best}: {row.printed} → {nearest.name or nearest.id}")
    return [nearest], checks, steps, cites


def _name(state, uid) -> str:
    u = state.units.get(uid) if isinstance(state.units, dict) else None
    return (u.name or u.id) if u is not None else str(uid)


def file_targets(state, u, targets: list) -> list[str | None]:
    """The target each front-rank file fires at, left to right (None: it sees none of them)."""
    n = max(1, min(u.frontage, u.figures))
    edge = tabletop.front_edge(pose(u), width(u), depth(u))
    order = sorted(targets, key=lambda t: (_lateral(u, t), t.id))
    k = len(order)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    block_of = [b for b, s in enumerate(sizes) for _ in range(s)]
    seen = {t.id: (sight_obstacles(state, u, t), shape(t)) for t in order}
    out: list[str | None] = []
    for i in range(n):
        place = edge.interpolate((i + 0.5) / n, normalized=True)
        sees = [b for b, t in enumerate(order) if tabletop.line_of_sight(place, seen[t.id][1], seen[t.id][0]).visible]
        if not sees:
            out.append(None)
            continue
        own = block_of[i]
        b = min(sees, key=lambda b: (abs(b - own), b))
        out.append(order[b].id)
    return out


def share(total: int, files: dict[str, int], order: list[str]) -> dict[str, int]:
    """``total`` figures shared in proportion to ``files`` (largest remainders; ties to the earlier in
    ``order``). The shares add up to ``total`` when any file fires."""
    n = sum(files.values())
    if n == 0:
        return {t: 0 for t in files}
    base = {t: total * files[t] // n for t in files}
    left = total - sum(base.values())
    rema = sorted(files, key=lambda t: (-(total * files[t] % n), order.index(t)))
    for t in rema[:left]:
        base[t] += 1
    return base


def plan(state, u) -> dict:
    """The volleys of ``u`` (:func:`kept_targets`, :func:`file_targets`, :func:`share`):
    ``{"volleys": [{"target", "files", "figures", "steps"}], "checks", "steps", "citations"}``."""
    from .fire_play import firing_figures, firing_ranks

    targets, checks, steps, cites = kept_targets(state, u)
    if not targets:
        return {"volleys": [], "checks": checks, "steps": steps, "citations": cites}
    if len(targets) == 1:
        t = targets[0]
        figures, fsteps = firing_figures(state, u, t)
        return {"volleys": [{"target": t.id, "figures": figures, "files": None, "steps": fsteps}],
                "checks": checks, "steps": steps, "citations": cites}
    per_file = file_targets(state, u, targets)
    n = len(per_file)
    files = {t.id: per_file.count(t.id) for t in targets}
    blind = per_file.count(None)
    used_ranks, why = firing_ranks(state, u)
    total = min(u.figures, (n - blind) * used_ranks)
    order = [t.id for t in sorted(targets, key=lambda t: (_lateral(u, t), t.id))]
    shares = share(total, files, order)
    split = [f"the {n} files are shared between the {len(targets)} targets, left to right"]
    if blind:
        split.append(f"{blind} file(s) see none of them and do not fire")
    volleys = []
    for t in targets:
        volleys.append({"target": t.id, "files": files[t.id], "figures": shares[t.id],
                        "steps": split + [why, f"{files[t.id]} file(s) at {t.name or t.id}: {shares[t.id]} of the "
                                               f"{total} firing figure(s)"]})
    return {"volleys": volleys, "checks": checks, "steps": steps, "citations": cites + [DECISION]}
