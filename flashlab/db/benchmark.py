"""How a benchmark drives a drive: fio's ``rwmixread`` against independent rate-limited streams.

* :func:`rwmix` is fio ``rw=randrw`` with ``rwmixread``: a closed loop keeps ``qd`` requests
  outstanding and the direction of each new request is drawn at random (read with probability
  ``rwmixread / 100``, exactly that share over the run), so the IOPS ratio is enforced and reads wait behind the slower writes
  (fio HOWTO; io_u.c; the 2023 "Mixups with rwmixread" post measured 57.3k read IOPS in a
  70/30 mix of 4 KiB reads and 256 KiB writes against 515k with writes capped by ``rate_iops``).
  By Little's law the loop completes ``qd / (r L_r + (1 - r) L_w)`` requests per second
  (:func:`littles_law_read_iops`).
* :func:`streams` is two independent fio jobs with ``rate_iops``: Poisson reads and Poisson
  writes at their own rates (superposed, they are one Poisson stream whose requests are reads
  with probability ``read_iops / (read_iops + write_iops)``); neither waits for the other, and
  a latency percentile at a stated rate is the figure to read.

Both run on the region ``[0, span_fraction x capacity)``, written sequentially first so reads
touch flash, with random requests aligned to their size. Times in microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_real, check_seed
from flashlab.db._host import drive, latency_summary, region_pages, request_pages, run_filled


@dataclass(frozen=True)
class MixResult:
    """Outcome of :func:`rwmix` or :func:`streams`. Per request (all start after the fill's last
    write completed, and times count from then): ``op`` (0 write, 1 read),
    ``arrival_us`` (issue time in a closed loop), ``done_us``, ``latency_us``. ``read_iops``/``write_iops``: completions per
    second over the run (first arrival to last completion); ``read_latency``/``write_latency``:
    p50, p99, p99.9, mean and max (us)."""

    op: np.ndarray
    arrival_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    read_iops: float
    write_iops: float
    read_latency: dict
    write_latency: dict


def _common(config, read_size, write_size, requests, span_fraction, seed):
    config = drive(config)
    check_seed("seed", seed)
    n = check_int("requests", requests, 1, 10**7)
    span_fraction = check_real("span_fraction", span_fraction, 0.0, 1.0, lo_open=True)
    kr = request_pages("read_size", check_int("read_size", read_size, 512, 2**30), config)
    kw = request_pages("write_size", check_int("write_size", write_size, 512, 2**30), config)
    span = region_pages(config, span_fraction)
    if max(kr, kw) > span:
        raise ValueError(f"read_size and write_size must fit the region of span_fraction={span_fraction:g} "
                         f"({span} pages); got {max(kr, kw)} pages")
    return config, n, kr, kw, span


def _requests(rng, is_read, kr, kw, span):
    """Random request addresses aligned to their size inside ``[0, span)``."""
    k = np.where(is_read, kr, kw)
    lba = (rng.random(is_read.size) * (span // k)).astype(np.int64) * k
    return np.where(is_read, 1, 0).astype(np.int8), lba, k


def _result(op, arrival, done) -> MixResult:
    lat = done - arrival
    span_s = (done.max() - arrival.min()) / 1e6
    reads = op == 1
    return MixResult(op=op, arrival_us=arrival, done_us=done, latency_us=lat,
                     read_iops=float(reads.sum() / span_s), write_iops=float((~reads).sum() / span_s),
                     read_latency=latency_summary(lat[reads]), write_latency=latency_summary(lat[~reads]))


def rwmix(config=None, *, rwmixread: float = 70.0, qd: int = 32, read_size: int = 4096, write_size: int = 4096,
          requests: int = 20000, span_fraction: float = 0.5, seed: int = 0) -> MixResult:
    """fio ``randrw`` with ``rwmixread`` (percent of requests that are reads, 0..100) at
    ``iodepth`` ``qd``: a closed loop whose requests' directions are drawn per request.

    ``config``: SsdConfig (default ``SsdConfig()``); sizes in bytes (multiples of the page
    size); ``requests`` after the fill; ``span_fraction`` of the user capacity is touched."""
    config, n, kr, kw, span = _common(config, read_size, write_size, requests, span_fraction, seed)
    r = check_real("rwmixread", rwmixread, 0.0, 100.0) / 100.0
    qd = check_int("qd", qd, 1, 65536)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 12, 1]))
    is_read = rng.permutation(n) < round(r * n)  # directions drawn per request, the quota exact
    op, lba, pages = _requests(rng, is_read, kr, kw, span)
    issue, done = run_filled(config, op, lba, pages, fill_pages=span, qd=qd, seed=seed)
    return _result(op, issue, done)


def streams(config=None, *, read_iops: float, write_iops: float, qd: int = 256, read_size: int = 4096,
            write_size: int = 4096, requests: int = 20000, span_fraction: float = 0.5, seed: int = 0) -> MixResult:
    """Independent Poisson read and write streams at ``read_iops`` and ``write_iops`` requests
    per second (fio jobs with ``rate_iops`` and ``rate_process=poisson``), at most ``qd`` inside
    the drive; latency counts from arrival. Other parameters as :func:`rwmix`."""
    config, n, kr, kw, span = _common(config, read_size, write_size, requests, span_fraction, seed)
    rr = check_real("read_iops", read_iops, 0.0, 1e9)
    wr = check_real("write_iops", write_iops, 0.0, 1e9)
    if rr + wr < 1e-3:
        raise ValueError(f"read_iops + write_iops must be at least 0.001; got {rr + wr:g}")
    qd = check_int("qd", qd, 1, 65536)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 12, 2]))
    arrivals = np.cumsum(rng.exponential(1e6 / (rr + wr), n))
    op, lba, pages = _requests(rng, rng.random(n) < rr / (rr + wr), kr, kw, span)
    arrival, done = run_filled(config, op, lba, pages, fill_pages=span, qd=qd, seed=seed, arrivals=arrivals)
    return _result(op, arrival, done)


def littles_law_read_iops(qd: int, read_fraction: float, read_latency_us: float, write_latency_us: float) -> float:
    """Read IOPS of a closed loop at ``qd`` whose requests are reads with probability
    ``read_fraction`` taking ``read_latency_us`` on average, writes ``write_latency_us``:
    ``read_fraction x qd / (r L_r + (1 - r) L_w)`` (Little's law)."""
    qd = check_int("qd", qd, 1, 65536)
    r = check_real("read_fraction", read_fraction, 0.0, 1.0)
    lr = check_real("read_latency_us", read_latency_us, 1e-3, 1e12)
    lw = check_real("write_latency_us", write_latency_us, 1e-3, 1e12)
    return r * qd / (r * lr + (1.0 - r) * lw) * 1e6
