/*
 * GPU benchmark: edgel's CUDA backend against NPP's Canny in the same run, on natural frames
 * (BSDS500 photographs tiled to 512x512 .. 7680x4320). Prints Markdown tables: single frames
 * against NPP, Canny with the Gaussian pre-blur against Canny alone, 1080p batches
 * (device-resident, host-to-host, and the page-locked copies alone: the PCIe floor).
 *
 *   bench_gpu BSDS500_DIR [runs] [WxH | batch]
 *
 * With WxH only that frame size is timed (no batches), with `batch` only the 1080p batches:
 * handy under a profiler.
 * Device-resident times are CUDA-event times of one call each (median of `runs` after a
 * warm-up), rotating over enough input buffers that they do not sit in L2. The byte floor is
 * 2 bytes per pixel (frame read once, edges written once) over the device-to-device copy
 * bandwidth measured here.
 */
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench_util.h"
#include "edgel.h"
#include "io/image_io.h"

#if defined(EDGEL_HAVE_NPP)
#include <nppi_filtering_functions.h>
#endif

/* Device-to-device copy bandwidth, bytes read + written per second. */
static double copy_bandwidth()
{
    const size_t n = (size_t)1 << 30;
    void *a, *b;
    CK(cudaMalloc(&a, n));
    CK(cudaMalloc(&b, n));
    CK(cudaMemset(a, 1, n));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<double> t;
    for (int i = 0; i < 12; i++) {
        cudaEventRecord(e0);
        cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= 2)
            t.push_back(ms);
    }
    cudaFree(a);
    cudaFree(b);
    return 2.0 * n / (median(t) * 1e-3);
}

/* Gray photographs tiled (mirrored) to w x h. */
static std::vector<uint8_t> natural_frame(const std::vector<edgel_image> &grays, int w, int h, int seed)
{
    std::vector<uint8_t> f((size_t)w * h);
    tile_photo(f.data(), grays[seed % grays.size()], w, h, seed);
    return f;
}

struct device_frames {
    std::vector<edgel_image> src, dst;
};

