"""The mapping table on NAND with a limited cache of its translation pages (``SsdConfig.map_cache``,
DFTL: Gupta et al. 2009): no map reads once a span's pages are cached, LRU's closed-form miss
rate past it, each miss's exact cost at queue depth 1, map programs against an LRU oracle and in
the write amplification (two runs worked by hand), and every LBA's last write with the cache in
the path."""

import math
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.ssd import (HostInterface, HostLoad, MapCache, SsdConfig, lru_miss_rate, run_members, simulate_io,
                          ssd_geometry, wa_terms)
from flashlab.ssd.engine import Engine
from flashlab.workload import Workload

from engine_support import drain_and_check_last_writes

PAGE = 4096
PER = PAGE // 4  # LBAs one translation page maps
# 256 MiB of MLC, op 0.25: 65,536 LBAs, 64 translation pages
GEO = ssd_geometry(2**28, 0.25, pages_per_block=64)
TABLE = math.ceil(GEO.user_pages / PER)
# 4 MiB on 4 planes: GC within a few thousand writes
TINY = ssd_geometry(2**22, 0.5, channels=2, dies_per_channel=1, planes_per_die=2, pages_per_block=16)


def _reads(cfg, lba, qd=1, seed=1):
    """Random 4 KiB reads of ``lba`` on a written drive (one untimed fill first)."""
    n = lba.size
    return run_members([cfg], np.ones(n, np.int8), lba, np.ones(n, np.int64), np.zeros(n, np.int64), qd=qd,
                       precondition_fills=0.1, seed=seed)


