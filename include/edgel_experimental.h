/*
 * edgel's experimental section (include/edgel.h says what it is): the pieces a driver of its
 * own builds on, whose form may still change between minor releases. Included by edgel.h
 * where EDGEL_EXPERIMENTAL is defined; including this file defines it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef EDGEL_EXPERIMENTAL_H
#define EDGEL_EXPERIMENTAL_H

#ifndef EDGEL_EXPERIMENTAL
#define EDGEL_EXPERIMENTAL
#endif
#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Cross-chunk hysteresis, for drivers of their own (edgel.dask's; the tiled and bricked calls
 * use the same code): a union-find over the components of candidates that touch chunk
 * borders. A driver labels each chunk's candidates (the suppressed stage's weak and strong
 * pixels, 8-connected in an image, 26 in a volume), adds the components that reach the
 * chunk's sides as nodes (strong where one holds a strong pixel), joins the two facing faces
 * of nodes either side of each border (a line of an image, a plane of a volume), and reads
 * back which nodes' sets hold a strong node: those components are edges, with every component
 * that holds a strong pixel itself. Edges and corners are joined by the full-length faces of
 * a border (the rows either side of a tile-row border over the whole width; the slices either
 * side of a layer border over the whole plane).
 *
 * An edgel_components object serves one thread at a time: a call while another thread's call
 * runs returns EDGEL_ERROR_CONTEXT_BUSY (nothing changes). Memory: 17 bytes a node.
 */
typedef struct edgel_components edgel_components;

/**
 * A new, empty set of nodes in *components (NULL on failure).
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_components_create(edgel_components **components);
/** Releases it (NULL is accepted). */
EDGEL_API void edgel_components_destroy(edgel_components *components);
/**
 * Adds `count` nodes (0 or more), node i strong where strong[i] is not 0 (strong may be NULL
 * for none strong); *first receives the first's index (the others follow it). Indices start
 * at 0 and grow by one a node; at most 2^40 nodes in all.
 * Fails: NULL_ARGUMENT, INVALID_SIZE (count negative or past 2^40 in all), CONTEXT_BUSY.
 */
EDGEL_API edgel_status edgel_components_add(edgel_components *components, int64_t count,
                                            const uint8_t *strong, int64_t *first);
/**
 * Joins the nodes of two facing lines of `length` pixels either side of a border, in order
 * along it, where their pixels touch (8-connected): near[i] with far[i - 1], far[i] and
 * far[i + 1]. A negative entry is no component; others must be added nodes
 * (EDGEL_ERROR_INVALID_ARGUMENT, naming the first that is not, before any join). It is
 * edgel_components_join_faces with one row.
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_ARGUMENT (an entry that is not a node),
 * CONTEXT_BUSY.
 */
EDGEL_API edgel_status edgel_components_join(edgel_components *components, const int64_t *near,
                                             const int64_t *far, int64_t length);
/**
 * Joins the nodes of two facing faces of `rows` rows of `length` voxels either side of a
 * border (row-major, rows in order across the border's plane) where their voxels touch
 * (26-connected): near row r, entry i with far rows r - 1 to r + 1, entries i - 1 to i + 1.
 * One row is a line of an image (8-connected). Entries as for edgel_components_join; rows *
 * length entries each, at most 2^62 (EDGEL_ERROR_INVALID_SIZE).
 * Fails: edgel_components_join's.
 */
EDGEL_API edgel_status edgel_components_join_faces(edgel_components *components,
                                                   const int64_t *near, const int64_t *far,
                                                   int64_t rows, int64_t length);
/**
 * strong[i] = 1 where node nodes[i]'s set holds a strong node, else 0 (0 for a negative
 * entry); nodes must be added ones, as for edgel_components_join.
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_ARGUMENT (an entry that is not a node),
 * CONTEXT_BUSY.
 */
EDGEL_API edgel_status edgel_components_strong(edgel_components *components,
                                               const int64_t *nodes, int64_t count,
                                               uint8_t *strong);

/* Sub-pixel curves of images of any size, in pieces (edgel.dask does this). A piece's edge
 * points and each one's best neighbours depend on the pixels within edgel_subpixel_halo(sigma)
 * of it alone; only the chaining needs all points at once, and needs the points alone. So:
 * cut the image into pieces, each with a halo of that many pixels on its sides inside the
 * image; find each piece's points (edgel_subpixel_find_points, with the piece's place in the
 * image); keep those whose pixel lies in the piece without its halo, their neighbours
 * renamed to indices into the list of all kept points, listed in the reference's order (by
 * pixel: x, then y); chain them (edgel_subpixel_chain_points). The curves are then
 * edgel_subpixel_edges' on the whole image, point for point, in its order. */

