"""Persistence: games, seats, action logs, armies, in SQLite (the embedded default,
:mod:`oriflamme.store.db`) or PostgreSQL (:mod:`oriflamme.store.postgres`, for several server
processes). :func:`open_store` picks by the target (a file or a ``postgresql://`` URL)."""

from .db import (DIGEST_VERSION, MIGRATIONS, GameHead, Store, StoredAction, StoreError, StoredGame, StoreUnavailable,
                 VersionConflict, default_db_path, open_store, token_hash)

__all__ = ["DIGEST_VERSION", "MIGRATIONS", "GameHead", "Store", "StoredAction", "StoreError", "StoredGame",
           "StoreUnavailable", "VersionConflict", "token_hash", "default_db_path", "open_store"]
