"""Les Guerres Fleuries in the terminal (``Ruleset.terminal()``; the interface is documented
there): list the units, give the orders in secret, move, see the percentages before a roll and
the results with their citations.

It reads only the ruleset's seat views and options (the same JSON the browser draws:
docs/guerres-fleuries/battle.md), so it shows a side exactly what that side may see: the enemy's
orders stay face down until phase 4. In a hot-seat game the keyboard changes hands between the
two sides' secret orders: the screen is cleared and the next side presses Enter first.
"""

from __future__ import annotations

import os
import shlex

from rich.markup import escape as esc

from oriflamme.core.errors import IllegalAction, OriflammeError

from .texts import say

MAP_COLS, MAP_ROWS = 60, 20          # 3 cm across, 6 cm down on the 180 × 120 cm table
# the terrain kinds of data/terrain.toml (gf-geom; French ids) and their English names
TERRAIN_CHAR = [("ruisseau", "-"), ("riviere", "-"), ("gue", "-"), ("stream", "-"), ("river", "-"), ("ford", "-"),
                ("route", "="), ("pont", "="), ("road", "="), ("bridge", "="),
                ("haie", "+"), ("mur", "+"), ("cloture", "+"), ("hedge", "+"), ("wall", "+"), ("fence", "+"),
                ("falaise", "!"), ("cliff", "!"), ("colline", "^"), ("hill", "^"),
                ("bois", "T"), ("jungle", "T"), ("wood", "T"), ("forest", "T"),
                ("marais", "~"), ("marecage", "~"), ("bournier", "~"), ("marsh", "~"), ("swamp", "~"),
                ("champ", ":"), ("field", ":"),
                ("hameau", "#"), ("construction", "#"), ("building", "#"), ("hamlet", "#"), ("village", "#"), ("temple", "#"),
                ("irregulier", "%"), ("broussailles", "%"), ("broken", "%"), ("rough", "%"), ("scrub", "%")]

# one session per game: the language, the orders being chosen, who took the keyboard
_SESSIONS: dict[int, dict] = {}


def _session(game) -> dict:
    s = _SESSIONS.get(id(game))
    if s is None or s.get("game") is not game:
        s = _SESSIONS[id(game)] = {"game": game, "lang": os.environ.get("ORIFLAMME_LANG", "en")[:2],
                                   "draft": {}, "ack": None}
    return s


def _ruleset():
    from .ruleset import GuerresFleuries
    return GuerresFleuries()


def _name(o: dict | None, lang: str) -> str:
    if not o:
        return ""
    return (o.get("name_fr") or o.get("name") or "") if lang == "fr" else (o.get("name") or o.get("name_fr") or "")


def _phase(view: dict) -> dict:
    p = view.get("phase") or {}
    return p if isinstance(p, dict) else {"id": p}


def secret_plan(view: dict) -> bool:
    """An encounter's deployment, written on each side's battle plan (l.491-507, OR-GF100, OR-GF141)."""
    return bool(view.get("encounter")) and str(_phase(view).get("id", "")) == "deployment"


def secret_step(view: dict) -> bool:
    return is_orders_phase(view) or secret_plan(view)


def is_orders_phase(view: dict) -> bool:
    if view.get("writing_battle_orders"):
        return True  # the written battle orders after deployment are secret too (OR-GF94)
    p = _phase(view)
    pid = str(p.get("id", ""))
    return p.get("number") == 3 or ("order" in pid and "reveal" not in pid)


# --- the table as text ----------------------------------------------------------------------------
def _inside(x: float, y: float, poly) -> bool:
    """Even-odd rule (a display aid only: the rules measure with the tabletop geometry)."""
    hit = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            hit = not hit
    return hit


def _terrain_char(kind: str) -> str:
    k = str(kind or "").lower()
    for word, ch in TERRAIN_CHAR:
        if word in k:
            return ch
    return "%"


