/*
 * The skimage preset on the CPU: skimage.feature.canny (src/core/skimage_math.h), each value
 * rounded to float where skimage stores float32. A sweep a stripe down its rows, rows kept
 * in small rings (in cache): the input as skimage's floats (img_as_float, masked pixels 0),
 * the Gaussian along axis 0 and axis 1 with the bleed-over division (smoothed), ndi.sobel
 * along both axes and the magnitude, then non-maximum suppression, the hysteresis classes
 * and the stripe's own hysteresis; a stripe computes the rows of its neighbours it reads.
 * With use_quantiles, a first sweep keeps the whole magnitude for np.percentile. Then growth
 * across stripes and the edge image. Row loops run four doubles a lane group (GCC's vector
 * extension), each pixel's operations skimage's in its order, so the result depends neither
 * on the thread count nor on the instruction set.
 */
#include "core/border.h"
#include "core/host_pool.h"
#include "core/image.h"
#include "core/params.h"
#include "core/skimage_math.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "cpu/cpu_hysteresis.h"

#include <float.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct sk_job {
    const edgel_image *src, *mask;
    int w, h, r, f32;
    const double *weights; /* r + 1, centre first */
    int mode;
    double cval;
    int bleed;       /* divide by the Gaussian of the mask (skimage's bleed-over) */
    double *x;       /* the input as floats, w * h; NULL: each stripe converts into its ring */
    double *rows;    /* each stripe's rows (rows_size doubles a stripe) */
    double *m;       /* the whole magnitude, for quantiles (collect) */
    double *row_vm;  /* no mask: the mask's axis-0 pass, one value a row */
    float low;
    double high;     /* as compared: float for float32 arrays, unless a quantile */
    int collect;     /* this sweep only fills m */
    edgel_cpu_map map;
    const edgel_canny_stages *stages;
    int nstripes;
    int phase;       /* 0: convert, 1: sweep */
    atomic_int failed;
} sk_job;

/* A stripe's rows: 3-row rings of the smoothed image and of isobel, jsobel and the
 * magnitude (row y in slot y % 3), row scratch, and the rows of the axis-0 taps. */
typedef struct sk_rows {
    double *s[3], *gi[3], *gj[3], *gm[3];
    double *v, *vm, *pad, *g, *mb, *ma, *mrow, *cvals;
    const double **before, **after; /* r + 1 each */
    double *ring;  /* without job->x: the converted input at rows y - r .. y + r */
    int *ring_pos; /* the row (before the border) each of its 2r + 1 slots holds */
} sk_rows;

static double *at(const sk_job *job, double *img, int y)
{
    return img + (size_t)y * (size_t)job->w;
}

static int masked_out(const sk_job *job, int x, int y)
{
    return job->mask && !edgel_row_u8(job->mask, y)[x];
}

/* img_as_float of a row of n pixels of one type (the type a constant in each copy). */
#define EDGEL_SK_CONVERT(type) \
    for (int x = 0; x < n; x++) \
        out[x] = edgel_sk_pixel(row, x, type)

EDGEL_VECTOR_CLONES static void convert_row(const void *row, edgel_pixel_type type, double *out,
                                            int n)
{
    switch (type) {
    case EDGEL_BOOL: EDGEL_SK_CONVERT(EDGEL_BOOL); break;
    case EDGEL_U8: EDGEL_SK_CONVERT(EDGEL_U8); break;
    case EDGEL_U16: EDGEL_SK_CONVERT(EDGEL_U16); break;
    case EDGEL_S16: EDGEL_SK_CONVERT(EDGEL_S16); break;
    case EDGEL_S32: EDGEL_SK_CONVERT(EDGEL_S32); break;
    case EDGEL_F32: EDGEL_SK_CONVERT(EDGEL_F32); break;
    default: EDGEL_SK_CONVERT(EDGEL_F64); break;
    }
}

/* img_as_float of the masked image's row y into out. */
static void convert_masked_row(const sk_job *job, int y, double *out)
{
    convert_row(edgel_row_u8(job->src, y), job->src->type, out, job->w);
    for (int x = 0; job->mask && x < job->w; x++)
        out[x] = masked_out(job, x, y) ? 0.0 : out[x];
}

