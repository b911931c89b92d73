/* Parallel row copies (the CUDA backend's staging through pinned memory). */
#include "core/host_pool.h"

#include <string.h>

typedef struct copy_job {
    const uint8_t *src;
    uint8_t *dst;
    size_t src_pitch, dst_pitch, row_bytes;
} copy_job;

static void copy_row(void *arg, int y)
{
    const copy_job *j = arg;
    memcpy(j->dst + (size_t)y * j->dst_pitch, j->src + (size_t)y * j->src_pitch, j->row_bytes);
}

void edgel_host_copy_rows(int threads, const uint8_t *src, size_t src_pitch, uint8_t *dst,
                         size_t dst_pitch, size_t row_bytes, int rows)
{
    /* Below about 1 MB a second thread costs more than it saves. */
    if ((size_t)rows * row_bytes < ((size_t)1 << 20))
        threads = 1;
    copy_job job = {src, dst, src_pitch, dst_pitch, row_bytes};
    edgel_host_parallel_for(threads, rows, copy_row, &job);
}
