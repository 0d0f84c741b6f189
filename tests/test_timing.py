"""Event-driven SSD timing: pipeline limit, Little's law, a read behind an erase, steady state
vs bandwidth / WA, reproducibility and bad input."""

import numpy as np
import pytest

from flashlab.device.timing import timing_preset
from flashlab.ssd import (
    HostLoad, SsdConfig, nand_timeline, page_type_shares, pipeline_limit_iops, simulate_io, ssd_geometry,
)
from flashlab.workload import Workload

SMALL = dict(channels=2, dies_per_channel=2, planes_per_die=1, pages_per_block=32)


def small_config(op=0.25, capacity=64 * 2**20, **kw):
    return SsdConfig(geometry=ssd_geometry(capacity, op, **SMALL), **kw)


@pytest.mark.parametrize("preset,page_size,channels,dies,planes,pages_per_block,steering", [
    ("mlc", 4096, 2, 2, 1, 32, False),    # planes bound: 4 / (tX + mean tPROG) per channel
    ("slc", 16384, 1, 4, 2, 32, False),   # channel bound: 8 planes need more than one bus can carry
    ("tlc", 8192, 2, 1, 2, 32, False),    # 11 lower, 11 middle, 10 upper pages per block
    ("tlc", 4096, 2, 2, 1, 16, False),    # 6 / 5 / 5: the equal-weight mean was 4.7 % too slow
    ("tlc", 4096, 2, 2, 1, 16, True),     # steering balances the types: equal weights
    ("tlc", 4096, 2, 2, 1, 48, False),    # 16 whole word lines: a third of each type
])
def test_gc_off_write_iops_match_pipeline_limit(preset, page_size, channels, dies, planes, pages_per_block, steering):
    g = ssd_geometry(16 * 2**10 * page_size, 0.25, channels=channels, dies_per_channel=dies,
                     planes_per_die=planes, pages_per_block=pages_per_block, page_size=page_size)
    cfg = SsdConfig(geometry=g, timing=preset, gc="off", steering=steering)
    units = channels * dies * planes
    r = simulate_io(cfg, HostLoad(qd=8 * units, write_size=page_size), fills=0.7, seed=3)
    assert not r.stalled and r.counters["gc_copies"] == 0
    limit = pipeline_limit_iops(cfg)
    # a fresh drive runs at the limit, never above it by more than its start and end transients
    # (within 0.3 % in all five cases)
    assert r.iops() == pytest.approx(limit, rel=0.01)
    # the limit formula itself: both regimes are exercised
    tm = timing_preset(preset)
    tx = page_size / tm.channel_mb_s
    per_unit = channels * dies * planes / (tx + page_type_shares(cfg) @ np.asarray(tm.t_prog_us))
    assert limit == pytest.approx(1e6 * min(per_unit, channels / tx))


def test_pipeline_limit_weights_page_types_by_their_share_of_a_block():
    """A page's type is its position in the block (k mod bits): by hand, a 16-page TLC block
    holds 6 lower, 5 middle and 5 upper pages; an MLC block splits evenly, so its limit is the
    plain two-type mean's; with steering every type takes an equal share."""
    def config(timing, pages_per_block=16, steering=False, nand_page_size=None):
        g = ssd_geometry(2**24, 0.25, channels=2, dies_per_channel=2, planes_per_die=1,
                         pages_per_block=pages_per_block)
        return SsdConfig(geometry=g, timing=timing, steering=steering, nand_page_size=nand_page_size)

    tlc = config("tlc")
    assert page_type_shares(tlc) == pytest.approx([6 / 16, 5 / 16, 5 / 16])
    t_block = (6 * 820.5 + 5 * 2225.0 + 5 * 5734.0) / 16  # 2794.875 us, the three types' mean 2926.5
    assert pipeline_limit_iops(tlc) == pytest.approx(4e6 / (tlc.transfer_us + t_block))
    assert page_type_shares(config("tlc", steering=True)) == pytest.approx([1 / 3] * 3)
    # two 4 KiB slots per NAND page: 8 NAND pages per 16-slot block, 3 / 3 / 2
    assert page_type_shares(config("tlc", nand_page_size=8192)) == pytest.approx([3 / 8, 3 / 8, 2 / 8])
    mlc = config("mlc")
    assert page_type_shares(mlc) == pytest.approx([0.5, 0.5])
    assert pipeline_limit_iops(mlc) == pytest.approx(4e6 / (mlc.transfer_us + (850.0 + 2300.0) / 2))


