/* Configuration of chainlab-throttle: parsing (key=value) and validation. */
#ifndef TH_CONFIG_H
#define TH_CONFIG_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TH_MAX_CORES 64
#define TH_MAX_PIDS 64
#define TH_PATH 256

enum th_mode { TH_MODE_DUTY, TH_MODE_BUDGET };
enum th_src { TH_SRC_PERF, TH_SRC_COOP, TH_SRC_REPLAY };
enum th_mech { TH_MECH_NONE, TH_MECH_FIFO, TH_MECH_SIGSTOP, TH_MECH_FREEZE };
/* periodic: sample every S (the thesis); overflow: wait for the source's notification that a window's
 * bytes reached the threshold (MemGuard-like, no periodic wake-ups). */
enum th_sampling { TH_SAMPLING_PERIODIC, TH_SAMPLING_OVERFLOW };

struct th_config {
    enum th_mode mode;
    enum th_src source;
    enum th_mech mech;
    enum th_sampling sampling;
    int ncores;
    int cores[TH_MAX_CORES];        /* monitored best-effort cores */
    uint64_t sample_ns, suspend_ns; /* duty-cycle: S and T */
    double read_thr, write_thr;     /* bytes/s, or percent when *_pct */
    int read_pct, write_pct;
    double calib_read, calib_write; /* calibrated per-core max bytes/s (0 = measure) */
    int proportional;
    uint64_t period_ns, budget;   /* budget: P and Q (misses / 64-byte lines) */
    int dynamic;                  /* budget shared by all cores (dynamic) */
    char event[64];               /* perf event name, or raw:HEX[,HEX] */
    uint64_t raw_read, raw_write; /* raw event codes when event is raw:... (raw_write 0 = none) */
    char replay[TH_PATH];
    char shm[TH_MAX_CORES][TH_PATH]; /* coop: one hog shm file per core */
    int nshm;
    int npids;
    pid_t pids[TH_MAX_PIDS];
    char cgroup[TH_PATH];
    int cgroup_create;
    long duration_ms; /* 0 = until signal / workload exit */
    char trace[TH_PATH];
    size_t trace_cap;
    int sampler_cpu; /* -1 = not pinned */
    int fifo_prio;
    char **command;   /* workload argv after "--" (not owned) */
    char *title;      /* the daemon's argv area, rewritten by the guardian so ps tells them apart (not owned) */
    size_t title_len; /* its size in bytes, 0 = leave the title alone */
};

void th_config_defaults(struct th_config *c);
/* Set one key; returns 0, or -1 with a message in err. */
int th_config_set(struct th_config *c, const char *key, const char *value, char *err, size_t errlen);
/* Parse "key = value" lines (# comments). Returns 0 or -1 with "FILE:LINE: message". */
int th_config_parse_text(struct th_config *c, const char *text, const char *name, char *err, size_t errlen);
int th_config_parse_file(struct th_config *c, const char *path, char *err, size_t errlen);
/* argv: --key=value / key=value / --config FILE / -- command... */
int th_config_parse_args(struct th_config *c, int argc, char **argv, char *err, size_t errlen);
/* Consistency checks against the machine (ncpu online CPUs). */
int th_config_validate(const struct th_config *c, int ncpu, char *err, size_t errlen);
#endif
