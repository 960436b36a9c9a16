/* The control law, pure and deterministic: duty-cycle (thesis ch.4) and budget (Yun et al./MemGuard). */
#ifndef TH_ENGINE_H
#define TH_ENGINE_H
#include <stdint.h>
#include "th_config.h"
#include "th_source.h"

struct th_core_state {
    int suspended;
    uint64_t until_ns;   /* end of the current suspension */
    uint64_t since_ns;   /* start of the current suspension */
    uint64_t used;       /* budget: lines used this period */
    uint64_t total_ns;   /* total suspended time */
    uint64_t count;      /* number of suspensions */
    double est_r, est_w; /* last estimate, bytes/s */
};

struct th_engine {
    const struct th_config *cfg;
    double thr_r, thr_w; /* absolute thresholds in bytes/s (0 = off) */
    uint64_t t0, period_start, last_t;
    uint64_t group_used;
    struct th_core_state core[TH_MAX_CORES];
};

void th_engine_init(struct th_engine *e, const struct th_config *cfg, double thr_r, double thr_w, uint64_t t0);
/* Feed one round. change[i] = +1 suspend core i, -1 resume, 0 none. */
void th_engine_round(struct th_engine *e, const struct th_round *r, int change[TH_MAX_CORES]);
/* Close open suspensions at time t (for totals). */
void th_engine_finish(struct th_engine *e, uint64_t t);

/* Overflow sampling (duty-cycle without periodic samples): a window starts at (t, counts); the source
 * notifies when a count has grown by its limit, the threshold's bytes in one sample interval S. */
struct th_window {
    uint64_t t_ns, read, write;
};
/* Bytes per window at the thresholds (bytes/s; 0 = threshold off, limit 0). */
void th_overflow_limits(double thr_r, double thr_w, uint64_t sample_ns, uint64_t *lim_r, uint64_t *lim_w);
/* A limit was passed at t: a crossing if within S of the window start (the rate over the window reached a
 * threshold); otherwise the window slides to t. */
int th_overflow_crossing(const struct th_window *w, uint64_t t_ns, uint64_t sample_ns);
/* Suspension length for a crossing whose rate is `ratio` times the threshold (proportional or T). */
uint64_t th_suspension_ns(const struct th_config *c, double ratio);
#endif
