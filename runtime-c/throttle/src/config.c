#define _GNU_SOURCE
#include "th_config.h"
#include "th_regular.h"
#include "th_source.h"
#include <ctype.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void th_config_defaults(struct th_config *c)
{
    memset(c, 0, sizeof *c);
    c->mode = TH_MODE_DUTY;
    c->source = TH_SRC_PERF;
    c->mech = TH_MECH_SIGSTOP;
    c->sample_ns = 100000;
    c->suspend_ns = 900000;
    c->period_ns = 10000000;
    snprintf(c->event, sizeof c->event, "llc-misses");
    c->trace_cap = 1u << 16;
    c->sampler_cpu = -1;
    c->fifo_prio = 90;
}

static int fail(char *err, size_t n, const char *fmt, const char *a, const char *b)
{
    snprintf(err, n, fmt, a, b);
    return -1;
}

static int parse_u64(const char *v, uint64_t max, uint64_t *out)
{
    if (!*v || !isdigit((unsigned char)*v)) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || x > max) return -1;
    *out = x;
    return 0;
}

/* Duration: integer with unit ns|us|ms|s (default us). */
static int parse_time(const char *v, uint64_t *ns)
{
    if (!*v || !isdigit((unsigned char)*v)) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno) return -1;
    uint64_t mul = 1000;
    if (!strcmp(end, "ns")) mul = 1;
    else if (!strcmp(end, "us") || !*end) mul = 1000;
    else if (!strcmp(end, "ms")) mul = 1000000;
    else if (!strcmp(end, "s")) mul = 1000000000ULL;
    else return -1;
    if (x > UINT64_MAX / mul / 4) return -1;
    *ns = x * mul;
    return 0;
}

/* Bandwidth: number with unit B/s, KB/s, MB/s, GB/s (decimal) or % of the calibrated maximum. */
static int parse_bw(const char *v, double *out, int *pct)
{
    errno = 0;
    char *end;
    double x = strtod(v, &end);
    if (end == v || errno || !isfinite(x) || x < 0) return -1;
    double mul;
    *pct = 0;
    if (!strcmp(end, "%")) {
        mul = 1;
        *pct = 1;
        if (x > 100) return -1;
    } else if (!strcmp(end, "B/s") || !*end) mul = 1;
    else if (!strcmp(end, "KB/s")) mul = 1e3;
    else if (!strcmp(end, "MB/s")) mul = 1e6;
    else if (!strcmp(end, "GB/s")) mul = 1e9;
    else return -1;
    *out = x * mul;
    return 0;
}

static int parse_int_list(const char *v, int *out, int max, int *n)
{
    *n = 0;
    const char *p = v;
    while (*p) {
        if (!isdigit((unsigned char)*p)) return -1;
        char *end;
        errno = 0;
        long a = strtol(p, &end, 10), b = a;
        if (errno || a > 1000000) return -1;
        if (*end == '-') {
            const char *q = end + 1;
            if (!isdigit((unsigned char)*q)) return -1;
            b = strtol(q, &end, 10);
            if (errno || b < a || b > 1000000) return -1;
        }
        for (long i = a; i <= b; i++) {
            if (*n >= max) return -1;
            out[(*n)++] = (int)i;
        }
        if (*end == ',') {
            end++;
            if (!*end) return -1;
        } else if (*end) return -1;
        p = end;
    }
    return *n ? 0 : -1;
}

static int copy_path(char *dst, const char *v)
{
    size_t n = strlen(v);
    if (!n || n >= TH_PATH) return -1;
    memcpy(dst, v, n + 1);
    return 0;
}

