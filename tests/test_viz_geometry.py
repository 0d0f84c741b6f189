"""The device diagrams draw the counts of the geometry they are given."""

import pytest

from flashlab.device import Geometry
from flashlab.ssd import ssd_geometry
from flashlab.viz.geometry import device_hierarchy, nand_string


def _source(layout, name):
    (renderer,) = layout.select({"name": name})
    return renderer.data_source.data


def _texts(layout, name):
    (labels,) = layout.select({"name": name})
    return list(labels.source.data["text"])


@pytest.mark.parametrize("geom", [ssd_geometry(), Geometry(channels=2, dies_per_channel=4, planes_per_die=1,
                                                           blocks_per_plane=100, pages_per_block=32, page_size=8192)])
def test_hierarchy_counts_follow_the_geometry(geom):
    layout = device_hierarchy(geom).layout
    assert len(_source(layout, "package")["x"]) == geom.channels
    assert len(_source(layout, "die")["x"]) == geom.channels * geom.dies_per_channel
    assert len(_source(layout, "plane")["x"]) == geom.channels * geom.dies_per_channel * geom.planes_per_die
    labels = _texts(layout, "bottom_labels")
    assert f"block {geom.blocks_per_plane - 1:,}" in labels
    assert f"page {geom.pages_per_block - 1}" in labels
    assert f"... {geom.blocks_per_plane - 4:,} more blocks" in labels
    assert f"{geom.blocks_per_plane:,} blocks of {geom.pages_per_block} pages" in layout.children[1].title.text


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_nand_string_has_one_word_line_per_page_per_bit(bits):
    geom = ssd_geometry()
    p = nand_string(geom, bits_per_cell=bits, bit_lines=5).layout
    n_wl = geom.pages_per_block // bits
    assert len(_source(p, "word_line")["y"]) == n_wl
    assert len(_source(p, "cell")["x"]) == n_wl * 5
    assert len(_source(p, "select")["x"]) == 2 * 5
    assert f"{n_wl} word lines x {8 * geom.page_size:,} bit lines" in p.title.text
    assert f"... {8 * geom.page_size - 5:,} more" in _texts(p, "bit_line_labels")


def test_program_inhibits_some_bit_lines_and_read_senses_all():
    prog = _source(nand_string(operation="program").layout, "cell")["tip"]
    read = _source(nand_string(operation="read").layout, "cell")["tip"]
    assert sum("programmed" in t for t in prog) == 3 and sum("inhibited" in t for t in prog) == 3
    assert sum("sensed" in t for t in read) == 6 and not any("inhibited" in t for t in read)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="bits_per_cell"):
        nand_string(Geometry(pages_per_block=63), bits_per_cell=2)
    with pytest.raises(ValueError, match="operation"):
        nand_string(operation="erase")
    with pytest.raises(TypeError, match="geometry"):
        device_hierarchy("ssd")


def test_tooltips_only_on_shapes_that_carry_one():
    from bokeh.models import HoverTool

    for layout in (nand_string().layout, device_hierarchy().layout):
        hovers = list(layout.select({"type": HoverTool}))
        assert hovers
        for hover in hovers:
            assert hover.renderers and all("tip" in r.data_source.data for r in hover.renderers)
