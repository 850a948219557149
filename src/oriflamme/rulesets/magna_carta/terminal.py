"""Magna Carta in the terminal: the board drawn with rich markup and the human prompt
(``move guy 0507``, ``fire``, ``attack``, ``reach``, ``list``, previews with their odds).

The generic ``oriflamme play`` reaches this module through ``MagnaCarta.terminal()``; it
calls only the functions the core documents (:meth:`oriflamme.core.ruleset.Ruleset.terminal`):
:func:`title`, :func:`render`, :func:`status`, :func:`summary`, :func:`play_turn`. No rule is
decided here: the prompt parses what the player types, calls the engine's legal actions,
explain and the game's apply/undo, and prints their rulings.

Flat-topped hexes in odd-q layout are drawn on two text lines per map row: the even columns
(labels 01, 03, …) on the first line, the odd ones (02, 04, …), half a hex lower, on the second.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.markup import escape as esc

from ...geometry.hexgrid import DIRECTION_NAMES, Hex
from .engine import IllegalAction, explain, legal_actions
from .engine.actions import Action, Advance, Attack, EndStep, Fire, Move, Retreat
from .engine.movement import points_left, reachable
from .terminal_text import describe, tags

__all__ = ["draw_board", "legend", "play_turn", "print_events", "render", "roster", "status", "summary", "tags", "title"]

HELP = """Commands (the numbers refer to the list printed by 'list'):
  list | ?                 the legal actions now, numbered
  N                        take action number N (attacks and fire show their odds first)
  move ID HEX [FACING]     move a character to a hex (e.g. move guy 0507); a rider may
                           name the facing he ends with (N, NE, SE, S, SW, NW), else the cheapest
  reach ID                 the hexes ID can reach, with their cost
  fire ID TARGET           fire (odds shown, then confirm)
  attack ID[,ID] TARGET[,TARGET]   melee (odds shown, then confirm)
  end                      end the current step
  undo                     take back the last action (only if it rolled no die)
  map | roster | log [N]   show the board, the characters, the last N log lines
  help | quit"""


TERRAIN_GLYPH = {
    "clear": (" . ", "grey50"), "brush": (" ≈ ", "green"), "tree": (" ♣ ", "bold green"),
    "tree_top": (" ♣ ", "green"), "slope": (" / ", "yellow"), "marsh": (" , ", "cyan"),
    "rock": (" ▲ ", "white"), "garden": (" : ", "green"), "vines": (" ¥ ", "magenta"),
    "beach": (" _ ", "yellow"), "deep_shallows": (" ≋ ", "blue"), "shallows": (" ~ ", "cyan"),
    "water": (" ≈≈", "bold blue"), "building": ("███", "red"),
    "bridge": (" = ", "yellow"), "stone_bridge": (" # ", "white"), "cart": (" ▭ ", "yellow"),
}
TERRAIN_GLYPH.update({  # the Croisades edition's desert (rulesets/croisades/data/terrain.toml)
    "oasis": (" ≈ ", "cyan"), "palm_leaves": (" ♣ ", "green"), "palm_trunk": (" ¶ ", "bold green"),
    "shrub": (" ≈ ", "yellow"), "stone_field": (" ∴ ", "white"), "ditch": (" ∪ ", "yellow"),
    "tent": (" ▲ ", "bold yellow"), "tent_opening": (" △ ", "yellow"), "guy_ropes": (" x ", "grey50"),
})
SIDE_STYLE = ("bold white on red", "bold white on blue")
STATUS_MARK = {"healthy": "", "wounded": "'", "stunned": "*", "dead": "†"}


#: where a rider faces, by direction (0 = N, clockwise)
ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def draw_board(state, highlight: dict[Hex, str] | None = None) -> str:
    m = state.gmap
    t = tags(state)
    occ = {}
    rears = {}   # a rider's rear hex shows an arrow pointing where he faces (§4.4.1)
    for c in state.characters.values():
        if c.hex is None:
            continue
        if c.alive:
            occ[c.hex] = c
            if c.mounted:
                rears[c.rear] = c
        else:
            occ.setdefault(c.hex, c)
    horses = {}
    for x in state.riders.horses.values():
        for h in x.hexes:
            if x.alive or h not in horses:
                horses[h] = x
    hl = highlight or {}
    lines = []
    head = "     " + "".join(f"{c + 1:02d}    " if c % 2 == 0 else "" for c in range(m.width))
    head2 = "        " + "".join(f"{c + 1:02d}    " if c % 2 == 1 else "" for c in range(m.width))
    lines.append(head.rstrip())
    lines.append(head2.rstrip())
    for row in range(m.height):
        for parity in (0, 1):
            parts = [f"{row + 1:02d} " if parity == 0 else "   "]
            for col in range(m.width):
                if col % 2 != parity:
                    parts.append("   ")
                    continue
                h = Hex.from_offset(col, row)
                if h not in m:
                    parts.append("   ")
                    continue
                c = occ.get(h)
                if c is not None:
                    mark = STATUS_MARK[c.status]
                    style = SIDE_STYLE[state.sides.index(c.side)] if c.alive else "grey50"
                    parts.append(f"[{style}]{(t[c.id] + mark):<3}[/]")
                elif h in rears:
                    r = rears[h]
                    style = SIDE_STYLE[state.sides.index(r.side)]
                    parts.append(f"[{style}] {ARROWS[r.facing]} [/]")
                elif state.bodies.carcasses.get(h, {}).get("horse"):  # a dead horse (§4.2.2)
                    parts.append("[grey50]h† [/]")
                elif h in hl:
                    parts.append(f"[bold black on yellow]{hl[h]:>3}[/]")
                elif h in horses:
                    x = horses[h]
                    style = SIDE_STYLE[state.sides.index(x.side)] if x.alive and x.side in state.sides else "grey50"
                    parts.append(f"[{style}]{'h' if x.alive else 'h†':<3}[/]")
                else:
                    glyph, style = glyph_of(state.rules, m.terrain(h))
                    if m.elevation(h) > 0 and glyph.strip() in (".",):
                        glyph = f" {m.elevation(h)} "
                    parts.append(f"[{style}]{glyph}[/]")
            lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def glyph_of(rules, terrain_id: str) -> tuple[str, str]:
    """A terrain's glyph; a terrain of an edition without one (Cry Havoc's anvil): the first
    letter of its English name."""
    if terrain_id in TERRAIN_GLYPH:
        return TERRAIN_GLYPH[terrain_id]
    t = rules.terrain.get(terrain_id) if rules is not None else None
    name = (t.name_en or t.id) if t is not None else "?"
    return (f" {name[0].upper()} ", "bold cyan")  # upper case: "h" is a riderless horse


def legend(state=None) -> str:
    items = [f"[{s}]{g.strip()}[/] {k}" for k, (g, s) in TERRAIN_GLYPH.items() if k != "tree_top"]
    if state is not None:  # an edition's terrains drawn on this map
        extra = sorted({state.gmap.terrain(h) for h in state.gmap.hexes} - set(TERRAIN_GLYPH))
        items += [f"[{s}]{g.strip()}[/] {k}" for k in extra for g, s in [glyph_of(state.rules, k)]]
    return ("Terrain: " + ", ".join(items) + ".  Digits: elevation.  ' wounded, * stunned, † dead, h† dead horse.  "
            "Riders: tag on the front hex, an arrow on the rear hex pointing where they face; h a riderless horse.")


def roster(state) -> str:
    t = tags(state)
    lines = []
    for side in state.sides:
        lines.append(f"Side {side}:")
        for c in sorted((c for c in state.characters.values() if c.side == side), key=lambda c: c.id):
            extra = ""
            if c.alive and c.side == state.active and state.step == "movement":
                extra = f", {points_left(state, c)} PM left"
            w = f", {c.weapon}" if c.weapon else ""
            arm = " (armour)" if c.armour else ""
            where = c.hex.label if c.hex else "-"
            if c.mounted and c.hex is not None:
                where = f"{c.hex.label}-{c.rear.label} {DIRECTION_NAMES[c.facing]}"
            lines.append(f"  {t[c.id]:<3} {escape(c.id):<10} {escape(c.name):<18} {where}  A{c.current_attack} D{c.current_defence}"
                         f"{arm} M{c.current_movement}{w} — {c.status}{extra}")
    return "\n".join(lines)


def _rider_choice(st, c, cands: list, facing: str | None):
    """A rider's moves to one hex, one per facing (§4.4.1): the one facing ``facing`` (N, NE, SE,
    S, SW, NW), or the cheapest; a message when that facing cannot be reached."""
    from .engine import riding
    costs = {tuple(x.label for x in path): (cost, f) for (_, f), (cost, path)
             in riding.reachable(st, c, points_left(st, c)).items()}
    options = sorted(((costs[a.path][0], costs[a.path][1], a) for a in cands if a.path in costs), key=lambda x: x[:2])
    if facing is None:
        return [options[0][2]] if options else cands
    want = facing.upper()
    if want not in DIRECTION_NAMES:
        return f"{facing!r} is not a facing (N, NE, SE, S, SW, NW)"
    hit = [a for _, f, a in options if DIRECTION_NAMES[f] == want]
    if not hit:
        can = ", ".join(f"{DIRECTION_NAMES[f]} ({cost} PM)" for cost, f, _ in options)
        return f"{c.name} cannot end in {cands[0].path[-1]} facing {want} this phase (he can face: {can}; MC §4.4.1)"
    return hit


def print_events(con: Console, events: list[dict], verbose: bool = True) -> None:
    for ev in events:
        con.print(f"  [bold]•[/] {esc(ev['text'])}" + (f"  [dim]({esc(ev['ref'])})[/]" if ev.get("ref") else ""), highlight=False)
        if verbose and "ruling" in ev:
            for line in ev["ruling"]["explanation"]:
                con.print(f"      [dim]{esc(line)}[/]", highlight=False)


def _preview(con: Console, game, a: Action) -> bool:
    r = explain(game.state, a)
    if not r.legal:
        con.print(f"[red]Not allowed:[/] {esc(r.reason or '')}")
        return False
    for line in r.explanation:
        con.print(f"   {esc(line)}", highlight=False)
    if r.probabilities:
        probs = "  ".join(f"{k}: {float(v):.0%}" for k, v in r.probabilities.items())
        con.print(f"   [bold]Probabilities[/]: {probs}", highlight=False)
    return True


def _status_line(st) -> str:
    p = st.pending[0] if st.pending else None
    wait = f" — waiting for side {p.side}: {p.kind}" if p else ""
    return f"[bold]Turn {st.turn}/{st.last_turn}[/], side {st.active}, step {st.step.replace('_', ' ')}{wait}"


def play_turn(con: Console, game, inp) -> bool:
    """One command from a human at the prompt (``inp`` is ``input``). Returns False to quit."""
    st = game.state
    side = st.to_act()
    acts = legal_actions(st)
    try:
        line = inp(f"[{side}] > ").strip()
    except EOFError:
        return False
    if not line:
        return True
    words = line.split()
    cmd = words[0].lower()
    ids = {t_: cid for cid, t_ in tags(st).items()}

    def cid(x: str) -> str:
        return ids.get(x.upper(), x)

    chosen: Action | None = None
    if cmd in ("quit", "exit", "q"):
        return False
    if cmd in ("help", "h"):
        con.print(HELP, highlight=False)
        return True
    if cmd in ("list", "?", "ls"):
        for i, a in enumerate(acts, 1):
            con.print(f"  {i:>3}. {esc(describe(st, a))}", highlight=False)
        return True
    if cmd == "map":
        con.print(draw_board(st), highlight=False)
        con.print(legend(st), highlight=False)
        return True
    if cmd == "roster":
        con.print(roster(st), highlight=False)
        return True
    if cmd == "log":
        k = int(words[1]) if len(words) > 1 and words[1].isdigit() else 15
        print_events(con, st.log[-k:], verbose=False)
        return True
    if cmd == "undo":
        try:
            game.undo()
            con.print("Undone.")
        except IllegalAction as exc:
            con.print(f"[red]{esc(str(exc))}[/]")
        return True
    if cmd == "reach" and len(words) == 2:
        c = st.characters.get(cid(words[1]))
        if c is None:
            con.print("[red]unknown character[/]")
            return True
        if st.step != "movement" or c.side != st.active or st.pending:
            con.print(f"{c.name} moves only in the movement step of side {c.side} (now: side {st.active}, {st.step.replace('_', ' ')})")
            return True
        r = reachable(st, c)
        con.print(draw_board(st, {h: str(cost) for h, (cost, _) in r.items()}), highlight=False)
        con.print(f"{len(r)} hexes reachable (numbers: movement points)")
        return True
    if cmd.isdigit():
        k = int(cmd)
        if not 1 <= k <= len(acts):
            con.print(f"[red]choose 1–{len(acts)}[/]")
            return True
        chosen = acts[k - 1]
    elif cmd == "end":
        chosen = EndStep()
    elif cmd == "move" and len(words) in (3, 4):
        try:
            dest = Hex.from_label(words[2]).label
        except ValueError as exc:
            con.print(f"[red]{exc}[/]")
            return True
        cands = [a for a in acts if isinstance(a, (Move, Retreat, Advance)) and a.char == cid(words[1]) and a.path[-1] == dest]
        rider = st.characters.get(cid(words[1]))
        if cands and rider is not None and rider.mounted and isinstance(cands[0], Move):
            cands = _rider_choice(st, rider, cands, words[3] if len(words) == 4 else None)
            if isinstance(cands, str):
                con.print(f"[red]Not allowed:[/] {esc(cands)}")
                return True
        if not cands:
            c = st.characters.get(cid(words[1]))
            if c is None:
                con.print("[red]unknown character[/]")
                return True
            if st.step != "movement" or c.side != st.active:
                why = f"{c.name} can move only in the movement step of side {c.side} (MC §2.1 (2))"
            elif c.hex is not None and c.hex.distance(Hex.from_label(dest)) == 1:
                r = explain(st, Move(c.id, (dest,)))
                why = r.reason if not r.legal else f"{dest} cannot be entered now"
            elif Hex.from_label(dest) not in st.gmap:
                why = f"{dest} is off the map ({st.gmap.width}×{st.gmap.height} hexes)"
            else:
                why = (f"{c.name} cannot reach {dest} this phase ({points_left(st, c)} PM left, MC §4); "
                       f"'reach {c.id}' shows where he can go")
            con.print(f"[red]Not allowed:[/] {esc(why)}")
            return True
        chosen = cands[0]
    elif cmd == "fire" and len(words) == 3:
        chosen = Fire(cid(words[1]), cid(words[2]))
    elif cmd == "attack" and len(words) == 3:
        atts = tuple(sorted(cid(x) for x in words[1].split(",")))
        defs = tuple(sorted(cid(x) for x in words[2].split(",")))
        chosen = Attack(atts, defs)
    else:
        con.print("[red]unknown command[/] — type 'help'")
        return True
    risky = isinstance(chosen, Move) and any("infiltration" in x for x in explain(st, chosen).explanation)
    if isinstance(chosen, (Fire, Attack)) or risky:
        if not _preview(con, game, chosen):
            return True
        try:
            ok = inp("   Commit? [y/N] ").strip().lower()
        except EOFError:
            return False
        if ok not in ("y", "yes", "o", "oui"):
            return True
    try:
        events = game.apply(chosen)
    except IllegalAction as exc:
        con.print(f"[red]Refused:[/] {esc(str(exc))}")
        return True
    print_events(con, events)
    return True


# --- the interface the generic CLI calls (core/ruleset.py, Ruleset.terminal) ----------------
def title(game) -> str:
    """The scenario's name, description and victory conditions (markup)."""
    sc = game.scenario.data
    out = f"[bold]{esc(sc['name'])}[/] — {esc(sc['description'])}"
    if sc.get("victory", {}).get("text"):
        out += "\n" + esc(sc["victory"]["text"])
    return out


def render(state, full: bool = False) -> str:
    """The board (markup); ``full`` adds the legend and the roster (the start of a game)."""
    if full:
        return "\n".join((draw_board(state), legend(state), roster(state)))
    return draw_board(state)


def status(state) -> tuple:
    """(key, line): the CLI prints the line when the key changes (a new turn, phase or step)."""
    return (state.turn, state.active, state.step, bool(state.pending)), _status_line(state)


def summary(state) -> str:
    """Where the game stands, for the closing line (``turn 7``)."""
    return f"turn {state.turn}"

