/*
 * NRRD volumes (.nrrd with the voxels attached, .nhdr with a detached data file): a text
 * header of "field: value" lines after a NRRD000x magic line, ended by a blank line, over raw
 * or gzip-compressed voxels. Read: 2-D and 3-D scalar images of any integer or float type,
 * either endianness, spacing from "spacings" or the lengths of "space directions"; the other
 * fields (space, directions, origin, units, key/value pairs) kept for the result. Written:
 * .nrrd, raw or gzip as the input was, with the input's kept fields and the result's type.
 * Sizes and memory are checked from the header before any voxel is read.
 */
#define _GNU_SOURCE /* fileno */
#include "io/nrrd.h"

#include "io/io_common.h"
#include "io/voxel_layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum { MAX_LINE = 4096, MAX_HEADER = 1 << 16 };

struct edgel_nrrd_header {
    char *kept; /* the fields the result keeps, each line ending in '\n' */
    size_t kept_len;
    int gzip;      /* the input's encoding was gzip: so is the result's */
    int dimension; /* the input's (2 or 3): the kept per-axis fields have as many values */
};

typedef struct nrrd_type {
    const char *names;
    int bytes, is_float, is_signed;
} nrrd_type;

/* NRRD's type names, '|'-separated with their synonyms. */
static const nrrd_type TYPES[] = {
    {"|uchar|unsigned char|uint8|uint8_t|", 1, 0, 0},
    {"|signed char|int8|int8_t|", 1, 0, 1},
    {"|short|short int|signed short|signed short int|int16|int16_t|", 2, 0, 1},
    {"|ushort|unsigned short|unsigned short int|uint16|uint16_t|", 2, 0, 0},
    {"|int|signed int|int32|int32_t|", 4, 0, 1},
    {"|uint|unsigned int|uint32|uint32_t|", 4, 0, 0},
    {"|longlong|long long|long long int|signed long long|signed long long int|int64|int64_t|",
     8, 0, 1},
    {"|ulonglong|unsigned long long|unsigned long long int|uint64|uint64_t|", 8, 0, 0},
    {"|float|", 4, 1, 1},
    {"|double|", 8, 1, 1}};

/* NRRD's fields as teem knows them, '|'-separated with their synonyms, matched without regard
 * to case as teem matches them; a field given twice is refused, as teem refuses it. OWN: this
 * reader interprets the field (the result writes its own value, or none), so it is never
 * copied into the result. */
enum { OWN = 1 };
static const struct {
    const char *names;
    int own;
} FIELDS[] = {
    {"|type|", OWN}, {"|dimension|", OWN}, {"|sizes|", OWN}, {"|endian|", OWN},
    {"|encoding|", OWN}, {"|data file|datafile|", OWN}, {"|line skip|lineskip|", OWN},
    {"|byte skip|byteskip|", OWN}, {"|min|", OWN}, {"|max|", OWN}, {"|old min|oldmin|", OWN},
    {"|old max|oldmax|", OWN}, {"|content|", OWN}, {"|block size|blocksize|", OWN},
    {"|number|", OWN}, {"|spacings|", 0}, {"|space directions|", 0}, {"|space|", 0},
    {"|space dimension|", 0}, {"|space units|", 0}, {"|space origin|", 0},
    {"|measurement frame|", 0}, {"|thicknesses|", 0}, {"|axis mins|axismins|", 0},
    {"|axis maxs|axismaxs|", 0}, {"|centers|centerings|", 0}, {"|kinds|", 0}, {"|labels|", 0},
    {"|units|", 0}, {"|sample units|sampleunits|", 0}};
enum { NFIELDS = sizeof FIELDS / sizeof *FIELDS };

/* Whether `names` ('|'-separated) holds `word`, case aside. */
static int names_hold(const char *names, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = names; (p = strchr(p, '|')) && p[1]; p++)
        if (!strncasecmp(p + 1, word, n) && p[1 + n] == '|')
            return 1;
    return 0;
}

/* Whether FIELDS[known] is the field `name`. */
static int is_field(int known, const char *name)
{
    return names_hold(FIELDS[known].names, name);
}