/**
 * Edge points, unchained: positions, gradients, pixels, and each point's best forward and
 * backward neighbours (indices into the same arrays, -1 for none) with their scores. As a
 * view of an edgel_curves (valid until its next call) or as input to
 * edgel_subpixel_chain_points (the caller's arrays).
 */
typedef struct edgel_subpixel_points {
    uint32_t struct_size; /* set by edgel_subpixel_points_default */
    int64_t count;
    const double *x, *y, *gx, *gy, *modulus;
    const int32_t *px, *py; /* the pixel: in the piece (a view), in the whole image (input) */
    const int32_t *fwd, *bck;
    const double *fwd_score, *bck_score;
} edgel_subpixel_points;

EDGEL_API void edgel_subpixel_points_init(edgel_subpixel_points *points, size_t struct_size);
#define edgel_subpixel_points_default(points) \
    edgel_subpixel_points_init((points), sizeof *(points))

/**
 * The edge points of the host image `src` (as edgel_subpixel_edges takes it), a piece that
 * starts at (x0, y0) of a larger image: positions are in the larger image's frame, pixels in
 * the piece's. Into `curves`, which then holds no curves; edgel_curves_get_points reads them.
 * Runs on the CPU (with every core on a CUDA context).
 * Fails: edgel_subpixel_edges' (host images only: UNSUPPORTED for a device one).
 */
EDGEL_API edgel_status edgel_subpixel_find_points(edgel_context *ctx,
                                                  const edgel_subpixel_params *params,
                                                  const edgel_image *src, int64_t x0,
                                                  int64_t y0, edgel_curves *curves);
/**
 * The points the last edgel_subpixel_find_points on `curves` found.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (curves that hold no points), CONTEXT_BUSY.
 */
EDGEL_API edgel_status edgel_curves_get_points(edgel_curves *curves,
                                               edgel_subpixel_points *view);
/**
 * The curves of `points` (all of an image's, in the reference's order: by pixel, x then y,
 * no pixel twice, each pixel's coordinates 0 .. EDGEL_MAX_TILED_DIMENSION - 1; neighbours
 * indices into them) with `params`' thresholds (its sigma is not used) into `curves`, on the
 * context's threads: what edgel_subpixel_edges gives for the image they came from. The
 * points are copied. EDGEL_ERROR_INVALID_ARGUMENT for points out of order or range.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (points out of order or range, thresholds), CONTEXT_BUSY
 * (the curves are in another call).
 */
EDGEL_API edgel_status edgel_subpixel_chain_points(edgel_context *ctx,
                                                   const edgel_subpixel_params *params,
                                                   const edgel_subpixel_points *points,
                                                   edgel_curves *curves);

/* ---- fits: lines, circles and ellipses -------------------------------------------------- */

/*
 * Fits of a line, a circle or an ellipse to points (a curve's, a piece of one, the caller's
 * own), as HALCON's fit_line_contour_xld, fit_circle_contour_xld and fit_ellipse_contour_xld
 * fit contours. Each starts from an algebraic fit (a line: total least squares; a circle:
 * Taubin's, or Kasa's; an ellipse: Fitzgibbon's direct fit, in Halir and Flusser's stable
 * form), which the geometric fit then refines so that the points' orthogonal distances are
 * least (Levenberg-Marquardt steps), and gives its parameters' standard deviations. Robust
 * weights (Huber's or Tukey's) are recomputed over `iterations` rounds from each point's
 * distance to the last fit, on a scale of `clipping_factor` times the distances' robust spread
 * (their median over 0.6745): Huber's weigh points beyond it down, Tukey's drop them. The
 * first and last `clip_ends` points are left out. Host arrays; no context: the fits run on
 * the calling thread, and any thread may call them at once.
 */
typedef enum edgel_fit_weight {
    EDGEL_FIT_PLAIN = 0, /* every point alike */
    EDGEL_FIT_HUBER = 1,
    EDGEL_FIT_TUKEY = 2
} edgel_fit_weight;

typedef enum edgel_fit_algebraic {
    EDGEL_FIT_TAUBIN = 0, /* circles: Taubin's fit (default; nearly unbiased) */
    EDGEL_FIT_KASA = 1    /* circles: Kasa's (biased inwards on short arcs) */
} edgel_fit_algebraic;

typedef struct edgel_fit_params {
    uint32_t struct_size;        /* set by edgel_fit_params_default */
    int32_t geometric;           /* 1 (default): refine by orthogonal distances; 0: algebraic */
    edgel_fit_weight weight;     /* default EDGEL_FIT_PLAIN */
    int32_t iterations;          /* robust rounds, 1 .. 100 (default 5) */
    double clipping_factor;      /* the robust scale in spreads, > 0 (default 2.0, HALCON's) */
    int32_t clip_ends;           /* points left out at each end, >= 0 (default 0) */
    edgel_fit_algebraic algebraic; /* circles: default EDGEL_FIT_TAUBIN */
} edgel_fit_params;

