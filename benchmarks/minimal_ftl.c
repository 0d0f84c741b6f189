/* The floor for benchmarks/bench_ftl.py: a minimal page-mapped FTL loop in plain C.
 *
 * One write frontier shared by host writes and GC copies, no stamps, greedy victims from buckets
 * of closed blocks by valid count (doubly linked lists, oldest first), free blocks reused in FIFO
 * order, GC from below LOW to HIGH free blocks, int32 maps (l2p, p2l). It makes the same choices
 * as flashlab.ftl with FtlConfig(separation="none"), so both report the same GC copies.
 *
 * Host writes: a sequential fill of every LBA, then DRIVE_WRITES x USER uniform random LBAs,
 * lba = floor(u * USER) with u the top 53 bits of splitmix64 (seed SEED) / 2^53. The random LBAs
 * are generated one drive write at a time outside the timed loop.
 *
 * usage: minimal_ftl BLOCKS PAGES_PER_BLOCK USER_PAGES DRIVE_WRITES SEED
 * prints: random_host_writes_per_second host_writes gc_copies erases
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { LOW = 2, HIGH = 3 };

static int32_t *l2p, *p2l, *valid, *wp, *prev_, *next_, *closed, *head, *tail, *pool;
static int64_t nb, ppb, pool_head, pool_len, host_writes, gc_copies, erases;
static int32_t front = -1;

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

static void program(int32_t lba) {
    int32_t f = front;
    int64_t ppn = (int64_t)f * ppb + wp[f];
    p2l[ppn] = lba; l2p[lba] = (int32_t)ppn;
    valid[f]++;
    if (++wp[f] == ppb) { closed[f] = 1; list_push(valid[f], f); front = -1; }
}

static void collect(void) {
    while (pool_len < HIGH) {
        int32_t v = 0;
        while (head[v] < 0) v++;
        int32_t b = head[v];
        list_remove(v, b); closed[b] = 0;
        for (int64_t i = b * ppb; i < (b + 1) * ppb; i++) {
            int32_t lba = p2l[i];
            if (lba >= 0) {
                if (front < 0) front = pool_pop();
                program(lba); gc_copies++;
            }
            p2l[i] = -1;
        }
        valid[b] = 0; wp[b] = 0; erases++;
        pool_push(b);
    }
}

static void host_write(int32_t lba) {
    while (front < 0) { front = pool_pop(); if (pool_len < LOW) collect(); }
    int32_t old = l2p[lba];
    if (old >= 0) {
        int32_t b = (int32_t)(old / ppb);
        p2l[old] = -2 - lba;
        if (closed[b]) { list_remove(valid[b], b); list_push(valid[b] - 1, b); }
        valid[b]--;
    }
    program(lba);
    host_writes++;
}

static int32_t *alloc32(int64_t n, int32_t fill) {
    int32_t *a = malloc(n * sizeof(int32_t));
    if (!a) { perror("malloc"); exit(1); }
    for (int64_t i = 0; i < n; i++) a[i] = fill;
    return a;
}

static uint64_t rng_state;
static uint64_t splitmix(void) {  /* Steele, Lea & Flood 2014 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s BLOCKS PPB USER DRIVE_WRITES SEED\n", argv[0]); return 2; }
    nb = atoll(argv[1]); ppb = atoll(argv[2]);
    int64_t user = atoll(argv[3]), drive_writes = atoll(argv[4]);
    rng_state = (uint64_t)strtoull(argv[5], NULL, 10);
    l2p = alloc32(user, -1); p2l = alloc32(nb * ppb, -1);
    valid = alloc32(nb, 0); wp = alloc32(nb, 0); prev_ = alloc32(nb, -1); next_ = alloc32(nb, -1);
    closed = alloc32(nb, 0); head = alloc32(ppb + 1, -1); tail = alloc32(ppb + 1, -1); pool = alloc32(nb, 0);
    int32_t *lbas = alloc32(user, 0);
    for (int64_t b = 0; b < nb; b++) pool[b] = (int32_t)b;
    pool_len = nb;
    for (int64_t i = 0; i < user; i++) host_write((int32_t)i);
    double seconds = 0.0;
    for (int64_t k = 0; k < drive_writes; k++) {
        for (int64_t i = 0; i < user; i++) lbas[i] = (int32_t)((splitmix() >> 11) * (1.0 / 9007199254740992.0) * user);
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        for (int64_t i = 0; i < user; i++) host_write(lbas[i]);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        seconds += (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    }
    printf("%.6g %lld %lld %lld\n", drive_writes * user / seconds, (long long)host_writes, (long long)gc_copies,
           (long long)erases);
    return 0;
}
