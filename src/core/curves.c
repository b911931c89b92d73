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

int edgel_curves_reserve_pixels(edgel_curves *c, size_t pixels)
{
    if (pixels <= c->pixel_cap)
        return 1;
    double **d[] = {&c->image, &c->pass, &c->grad_x, &c->grad_y, &c->mod, &c->edge_x,
                    &c->edge_y};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) { /* nothing kept: free, then take */
        free(*d[i]);
        *d[i] = malloc(sizeof(double) * pixels);
    }
    free(c->next), free(c->prev), free(c->valid);
    c->next = malloc(sizeof(int32_t) * pixels);
    c->prev = malloc(sizeof(int32_t) * pixels);
    c->valid = malloc(pixels);
    int ok = c->next && c->prev && c->valid;
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        ok = ok && *d[i];
    c->pixel_cap = ok ? pixels : 0;
    return ok;
}

int edgel_curves_reserve_result(edgel_curves *c, size_t points, size_t curves)
{
    if (points > c->point_cap) {
        const size_t cap = points > 2 * c->point_cap ? points : 2 * c->point_cap;
        if (!grow((void **)&c->x, cap, sizeof(double)) ||
            !grow((void **)&c->y, cap, sizeof(double)) ||
            !grow((void **)&c->gx, cap, sizeof(double)) ||
            !grow((void **)&c->gy, cap, sizeof(double)) ||
            !grow((void **)&c->modulus, cap, sizeof(double)))
            return 0;
        c->point_cap = cap;
    }
    if (curves + 1 > c->curve_cap || !c->limits) {
        const size_t cap = curves + 1 > 2 * c->curve_cap ? curves + 1 : 2 * c->curve_cap;
        if (!grow((void **)&c->limits, cap, sizeof(int64_t)) ||
            !grow((void **)&c->closed, cap, 1))
            return 0;
        c->curve_cap = cap;
    }
    return 1;
}
