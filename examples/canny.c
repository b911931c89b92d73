/* The C API: Canny of an 8-bit gray PGM file, written as PGM (the library reads and writes
 * no files; this example does, in a few lines).
 *
 *   cc examples/canny.c $(pkg-config --cflags --libs edgel) -o canny
 *   ./canny in.pgm out.pgm [low high]
 */
#include <edgel.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s in.pgm out.pgm [low high]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    int w, h, maxval;
    if (!f || fscanf(f, "P5 %d %d %d", &w, &h, &maxval) != 3 || maxval != 255 || fgetc(f) < 0) {
        fprintf(stderr, "%s: not an 8-bit PGM (P5)\n", argv[1]);
        return 1;
    }
    unsigned char *pixels = malloc((size_t)w * h), *edges = malloc((size_t)w * h);
    if (!pixels || !edges || fread(pixels, 1, (size_t)w * h, f) != (size_t)w * h) {
        fprintf(stderr, "%s: truncated\n", argv[1]);
        return 1;
    }
    fclose(f);

    edgel_context *ctx;
    edgel_status st = edgel_context_create(EDGEL_BACKEND_AUTO, NULL, &ctx); /* GPU if present */
    edgel_canny_params p;
    edgel_canny_params_default(&p); /* 50 / 150, aperture 3, L1: cv2.Canny's defaults */
    if (argc > 4)
        p.low_threshold = atof(argv[3]), p.high_threshold = atof(argv[4]);
    p.blur = EDGEL_BLUR_GAUSSIAN;
    p.blur_sigma = 1.4;
    edgel_image src = edgel_image_host(pixels, w, h, EDGEL_U8, 1);
    edgel_image dst = edgel_image_host(edges, w, h, EDGEL_U8, 1);
    if (st == EDGEL_OK)
        st = edgel_canny(ctx, &p, &src, &dst, NULL);
    if (st != EDGEL_OK) {
        fprintf(stderr, "%s: %s\n", edgel_status_name(st), edgel_last_error());
        return 1;
    }
    edgel_context_destroy(ctx);

    f = fopen(argv[2], "wb");
    if (!f || fprintf(f, "P5\n%d %d\n255\n", w, h) < 0 ||
        fwrite(edges, 1, (size_t)w * h, f) != (size_t)w * h || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write\n", argv[2]);
        return 1;
    }
    long n = 0;
    for (long i = 0; i < (long)w * h; i++)
        n += edges[i] != 0;
    printf("%dx%d: %ld edge pixels -> %s\n", w, h, n, argv[2]);
    free(pixels), free(edges);
    return 0;
}
