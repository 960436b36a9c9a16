/* Runtime: signals, a two-thread pipeline, the iteration barrier, stop, and the watchdog. */
#include "chainlab/rt.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            failures++; \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n"); \
        } \
    } while (0)

typedef struct {
    uint64_t produced[3], seen, bad;
} state;
static void produce(void *u, uint64_t it) {
    state *s = u;
    s->produced[it % 3] = it;
}
static void consume(void *u, uint64_t it) {
    state *s = u;
    if (s->produced[it % 3] != it) s->bad++;
    s->seen++;
}

/* producer on thread 0, consumer on thread 1; data signal 0, anti signal 1 with 3 slots */
static const cl_step t0_steps[] = { { CL_WAIT, 1 }, { CL_EXEC, 0 }, { CL_SIGNAL, 0 } };
static const cl_step t1_steps[] = { { CL_WAIT, 0 }, { CL_EXEC, 1 }, { CL_SIGNAL, 1 } };
static const cl_step t0_barrier[] = { { CL_WAIT, 1 }, { CL_EXEC, 0 }, { CL_SIGNAL, 0 }, { CL_BARRIER, 0 } };
static const cl_step t1_barrier[] = { { CL_WAIT, 0 }, { CL_EXEC, 1 }, { CL_SIGNAL, 1 }, { CL_BARRIER, 0 } };
static const cl_subbox_spec subs[] = { { "p.0", produce }, { "c.0", consume } };

static int run(const cl_step *a, int na, const cl_step *b, int nb, int anti_tokens, uint64_t iters, double watchdog,
               int stop_after_ms, uint64_t *completed, state *st) {
    cl_thread_spec th[] = { { "t0", -1, a, na }, { "t1", -1, b, nb } };
    cl_signal_spec sg[] = { { "data", 0 }, { "anti", anti_tokens } };
    cl_program p = { "test", 2, th, 2, sg, 2, subs, 4096, 64 };
    cl_options o;
    cl_default_options(&o);
    o.iterations = iters;
    o.watchdog_s = watchdog;
    o.timers = 1;
    memset(st, 0, sizeof *st);
    cl_ctx *c = cl_create(&p, &o, st);
    if (!c) return -1;
    (void)stop_after_ms;
    int rc = cl_run(c);
    *completed = cl_completed(c);
    for (uint64_t i = 0; i < *completed; i++) {
        int64_t s, e;
        cl_latency(c, i, &s, &e);
        if (e < s) {
            failures++;
            fprintf(stderr, "FAIL iteration %llu ends before it starts\n", (unsigned long long)i);
            break;
        }
    }
    CHECK(cl_write_csv(c, "test_rt.csv") == 0, "csv");
    CHECK(cl_write_json(c, "test_rt.json", "{\"heuristic\": \"test\"}", 42, rc) == 0, "json");
    cl_destroy(c);
    return rc;
}

static void *stopper(void *arg) {
    usleep(100000);
    cl_stop(arg);
    return NULL;
}

int main(void) {
    uint64_t done;
    state st;
    int rc = run(t0_steps, 3, t1_steps, 3, 3, 20000, 5, 0, &done, &st);
    CHECK(rc == 0 && done == 20000, "pipeline rc %d done %llu", rc, (unsigned long long)done);
    CHECK(st.seen == 20000 && st.bad == 0, "pipeline order: seen %llu bad %llu", (unsigned long long)st.seen,
          (unsigned long long)st.bad);
    rc = run(t0_barrier, 4, t1_barrier, 4, 1, 5000, 5, 0, &done, &st);
    CHECK(rc == 0 && done == 5000 && st.bad == 0, "barrier rc %d done %llu bad %llu", rc, (unsigned long long)done,
          (unsigned long long)st.bad);
    /* a signal nobody sends: the watchdog aborts instead of hanging */
    rc = run(t0_steps, 3, t1_steps, 3, 0, 10, 0.2, 0, &done, &st);
    CHECK(rc == 2 && done == 0, "watchdog rc %d done %llu", rc, (unsigned long long)done);
    /* stopping keeps what was measured */
    {
        cl_thread_spec th[] = { { "t0", -1, t0_steps, 3 }, { "t1", -1, t1_steps, 3 } };
        cl_signal_spec sg[] = { { "data", 0 }, { "anti", 1 } };
        cl_program p = { "test", 2, th, 2, sg, 2, subs, 4096, 64 };
        cl_options o;
        cl_default_options(&o);
        o.iterations = 1000000000ULL / 1000;
        o.period_ns = 1000000; /* 1 ms period: ~1000 s unless stopped */
        memset(&st, 0, sizeof st);
        cl_ctx *c = cl_create(&p, &o, &st);
        pthread_t t;
        pthread_create(&t, NULL, stopper, c);
        int64_t t0 = cl_now_ns();
        rc = cl_run(c);
        pthread_join(t, NULL);
        done = cl_completed(c);
        CHECK(rc == 1 && done > 10 && done < 1000, "stop rc %d done %llu", rc, (unsigned long long)done);
        CHECK(cl_now_ns() - t0 < 2000000000LL, "stop took too long");
        int64_t s, e;
        cl_latency(c, 5, &s, &e);
        CHECK(s >= 5 * 1000000 && s < 6 * 1000000 + 2000000, "periodic release at %lld", (long long)s);
        cl_destroy(c);
    }
    /* semaphore counts */
    cl_sem sem;
    cl_sem_init(&sem, 2);
    int stop = 0;
    CHECK(cl_sem_wait(&sem, 10, &stop, 0) == 0 && cl_sem_wait(&sem, 10, &stop, 0) == 0, "two tokens");
    CHECK(cl_sem_wait(&sem, 10, &stop, 10000000) == -1, "no third token");
    printf("%s: runtime\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
