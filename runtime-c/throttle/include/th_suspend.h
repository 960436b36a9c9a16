/* Suspension mechanisms: SCHED_FIFO hold thread, SIGSTOP/SIGCONT, cgroup v2 freeze, plus a guardian
 * process that resumes everything if the daemon dies. */
#ifndef TH_SUSPEND_H
#define TH_SUSPEND_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "th_config.h"

/* The daemon beats every TH_HEARTBEAT_MS; the guardian resumes everything after TH_HANG_MS without a beat. */
#define TH_HEARTBEAT_MS 100
#define TH_HANG_MS 1000
#define TH_HOLD_DELAYS 4096

struct th_hold; /* per-core SCHED_FIFO hold threads */
struct th_susp {
    const struct th_config *cfg;
    int refs; /* process-level mechanisms: number of suspended cores */
    int core_on[TH_MAX_CORES];
    int guard_fd; /* write end of the guardian pipe, -1 if none */
    pid_t guard_pid;
    int created_cgroup;
    struct th_hold *hold;
    pid_t pids[TH_MAX_PIDS + 1];
    int npids;
    pid_t child; /* workload started by the daemon, 0 if none */
    uint64_t last_beat_ns;
};

int th_susp_init(struct th_susp *s, const struct th_config *cfg, pid_t child, char *err, size_t errlen);
int th_susp_apply(struct th_susp *s, int core_idx, int on);
/* Tell the guardian the daemon is alive (rate-limited to one write per TH_HEARTBEAT_MS). Returns -1 when
 * the guardian is gone (EPIPE; the daemon must ignore SIGPIPE): the caller resumes everything and exits. */
int th_susp_heartbeat(struct th_susp *s, uint64_t now_ns);
/* Resume everything (idempotent), stop hold threads, remove a created cgroup, stop the guardian. */
void th_susp_fini(struct th_susp *s);
/* fifo-hold: delay from a hold request to the hold thread spinning (ns), over the last TH_HOLD_DELAYS holds.
 * Returns the number of holds measured (0: none or not fifo-hold). */
int th_susp_hold_delays(const struct th_susp *s, int core_idx, uint32_t *p50, uint32_t *p99, uint32_t *max);
void th_susp_free(struct th_susp *s);
/* Used by the guardian and at exit: resume pids and thaw cgroup, ignoring errors. */
void th_resume_all(const pid_t *pids, int npids, const char *cgroup);
#endif
