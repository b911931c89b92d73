/* The CPU backend behind the seam (core/backend.h): its per-context state (worker threads,
 * workspaces kept between calls), the opencv preset's pipeline (gray, blur, Canny core), the
 * itk preset, and the convolution engine with its cost model. */
#include "cpu/cpu_backend.h"
#include "core/backend.h"
#include "core/filter.h"
#include "core/frames_run.h"
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "cpu/cpu_hysteresis.h"
#include "core/itk_math.h"
#include "core/opencv_math.h"

#include <stdlib.h>
#include <string.h>

typedef struct cpu_state {
    int threads;
    edgel_cpu_workspace ws;
} cpu_state;

static void cpu_destroy(void *state)
{
    cpu_state *s = state;
    if (!s)
        return;
    edgel_cpu_workspace_free(&s->ws);
    free(s);
}

static edgel_status cpu_reserve(void *state, int w, int h, int channels, int batch)
{
    (void)batch; /* frames run one after another */
    cpu_state *s = state;
    const size_t px = (size_t)w * (size_t)h;
    if (!edgel_cpu_buffer_reserve(&s->ws.map, ((size_t)w + 2) * ((size_t)h + 2)) ||
        !edgel_cpu_buffer_reserve(&s->ws.gray, px) ||
        !edgel_cpu_buffer_reserve(&s->ws.blurred, px * (size_t)channels))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "reserve: out of memory");
    return EDGEL_OK;
}

static edgel_status cpu_no_stream(void *state, void *stream)
{
    (void)state, (void)stream;
    return EDGEL_OK; /* CPU calls return with their results */
}

static edgel_status cpu_synchronize(void *state)
{
    (void)state;
    return EDGEL_OK;
}

/* A u8 host image in a buffer of the workspace. */
static edgel_status temp_image(edgel_image *img, int w, int h, int cn, edgel_cpu_buffer *buf)
{
    uint8_t *mem = edgel_cpu_buffer_reserve(buf, (size_t)w * (size_t)h * (size_t)cn);
    if (!mem)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%dx%d image", w, h,
                          cn);
    *img = edgel_image_host(mem, w, h, EDGEL_U8, cn);
    return EDGEL_OK;
}

static void copy_image(const edgel_image *src, const edgel_image *dst)
{
    for (int y = 0; y < src->height; y++)
        memcpy(edgel_row_u8(dst, y), edgel_row_u8(src, y), edgel_row_bytes(src));
}

/* The opencv preset on one frame: gray conversion, pre-smoothing, the Canny core; each
 * stage into the caller's stage view where one is given. */
static edgel_status opencv_pipeline(cpu_state *s, const edgel_canny_params *params,
                                    const edgel_image *src, const edgel_image *edges,
                                    const edgel_canny_stages *stages)
{
    const int w = src->width, h = src->height, threads = s->threads;
    edgel_image gray, blurred;
    const edgel_image *cur = src;
    edgel_status st = EDGEL_OK;

    if (params->gray != EDGEL_GRAY_NONE && src->channels > 1) {
        const edgel_image *target = stages ? stages->gray : NULL;
        if (!target) {
            st = temp_image(&gray, w, h, 1, &s->ws.gray);
            target = &gray;
        }
        if (st == EDGEL_OK)
            st = edgel_cpu_to_gray(threads, params->gray, src, target);
        cur = target;
    } else if (stages && stages->gray && params->gray != EDGEL_GRAY_NONE) {
        copy_image(src, stages->gray);
    }
    /* The Gaussian runs inside the Canny sweep, unless its result is asked for. */
    edgel_filter_plan blur_plan;
    const int fused = params->blur == EDGEL_BLUR_GAUSSIAN && !(stages && stages->smoothed);
    if (st == EDGEL_OK && fused) {
        int32_t k;
        st = edgel_resolve_gaussian(params->blur_ksize, params->blur_sigma, &k);
        if (st == EDGEL_OK)
            edgel_filter_plan_gaussian(w, h, cur->channels, k, params->blur_sigma, &blur_plan);
    } else if (st == EDGEL_OK && params->blur != EDGEL_BLUR_NONE) {
        const edgel_image *target = stages ? stages->smoothed : NULL;
        if (!target) {
            st = temp_image(&blurred, w, h, cur->channels, &s->ws.blurred);
            target = &blurred;
        }
        if (st == EDGEL_OK && params->blur == EDGEL_BLUR_GAUSSIAN) {
            int32_t k;
            st = edgel_resolve_gaussian(params->blur_ksize, params->blur_sigma, &k);
            if (st == EDGEL_OK)
                st = edgel_cpu_gaussian_blur(threads, cur, target, k, params->blur_sigma);
        } else if (st == EDGEL_OK) {
            st = edgel_cpu_blur_5x5_159(threads, cur, target);
        }
        cur = target;
    } else if (st == EDGEL_OK && stages && stages->smoothed) {
        copy_image(cur, stages->smoothed);
    }
    if (st == EDGEL_OK) {
        edgel_cpu_canny_input in = {cur, NULL, NULL, params->aperture, params->l2_gradient,
                                    edgel_opencv_thresholds(params, 0),
                                    fused ? &blur_plan : NULL};
        st = edgel_cpu_canny_core(threads, &s->ws, &in, edges, stages);
    }
    return st;
}

