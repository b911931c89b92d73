/*
 * The FFT method on the CPU, with KISS FFT (BSD-3-Clause, compiled in from third_party/), by
 * overlap-save over tiles: each thread takes output blocks of By x Bx, reads the block and
 * its kernel-sized margin from the border-extended image into an Ny x Nx grid, and correlates
 * it with the kernel as IFFT(FFT(grid) * conj(FFT(kernel))). With B = N - k + 1 the kept part
 * never wraps around, so the result is the linear correlation. Tiles keep every transform in
 * the cache and the threads busy; their sizes come with the plan (cpu_filter_cost.c). Where
 * one grid covers the image, the threads share its rows and then its columns instead (the
 * same transforms, so the same floats).
 */
#include "core/border.h"
#include "core/filter.h"
#include "core/filter_math.h"
#include "core/image.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "core/host_pool.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <kiss_fft.h>
#include <kiss_fftr.h>

/* Transforms and buffers of one thread (KISS FFT's real configurations hold scratch memory). */
typedef struct fft_tile {
    int nx, ny, half; /* grid sides; half = nx / 2 + 1 complex values per row */
    kiss_fftr_cfg row_fwd, row_inv;
    kiss_fft_cfg col_fwd, col_inv;
    kiss_fft_cpx *spec, *col_in, *col_out; /* spec: ny x half */
    kiss_fft_scalar *line;
} fft_tile;

/* A tile's transforms and buffers; its spectrum only `with_spec` (else NULL). */
static int tile_alloc(int nx, int ny, int with_spec, fft_tile *t)
{
    t->nx = nx;
    t->ny = ny;
    t->half = nx / 2 + 1;
    t->row_fwd = kiss_fftr_alloc(nx, 0, NULL, NULL);
    t->row_inv = kiss_fftr_alloc(nx, 1, NULL, NULL);
    t->col_fwd = kiss_fft_alloc(ny, 0, NULL, NULL);
    t->col_inv = kiss_fft_alloc(ny, 1, NULL, NULL);
    t->spec = with_spec ? malloc(sizeof(kiss_fft_cpx) * (size_t)ny * t->half) : NULL;
    t->col_in = malloc(sizeof(kiss_fft_cpx) * (size_t)ny);
    t->col_out = malloc(sizeof(kiss_fft_cpx) * (size_t)ny);
    t->line = malloc(sizeof(kiss_fft_scalar) * (size_t)nx);
    return t->row_fwd && t->row_inv && t->col_fwd && t->col_inv && (t->spec || !with_spec) &&
           t->col_in && t->col_out && t->line;
}

static void tile_free(fft_tile *t)
{
    kiss_fftr_free(t->row_fwd);
    kiss_fftr_free(t->row_inv);
    kiss_fft_free(t->col_fwd);
    kiss_fft_free(t->col_inv);
    free(t->spec);
    free(t->col_in);
    free(t->col_out);
    free(t->line);
}

/* Forward transforms of columns [u0, u1) of `spec` (ny x half); with `kernel`, each column is
 * then multiplied by the kernel spectrum's conjugate and transformed back. */
static void columns(fft_tile *t, kiss_fft_cpx *spec, const kiss_fft_cpx *kernel, int u0, int u1)
{
    for (int u = u0; u < u1; u++) {
        for (int r = 0; r < t->ny; r++)
            t->col_in[r] = spec[(size_t)r * t->half + u];
        kiss_fft(t->col_fwd, t->col_in, t->col_out);
        if (kernel) {
            for (int r = 0; r < t->ny; r++) {
                const kiss_fft_cpx a = t->col_out[r], b = kernel[(size_t)r * t->half + u];
                t->col_out[r].r = a.r * b.r + a.i * b.i;
                t->col_out[r].i = a.i * b.r - a.r * b.i;
            }
            kiss_fft(t->col_inv, t->col_out, t->col_in);
            for (int r = 0; r < t->ny; r++)
                spec[(size_t)r * t->half + u] = t->col_in[r];
        } else {
            for (int r = 0; r < t->ny; r++)
                spec[(size_t)r * t->half + u] = t->col_out[r];
        }
    }
}

/* Column u of the extended image in source row `row` (NULL: a constant-border row),
 * channel c. */
static inline float extended_value(const edgel_filter_plan *p, const unsigned char *row, int u,
                                   int c)
{
    const int sx = edgel_border_index(u - p->ax, p->w, p->border);
    if (!row || sx < 0)
        return p->border_value;
    return p->in_type == EDGEL_U8 ? (float)row[sx * p->cn + c]
                                  : ((const float *)row)[sx * p->cn + c];
}

