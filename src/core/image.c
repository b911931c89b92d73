/* Validation of image views: every public entry point checks its views here first. */
#include "core/image.h"
#include "core/status.h"

#include <stdint.h>
#include <stdlib.h>

size_t edgel_pixel_size(edgel_pixel_type type)
{
    switch (type) {
    case EDGEL_U8: return 1;
    case EDGEL_U16: return 2;
    case EDGEL_S16: return 2;
    case EDGEL_S32: return 4;
    case EDGEL_F32: return 4;
    case EDGEL_F64: return 8;
    case EDGEL_BOOL: return 1;
    }
    return 0;
}

edgel_image edgel_image_host(void *data, int32_t width, int32_t height, edgel_pixel_type type,
                             int32_t channels)
{
    edgel_image img = {data, width, height, 0, type, channels, EDGEL_MEMORY_HOST};
    size_t px = edgel_pixel_size(type);
    if (width > 0 && channels > 0 && px > 0 && width <= EDGEL_MAX_TILED_DIMENSION && channels <= 4)
        img.pitch = (size_t)width * (size_t)channels * px;
    return img;
}

const char *edgel_type_name(edgel_pixel_type t)
{
    switch (t) {
    case EDGEL_U8: return "u8";
    case EDGEL_U16: return "u16";
    case EDGEL_S16: return "s16";
    case EDGEL_S32: return "s32";
    case EDGEL_F32: return "f32";
    case EDGEL_F64: return "f64";
    case EDGEL_BOOL: return "bool";
    }
    return "unknown";
}

size_t edgel_row_bytes(const edgel_image *img)
{
    return (size_t)img->width * (size_t)img->channels * edgel_pixel_size(img->type);
}

edgel_status edgel_check_image(const edgel_image *img, const char *name, edgel_pixel_type type,
                               unsigned channel_mask, edgel_memory memory)
{
    if (!img)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s: image view is NULL", name);
    if (!img->data)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s: data pointer is NULL", name);
    if (img->width <= 0 || img->height <= 0)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "%s: size %dx%d must be at least 1x1", name,
                          (int)img->width, (int)img->height);
    if (img->width > EDGEL_MAX_DIMENSION || img->height > EDGEL_MAX_DIMENSION ||
        (int64_t)img->width * img->height > EDGEL_MAX_PIXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "%s: size %dx%d exceeds the maximum (%d per side, %lld pixels)", name,
                          (int)img->width, (int)img->height, EDGEL_MAX_DIMENSION,
                          (long long)EDGEL_MAX_PIXELS);
    if (edgel_pixel_size(img->type) == 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s: unknown pixel type %d", name,
                          (int)img->type);
    if (img->type != type)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "%s: pixel type %s, expected %s", name,
                          edgel_type_name(img->type), edgel_type_name(type));
    if (img->channels < 1 || img->channels > 4 || !(channel_mask & (1u << img->channels)))
        return edgel_fail(img->channels == 1 || img->channels == 3 || img->channels == 4
                              ? EDGEL_ERROR_UNSUPPORTED
                              : EDGEL_ERROR_INVALID_ARGUMENT,
                          "%s: %d channels not accepted here", name, (int)img->channels);
    if (img->pitch < edgel_row_bytes(img))
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: pitch %zu is less than a row (%zu bytes)",
                          name, img->pitch, edgel_row_bytes(img));
    /* The last byte must be addressable: pitch * (height - 1) + row must not wrap. */
    if ((size_t)(img->height - 1) > (SIZE_MAX - edgel_row_bytes(img)) / img->pitch)
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: pitch %zu overflows the address space",
                          name, img->pitch);
    if (img->memory != memory)
        return edgel_fail(memory == EDGEL_MEMORY_HOST ? EDGEL_ERROR_UNSUPPORTED
                                                      : EDGEL_ERROR_INVALID_ARGUMENT,
                          "%s: %s memory expected", name,
                          memory == EDGEL_MEMORY_HOST ? "host" : "device");
    return EDGEL_OK;
}

edgel_status edgel_check_same_size(const edgel_image *a, const char *name_a, const edgel_image *b,
                                   const char *name_b)
{
    if (a->width != b->width || a->height != b->height)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "%s is %dx%d but %s is %dx%d", name_b,
                          (int)b->width, (int)b->height, name_a, (int)a->width, (int)a->height);
    return EDGEL_OK;
}

static uintptr_t end_of(const edgel_image *a)
{
    return (uintptr_t)a->data + a->pitch * (size_t)(a->height - 1) + edgel_row_bytes(a);
}

bool edgel_images_overlap(const edgel_image *a, const edgel_image *b)
{
    return (uintptr_t)a->data < end_of(b) && (uintptr_t)b->data < end_of(a);
}

typedef struct span {
    uintptr_t start, end;
    int32_t frame;
    int written;
} span;

static int by_start(const void *pa, const void *pb)
{
    const span *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The two spans seen so far that reach furthest, from different frames. */
typedef struct reach {
    const span *far, *next;
} reach;

static void reach_add(reach *r, const span *s)
{
    if (!r->far || s->end > r->far->end) {
        if (r->far && r->far->frame != s->frame)
            r->next = r->far;
        r->far = s;
    } else if (s->frame != r->far->frame && (!r->next || s->end > r->next->end)) {
        r->next = s;
    }
}

/* A span seen so far, of a frame other than s's, that reaches past s's start; NULL: none. */
static const span *reach_into(const reach *r, const span *s)
{
    const span *o = r->far && r->far->frame != s->frame ? r->far : r->next;
    return o && o->end > s->start ? o : NULL;
}

int edgel_batch_overlap(const edgel_image *srcs, const edgel_image *edges, int32_t count,
                        int32_t *first, int32_t *second)
{
    span *spans = malloc(sizeof *spans * 2 * (size_t)count);
    if (!spans)
        return -1;
    for (int32_t i = 0; i < count; i++) {
        spans[2 * i] = (span){(uintptr_t)srcs[i].data, end_of(&srcs[i]), i, 0};
        spans[2 * i + 1] = (span){(uintptr_t)edges[i].data, end_of(&edges[i]), i, 1};
    }
    qsort(spans, 2 * (size_t)count, sizeof *spans, by_start);
    /* in order of start, a span meets an earlier one exactly when that one ends past its
     * start: written spans meet every earlier span, sources the earlier written ones */
    reach any = {0}, written = {0};
    int found = 0;
    for (size_t k = 0; k < 2 * (size_t)count && !found; k++) {
        const span *s = &spans[k];
        const span *o = reach_into(s->written ? &any : &written, s);
        if (o) {
            *first = o->frame < s->frame ? o->frame : s->frame;
            *second = o->frame < s->frame ? s->frame : o->frame;
            found = 1;
        }
        reach_add(&any, s);
        if (s->written)
            reach_add(&written, s);
    }
    free(spans);
    return found;
}
