/* EDGEL_HD: a small function compiled for the host, and for the device in CUDA sources, so
 * that both backends run the same per-pixel arithmetic. */
#ifndef EDGEL_CORE_HOST_DEVICE_H
#define EDGEL_CORE_HOST_DEVICE_H

#if defined(__CUDACC__)
#  define EDGEL_HD static inline __host__ __device__
#else
#  define EDGEL_HD static inline
#endif

#endif
