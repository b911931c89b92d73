/* The GPU suite's shared pieces (gpu_common.h). */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"
#include "io/image_io.h"

int check_passed, check_failed;
uint32_t test_rng_state = 12345;

edgel_context *cpu, *gpu, *gpu2;



size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *first)
{
    size_t d = 0;
    *first = (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (d == 0)
                *first = i;
            d++;
        }
    return d;
}

edgel_image device_copy(const edgel_image *host)
{
    edgel_image d = *host;
    d.pitch = edgel_pixel_size(host->type) * (size_t)host->width * host->channels + 64; /* pitched */
    CUDA_CHECK(cudaMalloc(&d.data, d.pitch * host->height));
    CUDA_CHECK(cudaMemcpy2D(d.data, d.pitch, host->data, host->pitch,
                            (size_t)host->width * host->channels * edgel_pixel_size(host->type),
                            host->height, cudaMemcpyHostToDevice));
    d.memory = EDGEL_MEMORY_DEVICE;
    return d;
}

void device_download(const edgel_image *dev, void *host)
{
    const size_t row = (size_t)dev->width * dev->channels * edgel_pixel_size(dev->type);
    CUDA_CHECK(cudaMemcpy2D(host, row, dev->data, dev->pitch, row, dev->height,
                            cudaMemcpyDeviceToHost));
}

void describe(char *buf, size_t n, const edgel_canny_params *p, const edgel_image *src)
{
    snprintf(buf, n, "%dx%dx%d aperture %d l2 %d %g/%g gray %d blur %d(%g,%d)", (int)src->width,
             (int)src->height, (int)src->channels, (int)p->aperture, (int)p->l2_gradient,
             p->low_threshold, p->high_threshold, (int)p->gray, (int)p->blur, p->blur_sigma,
             (int)p->blur_ksize);
}

/* CPU, GPU on host memory and GPU on device memory must agree byte for byte. */
/* Compares CPU and GPU edges for host and device images; returns the CPU's edge pixel count. */
size_t compare_case(const edgel_canny_params *p, const edgel_image *src, const char *name)
{
    const size_t n = (size_t)src->width * src->height;
    uint8_t *ref = malloc(n), *got = malloc(n);
    edgel_image er = edgel_image_host(ref, src->width, src->height, EDGEL_U8, 1);
    edgel_image eg = edgel_image_host(got, src->width, src->height, EDGEL_U8, 1);
    char what[256];
    describe(what, sizeof what, p, src);
    CHECK(edgel_canny(cpu, p, src, &er, NULL) == EDGEL_OK);
    memset(got, 0x5A, n); /* poison: every byte must be written */
    edgel_status st = edgel_canny(gpu, p, src, &eg, NULL);
    size_t first = 0, d = st == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (d)
        fprintf(stderr, "%s %s host: %s, %zu pixels differ (first at %zu)\n", name, what,
                edgel_status_name(st), d, first);
    CHECK(d == 0);
    edgel_image ds = device_copy(src);
    edgel_image de = {NULL, src->width, src->height, 0, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    de.pitch = (size_t)src->width + 32;
    CUDA_CHECK(cudaMalloc(&de.data, de.pitch * src->height));
    CUDA_CHECK(cudaMemset(de.data, 0x5A, de.pitch * src->height));
    /* The context's stream does not wait for the legacy default stream: finish the poison. */
    CUDA_CHECK(cudaDeviceSynchronize());
    st = edgel_canny(gpu, p, &ds, &de, NULL);
    if (st == EDGEL_OK)
        st = edgel_context_synchronize(gpu);
    memset(got, 0x5A, n);
    if (st == EDGEL_OK)
        device_download(&de, got);
    d = st == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (d)
        fprintf(stderr, "%s %s device: %s (%s), %zu pixels differ (first at %zu)\n", name, what,
                edgel_status_name(st), edgel_last_error(), d, first);
    CHECK(d == 0);
    cudaFree(ds.data);
    cudaFree(de.data);
    size_t edges = 0;
    for (size_t i = 0; i < n; i++)
        edges += ref[i] == 255;
    free(ref);
    free(got);
    return edges;
}

/* Every stage the CPU gives, the GPU gives too. */
void compare_stages(const edgel_canny_params *p, const edgel_image *src)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    const int scn = p->gray != EDGEL_GRAY_NONE ? 1 : src->channels;
    void *buf[2][7];
    edgel_image v[2][7];
    static const edgel_pixel_type types[7] = {EDGEL_U8, EDGEL_U8, EDGEL_U8, EDGEL_S16,
                                              EDGEL_S16, EDGEL_S32, EDGEL_U8};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 7; i++) {
            const int cn = i == 2 ? scn : 1;
            buf[k][i] = malloc(n * cn * edgel_pixel_size(types[i]));
            memset(buf[k][i], 0x33, n * cn * edgel_pixel_size(types[i]));
            v[k][i] = edgel_image_host(buf[k][i], w, h, types[i], cn);
        }
    for (int k = 0; k < 2; k++) {
        edgel_canny_stages st = {p->gray != EDGEL_GRAY_NONE ? &v[k][1] : NULL, &v[k][2], &v[k][3],
                                 &v[k][4], &v[k][5], &v[k][6]};
        CHECK(edgel_canny(k ? gpu : cpu, p, src, &v[k][0], &st) == EDGEL_OK);
    }
    static const char *names[7] = {"edges", "gray", "smoothed", "dx", "dy", "magnitude",
                                   "suppressed"};
    for (int i = 0; i < 7; i++) {
        if (i == 1 && p->gray == EDGEL_GRAY_NONE)
            continue;
        const int cn = i == 2 ? scn : 1;
        const size_t bytes = n * cn * edgel_pixel_size(types[i]);
        size_t first, d = count_diff(buf[0][i], buf[1][i], bytes, &first);
        if (d)
            fprintf(stderr, "stage %s: %zu bytes differ (first at %zu)\n", names[i], d, first);
        CHECK(d == 0);
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 7; i++)
            free(buf[k][i]);
}

