/*
 * The GPU's FFT method alone: edgel_filter2d(method fft) on a device-resident float32 image
 * of N x N with a random kernel and a zero border. Prints a Markdown row a mask: the median
 * over `rounds` rounds of the mean time of 20 calls queued between synchronisations, the
 * first call's time (plans made, callbacks linked), and the largest difference to the direct
 * method over the largest value.
 *
 *   bench_fft_gpu [N] [MASKS] [ROUNDS]     defaults: 4096 3,15,29,65,129 7
 *
 * EDGEL_CUFFT_CALLBACKS=1 or 0 forces the callbacks or the plain tiles (unset: the cost
 * model picks, and links callbacks from a tiling's third call).
 */
#include <math.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 4096;
    std::vector<int> masks = {3, 15, 29, 65, 129};
    if (argc > 2) {
        masks.clear();
        for (char *q = argv[2]; *q;) {
            masks.push_back((int)strtol(q, &q, 10));
            if (*q == ',')
                q++;
        }
    }
    const int rounds = argc > 3 ? atoi(argv[3]) : 7;
    if (n < 1 || rounds < 1 || masks.empty()) {
        fprintf(stderr, "usage: bench_fft_gpu [N] [MASKS e.g. 3,15,65] [ROUNDS]\n");
        return 2;
    }
    edgel_context *ctx;
    EK(edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &ctx));
    const size_t px = (size_t)n * n;
    std::vector<float> host(px);
    srand(1);
    for (auto &v : host)
        v = (float)(rand() % 256);
    float *src, *dst, *ref;
    CK(cudaMalloc(&src, px * 4));
    CK(cudaMalloc(&dst, px * 4));
    CK(cudaMalloc(&ref, px * 4));
    CK(cudaMemcpy(src, host.data(), px * 4, cudaMemcpyHostToDevice));
    const edgel_image s = {src, n, n, (size_t)n * 4, EDGEL_F32, 1, EDGEL_MEMORY_DEVICE};
    edgel_image d = s, r = s;
    d.data = dst;
    r.data = ref;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; callbacks: %s\n\n| image | mask | ms a call | first call (ms) | max diff / max |\n"
           "|---|---|---|---|---|\n",
           prop.name, getenv("EDGEL_CUFFT_CALLBACKS") ? getenv("EDGEL_CUFFT_CALLBACKS") : "model");
    for (int m : masks) {
        std::vector<float> taps((size_t)m * m);
        for (auto &v : taps)
            v = (float)rand() / RAND_MAX - 0.5f;
        const edgel_image k = edgel_image_host(taps.data(), m, m, EDGEL_F32, 1);
        edgel_filter_params p;
        edgel_filter_params_default(&p);
        p.border = EDGEL_BORDER_CONSTANT;
        p.method = EDGEL_CONV_FFT;
        double t0 = now_ms();
        EK(edgel_filter2d(ctx, &p, &s, &d, &k));
        EK(edgel_context_synchronize(ctx));
        const double first = now_ms() - t0;
        for (int i = 0; i < 4; i++) /* the model's callbacks are linked by the third call */
            EK(edgel_filter2d(ctx, &p, &s, &d, &k));
        std::vector<double> t;
        for (int round = 0; round < rounds; round++) {
            EK(edgel_context_synchronize(ctx));
            t0 = now_ms();
            for (int i = 0; i < 20; i++)
                EK(edgel_filter2d(ctx, &p, &s, &d, &k));
            EK(edgel_context_synchronize(ctx));
            t.push_back((now_ms() - t0) / 20);
        }
        p.method = EDGEL_CONV_DIRECT;
        EK(edgel_filter2d(ctx, &p, &s, &r, &k));
        EK(edgel_context_synchronize(ctx));
        std::vector<float> got(px), want(px);
        CK(cudaMemcpy(got.data(), dst, px * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(want.data(), ref, px * 4, cudaMemcpyDeviceToHost));
        double diff = 0, most = 0;
        for (size_t i = 0; i < px; i++) {
            diff = std::max(diff, (double)fabsf(got[i] - want[i]));
            most = std::max(most, (double)fabsf(want[i]));
        }
        printf("| %dx%d | %dx%d | %.3f | %.1f | %.2g |\n", n, n, m, m, median(t), first,
               most > 0 ? diff / most : diff);
        fflush(stdout);
    }
    cudaFree(src);
    cudaFree(dst);
    cudaFree(ref);
    edgel_context_destroy(ctx);
    return 0;
}
