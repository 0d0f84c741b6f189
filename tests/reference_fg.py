"""Pure-Python oracle for the floating-gate kernels (slow, obvious, written from the physics).

A rectangular pulse of gate-to-well voltage V moves the cell along the exact solution of
dE/dt = -k E^2 exp(-B/|E|), |E(t)| = B / ln(exp(B/|E0|) + B k t), with k = A area / (C_T t_ox)
and E = alpha_G (V - Vth + vth_neutral) / t_ox (Pavan et al. 1997; Lenzlinger & Snow 1969).
"""

import math


def pulse(vth, v_gate, t, *, t_ox, coupling, c_cg, area, vth_neutral, fn_a, fn_b):
    """Threshold (V) after one pulse of ``v_gate`` (V) for ``t`` seconds."""
    c_total = c_cg / coupling
    k = fn_a * area / (c_total * t_ox)
    e0 = coupling * (v_gate - vth + vth_neutral) / t_ox
    if e0 == 0.0 or fn_b / abs(e0) > 700.0:
        return vth
    e = fn_b / math.log(math.exp(fn_b / abs(e0)) + fn_b * k * t)
    e = math.copysign(e, e0)
    return v_gate + vth_neutral - e * t_ox / coupling


def ispp(vth0, v_start, v_step, v_verify, max_pulses, t_pulse, **cell):
    """ISPP one cell: returns (list of Vth after each pulse, pulses applied)."""
    vth, out = vth0, []
    for p in range(max_pulses):
        vth = pulse(vth, v_start + p * v_step, t_pulse, **cell)
        out.append(vth)
        if vth >= v_verify:
            break
    return out, len(out)
