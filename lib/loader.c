#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define PAGE_DOWN(a) ((a) & ~(GUEST_PAGE_SIZE - 1))
#define PAGE_UP(a) (((a) + GUEST_PAGE_SIZE - 1) & ~(GUEST_PAGE_SIZE - 1))

static int fail(char *err, size_t errlen, const char *fmt, const char *path)
{
    snprintf(err, errlen, fmt, path);
    return -1;
}

/* Check the header and find the load bias; -1 with err on anything unusable. */
static int check_header(Elf *e, const char *path, GElf_Ehdr *eh, size_t *phnum, char *err, size_t errlen)
{
    if (elf_kind(e) != ELF_K_ELF) {
        char magic[4] = {0};
        size_t n = 0;
        const char *ident = elf_getident(e, &n);
        if (!ident) /* libelf refuses what it cannot parse; look at the bytes ourselves */
            ident = elf_rawfile(e, &n);
        if (ident && n >= 4)
            memcpy(magic, ident, 4);
        return fail(err, errlen, memcmp(magic, "\177ELF", 4) == 0 ? "%s: truncated or malformed ELF file"
                                                                   : "%s: not an ELF file", path);
    }
    if (gelf_getclass(e) != ELFCLASS64)
        return fail(err, errlen, "%s: not a 64-bit ELF (RV64 programs only)", path);
    if (!gelf_getehdr(e, eh) || elf_getphdrnum(e, phnum) != 0)
        return fail(err, errlen, "%s: malformed ELF header", path);
    if (eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_RISCV) {
        snprintf(err, errlen, "%s: not a RISC-V executable (ELF machine %u)", path, eh->e_machine);
        return -1;
    }
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return fail(err, errlen, "%s: not an executable (relocatable object or core file?)", path);
    for (size_t i = 0; i < *phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph))
            return fail(err, errlen, "%s: malformed program header", path);
        if (ph.p_type == PT_INTERP)
            return fail(err, errlen, "%s: dynamically linked: rebuild with -static", path);
    }
    return 0;
}

/* The loadable segments as Linux and qemu-riscv64 accept them (and no larger
 * than a program image may be): each one's address and file offset equal
 * modulo the page size (a page maps a page of
 * the file), in address order without overlapping (a page may be shared,
 * not a byte). */
static int check_segments(Elf *e, size_t phnum, const char *path, char *err, size_t errlen)
{
    uint64_t prev_end = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        gelf_getphdr(e, (int)i, &ph);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        if (ph.p_memsz > RV_MAX_IMAGE) {
            snprintf(err, errlen, "%s: a segment of %.1f GiB: larger than the %llu GiB a program image may take", path,
                     (double)ph.p_memsz / (1 << 30), (unsigned long long)(RV_MAX_IMAGE >> 30));
            return -1;
        }
        if ((ph.p_vaddr - ph.p_offset) % GUEST_PAGE_SIZE != 0)
            return fail(err, errlen, "%s: malformed ELF: a segment's address and file offset differ modulo the page "
                                     "size", path);
        if (ph.p_vaddr < prev_end)
            return fail(err, errlen, "%s: malformed ELF: overlapping or unordered loadable segments", path);
        prev_end = ph.p_vaddr + ph.p_memsz < ph.p_vaddr ? UINT64_MAX : ph.p_vaddr + ph.p_memsz;
    }
    return 0;
}

static unsigned segment_prot(const GElf_Phdr *ph)
{
    return (ph->p_flags & PF_R ? GP_R : 0) | (ph->p_flags & PF_W ? GP_W : 0) | (ph->p_flags & PF_X ? GP_X : 0);
}

/* Map [lo, hi) read-write where no earlier segment did: one mapping per gap,
 * not one per page (a huge .bss must not take minutes). */
static int map_gaps(rv_proc *p, uint64_t lo, uint64_t hi, const char *path)
{
    for (uint64_t a = lo; a < hi;) {
        const rv_vma *next = NULL; /* the first mapping that ends above a */
        for (size_t i = 0; i < p->mem.nvmas && !next; i++)
            if (p->mem.vmas[i].end > a)
                next = &p->mem.vmas[i];
        if (next && next->start <= a) {
            a = next->end;
            continue;
        }
        uint64_t end = next && next->start < hi ? next->start : hi;
        if (mem_map(&p->mem, a, end - a, GP_R | GP_W, VMA_ANON, -1, 0, NULL, path))
            return -1;
        a = end;
    }
    return 0;
}

