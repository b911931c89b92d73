/*
 * Canny of a small frame in one launch: a thread-block cluster holds the whole frame on chip
 * (compute capability 9.0 and later, where blocks of a cluster read and write each other's
 * shared memory). On small frames the three-launch path (canny_stream_kernel, link_tiles,
 * finish_tiles) waits mostly on launches and on chains of L2 round trips between tiles;
 * here the hysteresis runs in shared memory between cluster barriers.
 *
 * Block b of the cluster takes a band of `rows` image rows and keeps in its shared memory:
 *   1. the band's rows of the image and the two beyond each side (replicated at the image's
 *      edges), the magnitudes of the band and one row beyond each side (0 outside the image),
 *      and from them each pixel's class (core/opencv_math.h: edgel_nms_decide, the CPU's
 *      function), kept;
 *   2. a union-find over the band's candidates (cuda_union_find.cuh; a node per pixel), in
 *      its own shared memory: runs within a warp found by a ballot, then the joins with the
 *      neighbours right and below; each candidate's parent then made its band root;
 *   3. the joins across the seam between bands, over the cluster's shared memory: only band
 *      roots take part, a few per row of the seam, so little travels between blocks;
 *   4. each band root's root across the cluster, flagged where its set holds a strong pixel,
 *      and that flag brought back to the band roots;
 *   5. the edge bytes: candidates whose band root is flagged.
 * A cluster barrier separates the steps that read other blocks' memory from those that write
 * it, and the last one keeps every block's memory alive until all have read it. The parents
 * and flags reuse the memory of step 1's image and magnitudes.
 */
#include "cuda/cuda_canny_cluster.cuh"

#include <atomic>
#include <cooperative_groups.h>

#include "core/opencv_math.h"
#include "cuda/cuda_tuning.h"
#include "cuda/cuda_union_find.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int CLUSTER_THREADS = 1024;

struct cluster_frame {
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int w, h, rows; /* rows: a block's band (the last bands may hold fewer, or none) */
    int32_t low, high;
    int l2;
    int aligned; /* source and edge rows of whole 16-byte words at 16-byte addresses */
};

__host__ __device__ constexpr size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The shared memory layout of a block, the same in every block so that one offset names a
 * pixel's slot in any of them: the classes, then step 1's image and magnitudes, whose place
 * the parents and flags take. */
struct cluster_layout {
    size_t image, mag, parent, flag, bytes;
};

