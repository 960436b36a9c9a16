/* chainlab-throttle: duty-cycle / budget throttling of best-effort cores (thesis ch.4, Yun et al.). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "th_config.h"
#include "th_engine.h"
#include "th_hog.h"
#include "th_source.h"
#include "th_suspend.h"
#include "th_trace.h"
#include "th_overflow.h"

/* The one piece of static state: async-signal-safe handlers can only reach a static, and setting a
 * sig_atomic_t flag is all they do; the sampling loop polls it every round. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) { stop_signal = sig; }

struct daemon {
    struct th_config cfg;
    struct th_source src;
    struct th_engine eng;
    struct th_susp susp;
    struct th_trace trace;
    struct th_ovf ovf; /* sampling=overflow: the per-core handlers */
    pid_t child;
    double thr_r, thr_w;
    uint64_t rounds;
    const char *why;
};

static const char usage[] =
    "usage: chainlab-throttle [--config FILE] [key=value ...] [-- workload command ...]\n"
    "       chainlab-throttle --calibrate\n"
    "keys: mode=duty-cycle|budget source=perf|coop|replay mechanism=fifo-hold|sigstop|freeze|none\n"
    "      cores=LIST sample=100us suspend=900us read_threshold=25%|2GB/s write_threshold=... threshold=...\n"
    "      proportional=true calib_read=BW calib_write=BW period=10ms budget=MISSES distribution=static|dynamic\n"
    "      event=llc-misses|llc-read-write-misses|nehalem:l2|skylake:l2 replay=FILE shm=FILE[,FILE]\n"
    "      pids=LIST cgroup=/sys/fs/cgroup/unified/NAME cgroup_create=true duration=2s trace=FILE\n"
    "      trace_cap=N sampler_cpu=N fifo_prio=1..99 sampling=periodic|overflow\n"
    "sampling=overflow (source=coop, duty-cycle): no periodic samples; the hog notifies when a window of S\n"
    "      reached the threshold (like a PMU overflow); with fifo-hold each core's handler holds its own core.\n";

/* The starter named itself in CHAINLAB_PARENT_PID and is no longer our parent: it died before
 * PR_SET_PDEATHSIG was set (a race the signal alone cannot cover). */
static int parent_gone(void)
{
    const char *p = getenv("CHAINLAB_PARENT_PID");
    return p && *p && atol(p) != (long)getppid();
}

/* Wait for a child to end; a second SIGTERM (the parent's death: PR_SET_PDEATHSIG) must not cut the wait short
 * (EINTR), or the report would come before the workload's last words and the workload would be left behind. */
static void reap(pid_t pid)
{
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
}

static int spawn_workload(struct daemon *d)
{
    pid_t parent = getpid(), p = fork();
    if (p < 0) return -1;
    if (p == 0) {
        /* the workload ends with the daemon, even a killed one (the guardian resumes it first) */
        prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
        if (getppid() != parent) _exit(127);
        signal(SIGPIPE, SIG_DFL); /* the daemon ignores it; an exec'd workload must not inherit that */
        char me[24];
        snprintf(me, sizeof me, "%ld", (long)parent);
        setenv("CHAINLAB_PARENT_PID", me, 1); /* the workload's own check is against the daemon */
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int i = 0; i < d->cfg.ncores; i++) CPU_SET(d->cfg.cores[i], &set);
        sched_setaffinity(0, sizeof set, &set);
        execvp(d->cfg.command[0], d->cfg.command);
        fprintf(stderr, "chainlab-throttle: cannot run workload %s: %s\n", d->cfg.command[0], strerror(errno));
        _exit(127);
    }
    d->child = p;
    return 0;
}

static int wait_for_shm(const struct th_config *c)
{
    for (int tries = 0; tries < 400; tries++) {
        int ok = 1;
        for (int i = 0; i < c->nshm; i++) {
            struct stat st;
            /* a FIFO or a device is there already: no waiting, th_source_open refuses it with the reason */
            if (stat(c->shm[i], &st) || (S_ISREG(st.st_mode) && st.st_size < (off_t)sizeof(struct th_hog_shm))) ok = 0;
        }
        if (ok) return 0;
        usleep(5000);
    }
    return -1;
}

