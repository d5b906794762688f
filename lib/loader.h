/* Loading a static RISC-V ELF executable and starting a process as Linux does. */
#ifndef RV_LOADER_H
#define RV_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "proc.h"

typedef struct rv_elf_info {
    uint64_t entry;      /* entry point (with bias) */
    uint64_t bias;       /* load bias: 0 for ET_EXEC, the static-pie base otherwise */
    uint64_t phdr_addr;  /* guest address of the program headers */
    uint64_t phnum, phent;
    uint64_t end;        /* highest address of the image */
} rv_elf_info;

/* Guest address-space layout (Sv39, no randomisation). */
#define RV_STATIC_PIE_BASE UINT64_C(0x2aaaaaa000)
#define RV_STACK_TOP UINT64_C(0x3ffffff000)
#define RV_STACK_SIZE (UINT64_C(8) << 20)
#define RV_MMAP_TOP (RV_STACK_TOP - (UINT64_C(256) << 20))
#define RV_STACK_SIZE_LIMIT RV_STACK_SIZE
/* The page above the stack holds the signal-return trampoline ("[vdso]"),
 * mapped when a handler first runs. */
#define RV_SIGRETURN_PAGE RV_STACK_TOP
/* Largest PT_LOAD segment accepted: more is a damaged or hostile file (it
 * would fill the address space and every checkpoint would scan it). */
#define RV_MAX_IMAGE (UINT64_C(32) << 30)

/* Map the executable's PT_LOAD segments. Returns 0, or -1 with a one-line
 * reason in err ("dynamically linked: rebuild with -static", ...). */
int elf_load(rv_proc *p, const char *path, rv_elf_info *info, char *err, size_t errlen);

/* Build the initial stack (argc, argv, envp, auxv) and registers. */
int stack_setup(rv_proc *p, const rv_elf_info *info, int argc, char *const *argv, int envc, char *const *envp,
                const char *execfn, char *err, size_t errlen);

#endif
