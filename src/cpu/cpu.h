/* Internal: the CPU backend's stages (cpu_backend.c puts them behind the seam). Arguments
 * have been checked by the entry points (src/api). */
#ifndef EDGEL_CPU_H
#define EDGEL_CPU_H

#include "edgel.h"
#include "core/volume_labels.h"
#include "core/host_pool.h"
#include "core/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hot row loops are compiled twice on x86-64 (AVX2 and baseline SSE2) and picked at load
 * time; integer arithmetic, so both versions give the same bytes. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(EDGEL_NO_CLONES)
#  define EDGEL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
/* Floating-point loops bound by arithmetic (the skimage preset's doubles): AVX-512 too.
 * Without contraction (-ffp-contract=off) every clone gives the same doubles. */
#  define EDGEL_WIDE_CLONES \
      __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#  define EDGEL_VECTOR_CLONES
#  define EDGEL_WIDE_CLONES
#endif


/* The border columns of a row extended to `ext` pixels of `cn` channels whose inside
 * (pixels ax .. ax + w - 1) is in place: column xx takes pixel xmap[xx] of the inside, or
 * the border value bv where that is -1. For the filters' u8 and float rows alike. */
#define EDGEL_EXTEND_BORDERS(out, ext, cn, ax, w, xmap, bv)                            \
    for (int xx_ = 0; xx_ < (ext); xx_++) {                                           \
        if (xx_ == (ax))                                                             \
            xx_ += (w); /* skip the inside */                                        \
        if (xx_ >= (ext))                                                            \
            break;                                                                   \
        const int sx_ = (xmap)[xx_];                                                 \
        for (int c_ = 0; c_ < (cn); c_++)                                            \
            (out)[xx_ * (cn) + c_] = sx_ < 0 ? (bv) : (out)[((ax) + sx_) * (cn) + c_]; \
    }

/* acc[x] += c * pixel for the `w` pixels of a u8, u16 or f32 row, each converted to double as
 * ITK does (u8 and u16 go through float exactly): the itk preset's first Gaussian pass, in
 * 2-D and 3-D. */
static inline void edgel_cpu_itk_accumulate(double *acc, const uint8_t *row,
                                            edgel_pixel_type type, double c, int w)
{
    if (type == EDGEL_U8) {
        for (int x = 0; x < w; x++)
            acc[x] += c * (double)row[x];
    } else if (type == EDGEL_U16) {
        const uint16_t *r = (const uint16_t *)row;
        for (int x = 0; x < w; x++)
            acc[x] += c * (double)r[x];
    } else {
        const float *r = (const float *)row;
        for (int x = 0; x < w; x++)
            acc[x] += c * (double)r[x];
    }
}

/* The Canny/Devernay sub-pixel detector (cpu_subpixel.c) of a checked 1-channel host image
 * into `curves`, on up to `threads` threads. */
edgel_status edgel_cpu_subpixel(const edgel_subpixel_params *p, const edgel_image *src,
                                edgel_curves *curves, int threads);
/* Its first half: the edge points and their best neighbours (curves->all and the neighbour
 * arrays), positions in the frame of a larger image where this one starts at (x0, y0). */
edgel_status edgel_cpu_subpixel_points(const edgel_subpixel_params *p, const edgel_image *src,
                                       int64_t x0, int64_t y0, edgel_curves *curves,
                                       int threads);

edgel_status edgel_cpu_to_gray(int threads, edgel_gray order, const edgel_image *src,
                               const edgel_image *gray);
/* Gaussian with a resolved odd kernel side; dst may not overlap src. */
edgel_status edgel_cpu_gaussian_blur(int threads, const edgel_image *src, const edgel_image *dst,
                                     int32_t ksize, double sigma);
edgel_status edgel_cpu_blur_5x5_159(int threads, const edgel_image *src, const edgel_image *dst);

/* The Canny core of the opencv preset on a u8 image (no gray/blur) or on s16 gradients. */
typedef struct edgel_cpu_canny_input {
    const edgel_image *src; /* image form, or NULL */
    const edgel_image *dx;  /* gradient form */
    const edgel_image *dy;
    int aperture;
    int l2;
    edgel_int_thresholds thresholds;
    /* A fixed-point pre-blur of src done inside the sweep (each stripe blurs the rows it
     * reads into a ring), or NULL. */
    const struct edgel_filter_plan *blur;
} edgel_cpu_canny_input;

/* Memory kept by a context between calls, so repeated calls do not fault in fresh pages. */
typedef struct edgel_cpu_buffer {
    uint8_t *data;
    size_t bytes;
} edgel_cpu_buffer;