int th_config_set(struct th_config *c, const char *k, const char *v, char *err, size_t n)
{
    uint64_t u;
    int pct;
    if (!strcmp(k, "mode")) {
        if (!strcmp(v, "duty-cycle")) c->mode = TH_MODE_DUTY;
        else if (!strcmp(v, "budget")) c->mode = TH_MODE_BUDGET;
        else return fail(err, n, "mode: '%s' is not one of duty-cycle, budget%s", v, "");
    } else if (!strcmp(k, "source")) {
        if (!strcmp(v, "perf")) c->source = TH_SRC_PERF;
        else if (!strcmp(v, "coop")) c->source = TH_SRC_COOP;
        else if (!strcmp(v, "replay")) c->source = TH_SRC_REPLAY;
        else return fail(err, n, "source: '%s' is not one of perf, coop, replay%s", v, "");
    } else if (!strcmp(k, "mechanism")) {
        if (!strcmp(v, "fifo-hold")) c->mech = TH_MECH_FIFO;
        else if (!strcmp(v, "sigstop")) c->mech = TH_MECH_SIGSTOP;
        else if (!strcmp(v, "freeze")) c->mech = TH_MECH_FREEZE;
        else if (!strcmp(v, "none")) c->mech = TH_MECH_NONE;
        else return fail(err, n, "mechanism: '%s' is not one of fifo-hold, sigstop, freeze, none%s", v, "");
    } else if (!strcmp(k, "sampling")) {
        if (!strcmp(v, "periodic")) c->sampling = TH_SAMPLING_PERIODIC;
        else if (!strcmp(v, "overflow")) c->sampling = TH_SAMPLING_OVERFLOW;
        else return fail(err, n, "sampling: '%s' is not periodic or overflow%s", v, "");
    } else if (!strcmp(k, "cores")) {
        if (parse_int_list(v, c->cores, TH_MAX_CORES, &c->ncores))
            return fail(err, n, "cores: '%s' is not a list of core numbers like 1 or 2,3 or 2-3 (at most 64)%s", v, "");
    } else if (!strcmp(k, "pids")) {
        int tmp[TH_MAX_PIDS];
        if (parse_int_list(v, tmp, TH_MAX_PIDS, &c->npids))
            return fail(err, n, "pids: '%s' is not a comma-separated list of process ids%s", v, "");
        for (int i = 0; i < c->npids; i++) {
            if (tmp[i] <= 1) return fail(err, n, "pids: '%s' contains pid 0 or 1, which cannot be suspended%s", v, "");
            c->pids[i] = tmp[i];
        }
    } else if (!strcmp(k, "sample")) {
        if (parse_time(v, &c->sample_ns) || !c->sample_ns)
            return fail(err, n, "sample: '%s' is not a positive duration (e.g. 100us, 1ms)%s", v, "");
    } else if (!strcmp(k, "suspend")) {
        if (parse_time(v, &c->suspend_ns) || !c->suspend_ns)
            return fail(err, n, "suspend: '%s' is not a positive duration (e.g. 900us)%s", v, "");
    } else if (!strcmp(k, "period")) {
        if (parse_time(v, &c->period_ns) || !c->period_ns)
            return fail(err, n, "period: '%s' is not a positive duration (e.g. 10ms)%s", v, "");
    } else if (!strcmp(k, "read_threshold") || !strcmp(k, "write_threshold") || !strcmp(k, "threshold")) {
        double x;
        if (parse_bw(v, &x, &pct))
            return fail(err, n, "%s: '%s' is not a bandwidth (e.g. 2GB/s, 500MB/s) or a percentage 0-100%%", k, v);
        if (strcmp(k, "write_threshold")) {
            c->read_thr = x;
            c->read_pct = pct;
        }
        if (strcmp(k, "read_threshold")) {
            c->write_thr = x;
            c->write_pct = pct;
        }
    } else if (!strcmp(k, "calib_read") || !strcmp(k, "calib_write")) {
        double x;
        if (parse_bw(v, &x, &pct) || pct || x <= 0)
            return fail(err, n, "%s: '%s' is not a positive bandwidth (e.g. 10GB/s)", k, v);
        *(k[6] == 'r' ? &c->calib_read : &c->calib_write) = x;
    } else if (!strcmp(k, "proportional")) {
        if (!strcmp(v, "1") || !strcmp(v, "true")) c->proportional = 1;
        else if (!strcmp(v, "0") || !strcmp(v, "false")) c->proportional = 0;
        else return fail(err, n, "proportional: '%s' is not true or false%s", v, "");
    } else if (!strcmp(k, "budget")) {
        if (parse_u64(v, UINT64_MAX / 4, &c->budget) || !c->budget)
            return fail(err, n, "budget: '%s' is not a positive number of cache misses per period%s", v, "");
    } else if (!strcmp(k, "distribution")) {
        if (!strcmp(v, "static")) c->dynamic = 0;
        else if (!strcmp(v, "dynamic")) c->dynamic = 1;
        else return fail(err, n, "distribution: '%s' is not one of static, dynamic%s", v, "");
    } else if (!strcmp(k, "event") && !strncmp(v, "raw:", 4)) {
        char *end;
        errno = 0;
        c->raw_write = 0;
        c->raw_read = strtoull(v + 4, &end, 16);
        if (*end == ',') c->raw_write = strtoull(end + 1, &end, 16);
        if (errno || *end || !c->raw_read || v[4] == ',' || !v[4])
            return fail(err, n, "event: '%s' is not raw:HEX or raw:HEX,HEX (read event, write event)%s", v, "");
        snprintf(c->event, sizeof c->event, "raw");
    } else if (!strcmp(k, "event")) {
        if (!th_event_lookup(v)) return fail(err, n, "event: unknown event '%s'; known: %s", v, th_event_names());
        snprintf(c->event, sizeof c->event, "%s", v);
    } else if (!strcmp(k, "replay")) {
        if (copy_path(c->replay, v)) return fail(err, n, "replay: bad path '%s'%s", v, "");
    } else if (!strcmp(k, "shm")) {
        char tmp[TH_MAX_CORES * 8];
        c->nshm = 0;
        if (strlen(v) >= sizeof tmp) return fail(err, n, "shm: list too long%s%s", "", "");
        snprintf(tmp, sizeof tmp, "%s", v);
        for (char *save = NULL, *p = strtok_r(tmp, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
            if (c->nshm >= TH_MAX_CORES || copy_path(c->shm[c->nshm], p))
                return fail(err, n, "shm: bad path list '%s'%s", v, "");
            c->nshm++;
        }
        if (!c->nshm) return fail(err, n, "shm: empty path list%s%s", "", "");
    } else if (!strcmp(k, "cgroup")) {
        if (copy_path(c->cgroup, v) || v[0] != '/' || strstr(v, ".."))
            return fail(err, n, "cgroup: '%s' must be an absolute path without '..'%s", v, "");
    } else if (!strcmp(k, "cgroup_create")) {
        if (!strcmp(v, "1") || !strcmp(v, "true")) c->cgroup_create = 1;
        else if (!strcmp(v, "0") || !strcmp(v, "false")) c->cgroup_create = 0;
        else return fail(err, n, "cgroup_create: '%s' is not true or false%s", v, "");
    } else if (!strcmp(k, "duration")) {
        uint64_t ns;
        if (parse_time(v, &ns)) return fail(err, n, "duration: '%s' is not a duration (e.g. 2s, 500ms)%s", v, "");
        c->duration_ms = (long)(ns / 1000000);
        if (ns && !c->duration_ms) c->duration_ms = 1;
    } else if (!strcmp(k, "trace")) {
        if (copy_path(c->trace, v)) return fail(err, n, "trace: bad path '%s'%s", v, "");
    } else if (!strcmp(k, "trace_cap")) {
        if (parse_u64(v, 1u << 26, &u) || !u)
            return fail(err, n, "trace_cap: '%s' is not a number of samples in 1..67108864%s", v, "");
        c->trace_cap = (size_t)u;
    } else if (!strcmp(k, "sampler_cpu")) {
        if (parse_u64(v, 4095, &u)) return fail(err, n, "sampler_cpu: '%s' is not a cpu number%s", v, "");
        c->sampler_cpu = (int)u;
    } else if (!strcmp(k, "fifo_prio")) {
        if (parse_u64(v, 99, &u) || u < 1) return fail(err, n, "fifo_prio: '%s' is not in 1..99%s", v, "");
        c->fifo_prio = (int)u;
    } else {
        return fail(err, n, "unknown key '%s'%s (see chainlab-throttle --help)", k, "");
    }
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

int th_config_parse_text(struct th_config *c, const char *text, const char *name, char *err, size_t n)
{
    char line[1024];
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len >= sizeof line) {
            snprintf(err, n, "%s:%d: line too long", name, lineno);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *s = trim(line);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, n, "%s:%d: expected 'key = value'", name, lineno);
            return -1;
        }
        *eq = 0;
        char msg[512];
        if (th_config_set(c, trim(s), trim(eq + 1), msg, sizeof msg)) {
            snprintf(err, n, "%s:%d: %s", name, lineno, msg);
            return -1;
        }
    }
    return 0;
}

