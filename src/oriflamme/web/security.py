"""Security headers on every response, and seat tokens kept out of every log.

* Headers: a Content-Security-Policy that lets the pages run only their own scripts and styles
  (no inline script, no ``eval``; the game page's WebSocket goes to the same host),
  ``frame-ancestors 'none'`` (and ``X-Frame-Options: DENY`` for old browsers) so no other site
  frames the game, ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff``. The
  OpenAPI page (``/api/docs``) loads Swagger UI from its CDN with an inline script, so it gets
  a policy allowing exactly that.
* Logs: a WebSocket's URL carries its seat token (``?seat=``; a browser cannot set headers on a
  WebSocket), and uvicorn logs that URL at level ``info``. :class:`RedactTokens` rewrites every
  record of the server's loggers, whatever the level, replacing the token with ``[redacted]``.
"""

from __future__ import annotations

import logging
import re

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}
DOCS_PATHS = ("/api/docs",)


def security_headers(path: str) -> dict[str, str]:
    """The headers every response to ``path`` carries."""
    return {"Content-Security-Policy": DOCS_CSP if path.startswith(DOCS_PATHS) else CSP, **HEADERS}


# --- logs -----------------------------------------------------------------------------------
TOKEN = re.compile(r"((?:[?&]|\b)seat=)[^&\s\"']+", re.IGNORECASE)
HEADER = re.compile(r"((?:x-seat|x-owner)['\"]?\s*[:,]\s*b?['\"]?)[A-Za-z0-9_\-]+", re.IGNORECASE)
REDACTED = "[redacted]"
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "fastapi", "oriflamme")


def redact(text: str) -> str:
    """``text`` with the seat tokens of query strings (``seat=…``) and headers (``X-Seat``, and
    the army owners' ``X-Owner``) hidden."""
    return HEADER.sub(r"\1" + REDACTED, TOKEN.sub(r"\1" + REDACTED, text))


class RedactTokens(logging.Filter):
    """Rewrites a log record so that no seat token reaches a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error path
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


_FILTER = RedactTokens()


def install_log_redaction() -> None:
    """Put :class:`RedactTokens` on the server's loggers and on their handlers (a filter on a
    logger does not see its children's records; one on a handler does). Idempotent; run again
    after uvicorn configures its logging."""
    for name in LOGGERS:
        lg = logging.getLogger(name)
        if _FILTER not in lg.filters:
            lg.addFilter(_FILTER)
        for h in lg.handlers:
            if _FILTER not in h.filters:
                h.addFilter(_FILTER)
    for h in logging.getLogger().handlers:
        if _FILTER not in h.filters:
            h.addFilter(_FILTER)
