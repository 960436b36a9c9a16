#include "th_trace.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int th_trace_init(struct th_trace *t, size_t cap)
{
    memset(t, 0, sizeof *t);
    t->ring = calloc(cap, sizeof *t->ring); /* preallocated: no allocation while sampling */
    t->cap = cap;
    return t->ring ? 0 : -1;
}

struct th_sample *th_trace_next(struct th_trace *t)
{
    struct th_sample *s = &t->ring[t->head];
    t->head = (t->head + 1) % t->cap;
    if (t->n < t->cap) t->n++;
    else t->dropped++;
    return s;
}

int th_trace_write(const struct th_trace *t, FILE *f)
{
    fprintf(f, "t_ns,core,read_bytes,write_bytes,est_read_bps,est_write_bps,suspended,change,act_ns\n");
    size_t start = (t->head + t->cap - t->n) % t->cap;
    for (size_t k = 0; k < t->n; k++) {
        const struct th_sample *s = &t->ring[(start + k) % t->cap];
        fprintf(f, "%" PRIu64 ",%d,%" PRIu64 ",%" PRIu64 ",%.0f,%.0f,%u,%d,%u\n", s->t_ns, s->core, s->dr, s->dw,
                s->est_r, s->est_w, s->suspended, s->change == 2 ? -1 : s->change, s->act_ns);
    }
    return ferror(f) ? -1 : 0;
}

void th_trace_free(struct th_trace *t)
{
    free(t->ring);
    t->ring = NULL;
}
