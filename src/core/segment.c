/* Curves split into lines, circular and elliptic arcs (core/segment.h). */
#include "core/segment.h"

#include "core/fit.h"
#include "core/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int reserve_points(edgel_segment_work *w, int64_t n)
{
    if (n <= w->points_cap)
        return 1;
    const size_t d = sizeof(double) * (size_t)n, i = sizeof(int64_t) * (size_t)(2 * n + 2);
    double *sx = realloc(w->sx, d), *sy = sx ? realloc(w->sy, d) : NULL;
    if (sx)
        w->sx = sx;
    if (sy)
        w->sy = sy;
    int64_t *b = sy ? realloc(w->breaks, i) : NULL;
    if (b)
        w->breaks = b;
    int64_t *st = b ? realloc(w->stack, i) : NULL;
    if (!st)
        return 0;
    w->stack = st;
    w->points_cap = n;
    return 1;
}

/* The points moving-averaged over 2 h + 1 neighbours along the curve (wrapping round a closed
 * one; fewer at an open one's ends). */
static void smooth(edgel_segment_work *w, const double *x, const double *y, int64_t n, int closed,
                   int h)
{
    for (int64_t i = 0; i < n; i++) {
        double sx = 0.0, sy = 0.0;
        int64_t k = 0;
        for (int64_t j = i - h; j <= i + h; j++) {
            int64_t at = j;
            if (closed)
                at = ((j % n) + n) % n;
            else if (j < 0 || j >= n)
                continue;
            sx += x[at], sy += y[at], k++;
        }
        w->sx[i] = sx / (double)k, w->sy[i] = sy / (double)k;
    }
}

/* The point of a .. b (exclusive) farthest from the chord from a to b (from a where they
 * meet), and its distance. */
static int64_t farthest(const edgel_segment_work *w, int64_t a, int64_t b, double *dist)
{
    const double ax = w->sx[a], ay = w->sy[a], dx = w->sx[b] - ax, dy = w->sy[b] - ay;
    const double len = hypot(dx, dy);
    int64_t at = -1;
    *dist = -1.0;
    for (int64_t i = a + 1; i < b; i++) {
        const double px = w->sx[i] - ax, py = w->sy[i] - ay;
        const double d = len > 0.0 ? fabs(px * dy - py * dx) / len : hypot(px, py);
        if (d > *dist)
            *dist = d, at = i;
    }
    return at;
}

/* The polygon's corners between a and b (both included), Ramer-Douglas-Peucker, appended to
 * w->breaks in order (a first; b not). */
static int64_t split(edgel_segment_work *w, int64_t a, int64_t b, double tolerance, int64_t count)
{
    int64_t top = 0;
    w->stack[top++] = b;
    int64_t from = a;
    while (top) {
        const int64_t to = w->stack[top - 1];
        double d;
        const int64_t at = farthest(w, from, to, &d);
        if (at >= 0 && d > tolerance) {
            w->stack[top++] = at;
            continue;
        }
        w->breaks[count++] = from;
        from = to;
        top--;
    }
    return count;
}

typedef struct probe {
    const double *x, *y;
    edgel_fit_params algebraic;
    double tolerance;
    int failed; /* out of memory */
} probe;

/* Whether a shape of `kind` fits points a .. b within the tolerance (algebraic fits). */
static int fits(probe *q, edgel_piece_kind kind, int64_t a, int64_t b)
{
    const int64_t n = b - a + 1;
    edgel_fit_outcome o;
    double worst;
    if (kind == EDGEL_PIECE_LINE) {
        edgel_line_fit f;
        o = n >= 2 ? edgel_fit_line_run(q->x + a, q->y + a, n, &q->algebraic, &f, NULL)
                   : EDGEL_FIT_DEGENERATE;
        worst = f.quality.max_distance;
    } else if (kind == EDGEL_PIECE_CIRCLE) {
        edgel_circle_fit f;
        o = n >= 3 ? edgel_fit_circle_run(q->x + a, q->y + a, n, &q->algebraic, &f, NULL)
                   : EDGEL_FIT_DEGENERATE;
        worst = f.quality.max_distance;
    } else {
        edgel_ellipse_fit f;
        o = n >= 6 ? edgel_fit_ellipse_run(q->x + a, q->y + a, n, &q->algebraic, &f, NULL)
                   : EDGEL_FIT_DEGENERATE;
        worst = f.quality.max_distance;
    }
    q->failed |= o == EDGEL_FIT_NO_MEMORY;
    return o == EDGEL_FIT_DONE && worst <= q->tolerance;
}

