"""Floating-gate cell physics: FN charging, ISPP program-and-verify, erase, read (flashlab.cell)."""

import math

import numba
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import reference_fg as ref
from flashlab.cell import (
    FG_CELL_2XNM,
    ISPE_2XNM,
    ISPP_SLC_2XNM,
    CellVariation,
    FloatingGateCell,
    IsppParams,
    apply_pulse,
    erase,
    erase_block,
    program_cell,
    program_page,
    read,
)
from flashlab.cell import ispp as ispp_module
from flashlab.cell.floating_gate import FN_A_SIO2, FN_B_SIO2, Q_E

CELL = FG_CELL_2XNM
# Starts low enough that every cell is in the steady ISPP regime before it reaches verify.
STEADY = IsppParams(v_start=12.0, v_step=0.4, v_verify=2.0, max_pulses=200, t_pulse=10e-6, t_verify=10e-6)


def _cell_kwargs(cell):
    return dict(t_ox=cell.t_ox, coupling=cell.coupling, c_cg=cell.c_cg, area=cell.tunnel_area,
                vth_neutral=cell.vth_neutral, fn_a=cell.fn_a, fn_b=cell.fn_b)


def _with(params, **changes):
    kw = {k: getattr(params, k) for k in params.__dataclass_fields__}
    kw.update(changes)
    return type(params)(**kw)


# --- physics ---------------------------------------------------------------------------------------


def test_fn_constants_match_lenzlinger_snow():
    # Theory for phi_B = 3.2 eV, m_ox = 0.42 m0: A ~ 1.15e-6 A/V^2, B ~ 2.54e8 V/cm.
    assert FN_A_SIO2 == pytest.approx(1.147e-6, rel=2e-3)
    assert FN_B_SIO2 == pytest.approx(2.534e10, rel=2e-3)
    # J(10 MV/cm) = A E^2 exp(-B/E), a few mA/cm^2 (= tens of A/m^2).
    assert CELL.current_density(1e9) == pytest.approx(FN_A_SIO2 * 1e18 * math.exp(-FN_B_SIO2 / 1e9))
    assert CELL.current_density(-1e9) == -CELL.current_density(1e9)
    assert CELL.current_density(0.0) == 0.0


@pytest.mark.parametrize(("vth0", "v_gate", "t"), [(-3.0, 16.0, 10e-6), (-3.0, 20.0, 1e-6), (2.0, -16.0, 1e-3)])
def test_pulse_matches_solve_ivp(vth0, v_gate, t):
    """The kernel's closed form equals a stiff numerical integration of dVth/dt = J area / C_CG."""

    def rhs(_, y):
        field = CELL.oxide_field(v_gate, float(y[0]))
        return [CELL.current_density(field) * CELL.tunnel_area / CELL.c_cg]

    sol = solve_ivp(rhs, (0.0, t), [vth0], method="Radau", rtol=1e-11, atol=1e-12)
    assert sol.success
    assert apply_pulse(CELL, vth0, v_gate, t) == pytest.approx(sol.y[0, -1], abs=1e-6)
    assert abs(sol.y[0, -1] - vth0) > 0.5  # the pulse really moved the cell


def test_program_never_lowers_and_erase_never_raises_vth():
    # The field pulls electrons in while V_gate > Vth - vth_neutral (true for every vth here).
    vth = np.linspace(-8.0, 8.0, 161)
    for v in (9.0, 12.0, 18.0, 25.0):
        assert np.all(apply_pulse(CELL, vth, v, 10e-6) >= vth)
        assert np.all(erase(CELL, vth, v, 1e-3) <= vth)
    # A programmed cell cannot be brought back by a gentler program pulse: only erase lowers Vth.
    programmed = apply_pulse(CELL, -3.0, 18.0, 10e-6)
    assert programmed <= apply_pulse(CELL, programmed, 14.0, 10e-6) < programmed + 1e-3
    assert erase(CELL, programmed, 18.0, 1e-3) < -3.0


def test_charge_electrons_vth_chain():
    assert CELL.electrons(CELL.vth_neutral) == 0.0
    # One electron raises Vth by q / C_CG.
    assert CELL.electrons(CELL.vth_neutral + CELL.volts_per_electron) == pytest.approx(1.0)
    assert CELL.charge(1.0) == pytest.approx(-CELL.c_cg * 1.0)
    # V_FG = alpha V + Q / C_T, E = V_FG / t_ox.
    q = CELL.charge(1.0)
    assert CELL.oxide_field(15.0, 1.0) == pytest.approx((CELL.coupling * 15.0 + q / CELL.c_total) / CELL.t_ox)


