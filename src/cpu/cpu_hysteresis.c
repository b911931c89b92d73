/* Hysteresis over a stripe-filled map (see cpu_hysteresis.h). */
#include "cpu/cpu_hysteresis.h"
#include "core/host_pool.h"
#include "core/image.h"
#include "core/opencv_math.h"
#include "core/status.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void edgel_stack_grow(edgel_offset_stack *s)
{
    size_t cap = s->cap ? s->cap * 2 : 4096;
    uint32_t *items = realloc(s->items, cap * sizeof *items);
    if (!items) {
        s->failed = 1;
        return;
    }
    s->items = items;
    s->cap = cap;
}

edgel_status edgel_cpu_map_init(edgel_cpu_buffer *buf, int w, int h, edgel_cpu_map *map)
{
    map->w = w;
    map->h = h;
    map->step = (size_t)w + 2;
    map->data = edgel_cpu_buffer_reserve(buf, map->step * (size_t)(h + 2));
    if (!map->data)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the hysteresis map");
    memset(map->data, EDGEL_MAP_NONE, map->step);
    memset(map->data + map->step * (size_t)(h + 1), EDGEL_MAP_NONE, map->step);
    for (int y = 0; y < h; y++) {
        edgel_map_row(map, y)[-1] = EDGEL_MAP_NONE;
        edgel_map_row(map, y)[w] = EDGEL_MAP_NONE;
    }
    return EDGEL_OK;
}

/* Bit i set where byte i of the 8 at p is EDGEL_MAP_STRONG (2, the only map value with bit 1
 * set): each byte's bit 1 moved to bit 8i, then gathered into the top byte by one multiply. */
