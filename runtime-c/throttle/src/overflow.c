#define _GNU_SOURCE
#include "th_overflow.h"
#include "th_hog.h"
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TH_OVF_EVENTS 65536
#define TH_OVF_POLL_NS 50000000ULL /* a handler re-checks `quit` at least this often */

static int quitting(const struct th_ovf *o) { return __atomic_load_n(&o->quit, __ATOMIC_ACQUIRE); }

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Start a window now: read the counts, then arm the hog at count + limit. The futex value is read first,
 * so a notification between arming and waiting is not missed (the wait returns at once). */
static uint32_t arm(struct th_ovf_core *c, struct th_window *w, uint64_t lim_r, uint64_t lim_w)
{
    uint32_t seq = __atomic_load_n(&c->m->futex, __ATOMIC_ACQUIRE);
    w->t_ns = th_now_ns();
    w->read = __atomic_load_n(&c->m->read_bytes, __ATOMIC_RELAXED);
    w->write = __atomic_load_n(&c->m->write_bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&c->m->armed_read, lim_r ? w->read + lim_r : 0, __ATOMIC_RELEASE);
    __atomic_store_n(&c->m->armed_write, lim_w ? w->write + lim_w : 0, __ATOMIC_RELEASE);
    return seq;
}

static void wait_notification(struct th_ovf_core *c, uint32_t seq)
{
    struct timespec timeout = { 0, (long)TH_OVF_POLL_NS };
    syscall(SYS_futex, &c->m->futex, FUTEX_WAIT, seq, &timeout, NULL, 0);
}

/* Hold the core by spinning at SCHED_FIFO until `until` (fifo-hold); the handler runs on that core. */
static void hold_until(const struct th_ovf *o, uint64_t until)
{
    while (th_now_ns() < until && !quitting(o)) __builtin_ia32_pause();
}

/* Sleep until `until` or until th_ovf_stop: a futex on `quit`, so a stop (SIGTERM) resumes at once
 * instead of after the whole suspension. */
