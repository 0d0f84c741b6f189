"""The write cliff with a DRAM write cache: the claims of the write-cliff chapter's section 'With
a write cache' (the chapter's drive, op 0.2, a 4 MiB cache with power-loss protection)."""

import numpy as np
import pytest

from flashlab.ssd import HostLoad, simulate_io, write_saturation
from flashlab.viz.ssd import first_last_fill, small_config
from flashlab.workload import Workload

CACHE = 4 * 2**20


def cached(**kw):
    return small_config(0.2, cache_bytes=CACHE, power_loss_protection=True, **kw)


def open_loop(cfg, rate, fills):
    load = HostLoad(qd=32, rate_iops=float(rate), workload=Workload("uniform"))
    return simulate_io(cfg, load, fills=fills, seed=0, progress=False)


def test_below_the_sustained_rate_every_write_takes_the_caches_latency():
    """2,000 writes/s for two drive writes, GC running in the second: every write is acknowledged
    by the cache, exactly cache_latency_us after it arrives; without the cache the median of the
    same writes is a program time and GC adds to the last drive write's tail."""
    cfg = cached()
    r = open_loop(cfg, 2000, 2.0)
    assert r.counters["gc_copies"] > 0  # the collector ran
    assert r.latency_us.size > 30000 and np.allclose(r.latency_us, cfg.cache_latency_us, rtol=0, atol=1e-9)
    off = open_loop(small_config(0.2), 2000, 2.0)
    first, last = first_last_fill(off)
    assert np.median(off.latency_us[first]) > cfg.timing.t_prog_us[0]
    assert np.percentile(off.latency_us[last], 99) > np.percentile(off.latency_us[first], 99)


@pytest.fixture(scope="module")
def saturation():
    return {cache: write_saturation(small_config(0.2, cache_bytes=cache, power_loss_protection=cache > 0),
                                    qd=32, fills=2.0, progress=False) for cache in (0, CACHE)}


def test_the_caches_warm_up_is_not_the_fresh_drive(saturation):
    """The empty cache absorbs its 1,024 slots in a few hundred microseconds; the rounds start
    after that, so FOB IOPS is the NAND pipeline's (within 2% of the drive without a cache, not
    2.7x it) and the cliff comes where it comes without a cache (within a round), not at the
    second round."""
    off, on = saturation[0], saturation[CACHE]
    assert on.fob_iops == pytest.approx(off.fob_iops, rel=0.02)
    assert on.cliff_round >= 5 and abs(on.cliff_fills - off.cliff_fills) <= 0.1 + 1e-9
    warm = cached().cache_slots
    assert on.round_fills[0] == pytest.approx((warm + on.result.user_pages / 10) / on.result.user_pages, abs=1e-3)
    assert on.gc_round == pytest.approx(off.gc_round, abs=1)


def test_the_cliff_stays_with_a_cache(saturation):
    """A full cache admits a write only when a page reaches NAND: after the cliff the drive with
    a cache is as slow as without (same 2 drive writes), and latency at queue depth 32 is Little's."""
    off, on = saturation[0], saturation[CACHE]
    assert on.steady_iops < 0.5 * on.fob_iops
    assert on.steady_iops == pytest.approx(off.steady_iops, rel=0.1)
    assert on.after["p50"] > 100 * cached().cache_latency_us


def test_no_cache_rounds_are_unchanged_by_the_warm_up(saturation):
    """Without a cache there is no warm-up: round 0 starts at the first write's arrival and
    round boundaries fall at whole tenths of the user capacity."""
    off = saturation[0]
    user = off.result.user_pages
    assert np.allclose(off.round_fills * user, np.round(np.arange(1, off.round_fills.size + 1) * user / 10))
    assert off.before["requests"] == pytest.approx(off.gc_round * user / 10, abs=1)
