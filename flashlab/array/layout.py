"""RAID layout of an array: levels, stripe unit, capacity from the layout, member requests.

The mapping (parity rotation, which member holds which stripe unit) and the member requests a
host I/O becomes are described in :mod:`flashlab.array._kernels`; this module validates and
calls them. Sizes in bytes, LBAs in pages (stripe units are whole pages).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_bool, check_choice, check_int, check_int_array, check_memory, plain_fields,
                                quote)
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
        plain_fields(self)
        check_choice("raid", self.raid, RAID_LEVELS)
        check_int("drives", self.drives, 1, 256)
        lo, hi = RAID_MIN_DRIVES[self.raid], 2 if self.raid == 1 else 256
        if not lo <= self.drives <= hi:
            raise ValueError(f"drives must be in [{lo}, {hi}] for raid={self.raid}; got {self.drives}")
        if self.raid == 10 and self.drives % 2:
            raise ValueError(f"drives must be even for raid=10 (mirrored pairs), at least 4; got {self.drives}")
        check_int("page_size", self.page_size, 512, 2**30)
        check_int("stripe_unit", self.stripe_unit, 512, 2**40)
        if self.stripe_unit < self.page_size or self.stripe_unit % self.page_size:
            raise ValueError(f"stripe_unit must be a whole number (at least 1) of pages of page_size bytes; "
                             f"got stripe_unit={self.stripe_unit}, page_size={self.page_size}")
        check_int("member_pages", self.member_pages, 1, 2**40)
        if self.member_pages < self.unit_pages:
            raise ValueError(f"member_pages must be at least one stripe unit (stripe_unit / page_size = "
                             f"{self.unit_pages} pages), so stripe_unit must be at most member_pages x page_size "
                             f"= {self.member_pages * self.page_size} bytes; got member_pages={self.member_pages}, "
                             f"stripe_unit={self.stripe_unit}, page_size={self.page_size}")

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
        stripe = check_int("stripe", stripe, 0, self.stripes - 1)
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
        check_memory("pages", bound * 8 * 8, f"a plan of up to {bound} member requests")
        out = [np.empty(bound, np.int64) for _ in range(8)]
        scratch = [np.empty(int(touched.max()) + 1, np.int64) for _ in range(4)]
        k = K.plan(np.int64(self.raid), np.int64(self.drives), np.int64(su), bool(rebuild), ops, lbas, pages,
                   *out, *scratch)
        op, dev, lba, pg, host, phase, alt, alt_n = (a[:k] for a in out)
        return {"op": op, "device": dev, "lba": lba, "pages": pg, "host": host, "phase": phase,
                "alternates": (alt, alt_n)}

    def tolerates(self, failed) -> tuple[int, ...]:
        """``failed`` (member indices) checked against what the level survives: none for RAID-0,
        one member for RAID-1 and 5, one per mirrored pair for RAID-10, two for RAID-6. Returns
        them sorted."""
        if isinstance(failed, (str, bytes)) or not hasattr(failed, "__len__"):
            raise ValueError(f"failed must be a sequence of member indices in [0, {self.drives - 1}]; got {failed!r}")
        if len(failed) == 0:
            return ()
        failed = tuple(sorted(int(d) for d in check_int_array("failed", list(failed), 0, self.drives - 1)))
        if len(set(failed)) != len(failed):
            raise ValueError(f"failed must name each member once; got {failed}")
        most = {0: 0, 1: 1, 5: 1, 6: 2, 10: self.drives // 2}[self.raid]
        # every stripe has a unit (data, copy or parity) on every member (RAID-10: on every pair),
        # so a failure past the tolerance loses data in every stripe
        loss = f"data loss in stripes 0 to {self.stripes - 1} (every stripe has units on members {failed})"
        if len(failed) > most:
            raise ValueError(f"failed: RAID-{self.raid} of {self.drives} members survives at most {most} failed "
                             f"members; got {len(failed)} ({failed}): {loss}")
        if self.raid == 10 and len({d // 2 for d in failed}) != len(failed):
            raise ValueError(f"failed: RAID-10 loses data when both members of a mirrored pair fail; got {failed}: "
                             f"{loss}")
        return failed

    def degrade(self, plan: dict, failed, *, keep_alternates: bool = False) -> dict:
        """The member requests of ``plan`` (made with ``rebuild=True``) on an array whose members
        ``failed`` are gone: a host read's piece on a failed member reads its rebuild set instead
        (first phase): the rest of its stripe (data and P; RAID-6 with a second member away: Q
        stands in for it), or the other copy; a read-modify-write's read of old data on a failed
        member reads the same rebuild set (the new parity needs the old data); other requests to
        failed members are dropped (a write's data then lives only in the parity, or in the other
        copy). ``keep_alternates`` (the ground-up array, whose reads dodge members in
        GC): pieces keep their alternates, rebuilt around the failed members (Q stands in on
        RAID-6), or lose them when a stripe cannot spare another member. Same keys as
        :meth:`plan`."""
        failed = set(self.tolerates(failed))
        check_bool("keep_alternates", keep_alternates)
        op, dev, lba, pg, host, ph, alt, alt_n = self._check_plan(plan)
        reads = (op == K.OP_READ) & (ph == K.PH_FIRST)
        rows: list = []  # (op, device, lba, pages, host, phase)
        alts: list = []  # per row: its alternate devices, or None
        n, i = op.size, 0
        while i < n:
            j = i
            while j < n and host[j] == host[i]:
                j += 1
            group = []
            for r in range(i, j):
                if ph[r] == K.PH_ALT:
                    continue
                d = int(dev[r])
                rebuild = None
                if alt[r] >= 0:
                    rebuild = self._survivors([int(x) for x in dev[alt[r]:alt[r] + alt_n[r]]], failed,
                                              int(lba[r]) // self.unit_pages)
                if d in failed:
                    if reads[r] and alt[r] < 0 and self.raid in (5, 6):
                        rebuild = self._old_data_set(d, int(lba[r]) // self.unit_pages, failed)
                    if reads[r] and rebuild:
                        group += [((K.OP_READ, x, lba[r], pg[r], host[r], K.PH_FIRST), None) for x in rebuild]
                    continue
                group.append(((op[r], d, lba[r], pg[r], host[r], ph[r]), rebuild if keep_alternates else None))
            base = len(rows) + len(group)
            for row, a in group:
                rows.append(row)
                if a:
                    alts.append((base, len(a)))
                    base += len(a)
                else:
                    alts.append((-1, 0))
            for row, a in group:
                for x in a or ():
                    rows.append((K.OP_READ, x, row[2], row[3], row[4], K.PH_ALT))
                    alts.append((-1, 0))
            i = j
        cols = np.array(rows, np.int64).reshape(-1, 6).T
        a = np.array(alts, np.int64).reshape(-1, 2).T
        return {"op": cols[0], "device": cols[1], "lba": cols[2], "pages": cols[3], "host": cols[4], "phase": cols[5],
                "alternates": (a[0].copy(), a[1].copy())}

    def _check_plan(self, plan) -> tuple:
        """The columns of a plan from :meth:`plan` (``op, device, lba, pages, host, phase, alt,
        alt_n``), each checked: 1-D integer arrays of one length, devices of this array, member
        LBAs inside a member, host I/Os in order, alternates naming requests of the plan."""
        keys = ("op", "device", "lba", "pages", "host", "phase", "alternates")
        if not (isinstance(plan, dict) and all(k in plan for k in keys)
                and isinstance(plan["alternates"], tuple) and len(plan["alternates"]) == 2):
            raise ValueError(f"plan must be a dict from Layout.plan(..., rebuild=True) with keys {', '.join(keys)} "
                             f"(alternates a pair of arrays); got {quote(plan)}")
        bounds = {"op": (0, 1), "device": (0, self.drives - 1), "lba": (0, self.member_pages - 1),
                  "pages": (1, self.member_pages), "host": (0, 2**40), "phase": (-1, 1)}
        cols = [check_int_array(f"plan[{k!r}]", plan[k], lo, hi, min_size=0) for k, (lo, hi) in bounds.items()]
        n = cols[0].size
        alt = check_int_array("plan['alternates'][0]", plan["alternates"][0], -1, max(n - 1, -1), min_size=0)
        alt_n = check_int_array("plan['alternates'][1]", plan["alternates"][1], 0, n, min_size=0)
        cols += [alt, alt_n]
        if any(c.size != n for c in cols):
            raise ValueError(f"plan: every column must have one entry per member request; got sizes "
                             f"{', '.join(str(c.size) for c in cols)}")
        lba, pg, host = cols[2], cols[3], cols[4]
        if (lba + pg > self.member_pages).any() or (np.diff(host) < 0).any():
            raise ValueError(f"plan: member requests must lie in a member's {self.member_pages} pages, grouped by "
                             f"host I/O in order")
        if ((alt >= 0) & ((alt_n < 1) | (alt + alt_n > n))).any() or ((alt < 0) & (alt_n != 0)).any():
            raise ValueError("plan['alternates']: each (first, count) must name count >= 1 requests of the plan, "
                             "or be (-1, 0)")
        return tuple(cols)

    def _old_data_set(self, d: int, stripe: int, failed: set):
        """Members whose pages rebuild the old contents of failed member ``d`` in ``stripe``, for a
        read-modify-write's new parity: the rest of the stripe without Q (Q standing in for a
        second failed member, RAID-6); None when ``d`` holds the stripe's parity (gone with it:
        nothing to update)."""
        par = self.parity_members(stripe)
        if d in par:
            return None
        q = par[1] if self.raid == 6 else -1
        return self._survivors([k for k in range(self.drives) if k not in (d, q)], failed, stripe)

    def _survivors(self, rebuild: list, failed: set, stripe: int):
        """A rebuild set without the failed members: unchanged when none is in it; RAID-6 with
        one failed: Q instead of it; otherwise None (the stripe cannot spare it)."""
        gone = [d for d in rebuild if d in failed]
        if not gone:
            return rebuild
        if self.raid == 6 and len(gone) == 1:
            q = self.parity_members(stripe)[1]
            if q not in failed:
                return [d for d in rebuild if d not in failed] + [q]
        return None
