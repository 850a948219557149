"""Live games of the server: loaded from the store, played through the core, persisted before
acknowledgement, announced to the seats' WebSockets.

The hub never decides a rule and knows no ruleset: it asks the game's ruleset (through the
registry and :class:`oriflamme.core.ruleset.Ruleset`: ``seat_view``, ``apply``, ``explain``,
``visible_events``) and stores what happened. The dice seed is drawn here for every online
game (:func:`oriflamme.core.dice.new_secret`) and never leaves the server while the game
runs: views carry only its commitment.

**Computer seats** (issue 14): a game created with ``ai`` (side -> level) has those sides
played by the server with :mod:`oriflamme.ai` players: after each action the hub starts a
task that, while a computer side is to act, waits ``bot_pace`` seconds (a human can follow),
lets the player decide on a copy of the state in a worker thread, and applies its action
through the same path as a seat's (``_commit``). Each decision's explanation (its value, the
depth and width of its search) is kept in ``ai_notes`` of the views.

**Several processes** (issue 15, PostgreSQL): the store is the only source of truth; a game in
memory is a copy at a known ``revision``. Before each request's work, under the game's lock,
:meth:`Hub.catch_up` compares it with the store's and applies the actions committed meanwhile
by another process (or replays the game after another process's undo). A write names the
revision it was computed from, so a stale copy never writes over another's action. Other
processes' changes reach this process's WebSockets through :mod:`oriflamme.web.fanout`.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import anyio.to_thread
from anyio import CapacityLimiter

from ..ai.players import PLAYER_LEVELS, make_player
from ..core import registry
from ..core.dice import new_secret
from ..core.errors import IllegalAction, OriflammeError, UnknownRuleset
from ..core.record import Game
from ..core.ruleset import CHANCE, Ruleset
from ..store import DIGEST_VERSION, Store, StoredGame, VersionConflict
from .limits import Limits
from .notify import BadWebhook, Notifier, check_url

HOTSEAT = "*"
#: seconds a computer seat waits before each of its actions (``ORIFLAMME_BOT_PACE``)
BOT_PACE = float(os.environ.get("ORIFLAMME_BOT_PACE", "0.8"))
#: the most explanations a game keeps in memory (the latest)
AI_NOTES = 200


class HubError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra):
        self.status, self.code, self.message, self.extra = status, code, message, extra
        super().__init__(message)


@dataclass
class LiveGame:
    id: str
    mode: str
    scenario_id: str
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set = field(default_factory=set)
    undo_requested_by: str | None = None
    undo_version: int | None = None
    frames_cache: dict = field(default_factory=dict)   # side -> (version, frames); cleared by an undo
    action_sides: list = field(default_factory=list)   # who took each action (for undo requests)
    #: the seat views of the current position, by side: computed once (legal actions, options,
    #: rulings) and reused by every response until the next action or undo clears them
    views: dict = field(default_factory=dict)
    last_used: float = 0.0   # the hub's clock at the last request (idle games leave memory)
    bots: dict = field(default_factory=dict)       # side -> level of the computer seats
    players: dict = field(default_factory=dict)    # side -> its player (made on first use)
    ai_notes: list = field(default_factory=list)   # the computer's explanations, latest last
    bot_task: object = None
    open_sides: list = field(default_factory=list)  # seats left open in the lobby, none joined yet
    webhook: str | None = None                      # told when a human side is to act (web/notify.py)
    notified: tuple | None = None                   # (version, side) of the last turn notified
    #: the store's revision this copy reflects (None: out of step, replayed on the next request)
    revision: int | None = 0

    @property
    def version(self) -> int:
        return len(self.game.actions)

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset


def get_ruleset(ruleset_id: str | None) -> Ruleset:
    try:
        return registry.get(ruleset_id)
    except UnknownRuleset as exc:
        raise HubError(404, "unknown_ruleset", str(exc)) from None


#: worker threads for the rules work: Python threads share one interpreter lock, so more threads
#: would not compute faster, only take the lock from the event loop more often
RULES_THREADS = 2



class Hub:
    """The games in memory. The rules work (applying an action, computing a view, a rider's
    moves, the replay frames, loading a game) runs in worker threads, off the event loop, one
    request at a time per game: :meth:`act`, :meth:`undo` and :meth:`read` hold the game's
    lock around the thread's work, so a game's requests keep their order while other games'
    run alongside. Games idle for ``limits.idle_seconds``, or beyond ``limits.max_live_games``,
    leave memory (:meth:`evict`); :meth:`get` reloads them from the store."""

    def __init__(self, store: Store, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic,
                 bot_pace: float | None = None):
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.games: dict[str, LiveGame] = {}
        self._mutex = threading.Lock()  # self.games, between worker threads
        self._limiter: CapacityLimiter | None = None
        self.bot_pace = BOT_PACE if bot_pace is None else bot_pace
        self.notifier = Notifier(private_ok=self.limits.webhook_private_ok) if self.limits.webhooks else None
        self._briefs: dict[tuple[str, str], dict] = {}  # (ruleset, scenario) -> names the lobby shows

    async def run_in_thread(self, fn: Callable[..., Any], *args) -> Any:
        """``fn(*args)`` in one of the hub's :data:`RULES_THREADS` worker threads."""
        if self._limiter is None:  # made on first use, inside the server's event loop
            self._limiter = CapacityLimiter(RULES_THREADS)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)

    # --- creation and loading ---------------------------------------------------------------
    def create(self, scenario_id: str, mode: str, seed: int | None = None,
               ruleset_id: str | None = None, bots: dict[str, str] | None = None,
               open_game: bool = False, side: str | None = None,
               webhook: str | None = None,
               armies: dict[str, dict] | None = None) -> tuple[str, dict[str, str]]:
        """A new game (run in a worker thread: the caller starts the computer seats with
        :meth:`kick` once back on the event loop). ``open_game``: an online game whose creator
        takes ``side`` (default: the first human side) and leaves the other human seats open
        in the lobby (:meth:`join`). ``webhook``: told when a human side is to act."""
        if mode not in ("hotseat", "online"):
            raise HubError(422, "bad_mode", "mode must be 'hotseat' or 'online'")
        if webhook is not None:
            if self.notifier is None:
                raise HubError(422, "bad_request", "field webhook: this server sends no webhooks")
            try:
                webhook = check_url(webhook)
            except BadWebhook as exc:
                raise HubError(422, "bad_request", f"field webhook: {exc}") from None
        rs = get_ruleset(ruleset_id)
        known = rs.scenario_ids()
        if scenario_id not in known:
            # a scenario of other editions (rulesets) only: say which
            others = [o.id for o in registry.all_rulesets() if o.id != rs.id and scenario_id in o.scenario_ids()]
            if others:
                raise HubError(422, "unsupported_edition", f"the scenario {scenario_id!r} cannot be played under "
                                                           f"{rs.id!r} (it supports: {', '.join(others)})")
            raise HubError(404, "unknown_scenario", f"unknown scenario {scenario_id!r} for {rs.id} (bundled: {', '.join(known)})")
        if seed is not None and mode != "hotseat":
            raise HubError(422, "bad_request", "field seed: an online game's dice are drawn by the server and kept "
                                               "secret until the end; only a hot-seat game may choose its seed")
        try:
            scenario = rs.load_scenario(scenario_id)
        except OriflammeError as exc:
            raise HubError(500, "bad_scenario", str(exc)) from None
        if armies is not None:  # a battle between two armies of the army builder, on this scenario's table
            if not rs.battle_from_armies():
                raise HubError(422, "bad_request", f"field armies: the ruleset {rs.id!r} cannot set a battle from armies")
            try:
                scenario = rs.scenario_from_armies(armies, scenario)
            except OriflammeError as exc:
                raise HubError(422, "bad_army", f"field armies: {exc}") from None
        bots = self._check_bots(rs, scenario, mode, bots or {})
        game = Game(rs, scenario, new_secret() if seed is None else seed)
        game_id = secrets.token_urlsafe(9)
        humans = [s.id for s in rs.sides(scenario) if s.id not in bots]
        open_sides: list[str] = []
        if open_game or side is not None:
            if mode != "online":
                raise HubError(422, "bad_request", "field open: only an online game can wait for an opponent in the lobby")
            if side is not None and side not in humans:
                raise HubError(422, "bad_request", f"field side: {side!r} is not a human side of this game "
                                                   f"(human sides: {', '.join(humans)})")
            mine = side or humans[0]
            open_sides = [s for s in humans if s != mine] if open_game else []
            if open_game and not open_sides:
                raise HubError(422, "bad_request", "field open: every other side is played by the computer: "
                                                   "there is no seat to leave open")
        if mode == "hotseat":
            seats = {HOTSEAT: secrets.token_urlsafe(24)}          # 192 bits
        else:
            seats = {s: secrets.token_urlsafe(24) for s in humans if s not in open_sides}
        self.store.create_game(game_id, scenario_id, rs.scenario_to_json(scenario), game.secret_seed, mode, seats,
                               ruleset=rs.id, bots=bots, open_sides=tuple(open_sides), webhook=webhook)
        with self._mutex:
            self.games[game_id] = LiveGame(game_id, mode, scenario_id, game, last_used=self.clock(),
                                             bots=dict(bots), open_sides=list(open_sides), webhook=webhook,
                                             revision=0)
        self.evict()
        return game_id, seats

    @staticmethod
    def _check_bots(rs: Ruleset, scenario, mode: str, bots) -> dict[str, str]:
        """``ai``: a level for one side (the second), or side -> level."""
        sides = [s.id for s in rs.sides(scenario)]
        if isinstance(bots, str):
            bots = {sides[-1]: bots}
        if not isinstance(bots, dict):
            raise HubError(422, "bad_request", "field ai: expected a level or an object side -> level")
        for side, level in bots.items():
            if side not in sides:
                raise HubError(422, "bad_request", f"field ai: no side {side!r} in this scenario (sides: {', '.join(sides)})")
            if level not in PLAYER_LEVELS:
                raise HubError(422, "bad_request", f"field ai.{side}: unknown level {level!r} "
                                                   f"(levels: {', '.join(PLAYER_LEVELS)})")
        if bots and mode != "online":
            raise HubError(422, "bad_request", "field ai: a game against the computer is an online game (mode 'online'): "
                                               "each human side gets its own seat")
        if bots and len(bots) >= len(sides):
            raise HubError(422, "bad_request", "field ai: at least one side must be a human's seat")
        return dict(bots)

    def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, replayed from the store if it is not in memory."""
        now = self.clock()
        live = self.games.get(game_id)
        if live is not None:
            live.last_used = now
            return live
        live = self._load(game_id)
        with self._mutex:  # two requests loading the same game at once: both get the first one in
            live = self.games.setdefault(game_id, live)
        live.last_used = now
        if self.limits.max_live_games and len(self.games) > self.limits.max_live_games:
            self.evict()
        return live

    def _load(self, game_id: str) -> LiveGame:
        stored = self.store.load(game_id)
        if stored is None:
            raise HubError(404, "unknown_game", f"no game {game_id!r}")
        return LiveGame(game_id, stored.mode, stored.scenario_id, self._replay(stored),
                        undo_requested_by=stored.undo_requested_by, undo_version=stored.undo_version,
                        action_sides=list(stored.sides_of_actions), bots=dict(stored.bots or {}),
                        revision=stored.revision, open_sides=self.store.open_sides(game_id),
                        webhook=self.store.webhook_of(game_id))

    @staticmethod
    def _replay(stored: StoredGame) -> Game:
        """The stored game replayed, each action's digest checked."""
        game_id = stored.id
        try:
            rs = registry.get(stored.ruleset)
            scenario = rs.scenario_from_json(stored.scenario, f"game {game_id}")
            game = Game(rs, scenario, stored.seed)
            legacy = stored.digest_version < DIGEST_VERSION  # stored before the seam: the seed was in the digest
            for i, (a, digest) in enumerate(zip(stored.actions, stored.digests)):
                game.apply(a)
                if game.digest() != digest and not (legacy and rs.legacy_digest(game.state, stored.seed) == digest):
                    raise HubError(500, "corrupt", f"game {game_id}: action {i + 1} does not reproduce the stored state")
        except OriflammeError as exc:
            raise HubError(500, "corrupt", f"game {game_id} cannot be replayed: {exc}") from None
        return game

    def catch_up(self, live: LiveGame) -> None:
        """Bring ``live`` to the store's revision (in a worker thread, under the game's lock):
        apply the actions another process committed since, or, after another process's undo
        (or when this copy is out of step), replay the game from the store. A current copy
        costs one indexed read."""
        if live.revision is not None and self.store.revision_of(live.id) == live.revision:
            return
        changes = None if live.revision is None else self.store.changes_since(live.id, live.version)
        if changes is not None:
            head, actions = changes
            if head.revision == live.revision:
                return
            if head.truncated_at <= live.revision and head.version == live.version + len(actions):
                g = live.game
                for a in actions:
                    try:
                        g.apply(a.action)
                    except OriflammeError as exc:
                        self.forget(live)
                        raise HubError(500, "corrupt", f"game {live.id}: action {a.seq} cannot be replayed: {exc}") from None
                    if g.digest() != a.digest:
                        live.revision = None  # not what was stored: replay from the start below
                        break
                    live.action_sides.append(a.side)
                else:
                    self._caught_up(live, head.revision, head.undo_requested_by, head.undo_version)
                    if live.open_sides:  # another process's join bumps the revision, with no action
                        live.open_sides = self.store.open_sides(live.id)
                    return
        stored = self.store.load(live.id)
        if stored is None:
            raise HubError(404, "unknown_game", f"no game {live.id!r}")
        live.game = self._replay(stored)
        live.action_sides = list(stored.sides_of_actions)
        live.frames_cache.clear()
        live.open_sides = self.store.open_sides(live.id)
        self._caught_up(live, stored.revision, stored.undo_requested_by, stored.undo_version)

    @staticmethod
    def _caught_up(live: LiveGame, revision: int, undo_by: str | None, undo_version: int | None) -> None:
        live.revision, live.undo_requested_by, live.undo_version = revision, undo_by, undo_version
        live.views.clear()

    async def enter(self, game_id: str, token: str | None) -> tuple[LiveGame, str]:
        """The live game and the token's seat (loading, if need be, in a worker thread)."""
        live = self.games.get(game_id)
        if live is None:
            live = await self.run_in_thread(self.get, game_id)
        else:
            live.last_used = self.clock()
        self.kick(live)  # a computer seat to act (e.g. after a restart): its task starts here, on the loop
        return live, self.seat(live, token)  # one indexed SQLite read: not worth a thread

    def forget(self, live: LiveGame) -> None:
        """``live`` is out of step with the store (the truth): the next request replays it
        (:meth:`catch_up`). Without WebSockets it also leaves memory."""
        live.revision = None
        with self._mutex:
            if self.games.get(live.id) is live and not live.listeners:
                del self.games[live.id]

    def evict(self) -> list[str]:
        """Drop from memory the games idle for ``idle_seconds``, then the least recently used
        beyond ``max_live_games``; never a game with a WebSocket open or a request under way."""
        idle, cap = self.limits.idle_seconds, self.limits.max_live_games
        now = self.clock()
        gone = []
        with self._mutex:
            busy = lambda g: g.listeners or g.lock.locked()  # noqa: E731
            for gid, g in list(self.games.items()):
                if idle and now - g.last_used >= idle and not busy(g):
                    del self.games[gid]
                    gone.append(gid)
            if cap and len(self.games) > cap:
                for g in sorted(self.games.values(), key=lambda g: g.last_used):
                    if len(self.games) <= cap:
                        break
                    if not busy(g):
                        del self.games[g.id]
                        gone.append(g.id)
        return gone

    async def read(self, live: LiveGame, fn: Callable[..., Any], *args) -> Any:
        """``fn(*args)`` in a worker thread, holding the game's lock (per-game order), on a
        copy brought up to the store's revision."""
        async with live.lock:
            return await self.run_in_thread(self._current, live, fn, *args)

    def _current(self, live: LiveGame, fn: Callable[..., Any], *args) -> Any:
        self.catch_up(live)
        return fn(*args)

    def seat(self, live: LiveGame, token: str | None) -> str:
        if not token:
            raise HubError(403, "no_seat", "this request needs a seat token (header X-Seat or ?seat=)")
        side = self.store.seat_of(live.id, token)
        if side is None:
            raise HubError(403, "bad_seat", "this seat token does not belong to this game")
        return side

    # --- reading ---------------------------------------------------------------------------
    def acting_side(self, live: LiveGame, seat: str) -> str | None:
        """The side a seat sees as: its own, or (hot seat) the side to act."""
        if seat == HOTSEAT:
            to_act = live.game.to_act()
            return None if to_act == CHANCE else to_act
        return seat

    def _seat_view(self, live: LiveGame, side: str | None) -> dict:
        cached = live.views.get(side)
        if cached is None:
            g = live.game
            acting = side is not None and side == g.to_act()
            cached = live.views[side] = (g.ruleset.seat_view(g.state, side, acting), acting)
        return cached

    def view(self, live: LiveGame, seat: str, log_from: int | None = None) -> dict:
        """The seat's view (a fresh dict over the cached one): the ruleset's view of the
        position, the log the seat may see from ``log_from``, the dice commitment (and the seed
        once the game is over), the undo state."""
        g = live.game
        rs = g.ruleset
        side = self.acting_side(live, seat)
        base, acting = self._seat_view(live, side)
        out = dict(base)
        out["log"] = rs.visible_events(g.state, side, log_from or 0)
        if log_from is not None:  # asked for, even 0: echoed (docs/api.md)
            out["log_from"] = log_from
        over = g.outcome().over
        out.update({
            "game_id": live.id, "mode": live.mode, "seat": "hotseat" if seat == HOTSEAT else seat,
            "ruleset": rs.id, "web_module": rs.web_module,
            "version": live.version, "can_act": acting, "dice_commitment": g.commitment,
            "sides": [s.to_json() for s in rs.sides(g.scenario)],
            "undo": self._undo_info(live, seat),
            "ai": dict(live.bots), "ai_notes": [self._note_for(n, side) for n in live.ai_notes[-20:]],
            "open_seats": list(live.open_sides), "scenario_id": live.scenario_id,
        })
        if over:
            out["dice_seed"] = g.secret_seed  # the game is over: the dice can be checked
        return out

    @staticmethod
    def _note_for(note: dict, side: str | None) -> dict:
        """A computer's explanation as ``side`` may see it: a private action (face-down orders,
        ``Ruleset.private_action``) of another side keeps only when and who."""
        if not note.get("private") or note.get("side") == side:
            return note
        return {"version": note.get("version"), "side": note.get("side"), "level": note.get("level"),
                "private": True, "text": "The computer acted face down.", "text_fr": "L'ordinateur a joué face cachée."}

    def record(self, live: LiveGame, seat: str) -> dict:
        """The record a seat may download: the seed only when the game is over; while it runs,
        the log the seat may see and the other sides' private actions reduced to who acted."""
        g = live.game
        rec = g.record()
        if not g.outcome().over:
            side = self.acting_side(live, seat)
            rec["seed"] = None
            rec["events"] = list(g.ruleset.visible_events(g.state, side, 0))
            rec["actions"] = [self._action_for(g.ruleset, a, side) for a in rec["actions"]]
        return rec

    @staticmethod
    def _action_for(rs, data: dict, side: str | None) -> dict:
        """A running game's action as ``side`` may see it: another side's private action (face-down
        orders, ``Ruleset.private_action``) keeps only its type and side."""
        if not isinstance(data, dict) or data.get("side") == side:
            return data
        try:
            private = rs.private_action(rs.action_from_json(data))
        except Exception:  # noqa: BLE001 - an action the ruleset cannot read is shown as it is
            private = False
        return {"type": data.get("type"), "side": data.get("side"), "private": True} if private else data

    def moves(self, live: LiveGame, seat: str, key: str) -> dict:
        """One piece's options (the list a view leaves out, e.g. a rider's moves), for the seat
        to act."""
        g = live.game
        if g.to_act() is None:
            raise HubError(409, "over", "the game is over")
        self.refuse_if_not_to_act(live, seat)
        try:
            detail = g.ruleset.option_detail(g.state, key)
        except KeyError:
            raise HubError(404, "not_found", f"no piece {key!r} with options in this game") from None
        return {"version": live.version, **detail}

    def _undo_info(self, live: LiveGame, seat: str) -> dict:
        g = live.game
        possible = g.can_undo and live.version > 0
        info = {"possible": possible, "requested_by": live.undo_requested_by}
        if live.mode == "hotseat":
            info["can_request"] = possible
        else:
            last_side = g.actions and self._side_of_last(live)
            info["can_request"] = possible and live.undo_requested_by is None and last_side == seat
            info["can_answer"] = (live.undo_requested_by is not None and live.undo_requested_by != seat
                                  and not g.outcome().over)
        return info

    @staticmethod
    def refuse_if_not_to_act(live: LiveGame, seat: str) -> str | None:
        """Only the seat to act (or the hot-seat) acts, reads a piece's options or asks for a
        ruling on an action: a ruling on the other side's action could tell what its seat may not
        see (a unit hidden from it, its face-down orders). ``403 not_your_turn``. Returns the
        side to act."""
        to_act = live.game.to_act()
        if seat != HOTSEAT and to_act is not None and seat != to_act:
            raise HubError(403, "not_your_turn", f"side {to_act} is to act; this seat plays side {seat}")
        return to_act

    @staticmethod
    def _refuse_if_over(live: LiveGame, what: str) -> None:
        """A finished game is locked (issue 15): no action, no undo request or answer.
        ``409 over``, with the result and the winner, and nothing changed."""
        out = live.game.outcome()
        if out.over or live.game.to_act() is None:
            raise HubError(409, "over", f"the game is over ({out.text or 'finished'}): it is locked, {what}",
                           winner=out.winner, result=out.text)

    def _sides(self, live: LiveGame) -> list[str]:
        return [s.id for s in live.ruleset.sides(live.game.scenario)]

    def _side_of_last(self, live: LiveGame) -> str | None:
        return live.action_sides[-1] if live.action_sides else None

    # --- acting ------------------------------------------------------------------------------
    async def act(self, live: LiveGame, seat: str, action_json, version: int | None,
                  then: Callable[[list[dict]], Any] | None = None):
        """Apply and commit an action (in a worker thread, under the game's lock), then tell
        the WebSockets. Returns its events, or ``then(events)`` computed under the same lock
        (the answer to the request, of exactly this version)."""
        async with live.lock:
            result = await self.run_in_thread(self._act, live, seat, action_json, version, then)
        await self.announce(live)
        self.notify_turn(live)
        self.kick(live)
        return result

    def _act(self, live: LiveGame, seat: str, action_json, version: int | None, then) -> Any:
        self.catch_up(live)
        g = live.game
        rs = g.ruleset
        if version is not None and version != live.version:
            raise HubError(409, "stale", f"the game is at version {live.version}, not {version}: reload the view",
                           version=live.version)
        self._refuse_if_over(live, "no action can be taken")
        to_act = self.refuse_if_not_to_act(live, seat)
        try:
            action = rs.action_from_json(action_json)
        except IllegalAction as exc:
            raise HubError(422, "bad_action", str(exc)) from None
        events = self._commit(live, to_act, action)
        return then(events) if then is not None else events

    def _commit(self, live: LiveGame, to_act: str, action) -> list[dict]:
        """Apply (checked) and store one action of ``to_act``; the caller holds the game's lock."""
        g = live.game
        try:
            events = g.apply(action)  # the ruleset refuses illegal actions, state unchanged
        except IllegalAction as exc:
            raise HubError(409, "illegal", exc.reason, ref=exc.ref) from None
        live.views.clear()
        out = g.outcome()
        try:
            live.revision = self.store.append_action(live.id, live.version, to_act, g.actions[-1], g.digest(),
                                                     "over" if out.over else "playing", out.winner,
                                                     revision=live.revision)
        except VersionConflict:
            self.forget(live)  # another process committed first: this copy replays on the next request
            raise HubError(409, "stale", "the game has moved on: reload the view") from None
        except BaseException:
            # not committed, so not acknowledged: forget the in-memory game; the next
            # request rebuilds it from the database, which does not hold this action
            self.forget(live)
            raise
        live.action_sides.append(to_act)
        live.undo_requested_by = None
        live.undo_version = None
        return events

    # --- computer seats ----------------------------------------------------------------------
    def bot_to_act(self, live: LiveGame) -> str | None:
        """The computer side to act now (or chance, which a bot game rolls by itself), or None."""
        if not live.bots:
            return None
        to_act = live.game.to_act()
        return to_act if to_act in live.bots or to_act == CHANCE else None

    def kick(self, live: LiveGame) -> None:
        """Start the computer's task if a computer side is to act and none runs (needs a
        running event loop: outside one, e.g. a synchronous caller, nothing starts)."""
        if self.bot_to_act(live) is None or (live.bot_task is not None and not live.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.bot_task = loop.create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveGame) -> None:
        try:
            await self._bot_turns(live)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a computer seat's failure is shown, not raised into the loop
            live.ai_notes.append({"version": live.version, "side": live.game.to_act(), "level": "error",
                                  "text": f"the computer player stopped: {exc}",
                                  "text_fr": f"le joueur ordinateur s'est arrêté : {exc}"})
            await self.announce(live)

    async def _bot_turns(self, live: LiveGame) -> None:
        while self.games.get(live.id) is live and (side := self.bot_to_act(live)) is not None:
            await asyncio.sleep(self.bot_pace)
            version = live.version
            rs = live.ruleset
            if side == CHANCE:
                action, note = rs.legal_actions(live.game.state, CHANCE)[0], None
            else:
                player = live.players.get(side)
                if player is None:
                    player = live.players[side] = make_player(live.bots[side], rs, secrets.randbits(32))
                state = rs.clone(live.game.state)  # the player works on a copy, in a thread
                decision = await asyncio.to_thread(player.decide, state, side)
                action, note = decision.action, decision
            async with live.lock:
                await self.run_in_thread(self.catch_up, live)  # another process may have played
                if live.version != version or self.bot_to_act(live) != side:
                    continue  # an undo or another action came first: think again
                try:
                    label = rs.describe_action(live.game.state, action)
                    label_fr = rs.describe_action(live.game.state, action, "fr")
                except Exception:  # noqa: BLE001 - a label is only for the log
                    label = label_fr = ""
                try:
                    await self.run_in_thread(self._commit, live, side, action)
                except HubError as exc:
                    if exc.code == "stale":
                        continue  # another process played this seat first: think again
                    raise
                if note is not None:
                    live.ai_notes.append({"version": live.version, "side": side,
                                          "private": rs.private_action(action),
                                          "action": rs.action_to_json(action),
                                          "label": label, "label_fr": label_fr,
                                          **note.to_json()})
                    del live.ai_notes[:-AI_NOTES]
            await self.announce(live)
            self.notify_turn(live)

    async def undo(self, live: LiveGame, seat: str, answer: str | None = None, version: int | None = None) -> dict:
        """Hot-seat: undo at once. Online: ``answer=None`` requests, the opponent answers
        ``accept`` or ``decline``; a computer opponent accepts at once (its own last action
        taken back only through the human's). ``version``, when given, must be the game's (409 stale)."""
        async with live.lock:
            result = await self.run_in_thread(self._undo, live, seat, answer, version)
        await self.announce(live)
        self.kick(live)
        return result

    def _undo(self, live: LiveGame, seat: str, answer: str | None, version: int | None) -> dict:
        try:
            self.catch_up(live)
            return self._undo_unsafe(live, seat, answer, version)
        except VersionConflict:
            self.forget(live)  # another process changed the game meanwhile
            raise HubError(409, "stale", "the game has moved on: reload the view") from None
        except HubError:
            raise
        except BaseException:
            self.forget(live)  # memory may be ahead of the store: reload from the store
            raise

    def _undo_unsafe(self, live: LiveGame, seat: str, answer: str | None, version: int | None) -> dict:
        if version is not None and version != live.version:
            raise HubError(409, "stale", f"the game is at version {live.version}, not {version}: reload the view",
                           version=live.version)
        g = live.game
        self._refuse_if_over(live, "its last action cannot be undone")
        # against the computer, a request is granted at once (only for the human's own last action)
        against_computer = answer is None and live.bots and all(s in live.bots for s in self._sides(live) if s != seat)
        if against_computer and self._side_of_last(live) != seat:
            raise HubError(403, "not_yours", "only the side that took the last action may ask to undo it")
        if live.mode == "hotseat" or answer == "accept" or against_computer:
            if live.mode != "hotseat" and not against_computer:
                if live.undo_requested_by is None:
                    raise HubError(409, "no_request", "there is no undo request to accept")
                if live.undo_requested_by == seat:
                    raise HubError(403, "own_request", "the opponent must accept your undo request")
            if not g.can_undo:
                raise HubError(409, "cannot_undo", "the last action rolled a die (or there is none): it cannot be undone")
            g.undo()
            live.views.clear()
            live.frames_cache.clear()
            del live.action_sides[live.version:]
            out = g.outcome()
            live.revision = self.store.truncate(live.id, live.version, "over" if out.over else "playing", out.winner,
                                                revision=live.revision)
            live.undo_requested_by = live.undo_version = None
            result = {"undone": True, "version": live.version}
        elif answer == "decline":
            if live.undo_requested_by is None or live.undo_requested_by == seat:
                raise HubError(409, "no_request", "there is no undo request from your opponent")
            live.undo_requested_by = live.undo_version = None
            live.revision = self.store.set_undo_request(live.id, None, None, revision=live.revision)
            result = {"undone": False, "declined": True}
        else:
            if not g.can_undo:
                raise HubError(409, "cannot_undo", "the last action rolled a die (or there is none): it cannot be undone")
            if self._side_of_last(live) != seat:
                raise HubError(403, "not_yours", "only the side that took the last action may ask to undo it")
            live.revision = self.store.set_undo_request(live.id, seat, live.version, revision=live.revision)
            live.undo_requested_by, live.undo_version = seat, live.version
            result = {"requested": True}
        return result

    # --- the lobby ---------------------------------------------------------------------------
    async def join(self, game_id: str, side: str | None = None) -> tuple[str, str]:
        """Take an open seat of ``game_id`` (``side``, or the first open one): its side and new
        seat token. 409 ``seat_taken`` when someone was quicker (one transaction decides; the
        in-memory copy changes under the game's lock)."""
        live = self.games.get(game_id) or await self.run_in_thread(self.get, game_id)
        return await self.read(live, self._join, live, side)

    def _join(self, live: LiveGame, side: str | None) -> tuple[str, str]:
        if live.game.outcome().over:
            raise HubError(409, "over", "the game is over")
        if not live.open_sides:
            raise HubError(409, "seat_taken", "this game has no open seat left")
        if side is None:
            side = live.open_sides[0]
        elif side not in live.open_sides:
            raise HubError(409, "seat_taken", f"side {side!r} is not open (open: {', '.join(live.open_sides)})")
        token = secrets.token_urlsafe(24)
        revision = self.store.claim_seat(live.id, side, token)
        if revision is None:
            live.open_sides = self.store.open_sides(live.id)
            raise HubError(409, "seat_taken", f"side {side!r} was taken a moment ago")
        live.open_sides = [s for s in live.open_sides if s != side]
        if live.revision is not None and live.revision == revision - 1:
            live.revision = revision  # this copy is current: the join was the only change
        live.views.clear()
        return side, token

    def _brief(self, ruleset_id: str, scenario_id: str) -> dict:
        """The names the lobby shows of a scenario (cached: bundled scenarios do not change)."""
        key = (ruleset_id, scenario_id)
        if key not in self._briefs:
            try:
                rs = registry.get(ruleset_id)
                info = rs.scenario_info(scenario_id).to_json()
                self._briefs[key] = {"ruleset_title": rs.title, "ruleset_title_fr": getattr(rs, "title_fr", "") or rs.title,
                                     "name": info["name"], "name_fr": info["name_fr"],
                                     "sides": {s["id"]: s for s in info["sides"]}}
            except (OriflammeError, KeyError):
                self._briefs[key] = {"ruleset_title": ruleset_id, "ruleset_title_fr": ruleset_id,
                                     "name": scenario_id, "name_fr": scenario_id, "sides": {}}
        return self._briefs[key]

    def briefing(self, ruleset_id: str, scenario_id: str) -> dict:
        """What the home page shows before a game starts: the scenario's facts, its board and
        its opening position as a spectator sees it (no side's secrets; set up with a fixed
        seed, so a position that depends on dice is one possible opening, not the game's)."""
        rs = get_ruleset(ruleset_id)
        if scenario_id not in rs.scenario_ids():
            raise HubError(404, "unknown_scenario", f"unknown scenario {scenario_id!r} for {rs.id} "
                                                    f"(bundled: {', '.join(rs.scenario_ids())})")
        key = ("briefing", rs.id, scenario_id)
        cached = self._briefs.get(key)
        if cached is None:
            try:
                scenario = rs.load_scenario(scenario_id)
                game = Game(rs, scenario, 0)
                view = dict(rs.seat_view(game.state, None, False))
            except OriflammeError as exc:
                raise HubError(500, "bad_scenario", str(exc)) from None
            view["log"] = []
            cached = self._briefs[key] = {
                "ruleset": rs.id, "web_module": rs.web_module, "scenario": rs.scenario_info(scenario_id).to_json(),
                "board": rs.board(scenario), "view": view,
                "sides": [s.to_json() for s in rs.sides(scenario)]}
        return cached

    def lobby(self, limit: int = 50) -> list[dict]:
        """The online games waiting for an opponent, newest first (what ``GET /api/lobby`` lists)."""
        out = []
        for row in self.store.open_games(limit):
            b = self._brief(row["ruleset"], row["scenario_id"])
            side = b["sides"].get(row["side"], {"id": row["side"], "name": row["side"], "name_fr": row["side"]})
            out.append({"id": row["id"], "ruleset": row["ruleset"], "ruleset_title": b["ruleset_title"],
                        "ruleset_title_fr": b["ruleset_title_fr"], "scenario": row["scenario_id"],
                        "scenario_name": b["name"], "scenario_name_fr": b["name_fr"],
                        "side": side, "opened_at": row["created_at"], "version": row["version"]})
        return out

    async def status(self, game_id: str, token: str) -> dict:
        """One of a player's games as "my games" lists it: whose turn, whether it is the
        seat's, finished or not (a token of another game answers ``bad_seat``). The token is
        checked in the store first (one indexed read), so a forged one never costs a replay;
        the summary is read under the game's lock, on a copy brought up to the store."""
        seat = await self.run_in_thread(self.store.seat_of, game_id, token)
        if seat is None:
            if not await self.run_in_thread(self.store.exists, game_id):
                raise HubError(404, "unknown_game", f"no game {game_id!r}")
            raise HubError(403, "bad_seat", "this seat token does not belong to this game")
        live = self.games.get(game_id) or await self.run_in_thread(self.get, game_id)
        return await self.read(live, self._status, live, seat)

    def _status(self, live: LiveGame, seat: str) -> dict:
        g = live.game
        out = g.outcome()
        to_act = g.to_act()
        b = self._brief(live.ruleset.id, live.scenario_id)
        sides = {s.id: s.to_json() for s in live.ruleset.sides(g.scenario)}
        return {"id": live.id, "ruleset": live.ruleset.id, "ruleset_title": b["ruleset_title"],
                "ruleset_title_fr": b["ruleset_title_fr"], "scenario": live.scenario_id,
                "scenario_name": b["name"], "scenario_name_fr": b["name_fr"],
                "mode": live.mode, "seat": "hotseat" if seat == HOTSEAT else seat,
                "version": live.version, "over": out.over, "winner": out.winner,
                "to_act": None if to_act in (None, CHANCE) else to_act,
                "to_act_side": sides.get(to_act), "seat_side": sides.get(seat),
                "your_turn": (not out.over) and to_act not in (None, CHANCE) and (seat == HOTSEAT or seat == to_act),
                "open_seats": list(live.open_sides), "ai": dict(live.bots)}

    def notify_turn(self, live: LiveGame) -> None:
        """Post the game's webhook when a human side has become the side to act (once per
        version; never a token in it)."""
        if not live.webhook or self.notifier is None:
            return
        to_act = live.game.to_act()
        if to_act in (None, CHANCE) or to_act in live.bots:
            return
        key = (live.version, to_act)
        if live.notified == key:
            return
        live.notified = key
        b = self._brief(live.ruleset.id, live.scenario_id)
        side = b["sides"].get(to_act, {"id": to_act, "name": to_act, "name_fr": to_act})
        self.notifier.send(live.webhook, {
            "event": "your_turn", "game": live.id, "ruleset": live.ruleset.id, "scenario": live.scenario_id,
            "scenario_name": b["name"], "side": to_act, "side_name": side["name"], "side_name_fr": side["name_fr"],
            "version": live.version, "path": f"/play/{live.id}",
            "text": f"{side['name']} to play in {b['name']} (game {live.id})",
            "text_fr": f"À {side['name_fr']} de jouer dans {b['name_fr']} (partie {live.id})",
        })

    # --- live updates ------------------------------------------------------------------------
    async def announce(self, live: LiveGame) -> None:
        """Tell the seats a new version exists (no content: each seat fetches its own view)."""
        self.tell(live, live.version)

    def tell(self, live: LiveGame, version: int) -> None:
        """Put an update message in each of the game's WebSocket queues (this process's)."""
        msg = {"type": "update", "version": version}
        for q in list(live.listeners):
            q.put_nowait(msg)

    def changed_elsewhere(self, game_id: str, version: int) -> None:
        """Another process changed the game (:mod:`oriflamme.web.fanout`): tell this process's
        WebSockets; their next request catches the copy up."""
        live = self.games.get(game_id)
        if live is not None and live.listeners:
            self.tell(live, version)

    # --- replay frames -----------------------------------------------------------------------
    def frames(self, live: LiveGame, seat: str) -> list[dict]:
        """The position after each action (for the replay mode) as the seat may see it,
        computed by one replay."""
        side = self.acting_side(live, seat) if seat != HOTSEAT else None
        cached = live.frames_cache.get(side)
        if cached and cached[0] == live.version:
            return cached[1]
        g = live.game
        rs = g.ruleset
        replayed = Game(rs, g.scenario, g.secret_seed)
        frames = [{"version": 0, **rs.frame(replayed.state, side)}]
        for i, a in enumerate(g.actions, 1):
            replayed.apply(a)
            frames.append({"version": i, **rs.frame(replayed.state, side)})
        live.frames_cache[side] = (live.version, frames)
        return frames
