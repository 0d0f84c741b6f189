"""Vth distributions (Cai-calibrated), RBER analytic vs Monte Carlo, read-retry."""

import dataclasses
import math

import numpy as np
import pytest

from flashlab.cell.calibration import CAI2017_TOLERANCE_UNITS, cai2017_comparison
from flashlab.cell.distributions import vth_distributions
from flashlab.cell.errors import (
    default_read_refs,
    optimal_read_refs,
    rber_analytic,
    rber_monte_carlo,
    read_retry,
)
from flashlab.presets import PRESETS, TLC_1XNM


def test_tlc_preset_reproduces_cai_2017_within_tolerance():
    cmp = cai2017_comparison(TLC_1XNM.vth)
    assert cmp.states == TLC_1XNM.vth.levels.state_names
    assert cmp.measured.shape == cmp.modelled.shape == (6, 8)
    assert cmp.worst <= CAI2017_TOLERANCE_UNITS, dict(zip(cmp.columns, np.abs(cmp.deviation).max(axis=1)))
    # the fresh means are taken from the table, not fitted
    fresh = cmp.columns.index("mean_pe0")
    np.testing.assert_allclose(cmp.modelled[fresh], cmp.measured[fresh], atol=1e-9)


def test_cai_2017_comparison_evaluates_the_model_at_the_table_points():
    cmp = cai2017_comparison(TLC_1XNM.vth)
    assert cmp.measured[cmp.columns.index("sigma_year1"), 0] == 45.9  # ER width after 2K P/E and a year
    for i, (q, pe, days) in enumerate(zip(cmp.quantity, cmp.pe_cycles, cmp.retention_days)):
        d = vth_distributions(TLC_1XNM.vth, pe, days)
        np.testing.assert_array_equal(cmp.modelled[i], d.means if q == "mean" else d.sigmas)
    with pytest.raises(ValueError, match="model must be a TLC model .8 states.*got one with 4"):
        cai2017_comparison(PRESETS["mlc"].vth)
    with pytest.raises(ValueError, match="model"):
        cai2017_comparison(TLC_1XNM)


def test_wear_and_retention_move_states_the_documented_way():
    m = TLC_1XNM.vth
    fresh, worn = vth_distributions(m), vth_distributions(m, 3000)
    assert np.all(worn.sigmas > fresh.sigmas)
    day, year = vth_distributions(m, 2000, 1), vth_distributions(m, 2000, 365)
    assert year.means[0] > day.means[0] and year.means[1] > day.means[1]  # low states up
    assert year.means[-1] < day.means[-1]  # high states down
    assert np.all(year.sigmas[1:] > day.sigmas[1:])  # programmed states widen


def test_read_disturb_lifts_erased_state_most_and_grows_with_vpass():
    m = TLC_1XNM.vth
    base, disturbed = vth_distributions(m, 1000), vth_distributions(m, 1000, reads=1e6)
    shift = disturbed.means - base.means
    assert shift[0] > 1.0 and np.all(np.diff(shift) < 0)
    hot = vth_distributions(m, 1000, reads=1e6, vpass=1.05)
    assert hot.means[0] - base.means[0] > shift[0]


def test_program_interference_shifts_and_widens():
    m = dataclasses.replace(TLC_1XNM.vth, coupling_ratio=0.02, aggressors=2)
    plain, coupled = vth_distributions(dataclasses.replace(m, coupling_ratio=0.0)), vth_distributions(m)
    dv = np.array(m.means) - m.means[0]
    assert coupled.means - plain.means == pytest.approx(np.full(8, 0.02 * 2 * dv.mean()))
    assert np.all(coupled.sigmas > plain.sigmas)
    assert np.all(rber_analytic(coupled).rber > rber_analytic(plain).rber)


def test_pdf_rows_integrate_to_one_and_match_cdf():
    d = vth_distributions(TLC_1XNM.vth, 2000, 30)
    v = np.linspace(-500, 800, 20001)
    assert np.trapezoid(d.pdf(v), v, axis=1) == pytest.approx(np.ones(8), abs=1e-6)
    assert d.cdf([1e4])[:, 0] == pytest.approx(np.ones(8))


@pytest.mark.parametrize("name,pe,days", [("tlc", 3000, 365), ("tlc", 2000, 30), ("qlc", 2000, 30), ("mlc", 8000, 365)])
def test_monte_carlo_agrees_with_analytic_within_statistical_error(name, pe, days):
    d = vth_distributions(PRESETS[name].vth, pe, days)
    n = 2_000_000
    an = rber_analytic(d)
    mc = rber_monte_carlo(d, n, seed=11)
    expected = n * an.rber
    assert np.all(expected > 30), expected  # enough errors for a meaningful test
    z = (mc.errors - expected) / np.sqrt(expected * (1.0 - an.rber))
    assert np.all(np.abs(z) < 4.5), z
    # the same comparison with custom (read-retry) references
    refs = optimal_read_refs(d)
    z2 = (rber_monte_carlo(d, n, seed=12, refs=refs).rber - rber_analytic(d, refs).rber) * n
    assert np.all(np.abs(z2) < 4.5 * np.sqrt(n * rber_analytic(d, refs).rber))


def test_monte_carlo_is_deterministic_per_seed():
    d = vth_distributions(TLC_1XNM.vth, 3000, 365)
    a, b = rber_monte_carlo(d, 300_001, seed=5), rber_monte_carlo(d, 300_001, seed=5)
    assert np.array_equal(a.errors, b.errors)
    assert not np.array_equal(a.errors, rber_monte_carlo(d, 300_001, seed=6).errors)