/* Loops over n pixels of a per-pixel function with `f32` a constant in each copy. */
#define EDGEL_SK_ROWS(f32, n, ...)                  \
    do {                                            \
        if (f32) {                                  \
            for (int x = 0; x < (n); x++) {         \
                const int f32_ = 1;                 \
                __VA_ARGS__;                        \
            }                                       \
        } else {                                    \
            for (int x = 0; x < (n); x++) {         \
                const int f32_ = 0;                 \
                __VA_ARGS__;                        \
            }                                       \
        }                                           \
    } while (0)

/* Row helpers over n doubles, each pixel's operations in scipy's order; vectorised (AVX2
 * where present: no FMA, so the same doubles). */
EDGEL_VECTOR_CLONES static void taps_first(double *o, const double *c, double w0, int n)
{
    for (int x = 0; x < n; x++)
        o[x] = c[x] * w0;
}

EDGEL_VECTOR_CLONES static void taps_add(double *o, const double *b, const double *a, double wk,
                                         int n)
{
    for (int x = 0; x < n; x++)
        o[x] = edgel_sk_tap(o[x], b[x], a[x], wk);
}

/* Lanes of four and eight doubles (GCC's vector extension: registers of the clone's width,
 * SSE2 pairs in the baseline one), for sums kept in registers across a kernel's taps and
 * for the suppression's selections. */
typedef double sk_d4 __attribute__((vector_size(32), aligned(8)));
typedef int64_t sk_m4 __attribute__((vector_size(32))); /* lane masks: -1 or 0 */
typedef float sk_f4 __attribute__((vector_size(16)));
typedef uint8_t sk_b4 __attribute__((vector_size(4)));
_Static_assert(EDGEL_MAP_WEAK == 0 && EDGEL_MAP_NONE == 1 && EDGEL_MAP_STRONG == 2,
               "suppress_span computes the classes from these values");
typedef double sk_d8 __attribute__((vector_size(64), aligned(8)));
#define SK_LOAD4(p) (*(const sk_d4 *)(p))
#define SK_LOAD8(p) (*(const sk_d8 *)(p))
#define SK_SPLAT8(v) ((sk_d8){(v), (v), (v), (v), (v), (v), (v), (v)})
#define SK_SPLAT4(v) ((sk_d4){(v), (v), (v), (v)})
/* m ? a : b by lane, and edgel_sk_store (rounded through float when f32). */
#define SK_SELECT4(m, a, b) ((sk_d4)(((sk_m4)(a) & (m)) | ((sk_m4)(b) & ~(m))))
#define SK_STORE4(v, f32) \
    ((f32) ? __builtin_convertvector(__builtin_convertvector((v), sk_f4), sk_d4) : (v))

/* correlate1d of the symmetric kernel w (r + 1 taps, centre first) at n points, into out:
 * c[x] w[0], then the taps of before(k)[x] and after(k)[x] for k = r down to 1, as scipy
 * adds them; 32 columns at a time, in four vectors of sums. before(k) and after(k) are rows
 * (axis 0) or, where those arrays are NULL, c - k and c + k (axis 1). */
EDGEL_WIDE_CLONES static void correlate(double *out, const double *c,
                                        const double *const *before,
                                        const double *const *after, const double *w, int r,
                                        int n)
{
    int x = 0;
    for (; x + 32 <= n; x += 32) {
        sk_d8 s[4];
        for (int l = 0; l < 4; l++)
            s[l] = SK_LOAD8(c + x + 8 * l) * SK_SPLAT8(w[0]);
        for (int k = r; k >= 1; k--) {
            const double *b = (before ? before[k] : c - k) + x;
            const double *a = (after ? after[k] : c + k) + x;
            for (int l = 0; l < 4; l++) /* edgel_sk_tap */
                s[l] = s[l] + (SK_LOAD8(b + 8 * l) + SK_LOAD8(a + 8 * l)) * SK_SPLAT8(w[k]);
        }
        for (int l = 0; l < 4; l++)
            *(sk_d8 *)(out + x + 8 * l) = s[l];
    }
    for (; x + 8 <= n; x += 8) {
        sk_d8 s = SK_LOAD8(c + x) * SK_SPLAT8(w[0]);
        for (int k = r; k >= 1; k--)
            s = s + (SK_LOAD8((before ? before[k] : c - k) + x) +
                     SK_LOAD8((after ? after[k] : c + k) + x)) * SK_SPLAT8(w[k]);
        *(sk_d8 *)(out + x) = s;
    }
    for (; x < n; x++) {
        double sum = c[x] * w[0];
        for (int k = r; k >= 1; k--)
            sum = edgel_sk_tap(sum, before ? before[k][x] : c[x - k],
                               after ? after[k][x] : c[x + k], w[k]);
        out[x] = sum;
    }
}

