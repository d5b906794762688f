/* Build-time generator of the translator's tables: reads the object file
 * compiled from stencils.c (one section per stencil, -ffunction-sections)
 * with libelf and writes C: each stencil's bytes, its relocations as holes,
 * and the table of host functions the stencils call.
 *
 * usage: gen_stencils VARIANT=STENCILS.o... > jit_stencils.inc
 *
 * The objects of one variant of the stencils (the same source compiled with
 * other settings) come one after another, one per version (enum jit_acc);
 * the variant's tables are named after VARIANT, and the host functions of
 * all of them share one table.
 *
 * A stencil whose code refers to anything else (read-only data, a function
 * the compiler did not inline) cannot be copied on its own. That fails the
 * build, except for the illegal instruction's, whose operation is left to
 * the interpreter: a stencil the compiler stops inlining would otherwise
 * slow the translator down unseen. An unknown relocation type fails the
 * build too. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jit_stencil.h"

#define PREFIX ".text.jit_stencil_"

static _Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gen_stencils: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static const char *const hole_names[] = {
    [JIT_HOLE_RD] = "JIT_RD", [JIT_HOLE_RS1] = "JIT_RS1", [JIT_HOLE_RS2] = "JIT_RS2",
    [JIT_HOLE_RS3] = "JIT_RS3", [JIT_HOLE_IMM] = "JIT_IMM", [JIT_HOLE_SIMM] = "JIT_SIMM", [JIT_HOLE_PC] = "JIT_PC",
    [JIT_HOLE_INSN] = "JIT_INSN", [JIT_HOLE_LEN] = "JIT_LEN", [JIT_HOLE_N] = "JIT_N", [JIT_HOLE_BLOCK] = "JIT_BLOCK",
    [JIT_HOLE_TARGET0] = "JIT_TARGET0", [JIT_HOLE_TARGET1] = "JIT_TARGET1",
    [JIT_HOLE_CONTINUE] = "JIT_CONTINUE", [JIT_HOLE_EXIT] = "JIT_EXIT",
    [JIT_HOLE_NOT_TAKEN] = "JIT_NOT_TAKEN", [JIT_HOLE_TAKEN] = "JIT_TAKEN", [JIT_HOLE_SLOW] = "JIT_SLOW",
    [JIT_HOLE_GOTO] = "JIT_GOTO",
    [JIT_HOLE_CHAIN0] = "JIT_CHAIN0", [JIT_HOLE_CHAIN1] = "JIT_CHAIN1",
};

static bool is_jump_hole(int hole)
{
    return hole >= JIT_HOLE_CONTINUE && hole <= JIT_HOLE_CHAIN1;
}

static int hole_of(const char *sym)
{
    for (int h = 0; h < JIT_HOLE_HELPER; h++)
        if (strcmp(sym, hole_names[h]) == 0)
            return h;
    return -1;
}

static char *helpers[256];
static int nhelpers;

static int helper_index(const char *sym)
{
    for (int i = 0; i < nhelpers; i++)
        if (strcmp(helpers[i], sym) == 0)
            return i;
    if (nhelpers == (int)(sizeof helpers / sizeof *helpers))
        die("too many host functions");
    helpers[nhelpers] = strdup(sym);
    return nhelpers++;
}

typedef struct stencil {
    char *name;
    Elf_Data *code;
    jit_reloc relocs[128];
    int nrelocs;
    char why[160]; /* set when the stencil cannot be used */
} stencil;

static stencil stencils[1024];
static int nstencils;

static const char *section_name(Elf *e, size_t shstrndx, size_t index)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(e, index);
    return scn && gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
}

static stencil *stencil_of_section(Elf *e, size_t shstrndx, size_t index)
{
    const char *name = section_name(e, shstrndx, index);
    Elf_Scn *scn = elf_getscn(e, index);
    GElf_Shdr sh;
    if (!name || !gelf_getshdr(scn, &sh) || strncmp(name, PREFIX, strlen(PREFIX)) != 0)
        return NULL;
    for (int i = 0; i < nstencils; i++)
        if (strcmp(stencils[i].name, name + strlen(PREFIX)) == 0)
            return &stencils[i];
    if (nstencils == (int)(sizeof stencils / sizeof *stencils))
        die("too many stencils");
    stencil *s = &stencils[nstencils++];
    s->name = strdup(name + strlen(PREFIX));
    s->code = elf_getdata(scn, NULL);
    if (!s->code || sh.sh_type != SHT_PROGBITS)
        die("section %s has no code", name);
    return s;
}

