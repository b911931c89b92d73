/* Cross-tile hysteresis (edgel_components): joins across borders, corners included; the
 * driver's way (label each tile, add the components on its sides, join, read back) equals
 * hysteresis over the whole image on random classes and tilings; facing planes join exactly
 * where a brute-force 26-adjacency says; bad arguments are refused before anything changes;
 * one object under two threads gives each call OK or BUSY. */
#include "check.h"
#define EDGEL_EXPERIMENTAL /* edgel_components, the sub-pixel pieces */
#include "edgel.h"
#include "test_random.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 8-connected flood over `cls` (0 none, 1 weak, 2 strong) inside the rectangle: label[] of
 * each pixel (0: none); returns the count, and strong[label] set where a label holds a 2. */
static int label_rect(const uint8_t *cls, int w, int x0, int y0, int rw, int rh, int *label,
                      uint8_t *strong, int *stack)
{
    int count = 0;
    for (int i = 0; i < rw * rh; i++)
        label[i] = 0;
    for (int i = 0; i < rw * rh; i++) {
        if (label[i] || !cls[(y0 + i / rw) * w + x0 + i % rw])
            continue;
        label[i] = ++count;
        strong[count] = 0;
        int top = 0;
        stack[top++] = i;
        while (top) {
            const int p = stack[--top], px = p % rw, py = p / rw;
            strong[count] |= cls[(y0 + py) * w + x0 + px] == 2;
            for (int qy = py - 1; qy <= py + 1; qy++)
                for (int qx = px - 1; qx <= px + 1; qx++)
                    if (qx >= 0 && qy >= 0 && qx < rw && qy < rh && !label[qy * rw + qx] &&
                        cls[(y0 + qy) * w + x0 + qx]) {
                        label[qy * rw + qx] = count;
                        stack[top++] = qy * rw + qx;
                    }
        }
    }
    return count;
}

/* One random case: whole-image hysteresis against the tiled way through edgel_components. */
static int tiled_equals_whole(int w, int h, int tw, int th, int density)
{
    uint8_t *cls = malloc((size_t)w * h), *want = malloc((size_t)w * h);
    int *label = malloc(sizeof(int) * (size_t)w * h), *stack = malloc(sizeof(int) * (size_t)w * h * 9);
    uint8_t *strong = malloc((size_t)w * h + 1);
    for (int i = 0; i < w * h; i++) {
        const uint32_t r = next_random() % 100;
        cls[i] = r < (uint32_t)density ? (r < (uint32_t)density / 6 ? 2 : 1) : 0;
    }
    label_rect(cls, w, 0, 0, w, h, label, strong, stack); /* whole image */
    for (int i = 0; i < w * h; i++)
        want[i] = label[i] && strong[label[i]];

    const int tx_n = (w + tw - 1) / tw, ty_n = (h + th - 1) / th;
    int **labels = malloc(sizeof(int *) * (size_t)(tx_n * ty_n));
    int64_t *base = malloc(sizeof(int64_t) * (size_t)(tx_n * ty_n));
    uint8_t **own = malloc(sizeof(uint8_t *) * (size_t)(tx_n * ty_n));
    int64_t *node = malloc(sizeof(int64_t) * (size_t)w * h); /* each pixel's node, -1 none */
    edgel_components *c = NULL;
    int ok = edgel_components_create(&c) == EDGEL_OK;
    for (int ty = 0; ty < ty_n; ty++)
        for (int tx = 0; tx < tx_n; tx++) {
            const int i = ty * tx_n + tx, x0 = tx * tw, y0 = ty * th;
            const int rw = w - x0 < tw ? w - x0 : tw, rh = h - y0 < th ? h - y0 : th;
            labels[i] = malloc(sizeof(int) * (size_t)rw * rh);
            own[i] = malloc((size_t)rw * rh + 1);
            const int n = label_rect(cls, w, x0, y0, rw, rh, labels[i], own[i], stack);
            ok &= edgel_components_add(c, n, own[i] + 1, &base[i]) == EDGEL_OK;
            for (int p = 0; p < rw * rh; p++)
                node[(y0 + p / rw) * w + x0 + p % rw] = labels[i][p] ? base[i] + labels[i][p] - 1 : -1;
        }
    int64_t *near = malloc(sizeof(int64_t) * (size_t)(w > h ? w : h));
    int64_t *far = malloc(sizeof(int64_t) * (size_t)(w > h ? w : h));
    for (int ty = 1; ty < ty_n; ty++) { /* the rows either side of each tile-row border */
        memcpy(near, node + (size_t)(ty * th) * w, sizeof(int64_t) * (size_t)w);
        memcpy(far, node + (size_t)(ty * th - 1) * w, sizeof(int64_t) * (size_t)w);
        ok &= edgel_components_join(c, near, far, w) == EDGEL_OK;
    }
    for (int tx = 1; tx < tx_n; tx++) { /* the columns either side of each tile-column border */
        for (int y = 0; y < h; y++)
            near[y] = node[(size_t)y * w + tx * tw], far[y] = node[(size_t)y * w + tx * tw - 1];
        ok &= edgel_components_join(c, near, far, h) == EDGEL_OK;
    }
    uint8_t *joined = malloc((size_t)w * h);
    ok &= edgel_components_strong(c, node, (int64_t)w * h, joined) == EDGEL_OK;
    int same = ok;
    for (int i = 0; same && i < w * h; i++)
        same = (node[i] >= 0 && joined[i]) == want[i];
    for (int i = 0; i < tx_n * ty_n; i++)
        free(labels[i]), free(own[i]);
    edgel_components_destroy(c);
    free(cls), free(want), free(label), free(stack), free(strong), free(labels), free(base);
    free(own), free(node), free(near), free(far), free(joined);
    return same;
}

