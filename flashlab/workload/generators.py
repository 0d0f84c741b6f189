"""Synthetic host workloads: uniform, hot/cold, regions, Zipf and sequential, with optional reads and
TRIMs.

All generation is vectorised NumPy driven by ``numpy.random.Generator`` seeded from ``seed``:
the same seed and chunk size give the same stream, bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass

import numpy as np

from flashlab._validate import check_choice, check_int, check_real, check_seed, plain_fields, quote
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE

PATTERNS = ("uniform", "hotcold", "regions", "zipf", "sequential")
MAX_REGIONS = 8
DEFAULT_CHUNK = 1 << 16


@dataclass(frozen=True)
class Workload:
    """Where host requests go and what they are.

    Parameters
    ----------
    pattern : one of PATTERNS
        ``uniform``: every LBA equally likely. ``hotcold``: a fraction ``hot_fraction`` of the
        LBAs (the lowest ones) receives ``hot_share`` of the requests, e.g. 80/20 is
        ``hot_share=0.8, hot_fraction=0.2`` and 90/10 is ``0.9, 0.1``. ``regions``: the LBAs
        split into consecutive regions (data sets), each written uniformly at its own rate, as
        ``regions`` gives them. ``zipf``: LBA ``k - 1``
        has probability proportional to ``k ** -zipf_exponent``. ``sequential``: LBAs
        0, 1, 2, ... wrapping at the user capacity.
    hot_fraction, hot_share : float in (0, 1)
    regions : tuple of (fraction, share) pairs
        With ``regions`` (required: 2 to ``MAX_REGIONS`` pairs; empty otherwise): region ``k``
        holds a share ``fraction`` of the LBAs, in order from LBA 0 (:meth:`region_starts`), and
        takes a share ``share`` of the requests; each in (0, 1], and each column sums to 1.
    zipf_exponent : float in (0, 10]
    read_fraction, trim_fraction : float in [0, 1), summing below 1
        Shares of reads and TRIMs among requests (the rest are writes); their LBAs follow
        the same pattern.
    """

    pattern: str = "uniform"
    _: KW_ONLY
    hot_fraction: float = 0.2
    hot_share: float = 0.8
    regions: tuple = ()
    zipf_exponent: float = 1.0
    read_fraction: float = 0.0
    trim_fraction: float = 0.0

    def __post_init__(self):
        plain_fields(self)
        check_choice("pattern", self.pattern, PATTERNS)
        check_real("hot_fraction", self.hot_fraction, 0.0, 1.0, lo_open=True, hi_open=True)
        check_real("hot_share", self.hot_share, 0.0, 1.0, lo_open=True, hi_open=True)
        _check_regions(self.regions, self.pattern == "regions")
        check_real("zipf_exponent", self.zipf_exponent, 0.0, 10.0, lo_open=True)
        check_real("read_fraction", self.read_fraction, 0.0, 1.0, hi_open=True)
        check_real("trim_fraction", self.trim_fraction, 0.0, 1.0 - self.read_fraction, hi_open=True)

    def region_starts(self, user_pages: int) -> tuple[int, ...]:
        """First LBA of each region after the first (``regions`` pattern; empty otherwise):
        region ``k`` ends where the cumulative LBA fraction of regions ``0..k`` does, rounded up,
        and every region holds at least one LBA."""
        user_pages = check_int("user_pages", user_pages, max(1, len(self.regions)), 2**31 - 1)
        starts, cum = [], 0.0
        for k, (fraction, _) in enumerate(self.regions[:-1]):
            cum += fraction
            lo = starts[-1] + 1 if starts else 1
            starts.append(min(max(lo, math.ceil(cum * user_pages - 1e-9)), user_pages - len(self.regions) + k + 1))
        return tuple(starts)

    def chunks(self, user_pages: int, seed: int = 0, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Endless stream of ``(ops, lbas)`` chunks of ``chunk_size`` single-page requests."""
        user_pages = check_int("user_pages", user_pages, 1, 2**31 - 1)
        check_seed("seed", seed)
        chunk_size = check_int("chunk_size", chunk_size, 1, 2**28)
        if self.pattern == "hotcold":
            user_pages = check_int("user_pages", user_pages, 2, 2**31 - 1)
        bounds = np.array((0,) + self.region_starts(user_pages) + (user_pages,), dtype=np.int64)
        cum_share = np.cumsum([share for _, share in self.regions])[:-1]
        rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
        hot = max(1, min(user_pages - 1, math.ceil(self.hot_fraction * user_pages)))
        zipf = _ZipfSampler(user_pages, self.zipf_exponent) if self.pattern == "zipf" else None
        position = 0
        mixed = self.read_fraction > 0 or self.trim_fraction > 0
        while True:
            n = chunk_size
            if self.pattern == "uniform":
                lbas = rng.integers(0, user_pages, n)
            elif self.pattern == "hotcold":
                lbas = np.where(rng.random(n) < self.hot_share,
                                rng.integers(0, hot, n), rng.integers(hot, user_pages, n))
            elif self.pattern == "regions":
                k = np.searchsorted(cum_share, rng.random(n), side="right")
                lbas = bounds[k] + (rng.random(n) * (bounds[k + 1] - bounds[k])).astype(np.int64)
            elif self.pattern == "zipf":
                lbas = zipf.sample(rng, n) - 1
            else:
                lbas = (position + np.arange(n, dtype=np.int64)) % user_pages
                position = int(lbas[-1] + 1) % user_pages
            ops = np.full(n, OP_WRITE, dtype=np.int8)
            if mixed:
                u = rng.random(n)
                ops[u < self.read_fraction + self.trim_fraction] = OP_TRIM
                ops[u < self.read_fraction] = OP_READ
            yield ops, lbas.astype(np.int32)


