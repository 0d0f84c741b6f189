"""Fill the numba cache before the tests run: each kernel group compiled once, by one process.

Without it, both pytest-xdist workers reach the SSD engine at about the same time and each compiles
it cold (minutes of CPU, twice), then both write the same cache entries (numba has no lock: the
last index written wins, numba/numba#4807). Here the groups are split so that no kernel is
compiled by both: ``ssd`` (the SSD event engine, with the FTL and event-heap kernels it calls, the
FTL's own loop and the OLTP buffer pool, which share those) and ``cells`` (cell pulses and ISPP,
Monte Carlo reads, the LDPC decoder, electron injection, RAID layouts). ``make test`` runs the two groups side by
side (2 cores), for the plain cache and for the bounds-checked one (``NUMBA_BOUNDSCHECK=1``, its
own cache), before the test stages that read them. Each call is a small public-API call that
reaches the same kernel signature the tests and chapters use; a kernel left out is still compiled
by the first test that needs it, only not ahead of time.

    python tools/compile_kernels.py ssd|cells
"""

from __future__ import annotations

import os
import sys
import time

import numba
import numpy as np

os.environ["FLASHLAB_COMPILE_NOTICE"] = "0"  # this tool prints its own line per group


def ssd() -> None:
    from flashlab.db import oltp
    from flashlab.device import Geometry
    from flashlab.ftl import FtlConfig, simulate
    from flashlab.ssd import HostLoad, SlcCache, SsdConfig, run_members, simulate_io, ssd_geometry
    from flashlab.workload import FileChurn

    drive = SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16))
    simulate_io(drive, HostLoad(qd=4), requests=200, progress=False)  # closed loop
    # an SLC cache: its blocks leave the FTL's pool (ftl take_slc_blocks) before the run
    simulate_io(SsdConfig(geometry=ssd_geometry(2**26, 0.6, pages_per_block=48), timing="tlc",
                          slc=SlcCache(blocks_per_plane=1)), HostLoad(qd=4), requests=50, progress=False)
    rng = np.random.default_rng(2)
    n = 32
    run_members([drive, drive], (rng.random(n) < 0.3).astype(np.int8),
                rng.integers(0, drive.geometry.user_pages, n), np.ones(n, np.int64), np.arange(n) % 2,
                arrivals=np.cumsum(rng.exponential(100.0, n)))  # open loop, two members
    simulate(Geometry(blocks_per_plane=64, pages_per_block=16, op=0.2), FtlConfig(), fills=1.0, seed=1, progress=False)
    next(FileChurn(0.5, trim=False).chunks(100, seed=1, chunk_size=16))  # the file-system churn kernel
    oltp(accesses=500, blocks=400, buffers=50, seed=1)


def cells() -> None:
    from flashlab.array import Layout
    from flashlab.cell import (FG_CELL_2XNM, ISPE_2XNM, ISPP_SLC_2XNM, LdpcCode, apply_pulse, erase_block,
                               gaussian_read_point, ldpc_fer, program_cell, program_page, rber_monte_carlo,
                               soft_read_channel, vth_distributions)
    from flashlab.presets import TLC_1XNM
    from flashlab.tech.planar import electron_counts

    program_cell(FG_CELL_2XNM, ISPP_SLC_2XNM, vth0=-3.0)
    page = program_page(FG_CELL_2XNM, ISPP_SLC_2XNM, 1000, seed=1)
    apply_pulse(FG_CELL_2XNM, np.array([-3.0, -2.0]), 18.0, 10e-6)
    erase_block(FG_CELL_2XNM, page.vth, ISPE_2XNM, seed=1)
    rber_monte_carlo(vth_distributions(TLC_1XNM.vth, 0), 1000, seed=1)
    ldpc_fer(LdpcCode(3, 5, 7), soft_read_channel(*gaussian_read_point(1e-2), 2), 2, seed=1)
    electron_counts(100.0, 1000, seed=1, capacity=1000)
    layout = Layout(raid=5, drives=5, stripe_unit=8192, member_pages=16)
    lbas = np.array([0, 3])
    layout.locate(lbas)
    layout.plan(np.array([0, 1]), lbas, np.array([1, 2]), rebuild=True)


GROUPS = {"ssd": ssd, "cells": cells}


def main(names: list[str]) -> None:
    if not names or any(n not in GROUPS for n in names):
        sys.exit(f"usage: compile_kernels.py {'|'.join(GROUPS)} ...; got {names}")
    for name in names:
        start = time.process_time()
        GROUPS[name]()
        checked = " (bounds-checked)" if numba.config.BOUNDSCHECK else ""
        print(f"compiled kernel group {name}{checked} in {time.process_time() - start:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
