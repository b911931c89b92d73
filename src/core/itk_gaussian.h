/* Internal: ITK's discrete Gaussian kernel (host code; the backends apply it). */
#ifndef EDGEL_CORE_ITK_GAUSSIAN_H
#define EDGEL_CORE_ITK_GAUSSIAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* One-sided taps beyond the centre are capped at 32, as DiscreteGaussianImageFilter's. */
#define EDGEL_ITK_MAX_RADIUS 32

/* Fills kernel[0 .. 2r] (offsets -r .. r) and returns the radius r. variance in
 * [0, EDGEL_ITK_MAX_VARIANCE], maximum_error in (0, 1), checked by the caller. */
int edgel_itk_gaussian_kernel(double variance, double maximum_error,
                              double kernel[2 * EDGEL_ITK_MAX_RADIUS + 1]);

#ifdef __cplusplus
}
#endif

#endif
