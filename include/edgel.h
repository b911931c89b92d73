/*
 * edgel: exact, fast Canny edge detection and image filtering on CPUs and NVIDIA GPUs.
 *
 * The one public header. Conventions:
 *  - Every function returns an edgel_status. EDGEL_OK is 0; on failure a message for the
 *    calling thread is available from edgel_last_error() until the next failing call.
 *  - The library never prints and never exits.
 *  - Statuses: each function's comment ends with the failures it reports ("Fails:", named
 *    without their EDGEL_ERROR_ prefix). Besides those, every call on a context reports
 *    NULL_ARGUMENT for a NULL context and CONTEXT_BUSY while another call holds it, on a
 *    CUDA context DEVICE where the GPU runtime fails, and every call that allocates
 *    OUT_OF_MEMORY.
 *  - Thread safety: see edgel_context below (one thread at a time a context, detected).
 *  - Handles are opaque. edgel_*_destroy(NULL) is a no-op.
 *  - Images are views: the caller owns the memory. Rows are `pitch` bytes apart, pixels are
 *    packed (channels interleaved) inside a row. x grows right, y grows down.
 *  - Sizes are limited to EDGEL_MAX_DIMENSION per side and EDGEL_MAX_PIXELS in all; larger
 *    views are refused with EDGEL_ERROR_INVALID_SIZE before any arithmetic can overflow,
 *    except host images in edgel_canny, which run in tiles up to EDGEL_MAX_TILED_DIMENSION
 *    and EDGEL_MAX_TILED_PIXELS (edgel_canny_tiled_image).
 *
 * A map, in the header's order (each section: its types, create and destroy, the work, what
 * to read back):
 *   version, status, limits   edgel_version*, edgel_status_name, edgel_last_error
 *   images                    edgel_image views (host or device), edgel_pixel_size
 *   contexts                  edgel_context_create / _destroy, streams, threads, reserve
 *   Canny                     edgel_canny (three presets; stages through its last
 *                             argument), _masked, _gradients, _batch, _batch_multi,
 *                             edgel_canny_auto_thresholds, edgel_canny_params_check
 *   images of any size        edgel_canny_tiled (a source and a sink of tiles),
 *                             edgel_canny_tiled_image, edgel_canny_tile_halo
 *   sub-pixel edges           edgel_subpixel_edges, _batch, the curves object and its views;
 *                             in bands of columns (edgel_subpixel_stream_*);
 *                             edgel_curves_refine
 *   volumes                   edgel_volume views, edgel_canny_volume (ITK's 3-D Canny),
 *                             edgel_canny_volume_bricks (volumes of any size)
 *   building blocks           edgel_to_gray, edgel_gaussian_blur
 *   convolution               edgel_filter2d, edgel_sep_filter2d, edgel_filter2d_method
 *   experimental              (EDGEL_EXPERIMENTAL) edgel_components (joins across chunks for
 *                             drivers of your own, such as edgel.dask); sub-pixel edges in
 *                             pieces (find points, chain points)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef EDGEL_H
#define EDGEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  if defined(EDGEL_BUILDING_LIBRARY)
#    define EDGEL_API __declspec(dllexport)
#  else
#    define EDGEL_API
#  endif
#else
#  define EDGEL_API __attribute__((visibility("default")))
#endif

/* ---- version --------------------------------------------------------------------------- */

/* The one place the version is written: CMake, the Python package's metadata and the module
 * read it from these three lines. */
#define EDGEL_VERSION_MAJOR 0
#define EDGEL_VERSION_MINOR 4
#define EDGEL_VERSION_PATCH 0
#define EDGEL_VERSION_NUMBER \
    (EDGEL_VERSION_MAJOR * 10000 + EDGEL_VERSION_MINOR * 100 + EDGEL_VERSION_PATCH)
#define EDGEL_VERSION_TEXT_(x) #x
#define EDGEL_VERSION_TEXT(x) EDGEL_VERSION_TEXT_(x)
#define EDGEL_VERSION_STRING                                              \
    EDGEL_VERSION_TEXT(EDGEL_VERSION_MAJOR) "." EDGEL_VERSION_TEXT(EDGEL_VERSION_MINOR) "." \
    EDGEL_VERSION_TEXT(EDGEL_VERSION_PATCH)

/** Version of the library actually loaded (compare with EDGEL_VERSION_NUMBER). */
EDGEL_API unsigned edgel_version_number(void);
EDGEL_API const char *edgel_version_string(void);
/** What this build of the library has, one line: "cuda: ...; cpu fft: ...". */
EDGEL_API const char *edgel_build_config(void);

/* ---- status ---------------------------------------------------------------------------- */

/* Values are pinned: they never change meaning between releases. */
typedef enum edgel_status {
    EDGEL_OK = 0,
    EDGEL_ERROR_NULL_ARGUMENT = 1,       /* a required pointer was NULL */
    EDGEL_ERROR_INVALID_ARGUMENT = 2,    /* a value out of its documented range (NaN included) */
    EDGEL_ERROR_INVALID_SIZE = 3,        /* zero, negative, mismatched or too large sizes */
    EDGEL_ERROR_INVALID_PITCH = 4,       /* pitch smaller than a row */
    EDGEL_ERROR_UNSUPPORTED = 5,         /* a valid but unsupported combination */
    EDGEL_ERROR_OUT_OF_MEMORY = 6,
    EDGEL_ERROR_BACKEND_UNAVAILABLE = 7, /* e.g. CUDA asked for but not built or no device */
    EDGEL_ERROR_DEVICE = 8,              /* the GPU runtime reported an error */
    EDGEL_ERROR_IO = 9,                  /* a file could not be opened, read or written */
    EDGEL_ERROR_FORMAT = 10,             /* a file is malformed, truncated or unsupported */
    EDGEL_ERROR_INTERNAL = 11,
    EDGEL_ERROR_CONTEXT_BUSY = 12        /* the context is in another call (thread or callback) */
} edgel_status;

/** "EDGEL_OK", "EDGEL_ERROR_NULL_ARGUMENT", ...; "EDGEL_ERROR_UNKNOWN" for other values. */
EDGEL_API const char *edgel_status_name(edgel_status status);
/** Message of the calling thread's last failure ("" if none). Valid until its next call. */
EDGEL_API const char *edgel_last_error(void);

/* ---- limits ---------------------------------------------------------------------------- */

#define EDGEL_MAX_DIMENSION 65536        /* width and height, each */
#define EDGEL_MAX_PIXELS (1LL << 30)     /* width * height */

/* ---- images ---------------------------------------------------------------------------- */

typedef enum edgel_pixel_type {
    EDGEL_U8 = 0,
    EDGEL_U16 = 1,
    EDGEL_S16 = 2, /* gradients */
    EDGEL_S32 = 3, /* magnitudes */
    EDGEL_F32 = 4,
    EDGEL_F64 = 5,  /* skimage preset */
    EDGEL_BOOL = 6  /* one byte: 0 false, anything else true (numpy's bool) */
} edgel_pixel_type;

