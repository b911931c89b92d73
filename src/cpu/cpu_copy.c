/* Parallel row copies (the GPU backend's staging through pinned memory). */
#include "cpu/cpu.h"

#include <string.h>

void edgel_cpu_copy_rows(int threads, const uint8_t *src, size_t src_pitch, uint8_t *dst,
                         size_t dst_pitch, size_t row_bytes, int rows)
{
    /* Below about 1 MB a second thread costs more than it saves. */
    if ((size_t)rows * row_bytes < ((size_t)1 << 20))
        threads = 1;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int y = 0; y < rows; y++)
        memcpy(dst + (size_t)y * dst_pitch, src + (size_t)y * src_pitch, row_bytes);
}
