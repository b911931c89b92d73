/* Public entry points of sub-pixel curves in bands of columns (edgel_subpixel_stream_*): the
 * stream object, its busy flag and checks; the pass itself is core/subpixel_stream.c's. */
#include "api/api_subpixel.h"
#include "api/context.h"
#include "core/curves.h"
#include "core/grown.h"
#include "core/status.h"
#include "core/busy.h"
#include "core/subpixel_math.h"
#include "core/subpixel_stream.h"

#include <stdlib.h>
#include <string.h>

/* ---- in bands of columns ----------------------------------------------------------------- */

struct edgel_subpixel_stream {
    edgel_busy_flag busy;
    edgel_stream_state *state;
    edgel_curves *found; /* a piece's points */
    edgel_subpixel_params p;
    int64_t width, height;
    int32_t halo;
    int broken;   /* an add failed: its state is not the pass's */
    int finished; /* its curves were given (and let go) */
};

edgel_status edgel_subpixel_stream_create(const edgel_subpixel_params *params, int64_t width,
                                          int64_t height, edgel_subpixel_stream **stream)
{
    if (!stream)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "stream is NULL");
    *stream = NULL;
    edgel_subpixel_params p;
    EDGEL_TRY(edgel_subpixel_read_params(params, &p));
    if (width < 1 || height < 1 || width > EDGEL_MAX_TILED_DIMENSION ||
        height > EDGEL_MAX_TILED_DIMENSION)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: %lldx%lld must be "
                          "1 to %d pixels a side", (long long)width, (long long)height,
                          EDGEL_MAX_TILED_DIMENSION);
    edgel_subpixel_stream *s = calloc(1, sizeof *s);
    if (s) {
        s->state = edgel_stream_state_create(&p, (int32_t)width, (int32_t)height);
        s->found = calloc(1, sizeof *s->found);
    }
    if (!s || !s->state || !s->found) {
        edgel_subpixel_stream_destroy(s);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    }
    s->p = p;
    atomic_init(&s->busy, 0);
    s->width = width, s->height = height, s->halo = edgel_subpixel_halo(p.sigma);
    *stream = s;
    return EDGEL_OK;
}

void edgel_subpixel_stream_destroy(edgel_subpixel_stream *stream)
{
    if (!stream)
        return;
    edgel_stream_state_free(stream->state);
    edgel_curves_free(stream->found);
    free(stream);
}

int64_t edgel_subpixel_stream_columns(const edgel_subpixel_stream *stream)
{
    return stream ? edgel_stream_state_added(stream->state) : 0;
}

int64_t edgel_subpixel_stream_points(const edgel_subpixel_stream *stream)
{
    return stream ? edgel_stream_state_points(stream->state) : 0;
}

static edgel_status stream_enter(edgel_subpixel_stream *s)
{
    EDGEL_TRY(edgel_busy_enter(s ? &s->busy : NULL, "stream's pieces"));
    if (s->broken)
        return edgel_busy_leave(&s->busy, edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                                     "sub-pixel stream: an earlier add failed; "
                                                     "start another stream"));
    return EDGEL_OK;
}

static edgel_status stream_add_held(edgel_context *ctx, edgel_subpixel_stream *s,
                                    const edgel_image *piece, int64_t x0)
{
    EDGEL_TRY(stream_enter(s));
    const int64_t added = edgel_stream_state_added(s->state);
    edgel_status st = edgel_subpixel_check_source(ctx, piece);
    if (st == EDGEL_OK && piece->memory == EDGEL_MEMORY_DEVICE)
        st = edgel_fail(EDGEL_ERROR_UNSUPPORTED, "sub-pixel stream: pieces are host images");
    if (st == EDGEL_OK && (piece->height != s->height || x0 < 0 ||
                           x0 + piece->width > s->width))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: a piece of %dx%d "
                        "pixels at column %lld is not columns of every row of the %lldx%lld "
                        "image", (int)piece->width, (int)piece->height, (long long)x0,
                        (long long)s->width, (long long)s->height);
    if (st == EDGEL_OK && added == s->width)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: every column is in "
                        "already");
    int32_t own_lo = 0, own_hi = 0;
    if (st == EDGEL_OK)
        edgel_stream_state_own(s->state, x0, piece->width, &own_lo, &own_hi);
    if (st == EDGEL_OK && !(own_lo <= added && added < own_hi))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: the piece of columns "
                        "%lld .. %lld gives columns %d .. %d exactly (a halo of %d), which "
                        "must hold column %lld, the first not yet added", (long long)x0,
                        (long long)(x0 + piece->width - 1), (int)own_lo, (int)own_hi - 1,
                        (int)s->halo, (long long)added);
    if (st == EDGEL_OK) {
        st = edgel_subpixel_host_points(ctx, &s->p, piece, x0, 0, s->found);
        if (st == EDGEL_OK)
            st = edgel_stream_state_add(s->state, s->found, x0, piece->width,
                                        edgel_subpixel_cpu_threads(ctx));
        s->broken = st != EDGEL_OK;
    }
    return edgel_busy_leave(&s->busy, st);
}

edgel_status edgel_subpixel_stream_add(edgel_context *ctx, edgel_subpixel_stream *stream,
                                       const edgel_image *piece, int64_t x0)
{
    EDGEL_WITH_CONTEXT(ctx, stream_add_held(ctx, stream, piece, x0));
}

static edgel_status stream_finish_held(edgel_context *ctx, edgel_subpixel_stream *s,
                                       edgel_curves *curves)
{
    EDGEL_TRY(stream_enter(s));
    edgel_status st = edgel_curves_enter(curves);
    if (st != EDGEL_OK)
        return edgel_busy_leave(&s->busy, st);
    edgel_curves_clear(curves);
    curves->has_points = 0;
    const int64_t added = edgel_stream_state_added(s->state);
    if (added < s->width)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: columns %lld .. %lld "
                        "are not in yet", (long long)added, (long long)s->width - 1);
    else if (s->finished)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: its curves were given "
                        "by an earlier finish");
    else
        st = edgel_stream_state_finish(s->state, curves, edgel_subpixel_cpu_threads(ctx));
    s->finished |= st == EDGEL_OK;
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    edgel_curves_leave(curves, st);
    return edgel_busy_leave(&s->busy, st);
}

edgel_status edgel_subpixel_stream_finish(edgel_context *ctx, edgel_subpixel_stream *stream,
                                          edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, stream_finish_held(ctx, stream, curves));
}
