"""The drive's DRAM write cache, flush/FUA, NAND pages of several slots, and power loss."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.ssd import OP_FLUSH, OP_FUA, HostLoad, SsdConfig, nand_timeline, run_members, simulate_io, ssd_geometry
from flashlab.ssd import _kernels as K
from flashlab.workload import Workload

GEO = ssd_geometry(32 * 2**20, 0.25, channels=2, dies_per_channel=2, planes_per_die=1, pages_per_block=32)


def config(**kw):
    return SsdConfig(geometry=GEO, **kw)


@pytest.mark.parametrize("plp,factor", [(False, 4.0), (True, 1.0)])
def test_flushed_4k_writes_on_16k_pages(plp, factor):
    """Each 4 KiB write followed by a flush: without capacitors the flush pads the 16 KiB page,
    four slots programmed per slot written; with them the flush is a no-op and pages fill."""
    cfg = config(nand_page_size=16384, cache_bytes=2**20, power_loss_protection=plp)
    r = simulate_io(cfg, HostLoad(qd=1, flush_every=1), requests=400, seed=3)  # 400 writes, 400 flushes
    assert not r.stalled
    assert r.counters["host_page_writes"] == 400
    assert r.flash_write_factor == factor
    if not plp:  # every flush waited for its page's program
        flush = r.op == OP_FLUSH
        assert r.latency_us[flush].min() > cfg.timing.t_prog_us[0]


def test_write_through_pads_every_write_without_a_cache():
    r = simulate_io(config(nand_page_size=8192), HostLoad(qd=4), requests=300, seed=1)
    assert r.flash_write_factor == 2.0
    assert np.array_equal(r.durable_us, r.done_us)


def test_full_pages_cost_one_program_per_page():
    """Without flushes the cache fills NAND pages: 16 KiB pages take a quarter of the programs
    per byte, so a drive of 16 KiB pages sustains more sequential 4 KiB writes than 4 KiB pages."""
    load = HostLoad(qd=32, workload=Workload(pattern="sequential"))
    small = simulate_io(config(cache_bytes=2**20), load, requests=6000, seed=2)
    big = simulate_io(config(nand_page_size=16384, cache_bytes=2**20), load, requests=6000, seed=2)
    assert big.flash_write_factor == 1.0 and big.counters["pad_programs"] == 0
    assert big.iops(phase=1) > 2 * small.iops(phase=1)


def test_fresh_drive_write_latency_is_the_caches():
    cfg = config(cache_bytes=8 * 2**20, cache_latency_us=12.5)
    r = simulate_io(cfg, HostLoad(qd=8), requests=1000, seed=4)  # 4 MiB: the cache never fills
    lat = r.latency_us[r.op == 0]
    assert np.allclose(lat, 12.5, rtol=1e-12, atol=1e-9)
    off = simulate_io(config(), HostLoad(qd=8), requests=1000, seed=4)
    assert off.percentiles(op=0)["p50"] > cfg.timing.t_prog_us[0]  # without it: a program's time


def test_a_full_cache_makes_writes_wait():
    """Sustained random writes beyond the cache: acknowledgements wait for destaging (the cliff)."""
    cfg = config(cache_bytes=2**20, cache_latency_us=10.0)
    r = simulate_io(cfg, HostLoad(qd=32), fills=1.0, seed=5)
    lat = r.latency_us[r.op == 0]
    assert lat[:200].max() == pytest.approx(10.0)
    assert np.median(lat[-2000:]) > 100 * 10.0


def test_cache_runs_are_reproducible():
    cfg = config(nand_page_size=8192, cache_bytes=2**20)
    load = HostLoad(qd=8, flush_every=5, workload=Workload(read_fraction=0.3))
    a, b = (simulate_io(cfg, load, requests=1500, seed=9) for _ in range(2))
    assert np.array_equal(a.done_us, b.done_us, equal_nan=True)
    assert np.array_equal(a.durable_us, b.durable_us, equal_nan=True)


def test_fua_goes_through_without_protection():
    cfg = config(nand_page_size=16384, cache_bytes=2**20)
    r = simulate_io(cfg, HostLoad(qd=1, fua=True), requests=200, seed=1)
    assert (r.op == OP_FUA).all() and r.flash_write_factor == 4.0
    assert np.array_equal(r.durable_us, r.done_us)
    prot = simulate_io(config(nand_page_size=16384, cache_bytes=2**20, power_loss_protection=True),
                       HostLoad(qd=1, fua=True), requests=200, seed=1)
    assert prot.latency_us.max() == pytest.approx(10.0)


# ---------------------------------------------------------------- power loss
def _cut_run(plp):
    cfg = config(nand_page_size=16384, cache_bytes=2**20, power_loss_protection=plp)
    return simulate_io(cfg, HostLoad(qd=8, flush_every=16, workload=Workload(read_fraction=0.2)),
                       requests=3000, seed=11)


RUNS = {}


def cut_run(plp):
    if plp not in RUNS:
        RUNS[plp] = _cut_run(plp)
    return RUNS[plp]


@settings(max_examples=60, deadline=None)
@given(frac=st.floats(0.0, 1.05))
def test_power_loss_without_protection(frac):
    r = cut_run(False)
    t = frac * float(np.nanmax(r.done_us))
    pl = r.power_loss(t)
    writes = r.op == 0
    acked = writes & (r.done_us <= t)
    assert pl.acknowledged == acked.sum() and pl.survived + pl.lost == pl.acknowledged
    flushed = (r.op == OP_FLUSH) & (r.done_us <= t)
    if flushed.any():  # every write acknowledged before a completed flush survives
        barrier = r.done_us[flushed].max()
        assert not np.isin(np.flatnonzero(writes & (r.done_us <= barrier)), pl.lost_requests).any()
    # the lost ones are exactly those acknowledged and not on NAND at the cut, LBAs listed
    lost = np.flatnonzero(acked & ~(r.durable_us <= t))
    assert np.array_equal(pl.lost_requests, lost)
    assert np.array_equal(pl.lost_lbas, np.unique(r.lba[lost]))  # 4 KiB writes: one LBA each


def test_power_loss_without_protection_loses_something():
    """Between flushes the cache holds acknowledged writes: a cut there loses them, reported."""
    r = cut_run(False)
    cuts = np.linspace(0, np.nanmax(r.done_us), 200)
    losses = [r.power_loss(t).lost for t in cuts]
    assert max(losses) > 0
    # long after the end: only what stays in the cache (the last, partly filled page) is lost
    end = r.power_loss(np.nanmax(r.done_us) * 2)
    assert end.lost == (np.isnan(r.durable_us) & (r.op == 0)).sum()


@settings(max_examples=60, deadline=None)
@given(frac=st.floats(0.0, 1.05))
def test_power_loss_with_protection_loses_nothing(frac):
    r = cut_run(True)
    t = frac * float(np.nanmax(r.done_us))
    pl = r.power_loss(t)
    assert pl.lost == 0 and pl.survived == pl.acknowledged == ((r.op == 0) & (r.done_us <= t)).sum()
    assert pl.lost_lbas.size == 0


def test_protection_is_what_saves_them():
    """At some cut the protected drive held acknowledged writes not yet on NAND."""
    r = cut_run(True)
    cuts = np.linspace(0, np.nanmax(r.done_us), 50)
    assert any(((r.op == 0) & (r.done_us <= t) & ~(r.durable_us <= t)).any() for t in cuts)


def test_run_members_flushes_and_reports_per_member():
    cfgs = [config(nand_page_size=16384, cache_bytes=2**20),
            config(nand_page_size=16384, cache_bytes=2**20, power_loss_protection=True)]
    n = 400
    op = np.zeros(n, np.int64)
    op[9::10] = OP_FLUSH
    lba = np.arange(n) % 1000
    dev = np.arange(n) % 2
    res = run_members(cfgs, op, lba, np.ones(n, np.int64), dev, qd=4)
    assert res.error == "" and np.isfinite(res.done_us).all()
    mid = float(np.nanmedian(res.done_us))
    a, b = res.power_loss(mid)
    assert b.lost == 0 and a.acknowledged > 0 and b.acknowledged > 0
    assert set(a.lost_requests) <= set(np.flatnonzero(dev == 0))


# ---------------------------------------------------------------- cache off: nothing changes
def test_cache_off_durable_is_done():
    r = simulate_io(config(), HostLoad(qd=4), requests=300, seed=1)
    assert r.counters["pad_programs"] == 0 and r.flash_write_factor == 1.0
    assert np.array_equal(r.durable_us, r.done_us)
    assert r.power_loss(np.nanmax(r.done_us) / 2).lost == 0


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw,match", [
    (dict(nand_page_size=12288), "nand_page_size must be"),
    (dict(nand_page_size=2048), "nand_page_size"),
    (dict(nand_page_size=4096 * 32), "nand_page_size"),
    (dict(nand_page_size="16k"), "nand_page_size"),
    (dict(cache_bytes=-1), "cache_bytes"),
    (dict(cache_bytes=1000), "cache_bytes must be a multiple"),
    (dict(cache_bytes=2.5), "cache_bytes"),
    (dict(power_loss_protection=1), "power_loss_protection"),
    (dict(cache_latency_us=-1.0), "cache_latency_us"),
    (dict(cache_latency_us=float("nan")), "cache_latency_us"),
])
def test_bad_cache_config(kw, match):
    with pytest.raises((ValueError, TypeError), match=match):
        config(**kw)


@pytest.mark.parametrize("cache_bytes", [GEO.user_bytes + 4096, 2**40])
def test_cache_larger_than_the_drive_is_refused(cache_bytes):
    """A cache beyond the user capacity holds nothing more, and the engine sizes its queues by it
    (2**40 bytes on this drive asked numpy for 24 GiB): refuse it, naming the drive's capacity."""
    with pytest.raises(ValueError, match=rf"cache_bytes must be in \[0, {GEO.user_bytes}\]; got {cache_bytes}"):
        config(cache_bytes=cache_bytes)
    assert config(cache_bytes=GEO.user_bytes).cache_slots == GEO.user_pages


