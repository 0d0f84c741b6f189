"""Numba kernels of the floating-gate cell layer (compiled lazily on first call, cached on disk).

State is a threshold voltage per cell; each cell's oxide enters through its ``gain = alpha_G / t_ox``
(1/m), so the tunnel-oxide field is ``E = gain * (V_gate - Vth + vth_neutral)`` (V/m). A pulse of
constant gate-to-well voltage has the exact solution ``|E(t)| = B / ln(exp(B/|E0|) + rate*gain*t)``
(see :mod:`flashlab.cell.floating_gate`), so there is no time step to choose.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

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


@njit(cache=True)
def ispp_page(vth0, gain, v_start, v_step, v_verify, max_pulses, t_pulse, vth_neutral, fn_b, rate,
              hist_lo, hist_width, vth_out, pulses_out, hist):
    """ISPP program-and-verify of a page; a cell that passes verify is inhibited from then on.

    Pulse by pulse over the still-active cells, packed at the front of work arrays (independent
    cells let the CPU overlap their exp/log latencies). ``hist`` (``max_pulses + 1`` x bins, zeroed)
    receives Vth counts before programming (row 0) and after each pulse (row p). Returns the
    number of pulses the page needed (its slowest cell).
    """
    n_bins = hist.shape[1]
    inv_w = 1.0 / hist_width
    act_vth = vth0.copy()
    act_gain = gain.copy()
    act_idx = np.arange(vth0.size)
    settled = np.zeros(n_bins, dtype=hist.dtype)
    for i in range(vth0.size):
        hist[0, _bin(vth0[i], hist_lo, inv_w, n_bins)] += 1
    n_act = vth0.size
    page_pulses = max_pulses
    for p in range(max_pulses):
        v = v_start + p * v_step
        m = 0
        for j in range(n_act):
            vth = pulse_vth(act_vth[j], act_gain[j], v, t_pulse, vth_neutral, fn_b, rate)
            b = _bin(vth, hist_lo, inv_w, n_bins)
            if vth >= v_verify:
                vth_out[act_idx[j]] = vth
                pulses_out[act_idx[j]] = p + 1
                settled[b] += 1
            else:
                hist[p + 1, b] += 1
                act_vth[m] = vth
                act_gain[m] = act_gain[j]
                act_idx[m] = act_idx[j]
                m += 1
        for b in range(n_bins):
            hist[p + 1, b] += settled[b]
        n_act = m
        if n_act == 0:
            page_pulses = p + 1
            break
    for j in range(n_act):
        vth_out[act_idx[j]] = act_vth[j]
        pulses_out[act_idx[j]] = max_pulses
    return page_pulses
