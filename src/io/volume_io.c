/* Volume files (io/volume_io.h): NIfTI-1 and NIfTI-2 through nifticlib. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "io/volume_io.h"

#include "io/io_common.h"
#include "io/metaimage.h"
#include "io/nrrd.h"
#include "io/tiff_stack.h"
#include "io/voxel_layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *end)
{
    const size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

edgel_volume_format edgel_io_volume_format(const char *path)
{
    if (!path)
        return EDGEL_VOLUME_NONE;
    if (ends_with(path, ".nii") || ends_with(path, ".nii.gz"))
        return EDGEL_VOLUME_NIFTI;
    if (ends_with(path, ".mha") || ends_with(path, ".mhd"))
        return EDGEL_VOLUME_METAIMAGE;
    if (ends_with(path, ".nrrd") || ends_with(path, ".nhdr"))
        return EDGEL_VOLUME_NRRD;
    if (ends_with(path, ".tif") || ends_with(path, ".tiff"))
        return EDGEL_VOLUME_TIFF;
    return EDGEL_VOLUME_NONE;
}

const char *edgel_io_volume_outputs(edgel_volume_format format)
{
    return format == EDGEL_VOLUME_NIFTI       ? ".nii or .nii.gz"
           : format == EDGEL_VOLUME_METAIMAGE ? ".mha or .mhd"
           : format == EDGEL_VOLUME_TIFF      ? ".tif or .tiff"
                                              : ".nrrd";
}

int edgel_io_volume_output_path(const char *path, edgel_volume_format format)
{
    return edgel_io_volume_format(path) == format &&
           (format == EDGEL_VOLUME_NIFTI || format == EDGEL_VOLUME_TIFF ||
            format == EDGEL_VOLUME_METAIMAGE || ends_with(path, edgel_io_volume_outputs(format)));
}

int edgel_io_volume_companion(const char *path, char *out, size_t cap)
{
    return edgel_metaimage_data_path(path, out, cap);
}

int edgel_io_is_volume_path(const char *path)
{
    const edgel_volume_format f = edgel_io_volume_format(path);
    return f != EDGEL_VOLUME_NONE && f != EDGEL_VOLUME_TIFF;
}

static edgel_status nifti_read(const char *path, size_t max_bytes, edgel_volume_file *out);
static edgel_status nifti_write(const char *path, const edgel_volume *v, int fd,
                                const edgel_volume_file *like);
static void nifti_free(void *header);
static edgel_status nifti_layout(const char *path, edgel_voxel_layout *l, edgel_volume_file *out);

edgel_status edgel_io_volume_layout(const char *path, edgel_voxel_layout *layout,
                                    edgel_volume_file *out)
{
    memset(out, 0, sizeof *out);
    const edgel_volume_format format = edgel_io_volume_format(path);
    if (format == EDGEL_VOLUME_METAIMAGE) {
        edgel_metaimage_header *h = NULL;
        EDGEL_IO_TRY(edgel_metaimage_layout(path, layout, out->spacing, &h));
        out->header = h, out->format = format;
    } else if (format == EDGEL_VOLUME_NRRD) {
        edgel_nrrd_header *h = NULL;
        EDGEL_IO_TRY(edgel_nrrd_layout(path, layout, out->spacing, &h));
        out->header = h, out->format = format;
    } else if (format == EDGEL_VOLUME_TIFF) { /* no layout: read through libtiff */
        edgel_tiff_header *h = NULL;
        edgel_tiff_stack *s = NULL;
        EDGEL_IO_TRY(edgel_tiff_stack_open(path, 0, &s, &out->volume, out->spacing, &h));
        edgel_tiff_stack_close(s);
        memset(layout, 0, sizeof *layout);
        layout->dims[0] = out->volume.width, layout->dims[1] = out->volume.height;
        layout->dims[2] = out->volume.depth;
        layout->bytes = (int)edgel_pixel_size(out->volume.type);
        out->header = h, out->format = format;
        return EDGEL_OK;
    } else {
        EDGEL_IO_TRY(nifti_layout(path, layout, out));
        out->format = EDGEL_VOLUME_NIFTI;
    }
    const double voxels = (double)layout->dims[0] * layout->dims[1] * layout->dims[2];
    if (voxels > (double)EDGEL_MAX_VOXELS) { /* (every format: before any scratch or read) */
        edgel_io_free_volume(out);
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %dx%dx%d voxels, more than the "
                             "%lld a volume may hold", path, layout->dims[0], layout->dims[1],
                             layout->dims[2], (long long)EDGEL_MAX_VOXELS);
    }
    out->volume = (edgel_volume){NULL, layout->dims[0], layout->dims[1], layout->dims[2],
                                 0, 0, edgel_voxel_type(layout), EDGEL_MEMORY_HOST};
    return EDGEL_OK;
}

