#include "core/volume_labels.h"

#include "core/opencv_math.h"

#include <stdlib.h>

static int grow(void **p, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * item);
    if (!q)
        return 0;
    *p = q, *cap = n;
    return 1;
}

/* Room for labels 0 .. count + 1. */
static int grow_labels(edgel_volume_labels *l, size_t count)
{
    if (count + 2 <= l->labels_cap)
        return 1;
    const size_t n = l->labels_cap ? 2 * l->labels_cap : 1024;
    uint8_t *strong = realloc(l->strong, n);
    if (!strong)
        return 0;
    l->strong = strong;
    int64_t *node = realloc(l->node, n * sizeof *node);
    if (!node)
        return 0;
    l->node = node, l->labels_cap = n;
    return 1;
}

int edgel_volume_labels_run(edgel_volume_labels *l, const uint8_t *classes, int w, int h, int d)
{
    const size_t plane = (size_t)w * h, voxels = plane * d;
    if (!grow((void **)&l->label, &l->voxels_cap, voxels, sizeof(int32_t)) || !grow_labels(l, 0))
        return 0;
    l->strong[0] = 0, l->node[0] = -1;
    for (size_t i = 0; i < voxels; i++)
        l->label[i] = 0;
    l->count = 0;
    size_t n = 0;
    for (size_t seed = 0; seed < voxels; seed++) {
        if (classes[seed] == EDGEL_MAP_NONE || l->label[seed])
            continue;
        if (!grow_labels(l, (size_t)l->count))
            return 0;
        const int32_t id = ++l->count;
        uint8_t strong = 0;
        l->label[seed] = id;
        if (!grow((void **)&l->stack, &l->stack_cap, 1, sizeof(uint32_t)))
            return 0;
        l->stack[n++] = (uint32_t)seed;
        while (n) {
            const size_t c = l->stack[--n];
            strong |= classes[c] == EDGEL_MAP_STRONG;
            const int x = (int)(c % (size_t)w), y = (int)(c / (size_t)w % (size_t)h),
                      z = (int)(c / plane);
            for (int dz = z > 0 ? -1 : 0; dz <= (z + 1 < d); dz++)
                for (int dy = y > 0 ? -1 : 0; dy <= (y + 1 < h); dy++)
                    for (int dx = x > 0 ? -1 : 0; dx <= (x + 1 < w); dx++) {
                        const size_t q = c + (ptrdiff_t)dz * (ptrdiff_t)plane +
                                         (ptrdiff_t)dy * w + dx;
                        if (classes[q] == EDGEL_MAP_NONE || l->label[q])
                            continue;
                        l->label[q] = id;
                        if (!grow((void **)&l->stack, &l->stack_cap, n + 1, sizeof(uint32_t)))
                            return 0;
                        l->stack[n++] = (uint32_t)q;
                    }
        }
        l->strong[id] = strong;
        l->node[id] = -1;
    }
    return 1;
}

void edgel_volume_labels_free(edgel_volume_labels *l)
{
    free(l->label), free(l->strong), free(l->node), free(l->stack);
    *l = (edgel_volume_labels){0};
}