def test_bad_cache_use():
    g = ssd_geometry(2**24, 0.25, pages_per_block=6)
    with pytest.raises(ValueError, match="pages_per_block must be a multiple"):
        SsdConfig(geometry=g, nand_page_size=16384)
    with pytest.raises(ValueError, match="nand_page_size"):
        nand_timeline([(0.0, "program", 0, 0)], config(nand_page_size=8192))
    with pytest.raises(ValueError, match="flush_every"):
        HostLoad(flush_every=-1)
    with pytest.raises((ValueError, TypeError), match="fua"):
        HostLoad(fua="yes")
    with pytest.raises(ValueError, match="op must hold"):
        run_members([config()], [0, 3], [0, 1], [1, 1], [0, 0])  # 3: a raw NAND read, not a host op
    with pytest.raises(ValueError, match="at_us"):
        simulate_io(config(), requests=10).power_loss(-1.0)


def test_cache_acknowledgement_is_done_for_the_host_io():
    """A member request acknowledged by its drive's cache is done for its host I/O: a host I/O
    writing to two cached drives (first phase), then once more to the first (second phase), is
    done at its last acknowledgement, before its data is on NAND; a flush sent to a
    fixed-service member (which has no cache) is done when dispatched, without a service time."""
    from flashlab.ssd import ServiceMember

    cfg = config(cache_bytes=2**20, cache_latency_us=10.0)
    nh = 20
    host = np.repeat(np.arange(nh), 4)
    op = np.tile([0, 0, OP_FLUSH, 0], nh)
    dev = np.tile([0, 1, 2, 0], nh)
    phase = np.tile([0, 0, 0, 1], nh)
    lba = 2 * host + np.tile([0, 0, 0, 1], nh)
    arrivals = 1000.0 * np.arange(nh)
    r = run_members([cfg, cfg, ServiceMember(mean_us=500.0)], op, lba, np.ones(op.size, np.int64), dev,
                    arrivals=arrivals, host=host, phase=phase)
    assert r.error == ""
    writes, first = op == 0, phase == 0
    assert np.array_equal(r.arrival_us[first], np.repeat(arrivals, 3))
    assert np.array_equal(r.done_us[writes & first], r.arrival_us[writes & first] + 10.0)  # the cache's ack
    flush = op == OP_FLUSH
    assert np.array_equal(r.done_us[flush], r.arrival_us[flush])
    assert np.array_equal(r.arrival_us[~first], arrivals + 10.0)  # the second phase starts at the acks
    assert np.array_equal(r.host_done_us, arrivals + 20.0)
    # the data reaches NAND later: a program after the acknowledgement
    assert (r.durable_us[writes] >= r.arrival_us[writes] + min(cfg.timing.t_prog_us)).all()
    last_durable = np.maximum.reduceat(np.where(writes, r.durable_us, 0.0), np.arange(0, op.size, 4))
    assert (r.host_done_us < last_durable).all()


