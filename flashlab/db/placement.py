"""Which data belongs on flash: closed forms for Harrison's placement questions.

Harrison's advice (harrison2012ssdoracle, "Accelerating Oracle database performance with SSD")
puts the most-read segments on flash, or lets the database flash cache find them. How much of
the read traffic a flash tier of a given size catches depends only on how skewed the accesses
are. With the book's zipf pattern (:class:`flashlab.workload.Workload`: block ``k`` of ``n``
read with probability proportional to ``k ** -s``) the ``m`` hottest blocks take

    hot_fraction(n, m, s) = H(m, s) / H(n, s),     H(n, s) = sum_{k=1..n} k ** -s,

of the reads (:func:`hot_fraction`): the share a tier holding exactly the hottest ``m`` blocks
serves, an upper bound on what an LRU cache of ``m`` blocks catches.

The flash cache questions, each with the smallest mechanism that shows it:

* :func:`cold_cache_misses`: the database flash cache against a flash tablespace in Harrison's
  200,000 primary-key lookups over 1,000,000 keys ("Configuring Exadata flash as grid disk"). A
  table in a flash tablespace is read from flash from the first lookup; a cache that starts
  empty reads a block from disk the first time it is asked for, and its database writer then
  writes the block into the flash cache when the buffer cache evicts it ("More on the database
  flash cache"): one flash write per block cached.
* :func:`keep_scan`: ``CELL_FLASH_CACHE KEEP`` and the first smart scan after it ("Can the
  Exadata Smart Flash Cache slow smart scans?"). The first scan reads the table from disk and
  also writes it into the flash cache; later scans read it from flash.

Left out: LRU's own misses (a cache of ``m`` blocks holds the hottest ``m`` only on average),
the buffer cache in front of the flash tier, the flash cache's lookup and metadata costs, and
garbage collection inside the flash while it takes the cache's writes. Sizes in bytes or
blocks, rates in MB/s (10**6 bytes per second), times in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_bool, check_int, check_real

#: Terms summed exactly before Euler-Maclaurin takes over the tail of H(n, s).
_EXACT_TERMS = 4096


def harmonic(n: int, s: float) -> float:
    """Generalized harmonic number ``H(n, s) = sum_{k=1..n} k ** -s``.

    Exact for ``n <= 4096``; beyond, the first 4,096 terms exactly and the rest by the
    Euler-Maclaurin formula (integral, end-point and first two derivative corrections), whose
    error is below 1e-12 of the sum. ``n`` int in [1, 10**15], ``s`` float in (0, 10].
    """
    n = check_int("n", n, 1, 10**15)
    s = check_real("s", s, 0.0, 10.0, lo_open=True)
    m = min(n, _EXACT_TERMS)
    head = float(np.sum(np.arange(1, m + 1, dtype=np.float64) ** -s))
    if n == m:
        return head
    a, b = float(m), float(n)  # the tail is sum_{k=m+1..n} f(k), f(x) = x ** -s
    integral = math.log(b / a) if s == 1.0 else (b ** (1 - s) - a ** (1 - s)) / (1 - s)
    d1 = s * (a ** (-s - 1) - b ** (-s - 1)) / 12  # (f'(b) - f'(a)) / 12, sign folded in
    d3 = s * (s + 1) * (s + 2) * (a ** (-s - 3) - b ** (-s - 3)) / 720
    return head + integral + (b ** -s - a ** -s) / 2 + d1 - d3


def hot_fraction(n_blocks: int, hot_blocks: int, s: float) -> float:
    """Fraction of zipf(``s``) reads that fall on the ``hot_blocks`` hottest of ``n_blocks``.

    ``n_blocks`` int in [1, 10**15]; ``hot_blocks`` int in [0, ``n_blocks``]; ``s`` the zipf
    exponent in (0, 10] (:class:`flashlab.workload.Workload`'s ``zipf_exponent``).
    """
    n = check_int("n_blocks", n_blocks, 1, 10**15)
    m = check_int("hot_blocks", hot_blocks, 0, 10**15)
    if m > n:
        raise ValueError(f"hot_blocks must be in [0, n_blocks] = [0, {n}]; got {m}")
    s = check_real("s", s, 0.0, 10.0, lo_open=True)
    return 0.0 if m == 0 else harmonic(m, s) / harmonic(n, s)


@dataclass(frozen=True)
class ColdCache:
    """Lookups against a flash cache that starts empty (:func:`cold_cache_misses`).

    ``lookups``, ``blocks``: the run; ``disk_reads``: expected reads that find the block in
    neither cache, so go to disk; ``flash_reads``: expected reads the flash cache serves;
    ``flash_writes``: blocks the database writer copies into the flash cache (one per disk
    read, while the cache has room); ``disk_fraction``: disk reads per lookup. A flash
    tablespace holding the table serves every lookup from flash and writes nothing.
    """

    lookups: int
    blocks: int
    disk_reads: float
    flash_reads: float
    flash_writes: float

    @property
    def disk_fraction(self) -> float:
        """Share of the lookups read from disk."""
        return self.disk_reads / self.lookups


def cold_cache_misses(lookups: int, keys: int, rows_per_block: int = 1) -> ColdCache:
    """Uniform random lookups of ``keys`` keys through a flash cache that starts empty and is
    large enough to keep every block it is given.

    The table has ``blocks = ceil(keys / rows_per_block)`` blocks, each equally likely per
    lookup; a block goes to disk the first time it is read, to the flash cache after that. The
    expected number of distinct blocks read in ``lookups`` draws is

        blocks x (1 - (1 - 1/blocks) ** lookups),

    so that many reads go to disk and the rest to flash. ``lookups`` int in [1, 10**12],
    ``keys`` int in [1, 10**12], ``rows_per_block`` int in [1, 10**6].
    """
    lookups = check_int("lookups", lookups, 1, 10**12)
    keys = check_int("keys", keys, 1, 10**12)
    rows = check_int("rows_per_block", rows_per_block, 1, 10**6)
    blocks = -(-keys // rows)
    distinct = blocks * -math.expm1(lookups * math.log1p(-1.0 / blocks)) if blocks > 1 else 1.0
    return ColdCache(lookups=lookups, blocks=blocks, disk_reads=distinct, flash_reads=lookups - distinct,
                     flash_writes=distinct)


@dataclass(frozen=True)
class KeepScan:
    """Smart scans of one table before and after ``CELL_FLASH_CACHE KEEP`` (:func:`keep_scan`).

    Times in seconds: ``default_s`` the scan from disk; ``first_keep_s`` the first scan after
    KEEP when the cell writes each chunk into the flash cache before it reads the next
    (``overlap=False``) or while it does (``overlap=True``); ``later_keep_s`` a scan from the
    flash cache. ``slowdown``: ``first_keep_s / default_s``.
    """

    default_s: float
    first_keep_s: float
    later_keep_s: float

    @property
    def slowdown(self) -> float:
        """How many times longer the first scan after KEEP takes than the default scan."""
        return self.first_keep_s / self.default_s


def keep_scan(table_bytes: float, disk_read_mb_s: float, flash_read_mb_s: float, flash_write_mb_s: float,
              overlap: bool = False) -> KeepScan:
    """Scan times of a table of ``table_bytes`` bytes read at ``disk_read_mb_s`` from disk, and at
    ``flash_read_mb_s`` from flash once cached; the first scan after KEEP also writes the table
    into flash at ``flash_write_mb_s``:

        default = T / disk,    first = T / disk + T / write  (or max of the two when overlapped),
        later = T / flash read.

    ``table_bytes`` in [1, 1e18]; rates in [1e-3, 1e7] MB/s; ``overlap`` bool.
    """
    t = check_real("table_bytes", table_bytes, 1.0, 1e18)
    disk = check_real("disk_read_mb_s", disk_read_mb_s, 1e-3, 1e7) * 1e6
    fread = check_real("flash_read_mb_s", flash_read_mb_s, 1e-3, 1e7) * 1e6
    fwrite = check_real("flash_write_mb_s", flash_write_mb_s, 1e-3, 1e7) * 1e6
    both = check_bool("overlap", overlap)
    first = max(t / disk, t / fwrite) if both else t / disk + t / fwrite
    return KeepScan(default_s=t / disk, first_keep_s=first, later_keep_s=t / fread)
