/* Internal: the frames of a batch spread over threads (the host pool's, or threads of their
 * own), each thread taking the next frame not yet started (frames take different times). */
#ifndef EDGEL_CORE_FRAMES_RUN_H
#define EDGEL_CORE_FRAMES_RUN_H

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EDGEL_MAX_FRAME_LANES 64 /* threads of their own a call starts, at most */

/* fn(arg, lane, frame) for frame = 0..count-1 on up to `lanes` threads (lane < lanes names
 * the thread, for its own resources): the pool's (fewer where it is in use), or with
 * `own_threads` threads started for the call, which leaves the pool to the frames' own
 * parallel parts (a GPU's frames: their copies to the host). After a failure no frame is
 * started; the status returned is that of the lowest frame that failed, its message
 * prefixed "frame N: " where count > 1. */
edgel_status edgel_run_frames(int lanes, int count, int own_threads,
                              edgel_status (*fn)(void *arg, int lane, int frame), void *arg);

#ifdef __cplusplus
}
#endif

#endif
