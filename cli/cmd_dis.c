/* wavelift dis: lists a code object's kernels (or raw code) in LLVM's
 * syntax.
 *
 *   wavelift dis [--mcpu gfx1030] [--wave32|--wave64] [--kernel NAME]
 *                [--asm-only] [--raw] FILE
 *
 * --kernel NAME lists the kernel NAME or the function NAME (a code symbol
 * that is not a kernel: what the kernels call), as llvm-objdump's
 * --disassemble-symbols does.
 */
#include "options.h"

#include "wavelift.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lists [code, code+size) starting at guest address `addr`. Returns the
 * number of bytes that did not decode. */
static size_t list_code(const cli_options *o, const wl_decoder *dec,
                        const uint8_t *code, size_t size, uint64_t addr)
{
    size_t bad = 0;
    size_t pos = 0;
    char text[512];
    while (pos < size) {
        wl_inst inst;
        wl_status st = wl_decode(dec, code + pos, size - pos, addr + pos, &inst);
        size_t n;
        if (st == WL_OK) {
            wl_print(&inst, text, sizeof(text));
            n = inst.size;
        } else {
            size_t avail = size - pos;
            uint32_t w = 0;
            n = avail < 4 ? avail : 4;
            for (size_t i = 0; i < n; i++)
                w |= (uint32_t)code[pos + i] << (8 * i);
            snprintf(text, sizeof(text), ".long 0x%08x", w);
            fprintf(stderr, "wavelift: %s: offset 0x%llx: %s\n", o->file,
                    (unsigned long long)(addr + pos), wl_status_name(st));
            bad += n;
        }
        if (o->asm_only) {
            printf("\t%s\n", text);
        } else {
            printf("\t%-58s // %012llX:", text, (unsigned long long)(addr + pos));
            for (size_t i = 0; i + 4 <= n; i += 4) {
                const uint8_t *b = code + pos + i;
                printf(" %08X", (unsigned)b[0] | (unsigned)b[1] << 8 |
                                    (unsigned)b[2] << 16 | (unsigned)b[3] << 24);
            }
            if (n % 4) {
                printf(" ");
                for (size_t i = n - n % 4; i < n; i++)
                    printf("%02X", code[pos + i]);
            }
            printf("\n");
        }
        pos += n;
    }
    return bad;
}

static void print_kernel_summary(const wl_codeobj *co, const wl_kernel *k)
{
    const wl_kernel_descriptor *kd = &k->kd;
    printf("; kernel %s\n", k->name);
    printf(";   descriptor %s.kd at 0x%llx, entry at 0x%llx, %llu bytes of code\n",
           k->name, (unsigned long long)k->kd_address,
           (unsigned long long)k->code_address, (unsigned long long)k->code_size);
    printf(";   target %s, code object v%d, %s\n", co->mach_name, co->abi_version,
           k->launch.wave32 ? "wave32" : "wave64");
    printf(";   group segment %u bytes, private segment %u bytes, kernarg %u bytes\n",
           kd->group_segment_fixed_size, kd->private_segment_fixed_size,
           kd->kernarg_size);
    printf(";   rsrc1 0x%08x, rsrc2 0x%08x, rsrc3 0x%08x, code properties 0x%04x\n",
           kd->compute_pgm_rsrc1, kd->compute_pgm_rsrc2, kd->compute_pgm_rsrc3,
           kd->kernel_code_properties);
    printf(";   user SGPRs %u, workgroup id x%s%s, workitem ids %u\n",
           k->launch.user_sgpr_count,
           k->launch.enable_sgpr_workgroup_id[1] ? " y" : "",
           k->launch.enable_sgpr_workgroup_id[2] ? " z" : "",
           k->launch.enable_vgpr_workitem_id + 1);
    if (k->has_metadata) {
        printf(";   metadata: kernarg segment %u bytes (align %u), wavefront %u, sgprs %u, vgprs %u\n",
               k->kernarg_segment_size, k->kernarg_segment_align,
               k->wavefront_size, k->sgpr_count, k->vgpr_count);
        for (size_t i = 0; i < k->nargs; i++) {
            const wl_kernel_arg *a = &k->args[i];
            printf(";   arg %zu: offset %u, size %u, %s", i, a->offset, a->size,
                   a->value_kind ? a->value_kind : "?");
            if (a->name)
                printf(", %s", a->name);
            if (a->type_name)
                printf(" (%s)", a->type_name);
            if (a->address_space)
                printf(", %s", a->address_space);
            printf("\n");
        }
    } else {
        printf(";   no metadata for this kernel\n");
    }
}

