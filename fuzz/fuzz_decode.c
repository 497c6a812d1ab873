/* libFuzzer target for the decoder: the first byte picks the target and the
 * wave size, the rest is code. Every instruction that decodes is printed, so
 * the printer is fuzzed too. */
#include "wavelift/decode.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    wl_decoder dec;
    wl_decoder_init(&dec, (wl_target)(data[0] % WL_TARGET_COUNT), data[0] & 0x80);
    data++;
    size--;
    size_t pos = 0;
    char text[512];
    while (pos < size) {
        wl_inst inst;
        if (wl_decode(&dec, data + pos, size - pos, pos, &inst) == WL_OK) {
            wl_print(&inst, text, sizeof(text));
            wl_print(&inst, text, 8); /* truncated output must stay in bounds */
        }
        pos += inst.size ? inst.size : 4;
    }
    return 0;
}
