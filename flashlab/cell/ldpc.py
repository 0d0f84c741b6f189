"""An LDPC code and its min-sum decoder, simulated frame by frame through a soft-read channel.

The code is an array code (Fan 2000, ``fan2000array``): the parity-check matrix is a ``J x L``
grid of ``Z x Z`` circulant permutation matrices, block ``(i, j)`` the identity shifted by
``i * j mod Z``, with ``Z`` prime. Every bit takes part in ``J`` checks and every check covers
``L`` bits (a regular, quasi-cyclic code, the structure SSD controllers use), and no two checks
share two bits (girth 6). The ``J * Z`` checks have rank ``J * Z - J + 1``, so the code carries
``k = L * Z - J * Z + J - 1`` data bits in ``n = L * Z``. The default, ``J = 4``, ``L = 36``,
``Z = 101``, has ``n = 3636``, ``k = 3235``: rate 0.890, 12.4 % parity, the overhead of a
BCH code correcting 33 bits per 404-byte codeword. (With ``J = 3`` the array code's minimum
distance is 6, and min-sum then settles on a wrong codeword in about 1 % of frames whatever the
error rate: an error floor, so the default takes four checks per bit.)

The decoder is normalized min-sum (Chen and Fossorier 2002, ``chen2002minsum``): belief
propagation with each check's message approximated by the smallest incoming magnitude, scaled
by ``alpha`` (0.75), flooding schedule, stopping as soon as every check is satisfied. A frame
fails when the decoded word differs from the codeword written, whether or not the decoder noticed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from flashlab._validate import (check_array, check_instance, check_int, check_real, check_real_or_array, check_seed,
                                plain_fields)
from flashlab.cell import _ldpc_kernels
from flashlab.cell.ecc import EccCode
from flashlab.cell.soft_read import SoftReadChannel, gaussian_read_point, soft_read_channel

_PRIMES = tuple(p for p in range(2, 1024) if all(p % d for d in range(2, int(p**0.5) + 1)))


@dataclass(frozen=True)
class LdpcCode:
    """A ``column_weight x row_weight`` array code of circulant size ``circulant`` (a prime, at
    least ``row_weight``; module docstring)."""

    column_weight: int = 4
    row_weight: int = 36
    circulant: int = 101

    def __post_init__(self):
        plain_fields(self)
        check_int("column_weight", self.column_weight, 2, 8)
        check_int("row_weight", self.row_weight, 3, 64)
        check_int("circulant", self.circulant, 3, 1021)
        if not self.column_weight < self.row_weight <= self.circulant:
            raise ValueError(f"column_weight < row_weight <= circulant must hold (a code of positive rate whose "
                             f"shifts i*j mod circulant differ); got column_weight={self.column_weight}, "
                             f"row_weight={self.row_weight}, circulant={self.circulant}")
        if self.circulant not in _PRIMES:
            raise ValueError(f"circulant must be a prime (an array code's shifts i*j then never repeat); "
                             f"got {self.circulant}")

    @property
    def n_bits(self) -> int:
        return self.row_weight * self.circulant

    @property
    def data_bits(self) -> int:
        return self.n_bits - (self.column_weight * self.circulant - self.column_weight + 1)

    @property
    def rate(self) -> float:
        return self.data_bits / self.n_bits

    def same_overhead_bch(self) -> EccCode:
        """The strongest BCH code (:class:`flashlab.cell.EccCode`) over ``data_bits // 8`` bytes
        whose parity fits in this code's ``n_bits - data_bits`` (at least ``t = 1``): the comparison at
        equal cost."""
        data_bytes = self.data_bits // 8
        t = 1
        while EccCode(t + 1, data_bytes).parity_bits <= self.n_bits - self.data_bits:
            t += 1
        return EccCode(t, data_bytes)

    def parity_check(self) -> np.ndarray:
        """The parity-check matrix, ``(column_weight * circulant, n_bits)`` uint8."""
        z = self.circulant
        h = np.zeros((self.column_weight * z, self.n_bits), dtype=np.uint8)
        h[np.arange(h.shape[0]), self._check_vars.T] = 1
        return h

    @cached_property
    def _check_vars(self) -> np.ndarray:
        """``(checks, row_weight)``: the bits of check ``i * Z + r`` are ``j * Z + (r + i*j) % Z``."""
        z, j = self.circulant, np.arange(self.row_weight)
        i, r = np.divmod(np.arange(self.column_weight * z), z)
        return (j[None, :] * z + (r[:, None] + i[:, None] * j[None, :]) % z).astype(np.int64)

    @cached_property
    def _var_edges(self) -> np.ndarray:
        """``(n_bits, column_weight)``: the edges (check * row_weight + slot) of each bit."""
        flat = self._check_vars.ravel()
        edges = np.argsort(flat, kind="stable").reshape(self.n_bits, self.column_weight)
        return edges.astype(np.int64)

    @cached_property
    def _encoder(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(encoder, data_cols, parity_cols)``: GF(2) elimination of the parity-check matrix to
        reduced row-echelon form; ``encoder[j]`` packs the parity bits data bit ``j`` flips."""
        h = self.parity_check().astype(bool)
        pivots, row = [], 0
        for col in range(h.shape[1]):
            if row == h.shape[0]:
                break
            hits = np.flatnonzero(h[row:, col])
            if hits.size == 0:
                continue
            p = row + hits[0]
            h[[row, p]] = h[[p, row]]
            others = np.flatnonzero(h[:, col])
            others = others[others != row]
            h[others] ^= h[row]
            pivots.append(col)
            row += 1
        parity_cols = np.array(pivots, dtype=np.int64)
        data_cols = np.setdiff1d(np.arange(h.shape[1]), parity_cols).astype(np.int64)
        a = h[:row][:, data_cols].T  # (k, parity): parity bit i = xor of data bits j with a[j, i]
        words = (row + 63) // 64
        padded = np.zeros((a.shape[0], words * 64), dtype=np.uint64)
        padded[:, :row] = a
        weights = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
        encoder = (padded.reshape(a.shape[0], words, 64) * weights).sum(axis=2, dtype=np.uint64)
        return encoder, data_cols, parity_cols


