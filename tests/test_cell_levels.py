"""States, Gray codes, page types, sensing counts and latencies of SLC..QLC cells."""

import numpy as np
import pytest

from flashlab.cell.levels import NandTiming, cell_levels, program_times, read_latency_us
from flashlab.presets import MLC_2YNM, PRESETS, QLC_3D, SLC, TLC_1XNM


@pytest.mark.parametrize("bits", [1, 2, 3, 4])
def test_gray_code_adjacent_states_differ_in_one_bit_and_codes_are_unique(bits):
    g = cell_levels(bits).gray
    assert g.shape == (2**bits, bits)
    assert np.all(g[0] == 1)  # erased reads all ones
    assert np.all(np.abs(np.diff(g.astype(int), axis=0)).sum(axis=1) == 1)
    assert len({tuple(row) for row in g}) == 2**bits


def test_mlc_gray_code_matches_the_standard_map():
    # (LSB, MSB) per state: ER=11, P1=10, P2=00, P3=01 as (MSB,LSB) = 11, 01, 00, 10
    g = cell_levels(2).gray
    assert g[:, 0].tolist() == [1, 1, 0, 0]
    assert g[:, 1].tolist() == [1, 0, 0, 1]
    assert [r.tolist() for r in cell_levels(2).page_refs] == [[1], [0, 2]]


@pytest.mark.parametrize("bits,split", [(1, [1]), (2, [1, 2]), (3, [1, 2, 4]), (4, [1, 2, 4, 8])])
def test_sensing_counts_and_every_reference_read_by_exactly_one_page(bits, split):
    lv = cell_levels(bits)
    assert lv.senses.tolist() == split
    refs = np.sort(np.concatenate(lv.page_refs))
    assert refs.tolist() == list(range(2**bits - 1))


def test_read_latency_and_sensing_order_slc_mlc_tlc_qlc():
    techs = [SLC, MLC_2YNM, TLC_1XNM, QLC_3D]
    total_senses = [cell_levels(t.vth.levels.bits).senses.sum() for t in techs]
    assert total_senses == sorted(total_senses) and len(set(total_senses)) == 4
    mean_lat = [read_latency_us(t.timing).mean() for t in techs]
    max_lat = [read_latency_us(t.timing).max() for t in techs]
    assert all(a < b for a, b in zip(mean_lat, mean_lat[1:]))
    assert all(a < b for a, b in zip(max_lat, max_lat[1:]))
    for t in techs:  # within a cell type, more senses -> slower page
        assert np.all(np.diff(read_latency_us(t.timing)) > 0)


def test_read_latency_reproduces_datasheet_values():
    assert read_latency_us(MLC_2YNM.timing).tolist() == pytest.approx([48.0, 64.0])
    assert read_latency_us(TLC_1XNM.timing) == pytest.approx([56.5, 77.5, 106.0], abs=3.0)
    assert read_latency_us(QLC_3D.timing) == pytest.approx([47.9, 76.2, 134.6, 228.1], abs=7.0)
    assert read_latency_us(SLC.timing).tolist() == pytest.approx([25.0])


def test_program_times_bimodal_with_datasheet_mean_and_deterministic():
    pt = program_times(MLC_2YNM.timing, 20000, seed=3)
    assert pt.mean_us == pytest.approx(MLC_2YNM.timing.mean_prog_us, rel=0.01)
    fast, slow = pt.time_us[pt.page_type == 0], pt.time_us[pt.page_type == 1]
    assert fast.max() < slow.min()  # two separate modes
    assert np.array_equal(pt.time_us, program_times(MLC_2YNM.timing, 20000, seed=3).time_us)
    assert QLC_3D.timing.mean_prog_us == pytest.approx(1860.0)


def test_presets_are_consistent():
    for tech in PRESETS.values():
        assert tech.vth.levels.bits == tech.timing.bits


@pytest.mark.parametrize(
    "call",
    [
        lambda: cell_levels(0),
        lambda: cell_levels(5),
        lambda: cell_levels(2.0),
        lambda: NandTiming(-1.0, 10.0, (100.0,), 1000.0),
        lambda: NandTiming(10.0, float("nan"), (100.0,), 1000.0),
        lambda: NandTiming(10.0, 10.0, (), 1000.0),
        lambda: NandTiming(10.0, 10.0, (100.0, -5.0), 1000.0),
        lambda: NandTiming(10.0, 10.0, (100.0,), 1000.0, prog_cv=2.0),
        lambda: read_latency_us("tlc"),
        lambda: program_times(SLC.timing, 0, 1),
        lambda: program_times(SLC.timing, 10, -1),
        lambda: program_times(None, 10, 1),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_message_names_parameter_value_and_range():
    with pytest.raises(ValueError, match=r"bits must be in \[1, 4\]; got 7"):
        cell_levels(7)
