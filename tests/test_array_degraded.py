"""Degraded arrays and the array layer's counts, stated as invariants (hypothesis.stateful).

The data-level model is :class:`test_array.ArrayModel`: member pages hold stamps, parity is the
XOR (P) and the GF(2^8) sum (Q) of a stripe's data, written exactly as the layout's plan says (a
read-modify-write's new parity from what its first phase read). The machine writes, fails
members one at a time, writes on and reads:

* with up to the layout's tolerance of members failed (RAID-1/5/6/10), every read returns its
  last write's data, rebuilt from the rest of its stripe where its member is gone;
* one failure past the tolerance is refused as data loss naming the stripes it loses, never run
  to a wrong answer;
* counts add up for every write the plan makes: host pages in equal member data pages out (two
  copies on RAID-1/10), and parity, read-modify-write reads and rebuild reads each cover exactly
  the span their cause needs.

Writes go on while members are failed (through :meth:`Layout.degrade`: a read-modify-write's
old data on a failed member is rebuilt from what the plan read, its new data lives in the
parity). Left out: a rebuild onto a spare (the array layer does not model one).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_array import ArrayModel

from flashlab.array import Layout
from flashlab.array import layout as layout_module

TOLERANCE = {1: 1, 5: 1, 6: 2, 10: 1}  # members any stripe may lose (RAID-10: per mirrored pair)


def plan_counts_add_up(L: Layout, lba: int, pages: int) -> None:
    """Member pages of one host write, by cause, against what the write needs."""
    plan = L.plan([0], [lba], [pages])
    op, dev, mlba, pg, ph = (plan[k] for k in ("op", "device", "lba", "pages", "phase"))
    par = np.zeros(op.size, bool)
    for r in range(op.size):
        par[r] = int(dev[r]) in L.parity_members(int(mlba[r]) // L.unit_pages)
    data_w = (op == 0) & ~par
    copies = 2 if L.raid in (1, 10) else 1
    assert int(pg[data_w].sum()) == copies * pages, "host pages in != member data pages out"
    if L.raid not in (5, 6):
        assert not par.any() and not (op == 1).any()
        return
    su, m = L.unit_pages, L.data_units
    want_parity = 0
    rmw_reads = 0
    for s in range(lba // (su * m), (lba + pages - 1) // (su * m) + 1):
        a, b = max(lba, s * su * m), min(lba + pages, (s + 1) * su * m)  # this stripe's array pages
        offs = [(p - s * su * m) % su for p in range(a, b)]
        lo, hi = (0, su) if b - a >= su else (min(offs), max(offs) + 1)
        full = b - a == su * m
        want_parity += (hi - lo) * (L.raid - 4)  # P, and Q on RAID-6, over the span of the stripe's pieces
        if not full:
            rmw_reads += (b - a) + (hi - lo) * (L.raid - 4)  # old data and old parity
    assert int(pg[(op == 0) & par].sum()) == want_parity, "parity pages out != the span the write covers"
    assert int(pg[op == 1].sum()) == rmw_reads, "read-modify-write reads != old data and old parity"
    assert not ((op == 1) & (ph != 0)).any(), "a read-modify-write read after its writes"


def draw_layout(raid: int, data, stripes: int) -> Layout:
    """A small layout of RAID level ``raid``: members and stripe unit drawn, ``stripes`` stripes."""
    drives = {1: 2, 5: data.draw(st.integers(3, 6)), 6: data.draw(st.integers(4, 7)),
              10: data.draw(st.sampled_from((4, 6)))}[raid]
    su = data.draw(st.integers(1, 3))
    return Layout(raid=raid, drives=drives, stripe_unit=4096 * su, page_size=4096, member_pages=su * stripes)


class DegradedArray(RuleBasedStateMachine):
    @initialize(raid=st.sampled_from((1, 5, 6, 10)), data=st.data())
    def setup(self, raid, data):
        self.L = draw_layout(raid, data, stripes=4)
        self.model = ArrayModel(self.L)
        self.last = np.zeros(self.L.array_pages, np.int64)
        self.stamp = 1
        self.failed: list[int] = []

    @rule(data=st.data())
    def write(self, data):
        n = self.L.array_pages
        lba = data.draw(st.integers(0, n - 1))
        pages = data.draw(st.integers(1, min(n - lba, 3 * self.L.unit_pages * self.L.data_units)))
        plan_counts_add_up(self.L, lba, pages)
        self.model.write(lba, pages, self.stamp, frozenset(self.failed))
        self.last[lba:lba + pages] = np.arange(self.stamp, self.stamp + pages)
        self.stamp += pages + 7

    @rule(member=st.integers(0, 7))
    def fail(self, member):
        member %= self.L.drives
        if member in self.failed:
            return
        after = self.failed + [member]
        gone_pairs = {d // 2 for d in after}
        within = len(after) <= TOLERANCE[self.L.raid] or (self.L.raid == 10 and len(gone_pairs) == len(after))
        if within:
            assert self.L.tolerates(after) == tuple(sorted(after))
            self.failed = after
        else:  # one past the tolerance: data loss, named with its stripes, never run
            with pytest.raises(ValueError, match=r"data loss in stripes 0 to \d+"):
                self.L.tolerates(after)

    @rule(lba=st.integers(0, 10**6))
    def read(self, lba):
        lba %= self.L.array_pages
        assert self.model.read(lba, set(self.failed)) == self.last[lba], (lba, self.failed)
        # rebuild reads: a read of a failed member becomes one page from each member of its rebuild
        # set (the other copy; the rest of the stripe without Q, Q standing in for a second loss)
        L = self.L
        plan = L.plan([1], [lba], [1], rebuild=True)
        if self.failed:
            plan = L.degrade(plan, self.failed)
        gone = int(L.locate([lba])[0][0]) + (lba // (L.unit_pages * L.data_units)) % 2 * (L.raid in (1, 10))
        want = 1 if gone not in self.failed else (1 if L.raid in (1, 10) else L.drives - (L.raid - 4))
        assert int(plan["pages"][plan["phase"] >= 0].sum()) == want and not (set(plan["device"].tolist()) & set(self.failed))

    @invariant()
    def every_read_returns_its_last_write(self):
        if getattr(self, "L", None) is None or not self.failed:
            return
        for lba in range(self.L.array_pages):
            assert self.model.read(lba, set(self.failed)) == self.last[lba], (lba, self.failed)


DegradedArray.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
TestDegradedArray = DegradedArray.TestCase


def test_a_parity_range_one_unit_short_is_caught(monkeypatch):
    """The checks have teeth: a plan whose parity writes stop one page short of their span (the
    kernel's parity range, broken on purpose) fails the counts and the degraded reads."""
    L = Layout(raid=5, drives=4, stripe_unit=8192, page_size=4096, member_pages=8)
    real = layout_module.Layout.plan

    def short(self, ops, lbas, pages, *, rebuild=False):
        p = real(self, ops, lbas, pages, rebuild=rebuild)
        par = np.array([int(d) in self.parity_members(int(x) // self.unit_pages) and o == 0
                        for d, x, o in zip(p["device"], p["lba"], p["op"])], bool)
        p["pages"] = np.where(par & (p["pages"] > 1), p["pages"] - 1, p["pages"])
        return p

    plan_counts_add_up(L, 0, 6)  # the real plan passes
    model = ArrayModel(L)
    model.write(0, 6, 17)  # stamps 17..22 (1..6 would XOR to the right answer by chance: 4 ^ 6 == 2)
    assert [model.read(x, {0}) for x in range(6)] == list(range(17, 23))
    monkeypatch.setattr(layout_module.Layout, "plan", short)
    with pytest.raises(AssertionError, match="parity pages out"):
        plan_counts_add_up(L, 0, 6)
    broken = ArrayModel(L)
    broken.write(0, 6, 17)
    lost = [x for x in range(6) if broken.read(x, {int(L.locate([x])[0][0])}) != x + 17]
    assert lost, "a parity range one page short must lose a rebuilt read"


def test_a_degraded_write_that_does_not_rebuild_the_old_data_is_caught(monkeypatch):
    """Before issue 29, degrade dropped a read-modify-write's read of old data on a failed member,
    so its new parity could not be right: the model refuses such a plan."""
    L = Layout(raid=5, drives=4, stripe_unit=8192, page_size=4096, member_pages=8)
    gone = int(L.locate([0])[0][0])
    model = ArrayModel(L)
    model.write(0, 6, 17)
    model.write(0, 1, 40, frozenset({gone}))  # the real plan: rebuilt, and the read returns it
    assert model.read(0, {gone}) == 40 and model.read(1, {gone}) == 18
    monkeypatch.setattr(Layout, "_old_data_set", lambda self, d, stripe, failed: None)
    with pytest.raises(AssertionError, match="too few to rebuild"):
        ArrayModel(L).write(0, 1, 40, frozenset({gone}))