/* A whole TIFF stack: its one box. */
static edgel_status read_tiff_stack(const char *path, size_t max_bytes, edgel_volume_file *out)
{
    edgel_tiff_header *h = NULL;
    edgel_tiff_stack *s = NULL;
    edgel_volume v;
    EDGEL_IO_TRY(edgel_tiff_stack_open(path, max_bytes, &s, &v, out->spacing, &h));
    const size_t bytes = (size_t)v.width * v.height * v.depth * edgel_pixel_size(v.type);
    edgel_status st = EDGEL_OK;
    if (max_bytes && (double)bytes > (double)max_bytes)
        st = edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %dx%dx%d voxels take %.0f MB to "
                           "read, more than the %.0f MB allowed (--memory)", path, v.width,
                           v.height, v.depth, bytes / 1e6, max_bytes / 1e6);
    void *data = st == EDGEL_OK ? malloc(bytes) : NULL;
    if (st == EDGEL_OK && !data)
        st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    out->volume = edgel_volume_host(data, v.width, v.height, v.depth, v.type);
    if (st == EDGEL_OK)
        st = edgel_tiff_stack_read(s, 0, 0, 0, &out->volume);
    edgel_tiff_stack_close(s);
    out->header = h, out->format = EDGEL_VOLUME_TIFF;
    if (st != EDGEL_OK)
        edgel_io_free_volume(out);
    return st;
}

edgel_status edgel_io_read_volume(const char *path, size_t max_bytes, edgel_volume_file *out)
{
    memset(out, 0, sizeof *out);
    const edgel_volume_format format = edgel_io_volume_format(path);
    if (format == EDGEL_VOLUME_METAIMAGE || format == EDGEL_VOLUME_NRRD) {
        /* a plain header: where its voxels lie, then those voxels */
        edgel_voxel_layout l;
        EDGEL_IO_TRY(edgel_io_volume_layout(path, &l, out));
        const edgel_status st = edgel_voxels_read_whole(path, &l, max_bytes, &out->volume);
        if (st != EDGEL_OK)
            edgel_io_free_volume(out);
        return st;
    }
    if (format == EDGEL_VOLUME_TIFF)
        return read_tiff_stack(path, max_bytes, out);
    EDGEL_IO_TRY(nifti_read(path, max_bytes, out));
    out->format = EDGEL_VOLUME_NIFTI;
    return EDGEL_OK;
}

static edgel_status write_volume(const char *path, const edgel_volume *v, int fd,
                                 const edgel_volume_file *like);

edgel_status edgel_io_write_volume(const char *path, const edgel_volume *v,
                                   const edgel_volume_file *like)
{
    return write_volume(path, v, -1, like);
}

edgel_status edgel_io_write_volume_file(const char *path, const edgel_volume *v, int fd,
                                        const edgel_volume_file *like)
{
    return write_volume(path, v, fd, like);
}

