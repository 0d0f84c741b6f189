"""Numba kernels of the page-mapped FTL (struct of arrays, no jitclass).

The state is one tuple ``s = (pages, l2p, blk, blk64, lists, ctr, prm, rng)``:

``pages``  int32 (2, T)   row P2L: LBA of a valid page, ``-2 - lba`` of a stale one, -1 if free;
                          row STAMP: host write sequence number (mod 2**32) of the data it holds.
``l2p``    int32 (U,)     physical page of each LBA, -1 if unmapped (never written or trimmed).
``blk``    int32 (NB, B)  per block: VALID pages, ERASES, WP (next page), STATE, PREV/NEXT (victim
                          lists), READS since erase, HEAP (free-block pool, a binary heap) and
                          UNDONE (programs queued and not yet ended: see below).
``blk64``  int64 (2, B)   per block: CLOSED_AT (host writes when it filled), KEY (pool heap key).
``lists``  int32 (2, ppb+1) heads and tails of the victim lists (greedy: one per valid count;
                          FIFO: list 0 in closing order).
``ctr``    int64 (NC,)    counters (the first NSERIES are sampled as the time series) and frontiers.
``prm``    int64 (NP,)    parameters (see the P_* indices).
``rng``    uint64 (1,)    splitmix64 state for random and d-choices victims.

A block whose last page is mapped is full. Here a program ends as it is mapped, so it closes at
once and joins the victim lists. The drive's timing model (:mod:`flashlab.ssd._kernels`) maps a
page when it queues its program and the program ends later: it counts the block's queued
programs in UNDONE (:func:`_queue_program`, :func:`_program_ended`), and a full block with
programs outstanding is FULL, not CLOSED: no victim policy sees it (a victim's pages must be on
NAND before they are copied and the block erased) until its last program ends.

Every function is ``@njit(cache=True)`` without a signature: importing compiles nothing. The
kernels never allocate, so they are compiled without numba's reference-counting runtime
(``_nrt=False``): otherwise each array taken out of the state tuple costs an incref/decref
call, which made the write path several times slower. ``error_model="numpy"`` drops the
division-by-zero checks (block sizes are validated >= 2). Small hot helpers are inlined.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from flashlab.workload import OP_READ, OP_WRITE

# pages rows
P2L, STAMP = 0, 1
FREE_PAGE = -1

# blk rows
VALID, ERASES, WP, STATE, PREV, NEXT, READS, HEAP, UNDONE = range(9)
N_BLK = 9
# blk64 rows
CLOSED_AT, KEY = 0, 1

# block states (B_FULL: every page mapped, programs outstanding; B_SLC: a block of the drive's
# static SLC cache, out of the pool, written and erased by the drive's timing model only)
B_FREE, B_OPEN, B_CLOSED, B_RETIRED, B_FULL, B_SLC = 0, 1, 2, 3, 4, 5

# ctr: time-series columns first
(HOST_WRITES, HOST_READS, TRIMS, GC_COPIES, WL_COPIES, REFRESH_COPIES, ERASE_OPS, FREE_BLOCKS,
 EC_MIN, EC_MAX, RETIRED, GC_VICTIMS) = range(12)
NSERIES = 12
# Write streams, one open block (frontier) each: a host stream and a GC stream per placement
# handle. Host stream h is FRONT + h, GC stream h is FRONT + GC_STREAM + h. Without handles only
# host stream 0 (and 1: the cold host stream of temperature separation) and GC stream 0 are used;
# oracle separation has two handles (hot, cold), tagged separation up to MAX_HANDLES.
MAX_HANDLES = 8
GC_STREAM = MAX_HANDLES
N_STREAMS = 2 * MAX_HANDLES
READ_ONLY, EC_MIN_COUNT, FRONT = 12, 13, 14
POOL_SEQ, GOOD, LAST_VICTIM = FRONT + N_STREAMS, FRONT + N_STREAMS + 1, FRONT + N_STREAMS + 2
# FULL_BLOCKS: blocks in state B_FULL; VICTIM_WAITS: victim searches that found no closed block
# while some were FULL (GC then waits for a program to end)
FULL_BLOCKS, VICTIM_WAITS = FRONT + N_STREAMS + 3, FRONT + N_STREAMS + 4
# SLC_BLOCKS: blocks in state B_SLC (taken out of the pool once, before any write: take_slc_blocks)
SLC_BLOCKS = FRONT + N_STREAMS + 5
NCTR = FRONT + N_STREAMS + 6

# read-only reasons (RO_POOL_EMPTY: a caller took a block from the empty free pool, a bug
# :func:`_pool_take` refused; the state is no longer trusted and the Python wrapper raises)
RO_NONE, RO_WORN_OUT, RO_NO_SPACE, RO_POOL_EMPTY = 0, 1, 2, 3

# prm
# P_N_HANDLES placement handles (1: none); handle h >= 1 holds LBAs from P_HANDLE_START + h up to
# the next handle's start (handle 0 starts at LBA 0)
(P_PPB, P_USER, P_POLICY, P_D, P_LOW, P_HIGH, P_SEP, P_HOT_WINDOW, P_DYN_WL,
 P_STATIC_WL, P_REFRESH, P_ENDURANCE, P_N_OPEN, P_TIES, P_N_HANDLES, P_HANDLE_START) = range(16)
NPRM = P_HANDLE_START + MAX_HANDLES

# policies and stream separation
GREEDY, FIFO, COST_BENEFIT, RANDOM, D_CHOICES = range(5)
SEP_NONE, SEP_GC, SEP_TEMPERATURE, SEP_ORACLE, SEP_TAGGED = range(5)
# greedy's choice among the blocks of the lowest valid count: the first to reach it (the head of
# its list), the last (its tail), or the lowest block number
TIE_FIRST, TIE_LAST, TIE_INDEX = range(3)

_KEY_SHIFT = 40  # dynamic wear levelling: pool key = erase count << 40 | insertion sequence

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline_kernel = njit(cache=True, _nrt=False, error_model="numpy", inline="always")


@_inline_kernel
def _rand_below(rng, n):
    """Uniform integer in [0, n) from a splitmix64 stream (Steele et al. 2014)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return int((z >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


# ---------------------------------------------------------------- victim lists (doubly linked)
@_inline_kernel
def _list_push(s, lst, b):
    blk, lists = s[2], s[4]
    tail = lists[1, lst]
    blk[PREV, b] = tail
    blk[NEXT, b] = -1
    if tail >= 0:
        blk[NEXT, tail] = b
    else:
        lists[0, lst] = b
    lists[1, lst] = b


@_inline_kernel
def _list_remove(s, lst, b):
    blk, lists = s[2], s[4]
    p = blk[PREV, b]
    n = blk[NEXT, b]
    if p >= 0:
        blk[NEXT, p] = n
    else:
        lists[0, lst] = n
    if n >= 0:
        blk[PREV, n] = p
    else:
        lists[1, lst] = p


@_inline_kernel
def _list_of(s, b):
    """Victim list holding closed block b, or -1 when the policy keeps none."""
    prm = s[6]
    if prm[P_POLICY] == GREEDY:
        return s[2][VALID, b]
    if prm[P_POLICY] == FIFO:
        return 0
    return -1


# ---------------------------------------------------------------- free-block pool (binary heap)
@_kernel
def _pool_push(s, b):
    blk, blk64, ctr, prm = s[2], s[3], s[5], s[6]
    key = ctr[POOL_SEQ]
    ctr[POOL_SEQ] += 1
    if prm[P_DYN_WL]:
        key += np.int64(blk[ERASES, b]) << _KEY_SHIFT
    blk64[KEY, b] = key
    heap = blk[HEAP]
    i = ctr[FREE_BLOCKS]
    ctr[FREE_BLOCKS] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if blk64[KEY, heap[parent]] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = b
    blk[STATE, b] = B_FREE


@_kernel
def _pool_take(s, i):
    """Remove and return the free block at heap position i; -1 (nothing taken, the device
    read-only with RO_POOL_EMPTY) if the pool holds no such position. Every caller checks the
    pool first: this one branch turns a future caller's mistake into a reported error instead
    of a stale heap entry given out twice and a count below zero."""
    blk, blk64, ctr = s[2], s[3], s[5]
    if i >= ctr[FREE_BLOCKS]:
        ctr[READ_ONLY] = RO_POOL_EMPTY
        return -1
    heap = blk[HEAP]
    taken = heap[i]
    n = ctr[FREE_BLOCKS] - 1
    ctr[FREE_BLOCKS] = n
    if i == n:
        return taken
    last = heap[n]
    key = blk64[KEY, last]
    while i > 0 and blk64[KEY, heap[(i - 1) >> 1]] > key:  # sift up
        heap[i] = heap[(i - 1) >> 1]
        i = (i - 1) >> 1
    while True:  # sift down
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and blk64[KEY, heap[c + 1]] < blk64[KEY, heap[c]]:
            c += 1
        if blk64[KEY, heap[c]] >= key:
            break
        heap[i] = heap[c]
        i = c
    heap[i] = last
    return taken


@_kernel
def _pool_take_for(s, stream):
    """Free block for a frontier: the smallest key (FIFO order, or least worn first); with dynamic
    wear levelling a GC frontier, which receives data that survived (cold), takes the most worn."""
    prm = s[6]
    if not (prm[P_DYN_WL] and stream >= GC_STREAM):
        return _pool_take(s, 0)
    blk64, heap = s[3], s[2][HEAP]
    best = 0
    for i in range(1, s[5][FREE_BLOCKS]):
        if blk64[KEY, heap[i]] > blk64[KEY, heap[best]]:
            best = i
    return _pool_take(s, best)


# ---------------------------------------------------------------- frontiers and programs
@_inline_kernel
def _room(s, stream):
    """Unwritten pages left in the open block of a stream (0 if it has none)."""
    f = s[5][FRONT + stream]
    if f < 0:
        return 0
    return s[6][P_PPB] - s[2][WP, f]


@_kernel
def _open(s, stream):
    """Open a free block as the stream's frontier; with the pool empty (a caller's mistake:
    :func:`_pool_take`) the stream keeps no frontier, which its caller checks."""
    b = _pool_take_for(s, stream)
    if b < 0:
        return
    s[2][STATE, b] = B_OPEN
    s[5][FRONT + stream] = b


@_inline_kernel
def _program(s, stream, lba, stamp):
    """Program the next page of the stream's open block with (lba, stamp); close it when full."""
    f = s[5][FRONT + stream]
    w = s[2][WP, f]
    _place(s, f * s[6][P_PPB] + w, lba, stamp)
    _advance(s, stream, f, w)


@_inline_kernel
def _place(s, ppn, lba, stamp):
    """Physical page ppn now holds (lba, stamp): the LBA maps to it and its block has one more
    valid page (the caller invalidated the LBA's old page and moves the block's write pointer)."""
    s[0][P2L, ppn] = lba
    s[0][STAMP, ppn] = stamp
    s[1][lba] = ppn
    s[2][VALID, ppn // s[6][P_PPB]] += 1


@_inline_kernel
def _advance(s, stream, f, w):
    """Page w of the stream's open block f is written: move its write pointer; when the block is
    full it leaves the frontier and closes (FULL while programs into it are outstanding)."""
    blk = s[2]
    blk[WP, f] = w + 1
    if w + 1 == s[6][P_PPB]:
        s[3][CLOSED_AT, f] = s[5][HOST_WRITES]
        s[5][FRONT + stream] = -1
        if blk[UNDONE, f] > 0:
            blk[STATE, f] = B_FULL
            s[5][FULL_BLOCKS] += 1
        else:
            _close(s, f)


@_inline_kernel
def _close(s, b):
    """Block b is full and every program into it has ended: a victim candidate."""
    s[2][STATE, b] = B_CLOSED
    lst = _list_of(s, b)
    if lst >= 0:
        _list_push(s, lst, b)


@_inline_kernel
def _queue_program(s, stream):
    """The drive queues the program of the stream's next page (mapped next by :func:`_program`
    or :func:`_pad`); it ends later, at :func:`_program_ended`."""
    s[2][UNDONE, s[5][FRONT + stream]] += 1


@_inline_kernel
def _program_ended(s, b):
    """A queued program into block b has ended. True if that closed the block (it was FULL and
    this was its last outstanding program): it is a victim candidate from now on."""
    blk = s[2]
    blk[UNDONE, b] -= 1
    if blk[UNDONE, b] == 0 and blk[STATE, b] == B_FULL:
        s[5][FULL_BLOCKS] -= 1
        _close(s, b)
        return True
    return False


@_inline_kernel
def _pad(s, stream):
    """Write the next page of the stream's open block with nothing valid (padding: a NAND page
    programmed before all its slots held data); returns its physical page. It stays FREE_PAGE
    in P2L (no LBA, never copied by GC) and counts as no valid page."""
    f = s[5][FRONT + stream]
    w = s[2][WP, f]
    ppn = f * s[6][P_PPB] + w
    _advance(s, stream, f, w)
    return ppn


@_inline_kernel
def _invalidate(s, ppn):
    """Mark a valid page stale (its LBA was rewritten or trimmed)."""
    pages, blk, ppb = s[0], s[2], s[6][P_PPB]
    b = ppn // ppb
    pages[P2L, ppn] = -2 - pages[P2L, ppn]
    if blk[STATE, b] == B_CLOSED and s[6][P_POLICY] == GREEDY:
        v = blk[VALID, b]
        _list_remove(s, v, b)
        _list_push(s, v - 1, b)
    blk[VALID, b] -= 1


@_kernel
def take_slc_blocks(s, out):
    """Take ``out.size`` blocks out of the free pool for the drive's static SLC cache (state
    B_SLC: no frontier, victim list or pool sees them again); their numbers go to ``out``. Called
    once on a fresh state, before any write; the caller checked the pool holds them."""
    for k in range(out.size):
        b = _pool_take(s, 0)
        if b < 0:  # more than the pool holds (RO_POOL_EMPTY)
            return
        s[2][STATE, b] = B_SLC
        out[k] = b
        s[5][SLC_BLOCKS] += 1


@_inline_kernel
def _wipe(s, b):
    """Erase block b's pages and count the erase (wear); returns its erase count."""
    pages, blk, ctr, ppb = s[0], s[2], s[5], s[6][P_PPB]
    for p in range(b * ppb, (b + 1) * ppb):
        pages[P2L, p] = FREE_PAGE
    blk[VALID, b] = 0
    blk[WP, b] = 0
    blk[READS, b] = 0
    blk[ERASES, b] += 1
    ctr[ERASE_OPS] += 1
    return blk[ERASES, b]


# ---------------------------------------------------------------- erase, wear and retirement
@_kernel
def _rescan_min_erases(s):
    blk, ctr = s[2], s[5]
    lo = np.int64(2**62)
    count = 0
    for b in range(blk.shape[1]):
        if blk[STATE, b] != B_RETIRED:
            e = blk[ERASES, b]
            if e < lo:
                lo = e
                count = 1
            elif e == lo:
                count += 1
    ctr[EC_MIN] = lo if count > 0 else 0
    ctr[EC_MIN_COUNT] = count


@_kernel
def _erase(s, b):
    """Erase block b; it joins the free pool, or retires at the endurance limit."""
    blk, ctr, prm = s[2], s[5], s[6]
    ppb = prm[P_PPB]
    e = _wipe(s, b)
    old = e - 1
    if e > ctr[EC_MAX]:
        ctr[EC_MAX] = e
    if old == ctr[EC_MIN]:
        ctr[EC_MIN_COUNT] -= 1
    if prm[P_ENDURANCE] > 0 and e >= prm[P_ENDURANCE]:
        blk[STATE, b] = B_RETIRED
        ctr[RETIRED] += 1
        ctr[GOOD] -= 1
        # keep room for every LBA plus the GC reserve, else stop accepting writes (no data loss)
        if prm[P_USER] >= (ctr[GOOD] - prm[P_HIGH] - prm[P_N_OPEN] + 1) * ppb:
            ctr[READ_ONLY] = RO_WORN_OUT
    else:
        _pool_push(s, b)
    if ctr[EC_MIN_COUNT] == 0:
        _rescan_min_erases(s)


@_inline_kernel
def _handle(s, lba):
    """Placement handle of an LBA: the last handle whose first LBA is at or below it (0 when
    the FTL has no handles)."""
    prm = s[6]
    h = prm[P_N_HANDLES] - 1
    while h > 0 and lba < prm[P_HANDLE_START + h]:
        h -= 1
    return h


@_inline_kernel
def _gc_stream(s, lba):
    """Frontier for a GC copy of an LBA: the host's with no separation, else the GC frontier of
    the LBA's placement handle (the one GC frontier when there are no handles)."""
    if s[6][P_SEP] == SEP_NONE:
        return 0
    return GC_STREAM + _handle(s, lba)


@_inline_kernel
def _can_relocate(s, b):
    """True if the valid pages of block b can be copied without running out of free blocks.
    Each goes to the GC frontier of its placement handle (:func:`_gc_stream`): the pages beyond
    one frontier's room need blocks of their own from the free pool, which the frontiers share,
    so the room left in another handle's frontier does not count (summing the rooms let a copy
    open a frontier from an empty pool: a stale block, the counter below zero, data lost)."""
    pages, prm = s[0], s[6]
    ppb = prm[P_PPB]
    base = b * ppb
    streams = 1 if prm[P_SEP] == SEP_NONE else prm[P_N_HANDLES]
    blocks = 0
    for h in range(streams):
        stream = 0 if prm[P_SEP] == SEP_NONE else GC_STREAM + h
        if streams == 1:
            n = s[2][VALID, b]  # one frontier takes them all
        else:
            n = 0
            for i in range(ppb):
                lba = pages[P2L, base + i]
                if lba >= 0 and _gc_stream(s, lba) == stream:
                    n += 1
        extra = n - _room(s, stream)
        if extra > 0:
            blocks += (extra + ppb - 1) // ppb
    return blocks <= s[5][FREE_BLOCKS]


@_kernel
def _relocate(s, b, cause):
    """Copy the valid pages of closed block b to the GC frontier (:func:`_gc_stream`), then
    erase b.

    ``cause`` is the counter charged with the copies (GC_COPIES, WL_COPIES or REFRESH_COPIES).
    """
    pages, blk, ctr, ppb = s[0], s[2], s[5], s[6][P_PPB]
    lst = _list_of(s, b)
    if lst >= 0:
        _list_remove(s, lst, b)
    blk[STATE, b] = B_FREE
    base = b * ppb
    for i in range(ppb):
        lba = pages[P2L, base + i]
        if lba >= 0:
            stream = _gc_stream(s, lba)
            if _room(s, stream) == 0:
                _open(s, stream)
                if ctr[FRONT + stream] < 0:  # the pool was empty (RO_POOL_EMPTY): stop here
                    return
            _program(s, stream, lba, pages[STAMP, base + i])
            ctr[cause] += 1
    ctr[LAST_VICTIM] = b
    _erase(s, b)


# ---------------------------------------------------------------- victim selection
@_kernel
def _pick_victim(s):
    """Closed block to clean next, or -1 if there is none (counted in VICTIM_WAITS when some
    block is FULL: the drive's GC waits for its last program)."""
    b = _choose_victim(s)
    if b < 0 and s[5][FULL_BLOCKS] > 0:
        s[5][VICTIM_WAITS] += 1
    return b


@_inline_kernel
def _choose_victim(s):
    blk, blk64, lists, ctr, prm, rng = s[2], s[3], s[4], s[5], s[6], s[7]
    policy = prm[P_POLICY]
    ppb = prm[P_PPB]
    if policy == GREEDY:
        # Buckets by valid count: the first non-empty one holds the emptiest blocks, in the order
        # they reached that count (P_TIES picks among them).
        for v in range(ppb + 1):
            b = lists[0, v]
            if b >= 0:
                if prm[P_TIES] == TIE_LAST:
                    return lists[1, v]
                if prm[P_TIES] == TIE_INDEX:
                    best = b
                    while b >= 0:
                        best = min(best, b)
                        b = blk[NEXT, b]
                    return best
                return b
        return -1
    if policy == FIFO:
        return lists[0, 0]
    nb = blk.shape[1]
    if policy == COST_BENEFIT:
        # Rosenblum & Ousterhout 1992: maximise (1 - u) * age / (1 + u).
        best = -1
        best_score = -1.0
        now = ctr[HOST_WRITES]
        for b in range(nb):
            if blk[STATE, b] == B_CLOSED:
                v = blk[VALID, b]
                score = (ppb - v) * float(now - blk64[CLOSED_AT, b] + 1) / (ppb + v)
                if score > best_score:
                    best_score = score
                    best = b
        return best
    # RANDOM (d = 1) and D_CHOICES: the emptiest of d closed blocks drawn uniformly (by
    # rejection: n_closed > 0 blocks are CLOSED, so each draw ends).
    n_closed = nb - ctr[FREE_BLOCKS] - ctr[RETIRED] - ctr[FULL_BLOCKS] - ctr[SLC_BLOCKS]
    for k in range(N_STREAMS):
        if ctr[FRONT + k] >= 0:
            n_closed -= 1
    if n_closed <= 0:
        return -1
    d = 1 if policy == RANDOM else prm[P_D]
    best = -1
    for _ in range(d):
        b = _rand_below(rng, nb)
        while blk[STATE, b] != B_CLOSED:
            b = _rand_below(rng, nb)
        if best < 0 or blk[VALID, b] < blk[VALID, best]:
            best = b
    return best


@_kernel
def _gc_until_high(s):
    ctr, prm = s[5], s[6]
    while ctr[FREE_BLOCKS] < prm[P_HIGH] and ctr[READ_ONLY] == RO_NONE:
        b = _pick_victim(s)
        if b < 0 or not _can_relocate(s, b):
            ctr[READ_ONLY] = RO_NO_SPACE
            return
        _relocate(s, b, GC_COPIES)
        ctr[GC_VICTIMS] += 1


@_kernel
def _static_wear_level(s):
    """Chang et al. 2007: when the erase-count spread passes the threshold, move the data of the
    least-worn closed block (cold data that pins a young block) so the block returns to use."""
    blk, ctr, prm = s[2], s[5], s[6]
    threshold = prm[P_STATIC_WL]
    if ctr[EC_MAX] - ctr[EC_MIN] <= threshold:
        return
    best = -1
    for b in range(blk.shape[1]):
        if blk[STATE, b] == B_CLOSED and (best < 0 or blk[ERASES, b] < blk[ERASES, best]):
            best = b
    if best >= 0 and ctr[EC_MAX] - blk[ERASES, best] > threshold and _can_relocate(s, best):
        _relocate(s, best, WL_COPIES)


@_kernel
def _collect(s):
    """Garbage-collect up to the high watermark, with at most one static wear-levelling move."""
    _gc_until_high(s)
    if s[6][P_STATIC_WL] > 0 and s[5][READ_ONLY] == RO_NONE:
        _static_wear_level(s)
        _gc_until_high(s)


# ---------------------------------------------------------------- host operations
@_inline_kernel
def _host_stream(s, lba):
    """Frontier for a host write: 0, or with temperature separation 1 for cold data (the LBA was
    last written more than hot_window host writes ago, or never); with placement handles (oracle
    or tagged separation) the host frontier of the LBA's handle."""
    prm = s[6]
    if prm[P_N_HANDLES] > 1:
        return _handle(s, lba)
    if prm[P_SEP] != SEP_TEMPERATURE:
        return 0
    old = s[1][lba]
    if old < 0:
        return 1
    age = (s[5][HOST_WRITES] - np.int64(s[0][STAMP, old])) & 0xFFFFFFFF
    return 0 if age < prm[P_HOT_WINDOW] else 1


@_inline_kernel
def _host_write(s, lba):
    """Write one page out of place; False (nothing changed) if the device is read-only."""
    l2p, ctr, prm = s[1], s[5], s[6]
    if ctr[READ_ONLY] != RO_NONE:
        return False
    stream = _host_stream(s, lba)
    while _room(s, stream) == 0:
        if ctr[FREE_BLOCKS] == 0:
            ctr[READ_ONLY] = RO_NO_SPACE
            return False
        _open(s, stream)
        if ctr[FREE_BLOCKS] < prm[P_LOW]:
            _collect(s)
    old = l2p[lba]
    if old >= 0:
        _invalidate(s, old)
    hw = ctr[HOST_WRITES]
    _program(s, stream, lba, np.int32(np.int64(hw) & 0xFFFFFFFF))
    ctr[HOST_WRITES] = hw + 1
    return True


@_inline_kernel
def _host_read(s, lba):
    """Stamp of the data an LBA maps to (-1 if unmapped); counts read disturb and refreshes."""
    pages, l2p, blk, ctr, prm = s[0], s[1], s[2], s[5], s[6]
    ctr[HOST_READS] += 1
    ppn = l2p[lba]
    if ppn < 0:
        return -1
    stamp = pages[STAMP, ppn]
    limit = prm[P_REFRESH]
    if limit > 0:
        b = ppn // prm[P_PPB]
        blk[READS, b] += 1
        if blk[READS, b] >= limit and blk[STATE, b] == B_CLOSED and _can_relocate(s, b):
            _relocate(s, b, REFRESH_COPIES)
            if ctr[FREE_BLOCKS] < prm[P_LOW]:
                _collect(s)
    return stamp


@_inline_kernel
def _trim(s, lba):
    l2p = s[1]
    s[5][TRIMS] += 1
    old = l2p[lba]
    if old >= 0:
        _invalidate(s, old)
        l2p[lba] = -1


@_kernel
def run_ops(s, ops, lbas, out, series, sample_every, write_limit):
    """Apply host operations in order until they run out, host writes reach ``write_limit`` or a
    write is refused (read-only device). Returns the number of operations applied.

    ``out`` (same length as ``ops``, or empty) receives each read's stamp (-1 for other ops).
    Every ``sample_every`` host writes (0: never) the first NSERIES counters are copied to
    ``series[host_writes // sample_every]``.
    """
    ctr = s[5]
    record = out.shape[0] > 0
    for i in range(ops.shape[0]):
        op = ops[i]
        lba = lbas[i]
        got = -1
        if op == OP_WRITE:
            if ctr[HOST_WRITES] >= write_limit or not _host_write(s, lba):
                return i
            hw = ctr[HOST_WRITES]
            if sample_every > 0 and hw % sample_every == 0:
                row = hw // sample_every
                for j in range(NSERIES):
                    series[row, j] = ctr[j]
        elif op == OP_READ:
            got = _host_read(s, lba)
        else:
            _trim(s, lba)
        if record:
            out[i] = got
    return ops.shape[0]
