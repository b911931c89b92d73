/* Status names and the per-thread last-error message. */
#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[512];

const char *edgel_status_name(edgel_status status)
{
    switch (status) {
    case EDGEL_OK: return "EDGEL_OK";
    case EDGEL_ERROR_NULL_ARGUMENT: return "EDGEL_ERROR_NULL_ARGUMENT";
    case EDGEL_ERROR_INVALID_ARGUMENT: return "EDGEL_ERROR_INVALID_ARGUMENT";
    case EDGEL_ERROR_INVALID_SIZE: return "EDGEL_ERROR_INVALID_SIZE";
    case EDGEL_ERROR_INVALID_PITCH: return "EDGEL_ERROR_INVALID_PITCH";
    case EDGEL_ERROR_UNSUPPORTED: return "EDGEL_ERROR_UNSUPPORTED";
    case EDGEL_ERROR_OUT_OF_MEMORY: return "EDGEL_ERROR_OUT_OF_MEMORY";
    case EDGEL_ERROR_BACKEND_UNAVAILABLE: return "EDGEL_ERROR_BACKEND_UNAVAILABLE";
    case EDGEL_ERROR_DEVICE: return "EDGEL_ERROR_DEVICE";
    case EDGEL_ERROR_IO: return "EDGEL_ERROR_IO";
    case EDGEL_ERROR_FORMAT: return "EDGEL_ERROR_FORMAT";
    case EDGEL_ERROR_INTERNAL: return "EDGEL_ERROR_INTERNAL";
    case EDGEL_ERROR_CONTEXT_BUSY: return "EDGEL_ERROR_CONTEXT_BUSY";
    }
    return "EDGEL_ERROR_UNKNOWN";
}

const char *edgel_last_error(void) { return last_error; }

edgel_status edgel_fail(edgel_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

edgel_status edgel_fail_within(edgel_status status, const char *fmt, ...)
{
    char where[160], message[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    snprintf(message, sizeof message, "%s", last_error); /* (it may not be read as it is written) */
    int k = snprintf(last_error, sizeof last_error, "%s: ", where); /* (where is short) */
    size_t len = strlen(message), room = sizeof last_error - 1 - (size_t)k;
    len = len < room ? len : room; /* a long message is cut, never overrun */
    memcpy(last_error + k, message, len);
    last_error[(size_t)k + len] = '\0';
    return status;
}

unsigned edgel_version_number(void) { return EDGEL_VERSION_NUMBER; }
const char *edgel_version_string(void) { return EDGEL_VERSION_STRING; }
