/* GPU suite: the chunked paths on a GPU: tiles, and volumes whole and in bricks, equal to the
 * CPU's. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"

/* Tiled Canny on a CUDA context (each tile with its halo through the GPU) equals the CPU's
 * whole-image call, both presets. */
typedef struct tile_mem {
    const uint8_t *src;
    uint8_t *dst;
    int w, px;
} tile_mem;

static edgel_status tile_read(void *user, int64_t x, int64_t y, const edgel_image *d)
{
    const tile_mem *m = user;
    for (int r = 0; r < d->height; r++)
        memcpy((uint8_t *)d->data + (size_t)r * d->pitch,
               m->src + ((size_t)(y + r) * m->w + (size_t)x) * m->px, (size_t)d->width * m->px);
    return EDGEL_OK;
}

static edgel_status tile_write(void *user, int64_t x, int64_t y, const edgel_image *e)
{
    tile_mem *m = user;
    for (int r = 0; r < e->height; r++)
        memcpy(m->dst + (size_t)(y + r) * m->w + (size_t)x,
               (const uint8_t *)e->data + (size_t)r * e->pitch, (size_t)e->width);
    return EDGEL_OK;
}

void test_tiled(const edgel_image *photo, int small)
{
    static const int sizes[][4] = {{300, 200, 64, 48}, {517, 333, 100, 7}, {1920, 1080, 512, 512}};
    for (int si = 0; si < (small ? 1 : 3); si++) /* small: few launches, for the sanitizers */
        for (int preset = 0; preset < 2; preset++) {
            const int w = sizes[si][0], h = sizes[si][1], cn = preset ? 1 : 3;
            void *mem;
            edgel_image src = make_frame(photo, w, h, cn, &mem);
            uint8_t *want = malloc((size_t)w * h), *got = malloc((size_t)w * h);
            edgel_canny_params p;
            edgel_canny_params_default(&p);
            if (preset) {
                p.preset = EDGEL_PRESET_ITK;
                p.variance = 2.0;
                p.high_threshold = 8;
                p.low_threshold = 3;
            } else {
                p.gray = EDGEL_GRAY_RGB;
                p.blur = EDGEL_BLUR_GAUSSIAN;
                p.blur_sigma = 1.4;
            }
            edgel_image d = edgel_image_host(want, w, h, EDGEL_U8, 1);
            CHECK(edgel_canny(cpu, &p, &src, &d, NULL) == EDGEL_OK);
            tile_mem m = {(const uint8_t *)src.data, got, w, cn};
            edgel_tile_io io = {w, h, cn, EDGEL_U8, tile_read, tile_write, &m};
            CHECK(edgel_canny_tiled(gpu, &p, &io, sizes[si][2], sizes[si][3]) == EDGEL_OK);
            size_t first;
            const size_t diff = count_diff(want, got, (size_t)w * h, &first);
            if (diff)
                fprintf(stderr, "tiled %dx%d preset %d on the GPU: %zu pixels differ\n", w, h,
                        preset, diff);
            CHECK(diff == 0);
            /* on views, in page-locked memory (copied by DMA) */
            uint8_t *pinned_src, *pinned_edges;
            const size_t bytes = (size_t)w * h * cn;
            CHECK(cudaHostAlloc((void **)&pinned_src, bytes, 0) == cudaSuccess &&
                  cudaHostAlloc((void **)&pinned_edges, (size_t)w * h, 0) == cudaSuccess);
            for (int y = 0; y < h; y++)
                memcpy(pinned_src + (size_t)y * w * cn, (uint8_t *)src.data + y * src.pitch,
                       (size_t)w * cn);
            edgel_image ps = edgel_image_host(pinned_src, w, h, EDGEL_U8, cn);
            edgel_image pe = edgel_image_host(pinned_edges, w, h, EDGEL_U8, 1);
            CHECK(edgel_canny_tiled_image(gpu, &p, &ps, &pe, sizes[si][2], sizes[si][3]) ==
                  EDGEL_OK);
            const size_t vdiff = count_diff(want, pinned_edges, (size_t)w * h, &first);
            if (vdiff)
                fprintf(stderr, "tiled views %dx%d preset %d on the GPU: %zu pixels differ\n", w,
                        h, preset, vdiff);
            CHECK(vdiff == 0);
            cudaFreeHost(pinned_src), cudaFreeHost(pinned_edges);
            free(want), free(got), free(mem);
        }
}

/* Sub-pixel curves on the GPU equal the CPU's (and so the reference program's), array for
 * array, from host and from device views: photographs, sizes from 1x1 (no points) up, every
 * input type (float images with NaN and infinities), blurs wider than the image. */