EDGEL_VECTOR_CLONES static void round_to_float(double *o, int n)
{
    EDGEL_SK_ROWS(1, n, o[x] = edgel_sk_store(o[x], f32_));
}

static void store_row(double *o, int n, int f32)
{
    if (f32)
        round_to_float(o, n);
}

EDGEL_WIDE_CLONES static void bleed_divide(double *s, const double *g, double eps, int f32,
                                           int n)
{
    EDGEL_SK_ROWS(f32, n, s[x] = edgel_sk_bleed(s[x], g[x], eps, f32_));
}

/* isobel, jsobel and the magnitude at columns [0, n) of the rows up, row, down, whose
 * columns -1 and n exist (vectorised: the border columns go through gradient_px). */
EDGEL_WIDE_CLONES static void gradient_span(double *restrict gi, double *restrict gj,
                                            double *restrict gm, const double *up,
                                            const double *row, const double *down, int f32,
                                            int n)
{
    EDGEL_SK_ROWS(f32, n, {
        double i, j;
        edgel_sk_gradient(up, row, down, x - 1, x, x + 1, f32_, &i, &j);
        gi[x] = i;
        gj[x] = j;
        gm[x] = edgel_sk_magnitude(i, j, f32_);
    });
}

static void gradient_px(const sk_job *job, double *gi, double *gj, double *gm,
                        const double *const s3[3], int x)
{
    const int xl = edgel_border_index(x - 1, job->w, EDGEL_BORDER_REFLECT);
    const int xr = edgel_border_index(x + 1, job->w, EDGEL_BORDER_REFLECT);
    edgel_sk_gradient(s3[0], s3[1], s3[2], xl, x, xr, job->f32, gi + x, gj + x);
    gm[x] = edgel_sk_magnitude(gi[x], gj[x], job->f32);
}

/* The mask's row y as floats (0 or 1; cval outside in constant mode). */
static void mask_row(const sk_job *job, int y, double *out)
{
    const int iy = edgel_border_index(y, job->h, job->mode);
    for (int x = 0; x < job->w; x++)
        out[x] = iy < 0 ? job->cval : masked_out(job, x, iy) ? 0.0 : 1.0;
}

/* The input as floats at row p (-r <= p < h + r, then the mode's border). Without the
 * whole converted image, from the stripe's ring: row p in slot (p + r) % (2r + 1), so the
 * 2r + 1 rows one output row reads are all there, each converted once a sweep. */
static const double *input_row(const sk_job *job, sk_rows *t, int p)
{
    const int iy = edgel_border_index(p, job->h, job->mode);
    if (iy < 0)
        return t->cvals;
    if (job->x)
        return at(job, job->x, iy);
    const int slot = (p + job->r) % (2 * job->r + 1);
    double *row = t->ring + (size_t)slot * (size_t)job->w;
    if (t->ring_pos[slot] != p) {
        convert_masked_row(job, iy, row);
        t->ring_pos[slot] = p;
    }
    return row;
}

