#define _GNU_SOURCE
#include "th_suspend.h"
#include "th_hog.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- SCHED_FIFO hold threads: one per monitored core, spinning while the core is suspended ---- */
struct th_hold_core {
    pthread_t thread;
    int cpu, prio, started;
    int hold, quit;                    /* accessed with __atomic; cond wakes an idle thread */
    uint64_t req_ns;                   /* when the sampler asked for a hold (__atomic) */
    uint32_t delay_ns[TH_HOLD_DELAYS]; /* request -> spinning, preallocated ring */
    uint64_t ndelay;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};
struct th_hold {
    int n;
    struct th_hold_core c[TH_MAX_CORES];
};

static void *hold_main(void *arg)
{
    struct th_hold_core *h = arg;
    for (;;) {
        pthread_mutex_lock(&h->mu);
        while (!__atomic_load_n(&h->hold, __ATOMIC_ACQUIRE) && !__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE))
            pthread_cond_wait(&h->cv, &h->mu);
        pthread_mutex_unlock(&h->mu);
        if (__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE)) return NULL;
        uint64_t d = th_now_ns() - __atomic_load_n(&h->req_ns, __ATOMIC_ACQUIRE);
        h->delay_ns[h->ndelay++ % TH_HOLD_DELAYS] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
        /* hold the core: at SCHED_FIFO no best-effort (SCHED_OTHER) task can run on it */
        while (__atomic_load_n(&h->hold, __ATOMIC_ACQUIRE) && !__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE))
            __builtin_ia32_pause();
    }
}

static int hold_start(struct th_hold_core *h, char *err, size_t n)
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(h->cpu, &set);
    pthread_attr_setaffinity_np(&a, sizeof set, &set);
    pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&a, SCHED_FIFO);
    struct sched_param sp = { .sched_priority = h->prio };
    pthread_attr_setschedparam(&a, &sp);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    int rc = pthread_create(&h->thread, &a, hold_main, h);
    pthread_attr_destroy(&a);
    if (rc) {
        snprintf(err, n, "fifo-hold: cannot start a SCHED_FIFO thread on cpu %d: %s (needs root or CAP_SYS_NICE)",
                 h->cpu, strerror(rc));
        return -1;
    }
    h->started = 1;
    return 0;
}

static void hold_set(struct th_hold_core *h, int on)
{
    if (on) __atomic_store_n(&h->req_ns, th_now_ns(), __ATOMIC_RELEASE);
    pthread_mutex_lock(&h->mu);
    __atomic_store_n(&h->hold, on, __ATOMIC_RELEASE);
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int th_susp_hold_delays(const struct th_susp *s, int idx, uint32_t *p50, uint32_t *p99, uint32_t *max)
{
    if (!s->hold || idx >= s->hold->n) return 0;
    const struct th_hold_core *h = &s->hold->c[idx];
    size_t n = h->ndelay < TH_HOLD_DELAYS ? (size_t)h->ndelay : TH_HOLD_DELAYS;
    if (!n) return 0;
    uint32_t *v = malloc(n * sizeof *v);
    if (!v) return 0;
    memcpy(v, h->delay_ns, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_u32);
    *p50 = v[n / 2];
    *p99 = v[n * 99 / 100];
    *max = v[n - 1];
    free(v);
    return (int)n;
}

static void hold_stop(struct th_hold *hs)
{
    for (int i = 0; i < hs->n; i++) {
        struct th_hold_core *h = &hs->c[i];
        if (!h->started) continue;
        pthread_mutex_lock(&h->mu);
        __atomic_store_n(&h->quit, 1, __ATOMIC_RELEASE);
        __atomic_store_n(&h->hold, 0, __ATOMIC_RELEASE);
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->thread, NULL);
        h->started = 0;
    }
}

/* ---- cgroup v2 helpers ---- */
static int write_file(const char *dir, const char *file, const char *text)
{
    char path[TH_PATH + 32];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t len = (ssize_t)strlen(text), w = write(fd, text, (size_t)len);
    int e = errno;
    close(fd);
    errno = e;
    return w == len ? 0 : -1;
}

