"""End-to-end tests of the browser client: a real `oriflamme serve` process, Debian's chromium
driven by Playwright (sync API).

* Skipped, with the reason, where /usr/bin/chromium is absent (never `playwright install`:
  the machines running this suite may be offline).
* Screenshots go to `test-artifacts/` (git-ignored).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

# the browser tests share helpers (test_client.open_game, view …): this folder is importable
sys.path.insert(0, str(Path(__file__).parent))

CHROMIUM = Path(os.environ.get("ORIFLAMME_E2E_CHROMIUM", "/usr/bin/chromium"))   # Debian's package
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

try:  # the suite must still be collectable where Playwright is not installed
    import playwright  # noqa: F401
    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover
    HAVE_PLAYWRIGHT = False


def pytest_collection_modifyitems(config, items):
    reason = None
    if not HAVE_PLAYWRIGHT:
        reason = "Playwright for Python is not installed (pip install -e '.[test]')"
    elif not CHROMIUM.exists():
        reason = f"{CHROMIUM} is absent (apt-get install chromium); the e2e tests drive Debian's chromium"
    if reason is None:
        return
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.skip(reason=reason))


# --- pytest-playwright configuration ----------------------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1366, "height": 768}, "locale": "en-GB"}


# --- the server --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _oriflamme_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "oriflamme"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("oriflamme")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from oriflamme.cli.main import main; sys.exit(main())"]


class Server:
    """An `oriflamme serve` subprocess on a free port and a database file; `kill()` is kill -9,
    `restart()` starts a new process on the same port and database."""

    def __init__(self, db: Path, port: int | None = None):
        self.db = Path(db)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = self.db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> "Server":
        env = dict(os.environ, ORIFLAMME_LOG="warning")
        self._logf = open(self.log, "ab")
        # no request-rate limit: some tests drive whole games through the API as fast as they can
        self.proc = subprocess.Popen(_oriflamme_cmd() + ["serve", "--port", str(self.port), "--db", str(self.db),
                                                         "--requests-per-second", "0"],
                                     stdout=self._logf, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"oriflamme serve exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/scenarios", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"oriflamme serve did not answer on {self.url}: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """kill -9: no shutdown handler runs (what survives is what was committed)."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        if getattr(self, "_logf", None):
            self._logf.close()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "_logf", None):
            self._logf.close()

    def restart(self) -> "Server":
        self.kill()
        return self.start()

    # --- a tiny JSON client (the tests drive earlier steps through the API) -------------------
    def call(self, method: str, path: str, body=None, token: str | None = None, expect: int | None = None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["X-Seat"] = token
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                status, payload = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        try:
            out = json.loads(payload)
        except ValueError:
            out = payload.decode()
        if expect is not None:
            assert status == expect, (status, out)
        return status, out


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("server") / "e2e.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture
def server_factory(tmp_path):
    """Private servers (for the tests that kill theirs)."""
    made: list[Server] = []

    def make() -> Server:
        s = Server(tmp_path / f"own-{len(made)}.sqlite3").start()
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()


@pytest.fixture
def fixture_server(tmp_path):
    """An in-process server with the contract suite's fixture ruleset registered (no ``static/``
    folder, no ``web_module``): what a new ruleset gets before it has a browser module."""
    import threading

    import uvicorn

    from fixtures.hidden_duel import HiddenDuel
    from oriflamme.core import registry
    from oriflamme.web.app import create_app

    rs = registry.register(HiddenDuel())
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(tmp_path / "duel.sqlite3"), host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        th.join(0.05)
    yield f"http://127.0.0.1:{port}", rs
    srv.should_exit = True
    th.join(10)
    registry.unregister(rs.id)


@pytest.fixture
def app_server(tmp_path):
    """An in-process server (the web app in a thread) on a free port and a fresh database: its URL."""
    import threading

    import uvicorn

    from oriflamme.web.app import create_app

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(tmp_path / "app.sqlite3"), host="127.0.0.1", port=port,
                                        log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        th.join(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(10)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def page(page):
    page.set_default_timeout(10_000)
    # assertions wait as long as actions: a loaded 2-core machine (a benchmark beside the suite) took
    # more than Playwright's 5 s to render a Guerres Fleuries orders card once
    from playwright.sync_api import expect  # here: the suite is skipped where Playwright is missing
    expect.set_options(timeout=10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    # every test starts in English
    page.add_init_script("try { if (!sessionStorage.getItem('e2e-lang-set')) { localStorage.setItem('oriflamme.lang', 'en'); sessionStorage.setItem('e2e-lang-set', '1'); } } catch (e) {}")
    yield page
    assert not errors, f"JavaScript errors in the page: {errors}"
