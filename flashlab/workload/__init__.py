"""Host request generators and trace files.

Every source yields host operations one logical page at a time, in chunks of two arrays
``(ops int8, lbas int32)`` with op codes ``OP_WRITE``, ``OP_READ``, ``OP_TRIM`` and LBAs in
logical pages ``[0, user_pages)``, so a long run never holds its whole request stream in memory.
"""

OP_WRITE, OP_READ, OP_TRIM = 0, 1, 2

from flashlab.workload.filesystem import FileChurn  # noqa: E402
from flashlab.workload.generators import PATTERNS, Workload  # noqa: E402
from flashlab.workload.jedec import EnterpriseEndurance  # noqa: E402
from flashlab.workload.trace import Trace, read_trace  # noqa: E402

__all__ = ["OP_WRITE", "OP_READ", "OP_TRIM", "PATTERNS", "Workload", "FileChurn", "EnterpriseEndurance", "Trace", "read_trace"]
