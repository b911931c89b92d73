/* What the image and volume files share (io/io_common.h): error messages, allocation within
 * limits, format identification, and files written all or nothing or kept as scratch. */
#define _XOPEN_SOURCE 700 /* fdopen, fsync, fchmod, O_CLOEXEC */
#include "io/io_common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static _Thread_local char io_error[512];

const char *edgel_io_last_error(void) { return io_error; }

edgel_status edgel_io_fail(edgel_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(io_error, sizeof io_error, fmt, ap);
    va_end(ap);
    return status;
}

void edgel_io_free(edgel_image *img)
{
    if (!img)
        return;
    free(img->data);
    img->data = NULL;
}

edgel_status edgel_io_alloc(edgel_image *out, long long width, long long height, int channels,
                            edgel_pixel_type type, const char *what)
{
    if (width < 1 || height < 1)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: empty image (%lldx%lld)", what, width, height);
    if (width > EDGEL_MAX_DIMENSION || height > EDGEL_MAX_DIMENSION ||
        width * height > EDGEL_MAX_PIXELS)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: %lldx%lld is larger than edgel accepts", what,
                             width, height);
    size_t bytes = (size_t)width * (size_t)height * (size_t)channels * edgel_pixel_size(type);
    void *data = malloc(bytes);
    if (!data)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", what,
                             bytes);
    *out = edgel_image_host(data, (int32_t)width, (int32_t)height, type, channels);
    return EDGEL_OK;
}

const char *edgel_io_format_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4)
        bytes /= 1000, u++;
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

static const char *type_name(edgel_pixel_type type)
{
    return type == EDGEL_U8 ? "8-bit" : type == EDGEL_U16 ? "16-bit" : "32-bit float";
}

edgel_status edgel_io_alloc_decoded(edgel_image *out, long long width, long long height,
                                    int channels, edgel_pixel_type type, const char *what,
                                    const edgel_io_limits *limits)
{
    const unsigned channel_mask = !limits ? 0
                                : type != EDGEL_U8 && limits->wide_channels ? limits->wide_channels
                                                                           : limits->channels;
    if (limits && ((limits->types && !(limits->types & (1u << type))) ||
                   (channel_mask && !(channel_mask & (1u << channels)))))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: %s with %d channel%s; %s", what,
                             type_name(type), channels, channels == 1 ? "" : "s",
                             limits->wants ? limits->wants : "not accepted here");
    if (limits && limits->max_image_bytes && width > 0 && height > 0 &&
        width <= EDGEL_MAX_DIMENSION && height <= EDGEL_MAX_DIMENSION) {
        const double bytes = (double)width * (double)height * channels * edgel_pixel_size(type);
        if (bytes > (double)limits->max_image_bytes) {
            char need[32], cap[32];
            return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                 "%s: %lldx%lld decodes to %s, more than the memory limit of %s",
                                 what, width, height,
                                 edgel_io_format_bytes(bytes, need, sizeof need),
                                 edgel_io_format_bytes((double)limits->max_image_bytes, cap,
                                                       sizeof cap));
        }
    }
    return edgel_io_alloc(out, width, height, channels, type, what);
}

edgel_file_format edgel_io_sniff(const void *bytes, size_t size)
{
    const unsigned char *b = bytes;
    if (size >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0)
        return EDGEL_FILE_PNG;
    if (size >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return EDGEL_FILE_JPEG;
    if (size >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6')
        return EDGEL_FILE_PNM;
    if (size >= 2 && b[0] == 'P' && (b[1] == 'f' || b[1] == 'F'))
        return EDGEL_FILE_PFM;
    if (size >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                      (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43))))
        return EDGEL_FILE_TIFF;
    return EDGEL_FILE_UNKNOWN;
}

edgel_file_format edgel_io_format_for_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot)
        return EDGEL_FILE_UNKNOWN;
    if (!strcasecmp(dot, ".png"))
        return EDGEL_FILE_PNG;
    if (!strcasecmp(dot, ".pgm") || !strcasecmp(dot, ".ppm") || !strcasecmp(dot, ".pnm"))
        return EDGEL_FILE_PNM;
    if (!strcasecmp(dot, ".pfm"))
        return EDGEL_FILE_PFM;
    if (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"))
        return EDGEL_FILE_JPEG;
    if (!strcasecmp(dot, ".tif") || !strcasecmp(dot, ".tiff"))
        return EDGEL_FILE_TIFF;
    return EDGEL_FILE_UNKNOWN;
}

/* The temporaries open now, for edgel_io_remove_temporaries: a name is complete before its
 * slot is marked used. */
enum { LIVE_SLOTS = 16 };
static char live_name[LIVE_SLOTS][sizeof(((edgel_io_temporary *)0)->name)];
static atomic_int live_used[LIVE_SLOTS];

static void live_add(const char *name)
{
    for (int i = 0; i < LIVE_SLOTS; i++) {
        int free_slot = 0;
        if (atomic_load(&live_used[i]) == 0 &&
            atomic_compare_exchange_strong(&live_used[i], &free_slot, -1)) {
            snprintf(live_name[i], sizeof live_name[i], "%s", name);
            atomic_store(&live_used[i], 1);
            return;
        }
    }
}

