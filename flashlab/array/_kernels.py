"""Numba kernels of the array layer: RAID layout and the member requests of host I/Os.

An array of ``N`` members splits its logical pages into stripe units of ``su`` pages: chunk
``c = lba // su`` is unit ``j = c % m`` of stripe ``s = c // m`` (``m`` data units per
stripe), at member LBA ``s * su + lba % su``. Where unit ``j`` lives:

* RAID-0: member ``j`` (``m = N``);
* RAID-1/10: mirror pair ``j`` (members ``2j`` and ``2j + 1``; ``m = N / 2``); a read goes to
  ``2j + s % 2`` (stripes alternate between the two copies);
* RAID-5: parity P on member ``N - 1 - s % N`` (rotating, left-symmetric), data ``j`` on
  ``(P + 1 + j) % N`` (``m = N - 1``);
* RAID-6: P as RAID-5, Q on ``(P + 1) % N``, data ``j`` on ``(P + 2 + j) % N`` (``m = N - 2``).

Host I/O to member requests (:func:`plan`): a read reads its pieces (one per stripe unit it
touches); with ``rebuild`` each read piece of a redundant level has alternates, the requests
that rebuild it when its member is busy: the other copy (RAID-1/10), the other data units and
P of its stripe (RAID-5/6), over the same member LBAs. A write to RAID-0 writes its pieces, to
RAID-1/10 both copies. A RAID-5/6 write covering whole stripes writes them with their parity
(full-stripe write); a stripe it covers in part is a read-modify-write: first phase, read the
old data of each piece and the old parity over the span of the pieces; second phase, write
both. Every function is ``@njit(cache=True)`` without a signature.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")

RAID0, RAID1, RAID5, RAID6, RAID10 = (np.int64(v) for v in (0, 1, 5, 6, 10))
OP_WRITE, OP_READ = np.int64(0), np.int64(1)
PH_FIRST, PH_SECOND, PH_ALT = np.int64(0), np.int64(1), np.int64(-1)


@_inline
def data_units(level, n):
    """Data stripe units per stripe."""
    if level == RAID0:
        return n
    if level == RAID1 or level == RAID10:
        return n // 2
    if level == RAID5:
        return n - 1
    return n - 2


@_inline
def parity_member(n, s):
    """Member holding P of stripe s (RAID-5/6); Q is the next one."""
    return n - 1 - s % n


@_inline
def data_member(level, n, s, j):
    """Member holding data unit j of stripe s (RAID-1/10: its first copy)."""
    if level == RAID0:
        return j
    if level == RAID1 or level == RAID10:
        return 2 * j
    if level == RAID5:
        return (parity_member(n, s) + 1 + j) % n
    return (parity_member(n, s) + 2 + j) % n


@_inline
def _emit(out, k, op, dev, lba, pages, h, ph):
    """Write request k (no alternates); returns k + 1."""
    out_op, out_dev, out_lba, out_pages, out_host, out_phase, out_alt, out_altn = out
    out_alt[k] = -1
    out_altn[k] = 0
    out_op[k] = op
    out_dev[k] = dev
    out_lba[k] = lba
    out_pages[k] = pages
    out_host[k] = h
    out_phase[k] = ph
    return k + 1


@_kernel
def locate(level, n, su, lbas, member, member_lba):
    """Member and member LBA of the first copy of each array LBA (into ``member``, ``member_lba``)."""
    m = data_units(level, n)
    for i in range(lbas.size):
        c = lbas[i] // su
        s = c // m
        member[i] = data_member(level, n, s, c % m)
        member_lba[i] = s * su + lbas[i] % su


@_kernel
def plan(level, n, su, rebuild, ops, lbas, pages, out_op, out_dev, out_lba, out_pages, out_host, out_phase,
         out_alt, out_altn, piece_s, piece_j, piece_a, piece_b):
    """Member requests of host I/Os ``ops``/``lbas``/``pages`` (array pages), grouped by host
    I/O: first phase, second phase, alternates (``out_phase`` PH_FIRST, PH_SECOND, PH_ALT).
    ``out_alt``/``out_altn``: first alternate and count of each read piece (-1, 0 for none).
    ``piece_*``: scratch of at least the most stripe units one host I/O touches (+1). The
    caller sizes the outputs for the worst case (``max(N + 1, 6)`` per stripe unit touched).
    Returns the number of requests."""
    m = data_units(level, n)
    mirror = level == RAID1 or level == RAID10
    parity = level == RAID5 or level == RAID6
    out = (out_op, out_dev, out_lba, out_pages, out_host, out_phase, out_alt, out_altn)
    k = 0
    for h in range(ops.size):
        # the host I/O's pieces: (stripe, unit, first page, end page) within the unit
        np_ = 0
        a = lbas[h]
        end = a + pages[h]
        while a < end:
            c = a // su
            off = a % su
            b = min(end, (c + 1) * su)
            piece_s[np_] = c // m
            piece_j[np_] = c % m
            piece_a[np_] = off
            piece_b[np_] = off + (b - a)
            np_ += 1
            a = b
        if ops[h] == OP_READ:
            k0 = k
            for p in range(np_):
                s, j = piece_s[p], piece_j[p]
                dev = data_member(level, n, s, j)
                if mirror:
                    dev += s % 2
                k = _emit(out, k, OP_READ, dev,
                          s * su + piece_a[p], piece_b[p] - piece_a[p], h, PH_FIRST)
            if rebuild and level != RAID0:
                for p in range(np_):
                    s, j = piece_s[p], piece_j[p]
                    lba = s * su + piece_a[p]
                    cnt = piece_b[p] - piece_a[p]
                    prim = out_dev[k0 + p]
                    out_alt[k0 + p] = k
                    first = k
                    if mirror:
                        k = _emit(out, k, OP_READ,
                                  prim ^ 1, lba, cnt, h, PH_ALT)
                    else:
                        q = (parity_member(n, s) + 1) % n
                        for d in range(n):  # the rest of the stripe: data and P (not Q)
                            if d != prim and not (level == RAID6 and d == q):
                                k = _emit(out, k, OP_READ,
                                          d, lba, cnt, h, PH_ALT)
                    out_altn[k0 + p] = k - first
            continue
        if not parity:
            for p in range(np_):
                s, j = piece_s[p], piece_j[p]
                dev = data_member(level, n, s, j)
                lba = s * su + piece_a[p]
                cnt = piece_b[p] - piece_a[p]
                k = _emit(out, k, OP_WRITE, dev, lba, cnt,
                          h, PH_FIRST)
                if mirror:
                    k = _emit(out, k, OP_WRITE, dev + 1, lba,
                              cnt, h, PH_FIRST)
        else:
            # two passes over the stripes: first phase (full-stripe writes, RMW reads), then
            # second phase (RMW writes)
            for ph in range(2):
                p = 0
                while p < np_:
                    s = piece_s[p]
                    q0 = p
                    lo = piece_a[p]
                    hi = piece_b[p]
                    whole = 0
                    while p < np_ and piece_s[p] == s:
                        lo = min(lo, piece_a[p])
                        hi = max(hi, piece_b[p])
                        if piece_a[p] == 0 and piece_b[p] == su:
                            whole += 1
                        p += 1
                    full = whole == m
                    if full and ph == 1:
                        continue
                    op = OP_WRITE if (full or ph == 1) else OP_READ
                    phase = PH_SECOND if ph == 1 else PH_FIRST
                    for r in range(q0, p):
                        k = _emit(out, k, op,
                                  data_member(level, n, s, piece_j[r]), s * su + piece_a[r],
                                  piece_b[r] - piece_a[r], h, phase)
                    pm = parity_member(n, s)
                    k = _emit(out, k, op, pm, s * su + lo,
                              hi - lo, h, phase)
                    if level == RAID6:
                        k = _emit(out, k, op, (pm + 1) % n,
                                  s * su + lo, hi - lo, h, phase)
    return k