def test_read_bits():
    bits = read(np.array([-3.0, -0.1, 0.0, 2.0]), 0.0)
    np.testing.assert_array_equal(bits, [1, 1, 0, 0])
    assert bits.dtype == np.uint8
    assert read(-2.0, 0.5) == 1 and read(2.0, 0.5) == 0


# --- the kernels' own exp and log (branch-free, so a pulse over many cells runs as SIMD code) --------


def _ulps(got, want):
    return np.abs(got - want) / np.spacing(np.abs(want))


def test_kernel_exp_and_log_are_within_one_ulp_over_their_domains():
    from numba import njit

    from flashlab.cell import _kernels as k

    @njit
    def exp_log(x, e, lg):
        for i in range(x.size):
            e[i] = k._exp(min(x[i], 700.0))
            lg[i] = k._log(max(x[i], 1.0))

    rng = np.random.default_rng(0)
    # exp on [0, 700] (B/|E| of a tunnelling cell), log on [1, 1e304] (exp(B/|E|) + B k t).
    x = np.concatenate([rng.uniform(0.0, 700.0, 200_000), rng.uniform(0.0, 1.0, 50_000),
                        np.exp(rng.uniform(0.0, 700.0, 200_000)), 1.0 + rng.uniform(0.0, 1e-9, 50_000),
                        [0.0, 5e-324, 1.0, math.sqrt(2.0), 2.0, 700.0, 1e304]])
    e, lg = np.empty_like(x), np.empty_like(x)
    exp_log(x, e, lg)
    assert _ulps(e, np.exp(np.minimum(x, 700.0))).max() <= 1.0
    assert _ulps(lg, np.log(np.maximum(x, 1.0))).max() <= 1.0
    assert k._exp(0.0) == 1.0 and k._log(1.0) == 0.0 and k._log(2.0**100) == 100 * math.log(2.0)


# --- ISPP on one cell --------------------------------------------------------------------------------


def test_vth_rises_monotonically_and_stops_at_verify():
    tr = program_cell(CELL, ISPP_SLC_2XNM, vth0=-3.0)
    assert tr.passed and tr.n_pulses == tr.vth.size == tr.v_pulse.size
    assert np.all(np.diff(tr.vth) > 0) and tr.vth[0] > -3.0
    # Starting above the steady regime, the first increments exceed the step, then settle on it.
    assert np.diff(tr.vth)[0] > 1.5 * ISPP_SLC_2XNM.v_step
    assert tr.vth[-1] >= ISPP_SLC_2XNM.v_verify > tr.vth[-2]
    np.testing.assert_array_equal(tr.verified, np.arange(tr.n_pulses) == tr.n_pulses - 1)
    np.testing.assert_allclose(tr.v_pulse, 16.5 + 0.3 * np.arange(tr.n_pulses))
    assert tr.time_us == pytest.approx(tr.n_pulses * 20.0)


@pytest.mark.parametrize("step", [0.2, 0.5])
def test_steady_ispp_slope_is_one(step):
    tr = program_cell(CELL, _with(STEADY, v_step=step, v_verify=9.0), vth0=-3.0)
    slope = np.diff(tr.vth[-10:]) / step
    assert np.all(np.abs(slope - 1.0) < 0.1), slope
    # The increments settle onto the step monotonically (the transient from the erased state).
    assert np.all(np.diff(np.abs(np.diff(tr.vth) - step)) <= 1e-12)


def test_electrons_follow_vth():
    tr = program_cell(CELL, STEADY, vth0=-3.0)
    np.testing.assert_allclose(np.diff(tr.electrons), CELL.c_cg * np.diff(tr.vth) / Q_E, rtol=1e-12)
    assert tr.electrons[-1] == pytest.approx(CELL.c_cg * (tr.vth[-1] - CELL.vth_neutral) / Q_E)


def test_failed_cell_uses_max_pulses():
    tr = program_cell(CELL, _with(STEADY, max_pulses=3))
    assert not tr.passed and tr.n_pulses == 3 and not tr.verified.any()


