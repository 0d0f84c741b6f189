"""FTL memory: a 1 TiB drive of 4 KiB pages (2^28 physical pages) is built and run.

8 channels x 8 dies x 2 planes x 8192 blocks x 256 pages of 4 KiB = 2^28 pages = 1 TiB raw, op
0.07, greedy GC, default configuration. The run: a sequential fill of every LBA, then
``--drive-writes`` (default 0.2, past the point where garbage collection starts) of uniform
random single-page writes, fed to ``Ftl.run`` in chunks of 2^22. Prints the FTL state per
physical page (``Ftl.memory_bytes``, target <= 16 B), the process's peak RSS and the times.
Needs about 3.3 GiB of memory (peak RSS) and minutes, so it is a benchmark, not a test. Asserts
nothing.

Run: ``NUMBA_CACHE_DIR=.cache/numba .venv/bin/python benchmarks/bench_ftl_memory.py``
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from flashlab.device import Geometry
from flashlab.ftl import Ftl, FtlConfig
from flashlab.workload import OP_WRITE

TIB_4K = Geometry(channels=8, dies_per_channel=8, planes_per_die=2, blocks_per_plane=8192,
                  pages_per_block=256, page_size=4096, op=0.07)
CHUNK = 1 << 22


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drive-writes", type=float, default=0.2)
    args = ap.parse_args()
    g = TIB_4K
    Ftl(Geometry(blocks_per_plane=64, pages_per_block=256), FtlConfig()).write(np.arange(100))  # compile
    rss0 = peak_rss_bytes()
    t = time.perf_counter()
    ftl = Ftl(g, FtlConfig(), seed=0)
    t_build = time.perf_counter() - t
    u = g.user_pages
    ops = np.full(CHUNK, OP_WRITE, dtype=np.int8)
    t = time.perf_counter()
    for start in range(0, u, CHUNK):
        lbas = np.arange(start, min(u, start + CHUNK), dtype=np.int32)
        ftl.run(ops[:lbas.size], lbas)
    t_fill = time.perf_counter() - t
    rng = np.random.default_rng(0)
    n = round(args.drive_writes * u)
    t = time.perf_counter()
    for start in range(0, n, CHUNK):
        k = min(CHUNK, n - start)
        ftl.run(ops[:k], rng.integers(0, u, k, dtype=np.int32))
    t_rand = time.perf_counter() - t
    c = ftl.counters
    print(f"1 TiB drive: {g.blocks} blocks x {g.pages_per_block} pages of {g.page_size} B = {g.physical_pages:,} "
          f"pages ({g.physical_bytes / 2**40:.2f} TiB raw), op {g.op}, {u:,} LBAs")
    print(f"  FTL state {ftl.memory_bytes / 2**30:.2f} GiB = {ftl.memory_bytes / g.physical_pages:.2f} bytes per "
          f"physical page (target <= 16)")
    print(f"  peak RSS {peak_rss_bytes() / 2**30:.2f} GiB ({rss0 / 2**30:.2f} GiB before the FTL was built)")
    print(f"  build {t_build:.1f} s; sequential fill {t_fill:.1f} s ({u / t_fill / 1e6:.1f} M writes/s); "
          f"{args.drive_writes} drive writes random ({n:,}) {t_rand:.1f} s ({n / t_rand / 1e6:.2f} M writes/s), "
          f"wall clock")
    print(f"  counters: host_writes {c['host_writes']:,}, gc_copies {c['gc_copies']:,}, erases {c['erases']:,}, "
          f"free_blocks {c['free_blocks']:,}")


if __name__ == "__main__":
    main()
