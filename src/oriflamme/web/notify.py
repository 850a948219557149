"""Turn notifications by webhook: a game created with ``"webhook": URL`` gets a JSON ``POST``
at that URL each time a human side becomes the side to act (docs/api.md § Notifications).

What is sent names the game, the side to act and the path of the game's page; never a seat
token (a webhook is a stranger's server: it may not play). The posts leave from a small pool
of threads, never from the event loop or under a game's lock; a slow or failing receiver is
logged and forgotten (the game never waits for it). A server that must not reach arbitrary
addresses turns webhooks off (``Limits.webhooks``), and by default a webhook may not point at a
loopback, private or link-local address (``Limits.webhook_private_ok`` allows it, e.g. a club's
own chat bridge on its LAN).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

log = logging.getLogger("oriflamme.notify")

MAX_URL = 512          # characters of a webhook URL
TIMEOUT = 5.0          # seconds a receiver gets to answer


class BadWebhook(ValueError):
    """A webhook URL the server will not use, with the reason."""


def check_url(url: str) -> str:
    """The URL if it is a usable webhook (http or https, a host, at most :data:`MAX_URL`
    characters), else :class:`BadWebhook` saying why."""
    if not isinstance(url, str) or not url:
        raise BadWebhook("expected an http:// or https:// URL")
    if len(url) > MAX_URL:
        raise BadWebhook(f"longer than {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise BadWebhook(f"scheme {parts.scheme or '(none)'!r}: only http and https are sent to")
    if not parts.hostname:
        raise BadWebhook("no host")
    if parts.username or parts.password:
        raise BadWebhook("credentials in the URL are not accepted (put a secret in its path instead)")
    return url


def _private(host: str) -> bool:
    """Whether ``host`` resolves to a loopback, private, link-local or reserved address."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False  # unresolvable: the post fails and is logged
    for info in infos:
        addr = ipaddress.ip_address(info[4][0].split("%")[0])
        if addr.is_loopback or addr.is_private or addr.is_link_local or addr.is_reserved or addr.is_multicast:
            return True
    return False


class Notifier:
    """Posts turn notifications in the background (``send`` returns at once)."""

    def __init__(self, private_ok: bool = False, workers: int = 2):
        self.private_ok = private_ok
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="oriflamme-webhook")
        self.sent: list[tuple[str, dict, str]] = []  # (url, payload, result) of the latest posts, for tests

    def send(self, url: str, payload: dict):
        return self._pool.submit(self._post, url, payload)

    def _post(self, url: str, payload: dict) -> str:
        host = urlsplit(url).hostname or ""
        if not self.private_ok and _private(host):
            result = "refused: a private address (Limits.webhook_private_ok)"
        else:
            req = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "User-Agent": "oriflamme-webhook"})
            try:
                with urllib.request.urlopen(req, timeout=TIMEOUT) as res:  # noqa: S310 - scheme checked
                    result = f"HTTP {res.status}"
            except urllib.error.HTTPError as exc:
                result = f"HTTP {exc.code}"
            except (OSError, ValueError) as exc:
                result = f"failed: {exc}"
        if not result.startswith("HTTP 2"):
            log.warning("webhook for game %s to %s: %s", payload.get("game"), host, result)
        self.sent.append((url, payload, result))
        del self.sent[:-50]
        return result

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
