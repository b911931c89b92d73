/* Curves of sub-pixel edge points in files (the edgel command's contours): the reference
 * program's text, SVG and PDF, SVG over the image, JSON, GeoJSON and NumPy's .npz. Written
 * whole or not at all. */
#ifndef EDGEL_IO_CURVES_IO_H
#define EDGEL_IO_CURVES_IO_H

#include "edgel.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum edgel_curves_format {
    EDGEL_CURVES_UNKNOWN = 0,
    EDGEL_CURVES_TXT,     /* "x y" a point (%g), "-1 -1" after each curve: devernay's -t */
    EDGEL_CURVES_SVG,     /* the curves over the image (embedded as PNG) */
    EDGEL_CURVES_JSON,    /* {"width", "height", ..., "curves": [{"closed", "x", "y", ...}]} */
    EDGEL_CURVES_GEOJSON, /* LineString features, Polygon for closed curves; pixel units */
    EDGEL_CURVES_NPZ,     /* points, limits, closed, gradient, modulus (numpy.load) */
    EDGEL_CURVES_PDF,     /* black lines of meta->line_width on a page the image's size: devernay's -p */
    EDGEL_CURVES_SVG_LINES /* black polylines alone, devernay's -g (by no extension: asked) */
} edgel_curves_format;

/* What the writers say besides the curves. */
typedef struct edgel_curves_meta {
    int width, height;
    double sigma, high, low;
    const edgel_image *background; /* SVG: the image under the curves (u8 gray), or NULL */
    double line_width;             /* PDF and SVG_LINES: the lines' width (devernay's -w) */
} edgel_curves_meta;

/* By the path's extension (.txt, .svg, .json, .geojson, .npz, .pdf; any case). */
edgel_curves_format edgel_curves_format_for_path(const char *path);

/* Writes the curves in the format the path's extension names. */
edgel_status edgel_curves_write(const char *path, const edgel_curves_view *curves,
                                const edgel_curves_meta *meta);
/* The same in a format given. */
edgel_status edgel_curves_write_as(const char *path, edgel_curves_format format,
                                   const edgel_curves_view *curves,
                                   const edgel_curves_meta *meta);

/* An SVG's background: the image (u8 gray) as a PNG data URI, dimmed over black so that
 * coloured lines stand out on it; 0 when it cannot be encoded. */
int edgel_svg_background(FILE *f, const edgel_image *img);

#ifdef __cplusplus
}
#endif

#endif