def _check_regions(regions, required: bool) -> None:
    lo, hi = (2, MAX_REGIONS) if required else (0, 0)
    if not isinstance(regions, tuple) or not lo <= len(regions) <= hi or not all(
            isinstance(r, tuple) and len(r) == 2 for r in regions):
        raise ValueError(f"regions must be a tuple of {lo} to {hi} (fraction, share) pairs "
                         f"({'with' if required else 'without'} pattern='regions'); got {quote(regions)}")
    for k, (fraction, share) in enumerate(regions):
        check_real(f"regions[{k}] fraction", fraction, 0.0, 1.0, lo_open=True)
        check_real(f"regions[{k}] share", share, 0.0, 1.0, lo_open=True)
    for col, name in ((0, "fractions"), (1, "shares")):
        total = sum(r[col] for r in regions)
        if regions and abs(total - 1.0) > 1e-9:
            raise ValueError(f"regions {name} must sum to 1; got {total!r}")


class _ZipfSampler:
    """Exact Zipf(s) on {1..n} by rejection-inversion (Hoermann & Derflinger 1996), O(1) memory."""

    def __init__(self, n: int, s: float):
        self.n, self.s = n, s
        self.h_x1 = self._H(1.5) - 1.0
        self.h_n = self._H(n + 0.5)
        self.cut = 2.0 - self._H_inv(self._H(2.5) - 2.0 ** -s)

    def _H(self, x):
        """Integral of x**-s from 1 (log x when s == 1)."""
        log_x = np.log(x)
        t = (1.0 - self.s) * log_x
        return log_x * np.where(np.abs(t) > 1e-8, np.expm1(t) / np.where(t == 0, 1, t), 1.0 + t / 2)

    def _H_inv(self, y):
        t = y * (1.0 - self.s)
        return np.exp(y * np.where(np.abs(t) > 1e-8, np.log1p(t) / np.where(t == 0, 1, t), 1.0 - t / 2))

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        out = np.empty(size, dtype=np.int64)
        pending = np.arange(size)
        while pending.size:
            u = self.h_n + rng.random(pending.size) * (self.h_x1 - self.h_n)
            x = self._H_inv(u)
            k = np.clip(np.floor(x + 0.5), 1, self.n)
            ok = (k - x <= self.cut) | (u >= self._H(k + 0.5) - k ** -self.s)
            out[pending[ok]] = k[ok]
            pending = pending[~ok]
        return out
