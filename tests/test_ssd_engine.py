"""The timing engine's state and its multi-device API: the event heap's bound under suspension
(the configuration that corrupted memory, run in a subprocess so a crash fails the test), stall
reasons, many devices on one clock, the GC-group limit and the hard-disk member."""

import hashlib
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from flashlab.device.hdd import CHEETAH_15K7, HddSpec
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.ssd.engine import run_members
from flashlab.workload import Workload

from isolate import run_isolated

# issue 9: a valid call that overflowed the event heap (stale events of suspended operations)
# and aborted with "malloc(): unaligned tcache chunk"
CRASHER = """
import hashlib, numpy as np
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.workload import Workload
r = simulate_io(SsdConfig(geometry=ssd_geometry(4096 * 1024, op=0.3, channels=2, dies_per_channel=1,
                                                planes_per_die=2, pages_per_block=8), suspend=True, timing="tlc"),
                HostLoad(qd=16, rate_iops=5e4, workload=Workload("zipf", read_fraction=0.3)), requests=5000)
h = hashlib.sha256()
for a in (r.arrival_us, r.start_us, r.done_us, *r.series.values()):
    h.update(np.ascontiguousarray(a).tobytes())
print(r.counters["requests_done"], r.counters["suspensions"], h.hexdigest())
"""


def _digest(r):
    h = hashlib.sha256()
    for a in (r.arrival_us, r.start_us, r.done_us, *r.series.values()):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def test_open_loop_suspend_config_that_overflowed_the_heap_completes_the_same_in_every_process():
    ns = {}
    exec(CRASHER.replace("print(", "out = ("), ns)  # in this process first: warms the compile cache
    here = " ".join(str(v) for v in ns["out"])
    runs = [subprocess.run([sys.executable, "-c", CRASHER], capture_output=True, text=True, timeout=600,
                           env=dict(os.environ)) for _ in range(2)]
    for p in runs:
        assert p.returncode == 0, p.stderr[-2000:]
    done, suspensions, _ = here.split()
    assert int(done) == 5000 and int(suspensions) > 100
    assert runs[0].stdout.strip() == runs[1].stdout.strip() == here


def test_a_write_that_never_fits_stalls_with_the_true_reason():
    cfg = SsdConfig(geometry=ssd_geometry(2**21, 0.5, channels=1, dies_per_channel=1, planes_per_die=1,
                                          pages_per_block=16))
    r = simulate_io(cfg, HostLoad(qd=2, write_size=cfg.geometry.user_pages * 4096), requests=3)
    assert r.stalled and cfg.gc == "background"
    assert "GC is off" not in r.stall_reason and "free space GC keeps" in r.stall_reason
    assert r.counters["requests_done"] == 1  # the first whole-drive write fits a fresh drive, no other
    iv = r.intervals(5)  # requests never issued have no arrival time (NaN): ignored
    assert np.isfinite(iv["start_us"]).all() and np.nansum(iv["iops"] * (iv["end_us"] - iv["start_us"])) == \
        pytest.approx(1e6)


def test_precondition_larger_than_the_drive_is_refused():
    cfg = SsdConfig(geometry=ssd_geometry(2**21, 0.5, channels=1, dies_per_channel=1, planes_per_die=1,
                                          pages_per_block=16))
    with pytest.raises(ValueError, match="precondition_size must be at most"):
        simulate_io(cfg, requests=10, precondition_fills=1.0, precondition_size=4096 * (cfg.geometry.user_pages + 1))


def test_request_past_a_members_end_names_lba_and_pages():
    """A request whose pages run past the member's last LBA is refused naming both lba and pages
    (found by fuzz_api ssd: a too-long request was reported as a bad lba only)."""
    from flashlab.ssd import ServiceMember

    m = ServiceMember(mean_us=10.0, lbas=170)
    with pytest.raises(ValueError, match=r"lba and pages: .* 170 LBAs \(lba \+ pages <= 170\); "
                                         r"got request 1 with lba=0, pages=171"):
        run_members([m], [0, 1], [0, 0], [4, 171], [0, 0])


def _flash(op=0.25):
    return SsdConfig(geometry=ssd_geometry(2**24, op, channels=2, dies_per_channel=1, planes_per_die=2,
                                           pages_per_block=16))


