/*
 * The CPU backend's cost model for the convolution engine's `auto` (predicted nanoseconds of
 * each method, fitted to bench/bench_filter.py on a 16-core host; only ratios
 * matter) and the grid of its FFT method's overlap-save tiles.
 */
#include "core/filter.h"
#include "cpu/cpu.h"

#include <math.h>

/* Output blocks of n - k + 1 along an axis of extended side e. */
static int tile_blocks(int n, int k, int e)
{
    const int b = n - k + 1;
    return (e - k + 1 + b - 1) / b;
}

/* Blocks of n - k + 1 outputs, each an n-point transform plus a fixed cost per block. */
static double tile_work(int n, int k, int e)
{
    return (double)tile_blocks(n, k, e) * (n * log2((double)n) + 64.0);
}

/* The CPU FFT's predicted time (ns) for a grid whose sides have tile_work wx, wy and
 * tile_blocks bx, by: the work over the threads the tiles can keep busy (a frame of few
 * tiles leaves threads idle); one grid over the image shares its rows and columns with every
 * thread, in three rounds a channel (cpu_fft.c). */
static double grid_cost(const edgel_filter_plan *p, double wx, int bx, double wy, int by,
                        int threads)
{
    const double jobs = (double)bx * by * p->cn;
    if (bx * by == 1 && threads > 1)
        return 0.64 * wx * wy * p->cn / threads + 30000.0 * p->cn;
    return 0.64 * wx * wy * p->cn / (jobs < threads ? jobs : threads);
}

static double tiles_cost(const edgel_filter_plan *p, int nx, int ny, int threads)
{
    const int ew = p->w + p->kw - 1, eh = p->h + p->kh - 1;
    return grid_cost(p, tile_work(nx, p->kw, ew), tile_blocks(nx, p->kw, ew),
                     tile_work(ny, p->kh, eh), tile_blocks(ny, p->kh, eh), threads);
}

/* Even products of 2, 3 and 5 in [lo, hi], ascending, at most `max` of them. */
static int grid_sides(int lo, int hi, int *out, int max)
{
    int n = 0;
    for (long p2 = 2; p2 <= hi; p2 *= 2)
        for (long p3 = p2; p3 <= hi; p3 *= 3)
            for (long v = p3; v <= hi && n < max; v *= 5)
                if (v >= lo)
                    out[n++] = (int)v;
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen values */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            const int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The CPU FFT's grid (nx x ny, even products of 2, 3 and 5) with the least predicted time on
 * EDGEL_FFT_TILE_THREADS threads: little work per output, and enough tiles to share. Found
 * once per plan and kept in it. */
void edgel_cpu_fft_tiles(edgel_filter_plan *p)
{
    if (p->fft_nx)
        return;
    /* The last grid found on this thread: calls repeat sizes, and the search costs a call
     * of 1024x1024 about 20 us. */
    static _Thread_local struct {
        int w, h, cn, kw, kh, nx, ny;
    } last;
    if (last.nx && last.w == p->w && last.h == p->h && last.cn == p->cn && last.kw == p->kw &&
        last.kh == p->kh) {
        p->fft_nx = last.nx;
        p->fft_ny = last.ny;
        return;
    }
    int *nx = &p->fft_nx, *ny = &p->fft_ny;
    const int threads = EDGEL_FFT_TILE_THREADS; /* not the context's: see filter.h */
    const int ew = p->w + p->kw - 1, eh = p->h + p->kh - 1;
    /* even products of 2, 3 and 5: KISS FFT is fastest there */
    const int capx = edgel_smooth_size(ew, 5, 1), capy = edgel_smooth_size(eh, 5, 1);
    int xs[96], ys[96];
    const int cx = grid_sides(p->kw + 1 > 32 ? p->kw + 1 : 32, capx < 4 * p->kw + 1024 ? capx - 1
                             : 4 * p->kw + 1024, xs, 96);
    const int cy = grid_sides(p->kh + 1 > 32 ? p->kh + 1 : 32, capy < 4 * p->kh + 1024 ? capy - 1
                             : 4 * p->kh + 1024, ys, 96);
    *nx = capx;
    *ny = capy;
    double best = tiles_cost(p, capx, capy, threads);
    /* each side's terms once (the logarithms of 96 x 96 pairs cost auto 70 us a call) */
    double wx[96], wy[96];
    int bx[96], by[96];
    for (int i = 0; i < cx; i++)
        wx[i] = tile_work(xs[i], p->kw, ew), bx[i] = tile_blocks(xs[i], p->kw, ew);
    for (int j = 0; j < cy; j++)
        wy[j] = tile_work(ys[j], p->kh, eh), by[j] = tile_blocks(ys[j], p->kh, eh);
    for (int i = 0; i < cx; i++)
        for (int j = 0; j < cy; j++) {
            const double c = grid_cost(p, wx[i], bx[i], wy[j], by[j], threads);
            if (c < best * 0.98) { /* near ties: the larger grid, fewer fixed costs */
                best = c;
                *nx = xs[i];
                *ny = ys[j];
            }
        }
    last.w = p->w, last.h = p->h, last.cn = p->cn, last.kw = p->kw, last.kh = p->kh;
    last.nx = *nx, last.ny = *ny;
}

double edgel_cpu_filter_cost(edgel_filter_plan *p, edgel_conv_method m, int threads,
                             double bound)
{
    const double values = (double)p->w * p->h * p->cn;
    const double rows = threads < p->h ? threads : p->h;
    if (m == EDGEL_CONV_DIRECT) { /* rows blocked for dense kernels: fewer loads per tap */
        const int blocked = p->nonzero == p->kw * p->kh && p->kh >= EDGEL_CPU_BLOCK_MIN_KH;
        return values * ((blocked ? 0.05 : 0.08) * p->nonzero + 1.6) / rows + 20000;
    }
    if (m == EDGEL_CONV_SEPARABLE)
        return values * (0.08 * (p->kw + p->kh) + 3.0) / rows + 30000;
    const double fixed = 250000; /* where this alone exceeds the bound, no tiles are sized */
    if (fixed >= bound)
        return fixed;
    edgel_cpu_fft_tiles(p);
    return tiles_cost(p, p->fft_nx, p->fft_ny, threads) + fixed;
}
