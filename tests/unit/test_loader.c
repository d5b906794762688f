/* The ELF loader and process start-up (lib/loader.c, lib/process.c) through
 * rv_proc_init: the image, the initial stack (argc, argv, envp, auxv) checked
 * against the ELF file read independently with <elf.h>, and the refusals.
 * Paths are relative to the repository root, where the tests run. */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/exec.h"
#include "loader.h"

#define LOOP_SIMPLE "build/rv/asm/loop_simple"
#define SORT "build/rv/workloads/sort"
#define DYNAMIC "build/rv/unit/dynamic_hello"
#define STATIC_PIE "build/rv/unit/static_pie_mem_amo"

/* ------------------------------------------------------------- helpers */

typedef struct elf_file {
    unsigned char *data;
    size_t size;
    Elf64_Ehdr eh;
    Elf64_Phdr ph[64];
} elf_file;

static void read_file(const char *path, unsigned char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s is missing: build it with `make %s`", path, path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc((size_t)n + 1);
    cr_assert_not_null(*data);
    cr_assert_eq(fread(*data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
}

static void read_elf(const char *path, elf_file *e)
{
    read_file(path, &e->data, &e->size);
    cr_assert_geq(e->size, sizeof e->eh);
    memcpy(&e->eh, e->data, sizeof e->eh);
    cr_assert_leq(e->eh.e_phnum, 64);
    for (int i = 0; i < e->eh.e_phnum; i++)
        memcpy(&e->ph[i], e->data + e->eh.e_phoff + (size_t)i * e->eh.e_phentsize, sizeof e->ph[i]);
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    fclose(f);
}

static int start(rv_proc *p, const char *exe, int argc, char **argv, int envc, char **envp, rv_elf_info *info,
                 char *err, size_t errlen)
{
    rv_proc_options o = {.exe = exe, .argc = argc, .argv = argv, .envc = envc, .envp = envp};
    return rv_proc_init(p, &o, info, err, errlen);
}

static uint64_t guest64(rv_proc *p, uint64_t addr)
{
    uint64_t v;
    cr_assert(mem_read(&p->mem, &v, addr, 8), "stack word at %#llx unreadable", (unsigned long long)addr);
    return v;
}

static void guest_string(rv_proc *p, uint64_t addr, char *buf, size_t size)
{
    cr_assert(mem_read_string(&p->mem, addr, buf, size), "string at %#llx unreadable", (unsigned long long)addr);
}

/* auxv as read back from the guest stack */
typedef struct auxv {
    uint64_t val[64];
    bool has[64];
    int n;
} auxv;

static void parse_stack(rv_proc *p, int *argc, char argv[][64], int *envc, char envp[][64], auxv *a)
{
    uint64_t sp = p->cpu.x[2];
    *argc = (int)guest64(p, sp);
    cr_assert_lt(*argc, 16);
    uint64_t w = sp + 8;
    for (int i = 0; i < *argc; i++, w += 8)
        guest_string(p, guest64(p, w), argv[i], 64);
    cr_expect_eq(guest64(p, w), 0, "argv is not NULL-terminated");
    w += 8;
    *envc = 0;
    for (uint64_t e; (e = guest64(p, w)) != 0; w += 8) {
        cr_assert_lt(*envc, 16);
        guest_string(p, e, envp[(*envc)++], 64);
    }
    w += 8;
    memset(a, 0, sizeof *a);
    for (;; w += 16) {
        uint64_t type = guest64(p, w), val = guest64(p, w + 8);
        cr_assert_lt(a->n++, 64, "auxv not terminated");
        if (type == AT_NULL)
            break;
        cr_assert_lt(type, 64, "unexpected auxv type %llu", (unsigned long long)type);
        cr_expect(!a->has[type], "auxv type %llu twice", (unsigned long long)type);
        a->has[type] = true;
        a->val[type] = val;
    }
}

static uint64_t page_up(uint64_t a) { return (a + 4095) & ~UINT64_C(4095); }

/* ---------------------------------------------------------- the image */

static void check_image(rv_proc *p, const elf_file *e, const rv_elf_info *info, uint64_t bias)
{
    uint64_t end = 0;
    for (int i = 0; i < e->eh.e_phnum; i++) {
        const Elf64_Phdr *ph = &e->ph[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
            continue;
        uint64_t va = ph->p_vaddr + bias;
        /* the file bytes are there, the rest of the segment is zero */
        const unsigned char *g = mem_host(&p->mem, va);
        cr_expect(mem_ok(&p->mem, va, ph->p_memsz, 0), "segment %d not mapped", i);
        cr_expect(memcmp(g, e->data + ph->p_offset, ph->p_filesz) == 0, "segment %d contents differ", i);
        bool zero = true;
        for (uint64_t k = ph->p_filesz; k < ph->p_memsz; k++)
            zero &= g[k] == 0;
        cr_expect(zero, "segment %d: bss not zero", i);
        /* permissions (a page shared with a neighbour may have more) */
        unsigned want = (ph->p_flags & PF_R ? GP_R : 0) | (ph->p_flags & PF_W ? GP_W : 0) |
                        (ph->p_flags & PF_X ? GP_X : 0);
        cr_expect(mem_ok(&p->mem, va, ph->p_memsz, want), "segment %d lacks permissions %u", i, want);
        if (!(ph->p_flags & PF_W) && ph->p_memsz > 2 * 4096) {
            uint64_t mid = (va + ph->p_memsz / 2) & ~UINT64_C(4095);
            cr_expect(!mem_ok(&p->mem, mid, 1, GP_W), "read-only segment %d is writable", i);
        }
        if (!(ph->p_flags & PF_X) && ph->p_memsz > 2 * 4096) {
            uint64_t mid = (va + ph->p_memsz / 2) & ~UINT64_C(4095);
            cr_expect(!mem_ok(&p->mem, mid, 1, GP_X), "data segment %d is executable", i);
        }
        if (page_up(va + ph->p_memsz) > end)
            end = page_up(va + ph->p_memsz);
    }
    cr_expect_eq(info->end, end, "end %#llx, expected %#llx", (unsigned long long)info->end,
                 (unsigned long long)end);
    cr_expect_eq(p->os.brk_start, end, "the heap starts after the image");
    cr_expect_eq(p->os.brk, p->os.brk_start);
    cr_expect(mem_range_free(&p->mem, p->os.brk_start, 4096), "brk start is already mapped");
    cr_expect_eq(info->entry, e->eh.e_entry + bias);
    cr_expect_eq(info->bias, bias);
    cr_expect_eq(info->phnum, e->eh.e_phnum);
    cr_expect_eq(info->phent, e->eh.e_phentsize);
    cr_expect_eq(p->cpu.pc, info->entry);
    cr_expect(mem_ok(&p->mem, info->entry, 2, GP_R | GP_X));
}

Test(loader, static_executable_image_and_registers)
{
    elf_file e;
    read_elf(SORT, &e);
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"sort"};
    cr_assert_eq(start(&p, SORT, 1, argv, 0, NULL, &info, err, sizeof err), 0, "%s", err);
    cr_expect_eq(e.eh.e_type, ET_EXEC);
    check_image(&p, &e, &info, 0);
    for (int i = 0; i < 32; i++)
        if (i != 2)
            cr_expect_eq(p.cpu.x[i], 0, "x%d = %#llx at start", i, (unsigned long long)p.cpu.x[i]);
    cr_expect_eq(p.cpu.icount, 0);
    cr_expect_eq(p.cpu.fflags, 0);
    cr_expect_eq(p.cpu.frm, 0);
    cr_expect_eq(p.stop, RV_RUNNING);
    free(e.data);
    rv_proc_destroy(&p);
}

Test(loader, initial_stack)
{
    elf_file e;
    read_elf(SORT, &e);
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"./prog-name", "first", "", "third argument"};
    char *envp[] = {"A=1", "LONGER_NAME=some value", "EMPTY="};
    cr_assert_eq(start(&p, SORT, 4, argv, 3, envp, &info, err, sizeof err), 0, "%s", err);
    uint64_t sp = p.cpu.x[2];
    cr_expect_eq(sp % 16, 0, "sp %#llx not 16-byte aligned", (unsigned long long)sp);
    const rv_vma *stack = mem_find_vma(&p.mem, sp);
    cr_assert_not_null(stack);
    cr_expect_str_eq(stack->label, "[stack]");
    cr_expect(mem_ok(&p.mem, sp, RV_STACK_TOP - sp, GP_R | GP_W), "everything above sp is stack");
    cr_expect_eq(stack->end, RV_STACK_TOP);
    cr_expect_eq(p.os.stack_top, RV_STACK_TOP);
    cr_expect_geq(stack->end - stack->start, UINT64_C(1) << 20, "a reasonable stack");

    int argc, envc;
    char av[16][64], ev[16][64];
    auxv a;
    parse_stack(&p, &argc, av, &envc, ev, &a);
    cr_expect_eq(argc, 4);
    /* argv[0] is the name alone, whatever path was given (RV_GUEST_BIN). */
    cr_expect_str_eq(av[0], "prog-name");
    for (int i = 1; i < 4 && i < argc; i++)
        cr_expect_str_eq(av[i], argv[i]);
    cr_expect_eq(envc, 3);
    for (int i = 0; i < 3 && i < envc; i++)
        cr_expect_str_eq(ev[i], envp[i]);

    cr_expect(a.has[AT_PAGESZ] && a.val[AT_PAGESZ] == 4096);
    cr_expect(a.has[AT_PHNUM] && a.val[AT_PHNUM] == e.eh.e_phnum, "AT_PHNUM %llu, ELF %u",
              (unsigned long long)a.val[AT_PHNUM], e.eh.e_phnum);
    cr_expect(a.has[AT_PHENT] && a.val[AT_PHENT] == sizeof(Elf64_Phdr));
    cr_expect(a.has[AT_ENTRY] && a.val[AT_ENTRY] == e.eh.e_entry);
    cr_expect(a.has[AT_PHDR]);
    /* AT_PHDR points at the program headers, as they are in the file */
    unsigned char phdrs[64 * sizeof(Elf64_Phdr)];
    size_t phbytes = (size_t)e.eh.e_phnum * e.eh.e_phentsize;
    cr_assert(mem_read(&p.mem, phdrs, a.val[AT_PHDR], phbytes), "AT_PHDR not readable");
    cr_expect(memcmp(phdrs, e.data + e.eh.e_phoff, phbytes) == 0, "AT_PHDR does not show the program headers");
    /* AT_RANDOM: 16 readable bytes, not all zero */
    cr_assert(a.has[AT_RANDOM]);
    unsigned char rnd[16];
    cr_assert(mem_read(&p.mem, rnd, a.val[AT_RANDOM], 16), "AT_RANDOM not readable");
    bool nonzero = false;
    for (int i = 0; i < 16; i++)
        nonzero |= rnd[i] != 0;
    cr_expect(nonzero);
    cr_expect_gt(a.val[AT_RANDOM], sp, "AT_RANDOM above the vectors");
    /* AT_EXECFN: the program's guest path, the same however its host path is spelled */
    cr_assert(a.has[AT_EXECFN]);
    char fn[64];
    guest_string(&p, a.val[AT_EXECFN], fn, sizeof fn);
    cr_expect_str_eq(fn, RV_GUEST_BIN "/sort");
    cr_expect(a.has[AT_HWCAP]);
    for (const char *c = "imafdc"; *c; c++)
        cr_expect(a.val[AT_HWCAP] & (UINT64_C(1) << (*c - 'a')), "HWCAP lacks %c", *c);
    cr_expect(a.has[AT_UID] && a.has[AT_EUID] && a.has[AT_GID] && a.has[AT_EGID]);
    cr_expect(a.has[AT_SECURE] && a.val[AT_SECURE] == 0);
    cr_expect(a.has[AT_CLKTCK] && a.val[AT_CLKTCK] == 100);
    free(e.data);
    rv_proc_destroy(&p);
}

Test(loader, start_is_deterministic)
{
    rv_proc p, q;
    rv_elf_info i1, i2;
    char err[256] = "";
    char *argv[] = {"x", "y"};
    char *envp[] = {"K=V"};
    cr_assert_eq(start(&p, SORT, 2, argv, 1, envp, &i1, err, sizeof err), 0, "%s", err);
    cr_assert_eq(start(&q, SORT, 2, argv, 1, envp, &i2, err, sizeof err), 0, "%s", err);
    cr_expect_eq(p.cpu.x[2], q.cpu.x[2], "same stack pointer");
    uint64_t sp = p.cpu.x[2];
    cr_expect(memcmp(mem_host(&p.mem, sp), mem_host(&q.mem, sp), RV_STACK_TOP - sp) == 0,
              "same initial stack bytes (AT_RANDOM included)");
    rv_proc_destroy(&p);
    rv_proc_destroy(&q);
}

Test(loader, minimal_static_program_runs_to_exit)
{
    elf_file e;
    read_elf(LOOP_SIMPLE, &e);
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {LOOP_SIMPLE};
    cr_assert_eq(start(&p, LOOP_SIMPLE, 1, argv, 0, NULL, &info, err, sizeof err), 0, "%s", err);
    check_image(&p, &e, &info, 0);
    cr_expect_eq(info.entry, 0x1010c);
    cr_expect_eq(rv_run(&p, UINT64_MAX, NULL, NULL), RV_RUN_STOPPED);
    cr_expect_eq(p.stop, RV_STOP_EXIT, "%s", p.message);
    cr_expect_eq(p.exit_status, 0);
    cr_expect_eq(p.cpu.icount, 4005, "the count the source documents");
    free(e.data);
    rv_proc_destroy(&p);
}

Test(loader, static_pie_loads_at_its_base_and_runs)
{
    elf_file e;
    read_elf(STATIC_PIE, &e);
    cr_assert_eq(e.eh.e_type, ET_DYN, "not a PIE");
    for (int i = 0; i < e.eh.e_phnum; i++)
        cr_assert_neq(e.ph[i].p_type, PT_INTERP, "has an interpreter: not static");
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"pie"};
    cr_assert_eq(start(&p, STATIC_PIE, 1, argv, 0, NULL, &info, err, sizeof err), 0, "%s", err);
    check_image(&p, &e, &info, RV_STATIC_PIE_BASE);
    int argc, envc;
    char av[16][64], ev[16][64];
    auxv a;
    parse_stack(&p, &argc, av, &envc, ev, &a);
    cr_expect_eq(a.val[AT_ENTRY], e.eh.e_entry + RV_STATIC_PIE_BASE);
    unsigned char phdrs[64 * sizeof(Elf64_Phdr)];
    size_t phbytes = (size_t)e.eh.e_phnum * e.eh.e_phentsize;
    cr_assert(mem_read(&p.mem, phdrs, a.val[AT_PHDR], phbytes), "AT_PHDR not readable");
    cr_expect(memcmp(phdrs, e.data + e.eh.e_phoff, phbytes) == 0, "AT_PHDR (with the bias) is wrong");
    /* quiet the guest's stdout */
    p.os.files[1].host_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    p.os.files[1].is_std = false;
    cr_expect_eq(rv_run(&p, UINT64_MAX, NULL, NULL), RV_RUN_STOPPED);
    cr_expect_eq(p.stop, RV_STOP_EXIT, "%s", p.message);
    cr_expect_eq(p.exit_status, 17, "tests/asm/mem_amo.S exits with 17");
    cr_expect_eq(p.cpu.icount, 404, "tests/asm/mem_amo.S: expect-insts 404");
    free(e.data);
    rv_proc_destroy(&p);
}

