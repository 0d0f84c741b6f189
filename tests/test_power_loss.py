"""Power loss, stated as invariants against a dict model (hypothesis.stateful).

A machine builds a host command sequence (writes, FUA writes, flushes, TRIMs, reads) for one
member (a flash drive with or without power-loss protection, or a disk behind its battery-backed
controller cache, which takes no TRIM) and cuts the power at a random time of the run. What must
hold, whatever the sequence:

* power on, every acknowledged write reaches the medium or is still in the cache at the end of
  the run (a partly filled NAND page waits for more slots), never more than the cache holds;
* a write that went through (FUA without protection) is on the medium when acknowledged;
* without protection, a flush that completed made every write acknowledged before it was issued
  durable by its completion (with it a flush is a no-op: the cache is durable as it is);
* with protection (capacitors, a battery) nothing acknowledged is lost; without it, exactly the
  acknowledged writes whose data was still in the volatile cache are lost, never more than the
  cache holds, and nothing that went through;
* a TRIM (a mapping change in the controller's DRAM, :mod:`flashlab.ssd.power`) is durable
  when acknowledged with protection; without, exactly when the first flush issued after its
  acknowledgement completes (the conservative model), so a completed flush made every TRIM
  acknowledged before it was issued durable, and a power loss before that names it among the
  ``undone_trims`` (its LBAs may read their older data);
* after recovery every LBA reads its last durable command: the dict model's last acknowledged
  write or TRIM (a trimmed LBA reads unmapped), unless that write is among the lost (then the
  LBA is named in ``lost_lbas``) or that TRIM among the undone (its LBAs then read what the
  last durable command before it left).

The FTL's own stateful test (``tests/test_ftl_stateful.py``) covers TRIM against a dict model
without time; ``tests/test_ssd_trim.py`` covers what a timed TRIM unmaps.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from flashlab.device.hdd import CHEETAH_15K7
from flashlab.ssd import OP_FLUSH, OP_FUA, SsdConfig, engine, run_members, ssd_geometry
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE

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
    trims = ops == OP_TRIM
    held = writes & ~np.isfinite(durable)  # still in the cache at the end (a partly filled NAND page)
    # each holds at least one slot in the cache (a write streams in as room frees, so its first
    # slots may be on NAND while its last are not: its pages may not all be in the cache)
    assert int(held.sum()) <= CACHE_PAGES, "acknowledged writes never reached the medium nor the cache"
    assert (durable[writes & ~held] >= r.arrival_us[writes & ~held]).all()
    if protected(member):  # a flush is a no-op: the capacitors or the battery make the cache durable
        flushes = []
        assert np.array_equal(durable[trims], done[trims]), "a TRIM was not durable at its acknowledgement"
    else:
        fua = ops == OP_FUA
        assert (durable[fua] <= done[fua]).all(), "a FUA write was acknowledged before it was on NAND"
        flushes = np.flatnonzero(ops == OP_FLUSH)
        for i in np.flatnonzero(trims):  # durable exactly when the first flush issued after it completes
            after = [done[f] for f in flushes if r.arrival_us[f] >= done[i]]
            want = min(after) if after else np.nan
            assert durable[i] == want or (np.isnan(want) and np.isnan(durable[i])), \
                f"TRIM {i} (done at {done[i]:.1f} us) durable at {durable[i]:.1f} us, not at the next flush ({want:.1f} us)"
    for f in flushes:
        before = (writes | trims) & (done <= r.arrival_us[f])  # acknowledged when the flush was issued
        late = before & ~(durable <= done[f])
        assert not late.any(), (f"the flush (command {f}, done at {done[f]:.1f} us) left writes "
                                f"{np.flatnonzero(late).tolist()} off the medium")
    t = cut * float(done.max())
    loss = r.power_loss(t)[0]
    acked = writes & (done <= t)
    assert loss.acknowledged == int(acked.sum())
    undone = trims & (done <= t) & ~(durable <= t)
    assert np.array_equal(loss.undone_trims, np.flatnonzero(undone))
    if protected(member):
        assert loss.lost == 0 and loss.lost_lbas.size == 0 and loss.undone_trims.size == 0
        lost = np.zeros(ops.size, bool)
    else:
        lost = acked & ~(durable <= t)
        assert np.array_equal(loss.lost_requests, np.flatnonzero(lost))
        assert not (lost & (ops == OP_FUA)).any()
        # each lost write had at least one slot in the volatile cache (see held above)
        assert int(lost.sum()) <= CACHE_PAGES, "more was lost than the volatile cache holds"
    # the dict model: per LBA, the last acknowledged write or TRIM (writes and TRIMs enter the
    # drive in issue order); recovery reads the last durable one
    model: dict[int, int] = {}
    for i in np.flatnonzero(acked | (trims & (done <= t))):
        for p in range(lbas[i], lbas[i] + pages[i]):
            model[int(p)] = int(i)
    recovered: dict[int, int] = {}
    kept = (durable <= t) | (acked if protected(member) else False)  # capacitors, battery: all acknowledged
    for i in np.flatnonzero((writes | trims) & kept):
        for p in range(lbas[i], lbas[i] + pages[i]):
            recovered[int(p)] = max(recovered.get(int(p), -1), int(i))
    named = set(loss.lost_lbas.tolist())
    for p, i in model.items():
        if lost[i]:
            assert p in named
            assert recovered.get(p, -1) != i
        elif undone[i]:  # the TRIM may be undone (the LBA may read what came before it): named
            assert i in loss.undone_trims
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

    @rule(lba=st.integers(0, LBAS - 4), n=st.integers(1, 4))
    def trim(self, lba, n):
        if isinstance(self.member, SsdConfig):  # a disk takes no TRIM (run_members refuses it)
            self._add(OP_TRIM, lba, n)

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


def test_a_trim_taken_as_durable_without_a_flush_is_caught(monkeypatch):
    """The TRIM check has teeth: an engine that reports a TRIM durable at its acknowledgement on a
    drive without protection (as if its mapping table could not be lost) fails it."""
    member = MEMBERS["flash, no protection"]
    ops = [OP_WRITE, OP_TRIM, OP_WRITE, OP_FLUSH, OP_TRIM]
    lbas, pages = [0, 0, 2, 0, 2], [2, 1, 1, 1, 1]
    check_power_loss(member, ops, lbas, pages, 1, 0.5)  # the real engine passes

    def durable_at_once(op, device, arrival_us, done_us, durable_us, protected):
        return np.array(durable_us, np.float64)  # a TRIM's: its acknowledgement (the kernel's)

    monkeypatch.setattr(engine, "trims_durable_us", durable_at_once)
    with pytest.raises(AssertionError, match="TRIM 1"):
        check_power_loss(member, ops, lbas, pages, 1, 0.5)
