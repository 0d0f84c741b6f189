"""Numba kernels of the workload generators (``@njit(cache=True)``, no signatures: importing
compiles nothing)."""

from __future__ import annotations

from numba import njit

from flashlab.workload import OP_TRIM, OP_WRITE


@njit(cache=True)
def file_churn(targets, victims, live, slot, trim, ops, lbas):
    """Apply one chunk of :class:`~flashlab.workload.filesystem.FileChurn` steps.

    Step ``i`` writes LBA ``targets[i]``. When that LBA holds no live data it is a new file: the
    file system then deletes the live LBA at position ``floor(victims[i] x len(live))`` of the
    live list (``victims`` in [0, 1)), which takes the new LBA's place, and sends a TRIM for it
    when ``trim``. ``live`` (int32, the live LBAs) and ``slot`` (int32 per LBA: its position in
    ``live``, -1 if free) are updated in place; ``ops`` and ``lbas`` (two entries per step) get
    the host requests. Returns the number of requests written.

    Every index is in range by construction: the wrapper (``FileChurn.chunks``) draws each
    ``targets[i]`` in ``[0, slot.size)`` and ``victims`` in [0, 1), one per target; ``live`` is
    non-empty and holds LBAs only; ``ops``/``lbas`` hold ``2 x targets.size``.
    """
    n_live = live.size
    k = 0
    for i in range(targets.size):
        x = targets[i]
        ops[k] = OP_WRITE
        lbas[k] = x
        k += 1
        if slot[x] < 0:
            j = min(int(victims[i] * n_live), n_live - 1)
            d = live[j]
            live[j] = x
            slot[x] = j
            slot[d] = -1
            if trim:
                ops[k] = OP_TRIM
                lbas[k] = d
                k += 1
    return k
