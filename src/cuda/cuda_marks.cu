/*
 * The tiled driver's marks on the GPU (core/backend.h, canny_marks): for each tile, its
 * region goes up, the backend's own pipeline gives the region's classes, and two class
 * hysteresis runs over the tile (the second with the candidates on the tile's sides strong)
 * give the marks, which come down with their side columns. Three streams overlap the copies with the work: regions go
 * up on one, marks come down on another, and the work runs on the context's stream, two
 * buffers each so that tile i+1 goes up while tile i is worked on and tile i-1 comes down.
 * A call (a row of tiles) returns once the previous call's marks are down, its own still
 * going: the streams never drain between rows (a drain cost two tiles' time a row).
 */
#include "cuda/cuda_backend.h"

#include <cuda_runtime.h>
#include <string.h>

#include "core/backend.h"
#include "core/image.h"
#include "core/opencv_math.h"
#include "core/status.h"
#include "cuda/cuda_internal.h"

/* The tiled driver's marks (cuda_marks.cu): two region, marks and side buffers, the region's
 * classes and edges, three tile-sized work maps; events between its three streams. A call
 * returns with its copies under way (`pending`); the next call, or the wait, finishes it. */
struct marks_buffers {
    uint8_t *region[2], *marks[2], *sides[2], *classes, *edges, *work;
    size_t region_bytes[2], marks_bytes[2], sides_bytes[2], classes_bytes, edges_bytes, work_bytes;
    uint8_t *host_sides; /* page-locked, two calls' halves: side columns come down unwaited */
    size_t host_sides_bytes;
    cudaEvent_t up[2], worked[2], down[2], call_done[2];
    int events_made;
    unsigned tiles, calls;      /* tiles and calls so far: their buffers alternate */
    int pending;                /* the last call's copies may still run */
    int pending_call;           /* its call_done event */
    int pending_count;          /* its tiles, their side arrays and heights */
    uint8_t **pending_sides;
    int *pending_heights;
    int pending_cap;
    const uint8_t *pending_from; /* its half of host_sides, a tile every pending_step bytes */
    size_t pending_step;
};

/* A tile's classes as the class hysteresis reads them (EDGEL_MAP_* bytes, rows `out_pitch`
 * apart, a multiple of 4): as they are, and with the candidates on the tile's sides strong.
 * `suppressed`: the source holds the opencv preset's suppressed stage (EDGEL_SUPPRESSED_*
 * bytes), else EDGEL_MAP_* bytes. Four pixels a thread, stored as a word. */
__global__ static void tile_classes(const uint8_t *src, size_t pitch, bool suppressed,
                                    uint8_t *alone, uint8_t *seeded, size_t out_pitch, int w,
                                    int h)
{
    const int x0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x), y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= w || y >= h)
        return;
    uint32_t a = 0, s = 0;
    for (int i = 0; i < 4; i++) {
        const int x = x0 + i;
        uint8_t c = EDGEL_MAP_NONE;
        if (x < w) {
            c = src[(size_t)y * pitch + x];
            if (suppressed)
                c = edgel_suppressed_to_map(c);
        }
        const bool side = x == 0 || y == 0 || x == w - 1 || y == h - 1;
        a |= (uint32_t)c << (8 * i);
        s |= (uint32_t)(side && c == EDGEL_MAP_WEAK ? EDGEL_MAP_STRONG : c) << (8 * i);
    }
    *(uint32_t *)(alone + (size_t)y * out_pitch + x0) = a;
    *(uint32_t *)(seeded + (size_t)y * out_pitch + x0) = s;
}

/* 255 where the tile alone makes an edge, 128 where its sides reach, 0 elsewhere: a word at
 * a time (edges are 255 or 0 bytes). */
__global__ static void combine_marks(const uint32_t *alone, const uint32_t *sides, uint32_t *marks,
                                     size_t words)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        marks[i] = alone[i] | (sides[i] & 0x80808080u);
}

/* Rows of a tile's work maps: a multiple of 4 bytes, for word stores. */
static size_t marks_pitch(int w) { return ((size_t)w + 3) & ~(size_t)3; }

/* A tile's left column of marks, then its right column. */
__global__ static void side_columns(const uint8_t *marks, size_t pitch, int w, int h, uint8_t *sides)
{
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y < h) {
        sides[y] = marks[(size_t)y * pitch];
        sides[h + y] = marks[(size_t)y * pitch + w - 1];
    }
}