/* One relocation of stencil s against symbol sym. */
static void add_reloc(stencil *s, const char *sym, bool defined, unsigned type, uint64_t offset, int64_t addend)
{
    if (s->why[0])
        return;
    if (defined) {
        snprintf(s->why, sizeof s->why, "refers to %s", sym);
        return;
    }
    jit_reloc r = {.offset = (uint16_t)offset, .addend = (int32_t)addend};
    int hole = hole_of(sym);
    switch (type) {
    case R_X86_64_64: r.patch = JIT_PATCH_ABS64; break;
    case R_X86_64_32S: r.patch = JIT_PATCH_ABS32S; break;
    case R_X86_64_32: r.patch = JIT_PATCH_ABS32; break;
    case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX:
        r.patch = JIT_PATCH_PCREL32;
        if (hole < 0) {
            r.hole = JIT_HOLE_HELPER;
            r.helper = (uint16_t)helper_index(sym);
        }
        break;
    default: die("%s: relocation type %u against %s is not supported", s->name, type, sym);
    }
    if (hole >= 0)
        r.hole = (uint8_t)hole;
    if (is_jump_hole(hole)) {
        /* only `jmp *SYMBOL@GOTPCREL(%rip)` (ff 25) can be made direct */
        const uint8_t *c = s->code->d_buf;
        if (r.patch != JIT_PATCH_PCREL32 || offset < 2 || c[offset - 2] != 0xff || c[offset - 1] != 0x25)
            die("%s: %s is not reached by an indirect jump", s->name, sym);
    }
    if (hole < 0 && r.patch != JIT_PATCH_PCREL32)
        die("%s: %s is used as data", s->name, sym);
    if (s->nrelocs == (int)(sizeof s->relocs / sizeof *s->relocs))
        die("%s: too many relocations", s->name);
    s->relocs[s->nrelocs++] = r;
}

static void read_relocations(Elf *e, size_t shstrndx, Elf_Scn *scn, const GElf_Shdr *sh)
{
    stencil *s = stencil_of_section(e, shstrndx, sh->sh_info);
    if (!s)
        return;
    Elf_Scn *symscn = elf_getscn(e, sh->sh_link);
    GElf_Shdr symsh;
    Elf_Data *syms = symscn ? elf_getdata(symscn, NULL) : NULL;
    Elf_Data *rels = elf_getdata(scn, NULL);
    if (!syms || !rels || !gelf_getshdr(symscn, &symsh))
        die("bad relocation section");
    size_t n = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Rela rela;
        GElf_Sym sym;
        if (!gelf_getrela(rels, (int)i, &rela) || !gelf_getsym(syms, (int)GELF_R_SYM(rela.r_info), &sym))
            die("bad relocation");
        const char *name = GELF_ST_TYPE(sym.st_info) == STT_SECTION
                               ? section_name(e, shstrndx, sym.st_shndx)
                               : elf_strptr(e, symsh.sh_link, sym.st_name);
        add_reloc(s, name ? name : "?", sym.st_shndx != SHN_UNDEF, (unsigned)GELF_R_TYPE(rela.r_info), rela.r_offset,
                  rela.r_addend);
    }
}

static const char *variant; /* of the object being read */

static void print_bytes(const stencil *s)
{
    const uint8_t *c = s->code->d_buf;
    printf("static const uint8_t jit_code_%s_%s[] = {", variant, s->name);
    for (size_t i = 0; i < s->code->d_size; i++)
        printf("%s0x%02x,", i % 16 ? " " : "\n    ", c[i]);
    printf("\n};\n");
}

static void print_relocs(const stencil *s)
{
    printf("static const jit_reloc jit_relocs_%s_%s[] = {\n", variant, s->name);
    for (int i = 0; i < s->nrelocs; i++) {
        const jit_reloc *r = &s->relocs[i];
        printf("    {%u, %u, %u, %u, %d},\n", r->offset, r->hole, r->patch, r->helper, r->addend);
    }
    printf("};\n");
}