def test_transition_matrix_is_stochastic_and_gray_gives_one_bit_per_neighbour():
    an = rber_analytic(vth_distributions(TLC_1XNM.vth, 3000, 365))
    assert an.transition.sum(axis=1) == pytest.approx(np.ones(8))
    # adjacent-state misreads dominate: total bit errors ~ cell misread rate (one bit each)
    misread = 1.0 - np.trace(an.transition) / 8
    assert an.rber.sum() == pytest.approx(misread, rel=0.02)


@pytest.mark.parametrize("name", ["slc", "mlc", "tlc", "qlc"])
def test_rber_rises_with_pe_retention_and_reads(name):
    m = PRESETS[name].vth

    def worst(**kw):
        return rber_analytic(vth_distributions(m, **kw)).rber

    assert np.all(worst(pe_cycles=3000) > worst(pe_cycles=300))
    assert np.all(worst(pe_cycles=1000, retention_days=365) > worst(pe_cycles=1000, retention_days=1))
    assert np.all(worst(pe_cycles=1000, reads=1e6) >= worst(pe_cycles=1000, reads=1e3))
    assert worst(pe_cycles=1000, reads=1e6).max() > worst(pe_cycles=1000, reads=1e3).max()


@pytest.mark.parametrize("pe,days,reads", [(0, 0, 0), (1000, 30, 0), (3000, 365, 0), (2000, 10, 1e6), (3000, 365, 1e5)])
def test_optimal_refs_never_worse_than_defaults_or_nearby_refs(pe, days, reads):
    for tech in PRESETS.values():
        d = vth_distributions(tech.vth, pe, days, reads)
        rr = read_retry(d)
        assert np.all(rr.optimal.rber <= rr.default.rber * (1 + 1e-12))
        assert np.all(rr.recovered >= -1e-12)
        opt = optimal_read_refs(d)
        # a local minimum ref by ref, up to the tails of non-adjacent states that the pairwise
        # crossing point ignores (they matter only when distributions overlap heavily)
        for k in range(opt.size):
            for step in (-2.0, 2.0):
                moved = opt.copy()
                moved[k] += step
                if np.all(np.diff(moved) > 0):
                    assert rber_analytic(d, moved).rber.sum() >= rber_analytic(d, opt).rber.sum() * (1 - 1e-3)


def test_read_retry_recovers_errors_after_wear():
    rr = read_retry(vth_distributions(TLC_1XNM.vth, 3000, 365))
    assert rr.recovered.max() > 0.3


def test_default_refs_are_fresh_optimum_between_means():
    m = TLC_1XNM.vth
    refs = default_read_refs(m)
    assert np.all(refs > np.array(m.means[:-1])) and np.all(refs < np.array(m.means[1:]))
    d = vth_distributions(dataclasses.replace(m, sigma_erased=m.sigma_programmed))  # equal sigmas -> midpoints
    mid = 0.5 * (d.means[:-1] + d.means[1:])
    assert optimal_read_refs(d) == pytest.approx(mid)


_M = TLC_1XNM.vth
_D = vth_distributions(_M, 1000)


@pytest.mark.parametrize(
    "call",
    [
        lambda: dataclasses.replace(_M, means=(0.0, 1.0, 2.0)),
        lambda: dataclasses.replace(_M, means=(0.0, 5.0, 3.0, 9.0)),
        lambda: dataclasses.replace(_M, means=[0.0, 100.0]),
        lambda: dataclasses.replace(_M, sigma_programmed=0.0),
        lambda: dataclasses.replace(_M, sigma_erased=float("nan")),
        lambda: dataclasses.replace(_M, ispp_step=100.0),
        lambda: dataclasses.replace(_M, wear_shift_exp=-1.0),
        lambda: dataclasses.replace(_M, retention_tau_days=0.0),
        lambda: dataclasses.replace(_M, coupling_ratio=0.9),
        lambda: dataclasses.replace(_M, aggressors=-1),
        lambda: dataclasses.replace(_M, wear_rate=0.0),
        lambda: vth_distributions("tlc"),
        lambda: vth_distributions(_M, pe_cycles=-1),
        lambda: vth_distributions(_M, retention_days=float("inf")),
        lambda: vth_distributions(_M, reads="many"),
        lambda: vth_distributions(_M, vpass=2.0),
        lambda: rber_analytic(_M),
        lambda: rber_analytic(_D, refs=[1.0, 2.0]),
        lambda: rber_analytic(_D, refs=np.arange(7.0)[::-1]),
        lambda: rber_analytic(_D, refs=[0, 1, 2, 3, 4, 5, float("nan")]),
        lambda: rber_monte_carlo(_D, 0, seed=1),
        lambda: rber_monte_carlo(_D, 100, seed=-1),
        lambda: rber_monte_carlo(_D, 100, seed=1.5),
        lambda: optimal_read_refs(None),
        lambda: read_retry(_M),
        lambda: default_read_refs(_D),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_validation_message_names_parameter():
    with pytest.raises(ValueError, match=r"pe_cycles must be in \[0, 1e\+07\]; got -5"):
        vth_distributions(_M, pe_cycles=-5)
    assert math.isfinite(rber_analytic(_D).mean)
