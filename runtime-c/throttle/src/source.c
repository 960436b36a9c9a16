#define _GNU_SOURCE
#include "th_source.h"
#include "th_regular.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LINE 64 /* bytes per cache line: counts -> bytes */

/* ---- event table ---- */
#define HWC(cache, op, res) ((cache) | ((op) << 8) | ((res) << 16))
static const struct th_event events[] = {
    { "llc-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0, 0, "generic last-level cache misses" },
    { "llc-read-write-misses", PERF_TYPE_HW_CACHE,
      HWC(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS),
      HWC(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_MISS), 1,
      "LL read misses and LL write misses" },
    /* Intel Nehalem (thesis 4.6.1): L2_TRANSACTIONS.LOAD (0xF0/0x01), L2_LINES_OUT.ANY (0xF2/0x0F) */
    { "nehalem:l2", PERF_TYPE_RAW, 0x01F0, 0x0FF2, 1, "L2_TRANSACTIONS.LOAD and L2_LINES_OUT.ANY" },
    /* Intel Skylake+: L2_LINES_IN.ALL (0xF1/0x1F), L2_LINES_OUT.NON_SILENT (0xF2/0x02) */
    { "skylake:l2", PERF_TYPE_RAW, 0x1FF1, 0x02F2, 1, "L2_LINES_IN.ALL and L2_LINES_OUT.NON_SILENT" },
};

const struct th_event *th_event_lookup(const char *name)
{
    static const struct th_event raw = { "raw", PERF_TYPE_RAW, 0, 0, 0, "raw event codes from the configuration" };
    if (!strcmp(name, "raw")) return &raw;
    for (size_t i = 0; i < sizeof events / sizeof *events; i++)
        if (!strcmp(events[i].name, name)) return &events[i];
    return NULL;
}

const char *th_event_names(void) { return "llc-misses, llc-read-write-misses, nehalem:l2, skylake:l2, raw:HEX[,HEX]"; }

/* ---- perf_event_open ---- */
struct perf_priv {
    int fd[TH_MAX_CORES][2];
    uint64_t last[TH_MAX_CORES][2];
};

static int perf_fd(uint32_t type, uint64_t config, int cpu)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
}

static void perf_close(struct th_source *s)
{
    struct perf_priv *p = s->priv;
    if (!p) return;
    for (int i = 0; i < TH_MAX_CORES; i++)
        for (int k = 0; k < 2; k++)
            if (p->fd[i][k] >= 0) close(p->fd[i][k]);
    free(p);
    s->priv = NULL;
}

static int perf_open(struct th_source *s, char *err, size_t n)
{
    const struct th_event *ev = th_event_lookup(s->cfg->event);
    struct perf_priv *p = calloc(1, sizeof *p);
    if (!p || !ev) {
        free(p);
        snprintf(err, n, "perf: unknown event or out of memory");
        return -1;
    }
    memset(p->fd, -1, sizeof p->fd);
    s->priv = p;
    int raw = !strcmp(ev->name, "raw");
    uint64_t rd = raw ? s->cfg->raw_read : ev->read_cfg, wr = raw ? s->cfg->raw_write : ev->write_cfg;
    int has_write = raw ? s->cfg->raw_write != 0 : ev->has_write;
    for (int i = 0; i < s->cfg->ncores; i++) {
        for (int k = 0; k < 1 + has_write; k++) {
            int fd = perf_fd(ev->type, k ? wr : rd, s->cfg->cores[i]);
            if (fd < 0) {
                int e = errno;
                if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
                    snprintf(err, n,
                             "perf: event '%s' (%s) is not available on cpu %d: %s; this machine has no "
                             "hardware PMU for it (common in VMs). Use source=coop with the built-in hog "
                             "or source=replay",
                             ev->name, ev->note, s->cfg->cores[i], strerror(e));
                else if (e == EACCES || e == EPERM)
                    snprintf(err, n,
                             "perf: no permission to count cpu %d (%s); run as root or lower "
                             "/proc/sys/kernel/perf_event_paranoid",
                             s->cfg->cores[i], strerror(e));
                else snprintf(err, n, "perf: perf_event_open on cpu %d failed: %s", s->cfg->cores[i], strerror(e));
                perf_close(s);
                return -1;
            }
            p->fd[i][k] = fd;
        }
    }
    return 0;
}

