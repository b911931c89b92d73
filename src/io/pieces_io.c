/* The pieces' file formats (io/pieces_io.h). Image coordinates have pixel centres at
 * integers and y down; SVG's pixel (0, 0) covers the unit square from the origin (so +0.5);
 * DXF's y runs up (so y is negated, and an arc's angles with it). */
#include "io/pieces_io.h"

#include "io/io_common.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#define PI 3.14159265358979323846

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && !strchr(dot, '/') ? dot : "";
}

int edgel_pieces_format_known(const char *path)
{
    const char *e = extension(path);
    return !strcasecmp(e, ".json") || !strcasecmp(e, ".svg") || !strcasecmp(e, ".dxf");
}

static const char *const kind_names[3] = {"line", "circle", "ellipse"};

/* ---- JSON ------------------------------------------------------------------------------- */

static void quality_json(FILE *f, const edgel_fit_quality *q)
{
    fprintf(f, ", \"rms\": %.17g, \"max_distance\": %.17g}", q->rms, q->max_distance);
}

static int write_json(FILE *f, const edgel_piece *p, int64_t n, const edgel_curves_meta *m)
{
    fprintf(f, "{\"width\": %d, \"height\": %d, \"sigma\": %.17g, \"high\": %.17g, "
               "\"low\": %.17g,\n \"pieces\": [", m->width, m->height, m->sigma, m->high, m->low);
    for (int64_t i = 0; i < n; i++) {
        fprintf(f, "%s\n  {\"kind\": \"%s\", \"curve\": %lld, \"first\": %lld, \"count\": %lld, ",
                i ? "," : "", kind_names[p[i].kind], (long long)p[i].curve,
                (long long)p[i].first, (long long)p[i].count);
        if (p[i].kind == EDGEL_PIECE_LINE) {
            const edgel_line_fit *l = &p[i].line;
            fprintf(f, "\"x0\": %.17g, \"y0\": %.17g, \"x1\": %.17g, \"y1\": %.17g, "
                       "\"nx\": %.17g, \"ny\": %.17g, \"distance\": %.17g",
                    l->x0, l->y0, l->x1, l->y1, l->nx, l->ny, l->distance);
            quality_json(f, &l->quality);
        } else if (p[i].kind == EDGEL_PIECE_CIRCLE) {
            const edgel_circle_fit *c = &p[i].circle;
            fprintf(f, "\"cx\": %.17g, \"cy\": %.17g, \"radius\": %.17g, \"start_angle\": "
                       "%.17g, \"end_angle\": %.17g, \"sd_cx\": %.17g, \"sd_cy\": %.17g, "
                       "\"sd_radius\": %.17g",
                    c->cx, c->cy, c->radius, c->start_angle, c->end_angle, c->sd_cx, c->sd_cy,
                    c->sd_radius);
            quality_json(f, &c->quality);
        } else {
            const edgel_ellipse_fit *e = &p[i].ellipse;
            fprintf(f, "\"cx\": %.17g, \"cy\": %.17g, \"a\": %.17g, \"b\": %.17g, \"angle\": "
                       "%.17g, \"start_angle\": %.17g, \"end_angle\": %.17g",
                    e->cx, e->cy, e->a, e->b, e->angle, e->start_angle, e->end_angle);
            quality_json(f, &e->quality);
        }
    }
    fputs("\n]}\n", f);
    return !ferror(f);
}

/* ---- SVG -------------------------------------------------------------------------------- */

/* The point at polar angle t about an ellipse's centre (a circle's: a = b). */
static void on_ellipse(double cx, double cy, double a, double b, double angle, double t,
                       double *x, double *y)
{
    const double u = cos(t - angle), v = sin(t - angle);
    const double r = a * b / sqrt((b * u) * (b * u) + (a * v) * (a * v));
    *x = cx + r * cos(t), *y = cy + r * sin(t);
}

/* An arc from angle s to e (e > s, counter-clockwise in image axes: SVG's positive sweep). */
static void svg_arc(FILE *f, double cx, double cy, double a, double b, double angle, double s,
                    double e, const char *colour)
{
    if (e - s >= 2.0 * PI - 1e-9) {
        fprintf(f, "<ellipse cx=\"%.4f\" cy=\"%.4f\" rx=\"%.4f\" ry=\"%.4f\" "
                   "transform=\"rotate(%.6f %.4f %.4f)\" stroke=\"%s\"/>\n",
                cx + 0.5, cy + 0.5, a, b, angle * 180.0 / PI, cx + 0.5, cy + 0.5, colour);
        return;
    }
    double x0, y0, x1, y1;
    on_ellipse(cx, cy, a, b, angle, s, &x0, &y0);
    on_ellipse(cx, cy, a, b, angle, e, &x1, &y1);
    fprintf(f, "<path d=\"M %.4f %.4f A %.4f %.4f %.6f %d 1 %.4f %.4f\" stroke=\"%s\"/>\n",
            x0 + 0.5, y0 + 0.5, a, b, angle * 180.0 / PI, e - s > PI, x1 + 0.5, y1 + 0.5, colour);
}

