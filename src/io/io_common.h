/*
 * What the image and volume files share (io_common.c), below the formats and the dispatchers
 * that choose among them (image_io.c, volume_io.c), so that no format calls back up into its
 * dispatcher: the calling thread's error message, allocation within the caller's limits,
 * format identification from bytes or a name, files written all or nothing (a temporary
 * renamed over the target) and scratch files that leave nothing behind.
 */
#ifndef EDGEL_IO_IO_COMMON_H
#define EDGEL_IO_IO_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Files larger than this are refused. */
#define EDGEL_IO_MAX_FILE_BYTES ((size_t)1 << 32)

typedef enum edgel_file_format {
    EDGEL_FILE_UNKNOWN = 0,
    EDGEL_FILE_PNG,
    EDGEL_FILE_JPEG,
    EDGEL_FILE_PNM, /* P5 / P6 */
    EDGEL_FILE_PFM,
    EDGEL_FILE_TIFF /* TIFF and BigTIFF, through libtiff (row_stream.c) */
} edgel_file_format;

/*
 * What a reader accepts, checked from the header before any pixel is decoded (a file outside
 * them costs no more than its header): the decoded image's bytes, its pixel types and
 * channel counts. Zero members mean no limit beyond the library's sizes. `wants` says what
 * the caller needs, for the message when a type or channel count is refused.
 */
typedef struct edgel_io_limits {
    size_t max_image_bytes;
    unsigned types;         /* bits 1u << edgel_pixel_type */
    unsigned channels;      /* bits 1u << channels, of 8-bit images */
    unsigned wide_channels; /* the same for 16-bit and float images (0: as `channels`) */
    const char *wants;
} edgel_io_limits;

edgel_file_format edgel_io_sniff(const void *bytes, size_t size);
edgel_file_format edgel_io_format_for_path(const char *path);

void edgel_io_free(edgel_image *img);

/* A file written all or nothing: a temporary beside `path`, renamed over it by a successful
 * close; removed by a failed one (ok = 0; err: the errno to report, 0 for none). */
typedef struct edgel_io_temporary {
    FILE *file;
    const char *path;
    char name[4096];
} edgel_io_temporary;
edgel_status edgel_io_temporary_open(edgel_io_temporary *t, const char *path);
/* The same with a name ending in `suffix` (for writers that go by the file's extension). */
edgel_status edgel_io_temporary_open_as(edgel_io_temporary *t, const char *path,
                                        const char *suffix);
edgel_status edgel_io_temporary_close(edgel_io_temporary *t, int ok, int err);
/* A scratch file beside `beside` (a brick's or band's worth of work on disk), open for
 * reading and writing, with no name left in the folder once open (O_TMPFILE, or unlinked at
 * once), so that nothing of it outlives the process, however it ends; `suffix` names it in
 * messages. */
edgel_status edgel_io_scratch_open(edgel_io_temporary *t, const char *beside,
                                   const char *suffix);
/* Closes a scratch file (its space returns to the file system). */
void edgel_io_temporary_discard(edgel_io_temporary *t);
/* All `n` bytes written at (read from) `offset` of a file (a scratch file's pieces): 0 when
 * the system refuses (errno says why) or the file ends first. */
int edgel_io_write_at(int fd, const void *bytes, size_t n, long long offset);
int edgel_io_read_at(int fd, void *bytes, size_t n, long long offset);
/* Removes the temporaries open now; async-signal-safe, for a handler of SIGINT, SIGTERM or
 * SIGHUP that then ends the process (a program's own, never the library's). */
void edgel_io_remove_temporaries(void);

#define EDGEL_IO_TRY(expr)                      \
    do {                                        \
        const edgel_status io_try_ = (expr);    \
        if (io_try_ != EDGEL_OK)                \
            return io_try_;                     \
    } while (0)

/* Message of the calling thread's last failed io call. */
const char *edgel_io_last_error(void);
edgel_status edgel_io_fail(edgel_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Allocates a packed host image, refusing sizes beyond the library limits. */
edgel_status edgel_io_alloc(edgel_image *out, long long width, long long height, int channels,
                            edgel_pixel_type type, const char *what);
/* The same for a decoder, after its header: also refuses what `limits` exclude
 * (EDGEL_ERROR_UNSUPPORTED for a type or channel count, EDGEL_ERROR_OUT_OF_MEMORY for a size
 * beyond max_image_bytes). */
edgel_status edgel_io_alloc_decoded(edgel_image *out, long long width, long long height,
                                    int channels, edgel_pixel_type type, const char *what,
                                    const edgel_io_limits *limits);
/* "12.5 MB": bytes for messages. */
const char *edgel_io_format_bytes(double bytes, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