/* A config file is a few key=value lines: one above this is refused, never cut. */
#define CONFIG_MAX (1 << 20)

int th_config_parse_file(struct th_config *c, const char *path, char *err, size_t n)
{
    char why[512];
    int fd = th_open_regular(path, O_RDONLY, NULL, why, sizeof why);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (!f && fd >= 0) {
        snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
        close(fd);
    }
    if (!f) {
        snprintf(err, n, "cannot read config %s", why);
        return -1;
    }
    char *buf = malloc(CONFIG_MAX + 2);
    /* read one byte past the limit: a file that is larger, or grew since it was opened, is refused */
    size_t len = buf ? fread(buf, 1, CONFIG_MAX + 1, f) : 0;
    fclose(f);
    if (!buf) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    buf[len] = 0;
    int rc = len > CONFIG_MAX     ? (snprintf(err, n, "%s: larger than %d bytes", path, CONFIG_MAX), -1)
             : strlen(buf) != len ? (snprintf(err, n, "%s: contains a NUL byte", path), -1)
                                  : th_config_parse_text(c, buf, path, err, n);
    free(buf);
    return rc;
}

int th_config_parse_args(struct th_config *c, int argc, char **argv, char *err, size_t n)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            if (i + 1 >= argc) {
                snprintf(err, n, "'--' must be followed by a workload command");
                return -1;
            }
            c->command = argv + i + 1;
            return 0;
        }
        if (!strcmp(a, "--config")) {
            if (i + 1 >= argc) {
                snprintf(err, n, "--config needs a file");
                return -1;
            }
            if (th_config_parse_file(c, argv[++i], err, n)) return -1;
            continue;
        }
        if (!strncmp(a, "--", 2)) a += 2;
        const char *eq = strchr(a, '=');
        if (!eq) {
            snprintf(err, n, "argument '%s' is not key=value", argv[i]);
            return -1;
        }
        char key[64];
        size_t kl = (size_t)(eq - a);
        if (kl >= sizeof key) {
            snprintf(err, n, "argument '%.60s' has a too long key", argv[i]);
            return -1;
        }
        memcpy(key, a, kl);
        key[kl] = 0;
        for (char *q = key; *q; q++)
            if (*q == '-') *q = '_';
        if (th_config_set(c, key, eq + 1, err, n)) return -1;
    }
    return 0;
}

