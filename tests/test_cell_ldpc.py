"""Soft reads and the LDPC decoder: the quantized channel against closed forms, the code's
structure, the decoder on hand cases, and its correction limits against the capacity limit, BCH
and each other (flashlab.cell.soft_read, flashlab.cell.ldpc)."""

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.stats import norm

from flashlab.cell import (EccCode, FerCurve, LdpcCode, correctable_rber, fer_curve, gaussian_read_point,
                           hard_capacity_rber, ldpc_fer, soft_read_channel, optimal_read_refs, vth_distributions)
from flashlab.cell import _ldpc_kernels
from flashlab.presets import TLC_1XNM

CODE = LdpcCode()
BCH_SAME_OVERHEAD = EccCode(33, 404)  # 3232 data bits, 396 parity: the LDPC code's 3235 and 401
FRAMES = 200


def _channel(rber, soft_senses):
    return soft_read_channel(*gaussian_read_point(rber), soft_senses)


def _full_precision_mi(rber):
    """Mutual information of the unquantized two-Gaussian read point (numerical integral)."""
    (lo, hi), _ = gaussian_read_point(rber)

    def density(y):
        f0, f1 = norm.pdf(y, hi, 1.0), norm.pdf(y, lo, 1.0)
        q = 0.5 * (f0 + f1)
        return 0.5 * (f0 * np.log2(f0 / q) + f1 * np.log2(f1 / q))

    return quad(density, lo - 12.0, hi + 12.0, limit=200)[0]


# ---- the channel


@pytest.mark.parametrize("p", [1e-4, 3e-3, 2e-2])
def test_hard_read_is_the_binary_symmetric_channel(p):
    ch = _channel(p, 0)
    assert ch.rber == pytest.approx(p, rel=1e-9)
    h2 = -p * np.log2(p) - (1 - p) * np.log2(1 - p)
    assert ch.mutual_information == pytest.approx(1.0 - h2, rel=1e-9)
    assert ch.llr == pytest.approx([-np.log((1 - p) / p), np.log((1 - p) / p)], rel=1e-9)


def test_hard_capacity_rber_solves_one_minus_h2():
    assert hard_capacity_rber(0.5) == pytest.approx(0.110028, abs=1e-6)  # the textbook BSC value
    p = hard_capacity_rber(CODE.rate)
    assert 1.0 - (-p * np.log2(p) - (1 - p) * np.log2(1 - p)) == pytest.approx(CODE.rate, abs=1e-9)


@pytest.mark.parametrize("p", [5e-3, 2e-2])
def test_soft_senses_add_information_up_to_full_precision(p):
    mi = [_channel(p, k).mutual_information for k in (0, 2, 6)]
    full = _full_precision_mi(p)
    assert mi[0] < mi[1] < mi[2] < full
    # Wang et al. 2014: a few extra reads come close to full precision; 6 take 2/3 of the way
    # at least from the hard read (measured: 89 % at 5e-3, 95 % at 2e-2)
    assert (mi[2] - mi[0]) / (full - mi[0]) > 0.85


def test_placement_maximises_mutual_information():
    best = _channel(1e-2, 2)
    (lo, hi), _ = gaussian_read_point(1e-2)
    for offset in (0.2, 0.5, 1.0, 2.0):  # any other symmetric pair carries less
        other = soft_read_channel([lo, hi], [1.0, 1.0], 2, refs=[-offset, 0.0, offset])
        assert other.mutual_information < best.mutual_information
    assert best.refs == pytest.approx(-best.refs[::-1], abs=1e-6) and best.refs[1] == pytest.approx(0.0, abs=1e-6)


def test_worn_states_hard_reference_is_the_read_retry_optimum():
    dist = vth_distributions(TLC_1XNM.vth, 3000, 365)
    ch = soft_read_channel(dist.means[:2], dist.sigmas[:2], 6)
    assert ch.refs[3] == pytest.approx(optimal_read_refs(dist)[0], abs=1e-6)
    assert np.all(np.diff(ch.refs) > 0) and np.all(np.diff(ch.llr) > 0)  # higher Vth: likelier bit 0
    assert ch.p0.sum() == pytest.approx(1.0) and ch.p1.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("bad, match", [
    ({"soft_senses": 3}, "soft_senses must be even"),
    ({"soft_senses": 16}, "soft_senses"),
    ({"means": [5.0, 1.0]}, "means and sigmas"),
    ({"refs": [0.0, 1.0]}, "refs must be 3"),
])
def test_channel_refuses_bad_input(bad, match):
    kw = {"means": [-1.0, 1.0], "sigmas": [1.0, 1.0], "soft_senses": 2} | bad
    with pytest.raises(ValueError, match=match):
        soft_read_channel(**kw)


# ---- the code


def test_array_code_structure():
    h = CODE.parity_check().astype(np.int64)
    assert h.shape == (404, 3636) and CODE.n_bits == 3636 and CODE.data_bits == 3235
    assert np.all(h.sum(axis=0) == 4) and np.all(h.sum(axis=1) == 36)
    overlap = h @ h.T
    np.fill_diagonal(overlap, 0)
    assert overlap.max() == 1  # no two checks share two bits: girth 6
    encoder, data_cols, parity_cols = CODE._encoder
    assert parity_cols.size == 401 == CODE.n_bits - CODE.data_bits  # rank J*Z - J + 1
    rng = np.random.default_rng(1)
    for _ in range(3):  # the encoder's words satisfy every check
        d = rng.integers(0, 2, data_cols.size)
        x = np.zeros(CODE.n_bits, np.int64)
        x[data_cols] = d
        par = np.bitwise_xor.reduce(encoder[d == 1], axis=0)
        x[parity_cols] = [(int(par[i >> 6]) >> (i & 63)) & 1 for i in range(parity_cols.size)]
        assert not np.any(h @ x % 2)


