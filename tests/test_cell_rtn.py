"""RTN with exponential amplitudes (flashlab.cell.rtn): the closed-form tail against a trap-by-trap
Monte Carlo oracle, its variance, and the RBER difference its tails make at 1X nm."""

from __future__ import annotations

import numpy as np
import pytest

from flashlab.cell import rber_analytic, vth_distributions
from flashlab.cell.rtn import rtn_pdf, rtn_rber, rtn_samples, rtn_tail
from flashlab.presets import TLC_1XNM
from flashlab.tech import TLC_1X, VOLTS_PER_UNIT, PlanarCell, cell_model


@pytest.mark.parametrize("g, lam", [(5.0, 3.0), (6.0, 1.0), (2.0, 4.0)])
def test_tail_matches_trap_by_trap_sampling(g, lam):
    x = rtn_samples(g, lam, 2_000_000, seed=3)
    assert x.var() == pytest.approx(g * g + lam * lam, rel=0.01)  # RTN adds lam**2, as a Gaussian would
    for k in (1.0, 2.0, 3.0, 4.0):
        d = k * np.sqrt(g * g + lam * lam)
        p = rtn_tail(d, g, lam)[0]
        hits = int((x > d).sum()) + int((x < -d).sum())  # both tails: the law is symmetric
        sd = np.sqrt(2 * 2_000_000 * p)
        assert abs(hits - 2 * 2_000_000 * p) < 4 * sd + 2, (k, hits, p)


def test_pdf_integrates_to_one_and_is_the_tails_derivative():
    d = np.linspace(-80.0, 80.0, 160_001)
    f = rtn_pdf(d, 4.0, 3.0)
    assert np.trapezoid(f, d) == pytest.approx(1.0, abs=1e-6)
    x = np.array([2.0, 9.0, 20.0])
    h = 1e-4
    slope = (rtn_tail(x + h, 4.0, 3.0) - rtn_tail(x - h, 4.0, 3.0)) / (2 * h)
    np.testing.assert_allclose(rtn_pdf(x, 4.0, 3.0), -slope, rtol=1e-5)


def test_tail_reduces_to_gaussian_without_rtn_and_is_exponential_far_out():
    d = np.array([0.0, 3.0, 10.0])
    from scipy.special import ndtr
    np.testing.assert_allclose(rtn_tail(d, 4.0, 0.0), ndtr(-d / 4.0))
    # far out the exponential wins: each extra lam of distance divides the tail by e
    far = rtn_tail(np.array([60.0, 63.0]), 4.0, 3.0)
    assert far[0] / far[1] == pytest.approx(np.e, rel=0.02)
    assert rtn_tail(1e6, 4.0, 3.0)[0] == 0.0


def test_gaussian_tails_reproduce_rber_analytic():
    dist = vth_distributions(TLC_1XNM.vth, 1000, 30)
    np.testing.assert_allclose(rtn_rber(dist, 3.0, tails="gaussian").rber, rber_analytic(dist).rber, rtol=1e-9)
    t = rtn_rber(dist, 3.0).transition
    np.testing.assert_allclose(t.sum(axis=1), 1.0, atol=1e-12)


def test_exponential_tails_set_the_fresh_rber_at_1x_nm_not_the_worn_one():
    # same variance, different tails: at 19 nm the fresh TLC cell's lower-page errors (set by the
    # narrow programmed states' tails) grow over 100-fold, the upper page's (set mostly by the wide
    # erased state) about 2.5-fold; after the rated 1,000 cycles and a year wear dominates and no
    # page's errors grow by 30%
    lam = PlanarCell(19.0).rtn_sigma_v / VOLTS_PER_UNIT
    m = cell_model(TLC_1X)
    fresh = vth_distributions(m)
    worn = vth_distributions(m, 1000, 365)
    ratio_fresh = rtn_rber(fresh, lam).rber / rtn_rber(fresh, lam, tails="gaussian").rber
    ratio_worn = rtn_rber(worn, lam).rber / rtn_rber(worn, lam, tails="gaussian").rber
    assert ratio_fresh[0] > 100.0 and ratio_fresh[1] > 20.0 and ratio_fresh[2] > 2.0
    assert np.all((ratio_worn > 1.0) & (ratio_worn < 1.3))


def test_bad_input_is_refused():
    dist = vth_distributions(TLC_1XNM.vth)
    with pytest.raises(ValueError, match="rtn_sigma"):
        rtn_rber(dist, 10.0)  # above the programmed sigma of 6
    with pytest.raises(ValueError, match="tails"):
        rtn_rber(dist, 1.0, tails="lognormal")
    with pytest.raises(ValueError, match="sigma_gauss"):
        rtn_tail(1.0, 0.0, 1.0)
