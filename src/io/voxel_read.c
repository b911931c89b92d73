/* Voxels that a layout describes (io/voxel_layout.h): their type once read, rows converted to
 * it, and a whole volume read into memory, for every volume format with a plain header. */
#define _GNU_SOURCE /* fseeko */
#include "io/voxel_layout.h"

#include "io/io_common.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static _Atomic int data_files = EDGEL_DATA_FILES_BESIDE;

void edgel_io_set_data_files(edgel_data_files where)
{
    data_files = where;
}

edgel_status edgel_voxels_data_file(const char *header, const char *name, char *out, size_t cap)
{
    const char *slash = strrchr(header, '/');
    const int absolute = name[0] == '/';
    if ((absolute || !slash ? snprintf(out, cap, "%s", name)
                            : snprintf(out, cap, "%.*s/%s", (int)(slash - header), header,
                                       name)) >= (int)cap)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its data file's name is too long", header);
    if (data_files == EDGEL_DATA_FILES_ANYWHERE)
        return EDGEL_OK;
    /* beside: a relative name whose real path lies within the header's folder's, of a regular
     * file */
    char folder[PATH_MAX], real[PATH_MAX], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - header + 1) : 1, slash ? header : ".");
    struct stat st;
    const int inside = !absolute && realpath(dir, folder) && realpath(out, real) &&
                       !strncmp(real, folder, strlen(folder)) &&
                       (real[strlen(folder)] == '/' || !strcmp(folder, "/"));
    if (!inside)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: its data file '%s' is not in the "
                             "header's folder (%s); such files are read only when allowed "
                             "(edgel detect --data-files anywhere)", header, name,
                             errno == ENOENT ? "or does not exist" : "or cannot be resolved");
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: its data file '%s' is not a regular "
                             "file; such files are read only when allowed (edgel detect "
                             "--data-files anywhere)", header, name);
    return EDGEL_OK;
}

edgel_pixel_type edgel_voxel_type(const edgel_voxel_layout *l)
{
    /* u8, u16 and f32 as they are, other types as f32 (as ITK's reader gives a float image) */
    const int kept = !l->scaled && ((!l->is_float && !l->is_signed && l->bytes <= 2) ||
                                    (l->is_float && l->bytes == 4));
    return !kept ? EDGEL_F32 : l->bytes == 1 ? EDGEL_U8 : l->bytes == 2 ? EDGEL_U16 : EDGEL_F32;
}

int edgel_voxels_kept(const edgel_voxel_layout *l, edgel_pixel_type type)
{
    return !l->scaled && !l->finite_only && (size_t)l->bytes == edgel_pixel_size(type) &&
           (type != EDGEL_F32 || (l->is_float && l->bytes == 4));
}

void edgel_voxels_convert(const edgel_voxel_layout *l, edgel_pixel_type type, const uint8_t *in,
                          size_t n, void *out)
{
    if (edgel_voxels_kept(l, type)) { /* swapped where big-endian: never through a double,
                                         which would change a NaN's bits */
        uint8_t *o = out;
        const size_t b = (size_t)l->bytes;
        if (o != in)
            memmove(o, in, n * b);
        for (size_t i = 0; l->msb && i < n * b; i += b)
            for (size_t k = 0; k < b / 2; k++) {
                const uint8_t t = o[i + k];
                o[i + k] = o[i + b - 1 - k], o[i + b - 1 - k] = t;
            }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        double v = edgel_voxel_value(in + i * (size_t)l->bytes, l);
        if (l->finite_only && !isfinite(v))
            v = 0.0;
        if (type == EDGEL_U8)
            ((uint8_t *)out)[i] = (uint8_t)v;
        else if (type == EDGEL_U16)
            ((uint16_t *)out)[i] = (uint16_t)v;
        else /* the scaling in double, then float */
            ((float *)out)[i] = (float)(l->scaled ? v * l->slope + l->inter : v);
    }
}

int edgel_voxels_inflate(FILE *f, long long skip, size_t bytes,
                         int (*put)(void *user, const void *bytes, size_t n), void *user)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    enum { CHUNK = 1 << 20 };
    uint8_t *in = malloc(CHUNK), *out = malloc(CHUNK);
    int ok = in && out && inflateInit2(&z, 15 + 32) == Z_OK; /* (32: zlib or gzip, by its
                                                                 header) */
    const int started = ok;
    size_t done = 0;
    int rc = Z_OK;
    while (ok && done < bytes && rc != Z_STREAM_END) {
        if (z.avail_in == 0) {
            z.avail_in = (uInt)fread(in, 1, CHUNK, f);
            z.next_in = in;
            if (z.avail_in == 0)
                break;
        }
        /* no more out than the voxels need: what follows them is never inflated */
        const unsigned long long need = (unsigned long long)skip + (bytes - done);
        const uInt room = need < CHUNK ? (uInt)need : CHUNK;
        z.next_out = out, z.avail_out = room;
        rc = inflate(&z, Z_NO_FLUSH);
        const size_t made = room - z.avail_out;
        const size_t drop = (unsigned long long)skip < made ? (size_t)skip : made;
        skip -= (long long)drop;
        if (made > drop)
            ok = put(user, out + drop, made - drop);
        done += made - drop;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            break;
    }
    if (started)
        inflateEnd(&z);
    free(in), free(out);
    return ok && done == bytes;
}

