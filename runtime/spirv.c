/* SPIR-V words before the driver sees them: a file reader and a structural
 * check (header, instruction lengths, the GLCompute entry point and its
 * LocalSize). Drivers are not validators and some crash on malformed
 * words; full validation is backend/'s job (SPIRV-Tools). */
#include "rt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_MAGIC 0x07230203u
#define OP_ENTRY_POINT 15
#define OP_EXECUTION_MODE 16
#define OP_EXECUTION_MODE_ID 331
#define MODEL_GLCOMPUTE 5
#define MODE_LOCAL_SIZE 17
#define MODE_LOCAL_SIZE_ID 38

wl_rt_status wl_rt_spirv_read_file(const char *path, uint32_t **words, size_t *nwords, char *err,
                                   size_t errcap)
{
    if (!path || !words || !nwords) {
        wl_rt_format_err(err, errcap, "wl_rt_spirv_read_file: NULL argument");
        return WL_RT_ERR_USAGE;
    }
    *words = NULL;
    *nwords = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        wl_rt_format_err(err, errcap, "%s: %s", path, strerror(errno));
        return WL_RT_ERR_IO;
    }
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        wl_rt_format_err(err, errcap, "%s: cannot tell its size", path);
        return WL_RT_ERR_IO;
    }
    if (n == 0 || n % 4 != 0) {
        fclose(f);
        wl_rt_format_err(err, errcap, "%s: %ld bytes is not a whole number of SPIR-V words", path, n);
        return WL_RT_ERR_FORMAT;
    }
    uint32_t *w = malloc((size_t)n);
    if (!w) {
        fclose(f);
        wl_rt_format_err(err, errcap, "%s: out of host memory", path);
        return WL_RT_ERR_NOMEM;
    }
    size_t got = fread(w, 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) {
        free(w);
        wl_rt_format_err(err, errcap, "%s: short read", path);
        return WL_RT_ERR_IO;
    }
    *words = w;
    *nwords = (size_t)n / 4;
    return WL_RT_OK;
}

/* The literal string at words[at..end) fits and is NUL-terminated. */
static int string_fits(const uint32_t *w, size_t at, size_t end)
{
    for (size_t i = at; i < end; i++) {
        uint32_t v = w[i];
        for (int b = 0; b < 4; b++)
            if (((v >> (8 * b)) & 0xff) == 0)
                return 1;
    }
    return 0;
}

wl_rt_status wl_rt_spirv_check(const uint32_t *words, size_t nwords, const char *entry,
                               wl_rt_spirv_info *info, char *err, size_t errcap)
{
    wl_rt_spirv_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    if (!entry)
        entry = "main";
    if (!words || nwords < 5) {
        wl_rt_format_err(err, errcap, "SPIR-V: %zu words, shorter than the 5-word header", words ? nwords : 0);
        return WL_RT_ERR_FORMAT;
    }
    if (words[0] != SPV_MAGIC) {
        wl_rt_format_err(err, errcap, "SPIR-V: magic 0x%08x is not 0x%08x%s", words[0], SPV_MAGIC,
                         words[0] == 0x03022307u ? " (byte-swapped words)" : "");
        return WL_RT_ERR_FORMAT;
    }
    info->version = words[1];
    if ((words[1] & 0xff0000ffu) != 0 || words[1] < 0x00010000u || words[1] > 0x00010600u) {
        wl_rt_format_err(err, errcap, "SPIR-V: version word 0x%08x is not 1.0 to 1.6", words[1]);
        return WL_RT_ERR_FORMAT;
    }
    uint32_t entry_id = 0;
    int entries = 0;
    for (size_t i = 5; i < nwords;) {
        uint32_t wc = words[i] >> 16, op = words[i] & 0xffff;
        if (wc == 0 || wc > nwords - i) {
            wl_rt_format_err(err, errcap, "SPIR-V: instruction at word %zu (opcode %u) has word count %u%s", i,
                             op, wc, wc ? ", past the end" : "");
            return WL_RT_ERR_FORMAT;
        }
        if (op == OP_ENTRY_POINT) {
            if (wc < 4 || !string_fits(words, i + 3, i + wc)) {
                wl_rt_format_err(err, errcap, "SPIR-V: malformed OpEntryPoint at word %zu", i);
                return WL_RT_ERR_FORMAT;
            }
            if (words[i + 1] == MODEL_GLCOMPUTE && strcmp((const char *)&words[i + 3], entry) == 0) {
                entry_id = words[i + 2];
                entries++;
            }
        }
        i += wc;
    }
    if (entries != 1) {
        wl_rt_format_err(err, errcap, "SPIR-V: %s GLCompute entry point named \"%s\"",
                         entries ? "more than one" : "no", entry);
        return WL_RT_ERR_FORMAT;
    }
    int sized = 0;
    for (size_t i = 5; i < nwords; i += words[i] >> 16) {
        uint32_t wc = words[i] >> 16, op = words[i] & 0xffff;
        if (op == OP_EXECUTION_MODE && wc == 6 && words[i + 1] == entry_id && words[i + 2] == MODE_LOCAL_SIZE) {
            for (int k = 0; k < 3; k++)
                info->local_size[k] = words[i + 3 + k];
            sized = 1;
        } else if (op == OP_EXECUTION_MODE_ID && wc == 6 && words[i + 1] == entry_id &&
                   words[i + 2] == MODE_LOCAL_SIZE_ID) {
            sized = 2;
        }
    }
    if (sized == 1 && (info->local_size[0] == 0 || info->local_size[1] == 0 || info->local_size[2] == 0)) {
        wl_rt_format_err(err, errcap, "SPIR-V: LocalSize %u %u %u has a zero", info->local_size[0],
                         info->local_size[1], info->local_size[2]);
        return WL_RT_ERR_FORMAT;
    }
    /* No LocalSize here: the WorkgroupSize built-in may give it; the driver
     * checks that. */
    return WL_RT_OK;
}
