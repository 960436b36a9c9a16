/* chainlab runtime (see rt.h). Linux: futex, affinity, SCHED_FIFO, mlockall. */
#define _GNU_SOURCE
#include "chainlab/rt.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define BLOCK_NS 50000000LL /* blocked waits wake up this often to check stop and the watchdog */

typedef struct {
    cl_ctx *ctx;
    int index;
    pthread_t tid;
    int started;
    int64_t *start, *end; /* per iteration: first execute's start, last execute's end */
    uint64_t done;        /* iterations completed (atomic) */
} worker;

typedef struct {
    int count, generation;
} cl_barrier;

struct cl_ctx {
    const cl_program *p;
    cl_options o;
    void *user;
    unsigned char *arena;
    size_t arena_mapped;
    void *map;
    cl_sem *sems;
    cl_barrier barrier;
    worker *w;
    int64_t t0;
    int stop, failed;
    int64_t *sub_total, *sub_max;
    uint64_t *sub_count;
    int64_t *trace; /* [iteration % traced][sub-box][start, end]: each sub-box runs once per iteration */
    uint64_t traced;
};

/* The trace's memory at most: its iterations are cut to fit. */
#define TRACE_BYTES ((uint64_t)64 << 20)

static cl_ctx *signalled; /* the context SIGINT/SIGTERM stop: the runtime's one global */

int64_t cl_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void futex_wait(int *addr, int expected, int64_t ns) {
    struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
    syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
}
static void futex_wake(int *addr, int n) { syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0); }

void cl_sem_init(cl_sem *s, int tokens) {
    s->tokens = tokens;
    s->waiters = 0;
}

void cl_sem_post(cl_sem *s) {
    __atomic_fetch_add(&s->tokens, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&s->waiters, __ATOMIC_SEQ_CST)) futex_wake(&s->tokens, 1);
}

