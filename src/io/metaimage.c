/*
 * MetaImage volumes (ITK's .mha and .mhd): a text header of "Key = Value" lines over raw,
 * optionally zlib-compressed voxels, in the same file (.mha, ElementDataFile = LOCAL) or a
 * file beside it (.mhd). Read: 2-D and 3-D images of one channel, binary data of any of
 * MetaIO's integer and float element types, either byte order; the header's other lines
 * (origin, orientation, transform) kept for the result. Written: .mha, uncompressed, with
 * the input's kept lines and the result's type. Sizes and memory are checked from the header
 * before any voxel is read; inflating stops at the expected size.
 */
#include "io/metaimage.h"

#include "io/io_common.h"
#include "io/voxel_layout.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum { MAX_LINE = 4096, MAX_HEADER = 1 << 16 };

struct edgel_metaimage_header {
    char *kept; /* the header lines the result keeps, each ending in '\n' */
    size_t kept_len;
    int ndims;
};

typedef struct element_type {
    const char *name;
    int bytes, is_float, is_signed;
} element_type;

static const element_type TYPES[] = {
    {"MET_UCHAR", 1, 0, 0}, {"MET_CHAR", 1, 0, 1},  {"MET_USHORT", 2, 0, 0},
    {"MET_SHORT", 2, 0, 1}, {"MET_UINT", 4, 0, 0},  {"MET_INT", 4, 0, 1},
    {"MET_FLOAT", 4, 1, 1}, {"MET_DOUBLE", 8, 1, 1}};

/* Keys this reader interprets (the result writes its own values for them). */
static const char *const OWN_KEYS[] = {
    "ObjectType", "NDims", "DimSize", "ElementType", "ElementDataFile", "BinaryData",
    "BinaryDataByteOrderMSB", "ElementByteOrderMSB", "CompressedData", "CompressedDataSize",
    "HeaderSize", "ElementNumberOfChannels", "ElementMin", "ElementMax"};

typedef struct parsed {
    int ndims, dims[3], msb, compressed, binary, channels;
    long long header_size;
    const element_type *type;
    double spacing[3];
    int have_spacing, have_size;
    char data_file[MAX_LINE];
} parsed;

static int is_true(const char *v)
{
    return !strcmp(v, "True") || !strcmp(v, "true") || !strcmp(v, "TRUE") || !strcmp(v, "1");
}

/* Up to `n` numbers of a value into out; how many were read (-1: something else there). */
static int numbers(const char *v, double *out, int n)
{
    int k = 0;
    while (*v) {
        char *end;
        const double d = strtod(v, &end);
        if (end == v)
            return -1;
        if (k < n)
            out[k] = d;
        k++;
        v = end;
        while (isspace((unsigned char)*v))
            v++;
    }
    return k;
}

