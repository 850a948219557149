"""Persistence (SQLite): games, seats, action logs. See :mod:`oriflamme.store.db`."""

from .db import DIGEST_VERSION, MIGRATIONS, Store, StoreError, StoredGame, StoreUnavailable, VersionConflict, default_db_path, token_hash

__all__ = ["DIGEST_VERSION", "MIGRATIONS", "Store", "StoreError", "StoredGame", "StoreUnavailable", "VersionConflict", "token_hash", "default_db_path"]