static int compare_volume(const edgel_volume *src, const edgel_volume_canny_params *p,
                          edgel_pixel_type edge_type)
{
    const int w = src->width, h = src->height, d = src->depth;
    const size_t n = (size_t)w * h * d, item = edgel_pixel_size(edge_type);
    uint8_t *want = malloc(n * item), *got = malloc(n * item);
    float *sw = malloc(n * 4), *sg = malloc(n * 4), *gw = malloc(n * 4), *gg = malloc(n * 4);
    edgel_volume ew = edgel_volume_host(want, w, h, d, edge_type);
    edgel_volume eg = edgel_volume_host(got, w, h, d, edge_type);
    edgel_volume vsw = edgel_volume_host(sw, w, h, d, EDGEL_F32);
    edgel_volume vsg = edgel_volume_host(sg, w, h, d, EDGEL_F32);
    edgel_volume vgw = edgel_volume_host(gw, w, h, d, EDGEL_F32);
    edgel_volume vgg = edgel_volume_host(gg, w, h, d, EDGEL_F32);
    const edgel_volume_canny_stages stw = {&vgw, &vsw}, stg = {&vgg, &vsg};
    CHECK(edgel_canny_volume(cpu, p, src, &ew, &stw) == EDGEL_OK);
    int same = 1;
    /* host views on the GPU */
    memset(got, 0x33, n * item);
    CHECK(edgel_canny_volume(gpu, p, src, &eg, &stg) == EDGEL_OK);
    same &= !memcmp(want, got, n * item) && !memcmp(sw, sg, n * 4) && !memcmp(gw, gg, n * 4);
    /* device views, pitched */
    const size_t in_item = edgel_pixel_size(src->type);
    edgel_volume ds = *src, de = eg, dsup = vsg;
    ds.pitch = w * in_item + 64, ds.slice_pitch = ds.pitch * h + 128;
    de.pitch = w * item + 32, de.slice_pitch = de.pitch * h;
    dsup.pitch = w * 4 + 16, dsup.slice_pitch = dsup.pitch * h + 16;
    CUDA_CHECK(cudaMalloc(&ds.data, ds.slice_pitch * d));
    CUDA_CHECK(cudaMalloc(&de.data, de.slice_pitch * d));
    CUDA_CHECK(cudaMalloc(&dsup.data, dsup.slice_pitch * d));
    for (int z = 0; z < d; z++)
        CUDA_CHECK(cudaMemcpy2D((uint8_t *)ds.data + z * ds.slice_pitch, ds.pitch,
                                (const uint8_t *)src->data + z * src->slice_pitch, src->pitch,
                                w * in_item, h, cudaMemcpyHostToDevice));
    ds.memory = de.memory = dsup.memory = EDGEL_MEMORY_DEVICE;
    const edgel_volume_canny_stages std = {NULL, &dsup};
    CHECK(edgel_canny_volume(gpu, p, &ds, &de, &std) == EDGEL_OK);
    for (int z = 0; z < d; z++) {
        CUDA_CHECK(cudaMemcpy2D(got + z * (size_t)w * h * item, w * item,
                                (uint8_t *)de.data + z * de.slice_pitch, de.pitch, w * item, h,
                                cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy2D(sg + z * (size_t)w * h, w * 4,
                                (uint8_t *)dsup.data + z * dsup.slice_pitch, dsup.pitch, w * 4,
                                h, cudaMemcpyDeviceToHost));
    }
    same &= !memcmp(want, got, n * item) && !memcmp(sw, sg, n * 4);
    CHECK(edgel_canny_volume(cpu, p, &ds, &de, NULL) != EDGEL_OK); /* device: GPU contexts */
    CUDA_CHECK(cudaFree(ds.data));
    CUDA_CHECK(cudaFree(de.data));
    CUDA_CHECK(cudaFree(dsup.data));
    if (!same)
        fprintf(stderr, "volume %dx%dx%d type %d variance %g/%g/%g: GPU differs\n", w, h, d,
                (int)src->type, p->variance[0], p->variance[1], p->variance[2]);
    CHECK(same);
    free(want), free(got), free(sw), free(sg), free(gw), free(gg);
    return same;
}

/* Bricks on the GPU (edgel_canny_volume_bricks on a CUDA context) equal the CPU's whole
 * volume: boxes read from a packed host volume, edges assembled. */
typedef struct packed_volume {
    const uint8_t *voxels;
    uint8_t *edges;
    int w, h, item;
} packed_volume;

static edgel_status read_packed(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *v)
{
    const packed_volume *s = user;
    for (int k = 0; k < v->depth; k++)
        for (int j = 0; j < v->height; j++)
            memcpy((uint8_t *)v->data + k * v->slice_pitch + j * v->pitch,
                   s->voxels + (((z + k) * s->h + y + j) * s->w + x) * s->item,
                   (size_t)v->width * s->item);
    return EDGEL_OK;
}

static edgel_status write_packed(void *user, int64_t x, int64_t y, int64_t z,
                                 const edgel_volume *e)
{
    packed_volume *s = user;
    for (int k = 0; k < e->depth; k++)
        for (int j = 0; j < e->height; j++)
            memcpy(s->edges + ((z + k) * s->h + y + j) * s->w + x,
                   (const uint8_t *)e->data + k * e->slice_pitch + j * e->pitch,
                   (size_t)e->width);
    return EDGEL_OK;
}

static void compare_volume_bricks(const edgel_volume *src, const edgel_volume_canny_params *p)
{
    const int w = src->width, h = src->height, d = src->depth;
    const size_t n = (size_t)w * h * d;
    uint8_t *want = malloc(n), *got = calloc(n, 1);
    const edgel_volume whole = edgel_volume_host(want, w, h, d, EDGEL_U8);
    CHECK(edgel_canny_volume(cpu, p, src, &whole, NULL) == EDGEL_OK);
    packed_volume s = {(const uint8_t *)src->data, got, w, h, (int)edgel_pixel_size(src->type)};
    const edgel_brick_io io = {w, h, d, src->type, read_packed, write_packed, &s};
    CHECK(edgel_canny_volume_bricks(gpu, p, &io, (w + 2) / 3, (h + 1) / 2, (d + 3) / 4) ==
          EDGEL_OK);
    CHECK(!memcmp(want, got, n));
    free(want), free(got);
}

void test_volumes(int small)
{
    static const int sizes[][3] = {{1, 1, 1}, {7, 1, 1}, {1, 9, 1}, {1, 1, 6}, {13, 11, 1},
                                   {1, 12, 10}, {9, 1, 14}, {31, 29, 17}, {64, 48, 40},
                                   {130, 97, 61}};
    const int nsizes = small ? 5 : 10;
    int compared = 0;
    for (int si = 0; si < nsizes; si++) {
        const int w = sizes[si][0], h = sizes[si][1], d = sizes[si][2];
        const size_t n = (size_t)w * h * d;
        float *f = malloc(n * 4);
        uint16_t *u16 = malloc(n * 2);
        uint8_t *u8 = malloc(n);
        for (size_t i = 0; i < n; i++) {
            const int x = (int)(i % w), y = (int)(i / w % h), z = (int)(i / ((size_t)w * h));
            const double r = sqrt((x - w / 2.0) * (x - w / 2.0) + (y - h / 2.0) * (y - h / 2.0) +
                                  (z - d / 2.0) * (z - d / 2.0));
            u8[i] = (uint8_t)((r < w / 3.0 ? 160 : 60) + next_random() % 40);
            u16[i] = (uint16_t)(u8[i] * 200 + next_random() % 500);
            f[i] = u8[i] * 0.7f + (float)(next_random() % 100) / 10.0f;
        }
        const edgel_volume srcs[3] = {edgel_volume_host(u8, w, h, d, EDGEL_U8),
                                      edgel_volume_host(u16, w, h, d, EDGEL_U16),
                                      edgel_volume_host(f, w, h, d, EDGEL_F32)};
        for (int t = 0; t < 3; t++) {
            edgel_volume_canny_params p;
            edgel_volume_canny_params_default(&p);
            const double scale = t == 1 ? 200.0 : 1.0;
            p.variance[0] = 2.0, p.variance[1] = 1.0 + t, p.variance[2] = t == 2 ? 150.0 : 3.0;
            p.spacing[2] = t == 0 ? 2.5 : 1.0, p.spacing[0] = t == 1 ? 0.7 : 1.0;
            p.maximum_error[1] = t == 1 ? 0.001 : 0.01;
            p.upper_threshold = (t == 2 ? 4.0 : 12.0) * scale;
            p.lower_threshold = (t == 2 ? 9.0 : 5.0) * scale; /* upper < lower for f32 */
            compare_volume(&srcs[t], &p, t == 1 ? EDGEL_F32 : EDGEL_U8);
            if (n > 1000)
                compare_volume_bricks(&srcs[t], &p);
            compared++;
        }
        free(f), free(u16), free(u8);
    }
    printf("volumes: %d volumes compared\n", compared);
}
