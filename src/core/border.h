/*
 * Border modes of the convolution engine, shared by the CPU and CUDA backends: where a
 * coordinate outside [0, n) reads from. Any coordinate works, so kernels may be larger than
 * the image (the extension repeats, as in OpenCV's borderInterpolate and SciPy's ndimage).
 */
#ifndef EDGEL_CORE_BORDER_H
#define EDGEL_CORE_BORDER_H

#include "core/host_device.h"
#include "edgel.h"

/* The index p reads from, or -1 where a constant border gives border_value. */
EDGEL_HD int edgel_border_index(int p, int n, int border)
{
    if (p >= 0 && p < n)
        return p;
    if (border == EDGEL_BORDER_CONSTANT)
        return -1;
    if (border == EDGEL_BORDER_REPLICATE || n == 1)
        return p < 0 ? 0 : n - 1;
    if (border == EDGEL_BORDER_WRAP) {
        const int q = p % n;
        return q < 0 ? q + n : q;
    }
    const int reflect = border == EDGEL_BORDER_REFLECT;
    const int period = reflect ? 2 * n : 2 * n - 2;
    int q = p % period;
    if (q < 0)
        q += period;
    return q < n ? q : period - q - reflect;
}

#endif
