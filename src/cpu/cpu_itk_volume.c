/*
 * ITK's Canny on a volume (itk::CannyEdgeDetectionImageFilter<Image<float, 3>, ...>) on the
 * CPU, in passes over float volumes, each split over threads by rows (a row's values depend
 * on the previous pass alone, so the result does not depend on the thread count):
 *   1. ITK's DiscreteGaussianImageFilter: its operators applied last axis first, as ITK chains
 *      them (z: input -> a; y: a -> b; x: b -> a = G), each summed in double, stored as float,
 *      borders replicated;
 *   2. the second directional derivative of G (-> b = L), core/itk_math.h's N-D form;
 *   3. the suppressed value U x ZeroCrossing(L) and its hysteresis class;
 *   4. the hysteresis over the 26-neighbourhood: ITK follows edges from every voxel above the
 *      upper threshold through voxels above the lower one, and the order does not change the
 *      set, so it is every candidate of a component of candidates that holds a strong voxel
 *      (labelled by slabs on the threads); then the edge volume.
 */
#include "core/host_pool.h"
#include "core/image.h"
#include "core/itk_gaussian.h"
#include "core/itk_math.h"
#include "core/status.h"
#include "core/volume.h"
#include "cpu/cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS_A_TASK = 16 };

typedef struct volume_job {
    const edgel_volume *src, *edges;
    const edgel_volume_canny_stages *stages;
    int w, h, d, radius[3];
    double kernel[3][2 * EDGEL_ITK_MAX_RADIUS + 1];
    float *a, *b; /* w * h * d floats each, x fastest */
    uint8_t *map; /* the classes (EDGEL_MAP_*), then the edges */
    float lower, upper;
    int pass, bands; /* row bands of ROWS_A_TASK rows a slice */
    atomic_int failed;
} volume_job;

static size_t at(const volume_job *j, int x, int y, int z)
{
    return ((size_t)z * (size_t)j->h + (size_t)y) * (size_t)j->w + (size_t)x;
}

static void accumulate_row(double *acc, const float *row, double c, int w)
{
    for (int x = 0; x < w; x++)
        acc[x] += c * (double)row[x];
}

static void store_row(float *out, const double *acc, int w)
{
    for (int x = 0; x < w; x++)
        out[x] = (float)acc[x];
}

/* The nine rows around row y of slice z (index 3 * (dz + 1) + (dy + 1)), borders replicated. */
static void rows_around(const volume_job *j, const float *v, int y, int z, const float *rows[9])
{
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            rows[3 * k + i] = v + at(j, 0, edgel_clamp_index(y + i - 1, j->h),
                                     edgel_clamp_index(z + k - 1, j->d));
}

/* Of the 3x3x3 neighbourhood n (x fastest, n[13] the centre) at x (neighbours xl, xr): the
 * centre and the six face neighbours, which the gradient and the zero crossings read... */
static void faces(const float *rows[9], int xl, int x, int xr, float n[27])
{
    n[13] = rows[4][x], n[12] = rows[4][xl], n[14] = rows[4][xr];
    n[10] = rows[3][x], n[16] = rows[5][x], n[4] = rows[1][x], n[22] = rows[7][x];
}

/* ...and the twelve edge neighbours, which the mixed second derivatives read too. */
static void faces_and_edges(const float *rows[9], int xl, int x, int xr, float n[27])
{
    faces(rows, xl, x, xr, n);
    n[9] = rows[3][xl], n[11] = rows[3][xr], n[15] = rows[5][xl], n[17] = rows[5][xr];
    n[3] = rows[1][xl], n[5] = rows[1][xr], n[21] = rows[7][xl], n[23] = rows[7][xr];
    n[1] = rows[0][x], n[7] = rows[2][x], n[19] = rows[6][x], n[25] = rows[8][x];
}

static const int STRIDE[3] = {1, 3, 9};