static edgel_status write_volume(const char *path, const edgel_volume *v, int fd,
                                 const edgel_volume_file *like)
{
    if (!edgel_io_volume_output_path(path, like->format))
        return edgel_io_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s: write the result as %s, the "
                             "input's format", path, edgel_io_volume_outputs(like->format));
    if (like->format == EDGEL_VOLUME_METAIMAGE)
        return edgel_metaimage_write(path, v, fd, like->header);
    if (like->format == EDGEL_VOLUME_NRRD)
        return edgel_nrrd_write(path, v, fd, like->header);
    if (like->format == EDGEL_VOLUME_TIFF)
        return edgel_tiff_stack_write(path, v, fd, like->header);
    return nifti_write(path, v, fd, like);
}

void edgel_io_free_volume(edgel_volume_file *f)
{
    free(f->volume.data);
    if (f->format == EDGEL_VOLUME_METAIMAGE)
        edgel_metaimage_free(f->header);
    else if (f->format == EDGEL_VOLUME_NRRD)
        edgel_nrrd_free(f->header);
    else if (f->format == EDGEL_VOLUME_TIFF)
        edgel_tiff_header_free(f->header);
    else if (f->header)
        nifti_free(f->header);
    memset(f, 0, sizeof *f);
}

#ifdef EDGEL_HAVE_NIFTI
#include <nifti2_io.h>
#include <zlib.h>

int edgel_io_volumes_available(void) { return 1; }

/* The voxel at index i of nifticlib's buffer as a double. */
static double voxel(const nifti_image *nim, size_t i)
{
    const void *d = nim->data;
    switch (nim->datatype) {
    case DT_INT8: return ((const int8_t *)d)[i];
    case DT_UINT8: return ((const uint8_t *)d)[i];
    case DT_INT16: return ((const int16_t *)d)[i];
    case DT_UINT16: return ((const uint16_t *)d)[i];
    case DT_INT32: return ((const int32_t *)d)[i];
    case DT_UINT32: return ((const uint32_t *)d)[i];
    case DT_FLOAT32: return ((const float *)d)[i];
    default: return ((const double *)d)[i]; /* DT_FLOAT64 */
    }
}

/* A header's scaling applies where its slope is finite and not 0 (NIfTI's rule), unless it is
 * the identity. */
static int is_scaled(const nifti_image *nim)
{
    return isfinite(nim->scl_slope) && isfinite(nim->scl_inter) && nim->scl_slope != 0.0 &&
           (nim->scl_slope != 1.0 || nim->scl_inter != 0.0);
}

static int readable_type(int datatype)
{
    switch (datatype) {
    case DT_INT8: case DT_UINT8: case DT_INT16: case DT_UINT16: case DT_INT32: case DT_UINT32:
    case DT_FLOAT32: case DT_FLOAT64:
        return 1;
    }
    return 0;
}

/* The header's checks, before any voxel is read. */
static edgel_status check_header(const char *path, const nifti_image *nim, size_t max_bytes,
                                 int *as_float)
{
    for (int i = 4; i <= 7; i++)
        if (nim->dim[0] >= i && nim->dim[i] > 1)
            return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                                 "%s: %lld dimensions (dim[%d] = %lld): volumes are 3-D at "
                                 "most", path, (long long)nim->dim[0], i, (long long)nim->dim[i]);
    const int64_t n[3] = {nim->nx, nim->ny, nim->nz};
    for (int i = 0; i < 3; i++)
        if (n[i] < 1 || n[i] > EDGEL_MAX_DIMENSION)
            return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE,
                                 "%s: size %lldx%lldx%lld: each side must be 1 to %d", path,
                                 (long long)n[0], (long long)n[1], (long long)n[2],
                                 EDGEL_MAX_DIMENSION);
    const int64_t voxels = n[0] * n[1] * n[2];
    if (voxels > EDGEL_MAX_VOXELS)
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %lld voxels, more than the %lld a "
                             "volume may hold", path, (long long)voxels,
                             (long long)EDGEL_MAX_VOXELS);
    if (!readable_type(nim->datatype))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                             "%s: voxels of type %s: integers, float32 and float64 are read",
                             path, nifti_datatype_string(nim->datatype));
    const int scaled = is_scaled(nim);
    *as_float = scaled || !(nim->datatype == DT_UINT8 || nim->datatype == DT_UINT16 ||
                            nim->datatype == DT_FLOAT32);
    const double bytes = (double)voxels * (nim->nbyper + (*as_float ? 4 : 0));
    if (max_bytes && bytes > (double)max_bytes)
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE,
                             "%s: %lldx%lldx%lld voxels take %.0f MB to read, more than the "
                             "%.0f MB allowed (--memory)", path, (long long)n[0],
                             (long long)n[1], (long long)n[2], bytes / 1e6, max_bytes / 1e6);
    return EDGEL_OK;
}

