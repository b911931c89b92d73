/* The pieces of segmented curves in files (edgel contours --segment): JSON, SVG over the
 * image (lines and arcs as SVG primitives, coloured by kind) and DXF (LINE, ARC, CIRCLE and
 * ELLIPSE entities, the format CAD and metrology software read contours from). Written whole
 * or not at all. */
#ifndef EDGEL_IO_PIECES_IO_H
#define EDGEL_IO_PIECES_IO_H

#include "edgel_experimental.h"
#include "io/curves_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether the path's extension is one the pieces are written in (.json, .svg, .dxf). */
int edgel_pieces_format_known(const char *path);

/* Writes `count` pieces in the format the path's extension names; meta as for curves. */
edgel_status edgel_pieces_write(const char *path, const edgel_piece *pieces, int64_t count,
                                const edgel_curves_meta *meta);

#ifdef __cplusplus
}
#endif

#endif
