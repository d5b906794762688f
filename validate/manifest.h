/* The sweep manifest: one SimPoint configuration of one program per line,
 * tab-separated, columns named by a header line (see validate --help). */
#ifndef VD_MANIFEST_H
#define VD_MANIFEST_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

typedef struct vd_mrow {
    size_t line;
    char *program;  /* NULL: the full run's program name */
    uint64_t interval;
    long max_k;
    double bic;     /* NAN when not given */
    char *method;   /* how the simulation points were chosen; "simpoint" when not given */
    double seconds; /* wall time of choosing them (profiling + clustering); NAN when not given */
    char *simpoints, *weights, *labels, *full, *regions; /* resolved; NULL when absent */
} vd_mrow;

typedef struct vd_manifest {
    char *path;
    vd_mrow *rows;
    size_t n;
} vd_manifest;

/* DEFAULT_FULL (may be NULL) stands in for a missing "full" column or cell. */
bool vd_manifest_load(vd_manifest *m, const char *path, const char *default_full, vd_diag *d);
void vd_manifest_free(vd_manifest *m);

#endif