/* Map one PT_LOAD segment read-write (pages a previous segment already
 * created are kept) and copy its file bytes; permissions come afterwards. */
static int map_segment(rv_proc *p, int fd, const GElf_Phdr *ph, uint64_t bias, const char *path, off_t fsize,
                       char *err, size_t errlen)
{
    uint64_t vaddr = ph->p_vaddr + bias;
    if (ph->p_filesz > ph->p_memsz || ph->p_offset > (uint64_t)fsize || ph->p_filesz > (uint64_t)fsize - ph->p_offset)
        return fail(err, errlen, "%s: malformed ELF: segment extends beyond the end of the file", path);
    if (vaddr >= GUEST_VA_SIZE || ph->p_memsz > GUEST_VA_SIZE - vaddr || vaddr < GUEST_PAGE_SIZE)
        return fail(err, errlen, "%s: malformed ELF: segment outside the user address space", path);
    if (map_gaps(p, PAGE_DOWN(vaddr), PAGE_UP(vaddr + ph->p_memsz), path))
        return fail(err, errlen, "%s: cannot map segment", path);
    if (ph->p_filesz && pread(fd, mem_host(&p->mem, vaddr), ph->p_filesz, (off_t)ph->p_offset) != (ssize_t)ph->p_filesz)
        return fail(err, errlen, "%s: cannot read segment", path);
    return 0;
}

/* Apply segment permissions in address order; a page shared by two
 * segments gets the union of both. */
static void protect_segments(rv_proc *p, Elf *e, size_t phnum, uint64_t bias)
{
    uint64_t prev_last_page = UINT64_MAX;
    unsigned prev_prot = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        gelf_getphdr(e, (int)i, &ph);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        uint64_t lo = PAGE_DOWN(ph.p_vaddr + bias), hi = PAGE_UP(ph.p_vaddr + bias + ph.p_memsz);
        unsigned prot = segment_prot(&ph);
        mem_protect(&p->mem, lo, hi - lo, prot);
        if (lo == prev_last_page)
            mem_protect(&p->mem, lo, GUEST_PAGE_SIZE, prot | prev_prot);
        prev_last_page = hi - GUEST_PAGE_SIZE;
        prev_prot = prot;
    }
}

int elf_load(rv_proc *p, const char *path, rv_elf_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(err, errlen, "%s: libelf initialisation failed", path);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not block */
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(err, errlen, "%s: not a regular file", path);
    }
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr eh;
    size_t phnum = 0;
    int rc = e ? check_header(e, path, &eh, &phnum, err, errlen) : fail(err, errlen, "%s: not an ELF file", path);
    if (rc == 0)
        rc = check_segments(e, phnum, path, err, errlen);
    if (rc == 0) {
        info->bias = eh.e_type == ET_DYN ? RV_STATIC_PIE_BASE : 0;
        info->entry = eh.e_entry + info->bias;
        info->phnum = phnum;
        info->phent = eh.e_phentsize;
        bool any_load = false;
        for (size_t i = 0; i < phnum && rc == 0; i++) {
            GElf_Phdr ph;
            gelf_getphdr(e, (int)i, &ph);
            if (ph.p_type == PT_PHDR)
                info->phdr_addr = ph.p_vaddr + info->bias;
            if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
                continue;
            any_load = true;
            rc = map_segment(p, fd, &ph, info->bias, path, st.st_size, err, errlen);
            if (!info->phdr_addr && ph.p_offset <= eh.e_phoff && eh.e_phoff < ph.p_offset + ph.p_filesz)
                info->phdr_addr = ph.p_vaddr + info->bias + (eh.e_phoff - ph.p_offset);
            uint64_t end = PAGE_UP(ph.p_vaddr + info->bias + ph.p_memsz);
            if (end > info->end)
                info->end = end;
        }
        if (rc == 0 && !any_load)
            rc = fail(err, errlen, "%s: malformed ELF: no loadable segment", path);
        if (rc == 0)
            protect_segments(p, e, phnum, info->bias);
        if (rc == 0 && !mem_ok(&p->mem, info->entry, 2, GP_X))
            rc = fail(err, errlen, "%s: malformed ELF: entry point is not in executable memory", path);
    }
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

/* ----------------------------------------------------------------- stack */

enum {
    AT_NULL_ = 0, AT_PHDR_ = 3, AT_PHENT_ = 4, AT_PHNUM_ = 5, AT_PAGESZ_ = 6, AT_BASE_ = 7, AT_FLAGS_ = 8,
    AT_ENTRY_ = 9, AT_UID_ = 11, AT_EUID_ = 12, AT_GID_ = 13, AT_EGID_ = 14, AT_HWCAP_ = 16, AT_CLKTCK_ = 17,
    AT_SECURE_ = 23, AT_RANDOM_ = 25, AT_HWCAP2_ = 26, AT_EXECFN_ = 31,
};

