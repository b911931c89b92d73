/* edgel detect on a volume file (NIfTI-1/2 .nii or .nii.gz; MetaImage .mha or .mhd): ITK's
 * 3-D Canny (edgel_canny_volume) with the file's voxel size as the spacing, the result written
 * in the input's format with its header (orientation, origin, spacing): edges as 0/1 labels
 * (uint8), stages as float32. */
#include "cli.h"
#include "io/image_io.h"
#include "io/volume_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Working memory of the itk preset on a volume, a voxel: two float copies and the classes. */
enum { WORK_BYTES_PER_VOXEL = 9 };

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

int detect_volume(const detect_options *opt)
{
    if (opt->params.preset != EDGEL_PRESET_ITK) {
        fprintf(stderr, "edgel detect: %s is a volume: volumes take --preset itk (ITK's 3-D "
                        "Canny)\n", opt->input);
        return EXIT_USAGE;
    }
    const edgel_volume_format format = edgel_io_volume_format(opt->input);
    const size_t out_len = strlen(opt->output);
    if (edgel_io_volume_format(opt->output) != format ||
        (format == EDGEL_VOLUME_METAIMAGE &&
         (out_len < 4 || strcmp(opt->output + out_len - 4, ".mha")))) {
        fprintf(stderr, "edgel detect: %s: write a volume's %s in the input's format (%s)\n",
                opt->output, opt->stage == STAGE_EDGES ? "edges" : "stage",
                format == EDGEL_VOLUME_NIFTI ? ".nii or .nii.gz" : ".mha");
        return EXIT_USAGE;
    }
    if (opt->stage != STAGE_EDGES && opt->stage != STAGE_SMOOTHED &&
        opt->stage != STAGE_SUPPRESSED) {
        fprintf(stderr, "edgel detect: a volume's stages are smoothed and suppressed\n");
        return EXIT_USAGE;
    }
    if (opt->tile_w || opt->auto_rule || opt->mask) {
        fprintf(stderr, "edgel detect: --tile, --auto and --mask take images, not volumes\n");
        return EXIT_USAGE;
    }
    if (format == EDGEL_VOLUME_NIFTI && !edgel_io_volumes_available()) {
        fprintf(stderr, "edgel detect: %s: this build reads no volume files (it was built "
                        "without nifticlib: Debian and Ubuntu libnifti2-dev)\n", opt->input);
        return EXIT_FAILURE_RUN;
    }
    const double t0 = seconds();
    /* the file's voxels and a float copy within --memory; the work checked below */
    edgel_volume_file in;
    edgel_status st = edgel_io_read_volume(opt->input, opt->memory, &in);
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

    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int i = 0; i < 3; i++) {
        p.variance[i] = opt->params.variance; /* in physical units^2, as ITK's */
        p.maximum_error[i] = opt->params.maximum_error;
        p.spacing[i] = in.spacing[i];
    }
    p.upper_threshold = opt->params.high_threshold;
    p.lower_threshold = opt->params.low_threshold;
    void *result = malloc(voxels * out_item);
    edgel_context *ctx = NULL;
    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = opt->threads;
    int rc = EXIT_OK;
    if (!result) {
        rc = volume_failed(opt->input, EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
    } else if ((st = edgel_context_create(opt->backend, &copts, &ctx)) != EDGEL_OK) {
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
