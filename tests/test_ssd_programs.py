"""One-shot word-line programming (SsdConfig.one_shot): hand-worked timelines on one plane, the
page types a word line holds, the pipeline limit, and what one_shot refuses."""

import dataclasses

import numpy as np
import pytest

from flashlab.device import Geometry, timing_preset
from flashlab.ssd import HostLoad, SsdConfig, pipeline_limit_iops, run_members, simulate_io, ssd_geometry
from flashlab.workload import Workload

TLC = dataclasses.replace(timing_preset("tlc"), t_prog_one_shot_us=1500.0)


def one_plane(**kw) -> SsdConfig:
    """One channel, one die, one plane of TLC with a 1,500 us one-shot program; 48-slot blocks."""
    geo = Geometry(channels=1, dies_per_channel=1, planes_per_die=1, blocks_per_plane=32, pages_per_block=48,
                   page_size=4096, op=0.5)
    return SsdConfig(geometry=geo, timing=TLC, one_shot=True, gc="off", **kw)


def test_a_write_through_pads_its_word_line_and_programs_it_once():
    """No cache: each write goes through, so its word line is padded (two slots) and programmed
    in one one-shot time: 3 transfers + 1,500 us, and two padding programs per write."""
    cfg = one_plane()
    n = 10
    r = simulate_io(cfg, HostLoad(qd=1, workload=Workload(pattern="sequential")), requests=n, progress=False)
    assert r.latency_us == pytest.approx(np.full(n, 3 * cfg.transfer_us + 1500.0), abs=1e-9)
    assert r.counters["pad_programs"] == 2 * n
    assert r.counters["host_programs"] == n


