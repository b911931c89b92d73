/*
 * Multi-page TIFF stacks as volumes (ImageJ and microscopy stacks): page k is slice k. Read:
 * gray pages of one 8- or 16-bit unsigned or 32-bit float sample, in strips or tiles, any
 * compression libtiff reads, every page the first one's size and type; a box at a time, so
 * the bricks read only their pages and rows. Written: a BigTIFF page a slice, edges 0/255
 * (as edgel's other TIFF edges), with the input's resolution and description.
 */
#define _XOPEN_SOURCE 700 /* fileno, dup, pread */
#include "io/tiff_stack.h"

#include "io/image_io.h"
#include "io/tiff_util.h"
#include "io/voxel_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct edgel_tiff_header {
    int have_resolution;
    float xres, yres;
    uint16_t unit;
    char *description;
};

void edgel_tiff_header_free(edgel_tiff_header *h)
{
    if (h)
        free(h->description);
    free(h);
}

#ifdef EDGEL_HAVE_TIFF
struct edgel_tiff_stack {
    TIFF *tif;
    char path[4096];
    uint32_t width, height, pages;
    uint16_t bps, format;
    edgel_pixel_type type;
    uint32_t tile_w, tile_h; /* 0: strips */
    uint8_t *buffer;         /* a scanline or a tile */
    int page;                /* the directory libtiff is on */
};

