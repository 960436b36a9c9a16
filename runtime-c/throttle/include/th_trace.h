/* Preallocated sample ring, written out at the end. */
#ifndef TH_TRACE_H
#define TH_TRACE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct th_sample {
    uint64_t t_ns, dr, dw;
    double est_r, est_w;
    uint32_t act_ns; /* time the mechanism took to apply a change (live only) */
    int16_t core;
    uint8_t suspended, change;
};
struct th_trace {
    struct th_sample *ring;
    size_t cap, head, n;
    uint64_t dropped;
};
int th_trace_init(struct th_trace *t, size_t cap);
struct th_sample *th_trace_next(struct th_trace *t);
int th_trace_write(const struct th_trace *t, FILE *f);
void th_trace_free(struct th_trace *t);
#endif
