/* libFuzzer target: the volume readers (edgel_io_read_volume) on any bytes, as a .nii file,
 * gzip-compressed by zlib as a .nii.gz, as a MetaImage .mha, a .nrrd or a TIFF stack (the
 * first byte chooses), with a 64 MB limit: a status and never a crash, a hang or an
 * allocation past the limit; a volume read is within the library's sizes, read again in
 * boxes (edgel_volume_source, the command's bricks) gives the same voxels with no scratch
 * file left, and written back (edgel_io_write_volume, in its format) leaves exactly its
 * file. */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */
#include "edgel.h"
#include "io/volume_io.h"
#include "io/volume_stream.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int kind = data[0] % 5, gz = kind == 1, mha = kind == 2, nrrd = kind == 3,
              tiff = kind == 4;
    if (kind < 2 && !edgel_io_volumes_available())
        return 0;
    char in[128], out[128];
    const char *out_name = mha ? "out.mha" : nrrd ? "out.nrrd" : tiff ? "out.tif" : "out.nii";
    snprintf(in, sizeof in, "%s/in.%s", fuzz_dir(),
             mha ? "mha" : nrrd ? "nrrd" : tiff ? "tif" : gz ? "nii.gz" : "nii");
    snprintf(out, sizeof out, "%s/%s", fuzz_dir(), out_name);
    if (gz) {
        gzFile f = gzopen(in, "wb");
        if (!f)
            abort();
        if (size > 1)
            gzwrite(f, data + 1, (unsigned)(size - 1));
        gzclose(f);
    } else {
        FILE *f = fopen(in, "wb");
        if (!f)
            abort();
        fwrite(data + 1, 1, size - 1, f);
        fclose(f);
    }
    edgel_volume_file v;
    if (edgel_io_read_volume(in, (size_t)64 << 20, &v) == EDGEL_OK) {
        const edgel_volume *vol = &v.volume;
        if (vol->width < 1 || vol->height < 1 || vol->depth < 1 ||
            (double)vol->width * vol->height * vol->depth > (double)(64 << 20) ||
            !(vol->type == EDGEL_U8 || vol->type == EDGEL_U16 || vol->type == EDGEL_F32))
            abort();
        const size_t n = (size_t)vol->width * vol->height * vol->depth;
        edgel_volume_source s;
        if (edgel_io_open_volume_source(in, out, (size_t)64 << 20, &s) != EDGEL_OK || s.file.volume.type != vol->type)
            abort();
        const size_t item = edgel_pixel_size(vol->type);
        uint8_t *again = malloc(n * item);
        const edgel_volume box = edgel_volume_host(again, vol->width, vol->height, vol->depth,
                                                   vol->type);
        if (!again || edgel_io_volume_source_read(&s, 0, 0, 0, &box) != EDGEL_OK ||
            memcmp(again, vol->data, n * item))
            abort();
        if (vol->depth > 1) { /* a box inside: the last slices of the last rows */
            const edgel_volume part = edgel_volume_host(again, 1, 1, vol->depth - 1, vol->type);
            if (edgel_io_volume_source_read(&s, vol->width - 1, vol->height - 1, 1, &part) !=
                    EDGEL_OK ||
                memcmp(again + (vol->depth - 2) * item,
                       (const uint8_t *)vol->data + (n - 1) * item, item))
                abort();
        }
        free(again);
        edgel_io_close_volume_source(&s);
        uint8_t *labels = calloc(n ? n : 1, 1);
        const edgel_volume lv = edgel_volume_host(labels, vol->width, vol->height, vol->depth,
                                                  EDGEL_U8);
        const edgel_status st = edgel_io_write_volume(out, &lv, &v);
        free(labels);
        remove(in);
        fuzz_dir_expect(st == EDGEL_OK ? out_name : NULL);
        edgel_io_free_volume(&v);
    } else {
        remove(in);
        fuzz_dir_expect(NULL);
    }
    return 0;
}