/* -------------------------------------------------------------- refusals */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rv-loader-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

/* rv_proc_init must fail with a message containing every one of `parts`. */
static void expect_refused(const char *path, const char *part1, const char *part2)
{
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"prog"};
    cr_expect_eq(start(&p, path, 1, argv, 0, NULL, &info, err, sizeof err), -1, "%s was accepted", path);
    cr_expect_neq(err[0], '\0', "%s: no message", path);
    cr_expect(strchr(err, '\n') == NULL, "one line: %s", err);
    if (part1)
        cr_expect(strstr(err, part1) != NULL, "\"%s\" lacks \"%s\"", err, part1);
    if (part2)
        cr_expect(strstr(err, part2) != NULL, "\"%s\" lacks \"%s\"", err, part2);
    rv_proc_destroy(&p); /* proc.h: after a failure p is still for rv_proc_destroy */
}

static void write_variant(const char *name, const unsigned char *data, size_t size, char *path, size_t pathlen)
{
    snprintf(path, pathlen, "%s/%s", tmpdir, name);
    write_file(path, data, size);
}

TestSuite(loader_errors, .init = make_tmpdir, .fini = remove_tmpdir);

Test(loader_errors, not_an_elf_file)
{
    char path[128];
    write_variant("script.sh", (const unsigned char *)"#!/bin/sh\necho hi\n", 18, path, sizeof path);
    expect_refused(path, "not an ELF", "script.sh");
    write_variant("empty", (const unsigned char *)"", 0, path, sizeof path);
    expect_refused(path, "empty", NULL);
}

