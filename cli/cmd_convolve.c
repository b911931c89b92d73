/* edgel convolve: an image file correlated with a kernel file, through the convolution engine. */
#include "cli.h"
#include "io/image_io.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char CONVOLVE_HELP[] =
    "usage: edgel convolve IN -o OUT --kernel FILE [options]\n"
    "\n"
    "Correlates each channel of IN (PNG, JPEG, PGM/PPM, PFM, TIFF) with a kernel, as\n"
    "cv2.filter2D(img, -1, kernel) and scipy.ndimage.correlate(img, kernel): no kernel\n"
    "flip, the anchor at the kernel's centre (floor(k/2) for even sizes). OUT is .pfm\n"
    "(float), .tif (float, or 8-bit for 8-bit input) or, for 8-bit input, .png/.pgm\n"
    "(rounded half to even and saturated, equal to cv2.filter2D for kernels of fewer than\n"
    "130 taps).\n"
    "\n"
    "options:\n"
    "  --kernel FILE      the kernel: a text file of whitespace-separated rows ('#' starts\n"
    "                     a comment), a PFM, or a PGM/PNG (pixel values as they are);\n"
    "                     1x1 up to 129x129\n"
    "  --border MODE      zero, replicate, reflect, reflect-101 (default) or wrap\n"
    "                     (outside pixels: 0 | aaa|abc | cba|abc | cb|abc | bc|abc)\n"
    "  --border-value V   the value outside with --border zero (default 0)\n"
    "  --method M         auto (default: the fastest, from a measured cost model), direct,\n"
    "                     separable (rank-1 kernels; on 8-bit images, factors in steps of\n"
    "                     1/256, such as the blur.txt below, run exactly in integers) or fft\n"
    "  --anchor X,Y       the kernel element over the output pixel (default the centre)\n"
    "  --convolve         flip the kernel: true convolution\n"
    "  --backend auto|cpu|cuda   where to run (default auto)\n"
    "  --threads N        CPU threads, 0 = all cores (default)\n"
    "  --memory SIZE      largest decoded input image, e.g. 512M or 8G (default: half the\n"
    "                     memory, at most 4G); larger files are refused before decoding\n"
    "  -q, --quiet        print nothing on success\n"
    "\n"
    "The output is written whole or not at all (a temporary file renamed over OUT).\n"
    "\n"
    "examples:\n"
    "  printf '1 2 1\\n2 4 2\\n1 2 1\\n' | awk '{print $1/16, $2/16, $3/16}' > blur.txt\n"
    "  edgel convolve photo.png -o blurred.png --kernel blur.txt\n"
    "  edgel convolve scan.pfm -o out.pfm --kernel psf.pfm --method fft --border wrap\n";

/* A text kernel: rows of numbers, all of one length. NULL with a message in err on error. */
static float *read_text_kernel(const char *path, int *kw, int *kh, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    float *k = malloc(sizeof(float) * EDGEL_MAX_KERNEL_SIZE * EDGEL_MAX_KERNEL_SIZE);
    char line[65536];
    int w = 0, h = 0;
    while (k && fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s: row %d is too long", path, h + 1);
            goto fail;
        }
        char *hash = strchr(line, '#'), *p = line, *end;
        if (hash)
            *hash = 0;
        int n = 0;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == ',')
                p++;
            if (!*p)
                break;
            const double v = strtod(p, &end);
            if (end == p || !isfinite(v)) {
                snprintf(err, errlen, "%s: row %d: '%.20s' is not a finite number", path, h + 1, p);
                goto fail;
            }
            if (n >= EDGEL_MAX_KERNEL_SIZE || h >= EDGEL_MAX_KERNEL_SIZE) {
                snprintf(err, errlen, "%s: larger than %dx%d", path, EDGEL_MAX_KERNEL_SIZE,
                         EDGEL_MAX_KERNEL_SIZE);
                goto fail;
            }
            k[h * EDGEL_MAX_KERNEL_SIZE + n++] = (float)v;
            p = end;
        }
        if (n == 0)
            continue;
        if (w && n != w) {
            snprintf(err, errlen, "%s: row %d has %d values, row 1 has %d", path, h + 1, n, w);
            goto fail;
        }
        w = n;
        h++;
    }
    fclose(f);
    if (!k || h == 0) {
        snprintf(err, errlen, "%s: %s", path, k ? "no numbers in the file" : "out of memory");
        free(k);
        return NULL;
    }
    for (int j = 0; j < h; j++) /* pack the rows */
        memmove(k + j * w, k + j * EDGEL_MAX_KERNEL_SIZE, sizeof(float) * (size_t)w);
    *kw = w;
    *kh = h;
    return k;
fail:
    fclose(f);
    free(k);
    return NULL;
}

