"""What capacity and IOPS cost: dollars per GB and per IOPS of the drive presets, and the cheapest
way to buy a database's capacity and read rate together.

Harrison (harrison2012ssdoracle, "Accelerating Oracle database performance with SSD") sets two
economies against each other: disk is cheap per terabyte, flash per IO per second, so most
databases are best served by some of each. A device of price ``p``, capacity ``c`` and random
read rate ``i`` costs ``p / c`` per byte and ``p / i`` per IOPS; a workload of ``C`` bytes and
``I`` reads per second needs ``ceil(max(C / c, I / i))`` of them (:func:`cheapest`). Per GB of
data, all-disk costs ``max(p_d / c_d, D x p_d / i_d)`` at an access density of ``D`` IOPS per GB
and all-flash ``max(p_f / c_f, D x p_f / i_f)``; when disk is the cheaper per GB and flash per
IOPS, the two cross at

    D* = (p_f / c_f) / (p_d / i_d)      IOPS per GB        (:func:`crossover_density`):

below it buy disks (for their capacity), above it flash. :func:`tier_costs` adds the middle way
of the advice, disks for capacity and a flash tier for the hot blocks of a zipf workload.

Prices move, and they are the one input here not made by the engine: :data:`PRICES` holds a
dated price for each preset a source prices, and says whether it is a launch price or a street
price. Read rates: the datasheet's random 4 KiB read IOPS for the SSDs (queue depth 32); for the
disk, one random 4 KiB read at a time from :meth:`flashlab.device.hdd.HddSpec.random_access_us`
(a disk with a deep queue reorders and does better: Oracle's guidance for Exadata's 15k disks is
about 300 small reads per second each, oradbastuff2015exadata).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_instance, check_int, check_real, check_text, plain_fields
from flashlab.db.placement import harmonic
from flashlab.drives.presets import DISK, PRO980, P660, SSD320

GB = 10**9


@dataclass(frozen=True, kw_only=True)
class Price:
    """A device as a buyer prices it.

    Parameters
    ----------
    name : str
    usd : float in (0, 1e7], dollars for one device
    capacity_bytes : int in [1, 2**60], user capacity
    read_iops : float in (0, 1e9], random 4 KiB reads per second
    iops_from : str, where ``read_iops`` comes from (a datasheet figure or the model)
    date : str, when the price held (ISO date, or a month)
    source : str, bibliography key of the price
    note : str, launch or street price, and anything assumed
    """

    name: str
    usd: float
    capacity_bytes: int
    read_iops: float
    iops_from: str
    date: str
    source: str
    note: str = ""

    def __post_init__(self):
        plain_fields(self)
        for field in ("name", "iops_from", "date", "source"):
            check_text(field, getattr(self, field), min_len=1, max_len=400)
        check_text("note", self.note, max_len=1000)
        check_real("usd", self.usd, 0.0, 1e7, lo_open=True)
        check_int("capacity_bytes", self.capacity_bytes, 1, 2**60)
        check_real("read_iops", self.read_iops, 0.0, 1e9, lo_open=True)

    @property
    def usd_per_gb(self) -> float:
        """Dollars per GB (10**9 bytes) of user capacity."""
        return self.usd / (self.capacity_bytes / GB)

    @property
    def usd_per_iops(self) -> float:
        """Dollars per random 4 KiB read per second."""
        return self.usd / self.read_iops

    @property
    def iops_per_gb(self) -> float:
        """The access density the device itself offers: its read IOPS per GB."""
        return self.read_iops / (self.capacity_bytes / GB)


def _datasheet_iops(drive) -> float:
    return drive.figure("random_read_iops").value


#: Dated prices of the presets a source prices. The X25-E, F20, 850 PRO and PM9A3 have none here:
#: no dated price for their preset's model was found in a citable review.
PRICES = {
    "disk": Price(name=DISK.name, usd=510.0, capacity_bytes=DISK.capacity_bytes,
                  read_iops=1e6 / DISK.random_access_us(4096),
                  iops_from="model: one random 4 KiB read at a time (average seek, half a turn, transfer)",
                  date="2010-10-18", source="chang2010qdpmahdd", note="street price (Newegg), bare drive"),
    "ssd320": Price(name=SSD320.name, usd=209.0 * 300 / 120, capacity_bytes=SSD320.capacity_bytes,
                    read_iops=_datasheet_iops(SSD320), iops_from="datasheet, Iometer QD32",
                    date="2011", source="tomshw2011ssd320",
                    note="street price of the 120 GB model ($209), scaled to 300 GB at the same price per GB"),
    "660p": Price(name=P660.name, usd=80.0, capacity_bytes=P660.capacity_bytes,
                  read_iops=_datasheet_iops(P660), iops_from="datasheet, in the SLC cache",
                  date="2019-12-06", source="tomshw2019intel660p", note="street price on sale"),
    "980pro": Price(name=PRO980.name, usd=229.99, capacity_bytes=PRO980.capacity_bytes,
                    read_iops=_datasheet_iops(PRO980), iops_from="datasheet, QD32",
                    date="2020", source="legitreviews2020980pro", note="launch price"),
}


@dataclass(frozen=True)
class Purchase:
    """Whole devices bought for a workload (:func:`cheapest`): ``count`` of ``device`` for
    ``usd`` dollars; ``bound`` says which need set the count, ``"capacity"`` or ``"iops"``."""

    device: str
    count: int
    usd: float
    bound: str


def _count(price: Price, capacity_bytes: float, read_iops: float) -> tuple[int, str]:
    by_cap, by_iops = capacity_bytes / price.capacity_bytes, read_iops / price.read_iops
    return max(1, math.ceil(max(by_cap, by_iops) - 1e-9)), ("capacity" if by_cap >= by_iops else "iops")


def cheapest(capacity_bytes: float, read_iops: float, prices=None) -> Purchase:
    """The cheapest whole number of one kind of device that holds ``capacity_bytes`` and serves
    ``read_iops`` random 4 KiB reads per second, among ``prices`` (a dict of :class:`Price` by
    key; default :data:`PRICES`). ``capacity_bytes`` in (0, 1e18], ``read_iops`` in [0, 1e12].
    No RAID and no spare: raw devices."""
    cap = check_real("capacity_bytes", capacity_bytes, 0.0, 1e18, lo_open=True)
    iops = check_real("read_iops", read_iops, 0.0, 1e12)
    prices = _check_prices(prices)
    best = None
    for key, p in prices.items():
        n, bound = _count(p, cap, iops)
        if best is None or n * p.usd < best.usd:
            best = Purchase(device=key, count=n, usd=n * p.usd, bound=bound)
    return best


def _check_prices(prices) -> dict:
    if prices is None:
        return PRICES
    if not isinstance(prices, dict) or not prices:
        raise ValueError(f"prices must be a non-empty dict of Price by key; got {type(prices).__name__}")
    for key, p in prices.items():
        check_instance(f"prices[{key!r}]", p, Price)
    return prices


def crossover_density(disk: Price, flash: Price) -> float:
    """Access density (read IOPS per GB) above which all-flash costs less than all-disk, devices
    bought in any fraction: ``(flash $/GB) / (disk $/IOPS)`` when disk is cheaper per GB and
    flash per IOPS; 0.0 when flash is cheaper per GB too (flash always wins), ``inf`` when disk
    is cheaper per IOPS too (disk always wins)."""
    check_instance("disk", disk, Price)
    check_instance("flash", flash, Price)
    if flash.usd_per_gb <= disk.usd_per_gb:
        return 0.0
    if disk.usd_per_iops <= flash.usd_per_iops:
        return math.inf
    return flash.usd_per_gb / disk.usd_per_iops


@dataclass(frozen=True)
class TierCosts:
    """Three ways to buy a database (:func:`tier_costs`), dollars of whole devices.

    ``all_disk``, ``all_flash``: one kind of device for capacity and IOPS; ``tiered``: disks
    holding all the data and serving the reads the flash tier misses, plus ``flash_devices``
    flash drives caching the hottest ``flash_fraction`` of the blocks, which serve
    ``hit_fraction`` of the reads; ``disk_devices`` disks.
    """

    all_disk: float
    all_flash: float
    tiered: float
    flash_devices: int
    disk_devices: int
    flash_fraction: float
    hit_fraction: float

    @property
    def best(self) -> str:
        """The cheapest of ``"all_disk"``, ``"all_flash"`` and ``"tiered"`` (ties to the first)."""
        costs = {"all_disk": self.all_disk, "all_flash": self.all_flash, "tiered": self.tiered}
        return min(costs, key=costs.get)


#: Flash-tier sizes :func:`tier_costs` tries: every count up to this, a geometric grid beyond.
EXACT_TIER_COUNTS = 2000


def tier_costs(db_bytes: float, read_iops: float, s: float, disk: Price, flash: Price,
               block_bytes: int = 8192) -> TierCosts:
    """Cost of serving ``read_iops`` zipf(``s``) block reads over a database of ``db_bytes`` bytes
    in blocks of ``block_bytes``: all on ``disk``, all on ``flash``, or on disks with a flash
    cache of ``k`` drives in front, which holds the hottest ``k x`` capacity bytes (at most the
    database) and serves their share of the reads (:func:`flashlab.db.hot_fraction`); the disks
    hold all the data and serve the rest. ``k`` is the cheapest from 1 to the all-flash count
    (every count up to 2,000, a geometric grid beyond). Whole devices, no RAID, no spares.
    ``db_bytes`` in [1e6, 1e16], ``read_iops`` in [0, 1e10], ``s`` in (0, 10],
    ``block_bytes`` int in [512, 2**20]."""
    size = check_real("db_bytes", db_bytes, 1e6, 1e16)
    iops = check_real("read_iops", read_iops, 0.0, 1e10)
    s = check_real("s", s, 0.0, 10.0, lo_open=True)
    block = check_int("block_bytes", block_bytes, 512, 2**20)
    check_instance("disk", disk, Price)
    check_instance("flash", flash, Price)
    n = max(1, int(size // block))
    total = harmonic(n, s)
    k_all = _count(flash, size, iops)[0]
    ks = np.arange(1, k_all + 1) if k_all <= EXACT_TIER_COUNTS else np.unique(
        np.geomspace(1, k_all, EXACT_TIER_COUNTS).astype(np.int64))
    best = None
    for k in ks:
        hot = min(n, max(1, int(k * flash.capacity_bytes // block)))
        h = harmonic(hot, s) / total
        if k * flash.read_iops < h * iops:  # the tier cannot serve its own hits
            continue
        disks = _count(disk, size, (1 - h) * iops)[0]
        cost = disks * disk.usd + int(k) * flash.usd
        if best is None or cost < best[0]:
            best = (cost, int(k), disks, hot / n, h)
    return TierCosts(all_disk=_count(disk, size, iops)[0] * disk.usd,
                     all_flash=k_all * flash.usd, tiered=best[0], flash_devices=best[1], disk_devices=best[2],
                     flash_fraction=best[3], hit_fraction=best[4])