/* The index in FIELDS of a field name, or -1. */
static int field_index(const char *name)
{
    for (int i = 0; i < NFIELDS; i++)
        if (names_hold(FIELDS[i].names, name))
            return i;
    return -1;
}

static int keep_line(edgel_nrrd_header *h, const char *line)
{
    const size_t n = strlen(line);
    char *grown = realloc(h->kept, h->kept_len + n + 2);
    if (!grown)
        return 0;
    h->kept = grown;
    memcpy(grown + h->kept_len, line, n);
    grown[h->kept_len + n] = '\n';
    h->kept_len += n + 1;
    grown[h->kept_len] = '\0';
    return 1;
}

/* The integers of a value (up to 4): how many; -1 where something else is there. */
static int integers(const char *v, long long *out)
{
    int k = 0;
    while (*v) {
        char *end;
        errno = 0;
        const long long x = strtoll(v, &end, 10);
        if (end == v || errno || k == 4)
            return -1;
        out[k++] = x;
        v = end;
        while (isspace((unsigned char)*v))
            v++;
    }
    return k;
}

/* The length of each vector of "space directions: (a,b,c) (d,e,f) ..." ("none": 0). */
static int direction_lengths(const char *v, double *out, int max)
{
    int k = 0;
    while (*v && k < max) {
        while (isspace((unsigned char)*v))
            v++;
        if (!strncasecmp(v, "none", 4)) {
            out[k++] = 0.0, v += 4;
            continue;
        }
        if (*v != '(')
            return -1;
        double sum = 0.0;
        v++;
        for (;;) {
            char *end;
            const double x = strtod(v, &end);
            if (end == v)
                return -1;
            sum += x * x;
            v = end;
            while (isspace((unsigned char)*v))
                v++;
            if (*v == ',') {
                v++;
                continue;
            }
            if (*v != ')')
                return -1;
            v++;
            break;
        }
        out[k++] = sqrt(sum);
    }
    return k;
}

