"""Planar floating-gate NAND under process shrinks: capacitances, electrons, coupling and noise.

The feature size ``F`` (nm, the "node": 2X about 25 nm, 2Y about 21 nm, 1X about 19 nm, 1Y about
16 nm; ``flashdba2015fabrication``) sets every length of a cell. The scaling laws:

* **Cell area 4F²** (a cell every 2F along the word line and along the bit line; the n·F² rule of
  thumb, NAND being the 4F² case).
* **Capacitances** (parallel plates, permittivity of SiO2, in attofarads): the control gate wraps
  the floating gate's top (F × F) and both sidewalls (F × h), across an interpoly dielectric of
  fixed equivalent thickness ``t_ipd``: ``C_CG = e·F·(F + 2h)/t_ipd``; the tunnel oxide under the
  gate, ``C_tox = e·F²/t_tox``; a neighbouring floating gate along the bit line faces it across a
  gap F with a sidewall F × h: ``C_FG-FG = e·F·h/F = e·h``, which does not shrink at all.
  *Assumed:* oxide thicknesses and the floating-gate height do not scale (oxides stop thinning
  near 8 nm to keep retention; the height is chosen so that a 25 nm cell holds 100 electrons
  across its Vth window: Cai et al. 2015 give about 100 electrons for the 2Y-nm MLC cells they
  measured, ``cai2015retention``, and Applied Materials the same for 25 nm). Locally ``C_CG``
  then scales as ``F^k`` with k = 1.3 at 25 nm, inside the range 1-2 that the 100-electron
  anchor admits.
* **Electrons:** a Vth step ``dV`` takes ``C_CG·dV/q`` electrons (a floating-gate cell's Vth moves
  by ``q/C_CG`` per stored electron). Electrons between adjacent states come from the state means
  the presets use (:func:`state_spacing_units`), not from the whole window divided by
  ``2**bits - 1``: the erased state sits 176 units below the first programmed state, so an even
  split of the window overstates the spacing of every multi-level cell (TLC's by 25%).
* **The wrap's limit** (:attr:`PlanarCell.wrap_limit_nm`). Along the word line a floating gate
  F wide leaves a slot F wide to the next; to cover a sidewall the control gate must fill that
  slot after the interpoly dielectric has lined both of its walls, so the wrap fits only while
  ``F >= 2 t_ipd + CG_POLY_MIN_NM`` (30 nm for the 13 nm stack and an *assumed* 4 nm of gate
  poly). ``gate="wrap"`` keeps the sidewalls at every node (the idealised cell the presets are
  built on, impossible below the limit); ``gate="flat"`` is the planar cell that replaced it,
  coupled through its top face alone: ``C_CG = e·k·F²/t_ipd`` with the interpoly dielectric's
  relative permittivity ``ipd_k`` (a high-k dielectric wins back coupling in proportion to k;
  IMFT's 20 nm cell, ``fudzilla2013intel3d``; imec, ``breuil2013ipd``). :func:`as_built` picks
  the structure the limit leaves at each node.
* **Air gaps** (``air_gap``): the share of the space between bit-line neighbours' floating gates
  (the space between word lines) left as air (k = 1) instead of oxide (k = 3.9), in parallel:
  ``C_FG-FG = e0·h·(3.9·(1 - a) + a)``; a full gap keeps 1/3.9 of it. An upper bound: fringing
  through the liner and the control gate is not counted.
* **Neighbour coupling** (floating-gate interference; Lee, Hur, Choi 2002, ``lee2002interference``):
  a victim's Vth moves by ``gamma`` times a neighbour's, ``gamma = C_FG-FG / C_total`` with
  ``C_total = C_CG + C_tox + 2·C_FG-FG``; it grows as F shrinks because C_FG-FG stays while the
  rest shrink.
* **Electron-number noise** (Monzio Compagnoni et al. 2008, ``compagnoni2008injection``): electrons
  arrive one by one, so the charge a pulse injects is Poisson (sub-Poissonian for large packets;
  :func:`electron_counts`); the Vth variance it leaves scales as ``q·dV_step/C_CG``, i.e. as 1/C_CG.
* **Program-verify placement** (:func:`verify_overshoot`): ISPP stops a cell at the first pulse
  that takes it past its verify level, so where it lands depends on the last pulse alone: within
  about one step above the level (mean n/2 for n electrons a pulse), plus half of that pulse's
  Poisson variance (variance n²/12 + n/2 in all).
* **Random telegraph noise** (Fukuda et al. 2007, ``fukuda2007rtn``): one trap near the channel
  toggles; the 3-sigma Vth jitter grows only 1.8x from 90 nm to 20 nm, i.e. as ``F**-0.39``.
  *Assumed:* sigma 10 mV at 90 nm.

The Vth scale of :mod:`flashlab.cell` is normalized (Cai et al. 2017); *assumed*:
``VOLTS_PER_UNIT`` = 6 mV per unit, so the window from the erased to the top state (558 units)
spans 3.35 V.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from flashlab._validate import check_array, check_choice, check_int, check_real, check_seed, plain_fields
from flashlab.tech import _kernels

Q_E = 1.602176634e-19  # elementary charge, C
K_OX = 3.9  # relative permittivity of SiO2
EPS0_AF_PER_NM = 8.8541878128e-3  # vacuum permittivity, aF/nm
EPS_OX_AF_PER_NM = EPS0_AF_PER_NM * K_OX  # permittivity of SiO2, aF/nm
CG_POLY_MIN_NM = 4.0  # thinnest control-gate poly that fills the slot between floating gates, nm (assumed)
HIGH_K_IPD = 9.0  # relative permittivity of the flat cell's interpoly dielectric (Al2O3; assumed, see as_built)
FLAT_FG_HEIGHT_NM = 10.0  # floating-gate height of the flat cell, nm (assumed, see as_built)
VOLTS_PER_UNIT = 0.006  # volts per normalized Vth unit (assumed, see module docstring)
WINDOW_UNITS = 558.3  # erased mean to top programmed mean of the presets (normalized units)
PROGRAMMED_SPAN_UNITS = 382.4  # first (TLC P1) to top programmed mean of the presets (normalized units)
RTN_SIGMA_90NM_V = 0.010  # RTN sigma at 90 nm, volts (assumed)
RTN_EXP = math.log(1.8) / math.log(90.0 / 20.0)  # Fukuda et al. 2007: 1.8x from 90 to 20 nm


@dataclass(frozen=True)
class PlanarCell:
    """Geometry of a planar floating-gate cell at feature size ``feature_nm`` (nm).

    ``fg_height_nm``: floating-gate height (sidewall the control gate wraps), nm; ``t_ipd_nm``:
    interpoly dielectric equivalent oxide thickness, nm; ``t_tox_nm``: tunnel oxide, nm;
    ``window_v``: Vth window from erased to top state, volts. Defaults: see module docstring
    (``fg_height_nm`` = 23.5 nm gives 100 electrons across the window at 25 nm). ``window_v`` is the
    presets' window of 558.3 normalized units (Cai et al. 2017's scale) at an *assumed*
    ``VOLTS_PER_UNIT`` of 6 mV per unit: 3.35 V. ``gate``: ``"wrap"`` (the control gate covers
    the top and both sidewalls, at every node, even below :attr:`wrap_limit_nm` where it cannot
    fit) or ``"flat"`` (top face only); ``ipd_k``: relative permittivity of the interpoly
    dielectric (1-50; ``t_ipd_nm`` is then its physical thickness, equal to the equivalent oxide
    thickness at 3.9); ``air_gap``: share of the space between bit-line neighbours that is air
    (0-1). See the module docstring.
    """

    feature_nm: float
    fg_height_nm: float = 23.5
    t_ipd_nm: float = 13.0
    t_tox_nm: float = 8.0
    window_v: float = WINDOW_UNITS * VOLTS_PER_UNIT
    gate: str = "wrap"
    ipd_k: float = K_OX
    air_gap: float = 0.0

    def __post_init__(self):
        plain_fields(self)
        check_real("feature_nm", self.feature_nm, 5.0, 250.0)
        check_real("fg_height_nm", self.fg_height_nm, 1.0, 500.0)
        check_real("t_ipd_nm", self.t_ipd_nm, 1.0, 100.0)
        check_real("t_tox_nm", self.t_tox_nm, 1.0, 100.0)
        check_real("window_v", self.window_v, 0.1, 20.0)
        check_choice("gate", self.gate, ("wrap", "flat"))
        check_real("ipd_k", self.ipd_k, 1.0, 50.0)
        check_real("air_gap", self.air_gap, 0.0, 1.0)

    @property
    def wrap_limit_nm(self) -> float:
        """Smallest feature size at which the control gate still fits between two floating gates
        (the slot, F wide, holds two interpoly dielectrics and ``CG_POLY_MIN_NM`` of gate), nm."""
        return 2.0 * self.t_ipd_nm + CG_POLY_MIN_NM

    @property
    def wrap_fits(self) -> bool:
        """Whether a wrapped control gate fits at this feature size."""
        return self.feature_nm >= self.wrap_limit_nm

    @property
    def cell_area_nm2(self) -> float:
        """4F², nm²."""
        return 4.0 * self.feature_nm**2

    @property
    def c_cg_af(self) -> float:
        """Control gate to floating gate capacitance, aF: the top face, and both sidewalls when
        ``gate`` is ``"wrap"``, across ``t_ipd_nm`` of a dielectric of constant ``ipd_k``."""
        f = self.feature_nm
        sides = 2.0 * self.fg_height_nm if self.gate == "wrap" else 0.0
        return EPS0_AF_PER_NM * self.ipd_k * f * (f + sides) / self.t_ipd_nm

    @property
    def c_tox_af(self) -> float:
        """Floating gate to channel (tunnel oxide) capacitance, aF."""
        return EPS_OX_AF_PER_NM * self.feature_nm**2 / self.t_tox_nm

    @property
    def c_fgfg_af(self) -> float:
        """Floating gate to one bit-line neighbour's floating gate, aF (independent of F): oxide
        and, for the ``air_gap`` share of the space, air, side by side."""
        return EPS0_AF_PER_NM * self.fg_height_nm * (K_OX * (1.0 - self.air_gap) + self.air_gap)

    @property
    def c_total_af(self) -> float:
        """Total floating-gate capacitance, aF (two bit-line neighbours)."""
        return self.c_cg_af + self.c_tox_af + 2.0 * self.c_fgfg_af

    @property
    def gate_coupling(self) -> float:
        """Gate coupling ratio alpha_G = C_CG / C_total (dimensionless)."""
        return self.c_cg_af / self.c_total_af

    @property
    def coupling(self) -> float:
        """Floating-gate interference ratio gamma = C_FG-FG / C_total: a neighbour's Vth change
        times gamma moves this cell's Vth."""
        return self.c_fgfg_af / self.c_total_af

    @property
    def electrons_per_volt(self) -> float:
        """Stored electrons per volt of Vth shift, C_CG / q."""
        return self.c_cg_af * 1e-18 / Q_E

    @property
    def window_electrons(self) -> float:
        """Electrons between the erased and the top programmed state."""
        return self.electrons_per_volt * self.window_v

    def electrons_per_state(self, bits: int) -> float:
        """Electrons between adjacent states of a cell storing ``bits`` bits (1-5), laid out as the
        presets lay them out (:func:`state_spacing_units`, scaled with ``window_v``)."""
        b = check_int("bits", bits, 1, 5)
        return self.window_electrons * state_spacing_units(b) / WINDOW_UNITS

    @property
    def rtn_sigma_v(self) -> float:
        """Random telegraph noise sigma of the Vth, volts (see module docstring)."""
        return RTN_SIGMA_90NM_V * (90.0 / self.feature_nm) ** RTN_EXP

    def injection_sigma_v(self, step_v: float) -> float:
        """Vth sigma left by Poisson injection of one ISPP step of ``step_v`` volts:
        sqrt(q·step/C_CG), volts (Monzio Compagnoni et al. 2008)."""
        s = check_real("step_v", step_v, 0.0, 5.0)
        return math.sqrt(Q_E * s / (self.c_cg_af * 1e-18))


