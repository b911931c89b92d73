/* What the file-level fuzz targets share: the input, less its last option bytes, as a file
 * (a memory file, opened by path as the command opens files), and a private directory for
 * outputs that must hold exactly what a run left there. */
#ifndef EDGEL_FUZZ_FILE_H
#define EDGEL_FUZZ_FILE_H

#define _GNU_SOURCE /* memfd_create */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memory file holding `size` bytes of `data`, its path in `path` (/proc/self/fd/N); the
 * descriptor (close it after), or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
    const int fd = memfd_create("edgel-fuzz", 0);
    if (fd < 0)
        return -1;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

static char fuzz_dir_name[64];

static inline void fuzz_dir_remove(void)
{
    rmdir(fuzz_dir_name);
}

/* The target's own directory, removed at exit (empty by then: each run cleans up). */
static inline const char *fuzz_dir(void)
{
    if (!fuzz_dir_name[0]) {
        snprintf(fuzz_dir_name, sizeof fuzz_dir_name, "/tmp/edgel-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_dir_name))
            abort();
        atexit(fuzz_dir_remove);
    }
    return fuzz_dir_name;
}

/* The directory holds `only` (NULL: nothing) and nothing else, else abort: a temporary or
 * partial file was left. `only` is removed. */
static inline void fuzz_dir_expect(const char *only)
{
    DIR *d = opendir(fuzz_dir());
    struct dirent *e;
    int seen = 0;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!only || strcmp(e->d_name, only) != 0)
            abort();
        seen = 1;
    }
    if (d)
        closedir(d);
    if (only && !seen)
        abort();
    if (only) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", fuzz_dir(), only);
        unlink(path);
    }
}

#endif
