#!/usr/bin/env bash
# Set up (if needed) and start the main job: a hot-seat game of a bundled scenario in the terminal.
# Extra arguments go to `oriflamme play` (e.g. --b random to play against the computer).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/oriflamme play the-hill "$@"