typedef enum edgel_memory {
    EDGEL_MEMORY_HOST = 0,
    EDGEL_MEMORY_DEVICE = 1 /* CUDA device memory (CUDA backend only) */
} edgel_memory;

typedef struct edgel_image {
    void *data;
    int32_t width;
    int32_t height;
    size_t pitch; /* bytes from one row to the next, >= width * channels * pixel size */
    edgel_pixel_type type;
    int32_t channels; /* 1, 3 or 4 */
    edgel_memory memory;
} edgel_image;

/** A host view with the tightest pitch. */
EDGEL_API edgel_image edgel_image_host(void *data, int32_t width, int32_t height,
                                       edgel_pixel_type type, int32_t channels);
/** Bytes of one pixel channel of `type` (0 for an unknown type). */
EDGEL_API size_t edgel_pixel_size(edgel_pixel_type type);

/* What lies outside the image (names of OpenCV; SciPy's ndimage modes in brackets). */
typedef enum edgel_border {
    EDGEL_BORDER_CONSTANT = 0,    /* border_value           ['constant']   */
    EDGEL_BORDER_REPLICATE = 1,   /* aaa|abcd|ddd           ['nearest']    */
    EDGEL_BORDER_REFLECT = 2,     /* cba|abcd|dcb           ['reflect']    */
    EDGEL_BORDER_REFLECT_101 = 3, /* dcb|abcd|cba (default) ['mirror']     */
    EDGEL_BORDER_WRAP = 4         /* bcd|abcd|abc           ['grid-wrap']  */
} edgel_border;

/* ---- contexts -------------------------------------------------------------------------- */

typedef enum edgel_backend {
    EDGEL_BACKEND_AUTO = 0, /* CUDA when built and a device is present, else CPU */
    EDGEL_BACKEND_CPU = 1,
    EDGEL_BACKEND_CUDA = 2
} edgel_backend;

/*
 * Parameter structs grow: each starts with `struct_size`, which its _default() macro sets to
 * the struct's size in the header the caller is built with. The library reads that many
 * bytes and gives any field the caller's header lacks its default, so a program built
 * against an older header runs unchanged with a newer libedgel.so.0. Initialise every
 * struct with its _default() macro: a struct whose struct_size was never set is refused
 * (EDGEL_ERROR_INVALID_ARGUMENT), and one from a newer header than the library's too
 * (EDGEL_ERROR_UNSUPPORTED). From another language, call the _init() function with the
 * struct's size in that language's layout (Python: ctypes.sizeof).
 */

typedef struct edgel_context_options {
    uint32_t struct_size; /* set by edgel_context_options_default */
    int32_t threads; /* CPU worker threads; 0 = all cores (default). 1 = the serial reference */
    int32_t device;  /* CUDA device ordinal (default 0) */
} edgel_context_options;

/*
 * A context holds a backend's workspaces between calls and serves one thread at a time: a
 * call made while another thread's call on the same context is running fails with
 * EDGEL_ERROR_CONTEXT_BUSY (nothing is written). Give each thread its own context; different
 * contexts may be used from any number of threads at once. Every function that takes no
 * context may be called from any thread.
 */
typedef struct edgel_context edgel_context;

EDGEL_API void edgel_context_options_init(edgel_context_options *options, size_t struct_size);
#define edgel_context_options_default(options) \
    edgel_context_options_init((options), sizeof *(options))
/**
 * options may be NULL for the defaults.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (threads, device or backend out of range),
 * BACKEND_UNAVAILABLE (CUDA not built in, or no such device), DEVICE.
 */
EDGEL_API edgel_status edgel_context_create(edgel_backend backend,
                                            const edgel_context_options *options,
                                            edgel_context **out);
EDGEL_API void edgel_context_destroy(edgel_context *ctx);
/**
 * The backend the context runs on (never EDGEL_BACKEND_AUTO).
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_context_backend(const edgel_context *ctx, edgel_backend *out);
/**
 * Worker threads the CPU backend uses (after resolving 0 = all cores).
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_context_threads(const edgel_context *ctx, int32_t *out);

/**
 * CUDA contexts: the stream (a cudaStream_t) their work is queued on. NULL selects the
 * context's own stream, created non-blocking: it does not wait for work on the legacy default
 * stream, so order your own writes to the input (or reads of the output) with events, a
 * stream of yours, or a synchronisation. Calls on device images return as soon as the work
 * is queued (no host wait); calls on host images wait for their own results. CPU contexts:
 * EDGEL_OK, no effect.
 * Fails: as every call on a context.
 */
EDGEL_API edgel_status edgel_context_set_stream(edgel_context *ctx, void *stream);
/**
 * Waits until all work queued by the context has finished (no-op on the CPU).
 * Fails: as every call on a context (DEVICE: an earlier call's queued work failed).
 */
EDGEL_API edgel_status edgel_context_synchronize(edgel_context *ctx);
/**
 * Sizes the context's workspaces for frames up to width x height with up to `channels`
 * channels, in batches of up to `batch` frames. Afterwards calls within those sizes allocate
 * nothing (on the GPU: no cudaMalloc, no host synchronisation beyond the documented ones).
 * Without it, workspaces grow on first use.
 * Fails: INVALID_SIZE (a side or the pixels past the limits), INVALID_ARGUMENT (channels, batch).
 */
EDGEL_API edgel_status edgel_context_reserve(edgel_context *ctx, int32_t width, int32_t height,
                                             int32_t channels, int32_t batch);

/* ---- Canny ----------------------------------------------------------------------------- */

typedef enum edgel_preset {
    EDGEL_PRESET_OPENCV = 0, /* the integer Sobel pipeline of cv::Canny, byte for byte */
    EDGEL_PRESET_ITK = 1,    /* itk::CannyEdgeDetectionImageFilter<float>, bit for bit */
    EDGEL_PRESET_SKIMAGE = 2 /* skimage.feature.canny of scikit-image 0.26, byte for byte */
} edgel_preset;

#define EDGEL_APERTURE_SCHARR (-1)

typedef enum edgel_blur {
    EDGEL_BLUR_NONE = 0,
    EDGEL_BLUR_GAUSSIAN = 1, /* equal to cv2.GaussianBlur(img, (k, k), sigma) for u8 */
    EDGEL_BLUR_5X5_159 = 2   /* the classic 5x5 integer kernel / 159, round to nearest */
} edgel_blur;

typedef enum edgel_gray {
    EDGEL_GRAY_NONE = 0, /* multi-channel Canny: per pixel the channel of largest magnitude */
    EDGEL_GRAY_RGB = 1,  /* luma from R,G,B(,A) = cv2.cvtColor(COLOR_RGB2GRAY / RGBA2GRAY) */
    EDGEL_GRAY_BGR = 2   /* luma from B,G,R(,A) = cv2.cvtColor(COLOR_BGR2GRAY / BGRA2GRAY) */
} edgel_gray;

/*
 * Parameters of the presets. The opencv preset reads the thresholds and everything up to
 * blur_ksize; the itk preset reads only the thresholds, variance and maximum_error, and
 * takes 1-channel u8, u16 or f32 input (pixel values used as they are). The skimage preset
 * reads the thresholds and the fields from sigma on, with skimage.feature.canny's meaning.
 */
