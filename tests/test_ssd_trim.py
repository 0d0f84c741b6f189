"""TRIM as a timed host command of the drive model (issue 32), and the barrier that starts a
measured run when its fill has ended (issue 29). Cost: a few seconds after the kernels are
compiled (tiny drives, a few thousand requests at most)."""

import numpy as np
import pytest

from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import Controller, HostInterface, HostLoad, SsdConfig, run_members, simulate_io, ssd_geometry
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE, Workload

GEO = ssd_geometry(2**21, 0.25, channels=1, dies_per_channel=1, planes_per_die=2, pages_per_block=8)
CACHED = SsdConfig(geometry=GEO, cache_bytes=16 * 4096, nand_page_size=8192)
PLAIN = SsdConfig(geometry=GEO)


def run(cfg, cmds, qd=1, **kw):
    """Run ``(op, lba, pages)`` commands on one drive; the result and its counters."""
    op, lba, pages = (np.array(x, np.int64) for x in zip(*cmds))
    r = run_members([cfg], op, lba, pages, np.zeros(op.size, np.int64), qd=qd, **kw)
    assert r.error == "" and np.isfinite(r.done_us).all()
    return r, r.counters[0]


def read_slots(c):
    """Host read slots that found data: from NAND or from the write cache."""
    return c["flash_reads"] + c["cache_read_hits"]


@pytest.mark.parametrize("cfg", [PLAIN, CACHED], ids=["no cache", "write cache"])
def test_a_trim_after_a_write_wins_and_a_write_after_a_trim_wins(cfg):
    """Write LBAs 0-3, TRIM 0-1, read 0-3: two slots found (2, 3), two unmapped. Then a write
    of 0 after the TRIM maps it again: the read finds three."""
    _, c = run(cfg, [(OP_WRITE, 0, 4), (OP_TRIM, 0, 2), (OP_READ, 0, 4)])
    assert (c["trims"], c["trim_pages"], c["host_page_reads"]) == (1, 2, 4)
    assert read_slots(c) == 2
    _, c = run(cfg, [(OP_WRITE, 0, 4), (OP_TRIM, 0, 2), (OP_WRITE, 0, 1), (OP_READ, 0, 4)])
    assert read_slots(c) == 3


def test_a_trim_drops_the_cached_copy():
    """A write still in the cache (half a NAND page: it waits for the other slot) serves a read
    from DRAM; trimmed, the read finds nothing, not the stale cached data."""
    _, c = run(CACHED, [(OP_WRITE, 0, 1), (OP_READ, 0, 1)])
    assert (c["cache_read_hits"], c["flash_reads"]) == (1, 0)
    _, c = run(CACHED, [(OP_WRITE, 0, 1), (OP_TRIM, 0, 1), (OP_READ, 0, 1)])
    assert (c["cache_read_hits"], c["flash_reads"]) == (0, 0)


@pytest.mark.parametrize("qd", [1, 4])
def test_trims_never_touch_nand(qd):
    """The same writes with TRIMs between them program, sense and erase exactly as without."""
    rng = np.random.default_rng(5)
    writes = [(OP_WRITE, int(a), 2) for a in rng.integers(0, 60, 40)]
    trims = [(OP_TRIM, int(a), 3) for a in rng.integers(0, 60, 40)]
    _, bare = run(CACHED, writes, qd)
    mixed = [x for pair in zip(writes, trims) for x in pair]
    _, c = run(CACHED, mixed, qd)
    for k in ("host_programs", "pad_programs", "senses", "erases", "gc_programs"):
        assert c[k] == bare[k], k
    assert (c["trims"], c["trim_pages"]) == (40, 120)


def test_a_trim_costs_one_command_on_the_front():
    """On an idle drive a TRIM takes the link's command exchange and one controller command
    slot, nothing else (no data crosses the link, no NAND operation)."""
    cfg = SsdConfig(geometry=GEO, host=HostInterface(link_mb_s=3000.0, command_overhead_us=1.5),
                    controller=Controller(cores=1, command_us=4.0, ecc_decode_us=2.0))
    r, _ = run(cfg, [(OP_WRITE, 0, 1), (OP_TRIM, 0, 1)])
    assert r.latency_us[1] == pytest.approx(1.5 + 4.0)


def test_timed_trims_from_the_workload_lower_wa():
    """HostLoad accepts trim_fraction: TRIMs are counted, unmap their write_size, need no flash,
    and a drive whose host trims a third of its commands copies less in GC (the same seed gives
    the same result)."""
    cfg = PLAIN
    load = HostLoad(qd=4, workload=Workload(trim_fraction=0.3))
    r = simulate_io(cfg, load, fills=4, seed=2)
    assert not r.stalled
    trims = int(np.count_nonzero(r.op == OP_TRIM))
    assert r.counters["trims"] == trims > 0 and r.counters["trim_pages"] == trims
    t = r.op == OP_TRIM
    assert np.array_equal(r.done_us[t], r.start_us[t])  # done when the drive takes it: no NAND operation
    plain = simulate_io(cfg, HostLoad(qd=4), fills=4, seed=2)
    assert r.wa < plain.wa - 0.3
    again = simulate_io(cfg, load, fills=4, seed=2)
    assert np.array_equal(again.done_us, r.done_us)


def test_a_trim_to_a_disk_is_refused():
    with pytest.raises(ValueError, match=r"op: a TRIM .* flash member only"):
        run_members([CHEETAH_15K7], [OP_TRIM], [0], [1], [0])


@pytest.mark.parametrize("open_loop", [False, True])
def test_the_barrier_starts_the_requests_when_the_fill_has_ended(open_loop):
    """Eight fill writes at qd 4, then eight reads behind ``barrier=8``: none is issued before the
    last fill write completes; a closed loop issues qd of them at that moment, an open loop
    shifts their arrivals (given from the barrier) to it."""
    op = np.r_[np.zeros(8), np.ones(8)].astype(np.int64)
    lba = np.r_[np.arange(8), np.arange(8)]
    arrivals = np.r_[np.zeros(8), np.arange(8) * 50.0] if open_loop else None
    r = run_members([PLAIN], op, lba, np.ones(16, np.int64), np.zeros(16, np.int64), qd=4, barrier=8,
                    arrivals=arrivals)
    end = r.done_us[:8].max()
    assert r.arrival_us[8:].min() == end
    if open_loop:
        assert np.array_equal(r.host_arrival_us[8:], end + arrivals[8:])
    else:
        assert np.count_nonzero(r.arrival_us[8:] == end) == 4
    free = run_members([PLAIN], op, lba, np.ones(16, np.int64), np.zeros(16, np.int64), qd=4)
    assert free.arrival_us[8:].min() < free.done_us[:8].max()  # without it, reads overlap the fill