/* Row y of slice z in the current pass; acc and pad: scratch of w + 2 * radius values. */
static void volume_row(volume_job *j, int z, int y, double *acc, float *pad)
{
    const int w = j->w;
    switch (j->pass) {
    case 0: { /* Gaussian along z */
        const int r = j->radius[2];
        memset(acc, 0, sizeof(double) * (size_t)w);
        for (int k = 0; k <= 2 * r; k++)
            edgel_cpu_itk_accumulate(acc,
                                     edgel_volume_row(j->src, edgel_clamp_index(z + k - r, j->d), y),
                                     j->src->type, j->kernel[2][k], w);
        store_row(j->a + at(j, 0, y, z), acc, w);
        break;
    }
    case 1: { /* along y */
        const int r = j->radius[1];
        memset(acc, 0, sizeof(double) * (size_t)w);
        for (int k = 0; k <= 2 * r; k++)
            accumulate_row(acc, j->a + at(j, 0, edgel_clamp_index(y + k - r, j->h), z),
                           j->kernel[1][k], w);
        store_row(j->b + at(j, 0, y, z), acc, w);
        break;
    }
    case 2: { /* along x */
        const int r = j->radius[0];
        const float *in = j->b + at(j, 0, y, z);
        for (int x = -r; x < w + r; x++)
            pad[x + r] = in[edgel_clamp_index(x, w)];
        memset(acc, 0, sizeof(double) * (size_t)w);
        for (int k = 0; k <= 2 * r; k++)
            accumulate_row(acc, pad + k, j->kernel[0][k], w);
        store_row(j->a + at(j, 0, y, z), acc, w);
        break;
    }
    case 3: { /* second derivative: G (a) -> L (b) */
        float *out = j->b + at(j, 0, y, z);
        const float *rows[9];
        rows_around(j, j->a, y, z, rows);
        for (int x = 0; x < w; x++) {
            float g[27];
            faces_and_edges(rows, x > 0 ? x - 1 : 0, x, x + 1 < w ? x + 1 : w - 1, g);
            out[x] = edgel_itk_second_derivative_nd(g, 13, STRIDE, 3);
        }
        break;
    }
    default: { /* suppression and classes */
        uint8_t *map = j->map + at(j, 0, y, z);
        const edgel_volume *sup = j->stages ? j->stages->suppressed : NULL;
        float *sup_row = sup ? (float *)edgel_volume_row(sup, z, y) : NULL;
        const float *g_rows[9], *l_rows[9];
        rows_around(j, j->a, y, z, g_rows);
        rows_around(j, j->b, y, z, l_rows);
        for (int x = 0; x < w; x++) {
            float g[27], l[27];
            const int xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : w - 1;
            faces(g_rows, xl, x, xr, g);
            faces(l_rows, xl, x, xr, l);
            const float v = edgel_itk_suppressed_nd(g, l, 13, STRIDE, 3);
            map[x] = edgel_itk_class(v, j->lower, j->upper);
            if (sup_row)
                sup_row[x] = v;
        }
        break;
    }
    }
}

static void volume_task(void *arg, int task)
{
    volume_job *j = arg;
    const int z = task / j->bands, y0 = task % j->bands * ROWS_A_TASK;
    const int y1 = y0 + ROWS_A_TASK < j->h ? y0 + ROWS_A_TASK : j->h;
    const int r = j->radius[0];
    double *acc = malloc(sizeof(double) * (size_t)j->w);
    float *pad = malloc(sizeof(float) * ((size_t)j->w + 2 * (size_t)r));
    if (!acc || !pad) {
        atomic_store(&j->failed, 1);
    } else {
        for (int y = y0; y < y1; y++)
            volume_row(j, z, y, acc, pad);
    }
    free(acc);
    free(pad);
}

typedef struct settle_job {
    uint8_t *map;
    const edgel_volume_labels *labels;
    size_t plane;
} settle_job;

/* Slice z: a WEAK voxel whose component holds a STRONG one becomes STRONG. */
static void settle_slice(void *arg, int z)
{
    const settle_job *s = arg;
    uint8_t *map = s->map + (size_t)z * s->plane;
    const int32_t *label = s->labels->label + (size_t)z * s->plane;
    for (size_t i = 0; i < s->plane; i++)
        if (map[i] == EDGEL_MAP_WEAK && s->labels->strong[label[i]])
            map[i] = EDGEL_MAP_STRONG;
}

