#include "cuda/cuda_internal.h"
extern "C" edgel_status edgel_cuda_canny_skimage(edgel_cuda_state *, const edgel_canny_params *,
                                                 const edgel_image *, const edgel_image *,
                                                 const edgel_image *, const edgel_canny_stages *)
{
    return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "not yet");
}
