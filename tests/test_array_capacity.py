"""Capacity arithmetic (flashlab.array.capacity) against hand-worked examples, exactly.

The examples are flashdba's (2015): 18 packages of 32 GB inside a 400 GB SSD are 576 GB raw;
10 TB usable at 6:1 is 60 TB effective. RAID efficiencies are worked by hand for RAID-6 8+2 and
the other levels; decimal and binary units by powers of ten and two.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flashlab.array import (DATA_REDUCTION_CLAIMS, RAID_MIN_DRIVES, UNITS, array_capacity, drive_capacity, in_units)

GB, TB, GiB, TiB = 10**9, 10**12, 2**30, 2**40


def test_the_400_gb_drive_with_576_gb_raw():
    d = drive_capacity(18, 32 * GB, 400 * GB)
    assert d.raw_bytes == 576 * GB
    assert d.user_bytes == 400 * GB
    assert d.hidden_bytes == 176 * GB
    assert d.op == 0.44  # 176 / 400


def test_the_same_drive_if_its_packages_are_binary_sized():
    # If each package held 32 GiB, the drive would hide more than the decimal reading suggests.
    d = drive_capacity(18, 32 * GiB, 400 * GB)
    assert d.raw_bytes == 18 * 32 * 2**30 == 618_475_290_624
    assert d.hidden_bytes == 218_475_290_624
    assert d.op == pytest.approx(218_475_290_624 / 400e9, rel=1e-15)


def test_raid6_8_plus_2_and_10_tb_usable_at_6_to_1_is_60_tb_effective():
    c = array_capacity(10, 1.25 * TB, raid=6, data_reduction=6.0)
    assert c.raw_bytes == 12.5 * TB
    assert c.step("RAID").bytes == 10 * TB and c.step("RAID").removed_bytes == 2.5 * TB  # 8/10 of raw
    assert "8+2" in c.step("RAID").why
    assert c.usable_bytes == 10 * TB
    assert c.effective_bytes == 60 * TB
    assert c.step("effective").removed_bytes == -50 * TB


def test_every_step_in_order_and_the_waterfall_adds_up():
    c = array_capacity(24, 3.84 * TB, raid=6, group_width=11, spares=2, op=0.07, system_reserve=0.05,
                       data_reduction=3.0)
    assert [s.name for s in c.steps] == ["raw", "spares", "RAID", "over-provisioning", "system reserve", "usable",
                                         "effective"]
    before = c.raw_bytes
    for s in c.steps[1:]:
        assert s.bytes == pytest.approx(before - s.removed_bytes, rel=1e-15)
        before = s.bytes
    # By hand: 22 data drives in 2 groups of 9+2, then / 1.07, then x 0.95.
    raid = Fraction(22) * Fraction(3.84 * TB) * Fraction(9, 11)
    assert c.step("spares").bytes == 22 * 3_840_000_000_000
    assert c.step("RAID").bytes == float(raid)
    assert c.usable_bytes == pytest.approx(float(raid) / 1.07 * 0.95, rel=1e-15)
    assert c.effective_bytes == pytest.approx(3 * c.usable_bytes, rel=1e-15)


@pytest.mark.parametrize("raid, drives, width, fraction", [
    (0, 4, None, Fraction(1)), (1, 2, 2, Fraction(1, 2)), (1, 8, 2, Fraction(1, 2)), (10, 8, None, Fraction(1, 2)),
    (5, 5, None, Fraction(4, 5)), (5, 12, 4, Fraction(3, 4)), (6, 10, None, Fraction(8, 10)),
    (6, 12, 6, Fraction(4, 6)),
])
def test_raid_efficiency_by_level(raid, drives, width, fraction):
    c = array_capacity(drives, 1 * TB, raid=raid, group_width=width)
    assert c.usable_bytes == float(drives * TB * fraction)


def test_decimal_and_binary_units():
    assert in_units(1 * TB, "TB") == 1.0
    assert in_units(1 * TiB, "TB") == 1.099511627776
    assert in_units(10 * TB, "TiB") == pytest.approx(9.094947017729282, rel=1e-15)
    assert in_units(400 * GB, "GiB") == pytest.approx(372.52902984619140625, rel=1e-15)
    assert UNITS["GiB"] == 1024 * UNITS["MiB"] and UNITS["GB"] == 1000 * UNITS["MB"]
    c = array_capacity(10, 1.25 * TB, raid=6, data_reduction=6.0)
    lines = c.table("TiB").splitlines()
    assert lines[5].split()[1] == "9.09" and lines[6].split()[1] == "54.57"  # usable, effective in TiB
    assert c.table("TB").splitlines()[6].split()[1] == "60.00"


def test_claimed_ratios_are_the_sources_and_average_six():
    assert DATA_REDUCTION_CLAIMS["databases"] == (2.0, 4.0)
    assert DATA_REDUCTION_CLAIMS["server virtualisation (VSI)"] == (5.0, 6.0)
    assert DATA_REDUCTION_CLAIMS["desktop virtualisation (VDI)"] == (8.0, 18.0)
    assert DATA_REDUCTION_CLAIMS["data-sheet average"] == (6.0, 6.0)


@given(drives=st.integers(4, 60), spares=st.integers(0, 3), op=st.floats(0, 1), reserve=st.floats(0, 0.5),
       drr=st.floats(1, 20), raid=st.sampled_from([0, 5, 6, 10]))
def test_usable_never_exceeds_raw_and_effective_scales_usable(drives, spares, op, reserve, drr, raid):
    spares = min(spares, drives - RAID_MIN_DRIVES[raid])
    if raid == 10 and (drives - spares) % 2:
        spares -= 1 if spares else -1
    c = array_capacity(drives, 2 * TB, raid=raid, spares=spares, op=op, system_reserve=reserve, data_reduction=drr)
    assert 0 < c.usable_bytes <= c.raw_bytes
    assert all(s.removed_bytes >= 0 for s in c.steps[:-1])
    assert c.effective_bytes == pytest.approx(drr * c.usable_bytes, rel=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    (dict(drives=3, drive_bytes=TB, raid=6), r"drives must be at least 4 for raid=6 \(RAID-6\); got 3"),
    (dict(drives=2, drive_bytes=TB, raid=5), r"drives must be at least 3 for raid=5 \(RAID-5\); got 2"),
    (dict(drives=3, drive_bytes=TB, raid=10), "drives must be at least 4 for raid=10"),
    (dict(drives=10, drive_bytes=TB, raid=6, data_reduction=0.5), r"data_reduction must be in \[1, 1000\]; got 0.5"),
    (dict(drives=10, drive_bytes=TB, raid=7), "raid must be one of 0, 1, 10, 5, 6; got 7"),
    (dict(drives=10, drive_bytes=TB, raid=6, group_width=4), "group_width must divide the 10 drives"),
    (dict(drives=10, drive_bytes=TB, raid=6, spares=7), r"spares must be in \[0, 6\]; got 7"),
    (dict(drives=4, drive_bytes=TB, raid=1), "group_width must be 2 for raid=1"),
    (dict(drives=6, drive_bytes=TB, raid=10, group_width=5), "group_width must be even for raid=10"),
    (dict(drives=10, drive_bytes=0.0, raid=6), "drive_bytes must be in"),
    (dict(drives=10, drive_bytes=TB, raid=6, op=-0.1), "op must be in"),
    (dict(drives=10, drive_bytes=TB, raid=6, system_reserve=1.0), "system_reserve must be in"),
    (dict(drives=10, drive_bytes=TB, raid="6"), "raid must be one of"),
])
def test_bad_input_names_the_parameter_value_and_range(kwargs, match):
    with pytest.raises(ValueError, match=match):
        array_capacity(**kwargs)


def test_bad_drive_and_unit_input():
    with pytest.raises(ValueError, match="user_bytes must be at most the raw capacity, packages x package_bytes = 18 x 3.2e[+]10 = 5.76e[+]11 bytes; got 6e[+]11"):
        drive_capacity(18, 32 * GB, 600 * GB)
    with pytest.raises(ValueError, match="unit must be one of"):
        in_units(TB, "tb")
    with pytest.raises(ValueError, match="name must be one of"):
        array_capacity(10, TB).step("net")
