/* Engine tests with replayed counts: crossing -> suspension within one sample, T +- one sample,
 * budget replenished exactly at period boundaries, dynamic group sharing, proportional suspension. */
#include <stdio.h>
#include <string.h>
#include "th_engine.h"

static int failures;
#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

static void cfg_duty(struct th_config *c)
{
    th_config_defaults(c);
    c->ncores = 1;
    c->cores[0] = 1;
    c->sample_ns = 100000;
    c->suspend_ns = 900000;
    c->read_thr = 1e9;
    c->mech = TH_MECH_NONE;
}

static void test_duty_crossing(void)
{
    struct th_config c;
    cfg_duty(&c);
    struct th_engine e;
    th_engine_init(&e, &c, 1e9, 0, 0);
    struct th_round r;
    int ch[TH_MAX_CORES];
    uint64_t suspended_at = 0, resumed_at = 0;
    for (int k = 1; k <= 30; k++) {
        memset(&r, 0, sizeof r);
        r.t_ns = (uint64_t)k * 100000;
        /* the hog runs at 2 GB/s from sample 5 on whenever it is not suspended */
        if (k >= 5 && !e.core[0].suspended) r.dr[0] = 200000; /* 200 kB per 100 us = 2 GB/s */
        th_engine_round(&e, &r, ch);
        if (ch[0] == 1 && !suspended_at) suspended_at = r.t_ns;
        if (ch[0] == -1 && !resumed_at) resumed_at = r.t_ns;
    }
    CHECK(suspended_at == 500000); /* crossing seen in the sample that contains it */
    CHECK(resumed_at >= suspended_at + 900000 - 100000 && resumed_at <= suspended_at + 900000 + 100000);
    CHECK(e.core[0].count >= 2);
}

static void test_duty_write_threshold(void)
{
    struct th_config c;
    cfg_duty(&c);
    struct th_engine e;
    th_engine_init(&e, &c, 0, 5e8, 0);
    struct th_round r = { .t_ns = 100000 };
    int ch[TH_MAX_CORES];
    r.dr[0] = 10000000; /* read is not limited */
    th_engine_round(&e, &r, ch);
    CHECK(ch[0] == 0);
    r.t_ns = 200000;
    r.dw[0] = 60000; /* 600 MB/s >= 500 MB/s */
    th_engine_round(&e, &r, ch);
    CHECK(ch[0] == 1);
}

static void test_proportional(void)
{
    struct th_config c;
    cfg_duty(&c);
    c.proportional = 1;
    struct th_engine e;
    th_engine_init(&e, &c, 1e9, 0, 0);
    struct th_round r = { .t_ns = 100000 };
    int ch[TH_MAX_CORES];
    r.dr[0] = 150000; /* 1.5 GB/s: ratio 1.5 -> T/2 */
    th_engine_round(&e, &r, ch);
    CHECK(ch[0] == 1 && e.core[0].until_ns == 100000 + 450000);
    th_engine_init(&e, &c, 1e9, 0, 0);
    r.dr[0] = 1000000; /* 10 GB/s: full T */
    th_engine_round(&e, &r, ch);
    CHECK(e.core[0].until_ns == 100000 + 900000);
}

static void cfg_budget(struct th_config *c, int ncores, int dynamic)
{
    th_config_defaults(c);
    c->mode = TH_MODE_BUDGET;
    c->ncores = ncores;
    for (int i = 0; i < ncores; i++) c->cores[i] = i + 1;
    c->sample_ns = 100000;
    c->period_ns = 1000000;
    c->budget = 1000; /* lines per period */
    c->dynamic = dynamic;
    c->mech = TH_MECH_NONE;
}

