"""Run the four benchmarks one after the other with ``--quick`` (a smoke run: about 30 s).

Run: ``.venv/bin/python benchmarks/run_all.py`` (add ``--full`` for the full runs, ~3 min).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ("bench_reachable.py", "bench_legal_actions.py", "bench_playouts.py", "bench_riders.py")


def main() -> int:
    full = "--full" in sys.argv[1:]
    flags = [] if full else ["--quick"]
    failed = []
    t_all = time.perf_counter()
    for name in SCRIPTS:
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, str(HERE / name), *flags], cwd=HERE.parent)
        print(f"-- {name} {' '.join(flags)}: exit {rc}, {time.perf_counter() - t0:.1f} s wall\n", flush=True)
        if rc:
            failed.append(name)
    print(f"all done in {time.perf_counter() - t_all:.1f} s" + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
