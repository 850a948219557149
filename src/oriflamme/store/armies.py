"""Saved armies (the army builder), per owner.

The app has no accounts. An **owner** is a random token the server mints
(:meth:`Armies.new_owner`, 256 bits) and the browser keeps (``localStorage``) and sends with each
request (header ``X-Owner``); the database keeps only its SHA-256. An army belongs to one owner:
another token neither lists nor reads, changes or deletes it (the store answers "no such army",
so that an id leaks nothing). Whoever holds the token is the owner: it is a capability, like a
seat link (docs/guerres-fleuries/army-builder.md § Who owns an army).

The store keeps what the ruleset's validation said (``valid``, ``total_points``); the caller
computes it (:meth:`oriflamme.core.ruleset.Ruleset.validate_army`), never the client.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

from .db import VersionConflict, token_hash


@dataclass
class StoredArmy:
    id: str
    ruleset: str
    name: str
    army: dict
    valid: bool
    total_points: int | None
    created_at: float
    updated_at: float
    version: int = 0

    def summary(self) -> dict:
        return {"id": self.id, "ruleset": self.ruleset, "name": self.name, "valid": self.valid,
                "total_points": self.total_points, "created_at": self.created_at, "updated_at": self.updated_at,
                "version": self.version}


class Armies:
    """The armies table of a :class:`~oriflamme.store.db.Store` (same connection and lock)."""

    def __init__(self, store):
        self.store = store
        self.conn = store.conn
        self._lock = store._lock

    def new_owner(self) -> str:
        token = secrets.token_hex(32)
        with self.store.using("armies"):
            self.conn.execute("INSERT INTO owners VALUES (?, ?)", (token_hash(token), time.time()))
        return token

    def is_owner(self, token: str) -> bool:
        with self.store.using("armies"):
            return self.conn.execute("SELECT 1 FROM owners WHERE token_hash = ?",
                                     (token_hash(token),)).fetchone() is not None

    def create(self, owner: str, ruleset: str, army: dict, valid: bool, total_points: int | None) -> StoredArmy:
        now = time.time()
        army_id = secrets.token_urlsafe(9)
        with self.store.using("armies"):
            self.conn.execute(
                "INSERT INTO armies (id, owner_hash, ruleset, name, army_json, valid, total_points, created_at, updated_at) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                (army_id, token_hash(owner), ruleset, str(army.get("name", "")), json.dumps(army, ensure_ascii=False),
                 int(bool(valid)), total_points, now, now))
        return self.get(owner, army_id)

    def update(self, owner: str, army_id: str, army: dict, valid: bool, total_points: int | None,
               version: int | None = None) -> StoredArmy | None:
        """Replace the army; None when the owner has no such army. With ``version``, only if the
        stored army is at that version (else :class:`VersionConflict`); each update counts one."""
        extra, args = (" AND version = ?", (version,)) if version is not None else ("", ())
        with self.store.using("armies"):
            cur = self.conn.execute(
                "UPDATE armies SET name = ?, army_json = ?, valid = ?, total_points = ?, updated_at = ?, "
                "version = version + 1 WHERE id = ? AND owner_hash = ?" + extra,
                (str(army.get("name", "")), json.dumps(army, ensure_ascii=False), int(bool(valid)), total_points,
                 time.time(), army_id, token_hash(owner)) + args)
        if cur.rowcount == 1:
            return self.get(owner, army_id)
        return self._conflict(owner, army_id, version)

    def _conflict(self, owner: str, army_id: str, version: int | None):
        """After a write that changed nothing: None (no such army) or VersionConflict."""
        current = self.get(owner, army_id)
        if current is None:
            return None
        raise VersionConflict(f"the army is at version {current.version}, not {version}: reload it")

    def get(self, owner: str, army_id: str) -> StoredArmy | None:
        with self.store.using("armies"):
            r = self.conn.execute("SELECT * FROM armies WHERE id = ? AND owner_hash = ?",
                                  (army_id, token_hash(owner))).fetchone()
        if r is None:
            return None
        return StoredArmy(id=r["id"], ruleset=r["ruleset"], name=r["name"], army=json.loads(r["army_json"]),
                          valid=bool(r["valid"]), total_points=r["total_points"], created_at=r["created_at"],
                          updated_at=r["updated_at"], version=r["version"])

    def list(self, owner: str, ruleset: str | None = None, limit: int = 200) -> list[dict]:
        sql = ("SELECT id, ruleset, name, valid, total_points, created_at, updated_at, version FROM armies "
               "WHERE owner_hash = ?"
               + (" AND ruleset = ?" if ruleset else "") + " ORDER BY updated_at DESC LIMIT ?")
        args = (token_hash(owner), ruleset, limit) if ruleset else (token_hash(owner), limit)
        with self.store.using("armies"):
            rows = self.conn.execute(sql, args).fetchall()
        return [dict(r, valid=bool(r["valid"])) for r in rows]

    def delete(self, owner: str, army_id: str, version: int | None = None) -> bool:
        """Delete the army: False when the owner has no such army; VersionConflict when
        ``version`` is given and not the stored one."""
        extra, args = (" AND version = ?", (version,)) if version is not None else ("", ())
        with self.store.using("armies"):
            cur = self.conn.execute("DELETE FROM armies WHERE id = ? AND owner_hash = ?" + extra,
                                    (army_id, token_hash(owner)) + args)
        if cur.rowcount == 1:
            return True
        self._conflict(owner, army_id, version)
        return False
