"""Wafer economics: dies per wafer, Poisson yield, cost per GB, and the returns of each shrink.

* Gross dies per wafer (Hennessy and Patterson, ``hennessy2017architecture``): a wafer of
  diameter d holds ``pi*d**2/(4*S) - pi*d/sqrt(2*S)`` dies of area S; the second term is the
  partial dies lost around the edge. ``edge_exclusion_mm`` narrows the usable diameter by twice
  that width.
* Poisson yield: the fraction of dies with no killer defect, ``exp(-D0*A)`` with defect density
  D0 (per cm²) and die area A (cm²).
* Cost per GB: wafer cost / (good dies x GB per die). GB here is decimal (10**9 bytes).
* Fab cost (flashdba, ``flashdba2015fabrication``): about $15 B for a new fab (Samsung, 2014).
  :func:`shrink_returns` shows why each shrink earns less: the bit-cost saving of a step is
  ``1 - (F_new/F_old)**2 * wafer_cost_ratio``, and node names step in ever smaller fractions of
  the feature size. *Assumed:* one pass down to a 40 nm half pitch, two below it (self-aligned
  double patterning, which the 19-20 nm parts still used) and four below 17 nm (quadruple
  patterning, which arrived with the 16-15 nm nodes), each pass adding ``patterning_cost`` of the
  base wafer cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_array, check_real, check_real_or_array

FAB_COST_USD = 15e9  # a new NAND fab, Samsung 2014 (flashdba 2015)
SINGLE_PATTERNING_LIMIT_NM = 40.0  # half pitch printable in one 193i exposure (assumed)
DOUBLE_PATTERNING_LIMIT_NM = 17.0  # smallest half pitch double patterning served (assumed, between 19 and 16 nm)
DIE_MM2 = (1e-3, 1e5)  # die areas accepted, mm² (a smaller die would make the counts overflow)


def gross_dies_per_wafer(wafer_mm: float, die_mm2: float, edge_exclusion_mm: float = 0.0) -> float:
    """Gross dies per wafer (not rounded): ``pi*d**2/(4*S) - pi*d/sqrt(2*S)`` with
    ``d = wafer_mm - 2*edge_exclusion_mm`` (mm) and ``S = die_mm2`` (mm²); 0 if none fit."""
    d = check_real("wafer_mm", wafer_mm, 1.0, 1000.0)
    s = check_real("die_mm2", die_mm2, *DIE_MM2)
    e = check_real("edge_exclusion_mm", edge_exclusion_mm, 0.0, 500.0)
    if e >= d / 2.0:
        raise ValueError(f"edge_exclusion_mm {e:g} leaves no wafer: it must be below half of wafer_mm ({d:g})")
    d -= 2.0 * e
    return max(0.0, math.pi * d * d / (4.0 * s) - math.pi * d / math.sqrt(2.0 * s))


def poisson_yield(defects_per_cm2: float, die_mm2: float) -> float:
    """Fraction of good dies, ``exp(-D0 * A)`` (D0 per cm², A in mm² converted to cm²)."""
    d0 = check_real("defects_per_cm2", defects_per_cm2, 0.0, 100.0)
    a = check_real("die_mm2", die_mm2, *DIE_MM2)
    return math.exp(-d0 * a / 100.0)


def cost_per_gb(wafer_cost_usd: float, die_mm2: float, die_gbit: float, defects_per_cm2: float = 0.1,
                wafer_mm: float = 300.0, edge_exclusion_mm: float = 3.0) -> float:
    """Dollars per decimal GB: wafer cost over good dies times the die's ``die_gbit`` (Gb, 10**9
    bits) / 8."""
    cost = check_real("wafer_cost_usd", wafer_cost_usd, 0.0, 1e6, lo_open=True)
    gbit = check_real("die_gbit", die_gbit, 1e-6, 1e6)
    good = gross_dies_per_wafer(wafer_mm, die_mm2, edge_exclusion_mm) * poisson_yield(defects_per_cm2, die_mm2)
    if good <= 0.0:
        raise ValueError(f"die_mm2 {die_mm2!r} leaves no good die on a wafer of wafer_mm {wafer_mm!r} with "
                         f"edge_exclusion_mm {edge_exclusion_mm!r}")
    return cost / (good * gbit / 8.0)


def patterning_passes(feature_nm) -> np.ndarray:
    """Lithography passes per critical layer (assumed: 1 down to a 40 nm half pitch, 2 below it
    (self-aligned double patterning), 4 below 17 nm (quadruple, the 16-15 nm nodes))."""
    f = np.atleast_1d(check_real_or_array("feature_nm", feature_nm, 1.0, 1000.0))
    return np.where(f < SINGLE_PATTERNING_LIMIT_NM, 2.0, 1.0) * np.where(f < DOUBLE_PATTERNING_LIMIT_NM, 2.0, 1.0)


@dataclass
class ShrinkReturns:
    """Planar shrinks in order: ``feature_nm`` (nm), relative ``wafer_cost`` (1 at the first
    node), relative ``bit_cost`` (1 at the first node: wafer cost x cell area, same array
    efficiency), and per step the fractional ``saving`` in bit cost (NaN for the first node) and
    the ``payback_wafers``: wafers to earn back ``retool_cost_usd`` at ``margin_usd_per_wafer``
    times the saving (inf for a step that saves nothing)."""

    feature_nm: np.ndarray
    wafer_cost: np.ndarray
    bit_cost: np.ndarray
    saving: np.ndarray
    payback_wafers: np.ndarray


def shrink_returns(feature_nm, patterning_cost: float = 0.15, retool_cost_usd: float = 0.2 * FAB_COST_USD,
                   margin_usd_per_wafer: float = 3000.0) -> ShrinkReturns:
    """Bit cost and the saving of each step through the nodes ``feature_nm`` (nm, decreasing).
    ``patterning_cost``: extra wafer cost per extra patterning pass, as a fraction of the base
    wafer (assumed 0.15); ``retool_cost_usd``: cost of moving a fab one node (assumed a fifth of a
    new fab); ``margin_usd_per_wafer``: revenue per wafer that a 100% bit-cost saving would add
    (assumed)."""
    f = check_array("feature_nm", feature_nm, 1.0, 1000.0, min_size=2)
    if np.any(np.diff(f) >= 0.0):
        raise ValueError(f"feature_nm must be strictly decreasing (one shrink per step); got {f.tolist()!r}")
    p = check_real("patterning_cost", patterning_cost, 0.0, 10.0)
    retool = check_real("retool_cost_usd", retool_cost_usd, 0.0, 1e12)
    margin = check_real("margin_usd_per_wafer", margin_usd_per_wafer, 0.0, 1e6, lo_open=True)
    wafer = 1.0 + p * (patterning_passes(f) - 1.0)
    wafer = wafer / wafer[0]
    bit = wafer * (f / f[0]) ** 2
    saving = np.concatenate(([np.nan], 1.0 - bit[1:] / bit[:-1]))
    with np.errstate(divide="ignore"):
        payback = np.where(saving > 0.0, retool / (margin * saving), np.inf)
    payback[0] = np.nan
    return ShrinkReturns(f, wafer, bit, saving, payback)
