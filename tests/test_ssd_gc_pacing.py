"""What the host waits for while the collector runs in the foreground: stopped (``wait``) or paced
(``throttle``, host writes admitted as each copy frees space).

The oracle is PASTA (Poisson arrivals see time averages, Wolff 1982): writes arriving as a Poisson
stream meet foreground GC in the share of the run the drive spends in it, so under ``wait`` that
share of the writes waits for a job, whatever the job's length. Pacing admits such writes at the
rate the copies free space, so few of them wait anything like a job. Cost: two open-loop runs of
the chapter's small drive (~4 s, numba cache warm).
"""

import numpy as np
import pytest

from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.workload import Workload

GEO = ssd_geometry(64 * 2**20, 0.2, pages_per_block=16)
LOAD = HostLoad(qd=32, rate_iops=2000.0, workload=Workload("uniform", read_fraction=0.5))
SLOW_US = 5000.0  # twice the slowest page program with its transfer: no write takes it unless it waits


def foreground_run(policy: str):
    r = simulate_io(SsdConfig(geometry=GEO, gc="foreground", foreground=policy), LOAD, fills=4.0, seed=0)
    assert not r.stalled
    work = r.phase == 1
    s = r.series
    t0, t1 = r.arrival_us[work].min(), r.done_us[work].max()
    i0, i1 = np.searchsorted(s["time_us"], [t0, t1])
    i1 = min(i1, s["time_us"].size - 1)
    fg = (s["fg_time_us"][i1] - s["fg_time_us"][i0]) / (s["time_us"][i1] - s["time_us"][i0])
    return r, work & (r.op == 0), fg


@pytest.fixture(scope="module")
def runs():
    return {p: foreground_run(p) for p in ("wait", "throttle")}


def test_waiting_writes_are_the_foreground_share_of_poisson_arrivals(runs):
    r, writes, fg = runs["wait"]
    assert fg > 0.05  # the run reaches foreground GC
    slow = np.mean(r.latency_us[writes] > SLOW_US)
    assert slow == pytest.approx(fg, rel=0.15)
    assert r.latency_us[writes].max() > 4 * SLOW_US  # a write that met a job waited for its rest


def test_pacing_spreads_the_jobs_over_the_writes_at_the_same_cost(runs):
    (rw, ww, fw), (rt, wt, ft) = runs["wait"], runs["throttle"]
    assert ft == pytest.approx(fw, rel=0.25)  # the drive is in foreground GC about as long
    assert rt.wa == pytest.approx(rw.wa, rel=0.05)  # the same copies, in another order
    long_wait = 4 * SLOW_US
    assert np.mean(rt.latency_us[wt] > long_wait) < 0.2 * np.mean(rw.latency_us[ww] > long_wait)
    assert np.percentile(rt.latency_us[wt], 99) < 0.5 * np.percentile(rw.latency_us[ww], 99)
