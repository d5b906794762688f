/* ELF symbol table lookups: address -> "function+0xoffset". */
#ifndef RV_SYMBOLS_H
#define RV_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

typedef struct rv_symbol {
    uint64_t addr, size;
    char *name;
} rv_symbol;

typedef struct rv_symtab {
    rv_symbol *syms; /* sorted by address */
    size_t n;
} rv_symtab;

/* Load the function and object symbols of an ELF file, shifted by bias.
 * A file without a symbol table gives an empty table. Returns 0 or -1. */
int symtab_load(rv_symtab *st, const char *path, uint64_t bias);
void symtab_free(rv_symtab *st);
/* The symbol containing addr, as perf finds it: [address, address + size),
 * a symbol of size 0 reaching to the next symbol above it; the nearest
 * below addr when several do. NULL when none does (code outside every
 * symbol). Labels and function grouping (lib/profile.c) both use it. */
const rv_symbol *symtab_find(const rv_symtab *st, uint64_t addr);
/* Format "name+0xoff", or "0xaddr" outside every symbol, into buf. */
char *symtab_describe(const rv_symtab *st, uint64_t addr, char *buf, size_t size);

#endif
