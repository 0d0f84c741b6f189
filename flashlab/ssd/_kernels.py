"""Numba kernels of the event-driven storage timing model: any number of devices on one clock.

The FTL kernels (:mod:`flashlab.ftl._kernels`) decide *which* pages are programmed, copied and
erased; these kernels decide *when*, on which plane and channel. A device is a flash drive
(``FLASH``), a hard disk (``HDD``) or a server with a given service time per request
(``FIXED``); all of them share one event heap and one clock, and a request names its device.

Flash drive layout: the FTL sees one pool of *superblocks*: FTL block ``b`` is physical block
``b`` of every plane ("unit"), and page ``w`` of it lives on local unit ``w % U`` at page
``w // U`` of that unit's block, so consecutive writes of a frontier stripe across channels
first, then dies, then planes. Local unit ``k`` of device ``d`` is global unit
``devices.unit0[d] + k`` and sits on global channel ``devices.chan0[d] + k % channels``.
A hard disk is one unit (its actuator) and no channel; so is a FIXED server.

State (every record a NamedTuple of NumPy arrays, built by :mod:`flashlab.ssd.engine`; kernels
allocate nothing and run without numba's runtime, ``_nrt=False``). The per-device records
(``Devices``, ``Disks``) and ``Groups`` reach the kernels as one NumPy structured array each, a
field per array (``engine._packed``): ``dev.qd[d]`` reads field ``qd`` of row ``d`` either way,
and a kernel reads fewer arrays.

``Devices``   per device ``d``: parameters (geometry, timing, policies) and host-side state
              (requests inside, the waiting-request FIFOs, foreground GC state, errors).
``Units``     per global unit ``u`` (a plane, or a disk's actuator): the operation it runs
              (``kind``, ``ppn``, ``ref``), its ``stage`` (IDLE, WAITCH, XFER, ARRAY), the end of
              its array operation, a suspended operation, programs per page type.
``Channels``  per global channel ``c``: ``busy``, the unit transferring, a ring of waiting units.
``Queues``    per class (host read, host write, GC) and unit: a ring of operations
              (``kind``, ``ppn``, ``ref``, ``seq``) between ``head`` and ``tail``.
``Heap``      pending events (:mod:`flashlab._heap`), a binary min-heap on (time, push
              order) indexed by source:
              source ``u`` is unit ``u``'s array operation (or disk access), source
              ``n_units + c`` is channel ``c``'s transfer, source ``n_units + n_channels + d``
              device ``d``'s next cache acknowledgement, then each device's two front rings
              (``Front``, :func:`_front_src`), then each device's SLC idle timer
              (:func:`_idle_src`). Each source has at most one pending
              event (a unit runs one operation; a suspended one's event is *removed*;
              acknowledgements leave in order, only the oldest is scheduled; a timer cancelled
              is removed), so the heap never holds more than
              ``n_units + n_channels + 4 n_devices`` events: its size.
``Requests``  per member request ``i``: ``op``, ``lba``, ``pages``, ``device``, its host I/O
              and ``phase``, its alternates (a read rebuilt from the rest of its stripe when
              its member is collecting garbage), pages ``left``, the ``link`` of the waiting
              FIFO it sits in, ``arrival`` (issued to its member), ``start``, ``done`` (a
              cached write: acknowledged), ``durable`` (its data on NAND), ``cached``.
``Hosts``     per host I/O ``h``: the member requests it fans out into (a first phase, then a
              second one, e.g. the reads then the writes of a read-modify-write), whether it
              needs all of them or the first (``rule``), ``arrival``, ``done``. A lone drive's
              host I/O is one request.
``Jobs``      per device, the running GC job: ``victim`` (-1: none), copies and erases left,
              and the ``src``/``dst`` page of every copy.
``Groups``    GC groups: at most ``limit[g]`` devices of group ``g`` run a GC job at once (the
              hook an array layer uses to coordinate GC; group -1: no limit).
``Disks``     per device, hard disk parameters and head position (unused for flash).
``Stats``     per device counters and the sampled ``series`` (rows x NSER).
``Ftls``      the flash devices' FTL states, stacked: device ``d``'s arrays are slices of one
              set of arrays; ``_ftl(ftls, d)`` hands them (views, no allocation) to the FTL
              kernels as their usual state tuple (:mod:`flashlab.ftl._kernels`).
``Loop``      the clock ``now``, events processed, the next host I/O to issue, completions,
              and the devices ``ready`` for the next dispatch round (see :func:`_settle`).
``Cache``     per device, the DRAM write cache: capacity, dirty slots, power-loss protection,
              the acknowledgement ring, a flush waiting for the cache to drain. A hard disk's
              is its RAID controller's battery-backed cache (capacity and dirty in LBAs).
``Front``     per device, the host interface and controller in front of the NAND (flash drives
              that have them, :mod:`flashlab.ssd.frontend`): the links' and cores' "free at"
              times, the commands admitted, and two rings (into the back end; a read's data out
              to the host). Its commands wait in the host in a third waiting FIFO, ``W_FRONT``.
``Slc``       per device, its static SLC cache (drives that have one, :mod:`flashlab.ssd.slc`):
              the cache's superblocks (out of the FTL's pool, state ``B_SLC``) as a ring of
              blocks in use, free and being folded; its idle timer (``idle_since``); host slots
              written and fold copies.
``Maps``      per device, its map cache (drives whose mapping table lives on NAND,
              :mod:`flashlab.ssd.mapcache`): translation pages cached, the LRU list's ends, the
              map's NAND times, map reads and programs; ``Tpages`` per translation page of
              every such drive: its LRU links and whether it is cached (clean or dirty).

Programs of several NAND pages (``Devices.slots`` slots): with one-shot programming a unit
programs a word line's pages (one of each type) at once, and with multi-plane operations a unit
is a die whose planes program the same page (or word line) of each at once; the superblock then
stripes groups of ``slots`` slots over the units, and everything said below of a NAND page's
slots holds for such a program's. A slot's type comes from its word line (``_choose_type``).

NAND pages of several slots: the FTL maps slots (host units of ``page_size``); the ``slots``
consecutive slots of a NAND page sit on one unit, each crosses the channel as its own
operation, and the one at offset ``slots - 1`` runs the page's program (tPROG). A slot's data is
on NAND when that program ends (``_slot_on_nand``, for every slot of the page: ``owner`` says
whose). Host slots of a page reach their unit in order (one FIFO per unit), so the program
starts after the others crossed; GC copies arrive in copy-read order, so a GC page's program
may start before all its slots crossed (its timing is one tPROG per page all the same; GC data
stays valid in its victim until the erase, and GC pages are not padded).

Data in the write cache (``pending``, one flag per physical slot, kept by drives with a cache
only: a drive without one never touches it): a cached host write sets its slots' flags when the
FTL maps them (``_dispatch``), and the end of their NAND page's program clears every slot of the
page (``_finish``): until then the DRAM holds the only copy, and a host read of the slot is
served from it. A write through the cache (FUA without power-loss protection) is not in it (it
is not counted dirty either) and clears the flag, as does a padding slot (no L2P entry names
it). GC never sees a flag: a superblock becomes a victim candidate only when every program
queued into it has ended (the FTL's ``UNDONE`` count, :func:`_program_done`), so a victim's
slots are all on NAND when they are copied and when it is erased.

Life of one host write (one page, flash device, closed loop), as events:

1. ``_issue``: host I/O ``h`` starts its first phase (``_start_phase``): its request ``i``
   joins its device's write FIFO (``_issue_req``; a read with alternates aimed at a device
   that is collecting goes to them instead).
2. ``_dispatch`` (the device has room and the write gate opens): the FTL maps the page
   (``_map_host_write``), the program is queued on its unit (``_submit``); an idle unit starts it
   at once (``_start_op``) by asking for its channel (``_channel_request``): the data-in
   transfer starts (``_start_xfer``: channel event pushed) or the unit waits in the channel's
   ring.
3. Channel event (``_on_channel``): the data is in; the channel takes the next waiting unit;
   the unit's array operation starts (``_array_op``: unit event pushed at now + tPROG).
4. Unit event (``_finish``): the program is done, the unit takes its next operation
   (``_start_next``); the request has no pages left: ``_complete`` records its time; its
   host I/O is done (or starts its second phase) and the closed loop issues a replacement
   (``_settle``).

With a write cache, ``_dispatch`` admits a write while the cache has room, counts its slots
dirty and schedules its acknowledgement ``t_ack`` later (``_ack_later`` -> ``_on_ack`` ->
``_complete``): the acknowledged request is done, for its host I/O too (a RULE_ALL host I/O
counts it among its requests, a RULE_ANY one is done with it, a RULE_LEAD one if it is its first), while its programs run as above
and leave the cache (``_slot_on_nand``, which sets the request's ``durable`` time; the slots'
``pending`` flags clear with their page's program). A write that goes through (no cache; FUA
without power-loss protection) completes with its last slot on NAND and pads its NAND page
(``_pad_page``); a flush without protection pads the page too and completes when nothing is
dirty, holding the writes behind it. Flushes and FUA writes are member requests like any other,
routed to their device's write FIFO; a fixed-service member has no write cache, so a flush there
is done when dispatched; so is a hard disk's without one.
A hard disk may sit behind a battery-backed controller cache (protected, like capacitors): a
write enters while the cache has room for its LBAs, is acknowledged ``t_ack`` later, and only
then is its destage (one disk access, seek + rotation + transfer) queued on the disk; its LBAs
leave the cache and it is durable when that access ends (``_destaged``). A full cache holds the
writes behind it until a destage ends.

Life of one host read (flash device): ``_dispatch`` looks each slot up in the L2P table
(``HOST_READS`` counts every slot). An unmapped slot is answered without a flash read; a
pending one (above) is a cache hit, answered from DRAM (``Stats.cache_read_hits``); the
others are queued on their units (``K_HREAD``: sense, then the channel transfer out, counted
in ``Stats.flash_reads``). A die senses a whole NAND page into its page register at once (on
every plane with multi-plane reads; one page type at a time: ``_sense_group``): a slot that
follows the request's previous slot in the same sense group is a ``K_REGREAD``, a transfer
out of the register with no sense of its own (queued right behind the sense on the same unit,
in the read queue, which every unit serves before anything else, so nothing senses another
page in between). A GC copy read (``K_GREAD``) finds out when it starts: if the unit's
register (``Units.register``) still holds its group, it only transfers out; a program, whose
data comes in through the register, empties it. The request completes with its last slot
(``_finish``). A request
all of whose slots are hits completes ``t_ack`` after dispatch, through the acknowledgement
ring like a cached write (``_ack_later``: the ring holds at most the queue depth, since each
entry, read or write, holds one of the device's in-flight places until ``_on_ack`` completes
it; the hard disk destage in ``_on_ack`` is for disks only). A request partly in the cache
completes with its last NAND read (the DRAM part, ``t_ack``, is assumed shorter than a sense
and transfer, and is not timed). Reads pass writes still waiting to enter the device (its
read FIFO is served first), so a read of data whose write has not been admitted reads the old
data from NAND, as before. A hard disk's controller cache serves no reads: they go to the
platter.

Life of one TRIM (flash device; ``OP_TRIM``, NVMe Dataset Management deallocate or SATA
TRIM): it crosses the host interface and a controller core like any command (no data), joins
the write FIFO, and ``_dispatch`` takes it in order with the writes and flushes (``_trim``):
the FTL unmaps its LBAs and it completes at once, touching no NAND. A write queued before it
is mapped first (the TRIM wins), one queued after it maps again (the write wins); reads pass
the write FIFO as above. NVMe orders no commands in flight together; this FIFO is the order the
model picks. ``Loop.barrier`` holds the host I/Os from it on until every host I/O before it is
done (``_held``; an open loop's arrivals from it on then count from that moment,
``_barrier_passed``): a measured phase starts when its fill has ended.

Life of one GC job (flash device):

1. ``_update_gc`` (after a host write was mapped, or a job ended): free superblocks fell below
   the background or critical watermark and the device's GC group has a free slot:
   ``_start_job`` picks a victim among the closed superblocks (every program into them ended),
   remaps its valid pages to the GC frontier and queues one copy read per valid page in the GC
   queue of its unit. If every full superblock still has programs outstanding, the job waits
   (``Jobs.waiting``) and starts when the first of them closes (``_program_done``).
   ``_dispatch`` also starts a job when a host write finds the write gate shut with no job
   running (a write larger than the watermarks' free space); a member pulled into synchronised
   GC collects only if it has stale pages (``_stale``).

A fold job (a drive with an SLC cache, ``Jobs.fold``): host writes take the cache's slots while
it has one free (``_map_host_write``: page type ``SLC_TYPE``, the SLC program time). Each
dispatch round that visits the device runs its SLC timer (``_slc_tick``): when the host side
falls idle (``_host_idle``: no command inside the device or waiting) an idle period starts
(``Slc.idle_since``) and the timer's event is set ``Slc.idle_fold_us`` later; a host command
arriving ends the period and removes the event (one that came and went between two visits is
seen in the device's completion count, ``Slc.idle_done``). A fold is due (``_fold_due``), when
no job runs, once the period has lasted ``idle_fold_us`` (FOLD_IDLE: its copies go after host
I/O on every unit, as background GC's) or at once when the cache is full (FOLD_FULL: under
load, its copies go before host writes to native blocks, as foreground GC's go before host
writes, and after those into the cache, ``_pick_class``). ``_start_fold`` takes the oldest
cache block whose programs have all ended (padding an open block's partly filled program first)
and relocates its valid slots like a GC victim (``_relocate``, steps 2-4 below, fold copies
counted apart); its erase returns the block to the cache. While the device stays idle, the next
fold starts when one ends.

A drive with a map cache (``Maps.on``): ``_dispatch`` looks a host read's translation pages up
first (``_map_misses``); a miss queues a ``K_MREAD`` of the translation page on its unit (a read,
in the read queue) and the request waits; when its last map read ends, ``_read_lookup`` looks its
slots up as above. A host write's translation pages are looked up when it is mapped
(``_map_written``): a miss queues a map read the write does not wait for, and the page is dirty.
Taking a page into a full cache evicts the least recently used one (``_map_load``); a dirty one
is programmed back first (``K_MPROG``, in the write queue, counted in ``Maps.programs``).

Every ``run_events`` call ends with ``ERR_STALL`` after ``loop.budget`` events with no host I/O
done (far more than any progress needs), or when the events run out while requests still wait
in a device whose write gate is open (``_first_stuck``; nothing will ever admit them): a model
defect is an error naming a member, never a numba loop that Ctrl-C cannot stop, nor a run that
stops early in silence.
2. Unit event of each copy read (data sensed) -> channel transfer out -> channel event:
   ``_finish`` queues the copy's program on the destination unit.
3. Program of each copy: channel transfer in, array program, unit event: ``_finish`` counts it;
   the last one queues one block erase on every unit (``_queue_erases``).
4. Unit event of the last erase: the FTL erases the victim, the job ends, the group's slot is
   freed and ``_update_gc`` may start the next job on this or another device of the group.

Every function is ``@njit(cache=True)`` without a signature (importing compiles nothing).
The number of devices and their mix (flash drives, disks, FIXED servers) is data: the state's types do not
depend on it, so one compilation serves every run.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core.imputils import impl_ret_borrowed
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from flashlab import _heap as H
from flashlab._ref import ref
from flashlab.ftl import _kernels as F

# The entry kernel, run_events: called from Python, it takes the Engine by value.
_kernel = njit(cache=True, _nrt=False, error_model="numpy")
# Every other function of the event path is a callee: called only by kernels, it has no CPython
# or C-callable wrapper, and crashes if called from Python. run_events turns the Engine into a
# reference (flashlab/_ref.py) and hands that down: a callee takes the Engine or the records it
# uses as references, one machine word each, and reads ``e.units.stage[u]`` through them. Each
# callee is compiled once and LLVM inlines it where that pays; nothing is inlined at numba level.
# Measured 2026-11-29 (issue 27; empty cache, CPU s; benchmarks/bench_compile.py; events per
# second of benchmarks/bench_engine.py's cases, beside the previous engine in the same minutes,
# bit-identical by benchmarks/ssd_golden.py): the Engine passed by value, ~1,100 machine words a
# call, made numba inline ~80 helpers into run_events to avoid those calls, and the first
# simulate_io compiled in 233 s (95 s of it numba's inlining pass, 63 s typing the inlined body);
# by reference, with ordinary calls, in 44 s (bench_compile, load under 1), and the event loop ran
# 1.4-4.4x faster (not profiled: the inlined run_events was one very large function for LLVM to
# allocate registers in).
_callee = njit(cache=True, _nrt=False, error_model="numpy", no_cpython_wrapper=True, no_cfunc_wrapper=True)

# Constants are NumPy int64, not Python ints: numba types a Python int argument as a literal and
# compiles a separate copy of the callee (and of everything it calls) for each value.
def _codes(*values):
    return tuple(np.int64(v) for v in values)


# device kinds (FIXED: a server whose service time is given per request)
FLASH, HDD, FIXED = _codes(0, 1, 2)
# request ops: host (workload codes: write, read, TRIM), raw NAND operations on a physical page,
# and the cache's host commands: a flush and a FUA (force unit access) write
OP_WRITE, OP_READ, OP_TRIM, OP_RAW_READ, OP_RAW_PROG, OP_RAW_ERASE, OP_FLUSH, OP_FUA = _codes(0, 1, 2, 3, 4, 5, 6, 7)
# operation kinds on a unit (K_DISK: a hard disk access; K_PAD: a host-stream slot programmed
# with nothing valid, to close a NAND page before all its slots hold data; K_FIXED: a
# fixed-service member's request; K_SUSPEND: a program or erase running on to the point where it
# can stop, after a host read asked it to; K_REGREAD: a host read of a slot already in the page
# register, sensed there with the request's previous slot of the same NAND page; K_MREAD and
# K_MPROG: a translation page of the mapping table read or programmed, Maps)
(K_HREAD, K_HWRITE, K_GREAD, K_GPROG, K_ERASE, K_RERASE, K_DISK, K_PAD, K_FIXED, K_SUSPEND, K_REGREAD, K_MREAD,
 K_MPROG) = _codes(*range(13))
# a translation page's state in Tpages
TP_ABSENT, TP_CLEAN, TP_DIRTY = _codes(0, 1, 2)
# queue classes
Q_READ, Q_WRITE, Q_GC = _codes(0, 1, 2)
# unit stages
IDLE, WAITCH, XFER, ARRAY = _codes(*range(4))
# waiting-request FIFOs of a device (W_FRONT: commands waiting in the host for the host
# interface, drives with a Front)
W_READ, W_WRITE, W_FRONT = _codes(0, 1, 2)
# gc modes, schedulers, foreground policies
GC_OFF, GC_FG, GC_BG = _codes(0, 1, 2)
SCHED_FIFO, SCHED_READ = _codes(0, 1)
FG_WAIT, FG_THROTTLE = _codes(0, 1)
# errors (ERR_POOL: a frontier was to open from an empty free-block pool, which the FTL
# refused, flashlab.ftl._kernels._pool_take: the room checks before it failed, an engine bug)
ERR_NONE, ERR_QUEUE, ERR_NO_SPACE, ERR_HEAP, ERR_STALL, ERR_POOL = _codes(*range(6))
# series columns
(SR_TIME, SR_DONE, SR_HWRITES, SR_HPROG, SR_HREADP, SR_GCOPIES, SR_ERASES, SR_FREE, SR_FGTIME,
 SR_QUEUED, SR_FOLD, SR_MAP) = _codes(*range(12))
NSER = 12
# host I/O completion rules (RULE_LEAD: done when its first request, e.g. a write-back's mirror
# copy, is done); request phases (PH_ALT: issued only to rebuild a redirected read)
RULE_ALL, RULE_ANY, RULE_LEAD = _codes(0, 1, 2)
PH_FIRST, PH_SECOND, PH_ALT = _codes(0, 1, -1)
# columns of Stats.gc_log
GL_DEVICE, GL_START, GL_END = _codes(0, 1, 2)
MAX_BITS = 4
# the page type of a slot programmed in SLC mode (a column of Devices.t_read and t_prog after
# the part's own types)
SLC_TYPE = np.int8(MAX_BITS)
# Jobs.fold: a GC job, a fold of an idle drive, a fold of a full cache (under load)
FOLD_NONE, FOLD_IDLE, FOLD_FULL = _codes(0, 1, 2)
# FTL write streams, as int64 (a literal 0 or F.GC_STREAM would compile F._open and what it calls
# once per value, beside the int64 copy the FTL's own loop uses)
HOST_STREAM, GC_STREAM = _codes(0, F.GC_STREAM)
NO_REF = np.int64(-1)  # an operation serving no request or copy (a GC erase)
_SRC_MASK = np.int64((1 << H.SRC_BITS) - 1)  # an event's source in its heap order (flashlab._heap)


class Devices(NamedTuple):
    """Per device ``d``. Parameters first (set by the wrapper), then host-side state."""
    kind: np.ndarray          # FLASH, HDD or FIXED
    unit0: np.ndarray         # first global unit
    n_units: np.ndarray
    chan0: np.ndarray         # first global channel
    n_chans: np.ndarray
    page0: np.ndarray         # offset of its physical pages in Engine.ptype
    ppbs: np.ndarray          # pages (slots) per superblock (FTL block)
    slots: np.ndarray         # FTL pages (host units, "slots") per NAND program of a unit: a NAND
                              # page's; with one-shot programming a word line's (x bits); with
                              # multi-plane programming (a unit is a die) every plane's (x planes)
    page_slots: np.ndarray    # slots per NAND page (a page type each)
    wl_pages: np.ndarray      # NAND pages of a word line one program writes (bits with one-shot, else 1)
    bits: np.ndarray          # bits per cell = page types
    order: np.ndarray         # (D, MAX_BITS) page types, fastest program first
    slack: np.ndarray         # steering slack, programs
    steer: np.ndarray         # fast-page steering on
    sched: np.ndarray         # SCHED_FIFO or SCHED_READ
    suspend: np.ndarray       # program/erase suspension on
    gc: np.ndarray            # GC_OFF, GC_FG or GC_BG
    fg_policy: np.ndarray     # FG_WAIT or FG_THROTTLE
    gc_critical: np.ndarray   # free superblocks below which GC is foreground
    gc_background: np.ndarray  # free superblocks below which background GC runs
    group: np.ndarray         # GC group, -1 for none
    qd: np.ndarray            # most requests inside the device
    t_xfer: np.ndarray        # channel time of one page, us
    t_read: np.ndarray        # (D, MAX_BITS + 1) tR per page type (SLC_TYPE last), us
    t_prog: np.ndarray        # (D, MAX_BITS + 1) tPROG of a program per page type (SLC_TYPE: its
                              # wl_pages single pages, one SLC tPROG each), us
    t_erase: np.ndarray       # tBERS, us
    t_resume: np.ndarray      # added to a suspended operation when it resumes, us
    front: np.ndarray         # 1: its commands cross a host interface and controller first (Front)
    t_suspend: np.ndarray     # a read's wait for a program or erase to reach its suspend point, us
    inflight: np.ndarray      # requests inside the device
    waiting: np.ndarray       # requests in its waiting FIFOs
    wait_head: np.ndarray     # (D, 3) first waiting request (W_READ, W_WRITE, W_FRONT), -1 if none
    wait_tail: np.ndarray     # (D, 3) last waiting request
    stalled: np.ndarray       # its next write found the write gate shut, and nothing has happened
                              # on the device since: dispatching it again would do nothing
    fg: np.ndarray            # GC is foreground now
    tokens: np.ndarray        # throttled page writes GC has earned (float)
    fg_since: np.ndarray      # when foreground GC began, us
    fg_time: np.ndarray       # time spent in foreground GC so far, us
    err: np.ndarray           # ERR_*


class Units(NamedTuple):
    """Per global unit ``u``: a plane (or a disk's actuator)."""
    device: np.ndarray
    kind: np.ndarray          # K_* of the current operation
    ppn: np.ndarray           # its physical page (device-local), or a disk's LBA
    ref: np.ndarray           # its request (host kinds) or copy index (GC kinds)
    stage: np.ndarray         # IDLE, WAITCH, XFER or ARRAY
    end: np.ndarray           # end of the array operation, us
    suspended: np.ndarray     # holds a suspended program or erase
    s_kind: np.ndarray        # the suspended operation
    s_ppn: np.ndarray
    s_ref: np.ndarray
    s_left: np.ndarray        # its remaining array time, us
    programs: np.ndarray      # (U, MAX_BITS) programs per page type (steering)
    register: np.ndarray      # the sense group (_sense_group) its page register holds, -1: none


class Channels(NamedTuple):
    """Per global channel ``c``."""
    busy: np.ndarray
    unit: np.ndarray          # the unit transferring
    head: np.ndarray          # ring of units waiting for the channel
    tail: np.ndarray
    wait: np.ndarray          # (C, W) the ring (W >= units of any one device)


class Queues(NamedTuple):
    """Per class (Q_READ, Q_WRITE, Q_GC) and unit: a ring of ``cap[u]`` operations (its device's
    bound), stored at ``start[cls, u] ..`` of the flat arrays: a deep-queued member (an array's
    loop or mirror) sizes its own rings, not every unit's."""
    kind: np.ndarray          # (sum of 3 x cap,)
    ppn: np.ndarray
    ref: np.ndarray
    seq: np.ndarray           # arrival order (FIFO scheduling between reads and writes)
    start: np.ndarray         # (3, U) the ring's first element
    cap: np.ndarray           # (U,) its size
    head: np.ndarray          # (3, U)
    tail: np.ndarray
    next_seq: np.ndarray      # (1,)


class Requests(NamedTuple):
    """Per member request ``i`` (grouped by host I/O, in issue order)."""
    op: np.ndarray
    lba: np.ndarray           # first LBA (physical page for raw NAND ops)
    pages: np.ndarray
    device: np.ndarray
    host: np.ndarray          # the host I/O it belongs to
    phase: np.ndarray         # PH_FIRST, PH_SECOND (after the host's first phase) or PH_ALT
    alt: np.ndarray           # first of its alternates (a read rebuilt from them), -1: none
    alt_n: np.ndarray         # how many alternates
    service: np.ndarray       # service time on a FIXED member, us
    redirected: np.ndarray    # 1: served by its alternates (its member was collecting)
    left: np.ndarray          # pages still to do
    admitted: np.ndarray      # pages of a cached write taken into the write cache so far
    link: np.ndarray          # next request in the same waiting FIFO, -1 at the end
    arrival: np.ndarray       # us: issued to its member's FIFO (NaN if never)
    start: np.ndarray         # first array operation began (writes: channel asked), -1 before
    done: np.ndarray          # us, NaN until done (a cached write: acknowledged)
    durable: np.ndarray       # us, NaN until its data is on NAND (a cached write; else = done)
    cached: np.ndarray        # acknowledged by the write cache, not by its NAND programs


class Hosts(NamedTuple):
    """Per host I/O ``h``: member requests ``first .. first + n_first + n_second - 1`` (first
    phase, then second); ``RULE_ALL``: done when every request of both phases is done,
    ``RULE_ANY``: done when the first of its requests to finish is (the others, and the second
    phase, still run); ``RULE_LEAD``: done when request ``first`` is, whenever the others finish.
    A host I/O without requests (a cache hit) is done when issued. A write-back host I/O
    (``cache_pages > 0``) is RULE_LEAD (acknowledged at its copy to the mirror, its first
    request) if the write cache has room for its pages when issued (they stay dirty until all
    its requests are done), RULE_ALL otherwise."""
    first: np.ndarray
    n_first: np.ndarray
    n_second: np.ndarray
    rule: np.ndarray
    cache_pages: np.ndarray   # pages it puts in the write-back cache (0: none)
    dirty: np.ndarray         # pages of it the cache holds now
    stage: np.ndarray         # phase running (PH_FIRST, PH_SECOND)
    left: np.ndarray          # requests of that phase not yet done
    arrival: np.ndarray       # us (open loop: given; closed loop: issued)
    done: np.ndarray          # us, NaN until done


class Jobs(NamedTuple):
    """Per device, the running job: a GC job, or a fold of an SLC cache block (``fold``)."""
    victim: np.ndarray        # superblock being cleaned, -1: no job
    fold: np.ndarray          # the job folds a block of the SLC cache (Slc) into native blocks:
                              # FOLD_IDLE or FOLD_FULL (its copies before host writes); 0: GC
    waiting: np.ndarray       # 1: a job was due but every full superblock had programs outstanding
    log_row: np.ndarray       # its row of Stats.gc_log, -1: not logged
    copies_left: np.ndarray
    valid: np.ndarray         # valid pages the victim had
    erases_left: np.ndarray
    src: np.ndarray           # (D, ppbs) source page of each copy
    dst: np.ndarray           # (D, ppbs) its destination page


class Groups(NamedTuple):
    """GC groups (the cross-device GC hook)."""
    limit: np.ndarray         # most devices of the group with a running GC job
    sync: np.ndarray          # 1: synchronised (a member collects too while another does)
    active: np.ndarray        # devices of the group with a running GC job
    peak: np.ndarray          # the most that ever ran at once


class Disks(NamedTuple):
    """Per device: hard disk parameters (unused for flash). Seek over a fraction x of the stroke
    takes ``seek_track + seek_coef * sqrt(x)``; the media moves ``bytes_outer`` bytes per us at
    LBA 0 (outer edge), falling linearly to ``bytes_inner`` at the last LBA."""
    seek_track: np.ndarray    # us
    seek_coef: np.ndarray     # us
    rev: np.ndarray           # one revolution, us
    bytes_outer: np.ndarray   # bytes per us
    bytes_inner: np.ndarray
    block: np.ndarray         # bytes per LBA
    lbas: np.ndarray          # capacity in LBAs
    head: np.ndarray          # LBA under the head


class Stats(NamedTuple):
    """Per device counters and sampled series."""
    host_programs: np.ndarray
    gc_programs: np.ndarray
    gc_reads: np.ndarray
    flash_reads: np.ndarray
    senses: np.ndarray        # array reads (host and GC): a read of a slot already in the register is none
    erases: np.ndarray
    suspends: np.ndarray
    pad_programs: np.ndarray  # slots programmed with nothing valid (K_PAD)
    cache_read_hits: np.ndarray  # host read slots served from the write cache (Engine.pending)
    busy_victims: np.ndarray  # victims picked with programs into them outstanding (0: the check
                              # the tests read; the FTL's victim lists admit only closed blocks)
    done: np.ndarray
    rows: np.ndarray          # series rows filled
    series: np.ndarray        # (D, rows, NSER)
    gc_log: np.ndarray        # (L, 3) one row per GC job: GL_DEVICE, GL_START, GL_END (us)
    gc_rows: np.ndarray       # (1,) rows filled (jobs beyond L are not logged)


class Ftls(NamedTuple):
    """The FTL state of every flash device (:mod:`flashlab.ftl._kernels`), stacked. The FTL's
    per-device arrays are flat here: device ``d``'s part of ``pages`` is
    ``pages[pages_at[d]:pages_at[d + 1]]`` (its (2, physical pages) array, row-major), and so on;
    ``ctr``, ``prm`` and ``rng`` have one row per device. A disk has empty parts."""
    pages: np.ndarray         # int32, per device (2, T): P2L and STAMP of each physical page
    pages_at: np.ndarray      # (D + 1,) offsets
    l2p: np.ndarray           # int32, per device (user LBAs,)
    l2p_at: np.ndarray
    blk: np.ndarray           # int32, per device (N_BLK, blocks)
    blk_at: np.ndarray
    blk64: np.ndarray         # int64, per device (2, blocks)
    blk64_at: np.ndarray
    lists: np.ndarray         # int32, per device (2, ppb + 1)
    lists_at: np.ndarray
    ctr: np.ndarray           # int64 (D, NCTR) counters and frontiers
    prm: np.ndarray           # int64 (D, NPRM) parameters
    rng: np.ndarray           # uint64 (D, 1)


class Loop(NamedTuple):
    """The clock and the host loop (all (1,) arrays but ``ready``)."""
    now: np.ndarray           # us
    events: np.ndarray
    next: np.ndarray          # next host I/O to issue
    to_issue: np.ndarray      # host I/Os the closed loop owes (at first its queue depth, then
                              # one per completion)
    done: np.ndarray          # host I/Os done
    ready: np.ndarray         # (ceil(D / 64),) int64 bit set: bit d % 64 of word d // 64 is set
                              # when something happened on device d since the last dispatch
                              # round visited it (_wake)
    dirty: np.ndarray         # pages in the write-back cache not yet on the members
    cache_cap: np.ndarray     # its capacity, pages
    closed: np.ndarray
    sample_every: np.ndarray
    err: np.ndarray           # first error of any device
    err_device: np.ndarray
    budget: np.ndarray        # events one run_events call may process with no host I/O done
                              # (ERR_STALL beyond: a loop that makes no progress, never a hang)
    barrier: np.ndarray       # host I/O b (0: none) waits until every host I/O before it is
                              # done (_held); in an open loop, arrivals from b on count from then


class Cache(NamedTuple):
    """Per device ``d``: the DRAM write cache (``on`` 0: none; a write then is acknowledged when
    its NAND programs end). A cached write is acknowledged ``t_ack`` after it enters the device
    (acknowledgements leave in admission order, from the ring ``ring[d, head:tail]``), its slots
    are ``dirty`` until the NAND page holding them is programmed (and meanwhile serve host reads:
    ``Engine.pending``); writes wait while the cache is full. Without power-loss protection
    (``plp`` 0) a flush pads the partly filled NAND page and completes when nothing is dirty;
    writes behind it wait."""
    on: np.ndarray
    plp: np.ndarray           # power-loss protection (capacitors)
    capacity: np.ndarray      # slots it holds
    dirty: np.ndarray         # slots acknowledged, not yet on NAND
    t_ack: np.ndarray         # us from admission to acknowledgement
    flush: np.ndarray         # the flush waiting for the cache to drain, -1: none
    ring: np.ndarray          # (D, R) requests waiting for their acknowledgement
    ring_t: np.ndarray        # (D, R) their acknowledgement times, us
    head: np.ndarray
    tail: np.ndarray


class Front(NamedTuple):
    """Per device ``d``: the host interface and controller in front of the NAND back end
    (:mod:`flashlab.ssd.frontend`; ``on`` 0: none, a request enters the back end when issued).
    Both are FIFO servers of fixed service times, so each is its "free at" time: a command
    admitted at ``now`` crosses the link from ``max(now, link_in)``, then takes the first core
    free; its times to enter the back end rise with admission order, as do the times a read's
    data leaves over the link, so each path is a ring of (request, time) leaving in order, with
    one heap event (the oldest) per ring, like the write cache's acknowledgements."""
    on: np.ndarray
    max_qd: np.ndarray        # most commands admitted and not yet completed
    t_command: np.ndarray     # link time of a command's protocol exchange, us
    us_per_byte: np.ndarray   # link time of a byte of data, us
    duplex: np.ndarray        # 0: both directions share link_in (SATA)
    t_core: np.ndarray        # controller time per command on one core, us
    n_cores: np.ndarray
    t_ecc: np.ndarray         # ECC decode added to a read served from NAND, us
    page_bytes: np.ndarray    # bytes of one page (slot) of a request
    link_in: np.ndarray       # the link towards the drive is free from, us
    link_out: np.ndarray      # the link towards the host is free from, us
    core_free: np.ndarray     # (D, MAX_CORES) each core is free from, us
    admitted: np.ndarray      # commands admitted so far (inside: admitted - Stats.done)
    in_req: np.ndarray        # (D, R) commands on their way to the back end
    in_t: np.ndarray          # (D, R) when each enters it, us
    in_head: np.ndarray
    in_tail: np.ndarray
    out_req: np.ndarray       # (D, R) reads whose data is on its way to the host
    out_t: np.ndarray         # (D, R) when each is done, us
    out_head: np.ndarray
    out_tail: np.ndarray


class Slc(NamedTuple):
    """Per device ``d``: its static SLC cache (``on`` 0: none; :mod:`flashlab.ssd.slc`). The
    cache's ``n_blocks`` superblocks, ``first .. first + n_blocks - 1``, left the FTL's pool
    before the first write (state ``B_SLC``); each holds ``pages`` slots (``ppbs / bits``: its
    first ``pages`` slots, striped over the units as a native block's). They form a ring in use
    order (position ``k`` is block ``first + k``): the ``used`` blocks from position ``head``
    hold data (oldest first; the newest is open while ``wp < pages``), the ``free_blocks`` after
    them are erased, and the one after those is being folded while a fold job runs. Host writes take the cache's next slot while it has one
    (:func:`_slc_room`); a fold job copies the oldest block's valid slots to native blocks and
    erases it (:func:`_start_fold`), when due (:func:`_fold_due`). The idle timer: the host side
    has been idle since ``idle_since`` (us; -1: it is not), having completed ``idle_done``
    requests then; its event (:func:`_idle_src`) is pending from then to ``idle_fold_us`` after."""
    on: np.ndarray
    n_blocks: np.ndarray
    pages: np.ndarray         # slots an SLC superblock holds
    first: np.ndarray         # FTL block number of its first superblock
    head: np.ndarray          # ring position of the oldest block in use (folded next)
    used: np.ndarray          # blocks holding data (written, not yet folded)
    free_blocks: np.ndarray   # erased blocks ready for host writes
    wp: np.ndarray            # slots written into the newest block in use
    writes: np.ndarray        # host slots written into the cache
    fold_copies: np.ndarray   # valid slots fold jobs copied to native blocks (mapped there)
    fold_programs: np.ndarray  # their programs ended
    folds: np.ndarray         # blocks folded and erased
    idle_fold_us: np.ndarray  # idle time before a fold starts, us (SlcCache.idle_fold_us)
    idle_since: np.ndarray    # us, -1: the host side is not idle
    idle_done: np.ndarray     # Stats.done of the device when its idle period started


class Maps(NamedTuple):
    """Per device ``d``: its map cache (``on`` 0: the whole table in DRAM, no look-up costs
    NAND time; :mod:`flashlab.ssd.mapcache`). Its translation pages are ``Tpages`` rows
    ``tp0 .. tp0 + n_pages - 1``; page ``t`` maps LBAs ``t * per_page ..`` and lives on local
    unit ``t % n_units``. At most ``capacity`` are cached, in an LRU list from ``mru`` to ``lru``
    (rows, -1: empty)."""
    on: np.ndarray
    per_page: np.ndarray      # LBAs one translation page maps
    capacity: np.ndarray      # translation pages the cache holds
    tp0: np.ndarray           # its first row of Tpages
    n_pages: np.ndarray       # translation pages of its whole table
    count: np.ndarray         # translation pages cached now
    mru: np.ndarray           # row of the most recently used, -1: none
    lru: np.ndarray           # row of the least recently used (evicted next), -1: none
    t_read: np.ndarray        # tR of a translation page (SLC mode), us
    t_prog: np.ndarray        # tPROG of a translation page (SLC mode), us
    t_hit: np.ndarray         # added to a read served from NAND for its look-up (HMB: across PCIe), us
    loads: np.ndarray         # translation pages taken into the cache (misses), reads and writes
    reads: np.ndarray         # map reads done (NAND)
    programs: np.ndarray      # map programs done (dirty translation pages evicted)


class Tpages(NamedTuple):
    """Per translation page of every drive with a map cache (``Maps``): its state and LRU links."""
    state: np.ndarray         # TP_ABSENT, TP_CLEAN or TP_DIRTY
    prev: np.ndarray          # the next more recently used row, -1: none (it is the MRU)
    next: np.ndarray          # the next less recently used row, -1: none (it is the LRU)


class Engine(NamedTuple):
    devices: Devices
    units: Units
    channels: Channels
    queues: Queues
    heap: H.Heap
    requests: Requests
    hosts: Hosts
    jobs: Jobs
    groups: Groups
    disks: Disks
    stats: Stats
    loop: Loop
    cache: Cache
    ptype: np.ndarray         # int8 page type of every programmed page (device offset page0)
    owner: np.ndarray         # request whose data a slot holds, -1 padding (NAND pages of > 1 slot)
    pending: np.ndarray       # int8 per physical slot (device offset page0): 1 while the write cache
                              # holds the slot's data and its program has not ended; only devices
                              # with a cache (Cache.on) touch it (else it may have one element)
    ftls: Ftls
    front: Front
    slc: Slc
    maps: Maps
    tpages: Tpages


# ---------------------------------------------------------------- event heap
@_callee
def _heap_push(heap, err, x, t):
    """Schedule source x's event at time t (ties: first pushed, first out). A source already
    pending would break the heap's size bound (one event per source): that is flagged as
    ERR_HEAP in ``err``, never written."""
    if not H.push_fifo(heap, t, x):
        err[0] = ERR_HEAP


# ---------------------------------------------------------------- helpers
@intrinsic
def _rows(typingctx, a, rows):
    """``a.reshape((rows, a.size // rows))`` for a C-contiguous 1-D ``a`` whose size ``rows``
    divides (the caller's duty: unchecked): the same view, without numba's reshape, which calls
    a C helper (``numba_attempt_nocopy_reshape``) that cost ~8% of the event loop's time when
    :func:`_ftl` used it (4 calls a device's FTL state is handed out, several times an event)."""
    if not (isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and isinstance(rows, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        src = make_array(sig.args[0])(context, builder, args[0])
        out = make_array(sig.return_type)(context, builder)
        r = context.cast(builder, args[1], sig.args[1], types.intp)
        cols = builder.sdiv(builder.extract_value(src.shape, 0), r)
        item = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype)))
        populate_array(out, data=src.data, shape=[r, cols], strides=[builder.mul(cols, item), item],
                       itemsize=src.itemsize, meminfo=src.meminfo)
        return impl_ret_borrowed(context, builder, sig.return_type, out._getvalue())

    return a.copy(ndim=2)(a, rows), codegen


