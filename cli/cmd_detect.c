/* edgel detect: one image file in, its edges (or an intermediate stage) out. */
#include "cli.h"
#include "io/image_io.h"
#include "io/row_stream.h"
#include "io/volume_io.h"
#include "io/voxel_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char DETECT_HELP[] =
    "usage: edgel detect IN -o OUT [options]\n"
    "\n"
    "Canny edges of IN (PNG, JPEG, PGM/PPM, PFM, TIFF) written to OUT (.png, .pgm or .tif:\n"
    "0/255; .pfm: 0/1 floats, itk preset). Three presets, each exact:\n"
    "  opencv (default)   byte-identical to cv2.Canny with the same parameters; 8-bit input\n"
    "  itk                identical to itk::CannyEdgeDetectionImageFilter<float>: Gaussian\n"
    "                     smoothing by variance, zero crossings of the second directional\n"
    "                     derivative; 8-bit, 16-bit or float gray input, values as they are\n"
    "                     (8-bit colour is converted to luma first)\n"
    "  skimage            identical to skimage.feature.canny of scikit-image 0.26: Gaussian\n"
    "                     of --sigma, Sobel, bilinear non-maximum suppression; 8-bit,\n"
    "                     16-bit or float gray input, scaled as skimage's img_as_float\n"
    "                     (8-bit colour is converted to luma first)\n"
    "\n"
    "options:\n"
    "  --preset opencv|itk|skimage   which Canny (default opencv)\n"
    "  --low T            lower hysteresis threshold (default 50; itk: 0; skimage: 10% of\n"
    "                     the input type's maximum, in the input's units as skimage's)\n"
    "  --high T           upper hysteresis threshold (default 150; itk: 0; skimage: 20%);\n"
    "                     opencv swaps them if --high is below --low, itk takes them as\n"
    "                     ITK does (no swap), skimage refuses\n"
    "  --lower, --upper   the same as --low and --high (ITK's names)\n"
    "  --auto RULE        choose --low and --high from the image (after --gray and --blur)\n"
    "                     and print them (whole images): otsu: high = cv2.threshold's Otsu\n"
    "                     value, low = high / 2; median: 0.67 and 1.33 times the median;\n"
    "                     quantiles:LOW,HIGH: those quantiles (0..1) of the gradient\n"
    "                     magnitude, as scikit-image's use_quantiles\n"
    "  --aperture A       Sobel aperture 3 (default), 5, 7 or scharr (scharr needs --l2)\n"
    "  --l2               magnitude sqrt(dx^2+dy^2) instead of |dx|+|dy|\n"
    "  --blur SIGMA|5x5   smooth first: Gaussian of SIGMA (= cv2.GaussianBlur, size\n"
    "                     round(6*SIGMA+1)|1), or the classic 5x5 kernel / 159\n"
    "  --blur-size K      odd Gaussian size (sigma derived from it unless --blur is given)\n"
    "  --gray luma|bgr|max-channel\n"
    "                     colour input: luma (default, also 'rgb'; = cv2.cvtColor RGB2GRAY;\n"
    "                     bgr: of channels in BGR order) or the channel of largest\n"
    "                     gradient per pixel (cv2.Canny on colour)\n"
    "  --variance V       itk: Gaussian variance in pixels^2 (default 0: none)\n"
    "  --maximum-error E  itk: Gaussian truncation error in (0, 1) (default 0.01); the\n"
    "                     kernel radius is capped at 32 pixels, as in ITK\n"
    "  --sigma S          skimage: Gaussian sigma (default 1; 0: none)\n"
    "  --mode M           skimage: the Gaussian's border, constant (default), nearest,\n"
    "                     reflect, mirror or wrap (scipy.ndimage's names)\n"
    "  --cval V           skimage: the value outside the image in constant mode (default 0)\n"
    "  --quantiles        skimage: --low and --high are quantiles (0..1) of the gradient\n"
    "                     magnitude (skimage's use_quantiles)\n"
    "  --mask FILE        skimage: an 8-bit gray image of the input's size; edges only where\n"
    "                     it is non-zero, as skimage's mask\n"
    "  --backend auto|cpu|cuda   where to run (default auto)\n"
    "  --threads N        CPU threads, 0 = all cores (default)\n"
    "  --stage NAME       write an intermediate result instead of the edges:\n"
    "                     gray, smoothed (8-bit image), dx, dy, magnitude (.pfm only),\n"
    "                     suppressed (0 none, 128 weak, 255 strong, before hysteresis);\n"
    "                     itk: smoothed, suppressed (ITK's non-maximum suppression\n"
    "                     image), both .pfm; skimage: smoothed, dx, dy, magnitude,\n"
    "                     suppressed, .pfm (float32; skimage's float64 values rounded)\n"
    "  --memory SIZE      largest decoded input image, e.g. 512M or 8G (default: half the\n"
    "                     memory, at most 4G); larger PNG and PGM/PPM files stream through\n"
    "                     tiles (edges of the opencv preset), others are refused. A streamed\n"
    "                     run holds at most SIZE too: tiles shrink to fit, and an image too\n"
    "                     wide (or a TIFF whose tiles are too large) is refused\n"
    "  --tile WxH         stream through tiles of WxH whatever the size (same bytes; memory:\n"
    "                     a band of rows of one row of tiles); a progress line on stderr\n"
    "                     for work longer than a second. TIFF and BigTIFF (strips or tiles,\n"
    "                     any compression libtiff reads; 8-bit gray, RGB(A), palette and\n"
    "                     JPEG-YCbCr, and for the itk preset 16-bit and float gray) stream\n"
    "                     for edges, from their first page (stages, --auto and the skimage\n"
    "                     preset read them whole); .tif output is BigTIFF. WxHxD: a\n"
    "                     volume's bricks (below)\n"
    "  --volume           read a multi-page TIFF as a volume, a page a slice (below)\n"
    "  --channel-order rgb|bgr   the order the multi-channel Canny (--gray max-channel)\n"
    "                     takes a colour image's channels in: rgb, the file's (default), or\n"
    "                     bgr, cv2.imread's: cv2.Canny(cv2.imread(IN), ...) is --gray\n"
    "                     max-channel --channel-order bgr (the two differ where channels tie)\n"
    "  --tiff-compression deflate|packbits|none   how .tif output is compressed (default\n"
    "                     deflate, lossless)\n"
    "  -q, --quiet        print nothing on success\n"
    "\n"
    "Volumes: a NIfTI-1 or NIfTI-2 IN (.nii, .nii.gz), a MetaImage one (.mha, .mhd), a NRRD\n"
    "one (.nrrd, .nhdr; raw or gzip), or with --volume a multi-page TIFF stack (gray 8/16-bit\n"
    "or float pages; the voxel size from the resolution tags and ImageJ's spacing) runs ITK's\n"
    "3-D Canny (--preset itk; --variance in the file's units^2, divided by the voxel size\n"
    "squared along each axis as ITK does; 26-connected hysteresis) into an OUT of IN's format\n"
    "(.nii or .nii.gz; .mha, or .mhd with NAME.raw; .nrrd; .tif) with IN's header\n"
    "(orientation, origin, voxel size): edges as 0/1 labels (uint8; 0/255 in a TIFF stack),\n"
    "--stage smoothed or suppressed as float32. Integer voxels other than u8/u16, and scaled\n"
    "ones, are read as float32 (as ITK's reader gives a float image). A volume whose voxels\n"
    "and work (about 18 bytes a voxel) pass --memory, or any with --tile WxHxD, runs in bricks\n"
    "read from IN (a compressed IN through a decompressed scratch copy beside OUT), with a\n"
    "progress line: the same edges, in --memory (stages are computed whole). 4-D files are\n"
    "refused.\n"
    "  --data-files beside|anywhere   where a detached data file (a .nhdr's 'data file', a\n"
    "                     .mhd's ElementDataFile) may lie: beside (default) reads only\n"
    "                     regular files in the header's folder or below it, named relative\n"
    "                     to it; anywhere also absolute paths, '..' and devices, as ITK does\n"
    "                     (never for headers from people you do not trust: --stage smoothed\n"
    "                     copies the named file's bytes into OUT)\n"
    "\n"
    "OUT is written whole or not at all (a temporary file renamed over it); it may not be\n"
    "IN itself.\n"
    "\n"
    "examples:\n"
    "  edgel detect photo.jpg -o edges.png --blur 1.4 --low 40 --high 120\n"
    "  edgel detect ct.pgm -o edges.pfm --preset itk --variance 1 --upper 30 --lower 15\n"
    "  edgel detect ct.nii.gz -o edges.nii.gz --preset itk --variance 2 --upper 40 --lower 20\n"
    "  edgel detect ct.mha -o edges.mha --preset itk --variance 2 --upper 40 --lower 20 \\\n"
    "      --tile 256x256x64\n"
    "  edgel detect cells.png -o edges.png --preset skimage --sigma 2\n";

