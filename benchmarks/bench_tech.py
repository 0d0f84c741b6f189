"""How fast the technology layer answers a live explorable: one node of a shrink sweep (Vth model,
RBER, endurance), a whole node sweep, a 3D layer sweep and a per-layer RBER sweep. Prints
milliseconds per call against the 100 ms target; asserts nothing."""

from __future__ import annotations

import time

import numpy as np

from flashlab.presets import QLC_3D
from flashlab.tech import GENERATIONS_3D, MLC_2Y, layer_rber, layer_sweep, node_sweep, shrink_sweep

TARGET_MS = 100.0
NODES = np.array([120.0, 90.0, 72.0, 50.0, 35.0, 25.0, 21.0, 19.0, 16.0, 14.0])

CASES = [
    ("planar node sweep (10 nodes, capacitances)", lambda: node_sweep(NODES, 3)),
    ("shrink sweep (10 nodes, RBER)", lambda: shrink_sweep(MLC_2Y, NODES, 3000, 365)),
    ("one node with endurance", lambda: shrink_sweep(MLC_2Y, [16.0], 3000, 365, endurance=True)),
    ("3D layer sweep (100 layer counts)", lambda: layer_sweep(np.arange(16, 816, 8), decks=2)),
    ("per-layer RBER (176 layers)", lambda: layer_rber(QLC_3D.vth, GENERATIONS_3D[176], 1000, 365)),
]


def main():
    for name, fn in CASES:
        fn()  # warm up
        t0 = time.perf_counter()
        n = 5
        for _ in range(n):
            fn()
        ms = 1e3 * (time.perf_counter() - t0) / n
        print(f"{name:46s} {ms:7.1f} ms  ({ms / TARGET_MS:.2f} x the {TARGET_MS:.0f} ms target)")


if __name__ == "__main__":
    main()