/* Facing planes of `rows` x `len` random nodes joined by edgel_components_join_faces: each
 * node's set is strong exactly where a brute-force union over the 26-adjacency (rows and
 * entries one apart) says. */
static int planes_join_as_brute_force(int rows, int len)
{
    const int n = rows * len;
    int64_t *near = malloc(sizeof(int64_t) * (size_t)n), *far = malloc(sizeof(int64_t) * (size_t)n);
    int64_t *all = malloc(sizeof(int64_t) * 2 * (size_t)n);
    int *parent = malloc(sizeof(int) * 2 * (size_t)n);
    uint8_t *strong = malloc(2 * (size_t)n), *got = malloc(2 * (size_t)n);
    for (int i = 0; i < 2 * n; i++) {
        strong[i] = next_random() % 100 < 15;
        parent[i] = i;
        all[i] = i;
    }
    for (int i = 0; i < n; i++) {
        near[i] = next_random() % 100 < 30 ? i : -1;
        far[i] = next_random() % 100 < 30 ? n + i : -1;
    }
    edgel_components *c = NULL;
    int64_t first = -1;
    int ok = edgel_components_create(&c) == EDGEL_OK &&
             edgel_components_add(c, 2 * n, strong, &first) == EDGEL_OK &&
             edgel_components_join_faces(c, near, far, rows, len) == EDGEL_OK &&
             edgel_components_strong(c, all, 2 * n, got) == EDGEL_OK;
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < len; i++)
            for (int dr = -1; dr <= 1; dr++)
                for (int di = -1; di <= 1; di++) {
                    const int rr = r + dr, ii = i + di;
                    if (rr < 0 || rr >= rows || ii < 0 || ii >= len || near[r * len + i] < 0 ||
                        far[rr * len + ii] < 0)
                        continue;
                    int a = (int)near[r * len + i], b = (int)far[rr * len + ii];
                    while (parent[a] != a)
                        a = parent[a];
                    while (parent[b] != b)
                        b = parent[b];
                    parent[a] = b;
                }
    uint8_t *set_strong = calloc(2 * (size_t)n, 1);
    for (int i = 0; i < 2 * n; i++) {
        int a = i;
        while (parent[a] != a)
            a = parent[a];
        set_strong[a] |= strong[i];
    }
    for (int i = 0; ok && i < 2 * n; i++) {
        int a = i;
        while (parent[a] != a)
            a = parent[a];
        ok = got[i] == set_strong[a];
    }
    edgel_components_destroy(c);
    free(near), free(far), free(all), free(parent), free(strong), free(got), free(set_strong);
    return ok;
}

