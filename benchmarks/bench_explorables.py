"""How fast the explorables respond: the live update (one engine call plus the figure update)
and the static grid precomputed at book-build time. Prints figures; asserts nothing.

Target (issues): a live update under 100 ms at the size the chapter's live
dashboard uses.
"""

from __future__ import annotations

import time

from flashlab.cell import read_retry, vth_distributions
from flashlab.presets import QLC_3D
from flashlab.viz.cell import program_a_page, program_disturb_window, pulse_a_cell
from flashlab.viz.database import (benchmark_mix, flush_page_size, redo_block_size, scan_parallelism,
                                   smart_flash_logging, temp_tablespace)
from flashlab.viz.drives import pick_drive
from flashlab.viz.explorable import apply
from flashlab.viz.ftl import fill_without_gc, hot_cold_skew, step_a_device, trim_churn, wa_vs_op, wear_levelling
from flashlab.viz.levels import bake_test, bits_per_cell, ecc_strength, gentle_programming_trade, read_points, wear
from flashlab.viz.tech import rtn_tails
from flashlab.viz.ssd import fast_pages, preconditioning_curve, read_behind, tail_latency, write_cache

TARGET_MS = 100.0

#: (name, factory) of each chapter's live dashboards, at the size the chapter uses live.
LIVE = [
    ("ch1 pulse a cell", pulse_a_cell),
    ("ch1 program a page (100k cells)", lambda: program_a_page(n_cells=100_000)),
    ("ch2 bits per cell", bits_per_cell),
    ("ch2 read points (TLC)", read_points),
    ("ch3 wear (TLC)", wear),
    ("ch3 ECC strength", ecc_strength),
    ("ch3 eMLC trade", gentle_programming_trade),
    ("ch3 bake test", bake_test),
    ("ch3 program disturb (20k cells)", program_disturb_window),
    ("ch4 RTN tails", rtn_tails),
    ("ftl step a device (5 x 10 pages)", step_a_device),
    ("gc fill without GC (256 x 32)", fill_without_gc),
    ("gc WA vs op (1024 x 32)", lambda: wa_vs_op(blocks=1024)),
    ("gc hot/cold skew (512 x 32)", lambda: hot_cold_skew(blocks=512)),
    ("gc wear levelling (256 x 32)", wear_levelling),
    ("gc TRIM churn (1024 x 32)", trim_churn),
    ("cliff PTS curve (64 MiB, 4 fills)", preconditioning_curve),
    ("cliff tail latency (64 MiB, 3 fills)", tail_latency),
    ("cliff read behind an erase", read_behind),
    ("cliff fast-page steering (64 MiB)", fast_pages),
    ("cliff write cache (64 MiB, 3 fills)", write_cache),
    ("db rwmixread vs streams (128 MiB)", benchmark_mix),
    ("db scan time vs DOP (48 MiB, 5 scans)", scan_parallelism),
    ("db redo block size (48 MiB, 2 x 300 commits)", redo_block_size),
    ("db temp tablespace (the F20 and a disk)", temp_tablespace),
    ("db flush and page size (400 writes)", flush_page_size),
    ("db smart flash logging (2 x 2000 commits)", smart_flash_logging),
    ("drives pick a drive (2,000 requests)", pick_drive),
]


def _live_update_ms(ex, repeats: int = 5) -> float:
    """Median time (ms) of compute + apply over settings cycling through the live values."""
    _, targets = ex.figure(ex.compute(**ex.defaults()))  # compiles kernels, warms caches
    times = []
    for i in range(repeats):
        params = {c.name: c.live_values[(i * 3 + 1) % len(c.live_values)] for c in ex.controls}
        t0 = time.perf_counter()
        apply(targets, ex.compute(**params))
        times.append((time.perf_counter() - t0) * 1e3)
    return sorted(times)[len(times) // 2]


def _analytic_read_retry_ms(repeats: int = 20) -> float:
    """Mean time (ms) of the analytic path behind the cell sliders: QLC distributions after 1000
    P/E cycles, a year and 10**4 reads, then a read-retry search (was a timed test)."""
    read_retry(vth_distributions(QLC_3D.vth, 1000, 365, 1e4))  # warm up
    t0 = time.perf_counter()
    for _ in range(repeats):
        read_retry(vth_distributions(QLC_3D.vth, 1000, 365, 1e4))
    return (time.perf_counter() - t0) / repeats * 1e3


def main(only: str = "") -> None:
    """Every explorable, or those whose name contains ``only`` (``python bench_explorables.py db``)."""
    ms = _analytic_read_retry_ms()
    print(f"{'analytic read-retry (QLC, one point)':36s} {ms:17.1f} {ms / TARGET_MS:9.2f}x")
    print(f"{'explorable':36s} {'live update (ms)':>17s} {'of target':>10s} {'static grid':>14s}")
    for name, factory in LIVE:
        if only not in name:
            continue
        ex = factory()
        ms = _live_update_ms(ex)
        t0 = time.perf_counter()
        st = ex.static()
        grid_s = time.perf_counter() - t0
        print(f"{name:36s} {ms:17.1f} {ms / TARGET_MS:9.2f}x {grid_s:8.1f} s/{st.grid_size:3d} pts")


if __name__ == "__main__":
    import sys

    main(" ".join(sys.argv[1:]))