/* The kernel file as a packed f32 image (text, PFM, or 1-channel PGM/PNG). */
static int load_kernel(const char *path, edgel_image *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    unsigned char head[8] = {0};
    const size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    if (edgel_io_sniff(head, n) == EDGEL_FILE_UNKNOWN) {
        int w, h;
        float *k = read_text_kernel(path, &w, &h, err, errlen);
        if (!k)
            return 0;
        *out = edgel_image_host(k, w, h, EDGEL_F32, 1);
        return 1;
    }
    edgel_image img;
    if (edgel_io_read(path, NULL, &img) != EDGEL_OK) {
        snprintf(err, errlen, "%s", edgel_io_last_error());
        return 0;
    }
    if (img.channels != 1) {
        snprintf(err, errlen, "%s: a kernel image must have one channel, not %d", path,
                 (int)img.channels);
        edgel_io_free(&img);
        return 0;
    }
    float *k = malloc(sizeof(float) * (size_t)img.width * img.height);
    for (size_t i = 0; k && i < (size_t)img.width * img.height; i++)
        k[i] = img.type == EDGEL_F32 ? ((const float *)img.data)[i]
             : img.type == EDGEL_U16 ? ((const uint16_t *)img.data)[i]
                                     : ((const uint8_t *)img.data)[i];
    *out = edgel_image_host(k, img.width, img.height, EDGEL_F32, 1);
    edgel_io_free(&img);
    if (!k)
        snprintf(err, errlen, "out of memory");
    return k != NULL;
}

typedef struct convolve_options {
    const char *input, *output, *kernel;
    edgel_filter_params params;
    edgel_backend backend;
    int threads, quiet;
    size_t memory;
} convolve_options;

__attribute__((format(printf, 1, 2))) static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "edgel convolve: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run 'edgel convolve --help' for the options)\n");
    va_end(ap);
    return -EXIT_USAGE;
}

/* "X,Y": two integers -1..EDGEL_MAX_KERNEL_SIZE - 1, digits required on both sides. */
static int parse_anchor(const char *v, int32_t *x, int32_t *y)
{
    const char *comma = strchr(v, ',');
    char first[32];
    if (!comma || (size_t)(comma - v) >= sizeof first)
        return 0;
    memcpy(first, v, (size_t)(comma - v));
    first[comma - v] = 0;
    int ax, ay;
    if (!cli_parse_int(first, -1, EDGEL_MAX_KERNEL_SIZE - 1, &ax) ||
        !cli_parse_int(comma + 1, -1, EDGEL_MAX_KERNEL_SIZE - 1, &ay))
        return 0;
    *x = ax;
    *y = ay;
    return 1;
}

/* 0 to run, EXIT_OK after --help, or -EXIT_USAGE. */
static int parse(int argc, char **argv, convolve_options *o)
{
    memset(o, 0, sizeof *o);
    edgel_filter_params_default(&o->params);
    o->backend = EDGEL_BACKEND_AUTO;
    o->memory = cli_default_memory();
    static const char *const modes[] = {"zero", "replicate", "reflect", "reflect-101", "wrap"};
    static const char *const methods[] = {"auto", "direct", "separable", "fft"};
    static const char *const with_value[] = {"-o", "--output", "--kernel", "--border",
                                             "--border-value", "--method", "--anchor",
                                             "--backend", "--threads", "--memory"};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return 1;
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(a, "--convolve")) {
            o->params.convolve = 1;
            continue;
        }
        char err[160];
        const int arg = cli_argument(a, v, &o->input, with_value,
                                     sizeof with_value / sizeof with_value[0], err, sizeof err);
        if (arg < 0)
            return usage("%s", err);
        if (arg == 0)
            continue;
        i++;
        const int common = cli_common_option(a, v, &o->backend, &o->threads, &o->memory, err,
                                             sizeof err);
        if (common < 0)
            return usage("%s", err);
        if (common) {
            continue;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            o->output = v;
        } else if (!strcmp(a, "--kernel")) {
            o->kernel = v;
        } else if (!strcmp(a, "--border")) {
            int m = 0;
            while (m < 5 && strcmp(v, modes[m]))
                m++;
            if (m == 5)
                return usage("--border is zero, replicate, reflect, reflect-101 or wrap, "
                             "not '%s'", v);
            o->params.border = (edgel_border)m; /* zero = EDGEL_BORDER_CONSTANT */
        } else if (!strcmp(a, "--border-value")) {
            if (!cli_parse_double(v, &o->params.border_value))
                return usage("--border-value wants a finite number, not '%s'", v);
        } else if (!strcmp(a, "--method")) {
            int m = 0;
            while (m < 4 && strcmp(v, methods[m]))
                m++;
            if (m == 4)
                return usage("--method is auto, direct, separable or fft, not '%s'", v);
            o->params.method = (edgel_conv_method)m;
        } else if (!strcmp(a, "--anchor")) {
            if (!parse_anchor(v, &o->params.anchor_x, &o->params.anchor_y))
                return usage("--anchor is X,Y (kernel column and row, -1 for the centre), "
                             "not '%s'", v);
        }
    }
    if (!o->input)
        return usage("no input file");
    if (!o->output)
        return usage("no output file (-o OUT)");
    if (!o->kernel)
        return usage("no kernel (--kernel FILE)");
    if (edgel_filter_params_check(&o->params) != EDGEL_OK)
        return usage("%s", edgel_last_error());
    const edgel_file_format fmt = edgel_io_format_for_path(o->output);
    if (fmt != EDGEL_FILE_PFM && fmt != EDGEL_FILE_PNG && fmt != EDGEL_FILE_PNM &&
        fmt != EDGEL_FILE_TIFF)
        return usage("%s: write .pfm or .tif, or .png/.pgm/.ppm for 8-bit input", o->output);
    if (cli_same_file(o->input, o->output))
        return usage("%s is the input file; write the result to another file", o->output);
    return 0;
}

