"""Realistic drive geometry: a PCIe Gen4 datacenter drive's 8 channels x 8 dies x 4 planes with
blocks of 1,152 pages (a superblock of 294,912 pages, once refused: at most 65,535), scaled down
to a few superblocks, runs; memory is checked before anything large is allocated."""

import dataclasses

import numpy as np
import pytest

from flashlab import _validate
from flashlab.device import timing_preset
from flashlab.ftl.core import state_bytes
from flashlab.ssd import Controller, HostInterface, SsdConfig, run_members, ssd_geometry

# 16 KiB mapping units (one per NAND page), a 1,200 MB/s NAND bus (ONFI 4 class): one page
# crosses a channel in 13.65 us
NAND = dataclasses.replace(timing_preset("tlc"), channel_mb_s=1200.0)


def gen4(capacity=2**36, **kw):
    geo = ssd_geometry(capacity, 0.5, channels=8, dies_per_channel=8, planes_per_die=4, pages_per_block=1152,
                       page_size=16384)
    return SsdConfig(geometry=geo, timing=NAND, **kw)


def test_a_datacenter_superblock_runs_at_its_channel_limit():
    cfg = gen4(host=HostInterface.pcie(4, 4), controller=Controller(cores=8, command_us=4.0))
    g = cfg.geometry
    assert cfg.units == 256 and g.pages_per_block * cfg.units == 294_912
    n = 30_000
    rng = np.random.default_rng(1)
    res = run_members([cfg], np.ones(n, np.int8), rng.integers(0, g.user_pages, n), np.ones(n, np.int64),
                      np.zeros(n, np.int64), qd=512, precondition_fills=0.01, seed=1)
    assert not res.error
    done = np.sort(res.done_us)
    a, b = n // 5, 4 * n // 5
    iops = (b - a) / (done[b] - done[a]) * 1e6
    # 8 channels of one 16 KiB page each per 13.65 us: 586,000 reads/s; the 256 planes (~70 us
    # each), the controller (2 M/s) and the link (413,000 16 KiB reads/s at 6.8 GB/s)... the link
    # is the tightest here
    link = HostInterface.pcie(4, 4).link_mb_s * 1e6 / 16384
    assert iops == pytest.approx(min(link, 8 / cfg.transfer_us * 1e6), rel=0.02)


def test_memory_is_checked_before_the_engine_allocates(monkeypatch):
    """Room for the FTL state (built, then stacked: twice), not for the event engine's queues
    (4 x 3 x 256 units x 4,096 operations of 8 bytes, 100 MB): refused, naming them."""
    cfg = gen4()
    ftl = 2 * state_bytes(cfg.ftl_geometry)
    monkeypatch.setattr(_validate, "available_memory_bytes", lambda: ftl + 2**20)
    with pytest.raises(ValueError, match="members: the FTL states with the event engine's queues"):
        run_members([cfg], np.ones(4, np.int8), np.arange(4), np.ones(4, np.int64), np.zeros(4, np.int64))
