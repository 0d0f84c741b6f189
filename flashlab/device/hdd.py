"""Hard disk drive timing: seek, rotation and media transfer, as a member of the timing engine.

A disk access at LBA ``a`` with the head at LBA ``h`` costs:

* **seek** over the fraction ``x = |a - h| / lbas`` of the stroke:
  ``t_track + c * sqrt(x)`` (0 if ``a == h``), the square-root law of the acceleration-limited
  seek (Ruemmler & Wilkes, IEEE Computer 1994). ``c`` is set so that the mean over two
  independent uniform positions (``E[sqrt(x)] = 8/15``) is the data sheet's average seek, so
  the full stroke comes out as ``t_track + c``;
* **rotation**: the platter turns continuously; the access waits until its sector (its byte
  offset within the track, a track holding one revolution of media bytes) is under the head,
  between 0 and one revolution, half a revolution on average for random LBAs;
* **transfer** at the media rate of the zone: ``transfer_outer_mb_s`` at LBA 0 (the outer
  edge), falling linearly to ``transfer_inner_mb_s`` at the last LBA.

**Controller write cache** (``write_cache_bytes`` > 0): the disk sits behind a RAID
controller whose DRAM write cache is battery-backed. A write is acknowledged
``write_cache_latency_us`` after it enters the cache (while the cache has room for it), then
destaged to the platter as one access timed as above; its bytes leave the cache when that access
ends, and a write that finds the cache full waits for them. A flush costs nothing (the battery
keeps the cache). Reads go to the platter.

Left out: command overhead, the interface transfer, read caching and queue reordering (the engine
serves a disk's requests in arrival order, destages too), write settle time (the read figures are used).
Times in microseconds (parameters in milliseconds as data sheets give them), sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flashlab._validate import check_int, check_real, plain_fields

SQRT_SEEK_MEAN = 8.0 / 15.0  # E[sqrt|U1 - U2|] for independent uniform U1, U2 on [0, 1]


@dataclass(frozen=True, kw_only=True)
class HddSpec:
    """A hard disk's data-sheet figures.

    Parameters
    ----------
    name : str
    rpm : float in [1000, 30000], spindle speed
    seek_track_ms : float > 0, track-to-track seek (read)
    seek_average_ms : float > seek_track_ms, average seek (read)
    transfer_outer_mb_s, transfer_inner_mb_s : float > 0, sustained media rate at the outer and
        inner edge (inner <= outer), MB/s = bytes per microsecond
    capacity_bytes : int >= block_size
    block_size : int, bytes per LBA (the engine's page), default 4096
    source : str, where the figures come from
    write_cache_bytes : int in [0, 2**40], a whole number of blocks: the battery-backed
        controller write cache in front of the disk (0: none, a write is done when on the platter)
    write_cache_latency_us : float in [0, 1e6], admission to acknowledgement of a cached write
    """

    name: str
    rpm: float
    seek_track_ms: float
    seek_average_ms: float
    transfer_outer_mb_s: float
    transfer_inner_mb_s: float
    capacity_bytes: int
    block_size: int = 4096
    source: str = ""
    write_cache_bytes: int = 0
    write_cache_latency_us: float = 50.0

    def __post_init__(self):
        plain_fields(self)
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string; got {self.name!r}")
        if not isinstance(self.source, str):
            raise ValueError(f"source must be a string; got {self.source!r}")
        check_real("rpm", self.rpm, 1000.0, 30000.0)
        check_real("seek_track_ms", self.seek_track_ms, 0.0, 100.0, lo_open=True)
        check_real("seek_average_ms", self.seek_average_ms, self.seek_track_ms, 1000.0, lo_open=True)
        check_real("transfer_outer_mb_s", self.transfer_outer_mb_s, 0.0, 1e5, lo_open=True)
        check_real("transfer_inner_mb_s", self.transfer_inner_mb_s, 0.0, self.transfer_outer_mb_s, lo_open=True)
        check_int("block_size", self.block_size, 512, 2**20)
        check_int("capacity_bytes", self.capacity_bytes, self.block_size, 2**60)
        check_int("write_cache_bytes", self.write_cache_bytes, 0, 2**40)
        if self.write_cache_bytes % self.block_size:
            raise ValueError(f"write_cache_bytes must be a whole number of blocks of {self.block_size} bytes "
                             f"(block_size); got {self.write_cache_bytes}")
        check_real("write_cache_latency_us", self.write_cache_latency_us, 0.0, 1e6)

    @property
    def write_cache_blocks(self) -> int:
        """Blocks (LBAs) the controller write cache holds (0: none)."""
        return self.write_cache_bytes // self.block_size

    @property
    def revolution_us(self) -> float:
        """One revolution, microseconds."""
        return 60e6 / self.rpm

    @property
    def seek_coef_us(self) -> float:
        """``c`` of the seek curve, microseconds."""
        return (self.seek_average_ms - self.seek_track_ms) * 1e3 / SQRT_SEEK_MEAN

    @property
    def full_stroke_ms(self) -> float:
        """Seek over the whole stroke the curve implies, milliseconds."""
        return self.seek_track_ms + self.seek_coef_us / 1e3

    @property
    def lbas(self) -> int:
        """Capacity in LBAs of ``block_size`` bytes."""
        return self.capacity_bytes // self.block_size

    def random_access_us(self, size: int) -> float:
        """Mean time of a random access of ``size`` bytes from the data sheet: average seek, half
        a revolution, and the transfer at the mean media rate over a uniform position."""
        size = check_int("size", size, 1, 2**40)
        o, i = self.transfer_outer_mb_s, self.transfer_inner_mb_s
        per_byte = math.log(o / i) / (o - i) if o > i else 1.0 / o
        return self.seek_average_ms * 1e3 + self.revolution_us / 2 + size * per_byte

    def kernel_params(self) -> dict:
        """Values of :class:`flashlab.ssd._kernels.Disks` for this disk."""
        return dict(seek_track=self.seek_track_ms * 1e3, seek_coef=self.seek_coef_us, rev=self.revolution_us,
                    bytes_outer=self.transfer_outer_mb_s, bytes_inner=self.transfer_inner_mb_s,
                    block=self.block_size, lbas=self.lbas, head=0.0)


# Seagate Cheetah 15K.7 (ST3600057SS, 600 GB, SAS), Product Manual 100516226, section 4.2.3
# (checked again in the Rev. D text, November 2010): sustainable disk transfer rate 122 MB/s minimum
# to 204 MB/s maximum (1 MB/s = 10^6 bytes/s), average rotational latency 2.0 ms (15,000 rpm). The
# read seeks, 3.4 ms average and 0.2 ms track-to-track (the manual's access-time table, section
# 4.2.1), are the figures as first recorded here: a second search of the manual's stored copies
# (Rev. A, D, F) found sections 1 to 4.2.3 but not that table, so they remain unchecked. They sit
# beside a contemporary 15k-rpm enterprise disk's checked figure (Hitachi Ultrastar 15K450:
# average read seek 3.3 ms typical for 450 GB).
CHEETAH_15K7 = HddSpec(name="Seagate Cheetah 15K.7 600 GB", rpm=15000.0, seek_track_ms=0.2, seek_average_ms=3.4,
                       transfer_outer_mb_s=204.0, transfer_inner_mb_s=122.0, capacity_bytes=600 * 10**9,
                       source="seagate2010cheetah15k7")

HDD_PRESETS = {"cheetah_15k7": CHEETAH_15K7}
