/* Baseline for benchmarks/bench_ftl.py: the same page-mapped FTL loop as flashlab.ftl in plain C.
 *
 * Greedy victims from buckets of blocks by valid count (doubly linked lists), separate host and GC
 * frontiers, free blocks reused in FIFO order, GC from below `low` to `high` free blocks, int32
 * maps (l2p, p2l, stamp). Uniform random single-page host writes after a sequential fill.
 *
 * usage: baseline_ftl BLOCKS PAGES_PER_BLOCK USER_PAGES WARMUP_WRITES TIMED_WRITES SEED
 * prints: host_writes_per_second gc_copies_per_host_write
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int32_t *l2p, *p2l, *stamp, *valid, *wp, *prev_, *next_, *closed, *head, *tail, *pool;
static int64_t nb, ppb, pool_head, pool_len, host_writes, gc_copies;
static int32_t front[2] = {-1, -1};
static const int64_t low = 2, high = 3;

static uint64_t rng_state;
static uint64_t splitmix(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void list_push(int32_t v, int32_t b) {
    prev_[b] = tail[v]; next_[b] = -1;
    if (tail[v] >= 0) next_[tail[v]] = b; else head[v] = b;
    tail[v] = b;
}
static void list_remove(int32_t v, int32_t b) {
    if (prev_[b] >= 0) next_[prev_[b]] = next_[b]; else head[v] = next_[b];
    if (next_[b] >= 0) prev_[next_[b]] = prev_[b]; else tail[v] = prev_[b];
}
static int32_t pool_pop(void) { int32_t b = pool[pool_head]; pool_head = (pool_head + 1) % nb; pool_len--; return b; }
static void pool_push(int32_t b) { pool[(pool_head + pool_len) % nb] = b; pool_len++; }

static void program(int s, int32_t lba, int32_t st) {
    if (front[s] < 0) front[s] = pool_pop();
    int32_t f = front[s];
    int64_t ppn = (int64_t)f * ppb + wp[f];
    p2l[ppn] = lba; stamp[ppn] = st; l2p[lba] = (int32_t)ppn;
    valid[f]++;
    if (++wp[f] == ppb) { closed[f] = 1; list_push(valid[f], f); front[s] = -1; }
}

static void collect(void) {
    while (pool_len < high) {
        int32_t v = 0;
        while (head[v] < 0) v++;
        int32_t b = head[v];
        list_remove(v, b); closed[b] = 0;
        for (int64_t i = 0; i < ppb; i++) {
            int32_t lba = p2l[b * ppb + i];
            if (lba >= 0) { program(1, lba, stamp[b * ppb + i]); gc_copies++; }
            p2l[b * ppb + i] = -1;
        }
        valid[b] = 0; wp[b] = 0;
        pool_push(b);
    }
}

static void host_write(int32_t lba) {
    if (front[0] < 0) { front[0] = pool_pop(); if (pool_len < low) collect(); }
    int32_t old = l2p[lba];
    if (old >= 0) {
        int32_t b = (int32_t)(old / ppb);
        p2l[old] = -2 - lba;
        if (closed[b]) { list_remove(valid[b], b); list_push(valid[b] - 1, b); }
        valid[b]--;
    }
    program(0, lba, (int32_t)host_writes);
    host_writes++;
}

static int32_t *alloc32(int64_t n, int32_t fill) {
    int32_t *a = malloc(n * sizeof(int32_t));
    if (!a) { perror("malloc"); exit(1); }
    for (int64_t i = 0; i < n; i++) a[i] = fill;
    return a;
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: %s BLOCKS PPB USER WARMUP TIMED SEED\n", argv[0]); return 2; }
    nb = atoll(argv[1]); ppb = atoll(argv[2]);
    int64_t user = atoll(argv[3]), warmup = atoll(argv[4]), timed = atoll(argv[5]);
    rng_state = (uint64_t)atoll(argv[6]);
    l2p = alloc32(user, -1); p2l = alloc32(nb * ppb, -1); stamp = alloc32(nb * ppb, 0);
    valid = alloc32(nb, 0); wp = alloc32(nb, 0); prev_ = alloc32(nb, -1); next_ = alloc32(nb, -1);
    closed = alloc32(nb, 0); head = alloc32(ppb + 1, -1); tail = alloc32(ppb + 1, -1); pool = alloc32(nb, 0);
    for (int64_t b = 0; b < nb; b++) pool[b] = (int32_t)b;
    pool_len = nb;
    for (int64_t i = 0; i < user; i++) host_write((int32_t)i);
    for (int64_t i = 0; i < warmup; i++) host_write((int32_t)((splitmix() >> 11) * (1.0 / 9007199254740992.0) * user));
    int64_t copies0 = gc_copies;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int64_t i = 0; i < timed; i++) host_write((int32_t)((splitmix() >> 11) * (1.0 / 9007199254740992.0) * user));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("%.6g %.6g\n", timed / dt, (double)(gc_copies - copies0) / timed);
    return 0;
}
