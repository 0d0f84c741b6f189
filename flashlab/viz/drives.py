"""Explorable of the real-drives appendix: pick a drive (:mod:`flashlab.drives`) and a workload.

* :func:`pick_drive`: preset x workload (4 KiB random reads, random writes, a 70/30 mix, 128 KiB
  sequential reads or writes) -> IOPS, bandwidth and latency percentiles with the number of
  requests they rest on, a log-scale histogram of read and write latency, and the datasheet's
  figure for the same workload where it quotes one.

The drives keep every channel, die, plane and page but only 1.25 times the fewest blocks per
plane their FTL's reserve allows (:meth:`~flashlab.drives.Drive.small_config`), so that a point
answers within the live explorables' 100 ms: a drive is written untimed before its first read
(so reads find data), and writing a drive cut to 128 blocks per plane took the PM9A3 200-270 ms. The runs are short and start fresh or just written, where the scale does not
set the rates (what it does set, the steady state, is :func:`~flashlab.drives.validate`'s).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.models import ColumnDataSource

from ..drives import DRIVES
from ..drives.validate import DEEP_QD, SEQ_BYTES, SEQ_QD
from ..ssd import run_members, supported_percentile
from ..workload import OP_READ, OP_WRITE
from .explorable import Control, Explorable
from .ssd import AFTER, BEFORE, log_histogram_columns, overlaid_log_histograms
from .style import legend_below, summary_column, summary_html

#: Requests per point (a p99 of reads needs 1,000).
REQUESTS = 2000
#: Workloads: (read share, request bytes, the datasheet metric quoting it).
WORKLOADS = {
    "random read": (1.0, 4096, "random_read_iops"),
    "random write": (0.0, 4096, "random_write_iops"),
    "70/30 mix": (0.7, 4096, None),
    "sequential read": (1.0, SEQ_BYTES, "seq_read_mb_s"),
    "sequential write": (0.0, SEQ_BYTES, "seq_write_mb_s"),
}
NAMES = {d.name: key for key, d in DRIVES.items()}
#: Histogram range (us).
LO_US, HI_US = 10.0, 1e5


@lru_cache(maxsize=64)
def drive_point(key: str, workload: str, requests: int = REQUESTS, seed: int = 0):
    """Run ``workload`` (a key of :data:`WORKLOADS`) on preset ``key`` as its
    :meth:`~flashlab.drives.Drive.small_config`, closed loop at the validation's queue depths;
    returns (ops, latency_us, rate per second, MB/s). Reads and the mix run on a written drive,
    writes on a fresh one."""
    drive = DRIVES[key]
    config = drive.small_config()
    read_share, size, _ = WORKLOADS[workload]
    k = size // 4096
    user = config.geometry.user_pages
    rng = np.random.default_rng(np.random.SeedSequence([seed, 11]))
    n = min(requests, user // k // 2)
    op = np.where(rng.random(n) < read_share, OP_READ, OP_WRITE).astype(np.int8)
    lba = np.arange(n, dtype=np.int64) * k if k > 1 else rng.integers(0, user, n)
    qd = SEQ_QD if k > 1 else min(DEEP_QD, drive.host.max_qd)
    res = run_members([config], op, lba, np.full(n, k, np.int64), np.zeros(n, np.int64), qd=qd, seed=seed,
                      precondition_fills=1e-9 if read_share > 0 else 0.0, progress=False)
    span = res.done_us.max() - res.arrival_us.min()
    return op, res.latency_us, n / span * 1e6, n * size / span


def percentile_text(lat_us: np.ndarray) -> str:
    """p50, p99, p99.9 and p99.99 (ms) of ``lat_us``, each only if its sample supports it
    (:func:`~flashlab.ssd.supported_percentile`: ten requests beyond it), with the count they rest
    on."""
    n = lat_us.size
    shown = [p for p in (50.0, 99.0, 99.9, 99.99) if supported_percentile(n, p)]
    vals = np.percentile(lat_us, shown) / 1e3
    return " / ".join(f"p{p:g} {v:.3f}" for p, v in zip(shown, vals)) + f" ms ({n:,} requests)"


def pick_drive(seed: int = 0) -> Explorable:
    """Drive and workload -> rate, bandwidth, latency percentiles and histograms, beside the
    datasheet figure for that workload."""

    def compute(drive, workload):
        key = NAMES[drive]
        op, lat, rate, mb_s = drive_point(key, workload, REQUESTS, seed)
        reads, writes = lat[op == OP_READ], lat[op == OP_WRITE]
        metric = WORKLOADS[workload][2]
        fig = DRIVES[key].figure(metric) if metric else None
        if fig is None:
            quoted = "The datasheet quotes no figure for this workload."
        else:
            unit = "MB/s" if metric.endswith("mb_s") else "IOPS"
            model = mb_s if unit == "MB/s" else rate
            quoted = (f"The datasheet: <b>{fig.value:,.0f} {unit}</b> ({fig.note or 'as quoted'}), "
                      f"the model {model / fig.value:.2f} times that.")
        parts = [f"reads {percentile_text(reads)}" if reads.size else "",
                 f"writes {percentile_text(writes)}" if writes.size else ""]
        return {
            "hist": log_histogram_columns(LO_US, HI_US, reads=reads, writes=writes),
            "summary": summary_html(
                f"<b>{drive}</b>, {workload}: <b>{rate:,.0f} IOPS</b>, <b>{mb_s:,.0f} MB/s</b>. Latency "
                f"{'; '.join(p for p in parts if p)}. {quoted}"),
        }

    controls = [Control("drive", "Drive", tuple(NAMES), DRIVES["pm9a3"].name, fmt="{}"),
                Control("workload", "Workload", tuple(WORKLOADS), "random read", fmt="{}")]

    def figure(data):
        h = ColumnDataSource(data["hist"])
        p = overlaid_log_histograms("Latency of each request", "latency (ms, log scale)", "share of requests (%)",
                                    LO_US, HI_US, h, [("reads", BEFORE, "reads"), ("writes", AFTER, "writes")])
        legend_below(p)
        return summary_column(data, p, targets={"hist": h})

    return Explorable(compute, figure, controls)