# ---------------------------------------------------------------- reads the cache serves
ACK = 12.5


def _run(cfg, ops, arrivals=None, qd=8, fills=0.0):
    """Requests ``(op, lba, pages)`` to one drive; open loop at ``arrivals`` (us) or closed loop
    at queue depth ``qd``."""
    op, lba, pages = (np.array(c, np.int64) for c in zip(*ops))
    r = run_members([cfg], op, lba, pages, np.zeros(op.size, np.int64), qd=qd, precondition_fills=fills,
                    arrivals=None if arrivals is None else np.asarray(arrivals, float))
    assert r.error == "" and np.isfinite(r.done_us).all()
    return r, r.counters[0]


def _nand_read_us(cfg):
    """The shortest NAND read of one page: its sense and its transfer."""
    return min(cfg.timing.t_read_us) + cfg.transfer_us


def test_read_of_a_cached_write_is_answered_from_dram():
    """A write, then a read of its LBA 1 us later, while its program (about 0.9 ms) runs: the
    cache answers the read in its acknowledgement time, with no NAND read. A read of the same LBA
    after the program ended goes to NAND."""
    cfg = config(cache_bytes=2**20, cache_latency_us=ACK)
    r, c = _run(cfg, [(0, 5, 1), (1, 5, 1), (1, 5, 1)], arrivals=[0.0, 1.0, 5000.0])
    assert r.durable_us[0] > 1.0 + ACK  # still in the cache when the read came
    assert r.latency_us[1] == ACK
    assert r.durable_us[0] < 5000.0 and r.latency_us[2] >= _nand_read_us(cfg)
    assert (c["cache_read_hits"], c["flash_reads"], c["host_page_reads"]) == (1, 1, 2)


