/*
 * Internal: the CPU hysteresis shared by both presets. A map of EDGEL_MAP_* bytes with a
 * frame of EDGEL_MAP_NONE around the image is filled stripe by stripe; each stripe grows
 * edges (STRONG) from its strong pixels through WEAK ones inside its own rows, then the
 * joins across stripe borders grow on from there, in parallel. The result is the closure of the strong pixels
 * over 8-connected candidates, whatever the stripe count.
 */
#ifndef EDGEL_CPU_HYSTERESIS_H
#define EDGEL_CPU_HYSTERESIS_H

#include "cpu/cpu.h"

typedef struct edgel_offset_stack {
    uint32_t *items;
    size_t len, cap;
    int failed;
} edgel_offset_stack;

void edgel_stack_grow(edgel_offset_stack *s);

static inline void edgel_stack_push(edgel_offset_stack *s, uint32_t v)
{
    if (s->len == s->cap) {
        edgel_stack_grow(s);
        if (s->failed)
            return;
    }
    s->items[s->len++] = v;
}

/* (w + 2) x (h + 2) bytes; data + step + 1 is pixel (0, 0). */
typedef struct edgel_cpu_map {
    uint8_t *data;
    size_t step;
    int w, h;
} edgel_cpu_map;

static inline uint8_t *edgel_map_row(const edgel_cpu_map *m, int y)
{
    return m->data + (size_t)(y + 1) * m->step + 1;
}

/* A map in the workspace's buffer, its frame set. */
edgel_status edgel_cpu_map_init(edgel_cpu_buffer *buf, int w, int h, edgel_cpu_map *map);

/* Pushes the strong pixels of map row y (scanning 8 bytes at a time: few are strong). */
void edgel_cpu_push_strong(const edgel_cpu_map *map, int y, edgel_offset_stack *stack);

/* Grows edges from the stack inside rows [y0, y1) of a stripe. Returns 0 when out of memory. */
int edgel_cpu_grow_stripe(const edgel_cpu_map *map, edgel_offset_stack *stack, int y0, int y1);

/* Grows across the borders above rows borders[0 .. nborders - 1] (between segments of rows
 * that have each grown inside), the borders on up to `threads` threads; across the borders
 * of `nstripes` stripes (edgel_stripe). Return 0 when out of memory. */
int edgel_cpu_grow_across(int threads, const edgel_cpu_map *map, const int *borders, int nborders);
int edgel_cpu_grow_across_stripes(int threads, const edgel_cpu_map *map, int nstripes);

/* edges: u8 255/0, bool 1/0 or f32 1/0 from STRONG. */
void edgel_cpu_write_edges(int threads, const edgel_cpu_map *map, const edgel_image *edges);

/* The tiled driver's marks of a tile (core/backend.h, canny_marks) from its class map
 * (EDGEL_SUPPRESSED_* bytes, rows `pitch` apart): two hysteresis runs, the second with the
 * candidates on the tile's sides strong; `sides`: its left column's marks, then its right's. */
edgel_status edgel_cpu_tile_marks(int threads, edgel_cpu_buffer *buf, const uint8_t *classes,
                                  size_t pitch, const edgel_image *marks, uint8_t *sides);

#endif
