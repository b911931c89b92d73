/* Internal: fits of lines, circles and ellipses to points (api/api_fit.c checks the
 * arguments; include/edgel_experimental.h documents the fits). Each fit is an algebraic start,
 * a geometric refinement where asked (the points' orthogonal distances, by Levenberg-Marquardt
 * steps), and optional robust weights over iterations (Huber's or Tukey's, their scale a
 * factor of the distances' robust spread: their median over 0.6745). Host code. */
#ifndef EDGEL_CORE_FIT_H
#define EDGEL_CORE_FIT_H

#include "edgel.h" /* (the library sees its experimental section) */

#include <stdint.h>

/* The fits' reasons to refuse points, apart from their checks. */
typedef enum edgel_fit_outcome {
    EDGEL_FIT_DONE = 0,
    EDGEL_FIT_DEGENERATE = 1, /* the points fix no such curve (collinear points for a circle) */
    EDGEL_FIT_NO_MEMORY = 2
} edgel_fit_outcome;

/* The fits' defaults (edgel_fit_params_default's), struct_size included. */
void edgel_fit_defaults(edgel_fit_params *p);

/* Fits of points (x[i], y[i]) i < n, checked: finite, enough of them, parameters in range.
 * kept[i] (when not NULL) receives 1 for the points the fit kept (inside the clipped ends,
 * weight above 0), else 0. */
edgel_fit_outcome edgel_fit_line_run(const double *x, const double *y, int64_t n,
                                     const edgel_fit_params *p, edgel_line_fit *out,
                                     uint8_t *kept);
edgel_fit_outcome edgel_fit_circle_run(const double *x, const double *y, int64_t n,
                                       const edgel_fit_params *p, edgel_circle_fit *out,
                                       uint8_t *kept);
edgel_fit_outcome edgel_fit_ellipse_run(const double *x, const double *y, int64_t n,
                                        const edgel_fit_params *p, edgel_ellipse_fit *out,
                                        uint8_t *kept);

#endif
