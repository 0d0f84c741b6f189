"""Redo as it is done today (chapter 11, issue 33): the log writer on real-drive presets and on the
15k disk, checked against closed forms.

* One session thinking far longer than a write: each commit is one log write on an idle device,
  so the mean log file sync is that device's single-write latency for the write's size. A drive
  with power-loss protection acknowledges a FUA write from its cache: the command's link time,
  the data at the link's rate, the controller's command time and the cache's acknowledgement
  (:mod:`flashlab.ssd.frontend`). The disk behind a battery-backed cache acknowledges in its
  controller's time. The bare disk waits for the platter: its head is where the last write
  ended, so there is no seek, and after a think time of many turns the sector is anywhere on the
  track, half a turn away on average, then the transfer at the outer zone's rate.
* Group commit: with no think time every session is waiting whenever the log writer finishes,
  so every write carries every session's commit (commits per write = sessions); with think time,
  Little's law on the closed loop: sessions = commits per second x (mean sync + mean think).

Cost: about 5 s after the kernels are compiled (scaled-down presets, a few hundred commits).
"""

from dataclasses import replace

import numpy as np
import pytest

from flashlab.db import redo_log
from flashlab.device.hdd import CHEETAH_15K7
from flashlab.drives import F20, PM9A3

SAS = replace(CHEETAH_15K7, block_size=512, write_cache_bytes=2 * 2**20)
THINK_US = 20_000.0  # five turns of a 15k platter, hundreds of times a cached write


def plp_write_us(cfg, nbytes):
    """A FUA write of ``nbytes`` on an idle drive whose cache is protected: its command and data
    cross the link, a controller core processes it, the cache acknowledges it."""
    return (cfg.host.command_overhead_us + nbytes / cfg.host.link_mb_s + cfg.controller.command_us
            + cfg.cache_latency_us)


@pytest.mark.parametrize("preset", [PM9A3, F20], ids=lambda d: d.key)
def test_one_session_on_a_protected_drive_waits_for_one_cached_write(preset):
    cfg = preset.small_config()
    r = redo_log(cfg, sessions=1, commits=300, redo_bytes=2048, redo_block=4096, think_us=THINK_US, seed=3)
    assert r.write_bytes.size == 300  # alone: one commit per write
    expected = plp_write_us(cfg, r.write_bytes)
    assert r.commit_us == pytest.approx(expected, rel=1e-6, abs=1e-6)
    # the same with the cache unprotected: a FUA write waits for its program, far longer
    bare = redo_log(replace(cfg, power_loss_protection=False), sessions=1, commits=50, redo_bytes=2048,
                    redo_block=4096, think_us=THINK_US, seed=3)
    assert bare.commit_latency["mean"] > 5 * expected.mean()


def test_one_session_on_the_disk_waits_for_the_cache_or_half_a_turn():
    kw = dict(sessions=1, commits=1000, redo_bytes=2048, redo_block=512, think_us=THINK_US, seed=5)
    cached = redo_log(SAS, **kw)
    assert cached.commit_us == pytest.approx(np.full(1000, SAS.write_cache_latency_us))
    bare = redo_log(replace(SAS, write_cache_bytes=0), **kw)
    # the log is the disk's first GiB: its rate is the outer zone's to within 0.04%
    rate = SAS.transfer_outer_mb_s
    expected = SAS.revolution_us / 2 + bare.write_bytes.mean() / rate
    # the wait for the sector is uniform over one turn: standard deviation rev / sqrt(12)
    se = SAS.revolution_us / np.sqrt(12) / np.sqrt(bare.commit_us.size)
    assert abs(bare.commit_latency["mean"] - expected) < 4 * se
    # no commit waits for more than a turn and its transfer (no seek: the head is where the log ended)
    assert bare.commit_us.max() <= SAS.revolution_us + bare.write_bytes.max() / SAS.transfer_inner_mb_s


@pytest.mark.parametrize("sessions", [1, 4, 16])
def test_without_think_time_every_write_carries_every_session(sessions):
    cfg = PM9A3.small_config()
    r = redo_log(cfg, sessions=sessions, commits=40 * sessions, redo_bytes=2048, redo_block=4096, think_us=0.0,
                 seed=2)
    per_write = np.bincount(r.commit_write)
    assert (per_write == sessions).all()


def test_group_commit_grows_the_writes_and_keeps_littles_law():
    cfg = PM9A3.small_config()
    think = 40.0
    bytes_per_write, commits_per_write = [], []
    for n in (1, 8, 32):
        r = redo_log(cfg, sessions=n, commits=60 * n, redo_bytes=2048, redo_block=4096, think_us=think, seed=4)
        bytes_per_write.append(r.write_bytes.mean())
        commits_per_write.append(r.commit_us.size / r.write_bytes.size)
        # Little's law on the closed loop of n sessions, over the run (each session's last think
        # time after its last commit is cut off: an edge of n think times in the whole run)
        rate = r.commit_us.size / r.elapsed_us
        think_mean = think  # exponential think times of this mean
        assert n == pytest.approx(rate * (r.commit_latency["mean"] + think_mean), rel=0.08)
    assert commits_per_write[0] == 1.0
    assert bytes_per_write[0] < bytes_per_write[1] < bytes_per_write[2]
    assert commits_per_write[0] < commits_per_write[1] < commits_per_write[2] <= 32
