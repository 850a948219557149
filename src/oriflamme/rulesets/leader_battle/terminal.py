"""The terminal front end of the leader-activation battle game (``Ruleset.terminal()``; the
interface is documented there): a text board, the step with its seed citation, and the legal
actions numbered, with the exact odds of each fire, melee, initiative and rally."""

from __future__ import annotations

from rich.markup import escape as esc

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry.hexgrid import Hex

from . import engine
from .rules import rules

LETTER = {"infantry": "I", "cavalry": "C", "light_cavalry": "L", "archers": "A", "artillery": "G"}
TERRAIN = {"clear": ".", "woods": "w", "village": "v"}
HELP = """  N        take the action numbered N (the list is shown before each prompt)
  ?N       the ruling of action N before rolling: steps, column, citations, odds
  map      the board (capitals: the attacker; lower case: the defender; + disordered;
           I infantry, C cavalry, L light cavalry, A archers, G artillery, digit = steps; * a leader)
  undo     take back the last action (not a roll)
  quit"""


def _cell(state, h: Hex) -> str:
    us = [u for u in state.units.values() if u.hex == h.label]
    txt = ""
    for u in us:
        c = LETTER[u.kind]
        c = c if u.side == state.attacker else c.lower()
        txt += f"{c}{u.steps}{'+' if u.disordered else ''}"
    if any(ld.hex == h.label and not ld.lost for ld in state.leaders.values()):
        txt += "*"
    if not txt:
        txt = TERRAIN.get(state.board.terrain.get(h, "clear"), ".")
        if h in state.board.objectives:
            txt = "@"
    return txt[:7].center(7)


def render(state, full: bool = False) -> str:
    b = state.board
    gap = " " * 7
    lines = ["    " + "".join(f"{c + 1:02d}".center(7) + gap for c in range(0, b.cols, 2)).rstrip(),
             "    " + gap + "".join(f"{c + 1:02d}".center(7) + gap for c in range(1, b.cols, 2)).rstrip()]
    for r in range(b.rows):
        even = "".join(_cell(state, Hex.from_offset(c, r)) + gap for c in range(0, b.cols, 2))
        odd = "".join(_cell(state, Hex.from_offset(c, r)) + gap for c in range(1, b.cols, 2))
        lines.append(f"{r + 1:02d}  " + even.rstrip())
        lines.append("    " + gap + odd.rstrip())
    if full:
        lines.append("")
        for kind in ("river", "bridge", "banner"):
            sides = sorted("-".join(sorted(h.label for h in p)) for p, k in b.sides.items() if k == kind)
            if sides:
                lines.append(f"{kind}: {', '.join(sides)}")
        lines.append("objectives (@): " + ", ".join(h.label for h in b.objectives))
        for u in state.units.values():
            lines.append(f"  {u.id:<12} {u.name:<20} {u.kind:<14} {u.hex or 'broken':<7} steps {u.steps}"
                         f"{' disordered' if u.disordered else ''}{'' if u.in_command else ' out of command'}")
        lines.append("House rules: Oriflamme's own beyond the seed's sequence and fire rules (docs/leader-battle.md)")
    return "\n".join(esc(x) for x in lines)


def title(game) -> str:
    sc = game.scenario
    return (f"[bold]{esc(sc.name)}[/] — {esc(sc.description)}\n"
            f"{esc(game.ruleset.title)}; attacker: {esc(sc.attacker)}; {sc.turns} turns")


def status(state) -> tuple:
    step = rules().step(state.step) if state.step in {s.id for s in rules().steps} else None
    who = engine.to_act(state)
    key = (state.turn, state.step, state.active_leader, state.b_index if state.step == "B" else None, who)
    extra = ""
    if state.active_leader:
        extra = f" — {state.leaders[state.active_leader].name} activated"
    line = f"[bold]Turn {state.turn}[/], {esc(step.title_en if step else state.step)} ({esc(step.ref if step else '')})" \
           f"{esc(extra)} — [bold]{esc(str(who))}[/] to act"
    return key, line


def summary(state) -> str:
    return f"turn {state.turn}"


def _odds(rs, state, a) -> str:
    ex = rs.explain(state, a)
    outs = ex.get("outcomes") or []
    return "  ".join(f"{o['result']} {o['p'] * 100:.0f}%" for o in outs)


def play_turn(console, game, inp) -> bool:
    rs, state = game.ruleset, game.state
    side = rs.to_act(state)
    acts = rs.legal_actions(state, side)
    for i, a in enumerate(acts, 1):
        odds = _odds(rs, state, a) if a.type in ("fire", "melee", "initiative", "rally") else ""
        console.print(f"  {i:>3}. {esc(rs.describe_action(state, a))}" + (f"   [dim]{esc(odds)}[/]" if odds else ""),
                      highlight=False)
    try:
        line = inp(f"[{side}] number, ?number, map, undo, help or quit > ").strip().lower()
    except EOFError:
        return False
    if line in ("quit", "exit", "q"):
        return False
    if line in ("help", "h"):
        console.print(esc(HELP), highlight=False)
        return True
    if line == "map":
        console.print(render(state, full=True), highlight=False)
        return True
    if line == "undo":
        try:
            game.undo()
            console.print("Undone.")
        except IllegalAction as exc:
            console.print(f"[red]{esc(str(exc))}[/]")
        return True
    ask = line.startswith("?")
    num = line[1:] if ask else line
    if not num.isdigit() or not 1 <= int(num) <= len(acts):
        if line:
            console.print(f"[red]choose 1–{len(acts)}[/] — type 'help'")
        return True
    a = acts[int(num) - 1]
    if ask:
        ex = rs.explain(state, a)
        for s in ex.get("steps", []):
            console.print(f"    {esc(s)}", highlight=False)
        console.print(f"    [dim]{esc('; '.join(ex.get('citations', [])))}[/]", highlight=False)
        if ex.get("outcomes"):
            console.print(f"    odds: {esc(_odds(rs, state, a))}", highlight=False)
        return True
    try:
        events = game.apply(a)
    except IllegalAction as exc:
        console.print(f"[red]Refused:[/] {esc(str(exc))}")
        return True
    for ev in events:
        ref = f"  [dim]({esc(ev['ref'])})[/]" if ev.get("ref") else ""
        console.print(f"  • {esc(ev['text'])}{ref}", highlight=False)
    if any(e["type"] in ("move", "retreat", "broken", "turn") for e in events):
        console.print(render(game.state), highlight=False)
    return True