static edgel_status read_header(FILE *f, const char *path, parsed *p,
                                edgel_metaimage_header *keep)
{
    memset(p, 0, sizeof *p);
    p->binary = 1, p->channels = 1;
    for (int i = 0; i < 3; i++)
        p->spacing[i] = 1.0;
    char line[MAX_LINE];
    size_t total = 0;
    int ended = 0;
    while (!ended && fgets(line, sizeof line, f)) {
        total += strlen(line);
        if (total > MAX_HEADER || (!strchr(line, '\n') && !feof(f)))
            return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the header's lines are longer than a "
                                 "MetaImage header's", path);
        char *eq = strpbrk(line, "=:"); /* (MetaIO ends a key at either) */
        if (!eq) {
            if (*edgel_io_trim(line))
                return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a MetaImage header (a line "
                                     "without '=' or ':')", path);
            continue;
        }
        *eq = '\0';
        char *key = edgel_io_trim(line), *value = edgel_io_trim(eq + 1);
        double d[4];
        char used[128];
        const char *kept_value = value;
        int own = 0;
        for (size_t i = 0; i < sizeof OWN_KEYS / sizeof *OWN_KEYS; i++)
            own |= !strcmp(key, OWN_KEYS[i]);
        if (!strcmp(key, "NDims")) {
            if (numbers(value, d, 1) != 1 || (d[0] != 2 && d[0] != 3))
                return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: NDims = %s: 2-D and 3-D "
                                     "images are read", path, value);
            p->ndims = (int)d[0];
        } else if (!strcmp(key, "DimSize")) {
            const int k = numbers(value, d, 3);
            if (k < 2 || k > 3)
                return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: DimSize = %s", path, value);
            for (int i = 0; i < 3; i++) {
                if (i < k && !(d[i] >= 1 && d[i] <= EDGEL_MAX_DIMENSION && d[i] == (int)d[i]))
                    return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: DimSize = %s: each side "
                                         "must be 1 to %d", path, value, EDGEL_MAX_DIMENSION);
                p->dims[i] = i < k ? (int)d[i] : 1;
            }
            p->have_size = k;
        } else if (!strcmp(key, "ElementSpacing") || (!strcmp(key, "ElementSize") &&
                                                      !p->have_spacing)) {
            const int k = numbers(value, d, 3);
            if (k < 2 || k > 3)
                return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: %s = %s", path, key, value);
            int bad = 0;
            for (int i = 0; i < k; i++) {
                bad |= !(d[i] > 0 && d[i] < 1e30);
                p->spacing[i] = d[i] > 0 && d[i] < 1e30 ? d[i] : 1.0;
            }
            if (bad) { /* what the result keeps: the values read (a bad one as 1, which ITK
                          takes; it refuses 0, negative and NaN spacings) */
                used[0] = '\0';
                for (int i = 0; i < k; i++)
                    snprintf(used + strlen(used), sizeof used - strlen(used), "%s%.17g",
                             i ? " " : "", p->spacing[i]);
                kept_value = used;
            }
            p->have_spacing = !strcmp(key, "ElementSpacing");
        } else if (!strcmp(key, "ElementType")) {
            p->type = NULL;
            for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
                if (!strcmp(value, TYPES[i].name))
                    p->type = &TYPES[i];
            if (!p->type)
                return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: ElementType = %s: integer "
                                     "and float elements are read", path, value);
        } else if (!strcmp(key, "BinaryData")) {
            p->binary = is_true(value);
        } else if (!strcmp(key, "BinaryDataByteOrderMSB") ||
                   !strcmp(key, "ElementByteOrderMSB")) {
            p->msb = is_true(value);
        } else if (!strcmp(key, "CompressedData")) {
            p->compressed = is_true(value);
        } else if (!strcmp(key, "HeaderSize")) {
            if (numbers(value, d, 1) != 1 || !(d[0] >= -1 && d[0] <= 1e15) ||
                d[0] != (double)(long long)d[0])
                return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: HeaderSize = %s", path, value);
            p->header_size = (long long)d[0];
        } else if (!strcmp(key, "ElementNumberOfChannels")) {
            if (numbers(value, d, 1) != 1 || d[0] != 1)
                return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: %s channels: one is read",
                                     path, value);
        } else if (!strcmp(key, "ElementDataFile")) {
            snprintf(p->data_file, sizeof p->data_file, "%s", value);
            ended = 1;
        }
        if (!own && keep) { /* kept for the result */
            char *grown = realloc(keep->kept, keep->kept_len + strlen(key) +
                                                  strlen(kept_value) + 5);
            if (!grown)
                return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            keep->kept = grown;
            keep->kept_len += (size_t)sprintf(grown + keep->kept_len, "%s = %s\n", key,
                                              kept_value);
        }
    }
    if (!ended || !p->type || p->have_size != (p->ndims ? p->ndims : p->have_size) ||
        !p->have_size)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a MetaImage header with NDims, "
                             "DimSize, ElementType and ElementDataFile", path);
    if (!p->binary)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: ASCII voxels: binary data is read",
                             path);
    return EDGEL_OK;
}

/* A parsed header's voxel layout (not yet where they lie). */
static edgel_voxel_layout layout_of(const parsed *p)
{
    edgel_voxel_layout l;
    memset(&l, 0, sizeof l);
    l.bytes = p->type->bytes, l.is_float = p->type->is_float, l.is_signed = p->type->is_signed;
    l.msb = p->msb, l.compressed = p->compressed;
    for (int i = 0; i < 3; i++)
        l.dims[i] = p->dims[i];
    return l;
}

