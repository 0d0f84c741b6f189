"""Cell generations: calibrated Vth models, and the same physics moved to any planar node.

A :class:`CellGeneration` is a technology calibrated at one node (its fresh programmed width,
damage per cycle, timing, ECC and rated endurance, with sources). :func:`cell_model` turns it into
the :class:`flashlab.cell.distributions.VthModel` of :mod:`flashlab.cell`, at its own node or at
any other feature size, so that every node's RBER and endurance come from the cell model:

* **Program interference** is split out of the calibrated widths. The neighbour coupling
  ``gamma`` of :class:`flashlab.tech.planar.PlanarCell` (or ``coupling_3d`` for a 3D cell) acts
  in the cell model through ``coupling_ratio = RESIDUAL_INTERFERENCE * gamma`` on two aggressors:
  controllers program word lines in an order (two-step, foggy-fine) that lets the victim's final
  verify see most of its neighbours' swing, so only a residue of the raw coupling remains.
  The residue is a *choice*, not a measurement: ``RESIDUAL_INTERFERENCE`` = 1.5% by default
  (``residual`` of :func:`cell_model`). The 1X-nm TLC width it must fit in (6 units fresh) is
  itself assumed (Cai et al. 2017 give widths only after 2K cycles); with quantization (12 u²)
  and RTN (9.4 u²) taken out, that width leaves room for a residue up to about 12% at 19 nm. At
  the calibration node the state means, the retention neutral level and the widths are reduced
  by what interference adds back, so the totals, and Cai et al.'s table, are unchanged whatever
  the residue; away from it, a larger residue makes the coupling's growth show.
* **Away from the calibration node** (planar only; laws from :mod:`flashlab.tech.planar`):
  the programmed variance is ISPP quantization (``step**2/12``, fixed) + electron-number noise
  (scales as ``1/C_CG``) + random telegraph noise + a node-independent rest. *Assumed:* at the
  calibration node, electron noise is half of what is left after quantization, RTN and
  interference. Wear: *assumed* a trap density per area that does not depend on the node, so
  the mean wear shift (trapped charge per area over capacitance per area) stays put while its
  spread, Poisson in the number of traps a cell holds (which scales as F²), grows as ``1/F``;
  retention widening (Poisson in the leaked electrons) scales as ``1/C_CG``.

``TLC_1X`` is the least-squares fit to Cai et al. 2017 Tables 4-5 (``cai2017``); the others are
derived from its physics (see :mod:`flashlab.presets`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_array, check_bool, check_instance, check_int, check_real, check_text,
                                check_text_tuple, plain_fields, quote)
from flashlab.cell.distributions import VthModel, vth_distributions
from flashlab.cell.ecc import EccCode, endurance_pe_cycles, worst_page_rber
from flashlab.cell.levels import NandTiming
from flashlab.tech.planar import VOLTS_PER_UNIT, PlanarCell, state_spacing_units

RESIDUAL_INTERFERENCE = 0.015  # share of the raw coupling left after program ordering (a choice)
AGGRESSORS = 2  # neighbours programmed after the victim (the next word line's cells)
ELECTRON_NOISE_SHARE = 0.5  # electron noise share of the non-quantization variance (assumed)

# Least-squares fit to cai2017_tlc_vth.csv (Cai et al. 2017, Tables 4-5); sigma_programmed (fresh),
# ispp_step and wear_widen_exp fixed before fitting (Cai et al. give sigmas only at 2K P/E).
# These are the measured totals: interference included.
TLC_FIT = VthModel(
    means=(-110.0, 65.9, 127.4, 191.6, 254.9, 318.4, 384.8, 448.3),
    sigma_erased=45.0,
    sigma_programmed=6.0,
    ispp_step=12.0,
    wear_shift_erased=5.23,
    wear_shift_programmed=0.28,
    wear_shift_exp=1.48,
    wear_widen_erased=9.06,
    wear_widen_programmed=4.52,
    wear_widen_exp=0.6,
    retention_tau_days=1.94,
    retention_rate=0.0091,
    retention_neutral=260.3,
    retention_rate_erased=5.05,
    retention_widen=13.25,
    retention_pe_exp=1.0,
    # read disturb: illustrative magnitude with the trends of Cai et al. DSN 2015 (ER moves most,
    # sublinear in reads, steep in Vpass)
    disturb_shift=10.0,
    disturb_exp=0.7,
    disturb_decay=60.0,
    disturb_vpass_scale=0.02,
)


@dataclass(frozen=True)
class CellGeneration:
    """A cell technology calibrated at one node.

    ``feature_nm``: planar feature size F (nm) the calibration belongs to (for a 3D cell, the
    nominal planar-equivalent name only: 3D cells do not scale with F); ``bits`` per cell (1-4);
    ``sigma_programmed``: fresh programmed width at this node, interference included (normalized
    units); ``wear_rate``: damage per P/E cycle relative to the TLC fit; ``timing``, ``ecc``,
    ``rated_pe`` (P/E cycles) and ``sources`` (BibTeX keys) as in :class:`flashlab.presets.Technology`;
    ``vth_changes``: other :class:`VthModel` fields replaced, as ``(name, value)`` pairs;
    ``coupling_3d``: raw neighbour coupling of a 3D charge-trap cell (``None`` for planar cells,
    whose coupling comes from :class:`PlanarCell`).
    """

    name: str
    feature_nm: float
    bits: int
    sigma_programmed: float
    wear_rate: float
    timing: NandTiming
    ecc: EccCode
    rated_pe: float
    sources: tuple[str, ...]
    vth_changes: tuple[tuple[str, float], ...] = ()
    coupling_3d: float | None = None

    def __post_init__(self):
        plain_fields(self)
        check_text("name", self.name, 1, 200)
        check_real("feature_nm", self.feature_nm, 5.0, 250.0)
        check_int("bits", self.bits, 1, 4)
        check_real("sigma_programmed", self.sigma_programmed, 0.0, 100.0, lo_open=True)
        check_real("wear_rate", self.wear_rate, 0.0, 100.0, lo_open=True)
        check_real("rated_pe", self.rated_pe, 0.0, 1e7, lo_open=True)
        if self.coupling_3d is not None:
            check_real("coupling_3d", self.coupling_3d, 0.0, 0.5)
        if not isinstance(self.timing, NandTiming) or self.timing.bits != self.bits:
            raise ValueError(f"timing must be a NandTiming with one page type per bit (bits={self.bits}); "
                             f"got {quote(self.timing)}")
        if not isinstance(self.ecc, EccCode):
            raise ValueError(f"ecc must be an EccCode; got {self.ecc!r}")
        check_text_tuple("sources", self.sources, "BibTeX keys (non-empty strings)")
        _check_vth_changes(self.vth_changes)

    @property
    def planar(self) -> bool:
        return self.coupling_3d is None


#: VthModel fields a generation may replace (scalar physics; means, widths, step and wear rate are
#: the generation's own fields)
_CHANGEABLE = tuple(f.name for f in dataclasses.fields(VthModel)
                    if isinstance(getattr(TLC_FIT, f.name), float)
                    and f.name not in ("sigma_programmed", "wear_rate", "ispp_step"))


def _check_vth_changes(changes) -> None:
    """``changes`` is a tuple of ``(field, number)`` pairs naming :data:`_CHANGEABLE` fields, each
    once, whose values the cell model accepts (checked by building the TLC fit with them)."""
    if not isinstance(changes, tuple) or not all(isinstance(c, tuple) and len(c) == 2 for c in changes):
        raise ValueError(f"vth_changes must be a tuple of (field, value) pairs; got {quote(changes)}")
    names = [c[0] for c in changes]
    for n in names:
        if not isinstance(n, str) or n not in _CHANGEABLE:
            raise ValueError(f"vth_changes may replace {', '.join(_CHANGEABLE)}; got field {quote(n)}")
    if len(set(names)) != len(names):
        raise ValueError(f"vth_changes names a field twice; got {quote(changes)}")
    values = {n: check_real(f"vth_changes[{n!r}]", v) for n, v in changes}
    try:
        dataclasses.replace(TLC_FIT, **values)
    except ValueError as exc:
        raise ValueError(f"vth_changes: {exc}") from None


def _calibrated_totals(gen: CellGeneration) -> VthModel:
    """The generation's Vth model with interference folded in (what measurements see): the TLC
    fit, or its physics with ``2**bits - 1`` programmed states spaced evenly below the TLC top
    state (step: the TLC programmed window / (states - 1))."""
    n_states = 2**gen.bits
    fields = dict(gen.vth_changes, sigma_programmed=gen.sigma_programmed, wear_rate=gen.wear_rate,
                  ispp_step=min(TLC_FIT.ispp_step, 3.0 * gen.sigma_programmed))
    if n_states != len(TLC_FIT.means):
        programmed = TLC_FIT.means[-1] - state_spacing_units(gen.bits) * np.arange(n_states - 2, -1, -1)
        fields["means"] = (TLC_FIT.means[0],) + tuple(float(v) for v in np.round(programmed, 1))
    return dataclasses.replace(TLC_FIT, **fields)


def raw_coupling(gen: CellGeneration, feature_nm: float | None = None) -> float:
    """Neighbour coupling gamma of the generation's cell at ``feature_nm`` (default: its own
    node): :attr:`PlanarCell.coupling` for planar cells, ``coupling_3d`` for 3D cells."""
    check_instance("gen", gen, CellGeneration)
    if gen.coupling_3d is not None:
        return gen.coupling_3d
    return PlanarCell(gen.feature_nm if feature_nm is None else feature_nm).coupling


def _interference(model: VthModel, gamma_eff: float) -> tuple[float, float]:
    """(mean shift, added variance) that program interference with ``gamma_eff`` adds to every
    state of ``model`` (the cell model's formula, :func:`flashlab.cell.vth_distributions`)."""
    dv = np.asarray(model.means) - model.means[0]
    return gamma_eff * AGGRESSORS * float(dv.mean()), gamma_eff**2 * AGGRESSORS * float(dv.var())


def cell_model(gen: CellGeneration, feature_nm: float | None = None,
               residual: float = RESIDUAL_INTERFERENCE) -> VthModel:
    """The :class:`VthModel` of ``gen`` at ``feature_nm`` (nm; default and required for 3D: its
    own node), with program interference driven by the node's coupling: ``coupling_ratio =
    residual * gamma`` (``residual`` in [0, 0.5], the share of the raw coupling program ordering
    leaves; module docstring). A residue whose interference does not fit in the generation's
    calibrated width (beside quantization and RTN) is refused.

    Away from the calibration node the programmed variance is split into ISPP quantization,
    interference, random telegraph noise, electron-number noise and a node-independent rest. The
    electron-noise share at the calibration node is *assumed* (``ELECTRON_NOISE_SHARE`` of what
    quantization, RTN and interference leave), and only its ``1/C_CG`` scaling comes from the
    injection law: that law's own magnitude, ``sqrt(q*step/C_CG)`` with the preset's step in volts
    at the assumed ``VOLTS_PER_UNIT``, would exceed the calibrated widths."""
    check_instance("gen", gen, CellGeneration)
    f0 = gen.feature_nm
    f = f0 if feature_nm is None else check_real("feature_nm", feature_nm, 5.0, 250.0)
    if not gen.planar and f != f0:
        raise ValueError(f"feature_nm applies to planar generations only; {gen.name} is a 3D cell")
    r = check_real("residual", residual, 0.0, 0.5)
    total = _calibrated_totals(gen)
    g0 = r * raw_coupling(gen)
    g = r * raw_coupling(gen, f)
    shift0, var0 = _interference(total, g0)
    quant = total.ispp_step**2 / 12.0
    rest = total.sigma_programmed**2 - quant - var0
    rtn0 = (PlanarCell(f0).rtn_sigma_v / VOLTS_PER_UNIT) ** 2 if gen.planar else 0.0
    if rest - rtn0 <= 0.0 or var0 >= total.sigma_erased**2:
        room = total.sigma_programmed**2 - quant - rtn0
        raise ValueError(f"residual={residual!r}: {gen.name}'s interference variance {var0:.1f} u² exceeds the "
                         f"{max(room, 0.0):.1f} u² its calibrated width {gen.sigma_programmed} leaves beside "
                         "quantization and RTN; use a smaller residual")
    fields = {}
    if gen.planar:
        c = PlanarCell(f)
        rtn = (c.rtn_sigma_v / VOLTS_PER_UNIT) ** 2
        electron0 = ELECTRON_NOISE_SHARE * (rest - rtn0)
        cap = PlanarCell(f0).c_cg_af / c.c_cg_af  # C_CG(F0) / C_CG(F): > 1 when shrinking
        sigma2 = quant + (rest - rtn0 - electron0) + electron0 * cap + rtn
        widen_scale = f0 / f
        fields.update(
            wear_widen_erased=total.wear_widen_erased * widen_scale,
            wear_widen_programmed=total.wear_widen_programmed * widen_scale,
            retention_widen=total.retention_widen * cap,
        )
    else:
        sigma2 = rest + quant
    return dataclasses.replace(
        total,
        means=tuple(m - shift0 for m in total.means),
        retention_neutral=total.retention_neutral - shift0,
        sigma_erased=float(np.sqrt(total.sigma_erased**2 - var0)),
        sigma_programmed=float(np.sqrt(sigma2)),
        coupling_ratio=g,
        aggressors=AGGRESSORS,
        **fields,
    )



@dataclass
class ShrinkSweep:
    """Reliability of one generation's physics over feature sizes ``feature_nm`` (nm), at
    ``pe_cycles`` P/E cycles and ``retention_days`` days, with interference ``residual`` (see
    :func:`cell_model`): ``coupling`` (raw gamma),
    ``coupling_ratio`` (what the cell model applies), ``sigma_programmed`` (fresh total width,
    normalized units), ``worst_rber`` (worst page type, read-retry read points) and
    ``endurance_pe`` (P/E cycles to the generation's ECC limit at ``retention_days``; NaN unless
    asked for)."""

    generation: CellGeneration
    feature_nm: np.ndarray
    pe_cycles: float
    retention_days: float
    residual: float
    coupling: np.ndarray
    coupling_ratio: np.ndarray
    sigma_programmed: np.ndarray
    worst_rber: np.ndarray
    endurance_pe: np.ndarray


def shrink_sweep(gen: CellGeneration, feature_nm, pe_cycles: float = 3000.0, retention_days: float = 365.0,
                 endurance: bool = False, residual: float = RESIDUAL_INTERFERENCE) -> ShrinkSweep:
    """Evaluate ``gen`` at every planar node in ``feature_nm`` (nm) with interference ``residual``
    (:func:`cell_model`): about 0.3 ms per node, plus about 30 ms per node with ``endurance=True``."""
    nodes = check_array("feature_nm", feature_nm, 5.0, 250.0)
    pe = check_real("pe_cycles", pe_cycles, 0.0, 1e7)
    days = check_real("retention_days", retention_days, 0.0, 1e5)
    check_bool("endurance", endurance)
    res = check_real("residual", residual, 0.0, 0.5)
    models = [cell_model(gen, float(f), res) for f in nodes]
    sigma = np.array([float(vth_distributions(m).sigmas[1]) for m in models])
    rber = np.array([worst_page_rber(m, pe, days) for m in models])
    life = np.array([endurance_pe_cycles(m, gen.ecc, days, max_cycles=1e7) if endurance else np.nan for m in models])
    return ShrinkSweep(gen, nodes, pe, days, res, np.array([raw_coupling(gen, float(f)) for f in nodes]),
                       np.array([m.coupling_ratio for m in models]), sigma, rber, life)


# --------------------------------------------------------------------------------------------
# Generations (the cell presets of flashlab.presets are built from these)
# --------------------------------------------------------------------------------------------

#: 1X-nm planar TLC (19 nm), fitted to Cai et al. 2017. Timing: SimpleSSD TLC profile via FEMU.
TLC_1X = CellGeneration(
    "TLC 1X-nm (Cai-calibrated)", 19.0, 3, sigma_programmed=6.0, wear_rate=1.0,
    timing=NandTiming(t_read_base_us=42.25, t_sense_us=16.18, t_prog_us=(820.5, 2225.0, 5734.0), t_erase_us=3000.0),
    ecc=EccCode(t=40, codeword_bytes=1024), rated_pe=1000.0, sources=("cai2017", "li2018femu"),
)

#: 2Y-nm planar MLC (21 nm): TLC_1X physics, 4 states, wear scaled to the ~3K rating (Cai et al.
#: 2017 sec. 3.4). Timing: Micron L95B via FEMU (tR 48/64 us, tPROG 850/2300 us).
MLC_2Y = CellGeneration(
    "MLC 2Y-nm", 21.0, 2, sigma_programmed=8.0, wear_rate=1.5,
    timing=NandTiming(t_read_base_us=32.0, t_sense_us=16.0, t_prog_us=(850.0, 2300.0), t_erase_us=3000.0),
    ecc=EccCode(t=24, codeword_bytes=1024), rated_pe=3000.0, sources=("cai2017", "li2018femu"),
)

#: SLC of the 5X-nm era (50 nm) of Agrawal et al. 2008: tR 25 us, tPROG 200 us, ~100K P/E.
SLC_5X = CellGeneration(
    "SLC", 50.0, 1, sigma_programmed=10.0, wear_rate=0.05,
    timing=NandTiming(t_read_base_us=9.0, t_sense_us=16.0, t_prog_us=(200.0,), t_erase_us=1500.0),
    ecc=EccCode(t=1, codeword_bytes=512), rated_pe=100000.0, sources=("agrawal2008design", "cai2017"),
)

#: 96-layer 3D QLC (charge trap): early retention loss (short time constant, Luo et al. 2018) but
#: less total drift over a year than planar 1X-nm (teaching values, tuned to the ~1K P/E rating).
#: Intel 96L QLC (PACA, ICCD'22): tR 47.9/76.2/134.6/228.1 us fit 25.44 + 25.67 per sense;
#: tPROG 1860 us average split geometrically (ratio 2.665, the MLC/TLC slow/fast ratio).
#: Raw coupling 0.03 (assumed: no floating gate; word lines 51 nm apart).
QLC_96L = CellGeneration(
    "QLC 3D (96-layer)", 40.0, 4, sigma_programmed=3.0, wear_rate=0.3,
    timing=NandTiming(t_read_base_us=25.44, t_sense_us=25.67, t_prog_us=(250.0, 668.0, 1780.0, 4742.0),
                      t_erase_us=6340.0),
    ecc=EccCode(t=120, codeword_bytes=2048), rated_pe=1000.0,
    sources=("chen2022paca", "luo2018improving", "grupp2012bleak", "cai2017"),
    vth_changes=(("retention_tau_days", 0.1), ("retention_widen", 2.0), ("retention_rate", 0.003),
                 ("retention_rate_erased", 2.0)),
    coupling_3d=0.03,
)

#: Planar node names and their feature sizes (nm), flashdba 2015: 2X is the first node in
#: 29-20 nm (e.g. 25 nm), 2Y the second (e.g. 21 nm), 1X the first in the teens (19 nm);
#: 1Y: 16 nm (Micron's 16 nm planar, the last planar generation).
NODES_NM = {"2X": 25.0, "2Y": 21.0, "1X": 19.0, "1Y": 16.0}