typedef struct hammer {
    edgel_components *c;
    int bad;
} hammer;

static void *hammer_join(void *arg)
{
    hammer *hm = arg;
    const int64_t near[3] = {0, -1, 2}, far[3] = {1, 3, -1};
    uint8_t s[1];
    const int64_t one[1] = {2};
    for (int i = 0; i < 20000; i++) {
        const edgel_status a = edgel_components_join(hm->c, near, far, 3);
        const edgel_status b = edgel_components_strong(hm->c, one, 1, s);
        hm->bad += (a != EDGEL_OK && a != EDGEL_ERROR_CONTEXT_BUSY) ||
                   (b != EDGEL_OK && b != EDGEL_ERROR_CONTEXT_BUSY) || (b == EDGEL_OK && !s[0]);
    }
    return NULL;
}

int main(void)
{
    edgel_components *c = NULL;
    CHECK(edgel_components_create(&c) == EDGEL_OK && c);
    int64_t first = -1;
    const uint8_t flags[4] = {0, 1, 0, 0};
    CHECK(edgel_components_add(c, 4, flags, &first) == EDGEL_OK && first == 0);
    CHECK(edgel_components_add(c, 2, NULL, &first) == EDGEL_OK && first == 4); /* 4, 5 weak */

    /* Diagonal neighbours join (0 with 1); two apart do not (3 with 1; 2 with 3). */
    const int64_t near[4] = {0, -1, -1, 2}, far[4] = {-1, 1, -1, -1};
    CHECK(edgel_components_join(c, near, far, 4) == EDGEL_OK);
    const int64_t near2[4] = {2, -1, -1, -1}, far2[4] = {-1, -1, 3, -1};
    CHECK(edgel_components_join(c, near2, far2, 4) == EDGEL_OK);
    const int64_t ask[6] = {0, 1, 2, 3, -1, 5};
    uint8_t got[6];
    CHECK(edgel_components_strong(c, ask, 6, got) == EDGEL_OK);
    CHECK(got[0] == 1 && got[1] == 1 && got[2] == 0 && got[3] == 0 && got[4] == 0 && got[5] == 0);
    /* A chain through weak nodes reaches the strong one: 5 - 2, then 2 - 0. */
    const int64_t five[1] = {5}, two[1] = {2}, zero[1] = {0};
    CHECK(edgel_components_join(c, five, two, 1) == EDGEL_OK);
    CHECK(edgel_components_strong(c, ask, 6, got) == EDGEL_OK && got[2] == 0 && got[5] == 0);
    CHECK(edgel_components_join(c, two, zero, 1) == EDGEL_OK);
    CHECK(edgel_components_strong(c, ask, 6, got) == EDGEL_OK && got[2] == 1 && got[5] == 1);

    /* Refusals, before anything changes. */
    const int64_t bad[2] = {3, 6};
    CHECK_STATUS(edgel_components_join(c, bad, far, 2), EDGEL_ERROR_INVALID_ARGUMENT,
                 "near[1] = 6 is not a node");
    CHECK(edgel_components_strong(c, ask, 6, got) == EDGEL_OK && got[3] == 0);
    CHECK_STATUS(edgel_components_strong(c, bad, 2, got), EDGEL_ERROR_INVALID_ARGUMENT,
                 "nodes[1] = 6");
    CHECK_STATUS(edgel_components_join(c, near, NULL, 4), EDGEL_ERROR_NULL_ARGUMENT, "far");
    CHECK_STATUS(edgel_components_join(c, near, far, -1), EDGEL_ERROR_INVALID_SIZE, "negative");
    CHECK_STATUS(edgel_components_add(c, -5, NULL, &first), EDGEL_ERROR_INVALID_SIZE, "2^40");
    CHECK_STATUS(edgel_components_add(c, (int64_t)1 << 41, NULL, &first),
                 EDGEL_ERROR_INVALID_SIZE, "2^40");
    CHECK_STATUS(edgel_components_add(c, 1, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT, "first");
    CHECK_STATUS(edgel_components_add(NULL, 1, NULL, &first), EDGEL_ERROR_NULL_ARGUMENT,
                 "components");
    CHECK_STATUS(edgel_components_create(NULL), EDGEL_ERROR_NULL_ARGUMENT, "components");
    CHECK_STATUS(edgel_components_join_faces(c, near, far, -1, 2), EDGEL_ERROR_INVALID_SIZE,
                 "negative");
    CHECK_STATUS(edgel_components_join_faces(c, near, far, (int64_t)1 << 40, (int64_t)1 << 40),
                 EDGEL_ERROR_INVALID_SIZE, "out of range");
    CHECK_STATUS(edgel_components_join_faces(c, bad, far, 1, 2), EDGEL_ERROR_INVALID_ARGUMENT,
                 "near[1] = 6 is not a node");
    CHECK_STATUS(edgel_components_join_faces(NULL, near, far, 1, 2), EDGEL_ERROR_NULL_ARGUMENT,
                 "components");
    CHECK(edgel_components_join(c, NULL, NULL, 0) == EDGEL_OK); /* nothing to join */
    CHECK(edgel_components_join_faces(c, NULL, NULL, 5, 0) == EDGEL_OK);
    CHECK(edgel_components_add(c, 0, NULL, &first) == EDGEL_OK && first == 6);
    edgel_components_destroy(c);
    edgel_components_destroy(NULL);

    /* Two threads on one object: each call OK or BUSY, and the answers stay right. */
    CHECK(edgel_components_create(&c) == EDGEL_OK);
    const uint8_t f4[4] = {1, 0, 0, 0};
    CHECK(edgel_components_add(c, 4, f4, &first) == EDGEL_OK);
    hammer h1 = {c, 0}, h2 = {c, 0};
    pthread_t a, b;
    CHECK(pthread_create(&a, NULL, hammer_join, &h1) == 0);
    CHECK(pthread_create(&b, NULL, hammer_join, &h2) == 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    CHECK(h1.bad == 0 && h2.bad == 0);
    edgel_components_destroy(c);

    /* The driver's way equals whole-image hysteresis: random classes, sizes and tilings. */
    int all = 1;
    for (int round = 0; round < 300; round++) {
        const int w = 1 + (int)(next_random() % 60), h = 1 + (int)(next_random() % 60);
        const int tw = 1 + (int)(next_random() % (unsigned)w);
        const int th = 1 + (int)(next_random() % (unsigned)h);
        const int density = 10 + (int)(next_random() % 70);
        if (!tiled_equals_whole(w, h, tw, th, density)) {
            fprintf(stderr, "tiled != whole: %dx%d in %dx%d tiles, density %d\n", w, h, tw, th,
                    density);
            all = 0;
        }
    }
    CHECK(all);
    int planes = 1;
    for (int round = 0; round < 200; round++) {
        const int rows = 1 + (int)(next_random() % 9), len = 1 + (int)(next_random() % 9);
        if (!planes_join_as_brute_force(rows, len)) {
            fprintf(stderr, "faces of %d rows of %d join otherwise than 26-adjacency\n", rows,
                    len);
            planes = 0;
        }
    }
    CHECK(planes);
    return check_summary("components");
}