Test(loader_errors, missing_file_and_directory)
{
    expect_refused("build/rv/no/such/program", "No such file", NULL);
    expect_refused(tmpdir, "not a regular file", NULL);
}

Test(loader_errors, truncated_elf)
{
    elf_file e;
    read_elf(SORT, &e);
    char path[128];
    /* shorter than the ELF header */
    write_variant("trunc40", e.data, 40, path, sizeof path);
    expect_refused(path, "trunc40", "truncated or malformed ELF");
    /* the header but not the program headers */
    write_variant("trunc64", e.data, 64, path, sizeof path);
    expect_refused(path, "malformed", NULL);
    /* header and program headers, segments cut */
    size_t cut = e.eh.e_phoff + (size_t)e.eh.e_phnum * e.eh.e_phentsize;
    write_variant("trunc_phdrs", e.data, cut, path, sizeof path);
    expect_refused(path, "malformed", "beyond the end of the file");
    /* half of the file */
    write_variant("trunc_half", e.data, e.size / 2, path, sizeof path);
    expect_refused(path, "beyond the end of the file", NULL);
    free(e.data);
}

Test(loader_errors, x86_64_executable)
{
    /* /bin/true is an x86-64 and dynamically linked executable: the machine is the reason */
    expect_refused("/bin/true", "not a RISC-V", "62");
}

