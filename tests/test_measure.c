/* The caliper (edgel_measure_pos): the edges of blurred bars of known width (exact erf
 * profiles) found where they are, across angles, types and the rectangle's width; the
 * transitions' filter; the count when the room is short; refusals. */
#define EDGEL_EXPERIMENTAL /* the caliper */
#include "check.h"
#include "edgel.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define W 96
#define H 80

/* A bright bar (80 to 180) between offsets o1 < o2 along the normal at angle t through (cx,
 * cy), blurred by a Gaussian of sigma s: two erf steps, exactly. */
static double bar(double x, double y, double cx, double cy, double t, double o1, double o2,
                  double s)
{
    const double d = (x - cx) * cos(t) + (y - cy) * sin(t), k = 1.0 / (s * sqrt(2.0));
    return 80.0 + 50.0 * (erf((d - o1) * k) - erf((d - o2) * k));
}

static void test_bars(void)
{
    static float f32[H][W];
    static uint16_t u16[H][W];
    const double cx = 47.3, cy = 39.8;
    for (int round = 0; round < 12; round++) {
        const double t = -1.4 + 0.25 * round, o1 = -7.31 + 0.1 * round, o2 = 5.18 + 0.07 * round;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const double v = bar(x, y, cx, cy, t, o1, o2, 1.0);
                f32[y][x] = (float)v, u16[y][x] = (uint16_t)lrint(v * 256.0);
            }
        const edgel_image fimg = edgel_image_host(f32, W, H, EDGEL_F32, 1);
        const edgel_image uimg = edgel_image_host(u16, W, H, EDGEL_U16, 1);
        const edgel_measure_rect r = {cx, cy, t, 25.0, round % 3 * 4.0};
        edgel_measure_params p;
        edgel_measure_params_default(&p);
        edgel_measure_edge e[8];
        int64_t n = -1;
        CHECK(edgel_measure_pos(&fimg, &r, &p, e, 8, &n) == EDGEL_OK && n == 2);
        /* each edge's offset along the normal: the bar's sides, to 0.01 px */
        for (int k = 0; k < 2 && n == 2; k++) {
            const double off = (e[k].x - cx) * cos(t) + (e[k].y - cy) * sin(t);
            /* a profile a pixel wide carries the interpolation's error (Lanczos-2 on this
             * sigma-1 edge: up to 0.03 px, by the angle); averaged across 9 or 17 samples,
             * whose phases differ, it stays under 0.01 px */
            CHECK(fabs(off - (k ? o2 : o1)) < (r.half_width > 0.0 ? 0.01 : 0.03));
            CHECK(fabs(e[k].distance - (off + 25.0)) < 1e-9);
        }
        CHECK(n == 2 && e[0].amplitude > 20.0 && e[1].amplitude < -20.0);
        /* 16 bits: the same places, amplitudes 256 times */
        edgel_measure_edge g[8];
        p.threshold = 20.0 * 256.0;
        CHECK(edgel_measure_pos(&uimg, &r, &p, g, 8, &n) == EDGEL_OK && n == 2);
        CHECK(n == 2 && fabs(g[0].distance - e[0].distance) < 0.005 &&
              fabs(g[1].distance - e[1].distance) < 0.005);
        /* transitions: the rising edge alone, the falling alone */
        edgel_measure_params_default(&p);
        p.transition = 1;
        CHECK(edgel_measure_pos(&fimg, &r, &p, g, 8, &n) == EDGEL_OK && n == 1 &&
              g[0].distance == e[0].distance);
        p.transition = -1;
        CHECK(edgel_measure_pos(&fimg, &r, &p, g, 8, &n) == EDGEL_OK && n == 1 &&
              g[0].distance == e[1].distance);
        /* a threshold above the bar's contrast: none */
        edgel_measure_params_default(&p);
        p.threshold = 1000.0;
        CHECK(edgel_measure_pos(&fimg, &r, &p, g, 8, &n) == EDGEL_OK && n == 0);
        /* room for one: the first, and the count of all */
        edgel_measure_params_default(&p);
        CHECK(edgel_measure_pos(&fimg, &r, &p, g, 1, &n) == EDGEL_OK && n == 2 &&
              g[0].distance == e[0].distance);
        CHECK(edgel_measure_pos(&fimg, &r, &p, NULL, 0, &n) == EDGEL_OK && n == 2);
    }
}

static void test_refusals(void)
{
    static uint8_t img[16][16];
    const edgel_image src = edgel_image_host(img, 16, 16, EDGEL_U8, 1);
    edgel_measure_rect r = {8, 8, 0, 5, 1};
    edgel_measure_params p;
    edgel_measure_params_default(&p);
    edgel_measure_edge e[4];
    int64_t n;
    CHECK(edgel_measure_pos(&src, &r, NULL, e, 4, &n) == EDGEL_OK && n == 0); /* flat */
    CHECK_STATUS(edgel_measure_pos(NULL, &r, &p, e, 4, &n), EDGEL_ERROR_NULL_ARGUMENT, "src");
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, NULL), EDGEL_ERROR_NULL_ARGUMENT,
                 "count");
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, NULL, 4, &n), EDGEL_ERROR_NULL_ARGUMENT,
                 "edges");
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, -1, &n), EDGEL_ERROR_INVALID_SIZE,
                 "capacity");
    r.half_length = 0.5;
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, &n), EDGEL_ERROR_INVALID_ARGUMENT,
                 "rectangle");
    r.half_length = 5, r.angle = NAN;
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, &n), EDGEL_ERROR_INVALID_ARGUMENT,
                 "rectangle");
    r.angle = 0;
    p.sigma = 0.1;
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, &n), EDGEL_ERROR_INVALID_ARGUMENT,
                 "sigma");
    edgel_measure_params_default(&p);
    p.transition = 2;
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, &n), EDGEL_ERROR_INVALID_ARGUMENT,
                 "transition");
    edgel_measure_params_default(&p);
    p.threshold = -1;
    CHECK_STATUS(edgel_measure_pos(&src, &r, &p, e, 4, &n), EDGEL_ERROR_INVALID_ARGUMENT,
                 "threshold");
    static uint8_t rgb[16][48];
    const edgel_image colour = edgel_image_host(rgb, 16, 16, EDGEL_U8, 3);
    edgel_measure_params_default(&p);
    CHECK_STATUS(edgel_measure_pos(&colour, &r, &p, e, 4, &n), EDGEL_ERROR_UNSUPPORTED,
                 "channels");
    edgel_image dev = src;
    dev.memory = EDGEL_MEMORY_DEVICE;
    CHECK(edgel_measure_pos(&dev, &r, &p, e, 4, &n) != EDGEL_OK);
}

int main(void)
{
    test_bars();
    test_refusals();
    return check_summary("measure");
}
