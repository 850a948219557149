"""Live updates across server processes: another process's change to a game reaches this
process's WebSockets (issue 15).

On PostgreSQL every change of a game is notified by the transaction that makes it
(:mod:`oriflamme.store.postgres`, ``NOTIFY oriflamme``); a thread of this module listens, with
a connection of its own, and hands each notification to the event loop, where
:meth:`Hub.changed_elsewhere <oriflamme.web.hub.Hub.changed_elsewhere>` tells the game's
WebSockets (an ``update`` message; each seat then fetches its own view, which catches the
process's copy up from the database). After a lost connection, the watched games that changed
meanwhile are announced (notifications may have been missed).

SQLite serves one process: the store has no ``listen`` and nothing starts here.
"""

from __future__ import annotations

import asyncio
import logging
import threading

log = logging.getLogger("oriflamme.web")


class Fanout:
    """The listening thread of one server process (``start`` in the app's lifespan, ``stop``
    at shutdown)."""

    def __init__(self, hub, store):
        self.hub, self.store = hub, store
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def enabled(self) -> bool:
        return hasattr(self.store, "listen")

    def start(self) -> None:
        if not self.enabled or self._thread is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self.store.listen, name="oriflamme-fanout", daemon=True,
                                        args=(self._deliver, self._stop, self._reconnected))
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # --- in the listening thread ------------------------------------------------------------
    def _deliver(self, msg: dict) -> None:
        game, version = msg.get("game"), msg.get("version")
        if isinstance(game, str) and isinstance(version, int) and game in self.hub.games:
            self._call(self.hub.changed_elsewhere, game, version)

    def _reconnected(self) -> None:
        """Back after a lost connection: the watched games that changed meanwhile (the
        database's revision is not this process's copy's) are announced at their version."""
        watched = {gid: live for gid, live in list(self.hub.games.items()) if live.listeners}
        try:
            heads = self.store.heads(list(watched))
        except Exception:  # noqa: BLE001 - the store is unavailable again: tell every socket to refresh
            heads = {gid: (live.version, None) for gid, live in watched.items()}
        for gid, (version, revision) in heads.items():
            if revision is None or revision != watched[gid].revision:
                self._call(self.hub.changed_elsewhere, gid, version)

    def _call(self, fn, *args) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # the loop closed meanwhile (shutdown)
                pass