Test(loader_errors, dynamically_linked_riscv)
{
    expect_refused(DYNAMIC, "dynamically linked", "-static");
}

Test(loader_errors, patched_headers)
{
    elf_file e;
    read_elf(LOOP_SIMPLE, &e);
    char path[128];
    unsigned char *copy = malloc(e.size);
    cr_assert_not_null(copy);
    Elf64_Ehdr eh;

    memcpy(copy, e.data, e.size);
    copy[EI_CLASS] = ELFCLASS32;
    write_variant("class32", copy, e.size, path, sizeof path);
    expect_refused(path, "64-bit", NULL);

    memcpy(copy, e.data, e.size);
    eh = e.eh;
    eh.e_machine = EM_AARCH64;
    memcpy(copy, &eh, sizeof eh);
    write_variant("aarch64", copy, e.size, path, sizeof path);
    expect_refused(path, "not a RISC-V", "183");

    eh = e.eh;
    eh.e_type = ET_REL;
    memcpy(copy, &eh, sizeof eh);
    write_variant("relocatable", copy, e.size, path, sizeof path);
    expect_refused(path, "not an executable", NULL);

    eh = e.eh;
    eh.e_type = ET_CORE;
    memcpy(copy, &eh, sizeof eh);
    write_variant("core", copy, e.size, path, sizeof path);
    expect_refused(path, "not an executable", NULL);

    eh = e.eh;
    eh.e_entry = 0x500000; /* nothing there */
    memcpy(copy, &eh, sizeof eh);
    write_variant("bad_entry", copy, e.size, path, sizeof path);
    expect_refused(path, "entry point", NULL);

    /* a segment whose file range lies beyond the end of the file */
    memcpy(copy, e.data, e.size);
    for (int i = 0; i < e.eh.e_phnum; i++)
        if (e.ph[i].p_type == PT_LOAD) {
            Elf64_Phdr ph = e.ph[i];
            ph.p_offset = e.size + 4096;
            memcpy(copy + e.eh.e_phoff + (size_t)i * e.eh.e_phentsize, &ph, sizeof ph);
            break;
        }
    write_variant("bad_offset", copy, e.size, path, sizeof path);
    expect_refused(path, "malformed", NULL);

    /* a segment outside the user address space */
    memcpy(copy, e.data, e.size);
    for (int i = 0; i < e.eh.e_phnum; i++)
        if (e.ph[i].p_type == PT_LOAD) {
            Elf64_Phdr ph = e.ph[i];
            ph.p_vaddr = ph.p_paddr = UINT64_C(1) << 40;
            memcpy(copy + e.eh.e_phoff + (size_t)i * e.eh.e_phentsize, &ph, sizeof ph);
            break;
        }
    write_variant("high_segment", copy, e.size, path, sizeof path);
    expect_refused(path, "address space", NULL);

    /* no loadable segment */
    memcpy(copy, e.data, e.size);
    for (int i = 0; i < e.eh.e_phnum; i++)
        if (e.ph[i].p_type == PT_LOAD) {
            Elf64_Phdr ph = e.ph[i];
            ph.p_type = PT_NOTE;
            memcpy(copy + e.eh.e_phoff + (size_t)i * e.eh.e_phentsize, &ph, sizeof ph);
        }
    write_variant("no_load", copy, e.size, path, sizeof path);
    expect_refused(path, "no loadable segment", NULL);

    free(copy);
    free(e.data);
}

