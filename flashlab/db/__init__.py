"""Database host models on the SSD timing engine (:mod:`flashlab.ssd`): how a database and its
benchmarks drive a flash drive.

* :mod:`flashlab.db.benchmark`: fio's ``rwmixread`` (a closed loop that binds reads to writes)
  against independent rate-limited streams;
* :mod:`flashlab.db.scan`: direct-path full table scans, parallel servers x multiblock reads;
* :mod:`flashlab.db.redo`: committing sessions, group commit and the redo block size;
* :mod:`flashlab.db.flush`: flushed writes on a drive with a write cache, with or without
  power-loss protection;
* :mod:`flashlab.db.oltp`: OLTP sessions behind a buffer pool, the database writer, and a
  write-back flash cache against a write-through one (free buffer waits);
* :mod:`flashlab.db.temp`: sorts writing runs to the temporary tablespace and merging them, on
  a flash drive or a hard disk;
* :mod:`flashlab.db.placement`: which data belongs on flash, in closed forms: the share of zipf
  reads the hottest blocks take, a flash cache that starts empty, and the first smart scan
  after ``CELL_FLASH_CACHE KEEP``.

Each model writes the region it reads before timing (or reads only what it wrote), runs on one device and returns a frozen
result record. Times in microseconds, sizes in bytes.
"""

from flashlab.db.benchmark import MixResult, littles_law_read_iops, rwmix, streams
from flashlab.db.flush import FlushResult, flushed_writes
from flashlab.db.oltp import OltpResult, oltp
from flashlab.db.placement import ColdCache, KeepScan, cold_cache_misses, harmonic, hot_fraction, keep_scan
from flashlab.db.redo import REDO_BLOCKS, RedoResult, redo_log
from flashlab.db.scan import ScanResult, direct_path_scan
from flashlab.db.temp import TempResult, temp_sort

__all__ = ["ColdCache", "KeepScan", "cold_cache_misses", "harmonic", "hot_fraction", "keep_scan", "FlushResult", "flushed_writes", "MixResult", "REDO_BLOCKS", "RedoResult", "ScanResult", "direct_path_scan", "littles_law_read_iops",
           "OltpResult", "oltp", "redo_log", "rwmix", "streams", "TempResult", "temp_sort"]
