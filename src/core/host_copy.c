/* Parallel copies (the CUDA backend's staging through pinned memory). */
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

typedef struct parts_job {
    const edgel_host_part *part;
    int parts;
    size_t total;
} parts_job;

/* Thread t's stripe of the parts' bytes, taken as one run of bytes. */
static void copy_stripe(void *arg, int t, int n)
{
    const parts_job *j = arg;
    const size_t a = j->total * (size_t)t / (size_t)n, b = j->total * (size_t)(t + 1) / n;
    size_t at = 0;
    for (int k = 0; k < j->parts; at += j->part[k++].bytes) {
        const size_t end = at + j->part[k].bytes;
        const size_t lo = at > a ? at : a, hi = end < b ? end : b;
        if (lo < hi)
            memcpy((uint8_t *)j->part[k].dst + (lo - at),
                   (const uint8_t *)j->part[k].src + (lo - at), hi - lo);
    }
}

void edgel_host_copy_parts(int threads, const edgel_host_part *parts, int count)
{
    parts_job job = {parts, count, 0};
    for (int k = 0; k < count; k++)
        job.total += parts[k].bytes;
    if (job.total < ((size_t)1 << 20))
        threads = 1;
    edgel_host_parallel(threads, copy_stripe, &job);
}