/* Row r of the grid whose top left is (x0, y0) of the extended image, channel c, into
 * `spec_row` (half values): the rows past the extended image are zeros. */
static void forward_row(const edgel_filter_plan *p, const edgel_image *src, fft_tile *t,
                        kiss_fft_cpx *spec_row, int x0, int y0, int r, int c)
{
    const int bx = t->nx - p->kw + 1, by = t->ny - p->kh + 1;
    memset(t->line, 0, sizeof(kiss_fft_scalar) * (size_t)t->nx);
    if (r < by + p->kh - 1) {
        const int sy = edgel_border_index(y0 + r - p->ay, p->h, p->border);
        const unsigned char *row = sy >= 0 ? edgel_row_u8(src, sy) : NULL;
        for (int q = 0; q < bx + p->kw - 1; q++)
            t->line[q] = extended_value(p, row, x0 + q, c);
    }
    kiss_fftr(t->row_fwd, t->line, spec_row);
}

/* The inverse of spectrum row r of that grid, its kept outputs stored (row y0 + r < h). */
static void inverse_row(const edgel_filter_plan *p, const edgel_image *dst, fft_tile *t,
                        const kiss_fft_cpx *spec_row, int x0, int y0, int r, int c)
{
    const int bx = t->nx - p->kw + 1, cn = p->cn;
    const float scale = 1.0f / ((float)t->nx * (float)t->ny);
    kiss_fftri(t->row_inv, spec_row, t->line);
    unsigned char *out = edgel_row_u8(dst, y0 + r);
    for (int q = 0; q < bx && x0 + q < p->w; q++) {
        const float v = t->line[q] * scale;
        const int i = (x0 + q) * cn + c;
        if (p->out_type == EDGEL_F32)
            ((float *)out)[i] = edgel_filter_store_f32(v);
        else
            out[i] = edgel_filter_store_u8(v);
    }
}

/* One output block: tile (tx, ty) of channel c. */
static void filter_tile(const edgel_filter_plan *p, const edgel_image *src,
                        const edgel_image *dst, const kiss_fft_cpx *kernel, fft_tile *t,
                        int tx, int ty, int c)
{
    const int bx = t->nx - p->kw + 1, by = t->ny - p->kh + 1;
    const int x0 = tx * bx, y0 = ty * by;
    for (int r = 0; r < t->ny; r++)
        forward_row(p, src, t, t->spec + (size_t)r * t->half, x0, y0, r, c);
    columns(t, t->spec, kernel, 0, t->half);
    for (int r = 0; r < by && y0 + r < p->h; r++)
        inverse_row(p, dst, t, t->spec + (size_t)r * t->half, x0, y0, r, c);
}

/* One call's tiles, handed out one at a time to the threads as they finish (tiles at the
 * image's edge are cheaper). */
typedef struct fft_job {
    const edgel_filter_plan *p;
    const edgel_image *src, *dst;
    const kiss_fft_cpx *kernel_spectrum;
    int nx, ny, tiles_x, tiles_y, jobs;
    atomic_int next, failed;
} fft_job;

static void fft_tiles(void *arg, int thread, int nthreads)
{
    (void)thread, (void)nthreads;
    fft_job *job = arg;
    fft_tile t;
    if (!tile_alloc(job->nx, job->ny, 1, &t)) {
        atomic_store(&job->failed, 1);
        return;
    }
    for (int j; (j = atomic_fetch_add(&job->next, 1)) < job->jobs;)
        filter_tile(job->p, job->src, job->dst, job->kernel_spectrum, &t, j % job->tiles_x,
                    j / job->tiles_x % job->tiles_y, j / (job->tiles_x * job->tiles_y));
    tile_free(&t);
}

/* One grid over the whole image: each channel in three rounds that the threads share (the
 * forward rows; the columns, forward, times the kernel and back; the inverse rows). */
typedef struct grid_job {
    const edgel_filter_plan *p;
    const edgel_image *src, *dst;
    const kiss_fft_cpx *kernel;
    kiss_fft_cpx *spec; /* ny x half */
    fft_tile *workers;  /* one a thread, made in its first round (no spectrum of their own) */
    int c, round;
    atomic_int failed;
} grid_job;

static void grid_round(void *arg, int thread, int nthreads)
{
    grid_job *g = arg;
    const edgel_filter_plan *p = g->p;
    fft_tile *t = &g->workers[thread];
    if (!t->nx && !tile_alloc(p->fft_nx, p->fft_ny, 0, t))
        atomic_store(&g->failed, 1);
    if (atomic_load(&g->failed))
        return;
    const int half = t->half, ny = t->ny, kept = ny - p->kh + 1;
    if (g->round == 0)
        for (int r = thread; r < ny; r += nthreads)
            forward_row(p, g->src, t, g->spec + (size_t)r * half, 0, 0, r, g->c);
    else if (g->round == 1)
        columns(t, g->spec, g->kernel, half * thread / nthreads, half * (thread + 1) / nthreads);
    else
        for (int r = thread; r < kept && r < p->h; r += nthreads)
            inverse_row(p, g->dst, t, g->spec + (size_t)r * half, 0, 0, r, g->c);
}

