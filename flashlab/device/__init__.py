"""Device layer: geometry (channel > die > plane > block > page), over-provisioning, and NAND
operation timing per page type (cited presets).

The event-driven simulation that puts the FTL's operations on these dies in time lives one layer
up, in :mod:`flashlab.ssd`.
"""

from flashlab.device.geometry import Geometry
from flashlab.device.timing import PRESETS, NandTiming, timing_preset

__all__ = ["Geometry", "NandTiming", "PRESETS", "timing_preset"]
