"""Nothing is lost: random writes, TRIMs and reads on random small devices against a dict model.

After every step: each LBA maps to the data of its last write (checked through the page
stamps, and by reads), valid counts equal mapped pages, no page is reprogrammed before its
block is erased, and the counters add up (programs = host writes + GC + WL + refresh copies;
erases = the sum of per-block erase counts).
"""

from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from flashlab.device import Geometry
from flashlab.ftl import (
    BLOCK_FREE,
    PAGE_FREE,
    PAGE_VALID,
    POLICIES,
    SEPARATIONS,
    Ftl,
    FtlConfig,
    ReadOnlyError,
    min_op,
)


class FtlMachine(RuleBasedStateMachine):
    @initialize(
        blocks=st.integers(8, 16),
        ppb=st.integers(2, 8),
        extra_op=st.floats(0.0, 1.0),
        policy=st.sampled_from(POLICIES),
        separation=st.sampled_from(SEPARATIONS),
        dynamic_wl=st.booleans(),
        static_wl=st.sampled_from([0, 2, 5]),
        refresh=st.sampled_from([0, 3, 10]),
        endurance=st.sampled_from([0, 0, 8, 30]),
        seed=st.integers(0, 2**32),
    )
    def setup(self, blocks, ppb, extra_op, policy, separation, dynamic_wl, static_wl, refresh, endurance, seed):
        low = 1 if separation == "none" else 2
        config = FtlConfig(policy=policy, d=3, separation=separation, gc_low=low, gc_high=low + 1,
                           dynamic_wl=dynamic_wl, static_wl_threshold=static_wl,
                           read_refresh_limit=refresh, endurance=endurance, hot_window=0.3,
                           hot_lbas=3 if separation == "oracle" else 0,
                           handle_starts=(1,) if separation == "tagged" else ())
        op = min_op(Geometry(blocks_per_plane=blocks, pages_per_block=ppb), config) + 0.01 + extra_op
        self.g = Geometry(blocks_per_plane=blocks, pages_per_block=ppb, op=op)
        if separation == "tagged":  # two handles, split in the middle of the LBAs
            assume(self.g.user_pages >= 2)
            config = replace(config, handle_starts=(self.g.user_pages // 2,))
        self.ftl = Ftl(self.g, config, seed=seed)
        self.model = {}  # lba -> stamp of its last write
        self.prev = self.ftl.snapshot()

    def lba(self, data):
        return data.draw(st.integers(0, self.g.user_pages - 1))

    def _write(self, lbas):
        for lba in lbas:
            stamp = self.ftl.counters["host_writes"]
            try:
                self.ftl.write([lba])
            except ReadOnlyError:
                assert self.ftl.read_only
                return
            self.model[lba] = stamp

    @rule(data=st.data())
    def write(self, data):
        self._write([self.lba(data)])

    @rule(data=st.data(), n=st.integers(1, 60), hot=st.booleans())
    def burst(self, data, n, hot):
        """Many writes (to a few hot LBAs or anywhere) so GC, WL and retirement happen."""
        top = max(1, self.g.user_pages // 4) if hot else self.g.user_pages
        seed = data.draw(st.integers(0, 2**32))
        self._write(np.random.default_rng(seed).integers(0, top, n).tolist())

    @rule(data=st.data())
    def trim(self, data):
        lba = self.lba(data)
        self.ftl.trim([lba])
        self.model.pop(lba, None)

    @rule(data=st.data(), repeat=st.integers(1, 12))
    def read(self, data, repeat):
        lba = self.lba(data)
        got = self.ftl.read([lba] * repeat)
        assert np.all(got == self.model.get(lba, -1))

    @precondition(lambda self: hasattr(self, "ftl"))
    @invariant()
    def consistent(self):
        snap = self.ftl.snapshot()
        ppb = self.g.pages_per_block
        valid = snap.page_state == PAGE_VALID
        # every LBA maps to its last write, and nothing else is valid
        mapped = dict(zip(snap.page_lba[valid].tolist(), snap.page_stamp[valid].tolist()))
        assert valid.sum() == len(mapped) == len(self.model)
        assert mapped == self.model
        # valid counts equal mapped pages
        assert np.array_equal(snap.block_valid, valid.reshape(-1, ppb).sum(axis=1))
        # no page reprogrammed between erases: a written page keeps its content until its block is erased
        was_written = (self.prev.page_state != PAGE_FREE).reshape(-1, ppb)
        kept = was_written & (snap.block_erases == self.prev.block_erases)[:, None]
        kept = kept.ravel()
        assert np.array_equal(snap.page_lba[kept], self.prev.page_lba[kept])
        assert np.array_equal(snap.page_stamp[kept], self.prev.page_stamp[kept])
        assert np.all(snap.page_state[kept] != PAGE_FREE)
        # written pages form a prefix of each block
        written = (snap.page_state != PAGE_FREE).reshape(-1, ppb)
        assert np.all(np.diff(written.astype(int), axis=1) <= 0)
        # counters add up: every program sits in a page or in an erased (full) block
        c = snap.counters
        programs = c["host_writes"] + c["gc_copies"] + c["wl_copies"] + c["refresh_copies"]
        assert programs == written.sum() + ppb * c["erases"]
        assert c["erases"] == snap.block_erases.sum()
        assert c["free_blocks"] == np.sum(snap.block_state == BLOCK_FREE)
        self.prev = snap


FtlMachine.TestCase.settings = settings(
    max_examples=200, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestFtlNothingLost = FtlMachine.TestCase


def test_a_refresh_of_a_block_with_a_full_handle_frontier_loses_nothing():
    """Found by the machine above (oracle separation, two placement handles, 11 blocks of 2
    pages, blocks retiring at 30 erases): a read-disturb refresh of a block whose two valid pages
    both belong to the hot handle, whose GC frontier had room for one, while the cold handle's
    had room for the other and the pool was empty. The old check summed the frontiers' rooms and
    let the refresh open a frontier from the empty pool: it took a stale block (the host's open
    one), drove the free count below zero, and a page was overwritten. Replayed step by step."""
    blocks, ppb = 11, 2
    config = FtlConfig(policy="d_choices", d=3, separation="oracle", gc_low=2, gc_high=3, dynamic_wl=True,
                       static_wl_threshold=0, read_refresh_limit=3, endurance=30, hot_window=0.3, hot_lbas=3)
    g = Geometry(blocks_per_plane=blocks, pages_per_block=ppb,
                 op=min_op(Geometry(blocks_per_plane=blocks, pages_per_block=ppb), config) + 0.01)
    ftl = Ftl(g, config, seed=145)
    model = {}

    def burst(seed, hot, n):
        top = max(1, g.user_pages // 4) if hot else g.user_pages
        for lba in np.random.default_rng(seed).integers(0, top, n).tolist():
            stamp = ftl.counters["host_writes"]
            try:
                ftl.write([lba])
            except ReadOnlyError:
                return
            model[lba] = stamp

    steps = [(0, 3), (51970, True, 60), (2843, False, 59), (0, 2), (82, False, 29), (1738984, False, 43),
             (1, True, 57), (6500, True, 59), (0, 3), (190, True, 15), (366739392, False, 7), (2492928, False, 12),
             (5668, False, 48), (5614, True, 56), (0, False, 12), (52064177, False, 23), (1, 3)]
    for step in steps:
        if len(step) == 2:  # (lba, times): reads, which count read disturb and refresh
            assert np.all(ftl.read([step[0]] * step[1]) == model.get(step[0], -1))
        else:
            burst(*step)
    snap = ftl.snapshot()
    assert ftl.read_only and snap.counters["refresh_copies"] >= 1  # the drive wore out, and refreshed
    valid = snap.page_state == PAGE_VALID
    assert dict(zip(snap.page_lba[valid].tolist(), snap.page_stamp[valid].tolist())) == model
    assert snap.counters["free_blocks"] == np.sum(snap.block_state == BLOCK_FREE)
