/*
 * edgel bench --backend cuda: per-stage GPU times. The stages run fused inside one call, so
 * each is timed as the difference of device-resident calls that include it and calls that
 * do not (CUDA events on a stream of ours, medians), and the copies on their own.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef EDGEL_HAVE_CUDA
#include <cuda_runtime.h>

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

typedef enum { DEV_CANNY, DEV_BLUR_CANNY, DEV_ALL, COPY_UP, COPY_DOWN } dev_step;

typedef struct dev_frames {
    edgel_context *ctx;
    cudaStream_t stream;
    edgel_canny_params params;
    edgel_image rgb, gray, edges; /* device */
    const edgel_image *host_rgb, *host_edges;
} dev_frames;

static edgel_status step(const dev_frames *d, dev_step s)
{
    edgel_canny_params p = d->params;
    switch (s) {
    case DEV_CANNY:
        p.blur = EDGEL_BLUR_NONE;
        return edgel_canny(d->ctx, &p, &d->gray, &d->edges, NULL);
    case DEV_BLUR_CANNY: return edgel_canny(d->ctx, &p, &d->gray, &d->edges, NULL);
    case DEV_ALL: return edgel_canny(d->ctx, &p, &d->rgb, &d->edges, NULL);
    case COPY_UP:
        return cudaMemcpy2DAsync(d->rgb.data, d->rgb.pitch, d->host_rgb->data,
                                 d->host_rgb->pitch, (size_t)d->rgb.width * 3, d->rgb.height,
                                 cudaMemcpyHostToDevice, d->stream) == cudaSuccess
                   ? EDGEL_OK : EDGEL_ERROR_DEVICE;
    case COPY_DOWN:
        return cudaMemcpy2DAsync(d->host_edges->data, d->host_edges->pitch, d->edges.data,
                                 d->edges.pitch, (size_t)d->edges.width, d->edges.height,
                                 cudaMemcpyDeviceToHost, d->stream) == cudaSuccess
                   ? EDGEL_OK : EDGEL_ERROR_DEVICE;
    }
    return EDGEL_ERROR_INTERNAL;
}

/* Median event time in ms of `runs` steps after 3 warm-ups. */
static float median_step(const dev_frames *d, dev_step s, int runs, edgel_status *st)
{
    cudaEvent_t e0, e1;
    float *t = malloc(sizeof(float) * (size_t)runs), m = 0;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = 0; i < 3 && *st == EDGEL_OK; i++)
        *st = step(d, s);
    for (int i = 0; t && i < runs && *st == EDGEL_OK; i++) {
        cudaEventRecord(e0, d->stream);
        *st = step(d, s);
        cudaEventRecord(e1, d->stream);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t[i], e0, e1);
    }
    if (t && *st == EDGEL_OK) {
        qsort(t, (size_t)runs, sizeof(float), cmp_float);
        m = t[runs / 2];
    }
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return m;
}

int bench_gpu_stages(edgel_context *ctx, const edgel_canny_params *params,
                     const edgel_image *rgb, const edgel_image *edges, int runs, double h2h_ms)
{
    const int w = rgb->width, h = rgb->height;
    dev_frames d = {ctx, NULL, *params, {0}, {0}, {0}, rgb, edges};
    edgel_status st = EDGEL_OK;
    d.rgb = (edgel_image){NULL, w, h, (size_t)w * 3, EDGEL_U8, 3, EDGEL_MEMORY_DEVICE};
    d.gray = (edgel_image){NULL, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    d.edges = d.gray;
    if (cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc(&d.rgb.data, d.rgb.pitch * h) != cudaSuccess ||
        cudaMalloc(&d.gray.data, d.gray.pitch * h) != cudaSuccess ||
        cudaMalloc(&d.edges.data, d.edges.pitch * h) != cudaSuccess)
        st = EDGEL_ERROR_DEVICE;
    if (st == EDGEL_OK)
        st = edgel_context_set_stream(ctx, d.stream);
    if (st == EDGEL_OK) /* a gray frame for the stages after gray conversion */
        st = step(&d, COPY_UP);
    if (st == EDGEL_OK) {
        edgel_canny_params gp = *params;
        gp.blur = EDGEL_BLUR_NONE;
        edgel_canny_stages stages = {0};
        stages.gray = &d.gray;
        st = edgel_canny(ctx, &gp, &d.rgb, &d.edges, &stages);
    }
    float ms[5] = {0};
    for (int s = 0; s < 5 && st == EDGEL_OK; s++)
        ms[s] = median_step(&d, (dev_step)s, runs, &st);
    if (st == EDGEL_OK) {
        const float gray = ms[DEV_ALL] - ms[DEV_BLUR_CANNY], blur = ms[DEV_BLUR_CANNY] - ms[DEV_CANNY];
        printf("| %dx%d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f |\n", w, h,
               ms[COPY_UP], gray > 0 ? gray : 0, blur > 0 ? blur : 0, ms[DEV_CANNY],
               ms[COPY_DOWN], ms[DEV_ALL], h2h_ms, (double)w * h / 1e3 / ms[DEV_ALL]);
    } else {
        fprintf(stderr, "edgel bench: %dx%d on the GPU: %s\n", w, h,
                st == EDGEL_ERROR_DEVICE ? "a CUDA call failed" : edgel_last_error());
    }
    edgel_context_synchronize(ctx);
    edgel_context_set_stream(ctx, NULL);
    cudaFree(d.rgb.data);
    cudaFree(d.gray.data);
    cudaFree(d.edges.data);
    if (d.stream)
        cudaStreamDestroy(d.stream);
    return st == EDGEL_OK ? EXIT_OK : EXIT_FAILURE_RUN;
}

#else

int bench_gpu_stages(edgel_context *ctx, const edgel_canny_params *params,
                     const edgel_image *rgb, const edgel_image *edges, int runs, double h2h_ms)
{
    (void)ctx, (void)params, (void)rgb, (void)edges, (void)runs, (void)h2h_ms;
    fprintf(stderr, "edgel bench: this build has no CUDA backend\n");
    return EXIT_FAILURE_RUN;
}

#endif
