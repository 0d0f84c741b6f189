"""Power loss, stated as invariants against a dict model (hypothesis.stateful).

A machine builds a host command sequence (writes, FUA writes, flushes, reads) for one member (a
flash drive with or without power-loss protection, or a disk behind its battery-backed controller
cache) and cuts the power at a random time of the run. What must hold, whatever the sequence:

* power on, every acknowledged write reaches the medium or is still in the cache at the end of
  the run (a partly filled NAND page waits for more slots), never more than the cache holds;
* a write that went through (FUA without protection) is on the medium when acknowledged;
* without protection, a flush that completed made every write acknowledged before it was issued
  durable by its completion (with it a flush is a no-op: the cache is durable as it is);
* with protection (capacitors, a battery) nothing acknowledged is lost; without it, exactly the
  acknowledged writes whose data was still in the volatile cache are lost, never more than the
  cache holds, and nothing that went through;
* after recovery every LBA reads its last durable write: the dict model's last acknowledged
  write, unless that write is among the lost (then the LBA is named in ``lost_lbas``).

TRIMs are not part of it: the timed engine refuses them (``trim_fraction`` must be 0); the FTL's
own stateful test (``tests/test_ftl_stateful.py``) covers TRIM against a dict model.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import OP_FLUSH, OP_FUA, SsdConfig, engine, run_members, ssd_geometry
from flashlab.workload import OP_READ, OP_WRITE

LBAS = 64  # the LBAs the machine writes (a small range: rewrites are common)
GEO = ssd_geometry(2**21, 0.25, channels=1, dies_per_channel=1, planes_per_die=2, pages_per_block=8)
MEMBERS = {
    "flash, no protection": SsdConfig(geometry=GEO, cache_bytes=16 * 4096, nand_page_size=8192),
    "flash, capacitors": SsdConfig(geometry=GEO, cache_bytes=16 * 4096, nand_page_size=8192,
                                   power_loss_protection=True),
    "disk, battery-backed cache": dataclasses.replace(CHEETAH_15K7, write_cache_bytes=16 * 4096),
}
CACHE_PAGES = 16


def protected(member) -> bool:
    return not isinstance(member, SsdConfig) or member.power_loss_protection


def check_power_loss(member, ops, lbas, pages, qd: int, cut: float):
    """Run the commands on ``member`` (closed loop at ``qd``), cut the power at ``cut`` (a share
    of the run) and check every invariant of the module docstring against a dict model."""
    ops, lbas, pages = (np.asarray(x, np.int64) for x in (ops, lbas, pages))
    r = run_members([member], ops, lbas, pages, np.zeros(ops.size, np.int64), qd=qd)
    assert r.error == ""
    done, durable = r.done_us, r.durable_us
    assert np.isfinite(done).all()  # every command completes
    writes = (ops == OP_WRITE) | (ops == OP_FUA)
    held = writes & ~np.isfinite(durable)  # still in the cache at the end (a partly filled NAND page)
    # each holds at least one slot in the cache (a write streams in as room frees, so its first
    # slots may be on NAND while its last are not: its pages may not all be in the cache)
    assert int(held.sum()) <= CACHE_PAGES, "acknowledged writes never reached the medium nor the cache"
    assert (durable[writes & ~held] >= r.arrival_us[writes & ~held]).all()
    if protected(member):  # a flush is a no-op: the capacitors or the battery make the cache durable
        flushes = []
    else:
        fua = ops == OP_FUA
        assert (durable[fua] <= done[fua]).all(), "a FUA write was acknowledged before it was on NAND"
        flushes = np.flatnonzero(ops == OP_FLUSH)
    for f in flushes:
        before = writes & (done <= r.arrival_us[f])  # acknowledged when the flush was issued
        late = before & ~(durable <= done[f])
        assert not late.any(), (f"the flush (command {f}, done at {done[f]:.1f} us) left writes "
                                f"{np.flatnonzero(late).tolist()} off the medium")
    t = cut * float(done.max())
    loss = r.power_loss(t)[0]
    acked = writes & (done <= t)
    assert loss.acknowledged == int(acked.sum())
    if protected(member):
        assert loss.lost == 0 and loss.lost_lbas.size == 0
        lost = np.zeros(ops.size, bool)
    else:
        lost = acked & ~(durable <= t)
        assert np.array_equal(loss.lost_requests, np.flatnonzero(lost))
        assert not (lost & (ops == OP_FUA)).any()
        # each lost write had at least one slot in the volatile cache (see held above)
        assert int(lost.sum()) <= CACHE_PAGES, "more was lost than the volatile cache holds"
    # the dict model: per LBA, the last acknowledged write; recovery reads the last durable one
    model: dict[int, int] = {}
    for i in np.flatnonzero(acked):
        for p in range(lbas[i], lbas[i] + pages[i]):
            model[int(p)] = int(i)
    recovered: dict[int, int] = {}
    kept = (durable <= t) | (acked if protected(member) else False)  # capacitors, battery: all acknowledged
    for i in np.flatnonzero(writes & kept):
        for p in range(lbas[i], lbas[i] + pages[i]):
            recovered[int(p)] = max(recovered.get(int(p), -1), int(i))
    named = set(loss.lost_lbas.tolist())
    for p, i in model.items():
        if lost[i]:
            assert p in named
            assert recovered.get(p, -1) != i
        else:
            assert recovered.get(p, -1) >= i, f"LBA {p} lost its acknowledged write {i}"
    for p in named:
        assert any(lost[i] and lbas[i] <= p < lbas[i] + pages[i] for i in np.flatnonzero(lost))


class PowerLossMachine(RuleBasedStateMachine):
    """Commands for one member; each ``power_cut`` runs them and cuts the power at a random time."""

    @initialize(kind=st.sampled_from(sorted(MEMBERS)), qd=st.integers(1, 4))
    def setup(self, kind, qd):
        self.member, self.qd = MEMBERS[kind], qd
        self.ops, self.lbas, self.pages = [], [], []

    def _add(self, op, lba, n):
        self.ops.append(op)
        self.lbas.append(lba)
        self.pages.append(n)

    @rule(lba=st.integers(0, LBAS - 4), n=st.integers(1, 4))
    def write(self, lba, n):
        self._add(OP_WRITE, lba, n)

    @rule(lba=st.integers(0, LBAS - 4), n=st.integers(1, 4))
    def fua_write(self, lba, n):
        self._add(OP_FUA, lba, n)

    @rule()
    def flush(self):
        self._add(OP_FLUSH, 0, 1)

    @rule(lba=st.integers(0, LBAS - 1))
    def read(self, lba):
        self._add(OP_READ, lba, 1)

    @rule(cut=st.floats(0.0, 1.0))
    def power_cut(self, cut):
        if self.ops:
            check_power_loss(self.member, self.ops, self.lbas, self.pages, self.qd, cut)

    @invariant()
    def commands_fit(self):
        assert len(self.ops) <= 200


PowerLossMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None,
                                              suppress_health_check=[HealthCheck.too_slow])
TestPowerLoss = PowerLossMachine.TestCase


def test_a_cache_that_forgets_to_flush_is_caught(monkeypatch):
    """The check has teeth: an engine whose flash cache treats a flush as a no-op (as if it had
    capacitors) while the drive has none fails the flush invariant."""
    member = MEMBERS["flash, no protection"]
    ops = [OP_WRITE, OP_WRITE, OP_FLUSH, OP_WRITE, OP_FLUSH]
    lbas, pages = [0, 1, 0, 2, 0], [1, 1, 1, 1, 1]
    check_power_loss(member, ops, lbas, pages, 1, 0.5)  # the real engine passes
    real = engine._write_cache

    def forgetful(m):
        cap, prot, t_ack = real(m)
        return cap, 1 if cap else prot, t_ack  # the flush path sees capacitors that are not there

    monkeypatch.setattr(engine, "_write_cache", forgetful)
    with pytest.raises(AssertionError, match="the flush"):
        check_power_loss(member, ops, lbas, pages, 1, 0.5)
