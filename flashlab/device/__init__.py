"""Device layer: geometry (channel > die > plane > block > page) and over-provisioning."""

from flashlab.device.geometry import Geometry

__all__ = ["Geometry"]