def unit_letters(view: dict) -> dict[str, str]:
    """The letter of each unit on the map: side A's in capitals, the other side's in lower case,
    in the order of the view; characters share '*'."""
    out, counts = {}, {}
    sides = [s["id"] for s in view.get("sides", [])] or sorted({u["side"] for u in view.get("units", [])})
    for u in view.get("units", []):
        if u.get("kind") == "character":
            out[u["id"]] = "*"
            continue
        i = counts.get(u["side"], 0)
        counts[u["side"]] = i + 1
        ch = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i % 26]
        out[u["id"]] = ch if u["side"] == (sides[0] if sides else "A") else ch.lower()
    return out


def render_view(view: dict, full: bool = False, lang: str = "en") -> str:
    table = view.get("table") or {}
    W, H = table.get("width", 180), table.get("height", 120)
    cw, ch = W / MAP_COLS, H / MAP_ROWS
    grid = [["." for _ in range(MAP_COLS)] for _ in range(MAP_ROWS)]
    centre = lambda c, r: ((c + 0.5) * cw, (r + 0.5) * ch)  # noqa: E731
    for t in table.get("terrain", []):
        pts = t.get("points") or []
        mark = _terrain_char(t.get("kind"))
        if t.get("shape") == "line":
            for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
                steps = max(1, int(max(abs(x2 - x1) / cw, abs(y2 - y1) / ch) * 2))
                for i in range(steps + 1):
                    x, y = x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps
                    c, r = min(MAP_COLS - 1, int(x / cw)), min(MAP_ROWS - 1, int(y / ch))
                    grid[r][c] = mark
        elif len(pts) >= 3:
            for r in range(MAP_ROWS):
                for c in range(MAP_COLS):
                    if _inside(*centre(c, r), pts) and grid[r][c] == ".":
                        grid[r][c] = mark
    for b in view.get("bases", []):  # an encounter's movement bases: "?" where one stands (OR-GF101)
        if isinstance(b.get("x"), (int, float)) and isinstance(b.get("y"), (int, float)):
            grid[min(MAP_ROWS - 1, max(0, int(b["y"] / ch)))][min(MAP_COLS - 1, max(0, int(b["x"] / cw)))] = "?"
    letters = unit_letters(view)
    for u in view.get("units", []):
        if u.get("x") is None:
            continue
        corners = u.get("corners")
        cells = set()
        if corners and len(corners) == 4:
            # points every centimetre over the base (front-left, front-right, rear-right, rear-left)
            (x0, y0), (x1, y1), _, (x3, y3) = corners
            n_s = max(2, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5) + 1)
            n_t = max(2, int(((x3 - x0) ** 2 + (y3 - y0) ** 2) ** 0.5) + 1)
            for i in range(n_s + 1):
                for j in range(n_t + 1):
                    s_, t_ = i / n_s, j / n_t
                    x, y = x0 + (x1 - x0) * s_ + (x3 - x0) * t_, y0 + (y1 - y0) * s_ + (y3 - y0) * t_
                    if 0 <= x < W and 0 <= y < H:
                        cells.add((int(y / ch), int(x / cw)))
        cells.add((min(MAP_ROWS - 1, max(0, int(u["y"] / ch))), min(MAP_COLS - 1, max(0, int(u["x"] / cw)))))
        for r, c in cells:
            grid[r][c] = letters[u["id"]]
    ruler = "     " + "".join(f"{x:<10}" for x in range(0, int(W), 30))
    lines = [ruler.rstrip(), "    +" + "-" * MAP_COLS + "+"]
    for r, row in enumerate(grid):
        y = int(r * ch)
        lines.append(f"{y:>3} |" + "".join(row) + "|")
    lines.append("    +" + "-" * MAP_COLS + "+")
    if full:
        lines.append(say("legend", lang))
        lines.append("")
        lines.extend(unit_rows(view, lang))
    return "\n".join(lines)