static int workload_gone(struct daemon *d)
{
    if (d->child > 0) {
        int st;
        if (waitpid(d->child, &st, WNOHANG) == d->child) {
            d->child = 0;
            return 1;
        }
        return 0;
    }
    if (!d->cfg.npids) return 0;
    for (int i = 0; i < d->cfg.npids; i++)
        if (kill(d->cfg.pids[i], 0) == 0 || errno != ESRCH) return 0;
    return 1;
}

static void run_round(struct daemon *d, const struct th_round *r)
{
    int change[TH_MAX_CORES];
    th_engine_round(&d->eng, r, change);
    for (int i = 0; i < d->cfg.ncores; i++) {
        uint32_t act = 0;
        if (change[i]) {
            uint64_t a = th_now_ns();
            th_susp_apply(&d->susp, i, change[i] > 0);
            act = (uint32_t)(th_now_ns() - a);
        }
        struct th_sample *s = th_trace_next(&d->trace);
        s->t_ns = r->t_ns;
        s->core = (int16_t)d->cfg.cores[i];
        s->dr = r->dr[i];
        s->dw = r->dw[i];
        s->est_r = d->eng.core[i].est_r;
        s->est_w = d->eng.core[i].est_w;
        s->suspended = (uint8_t)d->eng.core[i].suspended;
        s->change = (uint8_t)(change[i] < 0 ? 2 : change[i]);
        s->act_ns = act;
    }
    d->rounds++;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void loop(struct daemon *d)
{
    const struct th_config *c = &d->cfg;
    struct th_round r;
    const char *crash = getenv("CHAINLAB_THROTTLE_CRASH_AFTER"); /* test hook: abort() after N rounds */
    uint64_t crash_after = crash ? strtoull(crash, NULL, 10) : 0;
    uint64_t start = th_now_ns(), end = c->duration_ms ? start + (uint64_t)c->duration_ms * 1000000ULL : 0;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        if (stop_signal) {
            d->why = "signal";
            return;
        }
        if (d->src.ops->timed) {
            int rc = d->src.ops->read(&d->src, 0, &r);
            if (rc <= 0) {
                d->why = rc ? "replay-error" : "end-of-replay";
                return;
            }
        } else {
            next.tv_nsec += (long)c->sample_ns;
            while (next.tv_nsec >= 1000000000L) {
                next.tv_nsec -= 1000000000L;
                next.tv_sec++;
            }
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR && !stop_signal) {}
            if (stop_signal) {
                d->why = "signal";
                return;
            }
            if (d->src.ops->read(&d->src, th_now_ns(), &r) < 0) {
                d->why = "source-error";
                return;
            }
        }
        run_round(d, &r);
        if (th_susp_heartbeat(&d->susp, th_now_ns())) {
            d->why = "guardian-lost";
            return;
        }
        if (crash_after && d->rounds >= crash_after) abort();
        if (end && th_now_ns() >= end) {
            d->why = "duration";
            return;
        }
        if ((d->rounds & 15) == 0 && workload_gone(d)) {
            d->why = "workload-exit";
            return;
        }
    }
}

/* sampling=overflow: the handlers do the work; this thread only watches the clock, signals and the workload. */
static void overflow_loop(struct daemon *d)
{
    const struct th_config *c = &d->cfg;
    const char *crash = getenv("CHAINLAB_THROTTLE_CRASH_AFTER"); /* test hook: abort() after N notifications */
    uint64_t crash_after = crash ? strtoull(crash, NULL, 10) : 0;
    uint64_t start = th_now_ns(), end = c->duration_ms ? start + (uint64_t)c->duration_ms * 1000000ULL : 0;
    for (;;) {
        if (stop_signal) {
            d->why = "signal";
            return;
        }
        if (crash_after && th_ovf_events(&d->ovf) >= crash_after) abort();
        uint64_t now = th_now_ns();
        if (end && now >= end) {
            d->why = "duration";
            return;
        }
        uint64_t step = 20000000ULL; /* 20 ms */
        if (end && end - now < step) step = end - now;
        struct timespec ts = { 0, (long)step };
        nanosleep(&ts, NULL); /* a signal ends it early */
        if (th_susp_heartbeat(&d->susp, th_now_ns())) {
            d->why = "guardian-lost";
            return;
        }
        if (workload_gone(d)) {
            d->why = "workload-exit";
            return;
        }
    }
}

