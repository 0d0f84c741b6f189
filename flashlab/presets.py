"""Named, cited technology presets.

Each :class:`Technology` bundles a Vth model (:class:`flashlab.cell.distributions.VthModel`,
normalized units of Cai et al. 2017), array timing (:class:`flashlab.cell.levels.NandTiming`, us)
and a default ECC (:class:`flashlab.cell.ecc.EccCode`). Read latency follows
``t_read_base_us + senses * t_sense_us``, fitted by least squares to the per-page read times of
``nand_timing.csv``.

* ``TLC_1XNM`` is calibrated: its Vth parameters were fitted by least squares to Cai et al. 2017
  Appendix Tables 4-5 (``cai2017``; 1X-nm planar TLC): fresh means exactly, 3K-P/E means and
  2K-P/E means and sigmas after 1 day and 1 year within 1.2 normalized units (tests pin 2).
  Timing: SimpleSSD TLC profile via FEMU (``li2018femu``).
* ``MLC_2YNM``, ``SLC``, ``QLC_3D`` are derived: same erased state and physics as TLC_1XNM,
  programmed states spread evenly over the TLC window, wear amplitudes scaled (one factor per
  preset) so that the endurance at 1-year retention, JESD218 client UBER and the preset's ECC lands
  near the cited rating (MLC ~3K, Cai et al. 2017 sec. 3.4; SLC ~100K, Agrawal et al. 2008
  ``agrawal2008design``; 3D QLC ~1K, Grupp et al. 2012 ``grupp2012bleak`` trend of 10-20x fewer
  cycles per extra bit offset by the larger 3D cell). These are teaching values, not measurements.
* ``EMLC_2YNM`` is MLC_2YNM with gentle programming (half ISPP step), see
  :func:`flashlab.cell.ecc.gentle_programming`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_instance, check_real, check_text, quote
from flashlab.cell.distributions import VthModel
from flashlab.cell.ecc import EccCode, gentle_programming
from flashlab.cell.levels import NandTiming


@dataclass(frozen=True)
class Technology:
    """A named technology: Vth model, timing, default ECC, rated P/E cycles and BibTeX keys."""

    name: str
    vth: VthModel
    timing: NandTiming
    ecc: EccCode
    rated_pe: float
    sources: tuple[str, ...]

    def __post_init__(self):
        check_text("name", self.name, 1, 200)
        check_instance("vth", self.vth, VthModel)
        check_instance("timing", self.timing, NandTiming)
        check_instance("ecc", self.ecc, EccCode)
        check_real("rated_pe", self.rated_pe, 1.0, 1e7)
        if not isinstance(self.sources, tuple) or not self.sources or not all(isinstance(k, str) and k for k in self.sources):
            raise ValueError(f"sources must be a tuple of BibTeX keys (non-empty strings); got {quote(self.sources)}")
        if self.vth.levels.bits != self.timing.bits:
            raise ValueError(
                f"timing has {self.timing.bits} page types but vth has {self.vth.levels.bits} bits per cell"
            )


# Least-squares fit to cai2017_tlc_vth.csv (Cai et al. 2017, Tables 4-5); sigma_programmed (fresh),
# ispp_step and wear_widen_exp fixed before fitting (Cai et al. give sigmas only at 2K P/E).
_TLC_VTH = VthModel(
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


def _derived(n_states: int, wear_rate: float, sigma_programmed: float, **changes) -> VthModel:
    """TLC_1XNM physics with ``n_states - 1`` programmed states evenly spaced below the TLC top
    state (step: the TLC programmed window / (n_states - 1)), a new fresh programmed sigma and
    damage per cycle ``wear_rate``."""
    lo, hi = _TLC_VTH.means[1], _TLC_VTH.means[-1]
    programmed = hi - (hi - lo) / (n_states - 1) * np.arange(n_states - 2, -1, -1)
    return dataclasses.replace(
        _TLC_VTH,
        means=(_TLC_VTH.means[0],) + tuple(float(v) for v in np.round(programmed, 1)),
        sigma_programmed=sigma_programmed,
        ispp_step=min(_TLC_VTH.ispp_step, 3.0 * sigma_programmed),
        wear_rate=wear_rate,
        **changes,
    )


TLC_1XNM = Technology(
    name="TLC 1X-nm (Cai-calibrated)",
    vth=_TLC_VTH,
    timing=NandTiming(t_read_base_us=42.25, t_sense_us=16.18, t_prog_us=(820.5, 2225.0, 5734.0), t_erase_us=3000.0),
    ecc=EccCode(t=40, codeword_bytes=1024),
    rated_pe=1000.0,
    sources=("cai2017", "li2018femu"),
)

MLC_2YNM = Technology(
    name="MLC 2Y-nm",
    vth=_derived(4, wear_rate=1.5, sigma_programmed=8.0),
    # Micron L95B via FEMU: tR 48/64 us (1/2 senses -> 32 + 16 per sense), tPROG 850/2300 us
    timing=NandTiming(t_read_base_us=32.0, t_sense_us=16.0, t_prog_us=(850.0, 2300.0), t_erase_us=3000.0),
    ecc=EccCode(t=24, codeword_bytes=1024),
    rated_pe=3000.0,
    sources=("cai2017", "li2018femu"),
)

SLC = Technology(
    name="SLC",
    vth=_derived(2, wear_rate=0.05, sigma_programmed=10.0),
    # Agrawal et al. 2008: tR 25 us (one sense: 16 us as in MLC plus 9 us fixed), tPROG 200 us
    timing=NandTiming(t_read_base_us=9.0, t_sense_us=16.0, t_prog_us=(200.0,), t_erase_us=1500.0),
    ecc=EccCode(t=1, codeword_bytes=512),
    rated_pe=100000.0,
    sources=("agrawal2008design", "cai2017"),
)

QLC_3D = Technology(
    name="QLC 3D (96-layer)",
    # 3D charge trap: early retention loss (short time constant, Luo et al. 2018) but a smaller
    # total drift over a year than planar 1X-nm (teaching values, tuned to the ~1K P/E rating)
    vth=_derived(16, wear_rate=0.3, sigma_programmed=3.0, retention_tau_days=0.1, retention_widen=2.0,
                 retention_rate=0.003, retention_rate_erased=2.0),
    # Intel 96L QLC (PACA, ICCD'22): tR 47.9/76.2/134.6/228.1 us fit 25.44 + 25.67 per sense;
    # tPROG 1860 us average split geometrically (ratio 2.665, the MLC/TLC slow/fast ratio)
    timing=NandTiming(t_read_base_us=25.44, t_sense_us=25.67, t_prog_us=(250.0, 668.0, 1780.0, 4742.0), t_erase_us=6340.0),
    ecc=EccCode(t=120, codeword_bytes=2048),
    rated_pe=1000.0,
    sources=("chen2022paca", "luo2018improving", "grupp2012bleak", "cai2017"),
)

_EMLC_VTH, _EMLC_TIMING = gentle_programming(MLC_2YNM.vth, MLC_2YNM.timing, 0.5)
EMLC_2YNM = Technology(
    name="eMLC 2Y-nm (half ISPP step)",
    vth=_EMLC_VTH,
    timing=_EMLC_TIMING,
    ecc=MLC_2YNM.ecc,
    rated_pe=30000.0,
    sources=("flashdba2014wear", "cai2017", "li2018femu"),
)

PRESETS: dict[str, Technology] = {
    "slc": SLC,
    "mlc": MLC_2YNM,
    "emlc": EMLC_2YNM,
    "tlc": TLC_1XNM,
    "qlc": QLC_3D,
}