static void test_budget_replenish(void)
{
    struct th_config c;
    cfg_budget(&c, 1, 0);
    struct th_engine e;
    th_engine_init(&e, &c, 0, 0, 0);
    struct th_round r;
    int ch[TH_MAX_CORES];
    int suspends = 0, resumes = 0;
    for (int k = 1; k <= 50; k++) {
        memset(&r, 0, sizeof r);
        r.t_ns = (uint64_t)k * 100000;
        if (!e.core[0].suspended) r.dr[0] = 300 * 64; /* 300 lines per sample: budget gone after 4 samples */
        th_engine_round(&e, &r, ch);
        if (ch[0] == 1) {
            suspends++;
            CHECK(e.core[0].used >= 1000);
            CHECK(e.core[0].until_ns % 1000000 == 0);
        }
        if (ch[0] == -1) {
            resumes++;
            CHECK(r.t_ns % 1000000 == 0);
        } /* exactly at a period boundary */
    }
    CHECK(suspends == 5);
    CHECK(resumes == 5); /* at 1, 2, 3, 4 and 5 ms */
    /* suspended from sample 4 (t=0.4ms) to the boundary 1ms in each period: 0.6 ms per period */
    th_engine_finish(&e, 5000000);
    CHECK(e.core[0].total_ns == 5 * 600000);
}

static void test_budget_static_vs_dynamic(void)
{
    struct th_config c;
    struct th_engine e;
    struct th_round r;
    int ch[TH_MAX_CORES];
    for (int dyn = 0; dyn < 2; dyn++) {
        cfg_budget(&c, 2, dyn);
        th_engine_init(&e, &c, 0, 0, 0);
        memset(&r, 0, sizeof r);
        r.t_ns = 100000;
        r.dr[0] = 600 * 64; /* core 1 uses 600 lines, core 2 uses 500: together over 1000 */
        r.dr[1] = 500 * 64;
        th_engine_round(&e, &r, ch);
        if (dyn) CHECK(ch[0] == 1 && ch[1] == 1); /* the shared budget is exhausted: all cores stop */
        else CHECK(ch[0] == 0 && ch[1] == 0);     /* each core still has its own budget */
        r.t_ns = 200000;
        r.dr[0] = 0;
        r.dr[1] = 200 * 64; /* core 2 uses its dynamic share freely */
        th_engine_round(&e, &r, ch);
        if (!dyn) CHECK(ch[1] == 0 && e.core[1].used == 700);
    }
}

/* Overflow sampling: a window's limit is the threshold's bytes in S; passing it within S is a crossing. */
static void test_overflow_law(void)
{
    uint64_t lr, lw;
    th_overflow_limits(1e9, 0, 100000, &lr, &lw); /* 1 GB/s over 100 us = 100000 bytes */
    CHECK(lr == 100001 && lw == 0);               /* more than the threshold's bytes; write off */
    th_overflow_limits(0, 2.5e9, 1000000, &lr, &lw);
    CHECK(lr == 0 && lw == 2500001);
    struct th_window w = { 1000000, 0, 0 };
    CHECK(th_overflow_crossing(&w, 1000000 + 40000, 100000));   /* 100 kB in 40 us: 2.5 GB/s */
    CHECK(th_overflow_crossing(&w, 1000000 + 100000, 100000));  /* exactly S: still at the threshold */
    CHECK(!th_overflow_crossing(&w, 1000000 + 100001, 100000)); /* slower than the threshold: slide */
    CHECK(!th_overflow_crossing(&w, 999999, 100000));           /* a stale notification from before the window */
    struct th_config c;
    th_config_defaults(&c);
    CHECK(th_suspension_ns(&c, 3.0) == 900000); /* fixed T */
    c.proportional = 1;
    CHECK(th_suspension_ns(&c, 1.5) == 450000);  /* T * (ratio - 1) */
    CHECK(th_suspension_ns(&c, 1.01) == 112500); /* at least T/8 */
}

int main(void)
{
    test_overflow_law();
    test_duty_crossing();
    test_duty_write_threshold();
    test_proportional();
    test_budget_replenish();
    test_budget_static_vs_dynamic();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_engine: ok\n");
    return 0;
}
