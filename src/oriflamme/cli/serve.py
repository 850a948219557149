"""``oriflamme serve``: the web app (FastAPI + uvicorn) with its embedded SQLite database, or on
PostgreSQL (``--db postgresql://…``), where several processes may serve the same games."""

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
                   help=f"SQLite database file, created on first run (default {DEFAULT_DB}; or set ORIFLAMME_DB), "
                        "or a PostgreSQL URL postgresql://user:password@host:port/database (several server "
                        "processes may share it)")
    lim = p.add_argument_group("limits (per client = per IP address; 0 = no limit; docs/api.md)")
    lim.add_argument("--requests-per-second", type=float, default=None, metavar="N",
                     help="requests a client may make each second, sustained (default 30, bursts of 300)")
    lim.add_argument("--games-per-hour", type=int, default=None, metavar="N",
                     help="games a client may create in an hour (default 60)")
    lim.add_argument("--sockets-per-game", type=int, default=None, metavar="N",
                     help="live connections (WebSockets) on one game (default 8)")
    lim.add_argument("--idle-minutes", type=float, default=None, metavar="N",
                     help="minutes after which an unused game leaves memory; reloaded on demand (default 15)")
    hooks = p.add_argument_group("turn notifications by webhook (docs/api.md § Notifications)")
    hooks.add_argument("--no-webhooks", action="store_true", help="refuse webhooks at game creation")
    hooks.add_argument("--webhook-private-ok", action="store_true",
                       help="allow webhooks to loopback/private addresses (a club's LAN); refused by default")
    p.set_defaults(func=cmd_serve)


def limits_from(args):
    """The server's :class:`~oriflamme.web.limits.Limits` from the command's options."""
    import dataclasses

    from ..web.limits import Limits
    given = {"requests_per_second": args.requests_per_second, "games_per_hour": args.games_per_hour,
             "sockets_per_game": args.sockets_per_game,
             "idle_seconds": None if args.idle_minutes is None else args.idle_minutes * 60}
    for name, value in given.items():
        if value is not None and value < 0:
            raise ValueError(f"--{name.replace('_', '-')}: must be 0 (no limit) or more")
    chosen = {k: v for k, v in given.items() if v is not None}
    if getattr(args, "no_webhooks", False):
        chosen["webhooks"] = False
    if getattr(args, "webhook_private_ok", False):
        chosen["webhook_private_ok"] = True
    return dataclasses.replace(Limits(), **chosen)


def cmd_serve(args) -> int:
    import uvicorn

    from ..store import StoreError
    from ..web.app import create_app

    is_url = args.db.startswith(("postgresql://", "postgres://"))
    db = args.db if is_url else Path(args.db).expanduser()
    try:
        limits = limits_from(args)
    except ValueError as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 2
    try:
        app = create_app(db, limits=limits)
    except (OSError, StoreError, Exception) as exc:  # sqlite3 errors included
        print(f"serve: cannot open the database {_shown(db)}: {exc}", file=sys.stderr)
        return 2
    # the rules work runs in worker threads (web/hub.py); a shorter interpreter switch interval
    # than the default 5 ms hands the event loop back sooner, so quick requests stay quick
    sys.setswitchinterval(0.001)
    print(f"Oriflamme: open http://{args.host}:{args.port}/  (database {_shown(db)})", flush=True)
    # no access log; and at any log level, seat tokens in URLs (a WebSocket's ?seat=) are
    # redacted from uvicorn's records (web/security.py)
    uvicorn.run(app, host=args.host, port=args.port, log_level=os.environ.get("ORIFLAMME_LOG", "warning"),
                access_log=False)
    return 0


def _shown(db) -> str:
    """The database as printed: a URL without its password."""
    text = str(db)
    if "://" in text and "@" in text.split("://", 1)[1]:
        scheme, rest = text.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        if ":" in cred:
            text = f"{scheme}://{cred.split(':', 1)[0]}:***@{host}"
    return text
