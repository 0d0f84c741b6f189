"""Power loss: which acknowledged writes and TRIMs a drive still holds when its power is cut.

The timing model is causal, so the state of a run at time ``t`` does not depend on anything
after ``t``: cutting the power at ``t`` is reading, for every write acknowledged by then, whether
its data was on NAND by then (``durable_us <= t``). A drive with power-loss protection
(capacitors) writes its whole cache to NAND on the stored energy, so it loses nothing it
acknowledged; without, the cache's contents are lost. A flush completes only when every write
acknowledged before it is on NAND, so a write acknowledged before a completed flush survives.

A TRIM changes only the mapping table, which the controller keeps in DRAM and writes to NAND
when it chooses; NVMe does not make a deallocation durable at its completion, and many drives
make it so only at the next flush. The model takes the conservative reading: with power-loss
protection a TRIM survives once acknowledged; without, only once a flush issued after its
acknowledgement has completed (:func:`trims_durable_us`). Until then a power loss may undo
it: its LBAs may read the data they held before it (or read unmapped; the host may rely on
neither). Times in microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from flashlab._validate import check_real
from flashlab.ssd._kernels import OP_FLUSH, OP_FUA, OP_TRIM, OP_WRITE


@dataclass(frozen=True)
class PowerLoss:
    """Outcome of cutting the power at ``at_us``. ``acknowledged``: writes acknowledged by then;
    ``survived``: of those, the ones whose data is on NAND (or protected by capacitors);
    ``lost``: the others, never hidden: their request indices ``lost_requests`` (issue order)
    and the LBAs they wrote, ``lost_lbas`` (sorted, unique; an LBA may still hold an older
    version that did reach NAND). ``protected``: the drive had power-loss protection.
    ``undone_trims``: TRIMs acknowledged by then whose deallocation was not yet durable (no
    flush after them had completed; never with protection): their LBAs may read their data
    from before the TRIM."""

    at_us: float
    protected: bool
    acknowledged: int
    survived: int
    lost: int
    lost_requests: np.ndarray
    lost_lbas: np.ndarray
    undone_trims: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


def power_loss(at_us, op, lba, pages, done_us, durable_us, protected: bool) -> PowerLoss:
    """Cut the power at ``at_us`` for one drive's requests (``op``, ``lba``, ``pages``,
    acknowledgement ``done_us``, NAND time ``durable_us``, NaN when never; a TRIM's from
    :func:`trims_durable_us`)."""
    at_us = check_real("at_us", at_us, 0.0, 1e18)
    writes = (op == OP_WRITE) | (op == OP_FUA)
    acked = writes & (done_us <= at_us)
    lost = np.zeros_like(acked) if protected else acked & ~(durable_us <= at_us)
    idx = np.flatnonzero(lost)
    lbas = np.unique(np.concatenate([np.arange(lba[i], lba[i] + pages[i]) for i in idx])) if idx.size else \
        np.zeros(0, np.int64)
    undone = (op == OP_TRIM) & (done_us <= at_us) & ~(durable_us <= at_us)
    return PowerLoss(at_us=at_us, protected=bool(protected), acknowledged=int(acked.sum()),
                     survived=int(acked.sum() - idx.size), lost=int(idx.size), lost_requests=idx,
                     lost_lbas=lbas.astype(np.int64), undone_trims=np.flatnonzero(undone))


def trims_durable_us(op, device, arrival_us, done_us, durable_us, protected) -> np.ndarray:
    """``durable_us`` (per request) with each TRIM's set to when its deallocation survives a
    power loss: its acknowledgement on a member with protection (``protected[d]``), else the
    completion of the first flush to the same member issued at or after its acknowledgement
    (NaN while there is none)."""
    out = np.array(durable_us, np.float64)
    trims = op == OP_TRIM
    if not trims.any():
        return out
    done = np.asarray(done_us, np.float64)
    for d, prot in enumerate(protected):
        t = np.flatnonzero(trims & (device == d))
        if prot or t.size == 0:
            continue
        f = np.flatnonzero((op == OP_FLUSH) & (device == d))
        order = np.argsort(arrival_us[f], kind="stable")
        f_arr = np.asarray(arrival_us, np.float64)[f][order]
        f_done = np.where(np.isfinite(done[f]), done[f], np.inf)[order]
        first_done = np.minimum.accumulate(f_done[::-1])[::-1] if f.size else f_done  # suffix minimum
        k = np.searchsorted(f_arr, done[t], side="left")  # the first flush issued at or after it
        got = np.full(t.size, np.inf)
        ok = (k < f.size) & np.isfinite(done[t])
        got[ok] = first_done[k[ok]]
        out[t] = np.where(np.isfinite(got), got, np.nan)
    return out
