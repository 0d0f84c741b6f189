"""The "pick a drive" explorable (flashlab.viz.drives): every static grid point builds and differs,
its rates are the engine's, and it prints no percentile its sample cannot support."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from flashlab.drives import DRIVES
from flashlab.viz import drives as V


def test_static_builds_and_every_grid_point_differs():
    ex = V.pick_drive()
    st = ex.static()
    assert st.grid_size == len(DRIVES) * len(V.WORKLOADS)
    summaries = [ex.compute(drive=d, workload=w)["summary"]
                 for d, w in itertools.product(*(c.values for c in ex.controls))]
    assert len(set(summaries)) == len(summaries)


def test_rates_are_the_engines_and_the_datasheet_is_quoted():
    op, lat, rate, mb_s = V.drive_point("pm9a3", "random read")
    assert (op == 1).all() and np.isfinite(lat).all()
    assert mb_s == pytest.approx(rate * 4096 / 1e6)
    fig = DRIVES["pm9a3"].figure("random_read_iops")
    text = V.pick_drive().compute(drive=DRIVES["pm9a3"].name, workload="random read")["summary"]
    assert f"{fig.value:,.0f} IOPS" in text and f"{op.size:,} requests" in text


def test_percentiles_need_ten_requests_beyond_them():
    lat = np.arange(1, 1001, dtype=float)
    text = V.percentile_text(lat)
    assert "p99 " in text and "p99.9 " not in text and "(1,000 requests)" in text
    assert "p99.9 " in V.percentile_text(np.arange(1, 10001, dtype=float))
