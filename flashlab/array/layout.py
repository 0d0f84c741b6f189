"""RAID layout of an array: levels, stripe unit, capacity from the layout, member requests.

The mapping (parity rotation, which member holds which stripe unit) and the member requests a
host I/O becomes are described in :mod:`flashlab.array._kernels`; this module validates and
calls them. Sizes in bytes, LBAs in pages (stripe units are whole pages).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_bool, check_choice, check_int, check_int_array
from flashlab.array import _kernels as K
from flashlab.array.capacity import RAID_MIN_DRIVES

RAID_LEVELS = tuple(sorted(RAID_MIN_DRIVES))


@dataclass(frozen=True, kw_only=True)
class Layout:
    """Where an array's data and parity live.

    Parameters
    ----------
    raid : 0, 1, 5, 6 or 10
        RAID-1 is one mirrored pair (``drives == 2``); RAID-10 stripes over pairs (an even
        number of drives, at least 4); RAID-5 needs at least 3 drives, RAID-6 at least 4.
    drives : int in [1, 256]
    stripe_unit : int, bytes, a whole number of pages (``page_size``)
    page_size : int, bytes (the members' page or LBA size)
    member_pages : int >= stripe unit pages, usable LBAs of each member (pages)
    """

    raid: int = 6
    drives: int = 10
    stripe_unit: int = 16384
    page_size: int = 4096
    member_pages: int = 4096

    def __post_init__(self):
        check_choice("raid", self.raid, RAID_LEVELS)
        check_int("drives", self.drives, 1, 256)
        lo, hi = RAID_MIN_DRIVES[self.raid], 2 if self.raid == 1 else 256
        if not lo <= self.drives <= hi:
            raise ValueError(f"drives must be in [{lo}, {hi}] for raid={self.raid}; got {self.drives}")
        if self.raid == 10 and self.drives % 2:
            raise ValueError(f"drives must be even for raid=10 (mirrored pairs), at least 4; got {self.drives}")
        check_int("page_size", self.page_size, 512, 2**30)
        check_int("stripe_unit", self.stripe_unit, self.page_size, 2**40)
        if self.stripe_unit % self.page_size:
            raise ValueError(f"stripe_unit must be a multiple of the page size {self.page_size} bytes; "
                             f"got {self.stripe_unit}")
        check_int("member_pages", self.member_pages, self.unit_pages, 2**40)

    @property
    def unit_pages(self) -> int:
        """Pages per stripe unit."""
        return self.stripe_unit // self.page_size

    @property
    def data_units(self) -> int:
        """Data stripe units per stripe."""
        return {0: self.drives, 1: 1, 10: self.drives // 2, 5: self.drives - 1, 6: self.drives - 2}[self.raid]

    @property
    def stripes(self) -> int:
        return self.member_pages // self.unit_pages

    @property
    def array_pages(self) -> int:
        """Logical pages the array offers (whole stripes)."""
        return self.stripes * self.data_units * self.unit_pages

    @property
    def raw_bytes(self) -> int:
        """Members' usable LBAs together (the layout's raw capacity), bytes."""
        return self.drives * self.member_pages * self.page_size

    @property
    def usable_bytes(self) -> int:
        """What the array offers after RAID (whole stripes), bytes."""
        return self.array_pages * self.page_size

    def locate(self, lbas) -> tuple[np.ndarray, np.ndarray]:
        """Member and member LBA holding each array LBA (RAID-1/10: the first copy)."""
        lbas = check_int_array("lbas", lbas, 0, self.array_pages - 1)
        member, mlba = np.empty(lbas.size, np.int64), np.empty(lbas.size, np.int64)
        K.locate(np.int64(self.raid), np.int64(self.drives), np.int64(self.unit_pages), lbas, member, mlba)
        return member, mlba

    def parity_members(self, stripe: int) -> tuple[int, ...]:
        """Members holding stripe ``stripe``'s parity: (P,) for RAID-5, (P, Q) for RAID-6."""
        check_int("stripe", stripe, 0, self.stripes - 1)
        if self.raid not in (5, 6):
            return ()
        p = self.drives - 1 - stripe % self.drives
        return (p,) if self.raid == 5 else (p, (p + 1) % self.drives)

    def plan(self, ops, lbas, pages, *, rebuild: bool = False) -> dict:
        """Member requests of host I/Os (``ops`` 0 write / 1 read, ``lbas`` first array page,
        ``pages``), grouped by host I/O: arrays ``op``, ``device``, ``lba``, ``pages``,
        ``host``, ``phase`` (0 first, 1 second: a read-modify-write's writes, -1 an alternate)
        and ``alternates = (first, count)`` (``rebuild``: each read piece of a redundant level
        names the requests that rebuild it from the rest of its stripe)."""
        ops = check_int_array("ops", ops, 0, 1)
        lbas = check_int_array("lbas", lbas, 0, self.array_pages - 1)
        pages = check_int_array("pages", pages, 1, self.array_pages)
        check_bool("rebuild", rebuild)
        if lbas.shape != ops.shape or pages.shape != ops.shape:
            raise ValueError(f"ops, lbas and pages must have one entry per host I/O; got {ops.size}, {lbas.size}, "
                             f"{pages.size}")
        if (lbas + pages > self.array_pages).any():
            raise ValueError(f"lbas: host I/Os must lie in the array's {self.array_pages} pages")
        su = self.unit_pages
        touched = (lbas + pages - 1) // su - lbas // su + 1
        bound = int((touched * max(self.drives + 1, 6)).sum())
        out = [np.empty(bound, np.int64) for _ in range(8)]
        scratch = [np.empty(int(touched.max()) + 1, np.int64) for _ in range(4)]
        k = K.plan(np.int64(self.raid), np.int64(self.drives), np.int64(su), bool(rebuild), ops, lbas, pages,
                   *out, *scratch)
        op, dev, lba, pg, host, phase, alt, alt_n = (a[:k] for a in out)
        return {"op": op, "device": dev, "lba": lba, "pages": pg, "host": host, "phase": phase,
                "alternates": (alt, alt_n)}