static edgel_status cpu_canny(void *state, const edgel_canny_params *params,
                              const edgel_image *srcs, const edgel_image *edges, int count,
                              const edgel_canny_stages *stages)
{
    cpu_state *s = state;
    for (int i = 0; i < count; i++)
        EDGEL_TRY(params->preset == EDGEL_PRESET_ITK
                      ? edgel_cpu_canny_itk(s->threads, &s->ws, params, &srcs[i], &edges[i],
                                            stages)
                      : opencv_pipeline(s, params, &srcs[i], &edges[i], stages));
    return EDGEL_OK;
}

static edgel_status cpu_canny_skimage(void *state, const edgel_canny_params *params,
                                      const edgel_image *src, const edgel_image *mask,
                                      const edgel_image *edges, const edgel_canny_stages *stages)
{
    cpu_state *s = state;
    return edgel_cpu_canny_skimage(s->threads, &s->ws, params, src, mask, edges, stages);
}

/* The tiled driver's marks: the region's classes through the pipeline's suppressed stage
 * (the itk preset's values cut by its thresholds, as ITK compares), then two hysteresis runs
 * over the tile (cpu_hysteresis.c). */
static edgel_status cpu_canny_marks(void *state, const edgel_canny_params *params,
                                    const edgel_image *regions, const edgel_tile_rect *tiles,
                                    const edgel_image *marks, uint8_t *const *sides,
                                    int count)
{
    cpu_state *s = state;
    const int itk = params->preset == EDGEL_PRESET_ITK;
    for (int i = 0; i < count; i++) {
        const int rw = regions[i].width, rh = regions[i].height;
        const size_t px = (size_t)rw * rh;
        uint8_t *edges = edgel_cpu_buffer_reserve(&s->ws.tile_edges, px);
        uint8_t *classes = edgel_cpu_buffer_reserve(&s->ws.tile_classes, px);
        float *sup = itk ? (float *)edgel_cpu_buffer_reserve(&s->ws.tile_sup, px * sizeof(float))
                         : NULL;
        if (!edges || !classes || (itk && !sup))
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d tile", rw, rh);
        const edgel_image edges_view = edgel_image_host(edges, rw, rh, EDGEL_U8, 1);
        const edgel_image sup_view = itk ? edgel_image_host(sup, rw, rh, EDGEL_F32, 1)
                                         : edgel_image_host(classes, rw, rh, EDGEL_U8, 1);
        edgel_canny_stages stages = {0};
        stages.suppressed = &sup_view;
        EDGEL_TRY(cpu_canny(s, params, &regions[i], &edges_view, 1, &stages));
        const float lower = (float)params->low_threshold, upper = (float)params->high_threshold;
        for (size_t k = 0; itk && k < px; k++) /* ITK's classes, as its pipeline's */
            classes[k] = edgel_map_to_suppressed(edgel_itk_class(sup[k], lower, upper));
        const edgel_tile_rect *t = &tiles[i];
        EDGEL_TRY(edgel_cpu_tile_marks(s->threads, &s->ws.map,
                                       classes + (size_t)t->y * rw + (size_t)t->x, (size_t)rw,
                                       &marks[i], sides[i]));
    }
    return EDGEL_OK;
}

static edgel_status cpu_canny_gradients(void *state, const edgel_canny_params *params,
                                        const edgel_image *dx, const edgel_image *dy,
                                        const edgel_image *edges,
                                        const edgel_canny_stages *stages)
{
    cpu_state *s = state;
    edgel_cpu_canny_input in = {NULL, dx, dy, 3, params->l2_gradient,
                                edgel_opencv_thresholds(params, 1), NULL};
    return edgel_cpu_canny_core(s->threads, &s->ws, &in, edges, stages);
}

