/* libFuzzer target: the code-object reader on arbitrary bytes. Whatever it
 * accepts, every range it hands out must lie inside the bytes it kept. */
#include "wavelift/codeobj.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wl_codeobj *co = NULL;
    char err[256];
    if (wl_codeobj_read(data, size, &co, err, sizeof(err)) != WL_OK) {
        if (co != NULL || err[0] == '\0')
            abort();
        return 0;
    }
    unsigned sum = 0;
    for (size_t i = 0; i < co->nkernels; i++) {
        const wl_kernel *k = &co->kernels[i];
        if (k->code_offset > co->size || k->code_size > co->size - k->code_offset)
            abort();
        const uint8_t *code = wl_kernel_code(co, k);
        for (uint64_t j = 0; j < k->code_size; j++)
            sum += code[j];
        if (wl_codeobj_find_kernel(co, k->name) != k)
            abort();
        for (size_t a = 0; a < k->nargs; a++) {
            const wl_kernel_arg *arg = &k->args[a];
            sum += (unsigned)strlen(arg->value_kind);
            sum += arg->name ? (unsigned)strlen(arg->name) : 0;
            sum += arg->type_name ? (unsigned)strlen(arg->type_name) : 0;
            sum += arg->address_space ? (unsigned)strlen(arg->address_space) : 0;
        }
    }
    for (size_t i = 0; i < co->nfunctions; i++) {
        const wl_function *f = &co->functions[i];
        if (f->code_offset > co->size || f->size > co->size - f->code_offset)
            abort();
        if (f->size)
            sum += co->data[f->code_offset + f->size - 1];
    }
    if (co->metadata_target)
        sum += (unsigned)strlen(co->metadata_target);
    wl_codeobj_free(co);
    return (int)(sum & 0);
}
