/*
 * ITK's discrete Gaussian kernel (itk::GaussianOperator): Lindeberg's T(n, t) = e^-t I_n(t)
 * from modified Bessel functions, grown until its sum reaches 1 - maximum error or it has
 * 33 one-sided taps (DiscreteGaussianImageFilter's MaximumKernelWidth of 32), then
 * normalised. The Bessel functions are ITK's (Numerical Recipes) approximations, term for
 * term, so the coefficients are the same doubles.
 */
#include "core/itk_gaussian.h"

#include <math.h>

static double bessel_i0(double y)
{
    const double d = fabs(y);
    if (d < 3.75) {
        const double m = (y / 3.75) * (y / 3.75);
        return 1.0 + m * (3.5156229 + m * (3.0899424 + m * (1.2067492 + m * (0.2659732 +
                      m * (0.360768e-1 + m * 0.45813e-2)))));
    }
    const double m = 3.75 / d;
    return (exp(d) / sqrt(d)) *
           (0.39894228 + m * (0.1328592e-1 + m * (0.225319e-2 + m * (-0.157565e-2 + m *
            (0.916281e-2 + m * (-0.2057706e-1 + m * (0.2635537e-1 + m * (-0.1647633e-1 +
             m * 0.392377e-2))))))));
}

static double bessel_i1(double y)
{
    const double d = fabs(y);
    double acc;
    if (d < 3.75) {
        const double m = (y / 3.75) * (y / 3.75);
        acc = d * (0.5 + m * (0.87890594 + m * (0.51498869 + m * (0.15084934 + m * (0.2658733e-1 +
                   m * (0.301532e-2 + m * 0.32411e-3))))));
    } else {
        const double m = 3.75 / d;
        acc = 0.2282967e-1 + m * (-0.2895312e-1 + m * (0.1787654e-1 - m * 0.420059e-2));
        acc = 0.39894228 + m * (-0.3988024e-1 + m * (-0.362018e-2 + m * (0.163801e-2 +
              m * (-0.1031555e-1 + m * acc))));
        acc *= exp(d) / sqrt(d);
    }
    return y < 0.0 ? -acc : acc;
}

/* I_n(y) for n >= 2 by Miller's downward recurrence, rescaled to stay finite. */
static double bessel_in(int n, double y)
{
    if (y == 0.0)
        return 0.0;
    const double toy = 2.0 / fabs(y);
    double qip = 0.0, ans = 0.0, qi = 1.0;
    for (int j = 2 * (n + (int)sqrt(40.0 * n)); j > 0; j--) {
        const double qim = qip + j * toy * qi;
        qip = qi;
        qi = qim;
        if (fabs(qi) > 1.0e10) {
            ans *= 1.0e-10;
            qi *= 1.0e-10;
            qip *= 1.0e-10;
        }
        if (j == n)
            ans = qip;
    }
    ans *= bessel_i0(y) / qi;
    return y < 0.0 && (n & 1) ? -ans : ans;
}

int edgel_itk_gaussian_kernel(double variance, double maximum_error,
                              double kernel[2 * EDGEL_ITK_MAX_RADIUS + 1])
{
    double side[EDGEL_ITK_MAX_RADIUS + 1];
    const double et = exp(-variance), cap = 1.0 - maximum_error;
    int n = 0;
    side[n++] = et * bessel_i0(variance);
    double sum = side[0];
    side[n++] = et * bessel_i1(variance);
    sum += side[1] * 2.0;
    while (sum < cap) {
        const double c = et * bessel_in(n, variance);
        side[n++] = c;
        sum += c * 2.0;
        if (c <= 0.0 || n > EDGEL_ITK_MAX_RADIUS)
            break;
    }
    const int radius = n - 1;
    for (int i = 0; i < n; i++) {
        kernel[radius + i] = side[i] / sum;
        kernel[radius - i] = side[i] / sum;
    }
    return radius;
}
