/* Stub: the code-object reader is not written yet. */
#include "wavelift/codeobj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wl_status wl_codeobj_read(const uint8_t *data, size_t size, wl_codeobj **out,
                          char *err, size_t errcap)
{
    (void)data; (void)size;
    *out = NULL;
    snprintf(err, errcap, "code objects are not supported yet");
    return WL_ERR_FORMAT;
}

wl_status wl_codeobj_load(const char *path, wl_codeobj **out, char *err, size_t errcap)
{
    (void)path;
    return wl_codeobj_read(NULL, 0, out, err, errcap);
}

void wl_codeobj_free(wl_codeobj *co) { free(co); }

const wl_kernel *wl_codeobj_find_kernel(const wl_codeobj *co, const char *name)
{
    (void)co; (void)name;
    return NULL;
}

const uint8_t *wl_kernel_code(const wl_codeobj *co, const wl_kernel *k)
{
    return co->data + k->code_offset;
}
