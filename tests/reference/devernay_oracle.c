/*
 * A test oracle: devernay() of the reference Canny/Devernay program (von Gioi and Randall,
 * IPOL 2017, version 1.0; AGPL-3.0), built from its own files where they are present
 * (EDGEL_DEVERNAY_DIR, default ../shared/reference/devernay_1.0) and never copied into
 * edgel, on a raw image, with its points printed exactly.
 *
 *   devernay_oracle W H SIGMA HIGH LOW < image.f64   (W * H doubles, row-major, native order)
 *
 * Prints a line a point, "x y" as C99 hex floats, and "end" after each curve.
 */
#include "devernay.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 6) {
        fputs("usage: devernay_oracle W H SIGMA HIGH LOW < image.f64\n", stderr);
        return 2;
    }
    const int w = atoi(argv[1]), h = atoi(argv[2]);
    const double sigma = atof(argv[3]), high = atof(argv[4]), low = atof(argv[5]);
    if (w < 1 || h < 1)
        return 2;
    double *image = malloc(sizeof(double) * (size_t)w * h);
    if (!image || fread(image, sizeof(double), (size_t)w * h, stdin) != (size_t)w * h) {
        fputs("devernay_oracle: short input\n", stderr);
        return 1;
    }
    double *x = NULL, *y = NULL;
    int n = 0, m = 0, *limits = NULL;
    devernay(&x, &y, &n, &limits, &m, image, w, h, sigma, high, low);
    for (int k = 0; k < m; k++) {
        for (int i = limits[k]; i < limits[k + 1]; i++)
            printf("%a %a\n", x[i], y[i]);
        puts("end");
    }
    free(image), free(x), free(y), free(limits);
    return 0;
}