def unit_rows(view: dict, lang: str = "en", draft: dict | None = None) -> list[str]:
    letters = unit_letters(view)
    out = []
    sides = view.get("sides") or [{"id": s} for s in sorted({u["side"] for u in view.get("units", [])})]
    for s in sides:
        units = [u for u in view.get("units", []) if u["side"] == s["id"]]
        out.append(say("units_of", lang, side=_name(s, lang) or s["id"], n=len(units),
                       figures=sum(u.get("figures") or 0 for u in units)))
        for u in units:
            if u.get("order_hidden"):
                order = say("order_hidden", lang)
            elif u.get("order"):
                o = u["order"]
                aim = ", ".join(o["targets"]) if o.get("targets") else o.get("target")
                order = _name(o, lang) + (f" → {aim}" if aim else "")
            elif draft and u["id"] in draft:
                order = say("order_draft", lang, order=draft[u["id"]]["order"])
            else:
                order = ""
            if u.get("disorder"):
                order = (order + " · " if order else "") + say("disorder", lang)
            markers = ",".join(u.get("markers") or [])
            figs = f"{u.get('figures')}/{u.get('figures_max')}" if u.get("figures_max") not in (None, u.get("figures")) else str(u.get("figures"))
            out.append(f"  {letters.get(u['id'], '?')} " + say(
                "unit_row", lang, id=str(u["id"])[:6], name=str(u.get("name", ""))[:30], kind=str(u.get("kind", ""))[:10],
                figures=figs, formation=str(u.get("formation") or "")[:10], x=float(u.get("x") or 0), y=float(u.get("y") or 0),
                heading=int(round(u.get("heading") or 0)), order=order) + (f" [{markers}]" if markers else "")
                + (f" <{u['brigade']}>" if u.get("brigade") else ""))
    return out


# --- the front end's interface (core Ruleset.terminal) -----------------------------------------------
def title(game) -> str:
    sc = game.scenario
    rs = game.ruleset
    try:
        doc = rs.scenario_to_json(sc)
    except OriflammeError:
        doc = {}
    name = getattr(sc, "name", None) or doc.get("name") or "Les Guerres Fleuries"
    desc = getattr(sc, "description", None) or doc.get("description") or ""
    return f"[bold]{esc(str(name))}[/] — {esc(str(desc))}\n{esc(rs.title)}: 180 × 120 cm"


def render(state, full: bool = False) -> str:
    return esc(render_view(_ruleset().view(state, None), full))


def status(state) -> tuple:
    rs = _ruleset()
    view = rs.view(state, None)
    p = _phase(view)
    who = rs.to_act(state)
    key = (view.get("turn"), p.get("id"), who)
    line = say("turn_line", "en", turn=view.get("turn"), number=p.get("number", "?"), phase=_name(p, "en") or p.get("id"),
               ref=p.get("ref", ""), side=who)
    return key, f"[bold]{esc(line)}[/]"


def summary(state) -> str:
    view = _ruleset().view(state, None)
    return f"turn {view.get('turn')}"


def _find_unit(view: dict, token: str, side: str | None = None) -> dict | None:
    units = [u for u in view.get("units", []) if side is None or u["side"] == side]
    for u in units:
        if u["id"] == token:
            return u
    letters = unit_letters(view)
    by_letter = [u for u in units if letters.get(u["id"]) == token]
    if len(by_letter) == 1:
        return by_letter[0]
    low = token.lower()
    pref = [u for u in units if str(u["id"]).lower().startswith(low) or str(u.get("name", "")).lower().startswith(low)]
    return pref[0] if len(pref) == 1 else None


