"""Direct-path full table scans: ``dop`` parallel query servers, each reading its granule of the
table in multiblock reads of ``multiblock`` database blocks (``db_file_multiblock_read_count``).

Model: the table is written first (sequentially); it is cut into ``dop`` contiguous granules,
one per server, and each server reads its granule in order. The requests of all servers are
interleaved round robin and issued by a closed loop keeping ``dop x slots`` outstanding, so
each server has about ``slots`` asynchronous reads in flight (Oracle's direct path reads fill a
number of I/O slots and wait when all are busy; the CPU a server spends per block is left out). A read of
``multiblock x block_size`` bytes stripes over the drive's units, so a large read already works
many units at once; small serial reads leave most of them idle. Nate Fuzi's guest post on
flashdba measured a 125 GB table (8 KiB blocks) at DBMRC 4, 8, 16 and 128: with parallel 16 the
runs were within 2% of each other, serial runs with a small DBMRC about 3x slower.
Times in microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_real, check_seed
from flashlab.db._host import drive, latency_summary, region_pages, request_pages, run_filled


@dataclass(frozen=True)
class ScanResult:
    """Outcome of :func:`direct_path_scan`: ``elapsed_us`` (first read issued to last done; the
    first reads may wait behind the table's last program, at most one program time),
    ``reads`` (requests), ``table_bytes`` read, ``mb_s`` (bytes per microsecond) and the read
    ``latency`` summary (p50, p99, p99.9, mean, max in us)."""

    elapsed_us: float
    reads: int
    table_bytes: int
    mb_s: float
    latency: dict


def direct_path_scan(config=None, *, dop: int = 1, multiblock: int = 16, block_size: int = 8192,
                     slots: int = 1, table_fraction: float = 0.5, seed: int = 0) -> ScanResult:
    """Time one full scan of a table filling ``table_fraction`` of the drive's user capacity.

    ``dop``: parallel servers (1 = serial), 1..1024; ``slots``: reads in flight per server,
    1..64; ``multiblock``: blocks per read, 1..1024;
    ``block_size``: database block in bytes (``multiblock x block_size`` must be a multiple of
    the drive's page size); ``config``: SsdConfig (default ``SsdConfig()``)."""
    config = drive(config)
    check_seed("seed", seed)
    dop = check_int("dop", dop, 1, 1024)
    multiblock = check_int("multiblock", multiblock, 1, 1024)
    slots = check_int("slots", slots, 1, 64)
    block_size = check_int("block_size", block_size, 512, 2**20)
    table_fraction = check_real("table_fraction", table_fraction, 0.0, 1.0, lo_open=True)
    k = request_pages("multiblock x block_size", multiblock * block_size, config)
    table = region_pages(config, table_fraction)
    if k > table:
        raise ValueError(f"multiblock x block_size ({multiblock * block_size} bytes) must fit the table of "
                         f"table_fraction={table_fraction:g} ({table} pages)")
    n = table // k  # whole multiblock reads (the table is that many reads long)
    if dop > n:
        raise ValueError(f"dop must be at most the number of multiblock reads in the table ({n}, set by table_fraction "
                         f"and multiblock); got dop={dop}, table_fraction={table_fraction}, multiblock={multiblock}")
    bounds = np.linspace(0, n, dop + 1).round().astype(np.int64)  # granule s: reads [bounds[s], bounds[s+1])
    size = np.diff(bounds)
    step = np.arange(size.max())
    idx = bounds[:-1][None, :] + step[:, None]  # round robin: step-th read of each server in turn
    idx = idx[step[:, None] < size[None, :]]
    lba = idx.astype(np.int64) * k
    issue, done = run_filled(config, np.ones(n, np.int8), lba, np.full(n, k, np.int64), fill_pages=n * k,
                             qd=dop * slots, seed=seed)
    elapsed = float(done.max() - issue.min())
    nbytes = n * k * config.geometry.page_size
    return ScanResult(elapsed_us=elapsed, reads=int(n), table_bytes=nbytes, mb_s=nbytes / elapsed,
                      latency=latency_summary(done - issue))
