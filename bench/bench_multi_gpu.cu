/*
 * A batch of 1920x1080 frames over the GPUs of one host (edgel_canny_batch_multi, one context
 * a device) against one GPU (edgel_canny_batch) in the same run: frames/s host-to-host, from
 * and into page-locked memory (DMA, no staging) and pageable memory. Prints a Markdown table.
 *
 *   bench_multi_gpu PHOTO [frames] [runs]
 *
 * Frames are the photograph (gray) tiled and mirrored to 1080p, shifted per frame. Each row
 * is the median wall time of `runs` whole batches after two warm-up batches; the GPUs'
 * results are checked against the CPU backend frame by frame (every 7th frame). The last
 * rows are the copy floor: the same frames' page-locked copies in and out alone (no work),
 * on one GPU and on all at once, each GPU on a thread of its own.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <thread>
#include <vector>

#include "bench_util.h"
#include "edgel.h"
#include "io/image_io.h"

/* Median ms of one whole batch through `n` contexts (n == 0: edgel_canny_batch on ctxs[0]). */
static double time_batch(edgel_context **ctxs, int n, const edgel_canny_params *p,
                         const std::vector<edgel_image> &src, const std::vector<edgel_image> &dst,
                         int runs)
{
    std::vector<double> t;
    const int count = (int)src.size();
    for (int i = 0; i < 2 + runs; i++) {
        const double t0 = now_ms();
        if (n == 0)
            EK(edgel_canny_batch(ctxs[0], p, src.data(), dst.data(), count));
        else
            EK(edgel_canny_batch_multi(ctxs, n, p, src.data(), dst.data(), count));
        if (i >= 2)
            t.push_back(now_ms() - t0);
    }
    return median(t);
}

/* Median ms of copying frames [first, first + n) in and out on `device` (in and out on two
 * streams at once, as the batch's pipeline does), each GPU's share on a thread. */
