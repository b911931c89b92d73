/*
 * How the convolution engine stores a sum, shared by the CPU and CUDA backends so that every
 * method gives the same result for sums that are not finite. Those arise from NaN or
 * infinite input and from sums that overflow the float range, and different methods reach
 * them by different roads (direct sums may end at +inf where an FFT or a separable pass
 * meets inf - inf = NaN); stored, they are one value:
 *   f32 output: NaN;
 *   u8 output:  0, as cv2.filter2D gives on x86 (its cvRound turns NaN and infinities into
 *               INT_MIN, which saturates to 0).
 * Finite sums: f32 as they are; u8 rounded half to even and saturated to 0..255.
 */
#ifndef EDGEL_CORE_FILTER_MATH_H
#define EDGEL_CORE_FILTER_MATH_H

#include "core/host_device.h"

#include <stdint.h>

#include <math.h>

EDGEL_HD int edgel_filter_finite(float v) { return v - v == 0.0f; } /* false for NaN, inf */

EDGEL_HD float edgel_filter_store_f32(float v) { return edgel_filter_finite(v) ? v : NAN; }

EDGEL_HD uint8_t edgel_filter_store_u8(float v)
{
    if (!edgel_filter_finite(v))
        return 0;
    const float r = rintf(v); /* half to even */
    return (uint8_t)(r <= 0.0f ? 0 : r >= 255.0f ? 255 : (int)r);
}

#endif
