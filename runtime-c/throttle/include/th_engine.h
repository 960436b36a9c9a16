/* The control law, pure and deterministic: duty-cycle (thesis ch.4) and budget (Yun et al./MemGuard). */
#ifndef TH_ENGINE_H
#define TH_ENGINE_H
#include <stdint.h>
#include "th_config.h"
#include "th_source.h"

struct th_core_state {
    int suspended;
    uint64_t until_ns;        /* end of the current suspension */
    uint64_t since_ns;        /* start of the current suspension */
    uint64_t used;            /* budget: lines used this period */
    uint64_t total_ns;        /* total suspended time */
    uint64_t count;           /* number of suspensions */
    double est_r, est_w;      /* last estimate, bytes/s */
};

struct th_engine {
    const struct th_config *cfg;
    double thr_r, thr_w;      /* absolute thresholds in bytes/s (0 = off) */
    uint64_t t0, period_start, last_t;
    uint64_t group_used;
    struct th_core_state core[TH_MAX_CORES];
};

void th_engine_init(struct th_engine *e, const struct th_config *cfg, double thr_r, double thr_w, uint64_t t0);
/* Feed one round. change[i] = +1 suspend core i, -1 resume, 0 none. */
void th_engine_round(struct th_engine *e, const struct th_round *r, int change[TH_MAX_CORES]);
/* Close open suspensions at time t (for totals). */
void th_engine_finish(struct th_engine *e, uint64_t t);
#endif
