/* Counter sources behind one interface: perf_event_open, cooperative hog (shm), replay file. */
#ifndef TH_SOURCE_H
#define TH_SOURCE_H
#include <stddef.h>
#include <stdint.h>
#include "th_config.h"

/* One round of counts: per monitored core, bytes read and written since the last round. */
struct th_round {
    uint64_t t_ns;
    uint64_t dr[TH_MAX_CORES], dw[TH_MAX_CORES];
};

struct th_source_ops;
struct th_source {
    const struct th_source_ops *ops;
    const struct th_config *cfg;
    void *priv;
};
struct th_source_ops {
    const char *name;
    int (*open)(struct th_source *s, char *err, size_t errlen);
    /* 1 = round filled, 0 = end of input (replay), -1 = error */
    int (*read)(struct th_source *s, uint64_t now_ns, struct th_round *r);
    void (*close)(struct th_source *s);
    int timed; /* 1: times come from the source (replay), no sleeping */
};

extern const struct th_source_ops th_source_perf, th_source_coop, th_source_replay;
int th_source_open(struct th_source *s, const struct th_config *cfg, char *err, size_t errlen);

/* Perf event table (generic and per CPU model raw events). Returns 0 or -1 if unknown. */
struct th_event {
    const char *name;
    uint32_t type;
    uint64_t read_cfg, write_cfg;
    int has_write;
    const char *note;
};
const struct th_event *th_event_lookup(const char *name);
const char *th_event_names(void);

/* Shared-memory block the hog publishes. Besides its byte counts it offers what a PMU offers MemGuard:
 * an overflow notification. The daemon arms byte counts; the hog, when its count passes one, disarms,
 * stamps the time and wakes a futex (overflow sampling: no periodic wake-ups in the daemon). */
#define TH_HOG_MAGIC 0x43484f4756ULL
struct th_hog_shm {
    uint64_t magic;
    int64_t pid;
    uint64_t read_bytes; /* updated with __atomic stores */
    uint64_t write_bytes;
    uint64_t armed_read; /* notify when read_bytes >= this (0 = disarmed); set by the daemon */
    uint64_t armed_write;
    uint64_t crossed_ns; /* CLOCK_MONOTONIC time the hog passed an armed count */
    uint32_t futex;      /* incremented, then woken, at each notification */
    uint32_t pad;
};

/* coop source: the hog block of monitored core idx (NULL for other sources). */
struct th_hog_shm *th_source_coop_shm(struct th_source *s, int idx);

/* The hog's side: after publishing its counts, notify if it passed an armed count. */
void th_hog_notify_if_armed(struct th_hog_shm *m, uint64_t read_bytes, uint64_t write_bytes);
#endif