def test_one_member_is_simulate_io_and_members_on_one_clock_do_not_disturb_each_other():
    cfg = _flash()
    n = 3000
    single = simulate_io(cfg, HostLoad(qd=8, rate_iops=6000.0, workload=Workload("uniform", read_fraction=0.3)),
                         requests=n, seed=3)
    # two members, each sent the single run's requests, interleaved on one clock
    arr = np.concatenate([single.arrival_us, single.arrival_us + 0.25])
    order = np.argsort(arr, kind="stable")
    op, lba, pages = (np.tile(a, 2)[order] for a in (single.op, single.lba, single.pages))
    device = np.repeat([0, 1], n)[order]
    m = run_members([cfg, cfg], op, lba, pages, device, arrivals=arr[order], qd=8, seed=3)
    for d, shift in ((0, 0.0), (1, 0.25)):
        sel = device == d
        np.testing.assert_array_equal(m.done_us[sel] - shift, single.done_us)
        assert m.counters[d]["gc_copies"] == single.counters["gc_copies"]
    assert m.error == ""


def test_gc_group_limit_holds_across_devices():
    """Two drives under the same random writes: left alone, both collect at once at times; in
    one GC group limited to one, never both do, and every write still completes. (Two members,
    like the test above: each member count compiles the engine once.)"""
    cfg = _flash()
    D, n = 2, 12000
    rng = np.random.default_rng(5)
    user = cfg.geometry.user_pages
    device = np.arange(n) % D
    lba = rng.integers(0, user, n)
    op, pages = np.zeros(n, np.int8), np.ones(n, np.int64)
    free = run_members([cfg] * D, op, lba, pages, device, qd=16, gc_group=[0] * D, gc_limits=[D])
    one = run_members([cfg] * D, op, lba, pages, device, qd=16, gc_group=[0] * D, gc_limits=[1])
    assert free.max_collecting[0] >= 2
    assert one.max_collecting[0] == 1
    assert np.isfinite(one.done_us).all() and one.error == ""
    assert sum(c["gc_victims"] for c in one.counters) > 4 * D


def test_hdd_random_8k_read_is_seek_plus_half_a_turn_plus_transfer():
    n = 3000
    rng = np.random.default_rng(1)
    spec = CHEETAH_15K7
    lba = rng.integers(0, spec.lbas - 2, n)
    m = run_members([spec], np.ones(n, np.int8), lba, np.full(n, 2), np.zeros(n, np.int64), qd=1)
    mean = float(np.mean(m.latency_us))
    expect = spec.random_access_us(8192)
    assert expect == pytest.approx(3400 + 2000 + 8192 * np.log(204 / 122) / 82, rel=1e-12)
    assert mean == pytest.approx(expect, rel=0.05)
    # sequential reads after the first pay no seek and (nearly) no rotation: media rate
    seq = run_members([spec], np.ones(200, np.int8), np.arange(200) * 2, np.full(200, 2), np.zeros(200, np.int64),
                      qd=1)
    assert np.median(seq.latency_us[1:]) < 0.2 * spec.revolution_us


@pytest.mark.parametrize("kw,message", [
    (dict(rpm=100.0), "rpm must be in"),
    (dict(seek_average_ms=0.1), "seek_average_ms must be in"),
    (dict(transfer_inner_mb_s=300.0), "transfer_inner_mb_s must be in"),
    (dict(name=""), "name must be"),
    (dict(write_cache_bytes=-4096), "write_cache_bytes must be in"),
    (dict(write_cache_bytes=6000), "write_cache_bytes must be a whole number of blocks"),
    (dict(write_cache_latency_us=-1.0), "write_cache_latency_us must be in"),
])
def test_hdd_spec_is_validated(kw, message):
    base = dict(name="x", rpm=10000.0, seek_track_ms=0.3, seek_average_ms=4.0, transfer_outer_mb_s=200.0,
                transfer_inner_mb_s=100.0, capacity_bytes=10**12)
    with pytest.raises(ValueError, match=message):
        HddSpec(**{**base, **kw})


