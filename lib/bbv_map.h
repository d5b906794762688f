/* PREFIX.bbmap: what each block id of the .bb files is. */
#ifndef RV_BBV_MAP_H
#define RV_BBV_MAP_H

#include "outfile.h"
#include "bbv_profile.h"
#include "symbols.h"

/* Lines "id start_pc length symbol+offset", after a commented header. */
void bbv_map_write(outfile *o, const bbv_profile *bp, const rv_symtab *syms);

#endif