static void parent_dir(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash && slash != out) *slash = 0;
}

/* Move every process out of the cgroup to its parent, then remove it. */
static void cgroup_remove(const char *cg)
{
    char procs[TH_PATH + 32], parent[TH_PATH];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cg);
    parent_dir(cg, parent, sizeof parent);
    FILE *f = fopen(procs, "r");
    if (f) {
        int pid;
        char buf[32];
        while (fscanf(f, "%d", &pid) == 1) {
            snprintf(buf, sizeof buf, "%d", pid);
            write_file(parent, "cgroup.procs", buf);
        }
        fclose(f);
    }
    rmdir(cg);
}

void th_susp_free(struct th_susp *s)
{
    free(s->hold);
    s->hold = NULL;
}

void th_resume_all(const pid_t *pids, int npids, const char *cgroup)
{
    if (cgroup && cgroup[0]) write_file(cgroup, "cgroup.freeze", "0");
    for (int i = 0; i < npids; i++) kill(pids[i], SIGCONT);
}

/* ---- guardian: a child process that resumes everything when the daemon's pipe closes (any death) ---- */
static int guardian_start(struct th_susp *s, char *err, size_t n)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        snprintf(err, n, "guardian: pipe: %s", strerror(errno));
        return -1;
    }
    pid_t g = fork();
    if (g < 0) {
        snprintf(err, n, "guardian: fork: %s", strerror(errno));
        return -1;
    }
    if (g == 0) {
        close(fds[1]);
        setsid(); /* outside the daemon's process group: a group kill must not take the guardian too */
        /* told apart from the daemon in ps: comm (ps -o comm, top) and the command line (ps -f) */
        prctl(PR_SET_NAME, "chainlab-guard", 0, 0, 0);
        if (s->cfg->title && s->cfg->title_len > 1) {
            memset(s->cfg->title, 0, s->cfg->title_len);
            snprintf(s->cfg->title, s->cfg->title_len, "chainlab-throttle-guardian");
        }
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        /* heartbeats arrive every TH_HEARTBEAT_MS; none for TH_HANG_MS means a hung daemon: resume all
         * (the safe direction), keep watching. EOF means the daemon is gone: resume all and exit. */
        char buf[64];
        for (;;) {
            struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
            int n = poll(&pfd, 1, TH_HANG_MS);
            if (n == 0) {
                th_resume_all(s->pids, s->npids, s->cfg->mech == TH_MECH_FREEZE ? s->cfg->cgroup : NULL);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            ssize_t r = read(fds[0], buf, sizeof buf);
            if (r > 0 || (r < 0 && errno == EINTR)) continue;
            break;
        }
        th_resume_all(s->pids, s->npids, s->cfg->mech == TH_MECH_FREEZE ? s->cfg->cgroup : NULL);
        if (s->child > 0) kill(s->child, SIGTERM);
        if (s->created_cgroup) {
            usleep(20000);
            cgroup_remove(s->cfg->cgroup);
        }
        _exit(0);
    }
    close(fds[0]);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    s->guard_fd = fds[1];
    s->guard_pid = g;
    return 0;
}

