/*
 * The itk preset against ITK itself, timed in one run: itk::CannyEdgeDetectionImageFilter on
 * all CPU threads, edgel's CPU backend on all threads, and edgel's CUDA backend
 * (device-resident, CUDA events; host-to-host, wall clock), on BSDS500 photographs as float
 * gray, tiled to 481x321 .. 7680x4320. Every result is compared with ITK's edge map.
 * Prints a Markdown table.
 *
 *   bench_itk BSDS500_DIR [variance upper lower]
 *
 * Built when CMake finds ITK (Debian: libinsighttoolkit5-dev).
 */
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "itkCannyEdgeDetectionImageFilter.h"
#include "itkImage.h"
#include "itkMultiThreaderBase.h"

#include "bench_util.h"
#include "edgel.h"
#include "io/image_io.h"

using FloatImage = itk::Image<float, 2>;

/* Median wall time of fn() over `runs` after one warm-up. */
template <typename F> static double time_wall(int runs, F fn)
{
    fn();
    std::vector<double> t;
    for (int i = 0; i < runs; i++) {
        const double t0 = now_ms();
        fn();
        t.push_back(now_ms() - t0);
    }
    return median(t);
}

/* A gray photograph (the first of the folder's train/ images that loads) as float. */
static std::vector<float> load_gray(const char *dir, int *w, int *h)
{
    std::string path = std::string(dir) + "/test";
    DIR *d = opendir(path.c_str());
    struct dirent *e;
    edgel_image img = {};
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".jpg") && edgel_io_read((path + "/" + e->d_name).c_str(), NULL, &img) == EDGEL_OK)
            break;
    if (d)
        closedir(d);
    if (!img.data) {
        fprintf(stderr, "bench_itk: no photograph under %s\n", path.c_str());
        exit(1);
    }
    std::vector<uint8_t> gray((size_t)img.width * img.height);
    edgel_image g = edgel_image_host(gray.data(), img.width, img.height, EDGEL_U8, 1);
    edgel_context *ctx;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx));
    EK(edgel_to_gray(ctx, EDGEL_GRAY_RGB, &img, &g));
    edgel_context_destroy(ctx);
    *w = img.width;
    *h = img.height;
    edgel_io_free(&img);
    return std::vector<float>(gray.begin(), gray.end());
}

/* The photograph tiled (mirrored) to w x h. */
static std::vector<float> tiled(const std::vector<float> &g, int gw, int gh, int w, int h)
{
    std::vector<float> f((size_t)w * h);
    for (int y = 0; y < h; y++) {
        int sy = y % (2 * gh);
        sy = sy < gh ? sy : 2 * gh - 1 - sy;
        for (int x = 0; x < w; x++) {
            int sx = x % (2 * gw);
            sx = sx < gw ? sx : 2 * gw - 1 - sx;
            f[(size_t)y * w + x] = g[(size_t)sy * gw + sx];
        }
    }
    return f;
}

