"""Named, cited technology presets.

Each :class:`Technology` bundles a Vth model (:class:`flashlab.cell.distributions.VthModel`,
normalized units of Cai et al. 2017), array timing (:class:`flashlab.cell.levels.NandTiming`, us)
and a default ECC (:class:`flashlab.cell.ecc.EccCode`). Read latency follows
``t_read_base_us + senses * t_sense_us``, fitted by least squares to the per-page read times of
``nand_timing.csv``.

* ``TLC_1XNM`` is calibrated: its Vth parameters were fitted by least squares to Cai et al. 2017
  Appendix Tables 4-5 (``cai2017``; 1X-nm planar TLC): fresh means exactly, 3K-P/E means and
  2K-P/E means and sigmas after 1 day and 1 year within 1.2 normalized units (tests pin 2;
  :func:`flashlab.cell.cai2017_comparison` sets the model beside the table). The table gives
  sigmas only at 2K P/E, so the fresh programmed sigma, the ISPP step and the wear-widening
  exponent were fixed before the fit.
  Timing: SimpleSSD TLC profile via FEMU (``li2018femu``).
* ``MLC_2YNM``, ``SLC``, ``QLC_3D`` are derived: same erased state and physics as TLC_1XNM,
  programmed states spread evenly over the TLC window, wear amplitudes scaled (one factor per
  preset) so that the endurance at 1-year retention, JESD218 client UBER and the preset's ECC lands
  near the cited rating (MLC ~3K, Cai et al. 2017 sec. 3.4; SLC ~100K, Agrawal et al. 2008
  ``agrawal2008design``; 3D QLC ~1K, Grupp et al. 2012 ``grupp2012bleak`` trend of 10-20x fewer
  cycles per extra bit offset by the larger 3D cell). These are teaching values, not measurements.
* ``EMLC_2YNM`` is MLC_2YNM with gentle programming (half ISPP step), see
  :func:`flashlab.cell.ecc.gentle_programming`.
* ``MLC_2XNM`` and ``TLC_1YNM`` are MLC_2YNM's and TLC_1XNM's physics moved to 25 nm and 16 nm by
  the scaling laws of :mod:`flashlab.tech` (a prediction, not a calibration).

The Vth models come out of :mod:`flashlab.tech` (:func:`technology`): each preset is a
:class:`flashlab.tech.CellGeneration` calibrated at its node, with program interference driven
by the node's neighbour coupling and split out of the calibrated widths, so that the totals (and
the Cai et al. table) are those of the calibration.
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_instance, check_real, check_text, check_text_tuple, plain_fields
from flashlab.cell.distributions import VthModel
from flashlab.cell.ecc import EccCode, gentle_programming
from flashlab.cell.levels import NandTiming
from flashlab.tech.generations import MLC_2Y, NODES_NM, QLC_96L, SLC_5X, TLC_1X, CellGeneration, cell_model


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
        plain_fields(self)
        check_text("name", self.name, 1, 200)
        check_instance("vth", self.vth, VthModel)
        check_instance("timing", self.timing, NandTiming)
        check_instance("ecc", self.ecc, EccCode)
        check_real("rated_pe", self.rated_pe, 1.0, 1e7)
        check_text_tuple("sources", self.sources, "BibTeX keys (non-empty strings)")
        if self.vth.levels.bits != self.timing.bits:
            raise ValueError(
                f"timing has {self.timing.bits} page types but vth has {self.vth.levels.bits} bits per cell"
            )


def technology(gen: CellGeneration, feature_nm: float | None = None, name: str | None = None) -> Technology:
    """The :class:`Technology` of a :class:`flashlab.tech.CellGeneration` at ``feature_nm`` (nm;
    default: the generation's own node): its Vth model from :func:`flashlab.tech.cell_model`, its
    timing, ECC, rated P/E cycles and sources. At another node the rating is the generation's
    (the model's own endurance is :func:`flashlab.cell.endurance_pe_cycles`)."""
    vth = cell_model(gen, feature_nm)  # checks gen and feature_nm
    if name is None:
        name = gen.name if feature_nm is None else f"{gen.name} physics at {float(feature_nm):g} nm"
    return Technology(
        name=name,
        vth=vth,
        timing=gen.timing,
        ecc=gen.ecc,
        rated_pe=gen.rated_pe,
        sources=gen.sources + (("flashdba2015fabrication",) if feature_nm is not None else ()),
    )


TLC_1XNM = technology(TLC_1X)
MLC_2YNM = technology(MLC_2Y)
SLC = technology(SLC_5X)
QLC_3D = technology(QLC_96L)
MLC_2XNM = technology(MLC_2Y, NODES_NM["2X"], name="MLC 2X-nm (25 nm)")
TLC_1YNM = technology(TLC_1X, NODES_NM["1Y"], name="TLC 1Y-nm (16 nm)")

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
    "mlc2x": MLC_2XNM,
    "tlc1y": TLC_1YNM,
}