def test_without_a_cache_the_same_read_goes_to_nand():
    cfg = config()
    r, c = _run(cfg, [(0, 5, 1), (1, 5, 1)], arrivals=[0.0, 1.0])
    assert r.latency_us[1] >= _nand_read_us(cfg)
    assert (c["cache_read_hits"], c["flash_reads"]) == (0, 1)


def test_a_read_partly_in_the_cache_reads_the_rest_from_nand():
    """Four LBAs written long ago, two of them written again just before a four-page read: two
    slots are hits, two are NAND reads, and the read takes a NAND read's time. A read of the two
    cached LBAs and two never written takes the cache's time."""
    cfg = config(cache_bytes=2**20, cache_latency_us=ACK)
    ops = [(0, 20, 4), (0, 21, 1), (0, 22, 1), (1, 20, 4), (1, 21, 2), (1, 21, 4)]
    r, c = _run(cfg, ops, arrivals=[0.0, 5000.0, 5000.0, 5001.0, 5001.0, 5001.0])
    assert r.latency_us[3] >= _nand_read_us(cfg)
    assert r.latency_us[4] == ACK  # both slots in the cache
    assert r.latency_us[5] >= _nand_read_us(cfg)  # 21, 22 cached; 23, 24: 23 on NAND, 24 unmapped
    assert c["host_page_reads"] == 10
    assert c["cache_read_hits"] == 2 + 2 + 2
    assert c["flash_reads"] == 2 + 1  # 20 and 23, then 23 (24 was never written)


