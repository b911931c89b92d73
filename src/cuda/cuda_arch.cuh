/*
 * What an SM of the architecture being compiled holds at once, for launch bounds that ask for
 * a full SM (the CUDA C Programming Guide's table of compute capabilities): resident warps
 * and resident blocks. The host pass, and architectures newer than this table, get Hopper's.
 */
#ifndef EDGEL_CUDA_ARCH_CUH
#define EDGEL_CUDA_ARCH_CUH

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define EDGEL_SM_WARPS 32 /* Turing */
#define EDGEL_SM_BLOCKS 16
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 880)
#define EDGEL_SM_WARPS 48 /* Ampere consumer and embedded */
#define EDGEL_SM_BLOCKS 16
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1100)
#define EDGEL_SM_WARPS 48 /* Ada, Thor */
#define EDGEL_SM_BLOCKS 24
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 1200 || __CUDA_ARCH__ == 1210)
#define EDGEL_SM_WARPS 48 /* Blackwell consumer and DGX Spark */
#define EDGEL_SM_BLOCKS 32
#else
#define EDGEL_SM_WARPS 64 /* A100, Hopper, Blackwell data centre */
#define EDGEL_SM_BLOCKS 32
#endif

#endif
