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
/* The symbol containing addr (or the nearest one below it), or NULL. */
const rv_symbol *symtab_find(const rv_symtab *st, uint64_t addr);
/* Format "name+0xoff" (or "0xaddr" when unknown) into buf. */
char *symtab_describe(const rv_symtab *st, uint64_t addr, char *buf, size_t size);

#endif
