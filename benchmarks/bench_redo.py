"""What one log write costs in :func:`flashlab.db.redo_log`'s step loop (the sessions and the log
writer in Python around ``Engine.step``), beside a baseline revision, in one run.

``python benchmarks/bench_redo.py [--baseline REV]`` extracts ``flashlab/`` at git revision REV
(default cbdd880, the last with the probe host I/Os: empty host I/Os that made the engine stop
at each data-file write's arrival) with ``git archive`` and runs the same cases there in a
subprocess (its numba cache under ``.cache/``: the first run compiles, minutes). Per case: the
median wall time of a run (ms) and per log write (us) and the commit p99.9 (the same on both
sides when the change is bit-identical). Chapter 11's cases: a plain and a
protected-cache drive (512 B redo block: the cache path steps up to each write's start), a disk
behind a controller cache with 60 data-file writes a second, alone and raced by flash (smart
flash logging), and without data-file writes. Prints the load average. Asserts nothing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bench_engine import ROOT, baseline_cases, run_cases

CASES = r"""
import json, time
from dataclasses import replace
from flashlab.db import redo_log
from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import SsdConfig, ssd_geometry

drive = SsdConfig(geometry=ssd_geometry(128 * 2**20, 0.25, pages_per_block=32))
disk = replace(CHEETAH_15K7, write_cache_bytes=2 * 2**20)
slc = replace(SsdConfig(geometry=ssd_geometry(64 * 2**20, 0.25, pages_per_block=32), timing="slc"),
              cache_bytes=4 * 2**20, power_loss_protection=True, cache_latency_us=100.0)
sfl = dict(sessions=16, commits=2000, redo_block=4096, think_us=400, disk_writes_per_s=60)
cases = {
    "drive, 512 B blocks": lambda: redo_log(drive, sessions=8, commits=2000, redo_block=512),
    "protected cache, 512 B": lambda: redo_log(replace(drive, cache_bytes=4 * 2**20, power_loss_protection=True),
                                               sessions=8, commits=2000, redo_block=512),
    "disk + 60 writes/s": lambda: redo_log(disk, **sfl),
    "disk and flash + 60 writes/s": lambda: redo_log(slc, mirror=disk, **sfl),
    "disk, no data-file writes": lambda: redo_log(disk, **{**sfl, "disk_writes_per_s": 0.0}),
}
out = {}
for name, run in cases.items():
    r = run()  # compiles or loads the kernels
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    out[name] = (sorted(times)[3], int(r.write_bytes.size), float(r.commit_latency["p99.9"]))
print(json.dumps(out))
"""


def main(rev: str = "cbdd880") -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores, shared)")
    base = baseline_cases(rev, CASES)
    new = run_cases(ROOT, Path(os.environ.get("NUMBA_CACHE_DIR", ROOT / ".cache" / "numba")), CASES)
    print(f"{'case':30s} {'writes':>6s} {'baseline ms':>11s} {'us/write':>8s} {'now ms':>8s} {'us/write':>8s} "
          f"{'p99.9 base/now (us)':>22s}")
    for name, (t, writes, p999) in new.items():
        tb, wb, pb = base[name]
        print(f"{name:30s} {writes:6d} {tb * 1e3:11.1f} {tb / wb * 1e6:8.1f} {t * 1e3:8.1f} {t / writes * 1e6:8.1f} "
              f"{pb:10.1f} / {p999:9.1f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[args.index("--baseline") + 1] if "--baseline" in args else "cbdd880")
