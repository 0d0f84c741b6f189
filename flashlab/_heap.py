"""The event heap of the numba event loops (:mod:`flashlab.ssd._kernels`, :mod:`flashlab.db._kernels`).

A binary min-heap of pending events, each ``(time, key, src)``: an event goes first if its
``time`` (us) is earlier, or at equal times if its ``key`` is smaller (keys of pending events
are distinct). A slot holds the time and one int64 ``order = key << 24 | src`` (keys below
2**39, sources below 2**24): comparing orders compares keys, and a sift moves two arrays, not
three. ``src`` names what the event is about (a plane, a channel, a session...); every
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

from flashlab._validate import check_int

_kernel = njit(cache=True, _nrt=False, error_model="numpy")
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")


SRC_BITS = 24                 # sources 0 .. 2**24 - 1
KEY_BITS = 63 - SRC_BITS      # keys 0 .. 2**39 - 1


class Heap(NamedTuple):
    """Pending events (see the module docstring)."""
    time: np.ndarray          # (H,) float64, us
    order: np.ndarray         # (H,) int64, key << SRC_BITS | src: the event's tie-break key (smaller
                              # first) above its source; one array, so that moving an event moves two
    pos: np.ndarray           # (S,) int64, slot of each source's event, -1 if it has none
    n: np.ndarray             # (1,) events pending
    next_seq: np.ndarray      # (1,) key of the next push_fifo


def new_heap(size: int, sources: int) -> Heap:
    """An empty heap of ``size`` slots for sources ``0 .. sources - 1`` (at most 2**24)."""
    sources = check_int("sources", sources, 0, 1 << SRC_BITS)
    return Heap(time=np.zeros(size), order=np.zeros(size, np.int64), pos=np.full(sources, -1, np.int64),
                n=np.zeros(1, np.int64), next_seq=np.zeros(1, np.int64))


@_inline
def _before(heap, i, t, o):
    """The event in slot i goes before an event (t, o): earlier, or as early with a smaller
    key (keys differ, so comparing ``order`` compares keys)."""
    return heap.time[i] < t or (heap.time[i] == t and heap.order[i] < o)


@_inline
def _put(heap, i, t, o):
    heap.time[i] = t
    heap.order[i] = o
    heap.pos[o & ((1 << SRC_BITS) - 1)] = i


@_kernel
def _place(heap, i, t, o):
    """Put event (t, o) into the hole at slot i, sifting it up or down."""
    while i > 0:
        p = (i - 1) >> 1
        if _before(heap, p, t, o):
            break
        _put(heap, i, heap.time[p], heap.order[p])
        i = p
    n = heap.n[0]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _before(heap, c + 1, heap.time[c], heap.order[c]):
            c += 1
        if not _before(heap, c, t, o):
            break
        _put(heap, i, heap.time[c], heap.order[c])
        i = c
    _put(heap, i, t, o)


@_inline
def push(heap, t, k, x):
    """Schedule source x's event at time t with tie-break key k (0 <= k < 2**39). Returns
    False, changing nothing, if x already has a pending event, the heap is full (a caller's
    bug: its size bound is broken) or k is out of range."""
    if heap.pos[x] >= 0 or heap.n[0] >= heap.time.size or k >> KEY_BITS != 0:
        return False
    i = heap.n[0]
    heap.n[0] = i + 1
    _place(heap, i, t, (k << SRC_BITS) | x)
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
        _place(heap, i, heap.time[n], heap.order[n])


@_kernel
def pop(heap):
    """Remove the earliest event; returns its source (its time was ``heap.time[0]``). The heap
    must not be empty."""
    x = heap.order[0] & ((1 << SRC_BITS) - 1)
    remove(heap, x)
    return x