/* The largest coordinate a fit takes (either sign): their squares and sums stay far inside
 * double's range. */
#define EDGEL_FIT_MAX_COORDINATE 1e12

EDGEL_API void edgel_fit_params_init(edgel_fit_params *params, size_t struct_size);
#define edgel_fit_params_default(params) edgel_fit_params_init((params), sizeof *(params))

/* What every fit gives besides its shape: its points' distances (the kept ones, unweighted),
 * and how many it kept. */
typedef struct edgel_fit_quality {
    double rms, max_distance;
    int64_t kept;
} edgel_fit_quality;

/* A line: its normal form nx * x + ny * y = distance (|n| = 1, distance >= 0), and the first
 * and last kept points projected onto it. */
typedef struct edgel_line_fit {
    double nx, ny, distance;
    double x0, y0, x1, y1;
    edgel_fit_quality quality;
} edgel_line_fit;

/* A circle, and the arc its kept points span: from start to end angle, counter-clockwise in
 * the image's axes (x right, y down: angles grow from x towards y), in [0, 2 pi) and
 * (start, start + 2 pi]. Standard deviations: geometric fits alone (else 0). */
typedef struct edgel_circle_fit {
    double cx, cy, radius;
    double start_angle, end_angle;
    double sd_cx, sd_cy, sd_radius;
    edgel_fit_quality quality;
} edgel_circle_fit;

/* An ellipse: centre, half axes a >= b, the angle of a's axis (from x towards y, in
 * (-pi/2, pi/2]), the arc as for circles (angles of the points about the centre), and for
 * geometric fits the standard deviations. */
typedef struct edgel_ellipse_fit {
    double cx, cy, a, b, angle;
    double start_angle, end_angle;
    double sd_cx, sd_cy, sd_a, sd_b, sd_angle;
    edgel_fit_quality quality;
} edgel_ellipse_fit;

/**
 * The line through points (x[i], y[i]), i < n (at least 2 kept); kept (NULL: not asked), n
 * entries: 1 for each point the fit kept, else 0.
 * Fails: NULL_ARGUMENT, INVALID_SIZE (too few points, n past 2^40), INVALID_ARGUMENT
 * (parameters out of range, a coordinate not finite or past EDGEL_FIT_MAX_COORDINATE,
 * coincident points).
 */
EDGEL_API edgel_status edgel_fit_line(const double *x, const double *y, int64_t n,
                                      const edgel_fit_params *params, edgel_line_fit *out,
                                      uint8_t *kept);
/**
 * The circle through the points (at least 3 kept), as edgel_fit_line.
 * Fails: edgel_fit_line's; INVALID_ARGUMENT also for collinear points.
 */
EDGEL_API edgel_status edgel_fit_circle(const double *x, const double *y, int64_t n,
                                        const edgel_fit_params *params, edgel_circle_fit *out,
                                        uint8_t *kept);
/**
 * The ellipse through the points (at least 5 kept), as edgel_fit_line.
 * Fails: edgel_fit_line's; INVALID_ARGUMENT also for points no ellipse fits (on a line).
 */
EDGEL_API edgel_status edgel_fit_ellipse(const double *x, const double *y, int64_t n,
                                         const edgel_fit_params *params, edgel_ellipse_fit *out,
                                         uint8_t *kept);

/* ---- segmentation: curves into lines, circular and elliptic arcs ------------------------- */

/*
 * Curves split into pieces of three kinds, as HALCON's segment_contours_xld splits contours:
 * each curve's points (moving-averaged over 2 * smooth + 1 points for the split alone) are
 * cut into a polygon whose sides leave no point farther than split_distance from their chord
 * (Ramer-Douglas-Peucker), then consecutive sides are merged while one line, or (as the mode
 * allows) one circle or ellipse, fits their points within max_distance (the largest
 * orthogonal distance of an algebraic fit); a piece is a line where a line fits it, else the
 * arc that fits it. A closed curve stays whole where one circle or ellipse fits it. Each
 * piece is fitted (geometric, plain weights) and keeps its curve, its points and its kind.
 */
typedef enum edgel_segment_mode {
    EDGEL_SEGMENT_LINES = 0,
    EDGEL_SEGMENT_LINES_CIRCLES = 1, /* default */
    EDGEL_SEGMENT_LINES_ELLIPSES = 2 /* circles too, where a circle fits as well as an ellipse */
} edgel_segment_mode;

typedef struct edgel_segment_params {
    uint32_t struct_size;    /* set by edgel_segment_params_default */
    edgel_segment_mode mode; /* default EDGEL_SEGMENT_LINES_CIRCLES */
    int32_t smooth;          /* half the moving average's points, 0 .. 50 (default 2) */
    double split_distance;   /* the polygon's tolerance, > 0 (default 1.0 px) */
    double max_distance;     /* a piece's tolerance, > 0 (default 0.5 px) */
} edgel_segment_params;

