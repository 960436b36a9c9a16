/* Runtime overhead: timestamp cost, uncontended signal cost, and cross-core signal latency with a
 * bounded spin vs blocking at once (futex). Build and run: bench/runtime/overhead.sh */
#define _GNU_SOURCE
#include "chainlab/rt.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROUNDS = 100000 };
static cl_sem ping, pong;
static int spin_setting, stop_flag;

static void pin(int core) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(core, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static void *ponger(void *arg) {
    pin(*(int *)arg);
    for (int i = 0; i < ROUNDS; i++) {
        cl_sem_wait(&ping, spin_setting, &stop_flag, 0);
        cl_sem_post(&pong);
    }
    return NULL;
}

static double round_trip_ns(int spin, int core_a, int core_b) {
    spin_setting = spin;
    cl_sem_init(&ping, 0);
    cl_sem_init(&pong, 0);
    pthread_t t;
    pthread_create(&t, NULL, ponger, &core_b);
    pin(core_a);
    int64_t t0 = cl_now_ns();
    for (int i = 0; i < ROUNDS; i++) {
        cl_sem_post(&ping);
        cl_sem_wait(&pong, spin, &stop_flag, 0);
    }
    int64_t t1 = cl_now_ns();
    pthread_join(t, NULL);
    return (double)(t1 - t0) / ROUNDS;
}

int main(int argc, char **argv) {
    int n = 10000000;
    int64_t t0 = cl_now_ns(), sink = 0;
    for (int i = 0; i < n; i++) sink += cl_now_ns();
    double ts = (double)(cl_now_ns() - t0) / n;
    cl_sem s;
    cl_sem_init(&s, 0);
    t0 = cl_now_ns();
    for (int i = 0; i < n; i++) {
        cl_sem_post(&s);
        cl_sem_wait(&s, 0, &stop_flag, 0);
    }
    double uncontended = (double)(cl_now_ns() - t0) / n;
    printf("timestamp (clock_gettime MONOTONIC): %.1f ns per call%s\n", ts, sink == 42 ? " " : "");
    printf("signal post + wait, uncontended, same thread: %.1f ns\n", uncontended);
    int cores = argc > 1 ? atoi(argv[1]) : 2;
    int b = cores > 1 ? 1 : 0;
    double rt_spin = round_trip_ns(2000, 0, b), rt_block = round_trip_ns(0, 0, b);
    printf("cross-core signal one-way (cores 0 -> %d): spin-then-block %.0f ns, block at once (futex) %.0f ns\n", b,
           rt_spin / 2, rt_block / 2);
    return 0;
}