@pytest.mark.parametrize("plp", [False, True])
def test_flush_then_read(plp):
    """Write, flush, read at queue depth one. Without capacitors the flush waits until the write is
    programmed (padding its page), so the read finds it on NAND; with them the flush is acknowledged
    from the cache and the read is a hit."""
    cfg = config(nand_page_size=16384, cache_bytes=2**20, cache_latency_us=ACK, power_loss_protection=plp)
    r, c = _run(cfg, [(0, 8, 1), (OP_FLUSH, 0, 1), (1, 8, 1)], qd=1)
    assert (r.latency_us[2] == ACK) == plp
    assert c["cache_read_hits"] == int(plp) and c["flash_reads"] == 1 - int(plp)
    if not plp:
        assert r.durable_us[0] <= r.arrival_us[2] and c["pad_programs"] == 3


@pytest.mark.parametrize("plp", [False, True])
def test_fua_then_read(plp):
    """A FUA write, then a read of its LBA 1 us later. Without capacitors the FUA write goes
    through to NAND, not into the cache: the read goes to NAND. With them it is a cached write,
    and the read a hit."""
    cfg = config(nand_page_size=16384, cache_bytes=2**20, cache_latency_us=ACK, power_loss_protection=plp)
    r, c = _run(cfg, [(OP_FUA, 8, 1), (1, 8, 1)], arrivals=[0.0, 1.0])
    assert not r.durable_us[0] <= 1.0  # not on NAND when the read came, either way (NaN: never)
    assert (r.latency_us[1] == ACK) == plp
    assert c["cache_read_hits"] == int(plp) and c["flash_reads"] == 1 - int(plp)


def test_no_slot_stays_pending_once_the_programs_ended():
    """Hot rewrites with reads and foreground GC: once the events run out every program has
    ended and no slot is flagged as held by the cache."""
    from flashlab.ssd.engine import Engine

    cfg = config(nand_page_size=8192, cache_bytes=2**18, gc="foreground", gc_critical=3, gc_background=5)
    rng = np.random.default_rng(1)
    n = 6000
    op = (rng.random(n) < 0.4).astype(np.int8)
    op[-1] = OP_FLUSH  # pads the host frontier's last page, so that every host page is programmed
    lba = rng.integers(0, 64, n)
    pages = np.ones(n, np.int64)
    e = Engine([cfg], op, lba, pages, np.zeros(n, np.int64), None, 16, [16], [-1], [], 1, 3, precondition_fills=1.0)
    e.run(False)
    c = e.counters(0)
    assert e.error() == "" and c["requests_done"] == n and c["gc_victims"] > 0 and c["cache_read_hits"] > 0
    assert c["host_page_reads"] == c["flash_reads"] + c["cache_read_hits"]  # every LBA mapped
    assert not e.pending.any()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), plp=st.booleans(), page=st.sampled_from([4096, 8192, 16384]),
       cache=st.sampled_from([0, 2**16, 2**20]), span=st.sampled_from([8, 64, 4096]),
       gap=st.sampled_from([1.0, 50.0, 1000.0]))
