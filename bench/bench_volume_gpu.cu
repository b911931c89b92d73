/*
 * ITK's 3-D Canny (edgel_canny_volume) through one GPU: from page-locked host memory to
 * page-locked host memory, and device-resident, against the PCIe floor measured in the same
 * run (the volume's copy in and the edges' copy out: the two directions cannot overlap here,
 * the edges exist only once every voxel is in, so the floor is their sum).
 *
 *   bench_volume_gpu [SIDE] [u8|f32] [runs]
 *
 * A SIDE^3 volume (default 512, f32) of a sphere, a plane and noise; variance 2, maximum
 * error 0.01, upper 20, lower 10. Prints a markdown row; medians after one warm-up run; up
 * to 512^3 the edges are compared with the CPU's.
 */
#include "bench_util.h"

static void fill(void *v, size_t n, int side, edgel_pixel_type type)
{
    for (size_t i = 0; i < n; i++) {
        const int x = (int)(i % side), y = (int)(i / side % side), z = (int)(i / ((size_t)side * side));
        const double r2 = (x - side / 2.0) * (x - side / 2.0) + (y - side / 2.5) * (y - side / 2.5) +
                          (z - side / 2.2) * (z - side / 2.2);
        const double value = (r2 < side * side / 9.0 ? 100 : 40) + (x + 2 * y > side ? 40 : 0) +
                             (double)((i * 2654435761u) >> 27 & 15);
        if (type == EDGEL_U8)
            ((uint8_t *)v)[i] = (uint8_t)value;
        else
            ((float *)v)[i] = (float)value;
    }
}

int main(int argc, char **argv)
{
    const int side = argc > 1 ? atoi(argv[1]) : 512;
    const edgel_pixel_type type = argc > 2 && !strcmp(argv[2], "u8") ? EDGEL_U8 : EDGEL_F32;
    const int runs = argc > 3 ? atoi(argv[3]) : 5;
    const size_t n = (size_t)side * side * side, in_bytes = n * edgel_pixel_size(type);
    void *in, *out, *d_in, *d_out;
    CK(cudaMallocHost(&in, in_bytes));
    CK(cudaMallocHost(&out, n));
    CK(cudaMalloc(&d_in, in_bytes));
    CK(cudaMalloc(&d_out, n));
    fill(in, n, side, type);
    edgel_context *gpu;
    EK(edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &gpu));
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int a = 0; a < 3; a++)
        p.variance[a] = 2.0;
    p.upper_threshold = 20, p.lower_threshold = 10;
    const edgel_volume hs = edgel_volume_host(in, side, side, side, type);
    const edgel_volume hd = edgel_volume_host(out, side, side, side, EDGEL_U8);
    edgel_volume ds = hs, dd = hd;
    ds.data = d_in, ds.memory = EDGEL_MEMORY_DEVICE;
    dd.data = d_out, dd.memory = EDGEL_MEMORY_DEVICE;
    CK(cudaMemcpy(d_in, in, in_bytes, cudaMemcpyHostToDevice));
    std::vector<double> host, device, up, down;
    for (int i = 0; i <= runs; i++) {
        double t0 = now_ms();
        EK(edgel_canny_volume(gpu, &p, &hs, &hd, NULL));
        if (i)
            host.push_back(now_ms() - t0);
        t0 = now_ms();
        EK(edgel_canny_volume(gpu, &p, &ds, &dd, NULL));
        CK(cudaDeviceSynchronize());
        if (i)
            device.push_back(now_ms() - t0);
        t0 = now_ms();
        CK(cudaMemcpy(d_in, in, in_bytes, cudaMemcpyHostToDevice));
        if (i)
            up.push_back(now_ms() - t0);
        t0 = now_ms();
        CK(cudaMemcpy(out, d_out, n, cudaMemcpyDeviceToHost));
        if (i)
            down.push_back(now_ms() - t0);
    }
    size_t edges = 0;
    EK(edgel_canny_volume(gpu, &p, &hs, &hd, NULL));
    for (size_t i = 0; i < n; i++)
        edges += ((uint8_t *)out)[i] != 0;
    const char *checked = "";
    if (side <= 512) { /* the CPU's edges (all cores), byte for byte */
        std::vector<uint8_t> want(n);
        edgel_context *cpu;
        EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
        const edgel_volume wv = edgel_volume_host(want.data(), side, side, side, EDGEL_U8);
        EK(edgel_canny_volume(cpu, &p, &hs, &wv, NULL));
        edgel_context_destroy(cpu);
        checked = memcmp(want.data(), out, n) ? " (DIFFERS from the CPU)" : " (= CPU)";
    }
    const double floor_ms = median(up) + median(down);
    printf("| %d^3 %s | %zu%s | %.1f | %.1f | %.1f + %.1f = %.1f | %.2f |\n", side,
           type == EDGEL_U8 ? "u8" : "f32", edges, checked, median(host), median(device),
           median(up), median(down), floor_ms, median(host) / floor_ms);
    edgel_context_destroy(gpu);
    return 0;
}
