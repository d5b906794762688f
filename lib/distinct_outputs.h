/* Two outputs of one command that name the same file would silently
 * overwrite each other (the last one written wins): such a command line is
 * refused before anything runs. */
#ifndef RV_DISTINCT_OUTPUTS_H
#define RV_DISTINCT_OUTPUTS_H

#include <stddef.h>

typedef struct named_output {
    const char *option;        /* as the user wrote it: "-o", "--report", "-saveLabels" */
    const char *path;          /* NULL: not asked for */
} named_output;

/* Dies with "OPT1 and OPT2 name the same file, 'PATH'" when two of the n
 * outputs are one file: the same regular file once it exists (device and
 * inode, whatever the paths), or the same path once its directory is
 * resolved (links, '.', '..') when it does not exist yet; '-' (standard
 * output) given twice counts too. Outputs that are not regular files
 * (/dev/null, a FIFO, a terminal) may be shared. */
void outputs_distinct(const named_output *outs, size_t n);

#endif