/* Every voxel of class WEAK 26-connected to a STRONG one becomes STRONG: the components of
 * the candidates (labelled by slabs on the threads, core/volume_labels.c), each one edges
 * where it holds a STRONG voxel; the same set as ITK's edge following. Returns 0 when out of
 * memory. */
static int hysteresis(const volume_job *j, int threads, edgel_volume_labels *labels)
{
    const size_t plane = (size_t)j->w * j->h, voxels = plane * j->d;
    if (!memchr(j->map, EDGEL_MAP_STRONG, voxels))
        return 1; /* (no edges: no labels needed) */
    if (!edgel_volume_labels_run(labels, j->map, j->w, j->h, j->d, threads))
        return 0;
    settle_job s = {j->map, labels, plane};
    edgel_host_parallel_for(threads, j->d, settle_slice, &s);
    return 1;
}

static void write_edges(const volume_job *j)
{
    const edgel_volume *e = j->edges;
    for (int z = 0; z < j->d; z++)
        for (int y = 0; y < j->h; y++) {
            const uint8_t *m = j->map + at(j, 0, y, z);
            uint8_t *row = edgel_volume_row(e, z, y);
            if (e->type == EDGEL_F32)
                for (int x = 0; x < j->w; x++)
                    ((float *)row)[x] = m[x] == EDGEL_MAP_STRONG ? 1.0f : 0.0f;
            else
                for (int x = 0; x < j->w; x++)
                    row[x] = m[x] == EDGEL_MAP_STRONG ? 255 : 0;
        }
    if (j->stages && j->stages->smoothed)
        for (int z = 0; z < j->d; z++)
            for (int y = 0; y < j->h; y++)
                memcpy(edgel_volume_row(j->stages->smoothed, z, y), j->a + at(j, 0, y, z),
                       sizeof(float) * (size_t)j->w);
}

edgel_status edgel_cpu_canny_volume(int threads, edgel_cpu_workspace *ws,
                                    const edgel_volume_canny_params *p, const edgel_volume *src,
                                    const edgel_volume *edges,
                                    const edgel_volume_canny_stages *stages)
{
    volume_job *j = calloc(1, sizeof *j);
    if (!j)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the volume");
    j->src = src, j->edges = edges, j->stages = stages;
    j->w = src->width, j->h = src->height, j->d = src->depth;
    for (int i = 0; i < 3; i++) /* ITK's variance in voxels: divided by the spacing squared */
        j->radius[i] = edgel_itk_gaussian_kernel(
            p->variance[i] / (p->spacing[i] * p->spacing[i]), p->maximum_error[i], j->kernel[i]);
    j->lower = (float)p->lower_threshold;
    j->upper = (float)p->upper_threshold;
    const size_t voxels = (size_t)j->w * j->h * j->d;
    j->a = (float *)edgel_cpu_buffer_reserve(&ws->itk_a, sizeof(float) * voxels);
    j->b = (float *)edgel_cpu_buffer_reserve(&ws->itk_b, sizeof(float) * voxels);
    j->map = malloc(voxels);
    edgel_status st = EDGEL_OK;
    if (!j->a || !j->b || !j->map) {
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the volume's working "
                        "copies (9 bytes a voxel: %zu voxels)", voxels);
    } else {
        j->bands = (j->h + ROWS_A_TASK - 1) / ROWS_A_TASK;
        atomic_init(&j->failed, 0);
        for (j->pass = 0; j->pass < 5 && !atomic_load(&j->failed); j->pass++)
            edgel_host_parallel_for(threads, j->d * j->bands, volume_task, j);
        if (atomic_load(&j->failed) || !hysteresis(j, threads, &ws->volume_labels))
            st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory in the volume's passes");
        else
            write_edges(j);
    }
    free(j->map);
    free(j);
    return st;
}
