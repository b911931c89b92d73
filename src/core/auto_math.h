/* Internal: the arithmetic of the automatic thresholds (api_auto.c), each rule in its
 * reference's order of operations, so that the thresholds are the reference's to the bit. */
#ifndef EDGEL_CORE_AUTO_MATH_H
#define EDGEL_CORE_AUTO_MATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cv2.threshold(img, 0, 255, THRESH_BINARY + THRESH_OTSU)'s value, from the histogram of the
 * image's n pixels. */
double edgel_otsu(const int64_t hist[256], int64_t n);
/* numpy.median of the image's n pixels, from their histogram. */
double edgel_hist_median(const int64_t hist[256], int64_t n);
/* numpy.percentile(values, 100 * q) (linear) of the n values `sorted` ascending; with l2,
 * each value is taken as its square root (L2 magnitudes are kept squared). */
double edgel_percentile(const int32_t *sorted, size_t n, double q, int l2);

#ifdef __cplusplus
}
#endif

#endif