static int perf_read(struct th_source *s, uint64_t now, struct th_round *r)
{
    struct perf_priv *p = s->priv;
    r->t_ns = now;
    for (int i = 0; i < s->cfg->ncores; i++) {
        for (int k = 0; k < 2; k++) {
            uint64_t v = 0;
            if (p->fd[i][k] >= 0 && read(p->fd[i][k], &v, sizeof v) != (ssize_t)sizeof v) return -1;
            uint64_t d = (v - p->last[i][k]) * LINE;
            p->last[i][k] = v;
            if (k) r->dw[i] = d;
            else r->dr[i] = d;
        }
    }
    return 1;
}

const struct th_source_ops th_source_perf = { "perf", perf_open, perf_read, perf_close, 0 };

/* ---- cooperative: the hog publishes bytes moved in shared memory ---- */
struct coop_priv {
    struct th_hog_shm *m[TH_MAX_CORES];
    uint64_t lr[TH_MAX_CORES], lw[TH_MAX_CORES];
};

static void coop_close(struct th_source *s)
{
    struct coop_priv *p = s->priv;
    if (!p) return;
    for (int i = 0; i < TH_MAX_CORES; i++)
        if (p->m[i]) munmap(p->m[i], sizeof *p->m[i]);
    free(p);
    s->priv = NULL;
}

