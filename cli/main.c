/* The edgel command: subcommand dispatch, --help and --version. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char MAIN_HELP[] =
    "usage: edgel COMMAND [ARGS]\n"
    "\n"
    "Exact, fast Canny edge detection and image convolution on CPUs and NVIDIA GPUs\n"
    "(byte-identical to OpenCV's cv2.Canny, or to ITK's Canny filter).\n"
    "\n"
    "commands:\n"
    "  detect IN -o OUT [options]   edges of an image file (PNG, JPEG, PGM/PPM, PFM)\n"
    "  convolve IN -o OUT --kernel K   an image correlated with a kernel (cv2.filter2D)\n"
    "  compare A B                  agreement of two edge maps (identical?, Pco, Pnd, Pfa)\n"
    "  bench [options]              timings per stage, 640x480 to 7680x4320 (CPU or GPU)\n"
    "\n"
    "  edgel COMMAND --help         options of a command\n"
    "  edgel --version              library and command version\n"
    "\n"
    "exit status: 0 success, 1 failure, 2 usage error\n";

int main(int argc, char **argv)
{
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
        return EXIT_OK;
    }
    if (!strcmp(cmd, "detect"))
        return cmd_detect(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 2, argv + 2);
    if (!strcmp(cmd, "convolve"))
        return cmd_convolve(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "edgel: unknown command '%s' (run 'edgel --help')\n", cmd);
    return EXIT_USAGE;
}