/* cpu: the sampler's CPU time (periodic: its thread; overflow: the handlers' detection); mech_cpu: the
 * handlers' CPU time suspending and resuming with sigstop/freeze (overflow only). */
static void report(struct daemon *d, uint64_t wall, uint64_t cpu, uint64_t mech_cpu)
{
    static const char *modes[] = { "duty-cycle", "budget" }, *mechs[] = { "none", "fifo-hold", "sigstop", "freeze" };
    printf(
        "{\"mode\":\"%s\",\"sampling\":\"%s\",\"source\":\"%s\",\"mechanism\":\"%s\",\"exit\":\"%s\",\"rounds\":%llu,"
        "\"wall_ns\":%llu,\"sampler_cpu_ns\":%llu,\"mechanism_cpu_ns\":%llu,\"threshold_read_bps\":%.0f,\"threshold_"
        "write_bps\":%.0f,"
        "\"trace_samples\":%zu,\"trace_dropped\":%llu,\"cores\":[",
        modes[d->cfg.mode], d->cfg.sampling == TH_SAMPLING_OVERFLOW ? "overflow" : "periodic", d->src.ops->name,
        mechs[d->cfg.mech], d->why, (unsigned long long)d->rounds, (unsigned long long)wall, (unsigned long long)cpu,
        (unsigned long long)mech_cpu, d->thr_r, d->thr_w, d->trace.n, (unsigned long long)d->trace.dropped);
    for (int i = 0; i < d->cfg.ncores; i++) {
        printf("%s{\"core\":%d,\"suspended_ns\":%llu,\"suspensions\":%llu", i ? "," : "", d->cfg.cores[i],
               (unsigned long long)d->eng.core[i].total_ns, (unsigned long long)d->eng.core[i].count);
        uint32_t p50, p99, max;
        int n = th_susp_hold_delays(&d->susp, i, &p50, &p99, &max);
        if (n) printf(",\"hold_delay_ns\":{\"n\":%d,\"p50\":%u,\"p99\":%u,\"max\":%u}", n, p50, p99, max);
        /* overflow: from the hog passing the limit to the suspension in force (measured, not estimated) */
        if (d->cfg.sampling == TH_SAMPLING_OVERFLOW && (n = th_ovf_delays(&d->ovf, i, &p50, &p99, &max)))
            printf(",\"crossing_delay_ns\":{\"n\":%d,\"p50\":%u,\"p99\":%u,\"max\":%u}", n, p50, p99, max);
        printf("}");
    }
    printf("]}\n");
    fflush(stdout);
}

static int setup_thresholds(struct daemon *d, char *err, size_t n)
{
    struct th_config *c = &d->cfg;
    if ((c->read_pct && c->read_thr > 0 && !c->calib_read) || (c->write_pct && c->write_thr > 0 && !c->calib_write)) {
        double r, w;
        if (th_calibrate(128u << 20, 100, &r, &w)) {
            snprintf(err, n, "calibration failed");
            return -1;
        }
        if (!c->calib_read) c->calib_read = r;
        if (!c->calib_write) c->calib_write = w;
    }
    d->thr_r = c->read_pct ? c->read_thr / 100.0 * c->calib_read : c->read_thr;
    d->thr_w = c->write_pct ? c->write_thr / 100.0 * c->calib_write : c->write_thr;
    return 0;
}

