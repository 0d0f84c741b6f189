"""Numba kernels of the floating-gate cell layer (compiled lazily on first call, cached on disk).

State is a threshold voltage per cell; each cell's oxide enters through its ``gain = alpha_G / t_ox``
(1/m), so the tunnel-oxide field is ``E = gain * (V_gate - Vth + vth_neutral)`` (V/m). A pulse of
constant gate-to-well voltage has the exact solution ``|E(t)| = B / ln(exp(B/|E0|) + rate*gain*t)``
(see :mod:`flashlab.cell.floating_gate`), so there is no time step to choose.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

# Beyond this B/|E| the field is too weak to tunnel: exp(B/|E|) would overflow and the charge
# moved in any pulse is far below one electron, so Vth is left unchanged.
_X_MAX = 700.0


@njit(cache=True)
def pulse_vth(vth, gain, v_gate, t_pulse, vth_neutral, fn_b, rate):
    """Threshold (V) after a pulse of ``v_gate`` (V) lasting ``t_pulse`` (s), for one cell."""
    e0 = abs(gain * (v_gate - vth + vth_neutral))
    if e0 == 0.0:
        return vth
    x = fn_b / e0
    if x > _X_MAX:
        return vth
    e = fn_b / math.log(math.exp(x) + rate * gain * t_pulse)
    # The field only decays, so Vth moves towards V_gate + vth_neutral and never past it; the
    # max() keeps rounding from moving it the wrong way when the change is below one ulp.
    shift = max(e0 - e, 0.0) / gain
    return vth + shift if v_gate + vth_neutral > vth else vth - shift


@njit(cache=True)
def pulse_cells(vth, gain, v_gate, t_pulse, vth_neutral, fn_b, rate, out):
    """``out[i]`` = threshold of cell ``i`` after one pulse (every cell gets it, as in a block erase)."""
    for i in range(vth.size):
        out[i] = pulse_vth(vth[i], gain[i], v_gate, t_pulse, vth_neutral, fn_b, rate)


@njit(cache=True)
def ispp_trace(vth0, gain, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b, rate,
               v_pulse, vth_after):
    """One cell under ISPP: pulse, verify, step up; stop at the first pulse whose verify passes.

    Fills ``v_pulse`` and ``vth_after`` (length ``max_pulses``) and returns the pulses applied.
    """
    vth = vth0
    for p in range(max_pulses):
        v = v_start + p * v_step
        vth = pulse_vth(vth, gain, v, t_pulse, vth_neutral, fn_b, rate)
        v_pulse[p] = v
        vth_after[p] = vth
        if vth >= v_verify:
            return p + 1
    return max_pulses


@njit(cache=True)
def _bin(v, lo, inv_width, n_bins):
    b = int(math.floor((v - lo) * inv_width))
    if b < 0:
        return 0
    if b >= n_bins:
        return n_bins - 1
    return b


# Cells per work chunk of ispp_page (its working arrays, 24 B a cell, stay in the L2 cache), and
# at most this many groups of chunks, each with its own histograms, share the work among threads.
_CHUNK = 8192
_GROUPS = 16


@njit(cache=True)
def _ispp_chunk(vth0, gain, lo, hi, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b,
                rate, hist_lo, inv_w, vth_out, pulses_out, active, settled, act_vth, act_gain, act_idx):
    """ISPP of cells ``lo .. hi - 1``, pulse by pulse over the still-active ones (packed at the
    front of the work arrays ``act_*``: independent cells let the CPU overlap their exp/log
    latencies, so each pulse is one branch-free pass and the verify another). Adds their Vth counts to ``active`` (row 0 before programming, row p after pulse
    p, cells still programming) and ``settled`` (row p: cells that verified at pulse p). Returns
    the pulses the slowest of them needed."""
    n_bins = active.shape[1]
    n_act = hi - lo
    for j in range(n_act):
        act_vth[j] = vth0[lo + j]
        act_gain[j] = gain[lo + j]
        act_idx[j] = lo + j
        active[0, _bin(act_vth[j], hist_lo, inv_w, n_bins)] += 1
    for p in range(max_pulses):
        v = v_start + p * v_step
        for j in range(n_act):  # the pulse alone: no branch on its outcome stalls the next cell
            act_vth[j] = pulse_vth(act_vth[j], act_gain[j], v, t_pulse, vth_neutral, fn_b, rate)
        m = 0
        for j in range(n_act):  # verify, count and pack the cells still programming
            vth = act_vth[j]
            b = _bin(vth, hist_lo, inv_w, n_bins)
            if vth >= v_verify:
                vth_out[act_idx[j]] = vth
                pulses_out[act_idx[j]] = p + 1
                settled[p + 1, b] += 1
            else:
                active[p + 1, b] += 1
                act_vth[m] = vth
                act_gain[m] = act_gain[j]
                act_idx[m] = act_idx[j]
                m += 1
        n_act = m
        if n_act == 0:
            return p + 1
    for j in range(n_act):
        vth_out[act_idx[j]] = act_vth[j]
        pulses_out[act_idx[j]] = max_pulses
    return max_pulses


@njit(cache=True, parallel=True)
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
    active = np.zeros((groups, max_pulses + 1, n_bins), dtype=hist.dtype)
    settled = np.zeros((groups, max_pulses + 1, n_bins), dtype=hist.dtype)
    needed = np.zeros(groups, dtype=np.int64)
    for g in prange(groups):
        act_vth = np.empty(_CHUNK)
        act_gain = np.empty(_CHUNK)
        act_idx = np.empty(_CHUNK, dtype=np.int64)
        for c in range(g * n_chunks // groups, (g + 1) * n_chunks // groups):
            lo = c * _CHUNK
            k = _ispp_chunk(vth0, gain, lo, min(n, lo + _CHUNK), v_start, v_step, v_verify, max_pulses,
                            t_pulse, vth_neutral, fn_b, rate, hist_lo, inv_w, vth_out, pulses_out,
                            active[g], settled[g], act_vth, act_gain, act_idx)
            needed[g] = max(needed[g], k)
    page_pulses = needed.max()
    cum = np.zeros(n_bins, dtype=hist.dtype)  # cells verified so far: they keep their Vth
    for p in range(page_pulses + 1):
        for b in range(n_bins):
            for g in range(groups):
                cum[b] += settled[g, p, b]
                hist[p, b] += active[g, p, b]
            hist[p, b] += cum[b]
    return page_pulses
