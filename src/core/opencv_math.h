/*
 * The per-pixel arithmetic of the opencv preset, shared by the CPU and CUDA backends so that
 * both compute the same function. Everything here is integer and exact.
 */
#ifndef EDGEL_CORE_OPENCV_MATH_H
#define EDGEL_CORE_OPENCV_MATH_H

#include <math.h>
#include <stdint.h>

#include "core/host_device.h"

/* Hysteresis map values, as cv::Canny: 0 = weak candidate, 1 = not an edge, 2 = edge. */
enum { EDGEL_MAP_WEAK = 0, EDGEL_MAP_NONE = 1, EDGEL_MAP_STRONG = 2 };

/* Values of the "suppressed" stage image. */
enum { EDGEL_SUPPRESSED_NONE = 0, EDGEL_SUPPRESSED_WEAK = 128, EDGEL_SUPPRESSED_STRONG = 255 };

EDGEL_HD int32_t edgel_abs32(int32_t v) { return v < 0 ? -v : v; }

/* Two's-complement wrap, as OpenCV's int arithmetic behaves on every platform it ships on. */
EDGEL_HD int32_t edgel_wrap32(uint32_t v) { return (int32_t)v; }

/* Gradient magnitude: L1 |dx|+|dy|, L2 dx*dx+dy*dy (int32, wrapping like OpenCV for the
 * extreme user gradients where it overflows). */
EDGEL_HD int32_t edgel_magnitude(int32_t dx, int32_t dy, int l2)
{
    if (l2)
        return edgel_wrap32((uint32_t)(dx * dx) + (uint32_t)(dy * dy));
    return edgel_abs32(dx) + edgel_abs32(dy);
}

/* edgel_magnitude in float, for the GPU (see edgel_nms_keep_f32): exact for integer-valued
 * gradients with |dx|, |dy| <= 2896 (an L2 magnitude below 2^24), Sobel 3x3 of u8 included. */
EDGEL_HD float edgel_magnitude_f32(float dx, float dy, int l2)
{
    return l2 ? fmaf(dx, dx, dy * dy) : fabsf(dx) + fabsf(dy);
}

/*
 * Non-maximum suppression of a pixel of magnitude m, given its eight neighbours' magnitudes
 * (outside the image: zeros) and its gradient: 1 where m is a local maximum across the edge.
 * Ties are asymmetric exactly as cv::Canny: strict towards left/up, non-strict towards
 * right/down, strict both ways on diagonals. Written with selects, not branches, so a row
 * loop over it vectorises. The direction test is OpenCV's fixed point: TG22 =
 * round(tan(22.5deg) * 2^15).
 */
EDGEL_HD int edgel_nms_keep(int32_t m, int32_t up_left, int32_t up_mid, int32_t up_right,
                            int32_t left, int32_t right, int32_t down_left, int32_t down_mid,
                            int32_t down_right, int32_t dx, int32_t dy)
{
    const uint32_t ax = (uint32_t)edgel_abs32(dx);
    const int32_t ay = edgel_abs32(dy) << 15;
    const int32_t tg22x = edgel_wrap32(ax * 13573u);
    const int32_t tg67x = edgel_wrap32((uint32_t)tg22x + (ax << 16));
    const int horizontal = ay < tg22x;
    const int vertical = !horizontal && ay > tg67x;
    const int anti = (dx ^ dy) < 0; /* diagonal from lower left to upper right */
    const int32_t diag_before = anti ? up_right : up_left, diag_after = anti ? down_left : down_right;
    const int32_t before = horizontal ? left : vertical ? up_mid : diag_before;
    const int32_t after = horizontal ? right : vertical ? down_mid : diag_after;
    const int straight = horizontal | vertical; /* ties kept towards right/down */
    return (m > before) & ((m > after) | (straight & (m == after)));
}

/*
 * edgel_nms_keep in 16-bit lanes, for the CPU's common case (Sobel 3x3 of u8, L1: |dx|, |dy|
 * <= 1020, magnitudes <= 2040): twice the lanes of the 32-bit form. Exact for |dx|, |dy| <=
 * 8191. With t = floor(ax TG22 / 2^15) (a high-half multiply: ax * 2 TG22 >> 16), for ax > 0
 * ax TG22 / 2^15 is no integer, so for integer ay: ay 2^15 < ax TG22 <=> ay <= t, and
 * ay 2^15 > ax (TG22 + 2^16) <=> ay > 2 ax + t; for ax = 0 (t = 0) the first never holds and
 * the second where ay > 0.
 */