/* correlate1d along axis 0 at row y: of the input into v, of the mask into vm. */
static void vertical_row(const sk_job *job, int y, sk_rows *t)
{
    const int w = job->w;
    for (int k = job->r; k >= 1; k--) {
        t->before[k] = input_row(job, t, y - k);
        t->after[k] = input_row(job, t, y + k);
    }
    correlate(t->v, input_row(job, t, y), t->before, t->after, job->weights, job->r, w);
    store_row(t->v, w, job->f32);
    if (!job->mask || !job->bleed)
        return;
    double *b = t->mb, *a = t->ma;
    mask_row(job, y, b);
    taps_first(t->vm, b, job->weights[0], w);
    for (int k = job->r; k >= 1; k--) {
        mask_row(job, y - k, b);
        mask_row(job, y + k, a);
        taps_add(t->vm, b, a, job->weights[k], w);
    }
    store_row(t->vm, w, job->f32);
}

/* The padded row of `in` (w values) with the mode's border: pad[r + x] = in[x]. */
static void pad_row(const sk_job *job, const double *in, double *pad)
{
    const int w = job->w, r = job->r;
    memcpy(pad + r, in, sizeof(double) * (size_t)w);
    for (int x = -r; x < 0; x++) {
        const int ix = edgel_border_index(x, w, job->mode);
        pad[x + r] = ix < 0 ? job->cval : in[ix];
    }
    for (int x = w; x < w + r; x++) {
        const int ix = edgel_border_index(x, w, job->mode);
        pad[x + r] = ix < 0 ? job->cval : in[ix];
    }
}

/* correlate1d along axis 1 of the padded row into out[0, n). */
static void horizontal(const sk_job *job, const double *pad, double *out, int n)
{
    correlate(out, pad + job->r, NULL, NULL, job->weights, job->r, n);
    store_row(out, n, job->f32);
}

/* The mask's smoothed row when there is no mask: ones inside, cval outside; inside the
 * borders every value is the same sum, computed once. */
static void ones_row(const sk_job *job, int y, double *pad, double *out)
{
    const int w = job->w, r = job->r;
    const int lo = r < w ? r : w, hi = w - r > lo ? w - r : lo;
    const double v = job->row_vm[y];
    for (int x = -r; x < w + r; x++) { /* the columns the two calls below read */
        if (x == lo + r + 1 && x < hi - r)
            x = hi - r;
        pad[x + r] = x >= 0 && x < w ? v : job->cval;
    }
    horizontal(job, pad, out, lo + (hi > lo)); /* [0, lo] */
    for (int x = lo + 1; x < hi; x++)
        out[x] = out[lo];
    horizontal(job, pad + hi, out + hi, w - hi);
}

/* The smoothed row y into s. */
static void smooth_row(const sk_job *job, int y, sk_rows *t, double *s)
{
    const int w = job->w;
    vertical_row(job, y, t);
    pad_row(job, t->v, t->pad);
    horizontal(job, t->pad, s, w);
    if (!job->bleed)
        return;
    if (job->mask) {
        pad_row(job, t->vm, t->pad);
        horizontal(job, t->pad, t->g, w);
    } else {
        ones_row(job, y, t->pad, t->g);
    }
    bleed_divide(s, t->g, job->f32 ? FLT_EPSILON : DBL_EPSILON, job->f32, w);
}

/* isobel, jsobel and the magnitude of row y from the smoothed rows in the ring. */
static void gradient_row(const sk_job *job, int y, sk_rows *t)
{
    const int w = job->w, h = job->h, slot = y % 3;
    const int yu = edgel_border_index(y - 1, h, EDGEL_BORDER_REFLECT);
    const int yd = edgel_border_index(y + 1, h, EDGEL_BORDER_REFLECT);
    const double *const s3[3] = {t->s[yu % 3], t->s[y % 3], t->s[yd % 3]};
    double *gi = t->gi[slot], *gj = t->gj[slot], *gm = t->gm[slot];
    gradient_px(job, gi, gj, gm, s3, 0);
    if (w > 2)
        gradient_span(gi + 1, gj + 1, gm + 1, s3[0] + 1, s3[1] + 1, s3[2] + 1, job->f32, w - 2);
    if (w > 1)
        gradient_px(job, gi, gj, gm, s3, w - 1);
}