static void sleep_until(struct th_ovf *o, uint64_t until)
{
    for (uint64_t now; (now = th_now_ns()) < until && !quitting(o);) {
        uint64_t left = until - now;
        struct timespec ts = { (time_t)(left / 1000000000ULL), (long)(left % 1000000000ULL) };
        syscall(SYS_futex, &o->quit, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
    }
}

static void apply(struct th_ovf *o, int idx, int on)
{
    pthread_mutex_lock(&o->mu);
    th_susp_apply(o->susp, idx, on);
    pthread_mutex_unlock(&o->mu);
}

static void *handler_main(void *arg)
{
    struct th_ovf_core *c = arg;
    struct th_ovf *o = c->o;
    const struct th_config *cfg = o->cfg;
    uint64_t lim_r, lim_w;
    th_overflow_limits(o->eng->thr_r, o->eng->thr_w, cfg->sample_ns, &lim_r, &lim_w);
    struct th_window w;
    uint32_t seq = arm(c, &w, lim_r, lim_w);
    while (!quitting(o)) {
        wait_notification(c, seq);
        if (quitting(o)) break;
        if (__atomic_load_n(&c->m->futex, __ATOMIC_ACQUIRE) == seq) continue; /* time-out or spurious */
        uint64_t t_cross = __atomic_load_n(&c->m->crossed_ns, __ATOMIC_ACQUIRE);
        uint64_t r = __atomic_load_n(&c->m->read_bytes, __ATOMIC_RELAXED),
                 wr = __atomic_load_n(&c->m->write_bytes, __ATOMIC_RELAXED);
        struct th_ovf_event ev = {
            w.t_ns, t_cross, 0, 0, r - w.read, wr - w.write, th_overflow_crossing(&w, t_cross, cfg->sample_ns)
        };
        if (ev.crossing) {
            double dt = (double)(t_cross > w.t_ns ? t_cross - w.t_ns : 1) / 1e9, ratio = 0;
            if (o->eng->thr_r > 0) ratio = (double)ev.dr / dt / o->eng->thr_r;
            if (o->eng->thr_w > 0 && (double)ev.dw / dt / o->eng->thr_w > ratio)
                ratio = (double)ev.dw / dt / o->eng->thr_w;
            uint64_t len = th_suspension_ns(cfg, ratio);
            /* the suspension's CPU (spinning, signals, freezing, the timed wake to resume) is the
             * mechanism's, counted apart from the detection's */
            uint64_t cpu0 = thread_cpu_ns();
            if (cfg->mech == TH_MECH_FIFO) {
                ev.t_susp = th_now_ns();
                hold_until(o, ev.t_susp + len);
                ev.t_resume = th_now_ns();
            } else {
                apply(o, c->idx, 1);
                ev.t_susp = th_now_ns();
                sleep_until(o, ev.t_susp + len);
                apply(o, c->idx, 0);
                ev.t_resume = th_now_ns();
            }
            c->mech_ns += thread_cpu_ns() - cpu0; /* CPU, not wall time: a VM may steal some */
            o->eng->core[c->idx].total_ns += ev.t_resume - ev.t_susp;
            o->eng->core[c->idx].count++;
        }
        if (c->nev < c->cap) c->ev[c->nev++] = ev;
        else c->dropped++;
        seq = arm(c, &w, lim_r, lim_w); /* after a crossing: a fresh window once resumed; else it slides */
    }
    __atomic_store_n(&c->m->armed_read, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&c->m->armed_write, 0, __ATOMIC_RELEASE);
    c->cpu_ns = thread_cpu_ns();
    return NULL;
}

int th_ovf_start(struct th_ovf *o, const struct th_config *cfg, struct th_source *src, struct th_susp *susp,
                 struct th_engine *eng, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->cfg = cfg;
    o->susp = susp;
    o->eng = eng;
    pthread_mutex_init(&o->mu, NULL);
    for (int i = 0; i < cfg->ncores; i++) {
        struct th_ovf_core *c = &o->c[i];
        c->o = o;
        c->idx = i;
        c->m = th_source_coop_shm(src, i);
        c->cap = TH_OVF_EVENTS;
        c->ev = calloc(c->cap, sizeof *c->ev); /* preallocated: no allocation while throttling */
        if (!c->m || !c->ev) {
            snprintf(err, n, "overflow sampling: %s", c->m ? "out of memory" : "needs source=coop");
            goto fail;
        }
        pthread_attr_t a;
        pthread_attr_init(&a);
        /* on the monitored core, above its best-effort work (MemGuard's per-core overflow handler): the
         * hog's wake-up stays on its core (no IPI), and the real-time cores pay nothing */
        int cpu = cfg->cores[i];
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            pthread_attr_setaffinity_np(&a, sizeof set, &set);
        }
        struct sched_param sp = { .sched_priority = cfg->fifo_prio };
        pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(&a, SCHED_FIFO);
        pthread_attr_setschedparam(&a, &sp);
        int rc = pthread_create(&c->thread, &a, handler_main, c);
        if (rc == EPERM && cfg->mech != TH_MECH_FIFO) {
            /* without CAP_SYS_NICE: an ordinary thread still works for process-level mechanisms */
            pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED);
            rc = pthread_create(&c->thread, &a, handler_main, c);
        }
        pthread_attr_destroy(&a);
        if (rc) {
            snprintf(err, n, "overflow sampling: cannot start the handler of core %d: %s%s", cfg->cores[i],
                     strerror(rc), rc == EPERM ? " (fifo-hold needs root or CAP_SYS_NICE)" : "");
            goto fail;
        }
        c->started = 1;
    }
    return 0;
fail:
    th_ovf_stop(o);
    th_ovf_free(o);
    return -1;
}