@pytest.mark.parametrize(
    ("t_ox", "coupling", "vth0"), [(7.5e-9, 0.6, -3.0), (7.0e-9, 0.55, -1.0), (8.5e-9, 0.62, -4.5)]
)
def test_program_cell_matches_reference(t_ox, coupling, vth0):
    cell = FloatingGateCell(t_ox=t_ox, tunnel_area=CELL.tunnel_area, c_cg=CELL.c_cg, coupling=coupling)
    p = ISPP_SLC_2XNM
    vths, n = ref.ispp(vth0, p.v_start, p.v_step, p.v_verify, p.max_pulses, p.t_pulse, **_cell_kwargs(cell))
    tr = program_cell(cell, p, vth0=vth0)
    assert tr.n_pulses == n
    np.testing.assert_allclose(tr.vth, vths, rtol=0, atol=1e-10)


# --- a page ------------------------------------------------------------------------------------------


def test_program_page_matches_reference_per_cell():
    var, seed, n = CellVariation(), 11, 40
    page = program_page(CELL, ISPP_SLC_2XNM, n, var, seed=seed, vth0=-3.0)
    gain, z = ispp_module._cell_draws(CELL, var, n, seed)
    p = ISPP_SLC_2XNM
    for i in range(n):
        # Same cell as a FloatingGateCell with its own oxide (coupling kept: only alpha/t_ox matters).
        kw = _cell_kwargs(CELL) | {"t_ox": CELL.coupling / gain[i]}
        vths, pulses = ref.ispp(-3.0 + var.sigma_vth0 * z[i], p.v_start, p.v_step, p.v_verify, p.max_pulses,
                                p.t_pulse, **kw)
        assert page.pulses[i] == pulses
        assert page.vth[i] == pytest.approx(vths[-1], abs=1e-5)  # float32 result
    assert page.page_pulses == page.pulses.max()


def test_page_width_is_one_step_and_shrinks_with_step():
    """Steady ISPP: verified Vth fill [verify, verify + step) uniformly, std = step / sqrt(12)."""
    results = {}
    for step in (0.4, 0.2):
        page = program_page(CELL, _with(STEADY, v_step=step), 200_000, CellVariation(), seed=5)
        v = page.vth[page.verified].astype(np.float64)
        assert page.verified.all()
        assert v.min() >= STEADY.v_verify
        assert 0.95 * step < v.max() - v.min() < 1.1 * step
        assert v.std() == pytest.approx(step / math.sqrt(12), rel=0.05)
        # Variation spreads the erased Vth by 0.5 V; verify squeezes it to one step.
        assert page.vth0.std() > 2 * v.std()
        results[step] = page
    wide, narrow = results[0.4], results[0.2]
    assert narrow.page_pulses > 1.5 * wide.page_pulses
    assert narrow.time_us > 1.5 * wide.time_us
    assert narrow.pulses.mean() > wide.pulses.mean()


def test_page_histogram_rows():
    page = program_page(CELL, ISPP_SLC_2XNM, 20_000, seed=2, hist_range=(-6.0, 6.0), hist_bins=240)
    assert page.vth_hist.shape == (page.page_pulses + 1, 240)
    assert np.all(page.vth_hist.sum(axis=1) == 20_000)
    clip = lambda a: np.clip(a, -6.0, 6.0 - 1e-9)  # noqa: E731 - out-of-range values go to end bins
    np.testing.assert_array_equal(page.vth_hist[0], np.histogram(clip(page.vth0), page.hist_edges)[0])
    np.testing.assert_array_equal(page.vth_hist[-1], np.histogram(clip(page.vth), page.hist_edges)[0])
    # The mean Vth climbs pulse by pulse.
    centres = 0.5 * (page.hist_edges[1:] + page.hist_edges[:-1])
    means = page.vth_hist @ centres / 20_000
    assert np.all(np.diff(means) > 0)