/* Median CUDA-event time of a device-resident call; the last result into `out`. */
static double time_device(edgel_context *gpu, cudaStream_t stream, const edgel_canny_params *p,
                          const std::vector<float> &frame, int w, int h, std::vector<float> &out)
{
    const size_t n = (size_t)w * h;
    edgel_image dsrc = edgel_image_host(NULL, w, h, EDGEL_F32, 1), dedges = dsrc;
    CK(cudaMalloc(&dsrc.data, n * 4));
    CK(cudaMalloc(&dedges.data, n * 4));
    dsrc.memory = dedges.memory = EDGEL_MEMORY_DEVICE;
    CK(cudaMemcpy(dsrc.data, frame.data(), n * 4, cudaMemcpyHostToDevice));
    const double t = time_events(stream, 50, [&](int) { EK(edgel_canny(gpu, p, &dsrc, &dedges, NULL)); });
    CK(cudaMemcpy(out.data(), dedges.data, n * 4, cudaMemcpyDeviceToHost));
    cudaFree(dsrc.data);
    cudaFree(dedges.data);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_itk BSDS500_DIR [variance upper lower]\n");
        return 2;
    }
    const double variance = argc > 4 ? atof(argv[2]) : 2.0;
    const float upper = argc > 4 ? (float)atof(argv[3]) : 10.0f;
    const float lower = argc > 4 ? (float)atof(argv[4]) : 5.0f;
    const int threads = (int)std::thread::hardware_concurrency();
    itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(threads);
    itk::MultiThreaderBase::SetGlobalMaximumNumberOfThreads(threads);

    int gw, gh;
    const std::vector<float> photo = load_gray(argv[1], &gw, &gh);
    edgel_context *cpu, *gpu = NULL;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
    cudaStream_t stream = NULL;
    if (edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &gpu) == EDGEL_OK) {
        CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        EK(edgel_context_set_stream(gpu, stream));
    } else {
        printf("no GPU (%s): CPU columns only\n\n", edgel_last_error());
    }
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.preset = EDGEL_PRESET_ITK;
    p.variance = variance;
    p.high_threshold = upper;
    p.low_threshold = lower;

    printf("itk preset: variance %g, maximum error 0.01, upper %g, lower %g; ITK %s, %d CPU "
           "threads for ITK and edgel CPU\n\n", variance, upper, lower, ITK_VERSION_STRING, threads);
    printf("| frame | ITK (ms) | edgel CPU (ms) | edgel GPU device (ms) | edgel GPU host-to-host "
           "(ms) | ITK / GPU device | ITK / edgel CPU | edges | identical to ITK (CPU, GPU) |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    const int sizes[][2] = {{481, 321}, {1920, 1080}, {3840, 2160}, {7680, 4320}};
    for (const auto &s : sizes) {
        const int w = s[0], h = s[1];
        const size_t n = (size_t)w * h;
        const int runs = n > 8000000 ? 5 : n > 2000000 ? 9 : 21;
        std::vector<float> frame = tiled(photo, gw, gh, w, h);

        FloatImage::Pointer in = FloatImage::New();
        FloatImage::SizeType size;
        size[0] = (itk::SizeValueType)w;
        size[1] = (itk::SizeValueType)h;
        FloatImage::RegionType region;
        region.SetSize(size);
        in->SetRegions(region);
        in->Allocate();
        std::copy(frame.begin(), frame.end(), in->GetBufferPointer());
        using Canny = itk::CannyEdgeDetectionImageFilter<FloatImage, FloatImage>;
        Canny::Pointer canny = Canny::New();
        canny->SetInput(in);
        canny->SetVariance(variance);
        canny->SetMaximumError(0.01);
        canny->SetUpperThreshold(upper);
        canny->SetLowerThreshold(lower);
        const double t_itk = time_wall(runs, [&] { canny->Modified(); canny->Update(); });
        const float *ref = canny->GetOutput()->GetBufferPointer();

        std::vector<float> out_cpu(n), out_gpu(n);
        edgel_image src = edgel_image_host(frame.data(), w, h, EDGEL_F32, 1);
        edgel_image ec = edgel_image_host(out_cpu.data(), w, h, EDGEL_F32, 1);
        edgel_image eg = edgel_image_host(out_gpu.data(), w, h, EDGEL_F32, 1);
        const double t_cpu = time_wall(runs, [&] { EK(edgel_canny(cpu, &p, &src, &ec, NULL)); });
        double t_h2h = 0, t_dev = 0;
        std::vector<float> out_dev(n);
        if (gpu) {
            t_h2h = time_wall(runs * 3, [&] { EK(edgel_canny(gpu, &p, &src, &eg, NULL)); });
            t_dev = time_device(gpu, stream, &p, frame, w, h, out_dev);
        } else {
            out_gpu.assign(ref, ref + n);
            out_dev = out_gpu;
        }
        size_t d_cpu = 0, d_gpu = 0, edges = 0;
        for (size_t i = 0; i < n; i++) {
            d_cpu += out_cpu[i] != ref[i];
            d_gpu += out_gpu[i] != ref[i] || out_dev[i] != ref[i];
            edges += ref[i] != 0.0f;
        }
        if (gpu)
            printf("| %dx%d | %.2f | %.2f | %.3f | %.2f | %.0fx | %.1fx | %zu | %s, %s |\n", w, h,
                   t_itk, t_cpu, t_dev, t_h2h, t_itk / t_dev, t_itk / t_cpu, edges,
                   d_cpu ? "NO" : "yes", d_gpu ? "NO" : "yes");
        else
            printf("| %dx%d | %.2f | %.2f | - | - | - | %.1fx | %zu | %s, - |\n", w, h, t_itk, t_cpu,
                   t_itk / t_cpu, edges, d_cpu ? "NO" : "yes");
        if (d_cpu || d_gpu)
            printf("|   | differing pixels: CPU %zu, GPU %zu |\n", d_cpu, d_gpu);
        fflush(stdout);
    }
    edgel_context_destroy(cpu);
    edgel_context_destroy(gpu);
    return 0;
}