def _cached_disk_writes(seed, cache_blocks, n, mean_gap_us, max_blocks):
    from dataclasses import replace

    rng = np.random.default_rng(seed)
    spec = replace(CHEETAH_15K7, write_cache_bytes=cache_blocks * CHEETAH_15K7.block_size)
    pages = rng.integers(1, max_blocks + 1, n)
    lba = rng.integers(0, spec.lbas - max_blocks, n)
    arrivals = np.cumsum(rng.exponential(mean_gap_us, n))
    return spec, run_members([spec], np.zeros(n, np.int8), lba, pages, np.zeros(n, np.int64), arrivals=arrivals,
                             qd=8)


@pytest.mark.parametrize("seed,cache_blocks,gap", [(0, 4, 500.0), (1, 16, 3000.0), (2, 64, 8000.0), (3, 8, 50.0)])
def test_disk_controller_cache_destages_every_write_once(seed, cache_blocks, gap):
    """A disk behind a battery-backed controller cache: every write is acknowledged at the cache
    (``t_ack`` after it enters, never before) and destaged exactly once (one arrival, one
    acknowledgement and one disk access per write: three events each), after its acknowledgement;
    nothing is left in the cache at the end. Under load (a small cache, writes faster than the
    disk) writes wait for room: some take far longer than ``t_ack``."""
    n = 300
    spec, r = _cached_disk_writes(seed, cache_blocks, n, gap, min(4, cache_blocks))
    assert r.error == ""
    assert np.isfinite(r.done_us).all() and np.isfinite(r.durable_us).all()
    assert (r.latency_us >= spec.write_cache_latency_us - 1e-9).all()
    assert (r.durable_us > r.done_us).all()  # acknowledged before its destage ends
    assert r.counters[0]["events"] == 3 * n and r.counters[0]["requests_done"] == n
    if gap < 1000:
        assert r.latency_us.max() > 10 * spec.write_cache_latency_us
    # without the cache the same writes are done when on the platter
    from dataclasses import replace

    rng = np.random.default_rng(seed)
    plain = run_members([replace(spec, write_cache_bytes=0)], np.zeros(4, np.int8), rng.integers(0, 10**6, 4),
                        np.ones(4, np.int64), np.zeros(4, np.int64), qd=1)
    assert np.array_equal(plain.durable_us, plain.done_us)


def test_disk_controller_cache_must_hold_the_largest_write():
    from dataclasses import replace

    spec = replace(CHEETAH_15K7, write_cache_bytes=2 * CHEETAH_15K7.block_size)
    with pytest.raises(ValueError, match="write_cache_bytes of member 0"):
        run_members([spec], np.zeros(2, np.int8), np.array([0, 8]), np.array([1, 3]), np.zeros(2, np.int64), qd=1)



TOO_LONG = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2**32, 2**32))  # a regression allocates: MemoryError, not the OOM killer
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
config = SsdConfig(geometry=ssd_geometry(2**36, 0.25))  # 64 GiB: 16.8 million user pages
for kwargs in (dict(requests=2**31 - 1), dict(fills=1000.0),
               dict(requests=10, precondition_fills=100.0, precondition_size=4096)):
    try:
        simulate_io(config, HostLoad(qd=4), seed=1, **kwargs)
        print("ACCEPTED", kwargs)
    except Exception as exc:
        print(type(exc).__name__, exc)
"""


def test_runs_too_long_to_hold_in_memory_are_refused_before_allocating():
    """requests=2**31 - 1 asked numpy for 16 GiB per request array (the OOM killer, without a
    limit); fills and preconditioning add up the same way on a large drive."""
    res = run_isolated(TOO_LONG, timeout=120)
    assert res.returncode == 0, res.describe()
    lines = res.stdout.splitlines()
    assert len(lines) == 3, res.stdout
    for line, given in zip(lines, ("requests=2147483647 and precondition_fills=0", "fills=1000 and precondition_fills=0",
                                   "requests=10 and precondition_fills=100")):
        assert re.match(rf"ValueError requests: {given} ask for \d+ requests \(\d+ of the workload, \d+ "
                            rf"preconditioning\); at most 10000000 per run", line), res.stdout


DEEP_QUEUE = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (2**32, 2**32))  # a regression allocates: MemoryError, not the OOM killer
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
geometry = ssd_geometry(2**32, 0.07, channels=8, dies_per_channel=4, planes_per_die=2)
config = SsdConfig(geometry=geometry, nand_page_size=65536, cache_bytes=2**20, timing="slc")
r = simulate_io(config, HostLoad(qd=65536), requests=100, seed=1, progress=False)
print(r.counters["requests_done"])
"""


