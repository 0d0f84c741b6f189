"""A plain-Python page-mapped FTL: the oracle for flashlab.ftl's numba kernels.

It follows the same rules (documented in flashlab/ftl/core.py) with the simplest data
structures: dicts and lists, victims found by ``min``/``max`` over all blocks, the free pool as a
list sorted on demand. Deterministic policies only (greedy, fifo, cost_benefit); ties broken as
the kernels do: greedy takes the block that entered its valid-count bucket first (or last, or the
lowest block id, by ``greedy_ties``), FIFO the block closed first, cost-benefit the lowest block
id, the pool the block freed first (or with dynamic wear levelling the least worn, then freed
first, and for a GC frontier the most worn, then freed last). Frontiers: 0 host (hot), 1 host
cold, 2 GC (with oracle separation: hot LBAs), 3 GC cold (oracle separation only).
"""

from __future__ import annotations

FREE, OPEN, CLOSED, RETIRED = 0, 1, 2, 3


class ReferenceFtl:
    def __init__(self, blocks, ppb, user, *, policy="greedy", greedy_ties="first", separation="gc", hot_window=1, hot_lbas=0,
                 gc_low=2, gc_high=3, dynamic_wl=False, static_wl_threshold=0,
                 read_refresh_limit=0, endurance=0):
        assert policy in ("greedy", "fifo", "cost_benefit")
        self.nb, self.ppb, self.user = blocks, ppb, user
        self.policy, self.sep, self.hot_window, self.hot_lbas = policy, separation, hot_window, hot_lbas
        self.ties = greedy_ties
        self.low, self.high = gc_low, gc_high
        self.dynamic_wl, self.static_thr = dynamic_wl, static_wl_threshold
        self.refresh, self.endurance = read_refresh_limit, endurance
        self.n_open = {"none": 1, "gc": 2, "temperature": 3, "oracle": 4}[separation]
        self.p2l = [-1] * (blocks * ppb)  # lba, -2-lba stale, -1 free
        self.stamp = [0] * (blocks * ppb)
        self.l2p = {}
        self.valid = [0] * blocks
        self.erases = [0] * blocks
        self.wp = [0] * blocks
        self.state = [FREE] * blocks
        self.reads = [0] * blocks
        self.closed_at = [0] * blocks
        self.order = [0] * blocks  # when the block entered its victim list (greedy bucket / FIFO)
        self.ticks = 0
        self.pool = [(0, b, b) for b in range(blocks)]  # (key, seq, block)
        self.pool_seq = blocks
        self.front = [-1, -1, -1, -1]
        self.c = dict(host_writes=0, host_reads=0, trims=0, gc_copies=0, wl_copies=0,
                      refresh_copies=0, erases=0, retired=0, gc_victims=0)
        self.read_only = False
        self.last_victim = -1

    # -- helpers
    def tick(self):
        self.ticks += 1
        return self.ticks

    def free_blocks(self):
        return len(self.pool)

    def room(self, s):
        f = self.front[s]
        return 0 if f < 0 else self.ppb - self.wp[f]

    def gc_stream(self, lba):
        if self.sep == "none":
            return 0
        return 3 if self.sep == "oracle" and lba >= self.hot_lbas else 2

    def open(self, s):
        # least worn / first freed; with dynamic wear levelling the GC frontier takes the most worn
        entry = max(self.pool) if self.dynamic_wl and s >= 2 else min(self.pool)
        self.pool.remove(entry)
        b = entry[2]
        self.state[b] = OPEN
        self.front[s] = b

    def program(self, s, lba, stamp):
        f = self.front[s]
        ppn = f * self.ppb + self.wp[f]
        assert self.p2l[ppn] == -1, "page programmed twice"
        self.p2l[ppn], self.stamp[ppn] = lba, stamp
        self.l2p[lba] = ppn
        self.valid[f] += 1
        self.wp[f] += 1
        if self.wp[f] == self.ppb:
            self.state[f] = CLOSED
            self.closed_at[f] = self.c["host_writes"]
            self.order[f] = self.tick()
            self.front[s] = -1

    def invalidate(self, ppn):
        b = ppn // self.ppb
        self.p2l[ppn] = -2 - self.p2l[ppn]
        self.valid[b] -= 1
        if self.state[b] == CLOSED and self.policy == "greedy":
            self.order[b] = self.tick()

    def erase(self, b):
        for p in range(b * self.ppb, (b + 1) * self.ppb):
            self.p2l[p] = -1
        self.valid[b] = self.wp[b] = self.reads[b] = 0
        self.erases[b] += 1
        self.c["erases"] += 1
        if self.endurance and self.erases[b] >= self.endurance:
            self.state[b] = RETIRED
            self.c["retired"] += 1
            good = self.nb - self.c["retired"]
            if self.user >= (good - self.high - self.n_open + 1) * self.ppb:
                self.read_only = True
        else:
            self.state[b] = FREE
            key = self.erases[b] if self.dynamic_wl else 0
            self.pool.append((key, self.pool_seq, b))
            self.pool_seq += 1

    def can_relocate(self, n):
        room = sum(self.room(s) for s in ({0, 3} if self.sep == "none" else {2, 3}))
        return room + self.free_blocks() * self.ppb >= n

    def relocate(self, b, cause):
        self.state[b] = FREE
        for p in range(b * self.ppb, (b + 1) * self.ppb):
            if self.p2l[p] >= 0:
                s = self.gc_stream(self.p2l[p])
                if self.room(s) == 0:
                    self.open(s)
                self.program(s, self.p2l[p], self.stamp[p])
                self.c[cause] += 1
        self.last_victim = b
        self.erase(b)

    def victim(self):
        closed = [b for b in range(self.nb) if self.state[b] == CLOSED]
        if not closed:
            return -1
        if self.policy == "greedy":
            fewest = min(self.valid[b] for b in closed)
            ties = [b for b in closed if self.valid[b] == fewest]
            if self.ties == "index":
                return min(ties)
            pick = max if self.ties == "last" else min
            return pick(ties, key=lambda b: self.order[b])
        if self.policy == "fifo":
            return min(closed, key=lambda b: self.order[b])
        now, ppb = self.c["host_writes"], self.ppb
        return max(closed, key=lambda b: ((ppb - self.valid[b]) * float(now - self.closed_at[b] + 1)
                                          / (ppb + self.valid[b]), -b))

    def gc_until_high(self):
        while self.free_blocks() < self.high and not self.read_only:
            b = self.victim()
            if b < 0 or not self.can_relocate(self.valid[b]):
                self.read_only = True
                return
            self.relocate(b, "gc_copies")
            self.c["gc_victims"] += 1

    def collect(self):
        self.gc_until_high()
        if self.static_thr and not self.read_only:
            good = [b for b in range(self.nb) if self.state[b] != RETIRED]
            hi = max(self.erases)
            lo = min(self.erases[b] for b in good) if good else 0
            if hi - lo > self.static_thr:
                closed = [b for b in range(self.nb) if self.state[b] == CLOSED]
                if closed:
                    b = min(closed, key=lambda b: (self.erases[b], b))
                    if hi - self.erases[b] > self.static_thr and self.can_relocate(self.valid[b]):
                        self.relocate(b, "wl_copies")
            self.gc_until_high()

    # -- host operations
    def write(self, lba):
        if self.read_only:
            return False
        s = 0
        if self.sep == "temperature":
            old = self.l2p.get(lba, -1)
            s = 1 if old < 0 or (self.c["host_writes"] - self.stamp[old]) % 2**32 >= self.hot_window else 0
        elif self.sep == "oracle":
            s = 0 if lba < self.hot_lbas else 1
        while self.room(s) == 0:
            if self.free_blocks() == 0:
                self.read_only = True
                return False
            self.open(s)
            if self.free_blocks() < self.low:
                self.collect()
        old = self.l2p.get(lba, -1)
        if old >= 0:
            self.invalidate(old)
        self.program(s, lba, self.c["host_writes"])
        self.c["host_writes"] += 1
        return True

    def read(self, lba):
        self.c["host_reads"] += 1
        ppn = self.l2p.get(lba, -1)
        if ppn < 0:
            return -1
        stamp = self.stamp[ppn]
        if self.refresh:
            b = ppn // self.ppb
            self.reads[b] += 1
            if self.reads[b] >= self.refresh and self.state[b] == CLOSED and self.can_relocate(self.valid[b]):
                self.relocate(b, "refresh_copies")
                if self.free_blocks() < self.low:
                    self.collect()
        return stamp

    def trim(self, lba):
        self.c["trims"] += 1
        old = self.l2p.pop(lba, -1)
        if old >= 0:
            self.invalidate(old)
