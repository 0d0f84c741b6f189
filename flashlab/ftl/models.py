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

All functions accept scalars or arrays and return float64 of the broadcast shape.
"""

from __future__ import annotations

import numpy as np
from scipy.special import lambertw

from flashlab._validate import check_int, check_real_or_array


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