@_callee
def _ftl(f, d):
    """Device d's FTL state as the FTL kernels' tuple ``(pages, l2p, blk, blk64, lists, ctr,
    prm, rng)``: views into the stacked arrays (slicing and reshaping allocate nothing)."""
    p0, p1 = f.pages_at[d], f.pages_at[d + 1]
    b0, b1 = f.blk_at[d], f.blk_at[d + 1]
    w0, w1 = f.blk64_at[d], f.blk64_at[d + 1]
    s0, s1 = f.lists_at[d], f.lists_at[d + 1]
    return (_rows(f.pages[p0:p1], 2), f.l2p[f.l2p_at[d]:f.l2p_at[d + 1]], _rows(f.blk[b0:b1], F.N_BLK),
            _rows(f.blk64[w0:w1], 2), _rows(f.lists[s0:s1], 2), f.ctr[d], f.prm[d], f.rng[d])


@_callee
def _unit_of(dev, d, ppn):
    """Global unit holding device d's physical page ppn."""
    w = ppn % dev.ppbs[d]
    if dev.slots[d] > 1:
        w //= dev.slots[d]  # the slots of one NAND page sit on one unit
    return dev.unit0[d] + w % dev.n_units[d]


@_callee
def _fail(dev, loop, d, code):
    dev.err[d] = code
    if loop.err[0] == ERR_NONE:
        loop.err[0] = code
        loop.err_device[0] = d