EDGEL_API void edgel_segment_params_init(edgel_segment_params *params, size_t struct_size);
#define edgel_segment_params_default(params) \
    edgel_segment_params_init((params), sizeof *(params))

typedef enum edgel_piece_kind {
    EDGEL_PIECE_LINE = 0,
    EDGEL_PIECE_CIRCLE = 1,
    EDGEL_PIECE_ELLIPSE = 2
} edgel_piece_kind;

/* A piece: curve `curve`'s points first .. first + count - 1 (indices into the view's
 * arrays), its kind, and its fit (the member of its kind). */
typedef struct edgel_piece {
    int64_t curve, first, count;
    edgel_piece_kind kind;
    edgel_line_fit line;
    edgel_circle_fit circle;
    edgel_ellipse_fit ellipse;
} edgel_piece;

/* The pieces of a segmentation, owned by the object and reused by its next one. An
 * edgel_segments serves one call at a time (another thread's call while one runs: BUSY). */
typedef struct edgel_segments edgel_segments;

/**
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_segments_create(edgel_segments **segments);
EDGEL_API void edgel_segments_destroy(edgel_segments *segments);
/**
 * The pieces of every curve of `curves` (host arrays: a view of an edgel_curves, or the
 * caller's own points, limits and closed flags, a closed curve's first point repeated at its
 * end or not) into `out`, curve by curve in order.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (parameters out of range, limits that do not rise
 * from 0, a coordinate not finite or past EDGEL_FIT_MAX_COORDINATE), UNSUPPORTED (device
 * arrays), CONTEXT_BUSY (out is in another call).
 */
EDGEL_API edgel_status edgel_segment_curves(const edgel_curves_view *curves,
                                            const edgel_segment_params *params,
                                            edgel_segments *out);
/**
 * The pieces `segments` holds (valid until its next segmentation or its destruction).
 * Fails: NULL_ARGUMENT, CONTEXT_BUSY.
 */
EDGEL_API edgel_status edgel_segments_get(edgel_segments *segments, const edgel_piece **pieces,
                                          int64_t *count);

/* ---- calipers: edges along a measure rectangle ------------------------------------------- */

/*
 * A caliper, as HALCON's measure_pos and Cognex's Caliper: the image's grey values sampled
 * along the length of a rectangle (Lanczos-2 interpolation, a sample a pixel), averaged across
 * its width, smoothed with the derivative of a Gaussian along the profile; an edge is each
 * extremum of that derivative whose magnitude reaches the threshold, placed to a fraction of
 * a sample by the Gaussian through the extremum and its two neighbours (a parabola where they
 * do not share a sign). Pixel centres at integers; samples beyond the image take its nearest
 * pixel.
 */
typedef struct edgel_measure_rect {
    double cx, cy;      /* the centre */
    double angle;       /* the length axis's direction, radians from x towards y */
    double half_length; /* the profile runs from -half_length to +half_length, 1 .. 2^20 */
    double half_width;  /* averaged from -half_width to +half_width across, 0 .. 2^10 */
} edgel_measure_rect;

typedef struct edgel_measure_params {
    uint32_t struct_size; /* set by edgel_measure_params_default */
    double sigma;         /* the Gaussian derivative's sigma in samples, 0.4 .. 100 (default 1) */
    double threshold;     /* the least |derivative| of an edge, in grey levels a sample, >= 0
                           * (default 20) */
    int32_t transition;   /* 0: every edge (default); 1: dark to bright along the profile;
                           * -1: bright to dark */
} edgel_measure_params;

EDGEL_API void edgel_measure_params_init(edgel_measure_params *params, size_t struct_size);
#define edgel_measure_params_default(params) \
    edgel_measure_params_init((params), sizeof *(params))

typedef struct edgel_measure_edge {
    double x, y;      /* its position in the image */
    double distance;  /* along the profile, from its start (-half_length) */
    double amplitude; /* the smoothed derivative there: > 0 dark to bright along the profile */
} edgel_measure_edge;

/**
 * The edges along `rect` in the host image `src` (1 channel, u8, u16 or f32) in the order of
 * the profile, at most `capacity` of them into `edges`; *count receives how many there are
 * (more than capacity: call again with room for all).
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (the rectangle or the parameters out of range or
 * not finite), INVALID_SIZE, INVALID_PITCH, UNSUPPORTED (a pixel type, channels or device
 * memory).
 */
EDGEL_API edgel_status edgel_measure_pos(const edgel_image *src, const edgel_measure_rect *rect,
                                         const edgel_measure_params *params,
                                         edgel_measure_edge *edges, int64_t capacity,
                                         int64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* EDGEL_EXPERIMENTAL_H */