EDGEL_HD int edgel_nms_keep_i16(int16_t m, int16_t up_left, int16_t up_mid, int16_t up_right,
                                int16_t left, int16_t right, int16_t down_left, int16_t down_mid,
                                int16_t down_right, int16_t dx, int16_t dy)
{
    const int16_t ax = (int16_t)(dx < 0 ? -dx : dx), ay = (int16_t)(dy < 0 ? -dy : dy);
    const int16_t t = (int16_t)(((int32_t)ax * 27146) >> 16);
    const int horizontal = (ay <= t) & (ax != 0);
    const int vertical = ay > (int16_t)(2 * ax + t);
    const int anti = (int16_t)(dx ^ dy) < 0;
    const int16_t diag_before = anti ? up_right : up_left, diag_after = anti ? down_left : down_right;
    const int16_t before = horizontal ? left : vertical ? up_mid : diag_before;
    const int16_t after = horizontal ? right : vertical ? down_mid : diag_after;
    const int straight = horizontal | vertical;
    return (m > before) & ((m > after) | (straight & (m == after)));
}

/* x clamped to [0, 1]: on the GPU one modifier of the instruction that computes x. */
EDGEL_HD float edgel_sat(float x)
{
#if defined(__CUDA_ARCH__)
    return __saturatef(x);
#else
    return fminf(fmaxf(x, 0.0f), 1.0f);
#endif
}

/*
 * edgel_nms_keep in float arithmetic, for the GPU's streaming kernel: there it runs on the
 * FP32 pipes, which issue twice as fast as the integer pipe that compares and selects use.
 * Exactly edgel_nms_keep's result for integer-valued inputs with |dx|, |dy| <= 27145 (where
 * that function's int32 products do not wrap) and magnitudes in [0, 2^23): the direction
 * tests are fused multiply-adds whose one rounding keeps the sign of an integer, saturated to
 * 0 or 1; the neighbours are picked by multiplying with those; and a tie towards right/down
 * on the straight directions counts as m + 1/2 > after.
 */
EDGEL_HD int edgel_nms_keep_f32(float m, float up_left, float up_mid, float up_right, float left,
                                float right, float down_left, float down_mid, float down_right,
                                float dx, float dy)
{
    const float ax = fabsf(dx), ay = fabsf(dy) * 32768.0f;
    const float horizontal = edgel_sat(fmaf(ax, 13573.0f, -ay)); /* ay 2^15 < ax TG22 */
    const float vertical = edgel_sat(fmaf(ax, -79109.0f, ay));   /* ay 2^15 > ax (TG22 + 2^16) */
    const float anti = edgel_sat(dx * -dy);                      /* signs differ */
    const float diag_before = fmaf(anti, up_right - up_left, up_left);
    const float diag_after = fmaf(anti, down_left - down_right, down_right);
    const float not_h_before = fmaf(vertical, up_mid - diag_before, diag_before);
    const float not_h_after = fmaf(vertical, down_mid - diag_after, diag_after);
    const float before = fmaf(horizontal, left - not_h_before, not_h_before);
    const float after = fmaf(horizontal, right - not_h_after, not_h_after);
    const float m_tie = fmaf(horizontal + vertical, 0.5f, m);
    return (m > before) & (m_tie > after);
}

/* Suppression and double threshold: the pixel's map value (EDGEL_MAP_*). */
EDGEL_HD uint8_t edgel_nms_decide(int32_t m, int32_t up_left, int32_t up_mid, int32_t up_right,
                                  int32_t left, int32_t right, int32_t down_left, int32_t down_mid,
                                  int32_t down_right, int32_t dx, int32_t dy, int32_t low,
                                  int32_t high)
{
    const int32_t keep = (m > low) & edgel_nms_keep(m, up_left, up_mid, up_right, left, right,
                                                    down_left, down_mid, down_right, dx, dy);
    const int32_t kept_value = m > high ? EDGEL_MAP_STRONG : EDGEL_MAP_WEAK;
    return (uint8_t)(keep ? kept_value : EDGEL_MAP_NONE);
}

/* edgel_nms_decide for edgel_nms_keep_i16's range (low and high clamped to int16 give the
 * same comparisons with magnitudes of that range). */