static void live_remove(const char *name)
{
    for (int i = 0; i < LIVE_SLOTS; i++)
        if (atomic_load(&live_used[i]) == 1 && strcmp(live_name[i], name) == 0) {
            atomic_store(&live_used[i], 0);
            return;
        }
}

void edgel_io_remove_temporaries(void)
{
    for (int i = 0; i < LIVE_SLOTS; i++)
        if (atomic_load(&live_used[i]) == 1)
            unlink(live_name[i]);
}

/* A new file beside `path` (same directory, so that rename is atomic), named
 * .NAME.edgel-PID-N (.edgel-PID-N where that would pass the longest file name), created
 * exclusively with the usual 0666 less the umask. */
static FILE *create_temporary(const char *path, const char *suffix, char *tmp, size_t cap,
                              int read_too)
{
    static atomic_uint counter;
    const char *slash = strrchr(path, '/');
    const int dir_len = slash ? (int)(slash - path + 1) : 0;
    const char *base = strlen(path + dir_len) + 32 <= NAME_MAX ? path + dir_len : "";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&counter, 1);
        if (snprintf(tmp, cap, "%.*s.%s%sedgel-%ld-%u%s", dir_len, path, base, base[0] ? "." : "",
                     (long)getpid(), n, suffix) >= (int)cap) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        int fd = open(tmp, (read_too ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            FILE *f = fdopen(fd, read_too ? "w+b" : "wb");
            if (!f) {
                close(fd);
                unlink(tmp);
            } else {
                live_add(tmp);
            }
            return f;
        }
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

edgel_status edgel_io_temporary_open(edgel_io_temporary *t, const char *path)
{
    return edgel_io_temporary_open_as(t, path, "");
}

edgel_status edgel_io_temporary_open_as(edgel_io_temporary *t, const char *path,
                                        const char *suffix)
{
    t->path = path;
    t->file = create_temporary(path, suffix, t->name, sizeof t->name, 0);
    if (!t->file)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: cannot create a file in its directory: %s",
                             path, strerror(errno));
    struct stat old;
    if (stat(path, &old) == 0 && S_ISREG(old.st_mode))
        fchmod(fileno(t->file), old.st_mode & 07777); /* replacing a file keeps its permissions */
    return EDGEL_OK;
}

int edgel_io_write_at(int fd, const void *b, size_t n, long long offset)
{
    while (n) {
        const ssize_t k = pwrite(fd, b, n, (off_t)offset);
        if (k <= 0)
            return 0;
        b = (const uint8_t *)b + k, n -= (size_t)k, offset += k;
    }
    return 1;
}

int edgel_io_read_at(int fd, void *b, size_t n, long long offset)
{
    while (n) {
        const ssize_t k = pread(fd, b, n, (off_t)offset);
        if (k <= 0)
            return 0;
        b = (uint8_t *)b + k, n -= (size_t)k, offset += k;
    }
    return 1;
}

edgel_status edgel_io_scratch_open(edgel_io_temporary *t, const char *beside,
                                   const char *suffix)
{
    t->path = NULL;
    /* a file with no name where the file system allows it: nothing left, even after SIGKILL */
    const char *slash = strrchr(beside, '/');
    snprintf(t->name, sizeof t->name, "%.*s", slash ? (int)(slash - beside + 1) : 1,
             slash ? beside : ".");
#ifdef O_TMPFILE
    const int fd = open(t->name, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    t->file = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (fd >= 0 && !t->file)
        close(fd);
    if (t->file) {
        snprintf(t->name + strlen(t->name), sizeof t->name - strlen(t->name),
                 "%s(a scratch file%s)", slash ? "" : "/", suffix);
        return EDGEL_OK;
    }
#endif
    /* elsewhere a named one, unlinked at once */
    t->file = create_temporary(beside, suffix, t->name, sizeof t->name, 1);
    if (!t->file)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: cannot create a scratch file in its "
                             "directory: %s", beside, strerror(errno));
    unlink(t->name);
    live_remove(t->name);
    return EDGEL_OK;
}

void edgel_io_temporary_discard(edgel_io_temporary *t)
{
    if (!t->file)
        return;
    fclose(t->file);
    t->file = NULL;
}

edgel_status edgel_io_temporary_close(edgel_io_temporary *t, int ok, int err)
{
    if (!t->file)
        return EDGEL_OK;
    if (ok && (fflush(t->file) != 0 || fsync(fileno(t->file)) != 0))
        ok = 0, err = errno;
    if (fclose(t->file) != 0 && ok)
        ok = 0, err = errno;
    t->file = NULL;
    if (ok && rename(t->name, t->path) != 0)
        ok = 0, err = errno;
    if (!ok)
        unlink(t->name);
    live_remove(t->name);
    if (!ok) {
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: write failed (%s); nothing written", t->path,
                             err ? strerror(err) : "encoder error");
    }
    return EDGEL_OK;
}