edgel_status edgel_nrrd_layout(const char *path, edgel_voxel_layout *l, double spacing[3],
                               edgel_nrrd_header **header)
{
    *header = NULL;
    memset(l, 0, sizeof *l);
    FILE *f = fopen(path, "rb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", path, strerror(errno));
    edgel_nrrd_header *h = calloc(1, sizeof *h);
    char line[MAX_LINE], data_file[MAX_LINE] = "";
    const nrrd_type *type = NULL;
    long long sizes[4] = {0}, line_skip = 0, byte_skip = 0;
    int dimension = 0, nsizes = 0, endian = -1, encoding = -1, have_spacing = 0;
    unsigned char seen[NFIELDS] = {0};
    size_t total = 0;
    edgel_status st = h ? EDGEL_OK
                        : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (st == EDGEL_OK && (!fgets(line, sizeof line, f) || strncmp(line, "NRRD000", 7)))
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a NRRD file (no NRRD000x line)", path);
    for (int i = 0; i < 3; i++)
        spacing[i] = 1.0;
    int ended = 0;
    while (st == EDGEL_OK && !ended && fgets(line, sizeof line, f)) {
        total += strlen(line);
        if (total > MAX_HEADER || (!strchr(line, '\n') && !feof(f))) {
            st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the header's lines are longer than a "
                               "NRRD header's", path);
            break;
        }
        char *t = edgel_io_trim(line);
        if (!*t) {
            ended = 1; /* the blank line: the voxels follow */
            break;
        }
        if (*t == '#')
            continue;
        char *colon = strstr(t, ": "), *pair = strstr(t, ":=");
        if (pair && (!colon || pair < colon)) { /* a key/value pair: kept as it is */
            if (!keep_line(h, t))
                st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            continue;
        }
        if (!colon) {
            st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a NRRD field: '%s'", path, t);
            break;
        }
        *colon = '\0';
        char *field = edgel_io_trim(t), *value = edgel_io_trim(colon + 2);
        const int known = field_index(field);
        if (known < 0) {
            st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: '%s' is not a NRRD field (teem and ITK "
                               "refuse it too; custom fields are 'key:=value')", path, field);
            break;
        }
        if (seen[known]++) {
            st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the field '%s' is given twice (teem and "
                               "ITK refuse that too)", path, field);
            break;
        }
        const int own = FIELDS[known].own;
        char used[128];
        const char *kept_value = value;
        const char *canonical = FIELDS[known].names + 1; /* (up to its '|') */
        long long n[4];
        if (is_field(known, "type")) {
            for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
                if (names_hold(TYPES[i].names, value))
                    type = &TYPES[i];
            if (!type)
                st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: type %s: integer and float "
                                   "voxels are read", path, value);
        } else if (is_field(known, "dimension")) {
            if (integers(value, n) != 1 || n[0] < 2 || n[0] > 3)
                st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: dimension %s: 2-D and 3-D "
                                   "images are read (one value a voxel)", path, value);
            else
                dimension = (int)n[0];
        } else if (is_field(known, "sizes")) {
            nsizes = integers(value, sizes);
            for (int i = 0; i < nsizes; i++)
                if (sizes[i] < 1 || sizes[i] > EDGEL_MAX_DIMENSION)
                    nsizes = -1;
            if (nsizes < 0)
                st = edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: sizes %s: each must be 1 to "
                                   "%d", path, value, EDGEL_MAX_DIMENSION);
        } else if (is_field(known, "endian")) {
            endian = !strcasecmp(value, "big") ? 1 : !strcasecmp(value, "little") ? 0 : -1;
            if (endian < 0)
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: endian %s", path, value);
        } else if (is_field(known, "encoding")) {
            encoding = !strcasecmp(value, "raw") ? 0 : names_hold("|gzip|gz|", value) ? 1 : -1;
            if (encoding < 0)
                st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: encoding %s: raw and gzip are "
                                   "read", path, value);
        } else if (is_field(known, "data file")) {
            if (strchr(value, ' ') || !strncasecmp(value, "LIST", 4))
                st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: voxels in several files are "
                                   "not read", path);
            snprintf(data_file, sizeof data_file, "%s", value);
        } else if (is_field(known, "line skip")) {
            if (integers(value, n) != 1 || n[0] < 0 || n[0] > (1 << 20))
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: line skip %s", path, value);
            line_skip = n[0];
        } else if (is_field(known, "byte skip")) {
            if (integers(value, n) != 1 || n[0] < -1 || n[0] > (1LL << 50))
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: byte skip %s", path, value);
            byte_skip = n[0];
        } else if (is_field(known, "spacings")) {
            double d[3] = {1.0, 1.0, 1.0};
            char *v = value;
            int bad = 0, k = 0;
            for (; k < 3 && *v; k++) {
                char *end;
                d[k] = strtod(v, &end);
                if (end == v)
                    break; /* (nan: no spacing) */
                bad |= !(d[k] > 0 && d[k] < 1e30);
                spacing[k] = d[k] > 0 && d[k] < 1e30 ? d[k] : 1.0;
                v = end;
            }
            have_spacing = 1;
            if (bad) { /* kept as read (a bad one as 1: ITK refuses NaN, 0 and negatives) */
                used[0] = '\0';
                for (int i = 0; i < k; i++)
                    snprintf(used + strlen(used), sizeof used - strlen(used), "%s%.17g",
                             i ? " " : "", spacing[i]);
                kept_value = used;
            }
        } else if (is_field(known, "space directions")) {
            double len[3];
            const int k = direction_lengths(value, len, 3);
            if (k < 0)
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: space directions %s", path, value);
            for (int i = 0; i < k && !have_spacing; i++)
                spacing[i] = len[i] > 0 && len[i] < 1e30 ? len[i] : 1.0;
        }
        if (st == EDGEL_OK && !own) { /* kept for the result: the field as it was */
            char kept[2 * MAX_LINE + 4]; /* (under teem's own name for it) */
            snprintf(kept, sizeof kept, "%.*s: %s", (int)strcspn(canonical, "|"), canonical,
                     kept_value);
            if (!keep_line(h, kept))
                st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
    }
    if (st == EDGEL_OK && (!type || !dimension || nsizes != dimension || encoding < 0))
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a NRRD header with type, dimension, "
                           "sizes and encoding", path);
    if (st == EDGEL_OK && type->bytes > 1 && endian < 0)
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: no endian for %d-byte voxels", path,
                           type->bytes);
    if (st == EDGEL_OK && !*data_file && !ended)
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: the header ends without its blank line",
                           path);
    long long at = st == EDGEL_OK ? ftello(f) : 0;
    if (st == EDGEL_OK) {
        l->bytes = type->bytes, l->is_float = type->is_float, l->is_signed = type->is_signed;
        l->msb = endian == 1;
        for (int i = 0; i < 3; i++)
            l->dims[i] = i < dimension ? (int)sizes[i] : 1;
        FILE *d = f;
        if (*data_file) { /* detached: named relative to the header's folder */
            st = edgel_voxels_data_file(path, data_file, l->file, sizeof l->file);
            d = st == EDGEL_OK ? fopen(l->file, "rb") : NULL;
            at = 0;
        } else {
            snprintf(l->file, sizeof l->file, "%s", path);
        }
        for (long long i = 0; d && i < line_skip; i++) { /* whole lines before the voxels */
            if (fseeko(d, (off_t)at, SEEK_SET) != 0 || !fgets(line, sizeof line, d))
                break;
            at = ftello(d);
        }
        const double bytes = (double)l->dims[0] * l->dims[1] * l->dims[2] * l->bytes;
        struct stat s;
        if (!d)
            st = st != EDGEL_OK ? st
                                : edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its data file (%s) "
                                                "cannot be opened", path, data_file);
        else if (byte_skip == -1) /* raw voxels that end the file */
            at = encoding == 0 && fstat(fileno(d), &s) == 0 && s.st_size >= bytes
                     ? (long long)s.st_size - (long long)bytes
                     : -1;
        else
            at += byte_skip;
        if (st == EDGEL_OK && at < 0)
            st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: byte skip -1 needs raw voxels that end "
                               "the file", path);
        if (d && d != f)
            fclose(d);
        l->compressed = encoding == 1;
        if (l->compressed) /* the voxels are the stream, from its start */
            l->stream_start = at, l->offset = 0;
        else
            l->offset = at;
        h->gzip = l->compressed;
        h->dimension = dimension;
    }
    fclose(f);
    if (st != EDGEL_OK) {
        edgel_nrrd_free(h);
        return st;
    }
    *header = h;
    return EDGEL_OK;
}