static const int apertures[] = {3, 5, 7, EDGEL_APERTURE_SCHARR};
static const double thresholds[][2] = {{50, 150}, {0, 0},   {-10, 40}, {120, 100}, {77.5, 77.5},
                                       {10.25, 300.75}, {400, 1000}, {1e6, 2e6}, {30, 31}};

void params_for(int k, edgel_canny_params *p)
{
    edgel_canny_params_default(p);
    p->aperture = apertures[k % 4];
    p->l2_gradient = p->aperture == EDGEL_APERTURE_SCHARR ? 1 : (k / 4) % 2;
    const int t = k % (int)(sizeof thresholds / sizeof thresholds[0]);
    p->low_threshold = thresholds[t][0];
    p->high_threshold = thresholds[t][1];
}

/* A w x h crop or mirrored tiling of a photograph, with `cn` channels. */
edgel_image make_frame(const edgel_image *photo, int w, int h, int cn, void **mem)
{
    *mem = malloc((size_t)w * h * cn);
    uint8_t *d = *mem;
    const int ox = (int)(next_random() % (unsigned)photo->width);
    const int oy = (int)(next_random() % (unsigned)photo->height);
    for (int y = 0; y < h; y++) {
        int sy = (y + oy) % (2 * photo->height);
        sy = sy < photo->height ? sy : 2 * photo->height - 1 - sy;
        const uint8_t *row = (const uint8_t *)photo->data + (size_t)sy * photo->pitch;
        for (int x = 0; x < w; x++) {
            int sx = (x + ox) % (2 * photo->width);
            sx = sx < photo->width ? sx : 2 * photo->width - 1 - sx;
            for (int c = 0; c < cn; c++)
                d[((size_t)y * w + x) * cn + c] =
                    c < photo->channels ? row[(size_t)sx * photo->channels + c]
                                        : (uint8_t)(next_random() & 255);
        }
    }
    return edgel_image_host(d, w, h, EDGEL_U8, cn);
}

int load_photos(const char *dir, edgel_image *photos, int max)
{
    static const char *subs[] = {"train", "val", "test"};
    int n = 0;
    for (int s = 0; s < 3; s++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, subs[s]);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) && n < max) {
            if (!strstr(e->d_name, ".jpg"))
                continue;
            char file[2048];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (edgel_io_read(file, NULL, &photos[n]) == EDGEL_OK)
                n++;
        }
        if (d)
            closedir(d);
    }
    return n;
}


size_t count_float_diff(const float *a, const float *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return d;
}
