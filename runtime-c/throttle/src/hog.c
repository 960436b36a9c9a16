#define _GNU_SOURCE
#include "th_hog.h"
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint64_t th_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t th_hog_pass(uint64_t *buf, size_t words, enum th_hog_mode mode, uint64_t *rd, uint64_t *wr)
{
    uint64_t sum = 0;
    volatile uint64_t *b = buf;
    if (mode == TH_HOG_READ) {
        for (size_t i = 0; i < words; i += 8) sum += b[i]; /* one load per 64-byte line */
        *rd += words * 8;
    } else if (mode == TH_HOG_WRITE) {
        for (size_t i = 0; i < words; i += 8) b[i] = i;
        *wr += words * 8;
    } else {
        size_t half = words / 2;
        for (size_t i = 0; i < half; i += 8) sum += b[i];
        for (size_t i = half; i < words; i += 8) b[i] = i;
        *rd += half * 8;
        *wr += (words - half) * 8;
    }
    return sum;
}

int th_calibrate(size_t bytes, int ms, double *read_bps, double *write_bps)
{
    size_t words = bytes / 8;
    uint64_t *buf = aligned_alloc(64, words * 8);
    if (!buf) return -1;
    for (size_t i = 0; i < words; i++) buf[i] = i;
    for (int m = 0; m < 2; m++) {
        uint64_t rd = 0, wr = 0, t0 = th_now_ns(), t;
        volatile uint64_t sink = 0;
        do sink += th_hog_pass(buf, words, m ? TH_HOG_WRITE : TH_HOG_READ, &rd, &wr);
        while ((t = th_now_ns()) - t0 < (uint64_t)ms * 1000000ULL);
        (void)sink;
        double bps = (double)(m ? wr : rd) * 1e9 / (double)(t - t0);
        *(m ? write_bps : read_bps) = bps;
    }
    free(buf);
    return 0;
}

void th_hog_notify_if_armed(struct th_hog_shm *m, uint64_t rd, uint64_t wr)
{
    uint64_t ar = __atomic_load_n(&m->armed_read, __ATOMIC_ACQUIRE),
             aw = __atomic_load_n(&m->armed_write, __ATOMIC_ACQUIRE);
    if (!((ar && rd >= ar) || (aw && wr >= aw))) return;
    __atomic_store_n(&m->armed_read, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&m->armed_write, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&m->crossed_ns, th_now_ns(), __ATOMIC_RELEASE);
    __atomic_add_fetch(&m->futex, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &m->futex, FUTEX_WAKE, INT_MAX, NULL, NULL, 0); /* shared mapping: not FUTEX_PRIVATE */
}
