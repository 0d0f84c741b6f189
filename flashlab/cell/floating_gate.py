"""Floating-gate cell physics: charge -> threshold voltage, Fowler-Nordheim program and erase, read.

Model (capacitive floating gate: Pavan et al. 1997; Compagnoni et al. 2017):

* ``Q_FG`` (C) is the net charge on the floating gate; it is negative when electrons are stored.
* Threshold voltage seen from the control gate: ``Vth = vth_neutral - Q_FG / C_CG``, so stored
  electrons ``N = -Q_FG / q`` raise Vth by ``q / C_CG`` each.
* Floating-gate potential with gate-to-well voltage ``V`` (control gate minus channel/well):
  ``V_FG = alpha_G * V + Q_FG / C_T`` with ``alpha_G = C_CG / C_T`` the gate coupling ratio and
  ``C_T`` the total floating-gate capacitance. This is exact when every other capacitance of the
  floating gate (tunnel oxide, source/drain, neighbours) ends on nodes held at the well potential.
  Substituting ``Q_FG``: ``V_FG = alpha_G * (V - Vth + vth_neutral)``.
* Tunnel-oxide field ``E = V_FG / t_ox`` (V/m), positive when it pulls electrons from the channel
  onto the floating gate.
* Fowler-Nordheim current density ``J = A E^2 exp(-B/|E|)`` (A/m^2, signed like ``E``), with
  ``A = q^2 m0 / (8 pi h m_ox phi_B)`` and ``B = 8 pi sqrt(2 m_ox) (q phi_B)^(3/2) / (3 q h)``
  for the Si/SiO2 barrier ``phi_B = 3.2 eV`` and oxide effective mass ``m_ox = 0.42 m0``
  (Lenzlinger & Snow 1969): ``A ~ 1.15e-6 A/V^2``, ``B ~ 2.54e10 V/m``.
* Sign convention: ``dQ_FG/dt = -J * tunnel_area``; a positive field adds electrons (program, Vth
  rises), a negative one removes them (erase, Vth falls).

For a pulse of constant ``V`` the field obeys ``dE/dt = -k E^2 exp(-B/|E|)`` with
``k = A * tunnel_area / (C_T * t_ox)``, whose exact solution is
``|E(t)| = B / ln(exp(B/|E0|) + B k t)``: the kernels use it, so a pulse costs one exp and one log
and has no step-size error. Programming is self-limiting: the stored charge lowers the field.

Sources (book/references.bib): lenzlinger1969, pavan1997, prall2007, compagnoni2017, spinelli2017,
cai2015retention.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_real, check_real_or_array, plain_fields
from flashlab.cell import _kernels

Q_E = 1.602176634e-19  #: elementary charge (C)
EPS_SIO2 = 3.9 * 8.8541878128e-12  #: SiO2 permittivity (F/m)
_H = 6.62607015e-34  # Planck constant (J s)
_M0 = 9.1093837015e-31  # electron rest mass (kg)
PHI_B_SI_SIO2 = 3.2  #: Si/SiO2 conduction-band barrier (eV), Lenzlinger & Snow 1969
M_OX_SIO2 = 0.42  #: electron effective mass in SiO2 (units of m0), Lenzlinger & Snow 1969

#: Fowler-Nordheim pre-exponential constant for Si/SiO2 (A/V^2).
FN_A_SIO2 = Q_E**2 / (8 * math.pi * _H * M_OX_SIO2 * PHI_B_SI_SIO2)
#: Fowler-Nordheim exponential constant for Si/SiO2 (V/m).
FN_B_SIO2 = 8 * math.pi * math.sqrt(2 * M_OX_SIO2 * _M0) * (Q_E * PHI_B_SI_SIO2) ** 1.5 / (3 * Q_E * _H)

VTH_LIMIT = 20.0  #: threshold voltages accepted as input lie in [-VTH_LIMIT, VTH_LIMIT] (V)
V_GATE_LIMIT = 40.0  #: gate-to-well voltages accepted lie in [-V_GATE_LIMIT, V_GATE_LIMIT] (V)
T_PULSE_LIMIT = 1.0  #: longest single pulse accepted (s)


@dataclass(frozen=True)
class FloatingGateCell:
    """A planar floating-gate NAND cell (SI units).

    Parameters
    ----------
    t_ox : tunnel-oxide thickness (m), in [1e-9, 3e-8].
    tunnel_area : tunnelling area, channel width x length (m^2), in [1e-18, 1e-10].
    c_cg : control-gate to floating-gate capacitance C_CG (F), in [1e-19, 1e-14].
    coupling : gate coupling ratio alpha_G = C_CG / C_T, in (0, 1); it must leave room for the
        tunnel-oxide capacitance: ``C_CG + eps_ox * tunnel_area / t_ox <= C_T``.
    vth_neutral : threshold voltage with no net floating-gate charge (V), in [-10, 10].
    fn_a : Fowler-Nordheim constant A (A/V^2), in (0, 1e-3]; default Si/SiO2.
    fn_b : Fowler-Nordheim constant B (V/m), in [1e8, 1e12] (a real barrier gives ~1e10; far
        below, the charging solution loses its precision); default Si/SiO2.
    """

    t_ox: float
    tunnel_area: float
    c_cg: float
    coupling: float
    vth_neutral: float = 0.0
    fn_a: float = FN_A_SIO2
    fn_b: float = FN_B_SIO2

    def __post_init__(self):
        plain_fields(self)
        checks = {
            "t_ox": (1e-9, 3e-8, False, False),
            "tunnel_area": (1e-18, 1e-10, False, False),
            "c_cg": (1e-19, 1e-14, False, False),
            "coupling": (0.0, 1.0, True, True),
            "vth_neutral": (-10.0, 10.0, False, False),
            "fn_a": (0.0, 1e-3, True, False),
            "fn_b": (1e8, 1e12, False, False),
        }
        for name, (lo, hi, lo_open, hi_open) in checks.items():
            v = check_real(name, getattr(self, name), lo, hi, lo_open=lo_open, hi_open=hi_open)
            object.__setattr__(self, name, v)
        max_coupling = self.c_cg / (self.c_cg + self.c_tunnel)
        if self.coupling > max_coupling:
            raise ValueError(
                f"coupling must be in (0, {max_coupling:.4g}] so that C_CG + C_tunnel <= C_T "
                f"(C_tunnel = {self.c_tunnel:.4g} F); got {self.coupling!r}"
            )

    @property
    def c_total(self) -> float:
        """Total floating-gate capacitance C_T = C_CG / alpha_G (F)."""
        return self.c_cg / self.coupling

    @property
    def c_tunnel(self) -> float:
        """Tunnel-oxide capacitance eps_ox * tunnel_area / t_ox (F)."""
        return EPS_SIO2 * self.tunnel_area / self.t_ox

    @property
    def volts_per_electron(self) -> float:
        """Threshold shift of one stored electron, q / C_CG (V)."""
        return Q_E / self.c_cg

    def charge(self, vth):
        """Net floating-gate charge Q_FG (C) of a cell at threshold ``vth`` (V); negative = electrons."""
        vth = check_real_or_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
        return -self.c_cg * (vth - self.vth_neutral)

    def electrons(self, vth):
        """Electrons stored on the floating gate, N = -Q_FG / q, at threshold ``vth`` (V).

        Negative when the gate is net positive (over-erased: electrons removed).
        """
        return -self.charge(vth) / Q_E

    def oxide_field(self, v_gate, vth):
        """Tunnel-oxide field E = alpha_G (V_gate - Vth + vth_neutral) / t_ox (V/m).

        ``v_gate`` is the control-gate to well voltage (V); ``vth`` the cell threshold (V).
        """
        v_gate = check_real("v_gate", v_gate, -V_GATE_LIMIT, V_GATE_LIMIT)
        vth = check_real_or_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
        return self.coupling * (v_gate - vth + self.vth_neutral) / self.t_ox

    def current_density(self, field):
        """Fowler-Nordheim current density ``J = A E^2 exp(-B/|E|)`` (A/m^2), signed like ``field`` (V/m)."""
        field = check_real_or_array("field", field, -1e11, 1e11)
        e = np.abs(field)
        with np.errstate(divide="ignore", over="ignore"):
            j = np.where(e > 0, self.fn_a * e * e * np.exp(-self.fn_b / np.where(e > 0, e, 1.0)), 0.0)
        j = np.sign(field) * j
        return float(j) if np.ndim(j) == 0 else j

    def _gain(self) -> float:
        """Field per volt of (V_gate - Vth + vth_neutral): alpha_G / t_ox (1/m)."""
        return self.coupling / self.t_ox

    def _rate(self) -> float:
        """B A tunnel_area / C_CG (m/s): the kernels' ``B k t`` equals ``rate * gain * t``."""
        return self.fn_b * self.fn_a * self.tunnel_area / self.c_cg


