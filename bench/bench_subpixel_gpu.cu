/*
 * Sub-pixel curves of many frames on one GPU: frames/s of edgel_subpixel_edges_batch against
 * single calls one after another, and against the same frames dealt out to K contexts on K
 * host threads (what the batch's lanes do inside, at other lane counts). Prints a Markdown
 * table.
 *
 *   bench_subpixel_gpu BSDS500_DIR [frames] [runs] [WxH ...]
 *
 * Frames: BSDS500 photographs (gray) tiled and mirrored to each size (default 1920x1080 and
 * 3840x2160), a different photograph and shift a frame, device-resident; sigma 1, high 15,
 * low 5 (the reference program's benchmark). Each row is the median wall time of `runs`
 * whole batches after one warm-up, the curves left on the device (EDGEL_CURVES_ON_DEVICE) or
 * copied to the host. Every way's curves are checked equal to the single calls' (their
 * counts, and every point of the first and last frames).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <thread>
#include <vector>

#include "bench_util.h"
#include "edgel.h"

struct frames {
    std::vector<edgel_image> src;
    std::vector<edgel_curves *> curves;
};

/* The curves of every frame: single calls on ctxs[0] (n == 0), the batch on ctxs[0] (n ==
 * 1), or frames dealt out round-robin to n contexts, each on a thread of its own. */
static void run(edgel_context **ctxs, int n, const edgel_subpixel_params *p, frames &f)
{
    const int count = (int)f.src.size();
    if (n == 0) {
        for (int i = 0; i < count; i++)
            EK(edgel_subpixel_edges(ctxs[0], p, &f.src[i], f.curves[i]));
    } else if (n == 1) {
        EK(edgel_subpixel_edges_batch(ctxs[0], p, f.src.data(), f.curves.data(), count));
    } else {
        std::vector<std::thread> threads;
        for (int k = 0; k < n; k++)
            threads.emplace_back([&, k] {
                for (int i = k; i < count; i += n)
                    EK(edgel_subpixel_edges(ctxs[k], p, &f.src[i], f.curves[i]));
            });
        for (auto &t : threads)
            t.join();
    }
}

static double frames_per_s(edgel_context **ctxs, int n, const edgel_subpixel_params *p,
                           frames &f, int runs)
{
    std::vector<double> t;
    for (int r = 0; r < 1 + runs; r++) {
        const double t0 = now_ms();
        run(ctxs, n, p, f);
        if (r >= 1)
            t.push_back(now_ms() - t0);
    }
    return f.src.size() / (median(t) * 1e-3);
}

/* Points and curves of frame i, and every byte of x, y and modulus for the first and last. */
struct result {
    long long points, curves;
    std::vector<double> x, y, mod;
};

static result read_result(edgel_curves *c, bool whole)
{
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    EK(edgel_curves_get(c, &v));
    result r = {v.points, v.curves, {}, {}, {}};
    if (whole && v.points) {
        r.x.resize(v.points), r.y.resize(v.points), r.mod.resize(v.points);
        const cudaMemcpyKind kind = v.device >= 0 ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost;
        CK(cudaMemcpy(r.x.data(), v.x, 8 * v.points, kind));
        CK(cudaMemcpy(r.y.data(), v.y, 8 * v.points, kind));
        CK(cudaMemcpy(r.mod.data(), v.modulus, 8 * v.points, kind));
    }
    return r;
}

static std::vector<result> results(frames &f)
{
    std::vector<result> out;
    for (size_t i = 0; i < f.curves.size(); i++)
        out.push_back(read_result(f.curves[i], i == 0 || i + 1 == f.curves.size()));
    return out;
}

static bool same(const std::vector<result> &a, const std::vector<result> &b)
{
    for (size_t i = 0; i < a.size(); i++)
        if (a[i].points != b[i].points || a[i].curves != b[i].curves || a[i].x != b[i].x ||
            a[i].y != b[i].y || a[i].mod != b[i].mod)
            return false;
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_subpixel_gpu BSDS500_DIR [frames] [runs] [WxH ...]\n");
        return 2;
    }
    const int count = argc > 2 ? atoi(argv[2]) : 32, runs = argc > 3 ? atoi(argv[3]) : 5;
    std::vector<std::pair<int, int>> sizes;
    for (int a = 4; a < argc; a++) {
        int w, h;
        if (sscanf(argv[a], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
            fprintf(stderr, "bench_subpixel_gpu: %s is not WxH\n", argv[a]);
            return 2;
        }
        sizes.push_back({w, h});
    }
    if (sizes.empty())
        sizes = {{1920, 1080}, {3840, 2160}};
    if (count < 1 || runs < 1) {
        fprintf(stderr, "bench_subpixel_gpu: frames and runs must be positive\n");
        return 2;
    }
    edgel_context *cpu;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
    const std::vector<edgel_image> grays = read_bsds_grays(argv[1], cpu, 64);
    if (grays.empty()) {
        fprintf(stderr, "bench_subpixel_gpu: no photographs under %s\n", argv[1]);
        return 1;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; %d frames a batch, sigma 1, high 15, low 5; median of %d batches; "
           "%u host threads\n\n", prop.name, count, runs, std::thread::hardware_concurrency());
    enum { MAX_CONTEXTS = 8 };
    edgel_context *ctxs[MAX_CONTEXTS];
    for (auto &c : ctxs)
        EK(edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &c));
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 1.0, p.high = 15.0, p.low = 5.0;

    printf("| frame | curves | one call after another (frames/s) | edgel_subpixel_edges_batch | "
           "x | 2 contexts, 2 threads | 4 | 8 | all equal |\n|---|---|---:|---:|---:|---:|---:|"
           "---:|---|\n");
    for (auto [w, h] : sizes) {
        frames f;
        std::vector<uint8_t> host((size_t)w * h);
        for (int i = 0; i < count; i++) {
            tile_photo(host.data(), grays[i % grays.size()], w, h, i);
            edgel_image d = edgel_image_host(NULL, w, h, EDGEL_U8, 1);
            d.memory = EDGEL_MEMORY_DEVICE;
            CK(cudaMalloc(&d.data, host.size()));
            CK(cudaMemcpy(d.data, host.data(), host.size(), cudaMemcpyHostToDevice));
            d.pitch = w;
            f.src.push_back(d);
            edgel_curves *c;
            EK(edgel_curves_create(&c));
            f.curves.push_back(c);
        }
        for (int place = 1; place >= 0; place--) {
            for (auto *c : f.curves)
                EK(edgel_curves_set_place(c, (edgel_curves_place)place));
            const double single = frames_per_s(ctxs, 0, &p, f, runs);
            const std::vector<result> want = results(f);
            const double batch = frames_per_s(ctxs, 1, &p, f, runs);
            bool ok = same(want, results(f));
            double spread[3];
            for (int k = 0; k < 3; k++) {
                spread[k] = frames_per_s(ctxs, 2 << k, &p, f, runs);
                ok = ok && same(want, results(f));
            }
            printf("| %dx%d | %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.0f | %s |\n", w, h,
                   place ? "on the device" : "on the host", single, batch, batch / single,
                   spread[0], spread[1], spread[2], ok ? "yes" : "NO");
            fflush(stdout);
            if (!ok)
                return 1;
        }
        for (size_t i = 0; i < f.src.size(); i++) {
            CK(cudaFree(f.src[i].data));
            edgel_curves_destroy(f.curves[i]);
        }
    }
    for (auto &c : ctxs)
        edgel_context_destroy(c);
    edgel_context_destroy(cpu);
    for (auto &g : grays)
        free(g.data);
    return 0;
}
