#include "bbv_map.h"

void bbv_map_write(outfile *o, const bbv_profile *bp, const rv_symtab *syms)
{
    outfile_printf(o, "# bbv block map: id start_pc instructions symbol+offset\n");
    for (uint32_t i = 0; i < bp->nblocks; i++) {
        char where[256];
        symtab_describe(syms, bp->blocks[i].pc, where, sizeof where);
        outfile_printf(o, "%u 0x%llx %u %s\n", i + 1, (unsigned long long)bp->blocks[i].pc, bp->blocks[i].len,
                       where);
    }
}
