"""Prototype, NOT used by the engine: two faster versions of ``engine.riding.reachable``, kept
to back the suggestions in ``benchmarks/README.md`` ("bench_riders.py"). Both return exactly
what ``riding.reachable`` returns (the same costs, the same paths: the heap pops states in the
same order) — run this file to check that on the benchmark positions and to time the three.

* ``reachable``: the same loop, with a memo ``(front, facing) -> (rear, ((entered, next state,
  kind, crossed from), ...))`` of the pure geometry of the nine candidate steps (instead of
  ``neighbours()`` + ``classify`` per pop), the entry costs as a dict of dicts, and every path
  built once from its predecessor's;
* ``reachable2``: states as ints (``hex index * 6 + facing``, which sorts like ``(Hex,
  facing)``) and per-map flat tables of the transitions with their summed cost (terrain +
  hexside + turn extra, impassable steps dropped); only blocked / heavy hexes (they change)
  are looked up during the search. The tables take ~0.1–0.6 s to build once per map.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/prototypes/riding_reachable_fast.py``
"""
import heapq
from oriflamme.engine import riding
from oriflamme.engine.riding import classify, VOLTE, AHEAD, SIDE, SWING_SIDE, SWING_BEHIND

_KINDS = (AHEAD, SIDE, SWING_SIDE, SWING_BEHIND, VOLTE)
_UNIT = {k: i for i, k in enumerate(_KINDS)}
_GEOM: dict = {}

def _geom(front, facing):
    """``(rear, ((entered, next state, kind index, crossed from), ...))`` for the candidate steps of a
    (front, facing) state, in ``riding.reachable``'s order."""
    key = (front, facing)
    g = _GEOM.get(key)
    if g is None:
        fake = {k: 0 for k in _KINDS}
        rear = front.neighbour(facing + 3)
        cands = list(front.neighbours()) + [h for h in rear.neighbours() if h != front and h.distance(front) > 1]
        out = []
        for h in cands:
            s = classify(front, facing, h, fake)
            if s is None:
                continue
            out.append((h, (s.front, s.facing), _UNIT[s.kind], s.crossed_from))
        g = _GEOM[key] = (rear, tuple(out))
    return g

def reachable(state, c, budget):
    from oriflamme.engine.movement import _obstacles, _step_table, thresholds, threatened_hexes, _SHIFT
    steps = _step_table(state, True, bool(c.armour))
    blocked, heavy, occupied = _obstacles(state, c, thresholds(state.rules))
    occupied = occupied - set(c.hexes)
    danger = threatened_hexes(state, c)
    ex = riding.extra_costs(state)
    extra = [ex[k] << _SHIFT for k in _KINDS]
    one = 1 << _SHIFT
    # per-map entry costs as dict of dicts, minus blocked, plus heavy (per call: cheap relative)
    cost_of = {}
    start = (c.hex, c.facing)
    best = {start: 0}
    prev = {}
    heap = [(0, start)]
    limit = (budget + 1) << _SHIFT
    pop, push = heapq.heappop, heapq.heappush
    vol = _UNIT[VOLTE]
    while heap:
        key, st = pop(heap)
        if best[st] < key:
            continue
        rear, moves = _geom(*st)
        if st != start and (st[0] in danger or rear in danger):
            key += 1
        for h, ns, kind, frm in moves:
            if kind == vol:
                nk = key + extra[kind]
            else:
                row = cost_of.get(frm)
                if row is None:
                    row = cost_of[frm] = dict(steps.get(frm, ()))
                sc = row.get(h)
                if sc is None or h in blocked:
                    continue
                if h in heavy:
                    sc += one
                nk = key + sc + extra[kind]
            if nk < limit and nk < best.get(ns, limit):
                best[ns] = nk
                prev[ns] = (st, h)
                push(heap, (nk, ns))
    out = {}
    paths = {start: ()}
    def path_of(s):
        p = paths.get(s)
        if p is None:
            ps, h = prev[s]
            p = paths[s] = path_of(ps) + (h,)
        return p
    for st, k in best.items():
        if st == start:
            continue
        front, facing = st
        if front in occupied or _geom(front, facing)[0] in occupied:
            continue
        out[st] = (k >> _SHIFT, path_of(st))
    return out