static edgel_status cpu_to_gray(void *state, edgel_gray order, const edgel_image *src,
                                const edgel_image *gray)
{
    return edgel_cpu_to_gray(state ? ((cpu_state *)state)->threads : edgel_host_cores(), order,
                             src, gray);
}

static edgel_status cpu_gaussian_blur(void *state, const edgel_image *src,
                                      const edgel_image *dst, int ksize, double sigma)
{
    return edgel_cpu_gaussian_blur(state ? ((cpu_state *)state)->threads : edgel_host_cores(),
                                   src, dst, ksize, sigma);
}

static edgel_status cpu_subpixel(void *state, const edgel_subpixel_params *params,
                                 const edgel_image *src, edgel_curves *curves)
{
    return edgel_cpu_subpixel(params, src, curves,
                              state ? ((cpu_state *)state)->threads : edgel_host_cores());
}

static edgel_status cpu_subpixel_points(void *state, const edgel_subpixel_params *params,
                                        const edgel_image *src, int64_t x0, int64_t y0,
                                        edgel_curves *curves)
{
    return edgel_cpu_subpixel_points(params, src, x0, y0, curves,
                                     state ? ((cpu_state *)state)->threads : edgel_host_cores());
}

typedef struct subpixel_frames {
    const edgel_subpixel_params *params;
    const edgel_image *srcs;
    edgel_curves *const *curves;
} subpixel_frames;

static edgel_status subpixel_frame(void *arg, int lane, int i)
{
    (void)lane;
    const subpixel_frames *f = arg;
    return edgel_cpu_subpixel(f->params, &f->srcs[i], f->curves[i], 1);
}

/* A frame a thread where the frames fill at least half the threads (one frame on 16 threads
 * takes a fifth of its time on one, so fewer frames go faster in turn, each on them all). */
static edgel_status cpu_subpixel_batch(void *state, const edgel_subpixel_params *params,
                                       const edgel_image *srcs, edgel_curves *const *curves,
                                       int count)
{
    const int threads = state ? ((cpu_state *)state)->threads : edgel_host_cores();
    if (2 * count < threads) {
        for (int i = 0; i < count; i++) {
            const edgel_status st = edgel_cpu_subpixel(params, &srcs[i], curves[i], threads);
            if (st != EDGEL_OK)
                return count > 1 ? edgel_fail_within(st, "frame %d", i) : st;
        }
        return EDGEL_OK;
    }
    subpixel_frames f = {params, srcs, curves};
    return edgel_run_frames(threads, count, 0, subpixel_frame, &f);
}

static edgel_status cpu_canny_volume(void *state, const edgel_volume_canny_params *params,
                                     const edgel_volume *src, const edgel_volume *edges,
                                     const edgel_volume_canny_stages *stages)
{
    cpu_state *s = state;
    return edgel_cpu_canny_volume(s->threads, &s->ws, params, src, edges, stages);
}

static int cpu_has_fft(void *state)
{
    (void)state;
    return 1; /* KISS FFT is compiled in */
}

static double cpu_filter_cost(void *state, edgel_filter_plan *plan, edgel_conv_method m,
                              double bound)
{
    return edgel_cpu_filter_cost(plan, m, ((cpu_state *)state)->threads, bound);
}

static edgel_status cpu_filter(void *state, edgel_filter_plan *plan, const edgel_image *src,
                               const edgel_image *dst)
{
    if (plan->method == EDGEL_CONV_FFT)
        edgel_cpu_fft_tiles(plan); /* (found already where auto chose the FFT) */
    cpu_state *s = state;
    return edgel_cpu_filter(s->threads, &s->ws, plan, src, dst);
}

static const edgel_backend_ops cpu_ops = {
    EDGEL_BACKEND_CPU, cpu_destroy,         cpu_reserve,     cpu_no_stream,
    cpu_synchronize,   cpu_canny,           NULL,            cpu_canny_skimage,
    cpu_canny_gradients, cpu_canny_marks,
    cpu_to_gray,       cpu_gaussian_blur,   cpu_subpixel,    cpu_subpixel_batch,
    cpu_has_fft,
    cpu_filter_cost,   cpu_filter,          cpu_canny_volume, NULL,
    cpu_subpixel_points};

const edgel_backend_ops *edgel_cpu_ops(void) { return &cpu_ops; }

edgel_status edgel_cpu_backend_create(int threads, void **state)
{
    cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a context");
    s->threads = threads;
    *state = s;
    return EDGEL_OK;
}