typedef struct edgel_canny_params {
    uint32_t struct_size;  /* set by edgel_canny_params_default */
    edgel_preset preset;   /* EDGEL_PRESET_OPENCV (default) */
    double low_threshold;  /* default 50. opencv: swapped with high if larger. itk: ITK's
                              LowerThreshold, rounded to float, never swapped */
    double high_threshold; /* default 150. itk: UpperThreshold (rounded to float) */
    int32_t aperture;      /* 3 (default), 5, 7 or EDGEL_APERTURE_SCHARR (needs l2_gradient) */
    int32_t l2_gradient;   /* 0: |dx|+|dy| (default), 1: dx*dx+dy*dy against squared thresholds */
    edgel_gray gray;       /* colour handling for 3/4-channel input (default NONE) */
    edgel_blur blur;       /* pre-smoothing (default NONE) */
    double blur_sigma;     /* Gaussian sigma; <= 0 derives it from blur_ksize as OpenCV */
    int32_t blur_ksize;    /* odd Gaussian size; 0 derives it from sigma as OpenCV (u8: 6s+1) */
    double variance;       /* itk: Gaussian variance in pixels^2, 0..700 (default 0 = none) */
    double maximum_error;  /* itk: kernel truncation error, in (0, 1) (default 0.01); the
                              kernel radius is capped at 32 as ITK's */
    /* skimage preset (since 0.4.0). Thresholds: as skimage's low_threshold and
     * high_threshold, in the input's units (divided by its type's maximum: 255 for u8, 1 for
     * floats and bool), or quantiles with use_quantiles; NaN (nan("")) is skimage's None,
     * 0.1 and 0.2 of the [0, 1]-scaled image. */
    double sigma;           /* Gaussian sigma, 0..EDGEL_SKIMAGE_MAX_SIGMA (default 1) */
    edgel_border mode;      /* the Gaussian's borders, scipy.ndimage's modes (default CONSTANT:
                               skimage's 'constant') */
    double cval;            /* the value outside the image in CONSTANT mode (default 0) */
    int32_t use_quantiles;  /* 1: the thresholds are quantiles of the gradient magnitude */
    /* NULL (default): the Gaussian's 2r + 1 weights (r = (int)(4 sigma + 0.5)) are those of
     * scipy.ndimage computed with the C library's exp(). Else the caller's weights, such as
     * scipy.ndimage._filters._gaussian_kernel1d(sigma, 0, r) gives: NumPy's own exp differs
     * from the C library's in the last bit for some arguments on CPUs with AVX-512, and the
     * Python binding passes NumPy's weights so its edges equal skimage's on every machine.
     * They must be symmetric, as scipy's are. */
    const double *gaussian_weights;
} edgel_canny_params;

#define EDGEL_SKIMAGE_MAX_SIGMA 4096.0

EDGEL_API void edgel_canny_params_init(edgel_canny_params *params, size_t struct_size);
#define edgel_canny_params_default(params) edgel_canny_params_init((params), sizeof *(params))
/** EDGEL_OK when every value of `params` is in its documented range, else the status and
 * message a Canny call with them would give (for checking options before any work).
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (a value out of range, NaN included; an unknown preset,
 * blur or aperture), UNSUPPORTED (a combination its preset does not take).
 */
EDGEL_API edgel_status edgel_canny_params_check(const edgel_canny_params *params);

/*
 * Optional intermediate results. Each non-NULL view must be sized like the input and is
 * written by the call. opencv preset:
 *   gray       u8 x1      after colour conversion (only with params->gray != NONE)
 *   smoothed   u8 x C     after blur (C = 1 after gray conversion, else input channels)
 *   dx, dy     s16 x1     Sobel derivatives (multi-channel input: of the selected channel)
 *   magnitude  s32 x1     |dx|+|dy| or dx*dx+dy*dy
 *   suppressed u8 x1      after non-maximum suppression and the double threshold:
 *                         0 = not an edge candidate, 128 = weak (kept, > low), 255 = strong
 * itk preset (the others must be NULL):
 *   smoothed   f32 x1     the Gaussian-smoothed image
 *   suppressed f32 x1     ITK's GetNonMaximumSuppressionImage(): the gradient magnitude
 *                         sqrt(1e-4 + |grad|^2) at zero crossings of the second directional
 *                         derivative where the gradient is maximal, else 0
 * skimage preset (gray must be NULL), each of skimage's float type: f32 for f32 input, f64
 * for every other:
 *   smoothed              the Gaussian-smoothed image (after the bleed-over division)
 *   dx, dy                ndi.sobel(smoothed, axis=1) and (axis=0): jsobel and isobel
 *   magnitude             sqrt(isobel^2 + jsobel^2)
 *   suppressed            the magnitude where non-maximum suppression and the low
 *                         threshold keep it, else 0 (skimage's low_masked)
 */
typedef struct edgel_canny_stages {
    const edgel_image *gray;
    const edgel_image *smoothed;
    const edgel_image *dx;
    const edgel_image *dy;
    const edgel_image *magnitude;
    const edgel_image *suppressed;
} edgel_canny_stages;

/**
 * Canny edges of `src` into `edges` (1 channel, same size). opencv preset: src u8 with 1, 3
 * or 4 channels, edges u8 (255 on edges, 0 elsewhere). itk preset: src u8, u16 or f32 with
 * 1 channel, edges u8 (255/0) or f32 (1/0, ITK's output). `stages` may be NULL. src and
 * edges may not overlap unless they are the same 1-channel view of one type. Host images
 * past EDGEL_MAX_DIMENSION a side or EDGEL_MAX_PIXELS run in tiles (edgel_canny_tiled_image:
 * u8 edges apart from src, no stages), with the same bytes.
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_PITCH, INVALID_ARGUMENT (a parameter out of range,
 * views that overlap), UNSUPPORTED (a pixel type, channel count or memory kind it does not take);
 * a host image past the whole-image limits, edgel_canny_tiled_image's.
 */
EDGEL_API edgel_status edgel_canny(edgel_context *ctx, const edgel_canny_params *params,
                                   const edgel_image *src, const edgel_image *edges,
                                   const edgel_canny_stages *stages);

/**
 * skimage preset: the skimage preset's input is 1-channel bool, u8, u16, s16, s32, f32 or
 * f64, its edges u8 (255/0) or bool (1/0). edgel_canny_masked is edgel_canny with
 * skimage.feature.canny's `mask` (u8 or bool, 1 channel, the input's size and memory;
 * non-zero = take part); mask NULL is edgel_canny. Other presets take no mask.
 * Fails: edgel_canny's, and for the mask NULL_ARGUMENT, INVALID_SIZE (another size than the
 * input's), UNSUPPORTED (a type other than u8 or bool, channels, another preset than skimage),
 * INVALID_ARGUMENT (a mask that overlaps the edges).
 */
EDGEL_API edgel_status edgel_canny_masked(edgel_context *ctx, const edgel_canny_params *params,
                                          const edgel_image *src, const edgel_image *mask,
                                          const edgel_image *edges,
                                          const edgel_canny_stages *stages);

