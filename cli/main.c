/* The edgel command: subcommand dispatch, --help and --version. */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "cli.h"
#include "io/volume_io.h"
#include "io/image_io.h"
#include "io/row_stream.h"

#include <png.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char MAIN_HELP[] =
    "usage: edgel COMMAND [ARGS]\n"
    "\n"
    "Exact, fast Canny edge detection and image convolution on CPUs and NVIDIA GPUs\n"
    "(byte-identical to OpenCV's cv2.Canny, or to ITK's Canny filter).\n"
    "\n"
    "commands:\n"
    "  detect IN -o OUT [options]   edges of an image file (PNG, JPEG, PBM/PGM/PPM, PFM,\n"
    "                               TIFF): cv2.Canny's (default), ITK's (--preset itk) or\n"
    "                               skimage.feature.canny's (--preset skimage); or of a\n"
    "                               volume (NIfTI, MetaImage, NRRD, a TIFF stack with\n"
    "                               --volume; --preset itk)\n"
    "  contours IN -o OUT [options] sub-pixel edge curves (Canny/Devernay): .txt .svg .json\n"
    "                               .geojson .npz .pdf\n"
    "  convolve IN -o OUT --kernel K   an image correlated with a kernel (cv2.filter2D)\n"
    "  compare A B                  agreement of two edge maps (identical?, Pco, Pnd, Pfa)\n"
    "  bench [options]              timings per stage, 640x480 to 7680x4320 (CPU or GPU)\n"
    "\n"
    "  edgel COMMAND --help         options of a command\n"
    "  edgel --version              library and command version, what the build has\n"
    "  edgel --man                  this help and every command's, as a man page\n"
    "\n"
    "exit status: 0 success, 1 failure, 2 usage error\n";

/* Interrupted, terminated or hung up: no temporary output left behind, then the signal's
 * own end (the exit status a shell expects). */
static void end_on_signal(int sig)
{
    edgel_io_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void handle_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = end_on_signal;
    sigemptyset(&sa.sa_mask);
    const int ends[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(ends[i], &sa, NULL);
    /* past `ulimit -f` a write fails with EFBIG and takes the ordinary error path, which
     * removes the temporary, instead of the process ending with it on disk */
    signal(SIGXFSZ, SIG_IGN);
}

int main(int argc, char **argv)
{
    handle_signals();
    if (argc < 2) {
        fputs(MAIN_HELP, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(MAIN_HELP, stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("edgel %s (library %s)\n", EDGEL_VERSION_STRING, edgel_version_string());
        printf("library: %s\n", edgel_build_config());
        const char *tiff = edgel_row_stream_tiff_version();
        char tiff_line[96] = "no TIFF (built without libtiff)";
        if (tiff) { /* libtiff's first line: "LIBTIFF, Version 4.5.0" */
            const char *v = strstr(tiff, "Version ") ? strstr(tiff, "Version ") + 8 : tiff;
            snprintf(tiff_line, sizeof tiff_line, "TIFF and BigTIFF (libtiff %.*s)",
                     (int)strcspn(v, "\n"), v);
        }
        printf("files: PNG (libpng %s), JPEG (libjpeg-turbo), PGM/PPM, PFM, %s; volumes: %s\n",
               png_get_libpng_ver(NULL), tiff_line,
               edgel_io_volumes_available()
                   ? "NIfTI-1 and NIfTI-2 (nifticlib), MetaImage, NRRD"
                   : "MetaImage, NRRD (no NIfTI: built without nifticlib)");
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--man"))
        return cmd_man(MAIN_HELP);
    if (!strcmp(cmd, "detect"))
        return cmd_detect(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 2, argv + 2);
    if (!strcmp(cmd, "contours"))
        return cmd_contours(argc - 2, argv + 2);
    if (!strcmp(cmd, "convolve"))
        return cmd_convolve(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "edgel: unknown command '%s' (run 'edgel --help')\n", cmd);
    return EXIT_USAGE;
}