def test_page_is_deterministic():
    a = program_page(CELL, ISPP_SLC_2XNM, 5000, seed=42)
    b = program_page(CELL, ISPP_SLC_2XNM, 5000, seed=42)
    c = program_page(CELL, ISPP_SLC_2XNM, 5000, seed=43)
    for name in ("vth0", "vth", "pulses", "vth_hist"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert not np.array_equal(a.vth0, c.vth0)


def test_page_does_not_depend_on_thread_count():
    # The page kernel runs chunks of cells in parallel; one thread must give the same page. The
    # slow step leaves some cells unverified (max_pulses reached) and spreads them over chunks.
    slow = _with(ISPP_SLC_2XNM, v_step=0.05, max_pulses=30)
    before = numba.get_num_threads()
    pages = []
    try:
        for threads in (1, before):
            numba.set_num_threads(threads)
            pages.append(program_page(CELL, slow, 40_000, seed=7))
    finally:
        numba.set_num_threads(before)
    a, b = pages
    assert 0 < a.verified.sum() < a.verified.size
    assert a.page_pulses == b.page_pulses
    for name in ("vth", "pulses", "vth_hist"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_no_variation_means_identical_cells():
    page = program_page(CELL, ISPP_SLC_2XNM, 100, CellVariation(0.0, 0.0, 0.0))
    assert np.all(page.vth == page.vth[0]) and np.all(page.pulses == page.pulses[0])
    assert page.vth[0] == pytest.approx(program_cell(CELL, ISPP_SLC_2XNM, -3.0).vth[-1], abs=1e-6)


# --- erase -------------------------------------------------------------------------------------------


def test_erase_block_ends_below_erase_verify():
    page = program_page(CELL, ISPP_SLC_2XNM, 50_000, seed=9)
    er = erase_block(CELL, page.vth, ISPE_2XNM, seed=9)
    assert er.passed and er.n_pulses >= 2
    assert er.vth.max() <= ISPE_2XNM.v_verify
    assert er.time_us == pytest.approx(er.n_pulses * (ISPE_2XNM.t_pulse + ISPE_2XNM.t_verify) * 1e6)
    # One pulse fewer would not have verified: the erase stopped at the first passing verify.
    fewer = erase_block(CELL, page.vth, _with(ISPE_2XNM, max_pulses=er.n_pulses - 1), seed=9)
    assert not fewer.passed and fewer.vth.max() > ISPE_2XNM.v_verify
    # Even an already-erased block gets one pulse (erase, then verify).
    assert erase_block(CELL, er.vth, ISPE_2XNM, seed=9).n_pulses == 1


# --- bad input ---------------------------------------------------------------------------------------

CELL_KW = dict(t_ox=7.5e-9, tunnel_area=6.25e-16, c_cg=1e-17, coupling=0.6)
ISPP_KW = dict(v_start=14.0, v_step=0.3, v_verify=1.5, max_pulses=20, t_pulse=1e-5, t_verify=1e-5)
BAD = ["x", True, float("nan"), -1e3, 1e30]  # wrong type, bool, NaN, negative, out of range


@pytest.mark.parametrize("name", [*CELL_KW, "vth_neutral", "fn_a", "fn_b"])
@pytest.mark.parametrize("bad", BAD)
def test_bad_cell(name, bad):
    with pytest.raises(ValueError, match=name):
        FloatingGateCell(**(CELL_KW | {name: bad}))


def test_cell_coupling_must_leave_room_for_tunnel_oxide():
    with pytest.raises(ValueError, match="coupling"):
        FloatingGateCell(**(CELL_KW | {"coupling": 0.9}))


@pytest.mark.parametrize("name", list(ISPP_KW))
@pytest.mark.parametrize("bad", BAD)
def test_bad_ispp(name, bad):
    with pytest.raises(ValueError, match=name):
        IsppParams(**(ISPP_KW | {name: bad}))


@pytest.mark.parametrize("name", ["sigma_tox_rel", "sigma_coupling", "sigma_vth0"])
@pytest.mark.parametrize("bad", BAD)
def test_bad_variation(name, bad):
    with pytest.raises(ValueError, match=name):
        CellVariation(**{name: bad})


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("cell", lambda: apply_pulse("cell", 0.0, 10.0, 1e-5)),
        ("vth", lambda: apply_pulse(CELL, float("nan"), 10.0, 1e-5)),
        ("vth", lambda: apply_pulse(CELL, [0.0, 99.0], 10.0, 1e-5)),
        ("v_gate", lambda: apply_pulse(CELL, 0.0, "10", 1e-5)),
        ("v_gate", lambda: apply_pulse(CELL, 0.0, 100.0, 1e-5)),
        ("t_pulse", lambda: apply_pulse(CELL, 0.0, 10.0, -1e-5)),
        ("v_erase", lambda: erase(CELL, [0.0], -18.0, 1e-3)),
        ("t_erase", lambda: erase(CELL, [0.0], 18.0, float("nan"))),
        ("vth", lambda: read([[0.0]], 0.0)),
        ("v_ref", lambda: read([0.0], None)),
        ("vth", lambda: CELL.charge("1")),
        ("vth", lambda: CELL.electrons(-50.0)),
        ("v_gate", lambda: CELL.oxide_field(float("inf"), 0.0)),
        ("field", lambda: CELL.current_density(float("nan"))),
        ("cell", lambda: program_cell(None, ISPP_SLC_2XNM)),
        ("ispp", lambda: program_cell(CELL, {"v_start": 14})),
        ("vth0", lambda: program_cell(CELL, ISPP_SLC_2XNM, vth0=-30.0)),
        ("n_cells", lambda: program_page(CELL, ISPP_SLC_2XNM, 0)),
        ("n_cells", lambda: program_page(CELL, ISPP_SLC_2XNM, 10.5)),
        ("variation", lambda: program_page(CELL, ISPP_SLC_2XNM, 10, variation=0.1)),
        ("sigma_coupling",
         lambda: program_page(_with(CELL, coupling=0.1), ISPP_SLC_2XNM, 10, CellVariation(sigma_coupling=0.05))),
        ("seed", lambda: program_page(CELL, ISPP_SLC_2XNM, 10, seed=-1)),
        ("vth0", lambda: program_page(CELL, ISPP_SLC_2XNM, 10, vth0=float("nan"))),
        ("hist_range", lambda: program_page(CELL, ISPP_SLC_2XNM, 10, hist_range=(1.0, -1.0))),
        ("hist_bins", lambda: program_page(CELL, ISPP_SLC_2XNM, 10, hist_bins=0)),
        ("vth", lambda: erase_block(CELL, 1.0, ISPE_2XNM)),
        ("ispe", lambda: erase_block(CELL, [1.0], None)),
        ("seed", lambda: erase_block(CELL, [1.0], ISPE_2XNM, seed="0")),
    ],
)
def test_bad_function_input(name, call):
    with pytest.raises(ValueError, match=name):
        call()