static inline uint32_t strong_bits8(const uint8_t *p)
{
    uint64_t word;
    memcpy(&word, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word); /* byte i at bits 8i */
#endif
    return (uint32_t)((((word >> 1) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

/* The strong pixels of a row onto the stack, 64 at a time from a bit mask: a branch a set
 * bit, none a pixel (those of a byte-by-byte scan mispredict where edges are sparse). */
void edgel_cpu_push_strong(const edgel_cpu_map *map, int y, edgel_offset_stack *stack)
{
    const uint8_t *row = edgel_map_row(map, y);
    const uint32_t offset = (uint32_t)(row - map->data);
    const int w = map->w;
    int x = 0;
    for (; x + 64 <= w; x += 64) {
        uint64_t strong = 0;
        for (int i = 0; i < 8; i++)
            strong |= (uint64_t)strong_bits8(row + x + 8 * i) << (8 * i);
        for (; strong; strong &= strong - 1)
            edgel_stack_push(stack, offset + (uint32_t)(x + __builtin_ctzll(strong)));
    }
    for (; x < w; x++)
        if (row[x] == EDGEL_MAP_STRONG)
            edgel_stack_push(stack, offset + (uint32_t)x);
}

/* Grows edges from the stack through weak pixels. With bounds, a pixel on the stripe's first
 * row (offset < first_end) does not look up, one on its last row (offset >= last_start)
 * does not look down. Shared (the joins across stripe borders, several at once): the map is
 * read with atomic loads and a weak pixel claimed by compare-and-swap, so each is marked and
 * grown from once, whichever join reaches it. Marks only turn WEAK into STRONG, so the result
 * is the closure whatever the order. Inlined with `shared` constant. */
static inline __attribute__((always_inline)) int grow_from(const edgel_cpu_map *map,
                                                           edgel_offset_stack *stack, int bounded,
                                                           uint32_t first_end, uint32_t last_start,
                                                           const int shared)
{
    uint8_t *base = map->data;
    const ptrdiff_t step = (ptrdiff_t)map->step;
    const ptrdiff_t nb[8] = {-step - 1, -step, -step + 1, -1, 1, step - 1, step, step + 1};
    while (stack->len > 0 && !stack->failed) {
        const uint32_t off = stack->items[--stack->len];
        /* The weak neighbours as a bit mask, without branches (a branch a neighbour
         * mispredicts); neighbours 0-2 are the row above, 5-7 the row below. On a stripe's
         * first or last row the row beyond is another thread's, being written: not read. */
        uint32_t weak = 0;
        if (bounded && (off < first_end || off >= last_start)) {
            const int first = off < first_end ? 3 : 0, last = off >= last_start ? 5 : 8;
            for (int i = first; i < last; i++)
                weak |= (uint32_t)(base[(ptrdiff_t)off + nb[i]] == EDGEL_MAP_WEAK) << i;
        } else {
            for (int i = 0; i < 8; i++) {
                uint8_t *q = base + (ptrdiff_t)off + nb[i];
                const uint8_t v = shared ? __atomic_load_n(q, __ATOMIC_RELAXED) : *q;
                weak |= (uint32_t)(v == EDGEL_MAP_WEAK) << i;
            }
        }
        for (; weak; weak &= weak - 1) {
            const uint32_t q = (uint32_t)((ptrdiff_t)off + nb[__builtin_ctz(weak)]);
            uint8_t expected = EDGEL_MAP_WEAK;
            if (!shared)
                base[q] = EDGEL_MAP_STRONG;
            else if (!__atomic_compare_exchange_n(base + q, &expected, (uint8_t)EDGEL_MAP_STRONG, 0,
                                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                continue; /* another join marked it */
            edgel_stack_push(stack, q);
        }
    }
    return !stack->failed;
}

int edgel_cpu_grow_stripe(const edgel_cpu_map *map, edgel_offset_stack *stack, int y0, int y1)
{
    return grow_from(map, stack, 1, (uint32_t)(edgel_map_row(map, y0 + 1) - map->data - 1),
                     (uint32_t)(edgel_map_row(map, y1 - 1) - map->data - 1), 0);
}

typedef struct across_job {
    const edgel_cpu_map *map;
    const int *borders;
    atomic_int failed;
} across_job;

/* The join across border i (above row borders[i]): growth from the strong pixels of the rows
 * on either side (read atomically: other joins may be marking them). */
static void grow_across_border(void *arg, int i)
{
    across_job *job = arg;
    const edgel_cpu_map *map = job->map;
    edgel_offset_stack stack = {0};
    for (int y = job->borders[i] - 1; y <= job->borders[i]; y++) {
        uint8_t *row = edgel_map_row(map, y);
        for (int x = 0; x < map->w; x++)
            if (__atomic_load_n(row + x, __ATOMIC_RELAXED) == EDGEL_MAP_STRONG)
                edgel_stack_push(&stack, (uint32_t)(row + x - map->data));
    }
    if (!grow_from(map, &stack, 0, 0, 0, 1))
        atomic_store(&job->failed, 1);
    free(stack.items);
}

int edgel_cpu_grow_across(int threads, const edgel_cpu_map *map, const int *borders, int nborders)
{
    across_job job = {map, borders, 0};
    edgel_host_parallel_for(threads, nborders, grow_across_border, &job);
    return !atomic_load(&job.failed);
}

int edgel_cpu_grow_across_stripes(int threads, const edgel_cpu_map *map, int nstripes)
{
    int local[64], *borders = nstripes <= 64 ? local : malloc(sizeof(int) * (size_t)nstripes);
    if (!borders)
        return 0;
    for (int i = 1; i < nstripes; i++) {
        int y1;
        edgel_stripe(i, nstripes, map->h, &borders[i - 1], &y1);
    }
    const int ok = edgel_cpu_grow_across(threads, map, borders, nstripes - 1);
    if (borders != local)
        free(borders);
    return ok;
}

typedef struct edges_job {
    const edgel_cpu_map *map;
    const edgel_image *edges;
} edges_job;

static void write_edges_row(void *arg, int y)
{
    const edges_job *job = arg;
    const edgel_cpu_map *map = job->map;
    const edgel_image *edges = job->edges;
    const int w = map->w;
    {
        const uint8_t *m = edgel_map_row(map, y);
        if (edges->type == EDGEL_F32) {
            float *e = (float *)edgel_row_u8(edges, y);
            for (int x = 0; x < w; x++)
                e[x] = m[x] == EDGEL_MAP_STRONG ? 1.0f : 0.0f;
        } else if (edges->type == EDGEL_BOOL) {
            uint8_t *e = edgel_row_u8(edges, y);
            for (int x = 0; x < w; x++)
                e[x] = (uint8_t)(m[x] >> 1); /* 2 -> 1; 0, 1 -> 0 */
        } else {
            uint8_t *e = edgel_row_u8(edges, y);
            for (int x = 0; x < w; x++)
                e[x] = (uint8_t)(-(m[x] >> 1)); /* 2 -> 255; 0, 1 -> 0 */
        }
    }
}

void edgel_cpu_write_edges(int threads, const edgel_cpu_map *map, const edgel_image *edges)
{
    edges_job job = {map, edges};
    edgel_host_parallel_for(threads, map->h, write_edges_row, &job);
}

/* ---- hysteresis over a class map, for the tiled driver's marks -------------------------- */

typedef struct marks_job {
    const uint8_t *classes;
    size_t pitch;
    const edgel_cpu_map *map;
    const edgel_image *marks;
    uint8_t *side_columns;
    int nstripes, sides, combine;
    atomic_int failed;
} marks_job;

/* Stripe i: the map's rows from the classes (with `sides`, the candidates on the map's
 * sides strong), then growth inside the stripe. */
static void marks_stripe(void *arg, int i)
{
    marks_job *job = arg;
    const edgel_cpu_map *map = job->map;
    const int w = map->w, h = map->h;
    int y0, y1;
    edgel_stripe(i, job->nstripes, h, &y0, &y1);
    edgel_offset_stack stack = {0};
    for (int y = y0; y < y1; y++) {
        const uint8_t *c = job->classes + (size_t)y * job->pitch;
        uint8_t *m = edgel_map_row(map, y);
        for (int x = 0; x < w; x++)
            m[x] = edgel_suppressed_to_map(c[x]);
        if (job->sides) {
            const int all = y == 0 || y == h - 1;
            for (int x = 0; x < w; x += all ? 1 : (w > 1 ? w - 1 : 1))
                if (m[x] == EDGEL_MAP_WEAK)
                    m[x] = EDGEL_MAP_STRONG;
        }
        edgel_cpu_push_strong(map, y, &stack);
    }
    if (!edgel_cpu_grow_stripe(map, &stack, y0, y1))
        atomic_store(&job->failed, 1);
    free(stack.items);
}

/* Row y of the marks: 255/0 from the map, or (combine) 255 kept, else 128 where reached. */
static void marks_row(void *arg, int y)
{
    const marks_job *job = arg;
    const uint8_t *m = edgel_map_row(job->map, y);
    uint8_t *e = edgel_row_u8(job->marks, y);
    const int w = job->map->w;
    for (int x = 0; x < w; x++)
        e[x] = job->combine ? (e[x] ? 255 : m[x] == EDGEL_MAP_STRONG ? 128 : 0)
                            : (uint8_t)(m[x] == EDGEL_MAP_STRONG ? 255 : 0);
    if (job->combine) {
        job->side_columns[y] = e[0];
        job->side_columns[job->map->h + y] = e[w - 1];
    }
}

static edgel_status class_hysteresis(int threads, edgel_cpu_buffer *buf, marks_job *job)
{
    edgel_cpu_map map;
    const edgel_image *marks = job->marks;
    EDGEL_TRY(edgel_cpu_map_init(buf, marks->width, marks->height, &map));
    job->map = &map;
    job->nstripes = threads < edgel_host_cores() ? threads : edgel_host_cores();
    job->nstripes = job->nstripes < marks->height ? job->nstripes : marks->height;
    atomic_init(&job->failed, 0);
    edgel_host_parallel_for(threads, job->nstripes, marks_stripe, job);
    if (atomic_load(&job->failed) || !edgel_cpu_grow_across_stripes(threads, &map, job->nstripes))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory during hysteresis");
    edgel_host_parallel_for(threads, marks->height, marks_row, job);
    return EDGEL_OK;
}

edgel_status edgel_cpu_tile_marks(int threads, edgel_cpu_buffer *buf, const uint8_t *classes,
                                  size_t pitch, const edgel_image *marks, uint8_t *sides)
{
    marks_job job = {.classes = classes, .pitch = pitch, .marks = marks, .side_columns = sides};
    EDGEL_TRY(class_hysteresis(threads, buf, &job));
    job.sides = 1, job.combine = 1;
    return class_hysteresis(threads, buf, &job);
}