static double time_copies(int ngpus, const std::vector<edgel_image> &src,
                          const std::vector<edgel_image> &dst, int runs)
{
    const size_t bytes = (size_t)src[0].width * src[0].height;
    const int count = (int)src.size();
    std::vector<double> t;
    for (int r = 0; r < 2 + runs; r++) {
        const double t0 = now_ms();
        std::vector<std::thread> threads;
        for (int d = 0; d < ngpus; d++)
            threads.emplace_back([&, d] {
                CK(cudaSetDevice(d));
                static thread_local void *buf[2] = {NULL, NULL};
                static thread_local cudaStream_t up, down;
                if (!buf[0]) {
                    CK(cudaMalloc(&buf[0], bytes));
                    CK(cudaMalloc(&buf[1], bytes));
                    CK(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking));
                    CK(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking));
                }
                const int a = (int)((long long)count * d / ngpus);
                const int b = (int)((long long)count * (d + 1) / ngpus);
                for (int i = a; i < b; i++) {
                    CK(cudaMemcpyAsync(buf[0], src[i].data, bytes, cudaMemcpyHostToDevice, up));
                    CK(cudaMemcpyAsync(dst[i].data, buf[1], bytes, cudaMemcpyDeviceToHost, down));
                }
                CK(cudaStreamSynchronize(up));
                CK(cudaStreamSynchronize(down));
            });
        for (auto &th : threads)
            th.join();
        if (r >= 2)
            t.push_back(now_ms() - t0);
    }
    return median(t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_multi_gpu PHOTO [frames] [runs]\n");
        return 2;
    }
    const int count = argc > 2 ? atoi(argv[2]) : 256;
    const int runs = argc > 3 ? atoi(argv[3]) : 9;
    const int w = 1920, h = 1080;
    const size_t bytes = (size_t)w * h;
    int32_t devices = 0;
    EK(edgel_cuda_device_count(&devices));
    if (devices < 1 || count < 1 || runs < 1) {
        fprintf(stderr, "bench_multi_gpu: %d CUDA devices, %d frames, %d runs\n", devices,
                count, runs);
        return 1;
    }
    edgel_context *cpu;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
    std::vector<uint8_t> gray;
    const edgel_image photo = read_gray_photo(argv[1], cpu, gray);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.blur = EDGEL_BLUR_GAUSSIAN;
    p.blur_sigma = 1.4;

    std::vector<edgel_context *> gpus(devices);
    for (int d = 0; d < devices; d++) {
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.device = d;
        EK(edgel_context_create(EDGEL_BACKEND_CUDA, &o, &gpus[d]));
        EK(edgel_context_reserve(gpus[d], w, h, 1, 64));
    }
    /* Page-locked frames (portable: every device's DMA reads them) and pageable ones. */
    std::vector<edgel_image> ps, po, hs, ho;
    std::vector<std::vector<uint8_t>> pageable(2 * count, std::vector<uint8_t>(bytes));
    for (int i = 0; i < count; i++) {
        void *a, *b;
        CK(cudaHostAlloc(&a, bytes, cudaHostAllocPortable));
        CK(cudaHostAlloc(&b, bytes, cudaHostAllocPortable));
        tile_photo((uint8_t *)a, photo, w, h, i);
        memcpy(pageable[2 * i].data(), a, bytes);
        ps.push_back(edgel_image_host(a, w, h, EDGEL_U8, 1));
        po.push_back(edgel_image_host(b, w, h, EDGEL_U8, 1));
        hs.push_back(edgel_image_host(pageable[2 * i].data(), w, h, EDGEL_U8, 1));
        ho.push_back(edgel_image_host(pageable[2 * i + 1].data(), w, h, EDGEL_U8, 1));
    }
    printf("| 1920x1080, batch of %d | GPUs | page-locked frames/s | x one GPU | pageable "
           "frames/s | x one GPU | equal to CPU |\n|---|---|---|---|---|---|---|\n", count);
    std::vector<uint8_t> ref(bytes);
    edgel_image hr = edgel_image_host(ref.data(), w, h, EDGEL_U8, 1);
    double one_p = 0, one_h = 0;
    int status = 0;
    for (int n = 0; n <= devices; n++) {
        if (n == 1) /* (the same call as n = 0, through the multi path: its overhead) */
            continue;
        memset(po[0].data, 0x5a, bytes);
        const double tp = time_batch(gpus.data(), n, &p, ps, po, runs);
        const double th = time_batch(gpus.data(), n, &p, hs, ho, runs);
        bool same = true;
        for (int i = 0; i < count; i += 7) {
            EK(edgel_canny(cpu, &p, &ps[i], &hr, NULL));
            same &= memcmp(ref.data(), po[i].data, bytes) == 0 &&
                    memcmp(ref.data(), ho[i].data, bytes) == 0;
        }
        const double fp = count / (tp * 1e-3), fh = count / (th * 1e-3);
        if (n == 0) {
            one_p = fp;
            one_h = fh;
        }
        printf("| %s | %d | %.0f | %.2f | %.0f | %.2f | %s |\n",
               n == 0 ? "edgel_canny_batch" : "edgel_canny_batch_multi", n == 0 ? 1 : n, fp,
               fp / one_p, fh, fh / one_h, same ? "yes" : "NO");
        fflush(stdout);
        status |= !same;
    }
    double copy_one = 0;
    for (int n = 1; n <= devices; n = n == devices ? devices + 1 : devices) {
        const double fp = count / (time_copies(n, ps, po, runs) * 1e-3);
        copy_one = copy_one ? copy_one : fp;
        printf("| copies in and out alone (the floor) | %d | %.0f | %.2f | | | |\n", n, fp,
               fp / copy_one);
    }
    for (int i = 0; i < count; i++) {
        cudaFreeHost(ps[i].data);
        cudaFreeHost(po[i].data);
    }
    for (auto g : gpus)
        edgel_context_destroy(g);
    edgel_context_destroy(cpu);
    return status;
}
