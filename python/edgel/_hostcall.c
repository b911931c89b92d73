/*
 * The Python module's compiled call path for NumPy arrays: image views made from the buffer
 * protocol and the library call made here, without ctypes. On a 64x64 frame the ctypes views
 * and call cost more than the filter itself. And for Canny on CuPy arrays, whose addresses
 * and sizes the module passes: on the GPU the binding's costs add to the frame's latency.
 *
 * It does not link libedgel: the module passes the addresses of the functions it loaded, so
 * this extension always calls the library the module uses. Arrays that are not packed rows
 * of u8 or float32 give None (no exception), and the module then takes its ctypes path,
 * which reports what is wrong with them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "edgel.h"

typedef edgel_status (*filter2d_fn)(edgel_context *, const edgel_filter_params *,
                                    const edgel_image *, const edgel_image *, const edgel_image *);
typedef edgel_status (*sep_filter2d_fn)(edgel_context *, const edgel_filter_params *,
                                        const edgel_image *, const edgel_image *, const float *,
                                        int32_t, const float *, int32_t);
typedef edgel_status (*canny_fn)(edgel_context *, const edgel_canny_params *,
                                 const edgel_image *, const edgel_image *,
                                 const edgel_canny_stages *);

/* The buffer's element type, without a native byte-order prefix. */
static const char *element(const Py_buffer *b)
{
    const char *f = b->format ? b->format : "B";
    return *f == '@' || *f == '=' || *f == '<' ? f + 1 : f; /* little-endian hosts only */
}

/* A view of a 2-D (H, W) or 3-D (H, W, C) buffer of u8 or float32 with packed rows; 0 (and
 * no buffer held, no exception set) for anything else. */
static int image_view(PyObject *obj, int writable, Py_buffer *b, edgel_image *v)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Clear();
        return 0;
    }
    const char *f = element(b);
    const int u8 = !strcmp(f, "B") && b->itemsize == 1, f32 = !strcmp(f, "f") && b->itemsize == 4;
    if ((u8 || f32) && (b->ndim == 2 || b->ndim == 3)) {
        const Py_ssize_t h = b->shape[0], w = b->shape[1], c = b->ndim == 3 ? b->shape[2] : 1;
        const int packed = b->strides[b->ndim - 1] == b->itemsize &&
                           (b->ndim == 2 || b->strides[1] == c * b->itemsize) && b->strides[0] >= 0;
        if (packed && h <= INT32_MAX && w <= INT32_MAX && c <= INT32_MAX) {
            v->data = b->buf;
            v->width = (int32_t)w;
            v->height = (int32_t)h;
            v->pitch = h > 1 ? (size_t)b->strides[0] : (size_t)(w * c * b->itemsize);
            v->type = u8 ? EDGEL_U8 : EDGEL_F32;
            v->channels = (int32_t)c;
            v->memory = EDGEL_MEMORY_HOST;
            return 1;
        }
    }
    PyBuffer_Release(b);
    return 0;
}

/* A contiguous 1-D float32 buffer (a separable kernel's factor); 0 as image_view. */
static int factor_view(PyObject *obj, Py_buffer *b)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (b->ndim == 1 && b->itemsize == 4 && !strcmp(element(b), "f") && b->len / 4 <= INT32_MAX)
        return 1;
    PyBuffer_Release(b);
    return 0;
}

/* The kinds of buffer a call views (KERNEL: a 2-D float32 image). */
enum { IMAGE_IN, IMAGE_OUT, FACTOR, KERNEL };

/* Views of args[0 .. n - 1] as kinds[] says; 0, with no buffer held and no exception set,
 * where one cannot be viewed. */
static int views(PyObject *const *args, const int *kinds, int n, Py_buffer *b, edgel_image *v)
{
    for (int i = 0; i < n; i++) {
        int ok = kinds[i] == FACTOR ? factor_view(args[i], &b[i])
                                    : image_view(args[i], kinds[i] == IMAGE_OUT, &b[i], &v[i]);
        if (ok && kinds[i] == KERNEL && (v[i].type != EDGEL_F32 || b[i].ndim != 2)) {
            PyBuffer_Release(&b[i]);
            ok = 0;
        }
        if (!ok) {
            while (i--)
                PyBuffer_Release(&b[i]);
            return 0;
        }
    }
    return 1;
}

/* The start of a call: args are the function, context and parameter addresses, then n
 * buffers viewed as kinds[] says. -1 with an exception set (wrong arguments); 0, with no
 * buffer held, where a buffer cannot be viewed (the caller returns None); 1 when all are. */
static int begin_call(PyObject *const *args, Py_ssize_t nargs, const int *kinds, int n, void **a,
                      Py_buffer *b, edgel_image *v)
{
    if (nargs != 3 + n) {
        PyErr_Format(PyExc_TypeError, "%d arguments, not %zd", 3 + n, nargs);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        a[i] = PyLong_AsVoidPtr(args[i]);
        if (!a[i] && PyErr_Occurred())
            return -1;
    }
    return views(args + 3, kinds, n, b, v);
}

