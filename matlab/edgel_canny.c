/*
 * E = edgel_canny(A, low, high, Name, Value, ...)
 *
 * Canny edges of a uint8 image A (H x W gray, or H x W x 3 / x 4 RGB(A)), equal to OpenCV's
 * cv2.Canny on the same pixels; E is uint8 H x W with 255 on edges.
 *
 * Names (case-insensitive):
 *   'Aperture'  3 (default), 5, 7 or 'scharr' (needs 'L2', true)
 *   'L2'        false (default): |dx|+|dy|; true: sqrt(dx^2+dy^2)
 *   'Blur'      [] (default), a Gaussian sigma, or '5x5'
 *   'Gray'      'luma' (default, = rgb2gray as cv2.cvtColor) or 'max-channel'
 *   'Backend'   'auto' (default), 'cpu' or 'cuda'
 *   'Threads'   CPU threads, 0 = all cores (default)
 *
 * The help text is matlab/help/edgel_canny.m (copied beside the mex: the mex runs, `help`
 * reads the .m; elsewhere on the path the .m would hide the mex). A context is kept
 * between calls with the same Backend and Threads, and freed when the mex is cleared.
 *
 * MATLAB and Octave store A column by column; edgel wants rows of interleaved pixels. The
 * gateway converts A once into a row-major buffer and E once back. It cannot work on the
 * transposed image instead: OpenCV's fixed-point direction test is not symmetric under
 * transposition (gradient ratios such as 2378:985 fall on different sides), so the result
 * would not be cv2.Canny's.
 */
#include "mex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "edgel.h"

static void fail(const char *id, const char *msg) { mexErrMsgIdAndTxt(id, "%s", msg); }

#define EDGEL_TRY_MEX(call)                  \
    do {                                     \
        const edgel_status try_ = (call);    \
        if (try_ != EDGEL_OK)                \
            return try_;                     \
    } while (0)

