#!/usr/bin/env bash
# Set up Oriflamme in ./.venv (idempotent: re-installs only when pyproject.toml changed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "setup: Python 3.11 or newer is needed (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat .venv/.oriflamme-stamp 2>/dev/null || true)" != "$stamp" ] || ! .venv/bin/python -c 'import oriflamme' 2>/dev/null; then
  echo "setup: installing Oriflamme and its pinned dependencies into .venv …" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  echo "$stamp" > .venv/.oriflamme-stamp
fi
