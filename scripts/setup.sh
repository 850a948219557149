#!/usr/bin/env bash
# Set up Oriflamme in ./.venv (idempotent: re-installs only when pyproject.toml changed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "setup: Python 3.11 or newer is needed (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi
# Browser tests drive Debian's chromium (never a downloaded browser). Installed when we can.
if [ ! -x /usr/bin/chromium ] && [ "${ORIFLAMME_NO_BROWSER:-}" = "" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian's chromium for the browser tests …" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "setup: could not install chromium; the browser tests will be skipped" >&2
  else
    echo "setup: /usr/bin/chromium not found (apt-get install chromium); the browser tests will be skipped" >&2
  fi
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
