"""The host interface and controller in front of the NAND (flashlab.ssd.frontend): closed forms
on an idle drive, the rate limits each part sets, the device's queue limit, and what stays
unchanged without them."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flashlab.ssd import Controller, HostInterface, HostLoad, SsdConfig, run_members, simulate_io, ssd_geometry
from flashlab.workload import Workload

SLC_TR, SLC_TPROG = 25.0, 200.0  # the slc preset (Agrawal et al. 2008)


def drive(**kw) -> SsdConfig:
    """4 channels x 2 dies x 2 planes of SLC (one page type: every read senses in 25 us)."""
    geo = ssd_geometry(2**25, 0.25, channels=4, dies_per_channel=2, planes_per_die=2, pages_per_block=16)
    return SsdConfig(geometry=geo, timing="slc", **kw)


def reads(cfg, n, qd, seed=1, **kw):
    """n random 4 KiB reads of a drive filled untimed (every page mapped), closed loop at qd."""
    rng = np.random.default_rng(seed)
    lba = rng.integers(0, cfg.geometry.user_pages, n)
    return run_members([cfg], np.ones(n, np.int8), lba, np.ones(n, np.int64), np.zeros(n, np.int64), qd=qd,
                       precondition_fills=0.05, seed=seed, **kw)


def steady_iops(res, skip=0.2):
    """Completions per second between the first ``skip`` and the last ``skip`` of them."""
    done = np.sort(res.done_us)
    a, b = int(skip * done.size), int((1 - skip) * done.size)
    return (b - a) / (done[b] - done[a]) * 1e6


HOST = HostInterface(link_mb_s=2000.0, command_overhead_us=1.5, max_qd=64)
CTRL = Controller(cores=2, command_us=3.0, ecc_decode_us=7.0)


def test_qd1_read_latency_is_the_sum_of_the_path_on_an_idle_drive():
    cfg = drive(host=HOST, controller=CTRL)
    res = reads(cfg, 50, qd=1)
    xfer = cfg.transfer_us
    expected = 1.5 + 3.0 + SLC_TR + xfer + 7.0 + 4096 / 2000.0
    assert res.latency_us == pytest.approx(np.full(50, expected), rel=0, abs=1e-9)
    # without the front, the NAND alone
    bare = reads(drive(), 50, qd=1)
    assert bare.latency_us == pytest.approx(np.full(50, SLC_TR + xfer), rel=0, abs=1e-9)


def test_qd1_write_latency_without_a_cache():
    cfg = drive(host=HOST, controller=CTRL, gc="off")
    n = 40
    res = simulate_io(cfg, HostLoad(qd=1, workload=Workload(pattern="sequential")), requests=n, progress=False)
    expected = 1.5 + 4096 / 2000.0 + 3.0 + cfg.transfer_us + SLC_TPROG
    assert res.latency_us == pytest.approx(np.full(n, expected), rel=0, abs=1e-9)


@pytest.mark.parametrize("part, limit_iops", [
    # the controller: 2 cores of 20 us each, 100,000 commands/s
    ("controller", 2 / 20.0 * 1e6),
    # the link: 250 MB/s carries 61,035 reads of 4 KiB a second
    ("link", 250.0 / 4096 * 1e6),
    # the protocol: 12 us per command on the link towards the drive
    ("command", 1e6 / 12.0),
])
def test_random_read_iops_converge_to_the_tightest_front_limit(part, limit_iops):
    # the NAND alone: 16 planes of 25 us sense + 12.3 us transfer, 4 channels of 12.3 us: ~325,000/s
    front = {"controller": dict(controller=Controller(cores=2, command_us=20.0)),
             "link": dict(host=HostInterface(link_mb_s=250.0, max_qd=256)),
             "command": dict(host=HostInterface(link_mb_s=1e5, command_overhead_us=12.0, max_qd=256))}[part]
    res = reads(drive(**front), 6000, qd=128)
    assert steady_iops(res) == pytest.approx(limit_iops, rel=0.005)


def test_max_qd_holds_the_rest_in_the_host():
    """With one command allowed inside, a deep host queue is served one at a time: completions
    are exactly one idle-drive read latency apart, and latency counts the wait in the host."""
    host = HostInterface(link_mb_s=2000.0, command_overhead_us=1.5, max_qd=1)
    cfg = drive(host=host, controller=CTRL)
    res = reads(cfg, 60, qd=16)
    one = 1.5 + 3.0 + SLC_TR + cfg.transfer_us + 7.0 + 4096 / 2000.0
    assert np.diff(np.sort(res.done_us)) == pytest.approx(np.full(59, one), abs=1e-9)
    assert res.latency_us.max() == pytest.approx(16 * one, abs=1e-9)
    deeper = reads(drive(host=HostInterface(link_mb_s=2000.0, command_overhead_us=1.5, max_qd=16), controller=CTRL),
                   60, qd=16)
    assert np.nanmax(deeper.done_us) < 0.5 * np.nanmax(res.done_us)


def test_half_duplex_link_shares_one_direction():
    """SATA: reads' data and writes' data share one link, so a 50/50 mix moves at most the link's
    rate in total; a duplex link carries each direction at its own rate."""
    rate = 50.0  # MB/s: the link, not the NAND, is the limit
    out = {}
    for duplex in (False, True):
        cfg = drive(host=HostInterface(link_mb_s=rate, max_qd=64, duplex=duplex))
        res = simulate_io(cfg, HostLoad(qd=64, workload=Workload(read_fraction=0.5)), requests=4000, seed=2,
                          precondition_fills=1.0, progress=False)
        work = res.phase == 1
        done = np.sort(res.done_us[work])
        out[duplex] = (done.size - 1) * 4096 / (done[-1] - done[0])  # MB/s, both directions
    assert out[False] == pytest.approx(rate, rel=0.02)
    assert out[True] > 1.5 * rate


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qd=st.integers(1, 48), max_qd=st.integers(1, 40), cores=st.integers(1, 4),
       read_fraction=st.sampled_from([0.0, 0.3, 0.7]), cache=st.booleans(), seed=st.integers(0, 50))
def test_every_request_completes_and_no_faster_than_its_path(qd, max_qd, cores, read_fraction, cache, seed):
    host = HostInterface(link_mb_s=800.0, command_overhead_us=0.5, max_qd=max_qd)
    ctrl = Controller(cores=cores, command_us=4.0, ecc_decode_us=2.0)
    cfg = drive(host=host, controller=ctrl, cache_bytes=2**18 if cache else 0)
    res = simulate_io(cfg, HostLoad(qd=qd, workload=Workload(read_fraction=read_fraction)), requests=600,
                      seed=seed, progress=False)
    assert not res.stalled
    assert np.all(np.isfinite(res.latency_us))
    # every command crosses the link and a core at least; a write's data crosses too
    floor = np.where(res.op == 0, 0.5 + 4096 / 800.0 + 4.0, 0.5 + 4.0)
    assert np.all(res.latency_us >= floor - 1e-9)
    hw = res.counters["host_page_writes"]
    assert hw == int((res.op == 0).sum())
    assert res.counters["requests_done"] == res.op.size


def test_links_from_their_standards():
    # Gen4: 16 GT/s per lane, 128b/130b; SATA 6 Gb/s: 8b/10b
    assert HostInterface.pcie(4, 4, efficiency=1.0).link_mb_s == pytest.approx(16e3 / 8 * 128 / 130 * 4)
    assert HostInterface.pcie(2, 8, efficiency=1.0).link_mb_s == pytest.approx(5e3 / 8 * 0.8 * 8)
    sata = HostInterface.sata(6.0, efficiency=1.0)
    assert sata.link_mb_s == pytest.approx(600.0)
    assert not sata.duplex and sata.max_qd == 32
    assert Controller(cores=4, command_us=8.0).max_iops == pytest.approx(500_000.0)
    assert math.isinf(Controller().max_iops)


@pytest.mark.parametrize("make, name", [
    (lambda: HostInterface(link_mb_s=0.0), "link_mb_s"),
    (lambda: HostInterface(link_mb_s=100.0, max_qd=0), "max_qd"),
    (lambda: HostInterface(link_mb_s=100.0, command_overhead_us=-1.0), "command_overhead_us"),
    (lambda: HostInterface(link_mb_s=100.0, duplex=1), "duplex"),
    (lambda: HostInterface.pcie(gen=6), "gen"),
    (lambda: HostInterface.pcie(lanes=32), "lanes"),
    (lambda: HostInterface.sata(efficiency=1.5), "efficiency"),
    (lambda: Controller(cores=0), "cores"),
    (lambda: Controller(cores=65), "cores"),
    (lambda: Controller(command_us=float("nan")), "command_us"),
    (lambda: Controller(ecc_decode_us=-2.0), "ecc_decode_us"),
    (lambda: drive(host="pcie"), "host"),
    (lambda: drive(controller=Controller), "controller"),
])
def test_bad_front_parameters_are_named(make, name):
    with pytest.raises(ValueError, match=name):
        make()
