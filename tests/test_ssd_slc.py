"""The SLC cache's record and its sequential-write closed form (flashlab.ssd.slc): the knee and
both plateaus computed by hand from the geometry and the NAND times, and the bad input each
parameter refuses. The engine's simulation of the cache: tests/test_ssd_slc_engine.py."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flashlab.device.timing import NandTiming, timing_preset
from flashlab.ssd import (HostInterface, SlcCache, SsdConfig, raw_program_bandwidth_mb_s, slc_write_plateaus,
                          ssd_geometry)

TLC = timing_preset("tlc")  # SimpleSSD TLC via FEMU: tR 56.5/77.5/106 us, tPROG 820.5/2225/5734 us


def client(**kw) -> SsdConfig:
    """4 channels x 2 dies x 2 planes of TLC, 48 pages of 4 KiB per block, 30 blocks per plane."""
    geo = ssd_geometry(2**26, 0.4, channels=4, dies_per_channel=2, planes_per_die=2, pages_per_block=48)
    return SsdConfig(geometry=geo, timing="tlc", **kw)


def test_default_slc_times_are_the_fastest_page_types():
    cache = SlcCache(blocks_per_plane=2)
    assert cache.prog_us(TLC) == 820.5
    assert cache.read_us(TLC) == 56.5
    own = SlcCache(blocks_per_plane=2, t_prog_us=200.0, t_read_us=25.0)
    assert (own.prog_us(TLC), own.read_us(TLC)) == (200.0, 25.0)


def test_knee_and_plateaus_by_hand():
    cfg = client()
    p = slc_write_plateaus(cfg, SlcCache(blocks_per_plane=2))
    # 2 blocks x 16 planes x 48 / 3 SLC pages x 4096 bytes
    assert p.knee_bytes == 2 * 16 * 16 * 4096
    tx = 4096 / TLC.channel_mb_s
    per_channel = 4  # 2 dies x 2 planes
    slc = 4 * min(per_channel / (tx + 820.5), 1 / tx) * 4096
    # a 48-page block is 16 word lines: lower, middle and upper pages a third each
    direct = 4 * min(per_channel / (tx + (820.5 + 2225.0 + 5734.0) / 3), 1 / tx) * 4096
    assert p.slc_mb_s == pytest.approx(slc, rel=1e-12)
    assert p.direct_mb_s == pytest.approx(direct, rel=1e-12)
    assert p.direct_mb_s == pytest.approx(raw_program_bandwidth_mb_s(cfg), rel=1e-12)
    assert p.slc_mb_s > 3 * p.direct_mb_s


@pytest.mark.parametrize("kw", [{}, {"multi_plane": True}, {"nand_page_size": 16384},
                                {"nand_page_size": 16384, "multi_plane": True, "one_shot": True}])
def test_slc_plateau_is_an_slc_drive_of_the_same_geometry(kw):
    """SLC-mode programs write one NAND page per word line: the cache's plateau is the program
    limit of the same drive built of SLC parts at the cache's tPROG (no one-shot)."""
    timing = dataclasses.replace(TLC, t_prog_one_shot_us=3 * 2225.0)
    geo = ssd_geometry(2**27, 0.6, pages_per_block=144)  # whole SLC programs of a one-shot 16 KiB part
    cfg = SsdConfig(geometry=geo, timing=timing, **kw)
    slc_part = NandTiming(name="slc-mode", t_read_us=(40.0,), t_prog_us=(300.0,), channel_mb_s=TLC.channel_mb_s)
    kw_slc = {k: v for k, v in kw.items() if k != "one_shot"}
    as_slc = SsdConfig(geometry=geo, timing=slc_part, **kw_slc)
    p = slc_write_plateaus(cfg, SlcCache(blocks_per_plane=1, t_prog_us=300.0))
    assert p.slc_mb_s == pytest.approx(raw_program_bandwidth_mb_s(as_slc), rel=1e-12)
    assert p.direct_mb_s == pytest.approx(raw_program_bandwidth_mb_s(cfg), rel=1e-12)


def test_host_link_caps_both_plateaus():
    p = slc_write_plateaus(client(host=HostInterface(link_mb_s=50.0)), SlcCache(blocks_per_plane=2))
    assert p.slc_mb_s == 50.0
    assert p.direct_mb_s == pytest.approx(raw_program_bandwidth_mb_s(client()), rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(nbytes=st.integers(0, 2**27))
def test_seconds_to_write_is_the_two_plateaus(nbytes):
    p = slc_write_plateaus(client(), SlcCache(blocks_per_plane=2))
    fast = min(nbytes, p.knee_bytes)
    want = fast / p.slc_mb_s / 1e6 + (nbytes - fast) / p.direct_mb_s / 1e6
    assert p.seconds_to_write(nbytes) == pytest.approx(want, rel=1e-12, abs=1e-18)
    # the bandwidth over the run never beats the cache's, nor falls below the direct rate
    if nbytes > 0:
        assert p.direct_mb_s * 0.999999 <= nbytes / p.seconds_to_write(nbytes) / 1e6 <= p.slc_mb_s * 1.000001


@pytest.mark.parametrize("kw, name", [({"blocks_per_plane": 0}, "blocks_per_plane"),
                                      ({"blocks_per_plane": 2.5}, "blocks_per_plane"),
                                      ({"blocks_per_plane": 2, "t_prog_us": 0.0}, "t_prog_us"),
                                      ({"blocks_per_plane": 2, "t_read_us": float("nan")}, "t_read_us")])
def test_record_refuses_bad_values(kw, name):
    with pytest.raises(ValueError, match=name):
        SlcCache(**kw)


def test_cache_must_fit_in_the_spare_blocks():
    cfg = client()  # 30 blocks per plane, 22 hold the user data, the FTL keeps gc_background 4 + 1
    assert slc_write_plateaus(cfg, SlcCache(blocks_per_plane=3)).knee_bytes > 0
    with pytest.raises(ValueError, match=r"slc.blocks_per_plane must be in \[1, 3\]; got 4"):
        slc_write_plateaus(cfg, SlcCache(blocks_per_plane=4))


def test_blocks_must_hold_whole_slc_pages():
    geo = ssd_geometry(2**26, 0.4, pages_per_block=32)  # 32 TLC pages: not whole word lines
    with pytest.raises(ValueError, match="pages_per_block"):
        slc_write_plateaus(SsdConfig(geometry=geo, timing="tlc"), SlcCache(blocks_per_plane=1))
    with pytest.raises(ValueError, match="cache"):
        slc_write_plateaus(client(), 2)
    with pytest.raises(ValueError, match="timing"):
        SlcCache(blocks_per_plane=1).prog_us("tlc")
