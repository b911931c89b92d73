/* libFuzzer target: the row readers (TIFF and BigTIFF through libtiff, PNG, PGM/PPM), as
 * the command's streamed detect uses them, on any file: opened within a memory limit,
 * read a few rows, opened again and read again (the second pass), the same rows both
 * times. A refusal leaves a message; every row is read within the reader's buffers. */
#include "fuzz_file.h"
#include "io/row_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define READER_LIMIT ((size_t)16 << 20)
#define READ_LIMIT ((size_t)1 << 18) /* the bytes of rows read in one pass */

/* Rows of the file at `path` into `rows` (NULL: allocated, *bytes set), `*row` bytes each;
 * the rows read, or -1 where the file is refused. */
static int64_t read_rows(const char *path, uint8_t **rows, size_t *bytes, size_t *row_bytes)
{
    edgel_row_reader *r;
    int64_t w, h;
    int cn;
    if (edgel_row_reader_open(path, READER_LIMIT, &r, &w, &h, &cn) != EDGEL_OK) {
        if (edgel_io_last_error()[0] == 0)
            abort(); /* every refusal explains itself */
        return -1;
    }
    const size_t row = (size_t)w * (size_t)cn * edgel_pixel_size(edgel_row_reader_type(r));
    *row_bytes = row;
    int64_t n = h < 8 ? h : 8;
    if (row * (size_t)n > READ_LIMIT)
        n = (int64_t)(READ_LIMIT / row);
    if (!*rows) {
        *bytes = row * (size_t)n;
        *rows = malloc(*bytes ? *bytes : 1);
    } else if (*bytes != row * (size_t)n) {
        abort(); /* the same file, another size */
    }
    int64_t got = 0;
    while (*rows && got < n && edgel_row_reader_next(r, *rows + (size_t)got * row) == EDGEL_OK)
        got++;
    edgel_row_reader_close(r);
    return got;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    uint8_t *first = NULL, *second = NULL;
    size_t bytes = 0, row = 0;
    const int64_t got = read_rows(path, &first, &bytes, &row);
    if (got > 0) {
        second = malloc(bytes);
        size_t again = bytes;
        if (second && (read_rows(path, &second, &again, &row) != got ||
                       memcmp(first, second, (size_t)got * row) != 0))
            abort(); /* a second pass reads what the first read */
    }
    free(first);
    free(second);
    close(fd);
    return 0;
}