static inline int try_take(cl_sem *s) {
    int v = __atomic_load_n(&s->tokens, __ATOMIC_ACQUIRE);
    while (v > 0)
        if (__atomic_compare_exchange_n(&s->tokens, &v, v - 1, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 1;
    return 0;
}

int cl_sem_wait(cl_sem *s, int spin, const int *stop, int64_t timeout_ns) {
    for (int i = 0; i < spin; i++) {
        if (try_take(s)) return 0;
        cpu_relax();
    }
    if (try_take(s)) return 0;
    int64_t begin = timeout_ns > 0 ? cl_now_ns() : 0;
    __atomic_fetch_add(&s->waiters, 1, __ATOMIC_SEQ_CST);
    int rc = 0;
    for (;;) {
        if (try_take(s)) break;
        if (stop && LOAD(stop)) {
            rc = -1;
            break;
        }
        if (timeout_ns > 0 && cl_now_ns() - begin > timeout_ns) {
            rc = -1;
            break;
        }
        futex_wait(&s->tokens, 0, BLOCK_NS);
    }
    __atomic_fetch_sub(&s->waiters, 1, __ATOMIC_SEQ_CST);
    return rc;
}

static int barrier_wait(cl_ctx *c, int spin, int64_t timeout_ns) {
    cl_barrier *b = &c->barrier;
    int gen = LOAD(&b->generation);
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == c->p->nthreads) {
        STORE(&b->count, 0);
        __atomic_fetch_add(&b->generation, 1, __ATOMIC_ACQ_REL);
        futex_wake(&b->generation, 1 << 30);
        return 0;
    }
    for (int i = 0; i < spin; i++) {
        if (LOAD(&b->generation) != gen) return 0;
        cpu_relax();
    }
    int64_t begin = cl_now_ns();
    while (LOAD(&b->generation) == gen) {
        if (LOAD(&c->stop)) return -1;
        if (timeout_ns > 0 && cl_now_ns() - begin > timeout_ns) return -2;
        futex_wait(&b->generation, gen, BLOCK_NS);
    }
    return 0;
}

void cl_default_options(cl_options *o) {
    memset(o, 0, sizeof *o);
    o->iterations = 1000;
    o->spin = -1;
    o->watchdog_s = 10.0;
}

static void on_signal(int sig) {
    (void)sig;
    if (signalled) __atomic_store_n(&signalled->stop, 1, __ATOMIC_RELEASE);
}

cl_ctx *cl_create(const cl_program *p, const cl_options *o, void *user) {
    cl_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->p = p;
    c->o = *o;
    c->user = user;
    if (c->o.spin < 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c->o.spin = p->nthreads <= cores ? 2000 : 0; /* spinning only pays when every thread has a core */
    }
    size_t align = o->huge_pages ? (size_t)2 << 20 : (size_t)4096;
    c->arena_mapped = ((p->arena_bytes ? p->arena_bytes : 1) + align - 1) / align * align + align;
    void *m = mmap(NULL, c->arena_mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "chainlab: cannot map an arena of %zu bytes: %s\n", p->arena_bytes, strerror(errno));
        free(c);
        return NULL;
    }
    c->arena = (unsigned char *)(((uintptr_t)m + align - 1) / align * align);
#ifdef MADV_HUGEPAGE
    if (o->huge_pages) madvise(c->arena, c->arena_mapped - align, MADV_HUGEPAGE);
#endif
    memset(m, 0, c->arena_mapped); /* pre-fault every page */
    c->map = m;
    c->sems = aligned_alloc(64, sizeof(cl_sem) * (size_t)(p->nsignals ? p->nsignals : 1));
    c->w = calloc((size_t)p->nthreads, sizeof(worker));
    c->sub_total = calloc((size_t)p->nsubs + 1, sizeof(int64_t));
    c->sub_max = calloc((size_t)p->nsubs + 1, sizeof(int64_t));
    c->sub_count = calloc((size_t)p->nsubs + 1, sizeof(uint64_t));
    int ok = c->sems && c->w && c->sub_total && c->sub_max && c->sub_count;
    if (o->iterations < 1 || o->iterations > CL_MAX_ITERATIONS) {
        fprintf(stderr, "chainlab: iterations must be 1 to %llu, not %llu\n", CL_MAX_ITERATIONS,
                (unsigned long long)o->iterations);
        cl_destroy(c);
        return NULL;
    }
    if (ok && o->trace > 0 && p->nsubs > 0) {
        uint64_t per_iteration = (uint64_t)p->nsubs * 2 * sizeof(int64_t);
        c->traced = o->trace < o->iterations ? o->trace : o->iterations;
        if (c->traced > TRACE_BYTES / per_iteration) c->traced = TRACE_BYTES / per_iteration;
        if (c->traced == 0) c->traced = 1;
        c->trace = calloc(c->traced * (uint64_t)p->nsubs * 2, sizeof(int64_t));
        ok = c->trace != NULL;
    }
    for (int t = 0; ok && t < p->nthreads; t++) {
        c->w[t].ctx = c;
        c->w[t].index = t;
        c->w[t].start = calloc(o->iterations + 1, sizeof(int64_t));
        c->w[t].end = calloc(o->iterations + 1, sizeof(int64_t));
        ok = c->w[t].start && c->w[t].end;
        if (ok) {
            memset(c->w[t].start, 0x7f, (o->iterations + 1) * sizeof(int64_t));
            memset(c->w[t].end, 0, (o->iterations + 1) * sizeof(int64_t));
        }
    }
    if (!ok) {
        fprintf(stderr, "chainlab: out of memory for %llu iterations\n", (unsigned long long)o->iterations);
        cl_destroy(c);
        return NULL;
    }
    for (int s = 0; s < p->nsignals; s++) cl_sem_init(&c->sems[s], p->signals[s].initial_tokens);
    if (o->lock_memory && mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
        fprintf(stderr, "chainlab: warning: mlockall refused (%s); memory not locked\n", strerror(errno));
    return c;
}

unsigned char *cl_arena(cl_ctx *c) { return c->arena; }
void cl_set_user(cl_ctx *c, void *user) { c->user = user; }
void cl_stop(cl_ctx *c) { STORE(&c->stop, 1); }

static void fail(cl_ctx *c, const char *fmt, const char *a, const char *b, unsigned long long it) {
    if (!__atomic_exchange_n(&c->failed, 1, __ATOMIC_ACQ_REL)) {
        fprintf(stderr, "chainlab: watchdog: ");
        fprintf(stderr, fmt, a, b, it);
        fprintf(stderr, " for more than %.1f s; aborting the run\n", c->o.watchdog_s);
    }
    STORE(&c->stop, 1);
}

static void *thread_main(void *arg) {
    worker *w = arg;
    cl_ctx *c = w->ctx;
    const cl_program *p = c->p;
    const cl_thread_spec *th = &p->threads[w->index];
    int64_t wd = (int64_t)(c->o.watchdog_s * 1e9);
    for (uint64_t it = 0; it < c->o.iterations; it++) {
        if (LOAD(&c->stop)) break;
        if (c->o.period_ns > 0) {
            int64_t rel = c->t0 + (int64_t)it * c->o.period_ns;
            struct timespec ts = { (time_t)(rel / 1000000000LL), (long)(rel % 1000000000LL) };
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
            w->start[it] = rel;
        }
        int64_t first = 0, last = 0;
        for (int k = 0; k < th->nsteps; k++) {
            const cl_step *st = &th->steps[k];
            switch (st->op) {
            case CL_WAIT:
                if (cl_sem_wait(&c->sems[st->ref], c->o.spin, &c->stop, wd) != 0) {
                    if (!LOAD(&c->stop))
                        fail(c, "thread %s waited on signal %s in iteration %llu", th->name, p->signals[st->ref].name,
                             (unsigned long long)it);
                    goto out;
                }
                break;
            case CL_SIGNAL: cl_sem_post(&c->sems[st->ref]); break;
            case CL_BARRIER: {
                int r = barrier_wait(c, c->o.spin, wd);
                if (r == -2)
                    fail(c, "thread %s waited at the iteration barrier%s in iteration %llu", th->name, "",
                         (unsigned long long)it);
                if (r) goto out;
                break;
            }
            case CL_EXEC: {
                int64_t t = cl_now_ns();
                if (!first) first = t;
                p->subs[st->ref].fn(c->user, it);
                last = cl_now_ns();
                if (c->trace) {
                    int64_t *slot = &c->trace[((it % c->traced) * (uint64_t)p->nsubs + (uint64_t)st->ref) * 2];
                    slot[0] = t;
                    slot[1] = last;
                }
                if (c->o.timers) {
                    int64_t d = last - t;
                    c->sub_total[st->ref] += d;
                    if (d > c->sub_max[st->ref]) c->sub_max[st->ref] = d;
                    c->sub_count[st->ref]++;
                }
                break;
            }
            }
        }
        if (c->o.period_ns <= 0 && first) w->start[it] = first;
        w->end[it] = last;
        STORE(&w->done, it + 1);
    }
out:
    return NULL;
}

static void start_thread(cl_ctx *c, int t) {
    const cl_thread_spec *th = &c->p->threads[t];
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)4 << 20);
    if (th->core >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(th->core, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    if (c->o.fifo_priority > 0) {
        struct sched_param sp = { .sched_priority = c->o.fifo_priority };
        pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
        pthread_attr_setschedparam(&attr, &sp);
    }
    int rc = pthread_create(&c->w[t].tid, &attr, thread_main, &c->w[t]);
    if (rc == EPERM && c->o.fifo_priority > 0) {
        fprintf(stderr, "chainlab: warning: SCHED_FIFO refused; thread %s runs with normal priority\n", th->name);
        pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
        rc = pthread_create(&c->w[t].tid, &attr, thread_main, &c->w[t]);
    }
    if (rc == EINVAL && th->core >= 0) {
        fprintf(stderr, "chainlab: warning: core %d is not available; thread %s is not pinned\n", th->core, th->name);
        cpu_set_t all;
        CPU_ZERO(&all);
        for (int i = 0; i < CPU_SETSIZE; i++) CPU_SET(i, &all);
        pthread_attr_setaffinity_np(&attr, sizeof all, &all);
        rc = pthread_create(&c->w[t].tid, &attr, thread_main, &c->w[t]);
    }
    pthread_attr_destroy(&attr);
    if (rc) {
        fprintf(stderr, "chainlab: cannot start thread %s: %s\n", th->name, strerror(rc));
        STORE(&c->stop, 1);
    } else c->w[t].started = 1;
}

int cl_run(cl_ctx *c) {
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    signalled = c;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    /* worker threads block the signals; the main thread takes them */
    sigset_t block, prev;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &prev);
    c->t0 = cl_now_ns() + (c->o.period_ns > 0 ? 1000000 : 0);
    for (int t = 0; t < c->p->nthreads; t++) start_thread(c, t);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    int last_pct = -1;
    for (;;) {
        uint64_t done = cl_completed(c);
        int alive = 0;
        for (int t = 0; t < c->p->nthreads; t++)
            if (c->w[t].started && LOAD(&c->w[t].done) < c->o.iterations && !LOAD(&c->stop)) alive = 1;
        if (c->o.progress) {
            int pct = (int)(100 * done / (c->o.iterations ? c->o.iterations : 1));
            if (pct != last_pct) {
                char bar[41];
                memset(bar, '#', 40);
                memset(bar + pct * 40 / 100, '.', 40 - pct * 40 / 100);
                bar[40] = 0;
                fprintf(stderr, "\r[%s] %3d%% %llu/%llu", bar, pct, (unsigned long long)done,
                        (unsigned long long)c->o.iterations);
                last_pct = pct;
            }
        }
        if (!alive) break;
        struct timespec ts = { 0, 20000000 };
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < c->p->nthreads; t++)
        if (c->w[t].started) pthread_join(c->w[t].tid, NULL);
    if (c->o.progress) fprintf(stderr, "\n");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    signalled = NULL;
    if (LOAD(&c->failed)) return 2;
    return cl_completed(c) < c->o.iterations ? 1 : 0;
}

