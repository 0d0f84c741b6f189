"""Technology layer: planar scaling, electron statistics, economics, 3D density, charge-trap
errors, and the presets it produces (the Cai table still holds on the 1X-nm TLC preset)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from flashlab.cell import (CAI2017_TOLERANCE_UNITS, cai2017_comparison, default_read_refs, rber_analytic,
                           vth_distributions)
from flashlab.presets import PRESETS, TLC_1XNM, technology
from flashlab.tech import (
    DENSITY_POINTS,
    GENERATIONS_3D,
    MLC_2Y,
    QLC_96L,
    SLC_5X,
    TLC_1X,
    PlanarCell,
    Stack3D,
    bit_cost,
    VOLTS_PER_UNIT,
    cell_model,
    charge_trap_distributions,
    cost_per_gb,
    ct_worst_rber,
    electron_counts,
    gross_dies_per_wafer,
    layer_rber,
    layer_sweep,
    layer_wear_scale,
    node_sweep,
    patterning_passes,
    poisson_yield,
    raw_coupling,
    shrink_returns,
    shrink_sweep,
    verify_overshoot,
)
from flashlab.tech.generations import TLC_FIT
from flashlab.tech.planar import PROGRAMMED_SPAN_UNITS, WINDOW_UNITS

NODES = np.array([120.0, 90.0, 72.0, 50.0, 35.0, 25.0, 21.0, 19.0, 16.0, 14.0])


# ---- planar scaling ----------------------------------------------------------------------------


def test_cell_area_is_4f2_and_25nm_mlc_holds_100_electrons():
    c = PlanarCell(25.0)
    assert c.cell_area_nm2 == pytest.approx(2500.0)
    assert c.window_electrons == pytest.approx(100.0, rel=0.01)  # shrinks_3d.md A1
    # MLC: P1-P3 step 382.4/3 units down from the top; the erased state sits 303 units below P1
    assert c.electrons_per_state(2) == pytest.approx(100.0 * 382.4 / 3 / 558.3, rel=0.01)
    # C_CG locally ~ F**k with k in [1, 2] (A1's admissible range)
    k = math.log(PlanarCell(26.0).c_cg_af / PlanarCell(24.0).c_cg_af) / math.log(26.0 / 24.0)
    assert 1.0 < k < 2.0


def test_node_sweep_is_monotone():
    s = node_sweep(NODES, bits=3)
    assert np.all(np.diff(s.electrons_per_state) < 0)  # fewer electrons
    assert np.all(np.diff(s.coupling) > 0)  # more neighbour coupling
    assert np.all(np.diff(s.rtn_sigma_mv) > 0)
    assert np.all(np.diff(s.cell_area_nm2) < 0)
    # Fukuda et al. 2007: RTN 3-sigma grows 1.8x from 90 nm to 20 nm
    assert PlanarCell(20.0).rtn_sigma_v / PlanarCell(90.0).rtn_sigma_v == pytest.approx(1.8)


@pytest.mark.parametrize("gen, pe", [(MLC_2Y, 3000.0), (TLC_1X, 1000.0), (SLC_5X, 100_000.0)])
def test_rber_at_fixed_pe_rises_as_the_node_shrinks(gen, pe):
    for days in (0.0, 365.0):
        s = shrink_sweep(gen, NODES, pe, days)
        assert np.all(np.diff(s.worst_rber) > 0), (gen.name, days, s.worst_rber)
        assert np.all(np.diff(s.sigma_programmed) > 0)
        assert np.all(np.diff(s.coupling_ratio) > 0)


def test_endurance_falls_as_the_node_shrinks():
    s = shrink_sweep(MLC_2Y, NODES[::3], 3000.0, 365.0, endurance=True)
    assert np.all(np.diff(s.endurance_pe) < 0)


@pytest.mark.parametrize("n", [25, 100])
def test_electron_counts_sigma_over_n_is_one_over_sqrt_n(n):
    counts = electron_counts(n, 200_000, seed=7)
    assert counts.mean() == pytest.approx(n, rel=0.01)
    assert counts.std() / counts.mean() == pytest.approx(1.0 / math.sqrt(n), rel=0.03)
    assert np.array_equal(counts, electron_counts(n, 200_000, seed=7))  # same seed, same counts
    assert not np.array_equal(counts, electron_counts(n, 200_000, seed=8))


@pytest.mark.parametrize("n", [0.5, 2.0, 6.0])
def test_verify_overshoot_follows_renewal_theory(n):
    # what a cell keeps above its verify level: mean n/2, variance n^2/12 (one step, uniform)
    # plus n/2 (half the last pulse's Poisson variance)
    z = verify_overshoot(n, 200_000, seed=5)
    assert z.min() >= 0
    assert z.mean() == pytest.approx(n / 2, rel=0.02)
    assert z.var() == pytest.approx(n * n / 12 + n / 2, rel=0.03)
    assert np.array_equal(z, verify_overshoot(n, 200_000, seed=5))
    assert not np.array_equal(z, verify_overshoot(n, 200_000, seed=6))


def test_verify_overshoot_narrows_with_the_step():
    # the placement depends on the step, not on the electrons a state holds: a quarter-spacing
    # step of 25 nm TLC lands within about n + 3 sqrt(n) of the level, far inside one full-spacing
    # shot's 3 sqrt(S)
    s = PlanarCell(25.0).electrons_per_state(3)
    tops = [np.quantile(verify_overshoot(f * s, 100_000, seed=1), 0.99865) for f in (0.5, 0.25, 0.125)]
    assert tops[0] > tops[1] > tops[2]
    assert tops[1] <= 0.25 * s + 3 * math.sqrt(0.25 * s) < 3 * math.sqrt(s)


def test_state_layout_constants_are_the_tlc_fit():
    assert WINDOW_UNITS == pytest.approx(TLC_FIT.means[-1] - TLC_FIT.means[0])
    assert PROGRAMMED_SPAN_UNITS == pytest.approx(TLC_FIT.means[-1] - TLC_FIT.means[1])
    c = PlanarCell(40.0)
    assert c.electrons_per_state(5) == pytest.approx(c.window_electrons * 382.4 / 31 / 558.3)
    assert c.electrons_per_state(1) == pytest.approx(c.window_electrons)  # SLC: the whole window


@pytest.mark.parametrize("gen, node", [(TLC_1X, 19.0), (TLC_1X, 14.0), (MLC_2Y, 21.0), (SLC_5X, 50.0),
                                       (QLC_96L, 40.0)])
def test_electrons_per_state_is_the_spacing_of_the_presets_state_means(gen, node):
    # the issue-28 oracle: from the cell model's own state means, not window / (2**b - 1)
    means = np.asarray(cell_model(gen, node if gen.planar else None).means)
    spacing_v = (np.diff(means[1:]).mean() if gen.bits > 1 else means[1] - means[0]) * VOLTS_PER_UNIT
    c = PlanarCell(node)
    assert c.electrons_per_state(gen.bits) == pytest.approx(spacing_v * c.electrons_per_volt, rel=0.002)


def test_tlc_at_19_nm_has_eight_electrons_between_states():
    # issue 28's hand count: 63.7 units x 6 mV x C_CG(19 nm)/q = 7.95 (the window / 7 gave 11.6)
    assert PlanarCell(19.0).electrons_per_state(3) == pytest.approx(7.95, abs=0.05)


def test_interference_residual_is_a_choice_that_keeps_the_calibration():
    # any residual the calibrated width admits leaves the calibration node's totals unchanged
    # and widens the shrunk cell more the larger it is; one that does not fit is refused
    at19 = [vth_distributions(cell_model(TLC_1X, residual=r)).sigmas for r in (0.0, 0.015, 0.1)]
    np.testing.assert_allclose(at19[0], at19[1], rtol=1e-9)
    np.testing.assert_allclose(at19[0], at19[2], rtol=1e-9)
    at14 = [vth_distributions(cell_model(TLC_1X, 14.0, r)).sigmas[1] for r in (0.0, 0.015, 0.1)]
    assert at14[0] < at14[1] < at14[2]
    s = shrink_sweep(TLC_1X, [19.0, 14.0], 1000.0, 365.0, residual=0.1)
    assert s.residual == 0.1 and s.coupling_ratio == pytest.approx(0.1 * s.coupling)
    with pytest.raises(ValueError, match="residual"):
        cell_model(TLC_1X, 14.0, residual=0.2)


def test_self_limiting_injection_is_sub_poissonian():
    counts = electron_counts(100, 100_000, seed=3, capacity=200)  # binomial, Fano 1 - 100/200
    assert counts.mean() == pytest.approx(100.0, rel=0.01)
    assert counts.var() / counts.mean() == pytest.approx(0.5, rel=0.05)


# ---- presets produced by tech ----------------------------------------------------------------


def test_tech_tlc_1x_preset_reproduces_cai_2017_with_interference_on():
    m = cell_model(TLC_1X)
    assert m.coupling_ratio > 0.0 and m.aggressors > 0  # program interference is modelled
    assert TLC_1XNM.vth == m
    assert cai2017_comparison(m).worst <= CAI2017_TOLERANCE_UNITS


@pytest.mark.parametrize("gen", [TLC_1X, MLC_2Y, SLC_5X, QLC_96L])
def test_interference_is_split_out_without_changing_totals(gen):
    m = cell_model(gen)
    plain = dataclasses.replace(m, coupling_ratio=0.0)
    totals = vth_distributions(m, 1000, 30)
    assert totals.sigmas[1] > vth_distributions(plain, 1000, 30).sigmas[1]
    fresh = vth_distributions(m)
    assert fresh.sigmas[1] == pytest.approx(gen.sigma_programmed, rel=1e-9)
    assert fresh.sigmas[0] == pytest.approx(45.0, rel=1e-9)


def test_moved_presets_follow_the_scaling():
    assert PRESETS["mlc2x"].vth.coupling_ratio < PRESETS["mlc"].vth.coupling_ratio
    assert PRESETS["tlc1y"].vth.coupling_ratio > PRESETS["tlc"].vth.coupling_ratio
    r = {k: rber_analytic(vth_distributions(PRESETS[k].vth, 1000, 365)).rber.max() for k in ("tlc", "tlc1y")}
    assert r["tlc1y"] > r["tlc"]
    assert technology(TLC_1X, 19.0).vth == TLC_1XNM.vth  # the calibration node reproduces the preset


# ---- economics -------------------------------------------------------------------------------


def test_dies_per_wafer_and_yield_match_the_worked_values():
    assert round(gross_dies_per_wafer(300.0, 100.0), 1) == 640.2  # shrinks_3d.md A6
    assert round(gross_dies_per_wafer(290.0, 10.1**2), 1) == 583.7
    assert gross_dies_per_wafer(300.0, 100.0, edge_exclusion_mm=5.0) == pytest.approx(gross_dies_per_wafer(290.0, 100.0))
    assert poisson_yield(0.1, 100.0) == pytest.approx(math.exp(-0.1))
    assert poisson_yield(0.0, 100.0) == 1.0
    good = gross_dies_per_wafer(300.0, 100.0, 3.0) * poisson_yield(0.1, 100.0)
    assert cost_per_gb(5000.0, 100.0, 256.0, 0.1) == pytest.approx(5000.0 / (good * 32.0))


def test_shrink_returns_bit_cost_falls_and_savings_shrink():
    r = shrink_returns(NODES)
    assert r.bit_cost[-1] < 0.05 * r.bit_cost[0]
    first, last = np.nanmean(r.saving[1:4]), np.nanmean(r.saving[-3:])
    assert last < first
    assert r.wafer_cost[-1] > r.wafer_cost[0]


# ---- 3D NAND -----------------------------------------------------------------------------------


@pytest.mark.parametrize("point", DENSITY_POINTS, ids=[p.name for p in DENSITY_POINTS])
def test_3d_density_within_20_percent_of_published(point):
    model = point.stack().density_gb_mm2
    assert model == pytest.approx(point.density_gb_mm2, rel=0.20), (point.name, model)


def test_density_units_are_pinned_per_source():
    intel = next(p for p in DENSITY_POINTS if "PLC" in p.name)
    assert intel.unit == "binary" and intel.density_gb_mm2 == pytest.approx(23.3 * 2**30 / 1e9)
    assert 1.67 * 2**40 / 73.3 / 2**30 == pytest.approx(23.3, rel=0.01)  # binary Tb / mm² gives 23.3
    assert 85.3e9 * 3 == pytest.approx(256e9, rel=0.001)  # Samsung's 48L release divides decimal bits
    # nominal capacity over area is binary: 128 Gb on 68.9 mm² is 2.00 decimal Gb/mm²
    samsung = next(p for p in DENSITY_POINTS if "68.9" in p.name)
    assert samsung.unit == "binary" and samsung.density_gb_mm2 == pytest.approx(128 * 2**30 / 1e9 / 68.9, rel=0.01)


def test_array_efficiency_is_the_least_squares_fit():
    pub = np.array([p.density_gb_mm2 for p in DENSITY_POINTS])
    model = np.array([p.stack().density_gb_mm2 for p in DENSITY_POINTS])
    assert np.exp(np.mean(np.log(pub / model))) == pytest.approx(1.0, abs=0.003)


def test_patterning_double_at_19_nm_quadruple_at_16():
    np.testing.assert_array_equal(patterning_passes([50.0, 40.0, 35.0, 20.0, 19.0, 16.0, 14.0]),
                                  [1, 1, 2, 2, 2, 4, 4])


def test_bit_cost_u_curve_and_decks_escape_it():
    layers = np.arange(16, 801, 8)
    minima = {}
    for decks in (1, 2, 3):
        s = layer_sweep(layers, decks=decks)
        i = int(np.argmin(s.bit_cost))
        assert 0 < i < len(layers) - 1  # a U: falls, then rises
        minima[decks] = (s.layers[i], s.bit_cost[i])
    assert minima[1][0] < minima[2][0] < minima[3][0]
    assert minima[3][1] < minima[2][1] < minima[1][1]


def test_periphery_under_the_array_and_staircase_area():
    beside, under = Stack3D(64, 1, 3, "beside"), Stack3D(64, 1, 3, "under")
    assert beside.density_gb_mm2 == pytest.approx(under.density_gb_mm2 / 1.2)
    assert Stack3D(256).staircase_fraction == pytest.approx(2 * Stack3D(128).staircase_fraction, rel=0.1)
    assert bit_cost(GENERATIONS_3D[232]) < bit_cost(GENERATIONS_3D[32])


# ---- 3D charge trap ------------------------------------------------------------------------------


def test_early_retention_loss_is_fast_then_slow():
    m = cell_model(QLC_96L)
    r = [ct_worst_rber(m, 1000, d) for d in (0.0, 1 / 24, 1.0, 30.0, 365.0)]
    assert np.all(np.diff(r) > 0)
    assert r[1] / r[0] > 1.3  # the first hour already raises errors
    per_day_early = (r[2] - r[0]) / 1.0
    per_day_late = (r[4] - r[3]) / 335.0
    assert per_day_early > 100 * per_day_late


def test_layer_variation_bottom_layers_worst_and_retention_interference():
    m = cell_model(QLC_96L)
    lr = layer_rber(m, GENERATIONS_3D[96], 1000, 365)
    assert lr.rber.size == 96 and np.all(np.diff(lr.rber) > 0)  # top to bottom: worse
    assert lr.multiplier.mean() == pytest.approx(1.0)
    n = m.levels.n_states
    erased_nb, top_nb = (ct_worst_rber(m, 1000, 365, neighbour=k) for k in (0, n - 1))
    assert erased_nb > ct_worst_rber(m, 1000, 365) > top_nb
    d = charge_trap_distributions(m, 1000, 0.0)
    np.testing.assert_allclose(d.means, vth_distributions(m, 1000).means)


# ---- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("call, match", [
    (lambda: PlanarCell(-19.0), "feature_nm"),
    (lambda: node_sweep([25.0, -5.0]), "feature_nm"),
    (lambda: cell_model(TLC_1X, -16.0), "feature_nm"),
    (lambda: Stack3D(0), "layers"),
    (lambda: Stack3D(96, decks=0), "decks"),
    (lambda: Stack3D(128, hole_top_nm=100.0, taper_deg=0.5), "closes the hole"),
    (lambda: Stack3D(64, periphery="above"), "periphery"),
    (lambda: gross_dies_per_wafer(300.0, 0.0), "die_mm2"),
    (lambda: poisson_yield(-1.0, 100.0), "defects_per_cm2"),
    (lambda: electron_counts(100, 10, 1, capacity=50), "capacity"),
    (lambda: electron_counts(10, 0, 1), "n_cells"),
    (lambda: verify_overshoot(0.0, 10, 1), "step_electrons"),
    (lambda: verify_overshoot(1.0, 0, 1), "n_cells"),
    (lambda: PlanarCell(25.0).electrons_per_state(6), "bits"),
    (lambda: shrink_returns([14.0, 25.0]), "decreasing"),
    (lambda: layer_sweep([0, 16]), "layers"),
    (lambda: cell_model(QLC_96L, 19.0), "planar"),
    # found by tests/test_fuzz_api.py: each was accepted, or failed without naming its parameter
    (lambda: technology(MLC_2Y, "junk"), "feature_nm"),
    (lambda: technology(MLC_2Y, name=""), "name"),
    (lambda: dataclasses.replace(MLC_2Y, name=None), "name"),
    (lambda: dataclasses.replace(MLC_2Y, sources=("",)), "sources"),
    (lambda: dataclasses.replace(MLC_2Y, vth_changes=(("no_such_field", 1.0),)), "vth_changes"),
    (lambda: dataclasses.replace(MLC_2Y, vth_changes=(("retention_rate", float("nan")),)), "vth_changes"),
    (lambda: dataclasses.replace(MLC_2Y, vth_changes=(("retention_tau_days", -1.0),)), "vth_changes"),
    (lambda: dataclasses.replace(DENSITY_POINTS[0], unit="gigabits"), "unit"),
    (lambda: dataclasses.replace(DENSITY_POINTS[0], density=float("nan")), "density"),
    (lambda: dataclasses.replace(DENSITY_POINTS[0], layers=0), "layers"),
    (lambda: layer_wear_scale(GENERATIONS_3D[96], None), "effects"),
    (lambda: raw_coupling(None), "gen"),
    (lambda: shrink_sweep(MLC_2Y, [25.0], endurance="False"), "endurance"),
    (lambda: patterning_passes([[1.0], [1.0, 2.0]]), "feature_nm"),
    (lambda: layer_sweep([[32], [64, 96]]), "layers"),
    (lambda: layer_sweep([32.0, 64.0]), "layers"),
    # found by the deep fuzz (-m fuzz_deep): infinities returned, or the wrong parameter named
    (lambda: gross_dies_per_wafer(300.0, 5e-324), "die_mm2"),  # returned inf
    (lambda: cost_per_gb(3000.0, 60.0, 5e-324), "die_gbit"),  # returned inf
    (lambda: gross_dies_per_wafer(2.0, 60.0, 3.0), "wafer_mm"),
    (lambda: cost_per_gb(3000.0, 60.0, 256.0, wafer_mm=15.0), "wafer_mm"),
    (lambda: Stack3D(96, hole_top_nm=50.0), "hole_top_nm"),
    (lambda: dataclasses.replace(MLC_2Y, bits=1), "bits"),
    (lambda: charge_trap_distributions(cell_model(QLC_96L), 1000.0, wear_scale=5e-324), "wear_scale"),
])
def test_bad_input_raises_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_default_read_refs_of_every_preset_still_separate_states():
    for tech in PRESETS.values():
        refs = default_read_refs(tech.vth)
        means = vth_distributions(tech.vth).means
        assert np.all((refs > means[:-1]) & (refs < means[1:]))


# ---------------------------------------------------------------- the last fuzz findings (issue 29)
@pytest.mark.parametrize("call", [lambda: electron_counts(1e5, 10**8, 1), lambda: verify_overshoot(1000.0, 10**7, 1),
                                  lambda: verify_overshoot(0.01, 10**7, 1)])
def test_runs_of_hours_are_refused_up_front(call):
    """Inside the old documented bounds these ran for hours (10 ns per electron)."""
    with pytest.raises(ValueError, match="n_cells must be at most"):
        call()


def test_the_chapters_runs_stay_inside_the_work_bound():
    assert electron_counts(1000, 100_000, seed=1).size == 100_000  # chapter 4's largest
    assert verify_overshoot(60.0, 100_000, seed=1).size == 100_000


def test_unsigned_numpy_bits_are_stored_as_a_python_int():
    from flashlab.tech.generations import TLC_1X

    g = dataclasses.replace(TLC_1X, bits=np.uint64(3))
    assert type(g.bits) is int and g == TLC_1X


def test_a_fast_time_constant_of_a_denormal_is_refused():
    from flashlab.tech import ChargeTrapEffects

    with pytest.raises(ValueError, match="tau_fast_days"):
        ChargeTrapEffects(tau_fast_days=5e-324)
