/* SPIRV-Tools: validation (Vulkan 1.3 rules) and disassembly, through its C
 * API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "wavelift/backend.h"

wl_status wl_validate_spirv(const uint32_t *words, size_t nwords, char *err, size_t errcap)
{
    if (!words || nwords < 5) {
        if (err && errcap)
            snprintf(err, errcap, "not a SPIR-V module (%zu words)", nwords);
        return WL_ERR_INVALID;
    }
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_3);
    if (!ctx) {
        if (err && errcap)
            snprintf(err, errcap, "SPIRV-Tools: no Vulkan 1.3 context");
        return WL_ERR_NOMEM;
    }
    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {words, nwords};
    spv_result_t r = spvValidate(ctx, &bin, &diag);
    wl_status st = WL_OK;
    if (r != SPV_SUCCESS) {
        st = WL_ERR_INVALID;
        if (err && errcap)
            snprintf(err, errcap, "spirv-val: %s (word %zu)", diag && diag->error ? diag->error : "invalid module",
                     diag ? diag->position.index : 0);
    }
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return st;
}

char *wl_disassemble_spirv(const uint32_t *words, size_t nwords)
{
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_3);
    if (!ctx)
        return NULL;
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    char *out = NULL;
    if (spvBinaryToText(ctx, words, nwords, SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES,
                        &text, &diag) == SPV_SUCCESS &&
        text) {
        out = malloc(text->length + 1);
        if (out) {
            memcpy(out, text->str, text->length);
            out[text->length] = 0;
        }
    }
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return out;
}
