#!/usr/bin/env bash
# Set up (if needed) and start the main job: the web app, with its embedded SQLite database
# (created on first run). Open the printed address; the home page lists the bundled scenarios.
# Extra arguments go to `oriflamme serve` (e.g. --port 8080 --db ./games.sqlite3, or
# --db postgresql://user:password@host/database: several processes may share it).
set -euo pipefail
cd "$(dirname "$0")/.."
ORIFLAMME_NO_BROWSER=1 ORIFLAMME_NO_POSTGRES=1 ORIFLAMME_NO_CLUSTER=1 bash scripts/setup.sh  # the web app needs neither the browser, PostgreSQL nor Ray
exec .venv/bin/oriflamme serve "$@"