@pytest.mark.parametrize("pages_per_block, nand_page_size", [(48, None), (1152, None), (96, 16384), (2304, 16384)])
def test_blocks_of_whole_word_lines_hold_each_page_type_equally(pages_per_block, nand_page_size):
    """A TLC word line holds one page of each type, so a block of whole word lines holds exactly
    a third of each: the block-mean tPROG is the three types' mean, 2,926.5 us, and the
    4-channel x 2-die x 2-plane drive's pipeline limit (4 KiB NAND pages) 5,444 IOPS."""
    g = ssd_geometry(2**33, 0.25, pages_per_block=pages_per_block)  # no run: only the shares
    cfg = SsdConfig(geometry=g, timing="tlc", nand_page_size=nand_page_size)
    shares = page_type_shares(cfg)
    nand_pages = pages_per_block // cfg.slots
    assert (shares * nand_pages).tolist() == [nand_pages // 3] * 3
    assert float(shares @ np.asarray(cfg.timing.t_prog_us)) == pytest.approx(2926.5, abs=1e-9)
    if nand_page_size is None:
        assert round(pipeline_limit_iops(cfg)) == 5444


def test_channel_bound_case_is_channel_bound():
    g = ssd_geometry(256 * 2**20, 0.25, channels=1, dies_per_channel=4, planes_per_die=2, pages_per_block=32,
                     page_size=16384)
    cfg = SsdConfig(geometry=g, timing="slc", gc="off")
    assert pipeline_limit_iops(cfg) == pytest.approx(1e6 / cfg.transfer_us)


@pytest.mark.parametrize("gc,qd", [("background", 16), ("foreground", 5)])
def test_littles_law_closed_loop(gc, qd):
    r = simulate_io(small_config(gc=gc), HostLoad(qd=qd, workload=Workload(read_fraction=0.3)), fills=1.5, seed=2)
    assert r.counters["gc_copies"] > 0  # GC ran: latencies are far from constant
    mean = r.percentiles()["mean"]
    assert r.iops() * mean / 1e6 == pytest.approx(qd, rel=0.02)


def test_read_behind_erase_waits_about_tbers():
    cfg = SsdConfig(geometry=ssd_geometry(64 * 2**20, 0.25, **SMALL), gc="off")
    tm, tx = cfg.timing, cfg.transfer_us
    alone = nand_timeline([(0.0, "read", 0, 0)], cfg)["latency_us"][0]
    assert alone == pytest.approx(tm.t_read_us[0] + tx)
    out = nand_timeline([(0.0, "erase", 0, 0), (1.0, "read", 0, 0), (1.0, "read", 1, 0)], cfg)
    lat = out["latency_us"]
    assert lat[1] == pytest.approx(tm.t_erase_us - 1.0 + alone, rel=1e-9)  # waits the erase out
    assert lat[2] == pytest.approx(alone)  # another plane is not blocked
    assert lat[1] / alone > 50  # about 60x for MLC: 3000 us erase vs 48 us read
    # with erase suspension the read goes first, once the erase reaches its suspend point; the
    # erase finishes later by the read + resume overhead (it worked on through the suspend latency)
    sus = SsdConfig(geometry=cfg.geometry, gc="off", suspend=True, resume_overhead_us=40.0)
    out = nand_timeline([(0.0, "erase", 0, 0), (1.0, "read", 0, 0)], sus)
    assert out["suspensions"] == 1
    assert out["latency_us"][1] == pytest.approx(sus.suspend_latency_us + alone)
    assert out["done_us"][0] == pytest.approx(tm.t_erase_us + alone + 40.0)


def test_read_waits_for_fast_or_slow_program_and_fifo_vs_read_priority():
    cfg = SsdConfig(geometry=ssd_geometry(64 * 2**20, 0.25, **SMALL), gc="off")
    tm, tx = cfg.timing, cfg.transfer_us
    for page_type in (0, 1):  # MLC lower page 850 us, upper page 2300 us
        out = nand_timeline([(0.0, "program", 0, page_type), (tx + 1.0, "read", 0, 0)], cfg)
        assert out["latency_us"][1] == pytest.approx(tm.t_prog_us[page_type] - 1.0 + tm.t_read_us[0] + tx)
    ops = [(0.0, "erase", 0, 0), (1.0, "program", 0, 0), (2.0, "read", 0, 0)]
    prio = nand_timeline(ops, cfg)["latency_us"]
    fifo = nand_timeline(ops, SsdConfig(geometry=cfg.geometry, gc="off", scheduler="fifo"))["latency_us"]
    assert prio[2] < prio[1] and fifo[2] > fifo[1]  # the read overtakes the program only with priority


def test_steady_state_iops_match_raw_bandwidth_over_wa():
    cfg = small_config(op=0.25, capacity=32 * 2**20)
    r = simulate_io(cfg, HostLoad(qd=32), fills=5, seed=4, samples=100)
    s = r.series
    k = s["time_us"].size * 3 // 5  # the last two fifths: steady state
    dh = s["host_programs"][-1] - s["host_programs"][k]
    dg = s["gc_copies"][-1] - s["gc_copies"][k]
    wa = (dh + dg) / dh
    iops = (s["requests"][-1] - s["requests"][k]) / (s["time_us"][-1] - s["time_us"][k]) * 1e6
    assert wa > 1.5  # GC is doing real work
    assert iops == pytest.approx(pipeline_limit_iops(cfg) / wa, rel=0.10)


def test_fast_page_steering_speeds_up_host_writes_when_gc_absorbs_slow_pages():
    fast = {}
    tm = timing_preset("mlc")
    cut = 0.5 * (tm.t_prog_us[0] + tm.t_prog_us[1])  # between a lower- and an upper-page program
    for steer in (False, True):
        cfg = small_config(op=0.25, capacity=32 * 2**20, steering=steer)
        r = simulate_io(cfg, HostLoad(qd=256, rate_iops=0.2 * pipeline_limit_iops(cfg)), fills=3, seed=5)
        late = r.done_us > np.nanpercentile(r.done_us, 50)  # after GC has started
        fast[steer] = np.mean(r.latency_us[late] < cut)
        assert r.wa > 1.3
    # without steering about half the host writes land on slow (upper) pages; with it host writes
    # take fast pages as far as GC copies absorb the slow ones (at most WA / 2 of a host write's
    # programs are fast pages: about 0.8 at WA 1.6)
    assert 0.35 < fast[False] < 0.65
    assert fast[True] > fast[False] + 0.15


def test_background_gc_hides_behind_a_slow_open_loop_but_not_a_fast_one():
    cfg = small_config(op=0.25, capacity=32 * 2**20)
    limit = pipeline_limit_iops(cfg)
    slow = simulate_io(cfg, HostLoad(qd=256, rate_iops=0.2 * limit), fills=2.5, seed=6)
    fast = simulate_io(cfg, HostLoad(qd=256, rate_iops=0.9 * limit), fills=2.5, seed=6)
    assert slow.counters["gc_copies"] > 0
    assert slow.series["fg_time_us"][-1] == 0.0  # background GC kept up
    assert fast.series["fg_time_us"][-1] > 0.2 * fast.duration_us  # fell to foreground GC
    assert slow.iops() == pytest.approx(0.2 * limit, rel=0.03)  # an open loop delivers its rate
    assert fast.percentiles()["p99"] > 10 * slow.percentiles()["p99"]


def test_same_seed_same_series_other_seed_differs():
    cfg = small_config()
    load = HostLoad(qd=8, workload=Workload("hotcold", read_fraction=0.2))
    a = simulate_io(cfg, load, fills=1.2, seed=7)
    b = simulate_io(cfg, load, fills=1.2, seed=7)
    c = simulate_io(cfg, load, fills=1.2, seed=8)
    np.testing.assert_array_equal(a.latency_us, b.latency_us)
    for name in a.series:
        np.testing.assert_array_equal(a.series[name], b.series[name])
    assert not np.array_equal(a.latency_us, c.latency_us)
    o1 = simulate_io(cfg, HostLoad(rate_iops=1000.0), requests=2000, seed=1)
    o2 = simulate_io(cfg, HostLoad(rate_iops=1000.0), requests=2000, seed=1)
    np.testing.assert_array_equal(o1.arrival_us, o2.arrival_us)


def test_outputs_are_consistent():
    cfg = small_config()
    r = simulate_io(cfg, HostLoad(qd=8, workload=Workload(read_fraction=0.5), read_size=8192), fills=1.0, seed=1)
    p = r.percentiles()
    assert p["p50"] <= p["p99"] <= p["p99.9"] <= p["p99.99"] <= p["max"]
    counts, edges = r.histogram()
    assert counts.sum() == np.isfinite(r.latency_us).sum() and np.all(np.diff(np.log10(edges)) > 0)
    iv = r.intervals(10)
    assert np.nansum(iv["iops"] * np.diff(np.r_[iv["start_us"], iv["end_us"][-1]])) / 1e6 == pytest.approx(
        np.isfinite(r.latency_us).sum(), rel=1e-6)
    assert r.bandwidth_mb_s() == pytest.approx(
        r.pages.sum() * 4096 / r.duration_us, rel=1e-9)
    assert r.counters["host_page_reads"] == 2 * (r.op == 1).sum()
    assert 0 < r.counters["flash_reads"] < r.counters["host_page_reads"]  # unmapped LBAs need no flash read


@pytest.mark.parametrize("make,message", [
    (lambda: HostLoad(qd=-1), "qd must be in"),
    (lambda: HostLoad(rate_iops=-5.0), "rate_iops must be in"),
    (lambda: HostLoad(rate_iops=float("nan")), "rate_iops must be a finite"),
    (lambda: SsdConfig(timing="plc"), "timing must be one of"),
    (lambda: timing_preset("xlc"), "name must be one of"),
    (lambda: SsdConfig(gc="sometimes"), "gc must be one of"),
    (lambda: SsdConfig(geometry=ssd_geometry(8 * 2**20, 0.07)), "geometry must have more than 5 superblocks"),
    (lambda: simulate_io(small_config(), HostLoad(write_size=5000)), "write_size must be a multiple"),
    (lambda: simulate_io(small_config(), fills=-1.0), "fills must be in"),
    (lambda: nand_timeline([(0.0, "scrub", 0, 0)]), "kind must be one of"),
    (lambda: nand_timeline([(0.0, "read", 99, 0)], small_config(gc="off")), "unit must be in"),
])
def test_bad_input_raises_clear_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_gc_off_full_device_stalls_instead_of_hanging():
    r = simulate_io(small_config(gc="off"), HostLoad(qd=4), fills=1.5, seed=1)
    assert r.stalled and "GC is off" in r.stall_reason
    assert np.isnan(r.latency_us).sum() > 0


@pytest.mark.parametrize("kind,page_type", [("program", 0), ("program", 1), ("erase", 0)])
@pytest.mark.parametrize("arrival", [1.0, 5.0, 11.0])
def test_read_arriving_during_program_data_in_suspends_once_the_transfer_is_done(kind, page_type, arrival):
    """Suspension acts on the array operation: a read that arrives while a program's data is
    still crossing the channel waits for the rest of the transfer, then suspends the program
    before it has done any work (an erase has no data-in: the read suspends it at once)."""
    geo = ssd_geometry(64 * 2**20, 0.25, **SMALL)
    tm = timing_preset("mlc")
    ops = [(0.0, kind, 0, page_type), (arrival, "read", 0, 0)]
    sus = SsdConfig(geometry=geo, gc="off", suspend=True, resume_overhead_us=20.0)
    tx, ts = sus.transfer_us, sus.suspend_latency_us
    alone = tm.t_read_us[0] + tx
    on = nand_timeline(ops, sus)
    off = nand_timeline(ops, SsdConfig(geometry=geo, gc="off"))
    op_us = tm.t_erase_us if kind == "erase" else tm.t_prog_us[page_type]
    waited = (tx - arrival) if kind == "program" else 0.0  # rest of the data-in transfer
    assert on["suspensions"] == 1 and off["suspensions"] == 0
    assert on["latency_us"][1] == pytest.approx(waited + ts + alone, rel=1e-9)
    assert on["latency_us"][1] < 0.15 * op_us  # a fraction of the operation it would wait out
    assert off["latency_us"][1] == pytest.approx(op_us + (tx if kind == "program" else 0.0) - arrival + alone,
                                                 rel=1e-9)  # waits the whole operation out
    # the operation itself finishes later by the read and the resume overhead
    assert on["done_us"][0] == pytest.approx(off["done_us"][0] + alone + 20.0, rel=1e-9)


def test_reads_per_suspension():
    """Reads queued when the program's array phase starts, or arriving while it is suspended,
    share one suspension; a read arriving after it resumed suspends it again."""
    geo = ssd_geometry(64 * 2**20, 0.25, **SMALL)
    cfg = SsdConfig(geometry=geo, gc="off", suspend=True, resume_overhead_us=20.0)
    tm, tx, ts = cfg.timing, cfg.transfer_us, cfg.suspend_latency_us
    r0, r1 = tm.t_read_us[0] + tx, tm.t_read_us[1] + tx
    # two reads during the data-in, one during the first read's sense: one suspension, three reads
    out = nand_timeline([(0.0, "program", 0, 1), (1.0, "read", 0, 0), (3.0, "read", 0, 1),
                         (tx + ts + 10.0, "read", 0, 0)], cfg)
    assert out["suspensions"] == 1
    assert out["done_us"][1:] == pytest.approx([tx + ts + r0, tx + ts + r0 + r1, tx + ts + 2 * r0 + r1])
    # the program worked through the suspend latency: its end moves by the reads and the overhead
    assert out["done_us"][0] == pytest.approx(tx + 2 * r0 + r1 + 20.0 + tm.t_prog_us[1])
    # a read arriving after the resume suspends it a second time
    late = tx + ts + r0 + 20.0 + 100.0
    out = nand_timeline([(0.0, "program", 0, 1), (1.0, "read", 0, 0), (late, "read", 0, 0)], cfg)
    assert out["suspensions"] == 2
    assert out["latency_us"][2] == pytest.approx(ts + r0)
    assert out["done_us"][0] == pytest.approx(tx + tm.t_prog_us[1] + 2 * (r0 + 20.0))
    # a read to another plane suspends nothing
    out = nand_timeline([(0.0, "program", 0, 1), (1.0, "read", 1, 0)], cfg)
    assert out["suspensions"] == 0 and out["latency_us"][1] == pytest.approx(r0)


def test_a_read_waits_the_suspend_latency():
    """A hand-worked timeline with a 100 us suspend latency and a 30 us resume overhead on MLC
    (erase 3000 us, lower-page read 48 us + a 12.3 us transfer). An erase starts at 0; a read of
    its plane arrives at 500: the erase runs on to 600, stops with 2400 us left, the read takes
    600 to 660.3, the erase resumes with 30 us added and ends at 660.3 + 30 + 2400 = 3090.3.
    A read arriving at 2950 finds 50 us of erase left, less than the suspend latency: nothing is
    suspended, and it waits for the erase to end at 3000."""
    geo = ssd_geometry(64 * 2**20, 0.25, **SMALL)
    cfg = SsdConfig(geometry=geo, gc="off", suspend=True, resume_overhead_us=30.0, suspend_latency_us=100.0)
    tx = cfg.transfer_us
    assert tx == pytest.approx(12.3, abs=0.01) and cfg.timing.t_erase_us == 3000.0
    read = 48.0 + tx
    out = nand_timeline([(0.0, "erase", 0, 0), (500.0, "read", 0, 0)], cfg)
    assert out["suspensions"] == 1
    assert out["start_us"][1] == pytest.approx(600.0)
    assert out["latency_us"][1] == pytest.approx(100.0 + read)
    assert out["done_us"][0] == pytest.approx(600.0 + read + 30.0 + 2400.0)
    late = nand_timeline([(0.0, "erase", 0, 0), (2950.0, "read", 0, 0)], cfg)
    assert late["suspensions"] == 0
    assert late["done_us"][0] == pytest.approx(3000.0)
    assert late["latency_us"][1] == pytest.approx(50.0 + read)
    # without a suspend latency the read starts the moment it arrives
    now = nand_timeline([(0.0, "erase", 0, 0), (500.0, "read", 0, 0)],
                        SsdConfig(geometry=geo, gc="off", suspend=True, resume_overhead_us=30.0,
                                  suspend_latency_us=0.0))
    assert now["latency_us"][1] == pytest.approx(read)
    assert now["done_us"][0] == pytest.approx(3000.0 + read + 30.0)


_SUSPEND_OPEN_LOOP = """
import hashlib, numpy as np
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.workload import Workload
g = ssd_geometry(4096 * 1024, op=0.3, channels=2, dies_per_channel=1, planes_per_die=2, pages_per_block=8)
r = simulate_io(SsdConfig(geometry=g, suspend=True, timing="tlc"),
                HostLoad(qd=16, rate_iops=5e4, workload=Workload("zipf", read_fraction=0.3)), requests=5000)
h = hashlib.sha256()
for a in (r.arrival_us, r.start_us, r.done_us, *(r.series[k] for k in sorted(r.series))):
    h.update(np.ascontiguousarray(a).tobytes())
print(r.counters["requests_done"], r.counters["suspensions"], h.hexdigest())
"""


def test_open_loop_suspend_keeps_the_event_heap_in_bounds_and_is_deterministic():
    """Suspensions leave stale completion events in the fixed-size event heap; this valid run
    once pushed 15 events into a 14-slot heap and aborted Python (malloc: unaligned tcache chunk).
    Run it in two fresh interpreters: both finish every request with the same arrays."""
    import os
    import subprocess
    import sys

    outs = [subprocess.run([sys.executable, "-c", _SUSPEND_OPEN_LOOP], capture_output=True, text=True,
                           timeout=600, env={**os.environ, "PYTHONHASHSEED": "0"}) for _ in range(2)]
    for o in outs:
        assert o.returncode == 0, o.stderr[-2000:]
    done, suspensions, _ = outs[0].stdout.split()
    assert int(done) == 5000 and int(suspensions) > 0
    assert outs[0].stdout == outs[1].stdout


def test_precondition_larger_than_the_drive_is_refused():
    g = ssd_geometry(256 * 4096, op=0.3, channels=1, dies_per_channel=1, planes_per_die=1, pages_per_block=8)
    with pytest.raises(ValueError, match="precondition_size"):
        simulate_io(SsdConfig(geometry=g), HostLoad(qd=1), requests=10, precondition_fills=1.0,
                    precondition_size=4096 * (g.user_pages + 1))


def test_latency_summary_says_how_many_samples_its_percentiles_rest_on():
    from flashlab.ssd import supported_percentile
    from flashlab.ssd.sim import latency_summary

    lat = np.arange(1643, dtype=float)
    s = latency_summary(lat)
    assert s["n"] == 1643 and latency_summary([])["n"] == 0
    # 1,643 samples (one PTS round of the chapter's drive): 16 beyond p99, 1.6 beyond p99.9
    assert supported_percentile(s["n"], 99.0) and not supported_percentile(s["n"], 99.9)
    assert supported_percentile(1000, 99.0) and not supported_percentile(999, 99.0)
    assert supported_percentile(10**4, 99.9) and not supported_percentile(10**5 - 1, 99.99)
    assert supported_percentile(100, 50.0, tail=50) and not supported_percentile(99, 50.0, tail=50)
    with pytest.raises(ValueError, match="percentile"):
        supported_percentile(100, 100.5)


def test_a_channel_too_slow_to_move_a_page_in_finite_time_is_refused():
    import dataclasses

    with pytest.raises(ValueError, match="channel_mb_s"):
        dataclasses.replace(timing_preset("mlc"), channel_mb_s=5e-324)