typedef struct edgel_cpu_workspace {
    edgel_cpu_buffer map;     /* the hysteresis map */
    edgel_cpu_buffer gray;    /* pipeline temporaries */
    edgel_cpu_buffer blurred;
    edgel_cpu_buffer itk_a;   /* itk preset: float images (see cpu_itk.c) */
    edgel_cpu_buffer itk_b;
    edgel_cpu_buffer sk_x;    /* skimage preset: the input as doubles, the magnitude for */
    edgel_cpu_buffer sk_m;    /* quantiles and their scratch, */
    edgel_cpu_buffer sk_rows; /* the stripes' rows (see cpu_skimage.c) */
    edgel_cpu_buffer tile_edges; /* the tiled driver's marks (cpu_backend.c) */
    edgel_cpu_buffer tile_classes;
    edgel_cpu_buffer tile_sup;
    edgel_cpu_buffer fft_kernel; /* the FFT method's kernel spectrum, with the taps and grid
                                    it is of (cpu_fft.c) */
    edgel_volume_labels volume_labels; /* volumes' hysteresis (cpu_itk_volume.c) */
} edgel_cpu_workspace;

/* At least `bytes` of buffer memory (reallocated only to grow); NULL when out of memory. */
uint8_t *edgel_cpu_buffer_reserve(edgel_cpu_buffer *buf, size_t bytes);
void edgel_cpu_workspace_free(edgel_cpu_workspace *ws);

edgel_status edgel_cpu_canny_core(int threads, edgel_cpu_workspace *ws,
                                  const edgel_cpu_canny_input *in,
                                  const edgel_image *edges, const edgel_canny_stages *stages);

/* The itk preset on a 1-channel u8/u16/f32 host image; edges u8 or f32; stages smoothed and
 * suppressed (f32) or NULL. */
edgel_status edgel_cpu_canny_itk(int threads, edgel_cpu_workspace *ws,
                                 const edgel_canny_params *params, const edgel_image *src,
                                 const edgel_image *edges, const edgel_canny_stages *stages);

/* ITK's Canny on a checked u8/u16/f32 host volume; edges u8 or f32; stages f32 or NULL. */
edgel_status edgel_cpu_canny_volume(int threads, edgel_cpu_workspace *ws,
                                    const edgel_volume_canny_params *params,
                                    const edgel_volume *src, const edgel_volume *edges,
                                    const edgel_volume_canny_stages *stages);

/* The skimage preset on a 1-channel host image of any of its types, with an optional u8/bool
 * mask; edges u8 or bool; stages smoothed, dx, dy, magnitude, suppressed (f32 for f32
 * input, else f64) or NULL. */
edgel_status edgel_cpu_canny_skimage(int threads, edgel_cpu_workspace *ws,
                                     const edgel_canny_params *params, const edgel_image *src,
                                     const edgel_image *mask, const edgel_image *edges,
                                     const edgel_canny_stages *stages);

/* The convolution engine's methods on host images (plan from src/core/filter.h). */
struct edgel_filter_plan;
edgel_status edgel_cpu_filter(int threads, edgel_cpu_workspace *ws,
                              const struct edgel_filter_plan *plan, const edgel_image *src,
                              const edgel_image *dst);
/* The fixed-point separable method's output rows one at a time (the Canny sweep's fused
 * pre-blur): any row, the next row after the last cheapest (one source row filtered). */
typedef struct edgel_fixed_rows {
    const struct edgel_filter_plan *p;
    const edgel_image *src;
    uint16_t *ring; /* kh row-filtered lines */
    uint8_t *pad;
    int32_t *acc;
    int *xmap;
    int first, next; /* the lines held: [max(first, next - kh), next) */
} edgel_fixed_rows;

int edgel_fixed_rows_init(edgel_fixed_rows *r, const struct edgel_filter_plan *plan,
                          const edgel_image *src); /* 0: out of memory */
void edgel_fixed_rows_next(edgel_fixed_rows *r, int y, uint8_t *out);
void edgel_fixed_rows_free(edgel_fixed_rows *r);

/* The separable method in fixed point (plan->fixed_point; cpu_fixed_filter.c). */
edgel_status edgel_cpu_filter_fixed(int threads, const struct edgel_filter_plan *plan,
                                    const edgel_image *src, const edgel_image *dst);
/* The predicted time in ns of method m for a plan on `threads` threads (cpu_filter_cost.c);
 * FFT: anything above `bound` may come back early. */
double edgel_cpu_filter_cost(struct edgel_filter_plan *plan, edgel_conv_method m, int threads,
                             double bound);
/* The FFT method's tile grid, kept in the plan (plan->fft_nx, fft_ny). */
void edgel_cpu_fft_tiles(struct edgel_filter_plan *plan);
edgel_status edgel_cpu_filter_fft(int threads, edgel_cpu_workspace *ws,
                                  const struct edgel_filter_plan *plan, const edgel_image *src,
                                  const edgel_image *dst);

#if defined(__x86_64__) && defined(__GNUC__)
/* Whether this CPU runs AVX2 (and FMA), for the kernels compiled for them. The flags are read
 * once when the program loads (__builtin_cpu_init): no cache here, and so no race. */
static inline int edgel_cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
static inline int edgel_cpu_has_avx2_fma(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

#ifdef __cplusplus
}
#endif

#endif
