"""Raw bit error rate (RBER) per page type, analytically and by Monte Carlo, and read-retry.

A cell in state ``s`` whose Vth falls between references ``k-1`` and ``k`` is read as state ``k``;
each page type then sees a bit error where the Gray codes of ``s`` and ``k`` differ in its bit.
RBER of page ``p`` = mean over equally likely states of
``sum_k P(read k | s) * [gray[s, p] != gray[k, p]]``, with Gaussian ``P(read k | s)`` computed
from the upper or lower tail, whichever is smaller, so tiny error rates keep full precision.

Read-retry (Cai et al. 2017 sec. 6, ``cai2017``): the controller re-reads with shifted
references. For two Gaussians the error-minimising reference between adjacent states is where
their densities cross; :func:`optimal_read_refs` finds it in closed form.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from flashlab._validate import check_array, check_instance, check_int, check_seed
from flashlab.cell import _read_kernels
from flashlab.cell.distributions import VthDistributions, VthModel, vth_distributions


@dataclass
class RberResult:
    """RBER per page type at one stress point.

    ``rber`` holds one error rate per page type (errors per bit read, order ``page_names``);
    ``refs`` the read references used (normalized units). The analytic result also holds
    ``transition`` (``(n_states, n_states)``: probability that state ``s`` reads as state ``k``);
    the Monte Carlo result holds ``errors`` (bit-error counts per page type), ``n_cells`` and
    ``stderr`` (binomial standard error of each ``rber``).
    """

    page_names: tuple[str, ...]
    rber: np.ndarray
    refs: np.ndarray
    transition: np.ndarray | None = None
    errors: np.ndarray | None = None
    n_cells: int = 0
    stderr: np.ndarray | None = None

    @property
    def mean(self) -> float:
        """Bit error rate averaged over page types (all bits of the cell)."""
        return float(self.rber.mean())


def optimal_read_refs(dist: VthDistributions) -> np.ndarray:
    """Error-minimising read references (normalized units): for each pair of adjacent states,
    the crossing point of their Gaussian densities between the two means (closed form, stable
    quadratic root; the sigma-weighted point ``mu1 + sigma1 * gap / (sigma1 + sigma2)`` when the
    densities do not cross between the means). Raises ``ValueError`` once the stress has pushed a
    state onto or past its upper neighbour: no reference separates them any more."""
    _check_dist(dist)
    crossed = np.flatnonzero(np.diff(dist.means) <= 0.0)
    if crossed.size:
        k = int(crossed[0])
        lo, hi = dist.levels.state_names[k], dist.levels.state_names[k + 1]
        raise ValueError(
            f"dist: at pe_cycles={dist.pe_cycles:g}, retention_days={dist.retention_days:g}, reads={dist.reads:g}, "
            f"vpass={dist.vpass:g} state {lo} (mean {dist.means[k]:.1f}) has been pushed to or above state {hi} "
            f"(mean {dist.means[k + 1]:.1f}) by wear, retention or read disturb: no read reference separates "
            "them, so read-retry cannot recover the data (the model no longer applies; lower the stress)")
    m1, m2 = dist.means[:-1], dist.means[1:]
    s1, s2 = dist.sigmas[:-1], dist.sigmas[1:]
    fallback = m1 + s1 * (m2 - m1) / (s1 + s2)
    # (v-m1)^2/s1^2 - (v-m2)^2/s2^2 + 2 ln(s1/s2) = 0, written in u = v - m1 (gap d = m2 - m1)
    d = m2 - m1
    a = 1.0 / s1**2 - 1.0 / s2**2
    b = 2.0 * d / s2**2
    c = -(d**2) / s2**2 + 2.0 * np.log(s1 / s2)
    disc = b * b - 4.0 * a * c
    sq = np.sqrt(np.maximum(disc, 0.0))
    q = -0.5 * (b + sq)  # b > 0: no cancellation
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = np.stack([np.where(a != 0.0, q / a, np.inf), c / q])
    inside = (disc >= 0.0) & (roots >= 0.0) & (roots <= d)
    u = np.where(inside[1], roots[1], np.where(inside[0], roots[0], np.nan))
    return np.where(np.isnan(u), fallback, m1 + u)


def default_read_refs(model: VthModel) -> np.ndarray:
    """The factory read references: optimal for a fresh cell (0 P/E cycles, no retention loss,
    no reads), normalized units."""
    return optimal_read_refs(vth_distributions(model))


def rber_analytic(dist: VthDistributions, refs=None) -> RberResult:
    """Exact RBER per page type of Gaussian states read at ``refs`` (default:
    :func:`default_read_refs`; ``n_states - 1`` strictly increasing values). Under a millisecond."""
    _check_dist(dist)
    refs = _check_refs(dist, refs)
    edges = np.concatenate(([-np.inf], refs, [np.inf]))
    z = (edges[None, :] - dist.means[:, None]) / dist.sigmas[:, None]
    lo, hi = z[:, :-1], z[:, 1:]
    # upper tails for regions above the mean, lower tails below: no 1 - 1 cancellation
    transition = np.where(lo >= 0.0, ndtr(-lo) - ndtr(-hi), ndtr(hi) - ndtr(lo))
    gray = dist.levels.gray
    mismatch = gray[:, None, :] != gray[None, :, :]  # (true state, read state, page)
    rber = np.einsum("sk,skp->p", transition, mismatch) / transition.shape[0]
    return RberResult(dist.levels.page_names, rber, refs, transition=transition)


def rber_monte_carlo(dist: VthDistributions, n_cells: int, seed: int, refs=None) -> RberResult:
    """RBER per page type measured by reading ``n_cells`` simulated cells (numba kernel): states
    uniform, Vth Gaussian per state, each page read by sensing its own references and decoding
    with the Gray code. Deterministic for a given ``seed``; about 0.1-0.2 s per 10**7 cells."""
    _check_dist(dist)
    refs = _check_refs(dist, refs)
    n = check_int("n_cells", n_cells, 1, 10**10)
    seed = check_seed("seed", seed)
    levels = dist.levels
    # the kernel draws states from bits 7-10 of a word and indexes gray by them: 2 to 16 states
    assert dist.means.size == dist.sigmas.size == levels.n_states <= 16
    page_refs = levels.page_refs
    table = np.full((levels.bits, max(len(r) for r in page_refs)), np.inf)
    for p, idx in enumerate(page_refs):
        table[p, : len(idx)] = refs[idx]
    n_page_refs = np.array([len(r) for r in page_refs], dtype=np.int64)
    errors = _read_kernels.mc_read_errors(
        n, seed, dist.means, dist.sigmas, table, n_page_refs, levels.gray.astype(np.int64),
        _read_kernels.ZIG_X, _read_kernels.ZIG_RATIO,
    )
    rber = errors / n
    stderr = np.sqrt(np.maximum(rber * (1.0 - rber), 1.0 / n) / n)
    return RberResult(levels.page_names, rber, refs, errors=errors, n_cells=n, stderr=stderr)


@dataclass
class ReadRetryResult:
    """Default vs optimal references at one stress point: ``default``/``optimal`` are
    :class:`RberResult`; ``recovered`` is the fraction of each page type's errors removed."""

    default: RberResult
    optimal: RberResult

    @property
    def recovered(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = 1.0 - self.optimal.rber / self.default.rber
        return np.where(self.default.rber > 0.0, gain, 0.0)


def read_retry(dist: VthDistributions) -> ReadRetryResult:
    """RBER with the factory references and with the optimal (read-retry) references."""
    _check_dist(dist)
    return ReadRetryResult(rber_analytic(dist), rber_analytic(dist, optimal_read_refs(dist)))


def _check_dist(dist) -> None:
    check_instance("dist", dist, VthDistributions)
    dist._check()  # mutable: a field may have been replaced since construction


def _check_refs(dist: VthDistributions, refs) -> np.ndarray:
    if refs is None:
        return default_read_refs(dist.model)
    n = dist.levels.n_states - 1
    refs = check_array("refs", refs, min_size=n)
    if refs.size != n or np.any(np.diff(refs) <= 0.0):
        raise ValueError(f"refs must be {n} strictly increasing read references; got {refs.tolist()!r}")
    return refs