static uint64_t load_le(const uint8_t *b, int n, int swap)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)b[swap ? n - 1 - i : i] << (8 * i);
    return v;
}

/* What nifticlib's header converters trust, checked on the file's own bytes before it reads
 * them: the header size in one byte order or the other, dim[0] 1 to 7 in that order (its
 * loops run to dim[0] over arrays of 8), and dims that cannot overflow its voxel count.
 * `path` itself must be a regular file: nifticlib would otherwise open a sibling it finds
 * (scan.nii.gz for a missing scan.nii). */
static edgel_status nifti_precheck(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: not a regular file", path);
    gzFile z = gzopen(path, "rb"); /* (plain files read through as they are) */
    uint8_t h[540];
    const int got = z ? gzread(z, h, sizeof h) : -1;
    if (z)
        gzclose(z);
    if (got < 348)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a NIfTI file (%s)", path,
                             got < 0 ? "cannot be read" : "shorter than a header");
    int v2 = -1, swap = 0;
    for (int s = 0; s < 2 && v2 < 0; s++) {
        const uint64_t size = load_le(h, 4, s);
        if (size == 348 || (size == 540 && got >= 540))
            v2 = size == 540, swap = s;
    }
    if (v2 < 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a NIfTI-1 or NIfTI-2 file (its "
                             "header size is neither 348 nor 540)", path);
    const int item = v2 ? 8 : 2, at = v2 ? 16 : 40;
    int64_t dim[8];
    for (int i = 0; i < 8; i++) {
        const uint64_t u = load_le(h + at + i * item, item, swap);
        dim[i] = v2 ? (int64_t)u : (int64_t)(int16_t)u;
    }
    if (dim[0] < 1 || dim[0] > 7)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: dim[0] = %lld: a NIfTI header has 1 to "
                             "7 dimensions", path, (long long)dim[0]);
    for (int i = 1; i <= dim[0]; i++)
        if (dim[i] < 0 || dim[i] > EDGEL_MAX_DIMENSION)
            return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: dim[%d] = %lld: each side "
                                 "must be 1 to %d", path, i, (long long)dim[i],
                                 EDGEL_MAX_DIMENSION);
    return EDGEL_OK;
}

/* The header of `path` into *nim, checked (its voxels not read). */
static edgel_status nifti_header(const char *path, size_t max_bytes, nifti_image **nim,
                                 int *as_float)
{
    EDGEL_IO_TRY(nifti_precheck(path));
    nifti_set_debug_level(0);
    *nim = nifti_image_read(path, 0);
    if (!*nim)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a readable NIfTI-1 or NIfTI-2 file",
                             path);
    const edgel_status st = check_header(path, *nim, max_bytes, as_float);
    if (st != EDGEL_OK) {
        nifti_image_free(*nim);
        *nim = NULL;
    }
    return st;
}

