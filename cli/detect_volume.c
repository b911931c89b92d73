/* edgel detect on a volume file (NIfTI-1/2 .nii or .nii.gz; MetaImage .mha or .mhd): ITK's
 * 3-D Canny with the file's voxel size as the spacing, the result written in the input's
 * format with its header (orientation, origin, spacing): edges as 0/1 labels (uint8), stages
 * as float32. A volume and its work within --memory runs whole (edgel_canny_volume); a larger
 * one, or any with --tile WxHxD, runs in bricks (edgel_canny_volume_bricks) read from the
 * file, with the edges gathered in a scratch file beside the output. */
#include "cli.h"
#include "io/image_io.h"
#include "io/volume_io.h"
#include "io/volume_stream.h"
#include "io/voxel_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Working memory of the itk preset on a volume, a voxel: two float copies, the classes and
 * the hysteresis's labels. */
enum { WORK_BYTES_PER_VOXEL = 13 };

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void say(const detect_options *opt, double t0, const char *what)
{
    if (!opt->quiet)
        fprintf(stderr, "edgel detect: %s (%.1f s)\n", what, seconds() - t0);
}

/* A failure's message (`what`: NULL where the message names its file). */
static int volume_failed(const char *what, edgel_status st, const char *msg)
{
    fprintf(stderr, "edgel detect: %s%s%s (%s)\n", what ? what : "", what ? ": " : "", msg,
            edgel_status_name(st));
    return EXIT_FAILURE_RUN;
}

static edgel_volume_canny_params volume_params(const detect_options *opt,
                                               const double spacing[3])
{
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int i = 0; i < 3; i++) {
        p.variance[i] = opt->params.variance; /* in physical units^2, as ITK's */
        p.maximum_error[i] = opt->params.maximum_error;
        p.spacing[i] = spacing[i];
    }
    p.upper_threshold = opt->params.high_threshold;
    p.lower_threshold = opt->params.low_threshold;
    return p;
}

static edgel_status make_context(const detect_options *opt, edgel_context **ctx)
{
    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = opt->threads;
    return edgel_context_create(opt->backend, &copts, ctx);
}

/* The backend's work on a brick's box, a voxel: two float copies and the classes (a box
 * has no hysteresis of its own to label). */
enum { BOX_WORK_BYTES_PER_VOXEL = 9 };

/* Bricks: a box a voxel (source, the suppressed stage and edges, the backend's work), a
 * brick a voxel (classes, edges, labels), and the planes of nodes (three slices, three rows
 * of a layer, two brick faces; 8 bytes a voxel). */
static double bricks_bytes(const int64_t size[3], const int32_t brick[3], const int32_t halo[3],
                           int item)
{
    double box = 1.0, inner = 1.0;
    for (int a = 0; a < 3; a++) {
        const int64_t side = brick[a] + 2LL * halo[a];
        box *= (double)(side < size[a] ? side : size[a]);
        inner *= brick[a];
    }
    const double planes = 3.0 * (double)size[0] * (double)size[1] +
                          3.0 * (double)size[0] * brick[2] + 2.0 * (double)brick[1] * brick[2];
    return box * (item + 4 + 1 + BOX_WORK_BYTES_PER_VOXEL) + inner * 6 + planes * 8;
}

/* The largest bricks within `memory`: halving the depth first (whole slices read fastest),
 * then the height, then the width; 0 where even the smallest do not fit. */
static int choose_bricks(const int64_t size[3], const int32_t halo[3], int item, size_t memory,
                         int32_t brick[3])
{
    for (int a = 0; a < 3; a++)
        brick[a] = (int32_t)(size[a] < (1 << 30) ? size[a] : (1 << 30));
    static const int order[3] = {2, 1, 0};
    for (int k = 0; k < 3; k++) {
        const int a = order[k];
        while (bricks_bytes(size, brick, halo, item) > (double)memory ||
               (double)brick[0] * brick[1] * brick[2] >= (double)INT32_MAX) {
            if (brick[a] <= 2 * halo[a] && k < 2)
                break; /* (thinner than its halo: the next axis first) */
            if (brick[a] == 1)
                break;
            brick[a] = (brick[a] + 1) / 2;
        }
    }
    return bricks_bytes(size, brick, halo, item) <= (double)memory;
}

