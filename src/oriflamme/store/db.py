"""Storage of games (SQLite here; PostgreSQL in :mod:`oriflamme.store.postgres`, same class
with another connection and dialect): their ruleset, scenario, secret dice seed, seats and the
append-only list of actions.

The seed is the game's secret (:mod:`oriflamme.core.dice`): a text of 64 hex digits kept in
the TEXT column ``secret`` (an INTEGER column would turn an all-digit hex string into a
number). Games stored before secret dice keep their integer ``seed`` (``secret`` NULL), and
their digests were computed the old way (``digest_version`` 1: ``Ruleset.legacy_digest``).

The record of a game is its actions: the state is rebuilt by replaying them (and checked
against the digest stored with each action). An action is committed (``synchronous=FULL``,
one transaction) before the server acknowledges it, so killing the server loses nothing that
was acknowledged.

Schema migrations are versioned: :data:`MIGRATIONS` lists (version, SQL) in order; a database
records the versions applied in ``schema_migrations`` and gets the missing ones on open.
PostgreSQL has its own list with the same versions (:data:`oriflamme.store.postgres.MIGRATIONS`).

Several server processes may share one database (PostgreSQL): every change to a game bumps
its ``revision`` (migration 7), and a write names the revision it was computed from, so a
process holding an out-of-date copy is refused (:class:`VersionConflict`) instead of writing
over another's action; :meth:`Store.changes_since` lets it catch up. ``truncated_at`` is the
revision of the game's last undo: a copy older than it must be replayed from the start.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MIGRATIONS: list[tuple[int, str]] = [
    (1, """
        CREATE TABLE games (
            id            TEXT PRIMARY KEY,
            created_at    REAL NOT NULL,
            updated_at    REAL NOT NULL,
            scenario_id   TEXT NOT NULL,
            scenario_json TEXT NOT NULL,
            seed          INTEGER NOT NULL,
            mode          TEXT NOT NULL CHECK (mode IN ('hotseat', 'online')),
            version       INTEGER NOT NULL DEFAULT 0,
            status        TEXT NOT NULL DEFAULT 'playing',
            winner        TEXT
        );
        CREATE TABLE seats (
            game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            side       TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            PRIMARY KEY (game_id, side)
        );
        CREATE TABLE actions (
            game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            side        TEXT NOT NULL,
            action_json TEXT NOT NULL,
            digest      TEXT NOT NULL,
            created_at  REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
    """),
    (2, """
        ALTER TABLE games ADD COLUMN undo_requested_by TEXT;
        ALTER TABLE games ADD COLUMN undo_version INTEGER;
    """),
    # the ruleset seam: the ruleset of each game (old rows are Magna Carta), the secret seed as
    # text, and how the stored digests were computed (1: with the seed, before the seam)
    (3, """
        ALTER TABLE games ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'magna-carta';
        ALTER TABLE games ADD COLUMN secret TEXT;
        ALTER TABLE games ADD COLUMN digest_version INTEGER NOT NULL DEFAULT 1;
    """),
    # the army builder: owners (the app has no accounts: an owner is a token the server mints
    # and the browser keeps; only its hash is stored) and their saved armies
    # (oriflamme.store.armies, docs/guerres-fleuries/army-builder.md)
    (4, """
        CREATE TABLE owners (
            token_hash TEXT PRIMARY KEY,
            created_at REAL NOT NULL
        );
        CREATE TABLE armies (
            id           TEXT PRIMARY KEY,
            owner_hash   TEXT NOT NULL REFERENCES owners(token_hash) ON DELETE CASCADE,
            ruleset      TEXT NOT NULL,
            name         TEXT NOT NULL DEFAULT '',
            army_json    TEXT NOT NULL,
            valid        INTEGER NOT NULL CHECK (valid IN (0, 1)),
            total_points INTEGER,
            created_at   REAL NOT NULL,
            updated_at   REAL NOT NULL
        );
        CREATE INDEX armies_by_owner ON armies (owner_hash, updated_at);
    """),
    # computer players (issue 14): the seats the server plays, and at what level
    (5, """
        CREATE TABLE bots (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            side    TEXT NOT NULL,
            level   TEXT NOT NULL,
            PRIMARY KEY (game_id, side)
        );
    """),
    # the lobby (issue 15): the seats of an online game left open for anyone to join, and the
    # webhook told when it is a human side's turn (oriflamme.web.notify)
    (6, """
        CREATE TABLE open_seats (
            game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            side       TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, side)
        );
        CREATE INDEX open_seats_by_age ON open_seats (created_at);
        CREATE TABLE webhooks (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            url     TEXT NOT NULL
        );
    """),
    # scale-out (issue 15): every change bumps the revision; truncated_at is the revision of the
    # last undo (a copy older than it replays the game from the start)
    (7, """
        ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN truncated_at INTEGER NOT NULL DEFAULT 0;
    """),
    # a saved army's version (issue 15: every state-changing request names the version it was
    # made from; a change of an older version is refused, never applied over a newer one)
    (8, """
        ALTER TABLE armies ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    """),
]

#: how the digests of new games are computed (``Ruleset.digest``, without the seed)
DIGEST_VERSION = 2


def default_db_path() -> Path | str:
    """``$ORIFLAMME_DB`` (a file, or a ``postgresql://`` URL, kept as text) or
    ``~/.local/share/oriflamme/oriflamme.sqlite3``."""
    env = os.environ.get("ORIFLAMME_DB")
    if env and env.startswith(("postgresql://", "postgres://")):
        return env
    return Path(env) if env else Path.home() / ".local" / "share" / "oriflamme" / "oriflamme.sqlite3"


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Another action was committed first (the client's view, or the process's copy, is stale)."""


class StoreUnavailable(StoreError):
    """The database cannot be read or written (read-only or full disk, I/O error, locked past
    the busy timeout, the PostgreSQL server gone). ``cause`` is the database's own message, for the server's log; nothing was
    committed."""

    def __init__(self, doing: str, cause: BaseException):
        self.doing, self.cause = doing, cause
        super().__init__(f"{doing}: {type(cause).__name__}: {cause}")


log = logging.getLogger("oriflamme.store")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredGame:
    id: str
    scenario_id: str
    scenario: dict
    seed: int | str      # the secret: never put it in a view
    mode: str
    version: int
    status: str
    winner: str | None
    created_at: float
    updated_at: float
    undo_requested_by: str | None
    undo_version: int | None
    actions: list[dict]
    digests: list[str]
    sides_of_actions: list[str]
    ruleset: str = "magna-carta"
    digest_version: int = DIGEST_VERSION
    bots: dict = None  # side -> level of the seats the server plays (None: none)
    revision: int = 0       # bumped by every change (actions, undo, undo requests)
    truncated_at: int = 0   # the revision of the last undo


@dataclass(frozen=True)
class GameHead:
    """A game's row without its actions: enough to tell whether a copy is current."""
    version: int
    revision: int
    truncated_at: int
    status: str
    winner: str | None
    undo_requested_by: str | None
    undo_version: int | None


@dataclass(frozen=True)
class StoredAction:
    seq: int
    side: str
    action: dict
    digest: str


def open_store(target: str | Path) -> "Store":
    """The store at ``target``: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite
    file (``:memory:`` included)."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore
        return PostgresStore(text)
    return Store(Path(text).expanduser() if text != ":memory:" else text)


class Store:
    """The games (and armies) in one database. This class speaks SQLite;
    :class:`oriflamme.store.postgres.PostgresStore` changes only the connection, the dialect
    and the notifications."""

    dialect = "sqlite"
    #: the driver's errors (they become :class:`StoreUnavailable`)
    errors: tuple = (sqlite3.Error,)

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self.conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("PRAGMA busy_timeout = 5000")
        self.migrate()

    # --- transactions ----------------------------------------------------------------------
    @contextmanager
    def _transaction(self, doing: str):
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``). On failure it is rolled
        back and the *first* error is raised: a ``ROLLBACK`` that fails in turn (SQLite may
        already have rolled back after a full disk) is logged, never raised over it. SQLite's
        errors become :class:`StoreUnavailable`."""
        with self._transaction_as(doing, self._begin_write):
            yield self.conn

    _begin_write = "BEGIN IMMEDIATE"
    #: a read of several statements that must agree (one snapshot)
    _begin_snapshot = "BEGIN"

    @contextmanager
    def _transaction_as(self, doing: str, begin: str):
        with self._lock:
            try:
                self._ensure_connected()
                self.conn.execute(begin)
            except self.errors as exc:
                raise StoreUnavailable(doing, exc) from exc
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException as exc:
                try:
                    self.conn.execute("ROLLBACK")
                except self.errors as rb:
                    log.warning("store: ROLLBACK after a failed %s failed too (%s); the first error was %s",
                                doing, rb, exc)
                if isinstance(exc, self.errors):
                    raise StoreUnavailable(doing, exc) from exc
                raise

    def _ensure_connected(self) -> None:
        """Reconnect after a lost connection (PostgreSQL); SQLite's file never goes away."""

    def _notify(self, conn, game_id: str, version: int, revision: int) -> None:
        """Tell the other server processes that a game changed (PostgreSQL ``NOTIFY``, sent
        when the transaction commits). SQLite has no other process to tell."""

    @contextmanager
    def _reading(self, doing: str):
        """Statements outside a transaction of ours (reads, single autocommitted writes),
        under the store's lock; SQLite's errors become :class:`StoreUnavailable`."""
        with self._lock:
            try:
                self._ensure_connected()
                yield self.conn
            except self.errors as exc:
                raise StoreUnavailable(doing, exc) from exc

    def using(self, doing: str):
        """:meth:`_reading` for the store's other tables (``store/armies.py``)."""
        return self._reading(doing)

    # --- schema ----------------------------------------------------------------------------
    def schema_version(self) -> int:
        with self._lock:
            self.conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
            row = self.conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
            return row[0] or 0

    def migrate(self) -> list[int]:
        applied = []
        with self._lock:
            current = self.schema_version()
            for version, sql in MIGRATIONS:
                if version <= current:
                    continue
                with self._transaction(f"migration {version}") as conn:
                    self._apply_migration(conn, version, sql)
                applied.append(version)
        return applied

    @staticmethod
    def _apply_migration(conn, version: int, sql: str) -> None:
        """Run one migration's statements and record its version (inside the caller's transaction)."""
        for stmt in (s.strip() for s in sql.split(";")):
            if stmt:
                conn.execute(stmt)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (version, time.time()))

    # --- games -----------------------------------------------------------------------------
    def create_game(self, game_id: str, scenario_id: str, scenario: dict, seed: int | str, mode: str,
                    seats: dict[str, str], ruleset: str = "magna-carta", bots: dict[str, str] | None = None,
                    open_sides: tuple[str, ...] = (), webhook: str | None = None) -> None:
        """Store a new game. A text seed (the server's secret) goes to the TEXT column
        ``secret``; an integer one (a hot-seat game's chosen seed) to ``seed``. ``open_sides``
        are seats without a token yet, listed in the lobby until someone joins
        (:meth:`claim_seat`)."""
        now = time.time()
        int_seed, secret = (seed, None) if isinstance(seed, int) else (0, str(seed))
        with self._transaction("create a game") as conn:
            conn.execute(
                "INSERT INTO games (id, created_at, updated_at, scenario_id, scenario_json, seed, secret, mode, ruleset, "
                "digest_version) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (game_id, now, now, scenario_id, json.dumps(scenario, ensure_ascii=False), int_seed, secret, mode,
                 ruleset, DIGEST_VERSION))
            for side, token in seats.items():
                conn.execute("INSERT INTO seats VALUES (?,?,?)", (game_id, side, token_hash(token)))
            for side, level in (bots or {}).items():
                conn.execute("INSERT INTO bots VALUES (?,?,?)", (game_id, side, level))
            for side in open_sides:
                conn.execute("INSERT INTO open_seats VALUES (?,?,?)", (game_id, side, now))
            if webhook:
                conn.execute("INSERT INTO webhooks VALUES (?,?)", (game_id, webhook))

    # --- the lobby ---------------------------------------------------------------------------
    def open_games(self, limit: int = 50) -> list[dict]:
        """Games still playing with a seat open, newest first: id, ruleset, scenario, the open
        side, when it was opened."""
        with self._reading("list the open games") as conn:
            rows = conn.execute(
                "SELECT g.id, g.ruleset, g.scenario_id, o.side, o.created_at, g.version FROM open_seats o "
                "JOIN games g ON g.id = o.game_id WHERE g.status = 'playing' "
                "ORDER BY o.created_at DESC LIMIT ?", (limit,)).fetchall()
        return [dict(r) for r in rows]

    def open_sides(self, game_id: str) -> list[str]:
        with self._reading("read a game's open seats") as conn:
            return [r[0] for r in conn.execute("SELECT side FROM open_seats WHERE game_id = ? ORDER BY side",
                                               (game_id,)).fetchall()]

    def claim_seat(self, game_id: str, side: str, token: str) -> int | None:
        """Give the open seat ``side`` of a game the seat ``token``, in one transaction: the
        game's new revision when this call took it (the other server processes are told, as
        for an action), None when it was not (or no longer) open."""
        with self._transaction("join a game") as conn:
            cur = conn.execute("DELETE FROM open_seats WHERE game_id = ? AND side = ?", (game_id, side))
            if cur.rowcount != 1:
                return None
            conn.execute("INSERT INTO seats VALUES (?,?,?)", (game_id, side, token_hash(token)))
            row = conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ? RETURNING revision, version",
                               (game_id,)).fetchone()
            self._notify(conn, game_id, row[1], row[0])
        return row[0]

    def webhook_of(self, game_id: str) -> str | None:
        with self._reading("read a game's webhook") as conn:
            row = conn.execute("SELECT url FROM webhooks WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def seat_of(self, game_id: str, token: str) -> str | None:
        with self._reading("check a seat") as conn:
            row = conn.execute("SELECT side FROM seats WHERE game_id = ? AND token_hash = ?",
                                    (game_id, token_hash(token))).fetchone()
        return row[0] if row else None

    def exists(self, game_id: str) -> bool:
        with self._reading("look a game up") as conn:
            return conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def load(self, game_id: str) -> StoredGame | None:
        with self._transaction_as("load a game", self._begin_snapshot) as conn:  # the row and its actions agree
            g = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if g is None:
                return None
            rows = conn.execute("SELECT seq, side, action_json, digest FROM actions WHERE game_id = ? ORDER BY seq",
                                     (game_id,)).fetchall()
            bots = {r["side"]: r["level"] for r in
                    conn.execute("SELECT side, level FROM bots WHERE game_id = ?", (game_id,)).fetchall()}
        return StoredGame(
            id=g["id"], scenario_id=g["scenario_id"], scenario=json.loads(g["scenario_json"]),
            seed=g["secret"] if g["secret"] is not None else g["seed"],
            mode=g["mode"], version=g["version"], status=g["status"], winner=g["winner"],
            created_at=g["created_at"], updated_at=g["updated_at"],
            undo_requested_by=g["undo_requested_by"], undo_version=g["undo_version"],
            actions=[json.loads(r["action_json"]) for r in rows], digests=[r["digest"] for r in rows],
            sides_of_actions=[r["side"] for r in rows],
            ruleset=g["ruleset"], digest_version=g["digest_version"], bots=bots,
            revision=g["revision"], truncated_at=g["truncated_at"],
        )

    def changes_since(self, game_id: str, version: int) -> tuple[GameHead, list[StoredAction]] | None:
        """The game's head and its actions after ``version``, read in one snapshot (None: no
        such game). A process whose copy has ``version`` actions and a revision of at least
        ``truncated_at`` catches up by applying them."""
        with self._transaction_as("read a game's changes", self._begin_snapshot) as conn:
            g = conn.execute("SELECT version, revision, truncated_at, status, winner, undo_requested_by, undo_version "
                             "FROM games WHERE id = ?", (game_id,)).fetchone()
            if g is None:
                return None
            rows = conn.execute("SELECT seq, side, action_json, digest FROM actions WHERE game_id = ? AND seq > ? "
                                "ORDER BY seq", (game_id, version)).fetchall() if g["version"] > version else []
        head = GameHead(version=g["version"], revision=g["revision"], truncated_at=g["truncated_at"],
                        status=g["status"], winner=g["winner"], undo_requested_by=g["undo_requested_by"],
                        undo_version=g["undo_version"])
        return head, [StoredAction(r["seq"], r["side"], json.loads(r["action_json"]), r["digest"]) for r in rows]

    def heads(self, game_ids: list[str]) -> dict[str, tuple[int, int]]:
        """game id -> (version, revision) of the games among ``game_ids`` (one read)."""
        if not game_ids:
            return {}
        with self._reading("look games up") as conn:
            rows = conn.execute(f"SELECT id, version, revision FROM games WHERE id IN ({', '.join('?' * len(game_ids))})",
                                tuple(game_ids)).fetchall()
        return {r[0]: (r[1], r[2]) for r in rows}

    def revision_of(self, game_id: str) -> int | None:
        """The game's revision (None: no such game): one indexed read."""
        with self._reading("look a game up") as conn:
            row = conn.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def list_games(self, limit: int = 50) -> list[dict]:
        with self._reading("list games") as conn:
            rows = conn.execute("SELECT id, ruleset, scenario_id, mode, version, status, winner, updated_at FROM games "
                                     "ORDER BY updated_at DESC LIMIT ?", (limit,)).fetchall()
        return [dict(r) for r in rows]

    @staticmethod
    def _expecting(revision: int | None) -> tuple[str, tuple]:
        return ("", ()) if revision is None else (" AND revision = ?", (revision,))

    def append_action(self, game_id: str, seq: int, side: str, action: dict, digest: str,
                      status: str, winner: str | None, revision: int | None = None) -> int:
        """Commit action number ``seq`` (1-based), in one transaction with its version check:
        fails with VersionConflict if ``seq - 1`` is not the stored version (or, when given,
        ``revision`` not the stored revision: the caller's copy is out of date). Returns the
        game's new revision."""
        now = time.time()
        extra, args = self._expecting(revision)
        with self._transaction("record an action") as conn:
            row = conn.execute(
                "UPDATE games SET version = ?, updated_at = ?, status = ?, winner = ?, undo_requested_by = NULL, "
                "undo_version = NULL, revision = revision + 1 WHERE id = ? AND version = ?" + extra + " RETURNING revision",
                (seq, now, status, winner, game_id, seq - 1) + args).fetchone()
            if row is None:
                raise VersionConflict(f"game {game_id} is not at version {seq - 1}")
            conn.execute("INSERT INTO actions VALUES (?,?,?,?,?,?)",
                         (game_id, seq, side, json.dumps(action, ensure_ascii=False), digest, now))
            self._notify(conn, game_id, seq, row[0])
        return row[0]

    def truncate(self, game_id: str, version: int, status: str = "playing", winner: str | None = None,
                 revision: int | None = None) -> int:
        """Drop the actions after ``version`` (an accepted undo); VersionConflict if
        ``revision`` is given and not the stored one. Returns the new revision."""
        extra, args = self._expecting(revision)
        with self._transaction("undo an action") as conn:
            row = conn.execute("UPDATE games SET version = ?, updated_at = ?, status = ?, winner = ?, "
                               "undo_requested_by = NULL, undo_version = NULL, revision = revision + 1, "
                               "truncated_at = revision + 1 WHERE id = ?" + extra + " RETURNING revision",
                               (version, time.time(), status, winner, game_id) + args).fetchone()
            if row is None:
                raise VersionConflict(f"game {game_id} changed meanwhile")
            conn.execute("DELETE FROM actions WHERE game_id = ? AND seq > ?", (game_id, version))
            self._notify(conn, game_id, version, row[0])
        return row[0]

    def set_undo_request(self, game_id: str, side: str | None, version: int | None,
                         revision: int | None = None) -> int:
        """Record (or clear) an undo request; VersionConflict if ``revision`` is given and not
        the stored one. Returns the new revision."""
        extra, args = self._expecting(revision)
        with self._transaction("record an undo request") as conn:
            row = conn.execute("UPDATE games SET undo_requested_by = ?, undo_version = ?, revision = revision + 1 "
                               "WHERE id = ?" + extra + " RETURNING revision, version",
                               (side, version, game_id) + args).fetchone()
            if row is None:
                raise VersionConflict(f"game {game_id} changed meanwhile")
            self._notify(conn, game_id, row[1], row[0])
        return row[0]

    # --- armies (the army builder; see oriflamme.store.armies) ----------------------------------
    @property
    def armies(self):
        from .armies import Armies
        return Armies(self)

    def close(self) -> None:
        with self._lock:
            self.conn.close()