def test_cached_writes_are_durable_a_word_line_at_a_time():
    """With a cache, three slots fill a word line: the k-th write is on NAND when word line
    k // 3 has been programmed, each word line taking three transfers and one one-shot program."""
    cfg = one_plane(cache_bytes=2**20)
    n = 12
    r = simulate_io(cfg, HostLoad(qd=12, workload=Workload(pattern="sequential")), requests=n, progress=False)
    wl = 3 * cfg.transfer_us + 1500.0
    expected = (np.arange(n) // 3 + 1) * wl
    assert r.durable_us == pytest.approx(expected, abs=1e-9)
    assert r.counters["pad_programs"] == 0


def test_each_word_line_holds_one_page_of_each_type():
    """Writes 0..5 (through the cache) fill two word lines; reading them back long after, one at
    a time, senses lower, middle, upper, lower, middle, upper: tR of each type, then the
    transfer."""
    cfg = one_plane(cache_bytes=2**20)
    n = 6
    ops = np.r_[np.zeros(n), np.ones(n)].astype(np.int8)
    lba = np.r_[np.arange(n), np.arange(n)]
    arrivals = np.r_[np.arange(n, dtype=float), 1e5 + 1e3 * np.arange(n)]
    r = run_members([cfg], ops, lba, np.ones(2 * n, np.int64), np.zeros(2 * n, np.int64), qd=16, arrivals=arrivals)
    t_read = np.asarray(TLC.t_read_us)
    assert r.latency_us[n:] == pytest.approx(t_read[np.arange(n) % 3] + cfg.transfer_us, abs=1e-9)


def test_fresh_write_rate_is_the_one_shot_pipeline_limit():
    """4 planes on 2 channels, a deep cache: the NAND absorbs three slots per (3 tX + one-shot)
    per plane, which pipeline_limit_iops predicts; without one-shot the types' mean tPROG."""
    geo = ssd_geometry(2**24, 0.3, channels=2, dies_per_channel=2, planes_per_die=1, pages_per_block=48)
    cfg = SsdConfig(geometry=geo, timing=TLC, one_shot=True, gc="off", cache_bytes=2**20)
    limit = pipeline_limit_iops(cfg)
    assert limit == pytest.approx(2 * 2 * 3 / (3 * cfg.transfer_us + 1500.0) * 1e6)
    r = simulate_io(cfg, HostLoad(qd=64), fills=0.6, seed=2, progress=False)
    dur = np.sort(r.durable_us)
    a, b = dur.size // 5, 4 * dur.size // 5
    assert (b - a) / (dur[b] - dur[a]) * 1e6 == pytest.approx(limit, rel=0.02)
    plain = SsdConfig(geometry=geo, timing=TLC, gc="off")
    assert pipeline_limit_iops(plain) == pytest.approx(2 * 2 / (plain.transfer_us + 2926.5) * 1e6)


@pytest.mark.parametrize("kw, name", [
    (dict(timing="tlc"), "one_shot"),                      # no one-shot time given
    (dict(timing=dataclasses.replace(timing_preset("slc"), t_prog_one_shot_us=300.0)), "one_shot"),
    (dict(timing=TLC, steering=True), "steering"),
    (dict(timing=TLC, pages_per_block=32), "pages_per_block"),   # not whole word lines
    (dict(timing=TLC, one_shot=1), "one_shot"),
])
def test_one_shot_refusals(kw, name):
    ppb = kw.pop("pages_per_block", 48)
    geo = ssd_geometry(2**27, 0.3, pages_per_block=ppb)
    kw.setdefault("one_shot", True)
    with pytest.raises(ValueError, match=name):
        SsdConfig(geometry=geo, **kw)


def test_one_shot_time_is_validated():
    with pytest.raises(ValueError, match="t_prog_one_shot_us"):
        dataclasses.replace(timing_preset("tlc"), t_prog_one_shot_us=-1.0)


def one_die(planes=2, **kw) -> SsdConfig:
    """One channel, one die of ``planes`` SLC planes (200 us programs, 25 us reads)."""
    geo = Geometry(channels=1, dies_per_channel=1, planes_per_die=planes, blocks_per_plane=32, pages_per_block=16,
                   page_size=4096, op=0.5)
    return SsdConfig(geometry=geo, timing="slc", gc="off", **kw)


@pytest.mark.parametrize("multi_plane", [False, True])
def test_multi_plane_programs_wait_for_every_plane_then_program_once(multi_plane):
    """Four cached writes on a 2-plane die. Multi-plane: pages 0 and 1 cross the channel, then one
    200 us program writes both; pages 2 and 3 follow. Independent planes: plane 0 programs page
    0 after one transfer, plane 1 page 1 after two; page 2 waits for plane 0."""
    cfg = one_die(multi_plane=multi_plane, cache_bytes=2**20)
    tx = cfg.transfer_us
    r = simulate_io(cfg, HostLoad(qd=4, workload=Workload(pattern="sequential")), requests=4, progress=False)
    if multi_plane:
        expected = [2 * tx + 200, 2 * tx + 200, 2 * (2 * tx + 200), 2 * (2 * tx + 200)]
    else:
        expected = [tx + 200, 2 * tx + 200, 2 * tx + 400, 3 * tx + 400]
    assert r.durable_us == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("multi_plane", [False, True])
def test_multi_plane_reads_on_one_die_wait_for_each_other(multi_plane):
    """Two reads of pages on the two planes of one idle die, issued together: independent planes
    sense side by side (the second waits only for the channel); a multi-plane die senses one
    page at a time (no independent plane reads)."""
    cfg = one_die(multi_plane=multi_plane)
    tx = cfg.transfer_us
    ops = np.array([0, 0, 1, 1], np.int8)
    lba = np.array([0, 1, 0, 1])
    arrivals = np.array([0.0, 0.0, 1e4, 1e4])
    r = run_members([cfg], ops, lba, np.ones(4, np.int64), np.zeros(4, np.int64), qd=4, arrivals=arrivals)
    got = np.sort(r.latency_us[2:])
    if multi_plane:
        assert got == pytest.approx([25 + tx, 2 * (25 + tx)], abs=1e-9)
    else:
        assert got == pytest.approx([25 + tx, 25 + 2 * tx], abs=1e-9)


def test_multi_plane_one_shot_rate_is_its_pipeline_limit():
    """2 channels x 2 dies x 2 planes of one-shot TLC programmed multi-plane: a die programs 2
    planes x 3 pages in one 1,500 us one-shot, after 6 transfers. The engine runs 3.7% below the
    limit: the two dies of a channel take it slot by slot, so when both load their six slots at
    once each waits for the other's (the limit counts a channel's time, not such overlaps)."""
    geo = ssd_geometry(2**25, 0.3, channels=2, dies_per_channel=2, planes_per_die=2, pages_per_block=48)
    cfg = SsdConfig(geometry=geo, timing=TLC, one_shot=True, multi_plane=True, gc="off", cache_bytes=2**20)
    assert cfg.program_slots == 6 and cfg.array_units == 4
    limit = pipeline_limit_iops(cfg)
    assert limit == pytest.approx(2 * min(2 * 6 / (6 * cfg.transfer_us + 1500.0), 1 / cfg.transfer_us) * 1e6)
    r = simulate_io(cfg, HostLoad(qd=64), fills=0.6, seed=2, progress=False)
    dur = np.sort(r.durable_us)
    a, b = dur.size // 5, 4 * dur.size // 5
    rate = (b - a) / (dur[b] - dur[a]) * 1e6
    assert 0.95 * limit < rate <= limit


@pytest.mark.parametrize("page", [4096, 8192])
def test_a_read_of_a_word_line_senses_each_page_type(page):
    """One-shot programming writes a word line's three pages at once, but reading them takes a
    sense each (each page type is read at its own reference voltages): one request of a whole
    word line senses lower, middle and upper in turn, each followed by its slots' transfers (the
    second slot of an 8 KiB page comes out of the register)."""
    cfg = one_plane(cache_bytes=2**20, nand_page_size=page)
    k = cfg.program_slots  # one word line
    ops = np.array([0] * k + [1], np.int8)
    lba = np.r_[np.arange(k), 0]
    pages = np.r_[np.ones(k, np.int64), k]
    r = run_members([cfg], ops, lba, pages, np.zeros(k + 1, np.int64), qd=16, arrivals=np.r_[np.zeros(k), 1e5])
    assert r.counters[0]["senses"] == 3
    assert r.latency_us[-1] == pytest.approx(sum(TLC.t_read_us) + k * cfg.transfer_us, abs=1e-9)


@pytest.mark.parametrize("page, fewer", [(4096, False), (16384, True)])
def test_gc_copy_reads_reuse_the_sensed_page(page, fewer):
    """GC copies a victim's valid slots in order; a slot whose NAND page is still in the
    register (its neighbour was just sensed) needs no sense of its own. With one slot per page
    every copy read senses; with four, fewer do, but at least a quarter (one per page)."""
    geo = ssd_geometry(2**24, 0.25, channels=2, dies_per_channel=1, planes_per_die=2, pages_per_block=32)
    cfg = SsdConfig(geometry=geo, timing="slc", nand_page_size=page, cache_bytes=2**20)
    r = simulate_io(cfg, HostLoad(qd=8), fills=3.0, seed=1, progress=False)
    c = r.counters
    assert c["gc_reads"] > 1000 and c["host_page_reads"] == 0
    if fewer:
        assert c["gc_reads"] / 4 <= c["senses"] < c["gc_reads"]
    else:
        assert c["senses"] == c["gc_reads"]