int th_susp_init(struct th_susp *s, const struct th_config *cfg, pid_t child, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->guard_fd = -1;
    s->child = child;
    for (int i = 0; i < cfg->npids; i++) s->pids[s->npids++] = cfg->pids[i];
    if (child > 0) s->pids[s->npids++] = child;
    /* overflow sampling holds a core from that core's own handler (overflow.c): no hold threads then */
    if (cfg->mech == TH_MECH_FIFO && cfg->sampling == TH_SAMPLING_OVERFLOW) return 0;
    if (cfg->mech == TH_MECH_FIFO) {
        s->hold = calloc(1, sizeof *s->hold);
        if (!s->hold) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        for (int i = 0; i < cfg->ncores; i++) {
            s->hold->c[i].cpu = cfg->cores[i];
            s->hold->c[i].prio = cfg->fifo_prio;
            s->hold->n = i + 1;
            if (hold_start(&s->hold->c[i], err, n)) {
                hold_stop(s->hold);
                return -1;
            }
        }
        return 0;
    }
    if (cfg->mech == TH_MECH_FREEZE) {
        struct stat st;
        if (cfg->cgroup_create) {
            if (mkdir(cfg->cgroup, 0755) && errno != EEXIST) {
                snprintf(err, n, "freeze: cannot create cgroup %s: %s", cfg->cgroup, strerror(errno));
                return -1;
            }
            s->created_cgroup = 1;
        }
        char probe[TH_PATH + 32];
        snprintf(probe, sizeof probe, "%s/cgroup.freeze", cfg->cgroup);
        if (stat(probe, &st)) {
            snprintf(err, n, "freeze: %s has no cgroup.freeze (not a cgroup v2 directory, or kernel < 5.2)",
                     cfg->cgroup);
            if (s->created_cgroup) rmdir(cfg->cgroup);
            return -1;
        }
        for (int i = 0; i < s->npids; i++) {
            char buf[32];
            snprintf(buf, sizeof buf, "%d", (int)s->pids[i]);
            if (write_file(cfg->cgroup, "cgroup.procs", buf)) {
                snprintf(err, n, "freeze: cannot move pid %d into %s: %s", (int)s->pids[i], cfg->cgroup,
                         strerror(errno));
                if (s->created_cgroup) cgroup_remove(cfg->cgroup);
                return -1;
            }
        }
    }
    if (cfg->mech == TH_MECH_FREEZE || cfg->mech == TH_MECH_SIGSTOP) return guardian_start(s, err, n);
    return 0;
}

int th_susp_heartbeat(struct th_susp *s, uint64_t now_ns)
{
    if (s->guard_fd < 0 || now_ns - s->last_beat_ns < (uint64_t)TH_HEARTBEAT_MS * 1000000ULL) return 0;
    s->last_beat_ns = now_ns;
    /* non-blocking pipe: a full pipe (EAGAIN) just skips a beat; EPIPE = no reader, the guardian died */
    if (write(s->guard_fd, "h", 1) < 0 && errno == EPIPE) return -1;
    return 0;
}

int th_susp_apply(struct th_susp *s, int idx, int on)
{
    const struct th_config *c = s->cfg;
    if (s->core_on[idx] == on) return 0;
    s->core_on[idx] = on;
    if (c->mech == TH_MECH_FIFO) {
        if (s->hold) hold_set(&s->hold->c[idx], on);
        return 0;
    }
    if (c->mech == TH_MECH_NONE) return 0;
    /* process-level mechanisms act on all best-effort processes: suspended while any core is */
    int before = s->refs;
    s->refs += on ? 1 : -1;
    if (before && s->refs) return 0;
    if (c->mech == TH_MECH_FREEZE) return write_file(c->cgroup, "cgroup.freeze", on ? "1" : "0");
    int rc = 0;
    for (int i = 0; i < s->npids; i++)
        if (kill(s->pids[i], on ? SIGSTOP : SIGCONT) && errno != ESRCH) rc = -1;
    return rc;
}

void th_susp_fini(struct th_susp *s)
{
    if (s->hold) hold_stop(s->hold); /* statistics stay readable until th_susp_free */
    if (s->cfg->mech == TH_MECH_SIGSTOP || s->cfg->mech == TH_MECH_FREEZE)
        th_resume_all(s->pids, s->npids, s->cfg->mech == TH_MECH_FREEZE ? s->cfg->cgroup : NULL);
    memset(s->core_on, 0, sizeof s->core_on);
    s->refs = 0;
    if (s->created_cgroup) {
        cgroup_remove(s->cfg->cgroup);
        s->created_cgroup = 0;
    }
    if (s->guard_fd >= 0) {
        close(s->guard_fd); /* guardian sees EOF, resumes (again, idempotent) and exits */
        s->guard_fd = -1;
        while (waitpid(s->guard_pid, NULL, 0) < 0 && errno == EINTR) {} /* a second SIGTERM must not cut it */
    }
}
