/* Builds against an installed edgel and runs Canny on a small step image. */
#include <edgel.h>
#include <stdio.h>

int main(void)
{
    unsigned char img[16 * 8], edges[16 * 8];
    for (int i = 0; i < 16 * 8; i++)
        img[i] = (i % 16) < 8 ? 0 : 200;
    edgel_context *ctx;
    if (edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) != EDGEL_OK)
        return 1;
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    edgel_image src = edgel_image_host(img, 16, 8, EDGEL_U8, 1);
    edgel_image dst = edgel_image_host(edges, 16, 8, EDGEL_U8, 1);
    edgel_status st = edgel_canny(ctx, &p, &src, &dst, NULL);
    edgel_context_destroy(ctx);
    int n = 0;
    for (int i = 0; i < 16 * 8; i++)
        n += edges[i] == 255;
    printf("edgel %s: %s, %d edge pixels\n", edgel_version_string(), edgel_status_name(st), n);
    return st == EDGEL_OK && n == 8 ? 0 : 1;
}