@dataclass
class FerResult:
    """Frames decoded through one channel: ``failed`` (per-frame flags), ``iterations`` (per
    frame), the channel's hard ``rber`` and ``soft_senses``."""

    failed: np.ndarray
    iterations: np.ndarray
    rber: float
    soft_senses: int

    @property
    def frames(self) -> int:
        return int(self.failed.size)

    @property
    def fer(self) -> float:
        """Frame error rate: failed frames over frames."""
        return float(self.failed.mean())


def ldpc_fer(code: LdpcCode, channel: SoftReadChannel, frames: int, seed: int, alpha: float = 0.75,
             max_iter: int = 30) -> FerResult:
    """Write ``frames`` random codewords of ``code``, read every bit through ``channel``, decode
    (module docstring) and count the frames that fail. Same ``seed``, same frames; with one seed
    different channels see the same data and the same uniform draws (common random numbers), so
    curves over RBER are smooth. About 0.3 ms per frame near the correction limit."""
    check_instance("code", code, LdpcCode)
    check_instance("channel", channel, SoftReadChannel)
    n = check_int("frames", frames, 1, 10**7)
    seed = check_seed("seed", seed)
    a = check_real("alpha", alpha, 0.0, 1.0, lo_open=True)
    iters = check_int("max_iter", max_iter, 1, 1000)
    p0 = np.asarray(channel.p0, dtype=np.float64)
    p1 = np.asarray(channel.p1, dtype=np.float64)
    if p0.shape != p1.shape or p0.ndim != 1 or p0.size < 2 or np.any(~np.isfinite(p0)) or np.any(~np.isfinite(p1)) \
            or np.any(p0 < 0.0) or np.any(p1 < 0.0) or not (p0.sum() > 0.0 and p1.sum() > 0.0):
        raise ValueError("channel must hold two equal-length arrays p0 and p1 of region probabilities "
                         "(finite, non-negative, at least two regions)")
    # region search in the kernel stops at the last region: cumulative tables end at exactly 1
    cum = np.stack([np.cumsum(p0) / p0.sum(), np.cumsum(p1) / p1.sum()])
    cum[:, -1] = 1.0
    llr = np.ascontiguousarray(channel.llr, dtype=np.float64)
    encoder, data_cols, parity_cols = code._encoder
    failed, iterations = _ldpc_kernels.ldpc_frames(n, seed, code._check_vars, code._var_edges, encoder, data_cols,
                                                   parity_cols, cum, llr, a, iters)
    return FerResult(failed, iterations, channel.rber, channel.soft_senses)