/* The kind that fits points a .. b first among those the mode allows (a line, a circle, an
 * ellipse), or -1. */
static int kind_of(probe *q, edgel_segment_mode mode, int64_t a, int64_t b)
{
    if (fits(q, EDGEL_PIECE_LINE, a, b))
        return EDGEL_PIECE_LINE;
    if (mode >= EDGEL_SEGMENT_LINES_CIRCLES && fits(q, EDGEL_PIECE_CIRCLE, a, b))
        return EDGEL_PIECE_CIRCLE;
    if (mode == EDGEL_SEGMENT_LINES_ELLIPSES && fits(q, EDGEL_PIECE_ELLIPSE, a, b))
        return EDGEL_PIECE_ELLIPSE;
    return -1;
}

/* A piece of points a .. b of kind `kind` (fitted later). */
static int add_span(edgel_segment_work *w, int64_t a, int64_t b, int kind, int64_t curve)
{
    if (!edgel_grow((void **)&w->pieces, &w->cap, w->count + 1, sizeof(edgel_piece)))
        return 0;
    edgel_piece *pc = &w->pieces[w->count++];
    memset(pc, 0, sizeof *pc);
    pc->curve = curve, pc->first = a, pc->count = b - a + 1;
    pc->kind = (edgel_piece_kind)kind;
    return 1;
}

/* The sum of squared distances of points a .. b from their algebraic fit of `kind` (infinite
 * where none fits), for placing the boundaries. */
static double misfit(probe *q, edgel_piece_kind kind, int64_t a, int64_t b)
{
    const int64_t n = b - a + 1;
    const int64_t least = kind == EDGEL_PIECE_LINE ? 2 : kind == EDGEL_PIECE_CIRCLE ? 3 : 6;
    if (n < least)
        return INFINITY;
    edgel_fit_outcome o;
    edgel_fit_quality f;
    if (kind == EDGEL_PIECE_LINE) {
        edgel_line_fit l;
        o = edgel_fit_line_run(q->x + a, q->y + a, n, &q->algebraic, &l, NULL), f = l.quality;
    } else if (kind == EDGEL_PIECE_CIRCLE) {
        edgel_circle_fit c;
        o = edgel_fit_circle_run(q->x + a, q->y + a, n, &q->algebraic, &c, NULL), f = c.quality;
    } else {
        edgel_ellipse_fit e;
        o = edgel_fit_ellipse_run(q->x + a, q->y + a, n, &q->algebraic, &e, NULL), f = e.quality;
    }
    q->failed |= o == EDGEL_FIT_NO_MEMORY;
    return o == EDGEL_FIT_DONE ? f.rms * f.rms * (double)n : INFINITY;
}

/* Each boundary between two pieces moved, within `reach` points, to where their two fits
 * leave the least squared distances (a corner the smoothing moved, an arc a line took the
 * start of). */
static void place_boundaries(probe *q, edgel_piece *pc, int64_t count, int64_t reach)
{
    for (int64_t i = 0; i + 1 < count; i++) {
        const int64_t a = pc[i].first, b = pc[i + 1].first, end = b + pc[i + 1].count - 1;
        int64_t best = b;
        double least = INFINITY;
        for (int64_t t = b - reach; t <= b + reach; t++) {
            if (t <= a || t >= end)
                continue;
            const double m = misfit(q, pc[i].kind, a, t) + misfit(q, pc[i + 1].kind, t, end);
            if (m < least)
                least = m, best = t;
        }
        pc[i].count = best - a + 1;
        pc[i + 1].first = best, pc[i + 1].count = end - best + 1;
    }
}

/* The pieces' geometric fits (a line where the arc's fit fails), their points numbered from
 * `offset`. Returns 0 when out of memory. */
