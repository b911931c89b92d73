/*
 * The opencv preset's common case (one gray u8 frame, Sobel 3x3, no stage outputs) in one
 * launch for frames that fit in the shared memory of a thread-block cluster (Hopper and
 * later): see cuda_canny_cluster.cu.
 */
#ifndef EDGEL_CUDA_CANNY_CLUSTER_CUH
#define EDGEL_CUDA_CANNY_CLUSTER_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

/* Whether the current device runs a width x height frame through canny_cluster. */
bool canny_cluster_fits(int width, int height);

/* Canny of the device frame src into the device edge map dst (0 or 255), as cv::Canny with
 * integer thresholds low and high; only where canny_cluster_fits. */
cudaError_t launch_canny_cluster(cudaStream_t stream, const uint8_t *src, size_t src_pitch,
                                 uint8_t *dst, size_t dst_pitch, int width, int height,
                                 int32_t low, int32_t high, int l2);

#endif
