"""The temporary tablespace: sorts too large for memory write their sorted runs to temp and
read them back to merge them, in equal measure.

Model: ``sessions`` sorts run at once, each in its own part of the temp space. A sort writes
``runs`` runs of ``run_bytes`` each, sequentially, in direct-path writes of ``io_bytes``; then
it merges them, reading the runs back ``io_bytes`` at a time in turn (a chunk of run 0, of run
1, ..., then the next chunk of each), so its reads jump between runs. A sort has one I/O in
flight: the requests of all sorts are interleaved round robin and issued by a closed loop
keeping ``sessions`` outstanding, each sort's reads after its writes. The device is a flash
drive (``SsdConfig``) or a hard disk (``HddSpec``), so the same sorts run on both.

Guy Harrison found temp on flash (FusionIO) sped up multi-pass sorts, and temp on Exadata's
flash slightly slower than on its disks: the flash cost more to write and its reads showed
spikes of 600 to 1000 us. Times in microseconds, sizes in bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_seed, quote
from flashlab.db._host import latency_summary
from flashlab.ssd import SsdConfig, run_members


@dataclass(frozen=True)
class TempResult:
    """Outcome of :func:`temp_sort`: ``elapsed_us`` (first write issued to last read done),
    ``write_mb_s`` and ``read_mb_s`` (bytes per microsecond while each kind was in flight,
    first issue to last completion), and the ``write_latency`` and ``read_latency`` summaries
    (p50, p99, p99.9, mean, max in us)."""

    elapsed_us: float
    write_mb_s: float
    read_mb_s: float
    write_latency: dict
    read_latency: dict


def temp_sort(device=None, *, sessions: int = 4, runs: int = 8, run_bytes: int = 2**21, io_bytes: int = 2**18,
              seed: int = 0) -> TempResult:
    """Time ``sessions`` sorts writing ``runs`` runs of ``run_bytes`` and merging them.

    ``device``: ``SsdConfig`` (default ``SsdConfig()``) or ``HddSpec``; ``sessions`` 1..256;
    ``runs`` 1..1024; ``run_bytes`` and ``io_bytes`` multiples of the device's page (LBA) size,
    ``io_bytes`` at most ``run_bytes``; all runs must fit the device."""
    from flashlab.device.hdd import HddSpec

    device = SsdConfig() if device is None else device
    if isinstance(device, SsdConfig):
        unit, capacity = device.geometry.page_size, device.geometry.user_pages
    elif isinstance(device, HddSpec):
        unit, capacity = device.block_size, device.lbas
    else:
        raise ValueError(f"device must be an SsdConfig or an HddSpec; got {quote(device)}")
    check_seed("seed", seed)
    sessions = check_int("sessions", sessions, 1, 256)
    runs = check_int("runs", runs, 1, 1024)
    run_bytes = check_int("run_bytes", run_bytes, 512, 2**34)
    io_bytes = check_int("io_bytes", io_bytes, 512, 2**34)
    if io_bytes > run_bytes:
        raise ValueError(f"io_bytes must not exceed run_bytes; got io_bytes={io_bytes}, run_bytes={run_bytes}")
    for name, v in (("run_bytes", run_bytes), ("io_bytes", io_bytes)):
        if v % unit:
            raise ValueError(f"{name} must be a multiple of the device's {unit}-byte page; got {v}")
    k = io_bytes // unit
    chunks = -(-run_bytes // io_bytes)  # I/Os per run (the last one may be short)
    run_pages = run_bytes // unit
    area = runs * run_pages  # pages of one sort's temp area
    if sessions * area > capacity:
        raise ValueError(f"sessions x runs x run_bytes ({sessions * area * unit} bytes) must fit the device's "
                         f"{capacity * unit} bytes")
    c = np.arange(chunks)
    length = np.minimum(k, run_pages - c * k)
    w_off = (np.arange(runs)[:, None] * run_pages + c[None, :] * k).ravel()  # write: run by run
    w_len = np.tile(length, runs)
    r_off = (np.arange(runs)[None, :] * run_pages + c[:, None] * k).ravel()  # merge: chunk c of every run
    r_len = np.repeat(length, runs)
    per = np.concatenate((w_off, r_off)), np.concatenate((w_len, r_len))
    per_op = np.concatenate((np.zeros(w_off.size, np.int8), np.ones(r_off.size, np.int8)))
    steps = per_op.size
    # round robin over sessions: step i of every session, then step i + 1
    op = np.tile(per_op, sessions).reshape(sessions, steps).T.ravel()
    lba = (per[0][None, :] + (np.arange(sessions) * area)[:, None]).T.ravel()
    pages = np.tile(per[1], sessions).reshape(sessions, steps).T.ravel()
    res = run_members([device], op, lba, pages, np.zeros(op.size, np.int64), qd=sessions, seed=seed)
    if res.error or not np.isfinite(res.done_us).all():
        raise RuntimeError(f"the device did not finish the sorts: {res.error or 'requests left undone'}")
    lat = res.done_us - res.arrival_us
    out = {}
    for name, sel in (("write", op == 0), ("read", op == 1)):
        span = res.done_us[sel].max() - res.arrival_us[sel].min()
        out[name] = (float(pages[sel].sum() * unit / span), latency_summary(lat[sel]))
    return TempResult(elapsed_us=float(res.done_us.max() - res.arrival_us.min()), write_mb_s=out["write"][0],
                      read_mb_s=out["read"][0], write_latency=out["write"][1], read_latency=out["read"][1])