static device_frames upload(const std::vector<std::vector<uint8_t>> &frames, int w, int h)
{
    device_frames d;
    for (auto &f : frames) {
        edgel_image s = {NULL, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
        edgel_image e = s;
        CK(cudaMalloc(&s.data, f.size()));
        CK(cudaMalloc(&e.data, f.size()));
        CK(cudaMemcpy(s.data, f.data(), f.size(), cudaMemcpyHostToDevice));
        d.src.push_back(s);
        d.dst.push_back(e);
    }
    return d;
}

static void release(device_frames &d)
{
    for (size_t i = 0; i < d.src.size(); i++) {
        cudaFree(d.src[i].data);
        cudaFree(d.dst[i].data);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_gpu BSDS500_DIR [runs]\n");
        return 2;
    }
    const int runs = argc > 2 ? atoi(argv[2]) : 100;
    int only_w = 0, only_h = 0;
    const bool only_batch = argc > 3 && !strcmp(argv[3], "batch");
    if (argc > 3 && !only_batch && sscanf(argv[3], "%dx%d", &only_w, &only_h) != 2) {
        fprintf(stderr, "bench_gpu: the third argument must be WxH or batch\n");
        return 2;
    }
    edgel_context *cpu;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
    std::vector<edgel_image> grays = read_bsds_grays(argv[1], cpu, 16);
    if (grays.empty()) {
        fprintf(stderr, "bench_gpu: no photographs under %s\n", argv[1]);
        return 1;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const double bw = copy_bandwidth();
    printf("device: %s, %d SMs, L2 %d MB; device-to-device copy %.2f TB/s (read + write)\n",
           prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, bw / 1e12);
    printf("frames: BSDS500 photographs (gray) tiled; Canny 50/150, Sobel 3x3, L1; median of %d "
           "runs\n\n",
           runs);

    edgel_context *gpu;
    EK(edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &gpu));
    cudaStream_t stream;
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    EK(edgel_context_set_stream(gpu, stream));
    edgel_canny_params p;
    edgel_canny_params_default(&p);

    printf("| frame | edgel device (ms) | NPP device (ms) | NPP / edgel | edgel floor ratio | "
           "edgel host-to-host (ms) | edgel = CPU | NPP edges vs edgel |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    const int sizes[][2] = {{512, 512}, {1920, 1080}, {3840, 2160}, {7680, 4320}};
    /* Canny with the Gaussian pre-blur (sigma 1.4, OpenCV's 9 taps) against Canny alone and
     * the blur alone, in the same run: printed after the main table. */
    edgel_canny_params pb = p;
    pb.blur = EDGEL_BLUR_GAUSSIAN;
    pb.blur_sigma = 1.4;
    std::vector<std::string> blur_rows;
    for (auto &sz : sizes) {
        const int w = only_w ? only_w : sz[0], h = only_w ? only_h : sz[1];
        if ((only_w && &sz != &sizes[0]) || only_batch)
            break;
        const size_t bytes = (size_t)w * h;
        int nbuf = (int)std::min<size_t>(256, std::max<size_t>(2, ((size_t)256 << 20) / bytes));
        std::vector<std::vector<uint8_t>> frames;
        for (int i = 0; i < nbuf; i++)
            frames.push_back(natural_frame(grays, w, h, i));
        device_frames d = upload(frames, w, h);
        EK(edgel_context_reserve(gpu, w, h, 1, 64));
        const double t_edgel = time_events(stream, runs, [&](int i) {
            EK(edgel_canny(gpu, &p, &d.src[i % nbuf], &d.dst[i % nbuf], NULL));
        });
        /* Identity with the CPU backend on frame 0. */
        std::vector<uint8_t> ref(bytes), got(bytes);
        edgel_image hs = edgel_image_host(frames[0].data(), w, h, EDGEL_U8, 1);
        edgel_image hr = edgel_image_host(ref.data(), w, h, EDGEL_U8, 1);
        EK(edgel_canny(cpu, &p, &hs, &hr, NULL));
        EK(edgel_canny(gpu, &p, &d.src[0], &d.dst[0], NULL));
        CK(cudaStreamSynchronize(stream));
        CK(cudaMemcpy(got.data(), d.dst[0].data, bytes, cudaMemcpyDeviceToHost));
        const bool same = ref == got;
        /* Host to host: the frame comes from and goes back to pageable host memory. */
        std::vector<uint8_t> out(bytes);
        edgel_image ho = edgel_image_host(out.data(), w, h, EDGEL_U8, 1);
        std::vector<double> th;
        for (int i = 0; i < 10 + runs / 2; i++) {
            double t0 = now_ms();
            EK(edgel_canny(gpu, &p, &hs, &ho, NULL));
            if (i >= 10)
                th.push_back(now_ms() - t0);
        }
        char npp_time[32] = "n/a", npp_ratio[32] = "n/a", agree[96] = "n/a";
#if defined(EDGEL_HAVE_NPP)
        {
            NppStreamContext nc;
            memset(&nc, 0, sizeof nc);
            nc.hStream = stream;
            int dev = 0, v = 0;
            cudaGetDevice(&dev);
            nc.nCudaDeviceId = dev;
            cudaDeviceGetAttribute(&nc.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev);
            cudaDeviceGetAttribute(&nc.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
            cudaDeviceGetAttribute(&nc.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev);
            cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev);
            nc.nSharedMemPerBlock = (size_t)v;
            cudaDeviceGetAttribute(&nc.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, dev);
            cudaDeviceGetAttribute(&nc.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, dev);
            unsigned flags = 0;
            cudaStreamGetFlags(stream, &flags);
            nc.nStreamFlags = flags;
            NppiSize roi = {w, h};
            NppiPoint off = {0, 0};
            int buf_size = 0;
            nppiFilterCannyBorderGetBufferSize(roi, &buf_size);
            Npp8u *buf;
            CK(cudaMalloc(&buf, buf_size));
            const double t_npp = time_events(stream, runs, [&](int i) {
                NppStatus s = nppiFilterCannyBorder_8u_C1R_Ctx(
                    (const Npp8u *)d.src[i % nbuf].data, w, roi, off, (Npp8u *)d.dst[i % nbuf].data,
                    w, roi, NPP_FILTER_SOBEL, NPP_MASK_SIZE_3_X_3, 50, 150, nppiNormL1,
                    NPP_BORDER_REPLICATE, buf, nc);
                if (s != NPP_SUCCESS) {
                    fprintf(stderr, "NPP Canny failed: %d\n", (int)s);
                    exit(1);
                }
            });
            CK(cudaStreamSynchronize(stream));
            std::vector<uint8_t> npp(bytes);
            CK(cudaMemcpy(npp.data(), d.dst[0].data, bytes, cudaMemcpyDeviceToHost));
            size_t ea = 0, eb = 0, both = 0;
            for (size_t i = 0; i < bytes; i++) {
                ea += ref[i] != 0;
                eb += npp[i] != 0;
                both += ref[i] && npp[i];
            }
            snprintf(npp_time, sizeof npp_time, "%.4f", t_npp);
            snprintf(npp_ratio, sizeof npp_ratio, "%.2f", t_npp / t_edgel);
            snprintf(agree, sizeof agree, "Pco %.2f%%, Pfa %.2f%%", 100.0 * both / (ea ? ea : 1),
                     100.0 * (eb - both) / (ea ? ea : 1));
            cudaFree(buf);
        }
#endif
        {
            const double t_blurred = time_events(stream, runs, [&](int i) {
                EK(edgel_canny(gpu, &pb, &d.src[i % nbuf], &d.dst[i % nbuf], NULL));
            });
            const double t_gauss = time_events(stream, runs, [&](int i) {
                EK(edgel_gaussian_blur(gpu, &d.src[i % nbuf], &d.dst[i % nbuf], 0, 1.4));
            });
            EK(edgel_canny(cpu, &pb, &hs, &hr, NULL));
            EK(edgel_canny(gpu, &pb, &d.src[0], &d.dst[0], NULL));
            CK(cudaStreamSynchronize(stream));
            CK(cudaMemcpy(got.data(), d.dst[0].data, bytes, cudaMemcpyDeviceToHost));
            char row[256];
            snprintf(row, sizeof row, "| %dx%d | %.4f | %.4f | %.2f | %.4f | %s |\n", w, h, t_edgel,
                     t_blurred, t_blurred / t_edgel, t_gauss, ref == got ? "yes" : "NO");
            blur_rows.push_back(row);
        }
        const double floor_ms = 2.0 * bytes / bw * 1e3;
        printf("| %dx%d | %.4f | %s | %s | %.1f | %.3f | %s | %s |\n", w, h, t_edgel, npp_time,
               npp_ratio, t_edgel / floor_ms, median(th), same ? "yes" : "NO", agree);
        fflush(stdout);
        release(d);
    }

    if (!blur_rows.empty()) {
        printf("\n| frame | Canny (ms) | Canny, blur 1.4 (ms) | ratio | blur alone (ms) | "
               "blurred = CPU |\n|---|---|---|---|---|---|\n");
        for (auto &r : blur_rows)
            fputs(r.c_str(), stdout);
    }

    /* Batches at 1080p: device-resident and host-to-host, frames per second. */
    if (!only_w) {
        const int w = 1920, h = 1080, count = 64;
        const size_t bytes = (size_t)w * h;
        std::vector<std::vector<uint8_t>> frames;
        for (int i = 0; i < count; i++)
            frames.push_back(natural_frame(grays, w, h, i));
        device_frames d = upload(frames, w, h);
        EK(edgel_context_reserve(gpu, w, h, 1, count));
        const double t_batch = time_events(stream, std::max(5, runs / 10), [&](int) {
            EK(edgel_canny_batch(gpu, &p, d.src.data(), d.dst.data(), count));
        });
        std::vector<edgel_image> hs, ho;
        std::vector<std::vector<uint8_t>> outs(count, std::vector<uint8_t>(bytes));
        for (int i = 0; i < count; i++) {
            hs.push_back(edgel_image_host(frames[i].data(), w, h, EDGEL_U8, 1));
            ho.push_back(edgel_image_host(outs[i].data(), w, h, EDGEL_U8, 1));
        }
        std::vector<double> th;
        for (int i = 0; i < 3 + std::max(5, runs / 10); i++) {
            double t0 = now_ms();
            EK(edgel_canny_batch(gpu, &p, hs.data(), ho.data(), count));
            if (i >= 3)
                th.push_back(now_ms() - t0);
        }
        /* The batch's bytes equal single calls on the CPU. */
        bool same = true;
        std::vector<uint8_t> ref(bytes);
        edgel_image hr = edgel_image_host(ref.data(), w, h, EDGEL_U8, 1);
        for (int i = 0; i < count; i += 9) {
            EK(edgel_canny(cpu, &p, &hs[i], &hr, NULL));
            same &= ref == outs[i];
        }
        /* The same batch from and into page-locked host memory (DMA without staging). */
        std::vector<edgel_image> ps, po;
        for (int i = 0; i < count; i++) {
            void *a, *b;
            CK(cudaMallocHost(&a, bytes));
            CK(cudaMallocHost(&b, bytes));
            memcpy(a, frames[i].data(), bytes);
            ps.push_back(edgel_image_host(a, w, h, EDGEL_U8, 1));
            po.push_back(edgel_image_host(b, w, h, EDGEL_U8, 1));
        }
        std::vector<double> tp;
        for (int i = 0; i < 3 + std::max(5, runs / 10); i++) {
            double t0 = now_ms();
            EK(edgel_canny_batch(gpu, &p, ps.data(), po.data(), count));
            if (i >= 3)
                tp.push_back(now_ms() - t0);
        }
        for (int i = 0; i < count; i += 9) {
            EK(edgel_canny(cpu, &p, &ps[i], &hr, NULL));
            same &= memcmp(ref.data(), po[i].data, bytes) == 0;
        }
        /* The copies alone, each frame in and back out over four streams as the batch does:
         * the floor PCIe sets on the page-locked row. */
        std::vector<double> tc;
        {
            cudaStream_t cs[4];
            void *dev[4];
            for (int k = 0; k < 4; k++) {
                CK(cudaStreamCreateWithFlags(&cs[k], cudaStreamNonBlocking));
                CK(cudaMalloc(&dev[k], bytes));
            }
            for (int r = 0; r < 3 + std::max(5, runs / 10); r++) {
                double t0 = now_ms();
                for (int i = 0; i < count; i++) {
                    CK(cudaMemcpyAsync(dev[i % 4], ps[i].data, bytes, cudaMemcpyHostToDevice, cs[i % 4]));
                    CK(cudaMemcpyAsync(po[i].data, dev[i % 4], bytes, cudaMemcpyDeviceToHost, cs[i % 4]));
                }
                for (int k = 0; k < 4; k++)
                    CK(cudaStreamSynchronize(cs[k]));
                if (r >= 3)
                    tc.push_back(now_ms() - t0);
            }
            for (int k = 0; k < 4; k++) {
                cudaStreamDestroy(cs[k]);
                cudaFree(dev[k]);
            }
        }
        for (int i = 0; i < count; i++) {
            cudaFreeHost(ps[i].data);
            cudaFreeHost(po[i].data);
        }
        printf("\n| 1920x1080 batch of %d | frames/s | ms per frame |\n|---|---|---|\n", count);
        printf("| device-resident | %.0f | %.4f |\n", count / (t_batch * 1e-3), t_batch / count);
        printf("| host-to-host (pageable in and out) | %.0f | %.4f |\n",
               count / (median(th) * 1e-3), median(th) / count);
        printf("| host-to-host (page-locked in and out) | %.0f | %.4f |\n",
               count / (median(tp) * 1e-3), median(tp) / count);
        printf("| copies alone, page-locked (in and out, four streams) | %.0f | %.4f |\n",
               count / (median(tc) * 1e-3), median(tc) / count);
        printf("| host batches equal CPU | %s | |\n", same ? "yes" : "NO");
        release(d);

        /* Frames of mixed sizes around 1080p (widths 1792..1920, heights 1008..1080), one
         * batch: the same launch sequence with each frame's own size. */
        device_frames m;
        std::vector<std::vector<uint8_t>> mixed;
        for (int i = 0; i < count; i++) {
            const int mw = 1920 - 16 * (i % 9), mh = 1080 - 8 * (i % 10);
            mixed.push_back(natural_frame(grays, mw, mh, i));
            device_frames one = upload({mixed.back()}, mw, mh);
            m.src.push_back(one.src[0]);
            m.dst.push_back(one.dst[0]);
        }
        const double t_mixed = time_events(stream, std::max(5, runs / 10), [&](int) {
            EK(edgel_canny_batch(gpu, &p, m.src.data(), m.dst.data(), count));
        });
        bool mixed_same = true;
        for (int i = 0; i < count; i += 7) {
            const int mw = m.src[i].width, mh = m.src[i].height;
            std::vector<uint8_t> got((size_t)mw * mh), want((size_t)mw * mh);
            CK(cudaMemcpy(got.data(), m.dst[i].data, got.size(), cudaMemcpyDeviceToHost));
            edgel_image in = edgel_image_host(mixed[i].data(), mw, mh, EDGEL_U8, 1);
            edgel_image out = edgel_image_host(want.data(), mw, mh, EDGEL_U8, 1);
            EK(edgel_canny(cpu, &p, &in, &out, NULL));
            mixed_same &= got == want;
        }
        printf("\n| batch of %d, device-resident | frames/s | x same-size batch | equal to CPU |\n"
               "|---|---|---|---|\n", count);
        printf("| 1920x1080 each | %.0f | 1.00 | yes |\n", count / (t_batch * 1e-3));
        printf("| mixed sizes, 1792..1920 x 1008..1080 | %.0f | %.2f | %s |\n",
               count / (t_mixed * 1e-3), t_batch / t_mixed, mixed_same ? "yes" : "NO");
        release(m);
    }
    edgel_context_destroy(gpu);
    edgel_context_destroy(cpu);
    return 0;
}
