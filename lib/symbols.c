#include "symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int by_addr(const void *a, const void *b)
{
    const rv_symbol *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return strcmp(x->name, y->name); /* deterministic among aliases */
}

int symtab_load(rv_symtab *st, const char *path, uint64_t bias)
{
    memset(st, 0, sizeof *st);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not block */
    struct stat sb;
    if (fd < 0)
        return -1;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return -1;
    }
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e) {
        close(fd);
        return -1;
    }
    size_t cap = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t count = data ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
                continue;
            int type = GELF_ST_TYPE(sym.st_info);
            if (type != STT_FUNC && type != STT_OBJECT)
                continue;
            const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            if (st->n == cap) {
                cap = cap ? cap * 2 : 1024;
                rv_symbol *grown = realloc(st->syms, cap * sizeof *grown);
                if (!grown)
                    abort();
                st->syms = grown;
            }
            st->syms[st->n++] = (rv_symbol){sym.st_value + bias, sym.st_size, strdup(name)};
        }
    }
    elf_end(e);
    close(fd);
    if (st->n > 1) /* no symbols: syms is NULL, which qsort must not get */
        qsort(st->syms, st->n, sizeof *st->syms, by_addr);
    return 0;
}

void symtab_free(rv_symtab *st)
{
    for (size_t i = 0; i < st->n; i++)
        free(st->syms[i].name);
    free(st->syms);
    memset(st, 0, sizeof *st);
}

/* Where the symbol at index i ends: its size, or for a symbol of size 0 the
 * next symbol above it (perf's symbols__fixup_end), or the end of memory. */
static uint64_t symbol_end(const rv_symtab *st, size_t i)
{
    const rv_symbol *s = &st->syms[i];
    if (s->size)
        return s->addr + s->size;
    for (size_t j = i + 1; j < st->n; j++)
        if (st->syms[j].addr > s->addr)
            return st->syms[j].addr;
    return UINT64_MAX;
}

const rv_symbol *symtab_find(const rv_symtab *st, uint64_t addr)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) { /* first symbol above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (st->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* The nearest symbol below addr whose extent holds it (a few back:
     * aliases, and symbols nested in a larger one). */
    for (size_t i = lo; i-- > 0 && lo - i <= 16;)
        if (addr < symbol_end(st, i))
            return &st->syms[i];
    return NULL;
}

char *symtab_describe(const rv_symtab *st, uint64_t addr, char *buf, size_t size)
{
    const rv_symbol *s = symtab_find(st, addr);
    if (s)
        snprintf(buf, size, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
    else
        snprintf(buf, size, "0x%llx", (unsigned long long)addr);
    return buf;
}
