/* libFuzzer target: the `edgel detect` argument parser on arbitrary argument vectors (the
 * input split at NUL bytes). It must never crash and always leave a message on failure. */
#include "cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    char **argv = malloc(sizeof(char *) * (size + 1));
    if (!text || !argv) {
        free(text);
        free(argv);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = 0;
    int argc = 0;
    for (size_t i = 0; i <= size;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    detect_options opt;
    char err[256];
    args_result r = parse_detect_args(argc, argv, &opt, err, sizeof err);
    if (r == ARGS_USAGE && err[0] == 0)
        abort(); /* every usage error explains itself */
    if (r == ARGS_OK && (!opt.input || !opt.output))
        abort();
    free(text);
    free(argv);
    return 0;
}
