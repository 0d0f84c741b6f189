"""Array explorables: their data are the engine's (flashlab.array) or the stated formula,
static() builds, and moving any control changes what is plotted."""

from __future__ import annotations

import math

import numpy as np
import pytest

from flashlab.array import array_capacity
from flashlab.viz.array import build_array, stripe_tail, waterfall_columns
from test_viz_levels import _columns_equal

FACTORIES = {"build_array": build_array, "stripe_tail": stripe_tail}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_static_builds_and_grid_points_differ(name):
    ex = FACTORIES[name]()
    assert ex.static().grid_size == int(np.prod([len(c.values) for c in ex.controls]))
    base = ex.compute(**ex.defaults())
    for c in ex.controls:
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), (name, c.name)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_every_live_setting_computes(name):
    ex = FACTORIES[name]()
    for c in ex.controls:
        for v in c.live_values:
            ex.compute(**dict(ex.defaults(), **{c.name: v}))


def test_waterfall_bars_are_the_capacity_steps():
    cap = array_capacity(12, 3.84e12, raid=6, op=0.07, system_reserve=0.03, data_reduction=6.0)
    cols = waterfall_columns(cap)
    assert cols["step"] == [s.name for s in cap.steps]
    assert cols["top"][0] == pytest.approx(cap.raw_bytes / 1e12)
    assert cols["top"][5] == pytest.approx(cap.usable_bytes / 1e12) and cols["bottom"][5] == 0
    assert cols["top"][6] == pytest.approx(cap.effective_bytes / 1e12)
    # Each deduction floats from what is left up to what there was before it.
    for i in range(1, 5):
        assert cols["bottom"][i] == pytest.approx(cap.steps[i].bytes / 1e12)
        assert cols["top"][i] == pytest.approx(cap.steps[i - 1].bytes / 1e12)
    data = build_array().compute(drives=12, drive_tb=3.84, raid=6, op=0.07, ratio=6.0)
    assert _columns_equal(data["bars"], cols)


def test_stripe_tail_is_the_order_statistics_formulas():
    data = stripe_tail().compute(members=100, p_slow=0.01)
    assert data["now"]["p"][0] == pytest.approx(63.396765872677086)  # Dean & Barroso: 63%
    h10 = sum(1.0 / k for k in range(1, 11))
    assert data["curve"]["h"][9] == pytest.approx(h10) and math.isclose(h10, 2.9289682539682538)
