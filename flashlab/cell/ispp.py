"""Incremental step pulse programming (ISPP) and erase of floating-gate cells.

ISPP (Suh et al. 1995): apply a program pulse, verify (read at ``v_verify``), raise the pulse by
``v_step`` and repeat; a cell that passes verify is inhibited. Once a cell is in the steady regime
each pulse moves its Vth up by about one step (dVth/dVpgm ~ 1: the tunnel current settles where the
charge added per pulse just tracks the step), so the verified cells end within about one step above
the verify level whatever their programming speed: a smaller step gives a narrower distribution and
costs more pulses (Suh et al. 1995; Spinelli et al. 2017).

Erase is block-wide: every cell of the block gets every erase pulse (incremental step pulse erase,
same :class:`IsppParams` with voltages as magnitudes) until the whole block verifies below
``v_verify``.

Sources (book/references.bib): suh1995, spinelli2017, cai2017.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_array, check_int, check_real, check_seed, plain_fields
from flashlab.cell import _kernels
from flashlab.cell.floating_gate import V_GATE_LIMIT, VTH_LIMIT, FloatingGateCell

_TRUNCATE = 6.0  # normal draws of the cell variation are truncated at +-6 sigma


@dataclass(frozen=True)
class IsppParams:
    """Program (or erase) pulse train.

    Parameters
    ----------
    v_start : first pulse amplitude (V), in [0, 40]; for erase the well voltage (magnitude).
    v_step : amplitude increment per pulse (V), in (0, 5].
    v_verify : verify level (V), in [-10, 10]; program stops a cell at Vth >= v_verify, erase stops
        the block when every Vth <= v_verify.
    max_pulses : pulses allowed before the operation fails, in [1, 1000].
    t_pulse : length of each pulse (s), in (0, 0.1].
    t_verify : length of each verify (s), in [0, 0.1].
    """

    v_start: float
    v_step: float
    v_verify: float
    max_pulses: int
    t_pulse: float
    t_verify: float

    def __post_init__(self):
        plain_fields(self)
        for name, lo, hi, lo_open in (
            ("v_start", 0.0, V_GATE_LIMIT, False),
            ("v_step", 0.0, 5.0, True),
            ("v_verify", -10.0, 10.0, False),
            ("t_pulse", 0.0, 0.1, True),
            ("t_verify", 0.0, 0.1, False),
        ):
            object.__setattr__(self, name, check_real(name, getattr(self, name), lo, hi, lo_open=lo_open))
        object.__setattr__(self, "max_pulses", check_int("max_pulses", self.max_pulses, 1, 1000))

    def time_us(self, pulses: int) -> float:
        """Duration of ``pulses`` (an int in [0, max_pulses]) pulse-and-verify loops (microseconds)."""
        return check_int("pulses", pulses, 0, self.max_pulses) * (self.t_pulse + self.t_verify) * 1e6


#: SLC program of :data:`~flashlab.cell.floating_gate.FG_CELL_2XNM`: 16.5 V start, 0.3 V step,
#: verify at 1.5 V, 10 us pulses and 10 us verifies: our illustrative choice, giving 8 pulses and
#: 160 us for a typical cell and ~15 pulses (300 us, last pulse ~21 V) for a page, the
#: few-hundred-us SLC page program of the era (ISPP itself: Suh et al. 1995).
ISPP_SLC_2XNM = IsppParams(v_start=16.5, v_step=0.3, v_verify=1.5, max_pulses=40, t_pulse=10e-6, t_verify=10e-6)

#: Block erase of the same cell: well at 17 V rising by 0.5 V, 0.5 ms pulses, erase verify at
#: -2 V: our choice, giving ~5 pulses (17 to 19 V) and ~3 ms for a programmed block, the usual
#: order of a NAND block erase.
ISPE_2XNM = IsppParams(v_start=17.0, v_step=0.5, v_verify=-2.0, max_pulses=20, t_pulse=0.5e-3, t_verify=50e-6)


@dataclass(frozen=True)
class CellVariation:
    """Cell-to-cell variation across a page (independent normal draws, truncated at 6 sigma).

    Parameters
    ----------
    sigma_tox_rel : relative sigma of the tunnel-oxide thickness, in [0, 0.1] (default 2 %).
    sigma_coupling : sigma of the gate coupling ratio, in [0, 0.05] (default 0.01).
    sigma_vth0 : sigma of the erased threshold before programming (V), in [0, 2] (default 0.5 V).

    Oxide and coupling spread make cells program at different speeds: with the defaults the
    steady-state Vth at a given pulse voltage spreads by ~0.4 V (sigma), which ISPP-verify removes
    (the reason for ISPP: Suh et al. 1995). The erased state is much wider than a programmed one
    (about five times in the TLC data of Cai et al. 2017). The magnitudes are our choice.
    """

    sigma_tox_rel: float = 0.02
    sigma_coupling: float = 0.01
    sigma_vth0: float = 0.5

    def __post_init__(self):
        plain_fields(self)
        for name, hi in (("sigma_tox_rel", 0.1), ("sigma_coupling", 0.05), ("sigma_vth0", 2.0)):
            object.__setattr__(self, name, check_real(name, getattr(self, name), 0.0, hi))


@dataclass(frozen=True)
class IsppTrace:
    """One cell under ISPP, per pulse (arrays of length ``n_pulses``).

    v_pulse : pulse amplitude (V). vth : Vth after the pulse (V). electrons : electrons on the
    floating gate after the pulse. verified : verify passed after the pulse (only the last can be
    True). vth0 : Vth before programming (V). n_pulses : pulses applied. time_us : program time
    (pulses x (t_pulse + t_verify), microseconds). passed : the cell verified within max_pulses.
    """

    v_pulse: np.ndarray
    vth: np.ndarray
    electrons: np.ndarray
    verified: np.ndarray
    vth0: float
    n_pulses: int
    time_us: float
    passed: bool


@dataclass(frozen=True)
class PageProgram:
    """A programmed page.

    vth0, vth : Vth before and after programming (V, float32, one per cell). pulses : pulses each
    cell received (int16). verified : cell passed verify (bool). page_pulses : pulses the page
    needed (its slowest cell). time_us : page program time (microseconds). vth_hist : counts of Vth
    (int64, ``page_pulses + 1`` rows x bins): row 0 before programming, row p after pulse p
    (out-of-range values counted in the end bins). hist_edges : bin edges (V).
    """

    vth0: np.ndarray
    vth: np.ndarray
    pulses: np.ndarray
    verified: np.ndarray
    page_pulses: int
    time_us: float
    vth_hist: np.ndarray
    hist_edges: np.ndarray


@dataclass(frozen=True)
class BlockErase:
    """An erased block. vth : Vth after erase (V, float32). n_pulses : erase pulses applied.
    time_us : erase time (microseconds). passed : every cell verified at or below v_verify."""

    vth: np.ndarray
    n_pulses: int
    time_us: float
    passed: bool


def _check_types(cell, pulses, name="ispp"):
    if not isinstance(cell, FloatingGateCell):
        raise ValueError(f"cell must be a FloatingGateCell; got {type(cell).__name__}")
    if not isinstance(pulses, IsppParams):
        raise ValueError(f"{name} must be an IsppParams; got {type(pulses).__name__}")


def _cell_draws(cell: FloatingGateCell, variation: CellVariation, n_cells: int, seed: int):
    """Per-cell ``gain = alpha_G / t_ox`` (1/m) and unit erased-Vth deviates, from ``seed``.

    Draw order is fixed (oxide, coupling, erased Vth), so the same seed names the same cells in
    :func:`program_page` and :func:`erase_block`.
    """
    z = np.random.default_rng(seed).standard_normal((3, n_cells))
    np.clip(z, -_TRUNCATE, _TRUNCATE, out=z)
    t_ox = cell.t_ox * (1.0 + variation.sigma_tox_rel * z[0])
    coupling = cell.coupling + variation.sigma_coupling * z[1]
    return coupling / t_ox, z[2]


def _check_variation(cell, variation):
    if not isinstance(variation, CellVariation):
        raise ValueError(f"variation must be a CellVariation; got {type(variation).__name__}")
    lo = cell.coupling - _TRUNCATE * variation.sigma_coupling
    hi = cell.coupling + _TRUNCATE * variation.sigma_coupling
    if lo <= 0.0 or hi >= 1.0:
        raise ValueError(
            f"variation.sigma_coupling must keep coupling +- 6 sigma in (0, 1); got "
            f"{variation.sigma_coupling!r} around coupling {cell.coupling:g}"
        )


def program_cell(cell: FloatingGateCell, ispp: IsppParams, vth0=-3.0) -> IsppTrace:
    """Program one cell from threshold ``vth0`` (V) with ISPP; see :class:`IsppTrace`."""
    _check_types(cell, ispp)
    vth0 = check_real("vth0", vth0, -VTH_LIMIT, VTH_LIMIT)
    v_pulse = np.empty(ispp.max_pulses)
    vth = np.empty(ispp.max_pulses)
    n = _kernels.ispp_trace(
        vth0, cell._gain(), ispp.v_start, ispp.v_step, ispp.v_verify, ispp.max_pulses, ispp.t_pulse,
        cell.vth_neutral, cell.fn_b, cell._rate(), v_pulse, vth,
    )
    vth = vth[:n]
    verified = vth >= ispp.v_verify
    return IsppTrace(
        v_pulse=v_pulse[:n], vth=vth, electrons=cell.electrons(vth), verified=verified, vth0=vth0,
        n_pulses=n, time_us=ispp.time_us(n), passed=bool(verified[-1]),
    )


def program_page(
    cell: FloatingGateCell,
    ispp: IsppParams,
    n_cells: int,
    variation: CellVariation = CellVariation(),
    seed: int = 0,
    vth0: float = -3.0,
    hist_range: tuple[float, float] = (-6.0, 6.0),
    hist_bins: int = 600,
) -> PageProgram:
    """Program a page of ``n_cells`` cells with ISPP program-and-verify; see :class:`PageProgram`.

    Each cell gets its own oxide thickness, coupling ratio and erased threshold (mean ``vth0``, V)
    drawn from ``variation`` with ``seed``; ``hist_range`` (V) and ``hist_bins`` set the per-pulse
    Vth histogram. Same seed, same result bit for bit.
    """
    _check_types(cell, ispp)
    n_cells = check_int("n_cells", n_cells, 1, 100_000_000)
    _check_variation(cell, variation)
    seed = check_seed("seed", seed)
    vth0 = check_real("vth0", vth0, -VTH_LIMIT, VTH_LIMIT)
    edges_lohi = check_array("hist_range", hist_range, -VTH_LIMIT, VTH_LIMIT)
    if edges_lohi.size != 2 or not edges_lohi[1] - edges_lohi[0] >= 1e-6:  # bins of a finite, nonzero width
        raise ValueError(f"hist_range must be (lo, hi) with lo + 1e-6 <= hi in [-20, 20] V; got {hist_range!r}")
    hist_bins = check_int("hist_bins", hist_bins, 1, 10_000)

    gain, z_vth0 = _cell_draws(cell, variation, n_cells, seed)
    start = np.clip(vth0 + variation.sigma_vth0 * z_vth0, -VTH_LIMIT, VTH_LIMIT)
    vth = np.empty(n_cells)
    pulses = np.empty(n_cells, dtype=np.int16)
    hist = np.zeros((ispp.max_pulses + 1, hist_bins), dtype=np.int64)
    lo, hi = float(edges_lohi[0]), float(edges_lohi[1])
    page_pulses = _kernels.ispp_page(
        start, gain, ispp.v_start, ispp.v_step, ispp.v_verify, ispp.max_pulses, ispp.t_pulse,
        cell.vth_neutral, cell.fn_b, cell._rate(), lo, (hi - lo) / hist_bins, vth, pulses, hist,
    )
    return PageProgram(
        vth0=start.astype(np.float32), vth=vth.astype(np.float32), pulses=pulses,
        verified=vth >= ispp.v_verify, page_pulses=int(page_pulses), time_us=ispp.time_us(page_pulses),
        vth_hist=hist[: page_pulses + 1], hist_edges=np.linspace(lo, hi, hist_bins + 1),
    )


def erase_block(
    cell: FloatingGateCell,
    vth,
    ispe: IsppParams,
    variation: CellVariation = CellVariation(),
    seed: int = 0,
) -> BlockErase:
    """Erase a block whose cells sit at ``vth`` (V, 1-D array) with incremental step pulse erase.

    Pulse k raises the well to ``ispe.v_start + k * ispe.v_step`` (V) with the control gates at 0 V;
    after each pulse (at least one: erase, then verify) the block is verified and the erase stops
    when every cell is at or below ``ispe.v_verify``. Cells differ in oxide and coupling as drawn
    from ``variation`` and ``seed`` (pass the seed given to :func:`program_page` to erase the same
    cells); ``sigma_vth0`` is unused.
    """
    _check_types(cell, ispe, "ispe")
    vth = check_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
    _check_variation(cell, variation)
    seed = check_seed("seed", seed)
    gain, _ = _cell_draws(cell, variation, vth.size, seed)
    cur, nxt = vth.copy(), np.empty_like(vth)
    n, passed = 0, False
    while not passed and n < ispe.max_pulses:
        v_well = ispe.v_start + n * ispe.v_step
        _kernels.pulse_cells(cur, gain, -v_well, ispe.t_pulse, cell.vth_neutral, cell.fn_b, cell._rate(), nxt)
        cur, nxt = nxt, cur
        n += 1
        passed = bool(cur.max() <= ispe.v_verify)
    return BlockErase(vth=cur.astype(np.float32), n_pulses=n, time_us=ispe.time_us(n), passed=passed)
