"""Numba kernels of the event-driven SSD timing model (struct of arrays, no jitclass).

The FTL kernels (:mod:`flashlab.ftl._kernels`) decide *which* pages are programmed, copied and
erased; these kernels decide *when*, on which plane and channel. The FTL sees one pool of
*superblocks*: FTL block ``b`` is physical block ``b`` of every plane ("unit"), and page ``w`` of
it lives on unit ``w % U`` at page ``w // U`` of that unit's block, so consecutive writes of a
frontier stripe across channels first, then dies, then planes.

The timing state is four flat arrays (few arguments per call keeps calls cheap):

``Z`` int64: parameters ``I_*`` and state scalars ``S_*``, then regions at the offsets stored in
``Z[I_O*]``: per-unit operation queues ``q`` (3 classes x U x CAP x 4: kind, physical page,
reference, sequence number), their heads/tails ``qht`` (3 x U x 2), unit state ``ui`` (U x NUI),
channels ``ch`` (C x 4) and their waiting units ``chq`` (C x U), event heap fields ``hi``
(H x 4: sequence, kind, argument, version), programs per page type ``cnt`` (U x 4) and the
running GC job's copies ``job`` (2 x ppb: source, destination page).
``X`` float64: parameters ``F_*`` (microseconds) and state ``V_*``, then unit times ``uf``
(U x 2: end of the array operation, remaining time of a suspended one), heap times ``ht`` (H),
``series`` (rows x NSER) and per-request times ``rqf`` (3 x N: arrival, start, done).
``R`` int32 (6 x N): per request op, first LBA (physical page for raw ops), pages left, pages,
and the two FIFOs of requests waiting to enter the device (reads, writes).
``P`` int8 (T): page type of every programmed page.

Every function is ``@njit(cache=True)`` without a signature (importing compiles nothing) and
allocates nothing (``_nrt=False``), like the FTL kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from flashlab.ftl import _kernels as F

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")

# Z: parameters
(I_U, I_C, I_BITS, I_PPBS, I_PPB, I_SCHED, I_SUSPEND, I_GC, I_FGPOL, I_CRIT, I_BGWM, I_STEER,
 I_CLOSED, I_QD, I_NREQ, I_SAMPLE, I_CAP, I_NROWS, I_SLACK, I_H,
 I_OQ, I_OQHT, I_OUI, I_OCH, I_OCHQ, I_OHI, I_OCNT, I_OJOB,
 I_OUF, I_OHT, I_OSER, I_ORQF, I_ORDER) = range(33)
NIP = I_ORDER + 4
# Z: state scalars
(S_SEQ, S_HN, S_NEXT, S_RH, S_RT, S_WH, S_WT, S_INFL, S_DONE, S_JOBV, S_JOBLEFT, S_JOBVALID,
 S_JOBERASE, S_FG, S_EVENTS, S_QSEQ, S_HPROG, S_GPROG, S_HREADP, S_PERASE, S_ERR, S_ROW,
 S_SUSPENDS, S_GREAD, S_TOISSUE) = range(NIP, NIP + 25)
NZH = NIP + 25
# X: parameters and state
F_TX, F_TR, F_TP, F_TBERS, F_RESUME = 0, 1, 5, 9, 10
V_NOW, V_TOKENS, V_FGSINCE, V_FGTIME = 11, 12, 13, 14
NXH = 15
# R rows, rqf rows
R_OP, R_LBA, R_LEFT, R_NP, R_PREAD, R_PWRITE = range(6)
NR = 6
R_ARR, R_START, R_DONE = 0, 1, 2

# request ops: host (workload codes) and raw NAND operations on a physical page
OP_WRITE, OP_READ = 0, 1
OP_RAW_READ, OP_RAW_PROG, OP_RAW_ERASE = 3, 4, 5

# operation kinds on a unit
K_HREAD, K_HWRITE, K_GREAD, K_GPROG, K_ERASE, K_RERASE = 0, 1, 2, 3, 4, 5
# queue classes
Q_READ, Q_WRITE, Q_GC = 0, 1, 2
# unit columns
U_KIND, U_PPN, U_REF, U_STAGE, U_VER, U_SHAS, U_SKIND, U_SPPN, U_SREF = range(9)
NUI = 9
UF_END, UF_SREM = 0, 1
# unit stages
ST_IDLE, ST_WAITCH, ST_XFER, ST_ARRAY = 0, 1, 2, 3
# channel columns
C_BUSY, C_UNIT, C_HEAD, C_TAIL = range(4)
# events
EV_UNIT, EV_CHAN = 0, 1
H_SEQ, H_KIND, H_ARG, H_VER = range(4)
# gc modes, schedulers, foreground policies
GC_OFF, GC_FG, GC_BG = 0, 1, 2
SCHED_FIFO, SCHED_READ = 0, 1
FG_WAIT, FG_THROTTLE = 0, 1
# errors
ERR_NONE, ERR_QUEUE, ERR_NO_SPACE, ERR_HEAP = 0, 1, 2, 3
# series columns
(SR_TIME, SR_DONE, SR_HWRITES, SR_HPROG, SR_HREADP, SR_GCOPIES, SR_ERASES, SR_FREE, SR_FGTIME,
 SR_QUEUED) = range(10)
NSER = 10


def layout(U, C, cap, H, ppbs, rows, n):
    """Sizes of Z, X and R and the region offsets (stored at Z[I_O*] by the caller)."""
    off = {}
    z = NZH
    for name, size in (("I_OQ", 3 * U * cap * 4), ("I_OQHT", 3 * U * 2), ("I_OUI", U * NUI),
                       ("I_OCH", C * 4), ("I_OCHQ", C * U), ("I_OHI", H * 4), ("I_OCNT", U * 4),
                       ("I_OJOB", 2 * ppbs)):
        off[name] = z
        z += size
    x = NXH
    for name, size in (("I_OUF", U * 2), ("I_OHT", H), ("I_OSER", rows * NSER), ("I_ORQF", 3 * n)):
        off[name] = x
        x += size
    return z, x, NR * n, off


# ---------------------------------------------------------------- event heap
@_inline
def _hless(X, Z, oht, ohi, a, b):
    return X[oht + a] < X[oht + b] or (X[oht + a] == X[oht + b] and Z[ohi + 4 * a] < Z[ohi + 4 * b])


@_kernel
def _heap_drop_stale(Z, X):
    """Remove the completion events that a suspension made stale (their unit's version moved on)
    and rebuild the heap. Pop order is unchanged: events are ordered by (time, sequence), which is
    a total order whatever the heap's layout."""
    oht, ohi = Z[I_OHT], Z[I_OHI]
    n = 0
    for i in range(Z[S_HN]):
        h = ohi + 4 * i
        if Z[h + H_KIND] == EV_UNIT and Z[h + H_VER] != Z[_ui(Z, Z[h + H_ARG]) + U_VER]:
            continue
        X[oht + n] = X[oht + i]
        for k in range(4):
            Z[ohi + 4 * n + k] = Z[h + k]
        n += 1
    Z[S_HN] = n
    for top in range(n // 2 - 1, -1, -1):  # heapify: sift each inner node down
        i = top
        while True:
            c = 2 * i + 1
            if c >= n:
                break
            if c + 1 < n and _hless(X, Z, oht, ohi, c + 1, c):
                c += 1
            if not _hless(X, Z, oht, ohi, c, i):
                break
            t = X[oht + i]
            X[oht + i] = X[oht + c]
            X[oht + c] = t
            for k in range(4):
                a = Z[ohi + 4 * i + k]
                Z[ohi + 4 * i + k] = Z[ohi + 4 * c + k]
                Z[ohi + 4 * c + k] = a
            i = c


@_kernel
def _heap_push(Z, X, time, kind, arg, ver):
    """Schedule an event. The heap holds at most one live event per unit and per channel (its
    size, ``I_H``, has slack on top of that); stale completion events left by suspensions are
    dropped when the heap fills, and if it is still full the run stops with ``ERR_HEAP``."""
    if Z[S_HN] >= Z[I_H]:
        _heap_drop_stale(Z, X)
        if Z[S_HN] >= Z[I_H]:
            Z[S_ERR] = ERR_HEAP
            return
    oht, ohi = Z[I_OHT], Z[I_OHI]
    seq = Z[S_SEQ]
    Z[S_SEQ] = seq + 1
    i = Z[S_HN]
    Z[S_HN] = i + 1
    while i > 0:
        p = (i - 1) >> 1
        tp = X[oht + p]
        if tp < time or (tp == time and Z[ohi + 4 * p] < seq):
            break
        X[oht + i] = tp
        for k in range(4):
            Z[ohi + 4 * i + k] = Z[ohi + 4 * p + k]
        i = p
    X[oht + i] = time
    Z[ohi + 4 * i + H_SEQ] = seq
    Z[ohi + 4 * i + H_KIND] = kind
    Z[ohi + 4 * i + H_ARG] = arg
    Z[ohi + 4 * i + H_VER] = ver


@_kernel
def _heap_pop(Z, X):
    """Remove the earliest event; its fields are left in slot n (returned)."""
    oht, ohi = Z[I_OHT], Z[I_OHI]
    n = Z[S_HN] - 1
    Z[S_HN] = n
    rt = X[oht]
    r0, r1, r2, r3 = Z[ohi], Z[ohi + 1], Z[ohi + 2], Z[ohi + 3]
    lt = X[oht + n]
    l0, l1, l2, l3 = Z[ohi + 4 * n], Z[ohi + 4 * n + 1], Z[ohi + 4 * n + 2], Z[ohi + 4 * n + 3]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _hless(X, Z, oht, ohi, c + 1, c):
            c += 1
        tc = X[oht + c]
        if tc > lt or (tc == lt and Z[ohi + 4 * c] > l0):
            break
        X[oht + i] = tc
        for k in range(4):
            Z[ohi + 4 * i + k] = Z[ohi + 4 * c + k]
        i = c
    if n > 0:
        X[oht + i] = lt
        j = ohi + 4 * i
        Z[j], Z[j + 1], Z[j + 2], Z[j + 3] = l0, l1, l2, l3
    X[oht + n] = rt
    j = ohi + 4 * n
    Z[j], Z[j + 1], Z[j + 2], Z[j + 3] = r0, r1, r2, r3
    return n


# ---------------------------------------------------------------- helpers
@_inline
def _unit_of(Z, ppn):
    return (ppn % Z[I_PPBS]) % Z[I_U]


@_inline
def _qht(Z, cls, u):
    """Index of the head of queue (cls, u) in Z (the tail follows it)."""
    return Z[I_OQHT] + 2 * (cls * Z[I_U] + u)


@_inline
def _qslot(Z, cls, u, pos):
    return Z[I_OQ] + 4 * ((cls * Z[I_U] + u) * Z[I_CAP] + pos % Z[I_CAP])


@_inline
def _ui(Z, u):
    return Z[I_OUI] + NUI * u


@_inline
def _uf(Z, u):
    return Z[I_OUF] + 2 * u


@_inline
def _rqf(Z, row, i):
    return Z[I_ORQF] + row * Z[I_NREQ] + i


@_inline
def _r(Z, row, i):
    return row * Z[I_NREQ] + i


@_inline
def _enqueue(Z, cls, u, kind, ppn, ref):
    h = _qht(Z, cls, u)
    tail = Z[h + 1]
    if tail - Z[h] >= Z[I_CAP]:
        Z[S_ERR] = ERR_QUEUE
        return
    j = _qslot(Z, cls, u, tail)
    Z[j] = kind
    Z[j + 1] = ppn
    Z[j + 2] = ref
    Z[j + 3] = Z[S_QSEQ]
    Z[S_QSEQ] += 1
    Z[h + 1] = tail + 1


# ---------------------------------------------------------------- units and channels
@_inline
def _start_xfer(Z, X, c, u):
    oc = Z[I_OCH] + 4 * c
    Z[oc + C_BUSY] = 1
    Z[oc + C_UNIT] = u
    Z[_ui(Z, u) + U_STAGE] = ST_XFER
    _heap_push(Z, X, X[V_NOW] + X[F_TX], EV_CHAN, c, 0)


@_inline
def _channel_request(Z, X, u):
    c = u % Z[I_C]
    oc = Z[I_OCH] + 4 * c
    if Z[oc + C_BUSY] == 0:
        _start_xfer(Z, X, c, u)
    else:
        Z[_ui(Z, u) + U_STAGE] = ST_WAITCH
        Z[Z[I_OCHQ] + c * Z[I_U] + Z[oc + C_TAIL] % Z[I_U]] = u
        Z[oc + C_TAIL] += 1


@_inline
def _array_op(Z, X, u, dur):
    o = _ui(Z, u)
    Z[o + U_STAGE] = ST_ARRAY
    end = X[V_NOW] + dur
    X[_uf(Z, u) + UF_END] = end
    _heap_push(Z, X, end, EV_UNIT, u, Z[o + U_VER])


@_kernel
def _start_op(Z, X, P, u, kind, ppn, ref):
    o = _ui(Z, u)
    Z[o + U_KIND] = kind
    Z[o + U_PPN] = ppn
    Z[o + U_REF] = ref
    if (kind == K_HREAD or kind == K_HWRITE or kind == K_RERASE) and ref >= 0:
        j = _rqf(Z, R_START, ref)
        if X[j] < 0:
            X[j] = X[V_NOW]
    if kind == K_HREAD or kind == K_GREAD:
        _array_op(Z, X, u, X[F_TR + P[ppn]])
    elif kind == K_HWRITE or kind == K_GPROG:
        _channel_request(Z, X, u)
    else:
        _array_op(Z, X, u, X[F_TBERS])


@_inline
def _qlen(Z, cls, u):
    h = _qht(Z, cls, u)
    return Z[h + 1] - Z[h]


@_inline
def _head_seq(Z, cls, u):
    return Z[_qslot(Z, cls, u, Z[_qht(Z, cls, u)]) + 3]


@_kernel
def _pick_class(Z, u):
    """Queue class the idle unit serves next, or -1 if all are empty."""
    nr = _qlen(Z, Q_READ, u) > 0
    nw = _qlen(Z, Q_WRITE, u) > 0
    ng = _qlen(Z, Q_GC, u) > 0
    if Z[I_SCHED] == SCHED_READ:
        if nr:
            return Q_READ
        host = Q_WRITE if nw else -1
    else:
        host = -1
        if nr and nw:
            host = Q_READ if _head_seq(Z, Q_READ, u) < _head_seq(Z, Q_WRITE, u) else Q_WRITE
        elif nr:
            host = Q_READ
        elif nw:
            host = Q_WRITE
    if Z[S_FG] != 0 and ng and host != Q_READ:
        return Q_GC  # foreground GC goes before host writes
    if host >= 0:
        return host
    if ng:
        return Q_GC
    return -1


@_kernel
def _start_next(Z, X, P, u):
    """Give an idle unit its next operation (or resume a suspended one)."""
    o = _ui(Z, u)
    if Z[o + U_SHAS]:
        if _qlen(Z, Q_READ, u) > 0:
            cls = Q_READ
        else:  # resume the suspended program or erase
            Z[o + U_SHAS] = 0
            Z[o + U_KIND] = Z[o + U_SKIND]
            Z[o + U_PPN] = Z[o + U_SPPN]
            Z[o + U_REF] = Z[o + U_SREF]
            _array_op(Z, X, u, X[_uf(Z, u) + UF_SREM] + X[F_RESUME])
            return
    else:
        cls = _pick_class(Z, u)
        if cls < 0:
            Z[o + U_STAGE] = ST_IDLE
            return
    h = _qht(Z, cls, u)
    j = _qslot(Z, cls, u, Z[h])
    Z[h] += 1
    _start_op(Z, X, P, u, Z[j], Z[j + 1], Z[j + 2])


@_kernel
def _maybe_suspend(Z, X, P, u):
    """With suspension on, suspend the program or erase in the array of unit u if host reads
    are queued there and it is not already suspended, and serve the reads."""
    o = _ui(Z, u)
    if Z[I_SUSPEND] == 0 or Z[o + U_STAGE] != ST_ARRAY or Z[o + U_SHAS] != 0 or _qlen(Z, Q_READ, u) == 0:
        return
    k = Z[o + U_KIND]
    if k == K_HWRITE or k == K_GPROG or k == K_ERASE or k == K_RERASE:
        Z[o + U_SHAS] = 1
        Z[o + U_SKIND] = k
        Z[o + U_SPPN] = Z[o + U_PPN]
        Z[o + U_SREF] = Z[o + U_REF]
        f = _uf(Z, u)
        X[f + UF_SREM] = X[f + UF_END] - X[V_NOW]
        Z[o + U_VER] += 1  # the pending completion event is now stale
        Z[o + U_STAGE] = ST_IDLE
        Z[S_SUSPENDS] += 1
        _start_next(Z, X, P, u)


@_kernel
def _submit(Z, X, P, cls, u, kind, ppn, ref):
    """Queue an operation on unit u; start it at once if the unit is idle; a host read
    suspends a program or erase in its array phase when suspension is on (a read arriving
    while a program's data is still coming in over the channel, or while the program waits for
    the channel, suspends it the moment its array phase starts: see :func:`_on_channel`)."""
    _enqueue(Z, cls, u, kind, ppn, ref)
    o = _ui(Z, u)
    if Z[o + U_STAGE] == ST_IDLE and Z[o + U_SHAS] == 0:
        _start_next(Z, X, P, u)
    elif cls == Q_READ:
        _maybe_suspend(Z, X, P, u)


# ---------------------------------------------------------------- page types
@_inline
def _choose_type(Z, u, ppn, gc):
    """Page type of a new program on unit u: its position in the block, or with fast-page
    steering the fastest type (host) / slowest type (GC) that keeps every type within a slack
    of the least-used one on that unit."""
    bits = Z[I_BITS]
    if bits == 1:
        return 0
    if Z[I_STEER] == 0:
        return ((ppn % Z[I_PPBS]) // Z[I_U]) % bits
    oc = Z[I_OCNT] + 4 * u
    mn = Z[oc]
    for k in range(1, bits):
        if Z[oc + k] < mn:
            mn = Z[oc + k]
    chosen = 0
    for j in range(bits):
        k = Z[I_ORDER + (bits - 1 - j if gc else j)]
        if Z[oc + k] - mn < Z[I_SLACK]:
            chosen = k
            break
    Z[oc + chosen] += 1
    return chosen


# ---------------------------------------------------------------- FTL side: host writes and GC jobs
@_kernel
def _map_host_write(Z, P, s, lba):
    """Map one host page write (as flashlab.ftl's _host_write, without its synchronous GC);
    returns the physical page. The caller has checked there is room."""
    l2p, blk, ctr = s[1], s[2], s[5]
    if F._room(s, 0) == 0:
        F._open(s, 0)
    old = l2p[lba]
    if old >= 0:
        F._invalidate(s, old)
    f = ctr[F.FRONT]
    ppn = f * s[6][F.P_PPB] + blk[F.WP, f]
    hw = ctr[F.HOST_WRITES]
    P[ppn] = _choose_type(Z, _unit_of(Z, ppn), ppn, False)
    F._program(s, 0, lba, np.int32(np.int64(hw) & 0xFFFFFFFF))
    ctr[F.HOST_WRITES] = hw + 1
    return ppn


@_kernel
def _queue_erases(Z, X, P):
    n = Z[I_U]
    Z[S_JOBERASE] = n
    base = Z[S_JOBV] * Z[I_PPBS]
    for u in range(n):
        _submit(Z, X, P, Q_GC, u, K_ERASE, base + u, -1)


@_kernel
def _start_job(Z, X, P, s):
    """Pick a victim, remap its valid pages to the GC frontier (the FTL's _relocate without the
    erase) and queue the copy reads; the erase is queued when the last copy is programmed."""
    pages, blk, ctr, ppb = s[0], s[2], s[5], s[6][F.P_PPB]
    v = F._pick_victim(s)
    if v < 0:
        return
    if not F._can_relocate(s, blk[F.VALID, v]):
        Z[S_ERR] = ERR_NO_SPACE
        return
    lst = F._list_of(s, v)
    if lst >= 0:
        F._list_remove(s, lst, v)
    blk[F.STATE, v] = F.B_FREE  # being cleaned: in no list and not in the pool until erased
    base = v * ppb
    oj = Z[I_OJOB]
    j = 0
    Z[S_JOBV] = v
    for i in range(ppb):
        lba = pages[F.P2L, base + i]
        if lba >= 0:
            if F._room(s, F.GC_STREAM) == 0:
                F._open(s, F.GC_STREAM)
            f = ctr[F.FRONT + F.GC_STREAM]
            dst = f * ppb + blk[F.WP, f]
            P[dst] = _choose_type(Z, _unit_of(Z, dst), dst, True)
            F._program(s, F.GC_STREAM, lba, pages[F.STAMP, base + i])
            ctr[F.GC_COPIES] += 1
            Z[oj + j] = base + i
            Z[oj + ppb + j] = dst
            j += 1
    ctr[F.LAST_VICTIM] = v
    Z[S_JOBLEFT] = j
    Z[S_JOBVALID] = j
    for k in range(j):
        src = Z[oj + k]
        _submit(Z, X, P, Q_GC, _unit_of(Z, src), K_GREAD, src, k)
    if j == 0:
        _queue_erases(Z, X, P)


@_kernel
def _update_gc(Z, X, P, s):
    """Foreground state from the free-block count; start a GC job when one is due."""
    mode = Z[I_GC]
    if mode == GC_OFF:
        return
    free = s[5][F.FREE_BLOCKS]
    fg = free < Z[I_CRIT]
    if fg and Z[S_FG] == 0:
        Z[S_FG] = 1
        X[V_TOKENS] = 0.0
        X[V_FGSINCE] = X[V_NOW]
    elif not fg and Z[S_FG] != 0:
        Z[S_FG] = 0
        X[V_FGTIME] += X[V_NOW] - X[V_FGSINCE]
    if Z[S_JOBV] < 0 and Z[S_ERR] == ERR_NONE:
        if fg or (mode == GC_BG and free < Z[I_BGWM]):
            _start_job(Z, X, P, s)


# ---------------------------------------------------------------- host requests
@_kernel
def _write_gate(Z, X, s, k):
    """True if a host write of k pages may enter the device now."""
    ppb = s[6][F.P_PPB]
    room = F._room(s, 0)
    free = s[5][F.FREE_BLOCKS]
    if Z[I_GC] == GC_OFF:
        return room + free * ppb >= k
    if room + max(0, free - 1) * ppb < k:  # the last free block is kept for GC
        return False
    if Z[S_FG] != 0:
        if Z[I_FGPOL] == FG_WAIT:
            return False
        if X[V_TOKENS] < k:
            return False
        X[V_TOKENS] -= k
    return True


@_kernel
def _sample(Z, X, s):
    row = Z[S_ROW]
    if row >= Z[I_NROWS]:
        return
    Z[S_ROW] = row + 1
    ctr = s[5]
    o = Z[I_OSER] + row * NSER
    X[o + SR_TIME] = X[V_NOW]
    X[o + SR_DONE] = Z[S_DONE]
    X[o + SR_HWRITES] = ctr[F.HOST_WRITES]
    X[o + SR_HPROG] = Z[S_HPROG]
    X[o + SR_HREADP] = Z[S_HREADP]
    X[o + SR_GCOPIES] = Z[S_GPROG]
    X[o + SR_ERASES] = Z[S_PERASE]
    X[o + SR_FREE] = ctr[F.FREE_BLOCKS]
    fgt = X[V_FGTIME]
    if Z[S_FG] != 0:
        fgt += X[V_NOW] - X[V_FGSINCE]
    X[o + SR_FGTIME] = fgt
    X[o + SR_QUEUED] = Z[S_INFL] + (Z[S_RT] - Z[S_RH]) + (Z[S_WT] - Z[S_WH])


@_kernel
def _complete(Z, X, s, i):
    X[_rqf(Z, R_DONE, i)] = X[V_NOW]
    Z[S_INFL] -= 1
    Z[S_DONE] += 1
    if Z[I_SAMPLE] > 0 and Z[S_DONE] % Z[I_SAMPLE] == 0:
        _sample(Z, X, s)
    if Z[I_CLOSED]:
        Z[S_TOISSUE] += 1  # the closed loop replaces it (issued by _settle, no recursion)


@_kernel
def _issue(Z, X, R, i):
    """Request i arrives at the host queue (closed loop: now; open loop: its arrival time)."""
    if Z[I_CLOSED]:
        X[_rqf(Z, R_ARR, i)] = X[V_NOW]
    if R[_r(Z, R_OP, i)] == OP_WRITE:
        R[_r(Z, R_PWRITE, Z[S_WT])] = i
        Z[S_WT] += 1
    else:
        R[_r(Z, R_PREAD, Z[S_RT])] = i
        Z[S_RT] += 1


@_kernel
def _dispatch(Z, X, R, P, s):
    """Move waiting requests into the device while the queue depth (and the write gate) allow."""
    l2p = s[1]
    qd = Z[I_QD]
    while Z[S_RH] < Z[S_RT] and Z[S_INFL] < qd:
        i = R[_r(Z, R_PREAD, Z[S_RH])]
        Z[S_RH] += 1
        Z[S_INFL] += 1
        op = R[_r(Z, R_OP, i)]
        lba = R[_r(Z, R_LBA, i)]
        left = _r(Z, R_LEFT, i)
        if op == OP_READ:
            k = R[_r(Z, R_NP, i)]
            R[left] = k
            s[5][F.HOST_READS] += k
            for p in range(k):
                ppn = l2p[lba + p]
                if ppn < 0:  # unmapped: answered without a flash read
                    R[left] -= 1
                else:
                    _submit(Z, X, P, Q_READ, _unit_of(Z, ppn), K_HREAD, ppn, i)
            if R[left] == 0:
                X[_rqf(Z, R_START, i)] = X[V_NOW]
                _complete(Z, X, s, i)
        else:  # raw NAND operations on a given physical page
            R[left] = 1
            u = _unit_of(Z, lba)
            if op == OP_RAW_READ:
                _submit(Z, X, P, Q_READ, u, K_HREAD, lba, i)
            elif op == OP_RAW_PROG:
                _submit(Z, X, P, Q_WRITE, u, K_HWRITE, lba, i)
            else:
                _submit(Z, X, P, Q_WRITE, u, K_RERASE, lba, i)
    while Z[S_WH] < Z[S_WT] and Z[S_INFL] < qd and Z[S_ERR] == ERR_NONE:
        i = R[_r(Z, R_PWRITE, Z[S_WH])]
        k = R[_r(Z, R_NP, i)]
        if not _write_gate(Z, X, s, k):
            break
        Z[S_WH] += 1
        Z[S_INFL] += 1
        R[_r(Z, R_LEFT, i)] = k
        lba = R[_r(Z, R_LBA, i)]
        for p in range(k):
            ppn = _map_host_write(Z, P, s, lba + p)
            _submit(Z, X, P, Q_WRITE, _unit_of(Z, ppn), K_HWRITE, ppn, i)
        _update_gc(Z, X, P, s)


@_kernel
def _settle(Z, X, R, P, s):
    """After an event: issue the closed loop's replacement requests and let waiting requests in."""
    while True:
        while Z[S_TOISSUE] > 0:
            Z[S_TOISSUE] -= 1
            if Z[S_NEXT] < Z[I_NREQ]:
                i = Z[S_NEXT]
                Z[S_NEXT] = i + 1
                _issue(Z, X, R, i)
        if Z[S_INFL] < Z[I_QD] and (Z[S_RH] < Z[S_RT] or Z[S_WH] < Z[S_WT]):
            _dispatch(Z, X, R, P, s)
        if Z[S_TOISSUE] == 0:
            return


# ---------------------------------------------------------------- completions
@_kernel
def _finish(Z, X, R, P, s, u):
    """The operation on unit u is complete: the unit goes idle, then its effects happen."""
    o = _ui(Z, u)
    kind = Z[o + U_KIND]
    ref = Z[o + U_REF]
    Z[o + U_STAGE] = ST_IDLE
    if kind == K_HREAD or kind == K_HWRITE or kind == K_RERASE:
        if kind == K_HREAD:
            Z[S_HREADP] += 1
        elif kind == K_HWRITE:
            Z[S_HPROG] += 1
        else:
            Z[S_PERASE] += 1
        left = _r(Z, R_LEFT, ref)
        R[left] -= 1
        if R[left] == 0:
            _complete(Z, X, s, ref)
    elif kind == K_GREAD:
        Z[S_GREAD] += 1
        dst = Z[Z[I_OJOB] + Z[I_PPBS] + ref]
        _submit(Z, X, P, Q_GC, _unit_of(Z, dst), K_GPROG, dst, ref)
    elif kind == K_GPROG:
        Z[S_GPROG] += 1
        Z[S_JOBLEFT] -= 1
        if Z[S_FG] != 0 and Z[I_FGPOL] == FG_THROTTLE:
            valid = Z[S_JOBVALID]
            X[V_TOKENS] += (Z[I_PPBS] - valid) / valid
        if Z[S_JOBLEFT] == 0:
            _queue_erases(Z, X, P)
    else:  # K_ERASE of a GC job
        Z[S_PERASE] += 1
        Z[S_JOBERASE] -= 1
        if Z[S_JOBERASE] == 0:
            v = Z[S_JOBV]
            Z[S_JOBV] = -1
            F._erase(s, v)
            s[5][F.GC_VICTIMS] += 1
            _update_gc(Z, X, P, s)
    if Z[o + U_STAGE] == ST_IDLE:
        _start_next(Z, X, P, u)


@_kernel
def _on_channel(Z, X, R, P, s, c):
    oc = Z[I_OCH] + 4 * c
    u = Z[oc + C_UNIT]
    Z[oc + C_BUSY] = 0
    if Z[oc + C_HEAD] < Z[oc + C_TAIL]:
        nxt = Z[Z[I_OCHQ] + c * Z[I_U] + Z[oc + C_HEAD] % Z[I_U]]
        Z[oc + C_HEAD] += 1
        _start_xfer(Z, X, c, nxt)
    o = _ui(Z, u)
    kind = Z[o + U_KIND]
    if kind == K_HWRITE or kind == K_GPROG:
        _array_op(Z, X, u, X[F_TP + P[Z[o + U_PPN]]])  # data is in: program
        # Suspension acts on the array operation: host reads that arrived during the data-in
        # transfer (or while the program waited for the channel) suspend it now, before it
        # has done any work, and it resumes after them with the resume overhead.
        _maybe_suspend(Z, X, P, u)
    else:
        _finish(Z, X, R, P, s, u)  # data is out: the read is done


@_kernel
def run_events(Z, X, R, P, s, stop_done):
    """Process events until ``stop_done`` requests have completed, the events run out, or an
    error is flagged. Open-loop arrivals come from the arrival times in request order."""
    closed = Z[I_CLOSED]
    nreq = Z[I_NREQ]
    oht, ohi = Z[I_OHT], Z[I_OHI]
    oarr = Z[I_ORQF] + R_ARR * nreq
    inf = np.inf
    while Z[S_DONE] < stop_done and Z[S_ERR] == ERR_NONE:
        t_heap = X[oht] if Z[S_HN] > 0 else inf
        t_arr = inf
        if not closed and Z[S_NEXT] < nreq:
            t_arr = X[oarr + Z[S_NEXT]]
        if t_arr == inf and t_heap == inf:
            break
        Z[S_EVENTS] += 1
        if t_arr <= t_heap:
            X[V_NOW] = t_arr
            i = Z[S_NEXT]
            Z[S_NEXT] = i + 1
            _issue(Z, X, R, i)
        else:
            n = _heap_pop(Z, X)
            X[V_NOW] = X[oht + n]
            h = ohi + 4 * n
            if Z[h + H_KIND] == EV_UNIT:
                u = Z[h + H_ARG]
                if Z[h + H_VER] == Z[_ui(Z, u) + U_VER]:  # else: suspended since scheduled
                    k = Z[_ui(Z, u) + U_KIND]
                    if k == K_HREAD or k == K_GREAD:
                        _channel_request(Z, X, u)  # sensed: data out
                    else:
                        _finish(Z, X, R, P, s, u)
            else:
                _on_channel(Z, X, R, P, s, Z[h + H_ARG])
        if Z[S_TOISSUE] > 0 or (Z[S_INFL] < Z[I_QD] and (Z[S_RH] < Z[S_RT] or Z[S_WH] < Z[S_WT])):
            _settle(Z, X, R, P, s)
    return Z[S_DONE]


@_kernel
def start_closed(Z, X, R, P, s, n):
    """Issue the first n requests of a closed loop at time 0."""
    for _ in range(n):
        i = Z[S_NEXT]
        Z[S_NEXT] = i + 1
        _issue(Z, X, R, i)
    _settle(Z, X, R, P, s)