Test(loader_errors, arguments_too_large_for_the_stack)
{
    size_t big = RV_STACK_SIZE / 2;
    char *huge = malloc(big + 1);
    cr_assert_not_null(huge);
    memset(huge, 'x', big);
    huge[big] = '\0';
    memcpy(huge, "BIG=", 4);
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"prog"};
    char *envp[] = {huge};
    cr_expect_eq(start(&p, SORT, 1, argv, 1, envp, &info, err, sizeof err), -1);
    cr_expect(strstr(err, "too large") != NULL, "%s", err);
    rv_proc_destroy(&p);
    free(huge);
}

Test(loader, empty_environment_and_single_argument)
{
    rv_proc p;
    rv_elf_info info;
    char err[256] = "";
    char *argv[] = {"only"};
    cr_assert_eq(start(&p, LOOP_SIMPLE, 1, argv, 0, NULL, &info, err, sizeof err), 0, "%s", err);
    int argc, envc;
    char av[16][64], ev[16][64];
    auxv a;
    parse_stack(&p, &argc, av, &envc, ev, &a);
    cr_expect_eq(argc, 1);
    cr_expect_str_eq(av[0], "only");
    cr_expect_eq(envc, 0, "no environment unless given");
    cr_expect_eq(a.val[AT_PHNUM], 3);
    rv_proc_destroy(&p);
}
