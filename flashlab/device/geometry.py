"""Device geometry and over-provisioning.

A device is ``channels x dies_per_channel x planes_per_die x blocks_per_plane`` erase blocks
of ``pages_per_block`` pages of ``page_size`` bytes. Over-provisioning is defined once, as in
CONTRIBUTING.md::

    op = (physical - user) / user          (so user = physical / (1 + op))

and the spare factor sometimes quoted instead is ``(physical - user) / physical``
(e.g. Xiang & Kurkoski 2012, arXiv:1110.4245). Examples: Micron MT29F64G08CBAAA has 4096 blocks
of 256 pages of 8 KiB; MQSim's default SSD is 8 x 4 x 2 x 2 x 2048 blocks x 256 pages at op 0.07
(shared/reference/nand3d_and_geometry.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flashlab._validate import check_int, check_real, plain_fields

# The FTL maps pages with int32 indices.
MAX_PHYSICAL_PAGES = 2**31 - 1
#: Most pages in one FTL block: a drive's superblock (one block of every plane) of a PCIe Gen4
#: datacenter drive holds 8 x 8 x 4 planes x 1,152 NAND pages x 4 mapping units = 1.2 M.
MAX_PAGES_PER_BLOCK = 2**24


@dataclass(frozen=True, kw_only=True)
class Geometry:
    """Shape of a NAND device and its over-provisioning.

    Parameters
    ----------
    channels, dies_per_channel, planes_per_die, blocks_per_plane : int >= 1
        The hierarchy above the erase block. The FTL treats all blocks as one pool.
    pages_per_block : int in [2, MAX_PAGES_PER_BLOCK]
        Pages per erase block (programs are per page, erases per block).
    page_size : int >= 512
        Bytes of user data per page (spare/OOB area not included).
    op : float in (0, 100]
        Over-provisioning, ``(physical - user) / user``. The user capacity is
        ``floor(physical_pages / (1 + op))`` pages.
    """

    channels: int = 1
    dies_per_channel: int = 1
    planes_per_die: int = 1
    blocks_per_plane: int = 1024
    pages_per_block: int = 256
    page_size: int = 16384
    op: float = 0.07

    def __post_init__(self):
        plain_fields(self)
        for name in ("channels", "dies_per_channel", "planes_per_die", "blocks_per_plane"):
            check_int(name, getattr(self, name), 1, MAX_PHYSICAL_PAGES)
        check_int("pages_per_block", self.pages_per_block, 2, MAX_PAGES_PER_BLOCK)
        check_int("page_size", self.page_size, 512, 2**30)
        check_real("op", self.op, 0.0, 100.0, lo_open=True)
        if self.physical_pages > MAX_PHYSICAL_PAGES:
            raise ValueError(
                f"physical pages (channels x dies_per_channel x planes_per_die x blocks_per_plane x "
                f"pages_per_block) must be at most {MAX_PHYSICAL_PAGES}; got {self.physical_pages}"
            )
        if self.user_pages < 1:
            raise ValueError(f"op must leave at least one user page; got op={self.op!r} for "
                             f"{self.physical_pages} physical pages")

    @property
    def blocks(self) -> int:
        """Erase blocks in the device (all channels, dies and planes)."""
        return self.channels * self.dies_per_channel * self.planes_per_die * self.blocks_per_plane

    @property
    def physical_pages(self) -> int:
        """Raw pages T = blocks x pages_per_block."""
        return self.blocks * self.pages_per_block

    @property
    def user_pages(self) -> int:
        """Logical pages U the host can address: floor(T / (1 + op))."""
        return math.floor(self.physical_pages / (1.0 + self.op) + 1e-9)

    @property
    def physical_bytes(self) -> int:
        return self.physical_pages * self.page_size

    @property
    def user_bytes(self) -> int:
        return self.user_pages * self.page_size

    @property
    def effective_op(self) -> float:
        """(T - U) / U from the page counts: the nominal ``op`` up to rounding of user pages."""
        return self.physical_pages / self.user_pages - 1.0

    @property
    def spare_factor(self) -> float:
        """(T - U) / T from the page counts (op / (1 + op) up to rounding)."""
        return (self.physical_pages - self.user_pages) / self.physical_pages
