"""Persistence (SQLite): games, seats, action logs. See :mod:`oriflamme.store.db`."""

from .db import MIGRATIONS, Store, StoreError, StoredGame, VersionConflict, default_db_path, token_hash

__all__ = ["MIGRATIONS", "Store", "StoreError", "StoredGame", "VersionConflict", "token_hash", "default_db_path"]