def test_code_refuses_a_composite_circulant():
    with pytest.raises(ValueError, match="circulant must be a prime"):
        LdpcCode(circulant=133)


# ---- the decoder


def test_decoder_hand_cases():
    llr = np.full(CODE.n_bits, 4.0)  # the all-zero codeword, read confidently
    hard, it = _ldpc_kernels._decode(llr, CODE._check_vars, CODE._var_edges, 0.75, 30)
    assert it == 0 and not hard.any()
    for bit in (0, 1234, CODE.n_bits - 1):  # one bit read wrong, as confidently
        bad = llr.copy()
        bad[bit] = -4.0
        hard, it = _ldpc_kernels._decode(bad, CODE._check_vars, CODE._var_edges, 0.75, 30)
        assert it == 1 and not hard.any()


def test_noiseless_channel_decodes_every_frame_and_seed_repeats():
    r = ldpc_fer(CODE, _channel(1e-9, 0), 20, seed=3)
    assert r.fer == 0.0 and r.iterations.max() == 0
    a, b = (ldpc_fer(CODE, _channel(4e-3, 0), 30, seed=5) for _ in range(2))
    assert np.array_equal(a.failed, b.failed) and np.array_equal(a.iterations, b.iterations)


def test_hard_decoding_limit_lies_between_bch_and_capacity():
    """At the BCH code's limit (UBER 1e-15, same overhead) hard-input LDPC fails at most 1 % of
    frames; at the hard-read capacity limit (1 - H2(p) = R) it fails nearly every frame."""
    bch = correctable_rber(BCH_SAME_OVERHEAD)
    assert ldpc_fer(CODE, _channel(bch, 0), FRAMES, seed=11).fer <= 0.01
    assert ldpc_fer(CODE, _channel(hard_capacity_rber(CODE.rate), 0), 50, seed=11).fer >= 0.9


def test_each_soft_step_corrects_more():
    """Hard input fails 10 % of frames or more at RBER 8e-3, where 2 soft senses fail at most 1 %;
    2 soft senses fail 5 % or more at 1.6e-2, where 6 fail at most 2 % (200 frames each;
    measured: 23 % and 0; 13 % and 1 %)."""
    fer = {(p, k): ldpc_fer(CODE, _channel(p, k), FRAMES, seed=13).fer for p, k in
           ((8e-3, 0), (8e-3, 2), (1.6e-2, 2), (1.6e-2, 6))}
    assert fer[8e-3, 0] >= 0.1 and fer[8e-3, 2] <= 0.01
    assert fer[1.6e-2, 2] >= 0.05 and fer[1.6e-2, 6] <= 0.02


def test_ldpc_fer_refuses_bad_input():
    ch = _channel(1e-3, 0)
    with pytest.raises(ValueError, match="frames"):
        ldpc_fer(CODE, ch, 0, seed=1)
    with pytest.raises(ValueError, match="alpha"):
        ldpc_fer(CODE, ch, 1, seed=1, alpha=1.5)
    ch.p0 = np.array([np.nan, 1.0])
    with pytest.raises(ValueError, match="channel"):
        ldpc_fer(CODE, ch, 1, seed=1)


def test_a_frame_soft_reads_cannot_decode_fails_the_hard_read_too():
    """The chapter's fallback latency counts each soft step's reads as the previous step's
    failures: with one seed the channels read the same cells, and nearly every frame the 2-sense
    read fails at 1.5e-2 (or the 6-sense read at 1.8e-2) the hard read failed as well."""
    for p, k in ((1.5e-2, 2), (1.8e-2, 6)):
        hard = ldpc_fer(CODE, _channel(p, 0), FRAMES, seed=21).failed
        soft = ldpc_fer(CODE, _channel(p, k), FRAMES, seed=21).failed
        assert soft.sum() >= 2 and np.sum(soft & hard) >= 0.95 * soft.sum()


def test_fer_curve_interpolates_its_crossing():
    curve = FerCurve(np.array([1e-3, 2e-3, 4e-3]), np.array([0.0, 0.01, 0.1]), 200, 0)
    assert curve.rber_at(0.01) == pytest.approx(2e-3)
    assert curve.rber_at(0.0316227766) == pytest.approx(2e-3 * 2**0.5)  # half-way in log-log
    assert np.isnan(FerCurve(curve.rber, np.array([0.5, 0.6, 0.7]), 200, 0).rber_at(0.1))
    assert curve.rber_at(0.5) == 4e-3  # never crossed on the grid: the grid's end
    assert curve.fer_at([5e-4, 2e-3]) == pytest.approx([0.0, 0.01])  # none failed at the start: 0 below
    assert np.isnan(curve.fer_at(1e-2)[0])  # not every frame failed at the end: unknown above
    assert FerCurve(curve.rber, np.array([0.0, 0.5, 1.0]), 200, 0).fer_at(1e-2)[0] == 1.0
    measured = fer_curve(CODE, 0, [2e-3, 8e-3], 50, seed=2)
    assert measured.fer[0] < measured.fer[1]


def test_same_overhead_bch():
    bch = CODE.same_overhead_bch()
    assert bch == BCH_SAME_OVERHEAD
    assert bch.parity_bits <= CODE.n_bits - CODE.data_bits < EccCode(bch.t + 1, 404).parity_bits
