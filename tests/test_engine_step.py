"""Engine.step with a time limit (``until``): it stops before the first event at ``until`` or
later, and a run stepped in pieces, with host I/Os revealed only when the clock reaches them
(as a host model above the engine adds them), is the same run as one step to the end; bad
``until`` and ``max_pages`` are refused by name."""

import re
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import SsdConfig, ssd_geometry
from flashlab.ssd.engine import Engine

N = 240
FLASH = SsdConfig(geometry=ssd_geometry(2**23, 0.25, channels=2, dies_per_channel=1, planes_per_die=2,
                                        pages_per_block=16), cache_bytes=2**16, power_loss_protection=True)
DISK = replace(CHEETAH_15K7, write_cache_bytes=2**16)  # a controller cache of 128 blocks


def _requests(member, seed):
    """N writes and reads (a quarter) of 1-4 LBAs arriving faster than the member serves them."""
    rng = np.random.default_rng(seed)
    lbas = member.geometry.user_pages if member is FLASH else 2**20
    op = (rng.random(N) < 0.25).astype(np.int8)
    pages = rng.integers(1, 5, N)
    lba = rng.integers(0, lbas - 4, N)
    gap = 40.0 if member is FLASH else 3000.0
    return op, lba, pages, np.cumsum(rng.exponential(gap, N))


def _engine(member, op, lba, pages, arrivals, **kw):
    return Engine([member], op, lba, pages, np.zeros(N, np.int64), arrivals, 1, [8], [-1], [], 1, 7,
                  precondition_fills=1.0 if member is FLASH else 0.0, **kw)


def _outcome(e):
    r, h = e.requests, e.hosts
    return {"arrival": r.arrival, "start": r.start, "done": r.done, "durable": r.durable, "host_done": h.done,
            "now": e.loop.now, "events": e.loop.events, "programs": e.stats.host_programs,
            "gc": e.stats.gc_programs, "erases": e.stats.erases, "rows": e.stats.rows}


def _same(a, b):
    for k in a:
        assert np.array_equal(a[k], b[k], equal_nan=True), k


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(member=st.sampled_from(["flash", "disk"]), seed=st.integers(0, 3),
       cuts=st.lists(st.tuples(st.integers(0, N - 1), st.sampled_from([0.0, -1.0, 0.5, 1.0, 30.0])),
                     min_size=1, max_size=8))
def test_stepping_in_pieces_revealing_arrivals_is_one_run(member, seed, cuts):
    """Cut points at arrival times (host I/O ``i``'s arrival, exactly or shifted by ``dt`` us):
    the engine steps until each; host I/Os arriving at the cut or later are unknown (arrival
    inf) until the engine has stopped there. Every request's times, the counters and the event
    count equal one run with every arrival known from the start."""
    m = FLASH if member == "flash" else DISK
    op, lba, pages, arrivals = _requests(m, seed)
    whole = _engine(m, op, lba, pages, arrivals)
    whole.step(N + 1)
    assert whole.error() == "" and np.isfinite(whole.requests.durable).all()

    times = sorted({max(0.0, float(arrivals[i]) + dt) for i, dt in cuts})
    hidden = arrivals.copy()
    hidden[arrivals >= times[0]] = np.inf
    e = _engine(m, op, lba, pages, hidden)
    for k, t in enumerate(times):
        e.step(N + 1, until=t)
        assert e.loop.now[0] < t or (t == 0.0 and e.loop.events[0] == 0)
        nxt = times[k + 1] if k + 1 < len(times) else np.inf
        show = (arrivals >= t) & (arrivals < nxt)
        e.hosts.arrival[show] = arrivals[show]  # revealed when the clock reaches t
    e.step(N + 1)
    _same(_outcome(e), _outcome(whole))


@pytest.mark.parametrize("member", ["flash", "disk"])
def test_step_until_stops_before_the_first_event_at_until(member):
    """Stopped at ``until``: every completion before it has happened and none at or after it
    (the whole run's done times, cut at ``until``), the clock reads the last event before it,
    and stepping again with the same ``until`` does nothing."""
    m = FLASH if member == "flash" else DISK
    op, lba, pages, arrivals = _requests(m, 1)
    whole = _engine(m, op, lba, pages, arrivals)
    whole.step(N + 1)
    done = whole.requests.done
    for t in (float(np.nanmedian(done)), float(done[N // 3]), float(arrivals[N // 2])):
        e = _engine(m, op, lba, pages, arrivals)
        n = e.step(N + 1, until=t)
        before = np.where(done < t, done, np.nan)
        assert np.array_equal(e.requests.done, before, equal_nan=True)
        assert n == int((whole.hosts.done < t).sum()) and 0 < n < N
        assert e.loop.now[0] < t
        events = int(e.loop.events[0])
        assert e.step(N + 1, until=t) == n and int(e.loop.events[0]) == events


def test_step_until_a_done_count_first():
    """With both limits the first one reached stops the run."""
    op, lba, pages, arrivals = _requests(DISK, 2)
    e = _engine(DISK, op, lba, pages, arrivals)
    assert e.step(10, until=np.inf) == 10
    t = float(e.loop.now[0])
    assert e.step(N, until=t) == 10  # nothing before the clock is left


@pytest.mark.parametrize("until, message", [(float("nan"), "got nan"), (-1.0, r"got -1\.0"), ("soon", "str"),
                                            (True, "bool"), (None, "NoneType"),
                                            (np.array([1.0]), "ndarray")])
def test_bad_until_is_named(until, message):
    op, lba, pages, arrivals = _requests(DISK, 0)
    e = _engine(DISK, op, lba, pages, arrivals)
    e.step(5)
    now = re.escape(repr(float(e.loop.now[0])))
    with pytest.raises(ValueError, match=rf"until must be a time \(us\) in \[{now}, inf\].*{message}"):
        e.step(N, until=until)
    before = float(e.loop.now[0])
    with pytest.raises(ValueError, match="not before the engine's clock"):
        e.step(N, until=before - 1e-6)


def test_max_pages_sizes_the_queues_and_is_checked():
    """A stated largest request gives the same run (queues are only larger); one below the
    largest request given is refused, naming it."""
    op, lba, pages, arrivals = _requests(FLASH, 3)
    a, b = _engine(FLASH, op, lba, pages, arrivals), _engine(FLASH, op, lba, pages, arrivals, max_pages=64)
    assert (b.queues.cap > a.queues.cap).all()
    a.step(N + 1)
    b.step(N + 1)
    _same(_outcome(a), _outcome(b))
    with pytest.raises(ValueError, match=r"max_pages must be at least the largest request, 4 pages .*got 3"):
        _engine(FLASH, op, lba, pages, arrivals, max_pages=3)
    with pytest.raises(ValueError, match="max_pages"):
        _engine(FLASH, op, lba, pages, arrivals, max_pages=2.5)
