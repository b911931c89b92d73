/*
 * Multi-page TIFF stacks as volumes (ImageJ and microscopy stacks): page k is slice k. Read:
 * gray pages of one 8- or 16-bit unsigned or 32-bit float sample, in strips or tiles, any
 * compression libtiff reads, every page the first one's size and type; a box at a time, so
 * the bricks read only their pages and rows. Written: a BigTIFF page a slice, edges 0/255
 * (as edgel's other TIFF edges), with the input's resolution and description.
 */
#define _XOPEN_SOURCE 700 /* fileno, dup, pread */
#include "io/tiff_stack.h"

#include "io/io_common.h"
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
/* Pages are reached by the offsets of their directories, found in one walk at open (libtiff's
 * TIFFSetDirectory(k) walks the chain from the first page each time: O(pages^2)). Pixels are
 * decoded a whole strip or tile at a time (codecs such as LZW and deflate cannot start
 * mid-strip), into a small cache of decoded units kept across boxes, so that bricks that share
 * a strip or tile decode it once while it stays cached. */
struct edgel_tiff_stack {
    TIFF *tif;
    char path[4096];
    uint32_t width, height, pages;
    uint16_t bps, format;
    edgel_pixel_type type;
    uint32_t tile_w, tile_h; /* 0: strips */
    uint32_t unit_rows;      /* rows a strip (strips) or a tile's height */
    size_t unit_bytes;       /* a decoded strip or tile */
    uint64_t *offsets;       /* each page's directory */
    int page;                /* the directory libtiff is on */
    int slots;               /* the cache: decoded units and their (page, unit) keys */
    uint8_t *cache;
    int64_t *key;
    uint64_t *used, clock;
};

/* Page k's directory, checked against the first page's size and type. */
static edgel_status go_to_page(edgel_tiff_stack *s, int k)
{
    if (s->page == k)
        return EDGEL_OK;
    if (!TIFFSetSubDirectory(s->tif, s->offsets[k]))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %d cannot be read", s->path, k);
    s->page = k;
    uint32_t w = 0, h = 0, tw = 0, th = 0, rows = 0;
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
    } else {
        TIFFGetFieldDefaulted(s->tif, TIFFTAG_ROWSPERSTRIP, &rows);
        rows = rows < h ? rows : h;
    }
    if (w != s->width || h != s->height || bps != s->bps || format != s->format || spp != 1 ||
        tw != s->tile_w || th != s->tile_h || (!tw && rows != s->unit_rows) ||
        photometric != PHOTOMETRIC_MINISBLACK)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %d is not like the first (%ux%u, "
                             "%u-bit, one gray sample, the same %s): a stack's pages are",
                             s->path, k, s->width, s->height, s->bps,
                             s->tile_w ? "tiles" : "rows a strip");
    const uint64_t unit = tw ? TIFFTileSize64(s->tif) : TIFFVStripSize64(s->tif, rows);
    if (unit != s->unit_bytes)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: page %d's %s of an unexpected size",
                             s->path, k, tw ? "tiles are" : "strips are");
    return EDGEL_OK;
}

/* Each page's directory offset, in one walk of the chain (at most EDGEL_MAX_DIMENSION). */
static edgel_status walk_pages(edgel_tiff_stack *s)
{
    size_t cap = 64;
    s->offsets = malloc(cap * sizeof *s->offsets);
    if (!s->offsets)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", s->path);
    s->offsets[0] = TIFFCurrentDirOffset(s->tif);
    s->pages = 1;
    while (TIFFReadDirectory(s->tif)) {
        if (s->pages == EDGEL_MAX_DIMENSION)
            return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: more than %d pages", s->path,
                                 EDGEL_MAX_DIMENSION);
        if (s->pages == cap) {
            uint64_t *grown = realloc(s->offsets, 2 * cap * sizeof *grown);
            if (!grown)
                return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", s->path);
            s->offsets = grown, cap *= 2;
        }
        s->offsets[s->pages++] = TIFFCurrentDirOffset(s->tif);
    }
    s->page = -1; /* (a directory that failed to read leaves libtiff's state unusable) */
    return EDGEL_OK;
}

/* The decoded units a stack may keep: an eighth of `max_bytes` (0: 64 MB), 1 to 256 of them. */
static edgel_status make_cache(edgel_tiff_stack *s, size_t max_bytes)
{
    if (max_bytes && (double)s->unit_bytes > (double)max_bytes / 4)
        return edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: its %s take %.0f MB each decoded, "
                             "more than a quarter of the %.0f MB allowed (--memory)", s->path,
                             s->tile_w ? "tiles" : "strips", s->unit_bytes / 1e6,
                             max_bytes / 1e6);
    const double budget = max_bytes ? (double)max_bytes / 8 : (double)(64 << 20);
    const double fit = budget / (double)s->unit_bytes;
    s->slots = fit < 1 ? 1 : fit > 256 ? 256 : (int)fit;
    s->cache = malloc((size_t)s->slots * s->unit_bytes);
    s->key = malloc((size_t)s->slots * sizeof *s->key);
    s->used = calloc((size_t)s->slots, sizeof *s->used);
    if (!s->cache || !s->key || !s->used)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", s->path);
    for (int i = 0; i < s->slots; i++)
        s->key[i] = -1;
    return EDGEL_OK;
}