uint64_t cl_completed(const cl_ctx *c) {
    uint64_t n = c->o.iterations;
    for (int t = 0; t < c->p->nthreads; t++) {
        uint64_t d = __atomic_load_n(&c->w[t].done, __ATOMIC_ACQUIRE);
        if (d < n) n = d;
    }
    return n;
}

void cl_latency(const cl_ctx *c, uint64_t i, int64_t *start_ns, int64_t *end_ns) {
    int64_t s = INT64_MAX, e = 0;
    for (int t = 0; t < c->p->nthreads; t++) {
        if (c->w[t].start[i] < s) s = c->w[t].start[i];
        if (c->w[t].end[i] > e) e = c->w[t].end[i];
    }
    *start_ns = s - c->t0;
    *end_ns = e - c->t0;
}

/* Results files: written to PATH.tmp, checked (a full disk shows at fflush/fclose), then renamed over PATH. */
static FILE *open_tmp(const char *path, char *tmp, size_t n) {
    if ((size_t)snprintf(tmp, n, "%s.tmp", path) >= n) {
        fprintf(stderr, "chainlab: cannot write %s: path too long\n", path);
        return NULL;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) fprintf(stderr, "chainlab: cannot write %s: %s\n", tmp, strerror(errno));
    return f;
}

static int close_tmp(FILE *f, const char *tmp, const char *path) {
    int failed = fflush(f) != 0 || ferror(f);
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        fprintf(stderr, "chainlab: cannot write %s: %s\n", path, strerror(saved ? saved : EIO));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int cl_write_csv(const cl_ctx *c, const char *path) {
    char tmp[4096];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    fprintf(f, "iteration,start_ns,end_ns\n");
    uint64_t n = cl_completed(c);
    for (uint64_t i = 0; i < n; i++) {
        int64_t s, e;
        cl_latency(c, i, &s, &e);
        fprintf(f, "%llu,%lld,%lld\n", (unsigned long long)i, (long long)s, (long long)e);
    }
    return close_tmp(f, tmp, path);
}

int cl_write_trace(const cl_ctx *c, const char *path) {
    char tmp[4096];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    fprintf(f, "iteration,sub_box,start_ns,end_ns\n");
    uint64_t n = cl_completed(c);
    for (uint64_t i = c->trace && n > c->traced ? n - c->traced : 0; c->trace && i < n; i++) {
        int64_t release, end;
        cl_latency(c, i, &release, &end);
        release += c->t0;
        const int64_t *slot = &c->trace[(i % c->traced) * (uint64_t)c->p->nsubs * 2];
        for (int s = 0; s < c->p->nsubs; s++)
            fprintf(f, "%llu,%s,%lld,%lld\n", (unsigned long long)i, c->p->subs[s].name,
                    (long long)(slot[2 * s] - release), (long long)(slot[2 * s + 1] - release));
    }
    return close_tmp(f, tmp, path);
}

static void read_line(const char *path, const char *key, char *out, size_t n) {
    snprintf(out, n, "unknown");
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (key && strncmp(line, key, strlen(key)) != 0) continue;
        char *v = key ? strchr(line, ':') : line;
        if (!v) continue;
        v += key ? 1 : 0;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\n")] = 0;
        for (char *q = v; *q; q++)
            if (*q == '"' || *q == '\\') *q = ' ';
        snprintf(out, n, "%s", v);
        break;
    }
    fclose(f);
}

