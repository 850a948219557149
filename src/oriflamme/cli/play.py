"""``oriflamme scenarios``, ``oriflamme play`` and ``oriflamme replay``: terminal adapters.

They parse what the player types, call the engine's public API (legal actions, explain, apply,
undo) and print its rulings; no rule is decided here.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape as esc

from ..ai.random_player import RandomPlayer
from ..rulesets.magna_carta.engine import IllegalAction, explain, legal_actions
from ..rulesets.magna_carta.engine.actions import (Action, Advance, AskQuarter, Attack, Carry, Casualty, ClearBodies, Decline, EndStep,
                              FightOn, Fire, Move, Retreat, SetDown)
from ..rulesets.magna_carta.engine.carts import cart_name
from ..rulesets.magna_carta.engine.errors import RecordError, ScenarioError
from ..rulesets.magna_carta.engine.led import horse_name
from ..rulesets.magna_carta.engine.movement import points_left, reachable
from ..rulesets.magna_carta.engine.record import Game, replay
from ..geometry.hexgrid import Hex
from ..rulesets.magna_carta.maps import MapError
from ..rulesets.magna_carta.scenario import bundled_scenario_ids, load_scenario, validate_scenario
from .render import draw_board, legend, roster, tags

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


def register(sub) -> None:
    p = sub.add_parser("scenarios", help="list the bundled scenarios")
    p.set_defaults(func=cmd_scenarios)
    p = sub.add_parser("play", help="play a scenario in the terminal (hot-seat or against the computer)")
    p.add_argument("scenario", help="a bundled scenario id (see 'oriflamme scenarios') or a path to a .toml file")
    p.add_argument("--a", choices=("human", "random"), default="human", help="who plays the first side (default human)")
    p.add_argument("--b", choices=("human", "random"), default="human", help="who plays the second side (default human)")
    p.add_argument("--seed", type=int, default=None, help="dice seed (default: random)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    p.add_argument("--quiet", action="store_true", help="with two computer players, print only the outcome")
    p.add_argument("--max-actions", type=int, default=20000, help=argparse_hide())
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("replay", help="replay a game record")
    p.add_argument("file", help="a record written by 'oriflamme play --record'")
    p.add_argument("--verify", action="store_true", help="only check that the record reproduces; exit 1 if not")
    p.set_defaults(func=cmd_replay)


def argparse_hide():
    import argparse
    return argparse.SUPPRESS


def cmd_scenarios(args) -> int:
    for sid in bundled_scenario_ids():
        sc, m = load_scenario(sid)
        print(f"{sid:<14} {sc['name']} — {sc['description']} ({m.width}×{m.height} hexes, {sc['turns']} turns)")
    return 0


def _write_record(path: str, record: dict) -> None:
    """Write atomically: a temporary file renamed over the target (nothing half-written)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".oriflamme-", suffix=".json", dir=str(target.parent.resolve()))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # like any file the user creates (mkstemp makes it 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def describe(game: Game, a: Action) -> str:
    st = game.state
    ch = st.characters
    t = tags(st)

    def n(cid):
        return f"{ch[cid].name} [{t[cid]}]"

    if isinstance(a, Move):
        c = ch[a.char]
        if c.mounted:  # where the rider ends up facing (§4.4.1)
            from ..rulesets.magna_carta.engine import riding
            from ..geometry.hexgrid import DIRECTION_NAMES, Hex
            steps = riding.path_steps(st, c, tuple(Hex.from_label(x) for x in a.path), riding.extra_costs(st))
            return f"move {n(a.char)} → {a.path[-1]} facing {DIRECTION_NAMES[steps[-1].facing]} (via {' '.join(a.path)})"
        return f"move {n(a.char)} → {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Fire):
        return f"fire: {n(a.shooter)} at {n(a.target)}"
    if isinstance(a, Attack):
        return f"attack: {', '.join(n(x) for x in a.attackers)} → {', '.join(n(x) for x in a.defenders)}"
    if isinstance(a, Retreat):
        return f"retreat {n(a.char)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Advance):
        return f"advance {n(a.char)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, Casualty):
        return f"{n(a.char)} takes the blow"
    if isinstance(a, Decline):
        if st.pending and st.pending[0].kind == "defensive_fire":
            return f"let {n(st.pending[0].chars[0])} pass (no defensive fire here)"
        if st.pending and st.pending[0].kind == "grab":  # §4.4.4
            return f"{n(st.pending[0].chars[0])} rides on without trying for the bridle"
        return "no advance"
    if isinstance(a, AskQuarter):
        b = next(x for x in st.rules.ransom.band if x.result == "surrenders")  # ransom.toml
        return f"{n(a.char)} asks for quarter ({b.ref}: die {b.low}-{b.high} he surrenders)"
    if isinstance(a, FightOn):
        return f"{n(a.char)} fights on"
    if a.type == "declare":
        return f"declare {n(a.char)}: {a.fire.replace('_', ' ')} fire"
    if a.type == "designate":
        return f"designate {n(a.shooter)} to fire defensively"
    if a.type == "volley":
        return "fire now with the designated shooters"
    if isinstance(a, EndStep):
        return f"end the {st.step.replace('_', ' ')} step"
    if isinstance(a, ClearBodies):
        what = "three dead men" if a.kind == "man" else "a dead horse"
        return f"clear: {', '.join(n(x) for x in a.chars)} move {what} out of {a.hex} into {a.to}"
    if isinstance(a, Carry):
        return f"carry: {n(a.char)} carries {n(a.friend)} to {a.path[-1]} (via {' '.join(a.path)})"
    if isinstance(a, SetDown):
        return f"{n(a.char)} sets his friend down in {a.hex}"
    if a.type in ("mount", "lead", "fire_at_horse", "attack_horse", "grab"):  # riderless horses (§4.4.2, §4.4.4, §6.8)
        x = st.horses.get(a.horse)
        where = horse_name(x) if x is not None else f"the horse {a.horse}"
        if a.type == "mount":
            return f"{n(a.char)} mounts {where}"
        if a.type == "lead":
            return f"{n(a.char)} leads {where} by the bridle"
        if a.type == "grab":  # §4.4.4, §4.6.3: a die, 1-6
            top = st.rules.movement_rules["grab_success_max"].value
            return f"{n(a.char)} tries to grab {where} by the bridle in passing (1D10: 1-{top} he leads it)"
        if a.type == "fire_at_horse":
            return f"fire: {n(a.shooter)} at {where} (riderless)"
        return f"attack: {', '.join(n(x) for x in a.attackers)} → {where} (riderless)"
    if a.type in ("drive_cart", "harness", "unharness"):  # carts and draught animals (§4.5.1, §4.5.4)
        cart = st.carts.get(a.cart)
        where = cart_name(cart) if cart is not None else f"the cart {a.cart}"
        if a.type == "drive_cart":
            pull = f" with {', '.join(n(x) for x in a.helpers)}" if a.helpers else ""
            return f"drive: {n(a.char)}{pull} drives {where} → {a.path[-1]} (via {' '.join(a.path)})"
        if a.type == "harness":
            x = st.horses.get(a.animal)
            return f"{n(a.char)} harnesses {horse_name(x) if x else a.animal} to {where} (his whole phase)"
        return f"{n(a.char)} unharnesses the animal of {where} (his whole phase)"
    if a.type == "dismount":
        return f"{n(a.char)} dismounts into {a.hex}"
    kn = st.rules.camels.kneeling if st.rules.camels is not None else None  # costs: camels.toml, §4.6.4
    if a.type in ("kneel", "rise"):  # camels kneeling (§4.6.4)
        cost = kn.kneel_cost if a.type == "kneel" else kn.rise_cost
        if a.animal == a.char:
            return f"{n(a.char)} makes his camel {a.type} ({cost} PM)"
        x = st.horses.get(a.animal)
        return f"{n(a.char)} makes {horse_name(x) if x is not None else a.animal} {a.type} ({cost} PM to him and to the camel)"
    if a.type == "enter_litter":  # §4.6.1, §4.6.4
        x = st.horses.get(a.horse)
        where = f" of {horse_name(x)}" if x is not None else ""
        return f"{n(a.char)} gets into the litter{where} ({kn.litter_cost} PM)"
    if a.type == "leave_litter":
        return f"{n(a.char)} gets out of the litter into {a.hex} ({kn.litter_cost} PM)"
    if a.type == "place":
        return f"{n(a.char)}, unhorsed, lands in {a.hex} (MC §6.8)"
    if a.type == "stand":
        return f"{n(a.char)} will not move this turn: the enemy may fire at him now (MC §5.3)"
    return a.type


