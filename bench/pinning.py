"""Every benchmark runs on one core: `one_core()` at the top of a bench's
`__main__` block starts the bench again under `taskset -c N` (N the last core
this process may use), so that the figures do not depend on where the
scheduler moves the process, and child processes (start-up timings, servers)
share that core as they would share a Pi's. Without `taskset` the bench runs
as it is and says so.

    if __name__ == "__main__":
        from pinning import one_core
        one_core()
        main()
"""

from __future__ import annotations

import os
import shutil
import sys

_PINNED = "CARDTABLE_BENCH_CORE"


def one_core() -> str:
    """Pin this bench to one core (re-executing it under taskset); returns a
    line saying where it runs, also printed."""
    core = os.environ.get(_PINNED)
    if core is None:
        taskset = shutil.which("taskset")
        if taskset is None or not hasattr(os, "sched_getaffinity"):
            line = "Bench not pinned to a core (no taskset on this machine)."
            print(line, flush=True)
            return line
        cpu = max(os.sched_getaffinity(0))
        env = dict(os.environ, **{_PINNED: str(cpu)})
        sys.stdout.flush()
        os.execve(taskset, [taskset, "-c", str(cpu), sys.executable, *sys.argv], env)
    line = f"Bench pinned to core {core} with taskset."
    print(line, flush=True)
    return line