def test_a_span_that_fits_reads_no_map_page_after_warm_up():
    """A cache of 16 translation pages, reads over the first 16 pages' LBAs: each page is read
    from NAND once (its first miss), never again, and no map page is programmed (reads dirty
    nothing)."""
    cfg = SsdConfig(geometry=GEO, map_cache=MapCache(cached_bytes=16 * PAGE))
    lba = np.random.default_rng(3).integers(0, 16 * PER, 4000)
    c = _reads(cfg, lba, qd=4).counters[0]
    touched = np.unique(lba // PER).size
    assert touched == 16
    assert c["map_loads"] == c["map_reads"] == touched
    assert c["map_programs"] == 0
    assert c["flash_reads"] == lba.size


@pytest.mark.parametrize("cached", [8, 32])
def test_miss_rate_past_the_cache_is_lrus_closed_form(cached):
    """Uniform random reads over the whole drive (64 translation pages): map reads per host read
    within 0.015 of LRU's 1 - cached / table (binomial sd at 20,000 reads is under 0.004; the
    cold start adds at most cached / 20,000)."""
    cfg = SsdConfig(geometry=GEO, map_cache=MapCache(cached_bytes=cached * PAGE))
    n = 20000
    lba = np.random.default_rng(cached).integers(0, GEO.user_pages, n)
    c = _reads(cfg, lba, qd=8).counters[0]
    assert c["map_reads"] / n == pytest.approx(lru_miss_rate(cached, TABLE), abs=0.015)


def test_each_miss_costs_one_map_read_at_queue_depth_1():
    """At queue depth 1 nothing queues: a read that misses waits exactly one translation page's
    sense (SLC mode: the fastest page type's tR) and transfer, so the mean latency exceeds the
    full-DRAM drive's by (map reads / reads) x (tR + transfer); and a Host Memory Buffer's look-up
    adds its ``hit_us`` to every read served from NAND."""
    n = 3000
    lba = np.random.default_rng(5).integers(0, GEO.user_pages, n)
    full = _reads(SsdConfig(geometry=GEO), lba)
    cfg = SsdConfig(geometry=GEO, map_cache=MapCache(cached_bytes=8 * PAGE))
    dram_less = _reads(cfg, lba)
    c = dram_less.counters[0]
    per_miss = min(cfg.timing.t_read_us) + cfg.transfer_us
    assert c["map_reads"] > n // 2
    extra = np.mean(dram_less.latency_us) - np.mean(full.latency_us)
    assert extra == pytest.approx(c["map_reads"] / n * per_miss, rel=1e-9)
    host = HostInterface.pcie(4, 4)
    sram = _reads(SsdConfig(geometry=GEO, host=host, map_cache=MapCache(cached_bytes=8 * PAGE)), lba)
    hmb = _reads(SsdConfig(geometry=GEO, host=host, map_cache=MapCache(cached_bytes=8 * PAGE, hit_us=2.5)), lba)
    assert np.mean(hmb.latency_us) - np.mean(sram.latency_us) == pytest.approx(2.5, rel=1e-9)


def _lru_oracle(pages, capacity):
    """(loads, dirty evictions) of an LRU cache of ``capacity`` translation pages written in the
    order ``pages`` (every access dirties its page)."""
    cache = OrderedDict()
    loads = evictions = 0
    for t in pages:
        if t in cache:
            cache.move_to_end(t)
            continue
        loads += 1
        if len(cache) >= capacity:
            cache.popitem(last=False)
            evictions += 1  # written pages only: every one is dirty
        cache[t] = True
    return loads, evictions


def test_map_programs_follow_an_lru_oracle_and_count_in_write_amplification():
    """Random 4 KiB writes into a write cache (admitted in order) on a drive that collects
    garbage: translation pages loaded and dirty ones programmed back exactly as a Python LRU of
    the same pages predicts; host + GC + map programs are the NAND programs done, and the write
    amplification counts the map's beside GC's."""
    cfg = SsdConfig(geometry=TINY, cache_bytes=16 * PAGE, map_cache=MapCache(cached_bytes=PAGE, entry_bytes=16))
    per = PAGE // 16  # 256 LBAs: the drive's 1,024 LBAs in 4 translation pages, one cached
    r = simulate_io(cfg, HostLoad(qd=4, workload=Workload("uniform", read_fraction=0.0)), fills=3.0, seed=2)
    c = r.counters
    assert not r.stalled and c["gc_copies"] > 0
    loads, evictions = _lru_oracle(r.lba // per, 1)
    assert c["map_loads"] == c["map_reads"] == loads
    assert c["map_programs"] == evictions > 0
    hw = c["host_page_writes"]
    assert c["host_programs"] == hw and c["gc_programs"] == c["gc_copies"]
    assert r.wa == pytest.approx((hw + c["gc_programs"] + evictions) / hw, rel=1e-12)
    assert r.wa_map == pytest.approx(evictions / hw, rel=1e-12) and r.wa_fold == 0.0
    assert r.wa == pytest.approx(1 + r.wa_gc + r.wa_fold + r.wa_map, rel=1e-12)


def _writes(cfg, lba, qd=1):
    """One 4 KiB write of each LBA of ``lba``, in order, on a fresh drive; its counters."""
    n = lba.size
    r = run_members([cfg], np.zeros(n, np.int8), lba, np.ones(n, np.int64), np.zeros(n, np.int64), qd=qd,
                    precondition_fills=0.0, seed=1)
    assert r.error == ""
    return r.counters[0]


def test_write_amplification_of_map_programs_by_hand():
    """60 writes on a fresh drive, three at a time into one translation page, the pages taken in
    turn 0, 1, 2, 3, 0, ... with one cached: each group of three loads its page (20 loads), and
    each load but the first evicts the dirty page before it (19 map programs; the last stays
    cached). 60 pages fit in one of the drive's 24 superblocks: no GC. So
    WA = (60 host + 0 GC + 19 map) / 60 = 79 / 60."""
    cfg = SsdConfig(geometry=TINY, map_cache=MapCache(cached_bytes=PAGE, entry_bytes=16))
    per = PAGE // 16  # LBAs per translation page
    group = np.arange(20)
    lba = ((group % 4) * per + 7 * group)[:, None] + np.arange(3)  # 3 LBAs of page group % 4
    c = _writes(cfg, lba.ravel())
    assert (c["host_page_writes"], c["host_programs"], c["gc_programs"]) == (60, 60, 0)
    assert (c["map_loads"], c["map_programs"]) == (20, 19)
    assert wa_terms(c) == {"wa": pytest.approx(79 / 60, rel=1e-12), "gc": 0.0, "fold": 0.0,
                           "map": pytest.approx(19 / 60, rel=1e-12)}


def test_write_amplification_of_gc_and_map_programs_by_hand():
    """The drive's 1,024 LBAs written in order (16 full superblocks of 64 pages, 8 free), then
    the first 48 LBAs of every 64 again (768 writes): each old superblock keeps 16 valid pages
    once its 48 are rewritten, and greedy GC always finds one, so every victim copies 16 pages.
    Background GC collects while fewer than 4 superblocks are free: after the 28 superblocks of
    host writes, V victims free 24 + V - 28 - ceil(16 V / 64) superblocks, 3 at V = 10 and 4 at
    V = 11, so it stops at 11 victims and 176 copies. The map (4 translation pages, one cached)
    is loaded 4 times per pass in LBA order: 8 loads, 7 programs. So
    WA = (1,792 host + 176 GC + 7 map) / 1,792, at queue depth 1 (GC has the idle units it
    needs and finishes before the run ends)."""
    cfg = SsdConfig(geometry=TINY, map_cache=MapCache(cached_bytes=PAGE, entry_bytes=16))
    assert (cfg.gc, cfg.gc_background, TINY.user_pages) == ("background", 4, 1024)
    lba = np.arange(1024)
    c = _writes(cfg, np.concatenate([lba, lba[lba % 64 < 48]]))
    assert (c["host_page_writes"], c["host_programs"]) == (1792, 1792)
    assert (c["gc_victims"], c["gc_copies"], c["gc_programs"], c["free_blocks"]) == (11, 176, 176, 4)
    assert (c["map_loads"], c["map_programs"]) == (8, 7)
    t = wa_terms(c)
    assert t["wa"] == pytest.approx((1792 + 176 + 7) / 1792, rel=1e-12)
    assert (t["gc"], t["fold"], t["map"]) == (pytest.approx(176 / 1792), 0.0, pytest.approx(7 / 1792))


@pytest.mark.parametrize("counters,match", [
    ({"host_page_writes": 1}, r"counters must be a mapping with host_page_writes and gc_copies"),
    (None, r"counters must be a mapping"),
    ({"host_page_writes": 1, "gc_copies": -1, "fold_copies": 0, "map_programs": 0}, r"counters\['gc_copies'\] must"),
    ({"host_page_writes": 1.5, "gc_copies": 0, "fold_copies": 0, "map_programs": 0},
     r"counters\['host_page_writes'\] must"),
])
def test_bad_wa_counters(counters, match):
    with pytest.raises(ValueError, match=match):
        wa_terms(counters)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), cached=st.sampled_from([1, 2, 4]), cache=st.sampled_from([0, 8 * PAGE]))
