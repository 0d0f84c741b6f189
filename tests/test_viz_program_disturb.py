"""Chapter 3's program-disturb explorable: its numbers are the engine's, the static grid builds,
moving either control changes what is plotted, and the live dashboard shows the grid's data."""

from __future__ import annotations

import numpy as np
import pytest

from flashlab.cell import BOOSTING_2XNM, FG_CELL_2XNM, ISPE_2XNM, ISPP_SLC_2XNM, erase_block, program_disturb, program_page
from flashlab.viz.cell import PROGRAMS_VALUES, VPASS_VALUES, program_disturb_window
from test_viz_levels import _assert_live_shows_grid, _columns_equal

N, SEED = 4000, 2


@pytest.fixture(scope="module")
def ex():
    return program_disturb_window(n_cells=N, seed=SEED)


def test_counts_are_the_engines(ex):
    page = program_page(FG_CELL_2XNM, ISPP_SLC_2XNM, N, seed=SEED)
    erased = erase_block(FG_CELL_2XNM, page.vth, ISPE_2XNM, seed=SEED).vth
    for order in ("sequential", "random"):
        data = ex.compute(v_pass=5.0, order=order, programs=63)
        want = [program_disturb(FG_CELL_2XNM, ISPP_SLC_2XNM, BOOSTING_2XNM, v, erased, page.page_pulses,
                                order=order, seed=SEED) for v in VPASS_VALUES]
        np.testing.assert_array_equal(data["curve"]["total"], [r.fails for r in want])
        np.testing.assert_array_equal(data["curve"]["vpgm"], [r.fails_vpgm for r in want])
        assert data["here"]["total"] == [want[VPASS_VALUES.index(5.0)].fails]
        assert abs(data["hist"]["after"].sum() - 100.0) < 1.0  # a histogram of the cells, in %
    # the U: fails at both ends of the grid, none in the middle
    total = ex.compute(v_pass=8.0, order="sequential", programs=63)["curve"]["total"]
    assert total[0] > 0 and total[-1] > 0 and total[VPASS_VALUES.index(8.0)] == 0
    # fewer programs since the erase, less Vpass disturb: the erased histogram sits lower
    tail = [ex.compute(v_pass=12.0, order="sequential", programs=n)["hist"]["after"] for n in PROGRAMS_VALUES]
    v = ex.compute(v_pass=12.0, order="sequential", programs=0)["hist"]["v"]
    means = [float((h * v).sum() / h.sum()) for h in tail]
    assert np.all(np.diff(means) > 0)


def test_static_builds_and_controls_move_the_plot(ex):
    st = ex.static()
    assert st.grid_size == len(VPASS_VALUES) * 2 * len(PROGRAMS_VALUES)
    base = ex.compute(**ex.defaults())
    for c in ex.controls:
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), c.name


def test_live_shows_the_static_grid(ex):
    st = ex.static()
    (cb,) = {cb for s in st.sliders for cb in s.js_property_callbacks["change:value"]}
    _assert_live_shows_grid(ex, cb.args["grid"], "program_disturb_window")