edgel_status edgel_metaimage_layout(const char *path, edgel_voxel_layout *out,
                                    double spacing[3], edgel_metaimage_header **header)
{
    *header = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", path, strerror(errno));
    edgel_metaimage_header *keep = calloc(1, sizeof *keep);
    parsed p;
    edgel_status st = keep ? read_header(f, path, &p, keep)
                           : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    const long long end = ftell(f);
    fclose(f);
    if (st != EDGEL_OK) {
        edgel_metaimage_free(keep);
        return st;
    }
    *out = layout_of(&p);
    const double bytes = (double)p.dims[0] * p.dims[1] * p.dims[2] * p.type->bytes;
    if (!strcmp(p.data_file, "LOCAL")) {
        snprintf(out->file, sizeof out->file, "%s", path);
        out->offset = end;
    } else if (strchr(p.data_file, ' ') || !strcmp(p.data_file, "LIST")) {
        st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: voxels in a list of files are not "
                           "read", path);
    } else {
        st = edgel_voxels_data_file(path, p.data_file, out->file, sizeof out->file);
        struct stat s;
        out->offset = p.header_size;
        if (st == EDGEL_OK && p.header_size < 0) /* the last `bytes` bytes of the file */
            out->offset = stat(out->file, &s) == 0 ? (long long)s.st_size - (long long)bytes : -1;
    }
    if (st == EDGEL_OK && out->offset < 0)
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its voxels' file (%s) cannot be read", path,
                           p.data_file);
    if (out->compressed) /* the voxels are the stream, from its start */
        out->stream_start = out->offset, out->offset = 0;
    for (int i = 0; i < 3; i++)
        spacing[i] = p.spacing[i];
    keep->ndims = p.ndims ? p.ndims : p.have_size;
    if (st != EDGEL_OK) {
        edgel_metaimage_free(keep);
        return st;
    }
    *header = keep;
    return EDGEL_OK;
}

int edgel_metaimage_data_path(const char *path, char *out, size_t cap)
{
    const size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".mhd"))
        return 0;
    return snprintf(out, cap, "%.*s.raw", (int)(n - 4), path) < (int)cap;
}

edgel_status edgel_metaimage_write(const char *path, const edgel_volume *v, int fd,
                                   const edgel_metaimage_header *like)
{
    /* .mha: the voxels after the header; .mhd: in NAME.raw beside it, both files written
     * before either is renamed into place */
    char data_path[4096] = "";
    const int detached = edgel_metaimage_data_path(path, data_path, sizeof data_path);
    const char *slash = strrchr(data_path, '/');
    edgel_io_temporary t, d = {0};
    if (detached)
        EDGEL_IO_TRY(edgel_io_temporary_open(&d, data_path));
    const edgel_status opened = edgel_io_temporary_open(&t, path);
    if (opened != EDGEL_OK) {
        edgel_io_temporary_close(&d, 0, 0);
        return opened;
    }
    /* NDims first: the lengths of the kept lines' values depend on it */
    const int ndims = like && like->ndims == 2 && v->depth == 1 ? 2 : 3;
    int ok = fprintf(t.file, "ObjectType = Image\nNDims = %d\n%s", ndims,
                     like && like->kept ? like->kept : "") >= 0;
    char dims[64];
    snprintf(dims, sizeof dims, ndims == 2 ? "%d %d" : "%d %d %d", v->width, v->height,
             v->depth);
    ok &= fprintf(t.file,
                  "BinaryData = True\nBinaryDataByteOrderMSB = False\nCompressedData = False\n"
                  "DimSize = %s\nElementType = %s\nElementDataFile = %s\n",
                  dims, v->type == EDGEL_F32 ? "MET_FLOAT" : "MET_UCHAR",
                  detached ? (slash ? slash + 1 : data_path) : "LOCAL") >= 0;
    ok = ok && edgel_io_volume_chunks(v, fd, edgel_io_put_file, detached ? d.file : t.file);
    const int err = ok ? 0 : errno;
    if (detached) {
        const edgel_status st = edgel_io_temporary_close(&d, ok, err);
        if (st != EDGEL_OK) {
            edgel_io_temporary_close(&t, 0, 0);
            return st;
        }
    }
    const edgel_status st = edgel_io_temporary_close(&t, ok, err);
    if (st != EDGEL_OK && detached)
        unlink(data_path); /* (no header names it) */
    return st;
}

void edgel_metaimage_free(edgel_metaimage_header *h)
{
    if (h)
        free(h->kept);
    free(h);
}
