#include "th_engine.h"
#include <string.h>

void th_engine_init(struct th_engine *e, const struct th_config *cfg, double thr_r, double thr_w, uint64_t t0)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->thr_r = thr_r;
    e->thr_w = thr_w;
    e->t0 = e->period_start = e->last_t = t0;
}

static void suspend(struct th_core_state *c, uint64_t t, uint64_t until, int *change)
{
    c->suspended = 1;
    c->since_ns = t;
    c->until_ns = until;
    c->count++;
    *change = 1;
}

static void resume(struct th_core_state *c, uint64_t t, int *change)
{
    c->suspended = 0;
    c->total_ns += t - c->since_ns;
    *change = -1;
}

/* Proportional suspension (the thesis' future work): T scaled by how far the estimate overshoots the
 * threshold, T * clamp(ratio - 1, 1/8, 1) with ratio = estimate / threshold; a sample interval at least. */
uint64_t th_suspension_ns(const struct th_config *c, double ratio)
{
    if (!c->proportional) return c->suspend_ns;
    double f = ratio - 1.0;
    if (f < 0.125) f = 0.125;
    if (f > 1.0) f = 1.0;
    uint64_t t = (uint64_t)((double)c->suspend_ns * f);
    return t < c->sample_ns ? c->sample_ns : t;
}

static void duty_round(struct th_engine *e, const struct th_round *r, uint64_t dt, int *change)
{
    const struct th_config *c = e->cfg;
    for (int i = 0; i < c->ncores; i++) {
        struct th_core_state *s = &e->core[i];
        s->est_r = dt ? (double)r->dr[i] * 1e9 / (double)dt : 0;
        s->est_w = dt ? (double)r->dw[i] * 1e9 / (double)dt : 0;
        if (s->suspended && r->t_ns >= s->until_ns) resume(s, r->t_ns, &change[i]);
        if (s->suspended) continue;
        double ratio = 0;
        if (e->thr_r > 0 && s->est_r >= e->thr_r) ratio = s->est_r / e->thr_r;
        if (e->thr_w > 0 && s->est_w >= e->thr_w && s->est_w / e->thr_w > ratio) ratio = s->est_w / e->thr_w;
        if (ratio > 0) {
            int ch = 0;
            suspend(s, r->t_ns, r->t_ns + th_suspension_ns(e->cfg, ratio), &ch);
            /* resumed and suspended again in the same round: the mechanism stays applied */
            change[i] = change[i] == -1 ? 0 : 1; /* resumed and suspended again in one round: stays */
        }
    }
}

static void budget_round(struct th_engine *e, const struct th_round *r, int *change)
{
    const struct th_config *c = e->cfg;
    uint64_t dt = r->t_ns - e->last_t;
    if (r->t_ns >= e->period_start + c->period_ns) {
        /* replenish at the period boundary: the boundary is the resume time */
        uint64_t k = (r->t_ns - e->period_start) / c->period_ns;
        e->period_start += k * c->period_ns;
        e->group_used = 0;
        for (int i = 0; i < c->ncores; i++) {
            e->core[i].used = 0;
            if (e->core[i].suspended) resume(&e->core[i], e->period_start, &change[i]);
        }
    }
    uint64_t end = e->period_start + c->period_ns;
    for (int i = 0; i < c->ncores; i++) {
        struct th_core_state *s = &e->core[i];
        uint64_t lines = (r->dr[i] + r->dw[i]) / 64;
        s->est_r = dt ? (double)r->dr[i] * 1e9 / (double)dt : 0;
        s->est_w = dt ? (double)r->dw[i] * 1e9 / (double)dt : 0;
        s->used += lines;
        e->group_used += lines;
    }
    for (int i = 0; i < c->ncores; i++) {
        struct th_core_state *s = &e->core[i];
        int over = c->dynamic ? e->group_used >= c->budget : s->used >= c->budget;
        if (over && !s->suspended) {
            int ch = 0;
            suspend(s, r->t_ns, end, &ch);
            change[i] = change[i] == -1 ? 0 : 1;
        }
    }
}

void th_engine_round(struct th_engine *e, const struct th_round *r, int change[TH_MAX_CORES])
{
    memset(change, 0, sizeof(int) * TH_MAX_CORES);
    uint64_t dt = r->t_ns > e->last_t ? r->t_ns - e->last_t : 0;
    if (e->cfg->mode == TH_MODE_DUTY) duty_round(e, r, dt, change);
    else budget_round(e, r, change);
    e->last_t = r->t_ns;
}

void th_engine_finish(struct th_engine *e, uint64_t t)
{
    for (int i = 0; i < e->cfg->ncores; i++) {
        int ch;
        if (e->core[i].suspended) resume(&e->core[i], t, &ch);
    }
}

void th_overflow_limits(double thr_r, double thr_w, uint64_t sample_ns, uint64_t *lim_r, uint64_t *lim_w)
{
    double s = (double)sample_ns / 1e9;
    *lim_r = thr_r > 0 ? (uint64_t)(thr_r * s) + 1 : 0; /* +1: at least one byte, and >= threshold means crossing */
    *lim_w = thr_w > 0 ? (uint64_t)(thr_w * s) + 1 : 0;
}

int th_overflow_crossing(const struct th_window *w, uint64_t t_ns, uint64_t sample_ns)
{
    return t_ns >= w->t_ns && t_ns - w->t_ns <= sample_ns;
}
