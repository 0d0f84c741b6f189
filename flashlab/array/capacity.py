"""Capacity of a flash drive and of an array: raw, usable and effective, step by step.

The definitions are SNIA's, as flashdba's "Where's my capacity?" post explains them
(flashdba 2015):

* **raw**: the sum of the addressable capacity of every storage device (for an SSD, of every
  flash package; flash the controller cannot address, such as ECC spare bytes, does not count);
* **usable**: what is left for user data after spare drives, RAID parity or mirrors,
  over-provisioning (headroom for garbage collection) and space the system keeps for itself. It
  is guaranteed: any data, however incompressible, fits;
* **effective**: usable x an *assumed* data-reduction ratio (deduplication and compression).
  Nobody knows it before the data is loaded, and it changes as the data changes.

:func:`array_capacity` reports every step between raw and effective (a :class:`CapacityStep`
each), so a chapter can draw the waterfall. Over-provisioning follows the book's one definition,
``op = (physical - user) / user``. RAID efficiency is the fraction of a group's drives that hold
data: RAID-0 1, RAID-1 and RAID-10 1/2, RAID-5 (N-1)/N, RAID-6 (N-2)/N for a group of N drives
(Patterson, Gibson and Katz 1988).

Sizes are bytes. Decimal units (GB = 10**9 bytes) are what drive and array vendors quote,
binary ones (GiB = 2**30 bytes) what memory and most operating systems count in: :data:`UNITS`
and :func:`in_units` convert.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flashlab._validate import check_choice, check_int, check_real

#: Bytes per unit: decimal (powers of ten, as drives and arrays are sold) and binary (powers of two).
UNITS = {
    "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15,
    "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50,
}

#: RAID levels and the fewest drives a group of each needs.
RAID_MIN_DRIVES = {0: 1, 1: 2, 10: 4, 5: 3, 6: 4}

#: Data-reduction ratios commonly assumed for each workload, (low, high), from flashdba's
#: capacity post (flashdba 2015), which calls about 6:1 the ratio most vendors' data sheets
#: assume on average. They are claims, not measurements: data reduces by what it holds.
DATA_REDUCTION_CLAIMS = {
    "databases": (2.0, 4.0),
    "server virtualisation (VSI)": (5.0, 6.0),
    "desktop virtualisation (VDI)": (8.0, 18.0),
    "data-sheet average": (6.0, 6.0),
}

_MAX_BYTES = 1e21  # a zettabyte: more than any array holds; keeps the arithmetic exact and finite


def in_units(n_bytes: float, unit: str) -> float:
    """``n_bytes`` expressed in ``unit`` (a key of :data:`UNITS`, e.g. ``"TB"`` or ``"TiB"``)."""
    n = check_real("n_bytes", n_bytes, 0.0, _MAX_BYTES)
    return n / UNITS[check_choice("unit", unit, tuple(UNITS))]


@dataclass(frozen=True)
class DriveCapacity:
    """One flash drive: ``raw_bytes`` of addressable flash, ``user_bytes`` exported to the host.

    ``hidden_bytes = raw - user`` is the drive's own over-provisioning, ``op = hidden / user``."""

    raw_bytes: float
    user_bytes: float
    hidden_bytes: float
    op: float


def drive_capacity(packages: int, package_bytes: float, user_bytes: float) -> DriveCapacity:
    """A drive of ``packages`` flash packages (at most 10**6) of ``package_bytes`` addressable
    bytes each (1 to 1e15) that exports ``user_bytes`` to the host (at least 1, at most its raw
    capacity).

    flashdba's example (flashdba 2015): 18 packages of 32 GB in a 400 GB SSD are 576 GB raw,
    176 GB hidden, op 0.44.
    """
    packages = check_int("packages", packages, 1, 10**6)
    package = Fraction(check_real("package_bytes", package_bytes, 1.0, _MAX_BYTES / 10**6))
    raw = packages * package
    user = Fraction(check_real("user_bytes", user_bytes, 1.0, _MAX_BYTES))
    if user > raw:
        raise ValueError(f"user_bytes must be at most the raw capacity, packages x package_bytes = {packages} x "
                         f"{float(package):g} = {float(raw):g} bytes; got {float(user):g}")
    return DriveCapacity(float(raw), float(user), float(raw - user), float((raw - user) / user))


@dataclass(frozen=True)
class CapacityStep:
    """One bar of the waterfall: ``name``, the capacity after it (``bytes``), what it took away
    (``removed_bytes``; negative for the data-reduction step, which adds) and ``why``."""

    name: str
    bytes: float
    removed_bytes: float
    why: str


@dataclass(frozen=True)
class ArrayCapacity:
    """The result of :func:`array_capacity`: every step from raw to effective, and the three
    headline figures (bytes)."""

    steps: tuple[CapacityStep, ...]
    raw_bytes: float
    usable_bytes: float
    effective_bytes: float
    data_reduction: float

    def step(self, name: str) -> CapacityStep:
        """The step called ``name`` (one of the names in :attr:`steps`)."""
        name = check_choice("name", name, tuple(s.name for s in self.steps))
        return next(s for s in self.steps if s.name == name)

    def table(self, unit: str = "TB") -> str:
        """The waterfall as text, one line per step, sizes in ``unit`` (a key of :data:`UNITS`)."""
        unit = check_choice("unit", unit, tuple(UNITS))
        scale = UNITS[unit]
        width = max(len(s.name) for s in self.steps)
        lines = []
        for s in self.steps:
            change = "" if s.name == "raw" else f"({0.0 - s.removed_bytes / scale:+,.2f})"
            lines.append(f"{s.name:<{width}} {s.bytes / scale:>9,.2f} {unit:<3} {change:>10}  {s.why}")
        return "\n".join(lines)


