/* Symbol lookup as perf does it: a symbol holds [address, address + size),
 * one of size 0 reaches to the next symbol; code outside every symbol has
 * none. Labels ("name+0xoff" or a bare pc) and function grouping agree. */
#include <criterion/criterion.h>
#include <string.h>

#include "profile.h"
#include "symbols.h"

/* _start 0x22 long, a gap, a zero-size label, a sized function after it. */
static rv_symbol syms[] = {{.addr = 0x10000, .size = 0x22, .name = "_start"},
                           {.addr = 0x10040, .size = 0, .name = "label"},
                           {.addr = 0x10080, .size = 0x40, .name = "f"},
                           {.addr = 0x10090, .size = 0x8, .name = "inner"}};
static rv_symtab st = {.syms = syms, .n = 4};

static const char *label(uint64_t pc)
{
    static char buf[64];
    return symtab_describe(&st, pc, buf, sizeof buf);
}

Test(symbols, labels_respect_sizes)
{
    cr_assert_str_eq(label(0x10010), "_start+0x10");
    cr_assert_str_eq(label(0x10022), "0x10022", "past _start's 0x22 bytes: no symbol");
    cr_assert_str_eq(label(0x10044), "label+0x4", "a zero-size symbol reaches to the next");
    cr_assert_str_eq(label(0x1007e), "label+0x3e");
    cr_assert_str_eq(label(0x10092), "inner+0x2", "the nearest symbol holding it");
    cr_assert_str_eq(label(0x1009a), "f+0x1a", "past inner, still inside f");
    cr_assert_str_eq(label(0x100c0), "0x100c0", "past f");
    cr_assert_str_eq(label(0xfff0), "0xfff0", "below every symbol");
}

Test(symbols, functions_group_as_labels_name_them)
{
    symbolizer s = {.syms = &st};
    uint64_t pcs[] = {0xfff0, 0x10010, 0x10022, 0x10044, 0x1007e, 0x10092, 0x1009a, 0x100c0};
    for (size_t i = 0; i < sizeof pcs / sizeof *pcs; i++) {
        const rv_symbol *sym = symtab_find(&st, pcs[i]);
        uint64_t fn = symbolizer_key(&s, GRAN_FUNCTION, pcs[i]);
        cr_assert_eq(fn, sym ? sym->addr : 1, "pc 0x%lx: function 0x%lx, label %s", (unsigned long)pcs[i],
                     (unsigned long)fn, label(pcs[i]));
    }
}
