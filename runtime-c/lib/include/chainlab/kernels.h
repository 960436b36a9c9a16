/* chainlab kernels: image-processing steps on row slices [r0, r1) of real frames.
 * Every kernel is deterministic per pixel, so slicing a frame over threads never changes the image. */
#ifndef CHAINLAB_KERNELS_H
#define CHAINLAB_KERNELS_H
#include <stddef.h>
#include <stdint.h>

typedef enum { CL_U8, CL_I8, CL_U16, CL_I16, CL_U32, CL_I32, CL_F32, CL_F64 } cl_pixel;

/* One frame: `data` points at row 0; rows are width * pixel bytes apart. */
typedef struct {
    void *data;
    int width, height;
    cl_pixel pixel;
} cl_image;

size_t cl_pixel_bytes(cl_pixel p);
size_t cl_frame_bytes(const cl_image *img);

/* A deterministic synthetic frame: depends on (x, y, iteration, seed) only. */
void cl_k_source(const cl_image *o, int r0, int r1, uint64_t iteration, uint64_t seed);
void cl_k_offset(const cl_image *i, const cl_image *o, int r0, int r1, double value);
void cl_k_gain(const cl_image *i, const cl_image *o, int r0, int r1, double factor);
void cl_k_add(const cl_image *a, const cl_image *b, const cl_image *o, int r0, int r1);
void cl_k_mul(const cl_image *a, const cl_image *b, const cl_image *o, int r0, int r1, double scale);
/* Temporal mean of the last `frames` inputs (fewer during the first iterations). `history` holds
 * `frames` whole frames of the input's pixel type (cl_frame_bytes * frames bytes), kept between iterations. */
void cl_k_average(const cl_image *i, const cl_image *o, int r0, int r1, void *history, int frames, uint64_t iteration);
/* k x k mean filter, borders replicated; reads rows [r0 - k/2, r1 + k/2) of the input. */
void cl_k_convolution(const cl_image *i, const cl_image *o, int r0, int r1, int k);
void cl_k_copy(const cl_image *i, const cl_image *o, int r0, int r1);
/* Returns the checksum of rows [r0, r1) of iteration `iteration`: a sum of per-row hashes, so the
 * checksums of slices add up to the checksum of the whole frame in any order. */
uint64_t cl_k_sink(const cl_image *i, int r0, int r1, uint64_t iteration);

#endif
