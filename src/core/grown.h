/*
 * Internal: structs that grow. Each public parameter struct starts with `struct_size`, the
 * struct's size in the header its caller was built with (set by the struct's _default()
 * macro). The library reads that many bytes and nothing past them, and gives the fields a
 * caller's older header lacks their defaults, so a program built against an older header
 * keeps working with a newer library (zstd's and libjpeg-turbo's rule for parameters).
 */
#ifndef EDGEL_CORE_GROWN_H
#define EDGEL_CORE_GROWN_H

#include "edgel.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the first `size` bytes of `full` (the library's struct, `full_size` bytes, holding
 * the defaults) into the caller's struct `dst`, and `size` as its struct_size. */
void edgel_grown_init(void *dst, size_t size, const void *full, size_t full_size);

/* Reads the caller's struct `in` over `out`, which holds the defaults (full_size bytes):
 * refuses NULL, a struct never initialised or shorter than the first version's `first_size`
 * (INVALID_ARGUMENT, naming `init`), and one from a newer header (UNSUPPORTED). */
edgel_status edgel_grown_read(const void *in, void *out, size_t full_size, size_t first_size,
                              const char *name, const char *init);

#ifdef __cplusplus
}
#endif

#endif
