"""Cold compile of the SSD timing engine, per kernel: what CI pays once per numba cache.

``python benchmarks/bench_compile.py`` runs, in a subprocess with an empty numba cache, a first
``run_members`` call (1 member, then 8: the member count is data, the second compiles nothing),
then a closed-loop ``simulate_io`` (the closed loop's start), and prints their CPU seconds, their
sum (the drive engine) beside the 30 s target, then what each kernel group of
``tools/compile_kernels.py`` compiles after that (``ssd``: the FTL's own loop and the OLTP
buffer pool; ``cells``), and,
per kernel (dispatcher), the CPU seconds numba's compile events spent on it, inclusive of the
kernels it compiled first, and each SSD kernel's three costliest numba passes (wall). Set
``NUMBA_BOUNDSCHECK=1`` to time the bounds-checked build CI also makes.

``--kernels`` times ``tools/compile_kernels.py ssd`` with bounds checks instead (the costliest
job of ``make kernels``, which CI runs first). ``--baseline REV`` runs the same in git revision
REV's tree (``git archive``) beside this tree, both processes at once, so both see the same load. Asserts nothing (CONTRIBUTING.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_engine import ROOT

COLD = r"""
import collections, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from numba.core import event as ev
from bench_engine import _drive, _streams
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.ssd.engine import run_members
import compile_kernels

TARGET = 30.0  # s CPU for everything simulate_io and simulate_array need (issue 27)
starts, spent, count = {}, collections.Counter(), collections.Counter()


class Listener(ev.Listener):
    def on_start(self, e):
        starts[id(e.data["dispatcher"]), str(e.data["args"])] = time.process_time()

    def on_end(self, e):
        key = (id(e.data["dispatcher"]), str(e.data["args"]))
        name = e.data["dispatcher"].py_func.__module__.split(".")[-2] + "." + e.data["dispatcher"].py_func.__name__
        spent[name] += time.process_time() - starts.pop(key, time.process_time())
        count[name] += 1


ev.register("numba:compile", Listener())
engine = 0.0
for D in (1, 8):
    op, lba, pages, device, arrivals = _streams(D, 16)
    t = time.process_time()
    run_members([_drive()] * D, op, lba, pages, device, arrivals=arrivals)
    engine += time.process_time() - t
    print(f"first run_members with {D} member(s): {time.process_time() - t:.1f} s CPU", flush=True)
t = time.process_time()
simulate_io(SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16)), HostLoad(qd=4), requests=200)
engine += time.process_time() - t
print(f"closed-loop simulate_io after them: {time.process_time() - t:.1f} s CPU", flush=True)
print(f"drive engine (what simulate_io and simulate_array compile): {engine:.1f} s CPU, target {TARGET:.0f} s "
      f"-> {engine / TARGET:.1f}x the target", flush=True)
for name, group in compile_kernels.GROUPS.items():  # the rest of each kernel group of make kernels
    t = time.process_time()
    group()
    print(f"kernel group {name} (tools/compile_kernels.py) after that: {time.process_time() - t:.1f} s CPU", flush=True)
for name, s in spent.most_common(25):
    print(f"  {name:28s} {s:7.1f} s CPU inclusive, {count[name]} compile(s)")
from flashlab.ssd import _kernels as K
print("numba passes of the SSD kernels (wall s; type inference includes compiling the kernels it calls, "
      "native lowering the LLVM optimisation and code generation):")
for name in dir(K):
    for cr in getattr(getattr(K, name), "overloads", {}).values():
        if not cr.metadata:  # compiled before this process (an earlier group's cache)
            continue
        times = cr.metadata["pipeline_times"]["nopython"]
        top = sorted(((t.run, k.split("_", 1)[1]) for k, t in times.items()), reverse=True)[:3]
        print(f"  {name:16s} " + ", ".join(f"{k} {t:.1f}" for t, k in top))
"""

def _run(tree: Path, args: list, env: dict) -> subprocess.Popen:
    args = [str(tree / a[len("TREE/"):]) if a.startswith("TREE/") else a for a in args]
    return subprocess.Popen([sys.executable, *args], cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree), **env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def side_by_side(trees: dict, args: list, env: dict) -> None:
    """Run ``python args`` in every tree at once (``TREE/`` in an argument: the tree's path),
    each with its own empty numba cache; print each tree's output under its name."""
    with tempfile.TemporaryDirectory() as caches:
        procs = {}
        for name, tree in trees.items():
            cache = Path(caches) / name
            procs[name] = _run(tree, args, dict(env, NUMBA_CACHE_DIR=str(cache)))
        for name, p in procs.items():
            out, err = p.communicate()
            print(f"--- {name} ({trees[name]})")
            print(out, end="" if out.endswith("\n") else "\n")
            if p.returncode:
                print(f"failed (exit {p.returncode}):\n{err[-3000:]}")


def main() -> None:
    argv = sys.argv[1:]
    trees = {"this tree": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if "--baseline" in argv:
            rev = argv[argv.index("--baseline") + 1]
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "flashlab", "tools"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            trees = {f"baseline {rev}": Path(tmp), **trees}
        if "--kernels" in argv:
            print("tools/compile_kernels.py ssd with bounds checks, empty numba cache:")
            side_by_side(trees, ["TREE/tools/compile_kernels.py", "ssd"], {"NUMBA_BOUNDSCHECK": "1"})
        else:
            side_by_side(trees, ["-c", COLD, str(Path(__file__).parent), "TREE/tools"], {})
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