/**
 * Canny from caller-supplied gradients (cv::Canny(dx, dy, edges, low, high, L2)): dx and dy
 * are s16 with 1, 3 or 4 channels, same size and channels. opencv preset only; uses the
 * thresholds and l2_gradient of `params` (no /16 for aperture 7). `stages` may be NULL; its
 * gray, smoothed, dx and dy members are ignored.
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_PITCH, INVALID_ARGUMENT (a parameter out of range,
 * views that overlap), UNSUPPORTED (a pixel type, channel count or memory kind it does not take);
 * INVALID_SIZE also for dx and dy of different sizes or channels.
 */
EDGEL_API edgel_status edgel_canny_gradients(edgel_context *ctx, const edgel_canny_params *params,
                                             const edgel_image *dx, const edgel_image *dy,
                                             const edgel_image *edges,
                                             const edgel_canny_stages *stages);

/* Rules that choose the opencv preset's thresholds from the image (edgel_canny_auto_thresholds). */
typedef enum edgel_auto_rule {
    /* high: cv2.threshold(img, 0, 255, THRESH_BINARY + THRESH_OTSU)'s value, low: high / 2 */
    EDGEL_AUTO_OTSU = 1,
    /* v = numpy.median(img): low = int(max(0, (1.0 - 0.33) * v)), high = int(min(255,
     * (1.0 + 0.33) * v)), in doubles (the "auto Canny" recipe) */
    EDGEL_AUTO_MEDIAN = 2,
    /* low, high: numpy.percentile(magnitude, 100 * q) (linear) for the quantiles q given as
     * params' low_threshold and high_threshold (in [0, 1]), over the gradient magnitude the
     * thresholds compare with (|dx|+|dy|, or sqrt(dx^2+dy^2) with l2_gradient; aperture 7:
     * 16 times that of OpenCV's gradients / 16), as scikit-image's use_quantiles */
    EDGEL_AUTO_QUANTILES = 3
} edgel_auto_rule;

/**
 * The opencv preset's thresholds that `rule` chooses for `src`, computed on the image Canny
 * reads: after params' gray conversion and blur (so colour input needs params->gray, except
 * for quantiles). `src` is a host view (u8, 1, 3 or 4 channels); params' own thresholds are
 * ignored (quantiles: they are the quantiles). Set the results in params and call edgel_canny
 * for the edges of cv2.Canny with those thresholds.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (an unknown rule), UNSUPPORTED (a preset other than
 * opencv; a colour image without its gray rule), and edgel_canny's view statuses.
 */
EDGEL_API edgel_status edgel_canny_auto_thresholds(edgel_context *ctx,
                                                   const edgel_canny_params *params,
                                                   const edgel_image *src, edgel_auto_rule rule,
                                                   double *low, double *high);

/**
 * Canny of `count` frames of one pixel type, channel count and memory kind, of any sizes:
 * edges[i] of srcs[i]. Frames of one size (and pitches) run together: on a CUDA context
 * several per launch, host frames streamed through pinned buffers with copies overlapping
 * compute; each size in turn. Results equal `count` single calls. A frame of another kind
 * than frame 0 is refused, naming it (EDGEL_ERROR_INVALID_SIZE).
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_PITCH, INVALID_ARGUMENT (a parameter out of range,
 * views that overlap), UNSUPPORTED (a pixel type, channel count or memory kind it does not take);
 * INVALID_ARGUMENT (count below 1, frames that overlap); a frame's failure is named by its index.
 */
EDGEL_API edgel_status edgel_canny_batch(edgel_context *ctx, const edgel_canny_params *params,
                                         const edgel_image *srcs, const edgel_image *edges,
                                         int32_t count);

#define EDGEL_MAX_BATCH_CONTEXTS 64
/**
 * edgel_canny_batch spread over several contexts at once, typically one a GPU of the host
 * (contexts[i] created with options.device = i), frames of any sizes as there: the frames
 * are cut into `ncontexts`
 * consecutive shares of equal size, and each context runs its share on a thread of its own
 * (the caller's thread runs the first). Results equal `count` single calls. Frames are host
 * views (page-locked ones go by DMA): frames in device memory belong to one GPU, so they run
 * through edgel_canny_batch on that GPU's context. Every context is held for the whole call;
 * one already in a call on another thread, or one listed twice, is refused before any work.
 * On a failure the status and message of the first share that failed are returned (the
 * message names the share's frames and its context) and other shares stop early.
 * Fails: NULL_ARGUMENT (a context), INVALID_ARGUMENT (ncontexts out of range, a context listed
 * twice, device frames given to several GPUs), and edgel_canny_batch's, named by the context.
 */
EDGEL_API edgel_status edgel_canny_batch_multi(edgel_context *const *contexts,
                                               int32_t ncontexts,
                                               const edgel_canny_params *params,
                                               const edgel_image *srcs, const edgel_image *edges,
                                               int32_t count);

/**
 * CUDA devices present (0 in a build without CUDA, or with no driver or device).
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_cuda_device_count(int32_t *count);

/* ---- images of any size: Canny in tiles ---------------------------------------------------- */

#define EDGEL_MAX_TILED_DIMENSION (1 << 20) /* width and height of a tiled image, each */
#define EDGEL_MAX_TILED_PIXELS (1LL << 40)

/*
 * Where a tiled call's pixels come from and its edges go: the caller's callbacks (files,
 * memory maps, network sources). A failing callback's status ends the call, which then
 * calls nothing more.
 */
typedef struct edgel_tile_io {
    int64_t width, height;  /* the whole image */
    int32_t channels;       /* opencv preset: 1, 3 or 4; itk preset: 1 */
    edgel_pixel_type type;  /* opencv preset: EDGEL_U8; itk preset: EDGEL_U8, _U16 or _F32 */
    /* Fills `dst`, a host u8 view of dst->width x dst->height pixels of `channels` channels,
     * with the image's pixels of the rectangle whose top left is (x, y). A region may be
     * read more than once. */
    edgel_status (*read)(void *user, int64_t x, int64_t y, const edgel_image *dst);
    /* Receives the edges (u8, 255 on edges) of the tile whose top left is (x, y), in raster
     * order of tiles, each once; the view is valid during the call only. */
    edgel_status (*write)(void *user, int64_t x, int64_t y, const edgel_image *edges);
    void *user;
} edgel_tile_io;

/**
 * Canny of an image of any size (up to EDGEL_MAX_TILED_DIMENSION a side and
 * EDGEL_MAX_TILED_PIXELS in all), in tiles of tile_width x tile_height (the last ones
 * smaller), byte-identical to edgel_canny on the whole image: each tile is read with a halo
 * that makes its stages exact, and hysteresis joins edges across tiles through the labels of
 * the components that touch tile borders. Memory: a tile and its halo, and the border labels,
 * never the image. Every tile is read twice, and must give the same pixels both times: a
 * source that changes in between is detected where its border labels differ and ends the
 * call with EDGEL_ERROR_IO (tiles already written may then be wrong; nothing else is
 * harmed). Both presets, any of their options; the edges come as u8 255/0 (for the itk
 * preset too).
 * Fails: NULL_ARGUMENT (io or a callback), INVALID_SIZE (the image or the tiles past their
 * limits), INVALID_ARGUMENT (parameters, channels), UNSUPPORTED (the skimage preset; a type the
 * preset does not take), IO (the source gave other pixels the second time), and a callback's own
 * status as it returned it.
 */
