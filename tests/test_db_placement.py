"""Placement on flash: the zipf hot-set closed form, the flash cache questions and the economics
of disk against flash, each against a hand-worked case or an independent computation."""

import math

import numpy as np
import pytest

from flashlab.db import cold_cache_misses, harmonic, hot_fraction, keep_scan
from flashlab.drives import PRICES, Price, cheapest, crossover_density, tier_costs
from flashlab.drives.economics import GB
from flashlab.workload import Workload


@pytest.mark.parametrize("s", [0.6, 1.0, 1.3])
def test_harmonic_matches_the_plain_sum(s):
    n = 2_000_003  # far past the exact head: the Euler-Maclaurin tail carries most terms
    exact = float(np.sum(np.arange(1, n + 1, dtype=np.float64) ** -s))
    assert harmonic(n, s) == pytest.approx(exact, rel=1e-11)
    assert harmonic(3, s) == pytest.approx(1 + 2**-s + 3**-s, rel=1e-15)


def test_hot_fraction_by_hand_and_against_the_books_zipf_sampler():
    # 4 blocks, s = 1: the two hottest take (1 + 1/2) / (1 + 1/2 + 1/3 + 1/4) = 18/25.
    assert hot_fraction(4, 2, 1.0) == pytest.approx(18 / 25, rel=1e-15)
    assert hot_fraction(4, 0, 1.0) == 0.0 and hot_fraction(4, 4, 1.0) == pytest.approx(1.0)
    # The workload generator's zipf stream (rejection-inversion, its own code) agrees.
    n, s, draws = 50_000, 1.1, 400_000
    _, lbas = next(Workload("zipf", zipf_exponent=s).chunks(n, seed=3, chunk_size=draws))
    hot = (10, 500, 5_000)
    seen = np.array([(lbas < m).mean() for m in hot])
    want = np.array([hot_fraction(n, m, s) for m in hot])
    assert np.all(np.abs(seen - want) < 4 * np.sqrt(want * (1 - want) / draws))


def test_cold_cache_harrisons_lookups_by_hand_and_by_simulation():
    # 200,000 uniform lookups over 1,000,000 one-row blocks: 1e6 x (1 - e^-0.2) first reads.
    run = cold_cache_misses(200_000, 1_000_000)
    assert run.disk_reads == pytest.approx(1e6 * (1 - math.exp(-0.2)), rel=1e-6)
    assert run.flash_writes == run.disk_reads
    assert run.disk_fraction == pytest.approx(0.906, abs=5e-4)
    # A seeded simulation of a small case: count first touches.
    rng = np.random.default_rng(7)
    lookups, keys, rows = 3_000, 8_000, 4
    firsts = [np.unique(rng.integers(0, keys, lookups) // rows).size for _ in range(300)]
    small = cold_cache_misses(lookups, keys, rows)
    assert small.blocks == 2_000
    assert np.mean(firsts) == pytest.approx(small.disk_reads, rel=0.01)


def test_keep_scan_by_hand():
    first = keep_scan(1e9, 100.0, 1000.0, 50.0)
    assert (first.default_s, first.first_keep_s, first.later_keep_s) == pytest.approx((10.0, 30.0, 1.0))
    assert first.slowdown == pytest.approx(3.0)
    assert keep_scan(1e9, 100.0, 1000.0, 50.0, overlap=True).first_keep_s == pytest.approx(20.0)


DISK = Price(name="disk", usd=100.0, capacity_bytes=1000 * GB, read_iops=200.0, iops_from="test", date="x", source="x")
FLASH = Price(name="flash", usd=500.0, capacity_bytes=500 * GB, read_iops=50_000.0, iops_from="test", date="x",
              source="x")


def test_cheapest_and_crossover_by_hand():
    # 2,000 GB at 1,000 IOPS: five disks (IOPS-bound, $500) against four flash drives ($2,000).
    buy = cheapest(2000 * GB, 1000.0, {"disk": DISK, "flash": FLASH})
    assert (buy.device, buy.count, buy.usd, buy.bound) == ("disk", 5, 500.0, "iops")
    # flash $1.00/GB over disk $0.50/IOPS: all-flash is cheaper above 2 IOPS per GB.
    d = crossover_density(DISK, FLASH)
    assert d == pytest.approx(2.0)
    big = 10**6 * GB
    for density, winner in ((1.8, "disk"), (2.2, "flash")):
        assert cheapest(big, density * big / GB, {"disk": DISK, "flash": FLASH}).device == winner
    cheap_flash = Price(name="f", usd=50.0, capacity_bytes=1000 * GB, read_iops=1e5, iops_from="t", date="x", source="x")
    assert crossover_density(DISK, cheap_flash) == 0.0
    dear = Price(name="d", usd=1000.0, capacity_bytes=100 * GB, read_iops=100.0, iops_from="t", date="x", source="x")
    assert math.isinf(crossover_density(DISK, dear))


def test_tier_costs_wins_between_the_extremes():
    size = 100_000 * GB  # 100 TB: whole-device rounding is small
    low = tier_costs(size, 0.05 * 100_000, 1.0, DISK, FLASH)   # below the disks' own density
    mid = tier_costs(size, 1.0 * 100_000, 1.0, DISK, FLASH)    # disks short of IOPS, flash dear per GB
    high = tier_costs(size, 50.0 * 100_000, 1.0, DISK, FLASH)  # past what disks can reach cheaply
    assert low.best == "all_disk" and high.best == "all_flash" and mid.best == "tiered"
    # The mid case by hand: 100 disks hold the data; the flash tier must leave at most 20,000
    # reads a second (100 disks x 200) to them, so it catches at least 80% of the reads.
    # One 500 GB flash drive caches 0.5% of the 12.2e9 blocks: too few hits; two (1%) are enough.
    blocks = int(size // 8192)
    assert hot_fraction(blocks, int(500 * GB // 8192), 1.0) < 0.8 <= hot_fraction(blocks, int(1000 * GB // 8192), 1.0)
    assert (mid.flash_devices, mid.disk_devices, mid.tiered) == (2, 100, 100 * 100.0 + 2 * 500.0)
    assert mid.hit_fraction >= 0.8
    assert mid.all_disk == 500 * 100.0 and mid.all_flash == 200 * 500.0


def test_prices_are_dated_and_the_disk_is_priced_by_hand():
    disk = PRICES["disk"]
    assert disk.usd_per_gb == pytest.approx(510 / 600)
    # One random 4 KiB read: 3.4 ms seek, 2 ms half turn, 4,096 B at the mean media rate.
    access_us = 3400 + 2000 + 4096 * math.log(204 / 122) / (204 - 122)
    assert disk.read_iops == pytest.approx(1e6 / access_us)
    assert all(p.date and p.source for p in PRICES.values())