def test_read_counts_add_up_and_repeat(seed, plp, page, cache, span, gap):
    """Random writes, reads, flushes and FUA writes of 1-3 pages, and a tenth of 17-40 pages
    (larger than the 16-slot cache: they stream through it), on a used drive (every LBA mapped):
    every host page read is a NAND read or a cache hit, hits only with a cache; every write is
    acknowledged, and durable after that or still in the cache; the same seed gives the same run."""
    rng = np.random.default_rng(seed)
    n = 300
    op = rng.choice([0, 1, OP_FLUSH, OP_FUA], n, p=[0.45, 0.4, 0.05, 0.1])
    pages = np.where(rng.random(n) < 0.1, rng.integers(17, 41, n), rng.integers(1, 4, n))
    lba = rng.integers(0, span, n)
    cfg = config(nand_page_size=page, cache_bytes=cache, power_loss_protection=plp)
    arrivals = np.cumsum(rng.exponential(gap, n))
    ops = list(zip(op, lba, pages))
    (a, ca), (b, cb) = (_run(cfg, ops, arrivals=arrivals, fills=0.5) for _ in range(2))
    assert ca == cb
    for f in ("done_us", "durable_us", "start_us"):
        assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True)
    reads = op == 1
    assert ca["host_page_reads"] == pages[reads].sum()
    assert ca["host_page_reads"] == ca["flash_reads"] + ca["cache_read_hits"]
    assert cache > 0 or ca["cache_read_hits"] == 0
    writes = (op == 0) | (op == OP_FUA)
    durable, done = a.durable_us[writes], a.done_us[writes]
    on_nand = np.isfinite(durable)  # the rest is still in the cache when the run ends
    assert (durable[on_nand] >= done[on_nand]).all()
    assert cache > 0 or on_nand.all()
    # a read is never faster than the cache's answer (nothing comes back before t_ack; the
    # tolerance is done - arrival's rounding)
    assert (a.latency_us[reads] >= (cfg.cache_latency_us if cache else 0.0) - 1e-9).all()


# ---------------------------------------------------------------- the last fuzz findings (issue 29)
SMALL = ssd_geometry(4096 * 256, op=0.5, channels=1, dies_per_channel=1, planes_per_die=2, pages_per_block=8)


@pytest.mark.parametrize("kw", [dict(nand_page_size=8192), dict(multi_plane=True)])
def test_a_cache_smaller_than_a_nand_program_is_refused(kw):
    """Its dirty slots would wait for a program that needs slots the cache cannot admit (a
    multi-plane program writes a page on both planes of the die: 2 slots)."""
    with pytest.raises(ValueError, match=r"cache_bytes must be 0 or hold a whole NAND program \(2 slots"):
        SsdConfig(geometry=SMALL, cache_bytes=4096, **kw)


@pytest.mark.parametrize("qd", [1, 4])
def test_writes_larger_than_the_cache_stream_through_it(qd):
    """A write of 8 KiB into a cache of one 8 KiB NAND page (which may hold a partly filled page
    already): its slots enter as programs free room, and every write is acknowledged and durable."""
    cfg = SsdConfig(geometry=SMALL, cache_bytes=8192, nand_page_size=8192)
    r = simulate_io(cfg, HostLoad(qd=qd, write_size=8192), requests=200, seed=1)
    assert not r.stalled and np.isfinite(r.latency_us).all()
    assert (r.durable_us >= r.done_us).all()


