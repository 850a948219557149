#!/usr/bin/env bash
# Set up Oriflamme in ./.venv (idempotent: re-installs only when pyproject.toml changed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "setup: Python 3.11 or newer is needed (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi
# Debian packages the tests use, installed when we can (root with apt-get), else the tests
# that need them are skipped with a message: apt_install PACKAGE "WHAT FOR".
apt_install() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian's $1 for $2 …" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null) \
      || echo "setup: could not install $1; $2 will be skipped" >&2
  else
    echo "setup: $1 not found (apt-get install $1); $2 will be skipped" >&2
  fi
}
# Browser tests drive Debian's chromium (never a downloaded browser).
if [ ! -x /usr/bin/chromium ] && [ "${ORIFLAMME_NO_BROWSER:-}" = "" ]; then
  apt_install chromium "the browser tests"
fi
# The PostgreSQL tests (and benchmarks/bench_scale_out.py) start a throw-away server with the
# machine's postgres binaries (Debian's postgresql package, never a download).
have_postgres() {
  command -v initdb >/dev/null 2>&1 && return 0
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && [ -x "$d/postgres" ] && return 0; done
  return 1
}
if [ "${ORIFLAMME_NO_POSTGRES:-}" = "" ] && ! have_postgres; then
  apt_install postgresql "the PostgreSQL tests"
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# The extras: `test`, and `cluster` (Ray, for `oriflamme simulate --ray` and its test against a
# local Ray instance: about 30 s and 370 MB the first time; ORIFLAMME_NO_CLUSTER=1 leaves it out
# and that test is then skipped).
extras=test
if [ "${ORIFLAMME_NO_CLUSTER:-}" = "" ]; then
  extras=test,cluster
fi
stamp=$( (cat pyproject.toml; echo "$extras") | sha256sum | cut -d' ' -f1)
if [ "$(cat .venv/.oriflamme-stamp 2>/dev/null || true)" != "$stamp" ] || ! .venv/bin/python -c 'import oriflamme' 2>/dev/null; then
  echo "setup: installing Oriflamme and its pinned dependencies ($extras) into .venv …" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]"
  echo "$stamp" > .venv/.oriflamme-stamp
fi
