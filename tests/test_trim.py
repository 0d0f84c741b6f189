"""TRIM against the closed-form model, and nothing lost under file-system churn.

Oracle (Desnoyers 2012, greedy cleaning, :func:`flashlab.ftl.wa_greedy`): under
:class:`~flashlab.workload.FileChurn` with TRIM a live page is superseded at rate 1 / L per host
write, so the drive is a uniform random device over its L live LBAs, at the effective
over-provisioning ``physical / L - 1``; without TRIM it is a uniform device over every LBA, at
the nominal op. Tolerance 2 %: the engine keeps a few of its 4096 blocks free or open, flash the
model counts as spare, and sits 0.1 to 1.2 % above it (chapter 7 measures this; a device of 1024
blocks sits up to 3 % above).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.device import Geometry
from flashlab.ftl import PAGE_FREE, Ftl, FtlConfig, min_op, simulate, wa_greedy
from flashlab.workload import OP_TRIM, OP_WRITE, FileChurn

ORACLE = Geometry(blocks_per_plane=4096, pages_per_block=32, op=0.1)


@pytest.mark.parametrize("share", [0.5, 0.7, 0.85])
@pytest.mark.parametrize("trim", [True, False])
def test_file_churn_meets_the_model_at_the_effective_op(share, trim):
    g = ORACLE
    wl = FileChurn(share, trim)
    live = wl.live_pages(g.user_pages)
    r = simulate(g, FtlConfig(), wl, fills=4, seed=3, progress=False)
    held = live if trim else g.user_pages
    assert r.valid_pages == held
    model = float(wa_greedy(g.physical_pages / held - 1, g.pages_per_block))
    assert r.wa_steady == pytest.approx(model, rel=0.02)
    assert r.wa_steady >= model * 0.995  # the FTL's reserved blocks only ever cost


def test_trim_gives_back_what_the_file_system_deleted():
    """The gap TRIM opens: at half the user space live the drive without TRIM copies several
    times more, though the file system holds the same data."""
    g = ORACLE
    wa = {t: simulate(g, FtlConfig(), FileChurn(0.5, t), fills=3, seed=1, progress=False).wa_steady
          for t in (True, False)}
    assert wa[False] > 3.0 * wa[True]


def _stream(wl, user_pages, seed, writes):
    """The first requests of ``wl`` holding ``writes`` host writes (after its initial TRIMs)."""
    ops, lbas, n = [], [], 0
    for o, lb in wl.chunks(user_pages, seed, chunk_size=64):
        ops.append(o)
        lbas.append(lb)
        n += int(np.count_nonzero(o == OP_WRITE))
        if n >= writes:
            return np.concatenate(ops), np.concatenate(lbas)


@settings(max_examples=40, deadline=None)
@given(share=st.floats(0.05, 1.0), trim=st.booleans(), seed=st.integers(0, 2**32 - 1),
       blocks=st.integers(12, 40), ppb=st.sampled_from([4, 8, 16]), fills=st.floats(0.5, 6.0))
def test_churn_loses_nothing_and_counts_add_up(share, trim, seed, blocks, ppb, fills):
    op = min_op(Geometry(blocks_per_plane=blocks, pages_per_block=ppb), FtlConfig()) + 0.2
    g = Geometry(blocks_per_plane=blocks, pages_per_block=ppb, op=op)
    ftl = Ftl(g, FtlConfig(), seed=seed)
    U = g.user_pages
    ftl.write(np.arange(U))  # a drive full from an earlier life
    wl = FileChurn(share, trim)
    ops, lbas = _stream(wl, U, seed, int(fills * U))
    expected = {lba: lba for lba in range(U)}  # lba -> stamp (host write number) of its last write
    stamp = U
    for op, lba in zip(ops.tolist(), lbas.tolist()):
        if op == OP_WRITE:
            expected[lba] = stamp
            stamp += 1
        else:
            assert op == OP_TRIM
            expected.pop(lba, None)
    assert ftl.run(ops, lbas) == ops.size
    want = np.array([expected.get(lba, -1) for lba in range(U)])
    assert np.array_equal(ftl.read(np.arange(U)), want)  # last write, or unmapped once trimmed
    c = ftl.counters
    assert c["host_writes"] == stamp
    assert c["trims"] == int(np.count_nonzero(ops == OP_TRIM))
    # with TRIM the drive holds exactly the file system's live data; without, every LBA
    assert ftl.valid_pages == len(expected) == (wl.live_pages(U) if trim else U)
    snap = ftl.snapshot()
    programs = c["host_writes"] + c["gc_copies"] + c["wl_copies"] + c["refresh_copies"]
    # every program is a page written since the last erase of its block, or a page of an erased
    # (full) block
    assert programs == np.count_nonzero(snap.page_state != PAGE_FREE) + ppb * c["erases"]
    assert int(snap.block_valid.sum()) == ftl.valid_pages


def test_file_churn_is_seeded():
    a = _stream(FileChurn(0.6, True), 500, 7, 3000)
    b = _stream(FileChurn(0.6, True), 500, 7, 3000)
    c = _stream(FileChurn(0.6, True), 500, 8, 3000)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[1], c[1])


def test_file_churn_deletes_once_per_new_file():
    """Every write to a free LBA deletes one live LBA (a TRIM with trim on), so the live count is
    fixed; with trim off the requests are the same writes, without the TRIMs."""
    on = _stream(FileChurn(0.3, True), 1000, 2, 5000)
    off = _stream(FileChurn(0.3, False), 1000, 2, 5000)
    first = int(np.argmax(on[0] == OP_WRITE))  # after the initial TRIMs of the free space
    assert first == 1000 - FileChurn(0.3).live_pages(1000)
    w_on = on[1][first:][on[0][first:] == OP_WRITE]
    assert np.array_equal(w_on[:4000], off[1][:4000])
    assert not np.any(off[0] == OP_TRIM)


@pytest.mark.parametrize("kwargs, name", [({"live_share": 0.0}, "live_share"), ({"live_share": 1.5}, "live_share"),
                                          ({"trim": 1}, "trim"), ({"live_share": float("nan")}, "live_share"),
                                          ({"trim_after": -1.0}, "trim_after")])
def test_file_churn_refuses_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        FileChurn(**kwargs)


def test_a_file_system_that_starts_to_trim_gives_the_drive_its_spare_back():
    """Three drive writes without TRIM, then fstrim and TRIM on every deletion: the drive holds
    only the live data again, and its WA falls from the nominal op's to the effective op's."""
    g = Geometry(blocks_per_plane=1024, pages_per_block=32, op=0.1)
    wl = FileChurn(0.5, True, trim_after=3.0)
    r = simulate(g, FtlConfig(), wl, fills=6, measure_fills=2, seed=2, progress=False)
    assert r.valid_pages == wl.live_pages(g.user_pages)
    s = r.series
    fills = s["fills"] - 1.0  # drive writes of the workload, after the sequential fill
    before = (fills > 1.0) & (fills <= 3.0)
    programs = s["host_writes"] + s["gc_copies"]
    wa_before = np.diff(programs[before][[0, -1]]) / np.diff(s["host_writes"][before][[0, -1]])
    model = {op: float(wa_greedy(op, 32)) for op in (g.physical_pages / g.user_pages - 1,
                                                     g.physical_pages / wl.live_pages(g.user_pages) - 1)}
    assert wa_before[0] == pytest.approx(list(model.values())[0], rel=0.04)
    assert r.wa_steady == pytest.approx(list(model.values())[1], rel=0.02)
    assert r.counters["trims"] > g.user_pages - wl.live_pages(g.user_pages)  # the fstrim, then deletions


def test_trim_after_zero_is_trimming_from_the_start():
    a = _stream(FileChurn(0.4, True), 800, 5, 4000)
    b = _stream(FileChurn(0.4, True, trim_after=0.0), 800, 5, 4000)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
