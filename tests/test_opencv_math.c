/* The float forms of the magnitude and the NMS test (edgel_magnitude_f32, edgel_nms_keep_f32,
 * run by the GPU's streaming kernel) and the NMS test's 16-bit form (edgel_nms_keep_i16, the
 * CPU's Sobel 3x3 L1 rows) against the integer forms (cv::Canny's arithmetic): for the NMS every Sobel 3x3 gradient of u8 images (|dx|, |dy| <=
 * 1020), with neighbours drawn around m so that ties are common, then random gradients and
 * magnitudes up to the float form's documented limits; the magnitude over all its range. */
#include <stdint.h>

#include "check.h"
#include "core/opencv_math.h"
#include "test_random.h"

static int32_t near(int32_t m, uint32_t r)
{
    const int32_t v = m + (int32_t)(r % 5) - 2; /* m - 2 .. m + 2 */
    return v < 0 ? 0 : v;
}

/* The 16-bit form's range: gradients up to 8191, magnitudes up to 32767. */
static int in_i16_range(int32_t m, const int32_t n[8], int32_t dx, int32_t dy)
{
    int ok = dx >= -8191 && dx <= 8191 && dy >= -8191 && dy <= 8191 && m <= 32767;
    for (int i = 0; i < 8; i++)
        ok = ok && n[i] <= 32767;
    return ok;
}

/* The float form, and the 16-bit one in its range, against the integer form on one case;
 * reports the first few disagreements. */
static int agree(int32_t m, const int32_t n[8], int32_t dx, int32_t dy)
{
    static int reported;
    const int want = edgel_nms_keep(m, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], dx, dy);
    const int got = edgel_nms_keep_f32((float)m, (float)n[0], (float)n[1], (float)n[2], (float)n[3],
                                       (float)n[4], (float)n[5], (float)n[6], (float)n[7], (float)dx,
                                       (float)dy);
    const int got16 = !in_i16_range(m, n, dx, dy) ? want
                    : edgel_nms_keep_i16((int16_t)m, (int16_t)n[0], (int16_t)n[1], (int16_t)n[2],
                                         (int16_t)n[3], (int16_t)n[4], (int16_t)n[5], (int16_t)n[6],
                                         (int16_t)n[7], (int16_t)dx, (int16_t)dy);
    if ((want != got || want != got16) && reported++ < 5)
        fprintf(stderr, "nms: m %d dx %d dy %d neighbours %d %d %d %d %d %d %d %d: int %d float %d"
                        " int16 %d\n",
                m, dx, dy, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], want, got, got16);
    return want == got && want == got16;
}

int main(void)
{
    long cases = 0, bad = 0;
    for (int32_t dy = -1020; dy <= 1020; dy++)
        for (int32_t dx = -1020; dx <= 1020; dx++)
            for (int k = 0; k < 3; k++) {
                const int32_t m = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
                int32_t n[8];
                for (int i = 0; i < 8; i++)
                    n[i] = near(m, next_random());
                bad += !agree(m, n, dx, dy);
                cases++;
            }
    CHECK(cases == 2041L * 2041 * 3);
    CHECK(bad == 0);

    /* Random gradients up to the limit and magnitudes up to 2^23 (L2 of any Sobel 3x3 is
     * below 2.1e6): neighbours near m or anywhere. */
    bad = 0;
    for (long i = 0; i < 4000000; i++) {
        const int32_t dx = (int32_t)(next_random() % 54291) - 27145;
        const int32_t dy = (int32_t)(next_random() % 54291) - 27145;
        const int32_t m = (int32_t)(next_random() & ((1u << 23) - 1));
        int32_t n[8];
        for (int j = 0; j < 8; j++) {
            const uint32_t r = next_random();
            n[j] = r & 1 ? near(m, r >> 1) : (int32_t)((r >> 1) & ((1u << 23) - 1));
        }
        bad += !agree(m, n, dx, dy);
    }
    CHECK(bad == 0);

    /* The 16-bit form over its whole range: gradients up to 8191, magnitudes up to 32767. */
    bad = 0;
    for (long i = 0; i < 4000000; i++) {
        const int32_t dx = (int32_t)(next_random() % 16383) - 8191;
        const int32_t dy = (int32_t)(next_random() % 16383) - 8191;
        const int32_t m = (int32_t)(next_random() & 32767);
        int32_t n[8];
        for (int j = 0; j < 8; j++) {
            const uint32_t r = next_random();
            n[j] = r & 1 ? near(m, r >> 1) : (int32_t)((r >> 1) & 32767);
            n[j] = n[j] > 32767 ? 32767 : n[j];
        }
        bad += !agree(m, n, dx, dy);
    }
    CHECK(bad == 0);

    /* The direction boundaries themselves: ay 2^15 == ax TG22 and ay 2^15 == ax (TG22 + 2^16)
     * meet no integer point but (0, 0) with ax <= 27145 and pass within a unit of many; test
     * gradients right beside both lines, each sign. */
    bad = 0;
    for (int32_t ax = 0; ax <= 27145; ax++) {
        const int64_t lines[2] = {(int64_t)ax * 13573, (int64_t)ax * (13573 + 65536)};
        for (int l = 0; l < 2; l++)
            for (int32_t d = -1; d <= 1; d++) {
                const int64_t ay = lines[l] / 32768 + d;
                if (ay < 0 || ay > 27145)
                    continue;
                for (int s = 0; s < 4; s++) {
                    const int32_t dx = s & 1 ? -ax : ax, dy = s & 2 ? -(int32_t)ay : (int32_t)ay;
                    const int32_t m = 1000;
                    const int32_t n[8] = {999, 1000, 1001, 1000, 999, 1001, 1000, 999};
                    bad += !agree(m, n, dx, dy);
                }
            }
    }
    CHECK(bad == 0);

    /* The float magnitude over its whole range, both norms. */
    bad = 0;
    for (int32_t dy = -2896; dy <= 2896; dy++)
        for (int32_t dx = -2896; dx <= 2896; dx++)
            for (int l2 = 0; l2 < 2; l2++)
                bad += (float)edgel_magnitude(dx, dy, l2) != edgel_magnitude_f32((float)dx, (float)dy, l2);
    CHECK(bad == 0);
    return check_summary("opencv_math");
}
