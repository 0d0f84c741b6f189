"""Numba kernels of the floating-gate cell layer (compiled lazily on first call, cached on disk).

State is a threshold voltage per cell; each cell's oxide enters through its ``gain = alpha_G / t_ox``
(1/m), so the tunnel-oxide field is ``E = gain * (V_gate - Vth + vth_neutral)`` (V/m). A pulse of
constant gate-to-well voltage has the exact solution ``|E(t)| = B / ln(exp(B/|E0|) + rate*gain*t)``
(see :mod:`flashlab.cell.floating_gate`), so there is no time step to choose.

The pulse is branch-free and calls no library function: its exp and log are the fdlibm
algorithms (Sun Microsystems 1993, ``e_exp.c`` and ``e_log.c``: Cody-Waite reduction and a Remez
polynomial; within 1 ulp of NumPy's, tested) written here in plain arithmetic on the bits of the
doubles, so a loop of pulses over many cells compiles to SIMD code (four cells per instruction
with AVX2). A SIMD lane does the same IEEE arithmetic as the scalar loop, so a cell's result does
not depend on the vector width or the thread count, nor on the C library's exp and log. The
per-cell constants of the pulse (``b = B/gain``, ``k = rate*gain*t_pulse``) are computed once per
cell, not once per pulse. Divisions follow NumPy's error model (no
zero-division check: a zero field gives an infinite ``B/|E|``, which the pulse treats as "too
weak to tunnel").
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

# Beyond this B/|E| the field is too weak to tunnel: exp(B/|E|) would overflow and the charge
# moved in any pulse is far below one electron, so Vth is left unchanged.
_X_MAX = 700.0

_kernel = njit(cache=True, error_model="numpy")
_inline = njit(cache=True, error_model="numpy", inline="always")


@intrinsic
def _bits(typingctx, x):
    """The 64 bits of the double ``x`` as an int64 (a reinterpretation, no conversion)."""
    if x != types.float64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def _double(typingctx, i):
    """The double whose 64 bits are the int64 ``i``."""
    if i != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


_LN2_HI = 6.93147180369123816490e-01  # ln 2 in 32 bits: k * _LN2_HI is exact for |k| < 2**21
_LN2_LO = 1.90821492927058770002e-10  # ln 2 - _LN2_HI
_INV_LN2 = 1.44269504088896338700e00
_ROUND = 6755399441055744.0  # 1.5 * 2**52: adding it rounds to an integer held in the low bits
_EXP_P = (1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
          -1.65339022054652515390e-06, 4.13813679705723846039e-08)
_LOG_LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
           2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
           1.479819860511658591e-01)
_MANTISSA = (1 << 52) - 1
_SQRT2_BITS = 0x3FF6A09E667F3BCD  # bits of sqrt(2)


@_inline
def _exp(x):
    """exp(x) for 0 <= x <= 709 (fdlibm e_exp.c without its range checks)."""
    shifted = x * _INV_LN2 + _ROUND
    k = shifted - _ROUND  # nearest integer to x / ln 2
    hi = x - k * _LN2_HI
    lo = k * _LN2_LO
    r = hi - lo  # |r| <= ln(2) / 2
    t = r * r
    c = r - t * (_EXP_P[0] + t * (_EXP_P[1] + t * (_EXP_P[2] + t * (_EXP_P[3] + t * _EXP_P[4]))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    scale = _double((_bits(shifted) - _bits(_ROUND) + 1023) << 52)  # 2**k
    return y * scale


@_inline
def _log(x):
    """ln(x) for finite x >= 1 (fdlibm e_log.c without its checks for zero, negatives and
    subnormals; the mantissa is brought into [sqrt(2)/2, sqrt(2)))."""
    b = _bits(x)
    high = (b & _MANTISSA) >= (_SQRT2_BITS & _MANTISSA)  # mantissa >= sqrt(2): halve it
    k = (b >> 52) - 1023 + np.int64(high)
    m = _double((b & _MANTISSA) | ((1023 - np.int64(high)) << 52))
    f = m - 1.0  # exact
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    r = (z * (_LOG_LG[0] + w * (_LOG_LG[2] + w * (_LOG_LG[4] + w * _LOG_LG[6])))
         + w * (_LOG_LG[1] + w * (_LOG_LG[3] + w * _LOG_LG[5])))
    hfsq = 0.5 * f * f
    dk = float(k)
    return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)


@_inline
def pulse_vth(vth, b, k, v_gate, vth_neutral):
    """Threshold (V) after a pulse of ``v_gate`` (V), for one cell with ``b = B / gain`` (V) and
    ``k = rate * gain * t_pulse`` (the pulse's ``B k t``): in volts of overdrive
    ``u = V_gate - Vth + vth_neutral``, ``B/|E| = b/|u|`` and the field after the pulse is
    ``B / ln(exp(b/|u|) + k)``, i.e. an overdrive of ``b / ln(exp(b/|u|) + k)``."""
    u = abs(v_gate - vth + vth_neutral)
    x = b / u  # +inf for a zero field
    tunnels = x <= _X_MAX
    after = b / _log(_exp(min(x, _X_MAX)) + k)
    # The field only decays, so Vth moves towards V_gate + vth_neutral and never past it; the
    # max() keeps rounding from moving it the wrong way when the change is below one ulp.
    shift = max(u - after, 0.0)
    moved = vth + shift if v_gate + vth_neutral > vth else vth - shift
    return moved if tunnels else vth


@_kernel
def pulse_cells(vth, gain, v_gate, t_pulse, vth_neutral, fn_b, rate, out):
    """``out[i]`` = threshold of cell ``i`` after one pulse (every cell gets it, as in a block erase)."""
    for i in range(vth.size):
        out[i] = pulse_vth(vth[i], fn_b / gain[i], rate * gain[i] * t_pulse, v_gate, vth_neutral)


@_kernel
def ispp_trace(vth0, gain, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b, rate,
               v_pulse, vth_after):
    """One cell under ISPP: pulse, verify, step up; stop at the first pulse whose verify passes.

    Fills ``v_pulse`` and ``vth_after`` (length ``max_pulses``) and returns the pulses applied.
    """
    b, k = fn_b / gain, rate * gain * t_pulse
    vth = vth0
    for p in range(max_pulses):
        v = v_start + p * v_step
        vth = pulse_vth(vth, b, k, v, vth_neutral)
        v_pulse[p] = v
        vth_after[p] = vth
        if vth >= v_verify:
            return p + 1
    return max_pulses


@_inline
def _bin(v, lo, inv_width, n_bins):
    return min(max(int(math.floor((v - lo) * inv_width)), 0), n_bins - 1)


# Cells per work chunk of ispp_page (its working arrays, 32 B a cell, stay in the L2 cache), and
# at most this many groups of chunks, each with its own histograms, share the work among threads.
_CHUNK = 8192
_GROUPS = 16


@_kernel
def _ispp_chunk(vth0, gain, lo, hi, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b,
                rate, hist_lo, inv_w, vth_out, pulses_out, counts, act_vth, act_b, act_k, act_idx):
    """ISPP of cells ``lo .. hi - 1``, pulse by pulse over the still-active ones, packed at the
    front of the work arrays ``act_*`` with their per-cell constants ``b`` and ``k`` (see
    :func:`pulse_vth`). Each pulse is one branch-free pass (SIMD: several cells per instruction)
    and the verify another, also without a branch on its outcome: every active cell's Vth and
    pulse count are written, and a later pulse overwrites them. Adds the Vth counts to
    ``counts[0]`` (row 0 before programming, row p after pulse p, cells still programming) and
    ``counts[1]`` (row p: cells that verified at pulse p). Returns the pulses the slowest cell
    needed."""
    n_bins = counts.shape[2]
    n_act = hi - lo
    for j in range(n_act):
        act_vth[j] = vth0[lo + j]
        act_b[j] = fn_b / gain[lo + j]
        act_k[j] = rate * gain[lo + j] * t_pulse
        act_idx[j] = lo + j
        counts[0, 0, _bin(act_vth[j], hist_lo, inv_w, n_bins)] += 1
    for p in range(max_pulses):
        v = v_start + p * v_step
        for j in range(n_act):  # the pulse alone
            act_vth[j] = pulse_vth(act_vth[j], act_b[j], act_k[j], v, vth_neutral)
        m = 0
        for j in range(n_act):  # verify, count, and pack the cells still programming
            vth = act_vth[j]
            i = act_idx[j]
            done = vth >= v_verify
            counts[np.int64(done), p + 1, _bin(vth, hist_lo, inv_w, n_bins)] += 1
            vth_out[i] = vth
            pulses_out[i] = p + 1
            act_vth[m] = vth
            act_b[m] = act_b[j]
            act_k[m] = act_k[j]
            act_idx[m] = i
            m += 1 - np.int64(done)
        n_act = m
        if n_act == 0:
            return p + 1
    return max_pulses


@njit(cache=True, parallel=True, error_model="numpy")
def ispp_page(vth0, gain, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b, rate,
              hist_lo, hist_width, vth_out, pulses_out, hist):
    """ISPP program-and-verify of a page; a cell that passes verify is inhibited from then on.

    ``hist`` (``max_pulses + 1`` x bins, zeroed) receives Vth counts before programming (row 0)
    and after each pulse p (row p) up to the last pulse the page needed, which is returned (its
    slowest cell). Cells are independent: groups of chunks of ``_CHUNK`` cells run in parallel
    (``prange``), each counting into its own histograms, summed at the end. Every cell sees
    the same arithmetic whatever the thread count and the counts are integers, so the result
    does not depend on the number of threads or their scheduling.
    """
    n = vth0.size
    n_bins = hist.shape[1]
    inv_w = 1.0 / hist_width
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    groups = min(n_chunks, _GROUPS)
    counts = np.zeros((groups, 2, max_pulses + 1, n_bins), dtype=hist.dtype)  # programming, verified
    needed = np.zeros(groups, dtype=np.int64)
    for g in prange(groups):
        act_vth = np.empty(_CHUNK)
        act_b = np.empty(_CHUNK)
        act_k = np.empty(_CHUNK)
        act_idx = np.empty(_CHUNK, dtype=np.int64)
        for c in range(g * n_chunks // groups, (g + 1) * n_chunks // groups):
            lo = c * _CHUNK
            k = _ispp_chunk(vth0, gain, lo, min(n, lo + _CHUNK), v_start, v_step, v_verify, max_pulses,
                            t_pulse, vth_neutral, fn_b, rate, hist_lo, inv_w, vth_out, pulses_out,
                            counts[g], act_vth, act_b, act_k, act_idx)
            needed[g] = max(needed[g], k)
    page_pulses = needed.max()
    cum = np.zeros(n_bins, dtype=hist.dtype)  # cells verified so far: they keep their Vth
    for p in range(page_pulses + 1):
        for b in range(n_bins):
            for g in range(groups):
                cum[b] += counts[g, 1, p, b]
                hist[p, b] += counts[g, 0, p, b]
            hist[p, b] += cum[b]
    return page_pulses
