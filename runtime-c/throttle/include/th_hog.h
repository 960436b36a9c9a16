/* Syn 'C' (thesis ch.4): read and write a buffer as fast as possible, counting the bytes moved. */
#ifndef TH_HOG_H
#define TH_HOG_H
#include <stddef.h>
#include <stdint.h>
#include "th_source.h"

enum th_hog_mode { TH_HOG_READ, TH_HOG_WRITE, TH_HOG_RW };
/* One pass over buf; adds the bytes moved. Returns a checksum (keeps the reads alive). */
uint64_t th_hog_pass(uint64_t *buf, size_t words, enum th_hog_mode mode, uint64_t *rd, uint64_t *wr);
/* Measure per-core read and write bandwidth (bytes/s) for about ms milliseconds each. */
int th_calibrate(size_t bytes, int ms, double *read_bps, double *write_bps);
uint64_t th_now_ns(void);
#endif
