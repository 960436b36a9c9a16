/* chainlab runtime: runs a plan's threads (wait / execute / signal / barrier steps, repeated once per
 * iteration) with pinned threads, cheap signals, one pre-faulted arena and per-iteration timestamps.
 * Thesis 3.4.4: init (cl_create), thread code (cl_program tables), start (cl_run), cleanup (cl_destroy). */
#ifndef CHAINLAB_RT_H
#define CHAINLAB_RT_H
#include <stddef.h>
#include <stdint.h>

typedef struct cl_ctx cl_ctx;

typedef enum { CL_WAIT, CL_EXEC, CL_SIGNAL, CL_BARRIER } cl_op;
typedef struct {
    cl_op op;
    int ref;
} cl_step; /* ref: signal index (wait/signal) or sub-box index (exec) */

typedef struct {
    const char *name;
    int core;
    const cl_step *steps;
    int nsteps;
} cl_thread_spec; /* core -1: OS-scheduled */
typedef struct {
    const char *name;
    int initial_tokens;
} cl_signal_spec;
typedef void (*cl_subbox_fn)(void *user, uint64_t iteration);
typedef struct {
    const char *name;
    cl_subbox_fn fn;
} cl_subbox_spec;

typedef struct {
    const char *chain;
    int nthreads;
    const cl_thread_spec *threads;
    int nsignals;
    const cl_signal_spec *signals;
    int nsubs;
    const cl_subbox_spec *subs;
    size_t arena_bytes, alignment;
} cl_program;

/* Limits of the options (the generated main.c refuses more): timestamps take 16 B per iteration and thread. */
#define CL_MAX_ITERATIONS 1000000000ULL
#define CL_MAX_PERIOD_NS 3600000000000ULL
#define CL_MAX_CALIBRATE 1000000ULL

typedef struct {
    uint64_t iterations;
    int64_t period_ns; /* 0: sources run free; else iteration i is released at t0 + i * period (absolute) */
    int fifo_priority; /* 0: normal scheduling; 1..99: SCHED_FIFO (warning if refused) */
    int lock_memory;   /* mlockall */
    int huge_pages;    /* madvise the arena for transparent huge pages */
    int spin;          /* bounded spin before blocking in a wait; -1: automatic */
    double watchdog_s; /* a wait longer than this aborts the run with a message; 0: never */
    int timers;        /* per-sub-box timers */
    int progress;      /* progress bar on stderr */
    uint64_t trace;    /* per-sub-box start and end of the last this many iterations (cl_write_trace); 0: none */
} cl_options;

void cl_default_options(cl_options *o);
/* Allocates everything (arena pre-faulted, timestamp buffers); NULL with a message on stderr on failure. */
cl_ctx *cl_create(const cl_program *p, const cl_options *o, void *user);
unsigned char *cl_arena(cl_ctx *c);
/* The pointer every sub-box function receives. */
void cl_set_user(cl_ctx *c, void *user);
/* Runs the iterations. Returns 0 when all ran, 1 when stopped by SIGINT/SIGTERM (or cl_stop), 2 on a watchdog abort. */
int cl_run(cl_ctx *c);
void cl_stop(cl_ctx *c);
/* Iterations every thread completed: those with valid timestamps. */
uint64_t cl_completed(const cl_ctx *c);
void cl_latency(const cl_ctx *c, uint64_t i, int64_t *start_ns, int64_t *end_ns);
/* The writers write PATH.tmp and rename it: 0, or -1 with a message on stderr (nothing left at PATH then). */
int cl_write_csv(const cl_ctx *c, const char *path);
/* JSON header: plan_json (a JSON object text or NULL), machine, iterations, checksum. */
int cl_write_json(const cl_ctx *c, const char *path, const char *plan_json, uint64_t checksum, int status);
/* The trace (options.trace > 0): CSV iteration,sub_box,start_ns,end_ns for the last traced completed iterations,
 * times from the iteration's release (its start in cl_latency). */
int cl_write_trace(const cl_ctx *c, const char *path);
/* Per-sub-box timers (when enabled): total and max ns. */
void cl_subbox_time(const cl_ctx *c, int sub, int64_t *total_ns, int64_t *max_ns, uint64_t *count);
/* Calibration: runs every sub-box alone `reps` times; CSV sub_box,rep,ns. */
int cl_calibrate(cl_ctx *c, int reps, const char *path);
void cl_destroy(cl_ctx *c);
int64_t cl_now_ns(void);

/* Signals: counting semaphores (bounded spin, then futex). Exposed for tests and benchmarks. */
typedef struct {
    _Alignas(64) int tokens;
    int waiters;
} cl_sem;
void cl_sem_init(cl_sem *s, int tokens);
void cl_sem_post(cl_sem *s);
/* 0 when a token was taken; -1 when *stop became non-zero or the watchdog (timeout_ns > 0) fired. */
int cl_sem_wait(cl_sem *s, int spin, const int *stop, int64_t timeout_ns);

#endif
