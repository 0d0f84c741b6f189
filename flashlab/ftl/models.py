"""Analytic write amplification under uniform random single-page writes.

With ``alpha = T / U = 1 + op`` (physical over user pages):

* FIFO cleaning, Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012, Eq. 4:
  ``WA = alpha / (alpha + W0(-alpha exp(-alpha)))`` with W0 the principal branch of Lambert W;
  the victim's valid fraction x solves ``x = exp(-alpha (1 - x))`` and ``WA = 1 / (1 - x)``.
  Xiang & Kurkoski (arXiv:1110.4245, 2012) derive the same expression for greedy cleaning with
  many pages per block: 2.36 at op = 0.3, against 2.35 simulated.
* Greedy cleaning, Desnoyers 2012 Eq. 12: ``WA_greedy(alpha, Np) = WA_FIFO(k alpha) / k`` with
  ``k = 1 + 1 / (2 Np)``; greedy beats FIFO for small blocks and approaches it for large ones.
* Agarwal & Marrow, "A closed-form expression for write amplification in NAND flash",
  GLOBECOM Workshops 2010: ``WA = (1 + op) / (2 op)``, a coarser approximation.
* Hot and cold data kept in block pools of their own (Desnoyers 2012, hot/cold separation):
  a share ``f`` of the LBAs takes a share ``r`` of the writes, uniformly within each set; each
  pool is a uniform greedy device with its own part of the spare flash, so
  ``WA = r WA_greedy(x op / f) + (1 - r) WA_greedy((1 - x) op / (1 - f))`` for a share ``x`` of
  the spare given to the hot pool, lowest at the best split (:func:`wa_hot_cold`).

All functions accept scalars or arrays and return float64 of the broadcast shape.
"""

from __future__ import annotations

import numpy as np
from scipy.special import lambertw

from flashlab._validate import check_int, check_real, check_real_or_array


def _op(op) -> np.ndarray:
    return np.asarray(check_real_or_array("op", op, 1e-9, 1e6))


def _fifo_alpha(alpha: np.ndarray) -> np.ndarray:
    return alpha / (alpha + lambertw(-alpha * np.exp(-alpha), 0).real)


def wa_fifo(op) -> np.ndarray:
    """Desnoyers 2012 Eq. 4: FIFO write amplification at over-provisioning ``op`` (> 0)."""
    return _fifo_alpha(1.0 + _op(op))


def wa_greedy(op, pages_per_block: int) -> np.ndarray:
    """Desnoyers 2012 Eq. 12: greedy write amplification for blocks of ``pages_per_block`` pages."""
    pages_per_block = check_int("pages_per_block", pages_per_block, 1, 2**31 - 1)
    k = 1.0 + 1.0 / (2.0 * pages_per_block)
    return _fifo_alpha(k * (1.0 + _op(op))) / k


def wa_agarwal(op) -> np.ndarray:
    """Agarwal & Marrow 2010: ``(1 + op) / (2 op)``."""
    op = _op(op)
    return (1.0 + op) / (2.0 * op)


def wa_hot_cold(op: float, hot_fraction: float, hot_share: float, pages_per_block: int,
                hot_spare: float | None = None) -> tuple[float, float]:
    """Write amplification of hot and cold data in pools of their own (Desnoyers 2012).

    ``hot_fraction`` of the LBAs take ``hot_share`` of the writes; each pool is a uniform greedy
    device (:func:`wa_greedy`) holding ``hot_spare`` (hot) and ``1 - hot_spare`` (cold) of the
    spare flash ``op x user``. Returns ``(WA, hot_spare)``; without ``hot_spare``, at the split
    that minimises WA (golden-section search; the WA is convex in the split).
    """
    op = check_real("op", op, 1e-9, 1e6)
    f = check_real("hot_fraction", hot_fraction, 0.0, 1.0, lo_open=True, hi_open=True)
    r = check_real("hot_share", hot_share, 0.0, 1.0)
    check_int("pages_per_block", pages_per_block, 1, 2**31 - 1)

    def pool(spare_share, lba_share):
        # a pool's own op, held inside wa_greedy's range: past 1e6 its WA is 1 to within 1e-6, and
        # below 1e-9 it is already far above any split the search keeps
        return float(wa_greedy(min(max(spare_share * op / lba_share, 1e-9), 1e6), pages_per_block))

    def wa(x):
        return r * pool(x, f) + (1.0 - r) * pool(1.0 - x, 1.0 - f)

    if hot_spare is not None:
        x = check_real("hot_spare", hot_spare, 0.0, 1.0, lo_open=True, hi_open=True)
        return wa(x), x
    lo, hi = 1e-9, 1.0 - 1e-9
    g = (5.0 ** 0.5 - 1.0) / 2.0
    for _ in range(80):  # the bracket shrinks 0.618-fold per step: 80 steps reach 1e-16
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if wa(a) <= wa(b):
            hi = b
        else:
            lo = a
    x = (lo + hi) / 2.0
    return wa(x), x
