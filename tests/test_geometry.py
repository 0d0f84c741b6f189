"""Device geometry: capacities, over-provisioning and validation."""

import pytest

from flashlab.device import Geometry


def test_capacities_and_over_provisioning():
    g = Geometry(channels=8, dies_per_channel=4, planes_per_die=2, blocks_per_plane=512,
                 pages_per_block=256, page_size=8192, op=0.07)
    assert g.blocks == 8 * 4 * 2 * 512
    assert g.physical_pages == g.blocks * 256
    assert g.physical_bytes == g.physical_pages * 8192
    # op = (physical - user) / user, defined once
    assert (g.physical_pages - g.user_pages) / g.user_pages == pytest.approx(0.07, abs=1e-6)
    assert g.user_bytes == g.user_pages * 8192
    assert g.spare_factor == pytest.approx(0.07 / 1.07, abs=1e-6)
    # a 400 GB SSD on 576 GB of raw flash is 44 % over-provisioned (topics.md)
    big = Geometry(blocks_per_plane=576, pages_per_block=1000, op=0.44)
    assert big.user_pages == 400000


def test_user_pages_round_down():
    g = Geometry(blocks_per_plane=5, pages_per_block=10, op=0.3)
    assert g.user_pages == 38  # floor(50 / 1.3)
    assert Geometry(blocks_per_plane=5, pages_per_block=10, op=0.25).user_pages == 40


def test_frozen():
    g = Geometry()
    with pytest.raises(AttributeError):
        g.op = 0.5


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(op=0.0), r"op must be in \(0, 100\]"),
        (dict(op=-0.1), "op"),
        (dict(op=float("nan")), "op"),
        (dict(blocks_per_plane=0), r"blocks_per_plane must be in \[1,"),
        (dict(channels=-2), "channels"),
        (dict(pages_per_block=1), r"pages_per_block must be in \[2, 16777216\]"),
        (dict(pages_per_block=2**24 + 1), r"pages_per_block must be in \[2, 16777216\]"),
        (dict(page_size=100), "page_size"),
        (dict(blocks_per_plane=2.5), "blocks_per_plane must be an integer"),
        (dict(blocks_per_plane=2**20, pages_per_block=4096), "physical pages \\(channels x"),
        (dict(blocks_per_plane=1, pages_per_block=2, op=99), "at least one user page"),
    ],
)
def test_bad_geometry(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Geometry(**kwargs)
