/* Kernels against naive references; slicing a frame never changes the result. */
#include "chainlab/kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            failures++; \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n"); \
        } \
    } while (0)

enum { W = 37, H = 29 };

static cl_image frame(cl_pixel p) {
    cl_image img = { calloc((size_t)W * H, cl_pixel_bytes(p)), W, H, p };
    return img;
}
static double px(const cl_image *img, int x, int y) {
    size_t i = (size_t)y * W + (size_t)x;
    switch (img->pixel) {
    case CL_U8: return ((uint8_t *)img->data)[i];
    case CL_I8: return ((int8_t *)img->data)[i];
    case CL_U16: return ((uint16_t *)img->data)[i];
    case CL_I16: return ((int16_t *)img->data)[i];
    case CL_U32: return ((uint32_t *)img->data)[i];
    case CL_I32: return ((int32_t *)img->data)[i];
    case CL_F32: return ((float *)img->data)[i];
    case CL_F64: return ((double *)img->data)[i];
    }
    return 0;
}
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void test_type(cl_pixel p) {
    int is_float = p == CL_F32 || p == CL_F64;
    cl_image a = frame(p), b = frame(p), o = frame(p), o2 = frame(p);
    cl_k_source(&a, 0, H, 3, 1);
    cl_k_source(&b, 0, H, 4, 1);
    cl_image a2 = frame(p);
    cl_k_source(&a2, 0, 10, 3, 1);
    cl_k_source(&a2, 10, H, 3, 1);
    CHECK(memcmp(a.data, a2.data, cl_frame_bytes(&a)) == 0, "source slices differ (type %d)", p);
    CHECK(memcmp(a.data, b.data, cl_frame_bytes(&a)) != 0, "source does not change per iteration");

    cl_k_gain(&a, &o, 0, H, 0.5);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double want = px(&a, x, y) * 0.5;
            CHECK(fabs(px(&o, x, y) - want) <= (is_float ? 1e-6 * fabs(want) : 0.5), "gain %d,%d", x, y);
        }
    cl_k_add(&a, &b, &o, 0, H);
    for (int y = 0; y < H; y += 5)
        for (int x = 0; x < W; x += 3) {
            double want = px(&a, x, y) + px(&b, x, y);
            if (!is_float) want = fmin(want, p == CL_U8 ? 255 : p == CL_I8 ? 127 : want);
            CHECK(fabs(px(&o, x, y) - want) <= (is_float ? 1e-3 : 0.5), "add %d,%d type %d: %g vs %g", x, y, p,
                  px(&o, x, y), want);
        }
    for (int k = 1; k <= 7; k += 2) {
        cl_k_convolution(&a, &o, 0, H, k);
        cl_k_convolution(&a, &o2, 0, 13, k);
        cl_k_convolution(&a, &o2, 13, H, k);
        CHECK(memcmp(o.data, o2.data, cl_frame_bytes(&o)) == 0, "convolution(%d) slices differ", k);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double s = 0;
                for (int dy = -k / 2; dy <= k / 2; dy++)
                    for (int dx = -k / 2; dx <= k / 2; dx++)
                        s += px(&a, clampi(x + dx, 0, W - 1), clampi(y + dy, 0, H - 1));
                double want = s / (k * k);
                CHECK(fabs(px(&o, x, y) - want) <= (is_float ? 1e-3 * fabs(want) + 1e-3 : 0.5 + 1e-9),
                      "convolution(%d) %d,%d type %d: %g vs %g", k, x, y, p, px(&o, x, y), want);
            }
    }
    void *hist = calloc(3, cl_frame_bytes(&a));
    for (uint64_t it = 0; it < 5; it++) {
        cl_k_source(&a, 0, H, it, 0);
        cl_k_average(&a, &o, 0, H, hist, 3, it);
    }
    {
        double s = 0;
        for (int it = 2; it < 5; it++) {
            cl_k_source(&b, 0, H, (uint64_t)it, 0);
            s += px(&b, 4, 5);
        }
        CHECK(fabs(px(&o, 4, 5) - s / 3) <= (is_float ? 1e-3 : 0.5 + 1e-9), "average type %d: %g vs %g", p,
              px(&o, 4, 5), s / 3);
    }
    free(hist);
    cl_k_copy(&a, &o, 0, H);
    CHECK(memcmp(a.data, o.data, cl_frame_bytes(&a)) == 0, "copy");
    uint64_t whole = cl_k_sink(&a, 0, H, 7), parts = cl_k_sink(&a, 0, 5, 7) + cl_k_sink(&a, 5, H, 7);
    CHECK(whole == parts, "sink slices do not add up");
    CHECK(whole != cl_k_sink(&a, 0, H, 8), "sink ignores the iteration");
    free(a.data);
    free(b.data);
    free(o.data);
    free(o2.data);
    free(a2.data);
}

int main(void) {
    for (cl_pixel p = CL_U8; p <= CL_F64; p++) test_type(p);
    cl_image a = frame(CL_U16), o = frame(CL_U16);
    cl_k_source(&a, 0, H, 0, 0);
    cl_k_offset(&a, &o, 0, H, 10);
    CHECK(px(&o, 1, 1) == px(&a, 1, 1) + 10, "offset");
    cl_k_mul(&a, &a, &o, 0, H, 0.001);
    CHECK(fabs(px(&o, 2, 2) - px(&a, 2, 2) * px(&a, 2, 2) * 0.001) <= 0.5, "mul");
    free(a.data);
    free(o.data);
    printf("%s: kernels\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
