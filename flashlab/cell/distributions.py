"""Threshold-voltage (Vth) distributions of a cell population under wear, retention, read disturb
and program interference.

Units follow Cai et al. 2017 (``cai2017``): a normalized voltage scale where 0 is ground
and 512 the nominal maximum read reference. Every state is Gaussian; its mean and standard
deviation move with the stress applied (``c`` P/E cycles, retention time ``t`` days, ``r`` reads):

* wear (oxide trap build-up): mean shift ``a * (c/1000)**alpha``, widening ``w * (c/1000)**beta``
  added in quadrature, with separate amplitudes for the erased state and the programmed states;
* retention (charge leakage, linear in log time; Cai et al. HPCA 2015, ``cai2015retention``):
  with ``L = ln(1 + t/tau)`` and wear factor ``f(c) = ((1000 + c)/3000)**gamma`` (1 at the 2K P/E
  cycles where Cai et al. 2017 measured retention), programmed states drift toward a neutral level,
  ``-k * f * L * (mu - v_neutral)`` (high states down, low states up), the erased state rises by
  ``k_er * f * L``, and programmed states widen by variance ``s_ret * f * L``;
* read disturb (weak programming of unselected cells at pass voltage; Cai et al. DSN 2015,
  ``cai2015readdisturb``): states rise by ``d * (r/1e5)**rho * exp((vpass - 1)/vs) *
  exp(-(mu - mu_ER)/lambda)``, so the erased state moves most and high states hardly at all;
* program interference (capacitive coupling; Cai et al. 2017 sec. 3.3): each of ``aggressors``
  neighbours programmed after the victim shifts it by ``coupling_ratio`` times its own Vth change
  (uniform random data), adding ``coupling * n * E[dV]`` to every mean and
  ``coupling**2 * n * Var[dV]`` to every variance (a Gaussian approximation of the mixture).

The fresh programmed-state sigma (:attr:`VthModel.sigma_programmed`) is a plain parameter so it
can be matched to the ISPP program-and-verify physics of :mod:`flashlab.cell.ispp`; it includes
the ISPP step quantization ``ispp_step**2 / 12`` (see :func:`flashlab.cell.ecc.gentle_programming`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from flashlab._validate import check_array, check_instance, check_int, check_real, plain_fields
from flashlab.cell.levels import CellLevels, cell_levels

PE_REF = 1000.0  # P/E cycles at which wear amplitudes are quoted
RETENTION_PE_REF = 2000.0  # P/E cycles at which retention rates are quoted (Cai 2017 Table 5)
READS_REF = 1e5  # read count at which the read-disturb amplitude is quoted


@dataclass(frozen=True)
class VthModel:
    """Statistical Vth model of one technology (normalized units, see module docstring).

    ``means`` gives the fresh state means (ER first, strictly increasing, 2/4/8/16 entries);
    sigmas and amplitudes are in normalized units, exponents dimensionless, ``retention_tau_days``
    in days, ``vpass`` quantities relative to the nominal pass voltage. ``wear_rate`` scales the
    damage one P/E cycle does (every wear and retention term sees ``wear_rate * pe_cycles``).
    """

    means: tuple[float, ...]
    sigma_erased: float
    sigma_programmed: float
    ispp_step: float
    wear_shift_erased: float
    wear_shift_programmed: float
    wear_shift_exp: float
    wear_widen_erased: float
    wear_widen_programmed: float
    wear_widen_exp: float
    retention_tau_days: float
    retention_rate: float
    retention_neutral: float
    retention_rate_erased: float
    retention_widen: float
    retention_pe_exp: float = 1.0
    disturb_shift: float = 0.0
    disturb_exp: float = 1.0
    disturb_decay: float = 60.0
    disturb_vpass_scale: float = 0.02
    coupling_ratio: float = 0.0
    aggressors: int = 2
    wear_rate: float = 1.0

    def __post_init__(self):
        plain_fields(self)
        if not isinstance(self.means, tuple) or len(self.means) not in (2, 4, 8, 16):
            raise ValueError(f"means must be a tuple of 2, 4, 8 or 16 state means; got {self.means!r}")
        m = [check_real(f"means[{i}]", v, -512.0, 1024.0) for i, v in enumerate(self.means)]
        if any(b <= a for a, b in zip(m, m[1:])):
            raise ValueError(f"means must be strictly increasing; got {self.means!r}")
        check_real("sigma_erased", self.sigma_erased, 0.0, 512.0, lo_open=True)
        check_real("sigma_programmed", self.sigma_programmed, 0.0, 512.0, lo_open=True)
        if not 0.0 <= check_real("ispp_step", self.ispp_step, 0.0, 512.0) <= 12**0.5 * self.sigma_programmed:
            raise ValueError(f"ispp_step must be <= sqrt(12) x sigma_programmed (its quantization is part of the "
                             f"programmed sigma); got ispp_step={self.ispp_step!r}, sigma_programmed={self.sigma_programmed!r}")
        for name in ("wear_shift_erased", "wear_shift_programmed"):
            check_real(name, getattr(self, name), -512.0, 512.0)
        for name in ("wear_widen_erased", "wear_widen_programmed", "retention_rate",
                     "retention_rate_erased", "retention_widen", "disturb_shift"):
            check_real(name, getattr(self, name), 0.0, 1e4)
        for name in ("wear_shift_exp", "wear_widen_exp", "retention_pe_exp", "disturb_exp"):
            check_real(name, getattr(self, name), 0.0, 5.0)
        check_real("retention_tau_days", self.retention_tau_days, 1e-6, 1e4)
        check_real("retention_neutral", self.retention_neutral, -512.0, 1024.0)
        check_real("disturb_decay", self.disturb_decay, 0.0, 1e4, lo_open=True)
        check_real("disturb_vpass_scale", self.disturb_vpass_scale, 0.0, 1.0, lo_open=True)
        check_real("coupling_ratio", self.coupling_ratio, 0.0, 0.5)
        check_real("wear_rate", self.wear_rate, 0.0, 100.0, lo_open=True)
        check_int("aggressors", self.aggressors, 0, 8)

    @property
    def levels(self) -> CellLevels:
        return cell_levels(len(self.means).bit_length() - 1)


@dataclass
class VthDistributions:
    """Gaussian Vth distribution of every state at one stress point.

    ``means`` and ``sigmas`` are float arrays (normalized units), one entry per state, ER first;
    ``model`` and the stress point (``pe_cycles``, ``retention_days``, ``reads``, ``vpass``)
    are kept for reference. States are equally likely (scrambled data).
    """

    model: VthModel
    pe_cycles: float
    retention_days: float
    reads: float
    vpass: float
    means: np.ndarray
    sigmas: np.ndarray

    def __post_init__(self):
        plain_fields(self)
        self._check()

    def _check(self) -> None:
        """Validate the fields (again: the object is mutable, and hand-built ones reach the
        Monte Carlo kernel, which indexes its state tables by ``means.size``)."""
        check_instance("model", self.model, VthModel)
        n = self.model.levels.n_states
        check_real("pe_cycles", self.pe_cycles, 0.0, 1e7)
        check_real("retention_days", self.retention_days, 0.0, 1e5)
        check_real("reads", self.reads, 0.0, 1e10)
        check_real("vpass", self.vpass, 0.8, 1.2)
        for name, lo in (("means", None), ("sigmas", 1e-12)):
            arr = check_array(name, getattr(self, name), lo)
            if arr.size != n:
                raise ValueError(f"{name} must have one entry per state of the model ({n}); got {arr.size}")
            setattr(self, name, arr)

    @property
    def levels(self) -> CellLevels:
        return self.model.levels

    def pdf(self, v) -> np.ndarray:
        """Per-state probability density at voltages ``v``: array ``(n_states, len(v))``, each row
        integrating to 1 (weight by ``1/n_states`` for the population density)."""
        v = check_array("v", [v] if isinstance(v, numbers.Real) else v)
        z = (v[None, :] - self.means[:, None]) / self.sigmas[:, None]
        return np.exp(-0.5 * z * z) / (self.sigmas[:, None] * np.sqrt(2.0 * np.pi))

    def cdf(self, v) -> np.ndarray:
        """Per-state cumulative probability at ``v``: array ``(n_states, len(v))``."""
        v = check_array("v", [v] if isinstance(v, numbers.Real) else v)
        return ndtr((v[None, :] - self.means[:, None]) / self.sigmas[:, None])


def vth_distributions(
    model: VthModel,
    pe_cycles: float = 0.0,
    retention_days: float = 0.0,
    reads: float = 0.0,
    vpass: float = 1.0,
) -> VthDistributions:
    """State means and sigmas after ``pe_cycles`` P/E cycles, ``retention_days`` days of retention
    since programming, ``reads`` reads of the block at pass voltage ``vpass`` (relative to nominal,
    in [0.8, 1.2]). Closed form; a few microseconds per call."""
    check_instance("model", model, VthModel)
    c = check_real("pe_cycles", pe_cycles, 0.0, 1e7)
    t = check_real("retention_days", retention_days, 0.0, 1e5)
    r = check_real("reads", reads, 0.0, 1e10)
    vp = check_real("vpass", vpass, 0.8, 1.2)

    mu0 = np.asarray(model.means, dtype=np.float64)
    erased = np.zeros(mu0.size, dtype=bool)
    erased[0] = True
    c_eff = c * model.wear_rate  # damage-equivalent cycles
    wear = c_eff / PE_REF

    mean = mu0 + np.where(erased, model.wear_shift_erased, model.wear_shift_programmed) * wear**model.wear_shift_exp
    var = np.where(erased, model.sigma_erased, model.sigma_programmed) ** 2
    var = var + (np.where(erased, model.wear_widen_erased, model.wear_widen_programmed) * wear**model.wear_widen_exp) ** 2

    ret = np.log1p(t / model.retention_tau_days) * ((PE_REF + c_eff) / (PE_REF + RETENTION_PE_REF)) ** model.retention_pe_exp
    mean = mean + ret * np.where(erased, model.retention_rate_erased, -model.retention_rate * (mu0 - model.retention_neutral))
    var = var + np.where(erased, 0.0, model.retention_widen * ret)

    if r > 0.0:
        dist = (r / READS_REF) ** model.disturb_exp * np.exp((vp - 1.0) / model.disturb_vpass_scale)
        mean = mean + model.disturb_shift * dist * np.exp(-(mu0 - mu0[0]) / model.disturb_decay)

    if model.coupling_ratio > 0.0 and model.aggressors > 0:
        dv = mu0 - mu0[0]  # an aggressor's Vth change when programmed from ER (uniform data)
        mean = mean + model.coupling_ratio * model.aggressors * dv.mean()
        var = var + model.coupling_ratio**2 * model.aggressors * dv.var()

    sigma = np.sqrt(var)
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(sigma))):
        raise ValueError(f"pe_cycles={c:g}, retention_days={t:g}, reads={r:g} and vpass={vp:g} take this model's "
                         "state means or sigmas beyond any finite value; use a smaller stress")
    return VthDistributions(model, c, t, r, vp, mean, sigma)
