/* Volume views (core/volume.h). */
#include "core/volume.h"

#include "core/image.h"
#include "core/status.h"

edgel_volume edgel_volume_host(void *data, int32_t width, int32_t height, int32_t depth,
                               edgel_pixel_type type)
{
    const size_t pitch = (size_t)(width > 0 ? width : 0) * edgel_pixel_size(type);
    const edgel_volume v = {data, width, height, depth, pitch,
                            pitch * (size_t)(height > 0 ? height : 0), type, EDGEL_MEMORY_HOST};
    return v;
}

static size_t row_bytes(const edgel_volume *v)
{
    return (size_t)v->width * edgel_pixel_size(v->type);
}

edgel_status edgel_check_volume(const edgel_volume *v, const char *name, unsigned type_mask,
                                edgel_memory memory)
{
    if (!v)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s: volume view is NULL", name);
    if (!v->data)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s: data pointer is NULL", name);
    if (v->width <= 0 || v->height <= 0 || v->depth <= 0)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "%s: size %dx%dx%d must be at least 1x1x1",
                          name, (int)v->width, (int)v->height, (int)v->depth);
    if (v->width > EDGEL_MAX_DIMENSION || v->height > EDGEL_MAX_DIMENSION ||
        v->depth > EDGEL_MAX_DIMENSION ||
        (int64_t)v->width * v->height > EDGEL_MAX_VOXELS / v->depth)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "%s: size %dx%dx%d exceeds the maximum (%d per side, %lld voxels)",
                          name, (int)v->width, (int)v->height, (int)v->depth,
                          EDGEL_MAX_DIMENSION, (long long)EDGEL_MAX_VOXELS);
    if (edgel_pixel_size(v->type) == 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s: unknown pixel type %d", name,
                          (int)v->type);
    if (!(type_mask & (1u << v->type)))
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "%s: pixel type %s not accepted here", name,
                          edgel_type_name(v->type));
    const size_t item = edgel_pixel_size(v->type);
    if ((uintptr_t)v->data % item || v->pitch % item || v->slice_pitch % item)
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: the data pointer and pitches must be "
                          "multiples of the voxel size (%zu bytes)", name, item);
    if (v->pitch < row_bytes(v))
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: pitch %zu is less than a row (%zu "
                          "bytes)", name, v->pitch, row_bytes(v));
    if ((size_t)(v->height - 1) > (SIZE_MAX - row_bytes(v)) / v->pitch)
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: pitch %zu overflows the address space",
                          name, v->pitch);
    const size_t slice = v->pitch * (size_t)(v->height - 1) + row_bytes(v);
    if (v->slice_pitch < slice)
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: slice pitch %zu is less than a slice "
                          "(%zu bytes)", name, v->slice_pitch, slice);
    if ((size_t)(v->depth - 1) > (SIZE_MAX - slice) / v->slice_pitch)
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "%s: slice pitch %zu overflows the address "
                          "space", name, v->slice_pitch);
    if (v->memory != memory)
        return edgel_fail(memory == EDGEL_MEMORY_HOST ? EDGEL_ERROR_UNSUPPORTED
                                                      : EDGEL_ERROR_INVALID_ARGUMENT,
                          "%s: %s memory expected", name,
                          memory == EDGEL_MEMORY_HOST ? "host" : "device");
    return EDGEL_OK;
}

edgel_status edgel_check_same_volume_size(const edgel_volume *a, const char *name_a,
                                          const edgel_volume *b, const char *name_b)
{
    if (a->width != b->width || a->height != b->height || a->depth != b->depth)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "%s is %dx%dx%d but %s is %dx%dx%d", name_b,
                          (int)b->width, (int)b->height, (int)b->depth, name_a, (int)a->width,
                          (int)a->height, (int)a->depth);
    return EDGEL_OK;
}

static uintptr_t end_of(const edgel_volume *v)
{
    return (uintptr_t)v->data + v->slice_pitch * (size_t)(v->depth - 1) +
           v->pitch * (size_t)(v->height - 1) + row_bytes(v);
}

bool edgel_volumes_overlap(const edgel_volume *a, const edgel_volume *b)
{
    return (uintptr_t)a->data < end_of(b) && (uintptr_t)b->data < end_of(a);
}
