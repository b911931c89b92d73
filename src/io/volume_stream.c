/* Volume files larger than memory (io/volume_stream.h). */
#define _GNU_SOURCE /* pread, pwrite, fileno */
#include "io/volume_stream.h"

#include "io/tiff_stack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The voxels of a compressed stream (zlib or gzip) into the scratch file: `offset` bytes of
 * the decompressed stream skipped, then the volume's bytes. */
static edgel_status decompress(edgel_volume_source *s, const char *path, const char *beside)
{
    const edgel_voxel_layout *l = &s->layout;
    const size_t want = (size_t)l->dims[0] * l->dims[1] * l->dims[2] * (size_t)l->bytes;
    EDGEL_IO_TRY(edgel_io_scratch_open(&s->scratch, beside, ".voxels"));
    struct statvfs fs; /* room for the copy, before inflating any of it */
    if (fstatvfs(fileno(s->scratch.file), &fs) == 0 &&
        (double)fs.f_bavail * (double)fs.f_frsize < (double)want)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: its voxels take %.0f MB decompressed, more "
                             "than the %.0f MB free beside %s for the scratch copy", path,
                             want / 1e6, (double)fs.f_bavail * (double)fs.f_frsize / 1e6, beside);
    FILE *in = fopen(l->file, "rb");
    if (!in)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", l->file, strerror(errno));
    errno = 0;
    int ok = fseeko(in, (off_t)l->stream_start, SEEK_SET) == 0 &&
             edgel_voxels_inflate(in, l->offset, want, edgel_io_put_file, s->scratch.file);
    const int written = !ferror(s->scratch.file) && fflush(s->scratch.file) == 0;
    const int err = errno;
    fclose(in);
    if (!written)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: the scratch copy of its voxels beside %s "
                             "could not be written (%s)", path, beside,
                             strerror(err ? err : EIO));
    if (!ok)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its compressed voxels are cut short or "
                             "damaged", path);
    s->fd = dup(fileno(s->scratch.file));
    if (s->fd < 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", s->scratch.name, strerror(errno));
    s->layout.offset = 0;
    return EDGEL_OK;
}

edgel_status edgel_io_open_volume_source(const char *path, const char *beside,
                                         size_t max_bytes, edgel_volume_source *s)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (edgel_io_volume_format(path) == EDGEL_VOLUME_TIFF) { /* boxes through libtiff */
        edgel_tiff_header *h = NULL;
        EDGEL_IO_TRY(edgel_tiff_stack_open(path, max_bytes, &s->tiff, &s->file.volume,
                                           s->file.spacing, &h));
        s->file.header = h, s->file.format = EDGEL_VOLUME_TIFF;
        return EDGEL_OK;
    }
    EDGEL_IO_TRY(edgel_io_volume_layout(path, &s->layout, &s->file));
    if (s->layout.compressed)
        return decompress(s, path, beside);
    s->fd = open(s->layout.file, O_RDONLY);
    if (s->fd < 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", s->layout.file, strerror(errno));
    const edgel_voxel_layout *l = &s->layout;
    struct stat st;
    if (fstat(s->fd, &st) != 0 ||
        (double)st.st_size < (double)l->offset +
                                 (double)l->dims[0] * l->dims[1] * l->dims[2] * l->bytes)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the voxels are cut short (a truncated "
                             "file)", l->file);
    return EDGEL_OK;
}

