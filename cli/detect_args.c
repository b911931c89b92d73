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

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != 0 || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != 0 || errno == ERANGE || v < lo || v > hi)
        return 0;
    *out = (int)v;
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
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return ARGS_HELP;
        if (!strcmp(a, "--l2")) {
            opt->params.l2_gradient = 1;
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            opt->quiet = 1;
            continue;
        }
        if (a[0] != '-' || !strcmp(a, "-")) {
            if (opt->input)
                return usage(err, errlen, "more than one input: '%s' and '%s'", opt->input, a);
            opt->input = a;
            continue;
        }
        static const char *const with_value[] = {"-o",         "--output", "--low",   "--high",
                                                 "--aperture", "--blur",   "--blur-size",
                                                 "--gray",     "--backend", "--threads",
                                                 "--stage"};
        size_t known = 0, nv = sizeof with_value / sizeof with_value[0];
        while (known < nv && strcmp(a, with_value[known]))
            known++;
        if (known == nv)
            return usage(err, errlen, "unknown option '%s'", a);
        if (!v)
            return usage(err, errlen, "%s needs a value", a);
        i++;
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            opt->output = v;
        } else if (!strcmp(a, "--low") || !strcmp(a, "--high")) {
            double t;
            if (!parse_double(v, &t))
                return usage(err, errlen, "%s wants a finite number, not '%s'", a, v);
            *(a[2] == 'l' ? &opt->params.low_threshold : &opt->params.high_threshold) = t;
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
            } else {
                double s;
                if (!parse_double(v, &s) || s <= 0)
                    return usage(err, errlen, "--blur is a positive sigma, 5x5 or none, not '%s'",
                                 v);
                opt->params.blur = EDGEL_BLUR_GAUSSIAN;
                opt->params.blur_sigma = s;
            }
        } else if (!strcmp(a, "--blur-size")) {
            int k;
            if (!parse_int(v, 1, 129, &k) || k % 2 == 0)
                return usage(err, errlen, "--blur-size is an odd number 1..129, not '%s'", v);
            opt->params.blur_ksize = k;
            if (opt->params.blur == EDGEL_BLUR_NONE)
                opt->params.blur = EDGEL_BLUR_GAUSSIAN;
        } else if (!strcmp(a, "--gray")) {
            if (!strcmp(v, "luma"))
                opt->params.gray = EDGEL_GRAY_RGB;
            else if (!strcmp(v, "max-channel"))
                opt->params.gray = EDGEL_GRAY_NONE;
            else
                return usage(err, errlen, "--gray is luma or max-channel, not '%s'", v);
        } else if (!strcmp(a, "--backend")) {
            if (!strcmp(v, "auto"))
                opt->backend = EDGEL_BACKEND_AUTO;
            else if (!strcmp(v, "cpu"))
                opt->backend = EDGEL_BACKEND_CPU;
            else if (!strcmp(v, "cuda"))
                opt->backend = EDGEL_BACKEND_CUDA;
            else
                return usage(err, errlen, "--backend is auto, cpu or cuda, not '%s'", v);
        } else if (!strcmp(a, "--threads")) {
            if (!parse_int(v, 0, 1024, &opt->threads))
                return usage(err, errlen, "--threads is 0 (all cores) to 1024, not '%s'", v);
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
    if (!opt->input)
        return usage(err, errlen, "no input file");
    if (!opt->output)
        return usage(err, errlen, "no output file (-o OUT)");
    if (opt->params.aperture == EDGEL_APERTURE_SCHARR && !opt->params.l2_gradient)
        return usage(err, errlen, "--aperture scharr needs --l2 (as in OpenCV)");
    return ARGS_OK;
}