def _print_events(console, events, lang, names: dict | None = None):
    for ev in events:
        text = ev.get("text_fr") if lang == "fr" and ev.get("text_fr") else ev.get("text", "")
        ref = f"  [dim]({esc(str(ev['ref']))})[/]" if ev.get("ref") else ""
        console.print(f"  • {esc(str(text))}{ref}", highlight=False)
        if isinstance(ev.get("orders"), dict):   # phase 4: every order, face up (l.283)
            for uid, o in ev["orders"].items():
                o = o if isinstance(o, dict) else {"order": o}
                aims = o.get("targets") or o.get("target")
                aims = aims if isinstance(aims, list) else [aims] if aims else []
                tgt = (" → " + ", ".join(str((names or {}).get(a, a)) for a in aims)) if aims else ""
                console.print(f"      {esc(str(uid))} {esc(str((names or {}).get(uid, '')))}: {esc(str(o.get('order')))}{esc(tgt)}",
                              highlight=False)
        ruling = ev.get("ruling")
        if isinstance(ruling, dict):
            for line in ruling.get("explanation", []) or ruling.get("steps", []):
                console.print(f"      [dim]{esc(str(line))}[/]", highlight=False)
            if ruling.get("citations"):
                console.print(f"      [dim]{esc('; '.join(map(str, ruling['citations'])))}[/]", highlight=False)


def _apply(console, game, action_json, lang) -> bool:
    rs = game.ruleset
    try:
        events = game.apply(rs.action_from_json(action_json))
    except IllegalAction as exc:
        ref = getattr(exc, "ref", None)
        console.print(f"[red]{esc(say('refused', lang, reason=str(exc)))}[/]" + (f" [dim]({esc(str(ref))})[/]" if ref and str(ref) not in str(exc) else ""))
        return False
    except OriflammeError as exc:
        console.print(f"[red]{esc(say('refused', lang, reason=str(exc)))}[/]")
        return False
    _print_events(console, events, lang, {u.get("id"): u.get("name") for u in rs.view(game.state, None).get("units", [])})
    return True


def _explain(console, rs, state, action_json, lang):
    try:
        r = rs.explain(state, rs.action_from_json(action_json))
    except OriflammeError as exc:
        console.print(f"[red]{esc(say('refused', lang, reason=str(exc)))}[/]")
        return
    if lang == "fr":
        r = rs.render_ruling(r, "fr")
    if r.get("legal") is False:
        console.print(f"[red]{esc(say('refused', lang, reason=str(r.get('reason'))))}[/]")
    for k in ("allowed_cm", "spent_cm", "left_cm", "percent"):
        if r.get(k) is not None:
            console.print(f"    {k.replace('_', ' ')}: {r[k]}", highlight=False)
    for p in r.get("penalties") or []:
        console.print(f"    − {esc(_name(p, lang) or str(p.get('element', '')))}: {p.get('fraction', p.get('cm', ''))} "
                      f"[dim]({esc(str(p.get('ref', '')))})[/]", highlight=False)
    for s in r.get("steps", []):
        console.print(f"    {esc(str(s))}", highlight=False)
    for o in r.get("outcomes") or []:
        console.print(f"    {esc(str(o.get('result')))}: {o.get('p', 0) * 100:.1f}%", highlight=False)
    if r.get("citations"):
        console.print(f"    [dim]{esc('; '.join(map(str, r['citations'])))}[/]", highlight=False)


def _offered(rs, state, side) -> list:
    """The offered actions other than orders and moves (those are typed): reactions, choices, the end of a phase."""
    out = []
    for a in rs.legal_actions(state, side):
        j = rs.action_to_json(a)
        if j.get("type") not in ("orders", "move"):
            out.append((a, j))
    return out


def _hand_over(console, game, sess, view, side, inp) -> bool:
    """Hot seat, phase 3: the keyboard changes hands before a side chooses its secret orders (and before
    each side's deployment on its battle plan in an encounter, OR-GF141)."""
    if not secret_step(view) or sess["ack"] == side:
        return True
    lang = sess["lang"]
    sides = [s["id"] for s in view.get("sides", [])] or ["A", "B"]
    other = next((s for s in sides if s != side), "?")
    done = (view.get("orders_submitted") or {}).get(other)
    console.clear()
    console.print("\n" * 3)
    names = {s["id"]: _name(s, lang) or s["id"] for s in view.get("sides", [])}
    msg = (say("plan_away", lang, side=names.get(side, side), other=names.get(other, other)) if secret_plan(view)
           else say("pass_screen", lang, done=names.get(other, other), side=names.get(side, side)) if done
           else say("look_away", lang, side=names.get(side, side), other=names.get(other, other)))
    try:
        inp(msg + " ")
    except EOFError:
        return False
    sess["ack"] = side
    sess["draft"] = {}
    return True


