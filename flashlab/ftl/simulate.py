"""Run a workload through the FTL and measure write amplification.

``WA = flash page programs / host page writes`` (CONTRIBUTING.md), with programs = host writes + GC
copies + wear-levelling copies + refresh copies; each cause is reported separately. The run
starts from an empty device, optionally fills it sequentially once (as SNIA PTS and Desnoyers
2012 do before measuring), then applies ``fills`` drive writes of the workload; the steady-state
figures are measured over the last ``measure_fills`` of them.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from flashlab._validate import check_bool, check_instance, check_int, check_real, check_seed
from flashlab.device.geometry import Geometry
from flashlab.ftl import _kernels as K
from flashlab.ftl.core import SERIES_NAMES, Ftl, FtlConfig
from flashlab.workload import OP_WRITE, EnterpriseEndurance, FileChurn, Trace, Workload

_PRECONDITION_CHUNK = 1 << 20


@dataclass(frozen=True)
class FtlResult:
    """Outcome of :func:`simulate`.

    Attributes
    ----------
    wa_steady : float
        Steady-state write amplification (flash page programs per host page write) over the
        measurement window; NaN if the device turned read-only before the window ended.
    wa_gc, wa_wl, wa_refresh : float
        Its parts: GC, wear-levelling and refresh copies per host write in the window
        (``wa_steady = 1 + wa_gc + wa_wl + wa_refresh``).
    wa_total : float
        Programs / host writes over the whole run, preconditioning fill included.
    counters : dict of int
        Final totals (see :attr:`flashlab.ftl.Ftl.counters`): host_writes, gc_copies, wl_copies,
        refresh_copies (pages), erases (block erases), retired (blocks), ...
    series : dict of 1-D arrays
        Counters sampled every ``sample_every`` host writes (same keys as ``counters``, int64
        running totals), plus ``fills`` (host writes / user pages) and ``wa_interval`` (programs
        / host writes between consecutive samples, NaN at the first).
    erase_counts : int32 array, one per block
    erase_hist : int64 array, ``erase_hist[k]`` = blocks erased k times
    read_only : bool, read_only_reason : str
        Whether (and why) the device stopped accepting writes (blocks worn out).
    user_pages, physical_pages : int
    valid_pages : int
        LBAs mapped at the end (:attr:`flashlab.ftl.Ftl.valid_pages`): what the drive holds as live
        data, which TRIM lowers.
    memory_bytes_per_page : float
        FTL state bytes per physical page.
    """

    wa_steady: float
    wa_gc: float
    wa_wl: float
    wa_refresh: float
    wa_total: float
    counters: dict
    series: dict
    erase_counts: np.ndarray
    erase_hist: np.ndarray
    read_only: bool
    read_only_reason: str
    user_pages: int
    physical_pages: int
    valid_pages: int
    memory_bytes_per_page: float


def simulate(
    geometry: Geometry,
    config: FtlConfig = FtlConfig(),
    workload: Workload | FileChurn | EnterpriseEndurance | Trace = Workload(),
    fills: float = 20.0,
    seed: int = 0,
    *,
    precondition: bool = True,
    measure_fills: float | None = None,
    samples: int = 200,
    progress: bool | None = None,
) -> FtlResult:
    """Simulate ``fills`` drive writes (``fills x user_pages`` host page writes) of a workload.

    Parameters
    ----------
    geometry, config : the device and its FTL.
    workload : a :class:`~flashlab.workload.Workload`, :class:`~flashlab.workload.FileChurn`,
        :class:`~flashlab.workload.EnterpriseEndurance` or :class:`~flashlab.workload.Trace`
        (replayed from the start until enough writes were made).
    fills : float in (0, 10000], drive writes after the preconditioning fill.
    seed : workload and random-victim seed; the same seed gives the same result bit for bit.
    precondition : write every LBA once, sequentially, first.
    measure_fills : float in (0, fills], steady-state window at the end (default ``fills / 2``).
    samples : int in [1, 100000], approximate number of time-series samples.
    progress : show a tqdm bar (default: when stderr is a terminal).
    """
    check_instance("workload", workload, (Workload, FileChurn, EnterpriseEndurance, Trace))
    fills = check_real("fills", fills, 0.0, 10000.0, lo_open=True)
    check_seed("seed", seed)
    measure = fills / 2 if measure_fills is None else check_real(
        "measure_fills", measure_fills, 0.0, 10000.0, lo_open=True)
    if measure > fills:
        raise ValueError(f"measure_fills must be <= fills; got measure_fills={measure_fills!r}, fills={fills!r}")
    samples = check_int("samples", samples, 1, 100000)
    check_bool("precondition", precondition)
    show = check_bool("progress", progress, allow_none=True)
    ftl = Ftl(geometry, config, seed)
    user = geometry.user_pages
    first = user if precondition else 0
    total = first + max(1, round(fills * user))
    every = max(1, total // samples)
    series = np.zeros((total // every + 1, K.NSERIES), dtype=np.int64)
    series[0] = list(ftl.counters.values())
    show = sys.stderr.isatty() if show is None else show
    with tqdm(total=total, disable=not show, unit="write", unit_scale=True) as bar:
        for start in range(0, first, _PRECONDITION_CHUNK):
            lbas = np.arange(start, min(first, start + _PRECONDITION_CHUNK), dtype=np.int32)
            ftl.run(np.full(lbas.size, OP_WRITE, dtype=np.int8), lbas, series=series, sample_every=every)
            bar.update(lbas.size)
        for ops, lbas in workload.chunks(user, seed):
            before = ftl.counters["host_writes"]
            if before >= total or ftl.read_only:
                break
            ftl.run(ops, lbas, series=series, sample_every=every, write_limit=total)
            bar.update(ftl.counters["host_writes"] - before)
    return _result(ftl, series, every, total - round(measure * user))


def _result(ftl: Ftl, series: np.ndarray, every: int, window_start: int) -> FtlResult:
    c = ftl.counters
    hw = c["host_writes"]
    rows = hw // every + 1
    cols = {name: series[:rows, i].copy() for i, name in enumerate(SERIES_NAMES)}
    programs = cols["host_writes"] + cols["gc_copies"] + cols["wl_copies"] + cols["refresh_copies"]
    cols["fills"] = cols["host_writes"] / ftl.geometry.user_pages
    with np.errstate(invalid="ignore", divide="ignore"):
        cols["wa_interval"] = np.concatenate(([np.nan], np.diff(programs) / np.diff(cols["host_writes"])))
    # Steady state: from the sample at or before the window start to the final counters.
    k = min(max(0, window_start) // every, rows - 1)
    dh = hw - cols["host_writes"][k]
    finished = not ftl.read_only and dh > 0
    part = {cause: (c[cause] - cols[cause][k]) / dh if finished else math.nan
            for cause in ("gc_copies", "wl_copies", "refresh_copies")}
    erase_counts = ftl.erase_counts
    return FtlResult(
        wa_steady=1.0 + sum(part.values()) if finished else math.nan,
        wa_gc=part["gc_copies"],
        wa_wl=part["wl_copies"],
        wa_refresh=part["refresh_copies"],
        wa_total=(hw + c["gc_copies"] + c["wl_copies"] + c["refresh_copies"]) / hw if hw else math.nan,
        counters=c,
        series=cols,
        erase_counts=erase_counts,
        erase_hist=np.bincount(erase_counts),
        read_only=ftl.read_only,
        read_only_reason=ftl.read_only_reason,
        user_pages=ftl.geometry.user_pages,
        physical_pages=ftl.geometry.physical_pages,
        valid_pages=ftl.valid_pages,
        memory_bytes_per_page=ftl.memory_bytes / ftl.geometry.physical_pages,
    )