#define HWCAP_LETTER(c) (UINT64_C(1) << ((c) - 'a'))

uint64_t rv_random_u64(rv_os *os); /* sys_random.c */

static uint64_t push_bytes(rv_proc *p, uint64_t *sp, const void *data, size_t len)
{
    *sp -= len;
    memcpy(mem_host(&p->mem, *sp), data, len);
    return *sp;
}

int stack_setup(rv_proc *p, const rv_elf_info *info, int argc, char *const *argv, int envc, char *const *envp,
                const char *execfn, char *err, size_t errlen)
{
    uint64_t base = RV_STACK_TOP - RV_STACK_SIZE;
    if (mem_map(&p->mem, base, RV_STACK_SIZE, GP_R | GP_W, VMA_ANON, -1, 0, NULL, "[stack]")) {
        snprintf(err, errlen, "cannot map the stack");
        return -1;
    }
    p->os.stack_top = RV_STACK_TOP;
    uint64_t sp = RV_STACK_TOP - 8; /* a zero word ends the string area, as on Linux */
    size_t strings = strlen(execfn) + 1 + 16;
    for (int i = 0; i < argc; i++)
        strings += strlen(argv[i]) + 1;
    for (int i = 0; i < envc; i++)
        strings += strlen(envp[i]) + 1;
    if (strings > RV_STACK_SIZE / 4) {
        snprintf(err, errlen, "arguments and environment too large (%zu bytes)", strings);
        return -1;
    }
    uint64_t execfn_addr = push_bytes(p, &sp, execfn, strlen(execfn) + 1);
    uint64_t *env_addr = calloc((size_t)envc + 1, sizeof *env_addr), *arg_addr = calloc((size_t)argc + 1, sizeof *arg_addr);
    if (!env_addr || !arg_addr)
        abort();
    for (int i = envc; i-- > 0;)
        env_addr[i] = push_bytes(p, &sp, envp[i], strlen(envp[i]) + 1);
    for (int i = argc; i-- > 0;)
        arg_addr[i] = push_bytes(p, &sp, argv[i], strlen(argv[i]) + 1);
    uint64_t random_bytes[2] = {rv_random_u64(&p->os), rv_random_u64(&p->os)};
    sp &= ~UINT64_C(15);
    uint64_t random_addr = push_bytes(p, &sp, random_bytes, 16);

    uint64_t auxv[][2] = {
        {AT_PHDR_, info->phdr_addr}, {AT_PHENT_, info->phent}, {AT_PHNUM_, info->phnum},
        {AT_PAGESZ_, GUEST_PAGE_SIZE}, {AT_BASE_, 0}, {AT_FLAGS_, 0}, {AT_ENTRY_, info->entry},
        {AT_UID_, 1000}, {AT_EUID_, 1000}, {AT_GID_, 1000}, {AT_EGID_, 1000},
        {AT_HWCAP_, HWCAP_LETTER('i') | HWCAP_LETTER('m') | HWCAP_LETTER('a') | HWCAP_LETTER('f') |
                    HWCAP_LETTER('d') | HWCAP_LETTER('c')},
        {AT_CLKTCK_, 100}, {AT_SECURE_, 0}, {AT_RANDOM_, random_addr}, {AT_HWCAP2_, 0},
        {AT_EXECFN_, execfn_addr}, {AT_NULL_, 0},
    };
    size_t nauxv = sizeof auxv / sizeof auxv[0];
    size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * nauxv;
    sp = (sp - words * 8) & ~UINT64_C(15);
    uint64_t *w = (uint64_t *)mem_host(&p->mem, sp);
    size_t k = 0;
    w[k++] = (uint64_t)argc;
    for (int i = 0; i < argc; i++)
        w[k++] = arg_addr[i];
    w[k++] = 0;
    for (int i = 0; i < envc; i++)
        w[k++] = env_addr[i];
    w[k++] = 0;
    for (size_t i = 0; i < nauxv; i++) {
        w[k++] = auxv[i][0];
        w[k++] = auxv[i][1];
    }
    free(env_addr);
    free(arg_addr);
    memset(&p->cpu, 0, sizeof p->cpu);
    p->cpu.x[2] = sp;
    p->cpu.pc = p->cpu.block_pc = info->entry;
    return 0;
}
