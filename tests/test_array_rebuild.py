"""Rebuild onto a spare: the data stays right at every step, the timed run keeps its counts, and
the window of exposure's closed forms, worked by hand.

The data-level model is :class:`test_array.ArrayModel` (member pages hold stamps, P the XOR, Q
the GF(2^8) sum of a stripe's data), here executing the requests of
:class:`flashlab.array.Rebuild`: a rebuild step writes the spare only what its reads determine,
and host I/Os follow the frontier. A failed member's pages (and the blank spare that takes its
slot) hold garbage, so a read served from a member that was never written fails.

Costs (numba cache warm, an idle core): the stateful search ~14 s (50 examples), the broken
models and closed forms < 1 s, the timed runs ~2 s (small disk and flash arrays).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_array import EXP, ArrayModel, gf_mul
from test_array_degraded import TOLERANCE, draw_layout

from flashlab.array import (ArrayConfig, Layout, Rebuild, array_drive, raid6_loss_probability,
                            second_failure_probability, simulate_array, simulate_rebuild, ure_probability)
from flashlab.array import rebuild as rebuild_module
from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import HostLoad
from flashlab.workload import Workload

class RebuildModel(ArrayModel):
    """ArrayModel running a rebuild's plans: the spare (device ``drives``) takes the failed
    member's slot; each stripe's requests run with the members that stripe misses
    (:meth:`Rebuild.away`)."""

    def __init__(self, layout: Layout):
        super().__init__(layout)
        self.garbage = 1 << 31

    def lose(self, member: int) -> None:
        """Member ``member`` fails: its pages (and those of the blank spare that will take its
        slot) hold garbage no host wrote."""
        n = self.L.member_pages
        self.mem[member] = np.arange(self.garbage, self.garbage + n)
        self.garbage += n

    def new(self, lba: int, pages: int, stamp0: int) -> dict:
        dev, mlba = self.L.locate(np.arange(lba, lba + pages))
        new = {}
        for i in range(pages):
            new[(int(dev[i]), int(mlba[i]))] = stamp0 + i
            if self.L.raid in (1, 10):
                new[(int(dev[i]) + 1, int(mlba[i]))] = stamp0 + i
        return new

    def run(self, plan: dict, rb: Rebuild, new: dict) -> dict:
        """Execute ``plan`` stripe by stripe; returns what each read request read, by (member, page)."""
        dev = np.where(plan["device"] == rb.spare, rb.member, plan["device"])
        stripe = plan["lba"] // self.su
        got = {}
        for s in np.unique(stripe):
            self.failed = frozenset(rb.away(int(s)))
            read: dict = {}
            for ph in (0, 1):
                writes = {}
                for r in np.flatnonzero((stripe == s) & (plan["phase"] == ph)):
                    d, a, k = int(dev[r]), int(plan["lba"][r]), int(plan["pages"][r])
                    for x in range(a, a + k):
                        if plan["op"][r] == 1:
                            read[(d, x)] = int(self.mem[d, x])
                        elif plan["cause"][r] == 5:
                            writes[(d, x)] = self._rebuilt_unit(d, x, read)
                        else:
                            writes[(d, x)] = self._value(d, x, new, read)
                for (d, x), v in writes.items():
                    self.mem[d, x] = v
            got.update(read)
        return got

    def _rebuilt_unit(self, f: int, x: int, read: dict) -> int:
        """What a rebuild step writes to member ``f``'s page ``x``, from what it read only."""
        L, s = self.L, x // self.su
        away = {d for d in range(L.drives) if (d, x) not in read} | {f}
        if L.raid in (1, 10):
            assert (f ^ 1, x) in read, f"the rebuild of member {f} did not read its copy at page {x}"
            return read[(f ^ 1, x)]
        par = L.parity_members(s)
        values = []
        for j in range(self.m):
            lba = (s * self.m + j) * self.su + x % self.su
            dj = int(L.locate([lba])[0][0])
            values.append(read[(dj, x)] if (dj, x) in read else self.read(lba, away))
        if f not in par:
            return values[self._unit(f, s)]
        v = 0
        for j, dj in enumerate(values):
            v ^= dj if f == par[0] else gf_mul(int(EXP[j]), dj)
        return v

    def read_through(self, rb: Rebuild, lba: int) -> int:
        """Host read of ``lba`` through the rebuild's plan: the member it read, or rebuilt from
        what it read."""
        L = self.L
        plan = rb.plan([1], [lba], [1])
        got = self.run(plan, rb, {})
        x = int(L.locate([lba])[1][0])
        home = int(L.locate([lba])[0][0])
        copies = (home, home + 1) if L.raid in (1, 10) else (home,)
        away = set(rb.away(x // self.su))
        for d in copies:
            if (d, x) in got and d not in away:
                return got[(d, x)]
        return self.read(lba, {d for d in range(L.drives) if (d, x) not in got} | away)


class RebuildingArray(RuleBasedStateMachine):
    """Writes, failures, rebuild steps and reads in any order; every read returns its last write."""

    @initialize(raid=st.sampled_from((1, 5, 6, 10)), data=st.data())
    def setup(self, raid, data):
        self.L = draw_layout(raid, data, stripes=6)
        self.model = RebuildModel(self.L)
        self.last = np.zeros(self.L.array_pages, np.int64)
        self.stamp = 1
        self.failed: list[int] = []
        self.rb: Rebuild | None = None

    def _within(self, failed) -> bool:
        return len(failed) <= TOLERANCE[self.L.raid] or (self.L.raid == 10 and len({d // 2 for d in failed}) == len(failed))

    @rule(data=st.data())
    def write(self, data):
        n = self.L.array_pages
        lba = data.draw(st.integers(0, n - 1))
        pages = data.draw(st.integers(1, min(n - lba, 3 * self.L.unit_pages * self.L.data_units)))
        if self.rb is None:
            self.model.write(lba, pages, self.stamp, frozenset(self.failed))
        else:
            self.model.run(self.rb.plan([0], [lba], [pages]), self.rb, self.model.new(lba, pages, self.stamp))
        self.last[lba:lba + pages] = np.arange(self.stamp, self.stamp + pages)
        self.stamp += pages + 7

    @rule(member=st.integers(0, 7))
    def fail(self, member):
        member %= self.L.drives
        if member in self.failed:
            return
        after = self.failed + [member]
        if self.rb is None:
            if self._within(after):
                self.failed = after
                self.model.lose(member)
            else:
                with pytest.raises(ValueError, match=r"data loss in stripes 0 to \d+"):
                    self.L.tolerates(after)
            return
        rb = self.rb
        behind_ok = self._within([d for d in after if d != rb.member])
        if behind_ok and self._within(after):
            self.rb = Rebuild(layout=self.L, failed=after, member=rb.member, frontier=rb.frontier)
            self.failed = after
            self.model.lose(member)
        else:  # past the tolerance: refused, naming the stripes lost (all, or those not yet rebuilt)
            first = rb.frontier if behind_ok else 0
            with pytest.raises(ValueError, match=rf"data loss in stripes {first} to {self.L.stripes - 1}\b"):
                Rebuild(layout=self.L, failed=after, member=rb.member, frontier=rb.frontier)

    @rule(which=st.integers(0, 1))
    def start_rebuild(self, which):
        if self.rb is None and self.failed:
            self.rb = Rebuild(layout=self.L, failed=self.failed, member=self.failed[which % len(self.failed)])

    @rule(steps=st.integers(1, 2))
    def rebuild_steps(self, steps):
        for _ in range(steps):
            if self.rb is None:
                return
            self.model.run(self.rb.stripe_plan(), self.rb, {})
            self.rb = self.rb.advanced()
            if self.rb.done:
                self.failed.remove(self.rb.member)
                self.rb = None

    @invariant()
    def every_read_returns_its_last_write(self):
        if getattr(self, "L", None) is None:
            return
        for lba in range(self.L.array_pages):
            if self.rb is not None:
                assert self.model.read_through(self.rb, lba) == self.last[lba], (lba, self.failed, self.rb.frontier)
            else:
                assert self.model.read(lba, set(self.failed)) == self.last[lba], (lba, self.failed)


RebuildingArray.TestCase.settings = settings(max_examples=50, stateful_step_count=25, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
TestRebuildingArray = RebuildingArray.TestCase
TestRebuildingArray.pytestmark = [pytest.mark.longest]  # a minute or more: handed out first


def _half_rebuilt(raid: int = 5):
    """RAID-5 (or 6) of 4 members, written whole, member 1 failed and rebuilt over half its stripes."""
    L = Layout(raid=raid, drives=4, stripe_unit=8192, page_size=4096, member_pages=8)
    model = RebuildModel(L)
    model.write(0, L.array_pages, 100)
    model.lose(1)
    rb = Rebuild(layout=L, failed=(1,), member=1)
    for _ in range(L.stripes // 2):
        model.run(rb.stripe_plan(), rb, {})
        rb = rb.advanced()
    return L, model, rb


def test_the_real_rebuild_keeps_every_read():
    L, model, rb = _half_rebuilt()
    assert [model.read_through(rb, x) for x in range(L.array_pages)] == list(range(100, 100 + L.array_pages))


def test_a_rebuild_that_marks_a_stripe_done_before_writing_it_is_caught(monkeypatch):
    """The checks have teeth: a step that advances the frontier without its write to the spare
    leaves the spare's garbage behind the frontier, and a read returns it."""
    real = Rebuild.stripe_plan

    def no_write(self, stripe=None):
        p = real(self, stripe)
        keep = p["op"] == 1
        return {k: (v[keep] if k != "alternates" else tuple(a[keep] for a in v)) for k, v in p.items()}

    monkeypatch.setattr(Rebuild, "stripe_plan", no_write)
    L, model, rb = _half_rebuilt()
    wrong = [x for x in range(L.array_pages) if model.read_through(rb, x) != 100 + x]
    assert wrong, "a rebuild that never writes the spare must lose a read behind its frontier"


def test_a_host_write_behind_the_frontier_that_skips_the_spare_is_caught(monkeypatch):
    """A write routed as if no stripe were rebuilt leaves the spare stale; reads behind the
    frontier go to the spare and return the old data."""
    L, model, rb = _half_rebuilt()
    real = rebuild_module.frontier_plan

    def writes_skip_spare(rebuild, ops, lbas, pages, frontier):
        return real(rebuild, ops, lbas, pages, np.where(np.asarray(ops) == 0, 0, frontier))

    gone = [x for x in range(6) if int(L.locate([x])[0][0]) == 1]  # stripe 0 (rebuilt): member 1's pages
    monkeypatch.setattr(rebuild_module, "frontier_plan", writes_skip_spare)
    model.run(rb.plan([0], [0], [6]), rb, model.new(0, 6, 900))  # a full-stripe write: no reads needed
    assert [model.read_through(rb, x) for x in gone] != [900 + x for x in gone], "the spare must be stale"
    monkeypatch.setattr(rebuild_module, "frontier_plan", real)
    model.run(rb.plan([0], [0], [6]), rb, model.new(0, 6, 950))
    assert [model.read_through(rb, x) for x in range(6)] == list(range(950, 956))


def test_a_failure_past_the_tolerance_names_the_stripes_not_yet_rebuilt():
    L = Layout(raid=5, drives=4, stripe_unit=8192, page_size=4096, member_pages=8)
    with pytest.raises(ValueError, match=r"data loss in stripes 2 to 3 \(not yet rebuilt; stripes before 2 survive\)"):
        Rebuild(layout=L, failed=(1, 2), member=1, frontier=2)
    assert Rebuild(layout=L, failed=(1, 2), member=1, frontier=4).away(0) == (2,)  # done: only member 2 away
    with pytest.raises(ValueError, match="data loss in stripes 0 to 1"):  # past it even when rebuilt
        Rebuild(layout=Layout(raid=6, drives=5, member_pages=8), failed=(0, 1, 2, 3), member=0, frontier=1)


def test_exposure_closed_forms_worked_by_hand():
    """RAID-5 of 8 Cheetah 15K.7 disks (AFR 0.55%, data sheet) rebuilding for 24 h:
    lambda = -ln(1 - 0.0055) / 8760 h = 0.0055152 / 8760 = 6.2959e-7 per hour; 7 survivors
    x 24 h x lambda = 1.05771e-4; 1 - exp(-1.05771e-4) = 1.05765e-4. RAID-6: one member fails
    with p = 1 - exp(-24 lambda) = 1.51100e-5; two or more of 7: 1 - q^7 - 7 p q^6 = 21 p^2
    (1 - ...) ~ 4.7944e-9. URE: 7 members of 600 GB read whole, 4.2e12 bytes = 3.36e13 bits at
    one per 1e16: 1 - exp(-3.36e-3) = 3.35436e-3."""
    assert second_failure_probability(7, 0.0055, 24.0) == pytest.approx(1.05765e-4, rel=1e-4)
    assert raid6_loss_probability(7, 0.0055, 24.0) == pytest.approx(4.7944e-9, rel=1e-3)
    assert ure_probability(7 * 600e9, 1e16) == pytest.approx(3.35436e-3, rel=1e-4)
    assert second_failure_probability(7, 0.0, 24.0) == 0.0 and ure_probability(0.0, 1e16) == 0.0
    with pytest.raises(ValueError, match=r"afr must be in \[0, 1\)"):
        second_failure_probability(7, 1.0, 24.0)


def _disk_array(raid=5, failed=(2,)):
    disk = dataclasses.replace(CHEETAH_15K7, capacity_bytes=2**23)
    return ArrayConfig(arch="disk", drives=5, raid=raid, disk=disk, failed=failed)


def test_a_timed_rebuild_keeps_its_rate_its_frontier_and_its_counts():
    cfg = _disk_array()
    L = cfg.layout
    load = HostLoad(qd=32, rate_iops=150, workload=Workload(read_fraction=0.99))
    r = simulate_rebuild(cfg, load, rate_mb_s=10.0, requests=300, seed=3)
    assert r.error == "" and r.early == 0 and np.isfinite(r.latency_us).all()
    S = L.stripes
    interval = cfg.stripe_unit / 10.0
    assert r.rebuild_us >= (S - 1) * interval and (r.stripe_done_us >= r.stripe_issue_us).all()
    by = r.pages_by_cause()
    assert by["rebuild_writes"] == L.member_pages and by["rebuild_reads"] == L.member_pages * L.data_units
    assert sum(by.values()) == int(r.plan["pages"].sum())
    host = r.plan["host"] < r.op.size
    reads = host & (r.op[np.minimum(r.plan["host"], r.op.size - 1)] == 1)
    # every host read page arrives once: from its member or the spare, or from n - 1 stand-ins
    data = int(r.plan["pages"][reads & (r.plan["cause"] == 0)].sum())
    standin = int(r.plan["pages"][reads & (r.plan["cause"] == 3)].sum())
    assert data + standin // (cfg.drives - 1) == int(r.pages[r.op == 1].sum())
    # a read reaches the spare only in a stripe whose write to it was done when the read arrived;
    # reads of rebuilt stripes never reach the failed member's stand-ins
    spare = reads & (r.plan["device"] == cfg.drives)
    s = r.plan["lba"][spare] // L.unit_pages
    assert spare.any() and (r.stripe_done_us[s] <= r.arrival_us[r.plan["host"][spare]]).all()
    behind = np.r_[r.behind, np.zeros(S, bool)][r.plan["host"]]
    assert not (reads & behind & (r.plan["cause"] == 3)).any()
    assert 0 < r.behind.sum() < r.op.size
    again = simulate_rebuild(cfg, load, rate_mb_s=10.0, requests=300, seed=3)
    assert np.array_equal(again.done_us, r.done_us) and again.rebuild_us == r.rebuild_us


def test_a_faster_rebuild_ends_sooner_and_costs_host_reads_more():
    """Against its rate limit: a higher limit shortens the rebuild, and the host reads during it
    wait longer behind its requests; the degraded array without a rebuild sits between healthy
    and rebuilding."""
    cfg = _disk_array()
    load = HostLoad(qd=32, rate_iops=150, workload=Workload(read_fraction=0.99))
    slow = simulate_rebuild(cfg, load, rate_mb_s=2.0, requests=300, seed=3)
    fast = simulate_rebuild(cfg, load, rate_mb_s=40.0, requests=300, seed=3)
    assert fast.rebuild_us < slow.rebuild_us / 4
    assert fast.percentiles(1)["p50"] > slow.percentiles(1)["p50"]
    healthy = simulate_array(dataclasses.replace(cfg, failed=()), load, requests=300, seed=3)
    degraded = simulate_array(cfg, load, requests=300, seed=3)
    assert healthy.percentiles(1)["p50"] < degraded.percentiles(1)["p50"]


def test_a_flash_rebuild_runs_on_flash_members():
    cfg = ArrayConfig(arch="ssd", drives=4, raid=6, drive=array_drive(capacity_bytes=2**22), failed=(0, 3))
    load = HostLoad(qd=32, rate_iops=4000, workload=Workload(read_fraction=0.7))
    r = simulate_rebuild(cfg, load, rate_mb_s=20.0, requests=200, precondition_fills=0.2, seed=1)
    assert r.error == "" and r.early == 0 and math.isfinite(r.rebuild_us)
    by = r.pages_by_cause()
    L = cfg.layout
    assert by["rebuild_writes"] == L.member_pages and by["rebuild_reads"] == L.member_pages * L.data_units
    with pytest.raises(ValueError, match="load.rate_iops must be set"):
        simulate_rebuild(cfg, HostLoad(qd=4), rate_mb_s=20.0)
    with pytest.raises(ValueError, match="config.failed must name"):
        simulate_rebuild(dataclasses.replace(cfg, failed=()), load, rate_mb_s=20.0)