/* The end of a call: the buffers released, the status returned. */
static PyObject *end_call(edgel_status st, Py_buffer *b, int n)
{
    for (int i = 0; i < n; i++)
        PyBuffer_Release(&b[i]);
    return PyLong_FromLong((long)st);
}

/* What a function returns when begin_call gave r <= 0. */
static PyObject *call_not_made(int r)
{
    if (r < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* filter2d(fn, ctx, params, src, dst, kernel) -> status, or None */
static PyObject *hostcall_filter2d(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const int kinds[] = {IMAGE_IN, IMAGE_OUT, KERNEL};
    void *a[3];
    Py_buffer b[3];
    edgel_image v[3];
    (void)self;
    const int r = begin_call(args, nargs, kinds, 3, a, b, v);
    if (r <= 0)
        return call_not_made(r);
    edgel_status st;
    Py_BEGIN_ALLOW_THREADS /* as ctypes does */
    st = ((filter2d_fn)a[0])(a[1], a[2], &v[0], &v[1], &v[2]);
    Py_END_ALLOW_THREADS
    return end_call(st, b, 3);
}

/* sep_filter2d(fn, ctx, params, src, dst, kx, ky) -> status, or None */
static PyObject *hostcall_sep_filter2d(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const int kinds[] = {IMAGE_IN, IMAGE_OUT, FACTOR, FACTOR};
    void *a[3];
    Py_buffer b[4];
    edgel_image v[4];
    (void)self;
    const int r = begin_call(args, nargs, kinds, 4, a, b, v);
    if (r <= 0)
        return call_not_made(r);
    edgel_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ((sep_filter2d_fn)a[0])(a[1], a[2], &v[0], &v[1], (const float *)b[2].buf,
                                 (int32_t)(b[2].len / 4), (const float *)b[3].buf,
                                 (int32_t)(b[3].len / 4));
    Py_END_ALLOW_THREADS
    return end_call(st, b, 4);
}

/* canny(fn, ctx, params, src, dst) -> status, or None (no stages) */
static PyObject *hostcall_canny(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const int kinds[] = {IMAGE_IN, IMAGE_OUT};
    void *a[3];
    Py_buffer b[2];
    edgel_image v[2];
    (void)self;
    const int r = begin_call(args, nargs, kinds, 2, a, b, v);
    if (r <= 0)
        return call_not_made(r);
    edgel_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ((canny_fn)a[0])(a[1], a[2], &v[0], &v[1], NULL);
    Py_END_ALLOW_THREADS
    return end_call(st, b, 2);
}

/* canny_device(fn, ctx, params, src, w, h, channels, dst) -> status: edgel_canny on device
 * memory, u8 frames of packed rows (src: h rows of w * channels bytes, dst: h rows of w),
 * the addresses as ints. The module checks the arrays (CuPy's, C-contiguous) first. */
static PyObject *hostcall_canny_device(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "8 arguments, not %zd", nargs);
        return NULL;
    }
    void *a[3], *src, *dst;
    for (int i = 0; i < 3; i++) {
        a[i] = PyLong_AsVoidPtr(args[i]);
        if (!a[i] && PyErr_Occurred())
            return NULL;
    }
    long size[3];
    for (int i = 0; i < 3; i++) {
        size[i] = PyLong_AsLong(args[4 + i]);
        if (size[i] == -1 && PyErr_Occurred())
            return NULL;
        if (size[i] < 1 || size[i] > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "frame sizes must be 1 .. 2^31 - 1");
            return NULL;
        }
    }
    src = PyLong_AsVoidPtr(args[3]);
    dst = PyLong_AsVoidPtr(args[7]);
    if (PyErr_Occurred())
        return NULL;
    const int32_t w = (int32_t)size[0], h = (int32_t)size[1], c = (int32_t)size[2];
    const edgel_image in = {src, w, h, (size_t)w * (size_t)c, EDGEL_U8, c, EDGEL_MEMORY_DEVICE};
    const edgel_image out = {dst, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    edgel_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ((canny_fn)a[0])(a[1], a[2], &in, &out, NULL);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong((long)st);
}

static PyMethodDef methods[] = {
    {"filter2d", (PyCFunction)(void (*)(void))hostcall_filter2d, METH_FASTCALL,
     "filter2d(fn, ctx, params, src, dst, kernel) -> status, or None"},
    {"sep_filter2d", (PyCFunction)(void (*)(void))hostcall_sep_filter2d, METH_FASTCALL,
     "sep_filter2d(fn, ctx, params, src, dst, kx, ky) -> status, or None"},
    {"canny", (PyCFunction)(void (*)(void))hostcall_canny, METH_FASTCALL,
     "canny(fn, ctx, params, src, dst) -> status, or None"},
    {"canny_device", (PyCFunction)(void (*)(void))hostcall_canny_device, METH_FASTCALL,
     "canny_device(fn, ctx, params, src, w, h, channels, dst) -> status"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_hostcall",
                                    "edgel's compiled call path for NumPy arrays", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__hostcall(void) { return PyModule_Create(&module); }
