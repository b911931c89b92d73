/* The edgel command: shared declarations of its subcommands. */
#ifndef EDGEL_CLI_H
#define EDGEL_CLI_H

#include <stddef.h>
#include "edgel_experimental.h" /* (edgel contours --segment) */
#include "io/curves_io.h"

enum { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

typedef enum detect_stage {
    STAGE_EDGES = 0,
    STAGE_GRAY,
    STAGE_SMOOTHED,
    STAGE_DX,
    STAGE_DY,
    STAGE_MAGNITUDE,
    STAGE_SUPPRESSED
} detect_stage;

typedef struct detect_options {
    const char *input;
    const char *output;
    edgel_canny_params params;
    edgel_backend backend;
    int threads;
    detect_stage stage;
    int quiet;
    int volume; /* --volume: a multi-page TIFF is a volume, a page a slice */
    size_t memory; /* largest decoded input image, bytes */
    int tile_w, tile_h; /* --tile: tiled path with these tiles (0: only when too large) */
    int tile_d;         /* --tile WxHxD: a volume's bricks (0: not given) */
    int tiff_compression; /* --tiff-compression: an edgel_tiff_compression (io/image_io.h) */
    int data_files_anywhere; /* --data-files anywhere: a header's data file may lie anywhere */
    int channels_bgr;  /* --channel-order bgr: colour read as B, G, R (cv2.imread's order) */
    int auto_rule;      /* --auto: an edgel_auto_rule, 0: none */
    const char *mask;   /* --mask: the skimage preset's mask file, or NULL */
} detect_options;

/* True when the stage is written as floats (.pfm). */
int detect_stage_is_float(const detect_options *opt);

typedef enum args_result { ARGS_OK = 0, ARGS_HELP = 1, ARGS_USAGE = 2 } args_result;

/* Parses the arguments after "detect". On ARGS_USAGE, `err` holds the reason. Never prints. */
args_result parse_detect_args(int argc, char **argv, detect_options *opt, char *err,
                              size_t errlen);

/* Whole-string parses: a finite number; an integer in lo..hi. 0 if malformed or out of
 * range (nothing wraps). */
int cli_parse_double(const char *s, double *out);
int cli_parse_int(const char *s, long lo, long hi, int *out);
/* "2G", "512M", "1.5g", "100000": bytes (K, M, G, T are powers of 1024). 0 if malformed. */
int cli_parse_size(const char *s, size_t *out);
/* One argument of a command line: the input (0: *input set), or an option among `names`
 * that takes a value (1: the caller reads `v`, the next argument); -1 with a message in err
 * for a second input, an unknown option or a missing value. */
int cli_argument(const char *a, const char *v, const char **input, const char *const *names,
                 size_t n, char *err, size_t errlen);
/* The options every command takes: --backend, --threads and --memory. 1 when `a` is one (its
 * value `v` read into the fields), 0 when it is not, -1 with a message in err when the value
 * is wrong. */
int cli_common_option(const char *a, const char *v, edgel_backend *backend, int *threads,
                      size_t *memory, char *err, size_t errlen);
/* The default --memory: half the physical memory, at most 4 GiB. */
size_t cli_default_memory(void);
/* True when both paths name one existing file. */
int cli_same_file(const char *a, const char *b);
/* Swaps the first and third channel of `n` pixels of `channels` 8-bit samples (RGB <-> BGR). */
void cli_swap_red_blue(uint8_t *pixels, size_t n, int channels);

/* detect on a volume file (detect_volume.c). */
int detect_volume(const detect_options *opt);
/* detect on an image of any size, streamed through tiles of tw x th (detect_tiled.c). */
int detect_tiled(const detect_options *opt, edgel_context *ctx, int tw, int th);

int cmd_detect(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_convolve(int argc, char **argv);
int cmd_contours(int argc, char **argv);

/* One Markdown row of per-stage GPU times (ms) for an RGB host frame: copies in and out,
 * gray, blur and Canny device-resident, the device total and the given host-to-host total. */
int bench_gpu_stages(edgel_context *ctx, const edgel_canny_params *params,
                     const edgel_image *rgb, const edgel_image *edges, int runs, double h2h_ms);

extern const char DETECT_HELP[];
extern const char COMPARE_HELP[];
extern const char BENCH_HELP[];
extern const char CONVOLVE_HELP[];
extern const char CONTOURS_HELP[];
/* Every help text as a man page on stdout (edgel --man). */
int cmd_man(const char *main_help);

/* The curves of `v` segmented with `params` (edgel_segment_curves) and the pieces written to
 * `path` (.json, .svg or .dxf: io/pieces_io.h; contours_segment.c); EDGEL_OK or a status with the message in
 * edgel_last_error() or edgel_io_last_error() (`*io` set for the latter). */
edgel_status contours_write_pieces(const char *path, const edgel_curves_view *v,
                                   const edgel_segment_params *params,
                                   const edgel_curves_meta *meta, int *io);
/* edgel contours in bands of `columns` columns (0: as --memory allows) of `input` (PNG,
 * PGM/PPM, TIFF; read a row at a time into a scratch file beside `output`): the whole
 * image's curves into `curves`, its size into width and height. A failure's message is
 * edgel_io_last_error()'s. (contours_bands.c) */
edgel_status contours_in_bands(const char *input, const char *output,
                               const edgel_subpixel_params *params, edgel_context *ctx,
                               size_t memory, int columns, int quiet, edgel_curves *curves,
                               int64_t *width, int64_t *height);

#endif
