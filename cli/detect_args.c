/* Argument parsing of `edgel detect`: pure, silent, fuzzed (fuzz/fuzz_detect_args.c). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static args_result usage(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return ARGS_USAGE;
}

/* "LOW,HIGH", each in [0, 1], into the thresholds (the quantiles --auto reads). */
static int quantile_pair(const char *v, edgel_canny_params *p)
{
    char low[64];
    const char *comma = strchr(v, ',');
    if (!comma || (size_t)(comma - v) >= sizeof low)
        return 0;
    memcpy(low, v, (size_t)(comma - v));
    low[comma - v] = 0;
    double a, b;
    if (!cli_parse_double(low, &a) || !cli_parse_double(comma + 1, &b) || !(a >= 0 && a <= 1) ||
        !(b >= 0 && b <= 1))
        return 0;
    p->low_threshold = a;
    p->high_threshold = b;
    return 1;
}

static const struct {
    const char *name;
    detect_stage stage;
} stage_names[] = {{"edges", STAGE_EDGES},     {"gray", STAGE_GRAY},
                   {"smoothed", STAGE_SMOOTHED}, {"dx", STAGE_DX},
                   {"dy", STAGE_DY},           {"magnitude", STAGE_MAGNITUDE},
                   {"suppressed", STAGE_SUPPRESSED}};