def as_built(feature_nm: float, air_gap: float = 0.0) -> PlanarCell:
    """The planar cell the wrap's limit leaves at ``feature_nm`` (nm): the book's wrapped cell
    (:class:`PlanarCell` defaults) where the control gate still fits (:attr:`PlanarCell.wrap_fits`),
    and below that the flat cell that replaced it: top-face coupling across a high-k interpoly
    dielectric of the same 13 nm (``HIGH_K_IPD`` = 9, aluminium oxide, the high-k dielectric of
    imec's planar cells, ``breuil2013ipd``; IMFT published no constant for its 20 nm cell,
    ``fudzilla2013intel3d``) on a floating gate only ``FLAT_FG_HEIGHT_NM`` = 10 nm tall (a flat
    cell needs no sidewall to couple through, so its gate was thinned; imec showed 5 nm,
    ``wellekens2011hybrid``). Both the constant and the height are *assumed*. ``air_gap`` as in
    :class:`PlanarCell`."""
    wrapped = PlanarCell(feature_nm, air_gap=air_gap)
    if wrapped.wrap_fits:
        return wrapped
    return replace(wrapped, gate="flat", ipd_k=HIGH_K_IPD, fg_height_nm=FLAT_FG_HEIGHT_NM)


def state_spacing_units(bits: int) -> float:
    """Mean spacing of adjacent states in the presets' layout, normalized units (``bits`` 1-5).

    TLC: Cai et al. 2017's fresh means, P1 to P7 over six gaps (63.7 units). Other cells (the
    derived presets of :mod:`flashlab.tech.generations`): ``2**bits - 1`` programmed states stepping
    ``PROGRAMMED_SPAN_UNITS / (2**bits - 1)`` down from the TLC top state (MLC 127.5, QLC 25.5);
    SLC: its one programmed state at the top, the whole window above the erased state. For MLC,
    TLC and QLC this is the spacing of the programmed states; the erased state sits further below.
    """
    b = check_int("bits", bits, 1, 5)
    if b == 1:
        return WINDOW_UNITS
    return PROGRAMMED_SPAN_UNITS / (6 if b == 3 else 2**b - 1)


