"""A 3D word line's program time from its structure (flashlab.tech.program3d): the pulse time set
once from Samsung's 32-layer TLC (700 us), the 128-layer V6 die's one-shot time predicted against
the time its published program throughput implies."""

from __future__ import annotations

import numpy as np
import pytest

from flashlab.drives.nand import one_shot_prog_us
from flashlab.presets import PRESETS
from flashlab.tech import Stack3D, VerticalString
from flashlab.tech.program3d import STEP_PER_SPACING, T_PULSE_US, pass_states, program_ladder

SAMSUNG_32L_TPROG_US = 700.0  # samsung2015tlc: 32 layers, 128 Gb TLC, "program time is 700 us"
# tallis2021isscc: Samsung's 128-layer 512 Gb TLC programs 82 MB/s over 2 planes; 16 KiB pages assumed
SAMSUNG_V6_ONE_SHOT_US = 3 * one_shot_prog_us(2, 16384, 82.0)
TOLERANCE = 0.25  # the model holds the die's circuits fixed between generations; only the string changes


@pytest.fixture(scope="module")
def one_shot():
    return program_ladder(3, "one-shot")


def test_passes_by_hand():
    assert pass_states(3, "one-shot") == ((1, 2, 3, 4, 5, 6, 7),)
    assert pass_states(3, "page-by-page") == ((4,), (2, 4, 6), (1, 2, 3, 4, 5, 6, 7))
    assert pass_states(2, "page-by-page") == ((2,), (1, 2, 3))
    assert pass_states(1, "one-shot") == pass_states(1, "page-by-page") == ((1,),)


def test_step_is_the_calibrated_tlc_cells():
    vth = PRESETS["tlc"].vth
    assert STEP_PER_SPACING == pytest.approx(vth.ispp_step / np.diff(vth.means[1:]).mean(), rel=1e-12)


def test_ladder_counts_by_hand(one_shot):
    # every state's cells pass within their window; verifies are the windows' sum, loops the top one's end
    assert np.all(one_shot.first <= one_shot.last) and np.all(np.diff(one_shot.last) > 0)
    assert one_shot.verifies[0] == np.sum(one_shot.last - one_shot.first + 1)
    assert one_shot.loops[0] == one_shot.last[-1]
    assert one_shot.cells_per_state == 16384 * 8 // 8
    again = program_ladder(3, "one-shot")
    assert np.array_equal(again.first, one_shot.first) and np.array_equal(again.last, one_shot.last)


def test_pulse_time_is_set_once_from_samsungs_32_layer_die(one_shot):
    t_sense = VerticalString(Stack3D(32)).t_sense_us
    set_from = (SAMSUNG_32L_TPROG_US - one_shot.verifies.sum() * t_sense) / one_shot.loops.sum()
    assert T_PULSE_US == pytest.approx(set_from, abs=0.005)
    assert one_shot.word_line_us(VerticalString(Stack3D(32))) == pytest.approx(SAMSUNG_32L_TPROG_US, rel=1e-3)


def test_predicts_samsungs_128_layer_one_shot_time(one_shot):
    predicted = one_shot.word_line_us(VerticalString(Stack3D(128)))  # one deck: 136 gates, as Samsung's V6
    assert predicted / SAMSUNG_V6_ONE_SHOT_US == pytest.approx(1.0, abs=TOLERANCE)
    # the string carries the prediction: with every verify as fast as the 32-layer string's, it misses
    held = one_shot.pass_us(VerticalString(Stack3D(32)).t_sense_us).sum()
    assert abs(held / SAMSUNG_V6_ONE_SHOT_US - 1.0) > TOLERANCE


def test_one_shot_beats_page_by_page_and_both_slow_with_layers(one_shot):
    pages = program_ladder(3, "page-by-page")
    assert pages.loops[-1] == one_shot.loops[0] and pages.verifies[-1] == one_shot.verifies[0]
    times = [(one_shot.word_line_us(VerticalString(Stack3D(n))), pages.word_line_us(VerticalString(Stack3D(n))))
             for n in (32, 96, 128)]
    for shot, paged in times:
        assert shot < paged
    assert [t[0] for t in times] == sorted(t[0] for t in times)


@pytest.mark.parametrize("kwargs, match", [
    ({"bits": 5}, "bits"),
    ({"mode": "two-pass"}, "mode"),
    ({"page_bytes": 100}, "page_bytes"),
    ({"seed": -1}, "seed"),
    ({"bits": 4}, "v_step"),  # 15 states at the TLC spacing climb past 10 V
])
def test_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        program_ladder(**kwargs)


def test_word_line_needs_a_string(one_shot):
    with pytest.raises(ValueError, match="string"):
        one_shot.word_line_us(Stack3D(32))
    with pytest.raises(ValueError, match="t_sense_us"):
        one_shot.pass_us(-1.0)
