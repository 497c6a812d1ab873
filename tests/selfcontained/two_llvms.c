/* The translator beside another LLVM in one process (issue 19): an
 * emulator, or Mesa's lavapipe inside it, may load its own LLVM. Linked
 * against libwavelift built with LLVM inside it, hidden
 * (wavelift_selfcontained, WL_STATIC_LLVM), this program loads Debian's
 * LLVM 15 (lavapipe's: libLLVM-15.so.1) globally, uses it, and then
 * translates a kernel: the library must neither export an LLVM symbol nor
 * take LLVM 15's. Skipped (exit 77) where LLVM 15 is not installed. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wavelift.h>

#include "../install/translate_one.h"

typedef void *(*ctx_create_fn)(void);
typedef void *(*module_fn)(const char *, void *);
typedef char *(*print_fn)(void *);
typedef void (*dispose_fn)(void *);

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: two_llvms CODE_OBJECT KERNEL\n");
        return 2;
    }
    void *l15 = dlopen("libLLVM-15.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!l15) {
        printf("skipped: no libLLVM-15.so.1 (%s)\n", dlerror());
        return 77;
    }
    /* LLVM 15 at work in the process */
    ctx_create_fn cc = (ctx_create_fn)dlsym(l15, "LLVMContextCreate");
    module_fn mk = (module_fn)dlsym(l15, "LLVMModuleCreateWithNameInContext");
    print_fn pr = (print_fn)dlsym(l15, "LLVMPrintModuleToString");
    dispose_fn dm = (dispose_fn)dlsym(l15, "LLVMDisposeModule");
    dispose_fn dc = (dispose_fn)dlsym(l15, "LLVMContextDispose");
    dispose_fn dg = (dispose_fn)dlsym(l15, "LLVMDisposeMessage");
    if (!cc || !mk || !pr || !dm || !dc || !dg) {
        fprintf(stderr, "LLVM 15 lacks its C API\n");
        return 1;
    }
    void *ctx = cc();
    void *m = mk("theirs", ctx);
    char *text = pr(m);
    int theirs = text && strstr(text, "theirs") != NULL;
    dg(text);
    dm(m);
    dc(ctx);
    printf("LLVM 15 loaded and used: %s\n", theirs ? "yes" : "no");
    /* the library exports no LLVM symbol */
    Dl_info info;
    void *self = dlopen(NULL, RTLD_NOW);
    void *wl = dlsym(self, "wl_translate");
    if (!wl || !dladdr(wl, &info)) {
        fprintf(stderr, "wl_translate not found\n");
        return 1;
    }
    void *lib = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    void *leaked = lib ? dlsym(lib, "LLVMContextCreate") : NULL;
    Dl_info li;
    int leak = leaked && dladdr(leaked, &li) && li.dli_fname && !strcmp(li.dli_fname, info.dli_fname);
    printf("libwavelift (%s) exports LLVMContextCreate: %s\n", info.dli_fname, leak ? "yes" : "no");
    /* and translates with its own LLVM */
    size_t n = 0;
    int bad = translate_one(argv[1], argv[2], &n);
    printf("translated %s beside LLVM 15: %s (%zu words; library %s, %s)\n", argv[2], bad ? "no" : "yes", n,
           wl_version(), wl_llvm_version());
    return !bad && theirs && !leak ? 0 : 1;
}
