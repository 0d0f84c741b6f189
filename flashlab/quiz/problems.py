"""The quiz topics: each draws a problem from a seed and solves it with the engine.

A generator takes a NumPy ``Generator`` seeded from the quiz seed and returns a
:class:`Problem`. Where a draw would make the question ambiguous (two GC victims tied, an ECC
rate within 10% of the limit) it draws again from the same generator, so the seed still fixes
the problem.
"""

from __future__ import annotations

import dataclasses
import math
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from flashlab._validate import check_choice, check_seed
from flashlab.array.capacity import DATA_REDUCTION_CLAIMS, UNITS, array_capacity
from flashlab.array.reduction import reduced_wear
from flashlab.array.rebuild import raid6_loss_probability, second_failure_probability, ure_probability
from flashlab.cell.ecc import UBER_CLIENT, UBER_ENTERPRISE, EccCode, correctable_rber, soft_read_latency_us, uber
from flashlab.cell.floating_gate import FG_CELL_2XNM, Q_E
from flashlab.cell.ispp import IsppParams, program_cell
from flashlab.cell.levels import cell_levels
from flashlab.cell.program_disturb import SelfBoosting
from flashlab.cell.soft_read import hard_capacity_rber
from flashlab.cell.temperature import acceleration_factor, bake_hours, equivalent_hours
from flashlab.db.benchmark import littles_law_read_iops, rwmix
from flashlab.db.flush import flushed_writes
from flashlab.db.redo import redo_log
from flashlab.device.geometry import Geometry
from flashlab.drives.economics import PRICES, crossover_density, tier_costs
from flashlab.drives.presets import DRIVES
from flashlab.drives.qualify import ACT_LIMITS, act_load, act_rules
from flashlab.ftl.core import PAGE_FREE, PAGE_VALID, Ftl, FtlConfig
from flashlab.ftl.models import wa_greedy
from flashlab.ftl.simulate import simulate
from flashlab.ftl.zns import simulate_zns
from flashlab.ssd.config import SsdConfig, ssd_geometry
from flashlab.ssd.sim import HostLoad, simulate_io
from flashlab.tech.generations import TLC_1X
from flashlab.tech.nand3d import ARRAY_EFFICIENCY, Stack3D, bit_cost
from flashlab.tech.string3d import VerticalString
from flashlab.tech.program3d import T_PULSE_US, program_ladder
from flashlab.tech.planar import (CG_POLY_MIN_NM, EPS0_AF_PER_NM, EPS_OX_AF_PER_NM, VOLTS_PER_UNIT, WINDOW_UNITS,
                                  PlanarCell, state_spacing_units)
from flashlab.workload.filesystem import FileChurn


@dataclass(frozen=True)
class Problem:
    """One quiz instance: ``text`` (the question), ``answer`` (the engine's results by name, for
    checking) and :meth:`solution` (the worked answer in words)."""

    topic: str
    seed: int
    text: str
    answer: dict = field(repr=False)
    working: str = field(repr=False)

    def solution(self) -> str:
        """The worked answer, with the numbers the engine computed."""
        return self.working

    def __str__(self) -> str:
        return self.text


def _wrap(text: str) -> str:
    """Lines wrapped at 78 columns (a chapter's output box shows about 80); an indented line
    (a table row, a sequence) keeps its indent, and its continuation is indented two more. A
    number stays on the line of the unit after it ("47.15 TiB", not "47.15" and "TiB")."""
    out = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip(" "))]
        if len(line) > 78:
            glued = _NUMBER_UNIT.sub("\\1\0", line)
            line = textwrap.fill(glued, 78, subsequent_indent=indent + ("  " if indent else "")).replace("\0", " ")
        out.append(line)
    return "\n".join(out)


_NUMBER_UNIT = re.compile(r"(\d) (?=[^\W\d])")


# ----------------------------------------------------------------------------------- ftl
_FTL_RULES = (
    "Its FTL writes every page out of place into one open block, filling it page by page, and "
    "takes free blocks in the order they became free (at first 0, 1, 2, ...). When it has to open "
    "the last free block it garbage-collects first: it picks the closed block with the fewest "
    "valid pages (on a tie, the one that reached that count first), copies its valid pages into "
    "the block it just opened, and erases it (it becomes the free block)."
)


def _tiny_ftl(blocks: int, ppb: int, user: int, policy: str = "greedy", seed: int = 0) -> Ftl:
    """A device of ``blocks`` x ``ppb`` pages exposing ``user`` LBAs, GC when no block is free."""
    geometry = Geometry(blocks_per_plane=blocks, pages_per_block=ppb, op=blocks * ppb / user - 1.0)
    assert geometry.user_pages == user
    return Ftl(geometry, FtlConfig(policy=policy, separation="none", gc_low=1, gc_high=1), seed)


def _page_map(ftl: Ftl) -> str:
    snap = ftl.snapshot()
    ppb = ftl.geometry.pages_per_block
    rows = []
    for b in range(ftl.geometry.blocks):
        cells = []
        for p in range(b * ppb, (b + 1) * ppb):
            if snap.page_state[p] == PAGE_FREE:
                cells.append(f"{'.':>4}")
            elif snap.page_state[p] == PAGE_VALID:
                cells.append(f"{snap.page_lba[p]:>4}")
            else:
                cells.append(f"{'x' + str(snap.page_lba[p]):>4}")
        rows.append(f"  block {b}: " + "".join(cells))
    return "\n".join(rows)


