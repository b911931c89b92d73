/* JPEG through libjpeg-turbo: gray JPEGs give 1 channel, all others RGB. */
#include "io/image_formats.h"

#include <stdio.h> /* before jpeglib.h, which uses FILE */

#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>

typedef struct jpeg_error {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} jpeg_error;

static void on_error(j_common_ptr cinfo)
{
    jpeg_error *err = (jpeg_error *)cinfo->err;
    err->mgr.format_message(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level)
{
    jpeg_error *err = (jpeg_error *)cinfo->err;
    /* A corrupt-data warning is an error for us: never return half an image silently. */
    if (level < 0 && err->mgr.num_warnings++ == 0) {
        err->mgr.format_message(cinfo, err->message);
        longjmp(err->jump, 1);
    }
}

edgel_status edgel_jpeg_decode(const unsigned char *bytes, size_t size,
                               const edgel_io_limits *limits, edgel_image *out)
{
    struct jpeg_decompress_struct cinfo;
    jpeg_error err;
    edgel_image *volatile result = out;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = on_error;
    err.mgr.emit_message = on_message;
    if (setjmp(err.jump)) {
        edgel_io_free(result);
        jpeg_destroy_decompress(&cinfo);
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "JPEG: %s", err.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, bytes, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    /* Limits before jpeg_start_decompress, which allocates the decoder's buffers. */
    edgel_status st = edgel_io_alloc_decoded(out, cinfo.image_width, cinfo.image_height,
                                             cinfo.num_components == 1 ? 1 : 3, EDGEL_U8, "JPEG",
                                             limits);
    if (st != EDGEL_OK) {
        jpeg_destroy_decompress(&cinfo);
        return st;
    }
    jpeg_start_decompress(&cinfo);
    if ((int)cinfo.output_width != out->width || (int)cinfo.output_height != out->height ||
        cinfo.output_components != out->channels) {
        edgel_io_free(out);
        jpeg_destroy_decompress(&cinfo);
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "JPEG: unexpected output layout");
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = (JSAMPROW)out->data + (size_t)cinfo.output_scanline * out->pitch;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return EDGEL_OK;
}
