"""A throw-away PostgreSQL server for the tests and the benchmarks, made with the machine's own
``postgres`` binaries (Debian's ``postgresql`` package: ``scripts/setup.sh`` installs it when
missing). Nothing is downloaded.

:func:`find_binaries` looks in ``$ORIFLAMME_PG_BIN``, the ``PATH`` and
``/usr/lib/postgresql/<version>/bin``; :class:`PgServer` runs ``initdb`` then ``postgres`` in a
temporary folder, on a free port of 127.0.0.1, trusting local connections. PostgreSQL refuses
to run as root: under root, the server runs as the ``postgres`` user (else ``nobody``) through
``setpriv``. :func:`why_not` says, in one sentence, why no server can be had here (the tests
skip with it; ``ORIFLAMME_NO_POSTGRES=1`` skips them on purpose).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

NEEDED = ("initdb", "postgres")


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None."""
    candidates = []
    if os.environ.get("ORIFLAMME_PG_BIN"):
        candidates.append(Path(os.environ["ORIFLAMME_PG_BIN"]))
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(os.path.realpath(on_path)).parent)
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
                    reverse=True):
        candidates.append(Path(d))
    for c in candidates:
        if all((c / b).is_file() and os.access(c / b, os.X_OK) for b in NEEDED):
            return c
    return None


def _run_as() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix and the user that run the server (root: another user)."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        setpriv = shutil.which("setpriv")
        if setpriv:
            return [setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"], user
    return None, None


def why_not() -> str | None:
    """None when a server can be started here, else the reason."""
    if os.environ.get("ORIFLAMME_NO_POSTGRES"):
        return "ORIFLAMME_NO_POSTGRES is set"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e .)"
    if find_binaries() is None:
        return ("no PostgreSQL server binaries (initdb, postgres) found in $ORIFLAMME_PG_BIN, the PATH or "
                "/usr/lib/postgresql/*/bin: install Debian's postgresql package (scripts/setup.sh does, as root)")
    prefix, _user = _run_as()
    if prefix is None:
        return "running as root, and neither a 'postgres' nor a 'nobody' user (with setpriv) to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """A PostgreSQL server of its own (``start``/``stop``, or ``with``). ``durable=False``
    (the tests) switches fsync off; the benchmarks keep PostgreSQL's durable defaults."""

    def __init__(self, durable: bool = False, max_connections: int = 100):
        self.durable, self.max_connections = durable, max_connections
        self.bin = find_binaries()
        self.proc: subprocess.Popen | None = None
        self.dir: Path | None = None
        self.port = 0

    def __enter__(self) -> "PgServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        reason = why_not()
        if reason:
            raise RuntimeError(reason)
        prefix, user = _run_as()
        self.dir = Path(tempfile.mkdtemp(prefix="oriflamme-pg-"))
        data = self.dir / "data"
        data.mkdir()
        if user is not None:
            for p in (self.dir, data):
                os.chown(p, user.pw_uid, user.pw_gid)
        env = dict(os.environ, LC_ALL="C", LANG="C")
        subprocess.run(prefix + [str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                 "--encoding=UTF8", "--no-instructions"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=self.dir)
        self.port = free_port()
        settings = ["-c", "listen_addresses=127.0.0.1", "-p", str(self.port), "-k", str(self.dir),
                    "-c", f"max_connections={self.max_connections}", "-c", "shared_buffers=64MB"]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        self.log = open(self.dir / "server.log", "w+b")
        self.proc = subprocess.Popen(prefix + [str(self.bin / "postgres"), "-D", str(data)] + settings,
                                     stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=self.dir)
        import psycopg
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.log.seek(0)
                    tail = self.log.read()[-1500:].decode(errors="replace")
                    self.stop()
                    raise RuntimeError(f"PostgreSQL did not start: {tail}")
                time.sleep(0.1)

    def url(self, dbname: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self, prefix: str = "t") -> str:
        """A fresh, empty database; its URL."""
        import psycopg
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown (SIGTERM waits for clients)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None
        if getattr(self, "log", None):
            self.log.close()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


# --- pytest fixtures (imported by the test modules that use them) ----------------------------
try:
    import pytest
except ImportError:  # the benchmarks use the server without pytest
    pytest = None

if pytest is not None:
    @pytest.fixture(scope="session")
    def pg_server():
        """One throw-away PostgreSQL server for the session; skipped, with the reason, where
        none can be had."""
        reason = why_not()
        if reason:
            pytest.skip(f"PostgreSQL tests skipped: {reason}")
        server = PgServer()
        try:
            server.start()
        except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
            detail = getattr(exc, "stderr", None)
            pytest.skip(f"PostgreSQL tests skipped: the throw-away server did not start: {exc} "
                        f"{detail.decode(errors='replace')[-300:] if isinstance(detail, bytes) else ''}")
        yield server
        server.stop()

    @pytest.fixture(params=["sqlite", "postgresql"])
    def database(request, tmp_path):
        """A fresh database of each kind: a SQLite file, or a new database (URL) on the
        session's PostgreSQL server."""
        if request.param == "sqlite":
            return tmp_path / "games.sqlite3"
        return request.getfixturevalue("pg_server").new_database()
