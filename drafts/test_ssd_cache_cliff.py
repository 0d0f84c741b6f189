"""The write cliff with a DRAM write cache: the claims of chapter 'The write cliff', section
'With a write cache' (the chapter's drive, op 0.2, a 4 MiB cache with power-loss protection)."""

import numpy as np
import pytest

from flashlab.ssd import HostLoad, simulate_io, write_saturation
from flashlab.viz.ssd import first_last_fill, small_config
from flashlab.workload import Workload

CACHE = 4 * 2**20


def cached(**kw):
    return small_config(0.2, cache_bytes=CACHE, power_loss_protection=True, **kw)


def open_loop(cfg, rate, fills):
    return simulate_io(cfg, HostLoad(qd=32, rate_iops=float(rate), workload=Workload("uniform")), fills=fills, seed=0,
                       progress=False)


def test_fresh_drive_write_latency_is_the_caches():
    """2,000 writes/s on a fresh drive: every write is acknowledged by the cache, exactly
    cache_latency_us after it arrives; without the cache the median is a program time."""
    cfg = cached()
    r = open_loop(cfg, 2000, 0.5)
    lat = r.latency_us[r.op == 0]
    assert lat.size > 1000 and np.allclose(lat, cfg.cache_latency_us, rtol=1e-9, atol=1e-9)
    off = open_loop(small_config(0.2), 2000, 0.5)
    assert np.median(off.latency_us) > cfg.timing.t_prog_us[0]
