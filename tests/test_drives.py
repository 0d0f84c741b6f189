"""The drive presets against their datasheets (flashlab.drives): every predicted figure within 15%
or within the allowance its preset records and explains; the calibration figure reproduced (it
is not a prediction); determinism; which results do not depend on the drive's scale."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from flashlab.drives import DRIVES, METRICS, TOLERANCE, Allowance, Figure, measure, validate
from flashlab.drives.validate import BLOCKS_PER_PLANE
from flashlab.ssd import HostInterface


@lru_cache(maxsize=None)
def table(key):
    return validate(DRIVES[key], seed=1)


@pytest.mark.parametrize("key", sorted(DRIVES))
def test_every_prediction_is_within_tolerance_or_its_allowance(key):
    v = table(key)
    drive = DRIVES[key]
    assert [r.metric for r in v.rows] == [m for m in METRICS if drive.figure(m)]
    for r in v.rows:
        if r.calibration:
            continue
        assert r.passes, f"{drive.name}: {r.metric} model {r.model:,.1f} vs datasheet {r.datasheet:,.1f} " \
                         f"(ratio {r.ratio:.2f}, allowed {r.low:.2f}-{r.high:.2f})\n{v.table()}"


@pytest.mark.parametrize("key", sorted(DRIVES))
def test_the_calibration_figure_is_reproduced_and_is_no_prediction(key):
    drive = DRIVES[key]
    assert drive.calibrated_from not in drive.predictions
    assert drive.controller.max_iops == pytest.approx(drive.figure(drive.calibrated_from).value)
    # the controller binds: the simulated rate is the figure it was set from, up to queueing (the
    # 660p's QLC reads nearly bind too: 32 planes at a mean tR of 122 us allow 263k, and it reaches
    # 0.97 of its 220k)
    r = table(key).row(drive.calibrated_from)
    assert r.calibration and abs(r.ratio - 1) < 0.05, table(key).table()


@pytest.mark.parametrize("key", ["660p", "980pro"])
def test_the_slc_program_time_is_set_from_the_cache_figure(key):
    """A client drive's second calibration: its SLC program time makes the sequential write into
    the simulated cache the datasheet's figure (no prediction then); the random writes into it
    are predictions. Without the cache the same run writes at the direct rate, far below."""
    drive = DRIVES[key]
    assert drive.calibrations == ("random_read_iops", "seq_write_mb_s")
    assert "seq_write_mb_s" not in drive.predictions and "random_write_iops" in drive.predictions
    r = table(key).row("seq_write_mb_s")
    assert r.calibration and abs(r.ratio - 1) < 0.05, table(key).table()
    bare, _ = measure(replace(drive, slc_bytes=0, allowances=()), "seq_write_mb_s", requests=4000, seed=1)
    assert bare < 0.6 * r.datasheet


def test_allowances_explain_real_misses_only():
    """An allowance that the model no longer needs is stale: each allowance's metric misses the
    plain tolerance (so the book's explanation is of a gap that exists)."""
    for key, drive in DRIVES.items():
        for a in drive.allowances:
            r = table(key).row(a.metric)
            assert not (1 - TOLERANCE <= r.ratio <= 1 + TOLERANCE), f"{key}: {a.metric} needs no allowance"


def test_a_broken_model_fails_the_table():
    """The check can fail: halve the SATA link of the X25-E and its sequential read misses."""
    broken = replace(DRIVES["x25e"], host=HostInterface.sata(1.5))
    v = validate(broken, seed=1)
    assert not v.row("seq_read_mb_s").passes
    slow = replace(DRIVES["pm9a3"], nand=replace(DRIVES["pm9a3"].nand, t_read_us=(200.0,) * 3))
    assert not validate(slow, seed=1).row("random_read_iops").passes


def test_same_seed_same_result_other_seed_other_result():
    """The steady state (preconditioning, then GC through the measured half) on the X25-E at its
    smallest scale: 41,000 writes a run, where the 850 PRO at the validation scale took 131,000."""
    drive = DRIVES["x25e"]
    kw = dict(capacity_scale=drive.min_scale(), requests=2000)
    a = measure(drive, "steady_write_iops", seed=3, **kw)
    assert a == measure(drive, "steady_write_iops", seed=3, **kw)
    assert a != measure(drive, "steady_write_iops", seed=4, **kw)


@pytest.mark.longest  # steady_write_iops: over a minute
@pytest.mark.parametrize("metric", ["random_read_iops", "random_write_iops", "steady_write_iops", "seq_write_mb_s"])
def test_results_are_scale_free_from_the_validation_block_count(metric):
    """Fresh-drive rates do not depend on the block count at all; the steady state does only
    through the FTL's spare superblocks, and from BLOCKS_PER_PLANE blocks per plane on, doubling
    the drive moves it by under 5%."""
    drive = DRIVES["ssd320"]
    small, _ = measure(drive, metric, capacity_scale=drive.scale_for(BLOCKS_PER_PLANE), requests=4000, seed=2)
    large, _ = measure(drive, metric, capacity_scale=drive.scale_for(2 * BLOCKS_PER_PLANE), requests=4000, seed=2)
    assert large == pytest.approx(small, rel=0.05)


def test_records_refuse_what_the_calibration_rule_forbids():
    drive = DRIVES["x25e"]
    with pytest.raises(ValueError, match="allowance"):
        replace(drive, allowances=(Allowance(metric="random_read_iops", low=0.5, high=2.0,
                                             why="the calibration figure cannot have an allowance"),))
    with pytest.raises(ValueError, match="calibrated_from"):
        replace(drive, calibrated_from="read_latency_us")  # the X25-E quotes no latency
    with pytest.raises(ValueError, match="once"):
        replace(drive, datasheet=drive.datasheet + (Figure(metric="seq_read_mb_s", value=1.0, source="x"),))
    with pytest.raises(ValueError, match="widen"):
        Allowance(metric="seq_read_mb_s", low=0.9, high=1.1, why="inside the tolerance: no allowance needed")


@pytest.mark.parametrize("key", sorted(DRIVES))
def test_the_smallest_scale_is_the_ftls_and_a_smaller_one_is_refused_by_name(key):
    """Drive.config keeps whole blocks per plane down to the FTL's reserve at the drive's op and
    refuses a scale below it, naming capacity_scale and the range (not the FTL's op)."""
    drive = DRIVES[key]
    lowest = drive.min_scale()
    config = drive.config(lowest)
    assert config.geometry.blocks_per_plane == round(lowest * drive.blocks_per_plane)
    assert config.geometry.op == drive.op
    with pytest.raises(ValueError, match=r"capacity_scale must be in \[.*, 1\].*got"):
        drive.config(lowest * (1 - 1e-6) - 1.0 / drive.blocks_per_plane)
    small = drive.small_config()
    fewest = config.geometry.blocks_per_plane
    assert fewest < small.geometry.blocks_per_plane <= min(drive.blocks_per_plane, 1.25 * fewest + 1)
    with pytest.raises(ValueError, match="margin"):
        drive.small_config(0.5)

