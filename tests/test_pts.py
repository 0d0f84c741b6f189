"""SNIA PTS steady-state criteria and the write-saturation experiment."""

import numpy as np
import pytest

from flashlab.ssd import MapCache, SlcCache, SsdConfig, ssd_geometry, steady_state, write_saturation

from isolate import run_isolated

SMALL = dict(channels=2, dies_per_channel=2, planes_per_die=1, pages_per_block=32)


def test_steady_state_criteria():
    flat = [100, 105, 98, 102, 101, 99]
    ss = steady_state(flat)
    assert ss.reached and (ss.start, ss.end) == (0, 4) and ss.mean == pytest.approx(101.2)
    # excursion: 20% of the average is the limit
    assert not steady_state([100, 125, 100, 100, 100]).reached
    assert steady_state([100, 119, 100, 100, 100]).reached
    # slope: a steady ramp of 3% per round changes 12% over the window -> not steady
    ramp = 100 * (1 + 0.03 * np.arange(5))
    ss = steady_state(ramp)
    assert not ss.reached and ss.slope_change == pytest.approx(0.12 / 1.06, rel=1e-6)
    # the first window that qualifies, searching from `first`
    series = [1000, 600, 300, 200, 190, 195, 200, 198, 193]
    ss = steady_state(series)
    assert ss.reached and ss.start == 3
    assert steady_state(series, first=4).start == 4
    with pytest.raises(ValueError, match="window must be in"):
        steady_state(series, window=1)


@pytest.fixture(scope="module")
def wsat():
    cfg = SsdConfig(geometry=ssd_geometry(48 * 2**20, 0.15, **SMALL))
    return write_saturation(cfg, qd=16, fills=5, rounds_per_fill=8, seed=1)


def test_write_saturation_shows_fob_cliff_and_steady_state(wsat):
    r = wsat
    assert r.round_iops.size == 40 and np.all(np.isfinite(r.round_iops))
    assert r.fob_iops > 2.5 * r.steady_iops  # the cliff
    assert 0.7 < r.cliff_fills < 1.6  # it comes once the first fill has used up the free blocks
    assert r.steady.reached and r.steady.start >= r.cliff_round
    w = r.round_iops[r.steady.start:r.steady.end + 1]
    assert (w.max() - w.min()) <= 0.2 * w.mean()
    assert r.after["p99"] > 2 * r.before["p99"]
    assert r.steady_wa > 2.0 and r.round_wa[0] == pytest.approx(1.0)
    assert r.round_free_blocks[0] > r.round_free_blocks[-1]


def test_preconditioning_removes_the_fresh_out_of_box_plateau(wsat):
    cfg = SsdConfig(geometry=ssd_geometry(48 * 2**20, 0.15, **SMALL))
    pre = write_saturation(cfg, qd=16, fills=2, rounds_per_fill=8, precondition=True, seed=1)
    assert (pre.result.phase == 0).sum() > 0
    assert pre.round_wa[1] > 1.5  # GC from the first rounds: the drive is already full
    assert pre.fob_iops < 0.6 * wsat.fob_iops


def test_write_saturation_bad_input():
    with pytest.raises(ValueError, match="page_size must be 4096"):
        write_saturation(SsdConfig(geometry=ssd_geometry(2**28, 0.15, page_size=8192, **SMALL)))
    with pytest.raises(ValueError, match="qd must be in"):
        write_saturation(qd=0)


@pytest.mark.parametrize("cache, column", [("map_cache", "map_programs"), ("slc", "fold_copies")])
def test_a_rounds_wa_counts_map_programs_and_fold_copies(cache, column):
    """A map cache of one translation page writes a dirty one back on most misses, and an SLC
    cache folds: the sampled series carries both programs, and a round's WA counts them. In the
    fresh rounds, where the same drive without the cache collects no garbage (WA exactly 1), the
    cache's drive shows its extra programs per host write, about the whole run's share."""
    geo = ssd_geometry(24 * 2**20, 0.15, **SMALL)
    extra = {"map_cache": MapCache(cached_bytes=4096), "slc": SlcCache(blocks_per_plane=2)}[cache]
    plain = write_saturation(SsdConfig(geometry=geo), qd=8, fills=2, rounds_per_fill=4, seed=3)
    w = write_saturation(SsdConfig(geometry=geo, **{cache: extra}), qd=8, fills=2, rounds_per_fill=4, seed=3)
    s, c = w.result.series, w.result.counters
    assert np.all(np.diff(s[column]) >= 0) and 0 < s[column][-1] <= c[column]
    share = c[column] / c["host_page_writes"]  # the extra programs per host write, whole run
    assert share > 0.3
    fresh = plain.round_wa == 1.0
    assert fresh.sum() >= 2
    assert np.all(w.round_wa[fresh] - 1.0 > 0.5 * share)


@pytest.fixture(scope="module")
def by_qd():
    # the chapter's device: 64 MiB, 4 channels x 2 dies x 2 planes, 16 pages per block, op 0.2
    cfg = SsdConfig(geometry=ssd_geometry(64 * 2**20, 0.2, pages_per_block=16))
    return cfg, {qd: write_saturation(cfg, qd=qd, fills=4.0, seed=0) for qd in (8, 32)}