__host__ __device__ cluster_layout layout_of(int rows, int w)
{
    cluster_layout l;
    const size_t band = (size_t)rows * w;
    l.image = round16(band);
    l.mag = l.image + round16((size_t)(rows + 4) * w);
    l.parent = l.image;
    l.flag = l.parent + 4 * band;
    const size_t first = l.mag + 4 * (size_t)(rows + 2) * w, second = l.flag + round16(band);
    l.bytes = first > second ? first : second;
    return l;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

/* f(r, x) for each pixel of `n_rows` rows of w, the block's threads over them in turn. */
template <typename F> __device__ __forceinline__ void each_pixel(int n_rows, int w, F f)
{
    const int step_r = CLUSTER_THREADS / w, step_x = CLUSTER_THREADS - step_r * w;
    int r = threadIdx.x / w, x = threadIdx.x - r * w;
    while (r < n_rows) {
        f(r, x);
        x += step_x;
        r += step_r;
        if (x >= w)
            x -= w, r++;
    }
}

/* A union-find node: the block's rank and the pixel's index k = r * w + x in its band, in
 * the same order as the pixels (a band holds fewer than 2^20: its shared memory is smaller). */
constexpr uint32_t RANK_SHIFT = 20, LOCAL_MASK = (1u << RANK_SHIFT) - 1;
__device__ __forceinline__ uint32_t node_id(int rank, int k) { return (uint32_t)rank << RANK_SHIFT | (uint32_t)k; }

/* The parents of the nodes of this block's band (cuda_union_find.cuh's slots). */
struct band_slots {
    uint32_t *parent;
    __device__ volatile uint32_t *operator()(uint32_t id) const { return parent + (id & LOCAL_MASK); }
};

/* Any node's parent, or flag word, in the block that owns it. */
struct cluster_slots {
    uint32_t *parent; /* this block's, at the offset every block uses */
    uint32_t *flags;  /* the same: four pixels' flag bytes a word */
    uint32_t rank;
    template <typename T> __device__ T *in_owner(T *mine, uint32_t id) const
    {
        const uint32_t r = id >> RANK_SHIFT;
        return r == rank ? mine : cg::this_cluster().map_shared_rank(mine, r);
    }
    __device__ volatile uint32_t *operator()(uint32_t id) const
    {
        return in_owner(parent + (id & LOCAL_MASK), id);
    }
    __device__ uint32_t flag(uint32_t id) const
    {
        const uint32_t k = id & LOCAL_MASK;
        return *(volatile uint32_t *)in_owner(flags + k / 4, id) >> 8 * (k % 4) & 0xFF;
    }
    __device__ void set_flag(uint32_t id, uint32_t bit) const
    {
        const uint32_t k = id & LOCAL_MASK;
        atomicOr(in_owner(flags + k / 4, id), bit << 8 * (k % 4));
    }
};

/* A node's flag bits: the root of its set within the band; that set holds a strong pixel; the
 * set across the cluster holds one. */
enum : uint32_t { BAND_ROOT = 1, BAND_STRONG = 2, STRONG = 4 };

__global__ void __launch_bounds__(CLUSTER_THREADS, 1) canny_cluster_kernel(cluster_frame f)
{
    extern __shared__ __align__(16) uint8_t smem[];
    cg::cluster_group cluster = cg::this_cluster();
    const int w = f.w, h = f.h, rank = (int)cluster.block_rank();
    const cluster_layout lay = layout_of(f.rows, w);
    const int y0 = rank * f.rows, band_rows = max(0, min(f.rows, h - y0));
    uint8_t *cls = smem, *img = smem + lay.image;
    int32_t *mag = (int32_t *)(smem + lay.mag);

    /* 1. The image's rows y0 - 2 .. y0 + band_rows + 1, clamped: sixteen bytes a load where
     * rows allow, else a byte, eight loads in flight. */
    const int in_total = (band_rows + 4) * w;
    if (f.aligned) {
        const int vw = w / 16, vtotal = (band_rows + 4) * vw;
        for (int i = (int)threadIdx.x; i < vtotal; i += CLUSTER_THREADS) {
            const int r = i / vw;
            ((uint4 *)img)[i] = __ldg((const uint4 *)(f.src + (size_t)edgel_clamp_index(y0 - 2 + r, h) *
                                                                   f.src_pitch) + (i - r * vw));
        }
    }
    for (int base = 0; !f.aligned && base < in_total; base += 8 * CLUSTER_THREADS) {
        uint8_t v[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = base + k * CLUSTER_THREADS + (int)threadIdx.x, r = i / w;
            if (i < in_total)
                v[k] = __ldg(f.src + (size_t)edgel_clamp_index(y0 - 2 + r, h) * f.src_pitch + (i - r * w));
        }
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = base + k * CLUSTER_THREADS + (int)threadIdx.x;
            if (i < in_total)
                img[i] = v[k];
        }
    }
    __syncthreads();
    /* Sobel 3x3 of the pixel whose image rows are img rows j .. j + 2. */
    const auto sobel = [&](int j, int x, int32_t &dx, int32_t &dy) {
        const int xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
        const uint8_t *a = img + (size_t)j * w, *b = a + w, *c = b + w;
        const int32_t sl = a[xl] + 2 * b[xl] + c[xl], sr = a[xr] + 2 * b[xr] + c[xr];
        dx = sr - sl;
        dy = (c[xl] - a[xl]) + 2 * (c[x] - a[x]) + (c[xr] - a[xr]);
    };
    /* Magnitude rows y0 - 1 .. y0 + band_rows (mag row j: image row y0 - 1 + j). */
    each_pixel(band_rows + 2, w, [&](int j, int x) {
        const int y = y0 - 1 + j;
        int32_t m = 0, dx, dy;
        if (y >= 0 && y < h) {
            sobel(j, x, dx, dy);
            m = edgel_magnitude(dx, dy, f.l2);
        }
        mag[j * w + x] = m;
    });
    __syncthreads();
    each_pixel(band_rows, w, [&](int r, int x) {
        const int32_t *up = mag + (size_t)r * w, *mid = up + w, *down = mid + w;
        const bool l = x > 0, rt = x < w - 1;
        int32_t dx, dy;
        sobel(r + 1, x, dx, dy);
        cls[r * w + x] = edgel_nms_decide(mid[x], l ? up[x - 1] : 0, up[x], rt ? up[x + 1] : 0,
                                          l ? mid[x - 1] : 0, rt ? mid[x + 1] : 0,
                                          l ? down[x - 1] : 0, down[x], rt ? down[x + 1] : 0,
                                          dx, dy, f.low, f.high);
    });
    __syncthreads();

    /* 2. The sets within the band: a candidate's parent is the first of its run among its
     * warp's 32 pixels, found by a ballot (each_pixel's pixel k = r * w + x is thread
     * k % CLUSTER_THREADS's, so a warp holds 32 consecutive k); then the joins across the
     * warps' seams and with the candidates below, all in this block's memory. */
    uint32_t *parent = (uint32_t *)(smem + lay.parent), *flags = (uint32_t *)(smem + lay.flag);
    const band_slots band = {parent};
    const cluster_slots all = {parent, flags, (uint32_t)rank};
    const int band_total = band_rows * w;
    const unsigned lane = threadIdx.x % 32;
    for (int base = 0; base < band_total; base += CLUSTER_THREADS) { /* the same trips in
                                                                        every thread */
        const int k = base + (int)threadIdx.x;
        const bool in = k < band_total;
        const bool joined_left = in && k % w > 0 && cls[k] != EDGEL_MAP_NONE && cls[k - 1] != EDGEL_MAP_NONE;
        const unsigned starts = __ballot_sync(0xffffffffu, !joined_left) | 1u;
        const int start = 31 - __clz(starts & (0xffffffffu >> (31 - lane)));
        if (in)
            parent[k] = node_id(rank, k - ((int)lane - start));
    }
    for (int k = (int)threadIdx.x; k < (band_total + 3) / 4; k += CLUSTER_THREADS)
        flags[k] = 0;
    __syncthreads();
    /* The candidates among the three below (x - 1 .. x + 1, in `below`) that a candidate
     * joins: the one below, or where it is none, the diagonals (else they join it across
     * their own row). */
    const auto join_below = [&](const uint8_t *below, int x, auto join) {
        if (below[x] != EDGEL_MAP_NONE) {
            join(x);
            return;
        }
        if (x > 0 && below[x - 1] != EDGEL_MAP_NONE)
            join(x - 1);
        if (x + 1 < w && below[x + 1] != EDGEL_MAP_NONE)
            join(x + 1);
    };
    each_pixel(band_rows, w, [&](int r, int x) {
        const int k = r * w + x;
        if (cls[k] == EDGEL_MAP_NONE)
            return;
        const uint32_t me = node_id(rank, k);
        if (x + 1 < w && (k + 1) % 32 == 0 && cls[k + 1] != EDGEL_MAP_NONE)
            join_at<uint32_t, true>(band, me, me + 1);
        if (r + 1 < band_rows)
            join_below(cls + k + w - x, x, [&](int bx) {
                join_at<uint32_t, true>(band, me, node_id(rank, k + w - x + bx));
            });
    });
    __syncthreads();

    /* Each candidate's parent its band root; the band roots flagged, and those of sets
     * holding a strong pixel. */
    each_pixel(band_rows, w, [&](int r, int x) {
        const int k = r * w + x;
        if (cls[k] == EDGEL_MAP_NONE)
            return;
        const uint32_t root = find_root_compressing_at(band, node_id(rank, k));
        if (root == node_id(rank, k))
            all.set_flag(root, BAND_ROOT);
        if (cls[k] == EDGEL_MAP_STRONG)
            all.set_flag(root, BAND_STRONG);
    });
    cluster.sync();

    /* 3. The joins across the seam below the band, with the next block's first row: only band
     * roots change (no halving), so every other candidate keeps its band root as parent. */
    if (band_rows > 0 && y0 + band_rows < h) {
        const uint8_t *next_cls = cluster.map_shared_rank(cls, rank + 1);
        for (int x = (int)threadIdx.x; x < w; x += CLUSTER_THREADS) {
            const int k = (band_rows - 1) * w + x;
            if (cls[k] != EDGEL_MAP_NONE)
                join_below(next_cls, x, [&](int bx) {
                    join_at<uint32_t, false>(all, node_id(rank, k), node_id(rank + 1, bx));
                });
        }
    }
    cluster.sync();

    /* 4. Each band root's parent its root across the cluster, flagged where the band's set
     * holds a strong pixel. */
    each_pixel(band_rows, w, [&](int r, int x) {
        const int k = r * w + x;
        const uint32_t fl = all.flag(node_id(rank, k));
        if (cls[k] == EDGEL_MAP_NONE || !(fl & BAND_ROOT))
            return;
        const uint32_t root = find_root_compressing_at(all, node_id(rank, k));
        if (fl & BAND_STRONG)
            all.set_flag(root, STRONG);
    });
    cluster.sync();

    /* The band roots of strong sets flagged as such, from their roots. */
    each_pixel(band_rows, w, [&](int r, int x) {
        const int k = r * w + x;
        const uint32_t fl = all.flag(node_id(rank, k));
        if (cls[k] != EDGEL_MAP_NONE && (fl & BAND_ROOT) && !(fl & STRONG) &&
            (all.flag(parent[k]) & STRONG))
            all.set_flag(node_id(rank, k), STRONG);
    });
    cluster.sync(); /* (the last read of another block's memory) */

    /* 5. The edge bytes, four a store where rows allow: candidates whose band root is strong. */
    const auto edge = [&](int k) -> uint32_t {
        if (cls[k] == EDGEL_MAP_NONE)
            return 0;
        const uint32_t id = node_id(rank, k), root = all.flag(id) & BAND_ROOT ? id : parent[k];
        return all.flag(root) & STRONG ? 255 : 0;
    };
    if (f.aligned) {
        each_pixel(band_rows, w / 4, [&](int r, int q) {
            const int k = r * w + 4 * q;
            *(uint32_t *)(f.dst + (size_t)(y0 + r) * f.dst_pitch + 4 * q) =
                edge(k) | edge(k + 1) << 8 | edge(k + 2) << 16 | edge(k + 3) << 24;
        });
    } else {
        each_pixel(band_rows, w, [&](int r, int x) {
            f.dst[(size_t)(y0 + r) * f.dst_pitch + x] = (uint8_t)edge(r * w + x);
        });
    }
}

