/*
 * The convolution engine's per-pixel reads and writes, shared by its kernels
 * (cuda_filter.cu) and by the FFT method's cuFFT callbacks (lto/cuda_fft_callbacks.cu,
 * compiled apart to LTO-IR), so that both paths give the same values.
 */
#ifndef EDGEL_CUDA_FILTER_PIXELS_CUH
#define EDGEL_CUDA_FILTER_PIXELS_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "core/border.h"
#include "core/filter_math.h"

struct filter_geometry {
    int w, h, cn, kw, kh, ax, ay, border;
    float border_value;
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int in_u8, out_u8;
};

/* Channel c of pixel (x, y), which is inside the image. */
__device__ __forceinline__ float pixel(const filter_geometry &g, int x, int y, int c)
{
    const uint8_t *row = g.src + (size_t)(unsigned)y * g.src_pitch; /* (y >= 0: a 32-bit factor) */
    const unsigned i = (unsigned)x * (unsigned)g.cn + (unsigned)c;
    return g.in_u8 ? (float)row[i] : ((const float *)row)[i];
}

/* Channel c of source pixel (x, y), the border applied. Pixels inside the image, nearly all,
 * take one test; only the others run the border's general code (a branch for each side, for
 * every value of the FFT's load callback). */
__device__ __forceinline__ float source(const filter_geometry &g, int x, int y, int c)
{
    if ((unsigned)x < (unsigned)g.w && (unsigned)y < (unsigned)g.h)
        return pixel(g, x, y, c);
    const int sx = edgel_border_index(x, g.w, g.border), sy = edgel_border_index(y, g.h, g.border);
    return sx < 0 || sy < 0 ? g.border_value : pixel(g, sx, sy, c);
}

__device__ __forceinline__ void store(const filter_geometry &g, int x, int y, int c, float v)
{
    uint8_t *row = g.dst + (size_t)(unsigned)y * g.dst_pitch; /* (x, y >= 0, as in pixel()) */
    const unsigned i = (unsigned)x * (unsigned)g.cn + (unsigned)c;
    if (g.out_u8)
        row[i] = edgel_filter_store_u8(v);
    else
        ((float *)row)[i] = edgel_filter_store_f32(v);
}

/* n / d for every n under 2^31 by a multiply and a shift: m = ceil(2^(32 + s) / d) with
 * s = floor(log2 d) fits 32 bits where d is not a power of two, and its error
 * m * d - 2^(32 + s) < d keeps the quotient exact; a power of two shifts alone (m = 0). */
struct fast_divisor {
    unsigned m;
    int s;
};

/* The multiplier and shift for a divisor d >= 1 (on the host). */
inline fast_divisor fast_divisor_of(unsigned d)
{
    fast_divisor f;
    f.s = 31 - __builtin_clz(d);
    f.m = (d & (d - 1)) ? (unsigned)((((unsigned long long)1 << (32 + f.s)) + d - 1) / d) : 0;
    return f;
}

__device__ __forceinline__ unsigned quotient(unsigned n, fast_divisor d)
{
    return (d.m ? __umulhi(n, d.m) : n) >> d.s;
}

/*
 * The FFT method's overlap-save tiles: the border-extended image cut into tiles of nx x ny
 * (powers of two) that overlap by the kernel's size less one, all transformed in one batch.
 * Grid cell (q, r) of tile (tx, ty) holds the extended image at (tx * bx + q, ty * by + r);
 * the tile's first bx x by correlations never wrap around, and those are kept.
 */
struct alignas(16) fft_tiles {
    filter_geometry g;
    const float2 *kspec;   /* one tile's kernel spectrum, already divided by nx * ny */
    unsigned spec_cells;   /* ny * (nx / 2 + 1): complex values of a tile's spectrum */
    int nx_log2, ny_log2;  /* tile sides */
    int bx, by;            /* correlations a tile keeps along x and y */
    int tiles_x;           /* tiles a row */
    fast_divisor by_tiles_x;
    unsigned tile0;        /* the batch's first tile (a batch holds under 2^32 values) */
    int c;                 /* the channel */
};
static_assert(sizeof(fft_tiles) % 16 == 0, "fft_tiles is read in 16-byte pieces");

/* Element i of the batch's real grids: cell (q, r) of its tile, at (x, y) of the extended
 * image. */
__device__ __forceinline__ void fft_tile_cell(const fft_tiles &t, unsigned i, int &x, int &y,
                                              int &q, int &r)
{
    q = (int)(i & ((1u << t.nx_log2) - 1));
    const unsigned rows = i >> t.nx_log2;
    r = (int)(rows & ((1u << t.ny_log2) - 1));
    const unsigned tile = t.tile0 + (rows >> t.ny_log2);
    const unsigned ty = quotient(tile, t.by_tiles_x);
    x = (int)(tile - ty * (unsigned)t.tiles_x) * t.bx + q;
    y = (int)ty * t.by + r;
}

/* The value of element i of the batch's real grids: the extended image, zero past it. */
__device__ __forceinline__ float fft_tile_load(const fft_tiles &t, unsigned i)
{
    int x, y, q, r;
    fft_tile_cell(t, i, x, y, q, r);
    const filter_geometry &g = t.g;
    return x < g.w + g.kw - 1 && y < g.h + g.kh - 1 ? source(g, x - g.ax, y - g.ay, t.c) : 0.0f;
}

/* Value i of a tile's spectrum times the kernel spectrum's conjugate: the correlation
 * theorem. */
__device__ __forceinline__ float2 fft_tile_multiply(const fft_tiles &t, unsigned i, float2 a)
{
    const float2 b = __ldg(t.kspec + i); /* (read-only while cuFFT runs) */
    return make_float2(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}

/* Correlation v of element i into the output, where its tile keeps it. */
__device__ __forceinline__ void fft_tile_store(const fft_tiles &t, unsigned i, float v)
{
    int x, y, q, r;
    fft_tile_cell(t, i, x, y, q, r);
    if (q < t.bx && r < t.by && x < t.g.w && y < t.g.h)
        store(t.g, x, y, t.c, v);
}

#endif
