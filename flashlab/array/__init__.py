"""Array layer: many drives on one clock, RAID and parity, and capacity raw / usable / effective.

Capacity (:mod:`flashlab.array.capacity`): :func:`array_capacity` walks from raw to usable to
effective capacity step by step; :func:`drive_capacity` splits one drive's flash into what it
exports and what it hides.
"""

from flashlab.array.capacity import (DATA_REDUCTION_CLAIMS, RAID_MIN_DRIVES, UNITS, ArrayCapacity, CapacityStep,
                                     DriveCapacity, array_capacity, drive_capacity, in_units)

__all__ = ["DATA_REDUCTION_CLAIMS", "RAID_MIN_DRIVES", "UNITS", "ArrayCapacity", "CapacityStep", "DriveCapacity",
           "array_capacity", "drive_capacity", "in_units"]
