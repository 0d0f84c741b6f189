"""The event heap (:mod:`flashlab._heap`) against a sorted list: pops come out in (time, key)
order whatever the pushes, removals and equal times, and a push it cannot take changes nothing."""

import numpy as np
import pytest
from numba import njit

from flashlab import _heap as H


@njit(cache=True)
def _replay(heap, kind, t, x, k, out):
    """Run the operations (kind 0 push_fifo, 1 push with key k, 2 remove, 3 pop); out[j] is
    the popped source (pop), or 1/0 for a push taken/refused, or -1."""
    for j in range(kind.size):
        out[j] = -1
        if kind[j] == 0:
            out[j] = 1 if H.push_fifo(heap, t[j], x[j]) else 0
        elif kind[j] == 1:
            out[j] = 1 if H.push(heap, t[j], k[j], x[j]) else 0
        elif kind[j] == 2:
            H.remove(heap, x[j])
        elif heap.n[0] > 0:
            out[j] = H.pop(heap)


def _reference(kind, t, x, k, size, fifo_base):
    """The same operations on a plain list of (time, key, source)."""
    pending, out, seq = [], [], fifo_base
    for j in range(kind.size):
        r = -1
        if kind[j] in (0, 1):
            taken = len(pending) < size and all(s != x[j] for _, _, s in pending)
            key = seq if kind[j] == 0 else int(k[j])
            if taken:
                pending.append((t[j], key, int(x[j])))
                seq += kind[j] == 0
            r = int(taken)
        elif kind[j] == 2:
            pending = [e for e in pending if e[2] != x[j]]
        elif pending:
            first = min(pending)
            pending.remove(first)
            r = first[2]
        out.append(r)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_pops_follow_time_then_key_order_through_pushes_removals_and_ties(seed):
    rng = np.random.default_rng(seed)
    m, size, sources = 4000, 24, 40
    kind = rng.choice(4, m, p=[0.4, 0.0, 0.15, 0.45]).astype(np.int64)
    t = rng.integers(0, 30, m).astype(np.float64)  # few distinct times: many ties
    x = rng.integers(0, sources, m)
    heap = H.new_heap(size, sources)
    out = np.empty(m, np.int64)
    _replay(heap, kind, t, x, np.zeros(m, np.int64), out)
    assert out.tolist() == _reference(kind, t, x, np.zeros(m, np.int64), size, 0)
    assert (out[kind == 3] >= 0).sum() > 1000 and (out[kind == 0] == 0).sum() > 0  # pops and refusals happened


def test_explicit_keys_break_ties_and_bad_pushes_change_nothing():
    top = (1 << H.SRC_BITS) - 1  # the largest source, beside the largest key: the packed order keeps them apart
    heap = H.new_heap(5, top + 1)
    big = (1 << H.KEY_BITS) - 1
    ops = [(1, 5.0, top, big, 1), (1, 5.0, 0, 2, 1), (1, 5.0, 7, 1, 1), (1, 1.0, 3, 0, 1),
           (1, 0.0, 3, 5, 0),                       # source 3 already has a pending event
           (1, 2.0, 9, 1 << H.KEY_BITS, 0),         # key out of range
           (1, 2.0, 10, -1, 0),                     # negative key
           (1, 9.0, 8, 0, 1), (1, 0.0, 11, 0, 0),   # the fifth event fills the heap; the sixth is refused
           (3, 0, 0, 0, 3), (3, 0, 0, 0, 7), (3, 0, 0, 0, 0), (3, 0, 0, 0, top), (3, 0, 0, 0, 8)]
    kind, t, x, k, want = (np.array(c) for c in zip(*ops))
    out = np.empty(kind.size, np.int64)
    _replay(heap, kind, t.astype(np.float64), x, k, out)
    assert out.tolist() == want.tolist()
    assert heap.n[0] == 0


def test_new_heap_rejects_more_sources_than_the_order_can_hold():
    with pytest.raises(ValueError, match=r"sources must be in \[0, 16777216\]; got 16777217"):
        H.new_heap(4, (1 << H.SRC_BITS) + 1)
