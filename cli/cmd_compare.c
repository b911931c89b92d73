/* edgel compare: agreement of two edge maps, with the conformance figures of the ITK Canny
 * study (Lourenco et al.): A is the reference, B the candidate; a pixel is an edge when
 * nonzero.
 *   Pco = edges of A also in B / edges of A       (correctly detected)
 *   Pnd = edges of A missing in B / edges of A     (not detected)
 *   Pfa = edges of B not in A / edges of A         (false alarms)   */
#include "cli.h"
#include "io/image_io.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { EXIT_DIFFERENT = 1, EXIT_TROUBLE = 2 }; /* cmp's */

const char COMPARE_HELP[] =
    "usage: edgel compare A B\n"
    "\n"
    "Compares two edge maps of the same size (any format edgel reads; a pixel is an edge\n"
    "when nonzero). A is the reference. Prints whether the files hold identical pixels\n"
    "(NaN equal to NaN),\n"
    "the edge counts and, as in the ITK Canny conformance study:\n"
    "  Pco  edges of A also found in B, in % of A's edges\n"
    "  Pnd  edges of A not found in B, in % of A's edges\n"
    "  Pfa  edges of B not in A, in % of A's edges\n"
    "Exit status, as cmp's: 0 when the pixels are identical, 1 when they differ (sizes too),\n"
    "2 on errors (a file unreadable) and usage errors.\n";

static double sample(const edgel_image *img, int x, int y, int c)
{
    const unsigned char *row = (const unsigned char *)img->data + (size_t)y * img->pitch;
    size_t i = (size_t)x * img->channels + c;
    switch (img->type) {
    case EDGEL_U8: return row[i];
    case EDGEL_U16: return ((const uint16_t *)row)[i];
    case EDGEL_F32: return ((const float *)row)[i];
    default: return 0;
    }
}

static int is_edge(const edgel_image *img, int x, int y)
{
    for (int c = 0; c < img->channels; c++)
        if (sample(img, x, y, c) != 0)
            return 1;
    return 0;
}

static void print_percent(const char *name, size_t n, size_t ref)
{
    if (ref == 0)
        printf("%s: n/a (A has no edges)\n", name);
    else
        printf("%s: %.4f%%\n", name, 100.0 * (double)n / (double)ref);
}

int cmd_compare(int argc, char **argv)
{
    if (argc == 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
        fputs(COMPARE_HELP, stdout);
        return EXIT_OK;
    }
    if (argc != 2) {
        fprintf(stderr, "edgel compare: needs two files, A (reference) and B\n"
                        "(run 'edgel compare --help')\n");
        return EXIT_USAGE;
    }
    edgel_image a, b;
    if (edgel_io_read(argv[0], NULL, &a) != EDGEL_OK) {
        fprintf(stderr, "edgel compare: %s\n", edgel_io_last_error());
        return EXIT_TROUBLE;
    }
    if (edgel_io_read(argv[1], NULL, &b) != EDGEL_OK) {
        fprintf(stderr, "edgel compare: %s\n", edgel_io_last_error());
        edgel_io_free(&a);
        return EXIT_TROUBLE;
    }
    int rc = EXIT_DIFFERENT;
    if (a.width != b.width || a.height != b.height) {
        fprintf(stderr, "edgel compare: sizes differ: %dx%d and %dx%d\n", (int)a.width,
                (int)a.height, (int)b.width, (int)b.height);
    } else {
        int identical = a.type == b.type && a.channels == b.channels;
        size_t ea = 0, eb = 0, common = 0;
        for (int y = 0; y < a.height; y++)
            for (int x = 0; x < a.width; x++) {
                int pa = is_edge(&a, x, y), pb = is_edge(&b, x, y);
                ea += pa;
                eb += pb;
                common += pa && pb;
                for (int c = 0; identical && c < a.channels; c++) {
                    const double sa = sample(&a, x, y, c), sb = sample(&b, x, y, c);
                    identical = sa == sb || (isnan(sa) && isnan(sb)); /* NaN is NaN */
                }
            }
        printf("identical: %s\n", identical ? "yes" : "no");
        rc = identical ? EXIT_OK : EXIT_DIFFERENT;
        printf("size: %dx%d\n", (int)a.width, (int)a.height);
        printf("edges A: %zu\nedges B: %zu\ncommon: %zu\n", ea, eb, common);
        print_percent("Pco", common, ea);
        print_percent("Pnd", ea - common, ea);
        print_percent("Pfa", eb - common, ea);
    }
    edgel_io_free(&a);
    edgel_io_free(&b);
    return rc;
}
