/* The automatic thresholds' arithmetic (core/auto_math.h), as OpenCV and NumPy compute it. */
#include "core/auto_math.h"

#include <float.h>
#include <math.h>

/* cv2.threshold's Otsu value (OpenCV's getThreshVal_Otsu_8u, in its order of operations). */
double edgel_otsu(const int64_t h[256], int64_t n)
{
    const double scale = 1.0 / (double)n;
    double mu = 0;
    for (int i = 0; i < 256; i++)
        mu += i * (double)h[i];
    mu *= scale;
    double mu1 = 0, q1 = 0, max_sigma = 0, max_val = 0;
    for (int i = 0; i < 256; i++) {
        const double p_i = (double)h[i] * scale;
        mu1 *= q1;
        q1 += p_i;
        const double q2 = 1. - q1;
        if ((q1 < q2 ? q1 : q2) < FLT_EPSILON || (q1 > q2 ? q1 : q2) > 1. - FLT_EPSILON)
            continue;
        mu1 = (mu1 + i * p_i) / q1;
        const double mu2 = (mu - q1 * mu1) / q2;
        const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
        if (sigma > max_sigma) {
            max_sigma = sigma;
            max_val = i;
        }
    }
    return max_val;
}

/* The k-th smallest value (from 0) of a histogram. */
static int kth(const int64_t h[256], int64_t k)
{
    int v = 0;
    for (int64_t seen = h[0]; seen <= k; seen += h[++v]) {
    }
    return v;
}

/* numpy.median: the middle value, or the mean of the two middle ones. */
double edgel_hist_median(const int64_t h[256], int64_t n)
{
    return n % 2 ? kth(h, n / 2) : (kth(h, n / 2 - 1) + kth(h, n / 2)) / 2.0;
}

/* numpy.percentile(values, 100 * q) with its linear method, in its order of operations;
 * `sorted` ascending; with l2, an entry's value is its square root (L2 magnitudes). */
double edgel_percentile(const int32_t *sorted, size_t n, double q, int l2)
{
    const double index = (100.0 * q) / 100.0 * (double)(n - 1);
    size_t below = (size_t)floor(index), above = below + 1;
    if (index >= (double)(n - 1))
        below = above = n - 1;
    const double t = index - floor(index);
    const double a = l2 ? sqrt((double)sorted[below]) : sorted[below];
    const double b = l2 ? sqrt((double)sorted[above]) : sorted[above];
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