def play_turn(console, game, inp) -> bool:
    rs, state = game.ruleset, game.state
    sess = _session(game)
    lang = sess["lang"]
    side = rs.to_act(state)
    view = rs.view(state, side)
    if not secret_step(view):
        sess["ack"] = None
    if not _hand_over(console, game, sess, view, side, inp):
        return False
    options = rs.options(state, side) or {}
    uopts = options.get("units") or {}
    try:
        line = inp(say("prompt", lang, side=side)).strip()
    except EOFError:
        return False
    if not line:
        return True
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    cmd, args = words[0].lower(), words[1:]
    if cmd in ("quit", "exit", "q"):
        return False
    if cmd in ("help", "h"):
        console.print(esc(say("help", lang)), highlight=False)
    elif cmd == "lang" and args and args[0] in ("en", "fr"):
        sess["lang"] = args[0]
        console.print(say("lang", args[0]))
    elif cmd == "map":
        console.print(esc(render_view(view, full=False, lang=lang)), highlight=False)
    elif cmd == "units":
        for row in unit_rows(view, lang, sess["draft"]):
            console.print(esc(row), highlight=False)
    elif cmd == "orders":
        _orders(console, view, uopts, sess, args, side)
    elif cmd == "order":
        uid = _order(console, view, uopts, sess, args, side)
        d = sess["draft"].get(uid) if uid else None
        if d and d["order"] == "tirer":
            # the volleys this fire order would fire, each target's share and percentage (OR-GF110, OR-GF140)
            _explain(console, game.ruleset, game.state, {"type": "orders", "side": side, "orders": {uid: d}}, lang)
    elif cmd == "give":
        if not is_orders_phase(view):
            console.print(f"[red]{esc(say('not_orders_phase', lang))}[/]")
        else:
            if not sess["draft"]:
                console.print(f"[yellow]{esc(say('no_orders_chosen', lang))}[/]")
            orders = {uid: {"order": d["order"], "target": d.get("target")} for uid, d in sess["draft"].items()}
            if _apply(console, game, {"type": "orders", "side": side, "orders": orders}, lang):
                sess["draft"] = {}
    elif cmd == "brigades":
        for row in brigade_rows(view, lang):
            console.print(esc(row), highlight=False)
    elif cmd == "write":
        _write(console, game, view, options, args, side, lang)
    elif cmd in ("move", "?move"):
        _move(console, game, view, uopts, sess, args, side, explain=cmd.startswith("?"))
    elif cmd == "odds":
        _odds(console, game, view, uopts, sess, args, side)
    elif cmd == "undo":
        try:
            game.undo()
            console.print(say("undone", lang))
        except IllegalAction as exc:
            console.print(f"[red]{esc(str(exc))}[/]")
    elif cmd == "list":
        acts = _offered(rs, state, side)
        if not acts:
            console.print(say("nothing_listed", lang))
        for i, (a, _j) in enumerate(acts, 1):
            console.print(f"  {i:>3}. {esc(rs.describe_action(state, a))}", highlight=False)
    elif cmd.lstrip("?").isdigit():
        acts = _offered(rs, state, side)
        n = int(cmd.lstrip("?"))
        if not 1 <= n <= len(acts):
            console.print(f"[red]{esc(say('choose', lang, n=len(acts)))}[/]")
        elif cmd.startswith("?"):
            _explain(console, rs, state, acts[n - 1][1], lang)
        else:
            _apply(console, game, acts[n - 1][1], lang)
    else:
        console.print(esc(say("help", lang)), highlight=False)
    return True