#else

__global__ void __launch_bounds__(CLUSTER_THREADS, 1) canny_cluster_kernel(cluster_frame) {}

#endif

/* The cluster size the current device runs canny_cluster_kernel with at its largest shared
 * memory (EDGEL_CLUSTER_BLOCKS, halved down to 8 where the device refuses it; 0: none), and
 * that memory. */
struct cluster_support {
    int size;
    size_t shared;
};

cluster_support ask_support(int device)
{
    cluster_support s = {0, 0};
    int major = 0, optin = 0;
    cudaFuncAttributes a;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        major < 9 ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
        cudaFuncGetAttributes(&a, (const void *)canny_cluster_kernel) != cudaSuccess || a.ptxVersion < 90 ||
        cudaFuncSetAttribute(canny_cluster_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin - (int)a.sharedSizeBytes) != cudaSuccess) {
        cudaGetLastError();
        return s;
    }
    s.shared = (size_t)optin - a.sharedSizeBytes;
    for (int size = EDGEL_CLUSTER_BLOCKS; size >= 8 && !s.size; size /= 2) {
        if (size > 8 && cudaFuncSetAttribute(canny_cluster_kernel,
                                             cudaFuncAttributeNonPortableClusterSizeAllowed,
                                             1) != cudaSuccess)
            continue;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(size);
        cfg.blockDim = dim3(CLUSTER_THREADS);
        cfg.dynamicSmemBytes = s.shared;
        cudaLaunchAttribute attr = {};
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = size, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        int clusters = 0;
        if (cudaOccupancyMaxActiveClusters(&clusters, canny_cluster_kernel, &cfg) == cudaSuccess &&
            clusters > 0)
            s.size = size;
    }
    cudaGetLastError();
    return s;
}