void th_ovf_stop(struct th_ovf *o)
{
    __atomic_store_n(&o->quit, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &o->quit, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0); /* handlers sleeping in a suspension */
    for (int i = 0; i < TH_MAX_CORES; i++) {
        struct th_ovf_core *c = &o->c[i];
        if (!c->started) continue;
        __atomic_add_fetch(&c->m->futex, 1, __ATOMIC_RELEASE); /* wake a waiting handler */
        syscall(SYS_futex, &c->m->futex, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
        pthread_join(c->thread, NULL);
        c->started = 0;
    }
}

static int cmp_sample(const void *a, const void *b)
{
    const struct th_sample *x = a, *y = b;
    return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

void th_ovf_to_trace(const struct th_ovf *o, struct th_trace *t)
{
    for (int i = 0; i < o->cfg->ncores; i++) {
        const struct th_ovf_core *c = &o->c[i];
        for (size_t k = 0; k < c->nev; k++) {
            const struct th_ovf_event *e = &c->ev[k];
            double dt = (double)(e->t_cross > e->t_window ? e->t_cross - e->t_window : 1) / 1e9;
            struct th_sample *s = th_trace_next(t);
            uint64_t act = e->crossing && e->t_susp > e->t_cross ? e->t_susp - e->t_cross : 0;
            *s = (struct th_sample){ e->t_cross,
                                     e->dr,
                                     e->dw,
                                     (double)e->dr / dt,
                                     (double)e->dw / dt,
                                     act > UINT32_MAX ? UINT32_MAX : (uint32_t)act,
                                     (int16_t)o->cfg->cores[i],
                                     (uint8_t)e->crossing,
                                     (uint8_t)e->crossing };
            if (e->crossing)
                *th_trace_next(t) = (struct th_sample){ e->t_resume, 0, 0, 0, 0, 0, (int16_t)o->cfg->cores[i], 0, 2 };
        }
    }
    if (t->n == t->cap || t->head < t->n) return; /* wrapped: keep ring order */
    qsort(t->ring, t->n, sizeof *t->ring, cmp_sample);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int th_ovf_delays(const struct th_ovf *o, int idx, uint32_t *p50, uint32_t *p99, uint32_t *max)
{
    const struct th_ovf_core *c = &o->c[idx];
    uint32_t *v = malloc((c->nev + 1) * sizeof *v);
    if (!v) return 0;
    size_t n = 0;
    for (size_t k = 0; k < c->nev; k++) {
        const struct th_ovf_event *e = &c->ev[k];
        if (!e->crossing) continue;
        uint64_t d = e->t_susp > e->t_cross ? e->t_susp - e->t_cross : 0;
        v[n++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
    }
    if (n) {
        qsort(v, n, sizeof *v, cmp_u32);
        *p50 = v[n / 2];
        *p99 = v[n * 99 / 100];
        *max = v[n - 1];
    }
    free(v);
    return (int)n;
}

uint64_t th_ovf_detect_ns(const struct th_ovf *o)
{
    uint64_t ns = 0;
    for (int i = 0; i < o->cfg->ncores; i++)
        ns += o->c[i].cpu_ns > o->c[i].mech_ns ? o->c[i].cpu_ns - o->c[i].mech_ns : 0;
    return ns;
}

uint64_t th_ovf_mechanism_ns(const struct th_ovf *o)
{
    uint64_t ns = 0;
    for (int i = 0; i < o->cfg->ncores; i++) ns += o->c[i].mech_ns;
    return ns;
}

uint64_t th_ovf_events(const struct th_ovf *o)
{
    uint64_t n = 0;
    for (int i = 0; i < o->cfg->ncores; i++) n += o->c[i].nev + o->c[i].dropped;
    return n;
}

void th_ovf_free(struct th_ovf *o)
{
    for (int i = 0; i < TH_MAX_CORES; i++) {
        free(o->c[i].ev);
        o->c[i].ev = NULL;
    }
}
