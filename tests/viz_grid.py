"""The static grid of an explorable, for tests that check a figure's fixed axes against it."""

from __future__ import annotations

import itertools
import math

import numpy as np


def grid_data(ex):
    """``ex.compute``'s data at every point of its controls' grid."""
    names = [c.name for c in ex.controls]
    for combo in itertools.product(*(c.values for c in ex.controls)):
        yield ex.compute(**dict(zip(names, combo)))


def grid_max_share(ex, columns, target: str = "hist", step: float = 5.0) -> float:
    """The y-axis end (%) a histogram figure fixes over the grid: the largest share in ``columns``
    of ``target`` at any grid point, with 5% headroom, rounded up to a multiple of ``step``."""
    top = max(float(np.max(d[target][col])) for d in grid_data(ex) for col in columns)
    return step * math.ceil(1.05 * top / step)