static int write_svg(FILE *f, const edgel_piece *p, int64_t n, const edgel_curves_meta *m)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n<title>%lld pieces: lines (blue), circular arcs (red), "
               "elliptic arcs (green)</title>\n",
            m->width, m->height, m->width, m->height, (long long)n);
    if (m->background && !edgel_svg_background(f, m->background))
        return 0;
    static const char *const colours[3] = {"#4f8cff", "#ff4b4b", "#3cdc5a"};
    const int side = m->width > m->height ? m->width : m->height;
    const double width = side / 500.0 < 0.8 ? 0.8 : side / 500.0 > 3.0 ? 3.0 : side / 500.0;
    fprintf(f, "<g fill=\"none\" stroke-width=\"%.2f\" stroke-linecap=\"round\">\n", width);
    for (int64_t i = 0; i < n; i++) {
        const char *c = colours[p[i].kind];
        if (p[i].kind == EDGEL_PIECE_LINE) {
            const edgel_line_fit *l = &p[i].line;
            fprintf(f, "<line x1=\"%.4f\" y1=\"%.4f\" x2=\"%.4f\" y2=\"%.4f\" stroke=\"%s\"/>\n",
                    l->x0 + 0.5, l->y0 + 0.5, l->x1 + 0.5, l->y1 + 0.5, c);
        } else if (p[i].kind == EDGEL_PIECE_CIRCLE) {
            const edgel_circle_fit *k = &p[i].circle;
            svg_arc(f, k->cx, k->cy, k->radius, k->radius, 0.0, k->start_angle, k->end_angle, c);
        } else {
            const edgel_ellipse_fit *e = &p[i].ellipse;
            svg_arc(f, e->cx, e->cy, e->a, e->b, e->angle, e->start_angle, e->end_angle, c);
        }
    }
    fputs("</g>\n</svg>\n", f);
    return !ferror(f);
}

/* ---- DXF -------------------------------------------------------------------------------- */

static double degrees_up(double t) /* an image angle as DXF's (y up), in [0, 360) */
{
    double d = -t * 180.0 / PI;
    d -= 360.0 * floor(d / 360.0);
    return d;
}

/* An ellipse's parameter (eccentric anomaly, DXF's) at image polar angle t, y up. */
static double parameter_up(const edgel_ellipse_fit *e, double t)
{
    const double u = cos(t - e->angle), v = sin(t - e->angle);
    double s = atan2(-e->a * v, e->b * u); /* y up: the angle's sign flips */
    return s < 0.0 ? s + 2.0 * PI : s;
}

static int write_dxf(FILE *f, const edgel_piece *p, int64_t n)
{
    /* R2000 (AC1015): ELLIPSE entities need it */
    fputs("0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n0\n0\nENDSEC\n"
          "0\nSECTION\n2\nENTITIES\n", f);
    for (int64_t i = 0; i < n; i++) {
        const char *layer = p[i].kind == EDGEL_PIECE_LINE     ? "LINES"
                            : p[i].kind == EDGEL_PIECE_CIRCLE ? "CIRCLES"
                                                              : "ELLIPSES";
        if (p[i].kind == EDGEL_PIECE_LINE) {
            const edgel_line_fit *l = &p[i].line;
            fprintf(f, "0\nLINE\n8\n%s\n10\n%.10f\n20\n%.10f\n30\n0.0\n11\n%.10f\n21\n%.10f\n"
                       "31\n0.0\n", layer, l->x0, -l->y0, l->x1, -l->y1);
        } else if (p[i].kind == EDGEL_PIECE_CIRCLE) {
            const edgel_circle_fit *c = &p[i].circle;
            if (c->end_angle - c->start_angle >= 2.0 * PI - 1e-9)
                fprintf(f, "0\nCIRCLE\n8\n%s\n10\n%.10f\n20\n%.10f\n30\n0.0\n40\n%.10f\n",
                        layer, c->cx, -c->cy, c->radius);
            else /* counter-clockwise, y up: from the image's end angle to its start */
                fprintf(f, "0\nARC\n8\n%s\n10\n%.10f\n20\n%.10f\n30\n0.0\n40\n%.10f\n"
                           "50\n%.10f\n51\n%.10f\n", layer, c->cx, -c->cy, c->radius,
                        degrees_up(c->end_angle), degrees_up(c->start_angle));
        } else {
            const edgel_ellipse_fit *e = &p[i].ellipse;
            const int whole = e->end_angle - e->start_angle >= 2.0 * PI - 1e-9;
            fprintf(f, "0\nELLIPSE\n8\n%s\n10\n%.10f\n20\n%.10f\n30\n0.0\n11\n%.10f\n21\n%.10f\n"
                       "31\n0.0\n40\n%.10f\n41\n%.10f\n42\n%.10f\n", layer, e->cx, -e->cy,
                    e->a * cos(e->angle), -e->a * sin(e->angle), e->b / e->a,
                    whole ? 0.0 : parameter_up(e, e->end_angle),
                    whole ? 2.0 * PI : parameter_up(e, e->start_angle));
        }
    }
    fputs("0\nENDSEC\n0\nEOF\n", f);
    return !ferror(f);
}

edgel_status edgel_pieces_write(const char *path, const edgel_piece *pieces, int64_t count,
                                const edgel_curves_meta *meta)
{
    if (!path || (count && !pieces) || !meta)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "write: NULL argument");
    const char *e = extension(path);
    if (!edgel_pieces_format_known(path))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: pieces are written as .json, .svg or "
                             ".dxf", path);
    edgel_io_temporary t;
    EDGEL_IO_TRY(edgel_io_temporary_open(&t, path));
    errno = 0;
    const int ok = !strcasecmp(e, ".json") ? write_json(t.file, pieces, count, meta)
                   : !strcasecmp(e, ".svg") ? write_svg(t.file, pieces, count, meta)
                                            : write_dxf(t.file, pieces, count);
    return edgel_io_temporary_close(&t, ok, errno);
}