static edgel_status grow(void **p, size_t *have, size_t bytes)
{
    if (*have >= bytes)
        return EDGEL_OK;
    cudaFree(*p);
    *p = NULL;
    *have = 0;
    CUDA_TRY(cudaMalloc(p, bytes));
    CUDA_TRY(cudaMemset(*p, 0, bytes)); /* the rows' padding is read, never written, by combine_marks */
    *have = bytes;
    return EDGEL_OK;
}

static edgel_status ensure_marks_buffers(marks_buffers *m, size_t region_bytes, size_t region_px,
                                         size_t tile_px, size_t tile_h, size_t host_sides)
{
    for (int i = 0; i < 2; i++) {
        EDGEL_TRY(grow((void **)&m->region[i], &m->region_bytes[i], region_bytes));
        EDGEL_TRY(grow((void **)&m->marks[i], &m->marks_bytes[i], tile_px));
        EDGEL_TRY(grow((void **)&m->sides[i], &m->sides_bytes[i], 2 * tile_h));
    }
    if (m->host_sides_bytes < host_sides) {
        cudaFreeHost(m->host_sides);
        m->host_sides = NULL;
        m->host_sides_bytes = 0;
        CUDA_TRY(cudaMallocHost(&m->host_sides, host_sides));
        m->host_sides_bytes = host_sides;
    }
    EDGEL_TRY(grow((void **)&m->classes, &m->classes_bytes, region_px));
    EDGEL_TRY(grow((void **)&m->edges, &m->edges_bytes, region_px));
    EDGEL_TRY(grow((void **)&m->work, &m->work_bytes, 4 * tile_px));
    if (!m->events_made) {
        for (int i = 0; i < 2; i++) {
            CUDA_TRY(cudaEventCreateWithFlags(&m->up[i], cudaEventDisableTiming));
            CUDA_TRY(cudaEventCreateWithFlags(&m->worked[i], cudaEventDisableTiming));
            CUDA_TRY(cudaEventCreateWithFlags(&m->down[i], cudaEventDisableTiming));
            CUDA_TRY(cudaEventCreateWithFlags(&m->call_done[i], cudaEventDisableTiming));
        }
        m->events_made = 1;
    }
    return EDGEL_OK;
}

void release_marks_buffers(marks_buffers *m)
{
    for (int i = 0; i < 2; i++) {
        cudaFree(m->region[i]);
        cudaFree(m->marks[i]);
        cudaFree(m->sides[i]);
        if (m->events_made) {
            cudaEventDestroy(m->up[i]);
            cudaEventDestroy(m->worked[i]);
            cudaEventDestroy(m->down[i]);
            cudaEventDestroy(m->call_done[i]);
        }
    }
    free(m->pending_sides);
    free(m->pending_heights);
    cudaFreeHost(m->host_sides);
    cudaFree(m->classes);
    cudaFree(m->edges);
    cudaFree(m->work);
    memset(m, 0, sizeof *m);
}

/* The region's classes (packed, pitch rw) on the context's stream: the backend's pipeline on
 * the device copy of the region; the opencv preset's suppressed stage, the itk preset's map. */