# ---- v2: int states, per-map flat tables with summed costs ------------------------------------
_TABLES: dict = {}

def _tables(state, armour):
    from oriflamme.engine.movement import _step_table
    m = state.gmap
    key = (id(m), id(state.rules), armour)
    t = _TABLES.get(key)
    if t is None:
        steps = _step_table(state, True, armour)
        hexes = sorted(steps)  # every on-map hex
        idx = {h: i for i, h in enumerate(hexes)}
        ex = riding.extra_costs(state)
        from oriflamme.engine.movement import _SHIFT
        trans = []
        rear_of = []
        for h in hexes:
            for f in range(6):
                rear, moves = _geom(h, f)
                rear_of.append(rear)
                row = []
                for entered, (nf, nfa), kind, frm in moves:
                    if nf not in idx:
                        continue
                    if _KINDS[kind] == VOLTE:
                        row.append((idx[nf] * 6 + nfa, ex[VOLTE] << _SHIFT, None))
                        continue
                    sc = dict(steps.get(frm, ())).get(entered)
                    if sc is None:
                        continue
                    row.append((idx[nf] * 6 + nfa, sc + (ex[_KINDS[kind]] << _SHIFT), entered))
                trans.append(tuple(row))
        t = _TABLES[key] = (hexes, idx, trans, rear_of)
    return t

def reachable2(state, c, budget):
    from oriflamme.engine.movement import _obstacles, thresholds, threatened_hexes, _SHIFT
    hexes, idx, trans, rear_of = _tables(state, bool(c.armour))
    blocked, heavy, occupied = _obstacles(state, c, thresholds(state.rules))
    occupied = occupied - set(c.hexes)
    danger = threatened_hexes(state, c)
    one = 1 << _SHIFT
    n = len(trans)
    # per-state "leaving costs +1 crossing" flag
    start = idx[c.hex] * 6 + c.facing
    INF = (budget + 1) << _SHIFT
    best = {start: 0}
    prev = {}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key, s = pop(heap)
        if best[s] < key:
            continue
        if s != start and (hexes[s // 6] in danger or rear_of[s] in danger):
            key += 1
        for ns, cost, entered in trans[s]:
            if entered is not None:
                if entered in blocked:
                    continue
                if entered in heavy:
                    cost += one
            nk = key + cost
            if nk < INF and nk < best.get(ns, INF):
                best[ns] = nk
                prev[ns] = (s, entered)
                push(heap, (nk, ns))
    # paths: need the label-bearing hex for volte (the rear hex = new front)
    out = {}
    paths = {start: ()}
    def path_of(s):
        p = paths.get(s)
        if p is None:
            ps, h = prev[s]
            p = paths[s] = path_of(ps) + ((h if h is not None else hexes[s // 6]),)
        return p
    for s, k in best.items():
        if s == start:
            continue
        front = hexes[s // 6]
        if front in occupied or rear_of[s] in occupied:
            continue
        out[(front, s % 6)] = (k >> _SHIFT, path_of(s))
    return out


if __name__ == "__main__":
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from _common import measure, summary
    from bench_riders import armies, emptied, lone_rider

    kn, kc = lone_rider("knight")
    lc, lcc = lone_rider("light_cavalry")
    em, ec = emptied(lc)
    big = armies()
    cases = [("knight 12", kn, kc, 12), ("light cavalry 15", lc, lcc, 15), ("light cavalry 30", lc, lcc, 30),
             ("empty board 15", em, ec, 15)]
    cases += [(cid, big, big.characters[cid], 15) for cid in sorted(big.characters) if big.characters[cid].mounted]
    for name, st, c, b in cases:
        ref = riding.reachable(st, c, b)
        assert reachable(st, c, b) == ref, name
        assert reachable2(st, c, b) == ref, name
    print(f"identical results on {len(cases)} searches")
    for name, st, c, b in cases[:4]:
        s1, s2, s3 = (summary(measure(lambda: f(st, c, b), 30, 2, 3.0))["p50"]
                      for f in (riding.reachable, reachable, reachable2))
        print(f"{name:18s} engine {s1 * 1e3:7.2f} ms   memo {s2 * 1e3:7.2f} ms ({s1 / s2:.1f}x)"
              f"   int tables {s3 * 1e3:7.2f} ms ({s1 / s3:.1f}x)")