def apply_pulse(cell: FloatingGateCell, vth, v_gate, t_pulse):
    """Threshold voltage (V) after one rectangular pulse of gate-to-well voltage ``v_gate`` (V).

    ``vth`` is a float or 1-D array of starting thresholds (V); ``t_pulse`` the pulse length (s).
    Positive ``v_gate`` programs (Vth rises), negative erases (Vth falls); the exact solution of the
    Fowler-Nordheim charging ODE is used (see the module docstring). Returns a float for a float.
    """
    if not isinstance(cell, FloatingGateCell):
        raise ValueError(f"cell must be a FloatingGateCell; got {type(cell).__name__}")
    vth = check_real_or_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
    v_gate = check_real("v_gate", v_gate, -V_GATE_LIMIT, V_GATE_LIMIT)
    t_pulse = check_real("t_pulse", t_pulse, 0.0, T_PULSE_LIMIT, lo_open=True)
    arr = np.atleast_1d(np.asarray(vth, dtype=np.float64))
    gain = np.full(arr.size, cell._gain())
    out = np.empty_like(arr)
    _kernels.pulse_cells(arr, gain, v_gate, t_pulse, cell.vth_neutral, cell.fn_b, cell._rate(), out)
    return float(out[0]) if np.ndim(vth) == 0 else out


