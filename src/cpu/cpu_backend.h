/* The CPU backend as the entry points see it: its table of functions and its state. */
#ifndef EDGEL_CPU_BACKEND_H
#define EDGEL_CPU_BACKEND_H

#include "core/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

const edgel_backend_ops *edgel_cpu_ops(void);
/* The state of a context on `threads` worker threads. Its to_gray, gaussian_blur and
 * subpixel_points also run with a NULL state (on all cores), for contexts of backends
 * without them. */
edgel_status edgel_cpu_backend_create(int threads, void **state);

#ifdef __cplusplus
}
#endif

#endif