def brigade_rows(view: dict, lang: str = "en") -> list[str]:
    """The brigades on the table (both sides see them) and the side's own written battle orders
    (the view holds no other side's, OR-GF94)."""
    names = {u["id"]: u.get("name", u["id"]) for u in view.get("units", [])}
    out = []
    for b in view.get("brigades") or []:
        state = say("brigade_dissolved", lang) if b.get("dissolved") else ", ".join(names.get(x, x) for x in b.get("units") or []) or "—"
        out.append(say("brigade_row", lang, side=b.get("side") or "?", character=names.get(b["character"], b["character"]),
                       units=state))
        mine = (view.get("battle_orders") or {}).get(b["character"])
        if mine:
            o, p = mine.get("order"), mine.get("pending")
            line = say("battle_order_row", lang, order=(_name(o, lang) + (f" → {o['target_name']}" if o and o.get("target_name") else "")) if o else "—",
                       ref=(o or {}).get("ref", ""))
            if p:
                line += " " + say("battle_order_next", lang, order=_name(p, lang))
            out.append(line)
    return out or [say("no_brigades", lang)]


def _write(console, game, view, options, args, side, lang):
    """write CHARACTER ORDER [TARGET] …: the battle orders, face down (after both deployments: one
    for each brigade commander; in phase 3: a change, read a full turn later)."""
    if len(args) < 2:
        console.print(esc(say("write_usage", lang)), highlight=False)
        return
    given: dict = {}
    it = list(args)
    while it:
        cid = it.pop(0)
        if not it:
            console.print(esc(say("write_usage", lang)), highlight=False)
            return
        oid = it.pop(0)
        target = None
        if it and it[0] not in (options.get("battle_orders") or {}) and it[0] in {u["id"] for u in view.get("units", [])}:
            target = it.pop(0)
        given[cid] = {"order": oid, "target": target}
    _apply(console, game, {"type": "battle_orders", "side": side, "orders": given}, lang)


def _orders(console, view, uopts, sess, args, side):
    lang = sess["lang"]
    if args:
        u = _find_unit(view, args[0], side)
        if not u:
            console.print(f"[red]{esc(say('no_unit', lang, uid=args[0]))}[/]")
            return
        for i, o in enumerate((uopts.get(u["id"]) or {}).get("orders", []), 1):
            console.print(f"  {i:>2}. {esc(o['id']):<16} {esc(_name(o, lang))}" + (f"  [dim]({esc(o['ref'])})[/]" if o.get("ref") else ""),
                          highlight=False)
        return
    if not sess["draft"]:
        console.print(say("no_orders_chosen", lang))
    for uid, d in sess["draft"].items():
        tgt = ", ".join(d["target"]) if isinstance(d.get("target"), list) else d.get("target")
        console.print(f"  {esc(uid)}: {esc(d['order'])}" + (f" → {esc(str(tgt))}" if tgt else ""), highlight=False)


def _order(console, view, uopts, sess, args, side):
    lang = sess["lang"]
    if not is_orders_phase(view):
        console.print(f"[red]{esc(say('not_orders_phase', lang))}[/]")
        return
    if len(args) < 2:
        console.print(esc(say("help", lang)), highlight=False)
        return
    u = _find_unit(view, args[0], side)
    if not u or u["id"] not in uopts:
        console.print(f"[red]{esc(say('no_unit', lang, uid=args[0]))}[/]")
        return
    choices = uopts[u["id"]].get("orders", [])
    key = args[1]
    o = choices[int(key) - 1] if key.isdigit() and 1 <= int(key) <= len(choices) else \
        next((c for c in choices if key.lower() in (c["id"].lower(), _name(c, "en").lower(), _name(c, "fr").lower())), None)
    if o is None:
        console.print(f"[red]{esc(say('no_order', lang, uid=u['id'], order=key, choices=', '.join(c['id'] for c in choices)))}[/]")
        return
    target = None
    if o.get("needs_target"):
        if len(args) < 3:
            console.print(f"[red]{esc(say('needs_target', lang, order=o['id'], uid=u['id']))}[/]")
            return
        t = _find_unit(view, args[2])
        target = t["id"] if t else args[2]
    elif o["id"] == "tirer" and len(args) >= 3:
        # a fire order announces up to three targets (l.840, OR-GF110): order UNIT tirer T1 [T2 [T3]]
        tokens = [x for a in args[2:] for x in a.split(",") if x]
        ids = [(_find_unit(view, x) or {}).get("id", x) for x in tokens]
        target = ids[0] if len(ids) == 1 else ids
    sess["draft"][u["id"]] = {"order": o["id"], "target": target}
    shown = ", ".join(target) if isinstance(target, list) else target
    console.print(esc(say("chosen", lang, uid=u["id"], order=_name(o, lang), target=f" → {shown}" if target else "")), highlight=False)
    return u["id"]


