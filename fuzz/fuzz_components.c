/* libFuzzer target, differential: a program of edgel_components calls read from the input
 * (adds with strong flags, joins of facing lines and planes whose entries may be any node,
 * none or out of range, queries) against a plain relabelling union-find kept here: every call's status
 * (a refused join changes nothing) and every answer must agree. */
#define EDGEL_EXPERIMENTAL /* edgel_components, the sub-pixel pieces */
#include "edgel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_NODES = 512, MAX_LINE = 64 };

/* The reference: set[i] the set of node i, relabelled on each join; strong[set]. */
static int set_of[MAX_NODES];
static uint8_t set_strong[MAX_NODES];

static void ref_join(int a, int b, int n)
{
    const int from = set_of[b], to = set_of[a];
    if (from == to)
        return;
    set_strong[to] |= set_strong[from];
    for (int i = 0; i < n; i++)
        if (set_of[i] == from)
            set_of[i] = to;
}

/* A line entry from a byte: -1 (none), a node, or one past the nodes (refused). */
static int64_t entry(uint8_t b, int n)
{
    if (b < 64)
        return -1;
    if (b == 255)
        return n + (int64_t)(b & 3);
    return n ? (int64_t)(b % n) : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edgel_components *c = NULL;
    if (edgel_components_create(&c) != EDGEL_OK)
        abort();
    int n = 0;
    size_t i = 0;
    while (i + 2 <= size) {
        const uint8_t op = data[i] % 3, len = data[i + 1] % MAX_LINE;
        i += 2;
        if (op == 0) { /* add len nodes, flags from the next bytes */
            uint8_t flags[MAX_LINE];
            int count = len;
            if (n + count > MAX_NODES)
                count = MAX_NODES - n;
            for (int k = 0; k < count; k++)
                flags[k] = i + k < size ? data[i + k] & 1 : 0;
            i += (size_t)count;
            int64_t first = -1;
            if (edgel_components_add(c, count, flags, &first) != EDGEL_OK || first != n)
                abort();
            for (int k = 0; k < count; k++) {
                set_of[n + k] = n + k;
                set_strong[n + k] = flags[k];
            }
            n += count;
        } else if (op == 1) { /* join two faces of len entries: rows of cols */
            int64_t near[MAX_LINE], far[MAX_LINE];
            const int rows = 1 + len % 3, cols = len / rows, count = rows * cols;
            int bad = 0;
            for (int k = 0; k < count; k++) {
                near[k] = entry(i + k < size ? data[i + k] : 0, n);
                far[k] = entry(i + count + k < size ? data[i + count + k] : 0, n);
                bad |= near[k] >= n || far[k] >= n;
            }
            i += 2 * (size_t)count;
            const edgel_status st = rows == 1 ? edgel_components_join(c, near, far, cols)
                                              : edgel_components_join_faces(c, near, far, rows,
                                                                            cols);
            if (st != (bad ? EDGEL_ERROR_INVALID_ARGUMENT : EDGEL_OK))
                abort();
            for (int k = 0; !bad && k < count; k++)
                for (int r = k / cols - 1; near[k] >= 0 && r <= k / cols + 1; r++)
                    for (int j = k % cols - 1; r >= 0 && r < rows && j <= k % cols + 1; j++)
                        if (j >= 0 && j < cols && far[r * cols + j] >= 0)
                            ref_join((int)near[k], (int)far[r * cols + j], n);
        } else { /* ask every node, and -1 */
            int64_t nodes[MAX_NODES + 1];
            uint8_t strong[MAX_NODES + 1];
            for (int k = 0; k < n; k++)
                nodes[k] = k;
            nodes[n] = -1;
            if (edgel_components_strong(c, nodes, n + 1, strong) != EDGEL_OK || strong[n])
                abort();
            for (int k = 0; k < n; k++)
                if (strong[k] != set_strong[set_of[k]])
                    abort();
        }
    }
    edgel_components_destroy(c);
    return 0;
}