const cluster_support &support()
{
    enum { MAX_DEVICES = 64 };
    static cluster_support known[MAX_DEVICES];
    static std::atomic<int> state[MAX_DEVICES]; /* 0 not asked, 1 being asked, 2 known */
    static const cluster_support none = {0, 0};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= MAX_DEVICES)
        return none;
    int idle = 0;
    if (state[device].load(std::memory_order_acquire) != 2 &&
        state[device].compare_exchange_strong(idle, 1)) {
        known[device] = ask_support(device);
        state[device].store(2, std::memory_order_release);
    }
    while (state[device].load(std::memory_order_acquire) != 2) {
    } /* another thread asks: once */
    return known[device];
}

} // namespace

bool canny_cluster_fits(int width, int height)
{
    if ((double)width * height > EDGEL_CLUSTER_MAX_PIXELS)
        return false;
    const cluster_support &s = support();
    if (!s.size)
        return false;
    const int rows = (height + s.size - 1) / s.size;
    return layout_of(rows, width).bytes <= s.shared;
}

cudaError_t launch_canny_cluster(cudaStream_t stream, const uint8_t *src, size_t src_pitch,
                                 uint8_t *dst, size_t dst_pitch, int width, int height,
                                 int32_t low, int32_t high, int l2)
{
    const cluster_support &s = support();
    const int rows = (height + s.size - 1) / s.size;
    const int aligned = (uintptr_t)src % 16 == 0 && src_pitch % 16 == 0 && width % 16 == 0 &&
                        (uintptr_t)dst % 16 == 0 && dst_pitch % 16 == 0;
    const cluster_frame f = {src, src_pitch, dst, dst_pitch, width, height, rows, low, high, l2,
                             aligned};
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(s.size);
    cfg.blockDim = dim3(CLUSTER_THREADS);
    cfg.dynamicSmemBytes = layout_of(rows, width).bytes;
    cfg.stream = stream;
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = s.size, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, canny_cluster_kernel, f);
}