static edgel_status region_classes(edgel_cuda_state *s, const edgel_canny_params *p,
                                   const edgel_image *region, const uint8_t *d_region,
                                   const uint8_t **classes)
{
    const int rw = region->width, rh = region->height;
    edgel_image src = *region;
    src.data = (void *)d_region;
    src.pitch = edgel_row_bytes(region);
    src.memory = EDGEL_MEMORY_DEVICE;
    edgel_image edges = {s->marks->edges, rw, rh, (size_t)rw, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    if (p->preset == EDGEL_PRESET_ITK) { /* (its edges are a small part of its time) */
        EDGEL_TRY(edgel_cuda_canny_itk(s, p, &src, &edges, NULL));
        *classes = itk_last_classes(s); /* its classes, packed */
        return EDGEL_OK;
    }
    edgel_image sup = {s->marks->classes, rw, rh, (size_t)rw, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    edgel_canny_stages stages;
    memset(&stages, 0, sizeof stages);
    stages.suppressed = &sup;
    edges.data = NULL; /* the stages only: no hysteresis over the region */
    EDGEL_TRY(edgel_cuda_canny(s, p, &src, &edges, 1, &stages));
    *classes = s->marks->classes;
    return EDGEL_OK;
}

/* The marks of one tile into `marks` (rows marks_pitch(width) apart), on the context's
 * stream. */
static edgel_status tile_marks(edgel_cuda_state *s, const uint8_t *classes, size_t pitch,
                               bool suppressed, const edgel_tile_rect *t, uint8_t *marks)
{
    cudaStream_t stream = s->stream;
    const int w = t->width, h = t->height;
    const size_t p4 = marks_pitch(w), n = p4 * h;
    uint8_t *alone = s->marks->work, *seeded = alone + n, *e_alone = seeded + n, *e_sides = e_alone + n;
    const uint8_t *tile = classes + (size_t)t->y * pitch + (size_t)t->x;
    const dim3 block(32, 8), grid((unsigned)((p4 / 4 + 31) / 32), (h + 7) / 8);
    tile_classes<<<grid, block, 0, stream>>>(tile, pitch, suppressed, alone, seeded, p4, w, h);
    EDGEL_TRY(launch_class_hysteresis(stream, &s->ws, alone, p4, e_alone, p4, w, h));
    EDGEL_TRY(launch_class_hysteresis(stream, &s->ws, seeded, p4, e_sides, p4, w, h));
    const size_t words = n / 4, blocks = (words + 255) / 256;
    combine_marks<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, stream>>>(
        (const uint32_t *)e_alone, (const uint32_t *)e_sides, (uint32_t *)marks, words);
    CUDA_TRY(cudaGetLastError());
    return EDGEL_OK;
}

static edgel_status marks_item(edgel_cuda_state *s, const edgel_canny_params *p,
                               const edgel_image *region, const edgel_tile_rect *tile,
                               const edgel_image *marks, uint8_t *sides, int b)
{
    marks_buffers *m = s->marks;
    cudaStream_t up = s->slots[0].stream, down = s->slots[1].stream;
    const size_t row = edgel_row_bytes(region);
    /* up: once the work two tiles ago has read this buffer */
    CUDA_TRY(cudaStreamWaitEvent(up, m->worked[b], 0));
    CUDA_TRY(cudaMemcpy2DAsync(m->region[b], row, region->data, region->pitch, row,
                               region->height, cudaMemcpyHostToDevice, up));
    CUDA_TRY(cudaEventRecord(m->up[b], up));
    /* work: once it is up and the marks two tiles ago are down */
    CUDA_TRY(cudaStreamWaitEvent(s->stream, m->up[b], 0));
    CUDA_TRY(cudaStreamWaitEvent(s->stream, m->down[b], 0));
    const uint8_t *classes;
    EDGEL_TRY(region_classes(s, p, region, m->region[b], &classes));
    EDGEL_TRY(tile_marks(s, classes, (size_t)region->width, p->preset != EDGEL_PRESET_ITK, tile,
                         m->marks[b]));
    side_columns<<<(tile->height + 255) / 256, 256, 0, s->stream>>>(
        m->marks[b], marks_pitch(tile->width), tile->width, tile->height, m->sides[b]);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventRecord(m->worked[b], s->stream));
    /* down */
    CUDA_TRY(cudaStreamWaitEvent(down, m->worked[b], 0));
    CUDA_TRY(cudaMemcpy2DAsync(marks->data, marks->pitch, m->marks[b], marks_pitch(tile->width),
                               (size_t)tile->width, tile->height, cudaMemcpyDeviceToHost, down));
    CUDA_TRY(cudaMemcpyAsync(sides, m->sides[b], 2 * (size_t)tile->height, cudaMemcpyDeviceToHost,
                             down));
    CUDA_TRY(cudaEventRecord(m->down[b], down));
    return EDGEL_OK;
}

/* Whether the buffers hold tiles of these sizes without growing (growing frees buffers that
 * a pending call's copies may still use). */
static bool marks_fit(const marks_buffers *m, size_t region_bytes, size_t region_px,
                      size_t tile_px, size_t tile_h, size_t host_sides)
{
    return m->events_made && m->region_bytes[0] >= region_bytes &&
           m->region_bytes[1] >= region_bytes && m->marks_bytes[0] >= tile_px &&
           m->marks_bytes[1] >= tile_px && m->sides_bytes[0] >= 2 * tile_h &&
           m->sides_bytes[1] >= 2 * tile_h && m->host_sides_bytes >= host_sides &&
           m->classes_bytes >= region_px && m->edges_bytes >= region_px &&
           m->work_bytes >= 4 * tile_px;
}

/* The pending call finished: its copies waited for, its side columns handed over. With
 * `drop` (after a failure), every stream waited for and nothing handed over. */
static edgel_status finish_pending(edgel_cuda_state *s, bool drop)
{
    marks_buffers *m = s->marks;
    if (!m || !m->pending)
        return EDGEL_OK;
    m->pending = 0;
    cudaError_t e = drop ? cudaSuccess : cudaEventSynchronize(m->call_done[m->pending_call]);
    if (drop || e != cudaSuccess) { /* nothing of the call's may still be moving after this */
        const cudaError_t e1 = cudaStreamSynchronize(s->slots[1].stream);
        const cudaError_t e2 = cudaStreamSynchronize(s->stream);
        const cudaError_t e3 = cudaStreamSynchronize(s->slots[0].stream);
        e = e != cudaSuccess ? e : e1 != cudaSuccess ? e1 : e2 != cudaSuccess ? e2 : e3;
    }
    if (e != cudaSuccess)
        return edgel_fail(EDGEL_ERROR_DEVICE, "tiled Canny: %s", cudaGetErrorString(e));
    if (!drop)
        for (int i = 0; i < m->pending_count; i++)
            memcpy(m->pending_sides[i], m->pending_from + m->pending_step * (size_t)i,
                   2 * (size_t)m->pending_heights[i]);
    return EDGEL_OK;
}

/* Notes this call's tiles as pending (its side arrays and heights). */
static edgel_status note_pending(marks_buffers *m, const edgel_tile_rect *tiles,
                                 uint8_t *const *sides, int count, const uint8_t *from,
                                 size_t step)
{
    if (m->pending_cap < count) {
        uint8_t **ps = (uint8_t **)realloc(m->pending_sides, sizeof *ps * (size_t)count);
        if (ps)
            m->pending_sides = ps;
        int *ph = (int *)realloc(m->pending_heights, sizeof *ph * (size_t)count);
        if (ph)
            m->pending_heights = ph;
        if (!ps || !ph)
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "tiled Canny: out of memory");
        m->pending_cap = count;
    }
    for (int i = 0; i < count; i++) {
        m->pending_sides[i] = sides[i];
        m->pending_heights[i] = tiles[i].height;
    }
    m->pending_count = count;
    m->pending_from = from;
    m->pending_step = step;
    m->pending = 1;
    return EDGEL_OK;
}