static int fit_pieces(const double *x, const double *y, edgel_piece *pc, int64_t count,
                      int64_t offset)
{
    edgel_fit_params p;
    edgel_fit_defaults(&p);
    for (int64_t i = 0; i < count; i++) {
        const int64_t a = pc[i].first, n = pc[i].count;
        edgel_fit_outcome o = EDGEL_FIT_DEGENERATE;
        if (pc[i].kind == EDGEL_PIECE_ELLIPSE)
            o = edgel_fit_ellipse_run(x + a, y + a, n, &p, &pc[i].ellipse, NULL);
        else if (pc[i].kind == EDGEL_PIECE_CIRCLE)
            o = edgel_fit_circle_run(x + a, y + a, n, &p, &pc[i].circle, NULL);
        if (o != EDGEL_FIT_DONE && o != EDGEL_FIT_NO_MEMORY) {
            pc[i].kind = EDGEL_PIECE_LINE;
            o = edgel_fit_line_run(x + a, y + a, n, &p, &pc[i].line, NULL);
        }
        if (o == EDGEL_FIT_NO_MEMORY)
            return 0;
        pc[i].first += offset;
    }
    return 1;
}

int edgel_segment_curve(edgel_segment_work *w, const double *x, const double *y, int64_t n,
                        int closed, int64_t curve, int64_t offset, const edgel_segment_params *p)
{
    if (n < 2)
        return 1; /* a lone point: no piece */
    probe q = {x, y, {0}, p->max_distance, 0};
    edgel_fit_defaults(&q.algebraic);
    q.algebraic.geometric = 0;
    if (closed && p->mode != EDGEL_SEGMENT_LINES) { /* whole, where one circle or ellipse fits */
        const int whole = fits(&q, EDGEL_PIECE_CIRCLE, 0, n - 1) ? EDGEL_PIECE_CIRCLE
                          : p->mode == EDGEL_SEGMENT_LINES_ELLIPSES &&
                                  fits(&q, EDGEL_PIECE_ELLIPSE, 0, n - 1)
                              ? EDGEL_PIECE_ELLIPSE
                              : -1;
        if (q.failed)
            return 0;
        if (whole >= 0)
            return add_span(w, 0, n - 1, whole, curve) &&
                   fit_pieces(x, y, w->pieces + w->count - 1, 1, offset);
    }
    if (!reserve_points(w, n))
        return 0;
    smooth(w, x, y, n, closed, p->smooth);
    int64_t count = 0;
    if (closed) { /* from the first point to the farthest from it, and back */
        double best = -1.0;
        int64_t far = n - 1;
        for (int64_t i = 1; i < n; i++) {
            const double d = hypot(w->sx[i] - w->sx[0], w->sy[i] - w->sy[0]);
            if (d > best)
                best = d, far = i;
        }
        count = split(w, 0, far, p->split_distance, count);
        count = far < n - 1 ? split(w, far, n - 1, p->split_distance, count) : count;
    } else {
        count = split(w, 0, n - 1, p->split_distance, count);
    }
    w->breaks[count++] = n - 1;
    const int64_t first_piece = w->count;
    for (int64_t j = 0; j + 1 < count;) {
        int kind = kind_of(&q, p->mode, w->breaks[j], w->breaks[j + 1]);
        int64_t end = j + 1;
        for (int64_t e = j + 2; kind >= 0 && e < count; e++) {
            const int k = kind_of(&q, p->mode, w->breaks[j], w->breaks[e]);
            if (k < 0)
                break;
            kind = k, end = e;
        }
        if (q.failed)
            return 0;
        if (!add_span(w, w->breaks[j], w->breaks[end], kind < 0 ? EDGEL_PIECE_LINE : kind, curve))
            return 0;
        j = end;
    }
    place_boundaries(&q, w->pieces + first_piece, w->count - first_piece,
                     2 * (int64_t)p->smooth + 8);
    return !q.failed && fit_pieces(x, y, w->pieces + first_piece, w->count - first_piece, offset);
}

void edgel_segment_work_free(edgel_segment_work *w)
{
    free(w->pieces), free(w->sx), free(w->sy), free(w->breaks), free(w->stack);
    memset(w, 0, sizeof *w);
}
