"""The JEDEC JESD219 enterprise endurance workload (JEDEC 2010), as a page-level write stream.

JESD219 defines the workload under which enterprise SSDs are rated for endurance (TBW, DWPD):
100 % random writes over the whole user space, in a fixed mix of transfer sizes

    512 B 4 %, 1 KiB 1 %, 1.5 KiB 1 %, 2 KiB 1 %, 2.5 KiB 1 %, 3 KiB 1 %, 3.5 KiB 1 %,
    4 KiB 67 %, 8 KiB 10 %, 16 KiB 7 %, 32 KiB 3 %, 64 KiB 3 %,

aligned to 4 KiB (fio's sample job, ``blockalign=4k``), and skewed over the LBAs: 50 % of the
accesses go to the first 5 % of the user space, 30 % to the next 15 % and 20 % to the remaining
80 % (uniformly within each zone). The figures are the standard's (jedec2010jesd219) as fio's
sample JESD219 job states them (fio2018jesd219: ``bssplit`` and
``random_distribution=zoned:50/5:30/15:20/80``). The client workload of JESD219A is a replayed
trace, not a mix: it is not reproduced here.

A request of ``s`` bytes writes ``ceil(s / 4096)`` whole 4 KiB logical pages (the FTL's mapping
unit): a write under 4 KiB still costs the drive a page, read, merged and written back. So the
drive's write amplification in *bytes*, which endurance ratings use, is its page write
amplification times :attr:`EnterpriseEndurance.page_overhead`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_seed, plain_fields
from flashlab.workload import OP_WRITE
from flashlab.workload.generators import DEFAULT_CHUNK

#: JESD219 enterprise transfer sizes (bytes) and their shares of the requests.
SIZES = np.array([512, 1024, 1536, 2048, 2560, 3072, 3584, 4096, 8192, 16384, 32768, 65536])
SIZE_SHARES = np.array([4, 1, 1, 1, 1, 1, 1, 67, 10, 7, 3, 3]) / 100.0
#: LBA zones: (share of the accesses, share of the user space), from the lowest LBAs up.
ZONES = ((0.50, 0.05), (0.30, 0.15), (0.20, 0.80))
#: The logical page (mapping unit) the sizes are rounded up to, bytes.
PAGE_BYTES = 4096


@dataclass(frozen=True)
class EnterpriseEndurance:
    """JESD219's enterprise endurance workload: random writes of its size mix over its LBA zones.

    No parameters: the standard fixes the mix. Requests are expanded into single-page writes,
    the pages of one request at consecutive LBAs (wrapping at the end of the user space).
    """

    def __post_init__(self):
        plain_fields(self)

    @property
    def mean_request_bytes(self) -> float:
        """Host bytes per request (7,818 B)."""
        return float(SIZE_SHARES @ SIZES)

    @property
    def mean_request_pages(self) -> float:
        """4 KiB pages written per request (1.97)."""
        return float(SIZE_SHARES @ np.ceil(SIZES / PAGE_BYTES))

    @property
    def page_overhead(self) -> float:
        """Bytes of whole pages the drive writes per host byte (1.032): the small transfers'
        share of the write amplification."""
        return self.mean_request_pages * PAGE_BYTES / self.mean_request_bytes

    def chunks(self, user_pages: int, seed: int = 0, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Endless stream of ``(ops, lbas)`` chunks of single-page writes, ``chunk_size`` requests
        each (about 1.97 pages per request). ``user_pages`` must be at least 20, so that every
        zone holds an LBA."""
        user_pages = check_int("user_pages", user_pages, 20, 2**31 - 1)
        check_seed("seed", seed)
        chunk_size = check_int("chunk_size", chunk_size, 1, 2**24)
        rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))
        edges = np.round(np.cumsum([0.0] + [z[1] for z in ZONES]) * user_pages).astype(np.int64)
        access = np.array([z[0] for z in ZONES])
        pages = np.ceil(SIZES / PAGE_BYTES).astype(np.int64)
        while True:
            zone = rng.choice(len(ZONES), chunk_size, p=access)
            start = edges[zone] + (rng.random(chunk_size) * (edges[zone + 1] - edges[zone])).astype(np.int64)
            n = pages[rng.choice(SIZES.size, chunk_size, p=SIZE_SHARES)]
            first = np.repeat(start, n)
            within = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
            lbas = ((first + within) % user_pages).astype(np.int32)
            yield np.full(lbas.size, OP_WRITE, dtype=np.int8), lbas