int main(int argc, char **argv)
{
    static struct daemon d; /* large (trace, config): kept off the stack; the only instance */
    char err[1024];
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--calibrate")) {
        double r, w;
        if (th_calibrate(128u << 20, 200, &r, &w)) return 1;
        printf("{\"read_bps\":%.0f,\"write_bps\":%.0f}\n", r, w);
        return 0;
    }
    th_config_defaults(&d.cfg);
    if (th_config_parse_args(&d.cfg, argc, argv, err, sizeof err) ||
        th_config_validate(&d.cfg, (int)sysconf(_SC_NPROCESSORS_ONLN), err, sizeof err) ||
        setup_thresholds(&d, err, sizeof err)) {
        fprintf(stderr, "chainlab-throttle: %s\n", err);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* a dead guardian must not kill the daemon at its next heartbeat (SIGPIPE) before it resumes the
     * best-effort work: the write fails with EPIPE instead, and the daemon resumes, cleans up and exits */
    signal(SIGPIPE, SIG_IGN);
    /* started by the backend or a shell: ends (resuming everything) when that process ends */
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    if (parent_gone()) stop_signal = SIGTERM;
    d.cfg.title = argv[0];
    d.cfg.title_len = (size_t)(argv[argc - 1] + strlen(argv[argc - 1]) + 1 - argv[0]);
    if (th_trace_init(&d.trace, d.cfg.trace_cap)) {
        fprintf(stderr, "chainlab-throttle: out of memory\n");
        return 1;
    }
    if (d.cfg.command && spawn_workload(&d)) {
        fprintf(stderr, "chainlab-throttle: fork: %s\n", strerror(errno));
        return 1;
    }
    int rc = 0;
    if (d.cfg.source == TH_SRC_COOP && wait_for_shm(&d.cfg)) {
        snprintf(err, sizeof err, "coop: hog counter files did not appear within 2 s");
        rc = 1;
    } else if (th_source_open(&d.src, &d.cfg, err, sizeof err)) {
        rc = 1;
    } else if (th_susp_init(&d.susp, &d.cfg, d.child, err, sizeof err)) {
        d.src.ops->close(&d.src);
        rc = 1;
    }
    if (rc) {
        fprintf(stderr, "chainlab-throttle: %s\n", err);
        if (d.child > 0) {
            kill(d.child, SIGTERM);
            reap(d.child);
        }
        return rc;
    }
    if (d.cfg.sampler_cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(d.cfg.sampler_cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (!d.src.ops->timed) {
        struct sched_param sp = { .sched_priority = d.cfg.fifo_prio };
        sched_setscheduler(0, SCHED_FIFO, &sp); /* best effort: sampling is precise only with RT priority */
    }
    uint64_t t0 = th_now_ns(), c0 = thread_cpu_ns();
    th_engine_init(&d.eng, &d.cfg, d.thr_r, d.thr_w, d.src.ops->timed ? 0 : t0);
    if (d.cfg.sampling == TH_SAMPLING_OVERFLOW) {
        if (th_ovf_start(&d.ovf, &d.cfg, &d.src, &d.susp, &d.eng, err, sizeof err)) {
            fprintf(stderr, "chainlab-throttle: %s\n", err);
            th_susp_fini(&d.susp);
            d.src.ops->close(&d.src);
            if (d.child > 0) {
                kill(d.child, SIGTERM);
                reap(d.child);
            }
            return 1;
        }
        overflow_loop(&d);
        th_ovf_stop(&d.ovf); /* each handler ends its suspension before it returns */
        d.rounds = th_ovf_events(&d.ovf);
        th_ovf_to_trace(&d.ovf, &d.trace);
    } else {
        loop(&d);
    }
    uint64_t wall = th_now_ns() - t0, cpu = thread_cpu_ns() - c0;
    uint64_t mech_cpu = 0;
    if (d.cfg.sampling == TH_SAMPLING_OVERFLOW) {
        cpu += th_ovf_detect_ns(&d.ovf);
        /* fifo-hold's spinning is the suspension itself (time taken from best-effort work by design) */
        mech_cpu = d.cfg.mech == TH_MECH_FIFO ? 0 : th_ovf_mechanism_ns(&d.ovf);
    }
    th_engine_finish(&d.eng, d.src.ops->timed ? d.eng.last_t : th_now_ns());
    th_susp_fini(&d.susp);
    d.src.ops->close(&d.src);
    if (d.child > 0) {
        kill(d.child, SIGTERM);
        reap(d.child);
    }
    if (d.cfg.trace[0]) {
        FILE *f = fopen(d.cfg.trace, "w");
        if (!f || th_trace_write(&d.trace, f))
            fprintf(stderr, "chainlab-throttle: cannot write trace %s\n", d.cfg.trace);
        if (f) fclose(f);
    }
    report(&d, wall, cpu, mech_cpu);
    th_susp_free(&d.susp);
    th_trace_free(&d.trace);
    th_ovf_free(&d.ovf);
    if (!strcmp(d.why, "guardian-lost"))
        fprintf(stderr, "chainlab-throttle: the guardian died: resumed everything and stopped\n");
    return strcmp(d.why, "replay-error") && strcmp(d.why, "source-error") && strcmp(d.why, "guardian-lost") ? 0 : 1;
}
