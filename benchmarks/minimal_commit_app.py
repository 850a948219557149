"""The yardstick of ``bench_scale_out.py``: a minimal FastAPI app whose one endpoint makes one
database commit per request (insert a row), on SQLite (WAL, ``synchronous=FULL``, as the
store) or PostgreSQL (psycopg, autocommit: one transaction per INSERT). What an Oriflamme
action costs above this is the rules work, the views and the store's checks.

Run: ``python benchmarks/minimal_commit_app.py PORT DATABASE`` (a SQLite file or a
``postgresql://`` URL).
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time

import uvicorn
from fastapi import FastAPI, Request


def create(db: str) -> FastAPI:
    lock = threading.Lock()
    if db.startswith("postgresql://"):
        import psycopg
        conn = psycopg.connect(db, autocommit=True)
        conn.execute("CREATE TABLE IF NOT EXISTS hits (id BIGSERIAL PRIMARY KEY, at DOUBLE PRECISION, body TEXT)")

        def commit(body: str) -> None:
            with lock:
                conn.execute("INSERT INTO hits (at, body) VALUES (%s, %s)", (time.time(), body))
    else:
        conn = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY, at REAL, body TEXT)")

        def commit(body: str) -> None:
            with lock:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO hits (at, body) VALUES (?, ?)", (time.time(), body))
                conn.execute("COMMIT")

    app = FastAPI()

    @app.get("/ping")
    def ping():
        return {"ok": True}

    @app.post("/commit")
    async def post(request: Request):
        body = (await request.body()).decode()
        import anyio.to_thread
        await anyio.to_thread.run_sync(commit, body)
        return {"ok": True}

    return app


if __name__ == "__main__":
    uvicorn.run(create(sys.argv[2]), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
