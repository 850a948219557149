"""The store on PostgreSQL (``oriflamme serve --db postgresql://…``): the same
:class:`~oriflamme.store.db.Store`, with a psycopg connection, PostgreSQL's own migrations, and
a notification per change of a game so that every server process tells its WebSockets.

Several server processes (on one machine or several) may share the database: it is the only
source of truth. An action is accepted by one transaction that checks the game's version and
revision (:meth:`Store.append_action`); the transaction also sends ``NOTIFY oriflamme`` with
``{"game", "version", "revision", "origin"}``, delivered to the listening processes when it
commits (:meth:`PostgresStore.listen`; ``origin`` lets a process skip its own).

Migrations: :data:`MIGRATIONS` has the versions of the SQLite list
(:data:`oriflamme.store.db.MIGRATIONS`), in PostgreSQL's dialect (:func:`dialect`:
``DOUBLE PRECISION`` times, PostgreSQL's ``REAL`` being a 4-byte float), or a text of its own
where a version needs one (:data:`OWN_TEXT`). A process applies the missing ones on open, under an
advisory lock, so that processes starting together migrate once.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
import time
from typing import Callable

import psycopg

from .db import MIGRATIONS as SQLITE_MIGRATIONS
from .db import Store, StoreUnavailable

log = logging.getLogger("oriflamme.store")

#: the notification channel
CHANNEL = "oriflamme"
#: the advisory lock key held while migrating (any constant of our own)
MIGRATION_LOCK = 0x0F1F1A33E

#: migrations whose SQLite text does not translate (:func:`dialect`): version -> PostgreSQL's text
OWN_TEXT: dict[int, str] = {}


def dialect(sqlite_sql: str) -> str:
    """A SQLite migration in PostgreSQL's words: ``REAL`` (a timestamp) is PostgreSQL's 8-byte
    ``DOUBLE PRECISION`` (its ``REAL`` has 4 bytes: a second's precision is lost). The rest of
    the store's DDL (``TEXT``, ``INTEGER``, ``CHECK``, ``REFERENCES … ON DELETE CASCADE``,
    ``ALTER TABLE … ADD COLUMN … DEFAULT``, ``CREATE INDEX``) means the same in both."""
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sqlite_sql)


#: the versions of :data:`oriflamme.store.db.MIGRATIONS`, in PostgreSQL's dialect
MIGRATIONS: list[tuple[int, str]] = [(v, OWN_TEXT.get(v) or dialect(sql)) for v, sql in SQLITE_MIGRATIONS]


class _Row:
    """A result row read by position or by column name, and ``dict(row)`` (like
    :class:`sqlite3.Row`, which the store's code was written for)."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: tuple, values: tuple):
        self._names, self._values = names, values

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._values[key]
        try:
            return self._values[self._names.index(key)]
        except ValueError:
            raise KeyError(key) from None

    def keys(self):
        return self._names

    def __len__(self):
        return len(self._values)


def _rows(cursor):
    names = tuple(d.name for d in cursor.description) if cursor.description else ()
    return lambda values: _Row(names, values)


class _Connection:
    """A psycopg connection that takes the store's SQL as written for SQLite: ``?``
    placeholders (there is no ``?`` nor ``%`` in the store's statements otherwise) and
    ``BEGIN IMMEDIATE``.

    A lost connection (a PostgreSQL restart, a network cut) is reopened, and the statement
    sent again, when that is safe: a ``BEGIN`` or a ``SELECT`` outside a transaction. Anything
    else fails (the store answers :class:`StoreUnavailable`) and the next use reconnects."""

    def __init__(self, url: str):
        self.url = url
        self.raw = psycopg.connect(url, autocommit=True, row_factory=_rows)
        self._sql: dict[str, str] = {}
        self.in_transaction = False

    def execute(self, sql: str, params=()):
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = "BEGIN" if sql == "BEGIN IMMEDIATE" else sql.replace("?", "%s")
        if text.startswith("BEGIN"):
            self.in_transaction = True
        elif text in ("COMMIT", "ROLLBACK"):
            self.in_transaction = False
        try:
            return self.raw.execute(text, params or None)
        except psycopg.OperationalError:
            retry = self.closed and (text.startswith("BEGIN") or (text.startswith("SELECT") and not self.in_transaction))
            if not retry:
                if self.closed:
                    self.in_transaction = False
                raise
            log.warning("store: the PostgreSQL connection was lost; reconnecting")
            self.reopen()
            return self.raw.execute(text, params or None)

    def reopen(self) -> None:
        try:
            self.raw.close()
        except psycopg.Error:
            pass
        self.raw = psycopg.connect(self.url, autocommit=True, row_factory=_rows)
        self.in_transaction = False

    @property
    def closed(self) -> bool:
        return self.raw.closed or self.raw.broken

    def close(self) -> None:
        self.raw.close()


class PostgresStore(Store):
    """:class:`Store` on a PostgreSQL database (``url``: ``postgresql://user@host:port/db``)."""

    dialect = "postgresql"
    errors = (psycopg.Error,)
    _begin_write = "BEGIN"
    _begin_snapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    def __init__(self, url: str):
        self.path = self.url = url
        #: this process's mark in its notifications (it skips its own)
        self.origin = secrets.token_hex(8)
        self._lock = threading.RLock()
        try:
            self.conn = _Connection(url)
        except psycopg.Error as exc:
            raise StoreUnavailable("connect to PostgreSQL", exc) from exc
        self.migrate()

    def _ensure_connected(self) -> None:
        if self.conn.closed:
            log.warning("store: the PostgreSQL connection was lost; reconnecting")
            self.conn.reopen()  # the same object: the armies' table holds it too

    def _notify(self, conn, game_id: str, version: int, revision: int) -> None:
        conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(
            {"game": game_id, "version": version, "revision": revision, "origin": self.origin})))

    # --- schema ----------------------------------------------------------------------------
    def schema_version(self) -> int:
        with self._reading("read the schema version") as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                         "applied_at DOUBLE PRECISION)")
            return conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0

    def migrate(self) -> list[int]:
        """The missing migrations, in one transaction under an advisory lock (processes
        starting together: the first migrates, the others wait and find nothing to do)."""
        applied = []
        with self._transaction("migrate the database") as conn:
            conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                         "applied_at DOUBLE PRECISION)")
            current = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0
            for version, sql in MIGRATIONS:
                if version > current:
                    self._apply_migration(conn, version, sql)
                    applied.append(version)
        return applied

    # --- notifications -----------------------------------------------------------------------
    def listen(self, deliver: Callable[[dict], None], stop: threading.Event,
               reconnected: Callable[[], None] | None = None, poll: float = 0.5) -> None:
        """Deliver every other process's change notification (a dict: ``game``, ``version``,
        ``revision``) until ``stop`` is set; meant for a thread of its own, with a connection of
        its own. A lost connection is retried every second; once back, ``reconnected()`` is
        called (notifications may have been missed meanwhile)."""
        lost = False
        while not stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if lost and reconnected is not None:
                        reconnected()
                    lost = False
                    while not stop.is_set():
                        for n in conn.notifies(timeout=poll):
                            try:
                                msg = json.loads(n.payload)
                            except ValueError:
                                continue
                            if isinstance(msg, dict) and msg.get("origin") != self.origin:
                                deliver(msg)
            except psycopg.Error as exc:
                if not stop.is_set():
                    if not lost:
                        log.warning("store: the notification listener lost PostgreSQL (%s); retrying", exc)
                    lost = True
                    stop.wait(1.0)

    def close(self) -> None:
        with self._lock:
            self.conn.close()
