"""The channel a soft read gives an LDPC decoder: sensed regions, their log-likelihood ratios and
the mutual information they carry.

A page bit changes value at a read point between two adjacent states (the lower, bit 1, and the
upper, bit 0: the erased cell reads 1). A hard read senses once, at the error-minimising
reference, and tells the decoder only which side the cell is on. A soft read senses the same
read point ``1 + soft_senses`` times (``soft_senses`` even: as many references below the hard
one as above), which splits the threshold-voltage axis into ``soft_senses + 2`` regions. For a
cell in region ``r`` the decoder is given the log-likelihood ratio

    LLR(r) = ln P(r | bit 0) / P(r | bit 1),

positive for a likely 0, large where the region lies deep inside one state, near 0 between
them. The quantized channel's mutual information (equally likely bits)

    I = sum over r and b of P(r | b) / 2 * log2(P(r | b) / P(r))

is the most a code can carry per stored bit through it (its capacity, bits per bit); a code of
rate ``R`` can work only where ``I > R``. For the hard read of two states whose hard error rate
is ``p`` on either side, ``I = 1 - H2(p)`` (:func:`hard_capacity_rber` solves it for ``p``).

Where the soft references go follows Wang et al. 2014 (``wang2014enhanced``): they maximise the
quantized channel's mutual information, and constrain the references to constant likelihood
ratios: the ``j``-th reference above the hard one lies where the LLR of the two densities is
``-c_j``, the ``j``-th below where it is ``+c_j``, with ``c_1 < c_2 < ...`` chosen to maximise
``I`` (they find the constraint costs no noticeable frame error rate).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar
from scipy.special import ndtr, ndtri

from flashlab._validate import check_array, check_int, check_real

LLR_CAP = 30.0  # |LLR| for a region one bit value cannot reach (probability underflows to 0)
MAX_SOFT_SENSES = 14  # 15 senses per read point: soft_read_latency_us allows 16 levels


@dataclass
class SoftReadChannel:
    """The quantized channel of one read point sensed at ``refs`` (normalized units, increasing;
    the hard reference is the middle one).

    ``p0``/``p1`` hold, per region (``len(refs) + 1``, lowest first), the probability that a cell
    storing bit 0 (the upper state) or bit 1 (the lower state) is read there; ``llr`` the
    decoder's log-likelihood ratio per region (capped at +-``LLR_CAP``).
    """

    refs: np.ndarray
    p0: np.ndarray
    p1: np.ndarray

    @property
    def soft_senses(self) -> int:
        return self.refs.size - 1

    @property
    def llr(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.clip(np.log(self.p0) - np.log(self.p1), -LLR_CAP, LLR_CAP)

    @property
    def rber(self) -> float:
        """Raw bit error rate of the hard read (the middle reference), both bits equally likely."""
        h = self.refs.size // 2 + 1  # regions at and above the hard reference read 0
        return 0.5 * (float(self.p1[h:].sum()) + float(self.p0[:h].sum()))

    @property
    def mutual_information(self) -> float:
        """Bits of information per stored bit the regions carry (module docstring)."""
        return _mutual_information(self.p0, self.p1)


def soft_read_channel(means, sigmas, soft_senses: int = 0, refs=None) -> SoftReadChannel:
    """The channel a read point between two adjacent Gaussian states gives the decoder.

    ``means``/``sigmas``: the lower and upper state (normalized units, e.g.
    ``dist.means[k:k + 2]`` of :func:`flashlab.cell.vth_distributions`). ``soft_senses``: extra
    senses beside the hard one, even, 0 to ``MAX_SOFT_SENSES``. ``refs``: the sensed references
    (``soft_senses + 1`` increasing values); by default the hard reference at the crossing of the
    two densities and the soft ones at the constant-ratio, mutual-information-maximising places
    of Wang et al. 2014 (module docstring). A few milliseconds."""
    mu = check_array("means", means)
    sd = check_array("sigmas", sigmas, 1e-9)
    if mu.size != 2 or sd.size != 2 or not mu[0] < mu[1]:
        raise ValueError(f"means and sigmas must hold two states, the lower first; got means={mu.tolist()!r}, "
                         f"sigmas={sd.tolist()!r}")
    k = check_int("soft_senses", soft_senses, 0, MAX_SOFT_SENSES)
    if k % 2:
        raise ValueError(f"soft_senses must be even (as many references below the hard one as above); got {k}")
    if refs is not None:
        r = check_array("refs", refs)
        if r.size != k + 1 or np.any(np.diff(r) <= 0.0):
            raise ValueError(f"refs must be {k + 1} strictly increasing references (soft_senses + 1); got {r.tolist()!r}")
        return _channel(mu, sd, r)
    if k == 0:
        return _channel(mu, sd, np.array([_llr_point(mu, sd, 0.0)]))
    # one LLR step c between levels: a coarse grid (the objective has a flat region once the
    # outer references reach the means), then Brent's method between the best point's neighbours
    def loss(c):
        return -_ratio_channel(mu, sd, np.arange(1, k // 2 + 1) * c).mutual_information

    grid = np.geomspace(0.02, LLR_CAP / (k // 2), 40)
    i = int(np.argmin([loss(c) for c in grid]))
    start = minimize_scalar(loss, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]), method="bounded",
                            options={"xatol": 1e-5}).x
    if k == 2:
        return _ratio_channel(mu, sd, np.array([start]))
    # several levels: free the steps between them (log-parameterized, so they stay increasing)
    x0 = np.log(np.full(k // 2, start))
    best = minimize(lambda x: -_ratio_channel(mu, sd, np.cumsum(np.exp(x))).mutual_information, x0,
                    method="Nelder-Mead", options={"xatol": 1e-3, "fatol": 1e-10, "maxiter": 2000})
    return _ratio_channel(mu, sd, np.cumsum(np.exp(best.x)))


def gaussian_read_point(rber: float) -> tuple[np.ndarray, np.ndarray]:
    """Two states of unit sigma, means ``-d/2`` and ``+d/2``, whose hard read at the midpoint has
    raw bit error rate ``rber`` (in (0, 0.5)): ``Q(d/2) = rber``. The clean textbook read point
    (``means, sigmas`` for :func:`soft_read_channel`)."""
    p = check_real("rber", rber, 0.0, 0.5, lo_open=True, hi_open=True)
    half = -float(ndtri(p))  # Q(half) = p
    return np.array([-half, half]), np.ones(2)


def hard_capacity_rber(rate: float) -> float:
    """The raw bit error rate at which a hard read's capacity ``1 - H2(p)`` falls to ``rate`` (in
    (0, 1)): no code of that rate corrects more, whatever its length (Shannon)."""
    r = check_real("rate", rate, 0.0, 1.0, lo_open=True, hi_open=True)
    return float(brentq(lambda p: 1.0 - _h2(p) - r, 1e-15, 0.5, xtol=1e-15, rtol=1e-12))


def _h2(p: float) -> float:
    return -p * np.log2(p) - (1.0 - p) * np.log2(1.0 - p)


def _channel(mu: np.ndarray, sd: np.ndarray, refs: np.ndarray) -> SoftReadChannel:
    edges = np.concatenate(([-np.inf], refs, [np.inf]))
    p = []
    for m, s in zip(mu[::-1], sd[::-1]):  # the upper state (bit 0) first
        z = (edges - m) / s
        lo, hi = z[:-1], z[1:]
        p.append(np.maximum(np.where(lo >= 0.0, ndtr(-lo) - ndtr(-hi), ndtr(hi) - ndtr(lo)), 0.0))
    return SoftReadChannel(refs, p[0], p[1])


def _log_ratio(mu: np.ndarray, sd: np.ndarray, v: float) -> float:
    """ln f_upper(v) / f_lower(v) for Gaussian densities: increasing between the two means."""
    zl, zu = (v - mu[0]) / sd[0], (v - mu[1]) / sd[1]
    return 0.5 * (zl * zl - zu * zu) + np.log(sd[0] / sd[1])


def _llr_point(mu: np.ndarray, sd: np.ndarray, c: float) -> float:
    """The voltage between the means where the upper/lower log density ratio equals ``c``
    (clamped to the means when the ratio there does not reach ``c``)."""
    lo, hi = _log_ratio(mu, sd, mu[0]), _log_ratio(mu, sd, mu[1])
    if c <= lo:
        return float(mu[0])
    if c >= hi:
        return float(mu[1])
    # the log ratio is a quadratic in v: a v^2 + b v + q0 = c, one root between the means
    w0, w1 = 1.0 / sd[0] ** 2, 1.0 / sd[1] ** 2
    a = 0.5 * (w0 - w1)
    b = mu[1] * w1 - mu[0] * w0
    q0 = 0.5 * (mu[0] ** 2 * w0 - mu[1] ** 2 * w1) + np.log(sd[0] / sd[1]) - c
    if abs(a) < 1e-12 * abs(b):
        return float(-q0 / b)
    q = -0.5 * (b + np.copysign(np.sqrt(max(b * b - 4.0 * a * q0, 0.0)), b))
    roots = np.array([q / a, q0 / q])
    return float(roots[np.argmin(np.abs(roots - 0.5 * (mu[0] + mu[1])))].clip(mu[0], mu[1]))


def _ratio_channel(mu: np.ndarray, sd: np.ndarray, levels: np.ndarray) -> SoftReadChannel:
    """References at log-ratio ``-levels[::-1], 0, +levels`` (made strictly increasing)."""
    c = np.concatenate((-levels[::-1], [0.0], levels))
    refs = np.array([_llr_point(mu, sd, x) for x in c])
    refs = np.maximum.accumulate(refs + np.arange(refs.size) * 1e-9 * (mu[1] - mu[0]))
    return _channel(mu, sd, refs)


def _mutual_information(p0: np.ndarray, p1: np.ndarray) -> float:
    q = 0.5 * (p0 + p1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t0 = np.where(p0 > 0.0, p0 * np.log2(p0 / q), 0.0)
        t1 = np.where(p1 > 0.0, p1 * np.log2(p1 / q), 0.0)
    return float(0.5 * (t0.sum() + t1.sum()))

