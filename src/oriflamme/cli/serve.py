"""``oriflamme serve``: the web app (FastAPI + uvicorn) with its embedded SQLite database."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def register(sub) -> None:
    from ..store.db import default_db_path
    DEFAULT_DB = default_db_path()
    p = sub.add_parser("serve", help="start the web app (hot-seat and online games in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"SQLite database file, created on first run (default {DEFAULT_DB}; or set ORIFLAMME_DB)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args) -> int:
    import uvicorn

    from ..store import Store, StoreError
    from ..web.app import create_app

    db = Path(args.db).expanduser()
    try:
        app = create_app(db)
    except (OSError, StoreError, Exception) as exc:  # sqlite3 errors included
        print(f"serve: cannot open the database {db}: {exc}", file=sys.stderr)
        return 2
    print(f"Oriflamme: open http://{args.host}:{args.port}/  (database {db})", flush=True)
    # no access log: WebSocket URLs carry seat tokens, which must never be written to a log
    uvicorn.run(app, host=args.host, port=args.port, log_level=os.environ.get("ORIFLAMME_LOG", "warning"),
                access_log=False)
    return 0