static int name_is(const mxArray *a, const char *want)
{
    char buf[32];
    if (!mxIsChar(a) || mxGetString(a, buf, sizeof buf) != 0)
        return 0;
    for (char *p = buf; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return strcmp(buf, want) == 0;
}

/* The context of the last call, kept for the next one with the same backend and threads. */
static edgel_context *kept;
static edgel_backend kept_backend;
static int32_t kept_threads;

static void free_kept(void)
{
    edgel_context_destroy(kept);
    kept = NULL;
}

static edgel_status context_for(edgel_backend backend, const edgel_context_options *opts,
                                edgel_context **out)
{
    if (!kept || kept_backend != backend || kept_threads != opts->threads) {
        free_kept();
        EDGEL_TRY_MEX(edgel_context_create(backend, opts, &kept));
        kept_backend = backend;
        kept_threads = opts->threads;
        mexAtExit(free_kept);
    }
    *out = kept;
    return EDGEL_OK;
}

static double scalar(const mxArray *a, const char *what)
{
    if (!mxIsNumeric(a) && !mxIsLogical(a))
        mexErrMsgIdAndTxt("edgel:badArgument", "%s must be a number", what);
    if (mxGetNumberOfElements(a) != 1)
        mexErrMsgIdAndTxt("edgel:badArgument", "%s must be a scalar", what);
    return mxGetScalar(a);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 3 || (nrhs - 3) % 2 != 0)
        fail("edgel:usage", "usage: E = edgel_canny(A, low, high, Name, Value, ...)");
    if (nlhs > 1)
        fail("edgel:usage", "edgel_canny returns one output");
    const mxArray *A = prhs[0];
    if (!mxIsUint8(A) || mxIsComplex(A))
        fail("edgel:badImage", "A must be a real uint8 image (H x W, H x W x 3 or H x W x 4)");
    const mwSize nd = mxGetNumberOfDimensions(A);
    const mwSize *dims = mxGetDimensions(A);
    const size_t h = dims[0], w = dims[1], cn = nd > 2 ? dims[2] : 1;
    if (nd > 3 || !(cn == 1 || cn == 3 || cn == 4))
        fail("edgel:badImage", "A must be H x W, H x W x 3 or H x W x 4");
    if (h == 0 || w == 0)
        fail("edgel:badImage", "A is empty");

    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = scalar(prhs[1], "low");
    p.high_threshold = scalar(prhs[2], "high");
    p.gray = EDGEL_GRAY_RGB;
    edgel_backend backend = EDGEL_BACKEND_AUTO;
    edgel_context_options opts;
    edgel_context_options_default(&opts);
    for (int i = 3; i < nrhs; i += 2) {
        const mxArray *v = prhs[i + 1];
        if (name_is(prhs[i], "aperture"))
            p.aperture = name_is(v, "scharr") ? EDGEL_APERTURE_SCHARR : (int)scalar(v, "Aperture");
        else if (name_is(prhs[i], "l2"))
            p.l2_gradient = scalar(v, "L2") != 0;
        else if (name_is(prhs[i], "blur")) {
            if (name_is(v, "5x5")) {
                p.blur = EDGEL_BLUR_5X5_159;
            } else if (!mxIsEmpty(v)) {
                p.blur = EDGEL_BLUR_GAUSSIAN;
                p.blur_sigma = scalar(v, "Blur");
            }
        } else if (name_is(prhs[i], "gray")) {
            if (name_is(v, "luma"))
                p.gray = EDGEL_GRAY_RGB;
            else if (name_is(v, "max-channel"))
                p.gray = EDGEL_GRAY_NONE;
            else
                fail("edgel:badArgument", "'Gray' is 'luma' or 'max-channel'");
        } else if (name_is(prhs[i], "backend")) {
            if (name_is(v, "auto"))
                backend = EDGEL_BACKEND_AUTO;
            else if (name_is(v, "cpu"))
                backend = EDGEL_BACKEND_CPU;
            else if (name_is(v, "cuda"))
                backend = EDGEL_BACKEND_CUDA;
            else
                fail("edgel:badArgument", "'Backend' is 'auto', 'cpu' or 'cuda'");
        } else if (name_is(prhs[i], "threads")) {
            opts.threads = (int32_t)scalar(v, "Threads");
        } else {
            fail("edgel:badArgument",
                 "unknown option (use Aperture, L2, Blur, Gray, Backend or Threads)");
        }
    }

    /* Column-major planes -> row-major interleaved, and back for the edges. */
    const uint8_t *a = (const uint8_t *)mxGetData(A);
    uint8_t *in = (uint8_t *)mxMalloc(h * w * cn), *out = (uint8_t *)mxMalloc(h * w);
    for (size_t c = 0; c < cn; c++)
        for (size_t x = 0; x < w; x++)
            for (size_t y = 0; y < h; y++)
                in[(y * w + x) * cn + c] = a[c * h * w + x * h + y];
    edgel_context *ctx = NULL;
    edgel_status st = context_for(backend, &opts, &ctx);
    if (st == EDGEL_OK) {
        edgel_image src = edgel_image_host(in, (int32_t)w, (int32_t)h, EDGEL_U8, (int32_t)cn);
        edgel_image dst = edgel_image_host(out, (int32_t)w, (int32_t)h, EDGEL_U8, 1);
        st = edgel_canny(ctx, &p, &src, &dst, NULL);
    }
    mxFree(in);
    if (st != EDGEL_OK) {
        mxFree(out);
        mexErrMsgIdAndTxt("edgel:failed", "%s: %s", edgel_status_name(st), edgel_last_error());
    }
    plhs[0] = mxCreateNumericMatrix(h, w, mxUINT8_CLASS, mxREAL);
    uint8_t *e = (uint8_t *)mxGetData(plhs[0]);
    for (size_t x = 0; x < w; x++)
        for (size_t y = 0; y < h; y++)
            e[x * h + y] = out[y * w + x];
    mxFree(out);
}