edgel_status edgel_tiff_stack_open(const char *path, size_t max_bytes, edgel_tiff_stack **out,
                                   edgel_volume *v, double spacing[3],
                                   edgel_tiff_header **header)
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
            s->unit_rows = s->tile_h;
        } else {
            TIFFGetFieldDefaulted(s->tif, TIFFTAG_ROWSPERSTRIP, &s->unit_rows);
            s->unit_rows = s->unit_rows < s->height ? s->unit_rows : s->height;
        }
        const int u8 = s->bps == 8 && s->format == SAMPLEFORMAT_UINT;
        const int u16 = s->bps == 16 && s->format == SAMPLEFORMAT_UINT;
        const int f32 = s->bps == 32 && s->format == SAMPLEFORMAT_IEEEFP;
        s->type = u16 ? EDGEL_U16 : f32 ? EDGEL_F32 : EDGEL_U8;
        s->unit_bytes = (size_t)(s->tile_w ? s->tile_w : s->width) * s->unit_rows * (s->bps / 8);
        if (s->width < 1 || s->height < 1 || s->width > EDGEL_MAX_DIMENSION ||
            s->height > EDGEL_MAX_DIMENSION)
            st = edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %ux%u pages: each side 1 to %d",
                               path, s->width, s->height, EDGEL_MAX_DIMENSION);
        else if (!(u8 || u16 || f32) || spp != 1)
            st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: pages of %u samples of %u bits "
                               "(format %u): a stack is gray, 8- or 16-bit unsigned or 32-bit "
                               "float", path, spp, s->bps, s->format);
        else if ((s->tile_w && (s->tile_w > (1u << 14) || s->tile_h > (1u << 14))) ||
                 (s->tile_w && !s->tile_h) || s->unit_rows < 1)
            st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: tiles of %ux%u", path, s->tile_w,
                               s->tile_h);
    }
    if (st == EDGEL_OK)
        st = walk_pages(s);
    if (st == EDGEL_OK && (double)s->width * s->height * s->pages > (double)EDGEL_MAX_VOXELS)
        st = edgel_io_fail(EDGEL_ERROR_INVALID_SIZE, "%s: %ux%u pages, %u of them: more than "
                           "the %lld voxels a volume may hold", path, s->width, s->height,
                           s->pages, (long long)EDGEL_MAX_VOXELS);
    if (st == EDGEL_OK)
        st = make_cache(s, max_bytes);
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

/* The decoded unit `u` (a strip, or a tile) of page k, from the cache or decoded into it. */
static edgel_status unit_of(edgel_tiff_stack *s, int k, uint32_t u, const uint8_t **out)
{
    const int64_t key = (int64_t)k * ((int64_t)1 << 32) + u;
    int slot = 0;
    for (int i = 0; i < s->slots; i++) {
        if (s->key[i] == key) {
            s->used[i] = ++s->clock;
            *out = s->cache + (size_t)i * s->unit_bytes;
            return EDGEL_OK;
        }
        slot = s->used[i] < s->used[slot] ? i : slot; /* (the least recently used) */
    }
    EDGEL_IO_TRY(go_to_page(s, k));
    uint8_t *b = s->cache + (size_t)slot * s->unit_bytes;
    s->key[slot] = -1;
    /* (a codec that fills less leaves zeros, never another unit's samples) */
    memset(b, 0, s->unit_bytes);
    const tmsize_t got = s->tile_w ? TIFFReadEncodedTile(s->tif, u, b, (tmsize_t)s->unit_bytes)
                                   : TIFFReadEncodedStrip(s->tif, u, b, (tmsize_t)s->unit_bytes);
    if (got < 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: page %d, %s %u cannot be read", s->path,
                             k, s->tile_w ? "tile" : "strip", u);
    s->key[slot] = key, s->used[slot] = ++s->clock;
    *out = b;
    return EDGEL_OK;
}

edgel_status edgel_tiff_stack_read(edgel_tiff_stack *s, int64_t x, int64_t y, int64_t z,
                                   const edgel_volume *dst)
{
    const size_t px = s->bps / 8;
    const int64_t uw = s->tile_w ? s->tile_w : s->width, uh = s->unit_rows;
    const int64_t across = (s->width + uw - 1) / uw;
    for (int k = 0; k < dst->depth; k++) {
        uint8_t *slice = (uint8_t *)dst->data + (size_t)k * dst->slice_pitch;
        for (int64_t ty = y - y % uh; ty < y + dst->height; ty += uh)
            for (int64_t tx = x - x % uw; tx < x + dst->width; tx += uw) {
                const uint8_t *b = NULL;
                EDGEL_IO_TRY(unit_of(s, (int)(z + k), (uint32_t)(ty / uh * across + tx / uw),
                                     &b));
                const int64_t x0 = tx > x ? tx : x, x1 = tx + uw < x + dst->width
                                                              ? tx + uw
                                                              : x + dst->width;
                for (int64_t yy = ty > y ? ty : y; yy < ty + uh && yy < y + dst->height; yy++)
                    memcpy(slice + (size_t)(yy - y) * dst->pitch + (size_t)(x0 - x) * px,
                           b + ((size_t)(yy - ty) * (size_t)uw + (size_t)(x0 - tx)) * px,
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
    free(s->offsets), free(s->cache), free(s->key), free(s->used);
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

edgel_status edgel_tiff_stack_open(const char *path, size_t max_bytes, edgel_tiff_stack **s,
                                   edgel_volume *v, double spacing[3],
                                   edgel_tiff_header **header)
{
    (void)max_bytes, (void)s, (void)v, (void)spacing, (void)header;
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