EDGEL_HD uint8_t edgel_nms_decide_i16(const int16_t *up, const int16_t *mid, const int16_t *down,
                                      int x, int16_t dx, int16_t dy, int16_t low, int16_t high)
{
    const int16_t m = mid[x];
    const int keep = (m > low) & edgel_nms_keep_i16(m, up[x - 1], up[x], up[x + 1], mid[x - 1],
                                                    mid[x + 1], down[x - 1], down[x], down[x + 1],
                                                    dx, dy);
    const int kept_value = m > high ? EDGEL_MAP_STRONG : EDGEL_MAP_WEAK;
    return (uint8_t)(keep ? kept_value : EDGEL_MAP_NONE);
}

/* The same from magnitude rows: the pixel at column x of `mid`. All eight neighbours are
 * loaded unconditionally so that compilers if-convert. */
EDGEL_HD uint8_t edgel_nms_value(const int32_t *up, const int32_t *mid, const int32_t *down,
                                 int x, int32_t dx, int32_t dy, int32_t low, int32_t high)
{
    return edgel_nms_decide(mid[x], up[x - 1], up[x], up[x + 1], mid[x - 1], mid[x + 1],
                            down[x - 1], down[x], down[x + 1], dx, dy, low, high);
}

EDGEL_HD uint8_t edgel_map_to_suppressed(uint8_t map)
{
    return map == EDGEL_MAP_STRONG ? EDGEL_SUPPRESSED_STRONG
         : map == EDGEL_MAP_WEAK   ? EDGEL_SUPPRESSED_WEAK
                                   : EDGEL_SUPPRESSED_NONE;
}

/* The inverse: the suppressed stage's byte as a hysteresis map value. */
EDGEL_HD uint8_t edgel_suppressed_to_map(uint8_t suppressed)
{
    return suppressed == EDGEL_SUPPRESSED_STRONG ? EDGEL_MAP_STRONG
         : suppressed == EDGEL_SUPPRESSED_WEAK   ? EDGEL_MAP_WEAK
                                                 : EDGEL_MAP_NONE;
}

/* The 7x7 Sobel sum scaled by 1/16 and rounded half to even (OpenCV's float path). */
EDGEL_HD int32_t edgel_div16_round_even(int32_t s)
{
    int32_t q = s >> 4; /* floor */
    int32_t r = s & 15;
    if (r > 8 || (r == 8 && (q & 1)))
        q++;
    return q;
}

/* cv::cvtColor RGB->GRAY for u8 as OpenCV 5.0 computes it: 15-bit fixed point
 * (0.299, 0.587, 0.114 -> 9798, 19235, 3735), round half up. Checked against cv2 5.0 on all
 * 2^24 colours (OpenCV 4.x used 14 bits: 4899, 9617, 1868, which differs on 0.26% of them). */
EDGEL_HD uint8_t edgel_luma_u8(uint32_t r, uint32_t g, uint32_t b)
{
    return (uint8_t)((r * 9798u + g * 19235u + b * 3735u + (1u << 14)) >> 15);
}

/* Index of a pixel outside [0, len) under BORDER_REFLECT_101 (gfedcb|abcdefgh|gfedcba). */
EDGEL_HD int edgel_reflect101(int p, int len)
{
    if (len == 1)
        return 0;
    while (p < 0 || p >= len)
        p = p < 0 ? -p : 2 * len - 2 - p;
    return p;
}

EDGEL_HD int edgel_clamp_index(int p, int len) { return p < 0 ? 0 : (p >= len ? len - 1 : p); }

/*
 * Fixed-point filtering of u8 images by factors qx / 256 and qy / 256 (non-negative, each
 * summing to at most 256): a row pass keeps sum qx * pixel exactly in u16 (8 fractional
 * bits), a column pass sum qy * row in u32 (16 fractional bits, at most 255 * 2^16). Every
 * partial sum has at most 24 significant bits, so float arithmetic in any order gives the
 * same value s / 2^16 exactly: this is the float methods' result, reached in integers.
 */
EDGEL_HD uint8_t edgel_fixed_point_round(uint32_t s, int half_up)
{
    uint32_t q = (s + 0x8000u) >> 16; /* half up */
    if (!half_up)
        q -= (s & 0x1ffffu) == 0x8000u; /* a tie below an even value: down */
    return (uint8_t)(q > 255u ? 255u : q);
}

#endif
