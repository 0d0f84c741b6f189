"""Chapters 2-3 explorables: their numbers agree with the engine, each static() builds, and
neighbouring grid points plot different data."""

from __future__ import annotations

import numpy as np
import pytest
from bokeh.models import FixedTicker, VArea

from flashlab.cell import (CAI2017_TOLERANCE_UNITS, UBER_CLIENT, EccCode, cai2017_comparison, correctable_rber,
                           default_read_refs, endurance_pe_cycles, gentle_programming, optimal_read_refs,
                           rber_analytic, read_latency_us, vth_distributions)
from flashlab.presets import MLC_2YNM, PRESETS, QLC_3D, TLC_1XNM
from flashlab.viz.levels import (UBER_FLOOR, _clamp_refs, bake_test, bits_per_cell, cai_calibration, ecc_strength,
                                 gentle_programming_trade, gray_label, read_points, soft_decoding,
                                 wear)

FACTORIES = {
    "bits_per_cell": lambda: bits_per_cell(n_pages=300),
    "read_points": read_points,
    "wear": lambda: wear(pe_values=(0, 1000), days_values=(0, 365), reads_values=(0, 1_000_000)),
    "ecc_strength": lambda: ecc_strength(t_values=(24, 40)),
    "gentle_programming_trade": lambda: gentle_programming_trade(scales=(0.5, 1.0)),
    "bake_test": bake_test,
    "soft_decoding": lambda: soft_decoding(_small_curves(), pe_values=(0, 1500, 3000)),
}


def _small_curves():
    """Frame error rate curves shaped like the decoder's (each ends where every frame fails): the
    explorable's input, without running the decoder."""
    from flashlab.cell import FerCurve
    return {k: FerCurve(np.geomspace(lo, 4 * lo, 4), np.array([0.0, 0.05, 0.6, 1.0]), 200, k)
            for k, lo in ((0, 3e-3), (2, 7e-3), (6, 9e-3))}


def _columns_equal(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if set(a) != set(b):
        return False
    for k in a:
        x, y = np.asarray(a[k]), np.asarray(b[k])
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "fiu":
            if not np.array_equal(x, y, equal_nan=True):
                return False
        elif list(x) != list(y):
            return False
    return True


def _assert_live_shows_grid(ex, grid, label) -> None:
    """One explorable, two engines: move every live slider of ``ex`` to a grid value that is not
    its default; the figure the live dashboard redraws must hold the same data as ``grid`` (the
    static grid's per-point targets) at those settings. ``label`` names the case in failures."""
    import itertools

    from flashlab.viz.explorable import Explorable, _column_data

    shown = {}

    def figure(data):
        layout, targets = ex.figure(data)
        shown.update(targets)
        return layout, targets

    box = Explorable(ex.compute, figure, ex.controls).live()
    combo = [next(v for v in c.values if v != c.default) for c in ex.controls]
    for slider, v in zip(box.children, combo):
        slider.value = v
    k = list(itertools.product(*(c.values for c in ex.controls))).index(tuple(combo))
    assert shown, label
    for target, model in shown.items():
        if isinstance(grid[k][target], str):
            assert model.text == grid[k][target], (label, target)
        else:
            assert _columns_equal(_column_data(model.data), grid[k][target]), (label, target)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_static_builds_and_grid_points_differ(name):
    ex = FACTORIES[name]()
    st = ex.static()
    assert st.grid_size == int(np.prod([len(c.values) for c in ex.controls]))
    base = ex.compute(**ex.defaults())
    for c in ex.controls:  # moving any one control away from its default changes what is plotted
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), (name, c.name)


def test_bits_per_cell_matches_levels_and_latency():
    ex = bits_per_cell(n_pages=300)
    for cell, key in (("SLC", "slc"), ("MLC", "mlc"), ("TLC", "tlc"), ("QLC", "qlc")):
        tech = PRESETS[key]
        data = ex.compute(cell=cell)
        lv = tech.vth.levels
        np.testing.assert_allclose(data["latency"]["lat"], read_latency_us(tech.timing))
        np.testing.assert_array_equal(data["latency"]["senses"], lv.senses)
        assert data["hist"]["count"].sum() == 300
        assert len(data["refs"]["x0"]) == lv.n_states - 1
        np.testing.assert_allclose(data["refs"]["x0"], default_read_refs(tech.vth))
        # unused state columns are NaN, used ones integrate to 1/n_states over the window
        dens = data["density"]
        v = dens["v"]
        for s in range(16):
            if s < lv.n_states:
                assert abs(np.trapezoid(dens[f"s{s}"], v) - 1.0 / lv.n_states) < 0.02 / lv.n_states
            else:
                assert np.isnan(dens[f"s{s}"]).all()


