/* Image files: round trips of every writable format, and truncated or hostile input giving
 * a clear error (never a crash; ASan/UBSan builds run this too). */
#define _XOPEN_SOURCE 700 /* rmdir, setrlimit, chmod */
#include "check.h"
#include "io/image_io.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, f);
    fclose(f);
    return buf;
}

static int same_pixels(const edgel_image *a, const edgel_image *b)
{
    if (a->width != b->width || a->height != b->height || a->type != b->type ||
        a->channels != b->channels)
        return 0;
    size_t row = (size_t)a->width * a->channels * edgel_pixel_size(a->type);
    for (int y = 0; y < a->height; y++)
        if (memcmp((char *)a->data + y * a->pitch, (char *)b->data + y * b->pitch, row))
            return 0;
    return 1;
}

/* Writes `img` to `path`, reads it back, checks equality, then decodes every truncation. */
static void round_trip(const char *path, const edgel_image *img)
{
    CHECK(edgel_io_write(path, img) == EDGEL_OK);
    edgel_image back;
    CHECK(edgel_io_read(path, NULL, &back) == EDGEL_OK);
    CHECK(same_pixels(img, &back));
    edgel_io_free(&back);
    size_t n;
    unsigned char *bytes = slurp(path, &n);
    CHECK(bytes != NULL);
    int all_failed_cleanly = 1;
    for (size_t cut = 0; bytes && cut < n; cut += 1 + cut / 16) {
        edgel_image part;
        edgel_status st = edgel_io_decode(bytes, cut, NULL, &part);
        if (st == EDGEL_OK) { /* a PNG may end before its IEND; then pixels must match */
            all_failed_cleanly &= same_pixels(img, &part);
            edgel_io_free(&part);
        } else {
            all_failed_cleanly &= st == EDGEL_ERROR_FORMAT && edgel_io_last_error()[0] != 0 &&
                                  part.data == NULL;
        }
    }
    CHECK(all_failed_cleanly);
    free(bytes);
}

static void test_round_trips(void)
{
    enum { W = 23, H = 11 };
    static uint8_t u8[W * H * 4];
    static uint16_t u16[W * H * 3];
    static float f32[W * H * 3];
    for (int i = 0; i < W * H * 4; i++)
        u8[i] = (uint8_t)(i * 37 + 11);
    for (int i = 0; i < W * H * 3; i++) {
        u16[i] = (uint16_t)(i * 2971 + 5);
        f32[i] = (float)i * 0.37f - 40.0f;
    }
    for (int cn = 1; cn <= 4; cn++) {
        if (cn == 2)
            continue;
        edgel_image a = edgel_image_host(u8, W, H, EDGEL_U8, cn);
        round_trip("rt.png", &a);
        edgel_image b = edgel_image_host(u16, W, H, EDGEL_U16, cn);
        if (cn != 4) {
            round_trip("rt16.png", &b);
            round_trip("rt.pgm", &a);
            round_trip("rt16.pgm", &b);
            edgel_image c = edgel_image_host(f32, W, H, EDGEL_F32, cn);
            round_trip("rt.pfm", &c);
        }
    }
    /* A pitched view writes only its pixels. */
    edgel_image pitched = {u8, 10, 7, 31, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
    round_trip("pitched.png", &pitched);
}

static void test_pfm_layout(void)
{
    /* PFM rows run bottom to top: the first row in the file is the image's last. */
    const char text[] = "Pf\n2 2\n-1.0\n";
    unsigned char buf[sizeof text - 1 + 16];
    memcpy(buf, text, sizeof text - 1);
    const float rows[4] = {1, 2, 3, 4}; /* little-endian host assumed by the -1.0 scale */
    memcpy(buf + sizeof text - 1, rows, 16);
    edgel_image img;
    CHECK(edgel_io_decode(buf, sizeof buf, NULL, &img) == EDGEL_OK);
    const float *p = img.data;
    CHECK(p[0] == 3 && p[1] == 4 && p[2] == 1 && p[3] == 2);
    edgel_io_free(&img);
}

static void expect_format_error(const char *bytes, size_t n, const char *needle)
{
    edgel_image img;
    edgel_status st = edgel_io_decode(bytes, n, NULL, &img);
    int ok = st == EDGEL_ERROR_FORMAT && strstr(edgel_io_last_error(), needle) && !img.data;
    if (!ok)
        fprintf(stderr, "decode gave %s \"%s\", expected a format error with \"%s\"\n",
                edgel_status_name(st), edgel_io_last_error(), needle);
    CHECK(ok);
}

#define EXPECT_FORMAT_ERROR(literal, needle) \
    expect_format_error(literal, sizeof literal - 1, needle)

static void test_hostile(void)
{
    EXPECT_FORMAT_ERROR("P5\n99999999 99999999\n255\n", "larger");
    EXPECT_FORMAT_ERROR("P5\n65536 65536\n255\n", "larger");
    EXPECT_FORMAT_ERROR("P5\n4 4\n0\n", "maxval");
    EXPECT_FORMAT_ERROR("P5\n4 4\n70000\n", "malformed");
    EXPECT_FORMAT_ERROR("P5\n4 4\n255\nabc", "truncated");
    EXPECT_FORMAT_ERROR("P6 # comment\n", "malformed");
    EXPECT_FORMAT_ERROR("P5\n-4 4\n255\n", "malformed");
    EXPECT_FORMAT_ERROR("Pf\n3 3\nnan\n", "scale");
    EXPECT_FORMAT_ERROR("Pf\n100000 100000\n-1\n", "larger");
    EXPECT_FORMAT_ERROR("PF\n0 2\n-1\n", "empty");
    EXPECT_FORMAT_ERROR("GIF89a", "not a PNG");
    EXPECT_FORMAT_ERROR("", "not a PNG");
    EXPECT_FORMAT_ERROR("\x89PNG\r\n\x1a\n", "PNG");
    EXPECT_FORMAT_ERROR("\xff\xd8\xff\xe0", "JPEG");
    /* A PNG header claiming 2^31-1 x 1 pixels must be refused before allocation. */
    static const unsigned char huge_png[] = {
        0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
        0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00};
    expect_format_error((const char *)huge_png, sizeof huge_png, "PNG");
    edgel_image img;
    CHECK(edgel_io_read("/nonexistent/file.png", NULL, &img) == EDGEL_ERROR_IO);
    CHECK(strstr(edgel_io_last_error(), "/nonexistent/file.png") != NULL);
    uint8_t px[4] = {0};
    edgel_image small = edgel_image_host(px, 2, 2, EDGEL_U8, 1);
    CHECK(edgel_io_write("out.jpg", &small) == EDGEL_ERROR_UNSUPPORTED);
    CHECK(edgel_io_write("out.xyz", &small) == EDGEL_ERROR_UNSUPPORTED);
    CHECK(edgel_io_write("/nonexistent/dir/out.png", &small) == EDGEL_ERROR_IO);
    CHECK(edgel_io_write("out.pfm", &small) == EDGEL_ERROR_UNSUPPORTED);
}

static void test_jpeg(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tiny.jpg", dir);
    size_t n;
    unsigned char *bytes = slurp(path, &n);
    CHECK(bytes != NULL);
    if (!bytes)
        return;
    edgel_image img;
    CHECK(edgel_io_decode(bytes, n, NULL, &img) == EDGEL_OK);
    CHECK(img.width == 16 && img.height == 8 && img.channels == 3 && img.type == EDGEL_U8);
    edgel_io_free(&img);
    int clean = 1;
    for (size_t cut = 0; cut < n; cut++) {
        edgel_status st = edgel_io_decode(bytes, cut, NULL, &img);
        clean &= st == EDGEL_ERROR_FORMAT && img.data == NULL;
    }
    CHECK(clean);
    free(bytes);
}

/* Files in `dir` whose names contain `part`. */
static int count_files(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, part) != NULL;
    if (d)
        closedir(d);
    return n;
}

