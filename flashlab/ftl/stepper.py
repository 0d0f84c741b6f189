"""A tiny device stepped one host operation at a time, for animations.

The same kernels as :func:`flashlab.ftl.simulate` run underneath; after each step the
:class:`Snapshot` shows every page as free, valid or stale with the LBA it holds.
"""

from __future__ import annotations

import numpy as np

from flashlab._validate import check_instance, check_int
from flashlab.device.geometry import Geometry
from flashlab.ftl.core import Ftl, FtlConfig, Snapshot
from flashlab.workload import Trace, Workload

#: Five blocks of ten pages holding 27 LBAs (op 0.8). A device this small keeps a whole block
#: free for garbage collection (10 of its 50 pages), so it needs far more spare than a real SSD to
#: behave like one: at op 0.8 sequential overwrites need no copies (WA 1), while at op 0.3
#: (38 LBAs) only 2 pages are spare beyond the reserved block and every workload, sequential
#: included, settles at WA 5 to 6.
TINY_GEOMETRY = Geometry(blocks_per_plane=5, pages_per_block=10, op=0.8)
#: Greedy GC with one write stream, started when the FTL takes its last free block (fewer than
#: ``gc_low = 1`` free) and run until one block is free again.
TINY_CONFIG = FtlConfig(policy="greedy", separation="none", gc_low=1, gc_high=1)


class Stepper:
    """Step an FTL through a workload, one host operation (one page) per step.

    >>> st = Stepper()                     # 5 blocks x 10 pages, 27 LBAs, greedy, uniform writes
    >>> snap = st.step(40)                 # after 40 host writes
    >>> snap.page_state.reshape(5, 10)     # 0 free, 1 valid, 2 stale
    """

    def __init__(self, geometry: Geometry = TINY_GEOMETRY, config: FtlConfig = TINY_CONFIG,
                 workload: Workload | Trace = Workload(), seed: int = 0):
        self.ftl = Ftl(geometry, config, seed)  # validates seed
        check_instance("workload", workload, (Workload, Trace))
        self._stream = workload.chunks(geometry.user_pages, seed, chunk_size=256)
        self._ops = np.zeros(0, dtype=np.int8)
        self._lbas = np.zeros(0, dtype=np.int32)
        self.steps = 0
        self.last_op = -1
        self.last_lba = -1

    def step(self, n: int = 1) -> Snapshot:
        """Apply the next ``n`` host operations and return the snapshot after the last.

        Stops early (and stays put) once the device is read-only.
        """
        left = check_int("n", n, 0, 2**31 - 1)
        while left:  # whole chunks per kernel call: one call per operation made long runs take hours
            if self._ops.size == 0:
                self._ops, self._lbas = next(self._stream)
            k = min(left, self._ops.size)
            done = self.ftl.run(self._ops[:k], self._lbas[:k])
            if done:
                self.last_op, self.last_lba = int(self._ops[done - 1]), int(self._lbas[done - 1])
                self._ops, self._lbas = self._ops[done:], self._lbas[done:]
                self.steps += done
                left -= done
            if done < k:  # a write refused: the device is read-only
                break
        return self.ftl.snapshot()
