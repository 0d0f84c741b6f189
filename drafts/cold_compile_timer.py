"""Cold compile CPU of the SSD engine: first run_members (1 member, then 8), per-function compile
events (inclusive, CPU is not available per event: wall), signatures per dispatcher."""
import sys, time, collections
sys.path.insert(0, sys.argv[1] + "/benchmarks")
import numpy as np
from numba.core import event as ev
from bench_engine import _drive, _streams
from flashlab.ssd.engine import run_members
from flashlab.ssd import _kernels as K

starts = {}
spent = collections.Counter()
count = collections.Counter()
class L(ev.Listener):
    def on_start(self, e):
        starts[id(e.data["dispatcher"]), str(e.data["args"])] = time.perf_counter()
    def on_end(self, e):
        k = (id(e.data["dispatcher"]), str(e.data["args"]))
        name = e.data["dispatcher"].py_func.__name__
        spent[name] += time.perf_counter() - starts.pop(k, time.perf_counter())
        count[name] += 1
ev.register("numba:compile", L())
for D in (1, 8):
    op, lba, pages, device, arrivals = _streams(D, 16)
    t = time.process_time()
    run_members([_drive()] * D, op, lba, pages, device, arrivals=arrivals)
    print(f"first run with {D} member(s): {time.process_time() - t:.1f} s CPU", flush=True)
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
t = time.process_time()
simulate_io(SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16)), HostLoad(qd=4), requests=200)
print(f"closed loop simulate_io after: {time.process_time() - t:.1f} s CPU", flush=True)
for name, s in spent.most_common(25):
    print(f"  {name:24s} {s:7.1f} s wall inclusive, {count[name]} compiles")