args_result parse_detect_args(int argc, char **argv, detect_options *opt, char *err,
                              size_t errlen)
{
    memset(opt, 0, sizeof *opt);
    edgel_canny_params_default(&opt->params);
    opt->params.gray = EDGEL_GRAY_RGB;
    opt->backend = EDGEL_BACKEND_AUTO;
    err[0] = 0;
    /* an option given of one preset only */
    const char *opencv_only = NULL, *itk_only = NULL, *skimage_only = NULL;
    int low_given = 0, high_given = 0, blur_none = 0;
    opt->memory = cli_default_memory();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return ARGS_HELP;
        if (!strcmp(a, "--l2")) {
            opt->params.l2_gradient = 1;
            opencv_only = a;
            continue;
        }
        if (!strcmp(a, "--quantiles")) {
            opt->params.use_quantiles = 1;
            skimage_only = a;
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            opt->quiet = 1;
            continue;
        }
        if (!strcmp(a, "--volume")) {
            opt->volume = 1;
            continue;
        }
        static const char *const with_value[] = {"-o",         "--output", "--low",   "--high",
                                                 "--aperture", "--blur",   "--blur-size",
                                                 "--gray",     "--backend", "--threads",
                                                 "--stage",    "--preset", "--variance",
                                                 "--maximum-error", "--upper", "--lower",
                                                 "--memory", "--tile", "--auto", "--sigma",
                                                 "--mode", "--cval", "--mask",
                                                 "--tiff-compression", "--data-files",
                                                 "--channel-order"};
        const int arg = cli_argument(a, v, &opt->input, with_value,
                                     sizeof with_value / sizeof with_value[0], err, errlen);
        if (arg < 0)
            return ARGS_USAGE;
        if (arg == 0)
            continue;
        i++;
        const int common = cli_common_option(a, v, &opt->backend, &opt->threads, &opt->memory,
                                             err, errlen);
        if (common < 0)
            return ARGS_USAGE;
        if (common)
            continue;
        if (!strcmp(a, "--aperture") || !strcmp(a, "--blur") || !strcmp(a, "--blur-size") ||
            !strcmp(a, "--gray") || !strcmp(a, "--channel-order"))
            opencv_only = a;
        if (!strcmp(a, "--variance") || !strcmp(a, "--maximum-error"))
            itk_only = a;
        if (!strcmp(a, "--sigma") || !strcmp(a, "--mode") || !strcmp(a, "--cval") ||
            !strcmp(a, "--mask"))
            skimage_only = a;
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            opt->output = v;
        } else if (!strcmp(a, "--low") || !strcmp(a, "--high") || !strcmp(a, "--lower") ||
                   !strcmp(a, "--upper")) {
            double t;
            if (!cli_parse_double(v, &t))
                return usage(err, errlen, "%s wants a finite number, not '%s'", a, v);
            const int low = a[2] == 'l';
            *(low ? &opt->params.low_threshold : &opt->params.high_threshold) = t;
            *(low ? &low_given : &high_given) = 1;
        } else if (!strcmp(a, "--preset")) {
            if (!strcmp(v, "opencv"))
                opt->params.preset = EDGEL_PRESET_OPENCV;
            else if (!strcmp(v, "itk"))
                opt->params.preset = EDGEL_PRESET_ITK;
            else if (!strcmp(v, "skimage"))
                opt->params.preset = EDGEL_PRESET_SKIMAGE;
            else
                return usage(err, errlen, "--preset is opencv, itk or skimage, not '%s'", v);
        } else if (!strcmp(a, "--sigma")) {
            if (!cli_parse_double(v, &opt->params.sigma) || opt->params.sigma < 0 ||
                opt->params.sigma > EDGEL_SKIMAGE_MAX_SIGMA)
                return usage(err, errlen, "--sigma is a number 0..%g, not '%s'",
                             EDGEL_SKIMAGE_MAX_SIGMA, v);
        } else if (!strcmp(a, "--mode")) {
            static const char *const modes[] = {"constant", "nearest", "reflect", "mirror",
                                                "wrap"};
            int k = 0;
            while (k < 5 && strcmp(v, modes[k]))
                k++;
            if (k == 5)
                return usage(err, errlen, "--mode is constant, nearest, reflect, mirror or "
                             "wrap, not '%s'", v);
            opt->params.mode = (edgel_border)k; /* scipy's names, in edgel_border's order */
        } else if (!strcmp(a, "--cval")) {
            if (!cli_parse_double(v, &opt->params.cval))
                return usage(err, errlen, "--cval wants a finite number, not '%s'", v);
        } else if (!strcmp(a, "--mask")) {
            opt->mask = v;
        } else if (!strcmp(a, "--channel-order")) {
            if (strcmp(v, "rgb") && strcmp(v, "bgr"))
                return usage(err, errlen, "--channel-order is rgb or bgr, not '%s'", v);
            opt->channels_bgr = v[0] == 'b';
        } else if (!strcmp(a, "--data-files")) {
            if (strcmp(v, "beside") && strcmp(v, "anywhere"))
                return usage(err, errlen, "--data-files is beside or anywhere, not '%s'", v);
            opt->data_files_anywhere = v[0] == 'a';
        } else if (!strcmp(a, "--tiff-compression")) {
            static const char *const codecs[] = {"deflate", "packbits", "none"};
            int k = 0; /* in edgel_tiff_compression's order */
            while (k < 3 && strcmp(v, codecs[k]))
                k++;
            if (k == 3)
                return usage(err, errlen, "--tiff-compression is deflate, packbits or none, "
                             "not '%s'", v);
            opt->tiff_compression = k;
        } else if (!strcmp(a, "--variance")) {
            if (!cli_parse_double(v, &opt->params.variance) || opt->params.variance < 0 ||
                opt->params.variance > 700)
                return usage(err, errlen, "--variance is a number 0..700, not '%s'", v);
        } else if (!strcmp(a, "--maximum-error")) {
            double e;
            if (!cli_parse_double(v, &e) || !(e > 0 && e < 1))
                return usage(err, errlen, "--maximum-error is a number in (0, 1), not '%s'", v);
            opt->params.maximum_error = e;
        } else if (!strcmp(a, "--aperture")) {
            if (!strcmp(v, "scharr"))
                opt->params.aperture = EDGEL_APERTURE_SCHARR;
            else if (!strcmp(v, "3") || !strcmp(v, "5") || !strcmp(v, "7"))
                opt->params.aperture = v[0] - '0';
            else
                return usage(err, errlen, "--aperture is 3, 5, 7 or scharr, not '%s'", v);
        } else if (!strcmp(a, "--blur")) {
            if (!strcmp(v, "5x5")) {
                opt->params.blur = EDGEL_BLUR_5X5_159;
            } else if (!strcmp(v, "none")) {
                opt->params.blur = EDGEL_BLUR_NONE;
                blur_none = 1;
            } else {
                double s;
                if (!cli_parse_double(v, &s) || s <= 0)
                    return usage(err, errlen, "--blur is a positive sigma, 5x5 or none, not '%s'",
                                 v);
                opt->params.blur = EDGEL_BLUR_GAUSSIAN;
                opt->params.blur_sigma = s;
            }
        } else if (!strcmp(a, "--blur-size")) {
            int k;
            if (!cli_parse_int(v, 1, 129, &k) || k % 2 == 0)
                return usage(err, errlen, "--blur-size is an odd number 1..129, not '%s'", v);
            opt->params.blur_ksize = k;
        } else if (!strcmp(a, "--tile")) {
            /* WxH, or WxHxD: a volume's bricks */
            char buf[64];
            snprintf(buf, sizeof buf, "%s", v);
            char *x = strchr(buf, 'x'), *y = x ? strchr(x + 1, 'x') : NULL;
            if (!x || strlen(v) >= sizeof buf)
                return usage(err, errlen, "--tile is WxH (e.g. 1024x1024), or WxHxD for a "
                             "volume's bricks, not '%s'", v);
            *x = 0;
            if (y)
                *y = 0;
            if (!cli_parse_int(buf, 1, 16384, &opt->tile_w) ||
                !cli_parse_int(x + 1, 1, 16384, &opt->tile_h) ||
                (y && !cli_parse_int(y + 1, 1, 16384, &opt->tile_d)))
                return usage(err, errlen, "--tile is WxH or WxHxD with sides 1..16384, not '%s'",
                             v);
        } else if (!strcmp(a, "--gray")) {
            /* the Python module's words too: rgb and bgr name the channel order */
            if (!strcmp(v, "luma") || !strcmp(v, "rgb"))
                opt->params.gray = EDGEL_GRAY_RGB;
            else if (!strcmp(v, "bgr"))
                opt->params.gray = EDGEL_GRAY_BGR;
            else if (!strcmp(v, "max-channel"))
                opt->params.gray = EDGEL_GRAY_NONE;
            else
                return usage(err, errlen, "--gray is luma (or rgb), bgr or max-channel, not "
                             "'%s'", v);
        } else if (!strcmp(a, "--auto")) {
            if (!strcmp(v, "otsu"))
                opt->auto_rule = EDGEL_AUTO_OTSU;
            else if (!strcmp(v, "median"))
                opt->auto_rule = EDGEL_AUTO_MEDIAN;
            else if (!strncmp(v, "quantiles:", 10) && quantile_pair(v + 10, &opt->params))
                opt->auto_rule = EDGEL_AUTO_QUANTILES;
            else
                return usage(err, errlen, "--auto is otsu, median or quantiles:LOW,HIGH (each "
                             "0..1), not '%s'", v);
            opencv_only = a;
        } else if (!strcmp(a, "--stage")) {
            size_t k, n = sizeof stage_names / sizeof stage_names[0];
            for (k = 0; k < n && strcmp(v, stage_names[k].name); k++)
                ;
            if (k == n)
                return usage(err, errlen,
                             "--stage is edges, gray, smoothed, dx, dy, magnitude or suppressed, "
                             "not '%s'",
                             v);
            opt->stage = stage_names[k].stage;
        }
    }
    const int itk = opt->params.preset == EDGEL_PRESET_ITK;
    const int sk = opt->params.preset == EDGEL_PRESET_SKIMAGE;
    if (opt->params.blur_ksize) { /* --blur-size alone is a Gaussian of that size */
        if (blur_none || opt->params.blur == EDGEL_BLUR_5X5_159)
            return usage(err, errlen, "--blur-size is the size of a Gaussian blur; it does not "
                                      "go with --blur %s", blur_none ? "none" : "5x5");
        opt->params.blur = EDGEL_BLUR_GAUSSIAN;
    }
    if (opt->params.preset != EDGEL_PRESET_OPENCV && opencv_only)
        return usage(err, errlen, "%s belongs to the opencv preset", opencv_only);
    if (!itk && itk_only)
        return usage(err, errlen, "%s needs --preset itk", itk_only);
    if (!sk && skimage_only)
        return usage(err, errlen, "%s needs --preset skimage", skimage_only);
    if (sk) { /* skimage's defaults: None (10% and 20% of the type's range) */
        opt->params.low_threshold = low_given ? opt->params.low_threshold : NAN;
        opt->params.high_threshold = high_given ? opt->params.high_threshold : NAN;
        if (opt->stage == STAGE_GRAY)
            return usage(err, errlen, "the skimage preset has no gray stage");
        if (opt->tile_w)
            return usage(err, errlen, "the skimage preset runs on whole images: not --tile");
    }
    if (itk) { /* ITK's defaults: no smoothing, thresholds 0 */
        opt->params.low_threshold = low_given ? opt->params.low_threshold : 0.0;
        opt->params.high_threshold = high_given ? opt->params.high_threshold : 0.0;
        if (opt->stage != STAGE_EDGES && opt->stage != STAGE_SMOOTHED &&
            opt->stage != STAGE_SUPPRESSED)
            return usage(err, errlen, "the itk preset has the stages smoothed and suppressed");
    }
    if (!opt->input)
        return usage(err, errlen, "no input file");
    if (!opt->output)
        return usage(err, errlen, "no output file (-o OUT)");
    if (opt->params.aperture == EDGEL_APERTURE_SCHARR && !opt->params.l2_gradient)
        return usage(err, errlen, "--aperture scharr needs --l2 (as in OpenCV)");
    if (opt->tile_w && opt->stage != STAGE_EDGES)
        return usage(err, errlen, "--tile computes edges, not stages");
    if (opt->tile_w && opt->auto_rule)
        return usage(err, errlen, "--auto reads the whole image: not with --tile");
    if (edgel_canny_params_check(&opt->params) != EDGEL_OK) /* ranges: the library's own */
        return usage(err, errlen, "%s", edgel_last_error());
    return ARGS_OK;
}

int detect_stage_is_float(const detect_options *opt)
{
    if (opt->params.preset != EDGEL_PRESET_OPENCV)
        return opt->stage != STAGE_EDGES;
    return opt->stage == STAGE_DX || opt->stage == STAGE_DY || opt->stage == STAGE_MAGNITUDE;
}