EDGEL_API edgel_status edgel_canny_tiled(edgel_context *ctx, const edgel_canny_params *params,
                                         const edgel_tile_io *io, int32_t tile_width,
                                         int32_t tile_height);

/**
 * Canny of a host image of any size (up to EDGEL_MAX_TILED_DIMENSION a side and
 * EDGEL_MAX_TILED_PIXELS in all) in tiles, in one pass: as edgel_canny_tiled, but the
 * pixels come from `src` and the edges (u8, 1 channel, apart from the input) hold the border
 * labels' marks between tiles, so each tile is computed once. edgel_canny calls this with
 * tiles of its choice for host images past EDGEL_MAX_DIMENSION or EDGEL_MAX_PIXELS. On a CUDA
 * context page-locked views are copied by DMA, overlapped with the work.
 * Fails: NULL_ARGUMENT, INVALID_SIZE, INVALID_PITCH, INVALID_ARGUMENT (a parameter out of range,
 * views that overlap), UNSUPPORTED (a pixel type, channel count or memory kind it does not take);
 * UNSUPPORTED also for the skimage preset.
 */
EDGEL_API edgel_status edgel_canny_tiled_image(edgel_context *ctx,
                                               const edgel_canny_params *params,
                                               const edgel_image *src, const edgel_image *edges,
                                               int32_t tile_width, int32_t tile_height);

/**
 * The halo a tile needs for `params`: pixels on each side whose stages make the tile's
 * classes before hysteresis exact (for drivers of their own, such as edgel.dask's). The
 * suppressed stage of a region of tile and halo, cropped to the tile, equals the whole
 * image's there.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT, UNSUPPORTED (the skimage preset).
 */
EDGEL_API edgel_status edgel_canny_tile_halo(const edgel_canny_params *params, int32_t *halo);


/* ---- sub-pixel edges -------------------------------------------------------------------- */

/**
 * Sub-pixel edge points chained into curves: the Canny/Devernay detector of R. Grompone von
 * Gioi and G. Randall ("A Sub-Pixel Edge Detector: an Implementation of the Canny/Devernay
 * Algorithm", IPOL 2017), equal to its reference program (devernay 1.0) point for point, bit
 * for bit, curve for curve, in its order: a Gaussian blur of `sigma` (0: none), centred
 * differences, edge points where the gradient modulus is a maximum along x or y, placed at
 * the parabola's vertex along that axis, chained to their best neighbours within two pixels
 * (in the reference's column-by-column order), and Canny's hysteresis on the chains (`high`,
 * `low` on the modulus). Images narrower or lower than 5 pixels have no points.
 */
typedef struct edgel_subpixel_params {
    uint32_t struct_size; /* set by edgel_subpixel_params_default */
    double sigma;         /* the blur's standard deviation, 0 (default: none) to
                             EDGEL_SUBPIXEL_MAX_SIGMA */
    double high;          /* a chain starts at a point whose modulus is at least this (0) */
    double low;           /* and takes the points of modulus at least this (0) */
} edgel_subpixel_params;

#define EDGEL_SUBPIXEL_MAX_SIGMA 1024.0

EDGEL_API void edgel_subpixel_params_init(edgel_subpixel_params *params, size_t struct_size);
#define edgel_subpixel_params_default(params) \
    edgel_subpixel_params_init((params), sizeof *(params))

/**
 * The result of edgel_subpixel_edges, which owns its memory: it grows to what a call finds
 * and is reused by the next call (with the call's working arrays), so a caller never guesses
 * a size. An edgel_curves serves one call at a time: a second call on it from another
 * thread while one runs returns EDGEL_ERROR_CONTEXT_BUSY.
 */
typedef struct edgel_curves edgel_curves;

/**
 * Fails: NULL_ARGUMENT.
 */
EDGEL_API edgel_status edgel_curves_create(edgel_curves **curves);
/** Releases it and its memory (NULL is accepted). */
EDGEL_API void edgel_curves_destroy(edgel_curves *curves);

/** Where edgel_subpixel_edges on a CUDA context leaves its curves. */
typedef enum edgel_curves_place {
    EDGEL_CURVES_ON_HOST = 0,  /* host memory (the default) */
    EDGEL_CURVES_ON_DEVICE = 1 /* device memory that the edgel_curves owns, on the context's
                                  device: the points never travel to the host */
} edgel_curves_place;

/**
 * Where the next calls of edgel_subpixel_edges on a CUDA context put their curves (a CPU
 * context's, and the other calls', are always in host memory). EDGEL_ERROR_INVALID_ARGUMENT
 * for another value; EDGEL_ERROR_CONTEXT_BUSY while a call on `curves` runs.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (an unknown place), CONTEXT_BUSY (the curves are in
 * another call).
 */
EDGEL_API edgel_status edgel_curves_set_place(edgel_curves *curves, edgel_curves_place place);

/**
 * What an edgel_curves holds, as read-only arrays valid until the next call on it or its
 * destruction. Curve k is points limits[k] .. limits[k + 1] - 1, in the reference's order; a
 * closed curve repeats its first point at its end (closed[k] = 1); the arrays are never NULL.
 * Each point carries the
 * gradient of the (blurred) image at its pixel: gx, gy (centred differences) and modulus.
 * The counts are host values; the arrays lie in host memory (device -1) or in the memory of
 * CUDA device `device` (edgel_curves_set_place).
 */
typedef struct edgel_curves_view {
    uint32_t struct_size;      /* set by edgel_curves_view_default */
    int64_t points, curves;    /* the numbers of points (all curves) and of curves */
    const double *x, *y;       /* each point's position: pixel centres at integers */
    const double *gx, *gy, *modulus;
    const int64_t *limits;     /* curves + 1 entries */
    const uint8_t *closed;     /* one a curve */
    int32_t device;            /* -1: host memory; else the CUDA device holding the arrays */
} edgel_curves_view;

EDGEL_API void edgel_curves_view_init(edgel_curves_view *view, size_t struct_size);
#define edgel_curves_view_default(view) edgel_curves_view_init((view), sizeof *(view))

/**
 * Fills `view` (its struct_size set) with what `curves` holds now.
 * Fails: NULL_ARGUMENT, CONTEXT_BUSY (the curves are in another call).
 */
EDGEL_API edgel_status edgel_curves_get(edgel_curves *curves, edgel_curves_view *view);

/**
 * What `curves` holds now, copied into the caller's arrays on up to `threads` threads (0:
 * every core): `xy` and `gradient` (2 x points doubles each: x, y and gx, gy interleaved, as
 * NumPy's (N, 2) arrays), `modulus` (points), `limits` (curves + 1), `closed` (curves). Any
 * of them may be NULL (not copied). For a result kept past the next call on `curves`. A
 * result in device memory is copied by the CUDA runtime into arrays in host or device memory
 * (`threads` unused); the call returns when the copies are done.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (threads negative; arrays that overlap), CONTEXT_BUSY
 * (the curves are in another call).
 */
