/* libFuzzer target: the row writers (PNG, PGM, BigTIFF) and the command's streamed detect
 * (detect_tiled.c) on any file. The input, less its last OPTION_BYTES bytes (the options),
 * is the file. A writer's commit leaves the whole file and its abort nothing; the streamed
 * detect ends 0, 1 or 2 and leaves its output whole or not at all, and no temporary. */
#include "fuzz_file.h" /* first: it asks for memfd_create */
#include "cli.h"
#include "io/row_stream.h"

#include <fcntl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 4 };

/* The first channel of a few rows of the file, written through a writer to a name chosen
 * by the options, all rows or some, committed or aborted. */
static void write_rows(const char *path, const uint8_t *opt)
{
    edgel_row_reader *r;
    int64_t w, h;
    int cn;
    if (edgel_row_reader_open(path, (size_t)16 << 20, &r, &w, &h, &cn) != EDGEL_OK)
        return;
    const size_t px = (size_t)cn * edgel_pixel_size(edgel_row_reader_type(r));
    uint8_t *row = w <= 4096 ? malloc((size_t)w * px) : NULL, *gray = malloc((size_t)w);
    const int64_t rows = h < 8 ? h : 8;
    static const char *names[] = {"out.png", "out.pgm", "out.tif"};
    const char *name = names[opt[1] % 3];
    char out[128];
    snprintf(out, sizeof out, "%s/%s", fuzz_dir(), name);
    edgel_row_writer *wr;
    if (row && gray && edgel_row_writer_open(out, w, rows, &wr) == EDGEL_OK) {
        const int64_t put = opt[2] & 1 ? rows : opt[2] % (rows + 1); /* all rows, or some */
        edgel_status st = EDGEL_OK;
        for (int64_t y = 0; y < put && st == EDGEL_OK; y++) {
            if (edgel_row_reader_next(r, row) != EDGEL_OK)
                memset(row, (int)y, (size_t)w * px); /* rows past a broken one */
            for (int64_t x = 0; x < w; x++)
                gray[x] = row[(size_t)x * px];
            st = edgel_row_writer_put(wr, gray);
        }
        if (opt[2] & 2) {
            edgel_row_writer_abort(wr);
            fuzz_dir_expect(NULL);
        } else {
            st = edgel_row_writer_commit(wr); /* needs every row */
            if ((st == EDGEL_OK) != (put == rows))
                abort();
            fuzz_dir_expect(st == EDGEL_OK ? name : NULL);
        }
    }
    edgel_row_reader_close(r);
    free(row);
    free(gray);
}

/* `edgel detect IN -o OUT --tile WxH` within 8M of memory, either preset. */
static void streamed_detect(const char *path, const uint8_t *opt)
{
    char tile[32], out[128];
    snprintf(tile, sizeof tile, "%dx%d", 1 + opt[3] % 40, 1 + (opt[3] >> 2) % 40);
    snprintf(out, sizeof out, "%s/e.png", fuzz_dir());
    char *argv[] = {(char *)path, "-o", out, "--tile", tile, "-q", "--memory", "8M",
                    "--backend", "cpu", "--threads", "1", "--preset",
                    opt[0] & 4 ? "itk" : "opencv", NULL};
    /* the command's messages are not the target's: stderr aside while it runs */
    fflush(stderr);
    const int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 2);
    const int rc = cmd_detect((int)(sizeof argv / sizeof *argv) - 1, argv);
    fflush(stderr);
    if (saved >= 0)
        dup2(saved, 2), close(saved);
    if (null >= 0)
        close(null);
    if (rc != 0 && rc != 1 && rc != 2)
        abort();
    fuzz_dir_expect(rc == 0 ? "e.png" : NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < OPTION_BYTES + 8)
        return 0;
    const uint8_t *opt = data + size - OPTION_BYTES;
    char path[64];
    const int fd = fuzz_file(data, size - OPTION_BYTES, path, sizeof path);
    if (fd < 0)
        return 0;
    if (opt[0] & 1)
        write_rows(path, opt);
    else
        streamed_detect(path, opt);
    close(fd);
    return 0;
}
