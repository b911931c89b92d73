/*
 * Sub-pixel curves of a batch of frames on the GPU: up to EDGEL_SUBPIXEL_LANES frames at once,
 * each lane a state of its own (streams and memory) driven by a host thread of its own (not
 * the pool's: the pool stays free to spread the curves copied to the host). One frame's call
 * waits on the host three times for the counts that size its next steps, and its kernels are
 * too small to fill the GPU: other lanes' frames fill those gaps.
 */
#include "cuda/cuda_internal.h"

#include "core/frames_run.h"

static_assert(EDGEL_SUBPIXEL_LANES >= 2, "the context and at least one lane more");

namespace {

struct lanes_job {
    edgel_cuda_state *lane[EDGEL_SUBPIXEL_LANES];
    const edgel_subpixel_params *params;
    const edgel_image *srcs;
    edgel_curves *const *curves;
};

edgel_status lane_frame(void *arg, int lane, int i)
{
    const lanes_job *j = (const lanes_job *)arg;
    return edgel_cuda_subpixel(j->lane[lane], j->params, &j->srcs[i], j->curves[i]);
}

/* Work queued on `to` from now on waits for what is queued on `from` so far. */
cudaError_t follow(cudaStream_t to, cudaStream_t from)
{
    cudaEvent_t e;
    cudaError_t err = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    if (err != cudaSuccess)
        return err;
    err = cudaEventRecord(e, from);
    if (err == cudaSuccess)
        err = cudaStreamWaitEvent(to, e, 0);
    cudaEventDestroy(e); /* (released once the wait is done) */
    return err;
}

} // namespace

extern "C" edgel_status edgel_cuda_subpixel_batch(edgel_cuda_state *s,
                                                  const edgel_subpixel_params *p,
                                                  const edgel_image *srcs,
                                                  edgel_curves *const *curves, int count)
{
    ON_DEVICE(s->device);
    const int lanes = count < EDGEL_SUBPIXEL_LANES ? count : EDGEL_SUBPIXEL_LANES;
    lanes_job j = {{s}, p, srcs, curves};
    for (int k = 1; k < lanes; k++) {
        edgel_cuda_state **l = &s->subpixel_lanes[k - 1];
        if (!*l)
            EDGEL_TRY(edgel_cuda_create(s->device, s->threads, l));
        j.lane[k] = *l;
        CUDA_TRY(follow((*l)->stream, s->stream)); /* device frames */
        CUDA_TRY(follow((*l)->slots[0].stream, s->stream)); /* host frames */
    }
    const edgel_status st = edgel_run_frames(lanes, count, 1, lane_frame, &j);
    for (int k = 1; k < lanes; k++) { /* curves left on the device */
        CUDA_TRY(follow(s->stream, j.lane[k]->stream));
        CUDA_TRY(follow(s->stream, j.lane[k]->slots[0].stream));
    }
    return st;
}