/* The version of an operation's stencil (enum jit_acc) its name ends in
 * (stencils.c: none, __acc_rs1, __acc_rs2); *len is the operation's name's
 * length. */
static int version_of_name(const char *name, int *len)
{
    static const char *const suffixes[JIT_ACC_VERSIONS] = {[JIT_ACC_RS1] = "__acc_rs1", [JIT_ACC_RS2] = "__acc_rs2"};
    size_t n = strlen(name);
    for (int v = JIT_ACC_RS1; v < JIT_ACC_VERSIONS; v++) {
        size_t k = strlen(suffixes[v]);
        if (n > k && strcmp(name + n - k, suffixes[v]) == 0) {
            *len = (int)(n - k);
            return v;
        }
    }
    *len = (int)n;
    return JIT_ACC_NONE;
}

/* The stencil table, and the block stencils (block_*) apart: they are not
 * operations. */
static void print_tables(void)
{
    for (int i = 0; i < nstencils; i++) {
        int len;
        version_of_name(stencils[i].name, &len);
        bool illegal = len == (int)strlen("illegal") && strncmp(stencils[i].name, "illegal", (size_t)len) == 0;
        if (stencils[i].why[0] && !illegal)
            die("%s: the stencil %s %s", variant, stencils[i].name, stencils[i].why);
    }
    for (int i = 0; i < nstencils; i++)
        if (strncmp(stencils[i].name, "block_", 6) == 0) {
            if (stencils[i].why[0])
                die("%s %s", stencils[i].name, stencils[i].why);
            printf("static const jit_stencil jit_%s_%s = {jit_code_%s_%s, sizeof jit_code_%s_%s, %d, "
                   "jit_relocs_%s_%s};\n", variant, stencils[i].name, variant, stencils[i].name, variant,
                   stencils[i].name, stencils[i].nrelocs, variant, stencils[i].name);
        }
    printf("static const jit_stencil jit_stencils_%s[RV_OP_COUNT][JIT_ACC_VERSIONS] = {\n", variant);
    for (int i = 0; i < nstencils; i++)
        if (!stencils[i].why[0] && strncmp(stencils[i].name, "block_", 6) != 0) {
            int len, version = version_of_name(stencils[i].name, &len);
            printf("    [RV_OP_%.*s][%d] = {jit_code_%s_%s, sizeof jit_code_%s_%s, %d, jit_relocs_%s_%s},\n", len,
                   stencils[i].name, version, variant, stencils[i].name, variant, stencils[i].name,
                   stencils[i].nrelocs, variant, stencils[i].name);
        }
    printf("};\n\n");
}

static void read_object(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("%s: cannot open", path);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx;
    GElf_Ehdr eh;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || eh.e_machine != EM_X86_64 ||
        elf_getshdrstrndx(e, &shstrndx) != 0)
        die("%s: not an x86-64 ELF object", path);
    int first = nstencils; /* the variant's earlier objects' stencils are printed */
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR))
            stencil_of_section(e, shstrndx, elf_ndxscn(scn));
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_REL)
            die("REL relocations are not supported");
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA)
            read_relocations(e, shstrndx, scn, &sh);
    }
    for (int i = first; i < nstencils; i++)
        if (!stencils[i].why[0]) {
            print_bytes(&stencils[i]);
            print_relocs(&stencils[i]);
        }
    elf_end(e);
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: gen_stencils VARIANT=STENCILS.o...");
    if (elf_version(EV_CURRENT) == EV_NONE)
        die("libelf: %s", elf_errmsg(-1));
    printf("/* Generated by lib/jit/gen_stencils.c: do not edit. */\n\n");
    for (int i = 1; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i])
            die("%s: expected VARIANT=OBJECT", argv[i]);
        *eq = '\0';
        if (variant && strcmp(variant, argv[i]) != 0) {
            print_tables();
            memset(stencils, 0, sizeof stencils);
            nstencils = 0;
        }
        variant = argv[i];
        read_object(eq + 1);
    }
    if (variant)
        print_tables();
    printf("static void (*const jit_helpers[])(void) = {\n");
    for (int i = 0; i < nhelpers; i++)
        printf("    (void (*)(void))%s,\n", helpers[i]);
    printf("};\n");
    return 0;
}
