"""What every database host model shares: fill the region a workload touches, run the requests on
one drive with :func:`flashlab.ssd.run_members`, and summarise latencies. Times in microseconds."""

from __future__ import annotations

import numpy as np

from flashlab._validate import check_instance
from flashlab.ssd import SsdConfig, run_members
from flashlab.ssd.sim import latency_summary as summary_of

FILL_PAGES = 32  # pages per sequential write that fills a region before a workload reads it


def drive(config) -> SsdConfig:
    """``config`` or the default drive."""
    return SsdConfig() if config is None else check_instance("config", config, SsdConfig)


def run_filled(config: SsdConfig, op, lba, pages, *, fill_pages: int, qd: int, seed: int, arrivals=None,
               others=(), device=None, host=None, any_of=None, precondition_fills: float = 0.0):
    """Write logical pages ``[0, fill_pages)`` sequentially (up to ``FILL_PAGES`` at a time: a
    read of a page never written would need no flash), then run the requests (``op`` 0 write /
    1 read, first ``lba``, ``pages``) on one drive.

    With ``others`` (further members, e.g. an HddSpec), ``device[i]`` is request ``i``'s member
    (0 the drive, 1.. ``others``), ``host[i]`` its host I/O (non-decreasing from 0) and
    ``any_of[h]`` true makes host I/O ``h`` done at its first request (see
    :func:`flashlab.ssd.run_members`); ``qd`` then counts host I/Os. The fill goes to the drive.
    ``fill_pages`` 0: no fill (``config`` may then be an HddSpec), closed loop only.

    The requests start when the fill has ended (``run_members``' ``barrier``): none of them
    shares the drive with the fill's last writes. ``arrivals`` None: a closed loop at ``qd``,
    ``qd`` requests issued at once when the fill's last write completes, then one per
    completion. Otherwise ``arrivals`` (us, from the fill's end) are an open loop with at most
    ``qd`` inside the drive. Returns ``(issue_us, done_us)``: the requests' issue (closed loop)
    or arrival (open loop) and completion times, from the fill's end (fill excluded).

    ``precondition_fills`` > 0 replaces the timed fill: the drive is written whole, untimed,
    then given this many drive fills of random writes (:func:`flashlab.ssd.run_members`'s
    preconditioning), so the requests start on a used drive in steady state (closed loop only);
    times then count from the start of the run."""
    if precondition_fills > 0:
        fill_pages = 0
    chunk = max(1, min(FILL_PAGES, fill_pages // qd))
    starts = np.arange(0, fill_pages, chunk, dtype=np.int64)
    f_pages = np.minimum(chunk, fill_pages - starts)
    if 0 < fill_pages and starts.size < qd:  # a region smaller than qd pages: rewrite its pages until there are qd writes
        starts = np.arange(qd, dtype=np.int64) % fill_pages
        f_pages = np.ones(qd, np.int64)
    nf = starts.size
    op = np.asarray(op, np.int8)
    all_op = np.concatenate((np.zeros(nf, np.int8), op))
    all_lba = np.concatenate((starts, np.asarray(lba, np.int64)))
    all_pages = np.concatenate((f_pages, np.asarray(pages, np.int64)))
    members = [config, *others]
    fan = {}
    if others:
        all_dev = np.concatenate((np.zeros(nf, np.int64), np.asarray(device, np.int64)))
        fan = {"host": np.concatenate((np.arange(nf, dtype=np.int64), nf + np.asarray(host, np.int64))),
               "any_of": np.concatenate((np.zeros(nf, bool), np.asarray(any_of, bool)))}
    else:
        all_dev = np.zeros(all_op.size, np.int64)
    if arrivals is not None:
        arrivals = np.concatenate((np.zeros(nf), np.asarray(arrivals, np.float64)))
    res = _run(members, all_op, all_lba, all_pages, all_dev, arrivals, qd, seed, fan, precondition_fills, nf)
    start = float(res.done_us[:nf].max()) if nf else 0.0  # the fill's end: the barrier lifts
    return res.arrival_us[nf:] - start, res.done_us[nf:] - start


def _run(members, op, lba, pages, device, arrivals, qd, seed, fan, precondition_fills, barrier):
    res = run_members(members, op, lba, pages, device, arrivals=arrivals, qd=qd, seed=seed,
                      precondition_fills=precondition_fills, barrier=barrier, **fan)
    if res.error or not np.isfinite(res.done_us).all():
        raise RuntimeError(f"the drive did not finish the workload: {res.error or 'requests left undone'}")
    return res


def latency_summary(latency_us) -> dict:
    """p50, p99, p99.9, max and mean of latencies (us); NaN for none."""
    return summary_of(latency_us, (50.0, 99.0, 99.9))


def region_pages(config: SsdConfig, span_fraction: float) -> int:
    """Logical pages in the first ``span_fraction`` of the user capacity (at least one)."""
    return max(1, int(config.geometry.user_pages * span_fraction))


def request_pages(name: str, size: int, config: SsdConfig) -> int:
    """Pages of a request of ``size`` bytes (a whole multiple of the page size)."""
    page = config.geometry.page_size
    if size % page:
        raise ValueError(f"{name} must be a multiple of the drive's page size {page} bytes; got {size}")
    return size // page
