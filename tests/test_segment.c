/* Segmentation of curves into lines, circular and elliptic arcs (edgel_segment_curves): the
 * kinds and counts of pieces on shapes of known pieces (a rectangle, a rounded rectangle, a
 * disk, an ellipse, an L and a half circle, open and closed), the pieces' fits, and the
 * refusals. */
#define EDGEL_EXPERIMENTAL /* the segmentation */
#include "check.h"
#include "edgel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define MAX 4096

typedef struct shape {
    double x[MAX], y[MAX];
    int n;
} shape;

/* Points every `step` along the segment from (x0, y0) to (x1, y1), the end left out. */
static void segment_to(shape *s, double x0, double y0, double x1, double y1, double step)
{
    const double len = hypot(x1 - x0, y1 - y0);
    const int k = (int)ceil(len / step);
    for (int i = 0; i < k; i++)
        s->x[s->n] = x0 + (x1 - x0) * i / k, s->y[s->n++] = y0 + (y1 - y0) * i / k;
}

/* Points every `step` along the arc of (cx, cy, r) from angle t0 to t1, the end left out. */
static void arc_to(shape *s, double cx, double cy, double r, double t0, double t1, double step)
{
    const int k = (int)ceil(fabs(t1 - t0) * r / step);
    for (int i = 0; i < k; i++) {
        const double t = t0 + (t1 - t0) * i / k;
        s->x[s->n] = cx + r * cos(t), s->y[s->n++] = cy + r * sin(t);
    }
}

/* Segments one curve; the pieces' kinds in order as a string ("L", "C", "E"). */
static int64_t segment(const shape *s, int closed, edgel_segment_mode mode, char *kinds,
                       const edgel_piece **out)
{
    static edgel_segments *seg;
    if (!seg && edgel_segments_create(&seg) != EDGEL_OK)
        return -1;
    int64_t limits[2] = {0, s->n};
    uint8_t cl = (uint8_t)closed;
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    v.points = s->n, v.curves = 1, v.x = s->x, v.y = s->y, v.limits = limits, v.closed = &cl;
    v.device = -1;
    edgel_segment_params p;
    edgel_segment_params_default(&p);
    p.mode = mode;
    const edgel_piece *pieces;
    int64_t count;
    if (edgel_segment_curves(&v, &p, seg) != EDGEL_OK ||
        edgel_segments_get(seg, &pieces, &count) != EDGEL_OK)
        return -1;
    for (int64_t i = 0; i < count && i < 63; i++)
        kinds[i] = "LCE"[pieces[i].kind];
    kinds[count < 63 ? count : 63] = 0;
    *out = pieces;
    return count;
}

static void test_shapes(void)
{
    static shape s;
    char kinds[64];
    const edgel_piece *pc;

    /* a rectangle from a corner: four lines, each fitted on its side */
    s.n = 0;
    segment_to(&s, 10, 10, 70, 10, 0.5), segment_to(&s, 70, 10, 70, 40, 0.5);
    segment_to(&s, 70, 40, 10, 40, 0.5), segment_to(&s, 10, 40, 10, 10, 0.5);
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) == 4 && !strcmp(kinds, "LLLL"));
    CHECK(fabs(pc[0].line.ny) > 0.999999 && fabs(pc[0].line.distance - 10.0) < 1e-9);
    CHECK(fabs(pc[1].line.nx) > 0.999999 && fabs(pc[1].line.distance - 70.0) < 1e-9);
    CHECK(pc[0].first == 0 && pc[0].count == 121 && pc[3].first + pc[3].count == s.n);

    /* a disk: one circle, closed; lines alone: a polygon */
    s.n = 0;
    arc_to(&s, 50, 50, 20, 0, 2 * PI, 0.5);
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) == 1 && !strcmp(kinds, "C"));
    CHECK(fabs(pc[0].circle.radius - 20.0) < 1e-9 && pc[0].count == s.n);
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES, kinds, &pc) > 4 && strchr(kinds, 'C') == NULL);

    /* a rounded rectangle (corner radius 10), from the start of a side: line, arc, four times */
    s.n = 0;
    segment_to(&s, 20, 10, 80, 10, 0.5), arc_to(&s, 80, 20, 10, -PI / 2, 0, 0.5);
    segment_to(&s, 90, 20, 90, 50, 0.5), arc_to(&s, 80, 50, 10, 0, PI / 2, 0.5);
    segment_to(&s, 80, 60, 20, 60, 0.5), arc_to(&s, 20, 50, 10, PI / 2, PI, 0.5);
    segment_to(&s, 10, 50, 10, 20, 0.5), arc_to(&s, 20, 20, 10, PI, 1.5 * PI, 0.5);
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) == 8 &&
          !strcmp(kinds, "LCLCLCLC"));
    for (int k = 1; k < 8; k += 2)
        CHECK(fabs(pc[k].circle.radius - 10.0) < 0.05);

    /* an ellipse: one, where ellipses are allowed; arcs and lines otherwise */
    s.n = 0;
    for (int i = 0; i < 600; i++) {
        const double t = 2 * PI * i / 600;
        s.x[s.n] = 50 + 30 * cos(t) * cos(0.3) - 12 * sin(t) * sin(0.3);
        s.y[s.n++] = 40 + 30 * cos(t) * sin(0.3) + 12 * sin(t) * cos(0.3);
    }
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES_ELLIPSES, kinds, &pc) == 1 && !strcmp(kinds, "E"));
    CHECK(fabs(pc[0].ellipse.a - 30.0) < 1e-6 && fabs(pc[0].ellipse.b - 12.0) < 1e-6);
    CHECK(segment(&s, 1, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) > 1 && strchr(kinds, 'E') == NULL);

    /* open curves: an L (two lines), a half circle (one arc) */
    s.n = 0;
    segment_to(&s, 0, 0, 40, 0, 0.5), segment_to(&s, 40, 0, 40, 30.5, 0.5);
    CHECK(segment(&s, 0, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) == 2 && !strcmp(kinds, "LL"));
    s.n = 0;
    arc_to(&s, 0, 0, 15, 0, PI, 0.25);
    CHECK(segment(&s, 0, EDGEL_SEGMENT_LINES_CIRCLES, kinds, &pc) == 1 && !strcmp(kinds, "C"));
    CHECK(fabs(pc[0].circle.end_angle - pc[0].circle.start_angle - PI) < 0.05);
}

