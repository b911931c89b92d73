/*
 * Volume files for the edgel command and the tests (not part of libedgel): NIfTI-1 and
 * NIfTI-2 (.nii, .nii.gz) through the NIfTI reference library (nifticlib, public domain),
 * where the build has it, and MetaImage (.mha, .mhd: a text header over raw or zlib-compressed
 * voxels; metaimage.c). A file's header is checked (3-D at most, a voxel type that converts
 * exactly, sizes within the library's limits and the caller's memory) before its data is
 * read; truncated or hostile files give EDGEL_ERROR_FORMAT with a message, never a crash.
 */
#ifndef EDGEL_IO_VOLUME_IO_H
#define EDGEL_IO_VOLUME_IO_H

#include <stddef.h>

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A volume read from a file: its voxels (host memory, packed, owned), its voxel size along
 * x, y and z, and the file's header, which a result written "like" it keeps (orientation,
 * origin, spacing, units, descriptions). */
typedef enum edgel_volume_format {
    EDGEL_VOLUME_NONE = 0,
    EDGEL_VOLUME_NIFTI,     /* .nii, .nii.gz */
    EDGEL_VOLUME_METAIMAGE, /* .mha, .mhd */
    EDGEL_VOLUME_NRRD,      /* .nrrd, .nhdr */
    EDGEL_VOLUME_TIFF       /* .tif, .tiff: a multi-page stack, read as a volume when asked */
} edgel_volume_format;

typedef struct edgel_volume_file {
    edgel_volume volume;
    double spacing[3];
    void *header;
    edgel_volume_format format;
} edgel_volume_file;

/* Whether the build reads and writes NIfTI files (MetaImage always). */
int edgel_io_volumes_available(void);
/* The volume format `path` names by its extension (.nii, .nii.gz, .mha, .mhd, .nrrd, .nhdr),
 * or NONE. */
edgel_volume_format edgel_io_volume_format(const char *path);
/* The extensions a result in `format` is written with (".nii or .nii.gz", ".mha", ".nrrd"),
 * and whether `path` is one of them. */
const char *edgel_io_volume_outputs(edgel_volume_format format);
int edgel_io_volume_output_path(const char *path, edgel_volume_format format);
/* The second file a result written to `path` makes beside it (a .mhd's NAME.raw) into out;
 * 0 where it makes none. */
int edgel_io_volume_companion(const char *path, char *out, size_t cap);
/* Whether `path` names a volume file (a TIFF is an image unless asked otherwise). */
int edgel_io_is_volume_path(const char *path);
/* Reads `path`: u8, u16 and f32 voxels as they are; other integer types and f64 converted to
 * f32, and the header's scaling (scl_slope, scl_inter) applied in f32, as ITK's reader gives a
 * float image. Refused before the data is read when the voxels and a float copy of them would
 * pass `max_bytes` (0: no limit beyond the library's sizes). */
edgel_status edgel_io_read_volume(const char *path, size_t max_bytes, edgel_volume_file *out);
/* Writes `v` (packed; u8 or f32) to `path` with `like`'s header (its voxel type, scaling and
 * calibration replaced), in `like`'s format (a path of the other format is refused): NIfTI-1
 * (.nii, or .nii.gz compressed), or an uncompressed MetaImage .mha. All or nothing: a
 * temporary beside the target (a NIfTI one read back whole), then renamed over it. */
edgel_status edgel_io_write_volume(const char *path, const edgel_volume *v,
                                   const edgel_volume_file *like);
/* The same with the voxels stored packed in the file `fd` from its start (v's sizes and type;
 * its data unused): a volume on disk written without holding it. */
edgel_status edgel_io_write_volume_file(const char *path, const edgel_volume *v, int fd,
                                        const edgel_volume_file *like);
void edgel_io_free_volume(edgel_volume_file *f);
/* The header of `path` (out: its spacing, header and format; out->volume its sizes and the
 * type edgel_io_read_volume gives, without data) and where its voxels lie; nothing else read. */
struct edgel_voxel_layout;
edgel_status edgel_io_volume_layout(const char *path, struct edgel_voxel_layout *layout,
                                    edgel_volume_file *out);

#ifdef __cplusplus
}
#endif

#endif
