"""Program disturb and self-boosted program inhibit (flashlab.cell.program_disturb).

No published Vpass window or fail-count curve for a cell like FG_CELL_2XNM was reachable, so the
model is validated against hand-worked closed forms: the boosted channel potential of Suh et al.
(1995) worked by hand, and the Fowler-Nordheim charging solution ``|E(t)| = B / ln(exp(B/|E0|) +
B k t)`` chained pulse by pulse in plain Python, to 1e-9 V. The U-shaped fail count against Vpass
and the effect of program order are checked as properties of the model.
"""

import math

import numpy as np
import pytest

from flashlab.cell import (
    BOOSTING_2XNM,
    FG_CELL_2XNM,
    ISPE_2XNM,
    ISPP_SLC_2XNM,
    SelfBoosting,
    erase_block,
    program_disturb,
    program_page,
    vpass_disturb,
    vpgm_disturb,
)

CELL, ISPP = FG_CELL_2XNM, ISPP_SLC_2XNM


def _closed_form(vth0: float, v_gate: float, t: float) -> float:
    """Vth (V) after ``t`` seconds at gate-to-channel ``v_gate`` (V), worked from the FN solution."""
    gain = CELL.coupling / CELL.t_ox
    e0 = gain * (v_gate - vth0 + CELL.vth_neutral)
    k = CELL.fn_a * CELL.tunnel_area / (CELL.c_total * CELL.t_ox)
    e = CELL.fn_b / math.log(math.exp(CELL.fn_b / e0) + CELL.fn_b * k * t)
    return v_gate + CELL.vth_neutral - e / gain


@pytest.fixture(scope="module")
def erased():
    page = program_page(CELL, ISPP, n_cells=4000, seed=3)
    return erase_block(CELL, page.vth, ISPE_2XNM, seed=3).vth


def test_channel_potential_hand_worked():
    b = SelfBoosting(boost_ratio=0.8, v_inhibit=3.3, vth_ssl=1.0, vth_string=-1.0, word_lines=64)
    # mean gate voltage 8 + (20 - 8) / 64 = 8.1875 V; boost 0.8 x (8.1875 + 1) = 7.35 V over 2.3 V
    assert b.channel_potential(8.0, 20.0) == pytest.approx(9.65, abs=1e-12)
    assert b.channel_potential(8.0, 20.0, precharged=False) == pytest.approx(7.35, abs=1e-12)
    # word lines below the string's threshold do not couple the channel up: it stays precharged
    assert SelfBoosting(vth_string=2.0).channel_potential(1.0, 1.0) == pytest.approx(2.3, abs=1e-12)


@pytest.mark.parametrize("v_pass, vth0, programs", [(12.0, -4.0, 63), (10.0, -3.0, 20), (14.0, -2.0, 1)])
def test_vpass_disturb_matches_closed_form(v_pass, vth0, programs):
    pulses = 15
    got = vpass_disturb(CELL, ISPP, v_pass, vth0, pulses, programs)
    want = _closed_form(vth0, v_pass, programs * pulses * ISPP.t_pulse)
    assert got == pytest.approx(want, abs=1e-9)
    assert got > vth0  # a real shift, not a no-op


def test_vpgm_disturb_without_leakage_matches_closed_form():
    b = SelfBoosting(leak_tau_us=1e6)  # the channel holds its boost through a 10 us pulse
    pulses, vth0, v_pass = 15, -4.0, 3.0
    want = vth0
    for k in range(pulses):
        v_pgm = ISPP.v_start + k * ISPP.v_step
        v_ch = b.precharge + b.boost_ratio * (v_pass + (v_pgm - v_pass) / b.word_lines - b.vth_string)
        want = _closed_form(want, v_pgm - v_ch, ISPP.t_pulse)
    got = vpgm_disturb(CELL, ISPP, b, v_pass, vth0, pulses)
    # the 1e-5 of the boost that still leaks in a pulse moves the result by about 3e-5 V
    assert got == pytest.approx(want, abs=1e-4)
    assert got - vth0 > 0.1


