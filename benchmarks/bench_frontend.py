"""A datacenter-scale drive behind a host interface and controller, at its full random-read rate:
simulated I/Os per second of wall time, beside issue 26's target (one simulated second of a
1 M IOPS drive in under one second of wall time).

The drive: 8 channels x 8 dies x 4 planes (256 units), 16 KiB pages, 1,152-page blocks, a
1,200 MB/s NAND bus, PCIe Gen4 x4 and 8 controller cores of 4 us, scaled down to 64 GiB of user
data at op 0.5 (a handful of superblocks of 294,912 pages). 4 KiB-class random reads at queue
depth 512 (each a 16 KiB page here), so the link, at ~413,000 reads/s, is the limit. Prints the
wall time of the whole call and of its event loop alone (``run_events``), and the load average
(the machine may be shared). Asserts nothing (CONTRIBUTING.md).

    python benchmarks/bench_frontend.py [reads]
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time

import numpy as np

from flashlab.device import timing_preset
from flashlab.ssd import Controller, HostInterface, SsdConfig, run_members, ssd_geometry
from flashlab.ssd import _kernels as K


def main(argv) -> int:
    n = int(argv[1]) if len(argv) > 1 else 400_000
    nand = dataclasses.replace(timing_preset("tlc"), channel_mb_s=1200.0)
    geo = ssd_geometry(2**36, 0.5, channels=8, dies_per_channel=8, planes_per_die=4, pages_per_block=1152,
                       page_size=16384)
    cfg = SsdConfig(geometry=geo, timing=nand, host=HostInterface.pcie(4, 4),
                    controller=Controller(cores=8, command_us=4.0))
    rng = np.random.default_rng(1)
    args = ([cfg], np.ones(n, np.int8), rng.integers(0, geo.user_pages, n), np.ones(n, np.int64),
            np.zeros(n, np.int64))
    run_members(*args[:1], np.ones(8, np.int8), np.arange(8), np.ones(8, np.int64), np.zeros(8, np.int64))  # compile
    spent = [0.0]
    inner = K.run_events

    def timed(*a):
        t = time.perf_counter()
        out = inner(*a)
        spent[0] += time.perf_counter() - t
        return out

    K.run_events = timed
    try:
        t = time.perf_counter()
        r = run_members(*args, qd=512, precondition_fills=0.01, seed=1)
        wall = time.perf_counter() - t
    finally:
        K.run_events = inner
    sim_s = float(np.nanmax(r.done_us)) / 1e6
    print(f"{n:,} random reads: {sim_s:.3f} simulated s at {n / sim_s:,.0f} IOPS "
          f"(link limit {cfg.host.link_mb_s * 1e6 / 16384:,.0f})")
    print(f"wall {wall:.2f} s in all, {spent[0]:.2f} s in the event loop ({r.counters[0]['events']:,} events)")
    print(f"simulated I/Os per wall second: {n / wall:,.0f} in all, {n / spent[0]:,.0f} in the loop; "
          f"target: a 1 M IOPS drive's second in 1 s, 1,000,000")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
