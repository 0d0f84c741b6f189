"""OLTP behind a buffer pool (flashlab.db.oltp): write counts, buffer conservation, determinism,
free buffer waits against write-through and write-back, bad input. Cost: about 2 s after the
kernel is compiled (about 15 s cold)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.db import oltp

HEAVY = dict(modify=0.5, flash_hit=0.9)  # write-intensive, reads mostly from flash
READ_BOUND = dict(modify=0.02, flash_hit=0.5)  # few changes, half the reads from disk


def _check_counts(r, buffers):
    # every clean-to-dirty change (or change during a write) is written exactly once; later
    # changes to a buffer still waiting for its write are coalesced into that write
    assert r.dirtyings == r.writes + r.pending_writes
    total = sum(r.states.values())
    assert (total == buffers).all()
    assert all((v >= 0).all() for v in r.states.values())


@pytest.mark.parametrize("write_back", [False, True])
def test_counts_add_up_and_buffers_are_conserved(write_back):
    r = oltp(write_back=write_back, accesses=6000, seed=4, **HEAVY)
    _check_counts(r, 2000)
    assert r.hits + r.flash_reads + r.disk_reads == 6000
    assert r.coalesced > 0 or write_back  # write-through: dirty buffers wait long enough to be changed again
    assert r.states["free"][-1] == 0  # the pool filled


@settings(max_examples=15, deadline=None)
@given(write_back=st.booleans(), buffers=st.integers(1, 300), modify=st.floats(0, 1), sessions=st.integers(1, 40),
       depth=st.integers(1, 16), seed=st.integers(0, 2**31))
def test_conservation_property(write_back, buffers, modify, sessions, depth, seed):
    r = oltp(write_back=write_back, accesses=1500, blocks=600, buffers=buffers, modify=modify, sessions=sessions,
             dbwr_depth=depth, disks=3, flash_drives=1, samples=50, seed=seed)
    _check_counts(r, buffers)


def test_same_seed_same_result():
    a, b = oltp(accesses=3000, seed=7), oltp(accesses=3000, seed=7)
    assert a.accesses_per_s == b.accesses_per_s and a.free_buffer_wait_us == b.free_buffer_wait_us
    assert np.array_equal(a.states["dirty"], b.states["dirty"])
    assert oltp(accesses=3000, seed=8).accesses_per_s != a.accesses_per_s


def test_write_back_removes_free_buffer_waits_on_a_write_heavy_load():
    wt, wb = oltp(write_back=False, **HEAVY), oltp(write_back=True, **HEAVY)
    assert wt.wait_share > 0.3 and wt.free_buffer_waits > 1000
    assert wb.free_buffer_waits <= 0.01 * wt.free_buffer_waits
    assert wb.accesses_per_s > 3 * wt.accesses_per_s  # Harrison measured 4x
    assert wb.write_latency["p50"] < 0.2 * wt.write_latency["p50"]


def test_read_bound_load_gains_little():
    wt, wb = oltp(write_back=False, **READ_BOUND), oltp(write_back=True, **READ_BOUND)
    assert wt.wait_share < 0.05
    assert wb.accesses_per_s < 1.15 * wt.accesses_per_s


@pytest.mark.parametrize("kw, name", [
    (dict(sessions=0), "sessions"), (dict(modify=1.5), "modify"), (dict(flash_hit=-0.1), "flash_hit"),
    (dict(buffers=20000, blocks=20000), "buffers"), (dict(write_back=1), "write_back"),
    (dict(dbwr_depth=0), "dbwr_depth"), (dict(disk="cheetah"), "disk"), (dict(cpu_us=float("nan")), "cpu_us"),
    (dict(accesses=10, samples=20), "samples"), (dict(seed=-1), "seed")])
def test_bad_input(kw, name):
    with pytest.raises(ValueError, match=name):
        oltp(**kw)


def test_few_accesses_run_with_the_default_samples():
    """The default sample count shrinks to ``accesses``: a short run is valid input, not an error
    about a parameter the caller never set."""
    r = oltp(accesses=20, blocks=400, buffers=40, sessions=4, seed=1)
    assert 1 <= len(r.sample_us) <= 20
    assert r.hits + r.flash_reads + r.disk_reads == 20  # every access either hit or read once