extern "C" edgel_status edgel_cuda_canny_marks_wait(edgel_cuda_state *s)
{
    ON_DEVICE(s->device);
    return finish_pending(s, false);
}

extern "C" edgel_status edgel_cuda_canny_marks(edgel_cuda_state *s, const edgel_canny_params *p,
                                               const edgel_image *regions,
                                               const edgel_tile_rect *tiles,
                                               const edgel_image *marks,
                                               uint8_t *const *sides, int count)
{
    ON_DEVICE(s->device);
    EDGEL_TRY(feature_state(&s->marks, "the tiled driver's buffers"));
    marks_buffers *m = s->marks;
    size_t region_bytes = 0, region_px = 0, tile_px = 0, tile_h = 0;
    for (int i = 0; i < count; i++) {
        const size_t rpx = (size_t)regions[i].width * regions[i].height;
        const size_t rb = edgel_row_bytes(&regions[i]) * regions[i].height;
        const size_t tpx = marks_pitch(tiles[i].width) * tiles[i].height;
        region_bytes = rb > region_bytes ? rb : region_bytes;
        region_px = rpx > region_px ? rpx : region_px;
        tile_px = tpx > tile_px ? tpx : tile_px;
        tile_h = (size_t)tiles[i].height > tile_h ? (size_t)tiles[i].height : tile_h;
    }
    const size_t half = 2 * tile_h * (size_t)count; /* this call's side columns */
    if (!marks_fit(m, region_bytes, region_px, tile_px, tile_h, 2 * half)) {
        EDGEL_TRY(finish_pending(s, false));
        EDGEL_TRY(ensure_marks_buffers(m, region_bytes, region_px, tile_px, tile_h, 2 * half));
    }
    uint8_t *from = m->host_sides + (m->calls & 1) * (m->host_sides_bytes / 2);
    edgel_status st = EDGEL_OK;
    for (int i = 0; i < count && st == EDGEL_OK; i++) /* the work in order on one stream */
        st = marks_item(s, p, &regions[i], &tiles[i], &marks[i], from + 2 * tile_h * (size_t)i,
                        (int)(m->tiles++ & 1));
    const int parity = (int)(m->calls++ & 1);
    if (st == EDGEL_OK) {
        const cudaError_t e = cudaEventRecord(m->call_done[parity], s->slots[1].stream);
        if (e != cudaSuccess)
            st = edgel_fail(EDGEL_ERROR_DEVICE, "tiled Canny: %s", cudaGetErrorString(e));
    }
    if (st == EDGEL_OK)
        st = finish_pending(s, false); /* the previous call's */
    if (st != EDGEL_OK) { /* this call's work and any before it: waited for, not handed over */
        m->pending = 1;
        finish_pending(s, true);
        return st;
    }
    m->pending_call = parity;
    st = note_pending(m, tiles, sides, count, from, 2 * tile_h);
    if (st != EDGEL_OK) {
        m->pending = 1;
        finish_pending(s, true);
    }
    return st;
}