/* Inside the eroded mask: not on the image's border, and (with a mask) all 9 pixels in it. */
static int eroded(const sk_job *job, int x, int y)
{
    if (x < 1 || y < 1 || x >= job->w - 1 || y >= job->h - 1)
        return 0;
    for (int dy = -1; job->mask && dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (masked_out(job, x + dx, y + dy))
                return 0;
    return 1;
}

/* Row y of a stage view from a row of doubles. */
static void stage_row(const edgel_image *stage, int y, const double *v, int w)
{
    if (!stage)
        return;
    uint8_t *row = edgel_row_u8(stage, y);
    if (stage->type == EDGEL_F32)
        for (int x = 0; x < w; x++)
            ((float *)row)[x] = (float)v[x];
    else
        memcpy(row, v, sizeof(double) * (size_t)w);
}

/* edgel_sk_suppress and edgel_sk_class at columns [0, n) of an inside row without a mask,
 * four pixels at a time: the same operations on every lane, the branches as selections
 * (kept values into `kept`, classes into `map`, from the EDGEL_MAP_* values asserted
 * above). isobel i, jsobel j; up, row and down are the magnitude's rows, their columns -1
 * and n read. */
EDGEL_VECTOR_CLONES static void suppress_span(double *restrict kept, uint8_t *restrict map,
                                              const double *i, const double *j,
                                              const double *up, const double *row,
                                              const double *down, float low, double high,
                                              int f32, int n)
{
    const sk_m4 sign = (sk_m4)SK_SPLAT4(-0.0);
    int x = 0;
    for (; x + 4 <= n; x += 4) {
        const sk_d4 m = SK_LOAD4(row + x);
        const sk_m4 candidate = m >= SK_SPLAT4((double)low);
        if (!(candidate[0] | candidate[1] | candidate[2] | candidate[3])) {
            memset(kept + x, 0, 4 * sizeof *kept);
            memset(map + x, EDGEL_MAP_NONE, 4);
            continue;
        }
        const sk_d4 vi = SK_LOAD4(i + x), vj = SK_LOAD4(j + x);
        const sk_m4 down_ = vi <= 0, left = vj <= 0, cond1 = ~(down_ ^ left);
        const sk_d4 ai = (sk_d4)((sk_m4)vi & ~sign), aj = (sk_d4)((sk_m4)vj & ~sign);
        /* aj / ai where cond1 and ai > aj, or not cond1 and ai >= aj; else ai / aj */
        const sk_m4 vertical = (cond1 & (ai > aj)) | (~cond1 & ~(ai < aj));
        const sk_d4 w = SK_STORE4(SK_SELECT4(vertical, aj, ai) / SK_SELECT4(vertical, ai, aj),
                                  f32);
        const sk_d4 d1 = SK_SELECT4(cond1, SK_LOAD4(down + x + 1), SK_LOAD4(up + x + 1));
        const sk_d4 d2 = SK_SELECT4(cond1, SK_LOAD4(up + x - 1), SK_LOAD4(down + x - 1));
        const sk_d4 vd = SK_SELECT4(cond1, SK_LOAD4(down + x), SK_LOAD4(up + x));
        const sk_d4 vu = SK_SELECT4(cond1, SK_LOAD4(up + x), SK_LOAD4(down + x));
        const sk_d4 a1 = SK_SELECT4(vertical, vd, SK_LOAD4(row + x + 1));
        const sk_d4 a2 = SK_SELECT4(vertical, vu, SK_LOAD4(row + x - 1));
        const sk_d4 one_w = SK_SPLAT4(1.0) - w;
        const sk_d4 plus = SK_STORE4(d1 * w, f32) + a1 * one_w;
        const sk_d4 minus = SK_STORE4(d2 * w, f32) + a2 * one_w;
        const sk_m4 keep = candidate & (plus <= m) & (minus <= m);
        const sk_d4 k = SK_SELECT4(keep, m, SK_SPLAT4(0.0));
        memcpy(kept + x, &k, sizeof k);
        /* the classes from the lane masks (-1 or 0): NONE 1, WEAK 0, STRONG 2 */
        const sk_m4 cls = 1 + keep - 2 * (keep & (k >= SK_SPLAT4(high)));
        const sk_b4 bytes = __builtin_convertvector(cls, sk_b4);
        memcpy(map + x, &bytes, sizeof bytes);
    }
    for (; x < n; x++) {
        const double nb[9] = {up[x - 1], up[x], up[x + 1], row[x - 1], row[x], row[x + 1],
                              down[x - 1], down[x], down[x + 1]};
        kept[x] = edgel_sk_suppress(i[x], j[x], nb, low, f32);
        map[x] = edgel_sk_class(kept[x], high);
    }
}

/* Non-maximum suppression and the classes of row y (the magnitude's rows y - 1 .. y + 1 in
 * the ring); the suppressed values into mrow. */
static void suppress_row(const sk_job *job, int y, sk_rows *t, edgel_offset_stack *stack)
{
    const int w = job->w, slot = y % 3;
    uint8_t *map = edgel_map_row(&job->map, y);
    memset(map, EDGEL_MAP_NONE, (size_t)w);
    const double *irow = t->gi[slot], *jrow = t->gj[slot], *mrow = t->gm[slot];
    const double *rows[3] = {t->gm[(y + 2) % 3], mrow, t->gm[(y + 1) % 3]};
    if (!job->mask && y >= 1 && y < job->h - 1 && w >= 3) { /* the common case */
        t->mrow[0] = t->mrow[w - 1] = 0.0;
        suppress_span(t->mrow + 1, map + 1, irow + 1, jrow + 1, rows[0] + 1, rows[1] + 1,
                      rows[2] + 1, job->low, job->high, job->f32, w - 2);
    } else {
        for (int x = 0; x < w; x++) {
            double kept = 0.0;
            if (mrow[x] >= (double)job->low && eroded(job, x, y)) {
                const double n[9] = {rows[0][x - 1], rows[0][x], rows[0][x + 1],
                                     rows[1][x - 1], rows[1][x], rows[1][x + 1],
                                     rows[2][x - 1], rows[2][x], rows[2][x + 1]};
                kept = edgel_sk_suppress(irow[x], jrow[x], n, job->low, job->f32);
                map[x] = edgel_sk_class(kept, job->high);
            }
            t->mrow[x] = kept;
        }
    }
    if (job->stages)
        stage_row(job->stages->suppressed, y, t->mrow, w);
    edgel_cpu_push_strong(&job->map, y, stack);
}

/* Doubles of a stripe's rows: 12 ring rows, v, vm, g, mb, ma, mrow, cvals: 19 rows; pad:
 * w + 2r; the input's ring: 2r + 1 rows where there is no converted image. */
static size_t rows_size(const sk_job *job)
{
    const size_t w = (size_t)job->w, r = (size_t)job->r;
    return 19 * w + (w + 2 * r) + (job->x ? 0 : (2 * r + 1) * w);
}

/* Stripe i's rows, in the workspace's block (kept between calls: fresh memory each call
 * would fault its pages in again); `taps`: 2 (r + 1) pointers and 2r + 1 ints. */
static void stripe_rows(const sk_job *job, int i, sk_rows *t, const double **taps)
{
    const size_t w = (size_t)job->w;
    double *p = job->rows + (size_t)i * rows_size(job);
    double **rings[4] = {t->s, t->gi, t->gj, t->gm};
    for (int k = 0; k < 12; k++)
        rings[k / 3][k % 3] = p, p += w;
    double **rows[7] = {&t->v, &t->vm, &t->g, &t->mb, &t->ma, &t->mrow, &t->cvals};
    for (int k = 0; k < 7; k++)
        *rows[k] = p, p += w;
    for (size_t x = 0; x < w; x++)
        t->cvals[x] = job->cval;
    t->pad = p, p += w + 2 * (size_t)job->r;
    t->ring = p;
    t->before = taps;
    t->after = taps + job->r + 1;
    t->ring_pos = (int *)(taps + 2 * (job->r + 1));
    for (int k = 0; k < 2 * job->r + 1; k++)
        t->ring_pos[k] = INT_MIN;
}

/* Pass 2 for the stripe [y0, y1): smoothed rows from y0 - 2, gradient rows from y0 - 1, the
 * stripe's own suppression a row behind. */
static int sweep_stripe(const sk_job *job, int i, int y0, int y1)
{
    const int h = job->h, w = job->w;
    const size_t r = (size_t)job->r;
    const double **taps = malloc(sizeof *taps * 2 * (r + 1) + sizeof(int) * (2 * r + 1));
    if (!taps)
        return 0;
    sk_rows t;
    stripe_rows(job, i, &t, taps);
    const edgel_canny_stages *st = job->collect ? NULL : job->stages;
    edgel_offset_stack stack = {0};
    int next_s = y0 - 2 > 0 ? y0 - 2 : 0, next_nms = y0;
    const int g_hi = y1 + 1 < h ? y1 + 1 : h;
    for (int gy = y0 - 1 > 0 ? y0 - 1 : 0; gy < g_hi; gy++) {
        for (const int need = gy + 1 < h ? gy + 1 : h - 1; next_s <= need; next_s++) {
            smooth_row(job, next_s, &t, t.s[next_s % 3]);
            if (st && next_s >= y0 && next_s < y1)
                stage_row(st->smoothed, next_s, t.s[next_s % 3], w);
        }
        gradient_row(job, gy, &t);
        if (gy >= y0 && gy < y1) {
            if (job->collect)
                memcpy(at(job, job->m, gy), t.gm[gy % 3], sizeof(double) * (size_t)w);
            if (st) {
                stage_row(st->dy, gy, t.gi[gy % 3], w);
                stage_row(st->dx, gy, t.gj[gy % 3], w);
                stage_row(st->magnitude, gy, t.gm[gy % 3], w);
            }
        }
        for (; !job->collect && next_nms < y1 && next_nms + 1 <= gy; next_nms++)
            suppress_row(job, next_nms, &t, &stack);
    }
    for (; !job->collect && next_nms < y1; next_nms++) /* the image's last row */
        suppress_row(job, next_nms, &t, &stack);
    const int ok = job->collect || edgel_cpu_grow_stripe(&job->map, &stack, y0, y1);
    free(stack.items);
    free(taps);
    return ok && !stack.failed;
}

static void sk_stripe(void *arg, int i)
{
    sk_job *job = arg;
    int y0, y1;
    edgel_stripe(i, job->nstripes, job->h, &y0, &y1);
    if (job->phase == 0) {
        for (int y = y0; y < y1; y++)
            convert_masked_row(job, y, at(job, job->x, y));
    } else if (!sweep_stripe(job, i, y0, y1))
        atomic_store(&job->failed, 1);
}

/* Without a mask, the mask's Gaussian along axis 0, one value a row: ones inside, cval
 * outside. */
static void ones_column(sk_job *job)
{
    for (int y = 0; y < job->h; y++) {
        double s = 1.0 * job->weights[0];
        for (int k = job->r; k >= 1; k--) {
            const double b = edgel_border_index(y - k, job->h, job->mode) < 0 ? job->cval : 1.0;
            const double a = edgel_border_index(y + k, job->h, job->mode) < 0 ? job->cval : 1.0;
            s = edgel_sk_tap(s, b, a, job->weights[k]);
        }
        job->row_vm[y] = edgel_sk_store(s, job->f32);
    }
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The k-th smallest of v[0, n) into v[k] (v reordered), no NaN. */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 16) {
        const double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
        const double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi - 1;
        for (;;) { /* Hoare partition */
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            const double t = v[i];
            v[i++] = v[j];
            v[j--] = t;
        }
        if (k <= j)
            hi = j + 1;
        else
            lo = j + 1;
    }
    qsort(v + lo, hi - lo, sizeof *v, by_double);
}