def _rider_choice(st, c, cands: list, facing: str | None):
    """A rider's moves to one hex, one per facing (§4.4.1): the one facing ``facing`` (N, NE, SE,
    S, SW, NW), or the cheapest; a message when that facing cannot be reached."""
    from ..rulesets.magna_carta.engine import riding
    from ..rulesets.magna_carta.engine.movement import points_left
    from ..geometry.hexgrid import DIRECTION_NAMES
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


def _print_events(con: Console, events: list[dict], verbose: bool = True) -> None:
    for ev in events:
        con.print(f"  [bold]•[/] {esc(ev['text'])}" + (f"  [dim]({esc(ev['ref'])})[/]" if ev.get("ref") else ""), highlight=False)
        if verbose and "ruling" in ev:
            for line in ev["ruling"]["explanation"]:
                con.print(f"      [dim]{esc(line)}[/]", highlight=False)


def _preview(con: Console, game: Game, a: Action) -> bool:
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


def _status_line(game: Game) -> str:
    st = game.state
    p = st.pending[0] if st.pending else None
    wait = f" — waiting for side {p.side}: {p.kind}" if p else ""
    return f"[bold]Turn {st.turn}/{st.last_turn}[/], side {st.active}, step {st.step.replace('_', ' ')}{wait}"


