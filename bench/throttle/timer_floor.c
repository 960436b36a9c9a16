/* Floor of the sampler's cost: a bare SCHED_FIFO clock_nanosleep loop at 100 us, pinned to core 0. */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>
#include <sched.h>
int main(void) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(0, &s);
    sched_setaffinity(0, sizeof s, &s);
    struct sched_param sp = { .sched_priority = 90 };
    sched_setscheduler(0, SCHED_FIFO, &sp);
    struct timespec n, a, b, w0, w1;
    clock_gettime(CLOCK_MONOTONIC, &n);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    clock_gettime(CLOCK_MONOTONIC, &w0);
    for (int i = 0; i < 20000; i++) {
        n.tv_nsec += 100000;
        if (n.tv_nsec >= 1000000000) {
            n.tv_nsec -= 1000000000;
            n.tv_sec++;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &n, NULL);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    double cpu = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec),
           wall = (w1.tv_sec - w0.tv_sec) * 1e9 + (w1.tv_nsec - w0.tv_nsec);
    printf("bare clock_nanosleep loop at 100us: cpu %.2f%% of wall\n", 100 * cpu / wall);
    return 0;
}
