/* Buffers a context keeps between calls. */
#include "cpu/cpu.h"

#include <stdlib.h>

uint8_t *edgel_cpu_buffer_reserve(edgel_cpu_buffer *buf, size_t bytes)
{
    if (buf->bytes < bytes) {
        free(buf->data);
        buf->data = malloc(bytes);
        buf->bytes = buf->data ? bytes : 0;
    }
    return buf->data;
}

void edgel_cpu_workspace_free(edgel_cpu_workspace *ws)
{
    edgel_cpu_buffer *all[] = {&ws->map,   &ws->gray,       &ws->blurred,      &ws->itk_a,
                               &ws->itk_b, &ws->tile_edges, &ws->tile_classes, &ws->tile_sup,
                               &ws->sk_x,  &ws->sk_m,        &ws->sk_rows,
                               &ws->fft_kernel};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        free(all[i]->data);
        all[i]->data = NULL;
        all[i]->bytes = 0;
    }
    edgel_volume_labels_free(&ws->volume_labels);
}