static int coop_open(struct th_source *s, char *err, size_t n)
{
    struct coop_priv *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    s->priv = p;
    for (int i = 0; i < s->cfg->ncores; i++) {
        /* overflow sampling writes the armed counts into the hog's block */
        int rw = s->cfg->sampling == TH_SAMPLING_OVERFLOW;
        char why[512];
        off_t size = 0;
        int fd = th_open_regular(s->cfg->shm[i], rw ? O_RDWR : O_RDONLY, &size, why, sizeof why);
        if (fd < 0) {
            snprintf(err, n, "coop: hog counters %s", why);
            coop_close(s);
            return -1;
        }
        /* a shorter file would be mapped all the same, and reading past its end kills the daemon (SIGBUS) */
        if (size < (off_t)sizeof(struct th_hog_shm)) {
            close(fd);
            snprintf(err, n, "coop: %s is not a chainlab-hog counter file (%lld bytes)", s->cfg->shm[i],
                     (long long)size);
            coop_close(s);
            return -1;
        }
        void *m = mmap(NULL, sizeof(struct th_hog_shm), rw ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
        if (m == MAP_FAILED) {
            snprintf(err, n, "coop: cannot map hog counters %s: %s", s->cfg->shm[i], strerror(errno));
            coop_close(s);
            return -1;
        }
        p->m[i] = m;
        if (p->m[i]->magic != TH_HOG_MAGIC) {
            snprintf(err, n, "coop: %s is not a chainlab-hog counter file", s->cfg->shm[i]);
            coop_close(s);
            return -1;
        }
        p->lr[i] = __atomic_load_n(&p->m[i]->read_bytes, __ATOMIC_RELAXED);
        p->lw[i] = __atomic_load_n(&p->m[i]->write_bytes, __ATOMIC_RELAXED);
    }
    return 0;
}

static int coop_read(struct th_source *s, uint64_t now, struct th_round *r)
{
    struct coop_priv *p = s->priv;
    r->t_ns = now;
    for (int i = 0; i < s->cfg->ncores; i++) {
        uint64_t a = __atomic_load_n(&p->m[i]->read_bytes, __ATOMIC_RELAXED);
        uint64_t b = __atomic_load_n(&p->m[i]->write_bytes, __ATOMIC_RELAXED);
        r->dr[i] = a - p->lr[i];
        r->dw[i] = b - p->lw[i];
        p->lr[i] = a;
        p->lw[i] = b;
    }
    return 1;
}

const struct th_source_ops th_source_coop = { "coop", coop_open, coop_read, coop_close, 0 };

struct th_hog_shm *th_source_coop_shm(struct th_source *s, int idx)
{
    return s->ops == &th_source_coop ? ((struct coop_priv *)s->priv)->m[idx] : NULL;
}

/* ---- replay: lines "t_ns core read_bytes write_bytes" (deltas), sorted by time ---- */
struct replay_priv {
    FILE *f;
    int have;
    uint64_t t;
    int core;
    uint64_t r, w;
    int line;
};

static int replay_next(struct replay_priv *p)
{
    char buf[256];
    while (fgets(buf, sizeof buf, p->f)) {
        p->line++;
        char *h = strchr(buf, '#');
        if (h) *h = 0;
        unsigned long long t, r, w;
        int core, used = 0;
        if (sscanf(buf, " %llu %d %llu %llu %n", &t, &core, &r, &w, &used) == 4) {
            p->t = t;
            p->core = core;
            p->r = r;
            p->w = w;
            return p->have = 1;
        }
        if (sscanf(buf, " %n", &used) >= 0 && buf[used] == 0) continue;
        fprintf(stderr, "chainlab-throttle: replay line %d: expected 't_ns core read_bytes write_bytes'\n", p->line);
        return p->have = -1;
    }
    return p->have = 0;
}

static int replay_open(struct th_source *s, char *err, size_t n)
{
    struct replay_priv *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    char why[512];
    int fd = th_open_regular(s->cfg->replay, O_RDONLY, NULL, why, sizeof why);
    p->f = fd < 0 ? NULL : fdopen(fd, "r");
    if (!p->f) {
        if (fd >= 0) {
            snprintf(why, sizeof why, "%s: %s", s->cfg->replay, strerror(errno));
            close(fd);
        }
        snprintf(err, n, "replay: cannot read %s", why);
        free(p);
        return -1;
    }
    s->priv = p;
    if (replay_next(p) < 0) {
        snprintf(err, n, "replay: %s: bad first line", s->cfg->replay);
        return -1;
    }
    return 0;
}

static int replay_read(struct th_source *s, uint64_t now, struct th_round *r)
{
    struct replay_priv *p = s->priv;
    (void)now;
    if (p->have <= 0) return p->have;
    r->t_ns = p->t;
    memset(r->dr, 0, sizeof r->dr);
    memset(r->dw, 0, sizeof r->dw);
    uint64_t t = p->t;
    while (p->have == 1 && p->t == t) {
        for (int i = 0; i < s->cfg->ncores; i++)
            if (s->cfg->cores[i] == p->core) {
                r->dr[i] += p->r;
                r->dw[i] += p->w;
            }
        if (replay_next(p) < 0) return -1;
    }
    if (p->have == 1 && p->t < t) {
        fprintf(stderr, "chainlab-throttle: replay line %d: time goes backwards\n", p->line);
        return -1;
    }
    return 1;
}

static void replay_close(struct th_source *s)
{
    struct replay_priv *p = s->priv;
    if (!p) return;
    fclose(p->f);
    free(p);
    s->priv = NULL;
}

const struct th_source_ops th_source_replay = { "replay", replay_open, replay_read, replay_close, 1 };

int th_source_open(struct th_source *s, const struct th_config *cfg, char *err, size_t n)
{
    s->cfg = cfg;
    s->priv = NULL;
    s->ops = cfg->source == TH_SRC_PERF   ? &th_source_perf
             : cfg->source == TH_SRC_COOP ? &th_source_coop
                                          : &th_source_replay;
    return s->ops->open(s, err, n);
}