/* np.percentile(magnitude, [100 low, 100 high]) over the whole image; scratch: n doubles. */
static void quantiles(const sk_job *job, double *scratch, double ql, double qh, double *low,
                      double *high)
{
    const size_t n = (size_t)job->w * (size_t)job->h;
    for (size_t i = 0; i < n; i++) {
        if (isnan(job->m[i])) { /* numpy's percentile of data with NaN is NaN */
            *low = *high = NAN;
            return;
        }
    }
    const double q[2] = {ql, qh};
    double *out[2] = {low, high};
    for (int i = 0; i < 2; i++) {
        memcpy(scratch, job->m, n * sizeof(double));
        size_t below, above;
        const double t = edgel_sk_quantile_index(q[i], n, &below, &above);
        select_kth(scratch, n, below);
        double b = scratch[below];
        if (above != below) { /* the next order statistic: the least above position below */
            b = scratch[above];
            for (size_t k = above + 1; k < n; k++)
                b = scratch[k] < b ? scratch[k] : b;
        }
        *out[i] = edgel_sk_quantile_value(scratch[below], b, t, job->f32);
    }
}

static void run_phase(sk_job *job, int threads, int phase)
{
    job->phase = phase;
    if (!atomic_load(&job->failed))
        edgel_host_parallel_for(threads, job->nstripes, sk_stripe, job);
}

