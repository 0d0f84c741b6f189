"""Simulated I/Os per second of wall time for the PCIe Gen4 datacenter preset (Samsung PM9A3,
``flashlab.drives.PM9A3``) at its full random-read rate: one simulated second of 4 KiB random
reads at the validation's deep queue (900,000 reads at its 900,000 IOPS), on a written drive
scaled to the validation's blocks per plane (the rate does not depend on the scale).

Target (issue 26): one simulated second of a 1 M IOPS drive in under 1 s of wall time, i.e. a
ratio of simulated to wall time of at least 1. The first run compiles the engine (untimed
warm-up on a small run). Prints the load average (the machine may be shared). Asserts nothing
(CONTRIBUTING.md).

    python benchmarks/bench_drives.py [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from flashlab.drives import PM9A3
from flashlab.drives.validate import BLOCKS_PER_PLANE, DEEP_QD
from flashlab.ssd import run_members
from flashlab.workload import OP_READ


def reads(drive, n: int, seed: int = 0):
    config = drive.config(drive.scale_for(BLOCKS_PER_PLANE))
    user = config.geometry.user_pages
    rng = np.random.default_rng(seed)
    op = np.full(n, OP_READ, np.int8)
    t = time.perf_counter()
    res = run_members([config], op, rng.integers(0, user, n), np.ones(n, np.int64), np.zeros(n, np.int64),
                      qd=min(DEEP_QD, drive.host.max_qd), precondition_fills=1e-9, seed=seed)
    wall = time.perf_counter() - t
    return wall, (res.done_us.max() - res.arrival_us.min()) / 1e6, res.events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="simulated seconds at the datasheet rate")
    args = ap.parse_args()
    drive = PM9A3
    rate = drive.figure("random_read_iops").value
    reads(drive, 2000)  # compile, fill the FTL once
    t0 = time.perf_counter()
    reads(drive, 10)
    setup = time.perf_counter() - t0  # preparing the written drive (untimed FTL fill) and the engine
    n = int(rate * args.seconds)
    wall, sim_s, events = reads(drive, n)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{drive.name}: {n:,} random 4 KiB reads (datasheet {rate:,.0f} IOPS)")
    print(f"  simulated {sim_s:.3f} s ({n / sim_s:,.0f} IOPS) in {wall:.2f} s of wall time "
          f"(of which {setup:.2f} s preparing the written drive), {events / wall:,.0f} events/s")
    print(f"  simulated / wall time: {sim_s / wall:.2f} (target >= 1.00); "
          f"{n / wall:,.0f} simulated I/Os per wall second (target >= 1,000,000)")


if __name__ == "__main__":
    main()
