"""The quiz topics: each draws a problem from a seed and solves it with the engine.

A generator takes a NumPy ``Generator`` seeded from the quiz seed and returns a
:class:`Problem`. Where a draw would make the question ambiguous (two GC victims tied, an ECC
rate within 10% of the limit) it draws again from the same generator, so the seed still fixes
the problem.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from flashlab._validate import check_choice, check_seed
from flashlab.array.capacity import DATA_REDUCTION_CLAIMS, UNITS, array_capacity
from flashlab.cell.ecc import UBER_CLIENT, UBER_ENTERPRISE, EccCode, correctable_rber, uber
from flashlab.cell.levels import cell_levels
from flashlab.device.geometry import Geometry
from flashlab.ftl.core import PAGE_FREE, PAGE_VALID, Ftl, FtlConfig
from flashlab.ssd.sim import HostLoad, SsdConfig, simulate_io, ssd_geometry


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
    """Paragraphs wrapped at 96 columns; indented lines (tables, sequences) kept as they are."""
    return "\n".join(line if line.startswith(" ") else textwrap.fill(line, 96) for line in text.split("\n"))


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
        f"u = valid / {ppb} and age = {now} - (host writes at closing) + 1."
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
    # A read reference next to the cell's state moves past the cell's threshold voltage.
    choices = [k for k in (state - 1, state) if 0 <= k < levels.n_states - 1]
    ref = int(choices[int(rng.integers(0, len(choices)))])
    misread = ref if ref == state - 1 else ref + 1
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
        f"(b) Retention or disturb moves V{ref + 1} past the cell's threshold voltage, so it reads as "
        f"{names[misread]}. Which page sees a bit error, and how many references does that page sense?"
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


# --------------------------------------------------------------------------------- cliff
CLIFF_REQUESTS = 3000


def _cliff(rng: np.random.Generator, seed: int) -> Problem:
    qd = int(rng.choice([1, 2, 4, 8, 16, 32, 64]))
    preset = str(rng.choice(["slc", "mlc", "tlc"]))
    # 64 MiB on 2 channels x 2 dies: small enough to set up at once, fresh so GC never runs.
    config = SsdConfig(geometry=ssd_geometry(2**26, 0.25, channels=2, dies_per_channel=2, planes_per_die=1),
                       timing=preset)
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
        f"An array holds {drives} drives of {drive_tb:g} TB (decimal, as sold). {spares} of them are hot spares; "
        f"the others form {groups} {layout} group(s) of {width} drives. The array keeps op = {op:g} of "
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


TOPICS: dict[str, Callable[[np.random.Generator, int], Problem]] = {
    "ftl": _ftl,
    "gc": _gc,
    "readpoints": _readpoints,
    "ecc": _ecc,
    "cliff": _cliff,
    "capacity": _capacity,
}


def make(topic: str, seed: int = 0) -> Problem:
    """A problem of ``topic`` (one of :data:`TOPICS`) drawn from ``seed``; the same seed gives
    the same problem and answer."""
    check_choice("topic", topic, tuple(TOPICS))
    check_seed("seed", seed)
    p = TOPICS[topic](np.random.default_rng([seed, 15]), seed)
    return Problem(p.topic, p.seed, _wrap(p.text), p.answer, _wrap(p.working))
