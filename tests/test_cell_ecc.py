"""UBER from the binomial tail, endurance by bisection, soft reads, eMLC trade."""

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from flashlab.cell.ecc import (
    UBER_CLIENT,
    UBER_ENTERPRISE,
    EccCode,
    codeword_failure_probability,
    correctable_rber,
    endurance_pe_cycles,
    gentle_programming,
    program_endurance_trade,
    soft_read_latency_us,
    uber,
    worst_page_rber,
)
from flashlab.cell.levels import read_latency_us
from flashlab.presets import EMLC_2YNM, MLC_2YNM, PRESETS, QLC_3D, TLC_1XNM


def _exact_tail(n, t, p: Fraction) -> Fraction:
    """P[Binomial(n, p) > t] in exact rational arithmetic (1 minus the t + 1 head terms)."""
    return 1 - sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(t + 1))


@pytest.mark.parametrize("n,t,p", [(64, 0, Fraction(1, 100)), (200, 3, Fraction(1, 1000)), (511, 8, Fraction(3, 1000)),
                                   (1000, 20, Fraction(1, 10000)), (300, 5, Fraction(1, 20))])
def test_codeword_failure_matches_exact_binomial_sum(n, t, p):
    exact = float(_exact_tail(n, t, p))
    got = codeword_failure_probability(float(p), n, t)[0]
    assert got == pytest.approx(exact, rel=1e-9)


def test_uber_formula_and_tiny_values_stay_finite():
    code = EccCode(t=8, codeword_bytes=512)
    assert code.parity_bits == 8 * 13  # BCH over GF(2**13) for 4096 + 104 bits
    p = Fraction(1, 10000)
    assert uber(float(p), code)[0] == pytest.approx(float(_exact_tail(code.n_bits, 8, p)) / 4096, rel=1e-9)
    tiny = uber(1e-9, EccCode(t=40, codeword_bytes=1024))[0]
    assert 0.0 < tiny < 1e-200
    assert np.all(np.diff(uber(np.logspace(-8, -2, 30), code)) > 0)


def test_correctable_rber_meets_target_and_grows_with_t():
    limits = [correctable_rber(EccCode(t, 1024)) for t in (8, 24, 40, 72)]
    assert all(a < b for a, b in zip(limits, limits[1:]))
    code = EccCode(40, 1024)
    assert uber(correctable_rber(code), code)[0] <= UBER_CLIENT
    assert correctable_rber(code, UBER_ENTERPRISE) < correctable_rber(code, UBER_CLIENT)


def test_endurance_monotone_in_t_and_target_and_retention():
    m = TLC_1XNM.vth
    lives = [endurance_pe_cycles(m, EccCode(t, 1024), 365.0) for t in (16, 24, 40, 60, 100)]
    assert all(a < b for a, b in zip(lives, lives[1:])), lives
    code = EccCode(40, 1024)
    assert endurance_pe_cycles(m, code, 365.0, target_uber=UBER_ENTERPRISE) < endurance_pe_cycles(m, code, 365.0)
    assert endurance_pe_cycles(m, code, 365.0) < endurance_pe_cycles(m, code, 30.0)
    assert endurance_pe_cycles(m, code, 365.0, read_retry=False) <= endurance_pe_cycles(m, code, 365.0)


def test_endurance_is_where_uber_crosses_the_target():
    code = TLC_1XNM.ecc
    life = endurance_pe_cycles(TLC_1XNM.vth, code, 365.0)
    limit = correctable_rber(code)
    assert worst_page_rber(TLC_1XNM.vth, life * 0.99, 365.0) <= limit < worst_page_rber(TLC_1XNM.vth, life * 1.01, 365.0)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_endurance_near_its_cited_rating(name):
    tech = PRESETS[name]
    life = endurance_pe_cycles(tech.vth, tech.ecc, 365.0, max_cycles=1e7)
    assert tech.rated_pe / 2 < life < tech.rated_pe * 2, life


def test_emlc_trades_program_time_for_endurance():
    assert EMLC_2YNM.timing.mean_prog_us == pytest.approx(2 * MLC_2YNM.timing.mean_prog_us)
    assert EMLC_2YNM.vth.sigma_programmed < MLC_2YNM.vth.sigma_programmed
    gain = endurance_pe_cycles(EMLC_2YNM.vth, EMLC_2YNM.ecc, 365.0) / endurance_pe_cycles(MLC_2YNM.vth, MLC_2YNM.ecc, 365.0)
    assert 5 < gain < 15
    trade = program_endurance_trade(MLC_2YNM.vth, MLC_2YNM.timing, MLC_2YNM.ecc, [1.0, 0.75, 0.5])
    assert np.all(np.diff(trade.mean_prog_us) > 0) and np.all(np.diff(trade.endurance_pe) > 0)
    m, t = gentle_programming(MLC_2YNM.vth, MLC_2YNM.timing, 1.0)
    assert m == MLC_2YNM.vth and t == MLC_2YNM.timing


def test_soft_reads_cost_extra_senses():
    hard = read_latency_us(TLC_1XNM.timing)
    assert soft_read_latency_us(TLC_1XNM.timing, 1) == pytest.approx(hard)
    soft = soft_read_latency_us(TLC_1XNM.timing, 5)
    assert np.all(soft > hard)
    assert 3 * hard.max() < soft.max() < 5 * hard.max()  # 5 levels: the sensing part grows fivefold, the fixed part not
    assert np.all(soft_read_latency_us(QLC_3D.timing, 3) > soft_read_latency_us(QLC_3D.timing, 2))


@pytest.mark.parametrize(
    "call",
    [
        lambda: EccCode(-1, 1024),
        lambda: EccCode(8, 0),
        lambda: EccCode(8.5, 512),
        lambda: codeword_failure_probability(1.5, 100, 2),
        lambda: codeword_failure_probability(float("nan"), 100, 2),
        lambda: codeword_failure_probability(0.01, 0, 0),
        lambda: codeword_failure_probability(0.01, 10, 11),
        lambda: uber(0.01, (8, 512)),
        lambda: uber(-0.1, EccCode(8, 512)),
        lambda: correctable_rber(EccCode(8, 512), 0.0),
        lambda: endurance_pe_cycles(TLC_1XNM.vth, EccCode(8, 512), -1.0),
        lambda: endurance_pe_cycles(TLC_1XNM.vth, EccCode(8, 512), target_uber=2.0),
        lambda: endurance_pe_cycles(TLC_1XNM.vth, EccCode(8, 512), read_retry="yes"),
        lambda: endurance_pe_cycles(TLC_1XNM.vth, EccCode(8, 512), max_cycles=0.0),
        lambda: endurance_pe_cycles(TLC_1XNM, EccCode(8, 512)),
        lambda: worst_page_rber(TLC_1XNM.vth, -5.0),
        lambda: soft_read_latency_us(TLC_1XNM.timing, 0),
        lambda: soft_read_latency_us(TLC_1XNM.vth, 2),
        lambda: gentle_programming(TLC_1XNM.vth, TLC_1XNM.timing, 0.0),
        lambda: gentle_programming(TLC_1XNM.vth, TLC_1XNM.timing, 1.5),
        lambda: gentle_programming(TLC_1XNM.timing, TLC_1XNM.timing, 0.5),
        lambda: program_endurance_trade(MLC_2YNM.vth, MLC_2YNM.timing, MLC_2YNM.ecc, []),
        lambda: program_endurance_trade(MLC_2YNM.vth, MLC_2YNM.timing, MLC_2YNM.ecc, [0.5, 2.0]),
        lambda: dataclasses.replace(TLC_1XNM, timing=MLC_2YNM.timing),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()