def _human_turn(con: Console, game: Game, inp) -> bool:
    """One command from a human. Returns False to quit."""
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
            con.print(f"  {i:>3}. {esc(describe(game, a))}", highlight=False)
        return True
    if cmd == "map":
        con.print(draw_board(st), highlight=False)
        con.print(legend(), highlight=False)
        return True
    if cmd == "roster":
        con.print(roster(st), highlight=False)
        return True
    if cmd == "log":
        k = int(words[1]) if len(words) > 1 and words[1].isdigit() else 15
        _print_events(con, st.log[-k:], verbose=False)
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
    _print_events(con, events)
    return True


def cmd_play(args) -> int:
    con = Console(highlight=False, soft_wrap=True)
    try:
        scenario, gmap = load_scenario(args.scenario)
    except (ScenarioError, MapError) as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    if args.record:
        parent = Path(args.record).resolve().parent
        if not parent.is_dir():
            print(f"play: cannot write the record {args.record}: no directory {parent}", file=sys.stderr)
            return 2
        if Path(args.record).is_dir():
            print(f"play: cannot write the record {args.record}: it is a directory", file=sys.stderr)
            return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    game = Game(scenario, gmap, seed)
    sides = game.state.sides
    players = {sides[0]: args.a, sides[1]: args.b}
    bots = {s: RandomPlayer(seed * 31 + i) for i, s in enumerate(sides)}
    quiet = args.quiet and "human" not in players.values()
    if not quiet:
        con.print(f"[bold]{esc(scenario['name'])}[/] — {esc(scenario['description'])}")
        if scenario.get("victory", {}).get("text"):
            con.print(esc(scenario["victory"]["text"]))
        con.print(f"Seed {seed}. Type 'help' for the commands.\n")
        con.print(draw_board(game.state))
        con.print(legend())
        con.print(roster(game.state))
    shown_step = None
    count = 0
    while not game.state.over and count < args.max_actions:
        st = game.state
        side = st.to_act()
        if not quiet and (st.turn, st.active, st.step, bool(st.pending)) != shown_step:
            shown_step = (st.turn, st.active, st.step, bool(st.pending))
            con.print("\n" + _status_line(game))
        if players[side] == "human":
            try:
                go_on = _human_turn(con, game, input)
            except KeyboardInterrupt:
                go_on = False
            if not go_on:
                con.print("Game left unfinished.")
                break
        else:
            a = bots[side].choose(st)
            events = game.apply(a)
            count += 1
            if not quiet:
                con.print(f"[{esc(side)}] {esc(describe_after(a))}")
                _print_events(con, events, verbose=False)
    if args.record:
        try:
            _write_record(args.record, game.record(reveal=True))  # a local game: the player may see its seed
        except OSError as exc:
            print(f"play: cannot write the record {args.record}: {exc.strerror}", file=sys.stderr)
            return 1
    st = game.state
    if st.over:
        con.print(f"\n[bold]{esc(st.result_text)}[/]  (turn {st.turn}, {len(game.actions)} actions, seed {seed})")
    elif count >= args.max_actions:
        print(f"play: stopped after {count} actions without an end", file=sys.stderr)
        return 1
    return 0


def describe_after(a: Action) -> str:
    d = a.to_json()
    t = d.pop("type")
    return t + " " + " ".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in d.items())


def cmd_replay(args) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"replay: {args.file}: cannot read: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"replay: {args.file}: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"replay: {args.file}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=sys.stderr)
        return 2
    try:
        game = replay(rec, lambda d: validate_scenario(d, "scenario"))
    except (RecordError, ScenarioError, MapError) as exc:
        print(f"replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    st = game.state
    if args.verify:
        print(f"{args.file}: OK — {len(game.actions)} actions and {len(st.log)} events reproduce exactly"
              f" ({st.result_text or 'game unfinished'})")
        return 0
    con = Console(highlight=False, soft_wrap=True)
    _print_events(con, st.log)
    con.print(draw_board(st))
    con.print(esc(st.result_text or "Game unfinished."))
    return 0
