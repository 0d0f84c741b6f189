"""Flushed writes: what making each write durable costs a drive with a DRAM write cache.

A database makes a write durable with a flush after it (``fsync``, a commit) or a FUA write.
The drive acknowledges a write when it is in its DRAM cache; its NAND page (4 to 16 KiB) is
programmed when the page is full. A flush must put every cached write on NAND: without
power-loss protection the drive pads the partly filled page and programs it, so a 4 KiB write
flushed alone on a 16 KiB page costs four slots of flash writes; with capacitors the cache
survives a power cut and the flush is a no-op (an SSD engineer, "Why SSDs 'lie' about flush",
2023). :func:`flushed_writes` times a host that writes sequentially (a log, a journal) and
flushes after every ``flush_every``-th write, on a fresh drive.

Times in microseconds, sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_seed
from flashlab.db._host import drive, latency_summary
from flashlab.ssd import OP_FLUSH, HostLoad, IoResult, simulate_io
from flashlab.workload import Workload


@dataclass(frozen=True)
class FlushResult:
    """Outcome of :func:`flushed_writes`. ``flash_write_factor``: slots programmed (padding
    included) per slot written. Latency summaries (p50, p99, p99.9, max, mean; us):
    ``write_latency``, arrival to acknowledgement of each write; ``commit_latency``, arrival of
    a write to the end of the flush after it (what a committing session waits; writes after the
    last flush are left out); ``nand_latency``, arrival of a write to its data on NAND (writes
    still in the cache at the end are left out). ``writes_per_s``: writes completed per second
    over the run. ``run``: the engine's :class:`flashlab.ssd.IoResult` (e.g. for
    :meth:`~flashlab.ssd.IoResult.power_loss`)."""

    flash_write_factor: float
    write_latency: dict
    commit_latency: dict
    nand_latency: dict
    writes_per_s: float
    run: IoResult


def flushed_writes(config=None, *, flush_every: int = 1, write_size: int = 4096, qd: int = 1, writes: int = 400,
                   seed: int = 0) -> FlushResult:
    """Time ``writes`` sequential writes of ``write_size`` bytes with a flush after every
    ``flush_every``-th (0: no flushes) at queue depth ``qd`` on a fresh drive.

    ``config``: SsdConfig (default ``SsdConfig()``; its ``cache_bytes``,
    ``power_loss_protection`` and ``nand_page_size`` are what this measures); ``flush_every``
    0..2**20; ``write_size`` a multiple of the drive's page size; ``qd`` 1..1024 (flushes count
    towards it); ``writes`` 1..10**6."""
    config = drive(config)
    check_seed("seed", seed)
    flush_every = check_int("flush_every", flush_every, 0, 2**20)
    qd = check_int("qd", qd, 1, 1024)
    writes = check_int("writes", writes, 1, 10**6)
    load = HostLoad(qd=qd, workload=Workload(pattern="sequential"), write_size=write_size, flush_every=flush_every)
    partial = (config.slots - 1) * config.geometry.page_size  # the rest of a partly filled NAND page
    if 0 < config.cache_bytes < write_size + partial or write_size > config.geometry.user_pages * config.geometry.page_size:
        raise ValueError(f"write_size must fit the drive's cache ({config.cache_bytes} bytes, beside {partial} bytes "
                         f"of a partly filled NAND page) and capacity; got {write_size}")
    run = simulate_io(config, load, requests=writes, seed=seed, samples=1)
    if run.stalled:
        raise RuntimeError(f"the drive did not finish the writes: {run.stall_reason}")
    w = np.flatnonzero(run.op != OP_FLUSH)
    f = np.flatnonzero(run.op == OP_FLUSH)
    nxt = np.searchsorted(f, w)  # the first flush issued after each write
    has = nxt < f.size
    commit = run.done_us[f[nxt[has]]] - run.arrival_us[w[has]]
    nand = run.durable_us[w] - run.arrival_us[w]
    span = float(np.nanmax(run.done_us[w]) - run.arrival_us.min())
    return FlushResult(flash_write_factor=run.flash_write_factor, write_latency=latency_summary(run.latency_us[w]),
                       commit_latency=latency_summary(commit), nand_latency=latency_summary(nand[np.isfinite(nand)]),
                       writes_per_s=w.size / span * 1e6 if span > 0 else math.nan, run=run)
