/* The storage of an edgel_curves (core/curves.h). */
#include "core/curves.h"

#include <stdint.h>
#include <stdlib.h>

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

void edgel_curves_free(edgel_curves *c)
{
    if (!c)
        return;
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
