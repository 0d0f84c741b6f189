"""The validation harness: each datasheet figure of a drive, simulated, beside the datasheet.

The workloads are the ones datasheets quote (fio- or Iometer-like, closed loop):

* ``random_read_iops``: 4 KiB random reads of a written drive at a deep queue (:data:`DEEP_QD`, or
  the interface's limit: NCQ's 32 on SATA);
* ``random_write_iops``: 4 KiB random writes to a fresh (purged) drive, the same queue, before
  garbage collection starts;
* ``steady_write_iops``: 4 KiB random writes after two drive fills of them (untimed
  preconditioning, the SNIA PTS steady state), measured over the last half of a timed run of
  at least :data:`STEADY_SUPERBLOCKS` superblocks;
* ``seq_read_mb_s`` / ``seq_write_mb_s``: 128 KiB sequential reads of a written drive, writes to
  a fresh one, queue depth 32 (a drive with an SLC cache: writes the cache absorbs);
* ``direct_write_mb_s``: 128 KiB sequential writes once the SLC cache is full (drives with one:
  the run first writes the cache's bytes, then measures the writes after them);
* ``read_latency_us``: the mean latency of 4 KiB random reads at queue depth 1.

Each result rests on a stated number of requests (:class:`Validation` keeps them). Rates are
counted from the first arrival to the last completion of the measured requests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_choice, check_instance, check_int, check_real, check_seed
from flashlab.drives.drive import METRICS, TOLERANCE, Drive
from flashlab.ssd import run_members, slc_write_plateaus
from flashlab.workload import OP_READ, OP_WRITE

#: Queue depth of the "deep queue" rates (NVMe datasheets quote QD32 x 4 to 16 threads).
DEEP_QD = 256
#: Sequential request size (bytes) and queue depth.
SEQ_BYTES, SEQ_QD = 128 * 1024, 32
#: Drive fills of random writes before the steady-state measurement (untimed).
STEADY_FILLS = 2.0
#: A write run holds at least this many times the drive's write buffer (in 4 KiB requests).
BUFFER_MULTIPLE = 20
#: A steady-state run writes at least this many superblocks (one block of every plane), so that
#: garbage collection, not the free blocks left by the preconditioning, sets its measured half.
STEADY_SUPERBLOCKS = 8
#: The default size of a validation run: blocks kept per plane (superblocks), enough for the FTL's
#: reserve of free and open superblocks to be a small share of the spare area.
BLOCKS_PER_PLANE = 512


@dataclass(frozen=True)
class Row:
    """One metric of one drive: the model's figure, the datasheet's, their ratio, whether it is
    the calibration figure, the requests it rests on, and whether it passes (within
    :data:`~flashlab.drives.drive.TOLERANCE` or the preset's allowance)."""

    metric: str
    model: float
    datasheet: float
    ratio: float
    calibration: bool
    requests: int
    passes: bool
    low: float
    high: float


@dataclass(frozen=True)
class Validation:
    """:func:`validate`'s result: ``rows`` (one :class:`Row` per datasheet figure, in
    :data:`~flashlab.drives.drive.METRICS` order), the drive and its scale."""

    drive: Drive
    capacity_scale: float
    rows: tuple

    def row(self, metric: str) -> Row:
        check_choice("metric", metric, tuple(r.metric for r in self.rows))
        return next(r for r in self.rows if r.metric == metric)

    def table(self) -> str:
        """The rows as text, one per line."""
        lines = [f"{self.drive.name} (scale {self.capacity_scale:.3g})"]
        for r in self.rows:
            tag = "calibration" if r.calibration else ("ok" if r.passes else "MISS")
            lines.append(f"  {r.metric:<18} model {r.model:>12,.1f}  datasheet {r.datasheet:>12,.1f}  "
                         f"ratio {r.ratio:5.2f}  ({r.requests:,} requests)  {tag}")
        return "\n".join(lines)


def _run(config, op, lba, pages, qd, seed, precondition_fills=0.0):
    res = run_members([config], op, lba, pages, np.zeros(op.size, np.int64), qd=qd, seed=seed,
                      precondition_fills=precondition_fills, progress=False)
    if res.error:
        raise RuntimeError(f"the validation run stopped: {res.error}")
    return res


def _rate(res, last: float = 1.0) -> float:
    """Requests per second over the last ``last`` share of the run's completions."""
    done = np.sort(res.done_us)
    k = int(round(done.size * (1 - last)))
    t0 = res.arrival_us.min() if k == 0 else done[k - 1]
    return (done.size - k) / (done[-1] - t0) * 1e6


def measure(drive: Drive, metric: str, *, capacity_scale: float | None = None, requests: int = 20000,
            seed: int = 0) -> tuple[float, int]:
    """Simulate ``metric`` on ``drive`` at ``capacity_scale`` (default: :data:`BLOCKS_PER_PLANE`
    blocks per plane): the figure (IOPS, MB/s or microseconds) and the requests it rests on
    (``requests`` in [100, 10**7], fewer for sequential runs that would pass the drive's end)."""
    check_instance("drive", drive, Drive)
    check_choice("metric", metric, METRICS)
    check_int("requests", requests, 100, 10**7)
    check_seed("seed", seed)
    scale = drive.scale_for(min(BLOCKS_PER_PLANE, drive.blocks_per_plane)) if capacity_scale is None else \
        check_real("capacity_scale", capacity_scale, 0.0, 1.0, lo_open=True)
    config = drive.config(scale)
    user = config.geometry.user_pages
    rng = np.random.default_rng(np.random.SeedSequence([seed, 7]))
    deep = min(DEEP_QD, drive.host.max_qd)
    seq = SEQ_BYTES // 4096
    if metric in ("random_read_iops", "read_latency_us", "random_write_iops", "steady_write_iops"):
        n = requests if metric != "read_latency_us" else max(100, requests // 10)
        write = metric in ("random_write_iops", "steady_write_iops")
        if write:  # many times the write buffer, so that the rate is the NAND's, not the buffer's
            n = max(n, BUFFER_MULTIPLE * drive.write_buffer_bytes // 4096)
        if metric == "steady_write_iops":  # GC collects many superblocks during the measured half
            n = max(n, STEADY_SUPERBLOCKS * drive.units * config.geometry.pages_per_block)
        if metric == "random_write_iops":
            n = min(n, user // 4)  # a quarter of the drive: no GC before the run ends
        op = np.full(n, OP_WRITE if write else OP_READ, np.int8)
        lba = rng.integers(0, user, n)
        qd = 1 if metric == "read_latency_us" else deep
        fills = STEADY_FILLS if metric == "steady_write_iops" else (0.0 if metric == "random_write_iops" else 1e-9)
        res = _run(config, op, lba, np.ones(n, np.int64), qd, seed, fills)
        if metric == "read_latency_us":
            return float(np.mean(res.latency_us)), n
        return _rate(res, 0.5 if metric == "steady_write_iops" else 1.0), n
    # sequential: reads of a written drive, writes to a fresh one (before GC: half the drive)
    n = min(requests // 4, user // seq // 2)
    if n < 10:
        raise ValueError(f"capacity_scale: the drive must hold 20 sequential requests of {SEQ_BYTES} bytes; got "
                         f"{user * 4096} bytes at capacity_scale={scale!r}")
    write = metric != "seq_read_mb_s"
    fill = 0  # requests that fill the SLC cache first (direct writes), unmeasured
    if write and config.slc is not None:
        knee = -(-slc_write_plateaus(config).knee_bytes // SEQ_BYTES)
        if metric == "seq_write_mb_s":
            n = min(n, knee)  # into the cache
        else:
            fill = knee
            n = min(n, user // seq - fill)
    op = np.full(fill + n, OP_WRITE if write else OP_READ, np.int8)
    lba = np.arange(fill + n, dtype=np.int64) * seq
    res = _run(config, op, lba, np.full(fill + n, seq, np.int64), SEQ_QD, seed, 0.0 if write else 1e-9)
    return _rate(res, n / (fill + n)) * SEQ_BYTES / 1e6, n


def validate(drive: Drive, *, capacity_scale: float | None = None, requests: int = 20000, seed: int = 0) -> Validation:
    """Every datasheet figure of ``drive`` simulated (:func:`measure`) and set beside the datasheet."""
    check_instance("drive", drive, Drive)
    rows = []
    for metric in METRICS:
        fig = drive.figure(metric)
        if fig is None:
            continue
        model, n = measure(drive, metric, capacity_scale=capacity_scale, requests=requests, seed=seed)
        ratio = model / fig.value
        allow = drive.allowance(metric)
        low, high = (allow.low, allow.high) if allow else (1 - TOLERANCE, 1 + TOLERANCE)
        rows.append(Row(metric=metric, model=model, datasheet=fig.value, ratio=ratio,
                        calibration=metric in drive.calibrations, requests=n, passes=low <= ratio <= high,
                        low=low, high=high))
    scale = drive.scale_for(min(BLOCKS_PER_PLANE, drive.blocks_per_plane)) if capacity_scale is None else capacity_scale
    return Validation(drive=drive, capacity_scale=scale, rows=tuple(rows))