def _raid_efficiency(raid: int, width: int) -> tuple[Fraction, str]:
    if raid == 0:
        return Fraction(1), "RAID-0, no redundancy"
    if raid in (1, 10):
        return Fraction(1, 2), f"RAID-{raid}, all mirrored"
    parity = 1 if raid == 5 else 2
    return Fraction(width - parity, width), f"RAID-{raid} {width - parity}+{parity}"


def array_capacity(drives: int, drive_bytes: float, *, raid: int = 6, group_width: int | None = None,
                   spares: int = 0, op: float = 0.0, system_reserve: float = 0.0,
                   data_reduction: float = 1.0) -> ArrayCapacity:
    """Raw, usable and effective capacity of an array, with every step between them.

    Parameters
    ----------
    drives : int in [1, 10**6], drives (or flash modules) in the array, spares included
    drive_bytes : float in [1, 1e15], addressable bytes of each (for an SSD, what it exports)
    raid : one of 0, 1, 10, 5, 6
    group_width : drives per RAID group (default: every drive that is not a spare); the
        non-spare drives must split into whole groups. RAID-1 groups are 2 drives, RAID-10 groups
        an even number of at least 4, RAID-5 at least 3, RAID-6 at least 4.
    spares : int, hot-spare drives holding no data (at least one group must remain)
    op : float in [0, 10], the array's over-provisioning on top of its drives' own,
        ``(physical - user) / user`` (a ground-up array keeps it; an SSD array usually leaves it
        to the drives, op 0)
    system_reserve : float in [0, 0.9], fraction of the space left after RAID and OP that the
        system keeps (metadata, logs, a reserve for its own garbage collection)
    data_reduction : float in [1, 1000], the assumed data-reduction ratio (x:1): 1 is usable at
        1:1, see :data:`DATA_REDUCTION_CLAIMS` for typical claims

    The steps are, in order: ``raw``, ``spares``, ``RAID``, ``over-provisioning``,
    ``system reserve``, ``usable``, ``effective``.
    """
    drives = check_int("drives", drives, 1, 10**6)
    drive = Fraction(check_real("drive_bytes", drive_bytes, 1.0, _MAX_BYTES / 10**6))
    raid = check_choice("raid", raid, tuple(RAID_MIN_DRIVES))
    need = RAID_MIN_DRIVES[raid]
    if drives < need:
        raise ValueError(f"drives must be at least {need} for raid={raid} (RAID-{raid}); got {drives}")
    spares = check_int("spares", spares, 0, drives - need)
    data_drives = drives - spares
    if group_width is None:
        width = data_drives
    else:
        width = check_int("group_width", group_width, need, data_drives)
    if raid == 1 and width != 2:
        raise ValueError(f"group_width must be 2 for raid=1 (a mirrored pair; raid=10 stripes over pairs); got {width}")
    if raid == 10 and width % 2:
        raise ValueError(f"group_width must be even for raid=10 (mirrored pairs); got {width}")
    if data_drives % width:
        raise ValueError(f"group_width must divide the {data_drives} drives that are not spares into whole "
                         f"groups; got {width} (drives {drives}, spares {spares})")
    op_f = Fraction(check_real("op", op, 0.0, 10.0))
    reserve = Fraction(check_real("system_reserve", system_reserve, 0.0, 0.9))
    drr = check_real("data_reduction", data_reduction, 1.0, 1000.0)

    raw = drives * drive
    pool = data_drives * drive
    eff, raid_why = _raid_efficiency(raid, width)
    groups = data_drives // width
    after_raid = pool * eff
    after_op = after_raid / (1 + op_f)
    usable = after_op * (1 - reserve)
    effective = usable * Fraction(drr)
    stages = [
        ("raw", raw, f"{drives} drives x {_fmt(drive)}"),
        ("spares", pool, f"{spares} hot spare{'' if spares == 1 else 's'}, no data"),
        ("RAID", after_raid, f"{groups} x {width} drives, {raid_why}"),
        ("over-provisioning", after_op, f"op {float(op_f):g}: physical / (1 + op)"),
        ("system reserve", usable, f"{float(reserve):.0%} kept by the system"),
        ("usable", usable, "guaranteed, whatever the data"),
        ("effective", effective, f"usable x {drr:g}:1 assumed reduction"),
    ]
    steps, before = [], raw
    for name, value, why in stages:
        steps.append(CapacityStep(name, float(value), float(before - value), why))
        before = value
    return ArrayCapacity(tuple(steps), float(raw), float(usable), float(effective), drr)


def _fmt(n_bytes: Fraction) -> str:
    """A size in the largest decimal unit that keeps it at least 1 (for the step notes)."""
    for unit in ("PB", "TB", "GB", "MB", "KB"):
        if n_bytes >= UNITS[unit]:
            return f"{float(n_bytes) / UNITS[unit]:,.4g} {unit}"
    return f"{float(n_bytes):g} B"
