"""A SNIA-PTS-style write saturation experiment and steady-state detection.

SNIA Solid State Storage Performance Test Specification (PTS) 2.0.2:

* purge (here: a fresh device, every block erased),
* optional workload-independent preconditioning: 2x the user capacity in 128 KiB sequential
  writes,
* the Write Saturation test: random 4 KiB writes until 4x the user capacity has been written,
  tracked in rounds; plotting IOPS against data written shows fresh-out-of-box (FOB) IOPS, the
  write cliff and the steady state,
* steady state over a 5-round window: ``max - min <= 20%`` of the window's average (excursion)
  and the best-fit line changes by ``<= 10%`` of the average across the window (slope).

Rounds here are equal amounts of data written (PTS uses one-minute rounds). The steady state
reported is the *last* 5 rounds, ``reached`` if their IOPS and their write amplification both
meet the criteria. Taking the first window whose IOPS qualify, as a PTS run that stops there
would, mistakes part of the cliff for the steady state: after the cliff IOPS fall slowly, often
by less than the 10% slope a window allows, while the WA is still climbing. At op 0.2 that
window came at WA 1.65 for queue depth 8 and 2.88 for queue depth 32 (final WA about 3.5), so
queue depth 8 seemed to settle higher (4,020 vs 3,061 IOPS) although in the same rounds it is
slower (about 2,360 vs 2,560 IOPS), as it is after 12 drive writes (about 2,070 vs 2,250).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_array, check_int, check_real, check_seed
from flashlab.ssd.sim import HostLoad, IoResult, SsdConfig, simulate_io
from flashlab.workload import Workload


@dataclass(frozen=True)
class SteadyState:
    """Outcome of :func:`steady_state`: ``reached``, the window's first and last round
    (``start``, ``end`` inclusive, -1 if not reached), its ``mean``, ``excursion`` ((max - min) /
    mean) and ``slope_change`` (``|fitted slope| x (window - 1) / mean``)."""

    reached: bool
    start: int
    end: int
    mean: float
    excursion: float
    slope_change: float


def steady_state(values, window: int = 5, excursion: float = 0.20, slope: float = 0.10,
                 first: int = 0) -> SteadyState:
    """First window of ``window`` consecutive rounds, starting at or after round ``first``, whose
    values satisfy the SNIA PTS criteria: ``(max - min) <= excursion x mean`` and
    ``|least-squares slope| x (window - 1) <= slope x mean``."""
    v = check_array("values", values, min_size=1)
    check_int("window", window, 2, 10000)
    check_real("excursion", excursion, 0.0, 10.0)
    check_real("slope", slope, 0.0, 10.0)
    check_int("first", first, 0, 2**31 - 1)
    x = np.arange(window, dtype=np.float64)
    best = None
    for start in range(first, v.size - window + 1):
        w = v[start:start + window]
        mean = float(w.mean())
        if mean <= 0:
            continue
        exc = float(w.max() - w.min()) / mean
        sl = float(np.polyfit(x, w, 1)[0])
        change = abs(sl) * (window - 1) / mean
        if best is None:
            best = (start, mean, exc, change)
        if exc <= excursion and change <= slope:
            return SteadyState(True, start, start + window - 1, mean, exc, change)
    if best is None:
        return SteadyState(False, -1, -1, math.nan, math.nan, math.nan)
    return SteadyState(False, -1, -1, best[1], best[2], best[3])


@dataclass(frozen=True)
class PtsResult:
    """Outcome of :func:`write_saturation`.

    Per round (arrays): ``round_fills`` (drive writes of random 4 KiB data at the round's end),
    ``round_end_s`` (simulated time at its end, seconds), ``round_iops``, ``round_p99_us``,
    ``round_p999_us``, ``round_wa`` (flash programs / host page writes in the round),
    ``round_free_blocks`` (free superblocks at its end), ``round_fg_share`` (share of its time
    in foreground GC).

    Summary: ``fob_iops`` (first round), ``steady`` (:class:`SteadyState` of the IOPS of the
    last 5 rounds, ``reached`` if their IOPS and WA both meet the PTS criteria),
    ``steady_iops`` (the last 5 rounds' mean), ``steady_wa``,
    ``cliff_round`` (first round whose IOPS is below the midpoint of FOB and steady IOPS, -1 if
    steady IOPS is within 20% of FOB: no cliff), ``cliff_fills`` and ``cliff_time_s`` (where that
    round starts), ``before`` / ``after``: latency percentiles (us) of requests completed before
    the cliff and in the steady window (or after the cliff), ``result``: the full
    :class:`~flashlab.ssd.sim.IoResult`.
    """

    round_fills: np.ndarray
    round_end_s: np.ndarray
    round_iops: np.ndarray
    round_p99_us: np.ndarray
    round_p999_us: np.ndarray
    round_wa: np.ndarray
    round_free_blocks: np.ndarray
    round_fg_share: np.ndarray
    fob_iops: float
    steady: SteadyState
    steady_iops: float
    steady_wa: float
    cliff_round: int
    cliff_fills: float
    cliff_time_s: float
    before: dict
    after: dict
    result: IoResult


def write_saturation(config: SsdConfig | None = None, *, qd: int = 32, fills: float = 4.0,
                     rounds_per_fill: int = 10, precondition: bool = False, seed: int = 0,
                     progress: bool | None = None) -> PtsResult:
    """SNIA PTS Write Saturation: purge, optionally precondition (2x capacity of 128 KiB
    sequential writes), then random 4 KiB writes at queue depth ``qd`` (closed loop) until
    ``fills`` x the user capacity is written, in ``rounds_per_fill`` rounds per capacity.

    The page size must be 4 KiB (one host write, one page program).
    """
    config = SsdConfig() if config is None else config
    if not isinstance(config, SsdConfig):
        raise ValueError(f"config must be an SsdConfig; got {config!r}")
    if config.geometry.page_size != 4096:
        raise ValueError(f"page_size must be 4096 bytes for 4 KiB random writes; got {config.geometry.page_size}")
    check_int("qd", qd, 1, 65536)
    fills = check_real("fills", fills, 0.0, 100.0, lo_open=True)
    check_int("rounds_per_fill", rounds_per_fill, 1, 1000)
    check_seed("seed", seed)
    rounds = max(1, round(fills * rounds_per_fill))
    load = HostLoad(qd=qd, workload=Workload("uniform"), write_size=4096)
    res = simulate_io(config, load, fills=fills, seed=seed, precondition_fills=2.0 if precondition else 0.0,
                      samples=rounds * 20, progress=progress)
    user = config.geometry.user_pages
    idx = np.flatnonzero(res.phase == 1)
    n = idx.size
    # requests are 1 page each: round r is requests [r n / rounds, (r+1) n / rounds) in issue order,
    # timed by completion order (closed loop: nearly the same).
    done = res.done_us[idx]
    order = np.argsort(done, kind="stable")
    done_sorted = done[order]
    lat_sorted = res.latency_us[idx][order]
    bounds = np.linspace(0, n, rounds + 1).round().astype(np.int64)
    t_start = float(res.arrival_us[idx].min()) if n else 0.0
    s = res.series
    iops, p99, p999, wa, free, fg, end_s = (np.full(rounds, np.nan) for _ in range(7))
    for r in range(rounds):
        a, b = bounds[r], bounds[r + 1]
        if b <= a or not np.isfinite(done_sorted[b - 1]):
            continue
        t0 = t_start if r == 0 else done_sorted[a - 1]
        t1 = done_sorted[b - 1]
        iops[r] = (b - a) / (t1 - t0) * 1e6 if t1 > t0 else np.nan
        p99[r], p999[r] = np.percentile(lat_sorted[a:b], [99.0, 99.9])
        end_s[r] = t1 / 1e6
        i0 = np.searchsorted(s["time_us"], t0)
        i1 = min(np.searchsorted(s["time_us"], t1), s["time_us"].size - 1)
        if i1 > i0:
            dh = s["host_programs"][i1] - s["host_programs"][i0]
            dg = s["gc_copies"][i1] - s["gc_copies"][i0]
            wa[r] = (dh + dg) / dh if dh > 0 else np.nan
            dt = s["time_us"][i1] - s["time_us"][i0]
            fg[r] = (s["fg_time_us"][i1] - s["fg_time_us"][i0]) / dt if dt > 0 else np.nan
        free[r] = s["free_blocks"][i1] if s["free_blocks"].size else np.nan
    round_fills = bounds[1:] / user
    fob = float(iops[0])
    # steady state: the last 5 rounds, if their IOPS and their WA both meet the PTS criteria
    # (see the module docstring for why not the first window that does)
    window = slice(max(0, rounds - 5), rounds)
    ss = SteadyState(False, -1, -1, math.nan, math.nan, math.nan)
    if rounds >= 5:
        si = steady_state(np.nan_to_num(iops[window], nan=0.0))
        sw = steady_state(np.nan_to_num(wa[window], nan=0.0))
        ok = si.reached and sw.reached
        ss = SteadyState(ok, window.start if ok else -1, window.stop - 1 if ok else -1, si.mean, si.excursion,
                         si.slope_change)
    steady_iops = float(np.nanmean(iops[window]))
    steady_wa = float(np.nanmean(wa[window]))
    cliff = -1
    if steady_iops < 0.8 * fob:
        below = np.flatnonzero(iops < 0.5 * (fob + steady_iops))
        cliff = int(below[0]) if below.size else -1
    cliff_fills = float(bounds[cliff] / user) if cliff >= 0 else math.nan
    cliff_time = float(end_s[cliff - 1]) if cliff > 0 else (t_start / 1e6 if cliff == 0 else math.nan)
    before_lat = lat_sorted[:bounds[cliff] if cliff >= 0 else 0]
    after_lat = lat_sorted[bounds[window.start]:bounds[window.stop]]
    return PtsResult(
        round_fills=round_fills, round_end_s=end_s, round_iops=iops, round_p99_us=p99, round_p999_us=p999,
        round_wa=wa, round_free_blocks=free, round_fg_share=fg, fob_iops=fob, steady=ss,
        steady_iops=float(steady_iops), steady_wa=steady_wa, cliff_round=cliff, cliff_fills=cliff_fills,
        cliff_time_s=cliff_time, before=_pcts(before_lat), after=_pcts(after_lat), result=res,
    )


def _pcts(lat: np.ndarray) -> dict:
    lat = lat[np.isfinite(lat)]
    if lat.size == 0:
        return {"p50": math.nan, "p99": math.nan, "p99.9": math.nan, "max": math.nan, "requests": 0}
    q = np.percentile(lat, [50.0, 99.0, 99.9])
    return {"p50": float(q[0]), "p99": float(q[1]), "p99.9": float(q[2]), "max": float(lat.max()),
            "requests": int(lat.size)}