static edgel_status nifti_read(const char *path, size_t max_bytes, edgel_volume_file *out)
{
    int as_float = 0;
    nifti_image *nim;
    EDGEL_IO_TRY(nifti_header(path, max_bytes, &nim, &as_float));
    edgel_status st = EDGEL_OK;
    if (nifti_image_load(nim) != 0)
        st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its voxels cannot be read (a truncated or "
                           "damaged file)", path);
    if (st != EDGEL_OK) {
        nifti_image_free(nim);
        return st;
    }
    const int w = (int)nim->nx, h = (int)nim->ny, d = (int)nim->nz;
    const size_t n = (size_t)w * h * d;
    void *data = nim->data;
    edgel_pixel_type type = nim->datatype == DT_UINT8    ? EDGEL_U8
                            : nim->datatype == DT_UINT16 ? EDGEL_U16
                                                         : EDGEL_F32;
    if (as_float) {
        float *f = malloc(sizeof(float) * (n ? n : 1));
        if (!f) {
            nifti_image_free(nim);
            return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
        const int scaled = is_scaled(nim);
        for (size_t i = 0; i < n; i++)
            f[i] = (float)(scaled ? voxel(nim, i) * nim->scl_slope + nim->scl_inter
                                  : voxel(nim, i));
        free(nim->data);
        data = f;
        type = EDGEL_F32;
    }
    nim->data = NULL; /* the voxels are the caller's now, the header stays */
    out->volume = edgel_volume_host(data, w, h, d, type);
    const double px[3] = {nim->dx, nim->dy, nim->dz};
    for (int i = 0; i < 3; i++) /* (a zero or missing voxel size reads as 1) */
        out->spacing[i] = isfinite(px[i]) && px[i] != 0.0 ? fabs(px[i]) : 1.0;
    out->header = nim;
    return EDGEL_OK;
}

static edgel_status nifti_layout(const char *path, edgel_voxel_layout *l, edgel_volume_file *out)
{
    int as_float = 0;
    nifti_image *nim;
    EDGEL_IO_TRY(nifti_header(path, 0, &nim, &as_float));
    memset(l, 0, sizeof *l);
    snprintf(l->file, sizeof l->file, "%s", nim->iname);
    l->compressed = nifti_is_gzfile(nim->iname);
    l->offset = (long long)nim->iname_offset; /* (in the decompressed stream where gzipped) */
    struct stat file;
    if (l->offset < 0) { /* the voxels end the file, as nifti_image_load places them */
        const double bytes = (double)nim->nvox * nim->nbyper;
        l->offset = !l->compressed && stat(l->file, &file) == 0 && (double)file.st_size >= bytes
                        ? (long long)file.st_size - (long long)bytes
                        : -1;
        if (l->offset < 0) {
            nifti_image_free(nim);
            return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: its voxels' offset is negative", path);
        }
    }
    l->dims[0] = (int)nim->nx, l->dims[1] = (int)nim->ny, l->dims[2] = (int)nim->nz;
    l->bytes = nim->nbyper;
    l->is_float = nim->datatype == DT_FLOAT32 || nim->datatype == DT_FLOAT64;
    l->is_signed = nim->datatype == DT_INT8 || nim->datatype == DT_INT16 ||
                   nim->datatype == DT_INT32 || l->is_float;
    l->msb = nim->byteorder != nifti_short_order(); /* (this machine is little-endian) */
    l->scaled = is_scaled(nim);
    l->finite_only = l->is_float; /* nifti_image_load sets non-finite floats to 0 */
    l->slope = nim->scl_slope, l->inter = nim->scl_inter;
    const double px[3] = {nim->dx, nim->dy, nim->dz};
    for (int i = 0; i < 3; i++)
        out->spacing[i] = isfinite(px[i]) && px[i] != 0.0 ? fabs(px[i]) : 1.0;
    out->header = nim;
    return EDGEL_OK;
}

/* Whether the file holds `bytes` bytes once decompressed (what a complete write leaves). */
static int written_whole(const char *name, int gz, double bytes)
{
    znzFile z = znzopen(name, "rb", gz);
    if (znz_isnull(z))
        return 0;
    enum { CHUNK = 1 << 16 };
    char *buf = malloc(CHUNK);
    double total = 0;
    size_t got;
    while (buf && (got = znzread(buf, 1, CHUNK, z)) > 0)
        total += (double)got;
    znzclose(z);
    const int whole = buf && total == bytes;
    free(buf);
    return whole;
}

static int put_znz(void *user, const void *bytes, size_t n)
{
    return znzwrite(bytes, 1, n, *(znzFile *)user) == n;
}

static edgel_status nifti_write(const char *path, const edgel_volume *v, int fd,
                                const edgel_volume_file *like)
{
    const nifti_image *src = like->header;
    nifti_image *nim = nifti_copy_nim_info(src);
    if (!nim)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    nim->datatype = v->type == EDGEL_F32 ? DT_FLOAT32 : DT_UINT8;
    nifti_datatype_sizes(nim->datatype, &nim->nbyper, &nim->swapsize);
    nim->scl_slope = 1.0, nim->scl_inter = 0.0, nim->cal_min = nim->cal_max = 0.0;
    nim->byteorder = nifti_short_order();
    if (v->width > 32767 || v->height > 32767 || v->depth > 32767) {
        nifti_image_free(nim);
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: %dx%dx%d voxels: NIfTI-1 files, "
                             "which edgel writes, hold at most 32767 a side", path, v->width,
                             v->height, v->depth);
    }
    const int gz = ends_with(path, ".gz");
    edgel_io_temporary t; /* named with the target's extension: nifticlib goes by it */
    int err = 0;
    edgel_status st = edgel_io_temporary_open_as(&t, path, gz ? ".nii.gz" : ".nii");
    if (st == EDGEL_OK) {
        int ok = nifti_set_filenames(nim, t.name, 0, 0) == 0;
        /* one NIfTI-1 file (after the names, which set a type of their own): the library's
         * NIfTI-2 writing leaves the header out */
        nim->nifti_type = NIFTI_FTYPE_NIFTI1_1;
        if (ok) {
            /* the header, then the voxels in chunks through the file it leaves open (2: no
             * data, leave open); it says nothing of failures: what it wrote is read back */
            errno = 0;
            znzFile z = nifti_image_write_hdr_img(nim, 2, "wb");
            ok = !znz_isnull(z) && edgel_io_volume_chunks(v, fd, put_znz, &z);
            err = ok ? 0 : errno;
            if (!znz_isnull(z) && znzclose(z) != 0 && ok)
                ok = 0, err = errno;
            if (ok && !written_whole(t.name, gz, (double)nim->iname_offset +
                                                     (double)nim->nvox * nim->nbyper))
                ok = 0, err = ENOSPC; /* (short, with no error said: a full disk) */
        }
        st = edgel_io_temporary_close(&t, ok, err);
    }
    nifti_image_free(nim);
    return st;
}

static void nifti_free(void *header)
{
    nifti_image_free(header);
}

#else /* built without nifticlib */

int edgel_io_volumes_available(void) { return 0; }

static edgel_status nifti_read(const char *path, size_t max_bytes, edgel_volume_file *out)
{
    (void)max_bytes, (void)out;
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: this build reads no NIfTI files (built "
                         "without nifticlib: Debian and Ubuntu libnifti2-dev)", path);
}

static edgel_status nifti_write(const char *path, const edgel_volume *v, int fd,
                                const edgel_volume_file *like)
{
    (void)v, (void)fd, (void)like;
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: this build writes no NIfTI files", path);
}

static void nifti_free(void *header)
{
    (void)header;
}

static edgel_status nifti_layout(const char *path, edgel_voxel_layout *l, edgel_volume_file *out)
{
    (void)l, (void)out;
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: this build reads no NIfTI files (built "
                         "without nifticlib: Debian and Ubuntu libnifti2-dev)", path);
}

#endif
