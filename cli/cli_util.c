/* Helpers shared by the subcommands: sizes in arguments, the default memory limit, files. */
#define _XOPEN_SOURCE 700 /* sysconf's _SC_PHYS_PAGES */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != 0 || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int cli_parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != 0 || errno == ERANGE || v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

int cli_parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v <= 0)
        return 0;
    double scale = 1;
    switch (*end) {
    case 'k': case 'K': scale = 1024.0; end++; break;
    case 'm': case 'M': scale = 1024.0 * 1024; end++; break;
    case 'g': case 'G': scale = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': scale = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    const double bytes = v * scale;
    if (*end || bytes < 1 || bytes > 0x1p62)
        return 0;
    *out = (size_t)bytes;
    return 1;
}

size_t cli_default_memory(void)
{
    const size_t cap = (size_t)4 << 30;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return cap;
    const double half = (double)pages * (double)page / 2;
    return half < (double)cap ? (size_t)half : cap;
}

int cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

void cli_swap_red_blue(uint8_t *pixels, size_t n, int channels)
{
    for (size_t i = 0; i < n; i++, pixels += channels) {
        const uint8_t r = pixels[0];
        pixels[0] = pixels[2], pixels[2] = r;
    }
}

int cli_common_option(const char *a, const char *v, edgel_backend *backend, int *threads,
                      size_t *memory, char *err, size_t errlen)
{
    if (!strcmp(a, "--backend")) {
        if (!strcmp(v, "auto") || !strcmp(v, "cpu") || !strcmp(v, "cuda")) {
            *backend = v[0] == 'a' ? EDGEL_BACKEND_AUTO
                     : v[1] == 'p' ? EDGEL_BACKEND_CPU : EDGEL_BACKEND_CUDA;
            return 1;
        }
        snprintf(err, errlen, "--backend is auto, cpu or cuda, not '%s'", v);
        return -1;
    }
    if (!strcmp(a, "--threads")) {
        if (cli_parse_int(v, 0, 1024, threads))
            return 1;
        snprintf(err, errlen, "--threads is 0 (all cores) to 1024, not '%s'", v);
        return -1;
    }
    if (!strcmp(a, "--memory")) {
        if (cli_parse_size(v, memory))
            return 1;
        snprintf(err, errlen, "--memory is a size such as 512M or 2G, not '%s'", v);
        return -1;
    }
    return 0;
}

int cli_argument(const char *a, const char *v, const char **input, const char *const *names,
                 size_t n, char *err, size_t errlen)
{
    if (a[0] != '-' || !strcmp(a, "-")) {
        if (*input) {
            snprintf(err, errlen, "more than one input: '%s' and '%s'", *input, a);
            return -1;
        }
        *input = a;
        return 0;
    }
    size_t known = 0;
    while (known < n && strcmp(a, names[known]))
        known++;
    if (known == n) {
        snprintf(err, errlen, "unknown option '%s'", a);
        return -1;
    }
    if (!v) {
        snprintf(err, errlen, "%s needs a value", a);
        return -1;
    }
    return 1;
}