def test_import_compiles_nothing():
    import subprocess
    import sys

    code = (
        "import flashlab, flashlab.cell\n"
        "from flashlab.cell import _kernels as k\n"
        "print(sum(len(f.signatures) for f in (k.pulse_vth, k.pulse_cells, k.ispp_trace, k.ispp_page)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_a_bare_import_loads_no_layer_and_names_load_them_on_first_use():
    import subprocess
    import sys

    code = (
        "import sys, flashlab\n"
        # no layer (flashlab._numba_cache, which sets numba's cache folder, is no layer)
        "print(any(m.split('.')[:2][-1] in flashlab._LAYERS for m in sys.modules if m.startswith('flashlab.')))\n"
        "print(flashlab.cell.program_page.__module__, 'flashlab.ssd' in sys.modules)\n"
        "print(sorted(set(flashlab._LAYERS) - set(dir(flashlab))))\n"
        "try:\n    flashlab.nosuch\nexcept AttributeError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "False"
    assert out[1] == "flashlab.cell.ispp False"
    assert out[2] == "[]"
    assert out[3].startswith("module 'flashlab' has no attribute 'nosuch'; its layers are array, cell")


def test_preset_is_chapter_4s_25nm_planar_cell():
    """Chapter 1's 2X-nm preset and chapter 4's shrink model describe one 25 nm cell."""
    from flashlab.tech.planar import PlanarCell

    planar = PlanarCell(25.0)
    assert CELL.c_cg * 1e18 == pytest.approx(planar.c_cg_af, rel=0.02)
    assert CELL.coupling == pytest.approx(planar.gate_coupling, rel=0.02)
    assert CELL.t_ox * 1e9 == pytest.approx(planar.t_tox_nm, rel=0.02)
    assert CELL.c_tunnel * 1e18 == pytest.approx(planar.c_tox_af, rel=0.02)
    assert 1.0 / CELL.volts_per_electron == pytest.approx(planar.electrons_per_volt, rel=0.02)


def test_a_denormal_fn_b_is_refused_not_a_nan_later():
    with pytest.raises(ValueError, match="fn_b"):
        FloatingGateCell(**(CELL_KW | {"fn_b": 5e-324}))