int cl_write_json(const cl_ctx *c, const char *path, const char *plan_json, uint64_t checksum, int status) {
    char tmp[4096];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    char cpu[256], gov[64];
    struct utsname u;
    if (uname(&u) != 0) memset(&u, 0, sizeof u);
    read_line("/proc/cpuinfo", "model name", cpu, sizeof cpu);
    read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL, gov, sizeof gov);
    fprintf(f, "{\n  \"chain\": \"%s\",\n  \"plan\": %s,\n", c->p->chain, plan_json ? plan_json : "null");
    fprintf(f, "  \"machine\": {\"cpu_model\": \"%s\", \"kernel\": \"%s %s\", \"governor\": \"%s\", \"cores\": %ld},\n",
            cpu, u.sysname, u.release, gov, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f,
            "  \"options\": {\"iterations\": %llu, \"period_ns\": %lld, \"fifo_priority\": %d, \"lock_memory\": %d, "
            "\"huge_pages\": %d, \"spin\": %d, \"watchdog_s\": %g},\n",
            (unsigned long long)c->o.iterations, (long long)c->o.period_ns, c->o.fifo_priority, c->o.lock_memory,
            c->o.huge_pages, c->o.spin, c->o.watchdog_s);
    fprintf(f, "  \"arena_bytes\": %zu,\n  \"completed\": %llu,\n  \"status\": \"%s\",\n  \"checksum\": \"%016llx\",\n",
            c->p->arena_bytes, (unsigned long long)cl_completed(c),
            status == 0   ? "ok"
            : status == 1 ? "stopped"
                          : "watchdog",
            (unsigned long long)checksum);
    fprintf(f, "  \"sub_box_timers\": [");
    for (int s = 0; c->o.timers && s < c->p->nsubs; s++)
        fprintf(f, "%s{\"sub_box\": \"%s\", \"count\": %llu, \"total_ns\": %lld, \"max_ns\": %lld}", s ? ", " : "",
                c->p->subs[s].name, (unsigned long long)c->sub_count[s], (long long)c->sub_total[s],
                (long long)c->sub_max[s]);
    fprintf(f, "]\n}\n");
    return close_tmp(f, tmp, path);
}