def test_deeper_queue_means_more_foreground_gc_but_not_a_lower_steady_state(by_qd):
    """Background GC only uses a plane with no host operation queued, so more queued writes push
    GC into the foreground; but a GC-bound drive's steady state is its raw program bandwidth over
    WA whatever the order, so queue depth 32 must not end below queue depth 8 (the first window
    whose IOPS met the PTS criteria once put queue depth 8 mid-cliff at 4,020 vs 3,061 IOPS)."""
    cfg, r = by_qd
    fg = {qd: np.nanmean(x.round_fg_share[-5:]) for qd, x in r.items()}
    assert fg[8] < 0.6 and fg[32] > 0.8 and fg[32] > fg[8] + 0.3
    assert r[32].steady_iops >= 0.9 * r[8].steady_iops
    for x in r.values():  # the steady state is the last five rounds, and it is steady in IOPS and WA
        assert x.steady.reached and (x.steady.start, x.steady.end) == (35, 39)
        assert x.steady_iops == pytest.approx(np.mean(x.round_iops[-5:]))
        assert x.steady_wa > 3.0
    # queue depth 32 keeps every plane busy: per host page, (WA) programs with their transfers,
    # (WA - 1) copy reads and the erases of the superblocks it frees, spread over 16 planes
    t, tx, units = cfg.timing, cfg.transfer_us, cfg.units
    wa = r[32].steady_wa
    ppb = cfg.geometry.pages_per_block * units
    erase_us = units * t.t_erase_us / (ppb / wa)  # a victim frees ppb / WA pages of host writes
    busy_us = wa * (tx + t.mean_prog_us) + (wa - 1) * (tx + t.mean_read_us) + erase_us
    assert r[32].steady_iops == pytest.approx(units / busy_us * 1e6, rel=0.08)


def test_latency_before_the_cliff_is_the_fresh_drive_whatever_the_run_length():
    """`before` is the rounds before garbage collection first copied a page: it must not take in
    the rounds where latency already rose, and a longer run must report the same window (the
    midpoint cliff of a longer run, with a lower steady state, comes later: taking the rounds
    before it once reported p99 42 ms with 8 fills against 8.4 ms with 4)."""
    cfg = SsdConfig(geometry=ssd_geometry(48 * 2**20, 0.15, **SMALL))
    short, long = (write_saturation(cfg, qd=16, fills=f, rounds_per_fill=8, seed=1) for f in (3, 6))
    assert short.gc_round == long.gc_round > 0
    assert short.before == long.before and short.before["requests"] > 0
    assert np.array_equal(short.round_iops[:-1], long.round_iops[:short.round_iops.size - 1])
    assert np.all(long.round_wa[:long.gc_round] == 1.0) and long.round_wa[long.gc_round] > 1.0
    assert long.before["p99"] <= np.min(long.round_p99_us[long.gc_round:]) < long.after["p99"]
    assert long.before["p99"] < 0.5 * long.after["p99"]


def test_write_saturation_goes_on_until_the_steady_state_like_the_pts():
    cfg = SsdConfig(geometry=ssd_geometry(48 * 2**20, 0.1, **SMALL))
    fixed = write_saturation(cfg, qd=16, fills=1.5, rounds_per_fill=8, seed=1)
    assert not fixed.steady.reached and fixed.round_iops.size == 12  # mid-cliff after 1.5 drive writes
    r = write_saturation(cfg, qd=16, fills=1.5, max_fills=8, rounds_per_fill=8, seed=1)
    assert r.steady.reached and 1.5 < r.round_fills[-1] <= 8.0
    n = r.round_iops.size
    assert (r.steady.start, r.steady.end) == (n - 5, n - 1)
    # it stops at the first round that closes a steady window: one round earlier was not steady
    for k, ok in ((n, True), (n - 1, False)):
        w = slice(k - 5, k)
        both = [steady_state(v[w]).reached for v in (r.round_iops, r.round_wa)]
        assert all(both) is ok
    assert r.before == fixed.before and np.array_equal(r.round_iops[:11], fixed.round_iops[:11])
    with pytest.raises(ValueError, match="max_fills must be in"):
        write_saturation(cfg, fills=2.0, max_fills=1.0)



def test_write_saturation_that_could_outgrow_memory_is_refused_up_front():
    """The rounds double towards max_fills: a run whose last doubling would exceed the request bound
    fails before the first round, not after minutes of rounds (isolated: a regression would run
    them, and then allocate)."""
    code = ("import resource\nresource.setrlimit(resource.RLIMIT_AS, (2**32, 2**32))\n"
            "from flashlab.ssd import SsdConfig, ssd_geometry, write_saturation\n"
            "config = SsdConfig(geometry=ssd_geometry(2**34, 0.25))  # 16 GiB: 4.2 million user pages\n"
            "try:\n    write_saturation(config, fills=1.0, max_fills=8.0)\n    print('ACCEPTED')\n"
            "except ValueError as exc:\n    print(exc)\n")
    res = run_isolated(code, timeout=60)
    assert res.returncode == 0, res.describe()
    assert res.stdout.startswith("requests: max_fills=8 and precondition=False ask for "), res.stdout