def erase(cell: FloatingGateCell, vth, v_erase, t_erase):
    """Threshold voltages (V) of a block of cells after one erase pulse.

    The well is raised to ``v_erase`` (V, > 0) with the control gates at 0 V, i.e. a gate-to-well
    voltage of ``-v_erase``: electrons tunnel back to the channel (Fowler-Nordheim, reverse
    direction). ``vth`` is the array of the block's thresholds (V); ``t_erase`` the pulse length (s).
    Erase acts on the whole block at once: no cell can be left out.
    """
    v_erase = check_real("v_erase", v_erase, 0.0, V_GATE_LIMIT, lo_open=True)
    t_erase = check_real("t_erase", t_erase, 0.0, T_PULSE_LIMIT, lo_open=True)
    return apply_pulse(cell, vth, -v_erase, t_erase)


def read(vth, v_ref):
    """Bits read at reference voltage ``v_ref`` (V): 1 where the cell conducts (Vth < v_ref, erased),
    0 where it does not (programmed: electrons on the floating gate). Returns uint8 (array or scalar).
    """
    vth = check_real_or_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
    v_ref = check_real("v_ref", v_ref, -VTH_LIMIT, VTH_LIMIT)
    bits = (np.asarray(vth) < v_ref).astype(np.uint8)
    return np.uint8(bits) if np.ndim(vth) == 0 else bits


#: Planar floating-gate NAND cell of the 2X-nm era (about 25 nm half pitch): the same cell as
#: :class:`flashlab.tech.planar.PlanarCell` at 25 nm, so that chapter 1 and the shrink model of
#: chapter 4 describe one cell (``tests/test_cell_physics.py`` checks that they agree).
#:
#: * ``t_ox = 8 nm``: planar NAND tunnel oxides stayed near 7-8 nm because thinner oxides lose
#:   retention (Prall 2007; Spinelli et al. 2017); 8 nm is the tunnel oxide of ``PlanarCell``.
#: * ``tunnel_area = 25 nm x 25 nm``: the channel of a cell at 25 nm half pitch (F x F).
#: * ``c_cg = 4.8e-18 F``: ``PlanarCell(25).c_cg_af`` (4.78 aF) rounded; ~30 electrons per volt
#:   (33 mV per electron), so the 3.35 V window of ``PlanarCell`` holds about 100 electrons, the
#:   figure Cai et al. 2015 give for the 2Y-nm MLC cells they measured (also Prall 2007;
#:   Compagnoni et al. 2017).
#: * ``coupling = 0.525``: ``PlanarCell(25).gate_coupling``, C_CG over C_CG + C_tunnel + two
#:   bit-line neighbours; floating-gate cells were designed for ~0.6 (Pavan et al. 1997; Prall 2007),
#:   which shrinking made ever harder to keep.
#: * ``vth_neutral = 0 V``: our choice of origin (the neutral threshold depends on doping).
#: * Fowler-Nordheim constants for Si/SiO2 from Lenzlinger & Snow 1969.
FG_CELL_2XNM = FloatingGateCell(
    t_ox=8e-9,
    tunnel_area=25e-9 * 25e-9,
    c_cg=4.8e-18,
    coupling=0.525,
    vth_neutral=0.0,
)