# Electrons one call may simulate. Measured at the bounds on the project's 2-core machine: 16 ns
# per electron for large pulses, 27 ns for pulses of a few electrons (a cell's own cost counts as
# one), so a call at the bound takes 5-14 s (electron_counts(4, 10**8) 13.8 s, (1e5, 4999) 7.7 s;
# verify_overshoot(1000, 47424) 7.2 s, (1, 5988023) 13.6 s)
_MAX_ELECTRONS = 5 * 10**8


def _check_work(cells_name: str, cells: int, per_name: str, per_value: float, per_cell: float) -> None:
    """Refuse a run of ``cells`` x ``per_cell`` electrons beyond :data:`_MAX_ELECTRONS`."""
    if cells * per_cell > _MAX_ELECTRONS:
        most = max(1, int(_MAX_ELECTRONS // per_cell))
        raise ValueError(f"{cells_name} must be at most {most} for {per_name}={per_value:g} (about {per_cell:.0f} "
                         f"electrons each, at most {_MAX_ELECTRONS:.0e} per call: up to about 15 s); got {cells}")


def electron_counts(mean_electrons: float, n_cells: int, seed: int, capacity: int = 0) -> np.ndarray:
    """Electrons one program pulse puts on each of ``n_cells`` floating gates, simulated electron
    by electron (numba kernel :func:`flashlab.tech._kernels.inject_electrons`), int64 array.

    ``capacity = 0``: Poisson injection with mean ``mean_electrons`` (sigma/N = 1/sqrt(N)).
    ``capacity = M > mean_electrons``: self-limiting injection (each electron lowers the rate, as
    the charging gate lowers the tunnelling field): binomial counts with the same mean and Fano
    factor ``1 - mean/M``, sub-Poissonian for large packets (Monzio Compagnoni et al. 2008).
    Deterministic for a given ``seed``; about 16-27 ns per electron, so the run is bounded:
    ``n_cells x (mean_electrons + 1)`` at most 5 x 10^8 (up to about 15 s).
    """
    n_mean = check_real("mean_electrons", mean_electrons, 0.0, 1e5)
    n = check_int("n_cells", n_cells, 1, 10**8)
    s = check_seed("seed", seed)
    m = check_int("capacity", capacity, 0, 10**6)
    _check_work("n_cells", n, "mean_electrons", n_mean, n_mean + 1.0)
    if m == 0:
        rate = n_mean
    else:
        if n_mean >= m:
            raise ValueError(f"mean_electrons must be below capacity ({m}); got {mean_electrons!r}")
        rate = -math.log1p(-n_mean / m)
    return _kernels.inject_electrons(n, s, float(rate), float(m))


def verify_overshoot(step_electrons: float, n_cells: int, seed: int) -> np.ndarray:
    """Electrons each of ``n_cells`` cells ends above its verify level after program-and-verify
    with ISPP pulses of ``step_electrons`` mean electrons each (int64 array; 0 = exactly at it).

    Each cell starts a random whole number of electrons below its verify level (uniform from 1 to
    ``20·step_electrons + 20``, so most climb many pulses) and receives pulses until its count
    reaches the level; each pulse's count is Poisson (:func:`electron_counts`, the electron-by-
    electron kernel), independent of the others, as in the injection-noise model of Monzio
    Compagnoni et al. 2008. What a cell keeps above the level is the overshoot of the last pulse.
    For a long climb it follows renewal theory's residual-life law, P(k) = P(X > k)/n with X
    Poisson of mean n = ``step_electrons``: mean n/2 and variance n²/12 + n/2, the verify
    granularity (a uniform spread over one step) plus half the pulse's Poisson variance.
    *Assumed:* pulses independent (real ISPP partly self-regulates: a pulse that over-injects
    lowers the field for the next) and verify reads exact (no read noise, no RTN).
    ``step_electrons`` in (0.01, 1000); deterministic for a given ``seed``. The run is bounded
    like :func:`electron_counts`: each cell climbs about ``10·step + 10`` electrons in about
    ``10 + 10/step`` pulses (a pulse over the cells still climbing costs about as much as three
    electrons), and ``n_cells`` times that is at most 5 x 10^8 (up to about 15 s).
    """
    n = check_real("step_electrons", step_electrons, 0.01, 1000.0)
    cells = check_int("n_cells", n_cells, 1, 10**7)
    _check_work("n_cells", cells, "step_electrons", n, 10.5 * n + 10.0 + 3.0 * (10.0 + 10.0 / n + 1.0))
    rng = np.random.default_rng(check_seed("seed", seed))
    need = rng.integers(1, math.ceil(20.0 * n) + 21, size=cells)  # electrons below the level
    active = np.arange(cells)
    while active.size:
        got = electron_counts(n, active.size, seed=int(rng.integers(2**63 - 1)))
        need[active] -= got
        active = active[need[active] > 0]
    return -need


@dataclass
class NodeSweep:
    """Planar cell quantities over feature sizes ``feature_nm`` (nm, as given), one entry each:
    ``cell_area_nm2``, ``c_cg_af``/``c_tox_af``/``c_fgfg_af`` (aF), ``gate_coupling`` (alpha_G),
    ``coupling`` (gamma), ``electrons_per_volt``, ``electrons_per_state`` (for ``bits``),
    ``rtn_sigma_mv``, ``wrap_fits`` (bool)."""

    bits: int
    feature_nm: np.ndarray
    cell_area_nm2: np.ndarray
    c_cg_af: np.ndarray
    c_tox_af: np.ndarray
    c_fgfg_af: np.ndarray
    gate_coupling: np.ndarray
    coupling: np.ndarray
    electrons_per_volt: np.ndarray
    electrons_per_state: np.ndarray
    rtn_sigma_mv: np.ndarray
    wrap_fits: np.ndarray


def node_sweep(feature_nm, bits: int = 2, cell: PlanarCell | str | None = None) -> NodeSweep:
    """Evaluate :class:`PlanarCell` (``cell``'s geometry, default :class:`PlanarCell` defaults) at
    each feature size in ``feature_nm`` (nm, 5-250); ``cell="as built"`` takes :func:`as_built`'s
    cell at each node instead."""
    nodes = check_array("feature_nm", feature_nm, 5.0, 250.0)
    b = check_int("bits", bits, 1, 4)
    if isinstance(cell, str) and cell == "as built":
        cells = [as_built(float(f)) for f in nodes]
    else:
        base = cell if cell is not None else PlanarCell(25.0)
        if not isinstance(base, PlanarCell):
            raise ValueError(f"cell must be a PlanarCell or 'as built'; got {cell!r} ({type(cell).__name__})")
        cells = [replace(base, feature_nm=float(f)) for f in nodes]

    def col(fn):
        return np.array([fn(c) for c in cells])

    return NodeSweep(
        b, nodes, col(lambda c: c.cell_area_nm2), col(lambda c: c.c_cg_af), col(lambda c: c.c_tox_af),
        col(lambda c: c.c_fgfg_af), col(lambda c: c.gate_coupling), col(lambda c: c.coupling),
        col(lambda c: c.electrons_per_volt), col(lambda c: c.electrons_per_state(b)),
        col(lambda c: 1e3 * c.rtn_sigma_v), col(lambda c: c.wrap_fits),
    )

