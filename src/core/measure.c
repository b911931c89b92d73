/* The caliper (core/measure.h). */
#include "core/measure.h"

#include <math.h>
#include <stdlib.h>

/* Pixel (x, y) of the image, its nearest pixel where outside, as a double. */
static double pixel(const edgel_image *img, int64_t x, int64_t y)
{
    x = x < 0 ? 0 : x >= img->width ? img->width - 1 : x;
    y = y < 0 ? 0 : y >= img->height ? img->height - 1 : y;
    const uint8_t *row = (const uint8_t *)img->data + (size_t)y * img->pitch;
    switch (img->type) {
    case EDGEL_U16: return ((const uint16_t *)row)[x];
    case EDGEL_F32: return ((const float *)row)[x];
    default: return row[x];
    }
}

/* Lanczos-2 weights of the four pixels about a point at fraction t past the second,
 * normalised to sum 1: on a blurred edge's profile they move it by 3e-4 px at most, where
 * bilinear and Keys' cubic weights move it by 0.02. */
static void lanczos_weights(double t, double w[4])
{
    const double pi = 3.14159265358979323846;
    double sum = 0.0;
    for (int i = 0; i < 4; i++) {
        const double x = t - (double)(i - 1);
        w[i] = fabs(x) < 1e-12 ? 1.0
               : fabs(x) >= 2.0 ? 0.0
                                : 2.0 * sin(pi * x) * sin(pi * x / 2.0) / (pi * pi * x * x);
        sum += w[i];
    }
    for (int i = 0; i < 4; i++)
        w[i] /= sum;
}

/* The image at (x, y), interpolated with Lanczos-2 weights (pixel centres at integers). */
static double sample(const edgel_image *img, double x, double y)
{
    const double fx = floor(x), fy = floor(y);
    const int64_t x0 = (int64_t)fx - 1, y0 = (int64_t)fy - 1;
    double wx[4], wy[4];
    lanczos_weights(x - fx, wx);
    lanczos_weights(y - fy, wy);
    double v = 0.0;
    for (int j = 0; j < 4; j++) {
        double row = 0.0;
        for (int i = 0; i < 4; i++)
            row += wx[i] * pixel(img, x0 + i, y0 + j);
        v += wy[j] * row;
    }
    return v;
}

/* Where the extremum of d lies between samples k - 1 .. k + 1: the Gaussian through them
 * (a parabola through their logarithms) where they share a sign, else the parabola. */
static double vertex(double a, double b, double c)
{
    if ((a > 0.0 && b > 0.0 && c > 0.0) || (a < 0.0 && b < 0.0 && c < 0.0)) {
        const double la = log(fabs(a)), lb = log(fabs(b)), lc = log(fabs(c));
        const double den = la - 2.0 * lb + lc;
        if (den < 0.0)
            return 0.5 * (la - lc) / den;
    }
    const double den = a - 2.0 * b + c;
    return den != 0.0 ? 0.5 * (a - c) / den : 0.0;
}

int edgel_measure_run(const edgel_image *src, const edgel_measure_rect *rect,
                      const edgel_measure_params *p, edgel_measure_edge *edges,
                      int64_t capacity, int64_t *count)
{
    const int radius = (int)ceil(4.0 * p->sigma);
    const int64_t length = 2 * (int64_t)floor(rect->half_length) + 1; /* samples on the profile */
    const int64_t total = length + 2 * radius;                      /* with the kernel's reach */
    const int64_t across = 2 * (int64_t)floor(rect->half_width) + 1;
    double *profile = malloc(sizeof(double) * (size_t)total);
    double *deriv = malloc(sizeof(double) * (size_t)length);
    double *kernel = malloc(sizeof(double) * (size_t)(2 * radius + 1));
    if (!profile || !deriv || !kernel) {
        free(profile), free(deriv), free(kernel);
        return 0;
    }
    const double ux = cos(rect->angle), uy = sin(rect->angle); /* along */
    const double vx = -uy, vy = ux;                              /* across */
    const double start = -floor(rect->half_length);
    for (int64_t k = 0; k < total; k++) {
        const double s = start + (double)(k - radius);
        double sum = 0.0;
        for (int64_t j = 0; j < across; j++) {
            const double t = (double)j - floor(rect->half_width);
            sum += sample(src, rect->cx + s * ux + t * vx, rect->cy + s * uy + t * vy);
        }
        profile[k] = sum / (double)across;
    }
    /* the derivative of a Gaussian, normalised so that a unit ramp gives 1 */
    double norm = 0.0;
    for (int i = -radius; i <= radius; i++) {
        kernel[i + radius] = -i * exp(-0.5 * i * i / (p->sigma * p->sigma));
        norm += -i * kernel[i + radius];
    }
    for (int k = 0; k < length; k++) {
        double d = 0.0;
        for (int i = -radius; i <= radius; i++)
            d += kernel[i + radius] * profile[k + radius - i];
        deriv[k] = d / norm;
    }
    int64_t n = 0;
    for (int64_t k = 1; k + 1 < length; k++) {
        const double a = deriv[k - 1], b = deriv[k], c = deriv[k + 1];
        const int peak = (b > 0.0 && b >= a && b > c) || (b < 0.0 && b <= a && b < c);
        if (!peak || fabs(b) < p->threshold || (p->transition > 0 && b < 0.0) ||
            (p->transition < 0 && b > 0.0))
            continue;
        if (n < capacity) {
            const double off = vertex(a, b, c), s = start + (double)k + off;
            edgel_measure_edge *e = &edges[n];
            e->x = rect->cx + s * ux, e->y = rect->cy + s * uy;
            e->distance = s + floor(rect->half_length);
            e->amplitude = b;
        }
        n++;
    }
    *count = n;
    free(profile), free(deriv), free(kernel);
    return 1;
}