@pytest.mark.parametrize("cache_slots", [2, 8, 40])
def test_a_write_larger_than_the_cache_is_acknowledged_when_its_last_slot_enters(cache_slots):
    """Hand-worked: one write of k slots into an empty cache of C < k slots (one slot per NAND
    page, so nothing waits for a partly filled page; C at least the drive's 2 planes, so the
    streamed slots keep both busy). Its last C slots enter once its first k - C are on NAND,
    which is when the same k - C slots written through (no cache) are done: the streamed write
    is acknowledged ``cache_latency_us`` after that. Its data is durable when all k slots are
    programmed, as with no cache at all."""
    k, t_ack = 64, 7.0
    cached = SsdConfig(geometry=SMALL, cache_bytes=4096 * cache_slots, cache_latency_us=t_ack)
    r = run_members([cached], [0], [0], [k], [0])
    head = run_members([SsdConfig(geometry=SMALL)], [0], [0], [k - cache_slots], [0])
    whole = run_members([SsdConfig(geometry=SMALL)], [0], [0], [k], [0])
    assert r.error == head.error == whole.error == ""
    assert r.done_us[0] == pytest.approx(head.done_us[0] + t_ack)
    assert r.durable_us[0] == pytest.approx(whole.done_us[0])


def test_a_loop_without_progress_is_an_error_naming_the_member(monkeypatch):
    """The bound on events with no host I/O done (here shrunk to 50) ends the run with an error."""
    from flashlab.ssd import engine

    monkeypatch.setattr(engine, "_stall_budget", lambda pages, phys: 50)
    cfg = SsdConfig(geometry=SMALL)
    r = run_members([cfg], np.zeros(1, np.int8), [0], [64], [0])  # one write of 64 slots: ~64 events
    assert "made no progress" in r.error and "(member 0)" in r.error


def test_events_running_out_with_requests_waiting_is_an_error_naming_the_member():
    """A run whose events run out while a device still counts a request in its waiting FIFOs
    (nothing will ever admit it) stops with ERR_STALL naming that device, not silently. The
    defect is planted: device 1's count says one request waits where none does."""
    from flashlab.ssd.engine import Engine

    cfg = SsdConfig(geometry=SMALL, cache_bytes=4096 * 16)
    n = 8
    e = Engine([cfg, cfg], np.zeros(n, np.int8), np.arange(n), np.ones(n, np.int64), np.arange(n) % 2,
               np.zeros(n), 4, [4, 4], [-1, -1], [], 1, 0)
    e.devices.waiting[1] = 1
    e.run(False)
    assert e.loop.err[0] == K.ERR_STALL and e.loop.err_device[0] == 1
    assert "made no progress" in e.error() and "(member 1)" in e.error()


def test_a_one_slot_cache_streams_a_write_one_slot_at_a_time():
    """A cache of one slot admits the next slot only when the last is programmed: a write of k
    slots is acknowledged when k - 1 single-slot writes through at queue depth 1 would be done,
    plus ``cache_latency_us`` (the planes never work at once)."""
    k, t_ack = 64, 7.0
    r = run_members([SsdConfig(geometry=SMALL, cache_bytes=4096, cache_latency_us=t_ack)], [0], [0], [k], [0])
    n = k - 1
    serial = run_members([SsdConfig(geometry=SMALL)], np.zeros(n, np.int8), np.arange(n), np.ones(n, np.int64),
                         np.zeros(n, np.int64), qd=1)
    assert r.error == serial.error == ""
    assert r.done_us[0] == pytest.approx(serial.done_us.max() + t_ack)


def test_a_real_drive_takes_writes_larger_than_its_buffer():
    """The X25-E buffers 80 slots (320 KiB); 1 MiB writes were refused before they streamed.
    They now run, and sequential 1 MiB writes move no faster than the SATA link carries."""
    from flashlab.drives import X25E
    from flashlab.workload import Workload

    cfg = X25E.small_config()
    assert cfg.cache_bytes < 2**20
    r = simulate_io(cfg, HostLoad(qd=4, write_size=2**20, workload=Workload("sequential")), requests=50, seed=0)
    assert not r.stalled and np.isfinite(r.latency_us).all()
    assert 0 < r.bandwidth_mb_s() <= cfg.host.link_mb_s