/* Page k's directory, checked against the first page's size and type. */
static edgel_status go_to_page(edgel_tiff_stack *s, int k)
{
    if (s->page == k)
        return EDGEL_OK;
    if (!TIFFSetDirectory(s->tif, (tdir_t)k))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %d cannot be read", s->path, k);
    s->page = k;
    uint32_t w = 0, h = 0, tw = 0, th = 0;
    uint16_t spp = 1, bps = 0, format = SAMPLEFORMAT_UINT, photometric = PHOTOMETRIC_MINISBLACK;
    TIFFGetField(s->tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(s->tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(s->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(s->tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(s->tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetField(s->tif, TIFFTAG_PHOTOMETRIC, &photometric);
    if (TIFFIsTiled(s->tif)) {
        TIFFGetField(s->tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(s->tif, TIFFTAG_TILELENGTH, &th);
    }
    if (w != s->width || h != s->height || bps != s->bps || format != s->format || spp != 1 ||
        tw != s->tile_w || th != s->tile_h || photometric != PHOTOMETRIC_MINISBLACK)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %d is not like the first (%ux%u, "
                             "%u-bit, one gray sample%s): a stack's pages are", s->path, k,
                             s->width, s->height, s->bps, s->tile_w ? ", the same tiles" : "");
    const uint64_t unit = (uint64_t)(tw ? tw : w) * (tw ? th : 1) * (bps / 8);
    if ((uint64_t)(tw ? TIFFTileSize64(s->tif) : TIFFScanlineSize64(s->tif)) != unit)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: page %d's %s of an unexpected size",
                             s->path, k, tw ? "tiles are" : "rows are");
    return EDGEL_OK;
}

edgel_status edgel_tiff_stack_open(const char *path, edgel_tiff_stack **out, edgel_volume *v,
                                   double spacing[3], edgel_tiff_header **header)
{
    *out = NULL, *header = NULL;
    edgel_io_tiff_quiet();
    edgel_tiff_stack *s = calloc(1, sizeof *s);
    edgel_tiff_header *h = calloc(1, sizeof *h);
    if (!s || !h) {
        free(s), free(h);
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    s->page = -1;
    s->tif = TIFFOpen(path, "rm"); /* no memory map: its pages would count as ours */
    edgel_status st = s->tif ? EDGEL_OK
                             : edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a readable TIFF",
                                             path);
    if (st == EDGEL_OK) {
        uint16_t spp = 1;
        TIFFGetField(s->tif, TIFFTAG_IMAGEWIDTH, &s->width);
        TIFFGetField(s->tif, TIFFTAG_IMAGELENGTH, &s->height);
        TIFFGetFieldDefaulted(s->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
        TIFFGetFieldDefaulted(s->tif, TIFFTAG_BITSPERSAMPLE, &s->bps);
        TIFFGetFieldDefaulted(s->tif, TIFFTAG_SAMPLEFORMAT, &s->format);
        if (TIFFIsTiled(s->tif)) {
            TIFFGetField(s->tif, TIFFTAG_TILEWIDTH, &s->tile_w);
            TIFFGetField(s->tif, TIFFTAG_TILELENGTH, &s->tile_h);
        }
        s->pages = TIFFNumberOfDirectories(s->tif);
        const int u8 = s->bps == 8 && s->format == SAMPLEFORMAT_UINT;
        const int u16 = s->bps == 16 && s->format == SAMPLEFORMAT_UINT;
        const int f32 = s->bps == 32 && s->format == SAMPLEFORMAT_IEEEFP;
        s->type = u16 ? EDGEL_U16 : f32 ? EDGEL_F32 : EDGEL_U8;
        if (s->width < 1 || s->height < 1 || s->width > EDGEL_MAX_DIMENSION ||
            s->height > EDGEL_MAX_DIMENSION || s->pages < 1 || s->pages > EDGEL_MAX_DIMENSION ||
            (double)s->width * s->height * s->pages > (double)EDGEL_MAX_VOXELS)
            st = edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %ux%u pages, %u of them: each "
                               "side 1 to %d, %lld voxels at most", path, s->width, s->height,
                               s->pages, EDGEL_MAX_DIMENSION, (long long)EDGEL_MAX_VOXELS);
        else if (!(u8 || u16 || f32) || spp != 1)
            st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: pages of %u samples of %u bits "
                               "(format %u): a stack is gray, 8- or 16-bit unsigned or 32-bit "
                               "float", path, spp, s->bps, s->format);
        else if ((s->tile_w && (s->tile_w > (1u << 14) || s->tile_h > (1u << 14))) ||
                 (s->tile_w && !s->tile_h))
            st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: tiles of %ux%u", path, s->tile_w,
                               s->tile_h);
    }
    if (st == EDGEL_OK) {
        const size_t unit = (size_t)(s->tile_w ? s->tile_w : s->width) *
                            (s->tile_w ? s->tile_h : 1) * (s->bps / 8);
        s->buffer = malloc(unit);
        if (!s->buffer)
            st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    if (st == EDGEL_OK)
        st = go_to_page(s, 0);
    if (st == EDGEL_OK) {
        /* the voxel size of an ImageJ stack (x and y: the resolution, pixels a unit; z: its
         * description's spacing, in the same unit); other stacks' is 1 x 1 x 1 (a
         * photograph's 72 dpi says nothing of its slices) */
        for (int i = 0; i < 3; i++)
            spacing[i] = 1.0;
        uint16_t unit = RESUNIT_INCH;
        h->have_resolution = TIFFGetField(s->tif, TIFFTAG_XRESOLUTION, &h->xres) &&
                             TIFFGetField(s->tif, TIFFTAG_YRESOLUTION, &h->yres) &&
                             h->xres > 0 && h->yres > 0;
        TIFFGetFieldDefaulted(s->tif, TIFFTAG_RESOLUTIONUNIT, &unit);
        h->unit = unit;
        const char *desc = NULL;
        if (TIFFGetField(s->tif, TIFFTAG_IMAGEDESCRIPTION, &desc) && desc)
            h->description = strdup(desc);
        if (desc && !strncmp(desc, "ImageJ=", 7)) {
            if (h->have_resolution && h->xres < 1e30 && h->yres < 1e30)
                spacing[0] = 1.0 / h->xres, spacing[1] = 1.0 / h->yres;
            const char *z = strstr(desc, "\nspacing=");
            const double dz = z ? strtod(z + 9, NULL) : 0.0;
            if (dz > 0 && dz < 1e30)
                spacing[2] = dz;
        }
    }
    if (st != EDGEL_OK) {
        edgel_tiff_stack_close(s);
        edgel_tiff_header_free(h);
        return st;
    }
    *v = (edgel_volume){NULL, (int32_t)s->width, (int32_t)s->height, (int32_t)s->pages, 0, 0,
                        s->type, EDGEL_MEMORY_HOST};
    *out = s, *header = h;
    return EDGEL_OK;
}

edgel_status edgel_tiff_stack_read(edgel_tiff_stack *s, int64_t x, int64_t y, int64_t z,
                                   const edgel_volume *dst)
{
    const size_t px = s->bps / 8, row = (size_t)dst->width * px;
    for (int k = 0; k < dst->depth; k++) {
        EDGEL_IO_TRY(go_to_page(s, (int)(z + k)));
        uint8_t *slice = (uint8_t *)dst->data + (size_t)k * dst->slice_pitch;
        if (!s->tile_w) {
            for (int j = 0; j < dst->height; j++) {
                /* (a codec that fills less leaves zeros, never the last row's samples) */
                memset(s->buffer, 0, (size_t)s->width * px);
                if (TIFFReadScanline(s->tif, s->buffer, (uint32_t)(y + j), 0) < 0)
                    return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %lld, row %lld cannot "
                                         "be read", s->path, (long long)(z + k),
                                         (long long)(y + j));
                memcpy(slice + (size_t)j * dst->pitch, s->buffer + (size_t)x * px, row);
            }
            continue;
        }
        const int64_t tw = s->tile_w, th = s->tile_h;
        for (int64_t ty = y - y % th; ty < y + dst->height; ty += th)
            for (int64_t tx = x - x % tw; tx < x + dst->width; tx += tw) {
                memset(s->buffer, 0, (size_t)(tw * th) * px);
                if (TIFFReadTile(s->tif, s->buffer, (uint32_t)tx, (uint32_t)ty, 0, 0) < 0)
                    return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %lld, the tile at (%lld, "
                                         "%lld) cannot be read", s->path, (long long)(z + k),
                                         (long long)tx, (long long)ty);
                const int64_t x0 = tx > x ? tx : x, x1 = tx + tw < x + dst->width
                                                              ? tx + tw
                                                              : x + dst->width;
                for (int64_t yy = ty > y ? ty : y; yy < ty + th && yy < y + dst->height; yy++)
                    memcpy(slice + (size_t)(yy - y) * dst->pitch + (size_t)(x0 - x) * px,
                           s->buffer + ((size_t)(yy - ty) * (size_t)tw + (size_t)(x0 - tx)) * px,
                           (size_t)(x1 - x0) * px);
            }
    }
    return EDGEL_OK;
}

void edgel_tiff_stack_close(edgel_tiff_stack *s)
{
    if (!s)
        return;
    if (s->tif)
        TIFFClose(s->tif);
    free(s->buffer);
    free(s);
}

typedef struct page_writer {
    TIFF *tif;
    const edgel_volume *v;
    const edgel_tiff_header *like;
    int64_t written; /* bytes of voxels so far */
    uint8_t *row;
    int ok;
} page_writer;

/* Takes the next bytes of voxels: rows into pages, each page its tags first. */
static int put_rows(void *user, const void *bytes, size_t n)
{
    page_writer *p = user;
    const edgel_volume *v = p->v;
    const size_t px = edgel_pixel_size(v->type), row = (size_t)v->width * px;
    const uint8_t *b = bytes;
    for (size_t done = 0; done < n && p->ok;) {
        const int64_t r = p->written / (int64_t)row, y = r % v->height, z = r / v->height;
        const size_t at = (size_t)(p->written % (int64_t)row), k = row - at < n - done
                                                                       ? row - at
                                                                       : n - done;
        if (y == 0 && at == 0) { /* a new page */
            if (z > 0)
                p->ok = TIFFWriteDirectory(p->tif);
            edgel_io_tiff_page(p->tif, v->width, v->height, 1, v->type);
            if (p->like && p->like->have_resolution) {
                TIFFSetField(p->tif, TIFFTAG_XRESOLUTION, p->like->xres);
                TIFFSetField(p->tif, TIFFTAG_YRESOLUTION, p->like->yres);
                TIFFSetField(p->tif, TIFFTAG_RESOLUTIONUNIT, p->like->unit);
            }
            if (z == 0 && p->like && p->like->description)
                TIFFSetField(p->tif, TIFFTAG_IMAGEDESCRIPTION, p->like->description);
        }
        memcpy(p->row + at, b + done, k);
        done += k, p->written += (int64_t)k;
        if (at + k == row) { /* a whole row: labels 0/1 as 0/255 */
            if (v->type == EDGEL_U8)
                for (size_t i = 0; i < row; i++)
                    p->row[i] = p->row[i] ? 255 : 0;
            p->ok = p->ok && TIFFWriteScanline(p->tif, p->row, (uint32_t)y, 0) >= 0;
        }
    }
    return p->ok;
}

edgel_status edgel_tiff_stack_write(const char *path, const edgel_volume *v, int fd,
                                    const edgel_tiff_header *like)
{
    edgel_io_temporary t;
    EDGEL_IO_TRY(edgel_io_temporary_open(&t, path));
    /* a descriptor that reads too: libtiff reads the last page back to link the next */
    const int tfd = open(t.name, O_RDWR);
    TIFF *tif = tfd >= 0 ? TIFFFdOpen(tfd, t.name, "w8") : NULL;
    if (!tif && tfd >= 0)
        close(tfd);
    page_writer p = {tif, v, like, 0, NULL, 1};
    p.row = malloc((size_t)v->width * edgel_pixel_size(v->type));
    p.ok = p.tif && p.row && edgel_io_volume_chunks(v, fd, put_rows, &p);
    if (p.tif) {
        p.ok = p.ok && TIFFWriteDirectory(p.tif);
        TIFFClose(p.tif);
    }
    free(p.row);
    return edgel_io_temporary_close(&t, p.ok, p.ok ? 0 : errno);
}

#else /* built without libtiff */

edgel_status edgel_tiff_stack_open(const char *path, edgel_tiff_stack **s, edgel_volume *v,
                                   double spacing[3], edgel_tiff_header **header)
{
    (void)s, (void)v, (void)spacing, (void)header;
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: this build reads no TIFF", path);
}

edgel_status edgel_tiff_stack_read(edgel_tiff_stack *s, int64_t x, int64_t y, int64_t z,
                                   const edgel_volume *dst)
{
    (void)s, (void)x, (void)y, (void)z, (void)dst;
    return EDGEL_ERROR_UNSUPPORTED;
}

void edgel_tiff_stack_close(edgel_tiff_stack *s)
{
    (void)s;
}

edgel_status edgel_tiff_stack_write(const char *path, const edgel_volume *v, int fd,
                                    const edgel_tiff_header *like)
{
    (void)v, (void)fd, (void)like;
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: this build writes no TIFF", path);
}

#endif