def _move(console, game, view, uopts, sess, args, side, explain: bool):
    lang = sess["lang"]
    if len(args) < 3:
        console.print(esc(say("help", lang)), highlight=False)
        return
    u = _find_unit(view, args[0], side)
    if not u:
        console.print(f"[red]{esc(say('no_unit', lang, uid=args[0]))}[/]")
        return
    try:
        x, y = float(args[1]), float(args[2])
        heading = float(args[3]) if len(args) > 3 else float(u.get("heading") or 0)
    except ValueError:
        console.print(f"[red]{esc(say('bad_number', lang, what='X Y [HEADING]'))}[/]")
        return
    mv = (uopts.get(u["id"]) or {}).get("moves")
    if mv and mv.get("max_cm") is not None:
        console.print(f"  [dim]{esc(say('allowance', lang, max_cm=float(mv['max_cm'])))}[/]")
    action = {"type": "move", "side": side, "unit": u["id"], "x": x, "y": y, "heading": heading}
    if explain:
        _explain(console, game.ruleset, game.state, action, lang)
    else:
        _apply(console, game, action, lang)


def _odds(console, game, view, uopts, sess, args, side):
    """The unit's percentages before any roll: fire at each enemy it may shoot at, melee against each
    enemy in contact (the ruleset's option_detail: the combat code's previews), charges offered."""
    lang = sess["lang"]
    u = _find_unit(view, args[0], side) if args else None
    if not u:
        console.print(f"[red]{esc(say('no_unit', lang, uid=args[0] if args else ''))}[/]")
        return
    o = dict(uopts.get(u["id"]) or {})
    try:
        detail = game.ruleset.option_detail(game.state, u["id"])
    except KeyError:
        detail = {}
    names = {x["id"]: x.get("name", x["id"]) for x in view.get("units", [])}
    shown = False
    for f in (o.get("fire") or detail.get("fire") or []):
        shown = True
        console.print("  " + esc(say("fire_odds", lang, target=names.get(f["target"], f["target"]), percent=f.get("percent")))
                      + (f"  [dim]({esc(str(f['ref']))})[/]" if f.get("ref") else ""), highlight=False)
        for s in f.get("steps") or []:
            console.print(f"      [dim]{esc(str(s))}[/]", highlight=False)
    for m in detail.get("melee") or []:
        shown = True
        console.print("  " + esc(say("melee_odds", lang, target=names.get(m["target"], m["target"]), percent=m.get("percent"),
                                     theirs=m.get("enemy_percent"))), highlight=False)
        for s in m.get("steps") or []:
            console.print(f"      [dim]{esc(str(s))}[/]", highlight=False)
        if m.get("citations"):
            console.print(f"      [dim]{esc('; '.join(map(str, m['citations'])))}[/]", highlight=False)
    for c in o.get("charge") or []:
        shown = True
        pct = f" · {c['percent']} %" if c.get("percent") is not None else ""
        console.print("  " + esc(say("charge_odds", lang, target=names.get(c["target"], c["target"]),
                                     distance=float(c.get("distance_cm") or 0), percent=pct)), highlight=False)
    if not shown:
        console.print(say("no_odds", lang, uid=u["id"]))
