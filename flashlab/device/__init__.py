"""Device layer: geometry (channel > die > plane > block > page) and over-provisioning."""

from flashlab.device.geometry import Geometry

__all__ = ["Geometry"]

# Timing, queueing and the write cliff (event-driven simulation, SNIA PTS write saturation).
# The simulator drives the FTL (flashlab.ftl imports flashlab.device.geometry), so these names
# are loaded on first use (PEP 562) to keep `import flashlab.device` free of an import cycle.
_LAZY = {
    "HostLoad": "sim", "IoResult": "sim", "SsdConfig": "sim", "nand_timeline": "sim",
    "pipeline_limit_iops": "sim", "raw_program_bandwidth_mb_s": "sim", "simulate_io": "sim",
    "ssd_geometry": "sim", "PtsResult": "pts", "SteadyState": "pts", "steady_state": "pts",
    "write_saturation": "pts", "NandTiming": "timing", "PRESETS": "timing", "timing_preset": "timing",
}
__all__ += sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"flashlab.device.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'flashlab.device' has no attribute {name!r}")
