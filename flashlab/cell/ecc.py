"""ECC: uncorrectable bit error rate (UBER), endurance, soft-read latency and the eMLC trade.

A BCH-like code corrects up to ``t`` bit errors in an ``n``-bit codeword carrying ``k`` data bits.
With independent raw bit errors at rate ``p`` (RBER), a codeword fails when more than ``t`` bits
are wrong: ``P_fail = P[Binomial(n, p) > t]`` (``scipy.stats.binom.sf``, accurate down to
1e-300). UBER, as JEDEC JESD218 (``jesd218``) defines it, is uncorrectable data errors per bit
read; counting each failed codeword as one error event,

    UBER = P_fail / k.

Endurance is the P/E count at which the UBER of the worst page type, after the required
retention time, reaches the JESD218 target (1e-15 client, 1e-16 enterprise); found by bisection.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import binom

from flashlab._validate import (check_array, check_bool, check_instance, check_int, check_real, check_real_or_array,
                                plain_fields)
from flashlab.cell.distributions import VthModel, vth_distributions
from flashlab.cell.errors import optimal_read_refs, rber_analytic
from flashlab.cell.levels import T_PROG_MAX_US, NandTiming, _check_timing, cell_levels

UBER_CLIENT = 1e-15  # JESD218 client class target
UBER_ENTERPRISE = 1e-16  # JESD218 enterprise class target
WEAR_DAMAGE_EXP = 3.0  # damage per cycle ~ step_scale**3 under gentle programming


@dataclass(frozen=True)
class EccCode:
    """A binary BCH code correcting ``t`` bits per codeword of ``codeword_bytes`` data bytes.

    Parity is ``t * m`` bits with ``m`` the smallest Galois-field degree such that
    ``2**m - 1 >= n`` (a binary BCH code over GF(2**m)).
    """

    t: int
    codeword_bytes: int

    def __post_init__(self):
        plain_fields(self)
        check_int("t", self.t, 0, 4096)
        check_int("codeword_bytes", self.codeword_bytes, 1, 1 << 20)

    @property
    def data_bits(self) -> int:
        return 8 * self.codeword_bytes

    @property
    def parity_bits(self) -> int:
        m = 2
        while 2**m - 1 < self.data_bits + self.t * m:
            m += 1
        return self.t * m

    @property
    def n_bits(self) -> int:
        return self.data_bits + self.parity_bits


def codeword_failure_probability(rber, n_bits: int, t: int) -> np.ndarray:
    """P[more than ``t`` of ``n_bits`` bits are wrong] for raw bit error rate(s) ``rber`` in [0, 1]."""
    p = np.atleast_1d(check_real_or_array("rber", rber, 0.0, 1.0))
    n = check_int("n_bits", n_bits, 1, 10**9)
    if check_int("t", t, 0, 10**9) > n:
        raise ValueError(f"t must be <= n_bits (no code corrects more bits than it has); got t={t}, n_bits={n}")
    return binom.sf(t, n, p)


def uber(rber, code: EccCode) -> np.ndarray:
    """Uncorrectable bit error rate (errors per data bit read) for raw bit error rate(s) ``rber``:
    ``P_fail / k`` (see module docstring)."""
    _check_code(code)
    return codeword_failure_probability(rber, code.n_bits, code.t) / code.data_bits


def correctable_rber(code: EccCode, target_uber: float = UBER_CLIENT) -> float:
    """The largest raw bit error rate whose UBER stays at or below ``target_uber`` (bisection)."""
    _check_code(code)
    target = check_real("target_uber", target_uber, 1e-30, 1.0, lo_open=True)
    lo, hi = 0.0, 0.5
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if uber(mid, code)[0] <= target else (lo, mid)
    return lo


def worst_page_rber(model: VthModel, pe_cycles: float, retention_days: float = 0.0,
                    reads: float = 0.0, read_retry: bool = True) -> float:
    """RBER of the worst page type at one stress point, read with optimal references
    (``read_retry=True``) or the factory defaults; 0.5 (data lost) once wear has pushed a state
    past its neighbour, where the model no longer applies."""
    dist = vth_distributions(model, pe_cycles, retention_days, reads)
    if np.any(np.diff(dist.means) <= 0.0):
        return 0.5
    refs = optimal_read_refs(dist) if check_bool("read_retry", read_retry) else None
    return float(rber_analytic(dist, refs).rber.max())


def endurance_pe_cycles(
    model: VthModel,
    code: EccCode,
    retention_days: float = 365.0,
    reads: float = 0.0,
    target_uber: float = UBER_CLIENT,
    read_retry: bool = True,
    max_cycles: float = 1e6,
) -> float:
    """P/E cycles after which data kept ``retention_days`` days (and read ``reads`` times) exceed
    ``target_uber`` on the worst page type. Bisection on ``log(1 + cycles)`` to 0.1%; returns 0 if
    even fresh cells fail and ``max_cycles`` if the target holds all the way. About 30 ms."""
    _check_code(code)
    retention_days = check_real("retention_days", retention_days, 0.0, 1e5)
    reads = check_real("reads", reads, 0.0, 1e10)
    limit = correctable_rber(code, target_uber)
    top = check_real("max_cycles", max_cycles, 1.0, 1e7)
    check_bool("read_retry", read_retry)

    def fails(c):
        return worst_page_rber(model, c, retention_days, reads, read_retry) > limit

    if fails(0.0):
        return 0.0
    if not fails(top):
        return top
    lo, hi = 0.0, math.log1p(top)
    while hi - lo > 1e-3:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if fails(math.expm1(mid)) else (mid, hi)
    return math.expm1(lo)


def soft_read_latency_us(timing: NandTiming, soft_levels: int) -> np.ndarray:
    """Read latency per page type (us) when LDPC soft decoding senses every reference of the page
    at ``soft_levels`` voltages (1 = a hard read): ``t_read_base_us + senses * soft_levels *
    t_sense_us``: soft reads multiply the sensing. The per-sense time is the preset's; no measured
    soft-read latency is reproduced here (Zhao et al. 2013, ``zhao2013ldpc``: in their
    trace-driven SSD simulations the finer sensing LDPC needs lengthened read response times by
    more than 100 % in the worst case)."""
    _check_timing(timing)
    levels = check_int("soft_levels", soft_levels, 1, 16)
    return timing.t_read_base_us + cell_levels(timing.bits).senses * levels * timing.t_sense_us


def gentle_programming(model: VthModel, timing: NandTiming, step_scale: float) -> tuple[VthModel, NandTiming]:
    """Slower, gentler programming (eMLC): ISPP steps scaled by ``step_scale`` in (0, 1].

    * program time per page scales as ``1 / step_scale`` (ISPP loops to climb the same window);
    * the fresh programmed sigma loses the step-quantization part:
      ``sigma**2 - (1 - s**2) * ispp_step**2 / 12``;
    * the damage per cycle (:attr:`VthModel.wear_rate`) scales as ``step_scale**3``
      (WEAR_DAMAGE_EXP): a model assumption, chosen so that halving the step (2x slower programs)
      gives roughly the 10x P/E gain flashdba reports for eMLC (``flashdba2014wear``); oxide damage
      grows steeply with the tunnelling field and overshoot that large steps cause.
    """
    check_instance("model", model, VthModel)
    _check_timing(timing)
    s = check_real("step_scale", step_scale, _min_step_scale(timing), 1.0)
    sigma = math.sqrt(model.sigma_programmed**2 - (1.0 - s * s) * model.ispp_step**2 / 12.0)
    gentle = dataclasses.replace(
        model,
        sigma_programmed=sigma,
        ispp_step=model.ispp_step * s,
        wear_rate=model.wear_rate * s**WEAR_DAMAGE_EXP,
    )
    slow = dataclasses.replace(timing, t_prog_us=tuple(t / s for t in timing.t_prog_us))
    return gentle, slow


@dataclass
class ProgramEnduranceTrade:
    """Program speed vs endurance: arrays over ``step_scale`` of the mean program time per page
    (``mean_prog_us``, us) and the endurance (``endurance_pe``, P/E cycles)."""

    step_scale: np.ndarray
    mean_prog_us: np.ndarray
    endurance_pe: np.ndarray


def program_endurance_trade(
    model: VthModel,
    timing: NandTiming,
    code: EccCode,
    step_scales,
    retention_days: float = 365.0,
    target_uber: float = UBER_CLIENT,
) -> ProgramEnduranceTrade:
    """Endurance and mean program time for each ISPP ``step_scales`` entry (see
    :func:`gentle_programming`): the eMLC trade of speed for cycles."""
    check_instance("model", model, VthModel)
    _check_timing(timing)
    _check_code(code)
    scales = check_array("step_scales", step_scales, _min_step_scale(timing), 1.0)
    prog, life = [], []
    for s in scales:
        m, t = gentle_programming(model, timing, float(s))
        prog.append(t.mean_prog_us)
        life.append(endurance_pe_cycles(m, code, retention_days, target_uber=target_uber, max_cycles=1e7))
    return ProgramEnduranceTrade(scales, np.array(prog), np.array(life))


def _min_step_scale(timing: NandTiming) -> float:
    """Smallest ISPP step scale that keeps the slowest page's program time (``t / scale``)
    within what :class:`NandTiming` accepts (and at least 1e-3)."""
    return max(1e-3, max(timing.t_prog_us) / T_PROG_MAX_US)


def _check_code(code) -> None:
    check_instance("code", code, EccCode)