edgel_status edgel_cpu_canny_skimage(int threads, edgel_cpu_workspace *ws,
                                     const edgel_canny_params *params, const edgel_image *src,
                                     const edgel_image *mask, const edgel_image *edges,
                                     const edgel_canny_stages *stages)
{
    sk_job job = {0};
    job.src = src;
    job.mask = mask;
    job.w = src->width;
    job.h = src->height;
    job.f32 = src->type == EDGEL_F32;
    job.r = edgel_skimage_radius(params->sigma);
    job.mode = params->mode;
    job.cval = params->cval;
    job.bleed = params->mode == EDGEL_BORDER_CONSTANT || mask != NULL;
    job.stages = stages;
    double low, high;
    EDGEL_TRY(edgel_skimage_thresholds(params, src->type, &low, &high));

    const size_t n = (size_t)job.w * (size_t)job.h, bytes = n * sizeof(double);
    double *weights = malloc(sizeof(double) * (size_t)(job.r + 1));
    job.row_vm = malloc(sizeof(double) * (size_t)job.h);
    job.m = params->use_quantiles ? (double *)edgel_cpu_buffer_reserve(&ws->sk_m, 2 * bytes)
                                  : NULL;
    job.nstripes = threads < edgel_host_cores() ? threads : edgel_host_cores();
    job.nstripes = job.nstripes < job.h ? job.nstripes : job.h;
    /* Each stripe converts the input into a ring of 2r + 1 rows, unless the rings would
     * hold more rows than the image: then the image is converted once, whole. */
    const int whole = (2 * (size_t)job.r + 1) * (size_t)job.nstripes > (size_t)job.h;
    if (whole)
        job.x = (double *)edgel_cpu_buffer_reserve(&ws->sk_x, bytes);
    job.rows = (double *)edgel_cpu_buffer_reserve(
        &ws->sk_rows, sizeof(double) * rows_size(&job) * (size_t)job.nstripes);
    edgel_status st = EDGEL_OK;
    if (!weights || !job.row_vm || (whole && !job.x) || !job.rows ||
        (params->use_quantiles && !job.m))
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the skimage preset's images");
    if (st == EDGEL_OK)
        st = edgel_skimage_weights(params, weights);
    job.weights = weights;
    if (st == EDGEL_OK)
        st = edgel_cpu_map_init(&ws->map, job.w, job.h, &job.map);
    if (st != EDGEL_OK) {
        free(weights);
        free(job.row_vm);
        return st;
    }
    ones_column(&job);
    atomic_init(&job.failed, 0);
    if (whole)
        run_phase(&job, threads, 0);
    if (params->use_quantiles) { /* a sweep for the magnitude, its percentiles */
        job.collect = 1;
        run_phase(&job, threads, 1);
        job.collect = 0;
        if (!atomic_load(&job.failed))
            quantiles(&job, job.m + n, low, high, &low, &high);
    }
    job.low = edgel_sk_low(low);
    job.high = edgel_sk_high(high, job.f32, params->use_quantiles);
    run_phase(&job, threads, 1);
    int failed = atomic_load(&job.failed);
    if (!failed)
        failed = !edgel_cpu_grow_across_stripes(threads, &job.map, job.nstripes);
    free(weights);
    free(job.row_vm);
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory in the skimage preset");
    edgel_cpu_write_edges(threads, &job.map, edges);
    return EDGEL_OK;
}