int cmd_convolve(int argc, char **argv)
{
    convolve_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed == 1) {
        fputs(CONVOLVE_HELP, stdout);
        return EXIT_OK;
    }
    if (parsed < 0)
        return -parsed;
    const edgel_file_format fmt = edgel_io_format_for_path(o.output);
    char err[512];
    edgel_image kernel = {0}, in = {0}, out = {0};
    edgel_context *ctx = NULL;
    int rc = EXIT_FAILURE_RUN;
    if (!load_kernel(o.kernel, &kernel, err, sizeof err)) {
        fprintf(stderr, "edgel convolve: kernel: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    /* 8-bit results go to any format; float ones (16-bit and float input) to .pfm or .tif. A
     * PGM/PPM holds 1 or 3 channels, a PFM 1 or 3: checked from the header, before decoding. */
    const int tiff = fmt == EDGEL_FILE_TIFF;
    const unsigned channels = fmt == EDGEL_FILE_PNG || tiff ? (1u << 1) | (1u << 3) | (1u << 4)
                                                            : (1u << 1) | (1u << 3);
    const edgel_io_limits limits = {
        o.memory, fmt == EDGEL_FILE_PFM || tiff ? 0u : 1u << EDGEL_U8, channels, 0,
        fmt == EDGEL_FILE_PFM ? "a PFM holds 1 or 3 channels"
        : tiff                ? "a TIFF result holds 1, 3 or 4 channels"
        : fmt == EDGEL_FILE_PNG ? "a PNG result needs 8-bit input (write .pfm or .tif for float)"
                                : "a PGM/PPM result needs 8-bit input with 1 or 3 channels"};
    edgel_status st = edgel_io_read(o.input, &limits, &in);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel convolve: reading: %s (%s)\n", edgel_io_last_error(),
                edgel_status_name(st));
        rc = st == EDGEL_ERROR_UNSUPPORTED ? EXIT_USAGE : EXIT_FAILURE_RUN;
        goto done;
    }
    if (in.type == EDGEL_U16) { /* 16-bit files are filtered as float */
        edgel_image f;
        if (edgel_io_alloc(&f, in.width, in.height, in.channels, EDGEL_F32, "input") != EDGEL_OK) {
            fprintf(stderr, "edgel convolve: %s\n", edgel_io_last_error());
            goto done;
        }
        for (size_t i = 0; i < (size_t)in.width * in.height * in.channels; i++)
            ((float *)f.data)[i] = ((const uint16_t *)in.data)[i];
        edgel_io_free(&in);
        in = f;
    }
    const edgel_pixel_type out_type =
        fmt == EDGEL_FILE_PFM || (tiff && in.type != EDGEL_U8) ? EDGEL_F32 : EDGEL_U8;
    if (edgel_io_alloc(&out, in.width, in.height, in.channels, out_type, "output") != EDGEL_OK) {
        fprintf(stderr, "edgel convolve: %s\n", edgel_io_last_error());
        goto done;
    }
    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = o.threads;
    st = edgel_context_create(o.backend, &copts, &ctx);
    edgel_conv_method method = EDGEL_CONV_AUTO;
    if (st == EDGEL_OK)
        st = edgel_filter2d_method(ctx, &o.params, &in, &out, &kernel, &method);
    if (st == EDGEL_OK)
        st = edgel_filter2d(ctx, &o.params, &in, &out, &kernel);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel convolve: %s (%s)\n", edgel_last_error(), edgel_status_name(st));
        goto done;
    }
    st = edgel_io_write(o.output, &out);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel convolve: writing: %s (%s)\n", edgel_io_last_error(),
                edgel_status_name(st));
        goto done;
    }
    if (!o.quiet) {
        static const char *const names[] = {"auto", "direct", "separable", "fft"};
        edgel_backend b;
        edgel_context_backend(ctx, &b);
        printf("%s: %dx%dx%d, kernel %dx%d, %s on the %s -> %s\n", o.input, (int)in.width,
               (int)in.height, (int)in.channels, (int)kernel.width, (int)kernel.height,
               names[method], b == EDGEL_BACKEND_CUDA ? "GPU" : "CPU", o.output);
    }
    rc = EXIT_OK;
done:
    free(kernel.data);
    edgel_io_free(&in);
    edgel_io_free(&out);
    edgel_context_destroy(ctx);
    return rc;
}
