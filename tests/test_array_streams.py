"""Array workloads and degraded members: full-stripe sequential writes against small random
writes (member reads counted exactly), reads rebuilt around failed members (RAID-6: two).

Costs (numba cache warm): layout tests < 2 s (hypothesis: 40 examples)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.array import Layout
from test_array import ArrayModel


@pytest.mark.parametrize("raid,reads", [(5, 2), (6, 3)])
def test_full_stripe_writes_read_nothing_and_small_writes_read_modify_write_exactly(raid, reads):
    """A stripe-aligned write of whole stripes (a backup stream) writes data and parity and reads
    nothing; a one-page random write reads old data and parity (RAID-5: 2 reads + 2 writes,
    RAID-6: 3 + 3)."""
    L = Layout(raid=raid, drives=8, stripe_unit=16384, member_pages=64)
    stripe = L.data_units * L.unit_pages
    n = 12
    seq = L.plan(np.zeros(n, np.int64), np.arange(n) * 2 * stripe % L.array_pages, np.full(n, 2 * stripe))
    assert (seq["op"] == 1).sum() == 0
    assert (seq["op"] == 0).sum() == n * 2 * L.drives  # every member of two stripes, once each
    rng = np.random.default_rng(3)
    small = L.plan(np.zeros(n, np.int64), rng.integers(0, L.array_pages, n), np.ones(n, np.int64))
    assert np.bincount(small["host"][small["op"] == 1], minlength=n).tolist() == [reads] * n
    assert np.bincount(small["host"][small["op"] == 0], minlength=n).tolist() == [reads] * n


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 8), st.data())
def test_raid6_reads_rebuilt_around_two_failed_members_return_the_last_write(drives, data):
    """Stamps written through the plan while healthy; then two members fail and every LBA is
    read through :meth:`Layout.degrade`: the read touches no failed member, reads exactly the
    N - 2 survivors of its stripe when its own member failed (data and P, or Q standing in),
    and the value solved from only those members is the last write."""
    su = data.draw(st.integers(1, 2))
    L = Layout(raid=6, drives=drives, stripe_unit=4096 * su, page_size=4096, member_pages=su * 3)
    model = ArrayModel(L)
    last = np.zeros(L.array_pages, np.int64)
    stamp = 1
    for _ in range(data.draw(st.integers(1, 12))):
        lba = data.draw(st.integers(0, L.array_pages - 1))
        k = data.draw(st.integers(1, min(L.array_pages - lba, 2 * su * L.data_units)))
        model.write(lba, k, stamp)
        last[lba:lba + k] = np.arange(stamp, stamp + k)
        stamp += k + 5
    failed = set(data.draw(st.lists(st.integers(0, drives - 1), min_size=1, max_size=2, unique=True)))
    healthy = model.mem.copy()
    model.mem[sorted(failed)] = -12345  # a failed member's contents are gone
    for lba in range(L.array_pages):
        plan = L.degrade(L.plan([1], [lba], [1], rebuild=True), failed)
        read = set(plan["device"].tolist())
        assert not read & failed and (plan["op"] == 1).all() and (plan["phase"] == 0).all()
        home = int(L.locate([lba])[0][0])
        assert len(read) == (drives - 2 if home in failed else 1)
        model.mem, saved = np.where(np.isin(np.arange(drives), list(read))[:, None], healthy, -999), model.mem
        assert model.read(lba, failed) == last[lba], (lba, failed)
        model.mem = saved


def test_degraded_plans_drop_failed_writes_keep_alternates_around_failures_and_refuse_too_many():
    L = Layout(raid=6, drives=6, stripe_unit=4096, member_pages=12)
    plan = L.plan([0, 1], [0, 5], [L.data_units, 1], rebuild=True)
    d = L.degrade(plan, [2], keep_alternates=True)
    assert 2 not in d["device"].tolist()
    assert (d["op"][d["host"] == 0] == 0).sum() == L.drives - 1  # the full-stripe write, less the failed member
    alt, cnt = d["alternates"]
    for i in np.flatnonzero(alt >= 0):
        assert 2 not in d["device"][alt[i]:alt[i] + cnt[i]].tolist() and cnt[i] == L.drives - 2
    with pytest.raises(ValueError, match="survives at most 2 failed members; got 3"):
        L.degrade(plan, [0, 1, 2])
    with pytest.raises(ValueError, match="failed must be in|failed.*\\[0, 5\\]"):
        L.degrade(plan, [6])
    with pytest.raises(ValueError, match="RAID-10 loses data when both members of a mirrored pair fail"):
        Layout(raid=10, drives=4).tolerates([0, 1])
    with pytest.raises(ValueError, match="survives at most 0"):
        Layout(raid=0, drives=4).tolerates([1])


# ---------------------------------------------------------------- in the engine
def _small(**kw):
    from flashlab.array import ArrayConfig
    return ArrayConfig(arch="ssd", drives=6, raid=6, **kw)


def test_hosts_merge_on_one_clock_each_with_its_own_seeded_stream():
    from flashlab.array import Host, simulate_hosts
    from flashlab.ssd import HostLoad
    from flashlab.workload import Workload
    stripe = 4 * 16384
    reader = Host(load=HostLoad(rate_iops=3000.0, workload=Workload(read_fraction=0.99)), requests=300)
    backup = Host(load=HostLoad(rate_iops=300.0, write_size=stripe), stream="seq", requests=30)
    one = simulate_hosts(_small(), [reader], precondition_fills=0.0, seed=5)
    two = simulate_hosts(_small(), [reader, backup], precondition_fills=0.0, seed=5)
    again = simulate_hosts(_small(), [reader, backup], precondition_fills=0.0, seed=5)
    np.testing.assert_array_equal(two.array.latency_us, again.array.latency_us)  # same seed, same run
    # host 0 issues the same I/Os alone or beside the backup (its own seeded stream)
    a, b = one.array, two.array
    m = two.host == 0
    np.testing.assert_array_equal(a.lba, b.lba[m])
    np.testing.assert_array_equal(a.arrival_us, b.arrival_us[m])
    assert (np.diff(b.arrival_us) >= 0).all()  # merged on one clock
    # the backup: sequential, stripe-aligned full-stripe writes: no member reads
    seq = np.flatnonzero(two.host == 1)
    assert (np.diff(b.lba[seq]) == 4 * 4).all()
    assert not ((b.plan["op"] == 1) & np.isin(b.plan["host"], seq)).any()
    per = two.per_host()
    assert len(per) == 2 and per[0]["iops"] > 0 and per[1]["iops"] > 0
    assert np.isfinite(two.percentiles(0, 1)["p99"]) and np.isfinite(two.percentiles(1, 0)["p50"])
    with pytest.raises(ValueError, match="all open loop .* or all closed loop"):
        simulate_hosts(_small(), [reader, Host()], precondition_fills=0.0)


def test_closed_loop_hosts_share_the_depth_in_proportion():
    from flashlab.array import Host, simulate_hosts
    from flashlab.ssd import HostLoad
    r = simulate_hosts(_small(), [Host(load=HostLoad(qd=6), requests=300), Host(load=HostLoad(qd=2), requests=100)],
                       precondition_fills=0.0, seed=2)
    assert r.array.error == "" and np.isfinite(r.array.latency_us).all()
    assert np.bincount(r.host).tolist() == [300, 100]
    assert (np.abs(np.cumsum(r.host == 0) - 3 * np.cumsum(r.host == 1)) <= 3).all()  # issued 3:1


def test_degraded_raid6_reads_are_slower_and_read_the_rebuild_set():
    """Random 4 KiB reads on 6 SSDs in RAID-6: healthy, one failed, two failed. A read whose
    member failed reads the other N - 2 members of its stripe, so member reads are exactly
    pieces + (N - 3) x pieces on failed members, and latency (the slowest of N - 2) rises."""
    from flashlab.array import simulate_array
    from flashlab.ssd import HostLoad
    from flashlab.workload import Workload
    load = HostLoad(qd=4, workload=Workload(read_fraction=0.999))
    runs = {f: simulate_array(_small(failed=f), load, requests=600, precondition_fills=1.0, seed=7)
            for f in ((), (1,), (1, 4))}
    mean = {}
    for f, r in runs.items():
        reads = r.op == 1
        home = r.config.layout.locate(r.lba[reads])[0]
        on_failed = int(np.isin(home, f).sum())
        member_reads = int(((r.plan["op"] == 1) & reads[r.plan["host"]]).sum())
        assert member_reads == reads.sum() + (6 - 3) * on_failed, f
        assert not np.isin(r.plan["device"], f).any()
        mean[f] = r.percentiles(op=1)["mean"]
    assert mean[()] < mean[(1,)] < mean[(1, 4)], mean


def test_cli_hosts_and_streams_and_bad_input(capsys):
    from flashlab.cli import main
    base = ["array", "--drives", "6", "--raid", "6", "--requests", "200", "--precondition", "0", "--seed", "1"]
    assert main(base + ["--hosts", "2", "--qd", "8"]) == 0
    out = capsys.readouterr().out
    assert "host 0 (random):" in out and "host 1 (random):" in out
    assert main(base + ["--stream", "seq", "--io-size", "65536", "--read-fraction", "0", "--json"]) == 0
    import json
    data = json.loads(capsys.readouterr().out)
    assert len(data["hosts"]) == 1 and data["hosts"][0]["iops"] > 0 and data["config"]["stream"] == "seq"
    import subprocess
    import sys
    for extra, message in [(["--hosts", "0"], "hosts must be in [1, 256]; got 0"),
                           (["--stream", "scan"], "stream must be one of"),
                           (["--hosts", "4", "--qd", "2"], "qd must be in [4, 65536]; got 2")]:
        p = subprocess.run([sys.executable, "-m", "flashlab.cli", "array", *extra], capture_output=True, text=True)
        assert p.returncode == 2, (extra, p.stderr)
        assert message in p.stderr and "Traceback" not in p.stderr and p.stderr.count("\n") == 1, p.stderr