typedef struct memory_sink {
    uint8_t *at;
} memory_sink;

static int put_memory(void *user, const void *bytes, size_t n)
{
    memory_sink *m = user;
    memcpy(m->at, bytes, n);
    m->at += n;
    return 1;
}

/* `bytes` bytes of stored voxels from f: raw, or inflated after l->offset bytes of the
 * stream. */
static edgel_status read_stored(FILE *f, const char *path, const edgel_voxel_layout *l,
                                uint8_t *out, size_t bytes)
{
    if (!l->compressed) {
        if (fread(out, 1, bytes, f) != bytes)
            return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the voxels are cut short (a "
                                 "truncated file)", path);
        return EDGEL_OK;
    }
    memory_sink m = {out};
    if (!edgel_voxels_inflate(f, l->offset, bytes, put_memory, &m))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the compressed voxels are cut short or "
                             "damaged", path);
    return EDGEL_OK;
}

edgel_status edgel_voxels_read_whole(const char *path, const edgel_voxel_layout *l,
                                     size_t max_bytes, edgel_volume *out)
{
    memset(out, 0, sizeof *out);
    const size_t voxels = (size_t)l->dims[0] * l->dims[1] * l->dims[2];
    const edgel_pixel_type type = edgel_voxel_type(l);
    const int kept = edgel_voxels_kept(l, type);
    if ((double)voxels > (double)EDGEL_MAX_VOXELS)
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %zu voxels, more than a volume may "
                             "hold", path, voxels);
    const double need = (double)voxels * (l->bytes + (kept ? 0 : edgel_pixel_size(type)));
    if (max_bytes && need > (double)max_bytes)
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE,
                             "%s: %dx%dx%d voxels take %.0f MB to read, more than the %.0f MB "
                             "allowed (--memory)", path, l->dims[0], l->dims[1], l->dims[2],
                             need / 1e6, max_bytes / 1e6);
    FILE *f = fopen(l->file, "rb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its voxels' file (%s) cannot be opened "
                             "(%s)", path, l->file, strerror(errno));
    const size_t stored = voxels * (size_t)l->bytes;
    uint8_t *raw = malloc(stored ? stored : 1);
    edgel_status st = raw ? EDGEL_OK
                          : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (st == EDGEL_OK &&
        fseeko(f, (off_t)(l->compressed ? l->stream_start : l->offset), SEEK_SET) != 0)
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the voxels are cut short (a truncated "
                           "file)", path);
    if (st == EDGEL_OK)
        st = read_stored(f, path, l, raw, stored);
    fclose(f);
    void *data = raw;
    if (st == EDGEL_OK && !kept) {
        data = malloc(voxels * edgel_pixel_size(type) + 1);
        if (!data)
            st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    if (st == EDGEL_OK)
        edgel_voxels_convert(l, type, raw, voxels, data);
    if (data != raw)
        free(raw);
    if (st != EDGEL_OK) {
        free(data);
        return st;
    }
    *out = edgel_volume_host(data, l->dims[0], l->dims[1], l->dims[2], type);
    return EDGEL_OK;
}

int edgel_io_volume_chunks(const edgel_volume *v, int fd,
                           int (*put)(void *user, const void *bytes, size_t n), void *user)
{
    const size_t row = (size_t)v->width * edgel_pixel_size(v->type);
    if (fd < 0) {
        for (int z = 0; z < v->depth; z++)
            for (int y = 0; y < v->height; y++)
                if (!put(user, (const uint8_t *)v->data + (size_t)z * v->slice_pitch +
                                   (size_t)y * v->pitch, row))
                    return 0;
        return 1;
    }
    enum { CHUNK = 1 << 22 };
    uint8_t *buf = malloc(CHUNK);
    size_t left = row * (size_t)v->height * (size_t)v->depth;
    off_t at = 0;
    int ok = buf != NULL;
    while (ok && left) {
        const size_t n = left < CHUNK ? left : CHUNK;
        ok = pread(fd, buf, n, at) == (ssize_t)n && put(user, buf, n);
        left -= n, at += (off_t)n;
    }
    free(buf);
    return ok;
}

char *edgel_io_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int edgel_io_put_file(void *file, const void *bytes, size_t n)
{
    return fwrite(bytes, 1, n, file) == n;
}