def test_every_lba_maps_its_last_write_with_a_map_cache(seed, cached, cache):
    """Random writes and reads of 1-3 pages on a small drive whose map cache holds 1-4 of its 4
    translation pages, with and without a write cache: every request completes, every LBA maps a
    page holding its last write, every host page read is a flash read or a cache hit, and every
    map read loaded a page."""
    cfg = SsdConfig(geometry=TINY, cache_bytes=cache, map_cache=MapCache(cached_bytes=cached * PAGE, entry_bytes=16))
    rng = np.random.default_rng(seed)
    n = 1500
    op = (rng.random(n) < 0.3).astype(np.int8)
    pages = rng.integers(1, 4, n)
    lba = rng.integers(0, TINY.user_pages - 3, n)
    op[: n // 10] = 0  # written first: the reads find data
    e = Engine([cfg], op, lba, pages, np.zeros(n, np.int64), None, 8, [8], [-1], [], 1, seed)
    c, _ = drain_and_check_last_writes(e, op, lba, pages)
    assert c["map_reads"] == c["map_loads"] > 0
    assert c["flash_reads"] + c["cache_read_hits"] <= c["host_page_reads"]


@pytest.mark.parametrize("kw,match", [
    (dict(map_cache=MapCache(cached_bytes=100)), r"map_cache.cached_bytes must be in \[4096, "),
    (dict(map_cache=MapCache(cached_bytes=PAGE, entry_bytes=3)), r"map_cache.entry_bytes must divide the page size"),
    (dict(map_cache=MapCache(cached_bytes=PAGE, hit_us=1.0)), r"map_cache.hit_us must be 0 without a host interface"),
    (dict(map_cache=4096), r"map_cache must be a MapCache or None"),
])
def test_bad_map_cache_config(kw, match):
    with pytest.raises(ValueError, match=match):
        SsdConfig(geometry=GEO, **kw)


@pytest.mark.parametrize("kw,match", [
    (dict(cached_bytes=0), r"cached_bytes must be in \[1, "),
    (dict(cached_bytes=PAGE, entry_bytes=0), r"entry_bytes must be in \[1, 16\]"),
    (dict(cached_bytes=PAGE, hit_us=-1.0), r"hit_us must be in \[0"),
])
def test_bad_map_cache(kw, match):
    with pytest.raises(ValueError, match=match):
        MapCache(**kw)
