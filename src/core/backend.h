/*
 * The seam between the public entry points (src/api) and a backend (src/cpu, src/cuda): one
 * table of functions each backend fills in. The entry points check every argument, hold the
 * context, and call these with checked views only; a backend owns its whole pipeline behind
 * them (both presets, the convolution methods, its cost model) and never calls another
 * backend. `state` is the backend's own per-context data.
 */
#ifndef EDGEL_CORE_BACKEND_H
#define EDGEL_CORE_BACKEND_H

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

struct edgel_filter_plan;

/* A tile inside its region (the tile and its halo), for the tiled driver (api_tiled.c). */
typedef struct edgel_tile_rect {
    int32_t x, y, width, height;
} edgel_tile_rect;

typedef struct edgel_backend_ops {
    edgel_backend kind;
    void (*destroy)(void *state);
    /* Workspaces sized for frames up to w x h x channels in batches of `batch`. */
    edgel_status (*reserve)(void *state, int w, int h, int channels, int batch);
    edgel_status (*set_stream)(void *state, void *stream);
    edgel_status (*synchronize)(void *state);
    /* `count` frames of one size and kind, the opencv or itk preset (batches carry no
     * stages); frames of different sizes too where varied_batch says so. */
    edgel_status (*canny)(void *state, const edgel_canny_params *params, const edgel_image *srcs,
                          const edgel_image *edges, int count, const edgel_canny_stages *stages);
    /* Optional (NULL: never): whether canny takes these frames of different sizes in one
     * call (one launch sequence on a GPU); else the entry points call it a size at a time. */
    int (*varied_batch)(const edgel_canny_params *params, const edgel_image *srcs, int count);
    /* The skimage preset on one frame, with its mask (NULL: none). */
    edgel_status (*canny_skimage)(void *state, const edgel_canny_params *params,
                                  const edgel_image *src, const edgel_image *mask,
                                  const edgel_image *edges, const edgel_canny_stages *stages);
    edgel_status (*canny_gradients)(void *state, const edgel_canny_params *params,
                                    const edgel_image *dx, const edgel_image *dy,
                                    const edgel_image *edges, const edgel_canny_stages *stages);
    /* The tiled driver's marks of `count` tiles, either preset: regions[i] (host, any sizes)
     * holds tiles[i] and its halo; marks[i] (host, u8, the tile's size) get 255 where
     * hysteresis inside the tile alone makes an edge, 128 on the other candidates whose
     * 8-connected component inside the tile touches the tile's sides, 0 elsewhere; sides[i]
     * (2 x the tile's height) the marks of its left column, then of its right column. */
    edgel_status (*canny_marks)(void *state, const edgel_canny_params *params,
                                const edgel_image *regions, const edgel_tile_rect *tiles,
                                const edgel_image *marks, uint8_t *const *sides, int count);
    /* The building blocks: the CPU's run host views (also for other backends' contexts,
     * with a NULL state: all cores); a GPU backend's run its device views. */
    edgel_status (*to_gray)(void *state, edgel_gray order, const edgel_image *src,
                            const edgel_image *gray);
    edgel_status (*gaussian_blur)(void *state, const edgel_image *src, const edgel_image *dst,
                                  int ksize, double sigma);
    /* Sub-pixel curves of a checked 1-channel image (the CPU's: host views; a GPU backend's:
     * host or device views, the result where the curves' place asks). */
    edgel_status (*subpixel)(void *state, const edgel_subpixel_params *params,
                             const edgel_image *src, edgel_curves *curves);
    /* The curves of `count` checked images, curves[i] of srcs[i] (distinct objects, held by
     * the caller): what `count` subpixel calls give, the frames run side by side. */
    edgel_status (*subpixel_batch)(void *state, const edgel_subpixel_params *params,
                                   const edgel_image *srcs, edgel_curves *const *curves,
                                   int count);
    /* The convolution engine: whether it has an FFT; the predicted time in ns of `method` for
     * a plan (only ratios matter; it may return early with anything above `bound`, and may
     * note its choices in the plan, such as the CPU's FFT tiles); the filter itself. */
    int (*has_fft)(void *state);
    double (*filter_cost)(void *state, struct edgel_filter_plan *plan, edgel_conv_method method,
                          double bound);
    edgel_status (*filter)(void *state, struct edgel_filter_plan *plan, const edgel_image *src,
                           const edgel_image *dst);
    /* ITK's Canny on a checked volume (the CPU's: host volumes; a GPU backend's: host and
     * device volumes, on the GPU). */
    edgel_status (*canny_volume)(void *state, const edgel_volume_canny_params *params,
                                 const edgel_volume *src, const edgel_volume *edges,
                                 const edgel_volume_canny_stages *stages);
    /* Optional (NULL: canny_marks returns with its marks and sides written). Where a backend
     * has it, canny_marks returns once the previous call's marks and sides are written and
     * its own are under way (so a GPU's copies and work run on from one row of tiles to the
     * next), its views and `sides` arrays kept until then; this returns once every call's
     * are written. The driver calls it after its last canny_marks, whatever happened. */
    edgel_status (*canny_marks_wait)(void *state);
    /* A building block of the sub-pixel pieces and stream: the detector's points and
     * neighbours of a checked host piece that starts at (x0, y0) of a larger image. The
     * CPU's alone (NULL elsewhere): the entry points run it for every context, on all cores
     * for another backend's (NULL state), because the GPU's sub-pixel path finds and chains
     * whole frames on the device and has no host-piece form. */
    edgel_status (*subpixel_points)(void *state, const edgel_subpixel_params *params,
                                    const edgel_image *src, int64_t x0, int64_t y0,
                                    edgel_curves *curves);
} edgel_backend_ops;

#ifdef __cplusplus
}
#endif

#endif