@_callee
def _slot(q, cls, u, k):
    """Where operation number k of unit u's ring ``cls`` is stored in the flat arrays."""
    return q.start[cls, u] + k % q.cap[u]


@_callee
def _enqueue(q, dev, units, loop, cls, u, kind, ppn, ref):
    tail = q.tail[cls, u]
    if tail - q.head[cls, u] >= q.cap[u]:
        _fail(dev, loop, units.device[u], ERR_QUEUE)
        return
    j = _slot(q, cls, u, tail)
    q.kind[j] = kind
    q.ppn[j] = ppn
    q.ref[j] = ref
    q.seq[j] = q.next_seq[0]
    q.next_seq[0] += 1
    q.tail[cls, u] = tail + 1


@_callee
def _qlen(q, cls, u):
    return q.tail[cls, u] - q.head[cls, u]


@_callee
def _head_seq(q, cls, u):
    return q.seq[_slot(q, cls, u, q.head[cls, u])]


# ---------------------------------------------------------------- a channel transfer starts
# The unit's page register is connected to its channel: data in for a program, data out after
# a read. The channel is busy for t_xfer; its end is a channel event.
@_callee
def _start_xfer(ch, units, dev, heap, loop, c, u):
    ch.busy[c] = 1
    ch.unit[c] = u
    units.stage[u] = XFER
    end = loop.now[0] + dev.t_xfer[units.device[u]]
    _heap_push(heap, loop.err, units.device.size + c, end)


