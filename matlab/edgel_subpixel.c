/*
 * [C, closed, G] = edgel_subpixel(A, sigma, high, low)
 *
 * Sub-pixel edge points of a gray image A (H x W of uint8, uint16, single or double) chained
 * into curves: the Canny/Devernay detector, equal point for point to its reference program.
 * C is a 1 x M cell array of curves, each an N x 2 double matrix of [x y] in MATLAB's image
 * coordinates (pixel centres at 1..W and 1..H, as imshow and plot place them); closed is a
 * 1 x M logical row (a closed curve repeats its first point at its end); G is a 1 x M cell
 * array of N x 3 matrices [gx gy modulus], the gradient at each point's pixel (gx along x,
 * the columns; gy along y, the rows).
 *
 * The help text is matlab/help/edgel_subpixel.m (copied beside the mex). A CPU context and
 * the result's memory are kept between calls, and freed when the mex is cleared.
 *
 * MATLAB and Octave store A column by column; edgel reads rows. The gateway copies A into a
 * row-major buffer of its own type (the detector's order of visit is part of its result, so
 * the transposed image would not do).
 */
#include "mex.h"

#include <string.h>

#include "edgel.h"

static edgel_context *ctx;
static edgel_curves *curves;

static void free_kept(void)
{
    edgel_curves_destroy(curves);
    edgel_context_destroy(ctx);
    curves = NULL;
    ctx = NULL;
}

static void fail(const char *id, const char *msg) { mexErrMsgIdAndTxt(id, "%s", msg); }

static double scalar(const mxArray *a, const char *name)
{
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1)
        mexErrMsgIdAndTxt("edgel:badArgument", "%s must be a real scalar", name);
    return mxGetScalar(a);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 1 || nrhs > 4)
        fail("edgel:usage", "usage: [C, closed, G] = edgel_subpixel(A, sigma, high, low)");
    if (nlhs > 3)
        fail("edgel:usage", "edgel_subpixel returns at most three outputs");
    const mxArray *A = prhs[0];
    edgel_pixel_type type = EDGEL_U8;
    if (mxIsUint8(A))
        type = EDGEL_U8;
    else if (mxIsUint16(A))
        type = EDGEL_U16;
    else if (mxIsSingle(A))
        type = EDGEL_F32;
    else if (mxIsDouble(A))
        type = EDGEL_F64;
    else
        fail("edgel:badImage", "A must be uint8, uint16, single or double");
    if (mxIsComplex(A) || mxGetNumberOfDimensions(A) != 2)
        fail("edgel:badImage", "A must be a real H x W gray image");
    const size_t h = mxGetM(A), w = mxGetN(A), item = mxGetElementSize(A);
    if (h == 0 || w == 0)
        fail("edgel:badImage", "A is empty");
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = nrhs > 1 ? scalar(prhs[1], "sigma") : 0.0;
    p.high = nrhs > 2 ? scalar(prhs[2], "high") : 0.0;
    p.low = nrhs > 3 ? scalar(prhs[3], "low") : 0.0;

    if (!ctx) {
        if (edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) != EDGEL_OK ||
            edgel_curves_create(&curves) != EDGEL_OK) {
            free_kept();
            fail("edgel:failed", edgel_last_error());
        }
        mexAtExit(free_kept);
    }
    unsigned char *rows = mxMalloc(h * w * item); /* freed by MATLAB on an error too */
    const unsigned char *cols = (const unsigned char *)mxGetData(A);
    for (size_t x = 0; x < w; x++)
        for (size_t y = 0; y < h; y++)
            memcpy(rows + (y * w + x) * item, cols + (x * h + y) * item, item);
    const edgel_image src = edgel_image_host(rows, (int32_t)w, (int32_t)h, type, 1);
    if (edgel_subpixel_edges(ctx, &p, &src, curves) != EDGEL_OK)
        fail("edgel:failed", edgel_last_error());
    mxFree(rows);
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    edgel_curves_get(curves, &v);

    const mwSize m = (mwSize)v.curves;
    plhs[0] = mxCreateCellMatrix(1, m);
    mxArray *closed = mxCreateLogicalMatrix(1, m);
    mxArray *grads = mxCreateCellMatrix(1, m);
    for (mwSize k = 0; k < m; k++) {
        const int64_t a = v.limits[k], n = v.limits[k + 1] - a;
        mxArray *c = mxCreateDoubleMatrix((mwSize)n, 2, mxREAL);
        mxArray *g = mxCreateDoubleMatrix((mwSize)n, 3, mxREAL);
        double *pc = mxGetPr(c), *pg = mxGetPr(g);
        for (int64_t i = 0; i < n; i++) { /* column-major: all x, then all y */
            pc[i] = v.x[a + i] + 1.0;
            pc[n + i] = v.y[a + i] + 1.0;
            pg[i] = v.gx[a + i];
            pg[n + i] = v.gy[a + i];
            pg[2 * n + i] = v.modulus[a + i];
        }
        mxSetCell(plhs[0], k, c);
        mxSetCell(grads, k, g);
        mxGetLogicals(closed)[k] = v.closed[k] != 0;
    }
    if (nlhs > 1)
        plhs[1] = closed;
    else
        mxDestroyArray(closed);
    if (nlhs > 2)
        plhs[2] = grads;
    else
        mxDestroyArray(grads);
}