edgel_status edgel_io_volume_source_read(edgel_volume_source *s, int64_t x, int64_t y, int64_t z,
                                         const edgel_volume *dst)
{
    if (s->tiff)
        return edgel_tiff_stack_read(s->tiff, x, y, z, dst);
    const edgel_voxel_layout *l = &s->layout;
    const size_t bytes = (size_t)dst->width * (size_t)l->bytes;
    if (bytes > s->row_cap) {
        uint8_t *row = realloc(s->row, bytes);
        if (!row)
            return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a row of voxels");
        s->row = row, s->row_cap = bytes;
    }
    const edgel_pixel_type type = s->file.volume.type;
    const int kept = edgel_voxels_kept(l, type), as_stored = kept && !l->msb;
    /* whole slices of a packed view as stored: one read a slice */
    const int slices = as_stored && dst->width == l->dims[0] && dst->height == l->dims[1] &&
                       dst->pitch == bytes && dst->slice_pitch == bytes * (size_t)dst->height;
    for (int k = 0; k < dst->depth; k++)
        for (int j = 0; j < dst->height; j += slices ? dst->height : 1) {
            const long long at = l->offset + ((((long long)z + k) * l->dims[1] + y + j) *
                                                  l->dims[0] + x) * l->bytes;
            uint8_t *out = (uint8_t *)dst->data + (size_t)k * dst->slice_pitch +
                           (size_t)j * dst->pitch;
            if (!edgel_io_read_at(s->fd, kept ? out : s->row, slices ? dst->slice_pitch : bytes, at))
                return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the voxels are cut short (a "
                                     "truncated file)", l->file);
            if (!as_stored)
                edgel_voxels_convert(l, type, kept ? out : s->row, (size_t)dst->width, out);
        }
    return EDGEL_OK;
}

void edgel_io_close_volume_source(edgel_volume_source *s)
{
    if (s->fd >= 0)
        close(s->fd);
    edgel_tiff_stack_close(s->tiff);
    edgel_io_temporary_discard(&s->scratch);
    free(s->row);
    edgel_io_free_volume(&s->file);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

edgel_status edgel_io_open_volume_sink(const char *path, int64_t width, int64_t height,
                                       int64_t depth, edgel_volume_sink *s)
{
    memset(s, 0, sizeof *s);
    s->width = width, s->height = height, s->depth = depth;
    EDGEL_IO_TRY(edgel_io_scratch_open(&s->scratch, path, ".edges"));
    if (ftruncate(fileno(s->scratch.file), (off_t)(width * height * depth)) != 0) {
        const int err = errno;
        edgel_io_temporary_discard(&s->scratch);
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: no room beside it for the edges (%s)", path,
                             strerror(err));
    }
    return EDGEL_OK;
}

edgel_status edgel_io_volume_sink_put(edgel_volume_sink *s, int64_t x, int64_t y, int64_t z,
                                      const edgel_volume *v)
{
    const int fd = fileno(s->scratch.file);
    /* whole slices: one write a slice */
    const int rows = v->width == s->width && v->pitch == (size_t)v->width ? v->height : 1;
    const size_t n = (size_t)v->width * (size_t)rows;
    if (n > s->row_cap) {
        uint8_t *row = realloc(s->row, n);
        if (!row)
            return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a row of edges");
        s->row = row, s->row_cap = n;
    }
    for (int k = 0; k < v->depth; k++)
        for (int j = 0; j < v->height; j += rows) {
            const uint8_t *in = (const uint8_t *)v->data + (size_t)k * v->slice_pitch +
                                (size_t)j * v->pitch;
            for (size_t i = 0; i < n; i++)
                s->row[i] = in[i] != 0;
            if (!edgel_io_write_at(fd, s->row, n, ((z + k) * s->height + y + j) * s->width + x))
                return edgel_io_fail(EDGEL_ERROR_IO, "%s: the edges could not be stored (%s)",
                                     s->scratch.name, strerror(errno));
        }
    return EDGEL_OK;
}

edgel_status edgel_io_finish_volume_sink(edgel_volume_sink *s, const char *path,
                                         const edgel_volume_file *like)
{
    if (fflush(s->scratch.file) != 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", s->scratch.name, strerror(errno));
    const int fd = dup(fileno(s->scratch.file)); /* (read back with pread) */
    if (fd < 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", s->scratch.name, strerror(errno));
    const edgel_volume v = {NULL, (int32_t)s->width, (int32_t)s->height, (int32_t)s->depth,
                            (size_t)s->width, (size_t)(s->width * s->height), EDGEL_U8,
                            EDGEL_MEMORY_HOST};
    const edgel_status st = edgel_io_write_volume_file(path, &v, fd, like);
    close(fd);
    edgel_io_discard_volume_sink(s);
    return st;
}

void edgel_io_discard_volume_sink(edgel_volume_sink *s)
{
    edgel_io_temporary_discard(&s->scratch);
    free(s->row);
    s->row = NULL, s->row_cap = 0;
}
