"""A real ``oriflamme serve`` process (uvicorn), for what an in-process client cannot show:
the WebSocket close codes a browser receives (a close before the handshake reaches it as a
bare HTTP 403), and the server's log at its most verbose level carrying no seat token."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("serve")
    port = free_port()
    log = open(d / "server.log", "w+")
    env = dict(os.environ, ORIFLAMME_LOG="trace")  # uvicorn's most verbose level
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from oriflamme.cli.main import main; sys.exit(main())",
                             "serve", "--port", str(port), "--db", str(d / "g.sqlite3")],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/api/rulesets", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("the server did not start: " + (d / "server.log").read_text()[-2000:])
    yield base, port, d / "server.log"
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


def post(base: str, path: str, body: dict, token: str | None = None, query: str = "") -> dict:
    req = urllib.request.Request(base + path + query, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **({"X-Seat": token} if token else {})})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def close_code(url: str) -> int:
    try:
        with connect(url, open_timeout=10) as ws:
            ws.recv(timeout=10)
            ws.recv(timeout=10)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else -1
    except InvalidStatus as exc:  # refused before the handshake: no close code at all
        return -exc.response.status_code
    return 0


def test_refused_websockets_get_the_documented_close_codes(server):
    base, port, _log = server
    g = post(base, "/api/games", {"scenario": "the-hill", "mode": "online"})
    ws = f"ws://127.0.0.1:{port}/api/games"
    assert close_code(f"{ws}/{g['id']}/ws?seat=forged") == 4403
    assert close_code(f"{ws}/{g['id']}/ws") == 4403
    assert close_code(f"{ws}/nosuchgame/ws?seat={g['seats']['A']}") == 4404


def test_no_seat_token_in_the_log_at_any_level(server):
    base, port, log = server
    g = post(base, "/api/games", {"scenario": "the-hill", "mode": "online"})
    tokens = list(g["seats"].values())
    a = g["seats"]["A"]
    with connect(f"ws://127.0.0.1:{port}/api/games/{g['id']}/ws?seat={a}", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        # a token in a query string, and one in the header, of plain requests too
        urllib.request.urlopen(f"{base}/api/games/{g['id']}?seat={a}", timeout=30).read()
        urllib.request.urlopen(urllib.request.Request(f"{base}/api/games/{g['id']}", headers={"X-Seat": g["seats"]["B"]}),
                               timeout=30).read()
        post(base, f"/api/games/{g['id']}/actions", {"action": {"type": "end_step"}, "version": 0},
             query=f"?seat={a}")
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
    time.sleep(0.5)
    text = log.read_text()
    assert "WebSocket" in text, "the log level did not take: the test would prove nothing"
    assert "[redacted]" in text
    for t in tokens:
        assert t not in text