static int fail(const char *what, edgel_status st, const char *msg)
{
    fprintf(stderr, "edgel detect: %s: %s (%s)\n", what, msg, edgel_status_name(st));
    return EXIT_FAILURE_RUN;
}

/* s16 / s32 stage images go out as float. */
/* An s16, s32 or f64 stage as f32, for .pfm. */
static edgel_status to_float(const edgel_image *src, edgel_image *dst)
{
    edgel_status st = edgel_io_alloc(dst, src->width, src->height, 1, EDGEL_F32, "stage");
    if (st != EDGEL_OK)
        return st;
    float *d = dst->data;
    size_t n = (size_t)src->width * (size_t)src->height;
    for (size_t i = 0; i < n; i++)
        d[i] = src->type == EDGEL_S16   ? (float)((const int16_t *)src->data)[i]
               : src->type == EDGEL_S32 ? (float)((const int32_t *)src->data)[i]
                                        : (float)((const double *)src->data)[i];
    return EDGEL_OK;
}

int cmd_detect(int argc, char **argv)
{
    detect_options opt;
    char err[256];
    switch (parse_detect_args(argc, argv, &opt, err, sizeof err)) {
    case ARGS_HELP:
        fputs(DETECT_HELP, stdout);
        return EXIT_OK;
    case ARGS_USAGE:
        fprintf(stderr, "edgel detect: %s\n(run 'edgel detect --help' for the options)\n", err);
        return EXIT_USAGE;
    case ARGS_OK:
        break;
    }
    edgel_io_set_data_files(opt.data_files_anywhere ? EDGEL_DATA_FILES_ANYWHERE
                                                    : EDGEL_DATA_FILES_BESIDE);
    const int tiff_stack = edgel_io_volume_format(opt.input) == EDGEL_VOLUME_TIFF;
    if (opt.volume && !tiff_stack && !edgel_io_is_volume_path(opt.input)) {
        fprintf(stderr, "edgel detect: --volume reads a multi-page TIFF (.tif, .tiff) as a "
                        "volume; %s is not one\n", opt.input);
        return EXIT_USAGE;
    }
    if (edgel_io_is_volume_path(opt.input) || (opt.volume && tiff_stack)) {
        if (cli_same_file(opt.input, opt.output)) {
            fprintf(stderr, "edgel detect: %s is the input file; write the edges to another "
                            "file\n", opt.output);
            return EXIT_USAGE;
        }
        return detect_volume(&opt);
    }
    if (opt.tile_d) {
        fprintf(stderr, "edgel detect: --tile WxHxD (bricks) takes volumes; images take WxH\n");
        return EXIT_USAGE;
    }
    const int itk = opt.params.preset == EDGEL_PRESET_ITK;
    const int sk = opt.params.preset == EDGEL_PRESET_SKIMAGE;
    const int float_stage = detect_stage_is_float(&opt);
    edgel_file_format out_format = edgel_io_format_for_path(opt.output);
    /* TIFF in or out streams through tiles where edges of the opencv or itk preset are asked
     * for (TIFF images are often larger than memory); stages, --auto and the skimage preset
     * read it whole, within --memory. */
    unsigned char magic[8] = {0};
    FILE *probe_file = fopen(opt.input, "rb");
    const size_t got = probe_file ? fread(magic, 1, sizeof magic, probe_file) : 0;
    if (probe_file)
        fclose(probe_file);
    const int tiff = out_format == EDGEL_FILE_TIFF ||
                     edgel_io_sniff(magic, got) == EDGEL_FILE_TIFF;
    if (tiff && !sk && opt.stage == STAGE_EDGES && !opt.auto_rule && !opt.tile_w &&
        out_format != EDGEL_FILE_PFM)
        opt.tile_w = opt.tile_h = 1024;
    edgel_io_set_tiff_compression((edgel_tiff_compression)opt.tiff_compression);
    if (opt.tile_w && out_format == EDGEL_FILE_PFM) {
        fprintf(stderr, "edgel detect: %s: tiles write edges as .png, .pgm or .tif (0/255)\n",
                opt.output);
        return EXIT_USAGE;
    }
    const int float_out = float_stage || (itk && out_format == EDGEL_FILE_PFM);
    const int u8_format = out_format == EDGEL_FILE_PNG || out_format == EDGEL_FILE_PNM ||
                          out_format == EDGEL_FILE_TIFF;
    if ((float_stage && out_format != EDGEL_FILE_PFM && out_format != EDGEL_FILE_TIFF) ||
        (!float_out && !u8_format)) {
        fprintf(stderr, "edgel detect: %s: write %s\n", opt.output,
                float_stage ? "this stage as .pfm or .tif"
                : itk       ? "edges as .png, .pgm, .tif (0/255) or .pfm (0/1)"
                            : "edges and 8-bit stages as .png, .pgm or .tif");
        return EXIT_USAGE;
    }

    if (cli_same_file(opt.input, opt.output)) {
        fprintf(stderr, "edgel detect: %s is the input file; write the edges to another file\n",
                opt.output);
        return EXIT_USAGE;
    }
    if (opt.mask && cli_same_file(opt.mask, opt.output)) {
        fprintf(stderr, "edgel detect: %s is the mask file; write the edges to another file\n",
                opt.output);
        return EXIT_USAGE;
    }
    /* An image larger than --memory (or any, with --tile) streams through tiles, where its
     * format streams (PNG, 8-bit PGM/PPM) and edges of the opencv preset are asked for. */
    int tw = opt.tile_w, th = opt.tile_h;
    if (!tw && !itk && !sk && opt.stage == STAGE_EDGES && !opt.auto_rule) {
        edgel_row_reader *probe;
        int64_t pw, ph;
        int pcn;
        if (edgel_row_reader_open(opt.input, opt.memory, &probe, &pw, &ph, &pcn) == EDGEL_OK) {
            edgel_row_reader_close(probe);
            if ((double)pw * (double)ph * pcn > (double)opt.memory ||
                pw > EDGEL_MAX_DIMENSION || ph > EDGEL_MAX_DIMENSION ||
                pw * ph > EDGEL_MAX_PIXELS)
                tw = th = 1024;
        }
    }
    if (tw) {
        edgel_context_options copts;
        edgel_context_options_default(&copts);
        copts.threads = opt.threads;
        edgel_context *ctx = NULL;
        edgel_status st = edgel_context_create(opt.backend, &copts, &ctx);
        if (st != EDGEL_OK)
            return fail("backend", st, edgel_last_error());
        const int rc = detect_tiled(&opt, ctx, tw, th);
        edgel_context_destroy(ctx);
        return rc;
    }
    /* What the preset reads, checked from the file's header before its pixels are decoded:
     * opencv 8-bit with 1, 3 or 4 channels; itk also 16-bit and float gray. A smoothed
     * colour stage must fit the output format (PGM/PPM: 1 or 3 channels). */
    const int colour_stage = !itk && !sk && opt.stage == STAGE_SMOOTHED &&
                             opt.params.gray == EDGEL_GRAY_NONE;
    const unsigned any = (1u << 1) | (1u << 3) | (1u << 4);
    const edgel_io_limits limits = {
        opt.memory,
        itk || sk ? (1u << EDGEL_U8) | (1u << EDGEL_U16) | (1u << EDGEL_F32) : 1u << EDGEL_U8,
        colour_stage && out_format == EDGEL_FILE_PNM ? (1u << 1) | (1u << 3) : any,
        1u << 1,
        colour_stage && out_format == EDGEL_FILE_PNM
            ? "a PGM/PPM holds 1 or 3 channels: write the stage as .png"
        : itk ? "the itk preset needs gray input (or 8-bit colour)"
        : sk  ? "the skimage preset needs gray input (or 8-bit colour)"
              : "the opencv preset needs 8-bit input"};
    edgel_image in;
    edgel_status st = edgel_io_read(opt.input, &limits, &in);
    if (st != EDGEL_OK) {
        fail("reading", st, edgel_io_last_error());
        return st == EDGEL_ERROR_UNSUPPORTED && colour_stage && out_format == EDGEL_FILE_PNM
                   ? EXIT_USAGE : EXIT_FAILURE_RUN;
    }
    /* The gray stage of a gray image is the image itself. */
    const int gray_passthrough = opt.stage == STAGE_GRAY && in.channels == 1;
    /* cv2.imread's order: the channels B, G, R for the multi-channel Canny (whose ties go to
     * the first channel); luma is the same in either order */
    const int swapped = opt.channels_bgr && in.channels >= 3 && in.type == EDGEL_U8 &&
                        opt.params.gray == EDGEL_GRAY_NONE && !itk && !sk;
    if (swapped)
        for (int y = 0; y < in.height; y++)
            cli_swap_red_blue((uint8_t *)in.data + (size_t)y * in.pitch, (size_t)in.width,
                              in.channels);

    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = opt.threads;
    edgel_context *ctx = NULL;
    st = edgel_context_create(opt.backend, &copts, &ctx);
    int rc = EXIT_OK;
    edgel_image edges = {0}, stage = {0}, out = {0}, mask = {0};
    if (st != EDGEL_OK) {
        rc = fail("backend", st, edgel_last_error());
        goto done;
    }
    if ((itk || sk) && in.channels > 1) { /* 8-bit colour: luma, then the preset on it */
        edgel_image gray;
        st = edgel_io_alloc(&gray, in.width, in.height, 1, EDGEL_U8, "gray");
        if (st == EDGEL_OK && (st = edgel_to_gray(ctx, EDGEL_GRAY_RGB, &in, &gray)) != EDGEL_OK) {
            edgel_io_free(&gray);
            rc = fail("gray", st, edgel_last_error());
            goto done;
        }
        if (st != EDGEL_OK) {
            rc = fail("memory", st, edgel_io_last_error());
            goto done;
        }
        edgel_io_free(&in);
        in = gray;
    }
    static const edgel_pixel_type stage_type[] = {EDGEL_U8, EDGEL_U8, EDGEL_U8, EDGEL_S16,
                                                  EDGEL_S16, EDGEL_S32, EDGEL_U8};
    const int out_channels = opt.stage == STAGE_SMOOTHED && opt.params.gray == EDGEL_GRAY_NONE &&
                             !itk && !sk ? in.channels : 1;
    /* skimage's float type: float32 for float input, float64 for the others */
    const edgel_pixel_type float_type = itk || (sk && in.type == EDGEL_F32) ? EDGEL_F32
                                                                           : EDGEL_F64;
    const edgel_pixel_type edges_type = itk && float_out && opt.stage == STAGE_EDGES ? EDGEL_F32
                                                                                    : EDGEL_U8;
    st = edgel_io_alloc(&edges, in.width, in.height, 1, edges_type, "edges");
    if (st == EDGEL_OK && opt.stage != STAGE_EDGES && !gray_passthrough)
        st = edgel_io_alloc(&stage, in.width, in.height, out_channels,
                            itk || sk ? float_type : stage_type[opt.stage], "stage");
    if (st != EDGEL_OK) {
        rc = fail("memory", st, edgel_io_last_error());
        goto done;
    }
    edgel_canny_stages stages = {0};
    const edgel_image *sv = &stage;
    switch (opt.stage) {
    case STAGE_EDGES: break;
    case STAGE_GRAY: stages.gray = gray_passthrough ? NULL : sv; break;
    case STAGE_SMOOTHED: stages.smoothed = sv; break;
    case STAGE_DX: stages.dx = sv; break;
    case STAGE_DY: stages.dy = sv; break;
    case STAGE_MAGNITUDE: stages.magnitude = sv; break;
    case STAGE_SUPPRESSED: stages.suppressed = sv; break;
    }
    if (opt.mask) {
        const edgel_io_limits mask_limits = {opt.memory, 1u << EDGEL_U8, 1u << 1, 1u << 1,
                                             "a mask is an 8-bit gray image"};
        st = edgel_io_read(opt.mask, &mask_limits, &mask);
        if (st != EDGEL_OK) {
            rc = fail("reading the mask", st, edgel_io_last_error());
            goto done;
        }
    }
    if (opt.auto_rule) {
        st = edgel_canny_auto_thresholds(ctx, &opt.params, &in, (edgel_auto_rule)opt.auto_rule,
                                         &opt.params.low_threshold, &opt.params.high_threshold);
        if (st != EDGEL_OK) {
            rc = fail("auto thresholds", st, edgel_last_error());
            goto done;
        }
        if (!opt.quiet)
            printf("%s: thresholds %g and %g (%s)\n", opt.input, opt.params.low_threshold,
                   opt.params.high_threshold, opt.auto_rule == EDGEL_AUTO_OTSU     ? "otsu"
                   : opt.auto_rule == EDGEL_AUTO_MEDIAN ? "median"
                                                        : "quantiles");
    }
    st = edgel_canny_masked(ctx, &opt.params, &in, opt.mask ? &mask : NULL, &edges,
                            opt.stage == STAGE_EDGES ? NULL : &stages);
    if (st != EDGEL_OK) {
        rc = fail("canny", st, edgel_last_error());
        goto done;
    }
    if (gray_passthrough)
        out = in;
    else if (float_stage && stage.type != EDGEL_F32)
        st = to_float(&stage, &out);
    else
        out = opt.stage == STAGE_EDGES ? edges : stage;
    if (swapped && out.channels >= 3 && out.type == EDGEL_U8) /* (the file's order again) */
        for (int y = 0; y < out.height; y++)
            cli_swap_red_blue((uint8_t *)out.data + (size_t)y * out.pitch, (size_t)out.width,
                              out.channels);
    if (st == EDGEL_OK)
        st = edgel_io_write(opt.output, &out);
    if (st != EDGEL_OK) {
        rc = fail("writing", st, edgel_io_last_error());
        goto done;
    }
    if (!opt.quiet && opt.stage == STAGE_EDGES) {
        size_t count = 0;
        for (int y = 0; y < edges.height; y++) {
            const uint8_t *row = (const uint8_t *)edges.data + (size_t)y * edges.pitch;
            for (int x = 0; x < edges.width; x++)
                count += edges_type == EDGEL_F32 ? ((const float *)row)[x] != 0.0f : row[x] != 0;
        }
        printf("%s: %dx%d, %zu edge pixels -> %s\n", opt.input, (int)in.width, (int)in.height,
               count, opt.output);
    }
done:
    if (float_stage && stage.type != EDGEL_F32)
        edgel_io_free(&out);
    edgel_io_free(&mask);
    edgel_io_free(&stage);
    edgel_io_free(&edges);
    edgel_io_free(&in);
    edgel_context_destroy(ctx);
    return rc;
}
