/* The storage of an edgel_curves (core/curves.h). */
#include "core/curves.h"

#include "core/host_pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* *p grown to `count` elements of `size` bytes (contents kept); 0 when out of memory. */
static int grow(void **p, size_t count, size_t size)
{
    if (count > SIZE_MAX / size)
        return 0;
    const size_t bytes = count * size;
    void *q = realloc(*p, bytes ? bytes : 1);
    if (!q)
        return 0;
    *p = q;
    return 1;
}

/* The capacity for `want`: at least double the old one, so that growing is amortised. */
static size_t grown_cap(size_t cap, size_t want)
{
    return want > 2 * cap ? want : 2 * cap;
}

int edgel_curves_reserve_pixels(edgel_curves *c, size_t pixels)
{
    if (pixels <= c->pixel_cap)
        return 1;
    free(c->image), free(c->pass); /* nothing kept: free, then take */
    c->image = malloc(sizeof(double) * pixels);
    c->pass = malloc(sizeof(double) * pixels);
    const int ok = c->image && c->pass;
    c->pixel_cap = ok ? pixels : 0;
    return ok;
}

int edgel_curves_reserve_result(edgel_curves *c, size_t points, size_t curves)
{
    if (points > c->point_cap) {
        const size_t cap = grown_cap(c->point_cap, points);
        if (!grow((void **)&c->x, cap, sizeof(double)) ||
            !grow((void **)&c->y, cap, sizeof(double)) ||
            !grow((void **)&c->gx, cap, sizeof(double)) ||
            !grow((void **)&c->gy, cap, sizeof(double)) ||
            !grow((void **)&c->modulus, cap, sizeof(double)))
            return 0;
        c->point_cap = cap;
    }
    if (curves + 1 > c->curve_cap || !c->limits) {
        const size_t cap = grown_cap(c->curve_cap, curves + 1);
        if (!grow((void **)&c->limits, cap, sizeof(int64_t)) ||
            !grow((void **)&c->closed, cap, 1))
            return 0;
        c->curve_cap = cap;
    }
    return 1;
}

int edgel_curves_set_none(edgel_curves *c)
{
    c->points = c->curves = 0;
    if (!edgel_curves_reserve_result(c, 1, 0))
        return 0;
    c->limits[0] = 0;
    return 1;
}

int edgel_curves_reserve_points(edgel_curves *c, size_t count)
{
    if (count > INT32_MAX || !edgel_point_list_reserve(&c->all, count))
        return 0;
    if (count + 1 <= c->link_cap)
        return 1;
    int32_t **ints[] = {&c->next, &c->prev, &c->label, &c->fwd, &c->bck, &c->row_order};
    double **doubles[] = {&c->fwd_score, &c->bck_score};
    int ok = 1;
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        free(*ints[i]);
        ok &= (*ints[i] = malloc(sizeof(int32_t) * (count + 1))) != NULL;
    }
    for (size_t i = 0; i < sizeof doubles / sizeof *doubles; i++) {
        free(*doubles[i]);
        ok &= (*doubles[i] = malloc(sizeof(double) * (count + 1))) != NULL;
    }
    free(c->valid), free(c->bucket);
    ok &= (c->valid = malloc(count + 1)) != NULL;
    ok &= (c->bucket = malloc(2 * (count + 1))) != NULL;
    c->link_cap = ok ? count + 1 : 0;
    return ok;
}

int edgel_curves_reserve_columns(edgel_curves *c, size_t count)
{
    if (count <= c->column_cap)
        return 1;
    free(c->column_start);
    c->column_start = malloc(sizeof(int32_t) * count);
    c->column_cap = c->column_start ? count : 0;
    return c->column_start != NULL;
}

int edgel_point_list_reserve(edgel_point_list *l, size_t count)
{
    if (count <= l->cap)
        return 1;
    const size_t cap = grown_cap(l->cap, count < 1024 ? 1024 : count);
    if (!grow((void **)&l->x, cap, sizeof(double)) || !grow((void **)&l->y, cap, sizeof(double)) ||
        !grow((void **)&l->gx, cap, sizeof(double)) ||
        !grow((void **)&l->gy, cap, sizeof(double)) ||
        !grow((void **)&l->mod, cap, sizeof(double)) ||
        !grow((void **)&l->px, cap, sizeof(int32_t)) ||
        !grow((void **)&l->py, cap, sizeof(int32_t)))
        return 0;
    l->cap = cap;
    return 1;
}

void edgel_point_list_free(edgel_point_list *l)
{
    free(l->x), free(l->y), free(l->gx), free(l->gy), free(l->mod), free(l->px), free(l->py);
}

void edgel_curves_clear(edgel_curves *c)
{
    c->points = c->curves = 0;
    c->on_device.device = -1;
}

void edgel_curves_free(edgel_curves *c)
{
    if (!c)
        return;
    if (c->on_device.block)
        c->on_device.release(c->on_device.block, c->on_device.block_device);
    free(c->x), free(c->y), free(c->gx), free(c->gy), free(c->modulus);
    free(c->limits), free(c->closed);
    free(c->image), free(c->pass);
    for (int t = 0; t < c->found_cap; t++)
        edgel_point_list_free(&c->found[t]);
    free(c->found);
    edgel_point_list_free(&c->all);
    free(c->row_order), free(c->column_start), free(c->next), free(c->prev), free(c->valid);
    free(c->label), free(c->bucket);
    free(c->fwd), free(c->bck), free(c->fwd_score), free(c->bck_score), free(c->rank);
    free(c);
}

typedef struct copy_job {
    const edgel_curves *c;
    double *xy, *gradient, *modulus;
    int64_t *limits;
    uint8_t *closed;
} copy_job;

/* Thread t of n: its share of the points (interleaved pairs), then of the curves. */
static void copy_share(void *arg, int t, int n)
{
    const copy_job *j = arg;
    const edgel_curves *c = j->c;
    const int64_t a = c->points * t / n, b = c->points * (t + 1) / n;
    for (int64_t i = a; j->xy && i < b; i++)
        j->xy[2 * i] = c->x[i], j->xy[2 * i + 1] = c->y[i];
    for (int64_t i = a; j->gradient && i < b; i++)
        j->gradient[2 * i] = c->gx[i], j->gradient[2 * i + 1] = c->gy[i];
    if (j->modulus && b > a)
        memcpy(j->modulus + a, c->modulus + a, sizeof(double) * (size_t)(b - a));
    const int64_t ca = c->curves * t / n, cb = c->curves * (t + 1) / n;
    if (j->limits && cb > ca)
        memcpy(j->limits + ca, c->limits + ca, sizeof(int64_t) * (size_t)(cb - ca));
    if (j->limits && t == n - 1)
        j->limits[c->curves] = c->limits[c->curves];
    if (j->closed && cb > ca)
        memcpy(j->closed + ca, c->closed + ca, (size_t)(cb - ca));
}

void edgel_curves_copy_out(const edgel_curves *c, double *xy, double *gradient, double *modulus,
                           int64_t *limits, uint8_t *closed, int threads)
{
    copy_job job = {c, xy, gradient, modulus, limits, closed};
    /* (a thread a quarter million points at least: fewer are copied before threads wake) */
    const int64_t most = c->points / 262144 + 1;
    edgel_host_parallel(most < threads ? (int)most : threads, copy_share, &job);
}
