"""The numba FTL against the plain-Python reference (tests/reference_ftl.py), operation by operation."""

import numpy as np
import pytest

from flashlab.device import Geometry
from flashlab.ftl import _kernels as K
from flashlab.ftl import Ftl, FtlConfig, ReadOnlyError, min_blocks_per_plane, min_op
from flashlab.ftl.core import check_capacity
from reference_ftl import ReferenceFtl


def assert_same(ftl: Ftl, ref: ReferenceFtl, where: str):
    snap = ftl.snapshot()
    p2l = np.array(ref.p2l)
    written = p2l != -1
    assert np.array_equal(snap.page_lba, np.where(p2l >= 0, p2l, np.where(written, -2 - p2l, -1))), where
    assert np.array_equal(snap.page_state, np.where(p2l >= 0, 1, np.where(written, 2, 0))), where
    assert np.array_equal(snap.page_stamp[written], np.array(ref.stamp)[written]), where
    assert snap.block_state.tolist() == ref.state, where
    assert snap.block_valid.tolist() == ref.valid, where
    assert snap.block_erases.tolist() == ref.erases, where
    # the reference's streams: host, host cold, GC, GC cold (of the engine's host and GC streams)
    streams = [0, 1, K.GC_STREAM, K.GC_STREAM + 1]
    assert snap.frontiers[streams].tolist() == ref.front, where
    assert (np.delete(snap.frontiers, streams) == -1).all(), where
    assert snap.read_only == ref.read_only, where
    assert snap.last_victim == ref.last_victim, where
    c = dict(snap.counters)
    good = [e for e, s in zip(ref.erases, ref.state) if s != 3]
    assert c.pop("free_blocks") == len(ref.pool), where
    assert c.pop("erase_max") == max(ref.erases), where
    assert c.pop("erase_min") == (min(good) if good else 0), where
    assert c == ref.c, where


CASES = [
    # (blocks, pages per block, op above the minimum, config)
    (8, 4, 0.1, dict(policy="greedy", separation="gc")),
    (6, 5, 0.05, dict(policy="greedy", separation="none", gc_low=1, gc_high=1)),
    (10, 4, 0.1, dict(policy="fifo", separation="gc", gc_low=2, gc_high=4)),
    (10, 6, 0.1, dict(policy="cost_benefit", separation="gc")),
    (12, 4, 0.2, dict(policy="greedy", separation="temperature", hot_window=0.3)),
    (12, 4, 0.2, dict(policy="cost_benefit", separation="oracle", hot_lbas=5)),
    (12, 4, 0.2, dict(policy="greedy", separation="oracle", hot_lbas=5)),
    (10, 4, 0.1, dict(policy="greedy", separation="gc", greedy_ties="index")),
    (8, 5, 0.1, dict(policy="greedy", separation="none", gc_low=1, gc_high=1, greedy_ties="last")),
    (10, 4, 0.2, dict(policy="greedy", dynamic_wl=True, static_wl_threshold=3)),
    (10, 4, 0.2, dict(policy="fifo", separation="none", gc_low=1, gc_high=2, read_refresh_limit=3)),
    (12, 4, 0.3, dict(policy="greedy", endurance=12, dynamic_wl=True)),
]


@pytest.mark.parametrize("blocks,ppb,extra_op,cfg", CASES)
def test_kernel_matches_reference_op_by_op(blocks, ppb, extra_op, cfg):
    config = FtlConfig(**cfg)
    op = min_op(Geometry(blocks_per_plane=blocks, pages_per_block=ppb), config) + extra_op
    g = Geometry(blocks_per_plane=blocks, pages_per_block=ppb, op=op)
    ftl = Ftl(g, config, seed=3)
    ref = ReferenceFtl(blocks, ppb, g.user_pages, **{**cfg, "hot_window": max(1, round(config.hot_window * g.user_pages))})
    rng = np.random.default_rng(blocks * ppb)
    u = g.user_pages
    hot = max(1, u // 5)
    for step in range(1500):
        r = rng.random()
        lba = int(rng.integers(0, hot) if rng.random() < 0.7 else rng.integers(0, u))
        if r < 0.75:
            ok = ref.write(lba)
            if ok:
                ftl.write([lba])
            else:
                with pytest.raises(ReadOnlyError, match="read-only"):
                    ftl.write([lba])
        elif r < 0.9:
            assert ftl.read([lba])[0] == ref.read(lba)
        else:
            ftl.trim([lba])
            ref.trim(lba)
        assert_same(ftl, ref, f"step {step}")
    # every case exercises what it configures
    assert ref.c["gc_victims"] > 20
    assert ref.read_only == bool(cfg.get("endurance"))
    assert (ref.c["wl_copies"] > 0) == bool(cfg.get("static_wl_threshold"))
    assert (ref.c["refresh_copies"] > 0) == bool(cfg.get("read_refresh_limit"))


@pytest.mark.parametrize("op", [0.01, 0.07, 0.28, 1.0, 3.0])
@pytest.mark.parametrize("ppb", [2, 64, 1000])
@pytest.mark.parametrize("planes", [1, 16])
@pytest.mark.parametrize("config", [FtlConfig(), FtlConfig(gc_high=12, separation="temperature")])
def test_min_blocks_per_plane_is_the_fewest_check_capacity_accepts(op, ppb, planes, config):
    from dataclasses import replace

    g = Geometry(channels=planes, blocks_per_plane=1000, pages_per_block=ppb, op=op)
    b = min_blocks_per_plane(g, config)
    check_capacity(replace(g, blocks_per_plane=b), config)
    if b > 1:
        with pytest.raises(ValueError):
            check_capacity(replace(g, blocks_per_plane=b - 1), config)

