"""3D NAND stacks: layers, decks, channel-hole taper, staircase, periphery, density and bit cost.

A vertical string is a channel hole etched through a stack of word-line layers; every layer the
hole passes is one cell. The model (a *teaching* model; parameters below):

* **Stack height.** Each deck holds ``layers/decks`` active word lines plus
  ``overhead_gates`` dummy and select gates (Samsung V6: 128 active + 5 dummy + 3 select,
  TechInsights 2020, ``techinsights2020vnand``), at ``wl_pitch_nm`` (51 nm: Lg/Ls = 31/20 nm,
  ``micromachines2023wordline``).
* **Holes.** Holes sit on a hexagonal lattice with a gap of D/4 (Chen 2021, ``chen2021holes``),
  pitch ``1.25 * D_top``: the top diameter sets the pitch. The hole narrows with depth,
  ``D_bot = D_top - 2*H*tan(taper)``, and its bottom must keep ``min_hole_nm`` for the cell's film
  stack; the etch also holds at most ``max_aspect_ratio`` (deck height / top diameter). Unless
  given, ``D_top`` is the smallest top that satisfies both. *Assumed:* 90 nm, 0.02 degrees,
  100:1. Each deck restarts the hole, so decks keep it narrow.
* **Staircase.** Every gate needs a landing step of ``stair_step_um`` on both ends of the array,
  which spans ``array_span_mm`` (*assumed* 0.5 um, 4 mm; Handy, ``handy2013staircase``).
* **Periphery.** Beside the array it adds ``periphery_fraction`` (Micron: "20% (or more)",
  ``micron2015cua``); under the array (CMOS under array, or bonded from a second wafer) it adds
  nothing.
* **Array efficiency.** ``ARRAY_EFFICIENCY`` (slits, dummy holes, page buffers, pads): one number
  fitted by least squares (in log density) to the published densities of ``DENSITY_POINTS``.

Bit cost (:func:`bit_cost`): wafer cost / bits per wafer, with *assumed* wafer cost (relative to a
planar wafer) ``1 + gate_cost * gates + deck_cost * decks`` (Walker 2009, ``walker2009cost``, for
the form). A single deck's bit cost falls with layers, then rises as the hole widens: a U-curve
that more decks push to more layers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_choice, check_int, check_int_array, check_real, check_text, plain_fields

ARRAY_EFFICIENCY = 0.286  # fitted to DENSITY_POINTS (least squares in log density)
GIB = 2**30 / 1e9  # one binary Gb in decimal Gb


@dataclass(frozen=True)
class Stack3D:
    """A 3D NAND die design. ``layers``: active word lines; ``decks``: separately etched stacks
    (1-8); ``bits`` per cell (1-5); ``periphery``: ``"beside"`` or ``"under"`` the array; lengths in
    nm unless named ``_um``/``_mm``; ``taper_deg`` in degrees; ``hole_top_nm`` ``None`` for the
    smallest hole that stays open (see module docstring)."""

    layers: int
    decks: int = 1
    bits: int = 3
    periphery: str = "under"
    hole_top_nm: float | None = None
    taper_deg: float = 0.02
    min_hole_nm: float = 90.0
    max_aspect_ratio: float = 100.0
    wl_pitch_nm: float = 51.0
    overhead_gates: int = 8
    stair_step_um: float = 0.5
    array_span_mm: float = 4.0
    periphery_fraction: float = 0.2

    def __post_init__(self):
        plain_fields(self)
        check_int("layers", self.layers, 1, 5000)
        check_int("decks", self.decks, 1, 8)
        if self.layers < self.decks:
            raise ValueError(f"layers must be at least decks ({self.decks}); got {self.layers!r}")
        check_int("bits", self.bits, 1, 5)
        check_choice("periphery", self.periphery, ("beside", "under"))
        check_real("taper_deg", self.taper_deg, 0.0, 5.0)
        check_real("min_hole_nm", self.min_hole_nm, 1.0, 1000.0)
        check_real("max_aspect_ratio", self.max_aspect_ratio, 1.0, 1000.0)
        check_real("wl_pitch_nm", self.wl_pitch_nm, 1.0, 1000.0)
        check_int("overhead_gates", self.overhead_gates, 0, 100)
        check_real("stair_step_um", self.stair_step_um, 0.0, 100.0)
        check_real("array_span_mm", self.array_span_mm, 0.01, 100.0)
        check_real("periphery_fraction", self.periphery_fraction, 0.0, 10.0)
        if self.hole_top_nm is not None:
            top = check_real("hole_top_nm", self.hole_top_nm, 1.0, 10000.0)
            if top < self.min_hole_nm:
                raise ValueError(f"hole_top_nm must be at least min_hole_nm ({self.min_hole_nm:g}); got {top:g}")
            bottom = top - self.taper_nm
            if bottom < self.min_hole_nm:
                raise ValueError(
                    f"taper_deg {self.taper_deg!r} closes the hole: hole_top_nm {top:g} narrows to {bottom:.1f} nm "
                    f"over the {self.deck_height_um:.2f} um deck, below min_hole_nm {self.min_hole_nm:g}; allowed "
                    f"taper_deg in [0, {math.degrees(math.atan((top - self.min_hole_nm) / (2e3 * self.deck_height_um))):.4f}]"
                )

    @property
    def gates_per_deck(self) -> float:
        return self.layers / self.decks + self.overhead_gates

    @property
    def gates(self) -> float:
        """All gates of the string (active, dummy, select)."""
        return self.layers + self.overhead_gates * self.decks

    @property
    def deck_height_um(self) -> float:
        return self.gates_per_deck * self.wl_pitch_nm * 1e-3

    @property
    def taper_nm(self) -> float:
        """How much narrower the hole is at the bottom of a deck than at its top, nm."""
        return 2e3 * self.deck_height_um * math.tan(math.radians(self.taper_deg))

    @property
    def hole_top(self) -> float:
        """Top diameter of the channel hole, nm."""
        if self.hole_top_nm is not None:
            return self.hole_top_nm
        return max(self.min_hole_nm + self.taper_nm, 1e3 * self.deck_height_um / self.max_aspect_ratio)

    @property
    def hole_pitch_nm(self) -> float:
        """Hexagonal-lattice pitch, 1.25 x the top diameter (gap D/4), nm."""
        return 1.25 * self.hole_top

    @property
    def holes_per_mm2(self) -> float:
        """Holes per mm² of lattice: 1 / (sqrt(3)/2 * pitch²)."""
        return 1e12 / (math.sqrt(3.0) / 2.0 * self.hole_pitch_nm**2)

    @property
    def staircase_fraction(self) -> float:
        """Staircase area as a fraction of the array area."""
        return 2.0 * self.gates * self.stair_step_um * 1e-3 / self.array_span_mm

    @property
    def die_overhead(self) -> float:
        """Die area / cell-array area (staircase, and the periphery when beside)."""
        periph = self.periphery_fraction if self.periphery == "beside" else 0.0
        return (1.0 + self.staircase_fraction) * (1.0 + periph)

    @property
    def density_gb_mm2(self) -> float:
        """Bit density, decimal Gb (10**9 bits) per mm² of die."""
        return self.bits * self.layers * self.holes_per_mm2 * ARRAY_EFFICIENCY / self.die_overhead / 1e9


@dataclass(frozen=True)
class DensityPoint:
    """A published die: ``name``, ``layers``, ``decks``, ``bits``, ``periphery``, ``density``
    in ``unit`` (``"decimal"`` Gb/mm² or ``"binary"`` Gib/mm², as the source counts), ``source``
    (BibTeX key) and ``note``."""

    name: str
    layers: int
    decks: int
    bits: int
    periphery: str
    density: float
    unit: str
    source: str
    note: str = ""

    def __post_init__(self):
        plain_fields(self)
        check_text("name", self.name, 1, 200)
        Stack3D(self.layers, self.decks, self.bits, self.periphery)  # checks layers, decks, bits, periphery
        check_real("density", self.density, 0.0, 1e4, lo_open=True)
        check_choice("unit", self.unit, ("decimal", "binary"))
        check_text("source", self.source, 1, 200)
        check_text("note", self.note, 0, 2000)

    @property
    def density_gb_mm2(self) -> float:
        """Decimal Gb per mm²."""
        return self.density * (GIB if self.unit == "binary" else 1.0)

    def stack(self, **changes) -> Stack3D:
        return Stack3D(self.layers, self.decks, self.bits, self.periphery, **changes)


#: Published 3D NAND densities (shrinks_3d.md B1; [V] rows). Units: a die's nominal capacity is
#: binary (a "64 Gb" die holds 2**36 bits plus spare), so a density computed as nominal capacity
#: over die area is in binary Gb/mm² ("binary": the four capacity/area rows, 128/133, 128/68.9,
#: 256/105, 256/59, and Intel's 1.67 Tb on 73.3 mm²). The makers' quoted densities do not say how
#: they count and are taken as quoted ("decimal"); counted in binary they would be 7.4% higher,
#: inside the tests' 20% tolerance. Decks and periphery placement:
#: as reported (Micron/Intel CMOS under array from 64 layers; SK hynix periphery under cell;
#: YMTC and Kioxia/WD BiCS6 arrays over CMOS; Intel 192 layers assumed four 48-layer decks).
DENSITY_POINTS = (
    DensityPoint("Samsung V-NAND gen 1, 128 Gb MLC", 24, 1, 2, "beside", 1.0, "binary", "park2014vnand",
                 "density about 1; die area recalled"),
    DensityPoint("Samsung 32-layer 128 Gb TLC, 68.9 mm²", 32, 1, 3, "beside", 1.86, "binary", "samsung2015tlc"),
    DensityPoint("WD/Toshiba BiCS2 256 Gb TLC, 105 mm²", 48, 1, 3, "beside", 2.44, "binary", "register2017bics"),
    DensityPoint("Micron/Intel 64-layer 256 Gb TLC, 59 mm²", 64, 2, 3, "under", 4.3, "binary", "register2017bics"),
    DensityPoint("Kioxia/WD BiCS6 QLC", 162, 2, 4, "under", 13.86, "decimal", "blocksfiles2024density"),
    DensityPoint("SK hynix 176-layer 512 Gb QLC", 176, 2, 4, "under", 14.40, "decimal", "blocksfiles2024density"),
    DensityPoint("Micron 232-layer 1 Tb TLC", 232, 2, 3, "under", 14.6, "decimal", "spectrum2022micron232"),
    DensityPoint("Micron 232-layer QLC", 232, 2, 4, "under", 19.6, "decimal", "blocksfiles2024density"),
    DensityPoint("YMTC 232-layer QLC", 232, 2, 4, "under", 20.62, "decimal", "blocksfiles2024density"),
    DensityPoint("Micron G9 276-layer TLC", 276, 2, 3, "under", 21.0, "decimal", "blocksfiles2024g9",
                 "14.6 x 1.44: Micron's 44% density gain over its 232-layer TLC"),
    DensityPoint("Intel 192-layer PLC, 1.67 Tb on 73.3 mm²", 192, 4, 5, "under", 23.3, "binary",
                 "khakifirooz2023plc", "decks assumed"),
    DensityPoint("Samsung V9 280-layer 1 Tb QLC", 280, 2, 4, "under", 28.5, "decimal", "blocksfiles2024density"),
)

#: 3D generations by layer count (TLC, periphery under the array from 64 layers): the stacks the
#: chapter's presets use. 32/48: single deck, periphery beside (Samsung V2/V3); 64: two decks
#: (Micron/Intel); 96 and 128: single deck as Samsung V5/V6 (TechInsights 2020), but with the
#: periphery under the array as its rivals had it at those counts (Samsung's V6 kept it beside); 176: 2 x 88
#: (Samsung V7); 232: 2 x 116 (Micron); 321: three decks (SK hynix).
GENERATIONS_3D = {
    32: Stack3D(32, 1, 3, "beside"),
    48: Stack3D(48, 1, 3, "beside"),
    64: Stack3D(64, 2, 3, "under"),
    96: Stack3D(96, 1, 3, "under"),
    128: Stack3D(128, 1, 3, "under"),
    176: Stack3D(176, 2, 3, "under"),
    232: Stack3D(232, 2, 3, "under"),
    321: Stack3D(321, 3, 3, "under"),
}


def bit_cost(stack: Stack3D, gate_cost: float = 0.012, deck_cost: float = 0.25) -> float:
    """Relative cost per bit of ``stack``: wafer cost ``1 + gate_cost*gates + deck_cost*decks``
    (relative to a planar wafer; assumed coefficients) over bits per mm² (decimal Gb); in units of
    planar-wafer cost per (Gb/mm²)."""
    if not isinstance(stack, Stack3D):
        raise ValueError(f"stack must be a Stack3D; got {stack!r} ({type(stack).__name__})")
    g = check_real("gate_cost", gate_cost, 0.0, 10.0)
    d = check_real("deck_cost", deck_cost, 0.0, 100.0)
    return (1.0 + g * stack.gates + d * stack.decks) / stack.density_gb_mm2


@dataclass
class LayerSweep:
    """Per layer count ``layers``: ``density_gb_mm2`` (decimal Gb/mm²), ``bit_cost`` (relative),
    ``hole_top_nm``, ``staircase_fraction``, for a stack of ``decks`` decks."""

    decks: int
    layers: np.ndarray
    density_gb_mm2: np.ndarray
    bit_cost: np.ndarray
    hole_top_nm: np.ndarray
    staircase_fraction: np.ndarray


def layer_sweep(layers, decks: int = 1, bits: int = 3, periphery: str = "under", **stack) -> LayerSweep:
    """Evaluate :class:`Stack3D` (other fields: ``stack``) at each layer count in ``layers``."""
    ls = check_int_array("layers", layers, 1, 5000)
    stacks = [Stack3D(int(n), decks, bits, periphery, **stack) for n in ls]
    return LayerSweep(
        decks, ls, np.array([s.density_gb_mm2 for s in stacks]), np.array([bit_cost(s) for s in stacks]),
        np.array([s.hole_top for s in stacks]), np.array([s.staircase_fraction for s in stacks]),
    )