@dataclass
class FerCurve:
    """Frame error rate against the hard-read RBER of the clean two-Gaussian read point
    (:func:`flashlab.cell.gaussian_read_point`): ``rber`` and ``fer`` arrays, each point
    ``frames`` frames, ``soft_senses`` extra senses per read point."""

    rber: np.ndarray
    fer: np.ndarray
    frames: int
    soft_senses: int

    def rber_at(self, fer_target: float) -> float:
        """The RBER at which the curve first rises above ``fer_target``: log-log interpolation
        between the last point at or below it and the first above (a point with no failed frame
        counts as half a frame). NaN if the first point is already above, the last grid point if
        no point is."""
        target = check_real("fer_target", fer_target, 0.0, 1.0, lo_open=True, hi_open=True)
        above = np.flatnonzero(self.fer > target)
        if above.size == 0:
            return float(self.rber[-1])
        j = int(above[0])
        if j == 0:
            return float("nan")
        lo = max(self.fer[j - 1], 0.5 / self.frames)
        t = np.clip((np.log(target) - np.log(lo)) / (np.log(self.fer[j]) - np.log(lo)), 0.0, 1.0)
        return float(self.rber[j - 1] * (self.rber[j] / self.rber[j - 1]) ** t)

    def fer_at(self, rber) -> np.ndarray:
        """The frame error rate at ``rber`` (array), interpolated linearly in log RBER. Outside the
        grid only where the frame error rate cannot move (it grows with RBER): 0 below a first
        point with no failed frame, 1 above a last point where every frame failed, NaN elsewhere."""
        r = np.atleast_1d(check_real_or_array("rber", rber, 0.0, 0.5))
        x = np.log(np.maximum(r, 1e-300))
        below = 0.0 if self.fer[0] == 0.0 else np.nan
        above = 1.0 if self.fer[-1] == 1.0 else np.nan
        return np.interp(x, np.log(self.rber), self.fer, left=below, right=above)


def fer_curve(code: LdpcCode, soft_senses: int, rbers, frames: int, seed: int) -> FerCurve:
    """:func:`ldpc_fer` over increasing hard-read error rates ``rbers`` (each in (0, 0.5)) of the
    clean read point, every point with the same ``seed`` (common random numbers: the curve
    rises smoothly). Once every frame of a point fails, the higher RBERs are not run: they are
    recorded as failing every frame too."""
    check_instance("code", code, LdpcCode)
    r = check_array("rbers", rbers, 1e-9, 0.45)
    if np.any(np.diff(r) <= 0.0):
        raise ValueError(f"rbers must be strictly increasing; got {r.tolist()!r}")
    n = check_int("frames", frames, 1, 10**7)
    fer = np.ones(r.size)
    for i, p in enumerate(r):
        fer[i] = ldpc_fer(code, soft_read_channel(*gaussian_read_point(float(p)), soft_senses), n, seed).fer
        if fer[i] == 1.0:
            break
    return FerCurve(r, fer, n, int(soft_senses))