/* A write that fails half-way (the file size limit stands in for a full disk) leaves the
 * target as it was and no temporary behind; permissions of a replaced file are kept. */
static void test_failed_write_keeps_target(void)
{
    const char *dir = "write-test";
    mkdir(dir, 0777);
    static uint8_t px[300 * 300 * 3];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 7 + i / 300);
    edgel_image big = edgel_image_host(px, 300, 300, EDGEL_U8, 3);
    edgel_image small = edgel_image_host(px, 4, 4, EDGEL_U8, 1);
    const char *names[] = {"write-test/t.png", "write-test/t.ppm", "write-test/t.pfm"};
    static float fpx[300 * 300];
    edgel_image fbig = edgel_image_host(fpx, 300, 300, EDGEL_F32, 1);
    edgel_image fsmall = edgel_image_host(fpx, 4, 4, EDGEL_F32, 1);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    for (int i = 0; i < 3; i++) {
        const int pfm = i == 2;
        CHECK(edgel_io_write(names[i], pfm ? &fsmall : &small) == EDGEL_OK);
        chmod(names[i], 0640);
        size_t before_n = 0, after_n = 0;
        unsigned char *before = slurp(names[i], &before_n);
        struct rlimit lim = {4096, old.rlim_max};
        setrlimit(RLIMIT_FSIZE, &lim);
        edgel_status st = edgel_io_write(names[i], pfm ? &fbig : &big);
        setrlimit(RLIMIT_FSIZE, &old);
        CHECK(st == EDGEL_ERROR_IO && strstr(edgel_io_last_error(), "nothing written"));
        unsigned char *after = slurp(names[i], &after_n);
        CHECK(before && after && before_n == after_n && !memcmp(before, after, before_n));
        CHECK(count_files(dir, ".edgel-") == 0);
        free(before);
        free(after);
        CHECK(edgel_io_write(names[i], pfm ? &fbig : &big) == EDGEL_OK); /* no limit: works */
        struct stat sb;
        CHECK(stat(names[i], &sb) == 0 && (sb.st_mode & 0777) == 0640 &&
              sb.st_size > 4096);
        CHECK(count_files(dir, ".edgel-") == 0);
        remove(names[i]);
    }
    /* An unsupported type is refused before any file is made. */
    CHECK(edgel_io_write("write-test/f.png", &fsmall) == EDGEL_ERROR_UNSUPPORTED);
    CHECK(count_files(dir, "f.png") == 0);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    test_failed_write_keeps_target();
    test_round_trips();
    test_pfm_layout();
    test_hostile();
    test_jpeg(argc > 1 ? argv[1] : "../../fuzz/corpus/jpeg");
    return check_summary("test_io");
}