def _ftl(rng: np.random.Generator, seed: int) -> Problem:
    blocks, ppb = int(rng.integers(3, 5)), 4
    user = int(rng.integers(blocks * ppb // 2, (blocks - 1) * ppb))  # at most (blocks-1)*ppb - 1
    # Opening the last free block, after (blocks - 1) * ppb writes, triggers GC: go past it.
    n = int(rng.integers((blocks - 1) * ppb - 2, (blocks + 1) * ppb))
    writes = rng.integers(0, user, size=n).tolist()
    ftl = _tiny_ftl(blocks, ppb, user)
    ftl.write(writes)
    c = ftl.counters
    snap = ftl.snapshot()
    wa = (c["host_writes"] + c["gc_copies"]) / c["host_writes"]
    text = (
        f"A tiny SSD has {blocks} blocks of {ppb} pages and exposes LBAs 0..{user - 1}. {_FTL_RULES}\n\n"
        f"Starting empty, the host writes these LBAs, one page each, in order:\n  "
        + " ".join(str(w) for w in writes)
        + "\n\nDraw the blocks afterwards: which pages hold valid data (for which LBA), which are stale, "
        "which are free? How many pages did the FTL program, and what is the write amplification "
        "(flash page programs / host page writes)?"
    )
    working = (
        "Pages afterwards (n: valid copy of LBA n, xn: stale copy of LBA n, .: free):\n"
        f"{_page_map(ftl)}\n\n"
        f"The host wrote {c['host_writes']} pages; garbage collection cleaned {c['gc_victims']} block(s), "
        f"copying {c['gc_copies']} valid page(s) and erasing {c['erases']}.\n"
        f"WA = ({c['host_writes']} + {c['gc_copies']}) / {c['host_writes']} = {wa:.3f}.\n"
        f"Each LBA written has exactly one valid page ({int((snap.page_state == PAGE_VALID).sum())} valid pages "
        f"for {len(set(writes))} distinct LBAs)."
    )
    answer = dict(blocks=blocks, pages_per_block=ppb, user_pages=user, writes=writes,
                  page_state=snap.page_state.tolist(), page_lba=snap.page_lba.tolist(),
                  gc_copies=c["gc_copies"], wa=wa)
    return Problem("ftl", seed, text, answer, working)


# ------------------------------------------------------------------------------------ gc
GC_QUIZ_POLICIES = ("greedy", "fifo", "cost_benefit")


def _gc(rng: np.random.Generator, seed: int) -> Problem:
    while True:
        blocks, ppb = int(rng.integers(5, 8)), int(rng.integers(4, 7))
        user = (blocks - 1) * ppb - 1 - int(rng.integers(0, ppb))
        ftls = {p: _tiny_ftl(blocks, ppb, user, p) for p in GC_QUIZ_POLICIES}
        ref = ftls["greedy"]
        lbas = rng.permutation(user).tolist()  # fill once, then overwrite at random
        before, writes = None, []
        for n in range(10 * blocks * ppb):
            lba = lbas[n] if n < user else int(rng.integers(0, user))
            # The write that opens the last free block triggers GC: stop just before it.
            # (a block closes as its last page is written, so no open block means no room).
            if ref.counters["free_blocks"] == 1 and ref.snapshot().frontiers[0] < 0:
                before = ref.snapshot()
                trigger = lba
                break
            for f in ftls.values():
                f.write([lba])
            writes.append(lba)
        closed = np.flatnonzero(before.block_state == 2)  # BLOCK_CLOSED
        valid = before.block_valid[closed]
        closed_at = before.page_stamp[closed * ppb + ppb - 1].astype(np.int64)  # last page's write
        now = before.counters["host_writes"]
        score = (ppb - valid) * (now - closed_at + 1) / (ppb + valid)
        # One answer per policy (no ties), and victims with a stale page: a full victim's copies
        # would fill the new block and make GC clean a second block, a muddier question.
        if (np.sum(valid == valid.min()) == 1 and np.sum(np.isclose(score, score.max())) == 1
                and max(valid.min(), valid[np.argmin(closed_at)], valid[np.argmax(score)]) < ppb):
            break
    picks = {}
    for policy, f in ftls.items():
        f.write([trigger])
        c = f.counters
        picks[policy] = dict(victim=int(f.snapshot().last_victim), copies=int(c["gc_copies"]))
    table = "\n".join(
        f"  block {b}: {v} valid of {ppb} pages, closed when the host had written {t + 1} pages"
        for b, v, t in zip(closed, valid, closed_at)
    )
    text = (
        f"A drive of {blocks} blocks x {ppb} pages (LBAs 0..{user - 1}) is about to garbage-collect: "
        f"its next host write (write number {now + 1}) needs a new block, and only one is free. "
        f"Its closed blocks are:\n{table}\n\n"
        "Which block does each victim policy clean, and how many valid pages does it copy?\n"
        "  greedy: fewest valid pages;\n"
        "  FIFO: the block closed first;\n"
        "  cost-benefit (Rosenblum & Ousterhout): the largest (1 - u) * age / (1 + u), with "
        f"u = valid / {ppb} and age = {now + 1} - (host writes at closing) + 1 (the writes from the one "
        "that closed the block to the coming one, both counted)."
    )
    lines = [f"{'greedy' if p == 'greedy' else 'FIFO' if p == 'fifo' else 'cost-benefit'}: block "
             f"{picks[p]['victim']}, copying {picks[p]['copies']} page(s)" for p in GC_QUIZ_POLICIES]
    cb = "\n".join(f"  block {b}: (1 - {v}/{ppb}) * {now - t + 1} / (1 + {v}/{ppb}) = {s:.2f}"
                   for b, v, t, s in zip(closed, valid, closed_at, score))
    working = ("The engine ran the same writes under each policy; at the next write:\n  "
               + "\n  ".join(lines) + f"\nCost-benefit scores:\n{cb}\n"
               "Greedy copies the least now; FIFO and cost-benefit may copy more now to clean an old "
               "block whose data has stopped changing.")
    answer = dict(blocks=blocks, pages_per_block=ppb, user_pages=user, picks=picks, writes=writes, trigger=trigger,
                  closed=closed.tolist(), valid=valid.tolist(), closed_at=closed_at.tolist(), now=now)
    return Problem("gc", seed, text, answer, working)


# ---------------------------------------------------------------------------- readpoints
def _readpoints(rng: np.random.Generator, seed: int) -> Problem:
    levels = cell_levels(int(rng.integers(2, 5)))
    state = int(rng.integers(0, levels.n_states))
    # The cell's threshold voltage crosses a read reference next to its state: down (lost charge)
    # through the one below, or up (gained charge) through the one above.
    choices = [k for k in (state - 1, state) if 0 <= k < levels.n_states - 1]
    ref = int(choices[int(rng.integers(0, len(choices)))])
    misread = ref if ref == state - 1 else ref + 1
    if misread < state:
        drift = (f"Retention (charge leaking off the cell) lowers its threshold voltage below V{ref + 1}, "
                 "so it reads as")
    else:
        drift = (f"Read disturb, or interference from a neighbour's program, raises its threshold voltage "
                 f"above V{ref + 1}, so it reads as")
    names = levels.state_names
    bits = levels.gray[state]
    wrong = levels.gray[misread]
    page = int(np.flatnonzero(bits != wrong)[0])
    text = (
        f"A {levels.name} cell has {levels.n_states} states ({', '.join(names)}) read at references "
        f"V1..V{levels.n_states - 1} (Vk separates state k-1 from state k, counting {names[0]} as state 0). "
        f"The states carry the binary-reflected Gray code (state s: s XOR (s >> 1)), inverted so {names[0]} "
        f"reads all ones; page p (0 = {levels.page_names[0]}) stores bit {levels.bits - 1} - p of it, "
        "counting from the least significant.\n\n"
        f"(a) The cell is in state {names[state]}. What bit does each page ({', '.join(levels.page_names)}) read?\n"
        f"(b) {drift} {names[misread]}. Which page sees a bit error, and how many references does that "
        "page sense?"
    )
    senses = levels.senses
    refs = ", ".join(f"V{k + 1}" for k in levels.page_refs[page])
    working = (
        f"(a) {names[state]} is state {state}: Gray {state} ^ ({state} >> 1) = {state ^ (state >> 1)}, "
        f"inverted: " + ", ".join(f"{n} {b}" for n, b in zip(levels.page_names, bits)) + ".\n"
        f"(b) {names[misread]} reads " + ", ".join(f"{n} {b}" for n, b in zip(levels.page_names, wrong))
        + f": neighbouring states differ in one bit, the {levels.page_names[page]} page's. It senses "
        f"{senses[page]} reference(s) ({refs}); V{ref + 1} is one of them, and no other page's bit "
        "changes there."
    )
    answer = dict(bits=levels.bits, state=state, ref=ref, misread=misread, page_bits=bits.tolist(),
                  error_page=page, senses=int(senses[page]))
    return Problem("readpoints", seed, text, answer, working)


# ----------------------------------------------------------------------------------- ecc
def _ecc(rng: np.random.Generator, seed: int) -> Problem:
    code = EccCode(int(rng.integers(4, 121)), int(rng.choice([512, 1024, 2048])))
    target = float(rng.choice([UBER_CLIENT, UBER_ENTERPRISE]))
    limit = correctable_rber(code, target)
    factor = 1.0
    while 0.9 < factor < 1.1:  # keep clear of the limit: a quiz answer, not a rounding question
        factor = float(np.exp(rng.uniform(np.log(0.3), np.log(3.0))))
    rber = float(f"{limit * factor:.2g}")
    u = float(uber(rber, code)[0])
    ok = u <= target
    text = (
        f"A BCH code corrects t = {code.t} bit errors per codeword of {code.codeword_bytes} data bytes "
        f"({code.data_bits} data + {code.parity_bits} parity = {code.n_bits} bits). The page's raw bit "
        f"error rate is {rber:.2g}. Does it meet the UBER target {target:.0e} (JESD218 "
        f"{'client' if target == UBER_CLIENT else 'enterprise'})? UBER = P[more than t of the n bits "
        "are wrong] / data bits, with independent bit errors."
    )
    working = (
        f"P_fail = P[Binomial({code.n_bits}, {rber:.2g}) > {code.t}] = {u * code.data_bits:.3g}; "
        f"UBER = P_fail / {code.data_bits} = {u:.3g}, {'at or below' if ok else 'above'} {target:.0e}: "
        f"{'yes' if ok else 'no'}.\nThe largest RBER this code takes at that target is {limit:.3g} "
        f"(bisection on the same formula), {rber / limit:.2f} x the given rate."
    )
    answer = dict(t=code.t, codeword_bytes=code.codeword_bytes, n_bits=code.n_bits, data_bits=code.data_bits,
                  rber=rber, target=target, uber=u, meets=ok, correctable_rber=limit)
    return Problem("ecc", seed, text, answer, working)


# ------------------------------------------------------------------------------ softread
def _softread(rng: np.random.Generator, seed: int) -> Problem:
    code = EccCode(int(rng.integers(8, 121)), int(rng.choice([512, 1024, 2048])))
    rate = code.data_bits / code.n_bits
    p_cap = hard_capacity_rber(rate)
    timing = TLC_1X.timing
    page = int(rng.integers(0, 3))
    name = cell_levels(3).page_names[page]
    lat = [float(soft_read_latency_us(timing, levels)[page]) for levels in (1, 3, 7)]
    f0 = float(f"{np.exp(rng.uniform(np.log(0.01), np.log(0.6))):.2g}")
    f2 = float(f"{f0 * np.exp(rng.uniform(np.log(0.01), np.log(0.3))):.2g}")
    mean = lat[0] + f0 * lat[1] + f2 * lat[2]
    text = (
        f"An ECC spends {code.parity_bits} parity bits on each {code.data_bits} data bits. (a) Above what raw bit "
        "error rate can no code of that rate, however long, correct hard reads? (The capacity of a hard read "
        "with error rate p is 1 - H2(p) bits per bit, H2(p) = -p log2 p - (1 - p) log2(1 - p).) (b) A TLC "
        f"{name} page read takes {lat[0]:.1f} us hard, {lat[1]:.1f} us with 2 soft senses per read point and "
        f"{lat[2]:.1f} us with 6. The controller reads hard first and senses again only when the LDPC decoder "
        f"fails: the hard decode fails {100 * f0:.3g}% of frames, the 2-sense decode {100 * f2:.3g}% (every frame "
        "a soft read cannot decode failed the hard read too). What is the mean read latency?"
    )
    working = (
        f"(a) Rate R = {code.data_bits} / {code.n_bits} = {rate:.4f}. Solve 1 - H2(p) = R for p below 1/2 "
        f"(bisection; H2 rises on (0, 1/2)): p = {p_cap:.3g}. A hard read at a higher error rate carries less "
        f"than R bits per bit.\n(b) Every read costs the hard read; the {100 * f0:.3g}% that fail it add the "
        f"2-sense read, the {100 * f2:.3g}% that fail that add the 6-sense read: {lat[0]:.1f} + {f0:.3g} x "
        f"{lat[1]:.1f} + {f2:.3g} x {lat[2]:.1f} = {mean:.1f} us."
    )
    answer = dict(rate=rate, capacity_rber=p_cap, page=name, latency_us=lat, fer_hard=f0, fer_soft2=f2,
                  mean_latency_us=mean)
    return Problem("softread", seed, text, answer, working)


# --------------------------------------------------------------------------------- cliff
CLIFF_REQUESTS = 3000


def _quiz_drive(timing: str, **options) -> SsdConfig:
    """The drive the engine-timed topics run on: 64 MiB on 2 channels x 2 dies, small enough to
    set up at once and fresh, so garbage collection never runs; ``options`` are further
    :class:`~flashlab.ssd.SsdConfig` fields (page size, write cache)."""
    return SsdConfig(geometry=ssd_geometry(2**26, 0.25, channels=2, dies_per_channel=2, planes_per_die=1),
                     timing=timing, **options)


def _cliff(rng: np.random.Generator, seed: int) -> Problem:
    qd = int(rng.choice([1, 2, 4, 8, 16, 32, 64]))
    preset = str(rng.choice(["slc", "mlc", "tlc"]))
    config = _quiz_drive(preset)
    r = simulate_io(config, HostLoad(qd=qd), requests=CLIFF_REQUESTS, seed=seed, progress=False)
    latency = r.percentiles()["mean"]
    iops = qd / latency * 1e6
    measured = r.iops()
    text = (
        f"A host keeps {qd} random 4 KiB writes outstanding on a fresh {preset.upper()} SSD (closed loop: a "
        f"new write as soon as one completes). It measures a mean latency of {latency:.1f} us. "
        "How many writes per second (IOPS) does the drive complete?"
    )
    working = (
        f"Little's law, requests in the system = throughput x time in the system, gives\n"
        f"IOPS = queue depth / mean latency = {qd} / {latency:.1f} us = {iops:,.0f} IOPS.\n"
        f"The simulated drive (flashlab.ssd.simulate_io, {CLIFF_REQUESTS} writes) completed {measured:,.0f} "
        f"IOPS; the gap ({(measured / iops - 1) * 100:+.1f}%) is the last requests draining with fewer "
        "than the full queue outstanding."
    )
    answer = dict(qd=qd, preset=preset, mean_latency_us=latency, iops=iops, measured_iops=measured)
    return Problem("cliff", seed, text, answer, working)


# ---------------------------------------------------------------------------------- mix
MIX_REQUESTS = 10000  # requests each fio-like run times, after its fill (the drain at the end is 1-3% of the run)


def _mix(rng: np.random.Generator, seed: int) -> Problem:
    mix = int(rng.choice([50, 60, 70, 80, 90]))
    qd = int(rng.choice([4, 8, 16, 32]))
    write_kib = int(rng.choice([4, 16, 64, 256]))
    config = _quiz_drive("mlc")
    r = rwmix(config, rwmixread=mix, qd=qd, write_size=write_kib * 1024, requests=MIX_REQUESTS, seed=seed)
    lr, lw = r.read_latency["mean"], r.write_latency["mean"]
    f = mix / 100
    reads = littles_law_read_iops(qd, f, lr, lw)
    writes = reads * (1 - f) / f
    text = (
        f"fio runs rw=randrw with rwmixread={mix} at iodepth={qd}: 4 KiB random reads and "
        f"{write_kib} KiB random writes, each new request a read with probability {f:.2f}. It reports "
        f"a mean read latency of {lr:,.1f} us and a mean write latency of {lw:,.1f} us. How many read "
        "IOPS and how many write IOPS does it report?"
    )
    cycle = f * lr + (1 - f) * lw
    working = (
        f"The loop keeps {qd} requests in the drive; a request takes on average "
        f"{f:.2f} x {lr:,.1f} + {1 - f:.2f} x {lw:,.1f} = {cycle:,.1f} us, so by Little's law the loop completes "
        f"{qd} / {cycle:,.1f} us = {qd / cycle * 1e6:,.0f} requests a second, {f:.0%} of them reads: "
        f"{reads:,.0f} read IOPS and {writes:,.0f} write IOPS. The reads are bound to the writes: a slow "
        "write holds a slot of the queue that a read could have used.\n"
        f"The simulated drive (flashlab.db.rwmix, {MIX_REQUESTS} requests) reported {r.read_iops:,.0f} read "
        f"IOPS and {r.write_iops:,.0f} write IOPS."
    )
    answer = dict(rwmixread=mix, qd=qd, write_bytes=write_kib * 1024, read_latency_us=lr, write_latency_us=lw,
                  read_iops=reads, write_iops=writes, measured_read_iops=r.read_iops,
                  measured_write_iops=r.write_iops)
    return Problem("mix", seed, text, answer, working)


# ------------------------------------------------------------------------------ placement
def _placement(rng: np.random.Generator, seed: int) -> Problem:
    disk, flash = PRICES["disk"], PRICES["ssd320"]
    db_tb = float(rng.choice([1, 2, 4, 8, 16]))
    rate = int(rng.choice([1_000, 2_000, 5_000, 10_000, 20_000]))
    s = float(rng.choice([1.05, 1.1, 1.2, 1.3]))
    c = tier_costs(db_tb * 1e12, rate, s, disk, flash)
    n_disk, n_flash = round(c.all_disk / disk.usd), round(c.all_flash / flash.usd)
    density = rate / (db_tb * 1e3)
    cross = crossover_density(disk, flash)
    text = (
        f"A database of {db_tb:g} TB in 8 KiB blocks must serve {rate:,} random reads a second, spread "
        f"over its blocks as zipf with exponent {s:g} (block k read in proportion to k ** -{s:g}). You can "
        f"buy {disk.name} disks at ${disk.usd:,.0f} ({disk.read_iops:,.0f} random reads a second each) and "
        f"{flash.name} SSDs at ${flash.usd:,.0f} ({flash.read_iops:,.0f} reads a second each), whole "
        "drives, no RAID. What does the database cost all on disk, and all on flash? At what access "
        "density (reads a second per GB) does all-flash become the cheaper of the two? How many SSDs "
        "should cache the hottest blocks in front of disks holding all the data, and at what cost?"
    )
    working = (
        f"All disk: max({db_tb:g} TB / {disk.capacity_bytes / 1e12:g} TB, {rate:,} / {disk.read_iops:,.0f}) "
        f"rounded up = {n_disk} disks, ${c.all_disk:,.0f}. All flash: max({db_tb:g} TB / "
        f"{flash.capacity_bytes / 1e12:g} TB, {rate:,} / {flash.read_iops:,.0f}) rounded up = {n_flash} SSDs, "
        f"${c.all_flash:,.0f}.\n"
        f"Crossover: flash ${flash.usd_per_gb:.3f}/GB over disk ${disk.usd_per_iops:.3f}/IOPS = {cross:.2f} "
        f"reads a second per GB; this database needs {density:.2f}, so all-"
        f"{'flash' if density > cross else 'disk'} is the cheaper of the two (whole drives can shift a "
        "close case).\n"
        f"Tiered: k SSDs hold the hottest k x {flash.capacity_bytes / 1e9:g} GB, which take H(m, s) / H(n, s) "
        f"of the reads (m, n: hot and total blocks; H the generalized harmonic number); the disks must hold "
        f"the data and serve the rest. The cheapest k is {c.flash_devices}: the SSDs cache "
        f"{c.flash_fraction:.2%} of the blocks and serve {c.hit_fraction:.1%} of the reads, leaving "
        f"{(1 - c.hit_fraction) * rate:,.0f} a second to {c.disk_devices} disks: ${c.tiered:,.0f} "
        f"(flashlab.drives.tier_costs). Cheapest overall: {c.best.replace('_', '-')}."
    )
    answer = dict(db_bytes=db_tb * 1e12, read_iops=rate, s=s, all_disk=c.all_disk, all_flash=c.all_flash,
                  crossover=cross, tiered=c.tiered, flash_devices=c.flash_devices, disk_devices=c.disk_devices,
                  hit_fraction=c.hit_fraction, best=c.best)
    return Problem("placement", seed, text, answer, working)


# ---------------------------------------------------------------------------------- flush
FLUSH_CYCLES = 24  # flush cycles each engine run times (writes = cycles x flush cadence)


def _flush(rng: np.random.Generator, seed: int) -> Problem:
    page_kib = int(rng.choice([4, 8, 16]))
    every = int(rng.choice([1, 2, 3, 4, 5, 6, 8]))
    plp = bool(rng.random() < 0.25)
    config = _quiz_drive("mlc", nand_page_size=page_kib * 1024, cache_bytes=4 * 2**20,
                         power_loss_protection=plp)
    r = flushed_writes(config, flush_every=every, writes=FLUSH_CYCLES * every, seed=seed)
    cached_kib = 4 * every
    pages = math.ceil(cached_kib / page_kib)
    factor = 1.0 if plp else pages * page_kib / cached_kib
    protection = ("its cache is protected by capacitors that can write it out if the power fails" if plp
                  else "it has no power-loss protection")
    cadence = "every write" if every == 1 else f"every {every} writes"
    text = (
        f"A log writer writes 4 KiB at a time, sequentially, and after {cadence} it flushes (fsync) "
        f"and waits. The drive has a DRAM write cache and {page_kib} KiB NAND pages; {protection}. "
        "For every byte the log writer writes, how many bytes does the drive program into NAND (the "
        "flash-write factor, padding included)?"
    )
    if plp:
        working = (
            "The cache survives a power cut, so a flush is a no-op: the drive programs a page only when "
            "it is full, and nothing is padded. Flash-write factor 1.00.\n"
        )
    else:
        pad_kib = pages * page_kib - cached_kib
        fill = (f"which fill {pages} page(s) of {page_kib} KiB exactly, with no padding" if pad_kib == 0 else
                f"so it programs {pages} page(s) of {page_kib} KiB, the last one padded with {pad_kib} KiB")
        working = (
            f"Each flush finds {every} x 4 KiB = {cached_kib} KiB in the cache and must put it on NAND, "
            f"{fill}: {pages * page_kib} KiB programmed for {cached_kib} KiB written, a flash-write "
            f"factor of {factor:.2f}. The next write starts a new page.\n"
        )
    working += (
        f"The simulated drive (flashlab.db.flushed_writes, {FLUSH_CYCLES * every} writes) programmed "
        f"{r.flash_write_factor:.2f} bytes per byte written, and the session committed "
        f"{r.writes_per_s:,.0f} writes a second (median commit {r.commit_latency['p50']:,.0f} us)."
    )
    answer = dict(page_bytes=page_kib * 1024, flush_every=every, power_loss_protection=plp, factor=factor,
                  measured_factor=r.flash_write_factor, writes_per_s=r.writes_per_s)
    return Problem("flush", seed, text, answer, working)


# ------------------------------------------------------------------------------ logsync
LOGSYNC_COMMITS = 400  # commits each engine run times


def _logsync(rng: np.random.Generator, seed: int) -> Problem:
    sessions = int(rng.choice([1, 2, 4, 8, 16]))
    think = float(rng.choice([100.0, 200.0, 400.0]))
    r = redo_log(_quiz_drive("mlc"), sessions=sessions, commits=LOGSYNC_COMMITS, redo_bytes=2048,
                 redo_block=4096, think_us=think, seed=seed)
    commits_s = r.commit_us.size / r.elapsed_us * 1e6
    writes_s = r.write_us.size / r.elapsed_us * 1e6
    write_us = float(r.write_us.mean())
    sync_us = sessions / commits_s * 1e6 - think
    busy = writes_s * write_us / 1e6
    per_write = commits_s / writes_s
    measured = r.commit_latency["mean"]
    text = (
        f"{sessions} session(s) commit in a loop: each generates redo, commits, waits for its log file "
        f"sync, then thinks for {think:g} us on average before the next commit. The database reports "
        f"{commits_s:,.0f} commits a second, and the log writer {writes_s:,.0f} log writes a second "
        f"with a log file parallel write of {write_us:,.0f} us on average.\n\n"
        "(a) What is the mean log file sync?\n"
        "(b) What share of the time is the log writer writing, and how many commits does a log write "
        "carry?\n"
        "(c) Is the log file sync above the parallel write because of the storage, or something else?"
    )
    if sessions == 1:
        verdict = ("One session never waits for anyone else's write: its sync is its own write, and any "
                   "excess would be the time to learn the write has ended, which this model does not "
                   "charge.")
    else:
        verdict = (f"The log writer is writing {busy:.0%} of the time and a write carries {per_write:.1f} "
                   "commits: a commit that arrives during a write waits for the rest of it, then for its own. "
                   "That excess is queueing behind the storage's writes, so a faster log device would "
                   "shorten it; an excess far above twice the write with a log writer often idle would "
                   "point at CPU or polling instead.")
    working = (
        f"(a) Little's law on the loop: sessions = commits/s x (sync + think), so sync = {sessions} / "
        f"{commits_s:,.0f}/s - {think:g} us = {sync_us:,.0f} us. The engine (flashlab.db.redo_log, "
        f"{LOGSYNC_COMMITS} commits on a fresh MLC drive without a write cache) timed a mean log file sync "
        f"of {measured:,.0f} us.\n"
        f"(b) {writes_s:,.0f} writes/s x {write_us:,.0f} us = {busy:.0%} of the time; "
        f"{commits_s:,.0f} / {writes_s:,.0f} = {per_write:.1f} commits per write.\n"
        f"(c) sync / parallel write = {sync_us:,.0f} / {write_us:,.0f} = {sync_us / write_us:.2f}. " + verdict
    )
    answer = dict(sessions=sessions, think_us=think, commits_per_s=commits_s, writes_per_s=writes_s,
                  write_us=write_us, sync_us=sync_us, measured_sync_us=measured, log_writer_busy=busy,
                  commits_per_write=per_write)
    return Problem("logsync", seed, text, answer, working)


# ------------------------------------------------------------------------------- commit
COMMIT_WRITES = 200  # commits each engine run times
#: Database settings and what each sends the drive at commit (PostgreSQL's runtime-config-wal and
#: MySQL's InnoDB parameters pages; chapter 11, "Beyond Oracle").
COMMIT_SETTINGS = {
    "fdatasync": ("PostgreSQL with wal_sync_method = fdatasync (or InnoDB with "
                  "innodb_flush_log_at_trx_commit = 1 and innodb_flush_method = fsync)",
                  "the log write, then a flush"),
    "open_datasync": ("PostgreSQL with wal_sync_method = open_datasync (or InnoDB with "
                      "innodb_flush_method = O_DSYNC)", "one FUA write"),
    "innodb2": ("InnoDB with innodb_flush_log_at_trx_commit = 2",
                "nothing: the log goes to the operating system's cache, flushed about once a second"),
}


def _commit(rng: np.random.Generator, seed: int) -> Problem:
    key = str(rng.choice(["pm9a3", "f20", "850pro", "x25e"]))
    setting = str(rng.choice(list(COMMIT_SETTINGS)))
    drive = DRIVES[key]
    cfg = drive.small_config()
    says, sees = COMMIT_SETTINGS[setting]
    # what the durable settings wait for: the engine's own runs, one session, 4 KiB a commit
    flushed = flushed_writes(cfg, flush_every=1, writes=COMMIT_WRITES, seed=seed).commit_latency["mean"]
    # 512 B of redo on average: nearly every commit is one 4 KiB block, a FUA write
    fua = redo_log(cfg, sessions=1, commits=COMMIT_WRITES, redo_bytes=512, redo_block=4096, think_us=0.0,
                   seed=seed).commit_latency["mean"]
    plp = drive.plp
    ack = cfg.host.command_overhead_us + 4096 / cfg.host.link_mb_s + cfg.controller.command_us + cfg.cache_latency_us
    text = (
        f"A database on a {drive.name} ({'with' if plp else 'without'} power-loss protection) commits from "
        f"one session, 4 KiB of log a commit, running {says}.\n\n"
        "(a) What does the drive see at each commit?\n"
        "(b) What does each commit wait for, and about how long on average?\n"
        "(c) What can a power cut lose?"
    )
    wait = {"fdatasync": flushed, "open_datasync": fua, "innodb2": 0.0}[setting]
    if setting == "innodb2":
        b = (f"(b) Nothing on the drive: the commit returns once the log is in the operating system's cache "
             f"(the model has no operating system: 0 us of device time). With fdatasync it would wait "
             f"{flushed:,.0f} us, with a FUA write {fua:,.0f} us (flashlab.db.flushed_writes and redo_log).")
        c = ("(c) About the last second of returned commits, on a power cut or an operating-system crash: "
             "they were in the operating system's cache, not on the drive.")
    else:
        how = ("its DRAM, protected by capacitors, acknowledges" if plp else
               "without capacitors, the data must reach NAND: a program (the open page padded) ends")
        closed = (f" A FUA write on the idle drive by hand: command {cfg.host.command_overhead_us:g} us + 4096 B "
                  f"at {cfg.host.link_mb_s:,.0f} MB/s + controller {cfg.controller.command_us:.2f} us + cache "
                  f"{cfg.cache_latency_us:g} us = {ack:,.1f} us." if plp else "")
        b = (f"(b) Until {how}: the engine times {wait:,.0f} us a commit ({COMMIT_WRITES} commits; "
             f"write + flush {flushed:,.0f} us, FUA write {fua:,.0f} us).{closed}")
        c = ("(c) No returned commit, as long as the drive honours the flush or FUA"
             + (": the capacitors finish the programs." if plp else
                "; a drive that ignored flushes would lose the commits still in its DRAM."))
    working = f"(a) {sees[0].upper()}{sees[1:]}.\n" + b + "\n" + c
    answer = dict(drive=key, setting=setting, power_loss_protection=plp, wait_us=wait, flush_us=flushed,
                  fua_us=fua, fua_closed_us=ack if plp else math.nan)
    return Problem("commit", seed, text, answer, working)


# ---------------------------------------------------------------------------------- ispp
ISPP_STEADY = 0.02  # an increment within 2% of the step counts as the steady regime


def _ispp(rng: np.random.Generator, seed: int) -> Problem:
    cell = FG_CELL_2XNM
    while True:
        vth0 = float(rng.choice([-4.0, -3.5, -3.0, -2.5, -2.0]))
        ispp = IsppParams(v_start=float(rng.choice([14.0, 14.5, 15.0, 15.5])),
                          v_step=float(rng.choice([0.2, 0.25, 0.3, 0.4, 0.5])),
                          v_verify=float(rng.choice([1.0, 1.5, 2.0, 2.5, 3.0])),
                          max_pulses=100, t_pulse=10e-6, t_verify=10e-6)
        tr = program_cell(cell, ispp, vth0=vth0)
        step = np.diff(np.concatenate([[vth0], tr.vth]))
        steady = np.flatnonzero(np.abs(step - ispp.v_step) < ISPP_STEADY * ispp.v_step)
        if not tr.passed or steady.size == 0:
            continue
        shown = int(steady[0]) + 1  # pulses in the table: up to the first steady one
        left = (ispp.v_verify - tr.vth[shown - 1]) / ispp.v_step
        # Keep clear of a tie (the verify level a whole number of steps away), and make the
        # steady-regime estimate the engine's answer: a quiz answer, not a rounding question.
        if shown + 2 > tr.n_pulses or not 0.1 < left % 1.0 < 0.9 or shown + math.ceil(left) != tr.n_pulses:
            continue
        break
    e_per_v = cell.c_cg / Q_E
    moved = tr.electrons[-1] - float(cell.electrons(vth0))
    table = "\n".join(f"  pulse {p + 1}: {ispp.v_start + p * ispp.v_step:.2f} V -> Vth {tr.vth[p]:.3f} V"
                      for p in range(shown))
    text = (
        f"A floating-gate cell (C_CG = {cell.c_cg * 1e18:.1f} aF, so {e_per_v:.1f} electrons per volt of Vth) "
        f"starts erased at Vth {vth0:.2f} V. ISPP programs it with pulses from {ispp.v_start:.2f} V in steps of "
        f"{ispp.v_step:.2f} V, each pulse followed by a verify at {ispp.v_verify:.2f} V; a pulse and its verify "
        f"take {(ispp.t_pulse + ispp.t_verify) * 1e6:.0f} us. The first pulses give:\n{table}\n\n"
        "(a) By how much does each pulse now raise Vth, and why?\n"
        "(b) How many pulses does the cell need in all to pass verify, and how long does it take to program?\n"
        "(c) How many electrons will the program have moved onto the floating gate?"
    )
    working = (
        f"(a) The last pulse raised Vth by {step[shown - 1] * 1e3:.0f} mV, within 2% of the {ispp.v_step:.2f} V step: "
        "the steady regime, where a pulse one step higher meets a threshold one step higher, sees the same "
        "oxide field and moves the same charge, so each pulse adds one step.\n"
        f"(b) After pulse {shown} the cell is {ispp.v_verify - tr.vth[shown - 1]:.3f} V below verify, "
        f"{left:.2f} steps: {math.ceil(left)} more pulses, {tr.n_pulses} in all. The engine "
        f"(flashlab.cell.program_cell) agrees: {tr.n_pulses} pulses, final Vth {tr.vth[-1]:.3f} V, "
        f"{tr.n_pulses} x {(ispp.t_pulse + ispp.t_verify) * 1e6:.0f} us = {tr.time_us:.0f} us.\n"
        f"(c) ({tr.vth[-1]:.3f} - ({vth0:.2f})) V x {e_per_v:.1f} electrons/V = {moved:.0f} electrons."
    )
    answer = dict(vth0=vth0, v_start=ispp.v_start, v_step=ispp.v_step, v_verify=ispp.v_verify,
                  shown=tr.vth[:shown].tolist(), n_pulses=tr.n_pulses, vth_final=float(tr.vth[-1]),
                  time_us=tr.time_us, electrons_moved=moved, last_step=float(step[shown - 1]))
    return Problem("ispp", seed, text, answer, working)


# -------------------------------------------------------------------------------- wrap
def _wrap_limit(rng: np.random.Generator, seed: int) -> Problem:
    f = int(rng.integers(14, 33))
    t_ipd = float(rng.choice([9.0, 10.0, 11.0, 12.0, 13.0]))
    k = float(rng.choice([7.0, 9.0, 15.0, 20.0]))
    air = float(rng.choice([0.0, 0.5, 1.0]))
    wrapped = PlanarCell(float(f), t_ipd_nm=t_ipd, air_gap=air)
    cells = {"wrapped": wrapped, "flat, oxide": dataclasses.replace(wrapped, gate="flat"),
             f"flat, k = {k:g}": dataclasses.replace(wrapped, gate="flat", ipd_k=k)}
    rows = {name: dict(c_cg_af=c.c_cg_af, c_total_af=c.c_total_af, gate_coupling=c.gate_coupling,
                       coupling=c.coupling, electrons_tlc=c.electrons_per_state(3)) for name, c in cells.items()}
    h, t_tox = wrapped.fg_height_nm, wrapped.t_tox_nm
    text = (
        f"A planar floating-gate cell at F = {f} nm: floating gates F wide and F apart along the word line, "
        f"{h:g} nm tall, a {t_ipd:g} nm interpoly dielectric and an {t_tox:g} nm tunnel oxide. The control "
        f"gate can wrap the floating gate's sidewalls only if the slot between two floating gates holds both "
        f"walls' dielectric and {CG_POLY_MIN_NM:g} nm of gate. {100 * air:g}% of the space between word "
        "lines is air (k = 1), the rest oxide (k = 3.9). Parallel plates, e0 = "
        f"{EPS0_AF_PER_NM:.6f} aF/nm: C_CG = e0 k F (F + 2h) / t_ipd wrapped, e0 k F^2 / t_ipd flat; "
        "C_tox = e0 3.9 F^2 / t_tox; C_FG-FG = e0 h (3.9 (1 - air) + air); C_total = C_CG + C_tox + 2 C_FG-FG.\n\n"
        f"(a) Below what F does the wrap stop fitting? Does it fit at {f} nm?\n"
        f"(b) The gate coupling ratio C_CG / C_total of the wrapped cell, of a flat cell with an oxide "
        f"dielectric (k = 3.9) and of a flat cell with a high-k dielectric (k = {k:g}) of the same thickness.\n"
        "(c) The neighbour coupling C_FG-FG / C_total and the electrons between adjacent TLC states "
        f"({state_spacing_units(3) * VOLTS_PER_UNIT * 1e3:.0f} mV apart) of each."
    )
    lines = [f"(a) 2 x {t_ipd:g} + {CG_POLY_MIN_NM:g} = {wrapped.wrap_limit_nm:g} nm: the wrap "
             + ("fits." if wrapped.wrap_fits else f"does not fit at {f} nm (the wrapped row is a cell nobody could build).")]
    for name, r in rows.items():
        lines.append(f"{name}: C_CG = {r['c_cg_af']:.3f} aF, C_total = {r['c_total_af']:.3f} aF; (b) ratio "
                     f"{r['gate_coupling']:.3f}; (c) neighbour coupling {r['coupling']:.4f}, "
                     f"{r['electrons_tlc']:.1f} electrons per TLC state")
    lines.append("A high-k dielectric wins back the coupling ratio in proportion to k; the electrons per state "
                 "follow C_CG, which the flat top face alone keeps small (flashlab.tech.PlanarCell, as_built).")
    answer = dict(f=f, t_ipd=t_ipd, k=k, air=air, limit=wrapped.wrap_limit_nm, fits=wrapped.wrap_fits, rows=rows)
    return Problem("wrap", seed, text, answer, "\n".join(lines))


# -------------------------------------------------------------------------------- string
def _string3d(rng: np.random.Generator, seed: int) -> Problem:
    layers = int(rng.choice([48, 64, 96, 128, 176, 232]))
    decks = 1 if layers <= 128 else 2
    bits = int(rng.integers(3, 5))
    strings = int(rng.choice([4, 6, 8]))
    parts = int(rng.choice([1, 2, 4]))
    v = VerticalString(Stack3D(layers, decks, bits), strings_per_block=strings, sub_blocks=parts)
    st = v.stack
    text = (
        f"A 3D NAND die has {layers} word-line layers in {decks} deck{'s' if decks > 1 else ''}, each deck adding "
        f"{st.overhead_gates} dummy and select gates to every string; {bits} bits per cell, {strings} strings per "
        f"block, {v.page_bytes // 1024} KiB pages. In a read every gate of the string adds "
        f"{v.r_cell_kohm:g} kOhm of polysilicon channel, and the rest of the path {v.r_fixed_kohm:g} kOhm; the "
        f"bit line is held at {v.v_bl_v:g} V, has {v.c_bl_pf:g} pF, and the sense amplifier needs it to move "
        f"{v.sense_margin_v:g} V.\n\n"
        "(a) How many gates does the string pass, what current flows, and how long does one sense take?\n"
        f"(b) How many pages and MiB does an erase block hold, and how much does one erase clear if the block is "
        f"erased in {parts} sub-block{'s' if parts > 1 else ''} (the largest one counts)?"
    )
    mib = 2**20
    working = (
        f"(a) {layers} + {decks} x {st.overhead_gates} = {st.gates:.0f} gates; R = {v.r_fixed_kohm:g} + "
        f"{st.gates:.0f} x {v.r_cell_kohm:g} = {v.resistance_kohm:,.0f} kOhm; I = {v.v_bl_v:g} V / R = "
        f"{v.current_na:.2f} nA; t = C dV / I = {v.t_sense_us:.2f} us.\n"
        f"(b) {layers} word lines x {strings} strings x {bits} bits = {v.pages_per_block:,} pages = "
        f"{v.block_bytes / mib:.2f} MiB; one erase clears {v.erase_unit_bytes / mib:.2f} MiB "
        f"(flashlab.tech.VerticalString)."
    )
    answer = dict(layers=layers, decks=decks, bits=bits, strings=strings, parts=parts, gates=st.gates,
                  current_na=v.current_na, t_sense_us=v.t_sense_us, pages=v.pages_per_block,
                  block_mib=v.block_bytes / mib, erase_mib=v.erase_unit_bytes / mib)
    return Problem("string", seed, text, answer, working)


# -------------------------------------------------------------------------------- tprog
def _tprog(rng: np.random.Generator, seed: int) -> Problem:
    layers = int(rng.choice([32, 48, 64, 96, 128, 176, 232]))
    decks = 1 if layers <= 128 else 2
    bits = int(rng.integers(2, 4))
    page_kib = int(rng.choice([4, 8, 16]))
    v = VerticalString(Stack3D(layers, decks, bits))
    shot = program_ladder(bits, "one-shot", page_kib * 1024, seed=seed)
    paged = program_ladder(bits, "page-by-page", page_kib * 1024, seed=seed)
    st = v.stack
    passes = "; ".join(f"pass {j + 1}: {n} loops, {m} verifies" for j, (n, m) in
                       enumerate(zip(paged.loops.tolist(), paged.verifies.tolist())))
    text = (
        f"A {layers}-layer 3D NAND die ({decks} deck{'s' if decks > 1 else ''}, {st.overhead_gates} dummy and "
        f"select gates a deck) stores {bits} bits per cell. Its string passes {v.r_cell_kohm:g} kOhm a gate plus "
        f"{v.r_fixed_kohm:g} kOhm; a verify is one sense: the string current must move a {v.c_bl_pf:g} pF bit "
        f"line, held at {v.v_bl_v:g} V, by {v.sense_margin_v:g} V. Each ISPP pulse, with the word line's rise and "
        f"fall, takes {T_PULSE_US:g} us. The cell model counts, for {page_kib} KiB pages: one shot "
        f"{shot.loops[0]} loops and {shot.verifies[0]} verifies; page by page {passes}.\n\n"
        "(a) How long does one verify take?\n"
        "(b) How long does the one-shot program of a word line take, and how much of it is verifying?\n"
        "(c) How long does the same word line take page by page, and how many times the one shot is that?"
    )
    t_v = v.t_sense_us
    t_shot = shot.word_line_us(v)
    t_paged = paged.word_line_us(v)
    share = shot.verifies[0] * t_v / t_shot
    working = (
        f"(a) {layers} + {decks} x {st.overhead_gates} = {st.gates:.0f} gates; I = {v.v_bl_v:g} V / "
        f"({v.r_fixed_kohm:g} + {st.gates:.0f} x {v.r_cell_kohm:g} kOhm) = {v.current_na:.2f} nA; "
        f"t = C dV / I = {t_v:.2f} us.\n"
        f"(b) {shot.loops[0]} x {T_PULSE_US:g} + {shot.verifies[0]} x {t_v:.2f} = {t_shot:,.0f} us "
        f"({t_shot / bits:,.0f} us a page), {share:.0%} of it verifying.\n"
        f"(c) Each pass is loops x {T_PULSE_US:g} + verifies x {t_v:.2f}: "
        + " + ".join(f"{t:,.0f}" for t in paged.pass_us(t_v)) + f" = {t_paged:,.0f} us, {t_paged / t_shot:.2f} "
        "times the one shot: every pass climbs its own staircase and pays its own verifies "
        "(flashlab.tech.program_ladder)."
    )
    answer = dict(layers=layers, decks=decks, bits=bits, gates=st.gates, t_verify_us=t_v,
                  shot_loops=int(shot.loops[0]), shot_verifies=int(shot.verifies[0]), paged_loops=paged.loops.tolist(),
                  paged_verifies=paged.verifies.tolist(), t_pulse_us=T_PULSE_US, one_shot_us=t_shot,
                  paged_us=t_paged, verify_share=share)
    return Problem("tprog", seed, text, answer, working)


# -------------------------------------------------------------------------------- shrink
def _shrink(rng: np.random.Generator, seed: int) -> Problem:
    f_old = int(rng.integers(24, 41))
    f_new = int(round(f_old * float(rng.choice([0.6, 0.7, 0.8]))))
    bits = int(rng.integers(1, 4))
    dv = float(rng.choice([1.0, 2.0, 3.0]))
    cells = {f: PlanarCell(float(f)) for f in (f_old, f_new)}
    c = cells[f_old]
    spacing_v = c.window_v * state_spacing_units(bits) / WINDOW_UNITS  # the presets' state layout
    rows = {f: dict(c_cg_af=p.c_cg_af, c_tox_af=p.c_tox_af, c_fgfg_af=p.c_fgfg_af, c_total_af=p.c_total_af,
                    electrons_per_volt=p.electrons_per_volt, electrons_per_state=p.electrons_per_state(bits),
                    coupling=p.coupling, neighbour_mv=p.coupling * dv * 1e3) for f, p in cells.items()}
    text = (
        f"A planar floating-gate cell shrinks from F = {f_old} nm to {f_new} nm. Its floating gate is "
        f"{c.fg_height_nm:g} nm tall, the interpoly dielectric {c.t_ipd_nm:g} nm and the tunnel oxide "
        f"{c.t_tox_nm:g} nm thick (equivalent SiO2, e = {EPS_OX_AF_PER_NM:.4f} aF/nm), none of which "
        f"shrink, and adjacent states of a {bits}-bit cell stay {spacing_v:.3f} V apart. Parallel "
        "plates: C_CG = e F (F + 2h) / t_ipd (the control gate wraps the top and both sides), "
        "C_tox = e F^2 / t_tox, one bit-line neighbour C_FG-FG = e h (a sidewall F x h across a gap "
        "F), and C_total = C_CG + C_tox + 2 C_FG-FG.\n\n"
        f"(a) How many electrons does a volt of Vth take at each size, and how many electrons lie between "
        f"adjacent states of a {bits}-bit cell?\n"
        f"(b) A neighbour is programmed {dv:g} V higher. By how many mV does it move this cell's Vth "
        "(coupling ratio C_FG-FG / C_total) at each size?"
    )
    lines = []
    for f, r in rows.items():
        lines.append(
            f"F = {f} nm: C_CG = {r['c_cg_af']:.3f} aF, C_tox = {r['c_tox_af']:.3f} aF, C_FG-FG = "
            f"{r['c_fgfg_af']:.3f} aF, C_total = {r['c_total_af']:.3f} aF;\n"
            f"  (a) C_CG / q = {r['electrons_per_volt']:.1f} electrons per volt; {r['electrons_per_volt']:.1f} x "
            f"{spacing_v:.3f} V = {r['electrons_per_state']:.1f} electrons between states;\n"
            f"  (b) coupling {r['coupling']:.4f}, so {dv:g} V on the neighbour moves the cell "
            f"{r['neighbour_mv']:.0f} mV."
        )
    old, new = rows[f_old], rows[f_new]
    working = ("\n".join(lines) + f"\nThe shrink leaves {new['electrons_per_state'] / old['electrons_per_state']:.2f}x "
               f"the electrons per state and {new['coupling'] / old['coupling']:.2f}x the coupling: C_FG-FG does not "
               "shrink while everything else does (flashlab.tech.PlanarCell).")
    answer = dict(f_old=f_old, f_new=f_new, bits=bits, dv=dv, rows=rows)
    return Problem("shrink", seed, text, answer, working)


# -------------------------------------------------------------------------------- nand3d
def _nand3d(rng: np.random.Generator, seed: int) -> Problem:
    while True:
        layers = int(rng.choice([96, 128, 176, 200, 232, 276, 300, 400]))
        bits = int(rng.integers(3, 5))
        decks = (1, 2) if layers <= 232 else (2, int(rng.integers(3, 5)))
        stacks = {d: Stack3D(layers, d, bits) for d in decks}
        costs = {d: bit_cost(s) for d, s in stacks.items()}
        if abs(costs[decks[0]] / costs[decks[1]] - 1.0) > 0.03:  # no near-tie
            break
    s0 = stacks[decks[0]]
    rows = {d: dict(gates_per_deck=s.gates_per_deck, deck_height_um=s.deck_height_um, taper_nm=s.taper_nm,
                    hole_top_nm=s.hole_top, staircase_fraction=s.staircase_fraction,
                    density_gb_mm2=s.density_gb_mm2, bit_cost=costs[d]) for d, s in stacks.items()}
    text = (
        f"A {layers}-layer 3D NAND die stores {bits} bits per cell, with the periphery under the array. "
        f"Should its stack be etched as {decks[0]} deck(s) or {decks[1]}? Each deck holds layers/decks word lines "
        f"plus {s0.overhead_gates} dummy and select gates at {s0.wl_pitch_nm:g} nm pitch. Its channel holes "
        f"narrow by 2 H tan({s0.taper_deg:g} deg) over a deck of height H, must keep {s0.min_hole_nm:g} nm at "
        f"the bottom, and are etched at most {s0.max_aspect_ratio:g}:1 (H / top diameter); the top diameter "
        "is the smallest that does both. Holes sit on a hexagonal lattice of pitch 1.25 x the top diameter "
        f"(sqrt(3)/2 pitch^2 per hole), {s0.array_span_mm:g}-mm-wide arrays lose {s0.stair_step_um:g} um of "
        f"staircase at each end per gate, and {ARRAY_EFFICIENCY:.3f} of the array area holds cells. "
        "A wafer costs 1 + 0.012 x gates + 0.25 x decks (planar wafers).\n\n"
        "For each choice: (a) the deck height and the top hole diameter; (b) the density in Gb/mm^2; "
        "(c) the relative cost per bit (wafer cost / density). Which is cheaper per bit?"
    )
    lines = [
        f"{d} deck(s): {r['gates_per_deck']:g} gates per deck, H = {r['deck_height_um']:.2f} um; hole top "
        f"max({s0.min_hole_nm:g} + {r['taper_nm']:.1f}, {r['deck_height_um'] * 1e3:.0f} / {s0.max_aspect_ratio:g}) = "
        f"{r['hole_top_nm']:.1f} nm; staircase {r['staircase_fraction'] * 100:.1f}% of the array; density "
        f"{r['density_gb_mm2']:.2f} Gb/mm^2; cost per bit {r['bit_cost']:.4f}"
        for d, r in rows.items()
    ]
    cheaper = min(costs, key=costs.get)
    why = ("the shorter decks' narrower holes (a finer hole pitch) pay for the extra etch" if cheaper == decks[1]
           else "the extra deck's etch and gates cost more than its narrower holes save")
    working = ("\n".join(lines) + f"\nCheaper per bit: {cheaper} deck(s), "
               f"{costs[cheaper] / max(costs.values()):.2f}x the other (flashlab.tech.Stack3D and bit_cost): {why}.")
    answer = dict(layers=layers, bits=bits, decks=list(decks), rows=rows, cheaper=cheaper)
    return Problem("nand3d", seed, text, answer, working)


# --------------------------------------------------------------------------------- sweep
SWEEP_BLOCKS, SWEEP_PPB, SWEEP_FILLS = 256, 32, 4


def sweep_wa_point(op: float, policy: str, seed: int) -> dict:
    """One point of the ``sweep`` topic's grid: steady WA of a small drive under uniform writes."""
    g = Geometry(blocks_per_plane=SWEEP_BLOCKS, pages_per_block=SWEEP_PPB, op=op)
    r = simulate(g, FtlConfig(policy=policy), fills=SWEEP_FILLS, seed=seed, progress=False)
    return {"wa": r.wa_steady}


def _sweep(rng: np.random.Generator, seed: int) -> Problem:
    from flashlab.sweep import sweep  # needs the sweep extra (pandas)

    ops = sorted(float(o) for o in rng.choice([0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7], size=3, replace=False))
    root = int(rng.integers(0, 1000))
    minutes = int(rng.choice([2, 5, 10, 20]))
    workers = int(rng.choice([2, 4, 8]))
    policies = ["greedy", "fifo"]
    table = sweep(sweep_wa_point, {"op": ops, "policy": policies}, seed=root, workers=1, progress=False)
    n = len(ops) * len(policies)
    agarwal = {op: (1.0 + op) / (2.0 * op) for op in ops}
    wa = {(op, pol): float(table.loc[(op, pol), "wa"]) for op in ops for pol in policies}
    text = (
        f"flashlab.sweep runs a function over op = {', '.join(f'{o:g}' for o in ops)} (over-provisioning) x "
        f"policy = greedy, FIFO, with root seed {root}: each point simulates a drive of {SWEEP_BLOCKS} blocks "
        f"of {SWEEP_PPB} pages under uniform random writes and returns its steady write amplification.\n\n"
        f"(a) How many simulations does the sweep run? If each took {minutes} minutes, how long would the "
        f"sweep take on one process, and on {workers} workers (a point is never split between workers)?\n"
        "(b) Before running it, predict the WA at each op from Agarwal & Marrow's model, WA = (1 + op) / (2 op).\n"
        "(c) Run it: does each policy's WA fall with op as the model says, and which policy copies less? "
        "Would a second run, or one on a cluster, give the same table?"
    )
    rows = "\n".join(f"  op {op:g}: model {agarwal[op]:.2f}; greedy {wa[(op, 'greedy')]:.2f}, "
                      f"FIFO {wa[(op, 'fifo')]:.2f}" for op in ops)
    waves = -(-n // workers)
    dropping = all(wa[(a, p)] > wa[(b, p)] for p in policies for a, b in zip(ops, ops[1:]))
    falls = ("Each policy's WA falls as op grows, as the model's does." if dropping else
             "Not every step in op lowers the simulated WA here: a small drive's steady WA is noisy.")
    greedy_less = sum(wa[(op, "greedy")] <= wa[(op, "fifo")] for op in ops)
    wins = (f"Greedy copies less than FIFO at {greedy_less} of the {len(ops)} op values: it cleans the emptiest "
            "block, FIFO the oldest.")
    working = (
        f"(a) {len(ops)} x {len(policies)} = {n} points: {n * minutes} minutes on one process; on {workers} "
        f"workers {waves} round(s) of points, {waves * minutes} minutes.\n"
        f"(b, c) The engine's table (flashlab.sweep, serially here):\n{rows}\n"
        f"{falls} {wins} Each point's seed comes from the root seed and the point itself "
        "(flashlab.sweep.point_seed), not from the order or the worker, so the table is the same on any "
        "number of workers or a cluster."
    )
    answer = dict(ops=ops, policies=policies, root=root, minutes=minutes, workers=workers, n_points=n,
                  serial_minutes=n * minutes, parallel_minutes=waves * minutes, agarwal=agarwal, falls=dropping,
                  greedy_less=greedy_less,
                  wa={f"{op:g}/{pol}": v for (op, pol), v in wa.items()})
    return Problem("sweep", seed, text, answer, working)


# ------------------------------------------------------------------------------ trim
#: The trim topic's simulated device: blocks of this many pages, and this many blocks.
TRIM_PPB, TRIM_BLOCKS = 32, 2048


def _trim(rng: np.random.Generator, seed: int) -> Problem:
    raw_gib, user_gb = ((512, 480), (512, 500), (1024, 960), (1024, 1000), (2048, 1920))[int(rng.integers(0, 5))]
    live = float(rng.choice([0.4, 0.5, 0.6, 0.7, 0.8]))
    op = raw_gib * 2**30 / (user_gb * 1e9) - 1.0
    op_eff = (1.0 + op) / live - 1.0
    g = Geometry(blocks_per_plane=TRIM_BLOCKS, pages_per_block=TRIM_PPB, op=op)
    model = {t: float(wa_greedy(op_eff if t else op, TRIM_PPB)) for t in (True, False)}
    wa = {t: simulate(g, FtlConfig(), FileChurn(live, t), fills=3.0, seed=seed, progress=False).wa_steady
          for t in (True, False)}
    text = (
        f"A drive sells {user_gb} GB of user space from {raw_gib} GiB of flash. Its file system keeps "
        f"{live:.0%} of the user space live, and deletes as much as it creates.\n\n"
        "(a) What is the drive's over-provisioning, and the effective over-provisioning when the file "
        "system trims every deletion?\n"
        f"(b) Predict the write amplification of random writes with and without TRIM from Desnoyers' greedy "
        f"model for blocks of {TRIM_PPB} pages.\n"
        f"(c) Check with flashlab: simulate {TRIM_BLOCKS} blocks of {TRIM_PPB} pages at the same op under "
        "flashlab.workload.FileChurn, with and without TRIM."
    )
    working = (
        f"(a) op = {raw_gib} x 2^30 / ({user_gb} x 10^9) - 1 = {op:.3f}. With TRIM the drive holds only the "
        f"live data, {live:.0%} of the user pages, so the effective op is (1 + op) / {live:g} - 1 = "
        f"{op_eff:.3f}. Without TRIM it holds every LBA the file system ever wrote: op stays {op:.3f}.\n"
        f"(b) Greedy model: {model[True]:.2f} with TRIM, {model[False]:.2f} without.\n"
        f"(c) The engine: {wa[True]:.2f} with TRIM, {wa[False]:.2f} without ({wa[False] / wa[True]:.1f}x the "
        "flash writes for the same host writes). Its few free and open blocks hold no data, so it sits a "
        "little above the model."
    )
    answer = dict(raw_gib=raw_gib, user_gb=user_gb, live=live, op=op, op_eff=op_eff, model_trim=model[True],
                  model_plain=model[False], wa_trim=wa[True], wa_plain=wa[False])
    return Problem("trim", seed, text, answer, working)


# ----------------------------------------------------------------------------------- pacing
#: The ``pacing`` topic's draws: pages per block, the victim's valid share, a copy's and an
#: erase's time on the plane (us), and the share of time the drive spends in foreground GC.
PACING_PPB = (64, 128, 256)
PACING_VALID = (0.5, 0.6, 0.75, 0.8, 0.9)
PACING_COPY_US = (400.0, 700.0, 1000.0, 2500.0)
PACING_ERASE_US = (3000.0, 5000.0)
PACING_FG = (0.1, 0.2, 0.3)


def _pacing(rng: np.random.Generator, seed: int) -> Problem:
    ppb = int(rng.choice(PACING_PPB))
    valid = float(rng.choice(PACING_VALID))
    t_copy, t_erase = float(rng.choice(PACING_COPY_US)), float(rng.choice(PACING_ERASE_US))
    fg = float(rng.choice(PACING_FG))
    v = round(valid * ppb)
    freed = ppb - v
    job_us = v * t_copy + t_erase
    earned = freed / v
    paced_us = (v / freed) * t_copy  # the copy time behind each admitted write
    text = (
        f"A drive's collector cleans one victim at a time on a plane: blocks of {ppb} pages, each victim "
        f"holding {v} valid pages. A copy takes {t_copy:g} us of the plane and the erase {t_erase:g} us. "
        f"Random writes arrive as a Poisson stream, and the drive spends {fg:.0%} of its time in foreground "
        "GC.\n\n"
        "(a) How long does one GC job take, and how many pages does it free?\n"
        "(b) Stopped (the host waits while a job runs): what share of the writes wait for a job, and how "
        "long do they wait on average?\n"
        "(c) Paced (host writes admitted as each copy frees space): how many host writes does a copy earn, "
        "and how much of the plane's time stands behind each write admitted during a job?"
    )
    working = (
        f"(a) {v} copies x {t_copy:g} us + {t_erase:g} us = {job_us / 1e3:,.2f} ms, freeing {ppb} - {v} = "
        f"{freed} pages.\n"
        f"(b) Poisson arrivals see time averages (PASTA): {fg:.0%} of the writes arrive during a job and "
        "wait for the rest of it. A job of fixed length met at a random time has half of it left on average: "
        f"{job_us / 2e3:,.2f} ms. These waits make the write tail (the chapter's p99 under 'wait').\n"
        f"(c) Each copy earns ({ppb} - {v}) / {v} = {earned:.3f} host writes, so over the job the host writes "
        f"the {freed} pages the victim frees. Behind each admitted write stand {v} / {freed} = {v / freed:.3f} "
        f"copies, {paced_us / 1e3:,.2f} ms of the plane. The job's time is spread over every write it "
        f"admits, instead of falling on the {fg:.0%} that meet it stopped, {job_us / 2e3:,.2f} ms each on "
        "average. Writes that arrive faster than the copies earn them still queue, which is what remains "
        "of the tail (flashlab's SsdConfig(gc='foreground', foreground='throttle'); the chapter on the "
        "write cliff measures both)."
    )
    answer = dict(pages_per_block=ppb, valid=v, copy_us=t_copy, erase_us=t_erase, fg_share=fg, job_us=job_us,
                  freed=freed, wait_share=fg, mean_wait_us=job_us / 2, writes_per_copy=earned,
                  paced_wait_us=paced_us)
    return Problem("pacing", seed, text, answer, working)


# ----------------------------------------------------------------------------------- zns
#: The zoned drive of the ``zns`` topic: erase blocks and their pages, and the draws.
ZNS_BLOCKS, ZNS_PPB = 4096, 8
ZNS_ZONE_BLOCKS = (1, 2, 4, 8)
ZNS_HOST_OPS = (0.15, 0.2, 0.3)


def _zns(rng: np.random.Generator, seed: int) -> Problem:
    zone_blocks = int(rng.choice(ZNS_ZONE_BLOCKS))
    host_op = float(rng.choice(ZNS_HOST_OPS))
    g = Geometry(blocks_per_plane=ZNS_BLOCKS, pages_per_block=ZNS_PPB, op=host_op)
    z = simulate_zns(g, zone_blocks=zone_blocks, fills=4.0, seed=seed)
    model = float(wa_greedy(z.host_op, z.zone_pages))
    text = (
        f"A zoned (ZNS) drive has {ZNS_BLOCKS} erase blocks of {ZNS_PPB} pages, and each zone is "
        f"{zone_blocks} erase block(s). The host's log-structured file system keeps its live data with a "
        f"spare of op = {host_op:g} (free space over live data), overwrites pages uniformly at random and "
        "cleans with a greedy cleaner: it resets the zone with the fewest live pages after copying them "
        "to an open zone.\n\n"
        "(a) How many zones are there, of how many pages?\n"
        "(b) Predict the host's write amplification (pages it sends the drive per page the application "
        "writes) from Desnoyers' greedy model, and the drive's own.\n"
        "(c) How many pages cross the bus per application page write?\n"
        "(d) Check (b) with flashlab.ftl.simulate_zns."
    )
    bus = 1.0 + 2.0 * (z.host_wa - 1.0)
    working = (
        f"(a) {ZNS_BLOCKS} / {zone_blocks} = {z.zones} zones of {ZNS_PPB} x {zone_blocks} = {z.zone_pages} "
        "pages.\n"
        f"(b) The host's cleaner is greedy garbage collection with zones for blocks: Desnoyers' model at "
        f"op {host_op:g} and {z.zone_pages} pages per unit gives {model:.2f}. The drive copies nothing (a "
        "zone is written in order and reset whole), so its write amplification is 1.\n"
        f"(c) Each copy is read from the drive and written back: 1 + 2 x ({z.host_wa:.2f} - 1) = {bus:.2f} "
        "pages, with the engine's figure.\n"
        f"(d) The engine: {z.host_wa:.2f}, a little above the model, because the free and open zones the "
        "cleaner holds back hold no data."
    )
    answer = dict(zone_blocks=zone_blocks, host_op=host_op, zones=z.zones, zone_pages=z.zone_pages,
                  model=model, host_wa=z.host_wa, device_wa=z.device_wa, bus=bus)
    return Problem("zns", seed, text, answer, working)


# ----------------------------------------------------------------------------------- act
#: Load multiples of the ACT quiz, and shares (%) of a second's reads over 1, 8 and 64 ms drawn
#: near ACT's limits (5, 1 and 0.1%), on both sides of each.
ACT_MULTIPLES = (2, 6, 12, 24, 48)
ACT_SHARES = ((3.0, 4.9, 5.0, 6.5), (0.4, 0.9, 1.0, 1.6), (0.02, 0.05, 0.1, 0.3))
#: Latencies (us) the quiz's constructed trace gives its reads: under 1 ms, 1-8, 8-64, over 64 ms.
ACT_TRACE_US = (500.0, 2_000.0, 10_000.0, 100_000.0)


def _act(rng: np.random.Generator, seed: int) -> Problem:
    n = int(rng.choice(ACT_MULTIPLES))
    load = act_load(n)
    reads = int(load.read_iops)  # one second of them
    shares = [float(rng.choice(row)) for row in ACT_SHARES]
    over = [round(reads * sh / 100) for sh in shares]  # over 1, 8, 64 ms: nested, as ACT_SHARES' rows do not overlap
    bands = [reads - over[0], over[0] - over[1], over[1] - over[2], over[2]]
    latency = np.repeat(ACT_TRACE_US, bands)
    verdict = act_rules(np.zeros(reads), latency, slice_s=1.0)
    per_block = load.large_block_bytes // (-(-load.record_bytes // 16) * 16)
    write_mb_s = load.large_block_iops * load.large_block_bytes / 1e6
    text = (
        f"The Aerospike Certification Tool runs its storage test at {n}x: {n} x 2,000 record reads and {n} x "
        "1,000 record writes a second, records of 1,536 bytes, written in 128 KiB large blocks, with the "
        "defragmenter's low-water mark at 50%.\n\n"
        "(a) How many reads a second reach the device, how many large-block writes, and how many MB/s "
        "does it write?\n"
        f"(b) In one second of the run, of its {reads:,} reads, {over[0]:,} took over 1 ms, {over[1]:,} "
        f"over 8 ms and {over[2]:,} over 64 ms. ACT passes a slice when fewer than 5%, 1% and 0.1% of its "
        "reads are over 1, 8 and 64 ms. Does this second pass? Is each share a measurement (at least ten "
        "reads beyond its limit)?"
    )
    lines = []
    for k, (ms, lim) in enumerate(ACT_LIMITS):
        lines.append(f"  over {ms:g} ms: {over[k]:,} / {reads:,} = {verdict.share_pct[0, k]:.3f}% against "
                     f"{lim:g}% (ten reads at the limit need {math.ceil(1000 / lim):,}): {verdict.outcome[0][k]}")
    working = (
        f"(a) Reads: {n} x 2,000 = {reads:,} a second, one device read each. A 128 KiB block holds "
        f"floor(131072 / 1536) = {per_block} records (each stored in whole 16-byte units), so {n} x 1,000 "
        f"record writes fill {n * 1000 / per_block:,.2f} blocks a second; the defragmenter at a 50% low-water "
        f"mark rewrites as much again, 100 / (100 - 50) = 2x: {load.large_block_iops:,.2f} large-block writes "
        f"a second ({write_mb_s:.1f} MB/s), and as many large-block reads.\n"
        "(b) The shares, each against its limit:\n" + "\n".join(lines) + "\n"
        f"Verdict: {verdict.verdict}. A share under its limit counts only when the slice holds enough reads "
        "for ten of them to lie beyond it; ACT's hour-long slices hold millions."
    )
    answer = dict(multiple=n, read_iops=load.read_iops, large_block_iops=load.large_block_iops,
                  write_mb_s=write_mb_s, reads=reads, over=tuple(over), share_pct=tuple(verdict.share_pct[0]),
                  outcome=verdict.outcome[0], verdict=verdict.verdict)
    return Problem("act", seed, text, answer, working)


# ------------------------------------------------------------------------------ capacity
#: Drive sizes of the capacity quiz, decimal TB as drives are sold.
CAPACITY_DRIVE_TB = (0.96, 1.92, 3.84, 7.68, 15.36)


def _capacity(rng: np.random.Generator, seed: int) -> Problem:
    raid = int(rng.choice([5, 6, 10]))
    width = {5: int(rng.integers(4, 10)), 6: int(rng.integers(6, 13)), 10: 2 * int(rng.integers(2, 7))}[raid]
    groups, spares = int(rng.integers(1, 4)), int(rng.integers(0, 3))
    drives = groups * width + spares
    drive_tb = float(rng.choice(CAPACITY_DRIVE_TB))
    op = float(rng.choice([0.0, 0.07, 0.2, 0.28]))
    reserve = float(rng.choice([0.0, 0.03, 0.05, 0.1]))
    workload = str(rng.choice([w for w in DATA_REDUCTION_CLAIMS if w != "data-sheet average"]))
    low, high = DATA_REDUCTION_CLAIMS[workload]
    drr = float(rng.integers(int(low), int(high) + 1))
    c = array_capacity(drives, drive_tb * UNITS["TB"], raid=raid, group_width=width, spares=spares, op=op,
                       system_reserve=reserve, data_reduction=drr)
    layout = {5: "RAID-5", 6: "RAID-6", 10: "RAID-10 (mirrored pairs, striped)"}[raid]
    text = (
        f"An array holds {drives} drives of {drive_tb:g} TB (decimal, as sold). "
        + ("No hot spares: all of them form" if spares == 0 else
           f"{'One is a hot spare' if spares == 1 else 'Two are hot spares'}; the others form")
        + f" {groups} {layout} group(s) of {width} drives. The array keeps op = {op:g} of "
        f"over-provisioning (op = (physical - user) / user) above what RAID leaves, and then reserves "
        f"{reserve:.0%} of the rest for its own metadata. The vendor quotes effective capacity for "
        f"{workload} at {drr:g}:1 data reduction.\n\n"
        "What are the raw, usable and effective capacities, in TB and in TiB (2**40 bytes)? Which of "
        "the three can the vendor guarantee?"
    )
    rows = "\n".join(f"  {line}" for line in c.table("TB").splitlines())
    tib = lambda b: b / UNITS["TiB"]  # noqa: E731
    working = (
        f"Step by step (flashlab.array.array_capacity, TB = 10**12 bytes):\n{rows}\n"
        f"Raw {c.raw_bytes / 1e12:,.2f} TB = {tib(c.raw_bytes):,.2f} TiB; usable {c.usable_bytes / 1e12:,.2f} TB = "
        f"{tib(c.usable_bytes):,.2f} TiB; effective {c.effective_bytes / 1e12:,.2f} TB = "
        f"{tib(c.effective_bytes):,.2f} TiB.\n"
        "Only usable is guaranteed (it is the effective capacity at 1:1): effective assumes the data "
        f"reduces {drr:g}:1, which nobody knows before the data is loaded (claims for {workload} "
        f"run from {low:g}:1 to {high:g}:1)."
    )
    answer = dict(drives=drives, drive_bytes=drive_tb * UNITS["TB"], raid=raid, group_width=width, spares=spares,
                  op=op, system_reserve=reserve, data_reduction=drr, workload=workload, raw_bytes=c.raw_bytes,
                  usable_bytes=c.usable_bytes, effective_bytes=c.effective_bytes)
    return Problem("capacity", seed, text, answer, working)


def _reduction(rng: np.random.Generator, seed: int) -> Problem:
    drives = int(rng.choice([10, 12, 16, 24]))
    drive_tb = float(rng.choice(CAPACITY_DRIVE_TB))
    c = array_capacity(drives, drive_tb * UNITS["TB"], raid=6, group_width=drives, op=0.0, system_reserve=0.0)
    usable_tb = c.usable_bytes / UNITS["TB"]
    written_tb = round(float(rng.uniform(0.2, 0.6)) * usable_tb, 1)
    ratio = float(rng.choice([1.5, 2.0, 3.0, 4.0, 5.0]))
    claimed = float(rng.choice([4.0, 5.0, 6.0]))
    nxt = float(rng.choice([1.0, 1.5, 2.0]))
    occupied = written_tb / ratio
    left = usable_tb - occupied
    text = (
        f"An all-flash array of {drives} drives of {drive_tb:g} TB (decimal) in one RAID-6 group, with no "
        "spares, over-provisioning or reserve beyond RAID, holds the hosts' data with always-on "
        f"deduplication and compression. The hosts have written {written_tb:g} TB, which reduced "
        f"{ratio:g}:1.\n\n"
        "(a) How much usable capacity does the array have, how much does the data occupy, and how much "
        "usable capacity remains?\n"
        f"(b) The array's dashboard reports what remains in effective terms, at the {claimed:g}:1 its "
        "vendor assumes. What does it show?\n"
        f"(c) The next data the hosts write reduces only {nxt:g}:1. How much of it fits?\n"
        "(d) The drives have over-provisioning 0.07 and blocks of 256 pages, and the hosts rewrite their "
        "data at random. How many flash pages do the drives program per host page written now, with "
        f"the {written_tb:g} TB reducing {ratio:g}:1, and how many once the hosts have filled the array "
        f"to its effective capacity at {ratio:g}:1 (greedy GC, Desnoyers' model)?"
    )
    now = reduced_wear(ratio, written_tb / usable_tb)
    full = reduced_wear(ratio, ratio)
    working = (
        f"(a) Usable = {drives} x {drive_tb:g} TB x ({drives} - 2) / {drives} = {usable_tb:,.2f} TB "
        f"(flashlab.array.array_capacity). The data occupies {written_tb:g} / {ratio:g} = {occupied:,.2f} TB, "
        f"so {left:,.2f} TB of usable capacity remains: an exact figure, the remaining effective capacity "
        "at 1:1.\n"
        f"(b) {left:,.2f} TB x {claimed:g} = {left * claimed:,.2f} TB effective: a guess about data not yet "
        "written.\n"
        f"(c) {left:,.2f} TB x {nxt:g} = {left * nxt:,.2f} TB, {left * (claimed - nxt):,.2f} TB less than "
        "the dashboard suggested. Usable capacity remaining is the figure to plan on (flashdba's advice); "
        "an array whose reduction can be switched off per LUN lets you keep data that does not reduce out "
        "of the guess.\n"
        f"(d) The reduced data fills {now.fill:.1%} of the drives' user capacity, so their collectors have "
        f"the rest as spare: (1 + 0.07) / {now.fill:.4f} - 1 = {now.spare:.2f}, where the greedy model "
        f"gives WA {now.wa:.3f}; each host page reaches the flash as 1/{ratio:g} of a page, so "
        f"{now.wa:.3f} / {ratio:g} = {now.member_pages:.3f} flash pages per host page "
        "(flashlab.array.reduced_wear). Filled to its effective capacity, the drives are full: spare 0.07, "
        f"WA {full.wa:.2f}, and {full.wa:.2f} / {ratio:g} = {full.member_pages:.3f} pages per host page. "
        "What reduction saves the flash beyond the ratio itself lasts only while the array is not full."
    )
    answer = dict(drives=drives, drive_bytes=drive_tb * UNITS["TB"], written_tb=written_tb, ratio=ratio,
                  claimed=claimed, next_ratio=nxt, usable_tb=usable_tb, occupied_tb=occupied, remaining_tb=left,
                  reported_tb=left * claimed, fits_tb=left * nxt, spare_now=now.spare, wa_now=now.wa,
                  pages_now=now.member_pages, wa_full=full.wa, pages_full=full.member_pages)
    return Problem("reduction", seed, text, answer, working)


def _rebuild(rng: np.random.Generator, seed: int) -> Problem:
    drives = int(rng.choice([6, 8, 10, 12, 16]))
    member_tb = float(rng.choice([0.6, 2.0, 4.0, 8.0, 16.0]))
    rate = float(rng.choice([25.0, 50.0, 100.0, 200.0]))
    afr = float(rng.choice([0.0055, 0.01, 0.0157, 0.03]))
    bits = float(rng.choice([1e15, 1e16, 1e17]))
    n = drives - 1
    hours = member_tb * 1e12 / (rate * 1e6) / 3600
    lam = -math.log1p(-afr) / 8760
    r5, r6 = second_failure_probability(n, afr, hours), raid6_loss_probability(n, afr, hours)
    ure = ure_probability(n * member_tb * 1e12, bits)
    text = (
        f"A group of {drives} members of {member_tb:g} TB (decimal) has lost one. The spare is rebuilt at "
        f"{rate:g} MB/s. Each member fails independently with an annualized failure rate (AFR) of "
        f"{afr:.2%}, and reads one unrecoverable sector per {bits:.0e} bits.\n\n"
        "(a) How long does the rebuild take?\n"
        "(b) How likely is data loss during it from a second failure if the group is RAID-5, and "
        "from two more if it is RAID-6?\n"
        "(c) How likely is at least one unrecoverable read error in the RAID-5 rebuild's reads?"
    )
    working = (
        f"(a) {member_tb:g} TB / {rate:g} MB/s = {hours:,.2f} h.\n"
        f"(b) lambda = -ln(1 - {afr:g}) / 8760 h = {lam:.4e} per hour, for each of the {n} survivors. "
        f"RAID-5: 1 - exp(-{n} x lambda x {hours:,.2f} h) = {r5:.3e}. RAID-6: one member fails with "
        f"p = 1 - exp(-lambda x T); two or more of {n}: 1 - q^{n} - {n} p q^{n - 1} = {r6:.3e} "
        "(flashlab.array.second_failure_probability, raid6_loss_probability).\n"
        f"(c) The rebuild reads {n} x {member_tb:g} TB = {n * member_tb:g} TB = {n * member_tb * 8e12:.3e} bits: "
        f"1 - exp(-{n * member_tb * 8e12:.3e} / {bits:.0e}) = {ure:.3e} (flashlab.array.ure_probability). "
        "RAID-6 would rebuild such a sector from its second parity."
    )
    answer = dict(drives=drives, member_tb=member_tb, rate_mb_s=rate, afr=afr, bits_per_error=bits, hours=hours,
                  raid5_loss=r5, raid6_loss=r6, ure=ure)
    return Problem("rebuild", seed, text, answer, working)


# -------------------------------------------------------------------------------- bake
def _bake(rng: np.random.Generator, seed: int) -> Problem:
    stress = float(rng.choice([70.0, 85.0, 100.0, 125.0]))
    use = float(rng.choice([25.0, 30.0, 40.0, 55.0]))
    bake_h = float(rng.choice([24.0, 48.0, 96.0, 168.0, 500.0]))
    ea = float(rng.choice([0.6, 0.8, 1.1]))
    af = acceleration_factor(stress, use, ea)
    years = equivalent_hours(bake_h, stress, use, ea) / 8766.0
    need = bake_hours(8766.0, stress, use, ea)
    text = (
        f"A retention test bakes a block for {bake_h:g} hours at {stress:g} C. Assume the charge loss is "
        f"thermally activated with an activation energy of {ea:g} eV (Boltzmann's constant 8.617e-5 eV/K, "
        "0 C = 273.15 K), so that an hour at T_s stands for AF = exp(Ea/k (1/T_u - 1/T_s)) hours at T_u.\n\n"
        f"(a) What is the acceleration factor from {stress:g} C to a use temperature of {use:g} C?\n"
        f"(b) How many years at {use:g} C does the bake stand for (8,766 hours a year)?\n"
        f"(c) How long a bake at {stress:g} C would stand for one year at {use:g} C?"
    )
    inv = 1.0 / (use + 273.15) - 1.0 / (stress + 273.15)
    working = (
        f"(a) 1/{use + 273.15:.2f} K - 1/{stress + 273.15:.2f} K = {inv:.4e} /K; x {ea:g} / 8.617e-5 = "
        f"{ea / 8.617333262e-5 * inv:.3f}; AF = e^{ea / 8.617333262e-5 * inv:.3f} = {af:,.1f} "
        "(flashlab.cell.acceleration_factor).\n"
        f"(b) {bake_h:g} h x {af:,.1f} = {bake_h * af:,.0f} h = {years:,.2f} years at {use:g} C.\n"
        f"(c) 8,766 h / {af:,.1f} = {need:,.1f} hours at {stress:g} C.\n"
        "The answer rests on the activation energy: JESD218 practice takes 1.1 eV, while Hetzler measured "
        "SSDs accelerating far less (see the Wear chapter)."
    )
    answer = dict(stress_c=stress, use_c=use, bake_hours=bake_h, ea_ev=ea, acceleration=af, years=years,
                  bake_for_a_year_hours=need)
    return Problem("bake", seed, text, answer, working)


def _boost(rng: np.random.Generator, seed: int) -> Problem:
    r = float(rng.choice([0.6, 0.7, 0.8]))
    vcc = float(rng.choice([2.5, 3.3]))
    vth_ssl = float(rng.choice([0.7, 1.0]))
    vth_string = float(rng.choice([-2.0, -1.0, 0.0]))
    n_wl = int(rng.choice([32, 64]))
    v_pass = float(rng.choice([6.0, 7.0, 8.0, 9.0, 10.0]))
    v_pgm = float(rng.choice([18.0, 19.0, 20.0]))
    b = SelfBoosting(boost_ratio=r, v_inhibit=vcc, vth_ssl=vth_ssl, vth_string=vth_string, word_lines=n_wl)
    v_g = v_pass + (v_pgm - v_pass) / n_wl
    v_ch = b.channel_potential(v_pass, v_pgm)
    v_cut = b.channel_potential(v_pass, v_pgm, precharged=False)
    # the Vpass that boosts a cut-off channel as high: r (1 - 1/N) dVpass = precharge
    v_pass_cut = v_pass + b.precharge / (r * (1.0 - 1.0 / n_wl))
    text = (
        f"An inhibited NAND string of {n_wl} cells has its bit line at {vcc:g} V; its select transistor's "
        f"threshold is {vth_ssl:g} V. The selected word line gets a {v_pgm:g} V program pulse and the other "
        f"{n_wl - 1} word lines {v_pass:g} V. Take the boosted channel as Vch = Vpre + r (Vg - Vth_string), "
        f"with Vpre the precharge (bit-line voltage minus the select threshold), Vg the mean word-line "
        f"voltage, boosting ratio r = {r:g} and Vth_string = {vth_string:g} V.\n\n"
        "(a) What is the boosted channel potential, and what voltage does the inhibited cell on the selected "
        "word line see between gate and channel?\n"
        "(b) A programmed cell between the selected cell and the bit line cuts the precharge (Vpre = 0). "
        "What are the two figures now?\n"
        "(c) What pass voltage would boost the cut-off channel as high as in (a)?"
    )
    working = (
        f"(a) Vpre = {vcc:g} - {vth_ssl:g} = {b.precharge:g} V; Vg = {v_pass:g} + ({v_pgm:g} - {v_pass:g}) / "
        f"{n_wl} = {v_g:.4f} V; Vch = {b.precharge:g} + {r:g} x ({v_g:.4f} - ({vth_string:g})) = {v_ch:.2f} V; "
        f"the cell sees {v_pgm:g} - {v_ch:.2f} = {v_pgm - v_ch:.2f} V "
        "(flashlab.cell.SelfBoosting.channel_potential).\n"
        f"(b) Vch = {v_cut:.2f} V, and the cell sees {v_pgm - v_cut:.2f} V: {b.precharge:g} V more, a much "
        "stronger Vpgm disturb (tunnelling grows steeply with the field). This is why a block's word lines "
        "are programmed from the source side: the cells towards the bit line are then still erased.\n"
        f"(c) Vg moves by (1 - 1/{n_wl}) per volt of Vpass, so Vpass must rise by {b.precharge:g} / ({r:g} x "
        f"{1 - 1 / n_wl:.4f}) = {v_pass_cut - v_pass:.2f} V, to {v_pass_cut:.2f} V, which raises the Vpass "
        "disturb of every programmed string."
    )
    answer = dict(boost_ratio=r, v_inhibit=vcc, vth_ssl=vth_ssl, vth_string=vth_string, word_lines=n_wl,
                  v_pass=v_pass, v_pgm=v_pgm, v_channel=v_ch, v_cell=v_pgm - v_ch, v_channel_cut=v_cut,
                  v_cell_cut=v_pgm - v_cut, v_pass_cut=v_pass_cut)
    return Problem("boost", seed, text, answer, working)


TOPICS: dict[str, Callable[[np.random.Generator, int], Problem]] = {
    "ispp": _ispp,
    "shrink": _shrink,
    "wrap": _wrap_limit,
    "bake": _bake,
    "nand3d": _nand3d,
    "string": _string3d,
    "tprog": _tprog,
    "ftl": _ftl,
    "gc": _gc,
    "readpoints": _readpoints,
    "ecc": _ecc,
    "softread": _softread,
    "cliff": _cliff,
    "pacing": _pacing,
    "flush": _flush,
    "logsync": _logsync,
    "commit": _commit,
    "mix": _mix,
    "placement": _placement,
    "sweep": _sweep,
    "capacity": _capacity,
    "reduction": _reduction,
    "rebuild": _rebuild,
    "boost": _boost,
    "trim": _trim,
    "zns": _zns,
    "act": _act,
}


def make(topic: str, seed: int = 0) -> Problem:
    """A problem of ``topic`` (one of :data:`TOPICS`) drawn from ``seed``; the same seed gives
    the same problem and answer."""
    check_choice("topic", topic, tuple(TOPICS))
    check_seed("seed", seed)
    p = TOPICS[topic](np.random.default_rng([seed, 15]), seed)
    return Problem(p.topic, p.seed, _wrap(p.text), p.answer, _wrap(p.working))
