"""``oriflamme play`` and ``oriflamme replay``: a game in the terminal, for any ruleset.

The loop is the core's (``to_act``, ``legal_actions``, ``apply``, ``outcome``) and the record is
the core's :class:`~oriflamme.core.record.Game`. A ruleset with a terminal front end
(``Ruleset.terminal()``: its board, its prompt with previews and odds) gets its human seats
played through it; any other ruleset gets a numbered list of the legal actions. Computer seats
are :mod:`oriflamme.ai` players (``random``, ``easy``, ``normal``, ``hard``), each decision
explained in one line. No rule is decided here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape as esc

from ..ai.players import PLAYER_LEVELS, make_player
from ..core import jsontext, registry
from ..core.dice import new_secret
from ..core.errors import IllegalAction, OriflammeError
from ..core.record import Game, replay
from ..core.ruleset import CHANCE
from .catalog import get_ruleset
from .messages import one_line

GENERIC_HELP = """Commands:
  N                        take action number N of the list
  list | ?                 the legal actions now, numbered
  undo                     take back the last action (only if it rolled no die)
  help | quit"""


def register(sub) -> None:
    p = sub.add_parser("play", help="play a scenario in the terminal (hot-seat or against the computer)")
    p.add_argument("scenario", help="a bundled scenario id (see 'oriflamme scenarios') or a path to a scenario file")
    p.add_argument("--ruleset", metavar="ID", default=registry.DEFAULT,
                   help=f"the ruleset (default {registry.DEFAULT}; see 'oriflamme rulesets')")
    p.add_argument("--a", choices=("human", *PLAYER_LEVELS), default="human",
                   help="who plays the first side: human or a computer level (default human)")
    p.add_argument("--b", choices=("human", *PLAYER_LEVELS), default="human",
                   help="who plays the second side: human or a computer level (default human)")
    p.add_argument("--think", type=float, default=None, metavar="SECONDS",
                   help="a computer player's time per decision (default: its level's)")
    p.add_argument("--seed", default=None,
                   help="dice seed: an integer or a text (default: a fresh 256-bit secret)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON, seed included) to FILE")
    p.add_argument("--quiet", action="store_true", help="with two computer players, print only the outcome")
    p.add_argument("--max-actions", type=int, default=20000, help=argparse_hide())
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("replay", help="replay a game record (its ruleset comes from the record)")
    p.add_argument("file", help="a record written by 'oriflamme play --record' or exported by the web app")
    p.add_argument("--verify", action="store_true",
                   help="only check that the record reproduces and its seed matches its commitment; exit 1 if not")
    p.set_defaults(func=cmd_replay)


def argparse_hide():
    import argparse
    return argparse.SUPPRESS


def parse_seed(text: str | None):
    """An integer seed stays an integer (``--seed 7`` plays the same game as before the
    seam); anything else is a text seed. None: a fresh secret."""
    if text is None:
        return new_secret()
    if re.fullmatch(r"[+-]?\d{1,77}", text.strip()):
        return int(text)
    if not 0 < len(text) <= 200:
        raise ValueError("--seed: expected an integer or a text of 1 to 200 characters")
    return text


def bot_seed(seed, i: int) -> int:
    base = seed if isinstance(seed, int) else int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:8], "big")
    return base * 31 + i


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


def print_events(con: Console, events: list[dict], verbose: bool = True) -> None:
    for ev in events:
        text = ev.get("text", "") if isinstance(ev, dict) else str(ev)
        ref = ev.get("ref") if isinstance(ev, dict) else None
        con.print(f"  [bold]•[/] {esc(str(text))}" + (f"  [dim]({esc(str(ref))})[/]" if ref else ""), highlight=False)
        ruling = ev.get("ruling") if isinstance(ev, dict) else None
        if verbose and isinstance(ruling, dict):
            for line in ruling.get("explanation", []):
                con.print(f"      [dim]{esc(str(line))}[/]", highlight=False)


def describe_after(ruleset, a) -> str:
    """A computer's action, from its JSON form (the same for every ruleset)."""
    d = dict(ruleset.action_to_json(a))
    t = str(d.pop("type", ""))
    return t + " " + " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in d.items())


def generic_turn(con: Console, game: Game, inp, side: str) -> bool:
    """A human seat of a ruleset without a terminal front end: the legal actions, numbered,
    described by ``Ruleset.describe_action``. Returns False to quit."""
    rs = game.ruleset
    acts = rs.legal_actions(game.state, side)
    for i, a in enumerate(acts, 1):
        con.print(f"  {i:>3}. {esc(rs.describe_action(game.state, a))}", highlight=False)
    try:
        line = inp(f"[{side}] number, undo, help or quit > ").strip().lower()
    except EOFError:
        return False
    if line in ("quit", "exit", "q"):
        return False
    if line in ("help", "h"):
        con.print(GENERIC_HELP, highlight=False)
        return True
    if line in ("", "list", "?", "ls"):
        return True
    if line == "undo":
        try:
            game.undo()
            con.print("Undone.")
        except IllegalAction as exc:
            con.print(f"[red]{esc(str(exc))}[/]")
        return True
    if not line.isdigit() or not 1 <= int(line) <= len(acts):
        con.print(f"[red]choose 1–{len(acts)}[/] — type 'help'")
        return True
    try:
        events = game.apply(acts[int(line) - 1])
    except IllegalAction as exc:
        con.print(f"[red]Refused:[/] {esc(str(exc))}")
        return True
    print_events(con, events)
    return True


