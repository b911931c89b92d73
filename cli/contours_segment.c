/* edgel contours --segment: the curves split into lines and arcs (edgel_segment_curves),
 * written as pieces (io/pieces_io.h). */
#include "cli.h"
#include "io/pieces_io.h"

edgel_status contours_write_pieces(const char *path, const edgel_curves_view *v,
                                   const edgel_segment_params *params,
                                   const edgel_curves_meta *meta, int *io)
{
    edgel_segments *seg = NULL;
    *io = 0;
    edgel_status st = edgel_segments_create(&seg);
    const edgel_piece *pieces = NULL;
    int64_t count = 0;
    if (st == EDGEL_OK)
        st = edgel_segment_curves(v, params, seg);
    if (st == EDGEL_OK)
        st = edgel_segments_get(seg, &pieces, &count);
    if (st == EDGEL_OK) {
        st = edgel_pieces_write(path, pieces, count, meta);
        *io = st != EDGEL_OK;
    }
    edgel_segments_destroy(seg);
    return st;
}
