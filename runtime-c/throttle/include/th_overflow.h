/* Overflow sampling: one handler thread per monitored core waits for the hog's notification (no periodic
 * wake-ups), decides with th_overflow_crossing and suspends for T. Like MemGuard's per-core overflow
 * interrupt handler it runs on the monitored core at SCHED_FIFO: the hog's wake-up stays on that core
 * and the real-time cores pay nothing. With fifo-hold it holds the core itself by spinning for T; with
 * sigstop or freeze it applies the mechanism, sleeps T and lifts it. */
#ifndef TH_OVERFLOW_H
#define TH_OVERFLOW_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "th_config.h"
#include "th_engine.h"
#include "th_source.h"
#include "th_suspend.h"
#include "th_trace.h"

/* One notification: when the hog passed the limit, the bytes since the window start, and for a
 * crossing when the suspension began and ended. */
struct th_ovf_event {
    uint64_t t_window, t_cross, t_susp, t_resume, dr, dw;
    int crossing;
};

struct th_ovf;
struct th_ovf_core {
    struct th_ovf *o;
    int idx, started;
    pthread_t thread;
    struct th_hog_shm *m;
    struct th_ovf_event *ev; /* preallocated; events beyond cap are counted, not kept */
    size_t nev, cap;
    uint64_t dropped;
    uint64_t mech_ns; /* CPU time of the suspensions: spinning (fifo-hold), signals/freezing and the wake to resume */
    uint64_t cpu_ns;  /* the thread's CPU time when it ended */
};
struct th_ovf {
    const struct th_config *cfg;
    struct th_susp *susp;
    struct th_engine *eng; /* per-core totals (suspended time, suspensions) */
    pthread_mutex_t mu;    /* th_susp is shared by the handlers */
    int quit;
    struct th_ovf_core c[TH_MAX_CORES];
};

int th_ovf_start(struct th_ovf *o, const struct th_config *cfg, struct th_source *src, struct th_susp *susp,
                 struct th_engine *eng, char *err, size_t errlen);
/* Stops and joins the handlers (each ends any suspension first) and disarms the hogs. */
void th_ovf_stop(struct th_ovf *o);
/* The events as trace samples (suspend and resume rows), in time order; frees nothing. */
void th_ovf_to_trace(const struct th_ovf *o, struct th_trace *t);
/* Crossing → suspension delays of core idx (ns): count and percentiles. */
int th_ovf_delays(const struct th_ovf *o, int idx, uint32_t *p50, uint32_t *p99, uint32_t *max);
/* CPU time of the handlers (ns): detecting (waiting, deciding, re-arming) and suspending (the mechanism,
 * for fifo-hold the holding itself); and the number of notifications handled. */
uint64_t th_ovf_detect_ns(const struct th_ovf *o);
uint64_t th_ovf_mechanism_ns(const struct th_ovf *o);
uint64_t th_ovf_events(const struct th_ovf *o);
void th_ovf_free(struct th_ovf *o);
#endif
