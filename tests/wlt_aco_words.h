/* ACO's code as tests/aco/regen.sh writes it (NAME.wW.words) and the launch
 * RADV gives it (../shared/radv-abi.md), for test_aco_corpus (docs/aco.md;
 * test_aco_run and test_replay read the same files through wlt_aco.h).
 * Header-only; every function static. */
#ifndef WLT_ACO_WORDS_H
#define WLT_ACO_WORDS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/lift.h"

typedef struct wlt_aco_words {
    uint8_t *code;
    size_t size;
    size_t instructions;
    uint32_t local[3];
    uint32_t lds;
    unsigned sgpr_args; /* SGPR arguments of p_startpgm (a pair counts once) */
    unsigned vgpr_ids;  /* VGPRs of p_startpgm: v[0-2] is 3 */
    /* "# launch:" (regen.sh launch_facts): the workgroup id components,
     * gl_NumWorkGroups in user SGPRs, the workgroup-info SGPR */
    int wgid[3], numwg, tg;
    int have_local, have_lds, have_args, have_launch;
} wlt_aco_words;

/* Reads NAME.wW.words; 0 on success (w->code to free()). */
static inline int wlt_aco_read_words(const char *path, wlt_aco_words *w)
{
    memset(w, 0, sizeof(*w));
    size_t n;
    char *text = (char *)wlt_read_file(path, &n);
    if (!text)
        return -1;
    w->code = malloc(n + 4);
    if (!w->code) {
        free(text);
        return -1;
    }
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') {
            char mask[8] = "";
            if (sscanf(line, "# workgroup-size: %u, %u, %u", &w->local[0], &w->local[1], &w->local[2]) == 3)
                w->have_local = 1;
            else if (sscanf(line, "# shared-size: %u", &w->lds) == 1)
                w->have_lds = 1;
            else if (sscanf(line, "# launch: wgid=%7s numwg=%d tg=%d", mask, &w->numwg, &w->tg) == 3) {
                w->have_launch = 1;
                for (int i = 0; i < 3; i++)
                    w->wgid[i] = strchr(mask, "xyz"[i]) != NULL;
            } else if (strncmp(line, "# p_startpgm:", 13) == 0) {
                w->have_args = 1;
                for (const char *p = line; (p = strstr(p, ":s[")) != NULL; p++)
                    w->sgpr_args++;
                const char *v = strstr(line, ":v[0-");
                w->vgpr_ids = v ? (unsigned)(v[5] - '0') + 1 : strstr(line, ":v[0]") ? 1 : 0;
            }
            continue;
        }
        int any = 0;
        for (char *p = line, *end; *p; p = end) {
            unsigned long v = strtoul(p, &end, 16);
            if (end == p) {
                end = p + 1;
                continue;
            }
            any = 1;
            for (int b = 0; b < 4; b++)
                w->code[w->size++] = (uint8_t)(v >> (8 * b));
        }
        w->instructions += any;
    }
    free(text);
    return 0;
}

/* The wl_lift_program of RADV's launch: user SGPRs s[0:1] (scratch ring),
 * s2 (set 0's address), then user_sgprs - 3 more (gl_NumWorkGroups); the
 * workgroup ids in wgid, the workgroup-info SGPR where tg, the scratch wave
 * offset (ACO's last SGPR argument); v0..v2 the local ids; the float mode
 * RADV sets (RSRC1 FLOAT_MODE 0xC0, DX10_CLAMP 1, IEEE_MODE 0). */
static inline void wlt_aco_fill(wl_lift_program *p, const wlt_aco_words *w, unsigned W, int tg, const int wgid[3],
                         unsigned user_sgprs)
{
    memset(p, 0, sizeof(*p));
    p->code = w->code;
    p->size = w->size;
    p->entry = 0;
    p->address = 0x100000000ull; /* s_getpc is not used by these shaders */
    p->target = WL_GFX1030;
    p->wave_size = W;
    p->user_sgpr_count = user_sgprs;
    for (int i = 0; i < 3; i++)
        p->enable_workgroup_id[i] = wgid[i];
    p->enable_workgroup_info = tg;
    p->workgroup_waves = (w->local[0] * w->local[1] * w->local[2] + W - 1) / W;
    p->enable_private_segment_wave_offset = 1; /* the last SGPR of p_startpgm */
    p->vgpr_workitem_ids = 3;
    p->lds_bytes = w->lds;
    p->float_mode_known = 1;
    p->float_round_mode_32 = 0;
    p->float_round_mode_16_64 = 0;
    p->float_denorm_mode_32 = 0;
    p->float_denorm_mode_16_64 = 3;
    p->dx10_clamp = 1;
    p->ieee_mode = 0;
}

#endif