static void test_refusals(void)
{
    edgel_segments *seg = NULL;
    CHECK(edgel_segments_create(&seg) == EDGEL_OK);
    double x[4] = {0, 1, 2, 3}, y[4] = {0, 0, 1, 1};
    int64_t limits[2] = {0, 4};
    uint8_t closed = 0;
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    v.points = 4, v.curves = 1, v.x = x, v.y = y, v.limits = limits, v.closed = &closed;
    v.device = -1;
    edgel_segment_params p;
    edgel_segment_params_default(&p);
    CHECK(edgel_segment_curves(&v, &p, seg) == EDGEL_OK);
    CHECK(edgel_segment_curves(&v, NULL, seg) == EDGEL_OK); /* NULL: the defaults */
    p.mode = (edgel_segment_mode)9;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_INVALID_ARGUMENT, "mode");
    edgel_segment_params_default(&p);
    p.max_distance = 0;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_INVALID_ARGUMENT, "max_distance");
    edgel_segment_params_default(&p);
    p.smooth = 51;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_INVALID_ARGUMENT, "smooth");
    edgel_segment_params_default(&p);
    limits[1] = 5;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_INVALID_ARGUMENT, "limits");
    limits[1] = 4;
    y[2] = NAN;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_INVALID_ARGUMENT, "point 2");
    y[2] = 1;
    v.device = 0;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_UNSUPPORTED, "device");
    v.device = -1;
    v.x = NULL;
    CHECK_STATUS(edgel_segment_curves(&v, &p, seg), EDGEL_ERROR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(edgel_segment_curves(NULL, &p, seg), EDGEL_ERROR_NULL_ARGUMENT, "curves");
    v.x = x;
    CHECK_STATUS(edgel_segment_curves(&v, &p, NULL), EDGEL_ERROR_NULL_ARGUMENT, "segments");
    const edgel_piece *pieces;
    int64_t count;
    CHECK_STATUS(edgel_segments_get(seg, NULL, &count), EDGEL_ERROR_NULL_ARGUMENT, "pieces");
    /* no curves: no pieces; the pieces of the last call are replaced */
    v.curves = 0, v.points = 0, limits[0] = 0;
    CHECK(edgel_segment_curves(&v, &p, seg) == EDGEL_OK);
    CHECK(edgel_segments_get(seg, &pieces, &count) == EDGEL_OK && count == 0);
    CHECK_STATUS(edgel_segments_create(NULL), EDGEL_ERROR_NULL_ARGUMENT, "segments");
    edgel_segments_destroy(seg);
    edgel_segments_destroy(NULL);
}

int main(void)
{
    test_shapes();
    test_refusals();
    return check_summary("segment");
}
