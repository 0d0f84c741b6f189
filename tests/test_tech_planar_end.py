"""The end of planar NAND in the cell model: the wrap's limit, the flat high-k cell, air gaps.
Oracles: the parallel-plate formulas worked by hand with the constants typed out, and the limit
pitch from the cell's own dimensions."""

from __future__ import annotations

import pytest

from flashlab.tech import PlanarCell, as_built, node_sweep

E0 = 8.854e-3  # vacuum permittivity, aF/nm (typed here, not imported)


def test_wrapped_coupling_ratio_by_hand():
    # 25 nm wrap: C_CG = e0 3.9 F (F + 2h) / t_ipd, C_tox = e0 3.9 F^2 / t_tox, C_FG-FG = e0 3.9 h
    c_cg = E0 * 3.9 * 25 * (25 + 2 * 23.5) / 13
    c_tox = E0 * 3.9 * 25**2 / 8
    c_ff = E0 * 3.9 * 23.5
    c = PlanarCell(25.0)
    assert c.c_cg_af == pytest.approx(c_cg, rel=1e-4)
    assert c.gate_coupling == pytest.approx(c_cg / (c_cg + c_tox + 2 * c_ff), rel=1e-4)
    assert c.gate_coupling == pytest.approx(0.525, abs=1e-3)


def test_flat_high_k_coupling_ratio_by_hand():
    # IMFT-style flat cell at 20 nm: top face only, k = 9 over 13 nm, a 10 nm floating gate
    c_cg = E0 * 9 * 20**2 / 13  # 2.452 aF
    c_tox = E0 * 3.9 * 20**2 / 8  # 1.727 aF
    c_ff = E0 * 3.9 * 10  # 0.345 aF
    want = c_cg / (c_cg + c_tox + 2 * c_ff)
    c = PlanarCell(20.0, gate="flat", ipd_k=9.0, fg_height_nm=10.0)
    assert want == pytest.approx(0.504, abs=1e-3)
    assert c.gate_coupling == pytest.approx(want, rel=1e-4)
    assert as_built(20.0) == c  # the cell as built below the limit is exactly this one
    # the same flat cell with oxide (k = 3.9) keeps under half of it: the loss high-k wins back
    ono = PlanarCell(20.0, gate="flat", fg_height_nm=10.0)
    c_ono = E0 * 3.9 * 20**2 / 13
    assert ono.gate_coupling == pytest.approx(c_ono / (c_ono + c_tox + 2 * c_ff), rel=1e-4)
    assert ono.gate_coupling < 0.65 * c.gate_coupling
    assert c.c_cg_af / ono.c_cg_af == pytest.approx(9 / 3.9)


def test_wrap_limit_from_the_dimensions():
    # the slot between floating gates is F wide and must hold two IPD layers and 4 nm of gate
    assert PlanarCell(25.0).wrap_limit_nm == pytest.approx(2 * 13 + 4)
    assert PlanarCell(25.0, t_ipd_nm=10.0).wrap_limit_nm == pytest.approx(24.0)
    assert PlanarCell(30.0).wrap_fits and not PlanarCell(29.9).wrap_fits
    assert PlanarCell(25.0, t_ipd_nm=10.0).wrap_fits
    assert as_built(30.0).gate == "wrap" and as_built(29.9).gate == "flat"
    s = node_sweep([50.0, 35.0, 30.0, 25.0, 16.0], cell="as built")
    assert s.wrap_fits.tolist() == [True, True, True, False, False]
    # below the limit the wrap's coupling ratio falls to the top face's
    top = PlanarCell(25.0, gate="flat")
    assert top.c_cg_af == pytest.approx(E0 * 3.9 * 25**2 / 13, rel=1e-4)


def test_air_gap_by_hand():
    full = PlanarCell(16.0, air_gap=1.0)
    assert full.c_fgfg_af == pytest.approx(E0 * 23.5, rel=1e-4)  # air: k = 1
    half = PlanarCell(16.0, air_gap=0.5)
    assert half.c_fgfg_af == pytest.approx(E0 * 23.5 * (0.5 * 3.9 + 0.5), rel=1e-4)
    c = PlanarCell(16.0)
    want = full.c_fgfg_af / (c.c_cg_af + c.c_tox_af + 2 * full.c_fgfg_af)
    assert full.coupling == pytest.approx(want, rel=1e-6)
    assert full.coupling < 0.35 * c.coupling


def test_last_planar_nodes_hold_fewer_electrons_than_the_wrapped_model():
    for f in (16.0, 15.0):
        built, wrapped = as_built(f), PlanarCell(f)
        assert built.gate == "flat"
        assert built.electrons_per_state(3) < 0.65 * wrapped.electrons_per_state(3)
        assert built.coupling < wrapped.coupling  # a short floating gate faces its neighbours less


@pytest.mark.parametrize("kw", [dict(gate="wrapped"), dict(ipd_k=0.5), dict(air_gap=1.5)])
def test_bad_structure_is_refused(kw):
    with pytest.raises(ValueError, match=next(iter(kw))):
        PlanarCell(20.0, **kw)