def test_gray_labels_follow_the_nand_convention():
    from flashlab.cell import cell_levels

    assert [gray_label(cell_levels(2), s) for s in range(4)] == ["11", "01", "00", "10"]
    labels = [gray_label(cell_levels(3), s) for s in range(8)]
    assert labels[0] == "111"
    assert all(sum(a != b for a, b in zip(x, y)) == 1 for x, y in zip(labels, labels[1:]))


def test_read_points_rber_matches_engine_and_only_the_owner_page_moves():
    ex = read_points()
    dist = vth_distributions(TLC_1XNM.vth)
    refs = default_read_refs(TLC_1XNM.vth)
    base = ex.compute(ref="all", shift=0)
    np.testing.assert_allclose(base["rber"]["rber"], np.maximum(rber_analytic(dist, refs).rber, 1e-12), rtol=1e-12)
    moved = ex.compute(ref="V4", shift=20)
    shifted = refs.copy()
    shifted[3] += 20
    np.testing.assert_allclose(moved["rber"]["rber"], rber_analytic(dist, shifted).rber, rtol=1e-12)
    # V4 belongs to the LSB page: only the LSB RBER changes
    assert moved["rber"]["rber"][0] > 100 * base["rber"]["rber"][0]
    np.testing.assert_allclose(moved["rber"]["rber"][1:], base["rber"]["rber"][1:])


def test_read_points_stay_strictly_increasing_for_qlc():
    ex = read_points(QLC_3D)
    data = ex.compute(ref="V3", shift=40)  # further than the next read point
    assert np.all(np.diff(data["refs"]["x0"]) > 0)
    assert np.all(np.diff(_clamp_refs(np.array([1.0, 1.0, 0.5]))) > 0)


def test_wear_numbers_match_engine():
    ex = wear(pe_values=(0, 1000), days_values=(0, 365), reads_values=(0, 1_000_000))
    data = ex.compute(pe=1000, days=365, reads=0)
    d = vth_distributions(TLC_1XNM.vth, 1000, 365)
    np.testing.assert_allclose(data["optimal"]["x0"], optimal_read_refs(d))
    np.testing.assert_allclose(data["now"]["rber"], rber_analytic(d, optimal_read_refs(d)).rber, rtol=1e-12)
    life = endurance_pe_cycles(TLC_1XNM.vth, TLC_1XNM.ecc, 365, 0)
    assert data["life"]["x"][0] == pytest.approx(life)
    assert abs(life - 993) < 10
    # far beyond the states' crossing the explorable reports lost data instead of failing
    lost = wear(TLC_1XNM, pe_values=(0, 20_000)).compute(pe=20_000, days=0, reads=0)
    assert "lost" in lost["summary"]


def test_uber_axis_labels_the_target_and_keeps_one_minor_tick_a_decade():
    """The UBER axis spans 28 decades: its labels include the JESD218 client target, and its minor
    ticks (one a decade) no longer crowd into a smudge at each label as the automatic ones did."""
    ex = ecc_strength(t_values=(24, 40))
    layout, _ = ex.figure(ex.compute(t=40))
    p1 = layout.children[1]
    ticker = p1.yaxis[0].ticker
    assert isinstance(ticker, FixedTicker)
    assert UBER_CLIENT in ticker.ticks and min(ticker.ticks) == UBER_FLOOR == p1.y_range.start
    decades = np.log10(ticker.minor_ticks)
    np.testing.assert_allclose(np.diff(decades), 1.0)
    assert decades[0] == np.log10(UBER_FLOOR) and 10 ** decades[-1] <= p1.y_range.end


def test_ecc_strength_and_emlc_trade_match_engine():
    data = ecc_strength(t_values=(24, 40)).compute(t=40)
    assert data["limit_u"]["x"][0] == pytest.approx(correctable_rber(EccCode(40, 1024)))
    assert data["life"]["x"][0] == pytest.approx(endurance_pe_cycles(TLC_1XNM.vth, EccCode(40, 1024), 365))
    trade = gentle_programming_trade(scales=(0.5, 1.0))
    half = trade.compute(scale=0.5)
    model, timing = gentle_programming(MLC_2YNM.vth, MLC_2YNM.timing, 0.5)
    assert half["here"]["prog"][0] == pytest.approx(timing.mean_prog_us)
    assert half["here"]["life"][0] == pytest.approx(endurance_pe_cycles(model, MLC_2YNM.ecc, 365))
    full = trade.compute(scale=1.0)
    assert half["here"]["life"][0] > 5 * full["here"]["life"][0]


