/*
 * The itk preset on the CPU: ITK's Canny (see src/core/itk_math.h) in four row-parallel
 * passes over float images of the workspace:
 *   1. Gaussian along y (input -> a), summed in double, stored as float
 *   2. Gaussian along x (a -> b = G, the smoothed image)
 *   3. second directional derivative (G -> a = L)
 *   4. in stripes: the suppressed value from G and L, its hysteresis class in the map, and
 *      the stripe's own hysteresis; then growth across stripes and the edge image.
 * Per-pixel operations are ITK's in ITK's order; the passes only reorder independent pixels,
 * so the result does not depend on the thread count.
 */
#include "core/image.h"
#include "core/itk_gaussian.h"
#include "core/itk_math.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "cpu/cpu_hysteresis.h"
#include "core/host_pool.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct itk_job {
    const edgel_image *src;
    int w, h, radius;
    double kernel[2 * EDGEL_ITK_MAX_RADIUS + 1];
    float *a, *b; /* w * h floats each */
    float lower, upper;
    edgel_cpu_map map;
    const edgel_canny_stages *stages;
    int nstripes;      /* each phase runs on all, the next after it */
    int phase;         /* 0 Gaussian rows, 1 Gaussian columns, 2 derivatives, 3 suppression */
    atomic_int failed; /* out of memory */
} itk_job;

/* Pass 1 for rows [y0, y1); acc: w doubles. */
static void gaussian_rows(const itk_job *job, int y0, int y1, double *acc)
{
    const int w = job->w, h = job->h, r = job->radius, n = 2 * r + 1;
    for (int y = y0; y < y1; y++) {
        memset(acc, 0, sizeof(double) * (size_t)w);
        for (int k = 0; k < n; k++)
            edgel_cpu_itk_accumulate(acc, edgel_row_u8(job->src, edgel_clamp_index(y + k - r, h)),
                                     job->src->type, job->kernel[k], w);
        float *out = job->a + (size_t)y * w;
        for (int x = 0; x < w; x++)
            out[x] = (float)acc[x];
    }
}

/* Pass 2; pad: w + 2r floats. */
static void gaussian_columns(const itk_job *job, int y0, int y1, double *acc, float *pad)
{
    const int w = job->w, r = job->radius, n = 2 * r + 1;
    for (int y = y0; y < y1; y++) {
        const float *in = job->a + (size_t)y * w;
        for (int x = -r; x < w + r; x++)
            pad[x + r] = in[edgel_clamp_index(x, w)];
        memset(acc, 0, sizeof(double) * (size_t)w);
        for (int k = 0; k < n; k++) {
            const double c = job->kernel[k];
            const float *p = pad + k;
            for (int x = 0; x < w; x++)
                acc[x] += c * (double)p[x];
        }
        float *out = job->b + (size_t)y * w;
        for (int x = 0; x < w; x++)
            out[x] = (float)acc[x];
    }
}

static void second_derivative_rows(const itk_job *job, int y0, int y1)
{
    const int w = job->w, h = job->h;
    for (int y = y0; y < y1; y++) {
        float *out = job->a + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            float g[9];
            edgel_itk_neighbourhood(job->b, (size_t)w, w, h, x, y, g);
            out[x] = edgel_itk_second_derivative(g);
        }
    }
}

/* Pass 4 for one stripe: suppressed values, classes, stripe-local hysteresis. */
static int suppress_stripe(const itk_job *job, int y0, int y1)
{
    const int w = job->w, h = job->h;
    const edgel_image *sup = job->stages ? job->stages->suppressed : NULL;
    edgel_offset_stack stack = {0};
    for (int y = y0; y < y1; y++) {
        uint8_t *map = edgel_map_row(&job->map, y);
        float *sup_row = sup ? (float *)edgel_row_u8(sup, y) : NULL;
        for (int x = 0; x < w; x++) {
            float g[9], l[9];
            edgel_itk_neighbourhood(job->b, (size_t)w, w, h, x, y, g);
            edgel_itk_neighbourhood(job->a, (size_t)w, w, h, x, y, l);
            const float v = edgel_itk_suppressed(g, l);
            map[x] = edgel_itk_class(v, job->lower, job->upper);
            if (sup_row)
                sup_row[x] = v;
        }
        edgel_cpu_push_strong(&job->map, y, &stack);
    }
    const int ok = edgel_cpu_grow_stripe(&job->map, &stack, y0, y1);
    free(stack.items);
    return ok;
}

/* Stripe i of the current phase. */
static void itk_stripe(void *arg, int i)
{
    itk_job *job = arg;
    int y0, y1;
    edgel_stripe(i, job->nstripes, job->h, &y0, &y1);
    if (job->phase == 2) {
        second_derivative_rows(job, y0, y1);
    } else if (job->phase == 3) {
        if (!suppress_stripe(job, y0, y1))
            atomic_store(&job->failed, 1);
    } else {
        double *acc = malloc(sizeof(double) * (size_t)job->w);
        float *pad = malloc(sizeof(float) * (size_t)(job->w + 2 * job->radius));
        if (acc && pad && job->phase == 0)
            gaussian_rows(job, y0, y1, acc);
        else if (acc && pad)
            gaussian_columns(job, y0, y1, acc, pad);
        else
            atomic_store(&job->failed, 1);
        free(acc);
        free(pad);
    }
}

edgel_status edgel_cpu_canny_itk(int threads, edgel_cpu_workspace *ws,
                                 const edgel_canny_params *params, const edgel_image *src,
                                 const edgel_image *edges, const edgel_canny_stages *stages)
{
    itk_job job;
    job.src = src;
    job.w = src->width;
    job.h = src->height;
    job.radius = edgel_itk_gaussian_kernel(params->variance, params->maximum_error, job.kernel);
    job.lower = (float)params->low_threshold;
    job.upper = (float)params->high_threshold;
    job.stages = stages;
    const size_t bytes = sizeof(float) * (size_t)job.w * (size_t)job.h;
    job.a = (float *)edgel_cpu_buffer_reserve(&ws->itk_a, bytes);
    job.b = (float *)edgel_cpu_buffer_reserve(&ws->itk_b, bytes);
    if (!job.a || !job.b)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the itk preset's images");
    EDGEL_TRY(edgel_cpu_map_init(&ws->map, job.w, job.h, &job.map));

    /* A stripe a thread, as the opencv preset's. */
    job.nstripes = threads < edgel_host_cores() ? threads : edgel_host_cores();
    job.nstripes = job.nstripes < job.h ? job.nstripes : job.h;
    const int nstripes = job.nstripes;
    atomic_init(&job.failed, 0);
    for (int phase = 0; phase < 4 && !atomic_load(&job.failed); phase++) {
        job.phase = phase;
        edgel_host_parallel_for(threads, nstripes, itk_stripe, &job);
    }
    int failed = atomic_load(&job.failed);
    if (!failed)
        failed = !edgel_cpu_grow_across_stripes(threads, &job.map, nstripes);
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory in the itk preset");
    if (stages && stages->smoothed)
        for (int y = 0; y < job.h; y++)
            memcpy(edgel_row_u8(stages->smoothed, y), job.b + (size_t)y * job.w,
                   sizeof(float) * (size_t)job.w);
    edgel_cpu_write_edges(threads, &job.map, edges);
    return EDGEL_OK;
}