EDGEL_API edgel_status edgel_curves_copy(edgel_curves *curves, double *xy, double *gradient,
                                         double *modulus, int64_t *limits, uint8_t *closed,
                                         int32_t threads);

/**
 * The sub-pixel curves of a 1-channel image (u8, u16, f32 or f64; pixel values as they are,
 * as doubles) into `curves`, replacing what it held (a call that fails leaves none). On a
 * CPU context: host images, on the context's threads. On a CUDA context: host or device
 * images; the points, their chains and the curves are made on the GPU (after the work
 * queued on the context's stream; the chains on the host's cores where low > high), and the
 * call returns with the curves, in host memory or, after edgel_curves_set_place(curves,
 * EDGEL_CURVES_ON_DEVICE), in device memory. The result is the same on every backend and at
 * every thread count.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (sigma or thresholds out of range), INVALID_SIZE,
 * INVALID_PITCH, UNSUPPORTED (a pixel type or channel count it does not take), CONTEXT_BUSY (the
 * curves are in another call).
 */
EDGEL_API edgel_status edgel_subpixel_edges(edgel_context *ctx,
                                            const edgel_subpixel_params *params,
                                            const edgel_image *src, edgel_curves *curves);

/**
 * The sub-pixel curves of `count` images (each as edgel_subpixel_edges takes it): curves[i]
 * of srcs[i], equal to `count` single calls, with the frames run side by side. On a CPU
 * context, a frame a thread where the frames fill at least half the context's threads, else
 * one frame after another on all of them. On a CUDA context, several frames at once, each on
 * a stream and memory of its own (kept by the context), so that the GPU runs one frame's
 * kernels while another's call waits for its counts: after the work queued on the context's
 * stream, and before what is queued there next. Every curves[i] is a distinct object; each
 * is held for the whole call. On a failure, the status and message of the lowest failing
 * frame (the message names it) and no curves in any of them.
 * Fails: edgel_subpixel_edges' for each frame (named by its index); INVALID_ARGUMENT (count
 * negative, a curves object listed twice).
 */
EDGEL_API edgel_status edgel_subpixel_edges_batch(edgel_context *ctx,
                                                  const edgel_subpixel_params *params,
                                                  const edgel_image *srcs,
                                                  edgel_curves *const *curves, int32_t count);

/** The halo in pixels a piece of an image needs for `sigma` (the blur's radius plus four):
 * the columns a band of edgel_subpixel_stream reads beyond those it adds, and a piece's
 * halo in the experimental pieces below. */
EDGEL_API int32_t edgel_subpixel_halo(double sigma);


/**
 * Sub-pixel curves of an image given in bands of columns, for images larger than memory
 * (edgel contours reads them so). The reference visits the points column by column, so a
 * stream continues its pass band after band: it holds a band's points, a few columns before
 * it and the chains still open, and turns each chain that no later column can change into
 * curves at once. The result is edgel_subpixel_edges' on the whole image, point for point,
 * in its order. Create it for the image's size (each side at most
 * EDGEL_MAX_TILED_DIMENSION), add pieces left to right, each a host image of every row and
 * the columns from x0 on, that starts at column 0 or at least edgel_subpixel_halo(sigma)
 * columns before the first column not yet added and reaches past it by more than that much
 * (or to the image's last column): it adds the columns up to its last less the halo (or
 * the image's last). Then finish. A stream serves one call at a time (a call while another
 * thread's runs returns EDGEL_ERROR_CONTEXT_BUSY); after a failed add it refuses every call.
 */
typedef struct edgel_subpixel_stream edgel_subpixel_stream;

/**
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (a size past EDGEL_MAX_TILED_DIMENSION, parameters out of
 * range).
 */
EDGEL_API edgel_status edgel_subpixel_stream_create(const edgel_subpixel_params *params,
                                                    int64_t width, int64_t height,
                                                    edgel_subpixel_stream **stream);
/** Releases it and its memory (NULL is accepted). */
EDGEL_API void edgel_subpixel_stream_destroy(edgel_subpixel_stream *stream);
/**
 * Adds a piece starting at column x0 (see above), on the context's CPU threads.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (a piece out of place: see above; a stream that failed or
 * finished), UNSUPPORTED (a device piece), CONTEXT_BUSY (the stream is in another call), and
 * edgel_subpixel_edges' view statuses.
 */
EDGEL_API edgel_status edgel_subpixel_stream_add(edgel_context *ctx,
                                                 edgel_subpixel_stream *stream,
                                                 const edgel_image *piece, int64_t x0);
/** The columns added so far: the next piece adds from this column on. */
EDGEL_API int64_t edgel_subpixel_stream_columns(const edgel_subpixel_stream *stream);
/** The points of the curves the stream has finished so far (a closed curve's first point
 * twice): they take about EDGEL_SUBPIXEL_STREAM_POINT_BYTES a point until finish hands them
 * over, beside the band's work; a caller bounds its memory with it, as edgel contours
 * --memory does. */
EDGEL_API int64_t edgel_subpixel_stream_points(const edgel_subpixel_stream *stream);
#define EDGEL_SUBPIXEL_STREAM_POINT_BYTES 96
/** Once every column is in: the curves into `curves`, as edgel_subpixel_edges gives them
 * (once: the stream lets them go).
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (columns not yet added; a stream that failed or
 * finished), CONTEXT_BUSY (the stream or the curves are in another call).
 */
EDGEL_API edgel_status edgel_subpixel_stream_finish(edgel_context *ctx,
                                                    edgel_subpixel_stream *stream,
                                                    edgel_curves *curves);

/**
 * Refined positions of sub-pixel curves' points, apart from the exact detector: each point is
 * moved onto the circle (or line) that Pratt's algebraic fit gives its `window` neighbours
 * on each side along its curve, which averages the noise out, then outwards from that
 * circle's centre by the distance that blurring moves a disk's edge inwards (the maximum of
 * a blurred disk's gradient lies inside it; blur^2 + sigma^2 + 1/2 is the variance of the
 * total blur), not where the fitted radius is below 1.5 times the total blur's standard
 * deviation. A window whose points lie farther than `tolerance` from their circle (a corner,
 * a junction) is halved until they fit; it holds fewer points at an open curve's ends, all
 * of a loop shorter than it; a point without a fitting window of 5 points or more stays.
 * Larger windows average more noise and round corners more. docs/subpixel.md gives the
 * errors it leaves.
 */
typedef struct edgel_refine_params {
    uint32_t struct_size; /* set by edgel_refine_params_default */
    double sigma;         /* the detector's blur that found the curves (0), as its params */
    double blur;          /* the image's own blur, a Gaussian's standard deviation (0: sharp) */
    int32_t window;       /* neighbours on each side fitted with a point, 2 to
                             EDGEL_REFINE_MAX_WINDOW (default 20) */
    double tolerance;     /* the most RMS distance of a window's points to their circle, in
                             pixels (0.25); a window past it is halved */
} edgel_refine_params;

#define EDGEL_REFINE_MAX_WINDOW 4096

