"""Data reduction under an array (flashlab.array.reduction): the members' spare and WA, checked
against the FTL simulation, and the arithmetic of pages reaching the flash. Cost ~3 s."""

import pytest

from flashlab.array import reduced_wear
from flashlab.device import Geometry
from flashlab.ftl import simulate, wa_greedy
from flashlab.workload import Workload


@pytest.mark.parametrize("ratio,stored", [(1.0, 1.0), (2.0, 1.0), (4.0, 3.0)])
def test_the_members_wa_is_the_ftls_at_the_spare_the_reduction_leaves(ratio, stored):
    """A drive whose LBAs outside the reduced data are never written collects as a drive of that
    spare does: the FTL simulation, writing uniformly over only the reduced data's share of the
    LBAs after filling it, gives the model's WA within 4% (the greedy model's own accuracy)."""
    op, ppb, blocks = 0.1, 64, 2048
    w = reduced_wear(ratio, stored, op=op, pages_per_block=ppb)
    assert w.fill == pytest.approx(stored / ratio)
    assert w.member_pages == pytest.approx(w.wa / ratio)
    # the same flash holding only the reduced data: its user capacity is the data, the rest spare
    geo = Geometry(blocks_per_plane=blocks, pages_per_block=ppb, op=w.spare)
    assert geo.user_pages == pytest.approx(blocks * ppb / (1 + op) * w.fill, abs=1)
    sim = simulate(geo, workload=Workload("uniform"), fills=30.0, seed=1)
    assert sim.wa_steady == pytest.approx(w.wa, rel=0.04)


def test_reduction_cuts_member_pages_more_than_in_proportion_until_the_members_are_full():
    """Holding the same data, a higher ratio writes fewer pages *and* leaves more spare; filled to
    its effective capacity, the members are as full as unreduced and only the pages shrink."""
    same = [reduced_wear(r, 0.5) for r in (1.0, 2.0, 5.0)]
    assert all(a.member_pages / b.member_pages > b.ratio / a.ratio for a, b in zip(same, same[1:]))
    full = reduced_wear(5.0, 5.0)
    assert full.fill == 1.0 and full.spare == pytest.approx(0.07)
    assert full.member_pages == pytest.approx(float(wa_greedy(0.07, 256)) / 5.0)
    for bad, match in (((0.5, 0.5), "ratio"), ((2.0, 2.5), "stored"), ((2.0, 0.001), "stored")):
        with pytest.raises(ValueError, match=match):
            reduced_wear(*bad)