int th_config_validate(const struct th_config *c, int ncpu, char *err, size_t n)
{
#define BAD(...) \
    do { \
        snprintf(err, n, __VA_ARGS__); \
        return -1; \
    } while (0)
    if (!c->ncores) BAD("cores: name the best-effort cores to monitor (e.g. cores=1)");
    for (int i = 0; i < c->ncores; i++) {
        if (c->cores[i] >= ncpu)
            BAD("cores: core %d is out of range (this machine has cores 0-%d)", c->cores[i], ncpu - 1);
        for (int j = 0; j < i; j++)
            if (c->cores[j] == c->cores[i]) BAD("cores: core %d is listed twice", c->cores[i]);
    }
    if (c->sampler_cpu >= ncpu) BAD("sampler_cpu: cpu %d is out of range (0-%d)", c->sampler_cpu, ncpu - 1);
    if (c->mode == TH_MODE_DUTY) {
        if (!c->read_thr && !c->write_thr)
            BAD("duty-cycle: set read_threshold and/or write_threshold (e.g. 25%% or 2GB/s)");
        if (c->sample_ns < 10000) BAD("sample: %llu ns is below the 10us minimum", (unsigned long long)c->sample_ns);
    } else {
        if (!c->budget) BAD("budget: set the budget Q (cache misses per period)");
        if (c->sample_ns >= c->period_ns)
            BAD("sample (%llu ns) must be shorter than period (%llu ns)", (unsigned long long)c->sample_ns,
                (unsigned long long)c->period_ns);
    }
    if (c->source == TH_SRC_REPLAY && !c->replay[0]) BAD("source=replay needs replay=FILE");
    if (c->source == TH_SRC_COOP && c->nshm != c->ncores)
        BAD("source=coop needs one shm file per core (%d cores, %d shm files)", c->ncores, c->nshm);
    if ((c->mech == TH_MECH_SIGSTOP) && !c->npids && !c->command && c->source != TH_SRC_REPLAY)
        BAD("mechanism=sigstop needs pids=... or a workload command after '--'");
    if (c->mech == TH_MECH_FREEZE && !c->cgroup[0]) BAD("mechanism=freeze needs cgroup=/sys/fs/cgroup/.../NAME");
    if (c->sampling == TH_SAMPLING_OVERFLOW) {
        if (c->source != TH_SRC_COOP)
            BAD("sampling=overflow needs source=coop (the hog's overflow notification; perf overflow is not "
                "implemented)");
        if (c->mode != TH_MODE_DUTY) BAD("sampling=overflow is for mode=duty-cycle");
    }
    /* overflow + fifo-hold: each core's handler runs (and holds) on its own core, no sampler core needed */
    int needs_sampler_cpu = c->mech == TH_MECH_FIFO && c->sampling == TH_SAMPLING_PERIODIC;
    if (needs_sampler_cpu && c->sampler_cpu >= 0)
        for (int i = 0; i < c->ncores; i++)
            if (c->cores[i] == c->sampler_cpu)
                BAD("fifo-hold: sampler_cpu %d is a monitored core; the hold thread would block the sampler",
                    c->sampler_cpu);
    if (needs_sampler_cpu && c->sampler_cpu < 0) BAD("fifo-hold needs sampler_cpu=N (a core that is not monitored)");
    return 0;
#undef BAD
}
