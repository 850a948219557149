"""The server's limits: per-client request rate, games created per hour, WebSockets per game
and per client, request body size and JSON nesting, and how long an idle game stays in memory.

A client is its IP address (``request.client.host``; a reverse proxy in front of the server
makes every client one, so raise the limits there or set them to 0, "no limit"). The counters
live in the process's memory: a restart forgets them.

Every limit is a field of :class:`Limits` (``create_app(limits=...)``; ``oriflamme serve``
sets them from its options); 0 switches a limit off.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from ..core import jsontext


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * 1024            # bytes of a request body (413 too_large)
    max_depth: int = 32                  # nesting of a JSON body (400 too_deep)
    requests_per_second: float = 30.0    # per client, sustained (429 rate_limited) ...
    burst: int = 300                     # ... with this many requests at once
    games_per_hour: int = 60             # games a client may create in an hour (429 too_many_games)
    sockets_per_game: int = 8            # WebSockets open on one game (close code 4429)
    sockets_per_client: int = 32         # WebSockets one client holds open, all games together
    idle_seconds: float = 900.0          # a game unused this long leaves memory (reloaded on demand)
    max_live_games: int = 500            # games held in memory at most (the least recently used leave first)
    webhooks: bool = True                # turn notifications by webhook (web/notify.py); False: refused at creation
    webhook_private_ok: bool = False     # may a webhook point at a loopback/private address (a club's LAN)?

    @classmethod
    def off(cls, **keep) -> "Limits":
        """No rate limits nor caps (benchmarks); body size and nesting stay bounded."""
        base = dict(requests_per_second=0, burst=0, games_per_hour=0, sockets_per_game=0, sockets_per_client=0)
        base.update(keep)
        return cls(**base)


class Refused(Exception):
    """A limit reached: ``status`` (429, 413, 400), ``code``, ``message``, ``retry_after`` seconds."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after
        super().__init__(message)


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class Guard:
    """The counters of one server process against its :class:`Limits`."""

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    buckets: dict = field(default_factory=dict)       # client -> _Bucket
    created: dict = field(default_factory=dict)       # client -> deque of creation times
    sockets: dict = field(default_factory=dict)       # client -> open WebSockets

    # --- requests ------------------------------------------------------------------------
    def request(self, client: str) -> None:
        """Count one request of ``client``; :class:`Refused` (429) past the rate."""
        rate, burst = self.limits.requests_per_second, self.limits.burst
        if not rate or not burst:
            return
        now = self.clock()
        b = self.buckets.get(client)
        if b is None:
            if len(self.buckets) > 10_000:  # forget clients whose bucket has refilled
                self.buckets = {k: v for k, v in self.buckets.items() if v.tokens + (now - v.at) * rate < burst}
            b = self.buckets[client] = _Bucket(burst, now)
        b.tokens = min(burst, b.tokens + (now - b.at) * rate)
        b.at = now
        if b.tokens < 1:
            wait = math.ceil((1 - b.tokens) / rate)
            raise Refused(429, "rate_limited", f"too many requests: at most {rate:g} a second "
                                               f"(bursts of {burst}); retry in {wait} s", wait)
        b.tokens -= 1

    def new_game(self, client: str) -> None:
        """Count a game created by ``client``; :class:`Refused` (429) past the hourly cap."""
        cap = self.limits.games_per_hour
        if not cap:
            return
        now = self.clock()
        if len(self.created) > 10_000:  # forget clients with no creation in the last hour
            self.created = {k: v for k, v in self.created.items() if v and v[-1] > now - 3600}
        times = self.created.setdefault(client, deque())
        while times and times[0] <= now - 3600:
            times.popleft()
        if len(times) >= cap:
            wait = math.ceil(times[0] + 3600 - now)
            raise Refused(429, "too_many_games", f"at most {cap} new games an hour from one client; "
                                                 f"retry in {wait} s", wait)
        times.append(now)

    def game_not_created(self, client: str) -> None:
        """Give back the count of a creation that failed (unknown scenario, storage down...)."""
        times = self.created.get(client)
        if times:
            times.pop()

    # --- bodies ----------------------------------------------------------------------------
    def parse(self, raw: bytes):
        """A request body as JSON within the size and nesting limits (an empty body is ``{}``)."""
        if len(raw) > self.limits.max_body:
            raise Refused(413, "too_large", f"request body over {self.limits.max_body} bytes")
        try:
            return jsontext.loads(raw or b"{}", self.limits.max_depth)
        except jsontext.JsonInputError as exc:
            code = "too_deep" if "nested too deeply" in str(exc) else "bad_json"
            raise Refused(400, code, f"the body is not acceptable JSON: {exc}") from None

    # --- WebSockets ------------------------------------------------------------------------
    def open_socket(self, client: str, open_on_game: int) -> None:
        """Count a WebSocket of ``client`` on a game holding ``open_on_game`` already;
        :class:`Refused` (close code 4429) past a cap. Pair with :meth:`close_socket`."""
        per_game, per_client = self.limits.sockets_per_game, self.limits.sockets_per_client
        if per_game and open_on_game >= per_game:
            raise Refused(429, "too_many_sockets", f"this game has {per_game} live connections already")
        if per_client and self.sockets.get(client, 0) >= per_client:
            raise Refused(429, "too_many_sockets", f"at most {per_client} live connections from one client")
        self.sockets[client] = self.sockets.get(client, 0) + 1

    def close_socket(self, client: str) -> None:
        n = self.sockets.get(client, 0) - 1
        if n > 0:
            self.sockets[client] = n
        else:
            self.sockets.pop(client, None)