static int put_gz(void *user, const void *bytes, size_t n)
{
    while (n) { /* (gzwrite takes an unsigned count) */
        const unsigned k = n < (1u << 30) ? (unsigned)n : (1u << 30);
        if (gzwrite(user, bytes, k) != (int)k)
            return 0;
        bytes = (const uint8_t *)bytes + k, n -= k;
    }
    return 1;
}

edgel_status edgel_nrrd_write(const char *path, const edgel_volume *v, int fd,
                              const edgel_nrrd_header *like)
{
    edgel_io_temporary t;
    EDGEL_IO_TRY(edgel_io_temporary_open(&t, path));
    const int gz = like && like->gzip;
    char sizes[64];
    snprintf(sizes, sizeof sizes, like && like->dimension == 2 && v->depth == 1 ? "2\nsizes: %d %d"
                                                                              : "3\nsizes: %d %d %d",
             v->width, v->height, v->depth);
    int ok = fprintf(t.file, "NRRD0004\n# written by edgel\ntype: %s\ndimension: %s\nendian: "
                     "little\nencoding: %s\n%s\n", v->type == EDGEL_F32 ? "float" : "uint8",
                     sizes, gz ? "gzip" : "raw", like && like->kept ? like->kept : "") >= 0;
    if (ok && gz) { /* a gzip stream after the header, on the same file */
        ok = fflush(t.file) == 0;
        const int dup_fd = ok ? dup(fileno(t.file)) : -1;
        gzFile z = dup_fd >= 0 ? gzdopen(dup_fd, "ab") : NULL;
        if (!z && dup_fd >= 0)
            close(dup_fd);
        ok = z && edgel_io_volume_chunks(v, fd, put_gz, z);
        if (z)
            ok = gzclose(z) == Z_OK && ok;
    } else if (ok) {
        ok = edgel_io_volume_chunks(v, fd, edgel_io_put_file, t.file);
    }
    return edgel_io_temporary_close(&t, ok, ok ? 0 : errno);
}

void edgel_nrrd_free(edgel_nrrd_header *h)
{
    if (h)
        free(h->kept);
    free(h);
}
