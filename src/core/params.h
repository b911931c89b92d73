/* Internal: parameter checks and OpenCV's threshold transformation. */
#ifndef EDGEL_CORE_PARAMS_H
#define EDGEL_CORE_PARAMS_H

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest |threshold| accepted: keeps floor(t) inside int32 exactly as OpenCV computes it. */
#define EDGEL_MAX_ABS_THRESHOLD 1e9
/* Largest variance of the itk preset: e^variance must stay finite in ITK's Bessel functions. */
#define EDGEL_ITK_MAX_VARIANCE 700.0
/* Largest Gaussian kernel side. */
#define EDGEL_MAX_BLUR_KSIZE 129

/* Thresholds as compared against integer magnitudes: candidate iff m > low, strong iff m > high. */
typedef struct edgel_int_thresholds {
    int32_t low;
    int32_t high;
} edgel_int_thresholds;

/* The caller's params (of its header's size) as the library's struct: defaults for fields
 * the caller's header lacks (core/grown.h). Every public entry point reads its params so. */
edgel_status edgel_canny_params_read(const edgel_canny_params *in, edgel_canny_params *out);

/* Checks everything in params that does not depend on the image. */
edgel_status edgel_check_canny_params(const edgel_canny_params *params, int from_gradients);

/* cv::Canny's order: /16 for aperture 7 (image form only), swap, clamp and square for L2, floor. */
edgel_int_thresholds edgel_opencv_thresholds(const edgel_canny_params *params, int from_gradients);

/* skimage preset: the Gaussian's radius (scipy's int(4 sigma + 0.5); 0 where scipy skips the
 * axes, sigma <= 1e-15), the input type's maximum (skimage's dtype_limits), and the
 * thresholds skimage compares with (quantiles with use_quantiles): None -> 0.1 / 0.2, else
 * divided by the type's maximum; high below low is refused as skimage does. */
int edgel_skimage_radius(double sigma);
double edgel_skimage_type_max(edgel_pixel_type type);
/* The Gaussian's weights w[0..r] (centre first): the caller's params->gaussian_weights, or
 * scipy's _gaussian_kernel1d with the C library's exp. */
edgel_status edgel_skimage_weights(const edgel_canny_params *params, double *w);
edgel_status edgel_skimage_thresholds(const edgel_canny_params *params, edgel_pixel_type type,
                                      double *low, double *high);

/* Resolved Gaussian: kernel side, from sigma when ksize is 0 (u8 rule: round(6 sigma + 1) | 1). */
edgel_status edgel_resolve_gaussian(int32_t ksize, double sigma, int32_t *ksize_out);

/* OpenCV's bit-exact Gaussian kernel in 8 fractional bits (sums to 256), n odd. */
void edgel_gaussian_kernel_q8(int n, double sigma, uint16_t *kernel);

#ifdef __cplusplus
}
#endif

#endif