static int filter_grid(int threads, const edgel_filter_plan *p, const edgel_image *src,
                       const edgel_image *dst, const kiss_fft_cpx *kernel)
{
    grid_job g = {p, src, dst, kernel, NULL, NULL, 0, 0, 0};
    g.spec = malloc(sizeof(kiss_fft_cpx) * (size_t)p->fft_ny * (p->fft_nx / 2 + 1));
    g.workers = calloc((size_t)threads, sizeof(fft_tile)); /* (tile_alloc sets nx first) */
    atomic_store(&g.failed, !g.spec || !g.workers);
    for (g.c = 0; g.c < p->cn && !atomic_load(&g.failed); g.c++)
        for (g.round = 0; g.round < 3; g.round++)
            edgel_host_parallel(threads, grid_round, &g);
    for (int i = 0; g.workers && i < threads; i++)
        tile_free(&g.workers[i]);
    free(g.workers);
    free(g.spec);
    return !atomic_load(&g.failed);
}

/* The kernel's spectrum on the plan's grid (taps at the top left of a zero grid), kept in
 * `cache` with the taps and grid it is of: the next call with the same kernel and grid takes
 * it as it is (on many threads it was a serial step of a tile's cost). NULL: out of memory. */
static const kiss_fft_cpx *kernel_spectrum(edgel_cpu_buffer *cache, const edgel_filter_plan *p)
{
    const int key[4] = {p->kw, p->kh, p->fft_nx, p->fft_ny};
    const size_t taps = sizeof(float) * (size_t)p->kw * p->kh;
    const size_t head = (sizeof key + taps + 15) / 16 * 16; /* (the spectrum aligned) */
    const size_t spec = sizeof(kiss_fft_cpx) * (size_t)p->fft_ny * (p->fft_nx / 2 + 1);
    uint8_t *b = cache->data;
    if (b && cache->bytes >= head + spec && !memcmp(b, key, sizeof key) &&
        !memcmp(b + sizeof key, p->taps, taps))
        return (const kiss_fft_cpx *)(b + head);
    fft_tile k;
    b = edgel_cpu_buffer_reserve(cache, head + spec);
    if (b)
        memset(b, 0, sizeof key); /* (no kernel has 0 x 0 taps: kept as nothing until done) */
    if (!tile_alloc(p->fft_nx, p->fft_ny, 1, &k) || !b) {
        tile_free(&k);
        return NULL;
    }
    for (int r = 0; r < k.ny; r++) {
        memset(k.line, 0, sizeof(kiss_fft_scalar) * (size_t)k.nx);
        if (r < p->kh)
            memcpy(k.line, p->taps + (size_t)r * p->kw, sizeof(float) * (size_t)p->kw);
        kiss_fftr(k.row_fwd, k.line, k.spec + (size_t)r * k.half);
    }
    columns(&k, k.spec, NULL, 0, k.half);
    memcpy(b, key, sizeof key);
    memcpy(b + sizeof key, p->taps, taps);
    memcpy(b + head, k.spec, spec);
    tile_free(&k);
    return (const kiss_fft_cpx *)(b + head);
}

edgel_status edgel_cpu_filter_fft(int threads, edgel_cpu_workspace *ws, const edgel_filter_plan *p,
                                  const edgel_image *src, const edgel_image *dst)
{
    const int nx = p->fft_nx, ny = p->fft_ny;
    const int tiles_x = (p->w + nx - p->kw) / (nx - p->kw + 1);
    const int tiles_y = (p->h + ny - p->kh) / (ny - p->kh + 1);
    const int jobs = tiles_x * tiles_y * p->cn;
    const kiss_fft_cpx *spectrum = kernel_spectrum(&ws->fft_kernel, p);
    fft_job job = {p, src, dst, spectrum, nx, ny, tiles_x, tiles_y, jobs, 0, !spectrum};
    if (spectrum && tiles_x * tiles_y == 1 && threads > 1)
        atomic_store(&job.failed, !filter_grid(threads, p, src, dst, spectrum));
    else if (spectrum)
        edgel_host_parallel(threads < jobs ? threads : jobs, fft_tiles, &job);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for %dx%d FFT tiles", nx, ny);
    return EDGEL_OK;
}