def test_leakage_and_weaker_boost_worsen_vpgm_disturb():
    base = vpgm_disturb(CELL, ISPP, BOOSTING_2XNM, 6.0, -4.0, 15)
    leaky = vpgm_disturb(CELL, ISPP, SelfBoosting(leak_tau_us=10.0), 6.0, -4.0, 15)
    weak = vpgm_disturb(CELL, ISPP, SelfBoosting(boost_ratio=0.6), 6.0, -4.0, 15)
    unprecharged = vpgm_disturb(CELL, ISPP, BOOSTING_2XNM, 6.0, -4.0, 15, precharged=False)
    assert leaky > base and weak > base and unprecharged > base


def test_fail_count_is_u_shaped_in_vpass(erased):
    runs = {v: program_disturb(CELL, ISPP, BOOSTING_2XNM, v, erased, 15, seed=3) for v in (2.0, 8.0, 14.0)}
    assert runs[2.0].fails_vpgm > 0 and runs[2.0].fails_vpass == 0  # too low: Vpgm disturb
    assert runs[8.0].fails == 0  # inside the window
    assert runs[14.0].fails_vpass > 0 and runs[14.0].fails_vpgm == 0  # too high: Vpass disturb
    grid = np.arange(2.0, 14.5, 1.0)
    res = [program_disturb(CELL, ISPP, BOOSTING_2XNM, v, erased, 15, seed=3) for v in grid]
    vpgm_tail = np.array([np.quantile(r.vth_vpgm, 0.99) for r in res])
    vpass_tail = np.array([np.quantile(r.vth_vpass, 0.99) for r in res])
    assert np.all(np.diff(vpgm_tail) < 0) and np.all(np.diff(vpass_tail) >= 0)


def test_random_order_cuts_the_precharge(erased):
    seq = program_disturb(CELL, ISPP, BOOSTING_2XNM, 5.0, erased, 15, order="sequential", seed=3)
    rnd = program_disturb(CELL, ISPP, BOOSTING_2XNM, 5.0, erased, 15, order="random", seed=3)
    assert seq.precharged.all() and not rnd.precharged.all()
    assert seq.fails == 0 < rnd.fails
    assert np.all(rnd.vth_vpgm[rnd.precharged] == pytest.approx(seq.vth_vpgm[rnd.precharged]))


def test_erased_tail_rises_with_programs(erased):
    tails = [np.quantile(program_disturb(CELL, ISPP, BOOSTING_2XNM, 11.0, erased, 15, programs=n,
                                         seed=3).vth, 0.999) for n in (0, 16, 32, 63)]
    assert np.all(np.diff(tails) > 0.05)


def test_same_seed_same_result(erased):
    a = program_disturb(CELL, ISPP, BOOSTING_2XNM, 5.0, erased, 15, order="random", seed=7)
    b = program_disturb(CELL, ISPP, BOOSTING_2XNM, 5.0, erased, 15, order="random", seed=7)
    c = program_disturb(CELL, ISPP, BOOSTING_2XNM, 5.0, erased, 15, order="random", seed=8)
    assert np.array_equal(a.vth, b.vth) and not np.array_equal(a.vth, c.vth)


@pytest.mark.parametrize("call, name", [
    (lambda: SelfBoosting(boost_ratio=1.5), "boost_ratio"),
    (lambda: SelfBoosting(vth_ssl=4.0, v_inhibit=3.0), "vth_ssl"),
    (lambda: SelfBoosting(word_lines=1), "word_lines"),
    (lambda: BOOSTING_2XNM.channel_potential(-1.0, 20.0), "v_pass"),
    (lambda: vpgm_disturb(CELL, ISPP, BOOSTING_2XNM, 8.0, -4.0, 41), "pulses"),
    (lambda: vpgm_disturb(CELL, ISPP, BOOSTING_2XNM, 8.0, -4.0, 15, precharged=1), "precharged"),
    (lambda: vpass_disturb(CELL, ISPP, 8.0, [-4.0, np.nan], 15), "vth"),
    (lambda: program_disturb(CELL, ISPP, BOOSTING_2XNM, 8.0, [-4.0], 15, order="backwards"), "order"),
    (lambda: program_disturb(CELL, ISPP, BOOSTING_2XNM, 8.0, [-4.0], 15, programs=64), "programs"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