@_callee
def _channel_request(ch, units, dev, heap, loop, u):
    """Unit u needs its channel: transfer now, or wait in the channel's ring."""
    d = units.device[u]
    c = dev.chan0[d] + (u - dev.unit0[d]) % dev.n_chans[d]
    if ch.busy[c] == 0:
        _start_xfer(ch, units, dev, heap, loop, c, u)
    else:
        units.stage[u] = WAITCH
        ch.wait[c, ch.tail[c] % ch.wait.shape[1]] = u
        ch.tail[c] += 1


# ---------------------------------------------------------------- an array operation starts
# The plane senses, programs or erases (or the disk seeks, rotates and transfers) for dur;
# its end is the unit's event.
@_callee
def _array_op(units, heap, loop, u, dur):
    units.stage[u] = ARRAY
    end = loop.now[0] + dur
    units.end[u] = end
    _heap_push(heap, loop.err, u, end)


@_callee
def _disk_time(k, d, now, lba, pages):
    """Service time of disk d's access of ``pages`` LBAs at ``lba`` starting at ``now``: seek from the
    head's LBA (square-root seek curve), wait for the sector to come round (the platter turns
    continuously from angle 0 at time 0; a track holds one revolution of media bytes), read
    or write the data at the zone's media rate."""
    n = k.lbas[d]
    dist = abs(lba - k.head[d]) / n
    seek = k.seek_track[d] + k.seek_coef[d] * np.sqrt(dist) if lba != k.head[d] else 0.0
    x = lba / n
    rate = k.bytes_outer[d] - (k.bytes_outer[d] - k.bytes_inner[d]) * x
    track = rate * k.rev[d]
    target = (lba * k.block[d] % track) / track
    angle = ((now + seek) / k.rev[d]) % 1.0
    wait = ((target - angle) % 1.0) * k.rev[d]
    if k.rev[d] - wait < k.block[d] / rate:
        wait = 0.0  # the sector is (within one block: the linear zone model's rounding) under the head
    k.head[d] = lba + pages
    return seek + wait + pages * k.block[d] / rate


@_callee
def _sense_group(dev, d, ppn):
    """The slots of device d that one sense brings into a unit's page register, numbered: a
    NAND page's (a multi-plane read senses the page on every plane of the die, which are
    consecutive slots; with one-shot programming the pages of a word line are consecutive
    instead, and each page type needs a sense of its own)."""
    return ppn // (dev.slots[d] if dev.wl_pages[d] == 1 else dev.page_slots[d])


@_callee
def _start_op(e, u, kind, ppn, ref):
    """Unit u starts an operation: a read senses, a program first takes its data over the
    channel, an erase erases, a disk access seeks."""
    units, req = e.units, e.requests
    d = units.device[u]
    units.kind[u] = kind
    units.ppn[u] = ppn
    units.ref[u] = ref
    if (kind == K_HREAD or kind == K_REGREAD or kind == K_HWRITE or kind == K_RERASE or kind == K_DISK
            or kind == K_FIXED or kind == K_MREAD) and ref >= 0:
        if req.start[ref] < 0:
            req.start[ref] = e.loop.now[0]
    if kind == K_GREAD and units.register[u] == _sense_group(e.devices, d, ppn):
        # a GC copy of a slot whose NAND page is in the register (its victim's previous slot
        # was sensed with it, and nothing has used the register since): data out only
        _channel_request(e.channels, units, e.devices, e.heap, e.loop, u)
    elif kind == K_HREAD or kind == K_GREAD:
        units.register[u] = _sense_group(e.devices, d, ppn)
        e.stats.senses[d] += 1
        _array_op(units, e.heap, e.loop, u, e.devices.t_read[d, e.ptype[e.devices.page0[d] + ppn]])
    elif kind == K_MREAD:
        units.register[u] = -1  # the translation page's sense replaces the register's data
        _array_op(units, e.heap, e.loop, u, e.maps.t_read[d])
    elif kind == K_HWRITE or kind == K_GPROG or kind == K_PAD or kind == K_REGREAD or kind == K_MPROG:
        if kind != K_REGREAD:
            units.register[u] = -1  # a program's data comes in through the register
        _channel_request(e.channels, units, e.devices, e.heap, e.loop, u)
    elif kind == K_DISK:
        _array_op(units, e.heap, e.loop, u, _disk_time(e.disks, d, e.loop.now[0], ppn, req.pages[ref]))
    elif kind == K_FIXED:
        _array_op(units, e.heap, e.loop, u, req.service[ref])
    else:
        _array_op(units, e.heap, e.loop, u, e.devices.t_erase[d])


@_callee
def _pick_class(q, units, dev, jobs, ptype, u):
    """Queue class the idle unit serves next, or -1 if all are empty."""
    d = units.device[u]
    nr = _qlen(q, Q_READ, u) > 0
    nw = _qlen(q, Q_WRITE, u) > 0
    ng = _qlen(q, Q_GC, u) > 0
    if dev.sched[d] == SCHED_READ:
        if nr:
            return Q_READ
        host = Q_WRITE if nw else -1
    else:
        host = -1
        if nr and nw:
            host = Q_READ if _head_seq(q, Q_READ, u) < _head_seq(q, Q_WRITE, u) else Q_WRITE
        elif nr:
            host = Q_READ
        elif nw:
            host = Q_WRITE
    if dev.fg[d] != 0 and ng and host != Q_READ:
        return Q_GC  # foreground GC goes before host writes
    if host == Q_WRITE and ng and jobs.fold[d] == FOLD_FULL:
        # the fold of a full SLC cache goes before host writes to native blocks, whose program
        # time it shares, not before those the cache took before it filled
        if ptype[dev.page0[d] + q.ppn[_slot(q, Q_WRITE, u, q.head[Q_WRITE, u])]] != SLC_TYPE:
            return Q_GC
    if host >= 0:
        return host
    if ng:
        return Q_GC
    return -1


# ---------------------------------------------------------------- a unit takes its next operation
@_callee
def _start_next(e, u):
    """Give an idle unit its next operation, or resume its suspended one once no host read is
    queued."""
    units, q = e.units, e.queues
    if units.suspended[u]:
        if _qlen(q, Q_READ, u) > 0:
            cls = Q_READ
        else:  # resume the suspended program or erase
            units.suspended[u] = 0
            units.kind[u] = units.s_kind[u]
            units.ppn[u] = units.s_ppn[u]
            units.ref[u] = units.s_ref[u]
            _array_op(units, e.heap, e.loop, u, units.s_left[u] + e.devices.t_resume[units.device[u]])
            return
    else:
        cls = _pick_class(q, units, e.devices, e.jobs, e.ptype, u)
        if cls < 0:
            units.stage[u] = IDLE
            return
    h = q.head[cls, u]
    j = _slot(q, cls, u, h)
    if h + 1 == q.tail[cls, u]:
        # The ring is empty again: it restarts at slot 0, so that a queue holding a few
        # operations at a time stays in a few cache lines (many devices' queues share the cache).
        q.head[cls, u] = 0
        q.tail[cls, u] = 0
    else:
        q.head[cls, u] = h + 1
    _start_op(e, u, q.kind[j], q.ppn[j], q.ref[j])


# ---------------------------------------------------------------- a program or erase is suspended
# A host read reached a unit programming or erasing in its array: the operation runs on for the
# suspend latency, to the next point of its algorithm where it can stop (K_SUSPEND, an array
# operation of its own), then stops with its remaining time kept, and the unit serves the reads.
# An operation that would end within the suspend latency is not suspended: the read waits for
# it to end.
@_callee
def _maybe_suspend(e, u):
    units = e.units
    d = units.device[u]
    if (e.devices.suspend[d] == 0 or units.stage[u] != ARRAY or units.suspended[u] != 0
            or _qlen(e.queues, Q_READ, u) == 0):
        return
    k = units.kind[u]
    t_susp = e.devices.t_suspend[d]
    left = units.end[u] - e.loop.now[0]
    if (k == K_HWRITE or k == K_GPROG or k == K_PAD or k == K_ERASE or k == K_RERASE) and left > t_susp:
        units.suspended[u] = 1
        units.s_kind[u] = k
        units.s_ppn[u] = units.ppn[u]
        units.s_ref[u] = units.ref[u]
        units.s_left[u] = left - t_susp
        H.remove(e.heap, u)
        e.stats.suspends[d] += 1
        if t_susp > 0.0:
            units.kind[u] = K_SUSPEND  # its end is the suspension: then _finish starts the reads
            _array_op(units, e.heap, e.loop, u, t_susp)
        else:
            units.stage[u] = IDLE
            _start_next(e, u)


@_callee
def _submit(e, cls, u, kind, ppn, ref):
    """Queue an operation on unit u; start it at once if the unit is idle; a host read
    suspends a program or erase in its array phase when suspension is on (a read arriving
    while a program's data is still coming in over the channel, or while the program waits for
    the channel, suspends it the moment its array phase starts: see :func:`_on_channel`)."""
    _enqueue(e.queues, e.devices, e.units, e.loop, cls, u, kind, ppn, ref)
    units = e.units
    if units.stage[u] == IDLE and units.suspended[u] == 0:
        _start_next(e, u)
    elif cls == Q_READ:
        _maybe_suspend(e, u)


