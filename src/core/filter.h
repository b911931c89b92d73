/* Internal: the convolution engine's checked call, shared by the backends. */
#ifndef EDGEL_CORE_FILTER_H
#define EDGEL_CORE_FILTER_H

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where OpenCV's filter2D stops filtering directly and goes through its DFT. */
#define EDGEL_OPENCV_DFT_TAPS 130

/* One call, its kernel normalised to correlation: taps[j * kw + i] multiplies
 * src(x + i - ax, y + j - ay). Separable plans carry kx and ky with taps = ky * kx. */
typedef struct edgel_filter_plan {
    int w, h, cn;
    edgel_pixel_type in_type, out_type;
    int kw, kh, ax, ay;
    float *taps;    /* kh * kw, owned */
    float *kx, *ky; /* kw and kh values, owned; NULL when not separable */
    int nonzero;    /* non-zero taps */
    edgel_border border;
    float border_value;
    edgel_conv_method method; /* resolved, never AUTO */
    int fft_nx, fft_ny;       /* the CPU FFT's overlap-save grid (set with method FFT) */
    /* Fixed point (u8 -> u8 separable plans whose factors are qx / 256 and qy / 256, see
     * edgel_fixed_point_round): the separable method runs in integers. */
    int fixed_point;
    int round_half_up; /* u8 results rounded half up (cv2.GaussianBlur), else half to even */
    uint16_t qx[EDGEL_MAX_KERNEL_SIZE], qy[EDGEL_MAX_KERNEL_SIZE];
} edgel_filter_plan;

/* Builds a plan: checks the parameters and the kernel (a host f32 view, or kx/ky), flips
 * for convolution, detects rank-1 kernels, resolves `auto` with the backend's cost model.
 * The views have been checked by the caller. */
struct edgel_backend_ops;
/* The caller's params as the library's struct (core/grown.h), as edgel_canny_params_read. */
edgel_status edgel_filter_params_read(const edgel_filter_params *in, edgel_filter_params *out);

edgel_status edgel_filter_plan_make(const edgel_filter_params *params, const edgel_image *src,
                                    const edgel_image *dst, const edgel_image *kernel,
                                    const float *kx, int kw, const float *ky, int kh,
                                    const struct edgel_backend_ops *ops, void *state,
                                    edgel_filter_plan *plan);
void edgel_filter_plan_free(edgel_filter_plan *plan);

/* The plan of OpenCV's fixed-point GaussianBlur of a w x h u8 image (`cn` channels): the
 * side's kernel (ksize, resolved and odd; 1 along a side of length 1) in 8 fractional bits,
 * reflect-101, rounded half up. Owns nothing. */
void edgel_filter_plan_gaussian(int w, int h, int cn, int ksize, double sigma,
                                edgel_filter_plan *plan);

/* The CPU's direct method takes several output rows at once (each loaded vector serving
 * them all) for kernels with no zero taps and at least this many rows. */
#define EDGEL_CPU_BLOCK_MIN_KH 7

/* The least m >= n whose prime factors are all at most `largest` (5 or 7), even if asked. */
int edgel_smooth_size(int n, int largest, int even);
/* The CPU FFT's grid is sized for this many threads, not the context's: tiles decide the float
 * rounding, and every thread count must give the same floats. */
#define EDGEL_FFT_TILE_THREADS 16

#ifdef __cplusplus
}
#endif

#endif
