/* Internal to the volume files: where and how a file stores its voxels, so that boxes of them
 * can be read without the whole volume (volume_stream.c), and the conversion of one stored
 * voxel to a double. */
#ifndef EDGEL_IO_VOXEL_LAYOUT_H
#define EDGEL_IO_VOXEL_LAYOUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "edgel.h"

typedef struct edgel_voxel_layout {
    char file[8192];         /* the file that holds the voxels */
    long long stream_start;  /* where a compressed stream starts (zlib or gzip) */
    long long offset;        /* where the voxels start: in the file, or in the decompressed
                                stream where compressed */
    int compressed;
    int dims[3];
    int bytes, is_float, is_signed, msb; /* a stored voxel */
    int scaled;                          /* value * slope + inter (NIfTI's scaling) */
    int finite_only;                     /* NaN and infinities read as 0 (as nifticlib) */
    double slope, inter;
} edgel_voxel_layout;

/* The stored voxel at b as a double. */
static inline double edgel_voxel_value(const uint8_t *b, const edgel_voxel_layout *l)
{
    uint8_t v[8];
    for (int i = 0; i < l->bytes; i++) /* to this machine's order (little-endian) */
        v[i] = l->msb ? b[l->bytes - 1 - i] : b[i];
    if (l->is_float) {
        if (l->bytes == 4) {
            float x;
            memcpy(&x, v, 4);
            return x;
        }
        double x;
        memcpy(&x, v, 8);
        return x;
    }
    uint64_t u = 0;
    memcpy(&u, v, (size_t)l->bytes);
    if (l->is_signed && l->bytes < 8 && (u >> (8 * l->bytes - 1)) & 1)
        return (double)(int64_t)(u | ~((1ull << (8 * l->bytes)) - 1));
    return (double)u;
}

/* The type a volume of this layout is read as: u8, u16 and f32 as they are, others (and
 * scaled ones) f32. */
edgel_pixel_type edgel_voxel_type(const edgel_voxel_layout *l);
/* Whether voxels of this layout are read as stored (at most swapped) into `type`. */
int edgel_voxels_kept(const edgel_voxel_layout *l, edgel_pixel_type type);
/* `n` stored voxels at `in` into `out` as `type` (in == out only where kept). */
void edgel_voxels_convert(const edgel_voxel_layout *l, edgel_pixel_type type, const uint8_t *in,
                          size_t n, void *out);
/* Inflates the zlib or gzip stream at f's position: `skip` bytes dropped, then the next
 * `bytes` bytes given to put(user, chunk, n) in order; no more of the stream is inflated
 * than that. 1 when all of them came out and put took them. */
int edgel_voxels_inflate(FILE *f, long long skip, size_t bytes,
                         int (*put)(void *user, const void *bytes, size_t n), void *user);
/* The whole volume a layout describes (packed host memory, owned), refused before reading
 * when the stored voxels and a converted copy would pass `max_bytes` (0: no limit). */
edgel_status edgel_voxels_read_whole(const char *path, const edgel_voxel_layout *l,
                                     size_t max_bytes, edgel_volume *out);

/* Where a header's detached data file may lie (a process-wide setting of the command):
 * BESIDE (the default) reads only regular files in the header's own folder or below it, named
 * relative to it, never through a link that leaves it; ANYWHERE follows the formats'
 * convention (absolute paths, "..", devices), as ITK and pynrrd do. */
typedef enum edgel_data_files { EDGEL_DATA_FILES_BESIDE = 0, EDGEL_DATA_FILES_ANYWHERE } edgel_data_files;
void edgel_io_set_data_files(edgel_data_files where);
/* The path of the data file `name` that the header `header` names, into `out` (relative to the
 * header's folder), checked against the setting; a status and message naming both where it is
 * refused or cannot be opened. */
edgel_status edgel_voxels_data_file(const char *header, const char *name, char *out,
                                    size_t cap);
/* `s` without its leading and trailing white space (a header line's key or value). */
char *edgel_io_trim(char *s);
/* fwrite's put for edgel_io_volume_chunks: `file` is a FILE *. */
int edgel_io_put_file(void *file, const void *bytes, size_t n);
/* Passes the voxels of `v` (raster order, x fastest), or when `fd` >= 0 those stored packed
 * in that file from its start, to put(user, bytes, n) in chunks; 0 when put or a read fails
 * (volume_io.c). */
int edgel_io_volume_chunks(const edgel_volume *v, int fd,
                           int (*put)(void *user, const void *bytes, size_t n), void *user);

#endif
