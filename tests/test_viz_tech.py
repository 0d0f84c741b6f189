"""Geometry-shrink and 3D NAND explorables: their data are the engine's, static() builds, and
moving any control changes what is plotted."""

from __future__ import annotations

import numpy as np
import pytest

from flashlab.cell import vth_distributions
from flashlab.tech import DENSITY_POINTS, GENERATIONS_3D, MLC_2Y, PlanarCell, Stack3D, cell_model, layer_rber, shrink_sweep
from flashlab.tech import QLC_96L, ct_worst_rber
from flashlab.viz.tech import (MODEL_POINT, NODES, charge_trap_errors, fab_economics, planar_end, rtn_tails, shrink,
                               stack_3d, string_3d)
from test_viz_levels import _columns_equal

FACTORIES = {
    "shrink": lambda: shrink(),
    "stack_3d": lambda: stack_3d(layer_values=(64, 176), deck_values=(1, 2)),
    "charge_trap_errors": lambda: charge_trap_errors(pe_values=(0, 1000), days_values=(0.0, 30.0)),
    "rtn_tails": lambda: rtn_tails(),
    "planar_end": lambda: planar_end(nodes=(35.0, 25.0, 16.0), air_gaps=(0.0, 1.0)),
    "string_3d": lambda: string_3d(layer_values=(128, 321), sub_block_values=(1, 4)),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_static_builds_and_grid_points_differ(name):
    ex = FACTORIES[name]()
    if name != "shrink":  # the shrink grid (60 points) is built by the book; its data are checked below
        assert ex.static().grid_size == int(np.prod([len(c.values) for c in ex.controls]))
    base = ex.compute(**ex.defaults())
    for c in ex.controls:
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), (name, c.name)


def test_shrink_data_come_from_the_engine():
    ex = shrink()
    data = ex.compute(node=16.0, cell="MLC", days=365.0, residual=0.1)
    sweep = shrink_sweep(MLC_2Y, NODES, 3000.0, 365.0, endurance=True, residual=0.1)
    np.testing.assert_allclose(data["sweep"]["rber"], sweep.worst_rber)
    np.testing.assert_allclose(data["sweep"]["life"], sweep.endurance_pe)
    np.testing.assert_allclose(data["sweep"]["electrons"], [PlanarCell(f).electrons_per_state(2) for f in NODES])
    assert data["now"]["rber"][0] == pytest.approx(sweep.worst_rber[NODES.index(16.0)])
    d = vth_distributions(cell_model(MLC_2Y, 16.0, 0.1), 3000.0, 365.0)
    v = data["density"]["v"]
    assert np.nanmax(data["density"]["s1"]) == pytest.approx(np.max(d.pdf(v)[1] / 4), rel=1e-6)
    assert np.isnan(data["density"]["s5"]).all()  # MLC has 4 states


def test_stack_3d_data_come_from_the_engine():
    ex = stack_3d()
    data = ex.compute(layers=232, decks=2)
    assert data["now"]["density"][0] == pytest.approx(Stack3D(232, 2).density_gb_mm2)
    assert data["curve"]["cost"].min() == pytest.approx(1.0)
    fig_layout, targets = ex.figure(data)
    assert set(targets) == {"curve", "now", "summary"}
    assert len(DENSITY_POINTS) == 12


def test_charge_trap_data_come_from_the_engine():
    ex = charge_trap_errors()
    data = ex.compute(pe=1000, days=30.0)
    lr = layer_rber(cell_model(QLC_96L), GENERATIONS_3D[176], 1000, 30.0)
    np.testing.assert_allclose(data["layers"]["rber"], lr.rber)
    np.testing.assert_allclose(data["layers"]["mult"], lr.multiplier)  # what the top plot shows
    assert "0.63&times;" in data["summary"] and "1.55&times;" in data["summary"]  # the prose's numbers
    assert data["now"]["rber"][0] == pytest.approx(ct_worst_rber(cell_model(QLC_96L), 1000, 30.0))


def test_fab_economics_builds():
    fig = fab_economics()
    assert len(fig.layout.children) == 2 and fig.grid_size == 1


def test_bit_density_model_circles_and_published_diamonds_differ_in_colour():
    """The published dies (filled diamonds) and the model's value for each (open circles) differ in
    colour, not by marker shape alone, and the legend names each."""
    layout, _ = stack_3d().figure(stack_3d().compute(layers=176, decks=2))
    p1 = layout.children[1]
    glyphs = {item.label.value: item.renderers[0].glyph for item in p1.legend[0].items}
    published, model = glyphs["published (any bits per cell)"], glyphs["model for the same die"]
    assert (published.marker, model.marker) == ("diamond", "circle")
    assert model.fill_alpha == 0 and model.line_color == MODEL_POINT
    assert model.line_color not in (published.fill_color, published.line_color)


def test_rtn_tails_data_come_from_the_engine():
    from flashlab.cell import rtn_pdf, rtn_rber
    from flashlab.tech import TLC_1X, VOLTS_PER_UNIT
    data = rtn_tails().compute(node=14.0, pe=1000.0)
    d = vth_distributions(cell_model(TLC_1X, 14.0), 1000.0)
    lam = PlanarCell(14.0).rtn_sigma_v / VOLTS_PER_UNIT
    v = data["curves"]["v"]
    i = int(np.argmin(np.abs(v - d.means[3])))
    want = sum(rtn_pdf(v[i] - m, np.sqrt(s * s - lam * lam), lam)[0] for m, s in zip(d.means, d.sigmas)) / 8
    assert data["curves"]["expo"][i] == pytest.approx(want, rel=1e-9)
    assert f"{rtn_rber(d, lam).rber.max():.1e}" in data["summary"]


def test_planar_end_data_come_from_the_engine():
    from flashlab.tech import as_built
    data = planar_end().compute(node=15.0, air_gap=1.0)
    sweep = data["sweep"]
    i = list(sweep["node"]).index(15.0)
    b = as_built(15.0, 1.0)
    assert b.gate == "flat"
    assert sweep["built_gate_coupling"][i] == pytest.approx(b.gate_coupling)
    assert sweep["g100_built"][i] == pytest.approx(100 * b.coupling)
    assert sweep["wrap_e3"][i] == pytest.approx(PlanarCell(15.0, air_gap=1.0).electrons_per_state(3))
    assert data["now"]["built_e3"][0] == pytest.approx(b.electrons_per_state(3))
    assert f"{b.electrons_per_state(3):.1f} electrons" in data["summary"]
    # above the limit the cell as built is the wrapped one
    j = list(sweep["node"]).index(35.0)
    assert sweep["built_gate_coupling"][j] == sweep["wrap_gate_coupling"][j]


def test_string_3d_data_come_from_the_engine():
    from flashlab.tech import VerticalString
    data = string_3d().compute(layers=321, sub_blocks=4)
    v = VerticalString(Stack3D(321, 3), sub_blocks=4)
    assert data["now"]["current"][0] == pytest.approx(v.current_na)
    assert data["now"]["unit"][0] == pytest.approx(v.erase_unit_bytes / 2**20)
    i = list(data["curve"]["layers"]).index(128)
    assert data["curve"]["sense"][i] == pytest.approx(VerticalString(Stack3D(128, 1)).t_sense_us)
    assert f"{v.t_sense_us:.1f} &micro;s" in data["summary"]
