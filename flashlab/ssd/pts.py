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

Rounds here are equal amounts of data written (PTS uses one-minute rounds). Like the PTS, which
runs rounds until the steady-state criteria hold (up to a maximum), :func:`write_saturation` can
go on past its ``fills`` until they do (``max_fills``). The steady state
reported is the *last* 5 rounds, ``reached`` if their IOPS and their write amplification both
meet the criteria. Taking the first window whose IOPS qualify, as a PTS run that stops there
would, mistakes part of the cliff for the steady state: after the cliff IOPS fall slowly, often
by less than the 10% slope a window allows, while the WA is still climbing. At op 0.2 that
window came at WA 1.65 for queue depth 8 and 2.88 for queue depth 32 (final WA about 3.5), so
queue depth 8 seemed to settle higher (4,020 vs 3,061 IOPS) although in the same rounds it is
slower (about 2,360 vs 2,560 IOPS), as it is after 12 drive writes (about 2,070 vs 2,250).

A drive with a write cache (``SsdConfig.cache_bytes``) acknowledges its first writes from the empty
cache, a few microseconds each, and only then at the rate it programs NAND. The PTS's one-minute
rounds average such a burst away; a round of a tenth of a drive write does not (on the 64 MiB
device of the book a 4 MiB cache takes 1,024 of a round's 1,643 writes, in 0.3 ms, and the first
round reports 26,840 IOPS where the NAND sustains 10,000, so the cliff marker fired at the second
round). The rounds therefore begin once the host has written the cache's capacity: filling the
cache is part of bringing the drive to its starting state, like the purge, and without a cache
nothing changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_array, check_bool, check_int, check_real, check_seed
from flashlab.ssd.sim import (PRECONDITION_SIZE, HostLoad, IoResult, SsdConfig, check_request_count,
                              precondition_requests, simulate_io, wa_terms)
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
    v = check_array("values", values, -1e150, 1e150, min_size=1)  # sums and squares stay finite
    window = check_int("window", window, 2, 10000)
    excursion = check_real("excursion", excursion, 0.0, 10.0)
    slope = check_real("slope", slope, 0.0, 10.0)
    first = check_int("first", first, 0, 2**31 - 1)
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

    Rounds begin after the cache warm-up (the first ``config.cache_slots`` writes, which the empty
    write cache absorbs; none without a cache), which ``round_fills`` counts as data written.

    Per round (arrays): ``round_fills`` (drive writes of random 4 KiB data at the round's end),
    ``round_end_s`` (simulated time at its end, seconds), ``round_iops``, ``round_p99_us``,
    ``round_p999_us``, ``round_wa`` (flash programs / host page writes in the round: host, GC, SLC
    fold and map programs, :func:`~flashlab.ssd.wa_terms`),
    ``round_free_blocks`` (free superblocks at its end), ``round_fg_share`` (share of its time
    in foreground GC).

    Summary: ``fob_iops`` (first round), ``steady`` (:class:`SteadyState` of the IOPS of the
    last 5 rounds, ``reached`` if their IOPS and WA both meet the PTS criteria),
    ``steady_iops`` (the last 5 rounds' mean), ``steady_wa``,
    ``cliff_round`` (first round whose IOPS is below the midpoint of FOB and steady IOPS, -1 if
    steady IOPS is within 20% of FOB: no cliff), ``cliff_fills`` and ``cliff_time_s`` (where that
    round starts), ``gc_round`` (first round in which garbage collection copied a page, -1 if
    none), ``before``: latency percentiles (us) of the requests completed in the rounds before
    ``gc_round`` (the fresh drive, before any GC: it depends only on those rounds, so a longer
    run reports the same), ``after``: those of the steady window (the last 5 rounds),
    ``result``: the simulation the rounds come from (:class:`~flashlab.ssd.sim.IoResult`; when the
    run stopped at a steady state found before its end, it holds more requests than the rounds).
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
    gc_round: int
    before: dict
    after: dict
    result: IoResult


def write_saturation(config: SsdConfig | None = None, *, qd: int = 32, fills: float = 4.0,
                     max_fills: float | None = None, rounds_per_fill: int = 10, precondition: bool = False,
                     seed: int = 0, progress: bool | None = None) -> PtsResult:
    """SNIA PTS Write Saturation: purge, optionally precondition (2x capacity of 128 KiB
    sequential writes), then random 4 KiB writes at queue depth ``qd`` (closed loop) until
    ``fills`` x the user capacity is written, in ``rounds_per_fill`` rounds per capacity.

    With ``max_fills`` (>= ``fills``) the test goes on, as the PTS does, until the last 5 rounds
    meet the steady-state criteria (IOPS and WA) or ``max_fills`` capacities are written: the
    result ends at the first round, at or after ``fills``, that closes a steady window. (The
    simulation is re-run with twice the length each time it needs more rounds; the same seed
    gives the same requests, so the earlier rounds do not change.)

    The page size must be 4 KiB (one host write, one page program). A round's write
    amplification is :func:`~flashlab.ssd.wa_terms` of the sampled series' differences: GC
    copies, an SLC cache's fold copies and a map cache's programs, each its own term.
    """
    config = SsdConfig() if config is None else config
    if not isinstance(config, SsdConfig):
        raise ValueError(f"config must be an SsdConfig; got {config!r}")
    if config.geometry.page_size != 4096:
        raise ValueError(f"page_size must be 4096 bytes for 4 KiB random writes; got {config.geometry.page_size}")
    qd = check_int("qd", qd, 1, 65536)
    fills = check_real("fills", fills, 0.0, 100.0, lo_open=True)
    if max_fills is not None:
        max_fills = check_real("max_fills", max_fills, fills, 100.0)
    rounds_per_fill = check_int("rounds_per_fill", rounds_per_fill, 1, 1000)
    check_seed("seed", seed)
    check_bool("precondition", precondition)
    check_bool("progress", progress, allow_none=True)
    first = max(1, round(fills * rounds_per_fill))
    last = first if max_fills is None else max(first, round(max_fills * rounds_per_fill))
    load = HostLoad(qd=qd, workload=Workload("uniform"), write_size=4096)
    user = config.geometry.user_pages
    warm = config.cache_slots  # writes the empty cache absorbs before round 0
    # the rounds double up to `last`: refuse now a run whose last doubling could not be held
    given = f"{'fills' if max_fills is None else 'max_fills'}={fills if max_fills is None else max_fills:g}"
    check_request_count(round(last / rounds_per_fill * user) + warm,
                        precondition_requests(config.geometry, 2.0 if precondition else 0.0, PRECONDITION_SIZE),
                        f"{given} and precondition={precondition}")
    rounds, check_from = first, first
    while True:
        res = simulate_io(config, load, fills=rounds / rounds_per_fill + warm / user, seed=seed,
                          precondition_fills=2.0 if precondition else 0.0, precondition_size=PRECONDITION_SIZE,
                          samples=rounds * 20, progress=progress)
        stats = _rounds(res, rounds, rounds_per_fill, warm)
        end = next((e for e in range(check_from, rounds + 1) if _steady_window(stats, e).reached), None)
        if end is not None or rounds == last:
            break
        rounds, check_from = min(last, 2 * rounds), rounds + 1
    n_rounds = rounds if end is None else end
    ss = _steady_window(stats, n_rounds)
    *per_round, bounds, lat_sorted = stats
    iops, p99, p999, wa, free, fg, end_s = (a[:n_rounds] for a in per_round)
    bounds = bounds[:n_rounds + 1]
    round_fills = bounds[1:] / user
    fob = float(iops[0])
    window = slice(max(0, n_rounds - 5), n_rounds)
    steady_iops = float(np.nanmean(iops[window]))
    steady_wa = float(np.nanmean(wa[window]))
    cliff = -1
    if steady_iops < 0.8 * fob:
        below = np.flatnonzero(iops < 0.5 * (fob + steady_iops))
        cliff = int(below[0]) if below.size else -1
    cliff_fills = float(bounds[cliff] / user) if cliff >= 0 else math.nan
    t_start = _round0_start_us(res, warm)
    cliff_time = float(end_s[cliff - 1]) if cliff > 0 else (t_start / 1e6 if cliff == 0 else math.nan)
    copied = np.flatnonzero(wa > 1.0)
    gc_round = int(copied[0]) if copied.size else -1
    before_lat = lat_sorted[warm:bounds[gc_round] if gc_round >= 0 else bounds[-1]]
    after_lat = lat_sorted[bounds[window.start]:bounds[window.stop]]
    return PtsResult(
        round_fills=round_fills, round_end_s=end_s, round_iops=iops, round_p99_us=p99, round_p999_us=p999,
        round_wa=wa, round_free_blocks=free, round_fg_share=fg, fob_iops=fob, steady=ss,
        steady_iops=float(steady_iops), steady_wa=steady_wa, cliff_round=cliff, cliff_fills=cliff_fills,
        cliff_time_s=cliff_time, gc_round=gc_round, before=_pcts(before_lat), after=_pcts(after_lat), result=res,
    )


def _round0_start_us(res: IoResult, warm: int) -> float:
    """When round 0 starts (us): the first random write's arrival, or with ``warm`` > 0 the
    acknowledgement of the ``warm``-th random write (the cache warm-up's end)."""
    idx = np.flatnonzero(res.phase == 1)
    if idx.size == 0:
        return 0.0
    if warm == 0:
        return float(res.arrival_us[idx].min())
    return float(np.sort(res.done_us[idx])[min(warm, idx.size) - 1])


def _rounds(res: IoResult, rounds: int, rounds_per_fill: int, warm: int = 0):
    """Per-round IOPS, p99, p99.9, WA, free superblocks, foreground share and end time (s), the
    round boundaries (request counts in completion order) and the latencies in completion order.

    Round ``r`` holds requests ``[w + r U / k, w + (r+1) U / k)`` in completion order (``w`` the
    ``warm`` requests of the cache warm-up, ``U`` user pages, ``k`` rounds per fill; one page
    each, so a closed loop completes them nearly in issue order): the boundaries do not depend on
    the run's length."""
    user = res.user_pages
    idx = np.flatnonzero(res.phase == 1)
    n = idx.size
    done = res.done_us[idx]
    order = np.argsort(done, kind="stable")
    done_sorted = done[order]
    lat_sorted = res.latency_us[idx][order]
    bounds = np.minimum(warm + np.round(np.arange(rounds + 1) * (user / rounds_per_fill)).astype(np.int64), n)
    t_start = _round0_start_us(res, warm)
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
            d = {k: int(s[k][i1] - s[k][i0]) for k in ("host_programs", "gc_copies", "fold_copies", "map_programs")}
            d["host_page_writes"] = d.pop("host_programs")
            wa[r] = wa_terms(d)["wa"]
            dt = s["time_us"][i1] - s["time_us"][i0]
            fg[r] = (s["fg_time_us"][i1] - s["fg_time_us"][i0]) / dt if dt > 0 else np.nan
        free[r] = s["free_blocks"][i1] if s["free_blocks"].size else np.nan
    return iops, p99, p999, wa, free, fg, end_s, bounds, lat_sorted


def _steady_window(stats, end: int) -> SteadyState:
    """The 5 rounds ending before round ``end``: reached if their IOPS and their WA both meet
    the PTS criteria (see the module docstring for why not the first window whose IOPS do)."""
    iops, wa = stats[0], stats[3]
    if end < 5:
        return SteadyState(False, -1, -1, math.nan, math.nan, math.nan)
    window = slice(end - 5, end)
    si = steady_state(np.nan_to_num(iops[window], nan=0.0))
    sw = steady_state(np.nan_to_num(wa[window], nan=0.0))
    ok = si.reached and sw.reached
    return SteadyState(ok, window.start if ok else -1, window.stop - 1 if ok else -1, si.mean, si.excursion,
                       si.slope_change)


def _pcts(lat: np.ndarray) -> dict:
    lat = lat[np.isfinite(lat)]
    if lat.size == 0:
        return {"p50": math.nan, "p99": math.nan, "p99.9": math.nan, "max": math.nan, "requests": 0}
    q = np.percentile(lat, [50.0, 99.0, 99.9])
    return {"p50": float(q[0]), "p99": float(q[1]), "p99.9": float(q[2]), "max": float(lat.max()),
            "requests": int(lat.size)}
