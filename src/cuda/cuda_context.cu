/*
 * The CUDA backend's per-context state: the device, its streams, and the grow-only device
 * and pinned buffers that calls reuse (cudaMalloc and cudaFree synchronise the device, so
 * edgel_context_reserve sizes them once).
 */
#include "cuda/cuda_internal.h"

#include <stdlib.h>
#include <string.h>

static void free_workspace(workspace *ws)
{
    cudaFree(ws->gray);
    cudaFree(ws->blur);
    cudaFree(ws->tmp);
    cudaFree(ws->bits);
    memset(ws, 0, sizeof *ws);
}

/* Words of one hysteresis bitmap of a w x h frame: a word per tile row per tile. */
static size_t bitmap_words(int w, int h)
{
    return (size_t)((w + EDGEL_TILE - 1) / EDGEL_TILE) * ((h + EDGEL_TILE - 1) / EDGEL_TILE) * EDGEL_TILE;
}

/* uint32 elements of a frame's bitmaps and nodes (EDGEL_TILE_NODES = 4 * EDGEL_TILE per tile). */
size_t edgel_cuda_bits_per_frame(size_t words) { return 3 * words + 4 * words + 1; }

edgel_status ensure_workspace(workspace *ws, int w, int h, size_t frames, int channels)
{
    size_t pixels = (size_t)w * h, words = bitmap_words(w, h);
    if (ws->bits && ws->pixels >= pixels && ws->words >= words && ws->frames >= frames &&
        ws->channels >= channels)
        return EDGEL_OK;
    pixels = pixels > ws->pixels ? pixels : ws->pixels;
    words = words > ws->words ? words : ws->words;
    frames = frames > ws->frames ? frames : ws->frames;
    channels = channels > ws->channels ? channels : ws->channels;
    free_workspace(ws);
    const size_t n = pixels * frames;
    CUDA_TRY(cudaMalloc(&ws->gray, n));
    CUDA_TRY(cudaMalloc(&ws->blur, n * channels));
    CUDA_TRY(cudaMalloc(&ws->tmp, n * channels * sizeof(uint16_t)));
    CUDA_TRY(cudaMalloc(&ws->bits, edgel_cuda_bits_per_frame(words) * frames * sizeof(uint32_t)));
    ws->pixels = pixels;
    ws->words = words;
    ws->frames = frames;
    ws->channels = channels;
    return EDGEL_OK;
}

edgel_status ensure_slot(host_slot *s, size_t in_bytes, size_t out_bytes)
{
    if (s->in_bytes < in_bytes) {
        cudaFree(s->d_in);
        cudaFreeHost(s->h_in);
        s->d_in = s->h_in = NULL;
        s->in_bytes = 0;
        CUDA_TRY(cudaMalloc(&s->d_in, in_bytes));
        CUDA_TRY(cudaMallocHost(&s->h_in, in_bytes));
        s->in_bytes = in_bytes;
    }
    if (s->out_bytes < out_bytes) {
        cudaFree(s->d_out);
        cudaFreeHost(s->h_out);
        s->d_out = s->h_out = NULL;
        s->out_bytes = 0;
        CUDA_TRY(cudaMalloc(&s->d_out, out_bytes));
        CUDA_TRY(cudaMallocHost(&s->h_out, out_bytes));
        s->out_bytes = out_bytes;
    }
    return EDGEL_OK;
}

extern "C" int edgel_cuda_devices_present(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no device" error */
        return 0;
    }
    return n;
}

extern "C" edgel_status edgel_cuda_create(int device, int threads, edgel_cuda_state **out)
{
    *out = NULL;
    int n = edgel_cuda_devices_present();
    if (n == 0)
        return edgel_fail(EDGEL_ERROR_BACKEND_UNAVAILABLE, "no CUDA device is present");
    if (device >= n)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "CUDA device %d requested, %d present",
                          device, n);
    ON_DEVICE(device);
    edgel_cuda_state *s = (edgel_cuda_state *)calloc(1, sizeof *s);
    if (!s)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a CUDA context");
    s->device = device;
    s->devices = n;
    s->threads = threads;
    cudaError_t err = cudaStreamCreateWithFlags(&s->own_stream, cudaStreamNonBlocking);
    for (int i = 0; i < EDGEL_HOST_SLOTS && err == cudaSuccess; i++)
        err = cudaStreamCreateWithFlags(&s->slots[i].stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
        edgel_cuda_destroy(s);
        return edgel_fail(EDGEL_ERROR_DEVICE, "creating CUDA streams: %s", cudaGetErrorString(err));
    }
    s->stream = s->own_stream;
    *out = s;
    return EDGEL_OK;
}