def test_cai_calibration_plots_the_engine_comparison_inside_the_tested_band():
    fig = cai_calibration()
    assert fig.grid_size == 1
    top, bottom = fig.layout.children
    table = cai2017_comparison(TLC_1XNM.vth)
    # bottom: one marker series per column of the table, the model's deviation from the measurement
    dev = [r.data_source.data for r in bottom.renderers if "measured" in r.data_source.data]
    assert len(dev) == len(table.columns)
    for i, d in enumerate(dev):
        np.testing.assert_array_equal(d["y"], table.deviation[i])
        np.testing.assert_allclose(np.round(d["x"]), np.arange(8))  # beside their state
        assert list(d["state"]) == list(table.states)
    (band,) = [r for r in bottom.renderers if isinstance(r.glyph, VArea)]
    assert band.glyph.y1 == -CAI2017_TOLERANCE_UNITS and band.glyph.y2 == CAI2017_TOLERANCE_UNITS
    # top: model lines and measured dots of the mean shifts since fresh (3 stress points)
    shifts = {(d["who"][0], d["label"][0]): d["y"] for d in (r.data_source.data for r in top.renderers)}
    assert len(shifts) == 6
    i = table.columns.index("mean_pe2k_year1")
    np.testing.assert_allclose(shifts[("Cai et al.", "mean after 2,000 P/E, 365 d")],
                               table.measured[i] - table.measured[0])
    np.testing.assert_allclose(shifts[("model", "mean after 2,000 P/E, 365 d")], table.modelled[i] - table.modelled[0])
    with pytest.raises(ValueError, match="tech"):
        cai_calibration(TLC_1XNM.vth)
    with pytest.raises(ValueError, match="model must be a TLC model"):
        cai_calibration(QLC_3D)


@pytest.mark.parametrize("s", [-1, 4, 2.0])
def test_gray_label_refuses_a_state_the_cell_has_not(s):
    """s=-1 labelled MLC's last state ('10') and s=4 raised IndexError."""
    from flashlab.cell import cell_levels

    with pytest.raises(ValueError, match=r"s must be"):
        gray_label(cell_levels(2), s)
    assert [gray_label(cell_levels(2), k) for k in range(4)] == ["11", "01", "00", "10"]


def test_bake_test_data_come_from_the_engine():
    from flashlab.cell import equivalent_hours, worst_page_rber
    from flashlab.presets import TLC_1XNM
    data = bake_test().compute(bake_c=100.0, ea=0.8)
    i = int(np.argmin(np.abs(data["lines"]["hours"] - 100.0)))
    h = data["lines"]["hours"][i]
    assert data["lines"]["now"][i] == pytest.approx(equivalent_hours(h, 100.0, 40.0, 0.8) / 8766.0)
    days = equivalent_hours(100.0, 100.0, 40.0, 0.8) / 24
    assert f"{worst_page_rber(TLC_1XNM.vth, 1000.0, days):.1e}" in data["summary"]


def test_soft_decoding_latency_is_the_fallback_ladder():
    """Mean latency = hard read + FER(hard) x 2-sense read + FER(2 senses) x 6-sense read, each
    read the mean over page types of soft_read_latency_us at 1, 3 and 7 levels."""
    from flashlab.cell import soft_read_latency_us
    curves = _small_curves()
    data = soft_decoding(curves, pe_values=(0, 1500, 3000)).compute(pe=3000)
    rber = data["now"]["x"][0]
    assert rber == pytest.approx(float(np.max(rber_analytic(
        vth_distributions(TLC_1XNM.vth, 3000, 365), optimal_read_refs(vth_distributions(TLC_1XNM.vth, 3000, 365))).rber)))
    lat = [soft_read_latency_us(TLC_1XNM.timing, k).mean() for k in (1, 3, 7)]
    fer = [curves[k].fer_at(rber)[0] for k in (0, 2, 6)]
    assert data["here"]["latency"][0] == pytest.approx(lat[0] + fer[0] * lat[1] + fer[1] * lat[2])
