/* PREFIX.bbmap: what each block id of the .bb files is. */
#ifndef BBV_BBMAP_H
#define BBV_BBMAP_H

#include "outfile.h"
#include "profile.h"
#include "symbols.h"

/* Lines "id start_pc length symbol+offset", after a commented header. */
void bbmap_write(outfile *o, const bbv_profile *bp, const rv_symtab *syms);

#endif