/* A feature's memory released with `release`, then its state. */
template <typename T> static void release_feature(T *b, void (*release)(T *))
{
    if (b)
        release(b);
    free(b);
}

extern "C" void edgel_cuda_destroy(edgel_cuda_state *s)
{
    if (!s)
        return;
    device_scope on(s->device);
    cudaStreamSynchronize(s->stream);
    free_workspace(&s->ws);
    for (int i = 0; i < EDGEL_HOST_SLOTS; i++) {
        host_slot *h = &s->slots[i];
        if (h->stream)
            cudaStreamSynchronize(h->stream);
        free_workspace(&h->ws);
        cudaFree(h->d_in);
        cudaFree(h->d_out);
        cudaFreeHost(h->h_in);
        cudaFreeHost(h->h_out);
        if (h->stream)
            cudaStreamDestroy(h->stream);
    }
    release_feature(s->stages, release_stage_buffers);
    release_feature(s->itk, release_itk_buffers);
    release_feature(s->skimage, release_skimage_buffers);
    release_feature(s->marks, release_marks_buffers);
    release_feature(s->filter, release_filter_buffers);
    release_feature(s->subpixel, release_subpixel_buffers);
    release_feature(s->volume, release_volume_buffers);
    for (edgel_cuda_state *lane : s->subpixel_lanes)
        edgel_cuda_destroy(lane);
    if (s->own_stream)
        cudaStreamDestroy(s->own_stream);
    free(s);
}

extern "C" edgel_status edgel_cuda_set_stream(edgel_cuda_state *s, void *stream)
{
    s->stream = stream ? (cudaStream_t)stream : s->own_stream;
    return EDGEL_OK;
}

extern "C" edgel_status edgel_cuda_synchronize(edgel_cuda_state *s)
{
    ON_DEVICE(s->device);
    CUDA_TRY(cudaStreamSynchronize(s->stream));
    for (int i = 0; i < EDGEL_HOST_SLOTS; i++)
        CUDA_TRY(cudaStreamSynchronize(s->slots[i].stream));
    return EDGEL_OK;
}

size_t edgel_cuda_frames_per_launch(size_t pixels, int channels)
{
    /* Enough frames per launch to fill the GPU with small frames, within ~1 GiB of workspace
     * (gray, blur and its u16 rows; the bitmaps and nodes take about a byte a pixel). */
    const size_t per_frame = pixels * (2 + 3 * (size_t)channels);
    size_t n = ((size_t)1 << 30) / (per_frame ? per_frame : 1);
    if (n > EDGEL_CUDA_MAX_FRAMES)
        n = EDGEL_CUDA_MAX_FRAMES;
    return n ? n : 1;
}

extern "C" edgel_status edgel_cuda_reserve(edgel_cuda_state *s, int width, int height,
                                           int channels, int batch)
{
    ON_DEVICE(s->device);
    const size_t px = (size_t)width * height;
    size_t frames = edgel_cuda_frames_per_launch(px, channels);
    if ((size_t)batch < frames)
        frames = (size_t)batch;
    EDGEL_TRY(ensure_workspace(&s->ws, width, height, frames, channels));
    for (int i = 0; i < EDGEL_HOST_SLOTS && (i < 2 || i < batch); i++) {
        EDGEL_TRY(ensure_workspace(&s->slots[i].ws, width, height, 1, channels));
        EDGEL_TRY(ensure_slot(&s->slots[i], px * channels, px));
    }
    return EDGEL_OK;
}