def test_a_short_run_on_a_deep_queue_sizes_its_operation_queues_by_its_requests():
    """The units' operation rings were sized by queue depth x NAND page slots and cache size
    alone: 100 requests at queue depth 65,536 on 64 units of 16-slot pages asked for 4 x 6 GiB."""
    res = run_isolated(DEEP_QUEUE, timeout=300)
    assert res.returncode == 0 and res.stdout.split() == ["100"], res.describe()


def test_host_ios_beyond_the_requests_are_bounded():
    """hosts=10**9 with two requests allocated 7.45 GiB of host I/O state."""
    from flashlab.ssd.engine import MAX_REQUESTS

    args = ([SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16))], np.zeros(2, np.int8),
            np.zeros(2, np.int64), np.ones(2, np.int64), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match=rf"hosts must be in \[2, {MAX_REQUESTS}\]; got 1000000000"):
        run_members(*args, host=[0, 1], hosts=10**9)
    assert run_members(*args, host=[0, 1], hosts=5).host_done_us.size == 5  # three host I/Os with no request


def test_members_whose_ftl_states_together_exceed_memory_are_refused_before_building_them():
    """Each member's FTL passes its own memory check; 4,096 members of 64 GiB (about 1.7 TB of
    state) used to be built one by one until the OOM killer ended the process."""
    big = SsdConfig(geometry=ssd_geometry(2**36, 0.25))
    with pytest.raises(ValueError, match=r"members: the FTL state of 4096 flash members \(built, then stacked\) "
                                         r"needs about [\d.]+ GiB of memory"):
        run_members([big] * 4096, np.zeros(1, np.int8), np.zeros(1, np.int64), np.ones(1, np.int64),
                    np.zeros(1, np.int64))


@pytest.mark.parametrize("policy", ["fifo", "greedy"])
def test_a_gc_copy_into_an_empty_pool_stops_the_run_naming_the_member(policy):
    """The engine opens a GC frontier only after ``_can_relocate`` has found the free pool holds
    a block for it. Planted mistake: a used drive's pool count reads zero and every closed
    superblock's valid count reads zero, so the room check passes a victim whose pages are
    still mapped, and its first copy needs a block from the empty pool. The FTL refuses it
    (``_pool_take``) and the run stops with an error naming the empty pool and the member;
    before the guard a stale heap entry became the GC frontier and the run went on."""
    from flashlab.ftl import _kernels as FK
    from flashlab.ssd.engine import Engine

    cfg = SsdConfig(geometry=ssd_geometry(2**22, 0.25, channels=1, dies_per_channel=1, planes_per_die=2,
                                          pages_per_block=8), policy=policy)
    n = 4
    e = Engine([cfg], np.zeros(n, np.int8), np.arange(n), np.ones(n, np.int64), np.zeros(n, np.int64), None, 4,
               [4], [-1], [], 1, 0, precondition_fills=1.0)
    f = e.ftls
    s = (f.pages.reshape(2, -1), f.l2p, f.blk.reshape(FK.N_BLK, -1), f.blk64.reshape(2, -1),
         f.lists.reshape(2, -1), f.ctr[0], f.prm[0], f.rng[0])
    pages, blk, ctr = s[0], s[2], s[5]
    ppb = int(s[6][FK.P_PPB])
    victim = FK._pick_victim(s)  # the victim GC will take: it holds live pages
    assert victim >= 0 and (pages[FK.P2L, victim * ppb:(victim + 1) * ppb] >= 0).any()
    blk[FK.VALID, blk[FK.STATE] == FK.B_CLOSED] = 0  # the room check now passes every victim
    ctr[FK.FREE_BLOCKS] = 0  # the pool reads empty (its heap still holds the blocks: stale)
    ctr[FK.FRONT] = ctr[FK.FRONT + FK.GC_STREAM] = -1  # no frontier has room: writes stall, GC must open one
    e.run(False)
    assert "empty free-block pool" in e.error() and "(member 0)" in e.error()
    assert ctr[FK.FREE_BLOCKS] == 0  # nothing was taken
