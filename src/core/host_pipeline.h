/* Internal: a two-stage pipeline on the host: step i's second stage runs on a thread of its
 * own while the first stage of step i + 1 runs on the caller's (the tiled driver links a row
 * of tiles while the backend makes the next row's marks). */
#ifndef EDGEL_CORE_HOST_PIPELINE_H
#define EDGEL_CORE_HOST_PIPELINE_H

#include "edgel.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For i = 0..count-1: first(arg, i), then second(arg, i) beside first(arg, i + 1); second
 * runs one step at a time, in order, and may not touch what first's next step does. Stops
 * at the first failure and returns its status (first's where both fail); the second stage
 * runs on the caller's thread where no thread can be had. */
edgel_status edgel_host_pipeline(int64_t count, edgel_status (*first)(void *arg, int64_t i),
                                 edgel_status (*second)(void *arg, int64_t i), void *arg);

#ifdef __cplusplus
}
#endif

#endif
