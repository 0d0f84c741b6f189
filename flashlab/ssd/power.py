"""Power loss: which acknowledged writes a drive still holds when its power is cut.

The timing model is causal, so the state of a run at time ``t`` does not depend on anything
after ``t``: cutting the power at ``t`` is reading, for every write acknowledged by then, whether
its data was on NAND by then (``durable_us <= t``). A drive with power-loss protection
(capacitors) writes its whole cache to NAND on the stored energy, so it loses nothing it
acknowledged; without, the cache's contents are lost. A flush completes only when every write
acknowledged before it is on NAND, so a write acknowledged before a completed flush survives.
Times in microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_real
from flashlab.ssd._kernels import OP_FUA, OP_WRITE


@dataclass(frozen=True)
class PowerLoss:
    """Outcome of cutting the power at ``at_us``. ``acknowledged``: writes acknowledged by then;
    ``survived``: of those, the ones whose data is on NAND (or protected by capacitors);
    ``lost``: the others, never hidden: their request indices ``lost_requests`` (issue order)
    and the LBAs they wrote, ``lost_lbas`` (sorted, unique; an LBA may still hold an older
    version that did reach NAND). ``protected``: the drive had power-loss protection."""

    at_us: float
    protected: bool
    acknowledged: int
    survived: int
    lost: int
    lost_requests: np.ndarray
    lost_lbas: np.ndarray


def power_loss(at_us, op, lba, pages, done_us, durable_us, protected: bool) -> PowerLoss:
    """Cut the power at ``at_us`` for one drive's requests (``op``, ``lba``, ``pages``,
    acknowledgement ``done_us``, NAND time ``durable_us``, NaN when never)."""
    at_us = check_real("at_us", at_us, 0.0, 1e18)
    writes = (op == OP_WRITE) | (op == OP_FUA)
    acked = writes & (done_us <= at_us)
    lost = np.zeros_like(acked) if protected else acked & ~(durable_us <= at_us)
    idx = np.flatnonzero(lost)
    lbas = np.unique(np.concatenate([np.arange(lba[i], lba[i] + pages[i]) for i in idx])) if idx.size else \
        np.zeros(0, np.int64)
    return PowerLoss(at_us=at_us, protected=bool(protected), acknowledged=int(acked.sum()),
                     survived=int(acked.sum() - idx.size), lost=int(idx.size), lost_requests=idx,
                     lost_lbas=lbas.astype(np.int64))