void cl_subbox_time(const cl_ctx *c, int sub, int64_t *total_ns, int64_t *max_ns, uint64_t *count) {
    *total_ns = c->sub_total[sub];
    *max_ns = c->sub_max[sub];
    *count = c->sub_count[sub];
}

int cl_calibrate(cl_ctx *c, int reps, const char *path) {
    char tmp[4096];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f) return -1;
    fprintf(f, "sub_box,rep,ns\n");
    for (int s = 0; s < c->p->nsubs; s++) {
        c->p->subs[s].fn(c->user, 0); /* warm the caches once */
        for (int r = 0; r < reps; r++) {
            int64_t t = cl_now_ns();
            c->p->subs[s].fn(c->user, (uint64_t)r + 1);
            fprintf(f, "%s,%d,%lld\n", c->p->subs[s].name, r, (long long)(cl_now_ns() - t));
        }
    }
    return close_tmp(f, tmp, path);
}

void cl_destroy(cl_ctx *c) {
    if (!c) return;
    if (c->map) munmap(c->map, c->arena_mapped);
    if (c->w)
        for (int t = 0; t < c->p->nthreads; t++) {
            free(c->w[t].start);
            free(c->w[t].end);
        }
    free(c->w);
    free(c->sems);
    free(c->sub_total);
    free(c->sub_max);
    free(c->sub_count);
    free(c->trace);
    free(c);
}
