#include "core/volume_labels.h"
#include "core/union_find.h"

#include "core/host_pool.h"
#include "core/opencv_math.h"

#include <stdatomic.h>
#include <stdlib.h>

/* A slab's labelling: its components numbered 1 .. count in the order of their first voxel,
 * their strong flags, and the flood's stack. */
struct edgel_label_slab {
    int z0, z1;
    int32_t count;
    uint8_t *strong;
    size_t strong_cap;
    uint32_t *stack;
    size_t stack_cap;
    int32_t base; /* the slab's first component's index among all slabs' (from 1) */
};

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

typedef struct label_job {
    edgel_volume_labels *l;
    const uint8_t *classes;
    int w, h, d;
    atomic_int failed;
} label_job;

/* Labels slab `s`: a flood from each unlabelled candidate in raster order, within the slab. */
static void label_slab(void *arg, int s)
{
    label_job *j = arg;
    edgel_label_slab *sl = &j->l->slabs[s];
    const uint8_t *classes = j->classes;
    int32_t *label = j->l->label;
    const int w = j->w, h = j->h;
    const size_t plane = (size_t)w * h, first = plane * sl->z0, last = plane * sl->z1;
    for (size_t i = first; i < last; i++)
        label[i] = 0;
    sl->count = 0;
    size_t n = 0;
    for (size_t seed = first; seed < last; seed++) {
        if (classes[seed] == EDGEL_MAP_NONE || label[seed])
            continue;
        if (!grow((void **)&sl->strong, &sl->strong_cap, (size_t)sl->count + 2, 1) ||
            !grow((void **)&sl->stack, &sl->stack_cap, 1, sizeof(uint32_t))) {
            atomic_store(&j->failed, 1);
            return;
        }
        const int32_t id = ++sl->count;
        uint8_t strong = 0;
        label[seed] = id;
        sl->stack[n++] = (uint32_t)seed;
        while (n) {
            const size_t c = sl->stack[--n];
            strong |= classes[c] == EDGEL_MAP_STRONG;
            const int x = (int)(c % (size_t)w), y = (int)(c / (size_t)w % (size_t)h),
                      z = (int)(c / plane);
            for (int dz = z > sl->z0 ? -1 : 0; dz <= (z + 1 < sl->z1); dz++)
                for (int dy = y > 0 ? -1 : 0; dy <= (y + 1 < h); dy++)
                    for (int dx = x > 0 ? -1 : 0; dx <= (x + 1 < w); dx++) {
                        const size_t q = c + (ptrdiff_t)dz * (ptrdiff_t)plane +
                                         (ptrdiff_t)dy * w + dx;
                        if (classes[q] == EDGEL_MAP_NONE || label[q])
                            continue;
                        label[q] = id;
                        if (!grow((void **)&sl->stack, &sl->stack_cap, n + 1,
                                  sizeof(uint32_t))) {
                            atomic_store(&j->failed, 1);
                            return;
                        }
                        sl->stack[n++] = (uint32_t)q;
                    }
        }
        sl->strong[id] = strong;
    }
}

/* Slab `s`'s voxels from their slab's numbers to the final labels. */
static void relabel_slab(void *arg, int s)
{
    label_job *j = arg;
    const edgel_label_slab *sl = &j->l->slabs[s];
    const size_t plane = (size_t)j->w * j->h;
    int32_t *label = j->l->label;
    const int32_t *final = j->l->final;
    for (size_t i = plane * sl->z0; i < plane * sl->z1; i++)
        if (label[i])
            label[i] = final[sl->base + label[i] - 1];
}

int edgel_volume_labels_run(edgel_volume_labels *l, const uint8_t *classes, int w, int h, int d,
                            int threads)
{
    const size_t plane = (size_t)w * h, voxels = plane * d;
    const int slabs = threads < 1 ? 1 : threads < d ? threads : d;
    if (!grow((void **)&l->label, &l->voxels_cap, voxels, sizeof(int32_t)))
        return 0;
    if (slabs > l->slabs_cap) {
        edgel_label_slab *s = realloc(l->slabs, sizeof *s * (size_t)slabs);
        if (!s)
            return 0;
        for (int i = l->slabs_cap; i < slabs; i++)
            s[i] = (edgel_label_slab){0};
        l->slabs = s, l->slabs_cap = slabs;
    }
    label_job job = {l, classes, w, h, d, 0};
    for (int s = 0; s < slabs; s++)
        edgel_stripe(s, slabs, d, &l->slabs[s].z0, &l->slabs[s].z1);
    edgel_host_parallel_for(threads, slabs, label_slab, &job);
    if (atomic_load(&job.failed))
        return 0;
    /* the slabs' components, numbered in slab order: the order of their first voxels */
    size_t total = 0;
    for (int s = 0; s < slabs; s++)
        l->slabs[s].base = (int32_t)total + 1, total += (size_t)l->slabs[s].count;
    if (!grow((void **)&l->parent, &l->parent_cap, total + 1, sizeof(int32_t)) ||
        !grow((void **)&l->final, &l->final_cap, total + 1, sizeof(int32_t)))
        return 0;
    for (size_t g = 0; g <= total; g++)
        l->parent[g] = (int32_t)g;
    for (int s = 1; s < slabs; s++) { /* where a slab's first slice meets the one before */
        const edgel_label_slab *a = &l->slabs[s - 1], *b = &l->slabs[s];
        const int32_t *near = l->label + plane * b->z0, *far = near - plane;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const int32_t n = near[(size_t)y * w + x];
                if (!n)
                    continue;
                for (int dy = y > 0 ? -1 : 0; dy <= (y + 1 < h); dy++)
                    for (int dx = x > 0 ? -1 : 0; dx <= (x + 1 < w); dx++) {
                        const int32_t f = far[(size_t)(y + dy) * w + x + dx];
                        if (f)
                            edgel_uf32_join(l->parent, b->base + n - 1, a->base + f - 1);
                    }
            }
    }
    /* a set's label: its rank among the roots, in order (the serial scan's numbering) */
    l->count = 0;
    for (size_t g = 1; g <= total; g++)
        if (edgel_uf32_find(l->parent, (int32_t)g) == (int32_t)g)
            l->final[g] = ++l->count;
    if (!grow((void **)&l->strong, &l->strong_cap, (size_t)l->count + 1, 1) ||
        !grow((void **)&l->node, &l->node_cap, (size_t)l->count + 1, sizeof(int64_t)))
        return 0;
    for (int32_t k = 0; k <= l->count; k++)
        l->strong[k] = 0, l->node[k] = -1;
    for (int s = 0; s < slabs; s++) {
        const edgel_label_slab *sl = &l->slabs[s];
        for (int32_t i = 1; i <= sl->count; i++) {
            const int32_t g = sl->base + i - 1;
            const int32_t f = l->final[edgel_uf32_find(l->parent, g)];
            l->final[g] = f; /* (roots first met before their members: g >= its root) */
            l->strong[f] |= sl->strong[i];
        }
    }
    edgel_host_parallel_for(threads, slabs, relabel_slab, &job);
    return 1;
}

void edgel_volume_labels_free(edgel_volume_labels *l)
{
    for (int s = 0; s < l->slabs_cap; s++)
        free(l->slabs[s].strong), free(l->slabs[s].stack);
    free(l->slabs);
    free(l->label), free(l->strong), free(l->node), free(l->parent), free(l->final);
    *l = (edgel_volume_labels){0};
}
