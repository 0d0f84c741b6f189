"""Random telegraph noise (RTN) with its measured amplitude law, and the RBER its tails set.

A trap near the channel captures and releases one electron; while it holds it, the cell's
threshold voltage is higher by an amplitude ``A``. Across cells the amplitudes are not Gaussian:
measured and simulated distributions fall off exponentially, ``P(A > x) = exp(-x / lam)``, with a
mean ``lam`` inversely proportional to the channel area, and keep an exponential tail at high
amplitudes (``rtn2013amplitude``; Fukuda et al. 2007, ``fukuda2007rtn``, give the growth of the
3-sigma jitter with scaling that :mod:`flashlab.tech.planar` uses).

The model (*assumed*: one dominant trap per cell, occupied half the time, its state at a read
independent of its state at the verify that placed the cell): a read sees ``Vth + A * (s_read -
s_verify)``, that is ``0`` with probability 1/2 and ``+A`` or ``-A`` with 1/4 each. With ``A``
exponential this displacement is half a point mass at 0 and half a Laplace law of scale ``lam``:
mean 0 and variance ``lam**2``, the variance of a Gaussian of sigma ``lam``, but with exponential
tails. A state whose width ``sigma`` holds RTN of sigma ``rtn`` keeps a Gaussian part of variance
``sigma**2 - rtn**2`` and adds the displacement; its upper tail at distance ``d`` above the mean is,
in closed form (an exponentially modified Gaussian for each sign of ``A``),

``S(d) = Q(d/g)/2 + [Q(d/g) + e^(g²/2λ² - d/λ) Φ(d/g - g/λ)]/4 + [Q(d/g) - e^(g²/2λ² + d/λ) Q(d/g + g/λ)]/4``

with ``g`` the Gaussian part's sigma and ``λ = rtn``. The lower tail is the mirror image.
:func:`rtn_rber` reads the states with these tails; :func:`rtn_tail` gives ``S``.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import log_ndtr, ndtr

from flashlab._validate import check_array, check_choice, check_int, check_real, check_seed
from flashlab.cell.distributions import VthDistributions
from flashlab.cell.errors import RberResult, _check_dist, _check_refs

TAILS = ("exponential", "gaussian")


def rtn_tail(d, sigma_gauss: float, rtn_sigma: float) -> np.ndarray:
    """Probability that a state's Vth lies more than ``d`` (normalized units, array, >= 0) above
    its mean when its width is a Gaussian of ``sigma_gauss`` plus RTN of sigma ``rtn_sigma`` with
    exponential amplitudes (module docstring; ``rtn_sigma = 0``: the Gaussian tail alone)."""
    d = check_array("d", [d] if isinstance(d, numbers.Real) else d, 0.0)
    g = check_real("sigma_gauss", sigma_gauss, 0.0, 1e4, lo_open=True)
    lam = check_real("rtn_sigma", rtn_sigma, 0.0, 1e4)
    return _tail(d, g, lam)


def _tail(d: np.ndarray, g: float, lam: float) -> np.ndarray:
    """Upper tail at distances ``d`` >= 0 (inf allowed), unchecked."""
    z = d / g
    q = ndtr(-z)
    if lam == 0.0:
        return q
    r = g / lam
    with np.errstate(over="ignore", invalid="ignore"):
        up = q + np.exp(0.5 * r * r - d / lam + log_ndtr(z - r))
        down = q - np.exp(0.5 * r * r + d / lam + log_ndtr(-(z + r)))
    up = np.where(np.isinf(d), 0.0, up)
    down = np.where(np.isinf(d), 0.0, np.maximum(down, 0.0))
    return 0.5 * q + 0.25 * up + 0.25 * down


def rtn_pdf(d, sigma_gauss: float, rtn_sigma: float) -> np.ndarray:
    """Probability density (per normalized unit) of a state's Vth at offsets ``d`` (array, any
    sign) from its mean: Gaussian part ``sigma_gauss`` plus exponential-amplitude RTN of sigma
    ``rtn_sigma`` (module docstring), ``-dS/dd``. Integrates to 1."""
    d = check_array("d", [d] if isinstance(d, numbers.Real) else d)
    g = check_real("sigma_gauss", sigma_gauss, 0.0, 1e4, lo_open=True)
    lam = check_real("rtn_sigma", rtn_sigma, 0.0, 1e4)
    z = d / g
    gauss = np.exp(-0.5 * z * z) / (g * np.sqrt(2.0 * np.pi))
    if lam == 0.0:
        return gauss
    r = g / lam
    with np.errstate(over="ignore"):
        up = np.exp(0.5 * r * r - d / lam + log_ndtr(z - r)) / lam  # G + A
        down = np.exp(0.5 * r * r + d / lam + log_ndtr(-(z + r))) / lam  # G - A
    return 0.5 * gauss + 0.25 * up + 0.25 * down


def rtn_rber(dist: VthDistributions, rtn_sigma: float, refs=None, tails: str = "exponential") -> RberResult:
    """RBER per page type of ``dist`` read at ``refs`` (default: the factory references) when
    ``rtn_sigma`` (normalized units) of every state's width is random telegraph noise.

    ``tails="exponential"``: the RTN displacement has exponential amplitudes (module docstring);
    each state keeps a Gaussian part of ``sqrt(sigma**2 - rtn_sigma**2)``, so its variance is
    unchanged. ``tails="gaussian"``: the whole width Gaussian, as :func:`flashlab.cell.rber_analytic`
    computes it. ``rtn_sigma`` must be below every state's sigma. Closed form; about a millisecond.
    """
    _check_dist(dist)
    refs = _check_refs(dist, refs)
    lam = check_real("rtn_sigma", rtn_sigma, 0.0, 1e4)
    check_choice("tails", tails, TAILS)
    if lam >= dist.sigmas.min():
        raise ValueError(f"rtn_sigma must be below every state's sigma (smallest {dist.sigmas.min():.3g}); "
                         f"got {rtn_sigma!r}")
    edges = np.concatenate(([-np.inf], refs, [np.inf]))
    n = dist.means.size
    transition = np.empty((n, n))
    for s in range(n):
        mu, sig = dist.means[s], dist.sigmas[s]
        g, lm = (np.sqrt(sig * sig - lam * lam), lam) if tails == "exponential" else (sig, 0.0)
        lo, hi = edges[:-1] - mu, edges[1:] - mu
        above = _tail(np.maximum(lo, 0.0), g, lm) - _tail(np.maximum(hi, 0.0), g, lm)
        below = _tail(np.maximum(-hi, 0.0), g, lm) - _tail(np.maximum(-lo, 0.0), g, lm)
        inside = 1.0 - _tail(np.maximum(-lo, 0.0), g, lm) - _tail(np.maximum(hi, 0.0), g, lm)
        transition[s] = np.where(lo >= 0.0, above, np.where(hi <= 0.0, below, inside))
    gray = dist.levels.gray
    mismatch = gray[:, None, :] != gray[None, :, :]
    rber = np.einsum("sk,skp->p", transition, mismatch) / n
    return RberResult(dist.levels.page_names, rber, refs, transition=transition)


def rtn_samples(sigma_gauss: float, rtn_sigma: float, n_cells: int, seed: int) -> np.ndarray:
    """``n_cells`` Vth offsets from a state's mean (normalized units) drawn from the model of the
    module docstring, trap by trap: a Gaussian part, an exponential amplitude per cell, and the
    trap's occupancy at verify and at read, each a fair coin. The oracle :func:`rtn_tail` is tested
    against; deterministic for a given ``seed``."""
    g = check_real("sigma_gauss", sigma_gauss, 0.0, 1e4, lo_open=True)
    lam = check_real("rtn_sigma", rtn_sigma, 0.0, 1e4)
    n = check_int("n_cells", n_cells, 1, 10**8)
    rng = np.random.default_rng(check_seed("seed", seed))
    amp = rng.exponential(lam, n) if lam > 0.0 else np.zeros(n)
    flips = rng.integers(0, 2, n) - rng.integers(0, 2, n)  # s_read - s_verify
    return rng.normal(0.0, g, n) + amp * flips
