/* Structs that grow (core/grown.h). */
#include "core/grown.h"
#include "core/status.h"

#include <stdint.h>
#include <string.h>

void edgel_grown_init(void *dst, size_t size, const void *full, size_t full_size)
{
    if (!dst || size < sizeof(uint32_t))
        return;
    memcpy(dst, full, size < full_size ? size : full_size);
    const uint32_t s = (uint32_t)size;
    memcpy(dst, &s, sizeof s);
}

edgel_status edgel_grown_read(const void *in, void *out, size_t full_size, size_t first_size,
                              const char *name, const char *init)
{
    if (!in)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s is NULL", name);
    uint32_t size;
    memcpy(&size, in, sizeof size);
    if (size < first_size)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "%s->struct_size is %u: initialise %s with %s() (it sets the size)",
                          name, (unsigned)size, name, init);
    if (size > full_size)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "%s come from a newer edgel header (%u bytes; this library, %s, knows "
                          "%zu): build against this library's header, or update the library",
                          name, (unsigned)size, EDGEL_VERSION_STRING, full_size);
    memcpy(out, in, size);
    const uint32_t s = (uint32_t)full_size;
    memcpy(out, &s, sizeof s);
    return EDGEL_OK;
}
