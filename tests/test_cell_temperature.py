"""Arrhenius acceleration (flashlab.cell.temperature) against a conversion worked by hand and
against the JESD218 client-class retention table."""

from __future__ import annotations

import math

import pytest

from flashlab.cell import acceleration_factor, bake_hours, equivalent_hours

YEAR_H = 365.25 * 24


def test_bake_at_85_c_worked_by_hand():
    # 1/313.15 - 1/358.15 = 45 / (313.15 * 358.15) = 4.0123e-4 per K; times 1.1 / 8.617e-5 = 12765 K
    # gives 5.1217, and e^5.1217 = 167.6: one hour at 85 C stands for 167.6 hours at 40 C
    assert acceleration_factor(85.0, 40.0) == pytest.approx(167.6, rel=0.002)
    # so a year at 40 C (8,766 h) takes 52.3 hours of bake, and a 100-hour bake is 1.91 years
    assert bake_hours(YEAR_H, 85.0, 40.0) == pytest.approx(52.3, rel=0.005)
    assert equivalent_hours(100.0, 85.0, 40.0) / YEAR_H == pytest.approx(1.91, rel=0.005)


@pytest.mark.parametrize("stress_c, hours", [(52.0, 500.0), (66.0, 96.0)])
def test_jesd218_client_retention_table(stress_c, hours):
    # JESD218 client: a year at 30 C, or 500 h at 52 C, or 96 h at 66 C (1.1 eV); within 5%
    assert bake_hours(YEAR_H, stress_c, 30.0) == pytest.approx(hours, rel=0.05)


def test_hetzler_measured_far_less_acceleration_than_arrhenius():
    # 1.1 eV predicts 702x from 40 to 100 C; Hetzler measured 13x: an effective Ea near 0.4 eV
    assert acceleration_factor(100.0, 40.0) == pytest.approx(702.0, rel=0.005)
    ea = math.log(13.0) * 8.617333262e-5 / (1 / 313.15 - 1 / 373.15)
    assert 0.35 < ea < 0.45
    assert acceleration_factor(100.0, 40.0, ea) == pytest.approx(13.0, rel=1e-6)


def test_no_acceleration_at_the_use_temperature_and_bad_input_refused():
    assert acceleration_factor(40.0, 40.0) == 1.0
    assert acceleration_factor(25.0, 40.0) < 1.0  # colder than use: slower
    for call, name in ((lambda: acceleration_factor(400.0, 40.0), "stress_c"),
                       (lambda: acceleration_factor(85.0, 40.0, -1.0), "ea_ev"),
                       (lambda: bake_hours(-1.0, 85.0, 40.0), "use_hours")):
        with pytest.raises(ValueError, match=name):
            call()
