"""Where a drive keeps its mapping table: the record of a limited map cache and the closed form
its miss rate is validated against.

The FTL's logical-to-physical (L2P) table holds one entry per 4 KiB mapping unit: 4 bytes each
address a drive of up to 16 TiB, so the full table takes about 1 GB per TB of NAND, the
"1 GB of DRAM per 1 TB" of drives that hold it whole (anandtech2018rc100, sabrent2021mapping).
A drive without that DRAM keeps the full table on NAND in *translation pages* and caches a few
of them, as DFTL does (Gupta et al. 2009, ``gupta2009dftl``): in the controller's SRAM
(DRAM-less), or in a slice of the host's memory lent over PCIe (the Host Memory Buffer of NVMe
1.2, tens of megabytes; Kim and Kim 2020, ``kim2020hmb``, find DRAM-less drives use it as a
mapping-table cache). A host command whose translation page is not cached first reads it from
NAND; evicting a translation page whose entries changed (dirty) programs it back.

The model (:class:`MapCache`, the event engine's record ``Maps``): translation pages of
``page_size`` bytes (one 4 KiB mapping unit: one ECC codeword read or programmed), each holding
``page_size / entry_bytes`` consecutive LBAs' entries; translation page ``t`` lives on unit
``t mod units`` of the drive (striped, as a drive spreads its map), in SLC mode (its reads and
programs take the part's fastest page type's times, as an SLC cache's do: the map is kept in
pSLC, sabrent2021mapping). Replacement is LRU (least recently used, a doubly linked list).
A host read that misses waits for its translation page's NAND read (queued as a host read on
its unit, competing with host and GC reads) before its data is looked up; a host write that
misses loads it too, but does not wait (its data goes to the write buffer or to NAND; the new
entry is applied when the page arrives) and marks it dirty. With ``hit_us`` > 0 (HMB) every
read served from NAND pays that much more before its data leaves the drive: the controller's
look-up across PCIe.

Left out: map journaling (the log of entry changes a drive writes between translation-page
writes), the map's own garbage collection (its translation pages are programmed in place,
outside the user space and its GC), multi-level maps (a directory of translation pages is
assumed in SRAM), garbage collection's own map updates (a GC copy's new entry is applied
without loading its translation page), and concurrent misses on one translation page (a second
command finds it cached while its read is under way). Sizes in bytes, times in microseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flashlab._validate import check_int, check_real, check_text


@dataclass(frozen=True, kw_only=True)
class MapCache:
    """A limited cache of the mapping table's translation pages.

    Parameters
    ----------
    cached_bytes : int in [1, 2**40]
        Bytes of mapping entries the cache holds: whole translation pages of the drive's
        ``page_size`` (at least one).
    entry_bytes : int in [1, 16], default 4
        Bytes of one L2P entry (4: a 32-bit physical address per 4 KiB unit,
        sabrent2021mapping); it must divide the page size.
    hit_us : float in [0, 1e4], us
        Added to every read served from NAND for its look-up in the cache: 0 for the
        controller's own SRAM or DRAM; a PCIe round trip for a Host Memory Buffer (needs the
        drive's host interface).
    name : str, what holds the cache (for figures)
    """

    cached_bytes: int
    entry_bytes: int = 4
    hit_us: float = 0.0
    name: str = "map cache"

    def __post_init__(self):
        check_int("cached_bytes", self.cached_bytes, 1, 2**40)
        check_int("entry_bytes", self.entry_bytes, 1, 16)
        check_real("hit_us", self.hit_us, 0.0, 1e4)
        check_text("name", self.name, 1, 200)

    def entries_per_page(self, page_size: int) -> int:
        """LBAs one translation page of ``page_size`` bytes (int in [512, 2**30]) maps."""
        return check_int("page_size", page_size, 512, 2**30) // self.entry_bytes

    def cached_pages(self, page_size: int) -> int:
        """Translation pages of ``page_size`` bytes (int in [512, 2**30]) the cache holds."""
        return self.cached_bytes // check_int("page_size", page_size, 512, 2**30)

    def table_pages(self, user_pages: int, page_size: int) -> int:
        """Translation pages of ``page_size`` bytes (int in [512, 2**30]) in the full table of a
        drive of ``user_pages`` LBAs (int in [1, 2**40])."""
        return math.ceil(check_int("user_pages", user_pages, 1, 2**40) / self.entries_per_page(page_size))


def check_map_cache(config, cache: MapCache) -> None:
    """Raise ValueError unless ``config`` (an SsdConfig) can hold ``cache``: ``entry_bytes``
    divides the page size, the cache holds at least one translation page, and ``hit_us`` > 0
    (a Host Memory Buffer) has a host interface to cross."""
    g = config.geometry
    if g.page_size % cache.entry_bytes:
        raise ValueError(f"map_cache.entry_bytes must divide the page size {g.page_size} bytes; got "
                         f"{cache.entry_bytes}")
    check_int("map_cache.cached_bytes", cache.cached_bytes, g.page_size, 2**40)
    if cache.hit_us > 0 and config.host is None:
        raise ValueError(f"map_cache.hit_us must be 0 without a host interface (a Host Memory Buffer is reached over "
                         f"it); got hit_us={cache.hit_us!r} with host=None")


def lru_miss_rate(cached_pages: int, table_pages: int) -> float:
    """Steady-state miss rate of an LRU cache of ``cached_pages`` pages (int in [1, 2**40]) under
    uniform random access to ``table_pages`` pages (int in [1, 2**40]): ``1 - cached / table``,
    0 when the table fits. (Under independent uniform references every cached page is equally
    likely to be the next one, so the replacement policy does not matter.)"""
    c = check_int("cached_pages", cached_pages, 1, 2**40)
    t = check_int("table_pages", table_pages, 1, 2**40)
    return max(0.0, 1.0 - c / t)