def _title(game: Game, ui) -> str:
    if ui is not None:
        return ui.title(game)
    rs = game.ruleset
    sides = ", ".join(f"{s.id} ({s.name})" for s in rs.sides(game.scenario))
    return f"[bold]{esc(rs.scenario_id_of(game.scenario))}[/] — {esc(rs.title)}; sides: {esc(sides)}"


def _status(game: Game, ui, side) -> tuple:
    if ui is not None:
        return ui.status(game.state)
    return side, f"[bold]{esc(str(side))}[/] to act"


def cmd_play(args) -> int:
    con = Console(highlight=False, soft_wrap=True)
    rs = get_ruleset(args.ruleset, "play")
    if rs is None:
        return 2
    try:
        seed = parse_seed(args.seed)
    except ValueError as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    try:
        scenario = rs.load_scenario(args.scenario)
    except OriflammeError as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    declared = rs.scenario_to_json(scenario).get("ruleset")
    if isinstance(declared, str) and declared not in (rs.id, *rs.aliases):
        print(f"play: {args.scenario}: this scenario is for the ruleset {declared!r}, not {rs.id!r} "
              f"(use --ruleset {declared})", file=sys.stderr)
        return 2
    if args.record:
        parent = Path(args.record).resolve().parent
        if not parent.is_dir():
            print(f"play: cannot write the record {args.record}: no directory {parent}", file=sys.stderr)
            return 2
        if Path(args.record).is_dir():
            print(f"play: cannot write the record {args.record}: it is a directory", file=sys.stderr)
            return 2
    game = Game(rs, scenario, seed)
    sides = [s.id for s in rs.sides(scenario)]
    players = {s: (args.a if i == 0 else args.b) for i, s in enumerate(sides)}
    bots = {s: make_player(players[s], rs, bot_seed(seed, i), seconds=args.think)
            for i, s in enumerate(sides) if players[s] != "human"}
    ui = rs.terminal()
    quiet = args.quiet and "human" not in players.values()
    if not quiet:
        con.print(_title(game, ui))
        con.print(f"Seed {esc(str(seed))}. Type 'help' for the commands.\n")
        if ui is not None:
            con.print(ui.render(game.state, full=True))
    shown = None
    count = 0
    while not game.outcome().over and count < args.max_actions:
        side = game.to_act()
        if side is None:
            break
        if side == CHANCE:  # chance acts by itself: its one legal action rolls the dice
            events = game.apply(rs.legal_actions(game.state, CHANCE)[0])
            count += 1
            if not quiet:
                print_events(con, events, verbose=False)
            continue
        if not quiet:
            key, line = _status(game, ui, side)
            if key != shown:
                shown = key
                con.print("\n" + line)
        if players.get(side, args.b) == "human":
            try:
                go_on = ui.play_turn(con, game, input) if ui is not None else generic_turn(con, game, input, side)
            except KeyboardInterrupt:
                go_on = False
            if not go_on:
                con.print("Game left unfinished.")
                break
        else:
            decision = bots[side].decide(game.state, side)
            a = decision.action
            events = game.apply(a)
            count += 1
            if not quiet:
                why = f"  [dim]({esc(decision.explanation())})[/]" if decision.level != "random" else ""
                con.print(f"[{esc(side)}] {esc(describe_after(rs, a))}{why}")
                print_events(con, events, verbose=False)
    if args.record:
        try:
            _write_record(args.record, game.record(reveal=True))  # a local game: the seed is the player's own
        except OSError as exc:
            print(f"play: cannot write the record {args.record}: {exc.strerror}", file=sys.stderr)
            return 1
    out = game.outcome()
    if out.over:
        where = ui.summary(game.state) if ui is not None else ""
        where = f"{where}, " if where else ""
        con.print(f"\n[bold]{esc(out.text or 'Game over.')}[/]  ({where}{len(game.actions)} actions, seed {esc(str(seed))})")
    elif count >= args.max_actions:
        print(f"play: stopped after {count} actions without an end", file=sys.stderr)
        return 1
    return 0


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
        rec = jsontext.loads(text)  # nesting and huge integers refused with a reason
    except jsontext.JsonInputError as exc:
        print(f"replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        game, verification = replay(rec)
    except OriflammeError as exc:
        print(one_line(f"replay: {args.file}: {exc}"), file=sys.stderr)
        return 1
    rs = game.ruleset
    out = game.outcome()
    events = rs.events(game.state)
    if args.verify:
        print(f"{args.file}: OK — {len(game.actions)} actions and {len(events)} events reproduce exactly"
              f" ({out.text or 'game unfinished'})")
        for line in verification.lines():
            print(line)
        return 0
    con = Console(highlight=False, soft_wrap=True)
    print_events(con, events)
    ui = rs.terminal()
    if ui is not None:
        con.print(ui.render(game.state))
    con.print(esc(out.text or "Game unfinished."))
    return 0
