"""The event heap of the numba event loops (:mod:`flashlab.ssd._kernels`, :mod:`flashlab.db._kernels`).

A binary min-heap of pending events, each ``(time, key, src)``: an event goes first if its
``time`` (us) is earlier, or at equal times if its ``key`` is smaller (keys of pending events
are distinct). ``src`` names what the event is about (a plane, a channel, a session...); every
source has at most one pending event, and ``pos[src]`` is the slot of its event (-1: none), so
that an event can be removed before it is due (a suspended program's completion). With one event
per source, the heap never holds more than the number of sources.

A loop that wants ties in push order (first in, first out) pushes with :func:`push_fifo`: the
key is then a running sequence number (``next_seq``). Kernels allocate nothing (``_nrt=False``);
:func:`new_heap` builds the arrays. Every function is ``@njit(cache=True)`` without a signature.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")


class Heap(NamedTuple):
    """Pending events (see the module docstring)."""
    time: np.ndarray          # (H,) float64, us
    key: np.ndarray           # (H,) int64, breaks ties of time: smaller first
    src: np.ndarray           # (H,) int64, the source of the event in each slot
    pos: np.ndarray           # (S,) int64, slot of each source's event, -1 if it has none
    n: np.ndarray             # (1,) events pending
    next_seq: np.ndarray      # (1,) key of the next push_fifo


def new_heap(size: int, sources: int) -> Heap:
    """An empty heap of ``size`` slots for sources ``0 .. sources - 1``."""
    return Heap(time=np.zeros(size), key=np.zeros(size, np.int64), src=np.zeros(size, np.int64),
                pos=np.full(sources, -1, np.int64), n=np.zeros(1, np.int64), next_seq=np.zeros(1, np.int64))


@_inline
def _before(heap, i, t, k):
    """The event in slot i goes before an event (t, k)."""
    return heap.time[i] < t or (heap.time[i] == t and heap.key[i] < k)


@_inline
def _put(heap, i, t, k, x):
    heap.time[i] = t
    heap.key[i] = k
    heap.src[i] = x
    heap.pos[x] = i


@_kernel
def _place(heap, i, t, k, x):
    """Put event (t, k, x) into the hole at slot i, sifting it up or down."""
    while i > 0:
        p = (i - 1) >> 1
        if _before(heap, p, t, k):
            break
        _put(heap, i, heap.time[p], heap.key[p], heap.src[p])
        i = p
    n = heap.n[0]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _before(heap, c + 1, heap.time[c], heap.key[c]):
            c += 1
        if not _before(heap, c, t, k):
            break
        _put(heap, i, heap.time[c], heap.key[c], heap.src[c])
        i = c
    _put(heap, i, t, k, x)


@_inline
def push(heap, t, k, x):
    """Schedule source x's event at time t with tie-break key k. Returns False, changing
    nothing, if x already has a pending event or the heap is full (a caller's bug: its size
    bound is broken)."""
    if heap.pos[x] >= 0 or heap.n[0] >= heap.time.size:
        return False
    i = heap.n[0]
    heap.n[0] = i + 1
    _place(heap, i, t, k, x)
    return True


@_inline
def push_fifo(heap, t, x):
    """:func:`push` with the next sequence number as key: events at equal times leave in the
    order they were pushed."""
    if heap.pos[x] >= 0 or heap.n[0] >= heap.time.size:
        return False
    k = heap.next_seq[0]
    heap.next_seq[0] = k + 1
    return push(heap, t, k, x)


@_kernel
def remove(heap, x):
    """Drop source x's pending event, if it has one."""
    i = heap.pos[x]
    if i < 0:
        return
    heap.pos[x] = -1
    n = heap.n[0] - 1
    heap.n[0] = n
    if i < n:
        _place(heap, i, heap.time[n], heap.key[n], heap.src[n])


@_kernel
def pop(heap):
    """Remove the earliest event; returns its source (its time was ``heap.time[0]``). The heap
    must not be empty."""
    x = heap.src[0]
    remove(heap, x)
    return x