# ---------------------------------------------------------------- page types
@_callee
def _choose_type(dev, programs, d, u, ppn, gc):
    """Page type of a new program on unit u: its position in the block, or with fast-page
    steering the fastest type (host) / slowest type (GC) that keeps every type within a slack
    of the least-used one on that unit."""
    bits = dev.bits[d]
    if bits == 1:
        return 0
    if dev.steer[d] == 0:
        # its NAND page's index in its plane's block: the unit's programs (of dev.slots slots)
        # follow each other, each writing wl_pages pages of a word line on every plane it spans,
        # page_slots to a NAND page; a word line holds one page of each type, lower first
        w = ppn % dev.ppbs[d]
        g, ps, wl = dev.slots[d], dev.page_slots[d], dev.wl_pages[d]
        return ((w // g // dev.n_units[d]) * wl + ((w % g) // ps) % wl) % bits
    cnt = programs
    mn = cnt[u, 0]
    for k in range(1, bits):
        if cnt[u, k] < mn:
            mn = cnt[u, k]
    chosen = 0
    for j in range(bits):
        k = dev.order[d, bits - 1 - j if gc else j]
        if cnt[u, k] - mn < dev.slack[d]:
            chosen = k
            break
    cnt[u, chosen] += 1
    return chosen


@_callee
def _set_type(dev, programs, ptype, d, ppn, gc):
    """Record the page type of device d's new slot ppn in ``ptype`` (the Engine's): a NAND
    page's first slot chooses it (:func:`_choose_type`), its other slots share it."""
    i = dev.page0[d] + ppn
    if dev.page_slots[d] > 1 and ppn % dev.page_slots[d] != 0:
        ptype[i] = ptype[i - 1]
    else:
        ptype[i] = _choose_type(dev, programs, d, _unit_of(dev, d, ppn), ppn, gc)


# ---------------------------------------------------------------- FTL side: host writes
@_callee
def _slc_room(slc, d):
    """Device d's SLC cache takes a host slot now: its newest block has room, or a block is free."""
    return slc.on[d] != 0 and ((slc.used[d] > 0 and slc.wp[d] < slc.pages[d]) or slc.free_blocks[d] > 0)


@_callee
def _slc_slot(ftls, dev, slc, ptype, d):
    """Device d's next SLC cache slot (its newest block's next, or the first of the next free
    block), typed SLC_TYPE and counted as a queued program of its block: its physical page."""
    if slc.used[d] == 0 or slc.wp[d] == slc.pages[d]:
        slc.used[d] += 1
        slc.free_blocks[d] -= 1
        slc.wp[d] = 0
    b = slc.first[d] + (slc.head[d] + slc.used[d] - 1) % slc.n_blocks[d]
    ppn = b * dev.ppbs[d] + slc.wp[d]
    slc.wp[d] += 1
    _ftl(ftls, d)[2][F.UNDONE, b] += 1
    ptype[dev.page0[d] + ppn] = SLC_TYPE
    return ppn


@_callee
def _map_host_write(ftls, dev, slc, programs, ptype, d, lba):
    """Map one host page write of device d (as flashlab.ftl's _host_write, without its
    synchronous GC) into its SLC cache while that has room, else to the host frontier; returns
    the physical page. The caller has checked there is room (-1, nothing mapped, if the free
    pool had no block for a new frontier after all: the caller reports ERR_POOL)."""
    s = _ftl(ftls, d)
    l2p, blk, ctr = s[1], s[2], s[5]
    cached = _slc_room(slc, d)
    if not cached and F._room(s, HOST_STREAM) == 0:
        F._open(s, HOST_STREAM)
        if ctr[F.FRONT] < 0:
            return NO_REF
    old = l2p[lba]
    if old >= 0:
        F._invalidate(s, old)
    if cached:
        ppn = _slc_slot(ftls, dev, slc, ptype, d)
        slc.writes[d] += 1
    else:
        F._queue_program(s, HOST_STREAM)
        f = ctr[F.FRONT]
        ppn = f * s[6][F.P_PPB] + blk[F.WP, f]
        _set_type(dev, programs, ptype, d, ppn, False)
    hw = ctr[F.HOST_WRITES]
    stamp = np.int32(np.int64(hw) & 0xFFFFFFFF)
    if cached:
        F._place(s, ppn, lba, stamp)
    else:
        F._program(s, HOST_STREAM, lba, stamp)
    ctr[F.HOST_WRITES] = hw + 1
    return ppn


# ---------------------------------------------------------------- GC picks a victim
# The job remaps the victim's valid pages to the GC frontier at once (the FTL's _relocate
# without the erase) and queues one copy read per page; the erase comes when all are copied.
@_callee
def _queue_erases(e, d):
    dev = e.devices
    n = dev.n_units[d]
    e.jobs.erases_left[d] = n
    base = e.jobs.victim[d] * dev.ppbs[d]
    for k in range(n):
        _submit(e, Q_GC, dev.unit0[d] + k, K_ERASE, base + k, NO_REF)


@_callee
def _start_job(e, d):
    """Device d's GC job: pick a victim among the closed superblocks and relocate it."""
    s = _ftl(e.ftls, d)
    job = e.jobs
    blk, ctr = s[2], s[5]
    v = F._pick_victim(s)
    job.waiting[d] = v < 0 and ctr[F.FULL_BLOCKS] > 0  # then _program_done restarts it
    if v < 0:
        return
    if blk[F.UNDONE, v] > 0:
        e.stats.busy_victims[d] += 1
    if not F._can_relocate(s, v):
        _fail(e.devices, e.loop, d, ERR_NO_SPACE)
        return
    lst = F._list_of(s, v)
    if lst >= 0:
        F._list_remove(s, lst, v)
    blk[F.STATE, v] = F.B_FREE  # being cleaned: in no list and not in the pool until erased
    st = e.stats
    row = st.gc_rows[0]
    job.log_row[d] = -1
    if row < st.gc_log.shape[0]:
        st.gc_rows[0] = row + 1
        job.log_row[d] = row
        st.gc_log[row, GL_DEVICE] = d
        st.gc_log[row, GL_START] = e.loop.now[0]
        st.gc_log[row, GL_END] = np.nan
    ctr[F.LAST_VICTIM] = v
    _relocate(e, d, v, s[6][F.P_PPB])


@_callee
def _relocate(e, d, v, n):
    """The device's job (GC, or a fold: ``Jobs.fold``) takes victim v: remaps the valid pages
    among its first ``n`` to the GC frontier and queues a copy read of each (the erase comes
    when all are copied, at once if none is valid)."""
    s = _ftl(e.ftls, d)
    job = e.jobs
    pages, blk, ctr, ppb = s[0], s[2], s[5], s[6][F.P_PPB]
    job.victim[d] = v
    g = e.devices.group[d]
    if g >= 0:
        e.groups.active[g] += 1
        e.groups.peak[g] = max(e.groups.peak[g], e.groups.active[g])
    base = v * ppb
    j = 0
    for i in range(n):
        lba = pages[F.P2L, base + i]
        if lba >= 0:
            if F._room(s, GC_STREAM) == 0:
                F._open(s, GC_STREAM)
                if ctr[F.FRONT + GC_STREAM] < 0:  # the pool was empty after all
                    _fail(e.devices, e.loop, d, ERR_POOL)
                    return
            F._queue_program(s, GC_STREAM)
            f = ctr[F.FRONT + GC_STREAM]
            dst = f * ppb + blk[F.WP, f]
            _set_type(e.devices, e.units.programs, e.ptype, d, dst, True)
            F._program(s, GC_STREAM, lba, pages[F.STAMP, base + i])
            if job.fold[d] != 0:
                e.slc.fold_copies[d] += 1
            else:
                ctr[F.GC_COPIES] += 1
            job.src[d, j] = base + i
            job.dst[d, j] = dst
            j += 1
    job.copies_left[d] = j
    job.valid[d] = j
    for k in range(j):
        src = job.src[d, k]
        _submit(e, Q_GC, _unit_of(e.devices, d, src), K_GREAD, src, k)
    if j == 0:
        _queue_erases(e, d)


# ---------------------------------------------------------------- the SLC cache folds
@_callee
def _host_idle(dev, fr, st, d):
    """No host command is inside device d (past its host interface too) or waiting for it."""
    if dev.inflight[d] != 0 or dev.waiting[d] != 0:
        return False
    return fr.on[d] == 0 or fr.admitted[d] == st.done[d]


@_callee
def _idle_src(e, d):
    """Heap source of device d's SLC idle timer: after every front ring (:func:`_front_src`)."""
    return e.units.device.size + e.channels.busy.size + 3 * e.devices.kind.size + d


@_callee
def _fold_due(slc, jobs, loop, d):
    """Device d folds a block of its SLC cache now (FOLD_IDLE or FOLD_FULL), or not (FOLD_NONE):
    the cache holds data, no job runs, and the cache is full, or the device has been idle for
    ``idle_fold_us``."""
    if slc.used[d] == 0 or jobs.victim[d] >= 0 or loop.err[0] != ERR_NONE:
        return FOLD_NONE
    if not _slc_room(slc, d):
        return FOLD_FULL
    if slc.idle_since[d] >= 0 and loop.now[0] >= slc.idle_since[d] + slc.idle_fold_us[d]:
        return FOLD_IDLE
    return FOLD_NONE


@_callee
def _slc_tick(e, d):
    """Device d (with an SLC cache) after a dispatch round visited it: its idle period starts
    (timer event ``idle_fold_us`` ahead, if the cache holds data) or ends (event removed), and a
    fold starts if one is due (:func:`_fold_due`)."""
    slc, loop = e.slc, e.loop
    done = e.stats.done[d]
    src = _idle_src(e, d)
    if _host_idle(e.devices, e.front, e.stats, d):
        if slc.idle_since[d] < 0 or slc.idle_done[d] != done:  # idle from now on
            H.remove(e.heap, src)
            slc.idle_since[d] = loop.now[0]
            slc.idle_done[d] = done
            if slc.used[d] > 0:
                _heap_push(e.heap, loop.err, src, loop.now[0] + slc.idle_fold_us[d])
    elif slc.idle_since[d] >= 0:  # a host command arrived: the wait starts again when it is done
        slc.idle_since[d] = -1.0
        H.remove(e.heap, src)
    fold = _fold_due(slc, e.jobs, loop, d)
    if fold != FOLD_NONE:
        _start_fold(e, d, fold)


@_callee
def _start_fold(e, d, fold):
    """Device d folds its SLC cache's oldest block (``fold``: FOLD_IDLE or FOLD_FULL, the job's
    ``Jobs.fold``): a job (:func:`_relocate`) copies its valid
    slots to native blocks, then erases it back into the cache (:func:`_end_job`). It waits
    while programs into the block are outstanding (an open block's partly filled program is
    padded, so that it ends) or while the native blocks lack room for its data."""
    slc = e.slc
    s = _ftl(e.ftls, d)
    b = slc.first[d] + slc.head[d]
    if s[2][F.UNDONE, b] > 0 or (slc.used[d] == 1 and slc.wp[d] % e.devices.slots[d] != 0):
        # programs into the block are outstanding, or it is the open block and its last NAND page
        # is partly filled (a slot there has no program yet: folding it now would leave that
        # slot dirty in the write cache for ever): pad that page and wait for its program
        if slc.used[d] == 1:
            _pad_slc(e, d)
        return
    if not F._can_relocate(s, b):
        return
    slc.head[d] = (slc.head[d] + 1) % slc.n_blocks[d]
    slc.used[d] -= 1
    e.jobs.fold[d] = fold
    e.jobs.log_row[d] = -1  # the GC log records GC jobs
    _relocate(e, d, b, slc.pages[d])


@_callee
def _sync_due(dev, groups, ctr, d):
    """Flash device d is in a synchronised GC group where another member is collecting, and
    has fewer than twice its background watermark of free superblocks (Harmonia: Kim et al.
    2011 collect on every SSD of the array when one must)."""
    g = dev.group[d]
    if g < 0 or groups.sync[g] == 0 or groups.active[g] == 0 or dev.gc[d] == GC_OFF:
        return False
    return ctr[d, F.FREE_BLOCKS] < 2 * dev.gc_background[d]


@_callee
def _update_gc(dev, jobs, groups, ctr, loop, d):
    """Foreground state from the free-block count. Returns True when a GC job is due and the
    device's GC group has a free slot: the caller then runs :func:`_start_jobs` (a kernel
    taking the Engine, called only then: this check runs after every host write)."""
    mode = dev.gc[d]
    if mode == GC_OFF:
        return False
    _wake(dev, loop, d)
    free = ctr[d, F.FREE_BLOCKS]
    fg = free < dev.gc_critical[d]
    if fg and dev.fg[d] == 0:
        dev.fg[d] = 1
        dev.tokens[d] = 0.0
        dev.fg_since[d] = loop.now[0]
    elif not fg and dev.fg[d] != 0:
        dev.fg[d] = 0
        dev.fg_time[d] += loop.now[0] - dev.fg_since[d]
    if jobs.victim[d] < 0 and loop.err[0] == ERR_NONE:
        g = dev.group[d]
        if fg or (mode == GC_BG and free < dev.gc_background[d]) or _sync_due(dev, groups, ctr, d):
            return g < 0 or groups.active[g] < groups.limit[g]
    return False


@_callee
def _stale(ftls, d):
    """Flash device d holds a closed superblock with stale pages: a GC job there frees space. A
    member pulled into synchronised GC collects only then; otherwise jobs that copy whole
    victims and gain nothing would pull each other in for ever (a drive whose free superblocks
    cannot reach twice its background watermark, as after a drain)."""
    s = _ftl(ftls, d)
    blk = s[2]
    ppb = s[6][F.P_PPB]
    for b in range(blk.shape[1]):
        if blk[F.STATE, b] == F.B_CLOSED and blk[F.VALID, b] < ppb:
            return True
    return False


@_callee
def _start_jobs(e, d):
    """Start device d's GC job (:func:`_update_gc` found one due; due only by synchronisation,
    when it has room to gain) and, in a synchronised GC group, those of the other members with
    room to gain."""
    dev, groups = e.devices, e.groups
    free = e.ftls.ctr[d, F.FREE_BLOCKS]
    own = free < dev.gc_critical[d] or (dev.gc[d] == GC_BG and free < dev.gc_background[d])
    if own or _stale(e.ftls, d):
        _start_job(e, d)
    g = dev.group[d]
    if g >= 0 and groups.sync[g] != 0:
        # synchronised GC: the members of the group with room to gain collect now too
        for d2 in range(dev.kind.size):
            if (d2 != d and dev.group[d2] == g and e.jobs.victim[d2] < 0
                    and _sync_due(dev, groups, e.ftls.ctr, d2)
                    and groups.active[g] < groups.limit[g] and e.loop.err[0] == ERR_NONE and _stale(e.ftls, d2)):
                _start_job(e, d2)


# ---------------------------------------------------------------- host requests
@_callee
def _write_gate(ftls, dev, d, k):
    """True if a host write of k pages may enter flash device d now."""
    s = _ftl(ftls, d)
    ppb = s[6][F.P_PPB]
    room = F._room(s, HOST_STREAM)
    free = s[5][F.FREE_BLOCKS]
    if dev.gc[d] == GC_OFF:
        return room + free * ppb >= k
    if room + max(0, free - 1) * ppb < k:  # the last free block is kept for GC
        return False
    if dev.fg[d] != 0:
        if dev.fg_policy[d] == FG_WAIT:
            return False
        if dev.tokens[d] < k:
            return False
        dev.tokens[d] -= k
    return True


@_callee
def _streaming(dev, req, d):
    """Device d's first waiting write is partly in the cache (it holds a place in the queue)."""
    w = dev.wait_head[d, W_WRITE]
    return w >= 0 and req.admitted[w] > 0


@_callee
def _sample(e, d, now):
    """A row of device d's series."""
    st, dev, ctr = e.stats, e.devices, e.ftls.ctr
    row = st.rows[d]
    if row >= st.series.shape[1]:
        return
    st.rows[d] = row + 1
    out = st.series[d, row]
    out[SR_TIME] = now
    out[SR_DONE] = st.done[d]
    out[SR_HPROG] = st.host_programs[d]
    out[SR_HREADP] = st.flash_reads[d]
    out[SR_GCOPIES] = st.gc_programs[d]
    out[SR_ERASES] = st.erases[d]
    if dev.kind[d] == FLASH:
        out[SR_HWRITES] = ctr[d, F.HOST_WRITES]
        out[SR_FREE] = ctr[d, F.FREE_BLOCKS]
    fgt = dev.fg_time[d]
    if dev.fg[d] != 0:
        fgt += now - dev.fg_since[d]
    out[SR_FGTIME] = fgt
    # a write streaming into the cache is in flight and still waiting: count it once
    out[SR_QUEUED] = dev.inflight[d] + dev.waiting[d] - (1 if _streaming(dev, e.requests, d) else 0)
    out[SR_FOLD] = e.slc.fold_copies[d]
    out[SR_MAP] = e.maps.programs[d]


@_callee
def _host_settled(hs, loop, h):
    """Every request of host I/O h is done: its dirty pages leave the write cache; done now if
    not already."""
    loop.dirty[0] -= hs.dirty[h]
    hs.dirty[h] = 0
    if np.isnan(hs.done[h]):
        _host_done(hs, loop, h)


@_callee
def _host_done(hs, loop, h):
    hs.done[h] = loop.now[0]
    loop.done[0] += 1
    if loop.closed[0]:
        loop.to_issue[0] += 1  # the closed loop replaces it (issued by _settle, no recursion)


@_callee
def _issue_req(dev, req, hs, jobs, loop, i):
    """Member request i joins its device's FIFO; a read with alternates aimed at a device that
    is collecting garbage is redirected: its alternates (the rest of its stripe) go instead."""
    d = req.device[i]
    if req.op[i] == OP_READ and req.alt[i] >= 0 and jobs.victim[d] >= 0:
        req.redirected[i] = 1
        hs.left[req.host[i]] += req.alt_n[i] - 1
        for j in range(req.alt[i], req.alt[i] + req.alt_n[i]):
            _push_req(dev, req, loop, j)
    else:
        _push_req(dev, req, loop, i)


@_callee
def _fifo_of(op):
    """The waiting FIFO of a request's op in its device: writes, FUA writes, flushes and TRIMs
    share W_WRITE (served in arrival order: a TRIM unmaps after a write queued before it, and a
    write queued after it maps again); reads and raw NAND operations go to W_READ."""
    return W_WRITE if op == OP_WRITE or op == OP_FLUSH or op == OP_FUA or op == OP_TRIM else W_READ


@_callee
def _push_req(dev, req, loop, i):
    req.arrival[i] = loop.now[0]
    op = req.op[i]
    d = req.device[i]
    _wake(dev, loop, d)  # an arrival may open its write gate
    w = _fifo_of(op)
    if dev.front[d] != 0:
        w = W_FRONT  # it crosses the host interface and the controller first (_front_admit)
    _wait_push(dev, req, d, w, i)


@_callee
def _start_phase(dev, req, hs, jobs, loop, h, ph):
    """Issue phase ``ph`` of host I/O h (a host I/O with nothing left to issue is done)."""
    if ph == PH_FIRST and hs.n_first[h] == 0:
        ph = PH_SECOND  # nothing to do first
    a = hs.first[h]
    k = hs.n_first[h]
    if ph == PH_SECOND:
        a += k
        k = hs.n_second[h]
    hs.stage[h] = ph
    hs.left[h] = k
    if k == 0:
        _host_settled(hs, loop, h)
        return
    for i in range(a, a + k):
        _issue_req(dev, req, hs, jobs, loop, i)


@_callee
def _complete(e, d, i):
    """Request i of device d is done (a cached write: acknowledged, which is done for its host
    I/O too); so is its host I/O when this was the first to finish (RULE_ANY), its leading request
    (RULE_LEAD) or its last (RULE_ALL);
    a finished first phase starts the second."""
    dev, req, hs, jobs, st, loop = e.devices, e.requests, e.hosts, e.jobs, e.stats, e.loop
    req.done[i] = loop.now[0]
    if req.cached[i] == 0:
        req.durable[i] = req.done[i]
    dev.inflight[d] -= 1
    st.done[d] += 1
    every = loop.sample_every[0]
    if every > 0 and st.done[d] % every == 0:
        _sample(e, d, loop.now[0])
    h = req.host[i]
    hs.left[h] -= 1
    if (hs.rule[h] == RULE_ANY or (hs.rule[h] == RULE_LEAD and i == hs.first[h])) and np.isnan(hs.done[h]):
        _host_done(hs, loop, h)
    if hs.left[h] == 0:
        if hs.stage[h] == PH_FIRST and hs.n_second[h] > 0:
            _start_phase(dev, req, hs, jobs, loop, h, PH_SECOND)
        else:
            _host_settled(hs, loop, h)


@_callee
def _wait_push(dev, req, d, w, i):
    req.link[i] = -1
    t = dev.wait_tail[d, w]
    if t < 0:
        dev.wait_head[d, w] = i
    else:
        req.link[t] = i
    dev.wait_tail[d, w] = i
    dev.waiting[d] += 1


@_callee
def _wait_pop(dev, req, d, w):
    i = dev.wait_head[d, w]
    nxt = req.link[i]
    dev.wait_head[d, w] = nxt
    if nxt < 0:
        dev.wait_tail[d, w] = -1
    dev.waiting[d] -= 1
    return i


# ---------------------------------------------------------------- the write cache
@_callee
def _ack_src(units, channels, d):
    """Heap source of device d's acknowledgements (after every unit and channel)."""
    return units.device.size + channels.busy.size + d


@_callee
def _ack_later(c, units, channels, heap, loop, d, i):
    """Request i entered device d's cache ``c`` (a cached write, a flush it acknowledges, a read it
    serves whole): acknowledge it t_ack from now. Acknowledgements leave in admission order, one
    heap event (the oldest) per device; the ring holds at most the device's queue depth (each
    holds one of its in-flight places until acknowledged), its size."""
    r = c.ring.shape[1]
    t = loop.now[0] + c.t_ack[d]
    c.ring[d, c.tail[d] % r] = i
    c.ring_t[d, c.tail[d] % r] = t
    if c.head[d] == c.tail[d]:
        _heap_push(heap, loop.err, _ack_src(units, channels, d), t)
    c.tail[d] += 1


@_callee
def _on_ack(e, d):
    """Device d's cache acknowledges its oldest admitted request."""
    c = e.cache
    r = c.ring.shape[1]
    i = c.ring[d, c.head[d] % r]
    c.head[d] += 1
    if c.head[d] < c.tail[d]:
        _heap_push(e.heap, e.loop.err, _ack_src(e.units, e.channels, d), c.ring_t[d, c.head[d] % r])
    _read_done(e, d, i, False)  # a write or flush: complete; a read served by the cache: sent
    if e.devices.kind[d] == HDD and e.requests.op[i] != OP_FLUSH:
        # the data is in the controller's DRAM: destaging it to the platter may start
        _submit(e, Q_WRITE, e.devices.unit0[d], K_DISK, e.requests.lba[i], i)


@_callee
def _destaged(cache, req, loop, d, i):
    """Disk d's controller cache wrote request i's data to the platter: durable, and its blocks
    leave the cache (a write waiting for room may enter: the unit's event woke the device)."""
    cache.dirty[d] -= req.pages[i]
    req.left[i] = 0
    req.durable[i] = loop.now[0]


@_callee
def _slot_on_nand(e, d, i):
    """One slot of request i's data is on NAND. A write through the cache is then done; a
    cached one is durable with its last slot, and a flush waiting for the cache to drain ends
    when nothing is dirty."""
    req = e.requests
    req.left[i] -= 1
    done = -1  # the request this completes
    if req.cached[i] == 0:
        if req.left[i] == 0:
            done = i
    else:
        c = e.cache
        c.dirty[d] -= 1
        if req.left[i] == 0:
            req.durable[i] = e.loop.now[0]
        f = c.flush[d]
        if c.dirty[d] == 0 and f >= 0:
            c.flush[d] = -1
            done = f
    if done >= 0:
        _complete(e, d, done)


@_callee
def _pad_page(e, d):
    """Fill the partly written NAND page of device d's host frontier (and of its SLC cache's
    newest block) with padding slots, so that it is programmed now (a flush or a write through
    the cache: the page may not wait for data)."""
    if e.slc.on[d] != 0:
        _pad_slc(e, d)
    s = _ftl(e.ftls, d)
    f = s[5][F.FRONT]
    if f < 0:
        return
    slots = e.devices.slots[d]
    w = np.int64(s[2][F.WP, f]) % slots
    if w == 0:
        return
    for _ in range(slots - w):
        F._queue_program(s, HOST_STREAM)
        ppn = np.int64(F._pad(s, HOST_STREAM))
        e.owner[e.devices.page0[d] + ppn] = -1
        if e.cache.on[d] != 0:
            e.pending[e.devices.page0[d] + ppn] = 0  # nothing to serve (no L2P entry names it)
        _set_type(e.devices, e.units.programs, e.ptype, d, ppn, False)
        _submit(e, Q_WRITE, _unit_of(e.devices, d, ppn), K_PAD, ppn, NO_REF)


@_callee
def _pad_slc(e, d):
    """Fill the partly written program of device d's newest SLC cache block with padding."""
    slc = e.slc
    if slc.on[d] == 0 or slc.used[d] == 0:
        return
    slots = e.devices.slots[d]
    w = slc.wp[d] % slots
    if w == 0:
        return
    for _ in range(slots - w):
        ppn = _slc_slot(e.ftls, e.devices, slc, e.ptype, d)
        e.owner[e.devices.page0[d] + ppn] = -1
        if e.cache.on[d] != 0:
            e.pending[e.devices.page0[d] + ppn] = 0
        _submit(e, Q_WRITE, _unit_of(e.devices, d, ppn), K_PAD, ppn, NO_REF)


# ---------------------------------------------------------------- host interface and controller
# A drive with a Front: commands wait in the host (W_FRONT) until fewer than max_qd are inside,
# cross the link, take a controller core and enter the back end (W_READ, W_WRITE); a read's
# data is decoded and crosses the link back before the read is complete.
@_callee
def _front_src(e, d, which):
    """Heap source of device d's front ring ``which`` (0: into the back end, 1: out to the
    host): after every unit, channel and device's acknowledgements."""
    return e.units.device.size + e.channels.busy.size + e.devices.kind.size * (1 + which) + d


@_callee
def _link_book(fr, d, out, ready, dur):
    """Book ``dur`` us of device d's link (``out``: towards the host) from ``ready`` on, after
    what it already carries (FIFO); returns when the transfer ends. A half-duplex link (SATA)
    carries both directions on ``link_in``."""
    if out and fr.duplex[d] != 0:
        end = max(ready, fr.link_out[d]) + dur
        fr.link_out[d] = end
    else:
        end = max(ready, fr.link_in[d]) + dur
        fr.link_in[d] = end
    return end


@_callee
def _ring_push(ring, ring_t, head, tail, heap, err, src, d, i, t):
    """Request i joins device d's ring at time t (times rise along a ring); the ring's oldest
    entry is its one heap event. The ring holds at most max_qd (each entry is inside the
    device): its size."""
    r = ring.shape[1]
    ring[d, tail[d] % r] = i
    ring_t[d, tail[d] % r] = t
    if head[d] == tail[d]:
        _heap_push(heap, err, src, t)
    tail[d] += 1


@_callee
def _front_admit(e, d):
    """Commands waiting in the host enter device d while fewer than ``max_qd`` are inside: each
    crosses the link (protocol time, and a write's data), then the first free controller core
    processes it; it enters the back end when the core is done (:func:`_on_front`)."""
    fr, dev, req = e.front, e.devices, e.requests
    while dev.wait_head[d, W_FRONT] >= 0 and fr.admitted[d] - e.stats.done[d] < fr.max_qd[d]:
        i = _wait_pop(dev, req, d, W_FRONT)
        fr.admitted[d] += 1
        op = req.op[i]
        dur = fr.t_command[d]
        if op == OP_WRITE or op == OP_FUA:
            dur += req.pages[i] * fr.page_bytes[d] * fr.us_per_byte[d]
        linked = _link_book(fr, d, False, e.loop.now[0], dur)
        c = 0
        for k in range(1, fr.n_cores[d]):
            if fr.core_free[d, k] < fr.core_free[d, c]:
                c = k
        t = max(linked, fr.core_free[d, c]) + fr.t_core[d]
        fr.core_free[d, c] = t
        _ring_push(fr.in_req, fr.in_t, fr.in_head, fr.in_tail, e.heap, e.loop.err, _front_src(e, d, 0), d, i, t)


@_callee
def _read_done(e, d, i, nand):
    """Request i of device d has its data (read from NAND when ``nand``): complete, or on a
    drive with a Front (for a read), decoded (``nand`` only) and sent over the link first."""
    fr, req = e.front, e.requests
    op = req.op[i]
    if fr.on[d] == 0 or (op != OP_READ and op != OP_RAW_READ):
        _complete(e, d, i)
        return
    ready = e.loop.now[0] + (fr.t_ecc[d] + e.maps.t_hit[d] if nand else 0.0)
    t = _link_book(fr, d, True, ready, req.pages[i] * fr.page_bytes[d] * fr.us_per_byte[d])
    _ring_push(fr.out_req, fr.out_t, fr.out_head, fr.out_tail, e.heap, e.loop.err, _front_src(e, d, 1), d, i, t)


@_callee
def _on_front(e, d, which):
    """The oldest entry of device d's front ring ``which`` is due: a command enters the back end
    (0), or a read's data has reached the host (1)."""
    fr = e.front
    if which == 0:
        ring, ring_t, head, tail = fr.in_req, fr.in_t, fr.in_head, fr.in_tail
    else:
        ring, ring_t, head, tail = fr.out_req, fr.out_t, fr.out_head, fr.out_tail
    r = ring.shape[1]
    i = ring[d, head[d] % r]
    head[d] += 1
    if head[d] < tail[d]:
        _heap_push(e.heap, e.loop.err, _front_src(e, d, which), ring_t[d, head[d] % r])
    req = e.requests
    if which == 0:
        op = req.op[i]
        _wait_push(e.devices, req, d, _fifo_of(op), i)
    else:
        _complete(e, d, i)


# ---------------------------------------------------------------- a host I/O arrives
# Its first-phase requests join their devices' read or write FIFOs (closed loop: now; open
# loop: at its arrival time).
@_callee
def _issue(dev, req, hs, jobs, loop, h):
    if loop.closed[0]:
        hs.arrival[h] = loop.now[0]
    k = hs.cache_pages[h]
    if k > 0:  # write-back: acknowledged at its first request if the cache has room
        if loop.dirty[0] + k <= loop.cache_cap[0]:
            hs.rule[h] = RULE_LEAD
            hs.dirty[h] = k
            loop.dirty[0] += k
        else:
            hs.rule[h] = RULE_ALL
    _start_phase(dev, req, hs, jobs, loop, h, PH_FIRST)


@_callee
def _trim(e, d, i):
    """TRIM (NVMe Dataset Management deallocate, SATA TRIM) request i of flash device d, taken
    from its write FIFO: the FTL unmaps its LBAs (``flashlab.ftl``'s trim: each mapped slot
    turns stale, and a later read is answered as unmapped, without a flash read). A copy still
    in the write cache is dropped with its mapping: no L2P entry names its slot any more, so no
    read is served from it; its program, already queued, still runs (its slot is stale, as a
    rewritten one's). Nothing touches NAND: the command completes at once, its cost being the
    host interface and controller it crossed (Front). The mapping table lives in the
    controller's DRAM: see :mod:`flashlab.ssd.power` for what a TRIM acknowledged before a power
    loss guarantees."""
    req = e.requests
    s = _ftl(e.ftls, d)
    lba = req.lba[i]
    for p in range(req.pages[i]):
        F._trim(s, lba + p)
    req.left[i] = 0
    req.start[i] = e.loop.now[0]
    _complete(e, d, i)


@_callee
def _read_lookup(e, d, i):
    """Host read i of flash device d, inside it: each slot is looked up in the L2P table and
    answered as unmapped, from the write cache, or by a NAND read queued on its unit."""
    dev, req = e.devices, e.requests
    lba = req.lba[i]
    s = _ftl(e.ftls, d)
    l2p = s[1]
    k = req.pages[i]
    req.left[i] = k
    s[5][F.HOST_READS] += k
    hits = 0
    held = e.cache.on[d] != 0  # a drive without a cache never touches Engine.pending
    sensed = np.int64(-2)  # the slot this request last sent to NAND
    for p in range(k):
        ppn = np.int64(l2p[lba + p])
        if ppn < 0:  # unmapped: answered without a flash read
            req.left[i] -= 1
        elif held and e.pending[dev.page0[d] + ppn] != 0:  # in the write cache, not yet on NAND
            req.left[i] -= 1
            hits += 1
        else:
            # the next slot of the NAND page just sensed: read out of the page register
            same = ppn == sensed + 1 and _sense_group(dev, d, ppn) == _sense_group(dev, d, sensed)
            kind = K_REGREAD if same else K_HREAD
            _submit(e, Q_READ, _unit_of(e.devices, d, ppn), kind, ppn, i)
            sensed = ppn
    if hits > 0:
        e.stats.cache_read_hits[d] += hits
    if req.left[i] == 0:
        req.start[i] = e.loop.now[0]
        if hits > 0:
            # served from DRAM: answered t_ack from now, like a write's acknowledgement. A
            # hit means device d has a cache (only a cached write sets a flag), so its
            # ring row exists and has room (_ack_later)
            _ack_later(e.cache, e.units, e.channels, e.heap, e.loop, d, i)
        else:
            _read_done(e, d, i, False)  # unmapped: nothing to sense or decode


# ---------------------------------------------------------------- the map cache
@_callee
def _tp_unlink(mp, tp, d, j):
    """Take translation page row j out of device d's LRU list."""
    p, n = tp.prev[j], tp.next[j]
    if p >= 0:
        tp.next[p] = n
    else:
        mp.mru[d] = n
    if n >= 0:
        tp.prev[n] = p
    else:
        mp.lru[d] = p


@_callee
def _tp_push(mp, tp, d, j):
    """Row j becomes device d's most recently used translation page."""
    h = mp.mru[d]
    tp.prev[j] = -1
    tp.next[j] = h
    if h >= 0:
        tp.prev[h] = j
    else:
        mp.lru[d] = j
    mp.mru[d] = j


@_callee
def _map_hit(mp, tp, d, t, dirty):
    """Device d's translation page t is cached: it becomes the most recently used (and dirty if
    ``dirty``: a write changed an entry of it), True; else False."""
    j = mp.tp0[d] + t
    if tp.state[j] == TP_ABSENT:
        return False
    if mp.mru[d] != j:
        _tp_unlink(mp, tp, d, j)
        _tp_push(mp, tp, d, j)
    if dirty:
        tp.state[j] = TP_DIRTY
    return True


@_callee
def _map_load(e, d, t, ref, dirty):
    """Device d's translation page t misses: a full cache evicts its least recently used page
    (a dirty one is programmed back, K_MPROG on its unit), t becomes the most recently used and
    its NAND read is queued on its unit (K_MREAD, for read request ``ref``, or NO_REF)."""
    mp, tp = e.maps, e.tpages
    u0, n = e.devices.unit0[d], e.devices.n_units[d]
    if mp.count[d] >= mp.capacity[d]:
        v = mp.lru[d]
        _tp_unlink(mp, tp, d, v)
        if tp.state[v] == TP_DIRTY:
            vt = v - mp.tp0[d]
            _submit(e, Q_WRITE, u0 + vt % n, K_MPROG, vt, NO_REF)
        tp.state[v] = TP_ABSENT
        mp.count[d] -= 1
    j = mp.tp0[d] + t
    tp.state[j] = TP_DIRTY if dirty else TP_CLEAN
    _tp_push(mp, tp, d, j)
    mp.count[d] += 1
    mp.loads[d] += 1
    _submit(e, Q_READ, u0 + t % n, K_MREAD, t, ref)


@_callee
def _map_misses(e, d, i):
    """Look host read i's translation pages up in device d's map cache; each miss is loaded, its
    NAND read queued for i. Returns the misses: i waits for their reads (``left``)."""
    mp, req = e.maps, e.requests
    per = mp.per_page[d]
    lba = req.lba[i]
    last = (lba + req.pages[i] - 1) // per
    misses = 0
    for t in range(lba // per, last + 1):
        if not _map_hit(mp, e.tpages, d, t, False):
            misses += 1
    req.left[i] = misses  # before the reads are queued: none ends before this returns
    if misses > 0:
        for t in range(lba // per, last + 1):
            if e.tpages.state[mp.tp0[d] + t] == TP_ABSENT:
                _map_load(e, d, t, i, False)
    return misses


@_callee
def _map_written(e, d, lba, k):
    """Host write slots ``lba .. lba + k - 1`` of device d were mapped: their translation pages
    are dirty, each missing one loaded (a map read the write does not wait for)."""
    mp = e.maps
    per = mp.per_page[d]
    for t in range(lba // per, (lba + k - 1) // per + 1):
        if not _map_hit(mp, e.tpages, d, t, True):
            _map_load(e, d, t, NO_REF, True)


@_callee
def _map_io_done(e, d, kind, ref):
    """A map read or program of device d ended; the last map read of read request ``ref``
    lets it look its slots up."""
    if kind == K_MPROG:
        e.maps.programs[d] += 1
        return
    e.maps.reads[d] += 1
    if ref >= 0:
        req = e.requests
        req.left[ref] -= 1
        if req.left[ref] == 0:
            _read_lookup(e, d, ref)


@_callee
def _dispatch(e, d):
    """Move waiting requests into device d while its queue depth (and the write gate) allow."""
    dev, req = e.devices, e.requests
    qd = dev.qd[d]
    disk = dev.kind[d] != FLASH  # a hard disk or a fixed-service member: one access per request
    access = K_DISK if dev.kind[d] == HDD else K_FIXED
    while dev.wait_head[d, W_READ] >= 0 and dev.inflight[d] < qd:
        i = _wait_pop(dev, req, d, W_READ)
        dev.inflight[d] += 1
        op = req.op[i]
        lba = req.lba[i]
        if disk:
            req.left[i] = 1
            _submit(e, Q_READ, dev.unit0[d], access, lba, i)
        elif op == OP_READ:
            if e.maps.on[d] != 0 and _map_misses(e, d, i) > 0:
                continue  # it waits for its translation pages' reads (_read_lookup)
            _read_lookup(e, d, i)
        else:  # raw NAND operations on a given physical page
            req.left[i] = 1
            u = _unit_of(e.devices, d, lba)
            if op == OP_RAW_READ:
                _submit(e, Q_READ, u, K_HREAD, lba, i)
            elif op == OP_RAW_PROG:
                _submit(e, Q_WRITE, u, K_HWRITE, lba, i)
            else:
                _submit(e, Q_WRITE, u, K_RERASE, lba, i)
    cache = e.cache
    # writes and flushes in order; a flush waiting for the cache to drain holds the writes behind it
    while dev.wait_head[d, W_WRITE] >= 0 and e.loop.err[0] == ERR_NONE and cache.flush[d] < 0:
        i = dev.wait_head[d, W_WRITE]
        if req.admitted[i] == 0 and dev.inflight[d] >= qd:
            break  # the queue is full (a write partly in the cache holds its place and goes on)
        op = req.op[i]
        if op == OP_TRIM:
            _wait_pop(dev, req, d, W_WRITE)
            dev.inflight[d] += 1
            _trim(e, d, i)
            continue
        if op == OP_FLUSH:
            _wait_pop(dev, req, d, W_WRITE)
            dev.inflight[d] += 1
            req.start[i] = e.loop.now[0]
            if cache.on[d] == 0:
                # nothing is buffered (no cache, or a fixed member)
                _complete(e, d, i)
            elif cache.plp[d] != 0 or cache.dirty[d] == 0:
                # the capacitors make the buffer durable: a no-op
                _ack_later(cache, e.units, e.channels, e.heap, e.loop, d, i)
            else:
                cache.flush[d] = i  # completes when nothing is dirty (_slot_on_nand)
                _pad_page(e, d)
            continue
        k = req.pages[i]
        if disk and cache.on[d] != 0:  # a disk behind a battery-backed controller cache
            if cache.dirty[d] + k > cache.capacity[d]:
                break  # the cache is full: the write waits for destaging
            _wait_pop(dev, req, d, W_WRITE)
            dev.inflight[d] += 1
            req.left[i] = 1
            req.cached[i] = 1
            cache.dirty[d] += k
            # its destage starts at the acknowledgement (_on_ack)
            _ack_later(cache, e.units, e.channels, e.heap, e.loop, d, i)
            continue
        if disk:
            _wait_pop(dev, req, d, W_WRITE)
            dev.inflight[d] += 1
            req.left[i] = 1
            _submit(e, Q_WRITE, dev.unit0[d], access, req.lba[i], i)
            continue
        slots = dev.slots[d]
        # through: acknowledged when on NAND (no cache, or FUA without power-loss protection)
        through = cache.on[d] == 0 or (op == OP_FUA and cache.plp[d] == 0)
        first = req.admitted[i]  # the write's first page not yet mapped
        now = k
        if not through:
            # its data streams into the cache as room frees (a write larger than the cache
            # enters over several rounds); acknowledged once all of it is in
            now = min(k - first, cache.capacity[d] - cache.dirty[d])
            if now <= 0:
                break  # the cache is full: the write waits for destaging
        if not _write_gate(e.ftls, dev, d, now + slots - 1):  # room for its slots and the padding
            dev.stalled[d] = 1
            g = dev.group[d]
            if (e.jobs.victim[d] < 0 and dev.gc[d] != GC_OFF and (g < 0 or e.groups.active[g] < e.groups.limit[g])
                    and _stale(e.ftls, d)):
                # a write larger than the watermarks' free space waits for room: collect for it (GC
                # would otherwise wait for a free-block count the stalled write never brings)
                _start_job(e, d)
            break
        if first == 0:
            dev.inflight[d] += 1
            req.left[i] = k
        if through:
            _wait_pop(dev, req, d, W_WRITE)
        else:
            req.cached[i] = 1
            cache.dirty[d] += now
            req.admitted[i] = first + now
            if first + now == k:
                _wait_pop(dev, req, d, W_WRITE)
                _ack_later(cache, e.units, e.channels, e.heap, e.loop, d, i)
        lba = req.lba[i]
        for p in range(first, first + now):
            ppn = _map_host_write(e.ftls, dev, e.slc, e.units.programs, e.ptype, d, lba + p)
            if ppn < 0:  # the pool was empty after all
                _fail(dev, e.loop, d, ERR_POOL)
                return
            if cache.on[d] != 0:
                # set on every mapping, cleared for a write through (not in the cache): no flag
                # is left over from the slot's last use
                e.pending[dev.page0[d] + ppn] = 0 if through else 1
            if slots > 1:
                e.owner[dev.page0[d] + ppn] = i
            _submit(e, Q_WRITE, _unit_of(e.devices, d, ppn), K_HWRITE, ppn, i)
        if e.maps.on[d] != 0:
            _map_written(e, d, lba + first, now)
        if through and slots > 1:
            _pad_page(e, d)
        if _update_gc(dev, e.jobs, e.groups, e.ftls.ctr, e.loop, d):
            _start_jobs(e, d)


@_callee
def _wake(dev, loop, d):
    """Something happened on device d that may let its waiting requests in: an event of its own,
    an arrival, a GC decision. Its write gate is no longer known to be shut, and the next
    dispatch round visits it. Nothing else changes what :func:`_dispatch` would do: a device it
    left alone stays as it was until it is woken (its own completions happen in its events)."""
    dev.stalled[d] = 0
    r = loop.ready
    r[d >> 6] |= np.int64(1) << (d & 63)


@_callee
def _next_ready(r, d):
    """The first device after d (-1: the first of all) in the ready set ``r``, taken out of it;
    -1 if none is."""
    d += 1
    w = d >> 6
    if w >= r.size:
        return np.int64(-1)
    bits = r[w] & (np.int64(-1) << (d & 63))  # its bits from d on
    while bits == 0:
        w += 1
        if w >= r.size:
            return np.int64(-1)
        bits = r[w]
    b = trailing_zeros(bits)
    r[w] &= ~(np.int64(1) << b)
    return w * 64 + b


@_callee
def _any_ready(r):
    for w in range(r.size):
        if r[w] != 0:
            return True
    return False


@_callee
def _dispatchable(dev, req, d):
    """Device d has waiting requests and room for them, and dispatching it may let one in (a
    stalled device's write gate can only open after it is woken: until then it is skipped). A
    write partly in the cache holds its place in the queue already: the rest may enter at a
    full queue depth."""
    if dev.waiting[d] == 0 or dev.stalled[d] != 0:
        return False
    return dev.inflight[d] < dev.qd[d] or _streaming(dev, req, d)


@_callee
def _settle(e):
    """After an event: issue the closed loop's replacement requests and let waiting requests in.
    A dispatch round visits the ready devices in ascending order, each once; a device woken
    during the round is visited in it if it comes after the one being dispatched, else in the
    next round (the order a scan of every device would give, without the scan)."""
    loop = e.loop
    nhost = e.hosts.first.size
    while True:
        while loop.to_issue[0] > 0 and not _held(loop):
            loop.to_issue[0] -= 1
            if loop.next[0] < nhost:
                h = loop.next[0]
                loop.next[0] = h + 1
                _issue(e.devices, e.requests, e.hosts, e.jobs, loop, h)
        d = _next_ready(loop.ready, np.int64(-1))
        while d >= 0:
            if _dispatchable(e.devices, e.requests, d):
                _dispatch(e, d)
            if e.front.on[d] != 0:
                _front_admit(e, d)  # after the dispatch: it may have completed some (a flush)
            if e.slc.on[d] != 0:
                _slc_tick(e, d)
            d = _next_ready(loop.ready, d)
        if (loop.to_issue[0] == 0 or _held(loop)) and not _any_ready(loop.ready):
            return


@_callee
def _held(loop):
    """The next host I/O is the barrier's (``Loop.barrier``) and a host I/O before it is still
    running: it waits (a closed loop's measured requests start when the fill has ended)."""
    b = loop.barrier[0]
    return loop.next[0] == b and loop.done[0] < b


@_callee
def _barrier_passed(hs, loop):
    """Open loop: every host I/O before the barrier is done now; the arrivals from it on,
    given from the barrier, become times on the clock."""
    b = loop.barrier[0]
    for h in range(b, hs.arrival.size):
        hs.arrival[h] += loop.now[0]
    loop.barrier[0] = 0


# ---------------------------------------------------------------- a unit's operation ends
# Host read, program or raw erase: the request has one page less to go. GC copy read: its
# program is queued on the destination unit. GC program: one copy less; the last queues the
# erases. GC erase: the last one ends the job (the FTL erases the victim).
@_callee
def _finish(e, u):
    """The operation on unit u is complete: the unit goes idle, then its effects happen."""
    units, st, job = e.units, e.stats, e.jobs
    d = units.device[u]
    kind = units.kind[u]
    ref = units.ref[u]
    units.stage[u] = IDLE
    if kind == K_HWRITE or kind == K_PAD:
        if kind == K_HWRITE:
            st.host_programs[d] += 1
        else:
            st.pad_programs[d] += 1
        slots = e.devices.slots[d]
        if slots == 1 or units.ppn[u] % slots == slots - 1:  # the NAND page's program ended: all its slots are on NAND
            base = e.devices.page0[d] + units.ppn[u] - (slots - 1)
            held = e.cache.on[d] != 0
            for j in range(slots):
                if held:
                    e.pending[base + j] = 0  # the cache's copy is no longer the only one
                r = ref if slots == 1 else e.owner[base + j]
                if r >= 0:
                    _slot_on_nand(e, d, r)
        if kind == K_PAD or e.requests.op[ref] != OP_RAW_PROG:  # a raw program is no FTL page
            _program_done(e, d, units.ppn[u])
    elif kind == K_DISK and e.requests.cached[ref] != 0:
        _destaged(e.cache, e.requests, e.loop, d, ref)
    elif kind == K_HREAD or kind == K_REGREAD or kind == K_RERASE or kind == K_DISK or kind == K_FIXED:
        if kind == K_HREAD or kind == K_REGREAD:
            st.flash_reads[d] += 1
        elif kind == K_RERASE:
            st.erases[d] += 1
        req = e.requests
        req.left[ref] -= 1
        if req.left[ref] == 0:
            _read_done(e, d, ref, kind == K_HREAD or kind == K_REGREAD)  # a read's data goes to the host
    elif kind == K_MREAD or kind == K_MPROG:
        _map_io_done(e, d, kind, ref)
    elif kind == K_SUSPEND:
        pass  # the suspended operation has stopped: the unit serves the reads that suspended it
    elif kind == K_GREAD:
        st.gc_reads[d] += 1
        dst = job.dst[d, ref]
        _submit(e, Q_GC, _unit_of(e.devices, d, dst), K_GPROG, dst, ref)
    elif kind == K_GPROG:
        fold = job.fold[d] != 0
        if fold:
            e.slc.fold_programs[d] += 1
        else:
            st.gc_programs[d] += 1
        _program_done(e, d, units.ppn[u])
        job.copies_left[d] -= 1
        dev = e.devices
        if dev.fg[d] != 0 and dev.fg_policy[d] == FG_THROTTLE and not fold:
            valid = job.valid[d]
            dev.tokens[d] += (dev.ppbs[d] - valid) / valid
        if job.copies_left[d] == 0:
            _queue_erases(e, d)
    else:  # K_ERASE of a GC job
        st.erases[d] += 1
        job.erases_left[d] -= 1
        if job.erases_left[d] == 0:
            _end_job(e, d)
    if units.stage[u] == IDLE:
        _start_next(e, u)


@_callee
def _program_done(e, d, ppn):
    """The program (host, padding or GC copy) of device d's slot ppn has ended (for a slot of a
    multi-slot NAND page: its operation). When that closes its superblock and a GC job was
    waiting for a victim, the job may start now."""
    if F._program_ended(_ftl(e.ftls, d), ppn // e.devices.ppbs[d]) and e.jobs.waiting[d] != 0:
        e.jobs.waiting[d] = 0
        if _update_gc(e.devices, e.jobs, e.groups, e.ftls.ctr, e.loop, d):
            _start_jobs(e, d)


@_callee
def _end_job(e, d):
    """The GC job's last erase is done: the FTL erases the victim, the group's slot is freed,
    and this device, then the others of its group in order, may start their next job."""
    s = _ftl(e.ftls, d)
    v = e.jobs.victim[d]
    e.jobs.victim[d] = -1
    if e.jobs.log_row[d] >= 0:
        e.stats.gc_log[e.jobs.log_row[d], GL_END] = e.loop.now[0]
    if e.jobs.fold[d] != 0:  # a folded SLC block: back into the cache, erased
        e.jobs.fold[d] = FOLD_NONE
        F._wipe(s, v)
        e.slc.free_blocks[d] += 1
        e.slc.folds[d] += 1
    else:
        F._erase(s, v)
        s[5][F.GC_VICTIMS] += 1
    g = e.devices.group[d]
    if g >= 0:
        e.groups.active[g] -= 1
    if _update_gc(e.devices, e.jobs, e.groups, e.ftls.ctr, e.loop, d):
        _start_jobs(e, d)
    if g >= 0:  # then the others of its group, in order
        for j in range(e.devices.kind.size):
            if j != d and e.devices.group[j] == g and e.jobs.victim[j] < 0:
                if _update_gc(e.devices, e.jobs, e.groups, e.ftls.ctr, e.loop, j):
                    _start_jobs(e, j)


# ---------------------------------------------------------------- a channel transfer ends
# The channel takes the next waiting unit. Data in: the program starts in the array (and a host
# read queued meanwhile suspends it at once). Data out: the read is done.
@_callee
def _on_channel(e, c):
    """Returns the unit whose operation is complete (the caller runs :func:`_finish`), or -1."""
    ch, units = e.channels, e.units
    u = ch.unit[c]
    ch.busy[c] = 0
    if ch.head[c] < ch.tail[c]:
        nxt = ch.wait[c, ch.head[c] % ch.wait.shape[1]]
        ch.head[c] += 1
        _start_xfer(ch, units, e.devices, e.heap, e.loop, c, nxt)
    kind = units.kind[u]
    d = units.device[u]
    slots = e.devices.slots[d]
    # a slot other than its NAND page's last waits in the page register: the last one programs
    if (kind == K_HWRITE or kind == K_GPROG or kind == K_PAD) and (slots == 1 or units.ppn[u] % slots == slots - 1):
        _array_op(units, e.heap, e.loop, u, e.devices.t_prog[d, e.ptype[e.devices.page0[d] + units.ppn[u]]])
        # Suspension acts on the array operation: host reads that arrived during the data-in
        # transfer (or while the program waited for the channel) suspend it now, before it
        # has done any work, and it resumes after them with the resume overhead.
        _maybe_suspend(e, u)
        return np.int64(-1)
    if kind == K_MPROG:  # a translation page is in: programmed in SLC mode
        _array_op(units, e.heap, e.loop, u, e.maps.t_prog[d])
        return np.int64(-1)
    return u  # data is out (the read is done), or a slot is in


# ---------------------------------------------------------------- the event loop
@_callee
def _first_stuck(dev):
    """The first device with requests in its waiting FIFOs and its write gate open, or -1. (A
    device stalled at its write gate, ``Devices.stalled``, waits for room nothing will make: a
    full drive with GC off, a write larger than GC's free space; the run's result reports it as
    a stall with that reason. Any other wait with no event left is a model defect.)"""
    for d in range(dev.waiting.size):
        if dev.waiting[d] > 0 and dev.stalled[d] == 0:
            return np.int64(d)
    return np.int64(-1)


@_kernel
def run_events(engine, stop_done, until):
    """Process events until ``stop_done`` host I/Os have completed, the events run out, the next
    event is at ``until`` (us) or later (it stays unprocessed, the clock at the last event
    processed), or an error is flagged. Open-loop arrivals come from the host I/Os' arrival
    times, in order; a closed loop's first host I/Os are issued first (``loop.to_issue`` holds
    its queue depth)."""
    e = ref(engine)
    loop, heap, hs = e.loop, e.heap, e.hosts
    closed = loop.closed[0]
    nhost = hs.first.size
    n_units = e.units.device.size
    n_src = n_units + e.channels.busy.size
    inf = np.inf
    due = loop.to_issue[0] > 0 or _any_ready(loop.ready)
    seen = loop.done[0]
    quiet = np.int64(0)  # events since a host I/O was last done
    while True:
        if due:
            _settle(e)
        if loop.done[0] >= stop_done or loop.err[0] != ERR_NONE:
            break
        if loop.done[0] != seen:
            seen = loop.done[0]
            quiet = 0
        elif quiet >= loop.budget[0]:
            # no host I/O done in budget events: report the device of the next event, never hang
            x = heap.order[0] & _SRC_MASK if heap.n[0] > 0 else np.int64(-1)
            d = np.int64(0) if x < 0 else (e.units.device[x] if x < n_units else (
                e.units.device[e.channels.unit[x - n_units]] if x < n_src else (x - n_src) % e.devices.kind.size))
            _fail(e.devices, loop, d, ERR_STALL)
            break
        quiet += 1
        t_heap = heap.time[0] if heap.n[0] > 0 else inf
        t_arr = inf
        if not closed and loop.next[0] < nhost:
            if loop.barrier[0] > 0 and loop.next[0] == loop.barrier[0] and not _held(loop):
                _barrier_passed(hs, loop)
            t_arr = inf if _held(loop) else hs.arrival[loop.next[0]]
        if t_arr == inf and t_heap == inf:
            d = _first_stuck(e.devices)
            if d >= 0:  # requests wait for what no event will ever bring: a model defect, never silence
                _fail(e.devices, loop, d, ERR_STALL)
            break
        if t_arr >= until and t_heap >= until:
            break  # the next event is not before until: a host I/O arriving at until may still be added
        loop.events[0] += 1
        if t_arr <= t_heap:
            loop.now[0] = t_arr
            i = loop.next[0]
            loop.next[0] = i + 1
            _issue(e.devices, e.requests, hs, e.jobs, loop, i)
        else:
            loop.now[0] = t_heap
            x = H.pop(heap)
            done = np.int64(-1)  # a unit whose operation is complete
            if x < n_units:
                _wake(e.devices, e.loop, e.units.device[x])
                k = e.units.kind[x]
                if k == K_HREAD or k == K_GREAD or k == K_MREAD:
                    _channel_request(e.channels, e.units, e.devices, e.heap, e.loop, x)  # sensed: data out
                else:
                    done = x
            elif x < n_src:
                _wake(e.devices, e.loop, e.units.device[e.channels.unit[x - n_units]])
                done = _on_channel(e, x - n_units)
            else:
                j = x - n_src
                nd = e.devices.kind.size
                if j < nd:
                    _wake(e.devices, e.loop, j)
                    _on_ack(e, j)
                elif j < 3 * nd:  # a front ring (_front_src)
                    j -= nd
                    _wake(e.devices, e.loop, j % nd)
                    _on_front(e, j % nd, j // nd)
                else:  # an SLC idle timer expired (_idle_src): the dispatch round folds (_slc_tick)
                    _wake(e.devices, e.loop, j - 3 * nd)
            if done >= 0:
                _finish(e, done)
        due = loop.to_issue[0] > 0 or _any_ready(loop.ready)
    return loop.done[0]