EDGEL_API void edgel_refine_params_init(edgel_refine_params *params, size_t struct_size);
#define edgel_refine_params_default(params) \
    edgel_refine_params_init((params), sizeof *(params))

/**
 * The refined points of `curves` curves of `points` points, laid out as edgel_curves_copy
 * gives them (x, y interleaved in `xy`; curve k is points limits[k] .. limits[k + 1] - 1; a
 * closed curve's last point repeats its first), into `refined_xy` (2 x points doubles, not
 * overlapping `xy`): host arrays, on the context's CPU threads (every core on a CUDA
 * context's), the same at every thread count. Refused before any work: limits that do not
 * start at 0, decrease or end elsewhere than `points` (EDGEL_ERROR_INVALID_SIZE), a closed
 * curve whose last point differs from its first, parameters out of range
 * (EDGEL_ERROR_INVALID_ARGUMENT).
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (parameters out of range; a closed curve whose ends
 * differ), INVALID_SIZE (counts and limits that disagree, too many points).
 */
EDGEL_API edgel_status edgel_curves_refine(edgel_context *ctx, const edgel_refine_params *params,
                                           int64_t points, int64_t curves, const double *xy,
                                           const int64_t *limits, const uint8_t *closed,
                                           double *refined_xy);

/* ---- volumes ---------------------------------------------------------------------------- */

/**
 * A view of a volume: `depth` slices of `height` rows of `width` voxels, one channel, x
 * fastest (a C array indexed [z][y][x], as NumPy's (depth, height, width) arrays and ITK's
 * 3-D images lay it out). Slices need not be contiguous: `slice_pitch` bytes from one slice
 * to the next. The data pointer and both pitches are multiples of the voxel's size.
 */
typedef struct edgel_volume {
    void *data;
    int32_t width, height, depth;
    size_t pitch;       /* bytes from one row to the next, >= width * voxel size */
    size_t slice_pitch; /* bytes from one slice to the next, >= height * pitch */
    edgel_pixel_type type;
    edgel_memory memory;
} edgel_volume;

#define EDGEL_MAX_VOXELS (1LL << 34) /* width * height * depth */

/** A host view with the tightest pitches. */
EDGEL_API edgel_volume edgel_volume_host(void *data, int32_t width, int32_t height, int32_t depth,
                                         edgel_pixel_type type);

/**
 * ITK's Canny on a volume: itk::CannyEdgeDetectionImageFilter<Image<float, 3>, Image<float,
 * 3>> with ITK's arrays of variance and maximum error (x, y, z) and the image's spacing: the
 * Gaussian's variance along an axis is variance / spacing^2 in voxels, as ITK's
 * DiscreteGaussianImageFilter takes it; the derivatives are in voxels, as ITK's. Thresholds
 * are ITK's (compared in float), the hysteresis 26-connected, as ITK's.
 */
typedef struct edgel_volume_canny_params {
    uint32_t struct_size;    /* set by edgel_volume_canny_params_default */
    double variance[3];      /* x, y, z, in physical units^2 (default 0: none) */
    double maximum_error[3]; /* x, y, z, in (0, 1) (default 0.01) */
    double spacing[3];       /* the voxel's size along x, y, z, > 0 (default 1) */
    double upper_threshold;  /* ITK's UpperThreshold (default 0) */
    double lower_threshold;  /* ITK's LowerThreshold (default 0) */
} edgel_volume_canny_params;

EDGEL_API void edgel_volume_canny_params_init(edgel_volume_canny_params *params,
                                              size_t struct_size);
#define edgel_volume_canny_params_default(params) \
    edgel_volume_canny_params_init((params), sizeof *(params))

/** Optional intermediate volumes, f32, the source's size (NULL: not wanted). */
typedef struct edgel_volume_canny_stages {
    const edgel_volume *smoothed;   /* ITK's Gaussian output */
    const edgel_volume *suppressed; /* ITK's GetNonMaximumSuppressionImage() */
} edgel_volume_canny_stages;

/**
 * Canny edges of the volume `src` (u8, u16 or f32; ITK sees the same values as float) into
 * `edges` (u8: 255/0, or f32: 1/0, ITK's output), the same size; `stages` may be NULL. Equal
 * to ITK's filter voxel for voxel and float for float, on the CPU at every thread count
 * and on the GPU. On a CPU context: host volumes, on its threads. On a CUDA context: host or
 * device volumes (all of a call's views of one kind) on the GPU, after the work queued on
 * the context's stream; the call waits for its result. src and edges may not overlap.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (parameters out of range, NaN thresholds, volumes that
 * overlap), INVALID_SIZE, INVALID_PITCH, UNSUPPORTED (a voxel type it does not take; device
 * volumes on a CPU context).
 */
EDGEL_API edgel_status edgel_canny_volume(edgel_context *ctx,
                                          const edgel_volume_canny_params *params,
                                          const edgel_volume *src, const edgel_volume *edges,
                                          const edgel_volume_canny_stages *stages);

/* ---- volumes of any size: ITK's Canny in bricks ------------------------------------------ */

#define EDGEL_MAX_BRICKED_DIMENSION (1 << 20) /* width, height and depth of a bricked volume */
#define EDGEL_MAX_BRICKED_VOXELS (1LL << 43)

/*
 * Where a bricked call's voxels come from and its edges go: the caller's callbacks (files,
 * memory maps, object stores). A failing callback's status ends the call, which then calls
 * nothing more.
 */
typedef struct edgel_brick_io {
    int64_t width, height, depth; /* the whole volume */
    edgel_pixel_type type;        /* EDGEL_U8, _U16 or _F32 */
    /* Fills `dst`, a host view of dst->width x dst->height x dst->depth voxels of `type`, with
     * the volume's voxels of the box whose first corner is (x, y, z). A box may be read more
     * than once. */
    edgel_status (*read)(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *dst);
    /* Receives the edges (u8, 255 on edges) of the brick whose first corner is (x, y, z), x
     * fastest, then y, then z, each brick once; the view is valid during the call only. */
    edgel_status (*write)(void *user, int64_t x, int64_t y, int64_t z,
                          const edgel_volume *edges);
    void *user;
} edgel_brick_io;

/**
 * ITK's Canny (edgel_canny_volume) of a volume of any size (up to EDGEL_MAX_BRICKED_DIMENSION
 * a side and EDGEL_MAX_BRICKED_VOXELS in all), in bricks of brick_width x brick_height x
 * brick_depth (the last ones smaller), identical to edgel_canny_volume on the whole volume:
 * each brick is read with the halo that makes its suppressed stage exact
 * (edgel_canny_volume_halo), and the 26-connected hysteresis joins edges across brick faces,
 * edges and corners through the components that touch them. Memory: a brick with its halo
 * (about 24 bytes a voxel with the work) and node labels of three width x height planes (8
 * bytes a voxel), never the volume. Every brick is computed twice (its labels are not kept) and
 * must read the same voxels both times: a source that changes in between is detected where a
 * brick's components differ and ends the call with EDGEL_ERROR_IO.
 * Fails: NULL_ARGUMENT (io or a callback), INVALID_ARGUMENT (the volume's or the bricks' sizes out
 * of range, parameters), UNSUPPORTED (a voxel type), IO (a brick read other voxels the second
 * time), and a callback's own status as it returned it.
 */