static int run_dis(const cli_options *o)
{
    size_t size = 0;
    uint8_t *data = cli_read_file(o->file, &size);
    if (!data)
        return EXIT_BAD_INPUT;
    if (!size) { /* an empty file (/dev/null) lists nothing: say so */
        free(data);
        fprintf(stderr, "wavelift: %s: empty file\n", o->file);
        return EXIT_BAD_INPUT;
    }

    int target = -1;
    if (o->mcpu) {
        target = wl_target_from_name(o->mcpu);
        if (target < 0) {
            free(data);
            return cli_usage_error("unknown --mcpu", o->mcpu);
        }
    }

    int is_elf = size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0;
    if (o->raw || !is_elf) {
        if (o->kernel) {
            free(data);
            return cli_usage_error("--kernel needs a code object, not raw code", NULL);
        }
        wl_decoder dec;
        wl_decoder_init(&dec, target >= 0 ? (wl_target)target : WL_GFX1030, o->wave != 32);
        size_t bad = list_code(o, &dec, data, size, 0);
        free(data);
        return bad ? EXIT_BAD_INPUT : 0;
    }

    wl_codeobj *co = NULL;
    char err[256];
    wl_status st = wl_codeobj_read(data, size, &co, err, sizeof(err));
    free(data);
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
        return EXIT_BAD_INPUT;
    }
    if (target < 0)
        target = co->target;
    if (target < 0) {
        fprintf(stderr, "wavelift: %s: target %s is not a gfx10 target; give --mcpu\n",
                o->file, co->mach_name[0] ? co->mach_name : "(none)");
        wl_codeobj_free(co);
        return EXIT_BAD_INPUT;
    }
    int rc = 0, listed = 0;
    for (size_t i = 0; i < co->nkernels; i++) {
        const wl_kernel *k = &co->kernels[i];
        if (o->kernel && strcmp(o->kernel, k->name) != 0)
            continue;
        listed++;
        int wave64 = o->wave ? o->wave == 64 : !k->launch.wave32;
        wl_decoder dec;
        wl_decoder_init(&dec, (wl_target)target, wave64);
        if (!o->asm_only) {
            print_kernel_summary(co, k);
            printf("%s:\n", k->name);
        }
        if (list_code(o, &dec, wl_kernel_code(co, k), k->code_size, k->code_address))
            rc = EXIT_BAD_INPUT;
        if (!o->asm_only)
            printf("\n");
    }
    /* Functions the kernels call: listed after the kernels (with --kernel,
     * the one of that name), in the wave size of the code object's kernels
     * (or the one asked for). */
    int co_wave64 = co->nkernels ? !co->kernels[0].launch.wave32 : 1;
    for (size_t i = 0; i < co->nfunctions; i++) {
        const wl_function *fn = &co->functions[i];
        if (o->kernel && strcmp(o->kernel, fn->name) != 0)
            continue;
        listed++;
        int wave64 = o->wave ? o->wave == 64 : co_wave64;
        wl_decoder dec;
        wl_decoder_init(&dec, (wl_target)target, wave64);
        if (!o->asm_only) {
            printf("; function %s at 0x%llx, %llu bytes of code\n", fn->name,
                   (unsigned long long)fn->address, (unsigned long long)fn->size);
            printf("%s:\n", fn->name);
        }
        if (list_code(o, &dec, co->data + fn->code_offset, fn->size, fn->address))
            rc = EXIT_BAD_INPUT;
        if (!o->asm_only)
            printf("\n");
    }
    if (o->kernel && !listed) {
        fprintf(stderr, "wavelift: %s: no kernel or function named %s\n", o->file, o->kernel);
        rc = EXIT_BAD_INPUT;
    }
    wl_codeobj_free(co);
    return rc;
}

int cmd_dis(cli_options *o)
{
    return run_dis(o);
}