typedef struct brick_files {
    const detect_options *opt;
    edgel_volume_source *source;
    edgel_volume_sink *sink;
    double t0, last_said;
    int64_t reads, bricks;
    int file_failed; /* a read or write of the files failed (its message is the io one) */
} brick_files;

static edgel_status read_brick(void *user, int64_t x, int64_t y, int64_t z,
                               const edgel_volume *dst)
{
    brick_files *f = user;
    const double now = seconds();
    if (now - f->last_said >= 2.0 && !f->opt->quiet) {
        fprintf(stderr, "edgel detect: bricks: pass %d, %lld of %lld (%.1f s)\n",
                f->reads < f->bricks ? 1 : 2, (long long)(f->reads % f->bricks + 1),
                (long long)f->bricks, now - f->t0);
        f->last_said = now;
    }
    f->reads++;
    const edgel_status st = edgel_io_volume_source_read(f->source, x, y, z, dst);
    f->file_failed |= st != EDGEL_OK;
    return st;
}

static edgel_status write_brick(void *user, int64_t x, int64_t y, int64_t z,
                                const edgel_volume *edges)
{
    brick_files *f = user;
    const edgel_status st = edgel_io_volume_sink_put(f->sink, x, y, z, edges);
    f->file_failed |= st != EDGEL_OK;
    return st;
}

/* `probe`: the file's header (sizes, type, spacing), released here. */
static int detect_volume_bricks(const detect_options *opt, double t0, edgel_volume_file *probe)
{
    const edgel_volume pv = probe->volume;
    const int64_t size[3] = {pv.width, pv.height, pv.depth};
    const edgel_volume_canny_params p = volume_params(opt, probe->spacing);
    edgel_io_free_volume(probe);
    int32_t halo[3], brick[3] = {opt->tile_w, opt->tile_h, opt->tile_d};
    edgel_status st = edgel_canny_volume_halo(&p, halo);
    if (st != EDGEL_OK)
        return volume_failed("detect", st, edgel_last_error());
    const int item = (int)edgel_pixel_size(pv.type);
    if (!opt->tile_w && !choose_bricks(size, halo, item, opt->memory, brick)) {
        fprintf(stderr, "edgel detect: %s: %lldx%lld slices need %.0f MB for the smallest "
                "bricks, more than the %.0f MB allowed (--memory)\n", opt->input,
                (long long)size[0], (long long)size[1],
                bricks_bytes(size, brick, halo, item) / 1e6, opt->memory / 1e6);
        return EXIT_FAILURE_RUN;
    }
    if (opt->tile_w && bricks_bytes(size, brick, halo, item) > (double)opt->memory) {
        fprintf(stderr, "edgel detect: %s: bricks of %dx%dx%d need %.0f MB with their halos "
                "and the slices they join, more than the %.0f MB allowed (--memory): give "
                "smaller bricks or more memory\n", opt->input, brick[0], brick[1], brick[2],
                bricks_bytes(size, brick, halo, item) / 1e6, opt->memory / 1e6);
        return EXIT_USAGE;
    }
    edgel_volume_source src;
    st = edgel_io_open_volume_source(opt->input, opt->output, opt->memory, &src);
    if (st != EDGEL_OK) {
        edgel_io_close_volume_source(&src);
        return volume_failed(NULL, st, edgel_io_last_error());
    }
    const edgel_volume *v = &src.file.volume;
    char line[200];
    snprintf(line, sizeof line, "%lldx%lldx%lld voxels of %s, %g x %g x %g, in bricks of %dx%dx%d",
             (long long)size[0], (long long)size[1], (long long)size[2],
             v->type == EDGEL_U8 ? "u8" : v->type == EDGEL_U16 ? "u16" : "f32",
             src.file.spacing[0], src.file.spacing[1], src.file.spacing[2], brick[0], brick[1],
             brick[2]);
    say(opt, t0, line);
    edgel_volume_sink sink;
    edgel_context *ctx = NULL;
    int rc = EXIT_OK;
    if ((st = edgel_io_open_volume_sink(opt->output, size[0], size[1], size[2], &sink)) !=
        EDGEL_OK) {
        edgel_io_close_volume_source(&src);
        return volume_failed(NULL, st, edgel_io_last_error());
    }
    brick_files files = {opt, &src, &sink, t0, t0, 0, 1, 0};
    for (int a = 0; a < 3; a++)
        files.bricks *= (size[a] + brick[a] - 1) / brick[a];
    const edgel_brick_io io = {size[0], size[1], size[2], v->type, read_brick, write_brick,
                               &files};
    if ((st = make_context(opt, &ctx)) != EDGEL_OK) {
        rc = volume_failed("backend", st, edgel_last_error());
    } else if ((st = edgel_canny_volume_bricks(ctx, &p, &io, brick[0], brick[1], brick[2])) !=
               EDGEL_OK) {
        rc = files.file_failed ? volume_failed(NULL, st, edgel_io_last_error())
                               : volume_failed("detect", st, edgel_last_error());
    } else {
        say(opt, t0, "detected");
        st = edgel_io_finish_volume_sink(&sink, opt->output, &src.file);
        if (st != EDGEL_OK)
            rc = volume_failed(NULL, st, edgel_io_last_error());
        else
            say(opt, t0, "written");
    }
    edgel_io_discard_volume_sink(&sink);
    edgel_context_destroy(ctx);
    edgel_io_close_volume_source(&src);
    return rc;
}