EDGEL_API edgel_status edgel_canny_volume_bricks(edgel_context *ctx,
                                                 const edgel_volume_canny_params *params,
                                                 const edgel_brick_io *io, int32_t brick_width,
                                                 int32_t brick_height, int32_t brick_depth);

/**
 * The halo a brick needs for `params` along x, y and z (voxels on each side): the suppressed
 * stage of a box of brick and halo, cropped to the brick, equals the whole volume's there
 * (for drivers of their own, such as edgel.dask's).
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT.
 */
EDGEL_API edgel_status edgel_canny_volume_halo(const edgel_volume_canny_params *params,
                                               int32_t halo[3]);

/* ---- building blocks --------------------------------------------------------------------- */

/* The building blocks: host views run on the CPU (on a CUDA context too, on all cores); on a
 * CUDA context device views run on the GPU, queued on the context's stream (the call returns
 * without waiting, as edgel_canny on device views). */

/**
 * cv2.cvtColor RGB(A)->GRAY or BGR(A)->GRAY for u8; `gray` is u8 x1.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (an unknown order, views that overlap), INVALID_SIZE,
 * INVALID_PITCH, UNSUPPORTED.
 */
EDGEL_API edgel_status edgel_to_gray(edgel_context *ctx, edgel_gray order, const edgel_image *src,
                                     const edgel_image *gray);
/**
 * Gaussian blur of u8 (any channel count), equal to cv2.GaussianBlur(src, (ksize, ksize),
 * sigma) with the default border (reflect-101). ksize 0 derives the size from sigma.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (the kernel's size or sigma, views that overlap),
 * INVALID_SIZE, INVALID_PITCH, UNSUPPORTED.
 */
EDGEL_API edgel_status edgel_gaussian_blur(edgel_context *ctx, const edgel_image *src,
                                           const edgel_image *dst, int32_t ksize, double sigma);

/* ---- convolution ------------------------------------------------------------------------ */

typedef enum edgel_conv_method {
    EDGEL_CONV_AUTO = 0,      /* the fastest for the sizes (a measured cost model), see below */
    EDGEL_CONV_DIRECT = 1,    /* every tap, shared-memory tiles / vectorised rows */
    EDGEL_CONV_SEPARABLE = 2, /* a row pass and a column pass: rank-1 kernels only */
    EDGEL_CONV_FFT = 3        /* zero-padded FFTs (cuFFT; KISS FFT, compiled in, on the CPU) */
} edgel_conv_method;

#define EDGEL_MAX_KERNEL_SIZE 129 /* kernel width and height, each */

typedef struct edgel_filter_params {
    uint32_t struct_size;     /* set by edgel_filter_params_default */
    edgel_conv_method method; /* default EDGEL_CONV_AUTO */
    edgel_border border;      /* default EDGEL_BORDER_REFLECT_101, as cv2.filter2D */
    double border_value;      /* EDGEL_BORDER_CONSTANT: the value outside (default 0) */
    int32_t anchor_x;         /* kernel column over the output pixel; -1 (default): width / 2 */
    int32_t anchor_y;         /* kernel row; -1 (default): height / 2 */
    int32_t convolve;         /* 0: correlation (default, as cv2.filter2D and SciPy's
                                 correlate); 1: convolution (kernel and anchor flipped) */
} edgel_filter_params;

EDGEL_API void edgel_filter_params_init(edgel_filter_params *params, size_t struct_size);
#define edgel_filter_params_default(params) edgel_filter_params_init((params), sizeof *(params))
/** EDGEL_OK when every value of `params` is in its documented range (anchors are checked
 * against the kernel by the call), else the status and message a call would give.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (an unknown method or border, a value out of range).
 */
EDGEL_API edgel_status edgel_filter_params_check(const edgel_filter_params *params);

/**
 * dst(x, y) = sum over the kernel of kernel(i, j) * src(x + i - anchor_x, y + j - anchor_y),
 * each channel on its own (1, 3 or 4 channels). src is u8 or f32; dst has the same size and
 * channels and is f32, or u8 for u8 src (rounded half to even and saturated, as
 * cv2.filter2D(src, -1, kernel)). `kernel` is an f32 1-channel host view, 1x1 up to
 * EDGEL_MAX_KERNEL_SIZE a side, odd or even. On a CUDA context src and dst may be device
 * views. Linear (never cyclic) results for every method and border.
 *
 * Sums that are not finite (NaN or infinite pixels, or sums past the float range) are stored
 * alike by every method: NaN in f32 output, 0 in u8 output (as cv2.filter2D on x86).
 *
 * u8 to u8 with the direct method sums each pixel in cv2.filter2D's order (fused
 * multiply-adds in float over the non-zero taps, row by row), so it is identical to
 * cv2.filter2D wherever OpenCV filters directly (kernels of fewer than 130 taps); auto picks
 * it there. The other methods round their own float results.
 * Fails: NULL_ARGUMENT, INVALID_ARGUMENT (parameters, views that overlap, kernel values that are
 * not finite), INVALID_SIZE (the kernel's sides), INVALID_PITCH, UNSUPPORTED (types the method
 * does not take).
 */
EDGEL_API edgel_status edgel_filter2d(edgel_context *ctx, const edgel_filter_params *params,
                                      const edgel_image *src, const edgel_image *dst,
                                      const edgel_image *kernel);

/**
 * edgel_filter2d with the kernel ky * kx (kx: kw values along x, ky: kh values along y).
 * Fails: edgel_filter2d's.
 */
EDGEL_API edgel_status edgel_sep_filter2d(edgel_context *ctx, const edgel_filter_params *params,
                                          const edgel_image *src, const edgel_image *dst,
                                          const float *kx, int32_t kw, const float *ky,
                                          int32_t kh);

/**
 * The method edgel_filter2d would use for these arguments (never EDGEL_CONV_AUTO).
 * Fails: edgel_filter2d's.
 */
EDGEL_API edgel_status edgel_filter2d_method(edgel_context *ctx, const edgel_filter_params *params,
                                             const edgel_image *src, const edgel_image *dst,
                                             const edgel_image *kernel, edgel_conv_method *out);

/* ==== Experimental ======================================================================== */

/* The pieces a driver of its own builds on, whose form may still change between minor
 * releases (as zstd fences its unstable API behind ZSTD_STATIC_LINKING_ONLY): they follow the
 * library's internals (the chunked driver's nodes, the sub-pixel detector's points), which
 * the work on speed is still changing. Define EDGEL_EXPERIMENTAL before including edgel.h, or
 * include edgel_experimental.h, which declares them. Their symbols are exported all the same
 * (the Python module reaches them, and edgel.dask is built on them). Everything above this
 * section is stable: its meaning and its ABI hold within a major version. */
#ifdef EDGEL_EXPERIMENTAL
#include "edgel_experimental.h"
#endif

#ifdef __cplusplus
}
#endif

#endif /* EDGEL_H */
