/* edgel --man: the command's help texts as one man page (troff), so that the page says what
 * --help says and cannot drift from it; the build installs it as edgel.1. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Preformatted lines: troff's escape character written as \e, and a line that starts with
 * a control character ('.' or ''') made plain text. */
static void put_verbatim(const char *text)
{
    fputs(".nf\n", stdout);
    int line_start = 1;
    for (const char *c = text; *c; c++) {
        if (line_start && (*c == '.' || *c == '\''))
            fputs("\\&", stdout);
        if (*c == '\\')
            fputs("\\e", stdout);
        else
            putchar(*c);
        line_start = *c == '\n';
    }
    fputs(".fi\n", stdout);
}

int cmd_man(const char *main_help)
{
    printf(".TH EDGEL 1 \"\" \"edgel %s\" \"User Commands\"\n", EDGEL_VERSION_STRING);
    puts(".SH NAME\nedgel \\- exact, fast Canny edge detection and image convolution");
    puts(".SH SYNOPSIS\n.B edgel\n.I COMMAND\n[options]");
    puts(".SH DESCRIPTION");
    put_verbatim(main_help);
    const struct {
        const char *name, *help;
    } commands[] = {{"DETECT", DETECT_HELP}, {"CONTOURS", CONTOURS_HELP}, {"CONVOLVE", CONVOLVE_HELP},
                    {"COMPARE", COMPARE_HELP}, {"BENCH", BENCH_HELP}};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        printf(".SH \"EDGEL %s\"\n", commands[i].name);
        put_verbatim(commands[i].help);
    }
    puts(".SH \"SEE ALSO\"\nThe README and docs/ of the edgel sources; "
         "python3 \\-c \"import edgel; help(edgel)\".");
    return EXIT_OK;
}