int detect_volume(const detect_options *opt)
{
    if (opt->params.preset != EDGEL_PRESET_ITK) {
        fprintf(stderr, "edgel detect: %s is a volume: volumes take --preset itk (ITK's 3-D "
                        "Canny)\n", opt->input);
        return EXIT_USAGE;
    }
    const edgel_volume_format format = edgel_io_volume_format(opt->input);
    if (!edgel_io_volume_output_path(opt->output, format)) {
        fprintf(stderr, "edgel detect: %s: write a volume's %s in the input's format (%s)\n",
                opt->output, opt->stage == STAGE_EDGES ? "edges" : "stage",
                edgel_io_volume_outputs(format));
        return EXIT_USAGE;
    }
    if (opt->stage != STAGE_EDGES && opt->stage != STAGE_SMOOTHED &&
        opt->stage != STAGE_SUPPRESSED) {
        fprintf(stderr, "edgel detect: a volume's stages are smoothed and suppressed\n");
        return EXIT_USAGE;
    }
    if (opt->auto_rule || opt->mask) {
        fprintf(stderr, "edgel detect: --auto and --mask take images, not volumes\n");
        return EXIT_USAGE;
    }
    if (opt->tile_w && (!opt->tile_d || opt->stage != STAGE_EDGES)) {
        fprintf(stderr, "edgel detect: a volume's bricks are --tile WxHxD, for its edges\n");
        return EXIT_USAGE;
    }
    if (format == EDGEL_VOLUME_NIFTI && !edgel_io_volumes_available()) {
        fprintf(stderr, "edgel detect: %s: this build reads no volume files (it was built "
                        "without nifticlib: Debian and Ubuntu libnifti2-dev)\n", opt->input);
        return EXIT_FAILURE_RUN;
    }
    const double t0 = seconds();
    /* whole where the file's voxels, a float copy and the work fit in --memory */
    edgel_voxel_layout layout;
    edgel_volume_file probe;
    edgel_status st = edgel_io_volume_layout(opt->input, &layout, &probe);
    if (st != EDGEL_OK)
        return volume_failed(NULL, st, edgel_io_last_error());
    char companion[4096]; /* (a .mhd output's NAME.raw) */
    const int paired = edgel_io_volume_companion(opt->output, companion, sizeof companion);
    const char *const written[2] = {opt->output, paired ? companion : NULL};
    for (int k = 0; k < 2; k++)
        if (written[k] && ((layout.file[0] && cli_same_file(layout.file, written[k])) ||
                           cli_same_file(opt->input, written[k]))) { /* a detached data file */
            fprintf(stderr, "edgel detect: %s holds the input's voxels; write the edges to "
                            "another file\n", written[k]);
            edgel_io_free_volume(&probe);
            return EXIT_USAGE;
        }
    const double whole = (double)probe.volume.width * probe.volume.height * probe.volume.depth *
                         (layout.bytes + 4 + WORK_BYTES_PER_VOXEL +
                          (opt->stage == STAGE_EDGES ? 1 : 4));
    if (opt->tile_w || (whole > (double)opt->memory && opt->stage == STAGE_EDGES))
        return detect_volume_bricks(opt, t0, &probe);
    edgel_io_free_volume(&probe);
    edgel_volume_file in;
    st = edgel_io_read_volume(opt->input, opt->memory, &in);
    if (st != EDGEL_OK)
        return volume_failed(NULL, st, edgel_io_last_error());
    const edgel_volume *v = &in.volume;
    const size_t voxels = (size_t)v->width * v->height * v->depth;
    const size_t in_bytes = voxels * edgel_pixel_size(v->type);
    const size_t out_item = opt->stage == STAGE_EDGES ? 1 : 4;
    if ((double)voxels * (WORK_BYTES_PER_VOXEL + out_item) + in_bytes > (double)opt->memory) {
        fprintf(stderr,
                "edgel detect: %s: %dx%dx%d voxels need %.0f MB with the work (%d bytes a "
                "voxel), more than the %.0f MB allowed (--memory)\n",
                opt->input, v->width, v->height, v->depth,
                ((double)voxels * (WORK_BYTES_PER_VOXEL + out_item) + in_bytes) / 1e6,
                WORK_BYTES_PER_VOXEL, opt->memory / 1e6);
        edgel_io_free_volume(&in);
        return EXIT_FAILURE_RUN;
    }
    char line[160];
    snprintf(line, sizeof line, "read %dx%dx%d voxels of %s, %g x %g x %g", v->width,
             v->height, v->depth, v->type == EDGEL_U8 ? "u8" : v->type == EDGEL_U16 ? "u16" : "f32",
             in.spacing[0], in.spacing[1], in.spacing[2]);
    say(opt, t0, line);

    const edgel_volume_canny_params p = volume_params(opt, in.spacing);
    void *result = malloc(voxels * out_item);
    edgel_context *ctx = NULL;
    int rc = EXIT_OK;
    if (!result) {
        rc = volume_failed(opt->input, EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
    } else if ((st = make_context(opt, &ctx)) != EDGEL_OK) {
        rc = volume_failed("backend", st, edgel_last_error());
    } else {
        const edgel_volume out = edgel_volume_host(result, v->width, v->height, v->depth,
                                                   out_item == 1 ? EDGEL_U8 : EDGEL_F32);
        edgel_volume scratch = out; /* the edges, where a stage is asked for */
        void *edges = NULL;
        edgel_volume_canny_stages stages = {NULL, NULL};
        if (opt->stage != STAGE_EDGES) {
            edges = malloc(voxels);
            scratch = edgel_volume_host(edges, v->width, v->height, v->depth, EDGEL_U8);
            if (opt->stage == STAGE_SMOOTHED)
                stages.smoothed = &out;
            else
                stages.suppressed = &out;
        }
        const int lacking = opt->stage != STAGE_EDGES && !edges;
        st = lacking ? EDGEL_ERROR_OUT_OF_MEMORY
                     : edgel_canny_volume(ctx, &p, v, &scratch,
                                          opt->stage == STAGE_EDGES ? NULL : &stages);
        free(edges);
        if (st != EDGEL_OK) {
            rc = volume_failed("detect", st, lacking ? "out of memory" : edgel_last_error());
        } else {
            if (out_item == 1) /* 255 -> 1: a label volume */
                for (size_t i = 0; i < voxels; i++)
                    ((uint8_t *)result)[i] = ((uint8_t *)result)[i] != 0;
            say(opt, t0, "detected");
            st = edgel_io_write_volume(opt->output, &out, &in);
            if (st != EDGEL_OK)
                rc = volume_failed(NULL, st, edgel_io_last_error());
            else
                say(opt, t0, "written");
        }
    }
    edgel_context_destroy(ctx);
    free(result);
    edgel_io_free_volume(&in);
    return rc;
}
