/* The tiled driver's flood fill (core/tile_flood.h). */
#include "core/tile_flood.h"

#include <stdlib.h>

static int push(edgel_flood *f, size_t *top, int32_t v)
{
    if (*top == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 4096;
        int32_t *s = realloc(f->stack, sizeof *s * cap);
        if (!s)
            return 0;
        f->stack = s;
        f->cap = cap;
    }
    f->stack[(*top)++] = v;
    return 1;
}

int edgel_flood_fill(edgel_flood *f, const edgel_image *m, int x, int y, uint8_t from,
                     uint8_t to, int64_t node, const edgel_side_nodes *sides)
{
    const int cw = m->width, ch = m->height;
    uint8_t *base = m->data;
    size_t top = 0;
    base[(size_t)y * m->pitch + x] = to;
    if (!push(f, &top, y * cw + x))
        return 0;
    while (top) {
        const int32_t p = f->stack[--top];
        const int px = p % cw, py = p / cw;
        if (px == 0)
            f->side[py] = to;
        if (px == cw - 1)
            f->side[ch + py] = to;
        if (node >= 0) {
            if (py == 0)
                sides->top[px] = node;
            if (py == ch - 1)
                sides->bottom[px] = node;
            if (px == 0)
                sides->left[py] = node;
            if (px == cw - 1)
                sides->right[py] = node;
        }
        for (int qy = py > 0 ? py - 1 : 0; qy <= py + 1 && qy < ch; qy++)
            for (int qx = px > 0 ? px - 1 : 0; qx <= px + 1 && qx < cw; qx++) {
                uint8_t *q = base + (size_t)qy * m->pitch + qx;
                if (*q == from) {
                    *q = to;
                    if (!push(f, &top, qy * cw + qx))
                        return 0;
                }
            }
    }
    return 1;
}

void edgel_flood_free(edgel_flood *f)
{
    free(f->stack);
    f->stack = NULL;
    f->cap = 0;
}
