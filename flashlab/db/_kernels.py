"""Numba kernel of the database layer: the OLTP buffer-pool event loop of :mod:`flashlab.db.oltp`.

One clock, three kinds of event, kept in a binary heap (:mod:`flashlab._heap`) of (time, tag),
tag = ``4 * id + kind`` (its source and its tie-break):

* ``EV_SESSION``: session ``id`` has finished its CPU work and starts its next block access;
* ``EV_READ``: session ``id``'s physical read has completed;
* ``EV_WRITE``: the database writer's write of buffer ``id`` has completed.

Devices are first-come first-served single servers whose service times do not depend on when a
request starts, so a request's completion time is known when it is issued
(``max(now, free_at) + service``) and only that completion is an event. At most one event per
session and one per write in flight are pending, so the heap holds at most
``sessions + dbwr_depth`` entries (the wrapper sizes it so). Every array index the loop reaches
is a buffer (``< buffers``), a block (``< blocks``), a session, a device or an access counter
bounded by ``accesses`` (each access dirties at most once, so writes and reads are at most
``accesses`` too). Every function is ``@njit(cache=True)`` without a signature.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from flashlab import _heap as H

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")

EV_SESSION, EV_READ, EV_WRITE = np.int64(0), np.int64(1), np.int64(2)
FREE, CLEAN, DIRTY, READING = np.int8(0), np.int8(1), np.int8(2), np.int8(3)
WANTED = np.int64(-2)  # block_buf of a block a session waits for a free buffer to read


class Pool(NamedTuple):
    """Inputs, state and outputs of :func:`run_oltp` (arrays; one-element arrays for scalars).

    Workload, per access ``i``: ``block[i]``, ``modify[i]`` (the access dirties its block),
    ``pick[i]`` in [0, 1) (which clean buffer a miss replaces). Per block: ``in_flash``,
    ``block_buf`` (its buffer or -1). Per buffer: ``buf_block`` (-1 empty), ``state`` (FREE,
    CLEAN, DIRTY, READING; a buffer being written stays DIRTY), ``writing``, ``redirty``
    (modified again while its write was in flight), ``write_start``. Sets and queues: ``free``
    (stack of empty buffers), ``avail``/``avail_pos`` (clean buffers not being written, which a
    miss may replace), ``dq`` (ring of dirty buffers waiting for the writer, in dirtying order),
    ``wq`` (ring of sessions waiting for a free buffer). Per session: ``sess_acc``,
    ``sess_block``, ``sess_t``. Devices: ``disk_free``, ``flash_free`` (when each server is
    next idle, us), ``disk_read_us``/``disk_write_us`` (service time of the k-th disk read and
    write), ``flash_read_us``, ``flash_write_us``. Outputs: ``read_lat``, ``write_lat``,
    ``done_t`` (completion time of the k-th finished access) and the samples ``s_time``,
    ``s_state`` (rows: free, clean, dirty, reading) and ``s_wait`` (cumulative free-buffer wait,
    us), taken each ``stride`` finished accesses."""

    block: np.ndarray
    modify: np.ndarray
    pick: np.ndarray
    in_flash: np.ndarray
    block_buf: np.ndarray
    buf_block: np.ndarray
    state: np.ndarray
    writing: np.ndarray
    redirty: np.ndarray
    write_start: np.ndarray
    free: np.ndarray
    avail: np.ndarray
    avail_pos: np.ndarray
    dq: np.ndarray
    wq: np.ndarray
    sess_acc: np.ndarray
    sess_block: np.ndarray
    sess_t: np.ndarray
    disk_free: np.ndarray
    flash_free: np.ndarray
    disk_read_us: np.ndarray
    disk_write_us: np.ndarray
    flash_read_us: np.ndarray
    flash_write_us: np.ndarray
    cpu_us: np.ndarray
    write_back: np.ndarray
    depth: np.ndarray
    stride: np.ndarray
    heap: H.Heap  # pending events, source = tag (flashlab._heap)
    read_lat: np.ndarray
    write_lat: np.ndarray
    done_t: np.ndarray
    s_time: np.ndarray
    s_state: np.ndarray
    s_wait: np.ndarray
    count: np.ndarray  # state counts, indexed FREE, CLEAN, DIRTY, READING
    reads_done: np.ndarray  # this and the counters below: one element each
    next_acc: np.ndarray
    done: np.ndarray
    hits: np.ndarray
    disk_reads: np.ndarray
    flash_reads: np.ndarray
    waits: np.ndarray
    wait_us: np.ndarray
    dirtyings: np.ndarray
    coalesced: np.ndarray
    writes_issued: np.ndarray
    writes_done: np.ndarray
    inflight: np.ndarray
    free_n: np.ndarray
    avail_n: np.ndarray
    dq_head: np.ndarray
    dq_len: np.ndarray
    wq_head: np.ndarray
    wq_len: np.ndarray
    samples: np.ndarray
    error: np.ndarray


@_inline
def _push(p, t, tag):
    """Schedule event ``tag`` at time t (ties: smaller tag first); a second pending event of one
    tag (a bug) sets ``error`` to 2 instead."""
    if not H.push(p.heap, t, tag, tag):
        p.error[0] = 2


@_inline
def _set_state(p, f, st):
    p.count[p.state[f]] -= 1
    p.count[st] += 1
    p.state[f] = st


@_inline
def _avail_add(p, f):
    p.avail_pos[f] = p.avail_n[0]
    p.avail[p.avail_n[0]] = f
    p.avail_n[0] += 1


@_inline
def _avail_remove(p, f):
    k = p.avail_pos[f]
    last = p.avail[p.avail_n[0] - 1]
    p.avail[k] = last
    p.avail_pos[last] = k
    p.avail_pos[f] = -1
    p.avail_n[0] -= 1


@_inline
def _dq_push(p, f):
    B = p.dq.size
    p.dq[(p.dq_head[0] + p.dq_len[0]) % B] = f
    p.dq_len[0] += 1


@_inline
def _dirty(p, f):
    """Access modifies buffer f (resident, not being read)."""
    if p.state[f] == CLEAN:
        _avail_remove(p, f)
        _set_state(p, f, DIRTY)
        _dq_push(p, f)
        p.dirtyings[0] += 1
    elif p.writing[f] and not p.redirty[f]:
        p.redirty[f] = True  # it needs one more write once this one completes
        p.dirtyings[0] += 1
    else:
        p.coalesced[0] += 1  # already waiting for a write that will carry this change too


@_inline
def _finish_access(p, now):
    k = p.done[0]
    p.done_t[k] = now
    p.done[0] = k + 1
    if (k + 1) % p.stride[0] == 0 and p.samples[0] < p.s_time.size:
        j = p.samples[0]
        p.s_time[j] = now
        for st in range(4):
            p.s_state[st, j] = p.count[st]
        p.s_wait[j] = p.wait_us[0]
        p.samples[0] = j + 1


@_inline
def _take_buffer(p, s, now):
    """Give session s a buffer for its missed block and issue the read; False if none is free."""
    if p.free_n[0] > 0:
        p.free_n[0] -= 1
        f = p.free[p.free_n[0]]
    elif p.avail_n[0] > 0:
        f = p.avail[min(int(p.pick[p.sess_acc[s]] * p.avail_n[0]), p.avail_n[0] - 1)]
        _avail_remove(p, f)
        p.block_buf[p.buf_block[f]] = -1  # the replaced block leaves the pool
    else:
        return False
    b = p.sess_block[s]
    p.buf_block[f] = b
    p.block_buf[b] = f
    _set_state(p, f, READING)
    if p.in_flash[b]:
        u = b % p.flash_free.size
        t = max(now, p.flash_free[u]) + p.flash_read_us[0]
        p.flash_free[u] = t
        p.flash_reads[0] += 1
    else:
        d = b % p.disk_free.size
        t = max(now, p.disk_free[d]) + p.disk_read_us[p.disk_reads[0]]
        p.disk_free[d] = t
        p.disk_reads[0] += 1
    p.sess_t[s] = now
    _push(p, t, 4 * s + EV_READ)
    return True


@_inline
def _start_access(p, s, now):
    i = p.next_acc[0]
    if i >= p.block.size:
        return  # every access is handed out: the session stops
    p.next_acc[0] = i + 1
    p.sess_acc[s] = i
    b = p.block[i]
    N = p.block_buf.size
    while p.block_buf[b] == WANTED or (p.block_buf[b] >= 0 and p.state[p.block_buf[b]] == READING):
        b = (b + 1) % N  # being read, or awaited, by another session: the next block (blocks > buffers + sessions)
    p.sess_block[s] = b
    f = p.block_buf[b]
    if f >= 0:
        p.hits[0] += 1
        if p.modify[i]:
            _dirty(p, f)
        _finish_access(p, now)
        _push(p, now + p.cpu_us[0], 4 * s + EV_SESSION)
    elif not _take_buffer(p, s, now):
        S = p.wq.size
        p.wq[(p.wq_head[0] + p.wq_len[0]) % S] = s
        p.wq_len[0] += 1
        p.block_buf[b] = WANTED  # no other session reads it meanwhile
        p.sess_t[s] = now
        p.waits[0] += 1


@_inline
def _serve_waiters(p, now):
    S = p.wq.size
    while p.wq_len[0] > 0 and (p.free_n[0] > 0 or p.avail_n[0] > 0):
        s = p.wq[p.wq_head[0]]
        p.wq_head[0] = (p.wq_head[0] + 1) % S
        p.wq_len[0] -= 1
        p.wait_us[0] += now - p.sess_t[s]
        _take_buffer(p, s, now)


@_inline
def _read_done(p, s, now):
    f = p.block_buf[p.sess_block[s]]
    p.read_lat[p.reads_done[0]] = now - p.sess_t[s]
    p.reads_done[0] += 1
    i = p.sess_acc[s]
    if p.modify[i]:
        _set_state(p, f, DIRTY)
        _dq_push(p, f)
        p.dirtyings[0] += 1
    else:
        _set_state(p, f, CLEAN)
        _avail_add(p, f)
        _serve_waiters(p, now)
    _finish_access(p, now)
    _push(p, now + p.cpu_us[0], 4 * s + EV_SESSION)


@_inline
def _write_done(p, f, now):
    p.writing[f] = False
    p.inflight[0] -= 1
    p.write_lat[p.writes_done[0]] = now - p.write_start[f]
    p.writes_done[0] += 1
    p.in_flash[p.buf_block[f]] = True  # both policies write the flash copy
    if p.redirty[f]:
        p.redirty[f] = False
        _dq_push(p, f)
    else:
        _set_state(p, f, CLEAN)
        _avail_add(p, f)
        _serve_waiters(p, now)


@_inline
def _dbwr(p, now):
    """The database writer keeps up to ``depth`` writes in flight, oldest dirty buffer first."""
    B = p.dq.size
    U = p.flash_free.size
    while p.inflight[0] < p.depth[0] and p.dq_len[0] > 0:
        f = p.dq[p.dq_head[0]]
        p.dq_head[0] = (p.dq_head[0] + 1) % B
        p.dq_len[0] -= 1
        p.writing[f] = True
        p.inflight[0] += 1
        p.write_start[f] = now
        u = 0  # the flash copy goes to the unit that is idle first (a log-structured FTL writes anywhere)
        for v in range(1, U):
            if p.flash_free[v] < p.flash_free[u]:
                u = v
        t = max(now, p.flash_free[u]) + p.flash_write_us[0]
        p.flash_free[u] = t
        if not p.write_back[0]:  # write-through: done when the disk has it too
            d = p.buf_block[f] % p.disk_free.size
            td = max(now, p.disk_free[d]) + p.disk_write_us[p.writes_issued[0]]
            p.disk_free[d] = td
            t = max(t, td)
        p.writes_issued[0] += 1
        _push(p, t, 4 * f + EV_WRITE)


@_kernel
def run_oltp(p):
    """Run every access of ``p.block`` to completion (see the module and :class:`Pool`);
    ``p.error[0]`` is 1 if the events ran out first, 2 if an event was scheduled twice (bugs:
    neither can happen)."""
    S = p.wq.size
    for s in range(S):
        _push(p, 0.0, 4 * s + EV_SESSION)
    n = p.block.size
    while p.done[0] < n:
        if p.heap.n[0] == 0 or p.error[0] != 0:
            p.error[0] = max(p.error[0], 1)
            break
        now = p.heap.time[0]
        tag = H.pop(p.heap)
        kind, x = tag % 4, tag // 4
        if kind == EV_SESSION:
            _start_access(p, x, now)
        elif kind == EV_READ:
            _read_done(p, x, now)
        else:
            _write_done(p, x, now)
        _dbwr(p, now)
